"""What a person really played: the player page's figures (``/api/players/{name}``,
docs/web-protocol.md#players).

A seat's actions are each made by its person or by the stand-in (``by`` "stand_in": the
person was away past the grace, or the seat was still open; an action the turn timer made
counts as the person's, who was there but slow, as for the ratings). A **hand** in which the stand-in made more than :data:`STAND_IN_SHARE` of
the seat's actions is the stand-in's, not the person's: it is listed, marked, and counted
in nothing else (hands, contracts, points). A **game** in which the stand-in made more
than that share of all the seat's actions was *left*: it is never counted as won (the
ratings count the same game as a loss for its absent owner, web/accounts.py). Rated and
casual games are counted apart.

The hand a logged action belongs to is found by replaying the table's log (a few
milliseconds a game, off the event loop; a finished game's answer is kept)."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any

from fivehundred.scoring import side_of_seats

#: The ``by`` of the actions a stand-in made for a seat (actions.by in the store).
STAND_IN_BY = frozenset({"stand_in"})
#: The ``by`` of the stand-in's actions after the game's own deadline passed (a turn-based
#: tournament's round: ``options.finish_by``): counted as the person's, as the turn timer's
#: are (they were slow, not away).
OVERTIME = "overtime"
#: More than this share of a seat's actions made by the stand-in: not its person's
#: (a hand, or the whole game: "left").
STAND_IN_SHARE = 0.5
#: The latest games of a name the figures count.
STATS_GAMES = 200
#: Finished tables whose hands' boundaries are kept in memory.
CACHED_TABLES = 2048

_cache: OrderedDict[tuple[str, int], list[int]] = OrderedDict()
_cache_lock = threading.Lock()


def stood_in(actions: int, by_stand_in: int) -> bool:
    """Whether the stand-in made more than :data:`STAND_IN_SHARE` of ``actions``."""
    return actions > 0 and by_stand_in / actions > STAND_IN_SHARE


def hand_lengths(
    code: str, rules: dict[str, Any], players: Sequence[str], seed: int, log: Sequence[Any]
) -> list[int]:
    """How many of the log's actions each finished hand took (the log replayed)."""
    key = (code, len(log))
    with _cache_lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    from fivehundred.rules import rules_from_dict
    from fivehundred.web.live import replay_log

    model = replay_log(rules_from_dict(rules), players, seed, [(s, t, "") for s, t, *_ in log])
    lengths = [len(hand.history) for hand in model.game.finished_hands]
    if model.is_over:
        with _cache_lock:
            _cache[key] = lengths
            while len(_cache) > CACHED_TABLES:
                _cache.popitem(last=False)
    return lengths


def _iso(moment: float | None) -> str | None:
    return None if moment is None else time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(moment))


def game_record(place: Any, rated: bool) -> dict[str, Any]:
    """One table as its person played it: ``place`` is a
    :class:`~fivehundred.web.store.PlaceRow` (the table with its log and hands, and the
    seats held under the name)."""
    from fivehundred.rules import rules_from_dict
    from fivehundred.table import HUMAN

    table = place.table
    players = [s.player if s.kind == "computer" and s.player else HUMAN for s in table.seats]
    lengths = hand_lengths(table.code, table.rules, players, table.seed, table.actions)
    sides = side_of_seats(rules_from_dict(table.rules))
    mine = set(place.seats)
    side = sides[place.seats[0]]
    hands = []
    start = 0
    total = stood = 0
    for number, length in enumerate(lengths, 1):
        moves = [by for seat, _, by in table.actions[start : start + length] if seat in mine]
        start += length
        by_stand_in = sum(1 for by in moves if by in STAND_IN_BY)
        total += len(moves)
        stood += by_stand_in
        row = place.hands.get(number)
        if row is None:
            continue
        contract, contractor, made, points = row
        hands.append(
            {
                "hand": number,
                "points": points[side] if side < len(points) else 0,
                "stand_in": stood_in(len(moves), by_stand_in),
                "contract": contract,
                "bid": contractor in mine,
                "made": bool(made) if contractor in mine else None,
            }
        )
    rest = [by for seat, _, by in table.actions[start:] if seat in mine]  # the hand in play
    total += len(rest)
    stood += sum(1 for by in rest if by in STAND_IN_BY)
    if table.finished is None:
        outcome = "closed" if table.closed is not None else "playing"
    elif stood_in(total, stood):
        outcome = "left"
    else:
        outcome = "won" if table.winner is not None and table.winner == side else "lost"
    return {
        "table": table.code,
        "name": table.name,
        "seats": list(place.seats),
        "rated": rated,
        "outcome": outcome,
        "scores": list(table.scores),
        "finished": _iso(table.finished),
        "hands": hands,
    }


def figures(games: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The counts of :func:`game_record`'s games: only what the person played."""
    counted = finished = wins = left = hands = stand_in = bid = made = 0
    for game in games:
        counted += 1
        if game["outcome"] in ("won", "lost", "left"):
            finished += 1
        wins += game["outcome"] == "won"
        left += game["outcome"] == "left"
        for hand in game["hands"]:
            if hand["stand_in"]:
                stand_in += 1
                continue
            hands += 1
            if hand["bid"]:
                bid += 1
                made += bool(hand["made"])
    return {
        "games": counted,
        "finished": finished,
        "wins": wins,
        "left": left,
        "win_rate": wins / finished if finished else None,
        "hands": hands,
        "stand_in_hands": stand_in,
        "contracts_bid": bid,
        "contracts_made": made,
    }


def player_stats(name: str, places: Sequence[Any], rated: set[str]) -> dict[str, Any]:
    """The figures of ``name`` over ``places`` (its latest games, newest first), all of
    them, the rated ones and the casual ones, and the games themselves."""
    games = [game_record(place, place.table.code in rated) for place in places]
    return {
        "name": name,
        **figures(games),
        "rated": figures(g for g in games if g["rated"]),
        "casual": figures(g for g in games if not g["rated"]),
        "counted": STATS_GAMES,
        "recent": games,
    }
