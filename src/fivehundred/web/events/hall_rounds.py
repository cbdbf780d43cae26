"""Progressive hall nights (docs/pad.md#progressive-nights): rounds of N hands (or M
minutes); at the end of a round the winning pair of each table moves up one table, the
losing pair down one, and partners change. Pure functions of the tables' states: the
store (:mod:`.hall_store`) keeps the night's progress as JSON and calls these under the
night's lock.

A night's progress: ``{"hands": N | None, "minutes": M | None, "round": r, "started": t,
"seating": {"table": [name | None, ...]} | None, "moves": [...]}`` where ``seating`` and
``moves`` say who sits where in round ``r`` (None and [] in round 1: the players sit
where they like and type their names).

A table's state in a progressive night carries ``"rounds"`` beside ``"pads"``: the round
each of its games was played in (a game ended mid-round is followed by another of the
same round). A table's round: its games of that round, the players those of the last,
each side's points the sum of its totals in them, the hands all their hands.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import HTTPException

from fivehundred.pad import model
from fivehundred.scoring import side_of_seats
from fivehundred.web.events import hall_words as w

#: the bounds of a round: hands, or minutes
HANDS = (1, 50)
MINUTES = (5, 180)
#: seats at a progressive night's table, and the sides they score for
SEATS = 4
SIDES = (0, 1, 0, 1)


def new_progress(hands: int | None, minutes: int | None, now: float) -> dict[str, Any]:
    """A progressive night's progress at its start (one of ``hands`` or ``minutes``)."""
    if (hands is None) == (minutes is None):
        raise HTTPException(422, w.BAD_ROUND)
    if hands is not None and not HANDS[0] <= hands <= HANDS[1]:
        raise HTTPException(422, w.BAD_ROUND)
    if minutes is not None and not MINUTES[0] <= minutes <= MINUTES[1]:
        raise HTTPException(422, w.BAD_ROUND)
    return {
        "hands": hands,
        "minutes": minutes,
        "round": 1,
        "started": now,
        "seating": None,
        "moves": [],
    }


def checked_rounds(state: dict[str, Any], current: int) -> None:
    """A progressive night's table state: its ``rounds`` (one per game, 1 to the night's
    round, never going back; those of a pad that sends none: the night's round) and four
    players a game at sides of two (422)."""
    pads = state["pads"]
    rounds = state.get("rounds", [current] * len(pads))
    if (
        not isinstance(rounds, list)
        or len(rounds) != len(pads)
        or not all(isinstance(r, int) and not isinstance(r, bool) for r in rounds)
        or not all(1 <= r <= current for r in rounds)
        or rounds != sorted(rounds)
    ):
        raise HTTPException(422, w.BAD_ROUNDS)
    for pad in pads:
        if side_of_seats(model.check_pad(pad)) != SIDES:
            raise HTTPException(422, w.PROGRESSIVE_FOUR)
    state["rounds"] = rounds


def table_round(state: Mapping[str, Any], number: int) -> tuple[list[Any], list[int], int]:
    """Table's round ``number``: the names at its seats (none when it played no game of the
    round), each side's points and the hands entered."""
    games = [p for p, r in zip(state["pads"], state.get("rounds", []), strict=False) if r == number]
    points = [0, 0]
    hands = 0
    for pad in games:
        totals = model.score_pad(pad).totals
        points = [points[0] + totals[0], points[1] + totals[1]]
        hands += len(pad.get("hands", []))
    names = [str(n) for n in games[-1]["players"]] if games else []
    return names, points, hands


def round_over(
    progress: Mapping[str, Any], states: Sequence[Mapping[str, Any]], now: float
) -> bool:
    """Whether the round is over by itself: N hands entered at every table, or M minutes."""
    if progress["minutes"] is not None:
        return bool(now >= progress["started"] + 60 * progress["minutes"])
    number = progress["round"]
    return bool(states) and all(table_round(s, number)[2] >= progress["hands"] for s in states)


def _pairs(
    progress: Mapping[str, Any], number: int, state: Mapping[str, Any]
) -> tuple[list[Any], list[Any]]:
    """Table ``number``'s winning pair and losing pair of the round, each in seat order (a
    tie goes to seats 1 and 3; names from the seating where the table sent no game)."""
    names, points, _ = table_round(state, progress["round"])
    if not names:
        seating = progress["seating"] or {}
        names = list(seating.get(str(number), [None] * SEATS))
    first, second = [names[0], names[2]], [names[1], names[3]]
    return (first, second) if points[0] >= points[1] else (second, first)


def close_round(
    progress: dict[str, Any], tables: Sequence[tuple[int, Mapping[str, Any]]], now: float
) -> None:
    """End the round: the next round's seating and moves, in ``progress``.

    Tables in number order, table 1 at the top. Into each table come two pairs, split
    so that partners change: to seats 1 and 2 the winners of the table below (the losers
    of the bottom table stay there instead), to seats 3 and 4 the losers of the table
    above (the winners of the top table stay there instead). Seats 1 and 3 are partners,
    so are 2 and 4: each pair that comes is split across the two sides."""
    order = [number for number, _ in tables]
    pairs = {number: _pairs(progress, number, state) for number, state in tables}
    seating: dict[str, list[Any]] = {}
    moves: list[dict[str, Any]] = []
    for index, number in enumerate(order):
        last, top = index + 1 == len(order), index == 0
        below = order[index] if last else order[index + 1]
        above = order[index] if top else order[index - 1]
        # (the pair, the table it comes from, whether it won there)
        coming = [(pairs[below][1 if last else 0], below, not last)]
        coming.append((pairs[above][0 if top else 1], above, top))
        seats = [*coming[0][0], *coming[1][0]]
        seating[str(number)] = seats
        for seat, name in enumerate(seats, 1):
            _, origin, won = coming[(seat - 1) // 2]
            if name is not None:
                moves.append({"name": name, "from": origin, "to": number, "seat": seat, "won": won})
    moves.sort(key=lambda m: (m["from"], m["to"], m["seat"]))
    progress.update(round=progress["round"] + 1, started=now, seating=seating or None, moves=moves)


def round_view(progress: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """What the pads and the page are told of the night's round."""
    if progress is None:
        return None
    minutes = progress["minutes"]
    ends = progress["started"] + 60 * minutes if minutes is not None else None
    keys = ("round", "hands", "minutes", "started", "seating", "moves")
    return {**{k: progress[k] for k in keys}, "ends": ends}
