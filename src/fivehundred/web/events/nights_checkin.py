"""Checking in to a club night (``POST /api/nights/{id}/check-in``): a night scheduled
with ``check_in`` seats, at its start, only the entries (pairs or single players) that
checked in; the others are withdrawn (their entries deleted, the rest numbered again in
the order they entered) before the movement seats the field, so that nobody absent is
seated and stood in for by the computer all night. A pair checks in when either of its
players does. Pure database work in the store's thread."""

from __future__ import annotations

import time
from typing import Any

import sqlalchemy as sa
from fastapi import HTTPException
from sqlalchemy.engine import Connection

from fivehundred.web.events import nights_words as w
from fivehundred.web.events.nights_store import NightStore
from fivehundred.web.schema import night_pairs


def check_in(store: NightStore, night_id: int, account_id: int) -> bool:
    """The account's entry checks in (409 unless the night is registering and asks for
    check-in; 404 when the account has not entered); whether it had not before."""
    with store.engine.begin() as db:
        night = store.night_row(db, night_id, lock=True)
        if night.state != "registering":
            raise HTTPException(409, w.NOT_REGISTERING)
        if not night.check_in:
            raise HTTPException(409, w.NO_CHECK_IN)
        entry = db.execute(
            sa.select(night_pairs.c.id, night_pairs.c.present).where(
                night_pairs.c.night_id == night_id,
                sa.or_(night_pairs.c.first_id == account_id, night_pairs.c.second_id == account_id),
            )
        ).first()
        if entry is None:
            raise HTTPException(404, w.NOT_ENTERED)
        if entry.present is not None:
            return False
        db.execute(
            night_pairs.update().where(night_pairs.c.id == entry.id).values(present=time.time())
        )
        return True


def withdraw_absent(db: Connection, night: Any) -> int:
    """At the start of a night that asks for check-in (in the start's transaction, the
    night locked): the entries that did not check in are withdrawn and the rest numbered
    0, 1, … in the order they entered; how many were withdrawn."""
    if not night.check_in:
        return 0
    rows = db.execute(
        sa.select(night_pairs.c.id, night_pairs.c.present)
        .where(night_pairs.c.night_id == night.id)
        .order_by(night_pairs.c.number)
    ).all()
    absent = [row.id for row in rows if row.present is None]
    if absent:
        db.execute(night_pairs.delete().where(night_pairs.c.id.in_(absent)))
    present = [row.id for row in rows if row.present is not None]
    for number, entry in enumerate(present):  # numbers unique: shifted down in order
        db.execute(night_pairs.update().where(night_pairs.c.id == entry).values(number=number))
    return len(absent)
