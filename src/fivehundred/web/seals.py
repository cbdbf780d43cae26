"""Sealed tables: the finished tables whose cards others have still to play.

A club night deals each board at several tables, one after another: a board's record (its
hands, its bidding, its play, even its contract) must reach nobody before the night ends
(hidden information: a pair must not read a board before playing it). Such a table is
made with ``options["sealed"]`` (a key, ``"night:ID"``), kept in its row
(``tables.sealed``); the seal is lifted by a row in ``seals`` (the night's end writes it,
in the transaction that finishes the night). Until then the table is left out of the
finished games and the players' pages, its record is refused, and nobody watches it who
does not sit at it.
"""

from __future__ import annotations

import contextlib
from typing import Any

import sqlalchemy as sa
from fastapi import HTTPException
from sqlalchemy.engine import Connection, Engine

from fivehundred.web.schema import seals, tables

#: what a person is told who asks for a sealed table's record or to watch it
SEALED = "this board is still to be played at other tables: it is shown when they are done"


def unsealed() -> Any:
    """A condition on ``tables``: the table's record may be shown (never sealed, or its
    seal lifted)."""
    return sa.or_(tables.c.sealed.is_(None), tables.c.sealed.in_(sa.select(seals.c.key)))


def shown() -> Any:
    """The ids of the tables whose records may be shown (:func:`unsealed`)."""
    return sa.select(tables.c.id).where(unsealed())


def is_sealed(engine: Engine, key: str | None) -> bool:
    """Whether the seal ``key`` holds (not lifted yet); False for no key."""
    if not key:
        return False
    with engine.connect() as db:
        return db.execute(sa.select(seals.c.key).where(seals.c.key == key)).first() is None


def lift(db: Connection, key: str, now: float) -> None:
    """Lift the seal ``key`` (within the caller's transaction; once, however often asked)."""
    with contextlib.suppress(sa.exc.IntegrityError), db.begin_nested():
        db.execute(seals.insert().values(key=key, lifted=now))


async def holds(store: Any, table: Any) -> bool:
    """Whether ``table`` (a hub table) is sealed now (``store``: the server's AsyncStore)."""
    key = table.options.get("sealed")
    return bool(key) and bool(await store.call(is_sealed, store.store.engine, key))


async def refuse_record(store: Any, table: Any) -> None:
    """403 for the record of a sealed table."""
    if await holds(store, table):
        raise HTTPException(403, SEALED)
