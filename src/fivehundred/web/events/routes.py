"""The events' routes: the pages (``/events``, ``/e/{id}``, drawn on the server) and the
API under ``/api/events`` (docs/web-protocol.md#events). Every input has a bound."""

from __future__ import annotations

import json
import secrets
import time
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from fivehundred.web.events import pages, view
from fivehundred.web.events import words as w
from fivehundred.web.events.results_csv import event_standings
from fivehundred.web.events.service import Events

EventId = Annotated[int, Path(ge=1, le=2**31 - 1)]
#: how far ahead an event may be set to start by itself
AHEAD = 90 * 86_400.0


class EventIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=60)
    kind: str = Field(default="swiss", pattern="^(swiss|round_robin|knockout)$")
    #: a Swiss's rounds (the others' follow from the field)
    rounds: int = Field(default=5, ge=1, le=20)
    preset: str = Field(default="australian", max_length=40)
    #: the games' other rules (``{"win_1904": true}`` with a low target: one-hand games)
    variants: dict[
        Annotated[str, Field(max_length=40)], bool | int | Annotated[str, Field(max_length=40)]
    ] = Field(default_factory=dict, max_length=20)
    #: the points that win a game (a low target makes short games)
    target: int = Field(default=500, ge=10, le=1000)
    #: seconds before the computer plays the seat of a person who is not there
    grace: float = Field(default=120.0, ge=1, le=600, allow_inf_nan=False)
    #: the time control: seconds a move before the computer makes it (the move counts as
    #: the player's); none: no clock
    turn_timer: float | None = Field(default=None, ge=5, le=3600, allow_inf_nan=False)
    #: a turn-based event: the clock of each move at its tables, seconds (from the server's
    #: ``min_move_clock`` to 7 days); none: live
    move_clock: float | None = Field(default=None, gt=0, le=7 * 86400, allow_inf_nan=False)
    #: a turn-based event: the seconds each round has (at least a move's clock, at most 30
    #: days); its games not over by then are finished by the stand-ins
    round_time: float | None = Field(default=None, gt=0, le=30 * 86400, allow_inf_nan=False)
    max_pairs: int = Field(default=64, ge=2, le=256)
    #: when the first round starts by itself (seconds since the epoch); none: when started
    starts_at: float | None = Field(default=None, allow_inf_nan=False)
    #: the club (its short name) whose event this is: its admins make it
    club: str | None = Field(default=None, max_length=48)
    #: every table of a round dealt the same cards, hand by hand (each table's record
    #: shown when the round is over)
    duplicate: bool = False


class PairIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    partner: str = Field(min_length=1, max_length=60)


def _turn_based(body: EventIn, least: float) -> None:
    """A turn-based event's clock and round time, within the server's bounds (422)."""
    if body.move_clock is None and body.round_time is None:
        return
    if body.move_clock is None or body.round_time is None:
        raise HTTPException(422, w.TURN_BASED_BOTH)
    if body.turn_timer is not None:
        raise HTTPException(422, w.TURN_BASED_NO_TIMER)
    if body.move_clock < least:
        raise HTTPException(422, w.MOVE_CLOCK_LEAST.format(seconds=f"{least:g}"))
    if body.round_time < body.move_clock:
        raise HTTPException(422, w.ROUND_TIME_LEAST)


def _checked(body: EventIn) -> dict[str, Any]:
    from fivehundred.errors import FiveHundredError
    from fivehundred.rules import make_rules
    from fivehundred.scoring import side_of_seats

    name = " ".join(body.name.split())
    if not 3 <= len(name) <= 60 or not name.isprintable():
        raise HTTPException(422, w.BAD_NAME)
    try:
        rules = make_rules(body.preset, {**body.variants, "target": body.target})
    except FiveHundredError as error:
        raise HTTPException(422, f"preset: {error.reason[:200]}") from None
    if side_of_seats(rules) != (0, 1, 0, 1):
        raise HTTPException(422, "preset: a tournament of pairs plays four-handed games")
    now = time.time()
    if body.starts_at is not None and not now - 60 <= body.starts_at <= now + AHEAD:
        raise HTTPException(422, w.BAD_START)
    facts = body.model_dump(exclude={"club", "duplicate"})
    # the secret the rounds' cards are made from: never sent
    facts["duplicate_seed"] = secrets.randbits(62) if body.duplicate else None
    facts["name"] = name
    facts["variants"] = json.dumps({k: v for k, v in body.variants.items() if k != "target"})
    return facts


def make_router(service: Events) -> APIRouter:
    router = APIRouter()
    store = service.store

    @router.get("/events", include_in_schema=False)
    async def index_page(request: Request) -> HTMLResponse:
        listing = await service.call(view.index, store)
        logged_in = await service.account(request) is not None
        return HTMLResponse(pages.index_page(listing, logged_in))

    @router.get("/e/{event_id}", include_in_schema=False)
    async def event_page(event_id: EventId, request: Request) -> HTMLResponse:
        account = await service.account(request)
        shown = await service.call(view.event_view, store, event_id, account and account.id)
        return HTMLResponse(pages.event_page(shown, account is not None))

    @router.get("/api/events")
    async def index() -> dict[str, Any]:
        listing: dict[str, Any] = await service.call(view.index, store)
        return listing

    @router.get("/api/events/{event_id}")
    async def event(event_id: EventId, request: Request) -> dict[str, Any]:
        account = await service.account(request)
        shown: dict[str, Any] = await service.call(
            view.event_view, store, event_id, account and account.id
        )
        return shown

    @router.get("/api/events/{event_id}/standings.csv")
    async def standings_csv(event_id: EventId) -> Response:
        """The final standings, once the event is over (409 before)."""
        shown = await service.call(view.event_view, store, event_id, None)
        if shown["state"] != "finished":
            raise HTTPException(409, w.NOT_FINISHED)
        return event_standings(shown)

    @router.post("/api/events", status_code=201)
    async def create(body: EventIn, request: Request) -> dict[str, Any]:
        account = await service.writer(request)
        _turn_based(body, service.min_move_clock())
        facts = _checked(body)
        made = await service.call(store.create, account.id, body.club, facts)
        return {"id": made, "url": f"/e/{made}"}

    @router.post("/api/events/{event_id}/pairs", status_code=201)
    async def register(event_id: EventId, body: PairIn, request: Request) -> dict[str, Any]:
        account = await service.writer(request)
        pair = await service.call(store.register, event_id, account.id, body.partner)
        return {"pair": pair}

    @router.post("/api/events/{event_id}/check-in")
    async def check_in(event_id: EventId, request: Request) -> dict[str, Any]:
        account = await service.writer(request)
        await service.call(store.check_in, event_id, account.id)
        return {"checked_in": True}

    @router.post("/api/events/{event_id}/withdraw")
    async def withdraw(event_id: EventId, request: Request) -> dict[str, Any]:
        account = await service.writer(request)
        await service.call(store.withdraw, event_id, account.id)
        return {"withdrawn": True}

    @router.post("/api/events/{event_id}/start")
    async def start(event_id: EventId, request: Request) -> dict[str, Any]:
        """The organiser starts the first round now (the pairs not checked in are left
        out); on two servers at once it starts once."""
        account = await service.writer(request)
        await service.call(store.may_start, event_id, account.id)
        shown = await service.call(view.event_view, store, event_id, account.id)
        ready = sum(p["checked_in"] for p in shown["pairs"])
        if shown["state"] == "registering" and ready < 2:
            raise HTTPException(409, w.TOO_FEW)
        started = await service.start_round(event_id, 1)
        return {"started": started}

    return router
