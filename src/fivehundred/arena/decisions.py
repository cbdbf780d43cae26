"""Decision duplicate: where two players would choose differently, play on from each choice.

    fivehundred arena --team-a pimc --team-b pimc:strong --decisions auction --hands 400

Whole games measure everything at once and need hundreds of them to separate two close
players. This compares one kind of decision at a time, on the positions where it matters:
each deal is played by player A at every seat; at every decision of the chosen phase
(``auction``, ``discard`` or ``play``) with a choice, A and B are both asked (fresh players,
seeded alike). Where they differ, the hand is played to its end twice, once from each
choice, every seat by A (seeded alike in both branches), and the chooser's side's margin
(its points less the others', their mean with more than two sides) is compared: B's choice
less A's. The line of play goes on with A's choice.

Reported: the mean difference per disagreement and per deal (the sum over the deal's
disagreements: what B's choices would gain in that phase, to a first approximation), each
with a normal-approximation 95 % interval over the deals. Every deal is a pure function of
its :class:`DecisionTask`, so a process pool gives the same results as a serial run.

At game scores (``--scores LO,HI``): each deal is played as a hand of a game, every side's
score drawn from LO to HI (in tens, from the deal's number), and every seat sees them. The
margin is then the chooser's side's chance to win the game after the hand, in percentage
points: 100 or 0 when the hand ends the game, else the fitted model's chance
(:func:`fivehundred.bots.equity.chance_after`). Games are won and lost near the end,
where the players value their calls and cards by that chance, and this measures those
decisions in the arena's own unit.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from fivehundred.actions import Action, action_text
from fivehundred.arena.runner import ordered_map, sides_count
from fivehundred.arena.stats import mean_interval
from fivehundred.bots import Player, equity, make_player
from fivehundred.game import HandState
from fivehundred.rules import Rules, rules_from_dict
from fivehundred.scoring import side_of_seats

PHASES = ("auction", "discard", "play")


@dataclass(frozen=True)
class DecisionTask:
    """One deal, played by ``player_a``; ``player_b`` is asked at each ``phase`` decision."""

    rules: dict[str, Any]
    player_a: str
    player_b: str
    phase: str
    deal: int
    #: Each side's score is drawn from this range (in tens): the hand is one of a game,
    #: measured in the chance to win it; None: a single hand, measured in points.
    scores: tuple[int, int] | None = None

    def game_scores(self) -> tuple[int, ...]:
        """The running scores the deal is played at (none for a single hand)."""
        if self.scores is None:
            return ()
        low, high = self.scores
        rules = rules_from_dict(self.rules)
        rng = random.Random(f"decisions/scores/{self.deal}")
        return tuple(rng.randrange(low, high + 1, 10) for _ in range(sides_count(rules)))


@dataclass(frozen=True)
class Disagreement:
    """One decision where A and B differ, and the chooser's margin after each choice."""

    seat: int
    trick: int  # tricks completed before the decision
    action_a: str
    action_b: str
    margin_a: float
    margin_b: float

    @property
    def difference(self) -> float:
        return self.margin_b - self.margin_a


@dataclass(frozen=True)
class DealOutcome:
    deal: int
    decisions: int  # decisions of the phase with more than one legal action
    disagreements: tuple[Disagreement, ...] = field(default=())
    scores: tuple[int, ...] = ()  # the game scores the hand was played at, if any


def _margin(state: HandState, seat: int, scores: tuple[int, ...] = ()) -> float:
    """The chooser's side's points less the others' (their mean with more than two
    sides); at game scores, its chance to win the game after the hand, in percent."""
    sides = side_of_seats(state.rules)
    mine = sides[seat]
    if scores:
        return 100 * equity.chance_after(state.rules, scores, state.result.score, mine)[0]
    points = state.result.points
    others = [p for side, p in enumerate(points) if side != mine]
    return points[mine] - (statistics.fmean(others) if others else 0.0)


def _players(name: str, seed: int, seats: int) -> list[Player]:
    return [make_player(name, seed * 16 + seat) for seat in range(seats)]


def _play_on(state: HandState, name: str, seed: int, scores: tuple[int, ...]) -> HandState:
    players = _players(name, seed, state.rules.seats)
    while not state.is_over:
        seat = state.to_move
        state.apply(players[seat].act(state.observation(seat, scores)))
    return state


def compare_deal(task: DecisionTask) -> DealOutcome:
    """Play the task's deal and compare A's and B's choices (see the module)."""
    rules = rules_from_dict(task.rules)
    state = HandState.deal(rules, task.deal % rules.players, f"decisions/{task.deal}")
    scores = task.game_scores()
    line = _players(task.player_a, task.deal, rules.seats)
    two = rules.joker_names
    decisions = 0
    found: list[Disagreement] = []
    while not state.is_over:
        seat = state.to_move
        obs = state.observation(seat, scores)
        if state.phase != task.phase or len(obs.legal) < 2:
            state.apply(line[seat].act(obs))
            continue
        decisions += 1
        seed = task.deal * 1_000 + decisions
        choice_a: Action = make_player(task.player_a, seed).act(obs)
        choice_b: Action = make_player(task.player_b, seed).act(obs)
        if choice_a != choice_b:
            margins = []
            for choice in (choice_a, choice_b):
                branch = state.clone()
                branch.apply(choice)
                margins.append(_margin(_play_on(branch, task.player_a, seed, scores), seat, scores))
            found.append(
                Disagreement(
                    seat,
                    len(state.tricks),
                    action_text(choice_a, two),
                    action_text(choice_b, two),
                    *margins,
                )
            )
        state.apply(choice_a)
    return DealOutcome(task.deal, decisions, tuple(found), scores)


def decision_tasks(
    rules: Rules,
    player_a: str,
    player_b: str,
    phase: str,
    deals: int,
    seed: int,
    scores: tuple[int, int] | None = None,
) -> list[DecisionTask]:
    """The tasks of a comparison; ``scores``: play each deal at game scores drawn from
    this range (see the module). Raises ValueError for an unknown phase, or scores the
    table's game model does not cover."""
    if phase not in PHASES:
        raise ValueError(f"the phase must be one of {', '.join(PHASES)}; got {phase!r}")
    if scores is not None:
        low, high = scores
        if equity.table_kind(rules) is None:
            raise ValueError(
                "game scores need a table the game model covers: three, four "
                "or six players (two sides of three)"
            )
        if not low <= high < rules.target or low <= -rules.target:
            raise ValueError(
                f"the scores must run from LO to HI, each above "
                f"-{rules.target} and below {rules.target}; got {low},{high}"
            )
    data = rules.to_dict()
    return [
        DecisionTask(data, player_a, player_b, phase, seed * 100_003 + i, scores)
        for i in range(deals)
    ]


def compare_decisions(
    tasks: list[DecisionTask],
    workers: int = 1,
    progress: Callable[[DealOutcome], None] | None = None,
) -> list[DealOutcome]:
    """Every task's outcome, in task order whatever the number of workers."""
    results = []
    for outcome in ordered_map(compare_deal, tasks, workers):
        if progress is not None:
            progress(outcome)
        results.append(outcome)
    return results


def summary(outcomes: list[DealOutcome], task: DecisionTask) -> dict[str, Any]:
    """The comparison as JSON-ready numbers (see the module)."""
    each = [d.difference for o in outcomes for d in o.disagreements]
    per_deal = [sum(d.difference for d in o.disagreements) for o in outcomes]
    mean, lo, hi = mean_interval(each)
    deal_mean, deal_lo, deal_hi = mean_interval(per_deal)
    return {
        "player_a": task.player_a,
        "player_b": task.player_b,
        "phase": task.phase,
        "unit": "chance to win the game, percentage points" if task.scores else "points",
        "scores": list(task.scores) if task.scores else None,
        "deals": len(outcomes),
        "decisions": sum(o.decisions for o in outcomes),
        "disagreements": len(each),
        "changed_result": sum(1 for x in each if x),
        "b_minus_a_per_disagreement": {"mean": mean, "ci95": [lo, hi]},
        "b_minus_a_per_deal": {"mean": deal_mean, "ci95": [deal_lo, deal_hi]},
    }


def disagreement_rows(outcomes: list[DealOutcome]) -> Iterator[dict[str, Any]]:
    """One JSON-ready row per disagreement (for ``--out``)."""
    for outcome in outcomes:
        for d in outcome.disagreements:
            row = {"deal": outcome.deal, **asdict(d), "difference": d.difference}
            if outcome.scores:
                row["scores"] = list(outcome.scores)
            yield row


__all__ = [
    "PHASES",
    "DealOutcome",
    "DecisionTask",
    "Disagreement",
    "compare_deal",
    "compare_decisions",
    "decision_tasks",
    "disagreement_rows",
    "summary",
]
