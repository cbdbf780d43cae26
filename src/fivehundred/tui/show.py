"""``fivehundred show RECORD``: a hand or game record replayed one step at a time, every
hand face up (it is a replay: nothing is hidden any more)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar, TextIO

from rich.console import Group
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Static

from fivehundred.game import AUCTION, DISCARD, GameState, HandState
from fivehundred.record import replay_record
from fivehundred.scoring import sides_count
from fivehundred.tui import render, storage
from fivehundred.tui.hangup import watch_terminal
from fivehundred.tui.widgets import info_renderable, table_renderable
from fivehundred.words import action_label


@dataclass(frozen=True)
class Step:
    """The table after one action (or at the deal) of a replayed record."""

    hand_number: int
    state: HandState
    scores: tuple[int, ...]
    text: str


def steps_of(state: HandState | GameState) -> list[Step]:
    """Every step of a replayed hand or game."""
    sides = sides_count(state.rules)
    zero = (0,) * sides
    if isinstance(state, GameState):
        hands = list(state.finished_hands)
        if not state.is_over and state.hand.history:
            hands.append(state.hand)
        history = [zero, *state.score_history]
    else:
        # A single hand: the score after it is its points.
        hands = [state]
        history = [zero, *([tuple(state.result.points)] if state.is_over else [])]
    steps: list[Step] = []
    for index, hand in enumerate(hands):
        number = index + 1
        scores = tuple(history[index]) if index < len(history) else tuple(history[-1])
        rules = hand.rules
        two = rules.joker_names
        replay = hand.as_dealt()
        steps.append(
            Step(
                number,
                replay.clone(),
                scores,
                f"Hand {number}: {render.seat_name(rules, hand.dealer)} deals.",
            )
        )
        for action in hand.history:
            seat, phase = replay.to_move, replay.phase
            replay.replay_action(action)
            label = action_label(action, two)
            if phase == AUCTION:
                text = f"{render.seat_name(rules, seat)} {'passes' if label == 'pass' else 'bids ' + label}"
            elif phase == DISCARD:
                text = f"{render.seat_name(rules, seat)} discards {label}"
            else:
                text = f"{render.seat_name(rules, seat)}: {label}"
            if replay.is_over:
                after = history[index + 1] if index + 1 < len(history) else scores
                result = replay.result
                points = ", ".join(
                    f"{render.side_short(rules, side)} {render.points_text(result.points[side])}"
                    for side in range(len(after))
                )
                # Each score named by its side, as the points are ("60–-520" read badly).
                total = ", ".join(
                    f"{render.side_short(rules, side)} {score}" for side, score in enumerate(after)
                )
                text += f" — hand over: points {points}; score {total}"
                scores = tuple(after)
            elif replay.tricks and not replay.trick_cards and phase == "play":
                text += f" — {render.seat_name(rules, replay.tricks[-1].winner)} wins the trick"
            steps.append(Step(number, replay.clone(), scores, text))
    return steps


def load_steps(path: str) -> list[Step]:
    """Read and replay a record file; raises SaveError or FiveHundredError with a message."""
    data = storage.read_json(Path(path), "record")
    _, state = replay_record(data)
    return steps_of(state)


def print_steps(steps: list[Step], out: TextIO) -> None:
    last_hand = 0
    for step in steps:
        if step.hand_number != last_hand:
            last_hand = step.hand_number
            print(f"\n== Hand {step.hand_number} ==", file=out)
            for line in render.all_hands_lines(step.state):
                print(line, file=out)
        print(f"  {step.text}", file=out)


class ShowApp(App[int]):
    """Step through a record with ← → (Home/End: first/last, PgUp/PgDn: a hand)."""

    TITLE = "Five Hundred — replay"
    CSS = """
    Screen { background: #0f1a12; }
    #info { height: 2; padding: 0 1; background: #1b2a1e; }
    #table { height: 1fr; padding: 1 2; }
    #step { height: auto; padding: 0 1; color: #f0c674; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,space", "step(1)", "Next"),
        Binding("left", "step(-1)", "Back"),
        Binding("pagedown", "hand(1)", "Next hand"),
        Binding("pageup", "hand(-1)", "Previous hand"),
        Binding("home", "go(0)", "Start"),
        Binding("end", "go(-1)", "End"),
        Binding("q,escape", "quit", "Quit"),
    ]

    def __init__(self, steps: list[Step], name: str = "") -> None:
        super().__init__()
        self.steps = steps
        self.index = 0
        self.record_name = name

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="info")
            with Horizontal():
                yield Static(id="table")
            yield Static(id="step")
        yield Footer()

    def on_mount(self) -> None:
        self.draw()
        watch_terminal(self)  # its terminal going away ends it

    def draw(self) -> None:
        step = self.steps[self.index]
        state = step.state
        obs = state.observation(0, step.scores)
        self.query_one("#info", Static).update(
            info_renderable(obs, step.hand_number, step.scores, state.rules.target)
        )
        # Before the exchange the kitty lies face down; after it, the discards.
        label, cards = ("kitty: ", state.kitty) if state.kitty else ("discards: ", state.discards)
        kitty = Text.assemble(
            (label, "dim"), render.cards_text(cards, None, state.rules.joker_names)
        )
        self.query_one("#table", Static).update(
            Group(table_renderable(obs, hands=state.hands), kitty)
        )
        self.query_one("#step", Static).update(
            f"Step {self.index + 1}/{len(self.steps)}: {step.text}"
        )

    def action_step(self, delta: int) -> None:
        self.index = max(0, min(len(self.steps) - 1, self.index + delta))
        self.draw()

    def action_go(self, where: int) -> None:
        self.index = where % len(self.steps)
        self.draw()

    def action_hand(self, delta: int) -> None:
        target = self.steps[self.index].hand_number + delta
        for index, step in enumerate(self.steps):
            if step.hand_number == target:
                self.index = index
                self.draw()
                return
