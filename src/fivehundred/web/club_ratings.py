"""The members' ratings in a club's games (web/clubs.py): openskill's Plackett-Luce, the
model of the accounts' ratings (web/accounts.py), run over the club's finished tables in
the order they finished; the sides of each game its teams, a seat without an account (a
computer, a guest) a player of the starting rating; one rating over every preset. Worked
out when asked, and kept while the club's finished tables are the same."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from fivehundred.web.schema import account_seats, club_tables, tables

#: the newest finished tables of a club its ratings count
RATED_TABLES = 500
#: the clubs whose ratings are kept
CACHED_CLUBS = 256

_ratings_cache: OrderedDict[tuple[int, int, str, float], dict[int, dict[str, Any]]] = OrderedDict()
_ratings_lock = threading.Lock()


def club_ratings(db: Connection, club_id: int) -> dict[int, dict[str, Any]]:
    """Each account's rating over the club's finished tables (the newest
    :data:`RATED_TABLES`): ``{account_id: {"rating", "mu", "sigma", "games", "wins"}}``."""
    from fivehundred.rules import rules_from_dict
    from fivehundred.scoring import side_of_seats
    from fivehundred.web.ratings import MODEL, ordinal

    finished = (
        sa.select(tables.c.code, tables.c.rules, tables.c.winner, tables.c.finished)
        .join(club_tables, club_tables.c.code == tables.c.code)
        .where(club_tables.c.club_id == club_id, tables.c.finished.is_not(None))
        .order_by(tables.c.finished.desc())
        .limit(RATED_TABLES)
    )
    games = list(reversed(db.execute(finished).all()))
    newest = games[-1] if games else None
    key = (club_id, len(games), newest.code if newest else "", newest.finished if newest else 0.0)
    with _ratings_lock:
        if key in _ratings_cache:
            _ratings_cache.move_to_end(key)
            return _ratings_cache[key]
    holders: dict[str, dict[int, int]] = {}
    codes = [game.code for game in games]
    for start in range(0, len(codes), 100):
        query = sa.select(account_seats).where(account_seats.c.code.in_(codes[start : start + 100]))
        for row in db.execute(query):
            holders.setdefault(row.code, {})[row.seat] = row.account_id
    players: dict[int, Any] = {}
    counts: dict[int, list[int]] = {}
    for game in games:
        sides = side_of_seats(rules_from_dict(json.loads(game.rules)))
        teams: dict[int, list[tuple[int | None, Any]]] = {}
        for seat, side in enumerate(sides):
            who = holders.get(game.code, {}).get(seat)
            rating = players.setdefault(who, MODEL.rating()) if who is not None else MODEL.rating()
            teams.setdefault(side, []).append((who, rating))
        order = sorted(teams)
        ranks = [0.0 if side == game.winner else 1.0 for side in order]
        rated = MODEL.rate([[r for _, r in teams[side]] for side in order], ranks=ranks)
        for side, new_team in zip(order, rated, strict=True):
            for (who, _), new in zip(teams[side], new_team, strict=True):
                if who is None:
                    continue
                players[who] = new
                count = counts.setdefault(who, [0, 0])
                count[0] += 1
                count[1] += side == game.winner
    answer = {
        who: {
            "rating": ordinal(r.mu, r.sigma),
            "mu": round(r.mu, 3),
            "sigma": round(r.sigma, 3),
            "games": counts[who][0],
            "wins": counts[who][1],
        }
        for who, r in players.items()
    }
    with _ratings_lock:
        _ratings_cache[key] = answer
        while len(_ratings_cache) > CACHED_CLUBS:
            _ratings_cache.popitem(last=False)
    return answer
