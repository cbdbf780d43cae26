"""A club night's standings in the scoring its club chose, and each pair's score round by
round (docs/web-protocol.md#club-nights). Every board is scored as the duplicate boards
score it (:mod:`fivehundred.boards`, docs/duplicate.md): its result is the hand's score for
each side on its own (R-SCORE: no running score, no target).

- ``matchpoints``: the pair's mean matchpoint percentage over its boards, each compared
  with the results in its direction (:func:`fivehundred.boards.board_scores`, as the
  daily's); a round's score is the mean over the round's boards.
- ``points`` (total points): the sum of its side's score on each board it played (its
  side's points in the board's result: negative for a contract lost).
- ``games`` (games won): each board is a game of one hand, won by the side that scored more
  on it (its net above 0), half a game to each side when they scored the same (a board
  passed in); equal games won are ordered by total points.

Best first; pairs equal in the scoring (games won: and in total points) share a place.
Pure: no database, no web.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fivehundred.boards import BoardResult, Par, board_scores

SCORINGS = ("matchpoints", "points", "games")
DEFAULT_SCORING = "matchpoints"


@dataclass
class Tally:
    """A pair's boards over the night, or over one round."""

    boards: int = 0
    percents: float = 0.0
    points: int = 0
    won: float = 0.0

    def add(self, percent: float, points: int, won: float) -> None:
        self.boards += 1
        self.percents += percent
        self.points += points
        self.won += won

    @property
    def percent(self) -> float:
        return self.percents / self.boards if self.boards else 0.0

    def score(self, scoring: str) -> float | int:
        """The tally in ``scoring``: a percentage to one decimal, points, or games won."""
        if scoring == "points":
            return self.points
        if scoring == "games":
            return self.won
        return round(self.percent, 1)

    def key(self, scoring: str) -> tuple[float, ...]:
        """Its order (the highest first); equal keys share a place."""
        if scoring == "points":
            return (self.points,)
        if scoring == "games":
            return (self.won, self.points)
        return (round(self.percent, 9),)


@dataclass
class PairTally:
    pair: str
    night: Tally = field(default_factory=Tally)
    rounds: dict[int, Tally] = field(default_factory=dict)
    against_par: int | None = None


def game_won(result: BoardResult) -> float:
    """The game the result's side won on its board: 1, a half for a tie, or 0."""
    net = result.own_net
    return 1.0 if net > 0 else 0.5 if net == 0 else 0.0


def tallies(
    results: Mapping[int, Sequence[BoardResult]],
    rounds: Mapping[tuple[int, str], int],
    pars: Mapping[int, Par],
) -> dict[str, PairTally]:
    """Each pair's tally over the night and by round (``rounds``: the round each pair
    played each board in, by board and pair)."""
    out: dict[str, PairTally] = {}
    for number, on_board in results.items():
        par = pars.get(number)
        scores = board_scores(on_board, par)
        for result, (pair, percent, against) in zip(on_board, scores, strict=True):
            tally = out.setdefault(pair, PairTally(pair))
            points, won = result.points[result.direction], game_won(result)
            tally.night.add(percent, points, won)
            round_ = rounds[number, pair]
            tally.rounds.setdefault(round_, Tally()).add(percent, points, won)
            if against is not None:
                tally.against_par = (tally.against_par or 0) + against
    return out


def night_standings(
    results: Mapping[int, Sequence[BoardResult]],
    rounds: Mapping[tuple[int, str], int],
    pars: Mapping[int, Par],
    scoring: str,
    round_count: int,
) -> list[dict[str, Any]]:
    """The standings in ``scoring``, best first: each pair's place, boards, ``score`` (in
    the scoring) and every scoring's figure (``percent``, ``points``, ``won``), points
    against par (None without pars), and its score in each round 1 … ``round_count``
    (None for a round it did not play)."""
    if scoring not in SCORINGS:
        raise ValueError(f"no scoring {scoring!r}")
    pairs = sorted(
        tallies(results, rounds, pars).values(),
        key=lambda t: (tuple(-k for k in t.night.key(scoring)), t.pair),
    )
    out: list[dict[str, Any]] = []
    for index, tally in enumerate(pairs):
        place = index + 1
        if out and pairs[index - 1].night.key(scoring) == tally.night.key(scoring):
            place = out[-1]["place"]
        by_round = [tally.rounds.get(r) for r in range(1, round_count + 1)]
        out.append(
            {
                "place": place,
                "pair": tally.pair,
                "boards": tally.night.boards,
                "score": tally.night.score(scoring),
                "percent": round(tally.night.percent, 1),
                "points": tally.night.points,
                "won": tally.night.won,
                "against_par": tally.against_par if pars else None,
                "rounds": [None if t is None else t.score(scoring) for t in by_round],
            }
        )
    return out
