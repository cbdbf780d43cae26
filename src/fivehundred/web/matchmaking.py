""" "Play now": a small matchmaking queue (docs/web-protocol.md#play-now).

A person asks to play a preset (``POST /api/play-now``) with the computer level that is to
fill the empty seats and how long they will wait for people (0: at once). They wait in
the preset's queue with their rating (an account's rating for the preset, else a new
player's, 0). Whenever someone arrives or a waiting person asks how it stands
(``GET /api/play-now/{ticket}?wait=S``, a long poll), the queue is matched, oldest first:

* a person and the waiting people near their rating (within :data:`NEAR` rating points,
  widening by :data:`WIDEN` a second of the oldest one's wait) who fill every seat sit at a
  new table together;
* a person whose wait is over sits at a new table with the people near them whose wait
  is over too, and the chosen level's computer players in the seats left;
* but a person who would start at once while someone near them, who came earlier, still
  waits for people waits with them (Play now is at once only while nobody waits): they
  are seated together, on the earlier one's level, when that one's wait is over or the
  table is full. Nobody waiting for people is pulled into a table of another's choosing.

Each seated person's ticket then answers the table, the seat and its token; a logged-in
person's seat is the account's (a table of accounts alone is rated, as any other).

**One queue for every server.** The queue is a table of the database
(``play_now_queue``, the ticket kept as its SHA-256): with several servers on one
PostgreSQL, people whose requests reach different servers meet. A match is made under one
PostgreSQL advisory lock (:data:`QUEUE_LOCK`, held by the transaction that picks a group):
the server that picks a group claims its rows, makes the table and writes each person's
seat; a claim not finished within :data:`CLAIM_FOR` s (its server died) is let go and the
people wait on. A seat written wakes the long polls of every server (``NOTIFY queue``;
each poll also looks again every :data:`RECHECK` s).

Every input is bounded: the preset and level from their lists, the wait (0 to
:data:`MAX_WAIT` s), the poll (0 to :data:`MAX_POLL` s), the queue (:data:`MAX_QUEUE`
people in the database, :data:`PER_CLIENT` per address); a ticket nobody asks about for
:data:`FORGET_AFTER` s is dropped; a deleted account's place goes with it."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Connection, Engine

from fivehundred.rules import PRESETS, make_rules
from fivehundred.web.schema import play_now_queue as queue

if TYPE_CHECKING:
    from fivehundred.web.store import AsyncStore

log = logging.getLogger("fivehundred.web.matchmaking")

#: The longest a person may choose to wait for people (seconds).
MAX_WAIT = 300.0
#: The longest one long poll is held (seconds).
MAX_POLL = 30.0
#: People waiting at once in the database (every server's), and from one address.
MAX_QUEUE = 1000
PER_CLIENT = 8
#: Rating points (μ − 3σ) within which people are near, and how much wider each second.
NEAR = 5.0
WIDEN = 0.5
#: A ticket not asked about for this long is dropped (seconds); a seated one is kept this
#: long for its person to read their seat.
FORGET_AFTER = 60.0
#: A group claimed by a server that has not seated it within this long is let go (s).
CLAIM_FOR = 60.0
#: A long poll reads its ticket again at least this often (news between servers lost).
RECHECK = 5.0
#: A person whose own wait is over, waiting with someone who came earlier, is matched again
#: this often while their poll is held (s).
DUE_LOOK = 1.0
#: The PostgreSQL advisory lock under which a group is picked (one server at a time).
QUEUE_LOCK = 500_001
#: The PostgreSQL channel of the servers' news (web/store.py's).
CHANNEL = "fivehundred"


class PlayNowIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    preset: str = Field(default="australian", max_length=40)
    #: the computer player for the seats no person takes (one of the offered players)
    level: str = Field(default="medium", max_length=30)
    #: seconds to wait for people before the computer players fill the table (default:
    #: none; a first visitor plays at once, with whoever is waiting already)
    wait: float = Field(default=0.0, ge=0, le=MAX_WAIT, allow_inf_nan=False)
    #: a guest's name at the table (a logged-in person plays under the account's)
    name: str = Field(default="Guest", min_length=1, max_length=30)


@dataclass
class Entry:
    """A person in the queue (a row of ``play_now_queue``)."""

    #: the SHA-256 of the ticket (the ticket itself only where its person asked with it)
    key: str
    preset: str
    level: str
    wait: float
    name: str
    account_id: int | None
    rating: float
    client: str
    since: float
    last_seen: float
    #: the browser's device id (web/accounts.py, ``device_of``), if it has one
    device: str | None = None
    #: set once seated: {"table", "url", "seat", "token"}
    seat: dict[str, Any] | None = None
    ticket: str = ""
    #: people of the preset waiting (with this one), when it was read
    waiting: int = 0


def ticket_key(ticket: str) -> str:
    return hashlib.sha256(ticket.encode()).hexdigest()


def _entry(row: Any) -> Entry:
    return Entry(
        key=row.ticket_hash,
        preset=row.preset,
        level=row.level,
        wait=row.wait,
        name=row.name,
        account_id=row.account_id,
        rating=row.rating,
        client=row.client,
        since=row.since,
        last_seen=row.last_seen,
        seat=json.loads(row.seat) if row.seat else None,
    )


class PlayNowError(Exception):
    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


class QueueStore:
    """The queue's rows, synchronous (called in the store's thread)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.postgres = engine.dialect.name == "postgresql"

    def _locked(self, db: Connection, now: float) -> None:
        """Hold the queue (PostgreSQL: every server's) until the transaction ends, and
        drop the tickets nobody asked about, and the claims of servers gone."""
        if self.postgres:
            db.execute(sa.select(sa.func.pg_advisory_xact_lock(QUEUE_LOCK)))
        db.execute(queue.delete().where(queue.c.last_seen < now - FORGET_AFTER))
        db.execute(
            queue.update()
            .where(queue.c.claim.is_not(None), queue.c.claimed_at < now - CLAIM_FOR)
            .values(claim=None, claimed_at=None)
        )

    def join(self, entry: Entry) -> None:
        """Put ``entry`` in the queue (an account's earlier place goes);
        :class:`PlayNowError` if the queue, or the address's share, is full."""
        with self.engine.begin() as db:
            self._locked(db, entry.since)
            waiting = queue.c.seat.is_(None)
            count = sa.select(sa.func.count()).select_from(queue)
            if (db.execute(count.where(waiting)).scalar() or 0) >= MAX_QUEUE:
                raise PlayNowError(503, "too many people are waiting; try later")
            mine = count.where(waiting, queue.c.client == entry.client)
            if (db.execute(mine).scalar() or 0) >= PER_CLIENT:
                raise PlayNowError(429, f"your address has {PER_CLIENT} people waiting already")
            if entry.account_id is not None:  # one place in the queue per account
                db.execute(
                    queue.delete().where(
                        waiting, queue.c.claim.is_(None), queue.c.account_id == entry.account_id
                    )
                )
            arrived = db.execute(sa.select(sa.func.max(queue.c.arrived))).scalar() or 0
            db.execute(
                queue.insert().values(
                    arrived=arrived + 1,
                    ticket_hash=entry.key,
                    preset=entry.preset,
                    level=entry.level,
                    wait=entry.wait,
                    name=entry.name,
                    account_id=entry.account_id,
                    rating=entry.rating,
                    client=entry.client,
                    since=entry.since,
                    last_seen=entry.last_seen,
                )
            )

    def find(self, key: str, now: float) -> Entry | None:
        """The entry (asked about now: it is kept :data:`FORGET_AFTER` s more), with how
        many of its preset wait."""
        with self.engine.begin() as db:
            db.execute(queue.update().where(queue.c.ticket_hash == key).values(last_seen=now))
            row = db.execute(sa.select(queue).where(queue.c.ticket_hash == key)).first()
            if row is None:
                return None
            entry = _entry(row)
            entry.waiting = (
                db.execute(
                    sa.select(sa.func.count())
                    .select_from(queue)
                    .where(queue.c.seat.is_(None), queue.c.preset == entry.preset)
                ).scalar()
                or 0
            )
            return entry

    def claim(
        self, now: float, claim: str, pick: Callable[[list[Entry], float], list[Entry] | None]
    ) -> list[Entry] | None:
        """Claim the next group ``pick`` makes of the people waiting (unclaimed), oldest
        first; None if there is none."""
        with self.engine.begin() as db:
            self._locked(db, now)
            rows = db.execute(
                sa.select(queue)
                .where(queue.c.seat.is_(None), queue.c.claim.is_(None))
                .order_by(queue.c.since, queue.c.arrived)
            ).all()
            group = pick([_entry(r) for r in rows], now)
            if group is None:
                return None
            db.execute(
                queue.update()
                .where(queue.c.ticket_hash.in_([e.key for e in group]))
                .values(claim=claim, claimed_at=now)
            )
            return group

    def seated(self, claim: str, answers: dict[str, dict[str, Any]], now: float) -> None:
        """The claimed people's seats (their tickets answer them); every server's long
        polls are woken."""
        with self.engine.begin() as db:
            for key, answer in answers.items():
                db.execute(
                    queue.update()
                    .where(queue.c.ticket_hash == key, queue.c.claim == claim)
                    .values(seat=json.dumps(answer), claim=None, claimed_at=None, last_seen=now)
                )
            if self.postgres:
                db.execute(sa.select(sa.func.pg_notify(CHANNEL, "queue")))

    def unclaim(self, claim: str, now: float) -> None:
        """The table could not be made: the group waits on (from now)."""
        with self.engine.begin() as db:
            db.execute(
                queue.update()
                .where(queue.c.claim == claim)
                .values(claim=None, claimed_at=None, since=now)
            )

    def leave(self, key: str) -> bool | None:
        """Leave the queue: None if no such ticket, False if seated (the seat stays)."""
        with self.engine.begin() as db:
            row = db.execute(sa.select(queue.c.seat).where(queue.c.ticket_hash == key)).first()
            if row is None:
                return None
            if row.seat is not None:
                return False
            db.execute(queue.delete().where(queue.c.ticket_hash == key))
            return True

    def forget_account(self, account_id: int) -> int:
        with self.engine.begin() as db:
            result = db.execute(
                queue.delete().where(queue.c.account_id == account_id, queue.c.seat.is_(None))
            )
            return int(result.rowcount or 0)


class Matchmaker:
    """The play-now queue, kept in the database of ``store`` (an
    :class:`~fivehundred.web.store.AsyncStore`). ``seat_table(preset, level, entries)``
    makes a table and seats the entries (people, in order) at its first seats, filling the
    rest with ``level``; it returns each entry's seat answer. ``options``: the tables'
    options (the tests play without the computer players' pause). ``clock``: seconds, the
    same on every server (the tests move it)."""

    def __init__(
        self,
        seat_table: Callable[..., Any],
        offered: list[str],
        options: dict[str, Any] | None = None,
        clock: Callable[[], float] = time.time,
        *,
        store: AsyncStore,
    ) -> None:
        self.seat_table = seat_table
        self.offered = offered
        self.options = dict(options or {})
        self.clock = clock
        self.store = store
        self.queue = QueueStore(store.store.engine)
        self.lock = asyncio.Lock()
        self._changed = asyncio.Event()

    def changed(self) -> None:
        """Seats were written (here or by another server): the long polls look again."""
        self._changed.set()
        self._changed = asyncio.Event()

    def check(self, body: PlayNowIn) -> None:
        if body.preset not in PRESETS:
            raise PlayNowError(422, f"preset: one of {', '.join(PRESETS)}")
        if body.level not in self.offered:
            raise PlayNowError(422, f"level: one of {', '.join(self.offered)}")
        name = " ".join(body.name.split())
        if not name or not name.isprintable():
            raise PlayNowError(422, "name: must be printable text")

    async def join(
        self,
        body: PlayNowIn,
        name: str,
        account: Any,
        rating: float,
        client: str,
        device: str | None = None,
    ) -> Entry:
        self.check(body)
        now = self.clock()
        ticket = secrets.token_urlsafe(18)
        entry = Entry(
            key=ticket_key(ticket),
            preset=body.preset,
            level=body.level,
            wait=body.wait,
            name=name,
            account_id=account.id if account is not None else None,
            rating=rating,
            client=client,
            since=now,
            last_seen=now,
            device=device,
        )
        await self.store.call(self.queue.join, entry)
        await self.match()
        return await self.find(ticket)

    async def find(self, ticket: str) -> Entry:
        entry: Entry | None = None
        if len(ticket) <= 64:
            entry = await self.store.call(self.queue.find, ticket_key(ticket), self.clock())
        if entry is None:
            raise PlayNowError(404, "no such ticket (seated long ago, left, or never asked for)")
        entry.ticket = ticket
        return entry

    async def poll(self, ticket: str, wait: float) -> Entry:
        """The entry once seated, or after ``wait`` seconds (the queue is matched again
        when its own wait is over, then with computer players, and every :data:`DUE_LOOK`
        s after while it waits with someone who came earlier)."""
        entry = await self.find(ticket)
        if entry.seat is None:
            await self.match()
            entry = await self.find(ticket)
        end = time.monotonic() + wait
        while entry.seat is None and (left := end - time.monotonic()) > 0:
            # its own wait over, it waits with someone who came earlier: their wait's end
            # is looked for every :data:`DUE_LOOK` s
            until_due = entry.since + entry.wait - self.clock()
            until_due = until_due if until_due > 0 else DUE_LOOK
            changed = self._changed
            try:  # (asyncio.timeout, not wait_for: a cancel at a wake is never swallowed)
                async with asyncio.timeout(min(left, until_due, RECHECK)):
                    await changed.wait()
            except TimeoutError:
                if self.clock() >= entry.since + entry.wait:
                    await self.match()
            entry = await self.find(ticket)
        return entry

    async def forget_account(self, account_id: int) -> int:
        """A deleted account's places in the queue go (how many)."""
        return int(await self.store.call(self.queue.forget_account, account_id))

    async def leave(self, ticket: str) -> bool:
        """Leave the queue; False if already seated (the seat stays taken)."""
        left = None
        if len(ticket) <= 64:
            left = await self.store.call(self.queue.leave, ticket_key(ticket))
        if left is None:
            raise PlayNowError(404, "no such ticket (seated long ago, left, or never asked for)")
        return bool(left)

    def status(self, entry: Entry) -> dict[str, Any]:
        if entry.seat is not None:
            return {"status": "seated", "ticket": entry.ticket, **entry.seat}
        return {
            "status": "waiting",
            "ticket": entry.ticket,
            "preset": entry.preset,
            "waiting": entry.waiting,
            "computers_in": round(max(0.0, entry.since + entry.wait - self.clock()), 1),
        }

    def near(self, first: Entry, other: Entry, now: float) -> bool:
        window = NEAR + WIDEN * (now - first.since)
        return other.preset == first.preset and abs(other.rating - first.rating) <= window

    async def match(self) -> None:
        """Seat whoever can be seated now (oldest first)."""
        async with self.lock:
            while True:
                now = self.clock()
                claim = secrets.token_hex(8)
                group = await self.store.call(self.queue.claim, now, claim, self._next_group)
                if group is None:
                    return
                first = group[0]
                try:
                    answers = await self.seat_table(first.preset, first.level, group)
                except Exception:
                    log.exception("play now: the table could not be made")
                    # they wait on (asked again, it is tried again)
                    await self.store.call(self.queue.unclaim, claim, now)
                    return
                seats = {e.key: a for e, a in zip(group, answers, strict=True)}
                await self.store.call(self.queue.seated, claim, seats, self.clock())
                self.changed()

    def _next_group(self, waiting: list[Entry], now: float) -> list[Entry] | None:
        """The next group to seat of ``waiting`` (in the order they came), if any."""
        for index, first in enumerate(waiting):
            seats = make_rules(first.preset).players
            others = [e for e in waiting if e is not first and self.near(first, e, now)]
            if 1 + len(others) >= seats:
                return [first, *others[: seats - 1]]
            if now >= first.since + first.wait:
                earlier = waiting[:index]  # (in the order they came)
                if any(e in earlier and now < e.since + e.wait for e in others):
                    # someone near came earlier and still waits for people: ``first`` waits
                    # with them (at once only while nobody waits), and the table is made
                    # on the earlier one's terms (their level, when their wait is over),
                    # never pulling them into a table of another's choosing
                    continue
                # with computers: only the people whose own wait is over too
                return [first, *(e for e in others if now >= e.since + e.wait)]
        return None


# ----------------------------------------------------------------------------- the API
def make_router(matchmaker: Matchmaker, who: Callable[..., Any]) -> APIRouter:
    """The routes. ``who(request, name, preset)`` answers (name, account, rating) of the
    person asking (the account's when logged in; :class:`PlayNowError` for a guest using
    an account's name) and their address."""
    router = APIRouter()

    @router.post("/api/play-now")
    async def play_now(body: PlayNowIn, request: Request) -> dict[str, Any]:
        matchmaker.check(body)
        name, account, rating, client = await who(request, " ".join(body.name.split()), body.preset)
        from fivehundred.web.accounts import device_of

        entry = await matchmaker.join(body, name, account, rating, client, device_of(request))
        return matchmaker.status(entry)

    @router.get("/api/play-now/{ticket}")
    async def play_now_status(
        ticket: str, wait: float = Query(default=0.0, ge=0, le=MAX_POLL, allow_inf_nan=False)
    ) -> dict[str, Any]:
        return matchmaker.status(await matchmaker.poll(ticket, wait))

    @router.delete("/api/play-now/{ticket}")
    async def play_now_leave(ticket: str) -> dict[str, Any]:
        if not await matchmaker.leave(ticket):
            raise PlayNowError(409, "already seated: the table is waiting for you")
        return {"status": "left"}

    return router
