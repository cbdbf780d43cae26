"""The events inside one server: their stores (tournaments, leagues), the tables of each
round made through the hub's public interface, and one loop that takes the games' results
and starts what is due (rounds, league seasons' starts and ends).

Each finished game gets an ``event`` row in the outbox (web/outbox.py), written with its
end; the loop here takes those rows (each by one server, in the transaction that deletes
it: :meth:`~fivehundred.web.events.store.EventStore.record`), scores the games whose table
was closed unfinished with both pairs absent, starts each round whose time has come
(exactly once across servers) and makes the tables of the games that have none: the
pairs' accounts seated (a seat whose person does not come is played by the computer after
the event's grace, and a pair whose two seats the computer played is scored absent), each
player told by a ``round`` notice (web/notices.py); a duplicate event's tables of a round
are dealt from one seed and sealed until the round ends (web/events/store.py). It looks at once when a game ends on
this server and every :data:`POLL` s, so a restart or another server's death loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from fastapi import FastAPI, HTTPException, Request

from fivehundred.web.events import words as w
from fivehundred.web.events.follow import FollowsGames
from fivehundred.web.events.league_store import LeagueStore
from fivehundred.web.events.nights import install as install_nights
from fivehundred.web.events.store import EventStore
from fivehundred.web.events.view import closed_games, round_notices
from fivehundred.web.guard import Buckets, client_address
from fivehundred.web.outbox import OutboxStore

log = logging.getLogger("fivehundred.web.events")

#: seconds between two looks for results and rounds due
POLL = 1.0
#: the outbox's kind of work of the events
KIND = "event"
#: writes per address: a minute's worth, and at once
WRITES_PER_MINUTE = 60.0
WRITES_BURST = 60
#: rows taken at one look
BATCH = 50


class Events(FollowsGames):
    kind = KIND

    def __init__(self, app: FastAPI) -> None:
        self.async_store = app.state.store
        self.accounts = app.state.accounts
        self.limits = app.state.limits
        engine = self.async_store.store.engine
        self.store = EventStore(engine)
        self.leagues = LeagueStore(engine)
        self.outbox = OutboxStore(engine)
        self.writes = Buckets(WRITES_PER_MINUTE, WRITES_BURST)
        self.hub: Any = None
        self.notices: Any = None
        self.poll = POLL
        #: options of every event table over the defaults (the tests: ``{"delay": 0}``)
        self.table_options: dict[str, Any] = {}
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        #: rounds this server started (the tests)
        self.started: list[tuple[int, int]] = []
        #: the time the leagues' seasons start and end by (the tests move it on)
        self.clock: Callable[[], float] = time.time

    async def call(self, function: Callable[..., Any], *args: Any) -> Any:
        return await self.async_store.call(function, *args)

    def min_move_clock(self) -> float:
        """The shortest clock per move a turn-based event's tables may have here."""
        return float(self.limits.min_move_clock)

    # -------------------------------------------------------------- the requests
    async def account(self, request: Request) -> Any:
        return await self.accounts.current(request)

    async def writer(self, request: Request) -> Any:
        """The logged-in account making a change (401 without one), within the limit of
        its address's writes (429)."""
        account = await self.account(request)
        if account is None:
            raise HTTPException(401, w.LOG_IN)
        store, address = self.async_store.store, client_address(request)
        if store.is_postgres:
            wait = await self.call(
                store.take_token, f"event:{address}", self.writes.per_minute, self.writes.burst
            )
        else:
            wait = self.writes.take(address)
        if wait > 0:
            seconds = str(int(wait) + 1)
            raise HTTPException(
                429, w.TOO_MANY_CHANGES.format(seconds=seconds), {"Retry-After": seconds}
            )
        return account

    # -------------------------------------------------------------- the loop
    def attach(self, hub: Any, notices: Any) -> None:
        """Work with the server's hub (its tables) and notices: each finished game gets an
        ``event`` row; the loop starts."""
        self.notices = notices
        self.follow(hub)

    async def once(self) -> None:
        """Take the results waiting, score the abandoned games, start the rounds due and
        make the tables that are missing."""
        for _ in range(BATCH):
            taken = await self.call(self.outbox.take, KIND, self._record)
            if taken is None:
                break
            log.info("table %s: %s", *taken)
        for season_id, step in await self.call(self.leagues.due, self.clock()):
            change = self.leagues.start if step == "start" else self.leagues.end
            if await self.call(change, season_id, self.clock()):
                log.info("league season %d: %s", season_id, step)
        closed = await self.call(closed_games, self.store)
        if closed:
            await self.call(self.store.abandoned, closed)
        for event_id, number in await self.call(self.store.due_rounds, time.time()):
            await self.start_round(event_id, number)
        await self.open_tables()

    def _record(self, code: str, db: Any) -> str:
        """A finished game's result, for a tournament and for the leagues."""
        return f"{self.store.record(code, db)}; {self.leagues.record(code, db)}"

    async def start_round(self, event_id: int, number: int) -> bool:
        started = bool(await self.call(self.store.start_round, event_id, number, time.time()))
        if started:
            self.started.append((event_id, number))
            log.info("event %d: round %d started", event_id, number)
            await self.open_tables()
        return started

    # -------------------------------------------------------------- the tables
    async def open_tables(self) -> int:
        """Make the table of each game that has none (leased here); how many."""
        if self.hub is None:
            return 0
        made = 0
        for facts in await self.call(self.store.claim_games, time.time()):
            try:
                await self._open(facts)
                made += 1
            except Exception:
                log.exception("event %d: a table could not be made", facts["event"])
        return made

    async def _open(self, facts: dict[str, Any]) -> None:
        from fivehundred.rules import make_rules
        from fivehundred.web.accounts import Account
        from fivehundred.web.live import OPEN
        from fivehundred.web.server import OptionsIn

        rules = make_rules(facts["preset"], {**facts["variants"], "target": facts["target"]})
        defaults = OptionsIn()
        # (a live table's options name no turn-based clock: its dormancy looks for one)
        live = defaults.model_dump(exclude={"move_clock", "move_timeouts", "game_clock"})
        options = {**live, "grace": facts["grace"], "private": True}
        options["delay"] = self.limits.event_delay  # the operator's pace of the computers
        options["turn_timer"] = facts["turn_timer"]
        if facts["move_clock"]:  # turn-based: a clock per move, the round's deadline
            options.update(move_clock=facts["move_clock"], move_timeouts=defaults.move_timeouts)
            options["finish_by"] = facts["finish_by"]
        options.update(self.table_options)
        if facts["sealed"]:  # a duplicate round: its boards are others' to play still
            options["sealed"] = facts["sealed"]
        table = await self.hub.create(rules, [OPEN] * 4, facts["name"], options, facts["seed"])
        for seat, (account_id, name) in enumerate(facts["seats"]):
            if not name:  # a deleted account: the computer plays its seat
                continue
            await table.take_seat(seat, name)
            await self.accounts.seat_taken(table.code, seat, Account(account_id, name, False))
        if not await self.call(self.store.set_code, facts["game"], facts["until"], table.code):
            await self.hub.close_table(table, "duplicate")  # another server made it first
            return
        if self.notices is not None:
            await self.call(self._notify, facts, table.code)
            self.notices.wake()

    def _notify(self, facts: dict[str, Any], code: str) -> int:
        with self.store.engine.begin() as db:
            return round_notices(db, facts, code, self.notices.store.add)


def install(app: FastAPI, notices: Any = None) -> Events:
    """The events' service (``app.state.events``) and routes on ``app`` (after the store
    and the accounts), telling players through ``notices`` (web/notices.py); its loop runs
    while the server does."""
    from fivehundred.web.events.league_routes import make_league_router
    from fivehundred.web.events.routes import make_router

    service = Events(app)
    app.state.events = service
    app.include_router(make_router(service))
    app.include_router(make_league_router(service))
    install_nights(app)  # club nights (web/events/nights.py): their routes and loop
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(app_: Any) -> Any:
        async with inner(app_) as state:
            service.attach(app_.state.hub, notices)
            try:
                yield state
            finally:
                await service.stop()

    app.router.lifespan_context = lifespan
    return service
