"""Club nights online (docs/web-protocol.md#club-nights): a club's owner or an admin
schedules a duplicate night of fixed pairs; members enter as pairs; at the start (by the
admin, or by itself at its time) the pairs are seated by a movement
(:mod:`.movement`: a Mitchell from three tables, else a Howell; a computer pair makes an
odd field even); each board at each table is a table of the hub, one hand dealt from the
board's seed (so every table gets the board's cards: the hub's own deal, no second
engine), the pairs' accounts seated, a seat whose person is away played by the computer
after the night's grace. Each finished table gets a ``night`` row in the outbox
(web/outbox.py): its first hand is the board's result, written once. At the end: the
standings (matchpoint percentages, in the same direction) and a traveller per board.

- ``POST /api/nights`` ``{"club", "name", "per_round", "rounds", "level", ...}``: a new
  night; ``level``: the computer level (one the lobby offers) of the computer pair's seats
  and of the stand-ins for a late or dropped player; ``scoring``: ``matchpoints``,
  ``points`` (total points) or ``games`` (games won), :mod:`.nights_scoring`.
- ``POST /api/nights/{id}/pairs`` ``{"partner"}``: the account and a club member enter.
- ``POST /api/nights/{id}/players``: the account enters alone (an individual or a
  progressive night: :mod:`.nights_players`).
- ``POST /api/nights/{id}/start``: the admin starts it (once, however often asked).
- ``GET /api/nights/{id}``, ``GET /n/{id}``: the night; ``GET /api/clubs/{slug}/nights``.
- ``GET /api/nights/{id}/results.csv``, ``GET /api/nights/{id}/export``: at the end, the
  standings as CSV, and the board set with every result's record (:mod:`.nights_export`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from typing import Annotated, Any, Literal

from fastapi import APIRouter, FastAPI, HTTPException, Path, Query, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from fivehundred.bots import player_choices
from fivehundred.web.events import hall
from fivehundred.web.events import nights_pages as pages
from fivehundred.web.events import nights_words as w
from fivehundred.web.events.follow import FollowsGames
from fivehundred.web.events.nights_export import night_export
from fivehundred.web.events.nights_scoring import DEFAULT_SCORING, SCORINGS
from fivehundred.web.events.nights_store import VARIANTS, NightStore, night_seal
from fivehundred.web.events.nights_view import club_nights, night_view
from fivehundred.web.events.results_csv import night_results
from fivehundred.web.outbox import OutboxStore
from fivehundred.words import DEFAULT_LEVEL

log = logging.getLogger("fivehundred.web.nights")

KIND = "night"
POLL = 1.0
BATCH = 50
NightId = Annotated[int, Path(ge=1, le=2**31 - 1)]
#: how far ahead a night may be set to start by itself
AHEAD = 90 * 86_400.0
#: how often a server looks for nights whose pars nobody works out (its starter died),
#: and how far back (seconds)
PARS_LOOK = 15.0
PARS_SINCE = 7 * 86_400.0


class NightIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    club: str = Field(min_length=1, max_length=48)
    name: str = Field(min_length=1, max_length=60)
    preset: str = Field(default="australian", max_length=40)
    per_round: int = Field(default=2, ge=1, le=6)
    rounds: int = Field(default=6, ge=1, le=30)
    grace: float = Field(default=60.0, ge=1, le=600, allow_inf_nan=False)
    starts_at: float | None = Field(default=None, allow_inf_nan=False)
    #: the computer level of the night's empty seats and stand-ins
    level: str = Field(default=DEFAULT_LEVEL, max_length=20)
    #: how the standings are scored (:mod:`.nights_scoring`)
    scoring: str = Field(default=DEFAULT_SCORING, max_length=12)
    #: fixed pairs (a Mitchell or a Howell, chosen at the start), or single players
    #: (web/events/nights_players.py)
    movement: Literal["pairs", "individual", "progressive"] = "pairs"
    #: only the entries that check in are seated (web/events/nights_checkin.py)
    check_in: bool = False


class PairIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    partner: str = Field(min_length=1, max_length=60)


def _checked(body: NightIn) -> dict[str, Any]:
    from fivehundred.errors import FiveHundredError
    from fivehundred.rules import make_rules
    from fivehundred.scoring import side_of_seats

    name = " ".join(body.name.split())
    if not 3 <= len(name) <= 60 or not name.isprintable():
        raise HTTPException(422, w.BAD_NAME)
    try:
        rules = make_rules(body.preset, VARIANTS)
    except FiveHundredError:
        raise HTTPException(422, w.BAD_PRESET) from None
    if rules.players != 4 or side_of_seats(rules) != (0, 1, 0, 1):
        raise HTTPException(422, w.BAD_PRESET)
    now = time.time()
    if body.starts_at is not None and not now - 60 <= body.starts_at <= now + AHEAD:
        raise HTTPException(422, w.BAD_START)
    if body.level not in player_choices():  # what a table made in the lobby accepts
        raise HTTPException(422, w.BAD_LEVEL.format(levels=", ".join(player_choices())))
    if body.scoring not in SCORINGS:
        raise HTTPException(422, w.BAD_SCORING.format(scorings=", ".join(SCORINGS)))
    if body.movement != "pairs" and body.scoring != "matchpoints":
        raise HTTPException(422, w.SCORING_OF_PLAYERS)
    movement = None if body.movement == "pairs" else body.movement  # pairs: at the start
    return {**body.model_dump(exclude={"club"}), "name": name, "movement": movement}


class Nights(FollowsGames):
    kind = KIND

    def __init__(self, app: FastAPI) -> None:
        self.async_store = app.state.store
        self.accounts = app.state.accounts
        engine = self.async_store.store.engine
        self.store = NightStore(engine)
        self.outbox = OutboxStore(engine)
        self.limits = app.state.limits
        self.hub: Any = None
        self.poll = POLL
        #: options of every night's table over the defaults (the tests: ``{"delay": 0}``)
        self.table_options: dict[str, Any] = {}
        #: work out the boards' pars in the background from the start (the tests: off)
        self.pars = True
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        #: the nights whose pars this server has set out to work out, and its next look
        self._pars_begun: set[int] = set()
        self._pars_look = 0.0

    async def call(self, function: Any, *args: Any) -> Any:
        return await self.async_store.call(function, *args)

    async def writer(self, request: Request) -> Any:
        """The logged-in account making a change (401 without one); the writes are
        bounded by the events' limit per address."""
        account = await request.app.state.events.writer(request)
        return account

    def attach(self, hub: Any) -> None:
        self.follow(hub)

    async def once(self) -> None:
        """Take the results waiting, start the nights due, make the tables ready."""
        for _ in range(BATCH):
            taken = await self.call(self.outbox.take, KIND, self.store.record)
            if taken is None:
                break
            log.info("table %s: %s", *taken)
        for night_id in await self.call(self.store.due, time.time()):
            with contextlib.suppress(HTTPException):  # too few pairs: it waits for its admin
                if await self.call(self.store.start, night_id):
                    self.started(night_id)
        await self.open_tables()
        if self.pars and time.monotonic() >= self._pars_look:
            self._pars_look = time.monotonic() + PARS_LOOK
            now = time.time()
            for night_id in await self.call(self.store.without_pars, now - PARS_SINCE, now):
                if night_id not in self._pars_begun:
                    log.info("night %d: its pars, begun by another server", night_id)
                    self.started(night_id)

    def started(self, night_id: int) -> None:
        """The night started here (or its starter died before its pars were worked out):
        its pars are worked out in a daemon thread, once a night in this server."""
        if self.pars and night_id not in self._pars_begun:
            self._pars_begun.add(night_id)
            threading.Thread(
                target=self._work_out_pars, args=(night_id,), name="night-pars", daemon=True
            ).start()

    def _work_out_pars(self, night_id: int) -> None:
        try:
            log.info("night %d: %d pars", night_id, self.store.work_out_pars(night_id))
        except Exception:  # a bug, or the database gone: the pars stay unknown
            log.exception("night %d: the pars", night_id)

    async def open_tables(self) -> int:
        if self.hub is None:
            return 0
        made = 0
        for facts in await self.call(self.store.claim_games, time.time()):
            try:
                await self._open(facts)
                made += 1
            except Exception:
                log.exception("night %d: a table could not be made", facts["night"])
        return made

    async def _open(self, facts: dict[str, Any]) -> None:
        from fivehundred.rules import make_rules
        from fivehundred.web.accounts import Account
        from fivehundred.web.live import OPEN
        from fivehundred.web.server import OptionsIn

        rules = make_rules(facts["preset"], VARIANTS)
        level = facts["level"]  # the club's: stands in for the late and the dropped
        options = {**OptionsIn().model_dump(), "grace": facts["grace"], "private": True}
        options["delay"] = self.limits.event_delay  # the operator's pace of the computers
        options.update(self.table_options, stand_in=level)
        options["sealed"] = night_seal(facts["night"])  # its board is others' to play still
        # a computer's seat (a computer pair's, a computer player's) is the club's level's
        # from the start: an open seat would wait for the server's open-seat grace
        players = [OPEN if name else level for _, name in facts["seats"]]
        table = await self.hub.create(rules, players, facts["name"], options, facts["seed"])
        for seat, (account_id, name) in enumerate(facts["seats"]):
            if not name:  # the computer pair's seat: the level's from the start
                continue
            await table.take_seat(seat, name)
            await self.accounts.seat_taken(table.code, seat, Account(account_id, name, False))
        if not await self.call(self.store.set_code, facts["game"], facts["until"], table.code):
            await self.hub.close_table(table, "duplicate")  # another server made it first


def make_router(service: Nights) -> APIRouter:
    router = APIRouter()
    store = service.store

    async def shown(night_id: int, request: Request) -> dict[str, Any]:
        account = await service.accounts.current(request)
        out: dict[str, Any] = await service.call(
            night_view, store, night_id, account and account.id
        )
        out["logged_in"] = account is not None
        return out

    @router.get("/n/{night_id}", include_in_schema=False)
    async def night_page(night_id: NightId, request: Request) -> HTMLResponse:
        return HTMLResponse(pages.night_page(await shown(night_id, request)))

    @router.get("/clubs/{slug}/nights", include_in_schema=False)
    async def nights_page(
        slug: Annotated[str, Path(max_length=48)], request: Request
    ) -> HTMLResponse:
        listing = await service.call(club_nights, store, slug)
        logged_in = await service.accounts.current(request) is not None
        tables = await request.app.state.hall.club_section(slug, request)
        return HTMLResponse(pages.club_nights_page(slug, listing, logged_in, tables))

    @router.get("/api/nights/{night_id}")
    async def night(night_id: NightId, request: Request) -> dict[str, Any]:
        return await shown(night_id, request)

    result_routes(router, service)

    @router.get("/api/clubs/{slug}/nights")
    async def of_club(slug: Annotated[str, Path(max_length=48)]) -> dict[str, Any]:
        return {"nights": await service.call(club_nights, store, slug)}

    @router.post("/api/nights", status_code=201)
    async def create(body: NightIn, request: Request) -> dict[str, Any]:
        account = await service.writer(request)
        made = await service.call(store.create, account.id, body.club, _checked(body))
        return {"id": made, "url": f"/n/{made}"}

    @router.post("/api/nights/{night_id}/pairs", status_code=201)
    async def register(night_id: NightId, body: PairIn, request: Request) -> dict[str, Any]:
        account = await service.writer(request)
        number = await service.call(store.register, night_id, account.id, body.partner)
        return {"pair": number + 1}

    player_routes(router, service)
    check_in_route(router, service)

    @router.post("/api/nights/{night_id}/start")
    async def start(night_id: NightId, request: Request) -> dict[str, Any]:
        account = await service.writer(request)
        await service.call(store.may_start, night_id, account.id)
        started = await service.call(store.start, night_id)
        if started:
            service.started(night_id)
        service.wake()
        return {"started": started}

    return router


def result_routes(router: APIRouter, service: Nights) -> None:
    """A finished night's standings as CSV and its board set."""

    @router.get("/api/nights/{night_id}/results.csv")
    async def results_csv(night_id: NightId) -> Response:
        """The standings, once the night is over (409 before)."""
        night = await service.call(night_view, service.store, night_id, None)
        if night["state"] != "finished":
            raise HTTPException(409, w.NOT_FINISHED)
        return night_results(night)

    @router.get("/api/nights/{night_id}/export", response_model=None)
    async def export(
        night_id: NightId,
        kind: str = Query(default="json", alias="format", pattern="^(json|text)$"),
        page: int = Query(default=1, ge=1, le=1000),
    ) -> dict[str, Any] | PlainTextResponse:
        """The finished night's board set (409 before): ``fivehundred-boards/1`` JSON or
        its text (``?format=text``), a page of boards at a time (the JSON's ``next``, the
        text's ``Link`` header), as the daily's export."""
        made, more = await service.call(night_export, service.store, night_id, page, kind == "text")
        following = f"/api/nights/{night_id}/export?format={kind}&page={page + 1}"
        if kind == "text":
            headers = {"Link": f'<{following}>; rel="next"'} if more else {}
            return PlainTextResponse(made, headers=headers)
        return {**made, "page": page, "next": following if more else None}


def player_routes(router: APIRouter, service: Nights) -> None:
    """A night of single players' entry (web/events/nights_players.py)."""
    from fivehundred.web.events import nights_players

    @router.post("/api/nights/{night_id}/players", status_code=201)
    async def enter(night_id: NightId, request: Request) -> dict[str, Any]:
        account = await service.writer(request)
        number = await service.call(nights_players.enter, service.store, night_id, account.id)
        return {"player": number + 1}


def check_in_route(router: APIRouter, service: Nights) -> None:
    """An entry checks in (web/events/nights_checkin.py)."""
    from fivehundred.web.events import nights_checkin

    @router.post("/api/nights/{night_id}/check-in")
    async def check_in(night_id: NightId, request: Request) -> dict[str, Any]:
        account = await service.writer(request)
        await service.call(nights_checkin.check_in, service.store, night_id, account.id)
        return {"checked_in": True}


def install(app: FastAPI) -> Nights:
    """The nights' service (``app.state.nights``) and routes; its loop runs while the
    server does (after the events', whose limit on writes it shares). The nights at real
    tables (:mod:`.hall`) come with them."""
    service = Nights(app)
    app.state.nights = service
    app.include_router(make_router(service))
    hall.install(app)
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(app_: Any) -> Any:
        async with inner(app_) as state:
            service.attach(app_.state.hub)
            try:
                yield state
            finally:
                await service.stop()

    app.router.lifespan_context = lifespan
    return service
