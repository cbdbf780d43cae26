"""Deadlines as rows, fired by one scheduler (docs/web-protocol.md, "Deadlines").

What must happen at a time is a row of ``deadlines`` (a table, a kind, a seat, a due time on
the wall clock), not a timer in one server's memory, so that it holds across a failover or
a restart:

- ``grace``: a person away (no connection on any server) since the row was written; when it
  fires the stand-in plays their seat until they are back;
- ``open``: a seat nobody took; when it fires the stand-in plays it (it can still be taken);
- ``expire``: nobody connected since the row was written; when it fires the table closes;
- ``turn``: the turn clock of the person to move at ``version``; when it fires the stand-in
  makes that one move. It is written (and the last one deleted) in the transaction that
  writes the action before it (:class:`TimedActionRow`), as the game's end deletes every row;
- ``finish``: the time by which the game must end (a turn-based tournament's round,
  ``options.finish_by``); when it fires the stand-in plays every person's seat to the end.

The table's owner writes the rows it needs and deletes those it no longer does
(:meth:`fivehundred.web.live.automation.Automation.plan_deadlines`: a :class:`DeadlineChange`
in the group commit, with the actions of the moment; a row that does not change is not
written again). One :class:`Scheduler` per database fires them: the server holding its
advisory lock (:mod:`fivehundred.web.cluster`; alone on SQLite, the one server) marks each
due row ``fired`` in one transaction (``FOR UPDATE SKIP LOCKED``: once), and tells the
table's owner (``due:CODE``), which reads the table's rows again and acts (its stand-in's
move is an action like any other: one per version). Between two looks it knows when the
next row is due (each row written is told to it: ``deadline:CODE:DUE``), and reads nothing
before then. A row whose table has ended is deleted when it is due. A fired row outlives
its owner: the server that takes the table over reads it and acts at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from fivehundred.web.schema import closures, deadlines, inbox, tables
from fivehundred.web.store import CHANNEL, ActionRow, Write

if TYPE_CHECKING:
    from fivehundred.web.live.registry import Registry

log = logging.getLogger("fivehundred.web")

#: The kinds of deadline.
GRACE = "grace"
OPEN_SEAT = "open"
TURN = "turn"
#: The game's own deadline (``options.finish_by``): the stand-ins finish it (seat 0).
FINISH = "finish"
#: Nobody connected to the table (on any server) since the row was written: when it fires
#: the table is closed (its seat 1: a person was seated, ``expire_abandoned``; 0: nobody
#: was, ``expire_unjoined``).
EXPIRE = "expire"
#: Seconds between two wakes of the scheduler at most (a row written meanwhile on this
#: server, or told by ``deadline:`` from another, wakes it at once, if due sooner): it asks
#: for its role if another server holds it, and looks if a row is due.
POLL = 1.0
#: Seconds between two looks at most while nothing it was told of is due (a row whose
#: news was lost is fired this late at worst).
RELOOK = 60.0
#: Rows fired at one look (the rest at the next, at once).
BATCH = 200
#: Seconds ahead within which a deadline due counts as work soon: a turn-based table
#: whose only deadline is a person's clock due later than that is dormant (it needs no
#: memory: nobody is connected, nothing is due), and is read from the database when it is
#: opened, when an action for it is passed on, or when its deadline fires.
AWAKE = 60.0
#: The advisory lock of the scheduler's role (the tables' are ``(500, table id)``).
ROLE_CLASS = 501
SCHEDULER_ROLE = 1


def dormant(now: float) -> sa.ColumnElement[bool]:
    """Of a ``tables`` row: a turn-based table waiting on a person's clock due later than
    :data:`AWAKE` seconds after ``now``, with no other deadline fired or due sooner (the
    rest of its tables are read at a server's start, or taken over by another server)."""
    mine = deadlines.alias("d")  # (a query of it may join its table's deadlines too)
    row = mine.c.table_id == tables.c.id
    waits = sa.exists().where(
        row, mine.c.kind == TURN, mine.c.fired.is_(False), mine.c.due > now + AWAKE
    )
    soon = sa.exists().where(row, sa.or_(mine.c.fired, mine.c.due <= now + AWAKE))
    passed_on = sa.exists().where(inbox.c.table_id == tables.c.id)
    return sa.and_(tables.c.options.like('%"move_clock"%'), waits, ~soon, ~passed_on)


#: :func:`dormant` in PostgreSQL's words for ``tables t`` (psycopg's parameters: the due
#: time after which a person's clock leaves its table dormant, twice).
DORMANT_SQL = f"""(t.options LIKE '%%"move_clock"%%'
    AND EXISTS (SELECT 1 FROM deadlines d WHERE d.table_id = t.id AND d.kind = '{TURN}'
        AND NOT d.fired AND d.due > %s)
    AND NOT EXISTS (SELECT 1 FROM deadlines d WHERE d.table_id = t.id
        AND (d.fired OR d.due <= %s))
    AND NOT EXISTS (SELECT 1 FROM inbox i WHERE i.table_id = t.id))"""


@dataclass(frozen=True)
class Deadline:
    """One row: due at ``due`` (wall clock), set at the table's ``version``."""

    due: float
    version: int
    fired: bool = False


#: The statements of the rows' writes, made once (each write is then only its values).
_TABLE = deadlines.c.table_id == sa.bindparam("t")
DELETE_ROW = deadlines.delete().where(
    _TABLE, deadlines.c.kind == sa.bindparam("k"), deadlines.c.seat == sa.bindparam("s")
)
DELETE_TURN = deadlines.delete().where(_TABLE, deadlines.c.kind == TURN)
DELETE_ALL = deadlines.delete().where(_TABLE)
INSERT = deadlines.insert()
OF_TABLE = sa.select(deadlines).where(_TABLE)


def _replace(
    db: Connection, table_id: int, put: dict[tuple[str, int], Deadline], keys: list[tuple[str, int]]
) -> None:
    """Delete the table's rows of ``keys`` (kind, seat) and of ``put``'s (a ``turn`` row: every
    one of the table, it has one clock) and insert ``put`` (not fired)."""
    keys = [*put, *keys]
    rows = [{"t": table_id, "k": kind, "s": seat} for kind, seat in keys if kind != TURN]
    if rows:
        db.execute(DELETE_ROW, rows)
    if len(rows) < len(keys):
        db.execute(DELETE_TURN, {"t": table_id})
    if put:
        db.execute(
            INSERT,
            [
                {"table_id": table_id, "kind": kind, "seat": seat, "due": d.due}
                | {"version": d.version, "fired": False}
                for (kind, seat), d in put.items()
            ],
        )


def _tell(db: Connection, code: str | None, put: dict[tuple[str, int], Deadline]) -> None:
    """Tell the servers' schedulers (PostgreSQL, at the commit) when the soonest row of
    ``put`` is due: ``deadline:CODE:DUE``."""
    if put and code is not None and db.dialect.name == "postgresql":
        soonest = min(d.due for d in put.values())
        db.execute(sa.select(sa.func.pg_notify(CHANNEL, f"deadline:{code}:{soonest!r}")))


@dataclass
class DeadlineChange(Write):
    """Rows of a table's deadlines written (``put``, each replacing the row of its kind and
    seat) and deleted (``gone``), in a group commit (:meth:`AsyncStore.write`)."""

    table_id: int
    code: str
    put: dict[tuple[str, int], Deadline]
    gone: list[tuple[str, int]]

    def written(self, db: Connection) -> None:
        _replace(db, self.table_id, self.put, self.gone)
        _tell(db, self.code, self.put)


@dataclass
class TimedActionRow(ActionRow):
    """An action that changes the table's deadlines, in its own transaction: the game's end
    deletes them all; at a table with a turn clock, ``clock`` (seat, due) replaces the
    ``turn`` row, or none does (a table with no row and none to write writes nothing)."""

    clock: tuple[int, float] | None = None
    #: the seat of the ``turn`` row before it (deleted), if there was one
    ticking: int | None = None

    @property
    def put(self) -> dict[tuple[str, int], Deadline]:
        """The row it writes."""
        if self.clock is None or self.finished is not None:
            return {}
        return {(TURN, self.clock[0]): Deadline(self.clock[1], self.version)}

    def written(self, db: Connection) -> None:
        if self.finished is not None:  # (a game over has no deadline)
            db.execute(DELETE_ALL, {"t": self.table_id})
            return
        put = self.put
        _replace(db, self.table_id, put, [] if self.ticking is None else [(TURN, self.ticking)])
        _tell(db, self.code, put)


class DeadlineStore:
    """The deadlines' rows, synchronous (called in the store's thread)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @property
    def is_postgres(self) -> bool:
        return self.engine.dialect.name == "postgresql"

    def _notify(self, db: Connection, payload: str) -> None:
        if self.is_postgres:
            db.execute(sa.select(sa.func.pg_notify(CHANNEL, payload)))

    def of_table(self, table_id: int) -> dict[tuple[str, int], Deadline]:
        with self.engine.connect() as db:
            rows = db.execute(OF_TABLE, {"t": table_id})
            return {(r.kind, r.seat): Deadline(r.due, r.version, bool(r.fired)) for r in rows.all()}

    def fire_due(self, now: float) -> tuple[list[str], float | None]:
        """Mark the rows due by ``now`` fired (those of ended tables are deleted) and tell
        each table's owner (``due:CODE``); the codes of the tables told, and when the next
        row not fired is due (None: none)."""
        with self.engine.begin() as db:
            due = db.execute(
                sa.select(
                    deadlines.c.table_id,
                    deadlines.c.kind,
                    deadlines.c.seat,
                    tables.c.code,
                    tables.c.finished,
                    closures.c.at.label("closed"),
                )
                .select_from(
                    deadlines.join(tables, tables.c.id == deadlines.c.table_id).outerjoin(
                        closures, closures.c.table_id == deadlines.c.table_id
                    )
                )
                .where(deadlines.c.fired.is_(False), deadlines.c.due <= now)
                .order_by(deadlines.c.due)
                .limit(BATCH)
                .with_for_update(of=deadlines, skip_locked=True)
            ).all()
            codes: list[str] = []
            for row in due:
                key = (
                    deadlines.c.table_id == row.table_id,
                    deadlines.c.kind == row.kind,
                    deadlines.c.seat == row.seat,
                )
                if row.finished is not None or row.closed is not None:
                    db.execute(deadlines.delete().where(*key))
                    continue
                db.execute(deadlines.update().where(*key).values(fired=True))
                if row.code not in codes:
                    codes.append(row.code)
                    self._notify(db, f"due:{row.code}")
            later = db.execute(
                sa.select(sa.func.min(deadlines.c.due)).where(deadlines.c.fired.is_(False))
            ).scalar()
        return codes, None if later is None else float(later)


class Scheduler:
    """The scheduler of one server: it fires the due deadlines while this server holds the
    role (alone: always), and otherwise only asks for the role at each look."""

    def __init__(self, hub: Registry, poll: float = POLL) -> None:
        self.hub = hub
        self._store: DeadlineStore | None = None
        self.poll = poll
        #: seconds between two looks at most while nothing it was told of is due
        self.relook = RELOOK
        self.wake = asyncio.Event()
        self.task: asyncio.Task[None] | None = None
        #: this server fires the deadlines (it holds the role)
        self.holding = False
        #: the tables told of a fired deadline by this server (the tests, the metrics)
        self.fired = 0
        #: when the next row not fired is due, as far as this server knows (0: look now)
        self.next_due = 0.0
        #: monotonic time of the last look; and how many (the tests)
        self.looked = -math.inf
        self.looks = 0

    @property
    def store(self) -> DeadlineStore:
        """The rows (on the hub's database, once it has one)."""
        if self._store is None:
            self._store = DeadlineStore(self.hub.store.store.engine)
        return self._store

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
            self.task = None

    def noted(self, due: float) -> None:
        """A row due at ``due`` (wall clock) was written (committed, here or on another
        server: ``deadline:CODE:DUE``): the next look is then at the latest."""
        if due < self.next_due:
            self.next_due = due
            self.wake.set()

    def nudge(self, _payload: str = "") -> None:
        """Rows may have been written that this server was not told of: look now."""
        self.noted(0.0)

    async def run(self) -> None:
        while True:
            self.wake.clear()
            wait = self.poll
            try:
                if await self.holds():
                    wait = await self.fire()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.error("deadlines: the look failed: %s", error)
            # a timer, not wait_for: a wake at the moment of a cancel (a row written as the
            # server stops) would have wait_for swallow the cancel (Python 3.11)
            timer = asyncio.get_running_loop().call_later(wait, self.wake.set)
            try:
                await self.wake.wait()
            finally:
                timer.cancel()

    async def holds(self) -> bool:
        cluster = self.hub.cluster
        if cluster is None:
            self.holding = True
        elif not self.holding or not cluster.holds_role(ROLE_CLASS, SCHEDULER_ROLE):
            self.holding = await cluster.take_role(ROLE_CLASS, SCHEDULER_ROLE)
            if self.holding:
                log.info("deadlines: this server fires the deadlines now")
                self.next_due = 0.0  # (rows were written while another server fired them)
        return self.holding

    async def fire(self) -> float:
        """Fire what is due (nothing is read before the next row is due, unless the last
        look is :attr:`relook` old); the seconds until the next look."""
        now = time.time()
        if self.next_due > now and time.monotonic() - self.looked < self.relook:
            return min(self.poll, self.next_due - now)
        self.looked = time.monotonic()
        self.looks += 1
        self.next_due = math.inf  # (lowered by the rows told of during the look)
        try:
            codes, later = await self.hub.store.call(self.store.fire_due, now)
        except BaseException:
            self.next_due = 0.0
            raise
        if later is not None:
            self.next_due = min(self.next_due, later)
        self.fired += len(codes)
        if self.hub.cluster is None:  # (several servers: told by ``due:CODE``)
            for code in codes:
                self.hub.deadlines_due(code)
        if len(codes) >= BATCH:
            return 0.0
        if later is None:
            return self.poll
        return min(self.poll, max(0.0, later - time.time()))
