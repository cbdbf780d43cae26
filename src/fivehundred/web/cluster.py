"""Several servers on one PostgreSQL: who owns each table, and the news between servers.

Every ``fivehundred serve`` started on the same PostgreSQL URL serves every table. Each
unfinished table has one owner, the server that holds its advisory lock
(``pg_try_advisory_lock(LOCK_CLASS, table id)``) on a connection of its own: only the owner
applies actions and makes the computer moves. The lock lives as long as that connection:
when the owner dies (even SIGKILL) PostgreSQL ends its session and the lock is free; every
server looks for such orphaned tables each ``heartbeat`` seconds, takes the lock of one it
finds and rebuilds the table from its action log. An action's version is the primary key of
its row in the log: even two servers that both believed they owned a table could not both
write the same version.

The servers tell each other what changed with ``NOTIFY`` on :data:`~fivehundred.web.store.CHANNEL`
(a second connection of each server ``LISTEN``s). Payloads name a table and never carry a
card of a hidden hand; each server reads what it needs from the database and builds its own
clients' views:

- ``act:CODE:VERSION`` an action was written (sent by the transaction that wrote it)
- ``seat:CODE:SERVER`` SERVER seated a person; ``closed:CODE:SERVER`` its expiry closed the
  table; ``undo:CODE:SERVER`` it cut the log back (the others read the table again; SERVER
  itself has it already)
- ``inbox:CODE`` a client's action waits in the ``inbox`` table for the owner
- ``refused:CODE:ID:REASON`` the owner refused the inbox's entry ID (the server that passed
  it on tells its client REASON)
- ``own:CODE:SERVER`` SERVER now owns the table (everyone says again who is connected)
- ``here:CODE:SERVER:SEATS:SPECTATORS`` the seats (comma-separated) and spectators connected
  to SERVER at that table (the owner's stand-ins and expiry count them)
- ``chat:CODE:SERVER:JSON`` a chat message (public)
- ``revoked:CODE:SERVER:SEAT:HASH`` an account's sessions ended on SERVER (log out
  everywhere, a password change, a deletion): the seat's token hash is HASH now (of a token
  nobody was given), and every server closes that seat's sockets
- ``rematch:CODE:SERVER:SEAT:NEWCODE:NAME`` NAME, at SEAT, started the rematch NEWCODE
  of CODE on SERVER: every server tells its connections to CODE (they may join it)
- ``deleted:ACCOUNT:SERVER`` the account was deleted on SERVER: its places in every
  server's play-now queue go
- ``queue`` seats of the play-now queue were written (:mod:`fivehundred.web.matchmaking`)
- ``deadline:CODE:DUE`` deadlines of the table were written, the soonest due at DUE: the
  scheduler looks then (:mod:`fivehundred.web.deadlines`); ``due:CODE`` it fired one: the table's
  owner reads them again and acts

Bounds (each heartbeat, :data:`HEARTBEAT` s):

- **Fair share.** Each server owns at most ``ceil(tables / servers)`` of the tables being
  played (servers: those connected to the database now). One with more marks the extra
  tables, and each is handed over at its next hand's start (never in a hand): its lock is
  let go and a server with fewer takes it at its next look; a server at its share takes an
  orphaned table only if it is still orphaned at its next look (a server with fewer takes it
  first). So after a rolling restart, a database restart or a failover the tables are
  spread fairly within a hand's length plus two heartbeats.
- **The inbox.** The owner takes every table's waiting inbox at each heartbeat (news of an
  action passed on can be lost while the database comes back), so an action passed on is
  taken within a heartbeat of the owner being connected again; one that nobody took within
  :data:`~fivehundred.web.live.base.FORWARD_WAIT` s is taken back by the server that passed it
  on, whose client is told to try again and is sent the table as it is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import secrets
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa

from fivehundred.web.deadlines import AWAKE, DORMANT_SQL
from fivehundred.web.store import CHANNEL

if TYPE_CHECKING:
    from fivehundred.web.live import Hub

log = logging.getLogger("fivehundred.web")

#: The first key of the tables' advisory locks (the second is the table's id).
LOCK_CLASS = 500
#: Seconds between two looks for orphaned tables (and checks of the lock connection).
HEARTBEAT = 1.0
#: TCP keepalives of both connections, so that a server on another machine that vanished
#: without closing them loses its locks within seconds (PostgreSQL's side, per session).
KEEPALIVE: dict[str, Any] = {
    "keepalives": 1,
    "keepalives_idle": 2,
    "keepalives_interval": 1,
    "keepalives_count": 3,
}
SERVER_KEEPALIVE = (
    "SET tcp_keepalives_idle = 2",
    "SET tcp_keepalives_interval = 1",
    "SET tcp_keepalives_count = 3",
)

#: The advisory locks of this database only: pg_locks shows those of every database of the
#: PostgreSQL server (two games' databases on one server have tables of the same id).
HERE = "l.database = (SELECT oid FROM pg_database WHERE datname = current_database())"

ORPHANS = f"""
SELECT t.id, t.code FROM tables t LEFT JOIN closures c ON c.table_id = t.id
WHERE t.finished IS NULL AND c.table_id IS NULL AND NOT {DORMANT_SQL} AND t.id NOT IN (
    SELECT l.objid::bigint FROM pg_locks l
    WHERE l.locktype = 'advisory' AND l.classid = %s AND l.objsubid = 2 AND l.granted
    AND {HERE})
ORDER BY t.id LIMIT 200
"""
#: Heartbeats for which a server does not take back a table it handed over (another takes it).
GIVEN_UP_BEATS = 5

#: The servers connected to this database (their names end their application_name).
SERVERS = """
SELECT application_name FROM pg_stat_activity
WHERE datname = current_database() AND application_name LIKE 'fivehundred serve %%'
"""


def conninfo(url: str) -> str:
    """psycopg's connection string from the server's SQLAlchemy URL."""
    return (
        sa.engine.make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    )


class Cluster:
    """This server's place among the servers of one PostgreSQL database."""

    def __init__(self, url: str, hub: Hub, heartbeat: float = HEARTBEAT) -> None:
        self.conninfo = conninfo(url)
        self.hub = hub
        self.heartbeat = heartbeat
        #: this server's name in the notifications
        self.id = secrets.token_hex(6)
        hub.store.store.origin = self.id
        self._locks: Any = None  # psycopg.AsyncConnection holding the advisory locks
        self._listener: Any = None
        self._tasks: list[asyncio.Task[None]] = []
        self._stopping = False
        #: tables this server took over from another (a dead) one
        self.adopted = 0
        #: the most tables this server should own (None: not known yet, take every one)
        self.fair: int | None = None
        #: tables found orphaned at the last look
        self._orphaned: set[int] = set()
        #: tables this server handed over -> monotonic time until which it leaves them
        self._given: dict[int, float] = {}
        #: the news that is not a table's, by its kind (``queue``: web/matchmaking.py)
        self.listeners: dict[str, Callable[[str], None]] = {}
        #: the roles this server holds: advisory locks of its lock connection besides the
        #: tables' (the deadlines' scheduler: web/deadlines.py), lost with that connection
        self.roles: set[tuple[int, int]] = set()
        #: held while a table's lock is taken and the table rebuilt (one at a time: a
        #: second take of a lock this session holds would succeed, as they nest)
        self._taking = asyncio.Lock()

    async def _connect(self) -> Any:
        import psycopg

        conn = await psycopg.AsyncConnection.connect(
            self.conninfo,
            autocommit=True,
            application_name=f"fivehundred serve {os.getpid()} {self.id}",
            **KEEPALIVE,
        )
        for statement in SERVER_KEEPALIVE:
            await conn.execute(statement)
        return conn

    async def start(self) -> None:
        """Connect, listen, and take every orphaned table (before serving)."""
        self._locks = await self._connect()
        self._listener = await self._connect()
        await self._listener.execute(f"LISTEN {CHANNEL}")
        await self.share()
        await self.scan()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._beat())]
        log.info(
            "cluster: server %s on the shared database (heartbeat %g s)", self.id, self.heartbeat
        )

    async def stop(self) -> None:
        self._stopping = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for conn in (self._listener, self._locks):
            if conn is not None:
                with contextlib.suppress(Exception):
                    await conn.close()

    # ------------------------------------------------------------------ locks
    async def try_lock(self, table_id: int) -> bool:
        try:
            cursor = await self._locks.execute(
                "SELECT pg_try_advisory_lock(%s, %s)", (LOCK_CLASS, table_id)
            )
            row = await cursor.fetchone()
        except Exception as error:
            log.warning("cluster: could not ask for the lock of table %d: %s", table_id, error)
            return False
        return bool(row and row[0])

    async def unlock(self, table_id: int) -> None:
        with contextlib.suppress(Exception):
            await self._locks.execute("SELECT pg_advisory_unlock(%s, %s)", (LOCK_CLASS, table_id))

    async def take_role(self, kind: int, key: int) -> bool:
        """Hold the role ``(kind, key)`` (one server of the database at a time); whether
        this server holds it."""
        if (kind, key) in self.roles:
            return True
        try:
            cursor = await self._locks.execute("SELECT pg_try_advisory_lock(%s, %s)", (kind, key))
            row = await cursor.fetchone()
        except Exception as error:
            log.warning("cluster: could not ask for the role %d/%d: %s", kind, key, error)
            return False
        if row and row[0]:
            self.roles.add((kind, key))
            return True
        return False

    def holds_role(self, kind: int, key: int) -> bool:
        return (kind, key) in self.roles

    def given_up(self, table_id: int) -> None:
        """This server handed the table over: another server takes it (this one does not
        for :data:`GIVEN_UP_BEATS` heartbeats, then does if nobody did)."""
        self._given[table_id] = time.monotonic() + GIVEN_UP_BEATS * self.heartbeat

    async def share(self) -> int:
        """The fair share: ``ceil(tables being played / servers connected)``."""
        cursor = await self._locks.execute(SERVERS)
        alive = {row[0].rsplit(" ", 1)[-1] for row in await cursor.fetchall()} | {self.id}
        self.hub.servers_alive(alive)
        tables = await self.hub.store.call(self.hub.store.store.live_tables)
        self.fair = max(1, math.ceil(tables / len(alive)))
        return self.fair

    async def scan(self) -> int:
        """Take the lock of each orphaned table and own it; how many were taken. A server
        at its fair share takes a table only if it was orphaned at its last look too."""
        later = time.time() + AWAKE  # (a dormant table is read when it is asked for)
        cursor = await self._locks.execute(ORPHANS, (later, later, LOCK_CLASS))
        taken = 0
        now = time.monotonic()
        self._given = {i: until for i, until in self._given.items() if until > now}
        orphaned = await cursor.fetchall()
        before, self._orphaned = self._orphaned, {row[0] for row in orphaned}
        for table_id, code in orphaned:
            if table_id in self._given:
                continue
            if self.fair is not None and self.hub.playing() >= self.fair and table_id not in before:
                continue  # a server with fewer takes it first
            taken += await self.take(table_id, code)
        return taken

    async def take(self, table_id: int, code: str) -> bool:
        """Take the table's lock if nobody holds it, and play it here; whether taken."""
        async with self._taking:
            known = self.hub.tables.get(code)
            if known is not None and known.owned:
                # played here already: a second take of a lock this session holds would
                # succeed (they nest) and make a second table
                return False
            if not await self.try_lock(table_id):
                return False
            started = time.monotonic()
            try:
                owned = await self.hub.adopt(code)
            except Exception:
                log.exception("cluster: table %s could not be taken over", code)
                owned = False
            if not owned:
                await self.unlock(table_id)
                return False
        # counted here, whichever way it came: the look for orphans or a table asked for
        self.adopted += 1
        self.hub.count("adopted")
        await self.notify(f"own:{code}:{self.id}")
        log.info(
            "cluster: table %s is played here now (rebuilt in %.0f ms)",
            code,
            (time.monotonic() - started) * 1000,
        )
        return True

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.heartbeat)
            try:
                await self._locks.execute("SELECT 1")
            except Exception as error:
                log.error(
                    "cluster: the lock connection is lost (%s): this server's tables are given up",
                    error,
                )
                self.hub.count("database_errors")
                self.hub.lost_all()
                self.roles.clear()
                with contextlib.suppress(Exception):
                    await self._locks.close()
                try:
                    self._locks = await self._connect()
                except Exception as again:
                    log.error("cluster: cannot reconnect: %s", again)
                    continue
            try:
                fair = await self.share()  # first: a dead server's share is taken at once
                await self.scan()
                self.hub.rebalance(fair)
                waiting = await self.hub.store.call(self.hub.store.store.inbox_tables)
                if waiting:
                    self.hub.drain_waiting(waiting)
                await self.hub.forwards_overdue()
            except Exception as error:
                self.hub.count("database_errors")
                log.error("cluster: the look for orphaned tables failed: %s", error)

    # ------------------------------------------------------------------ news
    async def notify(self, payload: str) -> None:
        try:
            await self._locks.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))
        except Exception as error:
            log.warning("cluster: could not notify %s: %s", payload.split(":", 1)[0], error)

    async def _listen(self) -> None:
        while True:
            try:
                async for note in self._listener.notifies():
                    try:
                        listener = self.listeners.get(note.payload.partition(":")[0])
                        if listener is not None:
                            listener(note.payload)
                            continue
                        self.hub.notified(note.payload)
                    except Exception:
                        log.exception("cluster: notification %.40s failed", note.payload)
            except asyncio.CancelledError:
                raise
            except Exception as error:
                if self._stopping:
                    return
                self.hub.count("database_errors")
                log.error("cluster: the listening connection is lost (%s); reconnecting", error)
            while not self._stopping:
                await asyncio.sleep(self.heartbeat)
                try:
                    with contextlib.suppress(Exception):
                        await self._listener.close()
                    self._listener = await self._connect()
                    await self._listener.execute(f"LISTEN {CHANNEL}")
                    break
                except Exception as again:
                    log.error("cluster: cannot listen again: %s", again)
            self.hub.missed_news()
            for listener in self.listeners.values():
                listener("")
