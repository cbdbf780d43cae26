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

**One server process.** The queue lives in the memory of the process that answers: with
several server processes (PostgreSQL, ``--cluster``) a person is matched only with people
whose requests reach the same process (a load balancer that keeps a client on one process,
or one process for the play-now routes). The tables it makes are shared like any other.

Every input is bounded: the preset and level from their lists, the wait (0 to
:data:`MAX_WAIT` s), the poll (0 to :data:`MAX_POLL` s), the queue (:data:`MAX_QUEUE`
people, :data:`PER_CLIENT` per address); a ticket nobody asks about for
:data:`FORGET_AFTER` s is dropped."""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from fivehundred.rules import PRESETS, make_rules

log = logging.getLogger("fivehundred.web.matchmaking")

#: The longest a person may choose to wait for people (seconds).
MAX_WAIT = 300.0
#: The longest one long poll is held (seconds).
MAX_POLL = 30.0
#: People waiting at once in one process, and from one address.
MAX_QUEUE = 1000
PER_CLIENT = 8
#: Rating points (μ − 3σ) within which people are near, and how much wider each second.
NEAR = 5.0
WIDEN = 0.5
#: A ticket not asked about for this long is dropped (seconds); a seated one is kept this
#: long for its person to read their seat.
FORGET_AFTER = 60.0


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
    ticket: str
    preset: str
    level: str
    wait: float
    name: str
    account: Any
    rating: float
    client: str
    since: float
    last_seen: float
    #: the browser's device id (web/accounts.py, ``device_of``), if it has one
    device: str | None = None
    #: set once seated: {"table", "url", "seat", "token"}
    seat: dict[str, Any] | None = None
    seated: asyncio.Event = field(default_factory=asyncio.Event)


class PlayNowError(Exception):
    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail


class Matchmaker:
    """The play-now queue of one server process. ``seat_table(preset, level, entries)``
    makes a table and seats the entries (people, in order) at its first seats, filling the
    rest with ``level``; it returns each entry's seat answer. ``options``: the tables'
    options (the tests play without the computer players' pause). ``clock``: monotonic
    seconds (the tests move it)."""

    def __init__(
        self,
        seat_table: Callable[..., Any],
        offered: list[str],
        options: dict[str, Any] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.seat_table = seat_table
        self.offered = offered
        self.options = dict(options or {})
        self.clock = clock
        self.entries: dict[str, Entry] = {}
        self.lock = asyncio.Lock()

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
        self._forget()
        waiting = [e for e in self.entries.values() if e.seat is None]
        if len(waiting) >= MAX_QUEUE:
            raise PlayNowError(503, "too many people are waiting; try later")
        if sum(1 for e in waiting if e.client == client) >= PER_CLIENT:
            raise PlayNowError(429, f"your address has {PER_CLIENT} people waiting already")
        if account is not None:
            for entry in waiting:  # one place in the queue per account
                if entry.account is not None and entry.account.id == account.id:
                    self.entries.pop(entry.ticket, None)
        now = self.clock()
        entry = Entry(
            ticket=secrets.token_urlsafe(18),
            preset=body.preset,
            level=body.level,
            wait=body.wait,
            name=name,
            account=account,
            rating=rating,
            client=client,
            since=now,
            last_seen=now,
            device=device,
        )
        self.entries[entry.ticket] = entry
        await self.match()
        return entry

    def find(self, ticket: str) -> Entry:
        entry = self.entries.get(ticket) if len(ticket) <= 64 else None
        if entry is None:
            raise PlayNowError(404, "no such ticket (seated long ago, left, or never asked for)")
        entry.last_seen = self.clock()
        return entry

    async def poll(self, ticket: str, wait: float) -> Entry:
        """The entry once seated, or after ``wait`` seconds, or when its own wait is over
        (then it is matched with computer players)."""
        entry = self.find(ticket)
        await self.match()
        if entry.seat is None and wait > 0:
            until_due = max(0.0, entry.since + entry.wait - self.clock())
            try:
                await asyncio.wait_for(entry.seated.wait(), min(wait, until_due))
            except TimeoutError:
                await self.match()
            entry.last_seen = self.clock()
        return entry

    def forget_account(self, account_id: int) -> int:
        """A deleted account's places in the queue go (how many)."""
        gone = [
            ticket
            for ticket, entry in self.entries.items()
            if entry.seat is None and entry.account is not None and entry.account.id == account_id
        ]
        for ticket in gone:
            del self.entries[ticket]
        return len(gone)

    def leave(self, ticket: str) -> bool:
        """Leave the queue; False if already seated (the seat stays taken)."""
        entry = self.find(ticket)
        if entry.seat is not None:
            return False
        self.entries.pop(ticket, None)
        return True

    def status(self, entry: Entry) -> dict[str, Any]:
        if entry.seat is not None:
            return {"status": "seated", "ticket": entry.ticket, **entry.seat}
        now = self.clock()
        return {
            "status": "waiting",
            "ticket": entry.ticket,
            "preset": entry.preset,
            "waiting": sum(
                1 for e in self.entries.values() if e.seat is None and e.preset == entry.preset
            ),
            "computers_in": round(max(0.0, entry.since + entry.wait - now), 1),
        }

    def _forget(self) -> None:
        now = self.clock()
        for ticket, entry in list(self.entries.items()):
            if now - entry.last_seen > FORGET_AFTER:
                del self.entries[ticket]

    def near(self, first: Entry, other: Entry, now: float) -> bool:
        window = NEAR + WIDEN * (now - first.since)
        return other.preset == first.preset and abs(other.rating - first.rating) <= window

    async def match(self) -> None:
        """Seat whoever can be seated now (oldest first)."""
        async with self.lock:
            self._forget()
            now = self.clock()
            while True:
                group = self._next_group(now)
                if group is None:
                    return
                first = group[0]
                try:
                    answers = await self.seat_table(first.preset, first.level, group)
                except Exception:
                    log.exception("play now: the table could not be made")
                    for entry in group:  # they wait on (asked again, it is tried again)
                        entry.since = now
                    return
                for entry, answer in zip(group, answers, strict=True):
                    entry.seat = answer
                    entry.last_seen = now
                    entry.seated.set()

    def _next_group(self, now: float) -> list[Entry] | None:
        waiting = sorted(
            (e for e in self.entries.values() if e.seat is None), key=lambda e: e.since
        )
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
        if not matchmaker.leave(ticket):
            raise PlayNowError(409, "already seated: the table is waiting for you")
        return {"status": "left"}

    return router
