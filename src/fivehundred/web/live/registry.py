"""The hub's registry: the tables held in memory, found by code, and their shared services."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import OrderedDict, deque
from typing import Any

from fivehundred.rules import rules_from_dict
from fivehundred.scoring import side_of_seats
from fivehundred.web import views
from fivehundred.web.deadlines import AWAKE, Scheduler
from fivehundred.web.guard import Buckets, Limits
from fivehundred.web.live import base
from fivehundred.web.live.base import (
    CODE_ALPHABET,
    CODE_LENGTH,
    COMPUTER,
    DEFAULT_OPTIONS,
    HINT_BURST,
    HINTS_PER_MINUTE,
    PERSON,
)
from fivehundred.web.live.table import LiveTable
from fivehundred.web.live.workers import Decider
from fivehundred.web.store import AsyncStore, TableRow

log = logging.getLogger("fivehundred.web")


def row_facts(row: TableRow) -> dict[str, Any]:
    """The public facts of an unfinished table not in memory, from its row alone (what the
    game's state decides, as whose turn it is, is not known: None)."""
    rules = rules_from_dict(row.rules)
    kinds = [s.kind for s in row.seats]
    names = [(s.name if s.kind == PERSON else s.player) or s.kind for s in row.seats]
    return {
        "table": row.code,
        "name": row.name,
        "url": f"/t/{row.code}",
        "rules": rules.to_dict(),
        "players": rules.players,
        "calls": list(views.allowed_calls(rules)),
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name if s.kind == PERSON else s.player,
                "connected": s.kind == COMPUTER,
                "stand_in": False,
            }
            for s in row.seats
        ],
        "offers": views.seat_offers(
            rules, list(zip(kinds, views.display_names(names), strict=True))
        ),
        "options": {**DEFAULT_OPTIONS, **row.options},
        "phase": None,
        "to_move": None,
        # (none written before the first hand's end: each side's nought)
        "scores": list(row.scores) or [0] * (max(side_of_seats(rules)) + 1),
        "hands_played": row.hands_played,
        "finished": False,
        "winner": None,
        "version": None,
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(row.created)),
        "closed": False,
    }


class Registry:
    """The tables a server holds (:attr:`tables`, and a few finished ones), found by code
    (:meth:`get`), and what they share: the decider, the store, the limits, the counts."""

    def __init__(
        self,
        store: AsyncStore,
        decider: Decider,
        allow_seeds: bool = False,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.decider = decider
        self.allow_seeds = allow_seeds
        self.limits = limits or Limits()
        #: fires the deadlines while this server holds the scheduler's role
        self.scheduler = Scheduler(self)
        #: told the reason of each refusal, and who made each action (the metrics)
        self.on_refusal: Any = None
        self.on_action: Any = None
        self._sweeper: asyncio.Task[None] | None = None
        #: the unfinished tables, and finished ones while somebody is connected
        self.tables: dict[str, LiveTable] = {}
        #: finished tables read lately (their records and facts are asked for again)
        self.finished: OrderedDict[str, LiveTable] = OrderedDict()
        self.loading = asyncio.Lock()
        #: seconds a table idle (:meth:`idle`) stays in memory before it goes
        self.idle_kept = base.IDLE_KEPT
        #: event-loop lag samples (seconds): how late a 50 ms sleep wakes up
        self.lag: deque[float] = deque(maxlen=1200)
        self._probe: asyncio.Task[None] | None = None
        self.on_expired: Any = None
        #: told the code of each table whose game ended (the ratings)
        self.on_game_over: Any = None
        #: called with an account's id when it was deleted on another server (its places
        #: in this server's play-now queue go)
        self.on_account_deleted: Any = None
        #: awaited with (old code, new code, seat, address, device) when a person joins a
        #: rematch (the accounts' seats)
        self.on_rematch: Any = None
        #: per client (or table): [the lock of its search turn, how many want it]
        self._search_turns: dict[str, list[Any]] = {}
        #: hints per address (:meth:`LiveTable._hint`)
        self.hints = Buckets(HINTS_PER_MINUTE, HINT_BURST)
        #: the search hints worked out at once: at most half of the search workers (of two
        #: threads without processes), so that the tables' own search players always have
        #: the other half
        self.hint_searches = asyncio.Semaphore(max(1, (decider.workers or 2) // 2))
        #: the tables made per address (the server's; a rematch is one: :meth:`rematch`)
        self.creating: Buckets | None = None
        #: the servers sharing this PostgreSQL database (None: this server alone)
        self.cluster: Any = None
        self._background: set[asyncio.Task[Any]] = set()
        #: told the name of each event the metrics count (failed_saves, passed_on,
        #: adopted, locks_lost, handed_over, inbox_refused, database_errors)
        self.on_count: Any = None

    def new_table(self, row: TableRow) -> LiveTable:
        """The table of ``row`` in memory (the hub makes it: :meth:`Hub.new_table`)."""
        raise NotImplementedError

    def deadlines_due(self, code: str) -> None:
        """A deadline of ``code`` fired: the table here (its owner acts) reads them again;
        a table not in memory is read (its driver reads them as it starts)."""
        table = self.tables.get(code)
        if table is not None:
            self.spawn(table.read_deadlines())
        else:
            self.spawn(self.get(code))

    def idle(self, table: LiveTable, now: float) -> bool:
        """``table`` needs no memory: a turn-based table nobody is connected to or asked for
        for :attr:`idle_kept` seconds, whose next move waits on a deadline due later than
        :data:`~fivehundred.web.deadlines.AWAKE` seconds from now (an absent person's
        clock); or one another server plays that was looked at here."""
        if not (table.live and table.turn_based) or table.anyone_here() or table.forwarded:
            return False
        if now - max(table.last_seen, table.touched) < self.idle_kept or table.lock.locked():
            return False
        if not table.owned:
            return True
        due = table.automation()
        return due is not None and not due.ready and due.seconds > AWAKE

    async def let_go(self) -> int:
        """Let the idle tables go from memory (:meth:`idle`): their drivers stop (and,
        with several servers, their locks go: a dormant table is nobody's until it is
        asked for or its deadline fires). How many."""
        now = time.monotonic()
        gone = 0
        async with self.loading:  # (not while a table is being read: it is found here)
            for table in list(self.tables.values()):
                if not self.idle(table, now):
                    continue
                if table.task is not None:
                    table.task.cancel()
                    with contextlib.suppress(asyncio.CancelledError, Exception):
                        await table.task
                    table.task = None
                if self.tables.get(table.code) is table:
                    del self.tables[table.code]
                if self.cluster is not None and table.owned:
                    table.owned = False
                    await self.cluster.unlock(table.id)
                gone += 1
        if gone:
            log.info("%d dormant table(s) left memory", gone)
        return gone

    def deadline_written(self, payload: str) -> None:
        """A server wrote a deadline (``deadline:CODE:DUE``, the soonest of those it wrote;
        "": news may have been missed): the scheduler looks then (without DUE: now), and a
        table followed here shows it."""
        _, _, rest = payload.partition(":")
        code, _, due = rest.partition(":")
        try:
            self.scheduler.noted(float(due))
        except ValueError:
            self.scheduler.nudge()
        table = self.tables.get(code)
        if table is not None and not table.owned:
            self.spawn(table.read_deadlines())

    def count(self, event: str, n: int = 1) -> None:
        if self.on_count is not None and n:
            self.on_count(event, n)

    def spawn(self, work: Any) -> asyncio.Task[Any]:
        """Run ``work`` in the background (kept until it ends)."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    def refused(self, reason: str) -> None:
        if self.on_refusal is not None:
            self.on_refusal(reason)

    def acted(self, by: str) -> None:
        if self.on_action is not None:
            self.on_action(by)

    @contextlib.asynccontextmanager
    async def search_turn(self, key: str) -> Any:
        """Hold the search turn of ``key`` (a client's address, or a table's code)."""
        turn = self._search_turns.get(key)
        if turn is None:
            turn = self._search_turns[key] = [asyncio.Lock(), 0]
        turn[1] += 1
        try:
            async with turn[0]:
                yield
        finally:
            turn[1] -= 1
            if turn[1] == 0:
                self._search_turns.pop(key, None)

    async def lobby(self, only_open: bool, limit: int) -> list[dict[str, Any]]:
        """The unfinished tables the lobby lists (not the private ones: only with the link),
        newest first, read from the database: a table in memory as it is now, any other from
        its row (:func:`row_facts`: a dormant table is not read into memory for the list)."""
        rows = await self.store.call(self.store.store.open_tables, only_open, limit)
        listed = []
        for row in rows:
            if row.options.get("private"):
                continue
            table = await self.get(row.code) if row.code in self.tables else None
            if table is not None and (
                not table.live or (only_open and all(s.kind != base.OPEN for s in table.seats))
            ):
                continue
            facts = row_facts(row) if table is None else table.public_facts()
            listed.append({**facts, "seating": views.seating(rules_from_dict(row.rules))})
        return listed

    def live_tables(self) -> list[LiveTable]:
        return [t for t in self.tables.values() if t.live]

    def playing(self) -> int:
        """Unfinished tables this server plays (with several servers, those it owns; it
        also holds others' tables that its clients look at)."""
        return sum(1 for t in self.tables.values() if t.live and t.owned)

    def following(self) -> int:
        """Unfinished tables of other servers held here for this server's clients."""
        return sum(1 for t in self.tables.values() if t.live and not t.owned)

    async def tables_of(self, owner: str) -> int:
        """Unfinished tables ``owner`` (an address) created: through any server, where
        several share the database (each knows only those it holds)."""
        if self.cluster is not None:
            return await self.store.call(self.store.store.tables_created_by, owner)
        return sum(1 for t in self.tables.values() if t.owner == owner and t.live)

    async def take_token(self, buckets: Buckets, what: str, key: str) -> float:
        """Take a token from ``key``'s bucket of ``what``: 0 if there was one, else the
        seconds until there is. Several servers share the buckets in the database (a
        visitor's requests spread over them by the load balancer count together)."""
        if self.cluster is not None:
            return await self.store.call(
                self.store.store.take_token, f"{what}:{key}", buckets.per_minute, buckets.burst
            )
        return buckets.take(key)

    def connection_count(self) -> int:
        return sum(len(t.connections) + len(t.spectators) for t in self.tables.values())

    def stats(self) -> dict[str, Any]:
        """Tables, connections and the event loop's lag over the last minute or so."""
        lag = sorted(self.lag)

        def at(fraction: float) -> float | None:
            return (
                round(lag[min(len(lag) - 1, int(fraction * len(lag)))] * 1000, 2) if lag else None
            )

        live = self.live_tables()
        return {
            "tables": len(live),
            "connections": sum(len(t.connections) + len(t.spectators) for t in live),
            "search_ready": self.decider.search_ready,
            "commits": {"transactions": self.store.commits, "actions": self.store.committed},
            "deadlines": {"looks": self.scheduler.looks, "fired": self.scheduler.fired},
            "loop_lag_ms": {
                "p50": at(0.5),
                "p99": at(0.99),
                "max": round(lag[-1] * 1000, 2) if lag else None,
            },
        }

    def hold(self, table: LiveTable) -> None:
        """Keep ``table`` in :attr:`tables` (somebody connected to it; one let go meanwhile
        is played again)."""
        if table.code not in self.tables:
            self.finished.pop(table.code, None)
            self.tables[table.code] = table
            table.start()

    def release(self, table: LiveTable) -> None:
        """A finished table nobody is connected to leaves :attr:`tables` for the short list
        of finished ones (memory stays bounded; the database has it all)."""
        if table.live or table.connections or table.spectators:
            return
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
        self.remember(table)

    def remember(self, table: LiveTable) -> None:
        self.finished[table.code] = table
        self.finished.move_to_end(table.code)
        while len(self.finished) > base.FINISHED_KEPT:
            self.finished.popitem(last=False)

    async def get(self, code: str) -> LiveTable | None:
        code = code.upper()
        table = self.tables.get(code) or self.finished.get(code)
        if table is not None:
            table.touched = time.monotonic()
            if (table.stale or table.pulling) and not table.owned:
                await table.pull()  # after one running: the table as it is now
            return table
        if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
            return None
        async with self.loading:
            table = self.tables.get(code) or self.finished.get(code)
            if table is not None:
                return table
            row = await self.store.call(self.store.store.load_table, code, True)
            if row is None:
                return None
            table = self.new_table(row)
            if not table.live:
                self.remember(table)
            else:
                self.tables[code] = table
                table.start()
                if self.cluster is not None and not table.owned:
                    # the news of a change written after the row was read, and told before
                    # the table was here, was not for it: read it again, now that the news is
                    await table.refresh()
                    # a dormant table is nobody's: it is played here (the others' are kept)
                    self.spawn(self.cluster.take(table.id, code))
            return table
