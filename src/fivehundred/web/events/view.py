"""What the events' pages and answers show: the index, and one event's pairs, standings,
crosstable and rounds with each game's record linked (synchronous: the store's thread)."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from fivehundred.web.events import pairing
from fivehundred.web.events import words as w
from fivehundred.web.events.store import INDEX_LIMIT, EventStore, knockout_winner
from fivehundred.web.schema import (
    accounts,
    closures,
    clubs,
    event_games,
    event_rounds,
    events,
    tables,
)


def pair_name(pair: Any) -> str:
    return f"{pair.first or '?'} & {pair.second or '?'}"


def index(store: EventStore) -> dict[str, Any]:
    with store.engine.connect() as db:
        rows = db.execute(sa.select(events).order_by(events.c.id.desc()).limit(INDEX_LIMIT)).all()
    return {
        "events": [
            {
                "id": row.id,
                "name": row.name,
                "kind": w.KIND_LABELS[row.kind],
                "state": w.STATE_LABELS[row.state],
                "starts_at": row.starts_at,
            }
            for row in rows
        ]
    }


def event_view(store: EventStore, event_id: int, account_id: int | None) -> dict[str, Any]:
    with store.engine.connect() as db:
        event = store.event_row(db, event_id)
        pairs = store.pairs_of(db, event_id)
        games = list(
            db.execute(
                sa.select(event_games)
                .where(event_games.c.event_id == event_id)
                .order_by(event_games.c.round, event_games.c.number)
            ).all()
        )
        rounds = list(
            db.execute(
                sa.select(event_rounds)
                .where(event_rounds.c.event_id == event_id)
                .order_by(event_rounds.c.number)
            ).all()
        )
        history = store.history(db, event_id)
        organiser = db.execute(
            sa.select(accounts.c.name).where(accounts.c.id == event.organiser_id)
        ).scalar()
        club = None
        if event.club_id is not None:
            club = db.execute(sa.select(clubs.c.slug).where(clubs.c.id == event.club_id)).scalar()
    names = {p.id: pair_name(p) for p in pairs}
    mine = next(
        (p for p in pairs if account_id is not None and account_id in (p.first_id, p.second_id)),
        None,
    )
    # the pairs that started (one withdrawn during a Swiss keeps its line)
    field = [p.id for p in pairs if p.checked_in]
    # a duplicate round's results are kept with its cards until the round is over
    hidden = set() if event.duplicate_seed is None else {r.number for r in rounds if not r.finished}
    view: dict[str, Any] = {
        "id": event.id,
        "name": event.name,
        "kind": event.kind,
        "kind_label": w.KIND_LABELS[event.kind],
        "state": event.state,
        "state_label": w.STATE_LABELS[event.state],
        "round": event.round,
        "rounds": event.rounds,
        "preset": event.preset,
        "variants": json.loads(event.variants),
        "target": event.target,
        "grace": event.grace,
        "turn_timer": event.turn_timer,
        "move_clock": event.move_clock,  # turn-based: a move's clock, a round's time
        "round_time": event.round_time,
        "duplicate": event.duplicate_seed is not None,
        "starts_at": event.starts_at,
        "organiser": organiser,
        "organising": account_id is not None and account_id == event.organiser_id,
        "club": club,
        "pairs": [
            {
                "id": p.id,
                "name": names[p.id],
                "seed": p.seed,
                "checked_in": bool(p.checked_in),
                "withdrawn": bool(p.withdrawn),
            }
            for p in pairs
        ],
        "mine": None
        if mine is None
        else {
            "pair": mine.id,
            "name": names[mine.id],
            "checked_in": bool(mine.checked_in),
            "withdrawn": bool(mine.withdrawn),
        },
        "standings": _standings(field, history, names) if event.state != "registering" else [],
        "crosstable": _crosstable(field, games, rounds, names, hidden),
        "rounds_played": _rounds(games, rounds, names, hidden),
        "my_game": _my_game(mine, games, names),
        "winner": _winner(event, field, games, names),
    }
    return view


def _standings(
    field: list[int], history: list[pairing.RoundResult], names: dict[int, str]
) -> list[dict[str, Any]]:
    return [
        {
            "place": place,
            "pair": line.pair,
            "name": names[line.pair],
            "points": line.points,
            "buchholz": line.buchholz,
            "difference": line.difference,
            "played": line.played,
        }
        for place, line in enumerate(pairing.standings(field, history), 1)
    ]


def _outcome(game: Any, pair: int, hidden: set[int]) -> str:
    if game.finished is None or game.round in hidden:
        return "playing"
    if pair in json.loads(game.absent):
        return "absent"
    if game.winner is None:
        return "draw"
    side = 0 if pair == game.ns_pair else 1
    return "win" if game.winner == side else "loss"


def _crosstable(
    field: list[int], games: list[Any], rounds: list[Any], names: dict[int, str], hidden: set[int]
) -> list[dict[str, Any]]:
    """Each pair's line: its opponent, seats and result in every round started (in the
    rounds ``hidden``, "playing" till the round is over)."""
    seated = {(g.round, p): g for g in games for p in (g.ns_pair, g.ew_pair)}
    lines = []
    for pair in field:
        cells = []
        for round_ in rounds:
            game = seated.get((round_.number, pair))
            if game is None:
                byes = json.loads(round_.byes)
                cells.append({"round": round_.number, "result": "bye" if pair in byes else ""})
                continue
            ns = pair == game.ns_pair
            cells.append(
                {
                    "round": round_.number,
                    "opponent": names.get(game.ew_pair if ns else game.ns_pair, "?"),
                    "seats": "ns" if ns else "ew",
                    "result": _outcome(game, pair, hidden),
                    "points": None
                    if game.finished is None or game.round in hidden
                    else (game.ns_points - game.ew_points) * (1 if ns else -1),
                    "code": game.code,
                }
            )
        lines.append({"pair": pair, "name": names[pair], "rounds": cells})
    return lines


def _rounds(
    games: list[Any], rounds: list[Any], names: dict[int, str], hidden: set[int]
) -> list[dict[str, Any]]:
    """Each round's byes and games (the points of the rounds ``hidden``: None till the
    round is over)."""
    return [
        {
            "number": r.number,
            "finished": r.finished is not None,
            # a turn-based round's deadline (its games not over are finished by the stand-ins)
            "due": r.due,
            "byes": [names.get(p, "?") for p in json.loads(r.byes)],
            "games": [
                {
                    "number": g.number,
                    "ns": names.get(g.ns_pair, "?"),
                    "ew": names.get(g.ew_pair, "?"),
                    "code": g.code,
                    "finished": g.finished is not None,
                    "ns_points": None if r.number in hidden else g.ns_points,
                    "ew_points": None if r.number in hidden else g.ew_points,
                    "absent": [names.get(p, "?") for p in json.loads(g.absent)],
                    "overtime": bool(g.overtime),
                }
                for g in games
                if g.round == r.number
            ],
        }
        for r in rounds
    ]


def _my_game(mine: Any, games: list[Any], names: dict[int, str]) -> dict[str, Any] | None:
    if mine is None:
        return None
    for game in reversed(games):
        if mine.id in (game.ns_pair, game.ew_pair) and game.finished is None:
            return {
                "round": game.round,
                "code": game.code,
                "ns": names.get(game.ns_pair, "?"),
                "ew": names.get(game.ew_pair, "?"),
            }
    return None


def _winner(event: Any, field: list[int], games: list[Any], names: dict[int, str]) -> str | None:
    if event.state != "finished" or not games:
        return None
    if event.kind == "knockout":
        last = [g for g in games if g.round == event.rounds]
        if len(last) == 1:
            return names[knockout_winner(last[0], {p: i for i, p in enumerate(field)})]
    return None


def closed_games(store: EventStore) -> list[int]:
    """Games whose table was closed unfinished (nobody played at it for a while)."""
    with store.engine.connect() as db:
        return list(
            db.execute(
                sa.select(event_games.c.id)
                .select_from(
                    event_games.join(tables, tables.c.code == event_games.c.code).join(
                        closures, closures.c.table_id == tables.c.id
                    )
                )
                .where(event_games.c.finished.is_(None), tables.c.finished.is_(None))
            ).scalars()
        )


def round_notices(db: Connection, facts: dict[str, Any], code: str, add: Any) -> int:
    """The "a round starts" notice of each player of a game whose table is ``code``."""
    event_name = db.execute(sa.select(events.c.name).where(events.c.id == facts["event"]))
    text = w.ROUND_STARTS.format(round=facts["round"], event=event_name.scalar())
    key = f"round:{facts['event']}:{facts['round']}"
    return sum(
        bool(add(db, account_id, "round", key, (code, text, f"/t/{code}")))
        for account_id, _ in facts["seats"]
    )
