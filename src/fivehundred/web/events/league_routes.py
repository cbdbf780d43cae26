"""The leagues' routes: the pages (``/leagues``, ``/l/{id}``, drawn on the server) and the
API under ``/api/leagues`` (docs/web-protocol.md#leagues). Every input has a bound."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from fivehundred.web.events import pages
from fivehundred.web.events import words as w
from fivehundred.web.events.routes import AHEAD, PairIn
from fivehundred.web.events.service import Events

SeasonId = Annotated[int, Path(ge=1, le=2**31 - 1)]


class SeasonIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(default="", max_length=60)
    weeks: int = Field(default=4, ge=1, le=26)
    division_size: int = Field(default=8, ge=2, le=32)
    per_week: int = Field(default=3, ge=1, le=20)
    moves: int = Field(default=2, ge=0, le=5)
    #: when the season starts (seconds since the epoch); none: now
    starts_at: float | None = Field(default=None, allow_inf_nan=False)
    #: the finished season this one follows (its pairs, promoted and relegated); its
    #: settings are taken where this body gives none
    follows: int | None = Field(default=None, ge=1, le=2**31 - 1)


def make_league_router(service: Events) -> APIRouter:
    router = APIRouter()
    store = service.leagues

    @router.get("/leagues", include_in_schema=False)
    async def leagues_page(request: Request) -> HTMLResponse:
        listing = await service.call(store.index)
        logged_in = await service.account(request) is not None
        return HTMLResponse(pages.leagues_page(listing, logged_in))

    @router.get("/l/{season_id}", include_in_schema=False)
    async def league_page(season_id: SeasonId, request: Request) -> HTMLResponse:
        account = await service.account(request)
        shown = await service.call(store.view, season_id, account and account.id)
        return HTMLResponse(pages.league_page(shown, account is not None))

    @router.get("/api/leagues")
    async def index() -> dict[str, Any]:
        listing: dict[str, Any] = await service.call(store.index)
        return listing

    @router.get("/api/leagues/{season_id}")
    async def season(season_id: SeasonId, request: Request) -> dict[str, Any]:
        account = await service.account(request)
        shown: dict[str, Any] = await service.call(store.view, season_id, account and account.id)
        return shown

    @router.post("/api/leagues", status_code=201)
    async def create(body: SeasonIn, request: Request) -> dict[str, Any]:
        account = await service.writer(request)
        facts = body.model_dump(exclude={"follows"})
        if body.follows is not None:
            before = await service.call(store.view, body.follows, account.id)
            for key in ("name", "weeks", "division_size", "per_week", "moves"):
                if key not in body.model_fields_set:
                    facts[key] = before[key]
        name = " ".join(str(facts["name"]).split())
        if not 3 <= len(name) <= 60 or not name.isprintable():
            raise HTTPException(422, w.BAD_NAME)
        now = time.time()
        starts = now if body.starts_at is None else body.starts_at
        if not now - 60 <= starts <= now + AHEAD:
            raise HTTPException(422, w.BAD_START)
        facts.update(name=name, starts_at=starts)
        made = await service.call(store.create, account.id, facts, body.follows)
        return {"id": made, "url": f"/l/{made}"}

    @router.post("/api/leagues/{season_id}/pairs", status_code=201)
    async def register(season_id: SeasonId, body: PairIn, request: Request) -> dict[str, Any]:
        account = await service.writer(request)
        pair = await service.call(store.register, season_id, account.id, body.partner)
        return {"pair": pair}

    return router
