"""Seasonal leagues: a season of some weeks, its entrants in divisions of a set size, a
fixed number of games a week between the pairs each week's schedule names, standings per
division, and promotion and relegation between seasons.

Pure: the standard library only. An entrant is any hashable name (an account's id, a
pair's). A game scores as in the tournaments (:mod:`.pairing`): a win
:data:`~.pairing.WIN`, a draw :data:`~.pairing.DRAW`, a loss nothing; standings rank by
points, then the points difference, then games won, then last season's order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from .pairing import DRAW, LOSS, WIN, Game, Round, round_robin

E = TypeVar("E", bound=Hashable)

DAY = 86_400.0
WEEK = 7 * DAY


@dataclass(frozen=True)
class LeagueGame:
    """A finished league game between two entrants: its week (0-based), when it ended,
    each side's game points and the winner (``a``, ``b`` or ``None`` for a draw)."""

    week: int
    at: float
    a: Hashable
    b: Hashable
    a_points: int
    b_points: int
    winner: str | None


@dataclass
class Line:
    """One entrant's line of a division's standings."""

    entrant: Hashable
    order: int
    points: int = 0
    played: int = 0
    won: int = 0
    difference: int = 0


def week_of(at: float, start: float, weeks: int) -> int | None:
    """The week (0-based) of a season started at ``start`` that ``at`` falls in; None
    before the season or after its ``weeks``."""
    if at < start:
        return None
    week = int((at - start) // WEEK)
    return week if week < weeks else None


def divisions(entrants: Sequence[E], size: int) -> list[list[E]]:
    """``entrants`` (ranked, best first) cut into divisions of ``size``: the top division
    first; a remainder under half a division joins the one above it rather than make a
    division of its own."""
    if size < 2:
        raise ValueError("a division has at least two entrants")
    cut = [list(entrants[i : i + size]) for i in range(0, len(entrants), size)]
    if len(cut) > 1 and len(cut[-1]) * 2 < size:
        cut[-2].extend(cut.pop())
    return cut


def week_rounds(division: Sequence[int], week: int, per_week: int) -> list[Round]:
    """A division's rounds in ``week`` (0-based): ``per_week`` rounds of its round robin
    (:func:`.pairing.round_robin` on the division's order), on from those of the weeks
    before, the round robin begun again once every pair has met every other. Each pair
    has ``per_week`` games a week, less a bye a round in an odd division."""
    rounds = round_robin(division)
    return [rounds[(week * per_week + k) % len(rounds)] for k in range(per_week)]


def meeting(game: Game) -> frozenset[Hashable]:
    """The two pairs of a game, whichever sat North-South."""
    return frozenset((game.ns, game.ew))


def counted(
    games: Iterable[LeagueGame], schedule: Callable[[int], Iterable[Game]]
) -> list[LeagueGame]:
    """The games that count: each game the ``schedule`` names for a week, the first game
    of that week between its two pairs (by the time it ended; either pair North-South);
    as many as it names that meeting in the week."""
    owed: dict[int, Counter[frozenset[Hashable]]] = {}
    kept = []
    for game in sorted(games, key=lambda g: g.at):
        if game.week not in owed:
            owed[game.week] = Counter(meeting(g) for g in schedule(game.week))
        pair = frozenset((game.a, game.b))
        if owed[game.week][pair] > 0:
            owed[game.week][pair] -= 1
            kept.append(game)
    return kept


def standings(division: Sequence[Hashable], games: Iterable[LeagueGame]) -> list[Line]:
    """The division's standings from its counted ``games`` (games with an entrant from
    outside the division are left out)."""
    lines = {entrant: Line(entrant, order) for order, entrant in enumerate(division)}
    for game in games:
        if game.a not in lines or game.b not in lines:
            continue
        for entrant, side, own, other in (
            (game.a, "a", game.a_points, game.b_points),
            (game.b, "b", game.b_points, game.a_points),
        ):
            line = lines[entrant]
            points = DRAW if game.winner is None else WIN if game.winner == side else LOSS
            line.points += points
            line.won += points == WIN
            line.played += 1
            line.difference += own - other
    return sorted(lines.values(), key=lambda x: (-x.points, -x.difference, -x.won, x.order))


def next_season(finished: Sequence[Sequence[E]], moves: int) -> list[list[E]]:
    """The divisions of the next season from each division's final order (top division
    first, each best first): the top ``moves`` of each division but the first go up one,
    the bottom ``moves`` of each but the last go down one; every division keeps its size.
    ``moves`` is held to half the smallest division."""
    if not finished:
        return []
    moves = max(0, min(moves, min(len(d) for d in finished) // 2))
    following: list[list[E]] = []
    for number, division in enumerate(finished):
        up = list(division[:moves]) if number > 0 else []
        down = list(division[len(division) - moves :]) if number < len(finished) - 1 else []
        stay = [e for e in division if e not in up and e not in down]
        following.append(stay)
        if up:
            # the promoted take the relegated places at the foot of the division above
            following[number - 1].extend(up)
        if number > 0:
            above_down = list(finished[number - 1][len(finished[number - 1]) - moves :])
            following[number][:0] = above_down
    return following
