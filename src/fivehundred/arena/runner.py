"""Playing duplicate matches between two teams of players.

A *match* is one deal seed played once: a complete game (hands dealt from the seed until a
side wins) or a single hand. Duplicate: every deal seed is played once with team A in the
seats of each side in turn (twice with two sides), so both teams get the same cards and
luck cancels out. With more than two sides (three or five players, three teams of two)
team A takes one side and team B plays every other; A's fair share of wins is then
1 / sides.

Every match is a pure function of its :class:`MatchTask` (players are seeded from the deal
seed and seat), so running them in a process pool gives the same results as running them
one after the other.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, TypeVar

from fivehundred.actions import Action, action_text, bid_strain, is_suit_bid
from fivehundred.bots import Player, make_player
from fivehundred.cards import STRAIN_LETTERS
from fivehundred.game import GameState, HandState
from fivehundred.observation import Observation
from fivehundred.record import hand_record
from fivehundred.rules import Rules, rules_from_dict
from fivehundred.scoring import side_of_seats
from fivehundred.table import Table

T = TypeVar("T")
R = TypeVar("R")

#: A game that has not ended after this many hands is stopped and decided on points.
MAX_HANDS = 100


@dataclass(frozen=True)
class MatchTask:
    """One deal seed, played with team A on side ``rotation`` (0, 1, … one per side)."""

    rules: dict[str, Any]
    team_a: str
    team_b: str
    deal: int
    rotation: int
    single_hand: bool = False
    keep_records: bool = False
    max_hands: int = MAX_HANDS

    @property
    def swapped(self) -> bool:
        """Team A is not on side 0."""
        return self.rotation != 0


@dataclass
class HandOutcome:
    """One finished hand, from team A's and B's point of view (with more than two sides,
    ``points_b`` is the mean of B's sides)."""

    points_a: int
    points_b: float
    contract: str | None  # "7H", "misere" … ; None when all passed
    strain: str | None  # "S" "C" "D" "H" "NT" "misere" "open_misere" "blind_misere"
    declarer_team: str | None  # "A" or "B"
    made: bool | None
    record: dict[str, Any] | None = None
    #: R-HOUSE slam_call: the contractor called slam.
    slam: bool = False
    #: R-HOUSE claim: "right" or "wrong" when the contractor claimed, else None.
    claim: str | None = None


@dataclass
class MatchOutcome:
    """A played match: the hands, the final scores and the winning team."""

    deal: int
    rotation: int
    hands: list[HandOutcome]
    score_a: int
    score_b: int  # with more than two sides: the best of B's sides
    winner: str | None  # "A", "B" or None (a tie)
    decision_time: dict[str, float] = field(default_factory=dict)  # team -> seconds
    decisions: dict[str, int] = field(default_factory=dict)  # team -> count
    problems: list[str] = field(default_factory=list)  # external players' faults


def team_seats(rules: Rules, rotation: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Seats of team A (the seats of side ``rotation``) and of team B (all the others)."""
    sides = side_of_seats(rules)
    side_a = int(rotation)
    if not 0 <= side_a <= max(sides):
        raise ValueError(f"no side {side_a}: these rules have {max(sides) + 1}")
    a = tuple(s for s in range(rules.seats) if sides[s] == side_a)
    b = tuple(s for s in range(rules.seats) if sides[s] != side_a)
    return a, b


def sides_count(rules: Rules) -> int:
    return max(side_of_seats(rules)) + 1


def _strain_name(contract: int) -> str:
    if not is_suit_bid(contract):
        return action_text(contract)
    return STRAIN_LETTERS[bid_strain(contract)]


def _hand_outcome(
    state: HandState, seats_a: tuple[int, ...], keep: bool, comment: str
) -> HandOutcome:
    result = state.result
    sides = side_of_seats(state.rules)
    side_a = sides[seats_a[0]]
    points_a = result.points[side_a]
    others = [p for side, p in enumerate(result.points) if side != side_a]
    points_b = sum(others) / len(others)
    record = None
    if keep:
        record = hand_record(state)
        record["comment"] = comment
    if result.contract < 0:
        return HandOutcome(points_a, points_b, None, None, None, None, record)
    team = "A" if result.contractor in seats_a else "B"
    claim = None if state.claim_trick < 0 else "wrong" if state.claim_wrong else "right"
    return HandOutcome(
        points_a,
        points_b,
        action_text(result.contract),
        _strain_name(result.contract),
        team,
        result.made,
        record,
        state.slam,
        claim,
    )


class _SingleHand(GameState):
    """A game of one duplicate hand, scored on its own: its seats see no game scores."""

    def __init__(self, rules: Rules, dealer: int, seed: str) -> None:
        super().__init__(rules, seed, dealer)
        self.hand = HandState.deal(rules, dealer, seed)

    def observation(self, seat: int) -> Observation:
        return self.hand.observation(seat)


class _Seated:
    """The arena's decider for a :class:`~fivehundred.table.Table`: each seat (a
    two-handed dummy too) is played by its own player object, seeded once for the match
    (from the deal and the seat), and the time each team takes is counted."""

    def __init__(self, players: list[Player], seats_a: tuple[int, ...]) -> None:
        self.players = players
        self.team = ["A" if seat in seats_a else "B" for seat in range(len(players))]
        self.spent = {"A": 0.0, "B": 0.0}
        self.count = {"A": 0, "B": 0}

    def __call__(self, name: str, seed: int, observation: Observation) -> tuple[Action, str]:
        seat = observation.seat
        start = time.perf_counter()
        action = self.players[seat].act(observation)
        team = self.team[seat]
        self.spent[team] += time.perf_counter() - start
        self.count[team] += 1
        return action, ""


def play_match(task: MatchTask) -> MatchOutcome:
    """Play one match (a game or a hand) at a :class:`~fivehundred.table.Table` and report
    it."""
    rules = rules_from_dict(task.rules)
    seats_a, _ = team_seats(rules, task.rotation)
    names = [task.team_a if seat in seats_a else task.team_b for seat in range(rules.seats)]
    # Seeds depend on the deal and the seat only: reproducible in any process.
    players: list[Player] = [
        make_player(name, seed=task.deal * 1009 + seat * 17 + task.rotation)
        for seat, name in enumerate(names)
    ]
    seated = _Seated(players, seats_a)
    seating = names[: rules.players]  # who sits at the table (two players: not the dummies)
    hands: list[HandOutcome] = []
    label = f"deal {task.deal}, team A ({task.team_a}) in seats {'/'.join(map(str, seats_a))}"
    seed = f"arena/{task.deal}"
    dealer = task.deal % rules.players
    sides = side_of_seats(rules)
    side_a = sides[seats_a[0]]
    try:
        if task.single_hand:
            table = Table(rules, seating, seed, _SingleHand(rules, dealer, seed), seated)
            while not table.game.finished_hands:
                table.step_computer()
            state = table.game.finished_hands[0]
            hands.append(_hand_outcome(state, seats_a, task.keep_records, label))
            score_a = hands[0].points_a
            score_b = max(p for side, p in enumerate(state.result.points) if side != side_a)
        else:
            table = Table(rules, seating, seed, GameState(rules, seed, dealer), seated)
            game = table.game
            while not game.is_over and len(game.finished_hands) < task.max_hands:
                table.step_computer()
                if len(game.finished_hands) > len(hands):  # a hand is over: scored
                    state = game.finished_hands[-1]
                    hands.append(
                        _hand_outcome(
                            state, seats_a, task.keep_records, f"{label}, hand {len(hands) + 1}"
                        )
                    )
                    for player in players:
                        player.hand_over(
                            {"points": list(state.result.points), "scores": list(game.scores)}
                        )
            score_a = game.scores[side_a]
            score_b = max(score for side, score in enumerate(game.scores) if side != side_a)
            if game.winner is not None:
                return _outcome(
                    task,
                    hands,
                    score_a,
                    score_b,
                    "A" if game.winner == side_a else "B",
                    seated,
                    players,
                )
    finally:
        for player in players:
            close = getattr(player, "close", None)
            if close is not None:
                close()
    winner = "A" if score_a > score_b else "B" if score_b > score_a else None
    return _outcome(task, hands, score_a, score_b, winner, seated, players)


def _outcome(
    task: MatchTask,
    hands: list[HandOutcome],
    score_a: int,
    score_b: int,
    winner: str | None,
    seated: _Seated,
    players: list[Player],
) -> MatchOutcome:
    problems: list[str] = []
    for player in players:
        problems.extend(getattr(player, "problems", []))
    return MatchOutcome(
        task.deal,
        task.rotation,
        hands,
        score_a,
        score_b,
        winner,
        seated.spent,
        seated.count,
        problems,
    )


def duplicate_tasks(
    rules: Rules,
    team_a: str,
    team_b: str,
    deals: int,
    seed: int,
    single_hand: bool,
    keep_records: bool = False,
    max_hands: int = MAX_HANDS,
) -> list[MatchTask]:
    """Every rotation of each duplicate deal (team A on each side in turn), in order."""
    data = rules.to_dict()
    tasks = []
    for index in range(deals):
        deal = seed * 100_003 + index
        for rotation in range(sides_count(rules)):
            tasks.append(
                MatchTask(
                    data, team_a, team_b, deal, rotation, single_hand, keep_records, max_hands
                )
            )
    return tasks


BACKENDS = ("local", "ray")


def run_matches(
    tasks: list[MatchTask],
    workers: int = 1,
    progress: Callable[[MatchOutcome], None] | None = None,
    backend: str = "local",
) -> list[MatchOutcome]:
    """Play every task; results come back in task order whatever the number of workers
    and the backend (``local``: a process pool; ``ray``: a Ray cluster, see
    :mod:`fivehundred.arena.ray_backend`)."""
    if backend not in BACKENDS:
        raise ValueError(f"backend must be one of {', '.join(BACKENDS)}; got {backend!r}")
    if backend == "ray":
        from fivehundred.arena.ray_backend import iterate_ray

        outcomes = iterate_ray(tasks, workers)
    else:
        outcomes = _iterate(tasks, workers)
    results: list[MatchOutcome] = []
    for outcome in outcomes:
        if progress is not None:
            progress(outcome)
        results.append(outcome)
    return results


def _iterate(tasks: list[MatchTask], workers: int) -> Iterator[MatchOutcome]:
    return ordered_map(play_match, tasks, workers)


def ordered_map(function: Callable[[T], R], tasks: list[T], workers: int) -> Iterator[R]:
    """``function`` of each task, in task order: serially, or in a pool of ``workers``
    processes (the results are a serial run's)."""
    if workers <= 1 or len(tasks) <= 1:
        yield from map(function, tasks)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield from pool.map(function, tasks, chunksize=1)
