"""Textual widgets of the table: cards, the bid box, the table itself."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from fivehundred.actions import BID_BASE, Action
from fivehundred.cards import JOKER, SUIT_SYMBOLS, Card, CardMask
from fivehundred.game import GameState
from fivehundred.observation import Observation
from fivehundred.play import PlayContext
from fivehundred.tui import render

RED = "#e5484d"
BLACK_SUIT = "#e6e6e6"
JOKER_STYLE = "bold #d4a72c"


def card_text(card: Card, two_jokers: bool = False, dim: bool = False) -> Text:
    """A card in its colour: red for ♦ ♥ (and the red joker), gold for the black joker."""
    label = render.card_label(card, two_jokers)
    if card >= JOKER:
        style = JOKER_STYLE if card > JOKER else f"bold {RED}"
    else:
        style = f"bold {RED}" if render.is_red(card) else f"bold {BLACK_SUIT}"
    if dim:
        style = "#6b6b6b"
    return Text(label, style=style)


def action_text(action: Action, two_jokers: bool = False) -> Text:
    """An action with its suit symbols coloured (♦ ♥ in red)."""
    text = Text()
    for char in render.action_label(action, two_jokers):
        text.append(char, style=f"bold {RED}" if char in "♦♥" else "bold")
    return text


class CardWidget(Static, can_focus=True):
    """One card of the person's hand. Enter, space or a click chooses it."""

    DEFAULT_CSS = """
    CardWidget {
        width: 6; height: 3; border: round #8a8a8a; content-align: center middle;
        background: #1d2b1f; margin: 0 0 0 0;
    }
    CardWidget:focus { border: round #f0c674; background: #2e4532; }
    CardWidget.illegal { border: round #3c3c3c; background: #151d16; }
    CardWidget.marked { border: double #f0c674; background: #4a3f1c; }
    CardWidget.hinted { border: heavy #5fd7ff; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "choose", "Choose", show=False),
        Binding("left", "neighbour(-1)", show=False),
        Binding("right", "neighbour(1)", show=False),
    ]

    class Chosen(Message):
        def __init__(self, card: Card) -> None:
            self.card = card
            super().__init__()

    def __init__(self, card: Card, two_jokers: bool) -> None:
        self.card = card
        self.two_jokers = two_jokers
        self.reason: str | None = None
        super().__init__(card_text(card, two_jokers))

    def set_state(self, reason: str | None, marked: bool, hinted: bool, gap: bool) -> None:
        """Show the card as playable or not (dimmed, the reason on hover), marked for
        discarding, or hinted; ``gap`` leaves a space before a new suit."""
        if reason != self.reason or not self.is_mounted:
            self.reason = reason
            self.update(card_text(self.card, self.two_jokers, dim=reason is not None))
            self.tooltip = None if reason is None else f"Not allowed: {reason}"
        self.set_class(reason is not None, "illegal")
        self.set_class(marked, "marked")
        self.set_class(hinted, "hinted")
        self.styles.margin = (0, 0, 0, 1 if gap else 0)

    def action_choose(self) -> None:
        self.post_message(self.Chosen(self.card))

    def on_click(self) -> None:
        self.focus()
        self.post_message(self.Chosen(self.card))

    def action_neighbour(self, step: int) -> None:
        siblings = (
            [w for w in self.parent.children if isinstance(w, CardWidget)] if self.parent else []
        )
        if self in siblings:
            siblings[(siblings.index(self) + step) % len(siblings)].focus()


class HandRow(Horizontal):
    """The person's hand as a row of cards, sorted for the contract."""

    DEFAULT_CSS = """
    HandRow { height: 3; width: 100%; align-horizontal: center; }
    """

    def show(self, cards: Sequence[Card], reasons: dict[Card, str | None], two_jokers: bool,
             marked: set[Card], hinted: Card | None, groups: list[list[Card]],
             focus: bool) -> None:  # fmt: skip
        """Show these cards; the widgets are kept while the hand is unchanged (so focus
        stays put) and rebuilt when it changes."""
        current = [w for w in self.children if isinstance(w, CardWidget)]
        if [w.card for w in current] != list(cards):
            focused = self.app.focused
            self.remove_children()
            current = [CardWidget(card, two_jokers) for card in cards]
            self.mount_all(current)
            if focus or (isinstance(focused, CardWidget) and focused.parent is self):
                focus = True
        first_of_group = {group[0] for group in groups[1:]}
        for widget in current:
            card = widget.card
            widget.set_state(reasons.get(card), card in marked, card == hinted,
                             card in first_of_group)  # fmt: skip
        if focus and current:
            target = next((w for w in current if w.reason is None), current[0])
            focused = self.app.focused
            # Keep the focus on a playable card of this hand; else the first playable one.
            if not (isinstance(focused, CardWidget) and focused in current
                    and focused.reason is None):  # fmt: skip
                self.call_after_refresh(target.focus)


class KeyGrid(Container):
    """A grid of buttons that the arrow keys move around."""

    columns = 5

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", show=False),
        Binding("right", "step(1)", show=False),
        Binding("up", "step(-5)", show=False),
        Binding("down", "step(5)", show=False),
    ]

    def action_step(self, step: int) -> None:
        buttons = [w for w in self.query("Button") if w.focusable]
        if not buttons:
            return
        focused = self.app.focused
        all_buttons = list(self.query("Button"))
        if focused not in all_buttons:
            buttons[0].focus()
            return
        index = all_buttons.index(focused)
        size = len(all_buttons)
        while True:
            index = (index + step) % size
            if all_buttons[index].focusable:
                all_buttons[index].focus()
                return


def table_renderable(obs: Observation, game: GameState | None, hands: Sequence[CardMask] | None = None,
                     title: str = "") -> RenderableType:  # fmt: skip
    """The table seen from South: the other seats with their cards held (or shown), and
    the trick in the middle. ``hands`` shows every hand face up (replays)."""
    two = obs.rules.two_jokers
    ctx = render.display_context(obs.contract, obs.joker_suits)
    played = {seat: action for seat, action in obs.trick}
    last_winner = None
    if not obs.trick and obs.tricks:
        plays, last_winner = obs.tricks[-1]
        played = {seat: action for seat, action in plays}
    exposed = dict(obs.exposed)

    def seat_block(seat: int) -> Text:
        text = Text()
        name = render.SEAT_LABELS[seat] if seat else "You (South)"
        style = "bold"
        if obs.to_move == seat and obs.phase != "done":
            style = "bold reverse #f0c674"
        text.append(f" {name} ", style=style)
        if obs.contractor == seat and obs.contract >= BID_BASE:
            text.append(" ★", style="#f0c674")
        if obs.dealer == seat:
            text.append(" (dealer)", style="dim")
        text.append("\n")
        if seat not in obs.active and obs.active:
            text.append("sits out (misère)", style="dim")
        elif hands is not None:
            text.append_text(cards_line(hands[seat], ctx, two))
        elif seat in exposed:
            text.append_text(cards_line(exposed[seat], ctx, two))
        elif seat != 0:
            text.append(f"{obs.hand_sizes[seat]} cards", style="dim")
        calls = [render.action_label(a, two) for s, a in obs.auction if s == seat]
        if obs.phase == "auction" and calls:
            text.append(f"\nbid: {' '.join(calls)}", style="italic")
        elif obs.tricks_won[seat] and obs.contract >= BID_BASE:
            text.append(f"\ntricks: {obs.tricks_won[seat]}", style="dim")
        return text

    def played_card(seat: int) -> Text:
        action = played.get(seat)
        if action is None:
            return Text("·", style="dim")
        text = action_text(action, two)
        if last_winner is not None:
            text.stylize("dim")
            if seat == last_winner:
                text.append(" ◀ won", style="italic #f0c674")
        return text

    grid = Table.grid(expand=True)
    grid.add_column(justify="left", ratio=1)
    grid.add_column(justify="center", ratio=1)
    grid.add_column(justify="right", ratio=1)
    grid.add_row("", seat_block(2), "")
    grid.add_row("", "", "")
    grid.add_row("", played_card(2), "")
    grid.add_row(
        seat_block(1), Text.assemble(played_card(1), "     ", played_card(3)), seat_block(3)
    )
    grid.add_row("", played_card(0), "")
    grid.add_row("", "", "")
    south = (
        seat_block(0)
        if hands is not None
        else Text("You (South)", style="bold reverse #f0c674" if obs.to_move == 0 else "bold")
    )
    grid.add_row("", south, "")
    parts: list[RenderableType] = []
    if title:
        parts.append(Text(title, style="bold"))
    parts.append(grid)
    return Group(*parts)


def cards_line(mask: CardMask, ctx: PlayContext | None, two: bool) -> Text:
    text = Text()
    groups = render.suit_groups(render.sorted_cards(mask, ctx), ctx)
    for index, group in enumerate(groups):
        if index:
            text.append("  ")
        for position, card in enumerate(group):
            if position:
                text.append(" ")
            text.append_text(card_text(card, two))
    return text


def info_renderable(obs: Observation, hand_number: int, scores: Sequence[int], target: int) -> Text:
    """The line above the table: the hand, the contract and the tricks of each side."""
    two = obs.rules.two_jokers
    text = Text()
    text.append(f"Hand {hand_number}", style="bold")
    text.append(f" · dealer {render.SEAT_NAMES[obs.dealer]}")
    if obs.contract >= BID_BASE:
        text.append(" · contract ")
        text.append_text(action_text(obs.contract, two))
        side = "us" if obs.contractor % 2 == 0 else "them"
        text.append(f" by {render.SEAT_NAMES[obs.contractor]} ({side})")
        if obs.trump == 4 and obs.joker_suits[0] >= 0:
            text.append(f" · joker is {SUIT_SYMBOLS[obs.joker_suits[0]]}")
        ours, theirs = render.side_tricks(obs.tricks_won)
        text.append(f" · tricks us {ours} – them {theirs}", style="bold")
    elif obs.phase == "auction":
        text.append(" · bidding")
    text.append(f"\nScore: us {scores[0]} – them {scores[1]} (game to {target})")
    return text


def sheet_renderable(game: GameState) -> RenderableType:
    """The score sheet: hand by hand, running totals, the 490 cap marked where it held."""
    table = Table(title="Score sheet", expand=True, box=None, padding=(0, 1), title_style="bold")
    table.add_column("#", justify="right", style="dim")
    table.add_column("contract")
    table.add_column("us", justify="right")
    table.add_column("them", justify="right")
    rows = render.score_sheet(game)
    for row in rows[-12:]:
        cells = []
        for side in (0, 1):
            cell = Text(f"{row.totals[side]}")
            if row.points[side]:
                cell = Text.assemble((f"{row.points[side]:+d} ", "dim"), cell)
            if row.capped[side]:
                cell.append(" cap", style="bold #f0c674")
            cells.append(cell)
        table.add_row(str(row.number), row.contract, *cells)
    parts: list[RenderableType] = [table]
    rules = game.rules
    if rules.rule_490 and any(any(r.capped) for r in rows):
        parts.append(Text("cap: defenders' points stop at 490 (R-490)", style="dim italic"))
    elif rules.rule_490 and any(s == rules.target - 10 for s in game.scores):
        parts.append(Text("at 490: only a contract made wins (R-490)", style="dim italic"))
    return Group(*parts)


class Panel(Static):
    """A static panel refreshed from the game."""


__all__ = ["CardWidget", "HandRow", "KeyGrid", "Panel", "Widget", "table_renderable"]
