"""An account's games that are not over ("my games", ``/my-games``): every unfinished
table where it holds a seat, those where it is that seat's turn first. A turn-based table
(a clock per move of hours or days) needs no connection: its players come here, open the
games that wait for them, see what happened since (the view carries the hands and the
auction), move, and leave."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from sqlalchemy.engine import Engine

from fivehundred.rules import rules_from_dict
from fivehundred.scoring import side_of_seats
from fivehundred.web.deadlines import TURN, dormant
from fivehundred.web.schema import account_seats, closures, deadlines, tables
from fivehundred.web.schema import seats as seat_rows

STATIC_DIR = Path(__file__).with_name("static")
#: The most games listed (the newest).
LIMIT = 100
#: What the list says of each game (the page shows these words).
YOUR_TURN = "Your turn"
WAITING = "Waiting for {name}"
STAND_IN = "The computer plays your seat: your clock ran out too often"


def seats_of(engine: Engine, account_id: int) -> dict[str, list[int]]:
    """The unfinished tables (by code, newest first) where the account holds seats."""
    query = (
        sa.select(account_seats.c.code, account_seats.c.seat)
        .select_from(
            account_seats.join(tables, tables.c.code == account_seats.c.code).outerjoin(
                closures, closures.c.table_id == tables.c.id
            )
        )
        .where(
            account_seats.c.account_id == account_id,
            tables.c.finished.is_(None),
            closures.c.table_id.is_(None),
        )
        .order_by(tables.c.id.desc(), account_seats.c.seat)
        .limit(LIMIT)
    )
    found: dict[str, list[int]] = {}
    with engine.connect() as db:
        for code, seat in db.execute(query):
            found.setdefault(code, []).append(seat)
    return found


def dormant_summaries(engine: Engine, codes: list[str]) -> dict[str, dict[str, Any]]:
    """What the list says of each of ``codes`` that is dormant (a turn-based table waiting on
    a person's clock: :func:`~fivehundred.web.deadlines.dormant`), from its columns, its
    seats and its clock's row: no game is read and replayed for it."""
    if not codes:
        return {}
    clock = sa.and_(deadlines.c.table_id == tables.c.id, deadlines.c.kind == TURN)
    query = (
        sa.select(
            tables.c.id,
            tables.c.code,
            tables.c.name,
            tables.c.rules,
            tables.c.options,
            tables.c.scores,
            tables.c.hands_played,
            deadlines.c.seat,
            deadlines.c.due,
            deadlines.c.version,
        )
        .select_from(tables.join(deadlines, clock))
        .where(tables.c.code.in_(codes), dormant(time.time()))
    )
    found: dict[str, dict[str, Any]] = {}
    with engine.connect() as db:
        rows = db.execute(query).all()
        names: dict[int, list[str]] = {row.id: [] for row in rows}
        if names:
            query = (
                sa.select(seat_rows)
                .where(seat_rows.c.table_id.in_(list(names)))
                .order_by(seat_rows.c.seat)
            )
            for s in db.execute(query):
                names[s.table_id].append(s.name or s.player or "open")
    for row in rows:
        found[row.code] = {
            "table": row.code,
            "url": f"/t/{row.code}",
            "name": row.name,
            "players": names[row.id],
            "turn_based": True,
            "move_clock": json.loads(row.options).get("move_clock"),
            "to_move": row.seat,
            "due": row.due,
            "hands_played": row.hands_played,
            # (none written before the first hand's end: each side's nought)
            "scores": json.loads(row.scores)
            or [0] * (max(side_of_seats(rules_from_dict(json.loads(row.rules)))) + 1),
            "version": row.version,
        }
    return found


def summary_entry(summary: dict[str, Any], seats: list[int]) -> dict[str, Any]:
    """One game of the list from a dormant table's summary (:func:`dormant_summaries`)."""
    facts = dict(summary)
    to_move, due = facts.pop("to_move"), facts.pop("due")
    yours = to_move in seats
    facts.update(
        seats=seats,
        your_turn=yours,
        status=YOUR_TURN if yours else WAITING.format(name=facts["players"][to_move]),
        turn_deadline=due if yours else None,
    )
    return facts


def entry(table: Any, seats: list[int]) -> dict[str, Any]:
    """One game of the list: whose turn it is, and until when (a turn-based table)."""
    to_move = table.model.to_move
    names = table.player_names()
    held = table.live and to_move in seats and table.held_by_stand_in(to_move)
    yours = table.live and to_move in seats and not held
    if yours:
        status = YOUR_TURN
    elif held:
        status = STAND_IN
    else:
        status = WAITING.format(name=names[to_move])
    return {
        "table": table.code,
        "url": f"/t/{table.code}",
        "name": table.name,
        "seats": seats,
        "players": names,
        "your_turn": yours,
        "status": status,
        "turn_based": table.turn_based,
        "move_clock": table.options.get("move_clock"),
        "turn_deadline": table.turn_deadline() if yours else None,
        "hands_played": len(table.model.game.finished_hands),
        "scores": list(table.model.game.scores),
        "version": table.version,
    }


def order(games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The games where it is your turn first (the soonest deadline first), then the rest as
    they were (the newest first)."""

    def key(game: dict[str, Any]) -> tuple[bool, float]:
        deadline = game["turn_deadline"]
        return (not game["your_turn"], math.inf if deadline is None else deadline)

    return sorted(games, key=key)


def make_router(accounts: Any) -> APIRouter:
    router = APIRouter()

    @router.get("/api/my-games")
    async def my_games(request: Request) -> dict[str, Any]:
        from fivehundred.web.accounts import AccountError

        account = await accounts.current(request)
        if account is None:
            raise AccountError(401, "not logged in")
        hub = request.app.state.hub
        held = await hub.store.call(seats_of, hub.store.store.engine, account.id)
        asleep = [code for code in held if code not in hub.tables]
        summaries = await hub.store.call(dormant_summaries, hub.store.store.engine, asleep)
        games = []
        for code, seats in held.items():
            if code in summaries:  # (not read into memory for the list)
                games.append(summary_entry(summaries[code], seats))
                continue
            table = await hub.get(code)
            if table is not None and table.live:
                games.append(entry(table, seats))
        return {"games": order(games)}

    @router.get("/my-games", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC_DIR / "my-games.html")

    return router


def install(app: Any, accounts: Any) -> None:
    app.include_router(make_router(accounts))
