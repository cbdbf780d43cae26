"""Club nights at real tables (docs/web-protocol.md#hall-nights): a club's owner or an
admin opens a *hall night* and gets a join code; each real table's score pad joins it by
the code and its table number (``/pad?night=CODE``) and from then sends its whole state
(every game the table played since joining, hands and all) with a version it counts up,
after every change and again when it is back online; the server keeps each table's state
of the highest version (:mod:`.hall_store`), scores it with the pad's own scoring
(:mod:`.hall_view`) and shows the standings at ``/hall/CODE``, for the hall's TV.

Who sees what: the standings page, its JSON and the CSV are open to anyone who has the
code (the code is on the TV in the hall; it shows the names the tables typed, nothing
else); a table's pad writes only with the token it got by joining; only the club's owner
and admins open and end a night.

- ``POST /api/hall`` ``{"club", "name", "preset"[, "round_hands" | "round_minutes"]}``: a new night → ``{"code", "url", "join"}``.
- ``POST /api/hall/CODE/tables`` ``{"table", "version", "pads"}`` → ``{"table", "token", "version"}``.
- ``PUT /api/hall/CODE/tables/N`` ``{"token", "version", "pads"[, "rounds"]}`` →
  ``{"version", "round"}`` (the version kept, the night's round: :mod:`.hall_rounds`).
- ``GET /api/hall/CODE/round``, ``POST /api/hall/CODE/round`` ``{"round"}`` (an admin ends
  it now): a progressive night's round, its seating and moves.
- ``POST /api/hall/CODE/tables/N/free`` (an admin): the table's pad is lost; the next
  pad to join as table N takes it over (its state in the join's answer, ``"takeover"``).
- ``GET /api/hall/CODE``, ``GET /hall/CODE``: the night and its standings.
- ``GET /api/hall/CODE/results.csv`` (once ended), ``POST /api/hall/CODE/end`` (an admin).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, FastAPI, HTTPException, Path, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from fivehundred.web.events import hall_words as w
from fivehundred.web.events.hall_pages import club_section, hall_page
from fivehundred.web.events.hall_store import MAX_TABLES, HallStore
from fivehundred.web.events.hall_view import MAX_STATE, checked_state, hall_view
from fivehundred.web.events.results_csv import csv_response

Code = Annotated[str, Path(min_length=6, max_length=8)]
TableNo = Annotated[int, Path(ge=1, le=MAX_TABLES)]


class HallIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    club: str = Field(min_length=1, max_length=48)
    name: str = Field(min_length=1, max_length=60)
    preset: str = Field(default="australian", max_length=40)
    #: a progressive night (docs/pad.md#progressive-nights): hands or minutes a round
    round_hands: int | None = None
    round_minutes: int | None = None


class RoundIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    round: int = Field(ge=1)


def _checked(body: HallIn) -> tuple[str, str]:
    from fivehundred.pad.model import scoring_variants

    name = " ".join(body.name.split())
    if not 3 <= len(name) <= 60 or not name.isprintable():
        raise HTTPException(422, w.BAD_NAME)
    try:
        scoring_variants(body.preset)
    except Exception:
        raise HTTPException(422, w.BAD_PRESET) from None
    return name, body.preset


async def _state(request: Request) -> dict[str, Any]:
    """The JSON object sent (413 past the size a table may send, 422 if not an object)."""
    raw = await request.body()
    if len(raw) > MAX_STATE + 1024:
        raise HTTPException(413, w.TOO_LARGE.format(size=MAX_STATE // 1024))
    try:
        body = json.loads(raw or b"null")
    except (ValueError, UnicodeDecodeError):
        body = None
    if not isinstance(body, dict):
        raise HTTPException(422, w.BAD_STATE.format(count=0))
    return body


class Hall:
    def __init__(self, app: FastAPI) -> None:
        self.async_store = app.state.store
        self.accounts = app.state.accounts
        self.store = HallStore(self.async_store.store.engine)

    async def call(self, function: Any, *args: Any) -> Any:
        return await self.async_store.call(function, *args)

    async def shown(self, code: str, request: Request) -> dict[str, Any]:
        account = await self.accounts.current(request)
        night = await self.call(self.store.night, code, account and account.id)
        shown: dict[str, Any] = await self.call(hall_view, night)
        return shown

    async def club_section(self, slug: str, request: Request) -> str:
        """The club's nights at real tables and the form opening one, for its members."""
        from fivehundred.pad.model import handle

        account = await self.accounts.current(request)
        listing = await self.call(self.store.of_club, slug, account and account.id)
        if listing is None:
            return ""
        presets = [
            (p["name"], p["label"])
            for p in handle("rules", {})["presets"]
            if 3 <= p["players"] <= 6
        ]
        return club_section(slug, listing, presets)

    async def account_id(self, request: Request) -> int:
        account = await self.accounts.current(request)
        if account is None:
            raise HTTPException(401, w.LOG_IN)
        return int(account.id)


def make_router(service: Hall) -> APIRouter:
    router = APIRouter()
    store = service.store

    @router.get("/hall/{code}", include_in_schema=False)
    async def page(code: Code, request: Request) -> HTMLResponse:
        origin = str(request.base_url).rstrip("/")
        return HTMLResponse(hall_page(await service.shown(code, request), origin))

    @router.get("/api/hall/{code}")
    async def night(code: Code, request: Request) -> dict[str, Any]:
        return await service.shown(code, request)

    @router.get("/api/hall/{code}/results.csv")
    async def results(code: Code, request: Request) -> Response:
        shown = await service.shown(code, request)
        if shown["state"] != "finished":
            raise HTTPException(409, w.NOT_FINISHED)
        rows = (
            [s["place"], s["name"], " ".join(map(str, s["tables"])), s["won"], s["points"]]
            for s in shown["standings"]
        )
        head = [w.PLACE, w.PLAYER, w.TABLE, w.GAMES_WON, w.POINTS]
        return csv_response(f"hall-{shown['code']}-results.csv", head, rows)

    @router.post("/api/hall", status_code=201)
    async def create(body: HallIn, request: Request) -> dict[str, Any]:
        account_id = await service.account_id(request)
        name, preset = _checked(body)
        progressive = None
        if body.round_hands is not None or body.round_minutes is not None:
            progressive = (body.round_hands, body.round_minutes)
        code = await service.call(store.create, account_id, body.club, name, preset, progressive)
        return {"code": code, "url": f"/hall/{code}", "join": f"/pad?night={code}"}

    @router.post("/api/hall/{code}/tables", status_code=201)
    async def join(code: Code, request: Request) -> dict[str, Any]:
        body = await _state(request)
        number = body.get("table")
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= MAX_TABLES:
            raise HTTPException(422, w.BAD_TABLE.format(count=MAX_TABLES))
        version, state = checked_state(body)
        token, kept, unknown = await service.call(store.join, code, number, version, state)
        night = await service.call(store.night, code, None)
        answer = {"table": number, "token": token, "version": version, "name": night["name"]}
        if kept is not None:  # a table freed: this pad takes over its state
            answer.update(version=kept["version"], takeover=kept)
        return {**answer, "round": night["progress"], "unknown": unknown}

    @router.put("/api/hall/{code}/tables/{number}")
    async def send(code: Code, number: TableNo, request: Request) -> dict[str, Any]:
        body = await _state(request)
        token = body.get("token")
        if not isinstance(token, str) or not 1 <= len(token) <= 100:
            raise HTTPException(403, w.BAD_TOKEN)
        await service.call(store.check_token, code, number, token)  # before the scoring
        version, state = checked_state(body)
        kept, round_, unknown = await service.call(store.send, code, number, token, version, state)
        return {"version": kept, "round": round_, "unknown": unknown}

    @router.post("/api/hall/{code}/end")
    async def end(code: Code, request: Request) -> dict[str, Any]:
        account_id = await service.account_id(request)
        return {"ended": await service.call(store.end, code, account_id)}

    _organiser_routes(router, service)
    return router


def _organiser_routes(router: APIRouter, service: Hall) -> None:
    """A lost phone's table freed, and a progressive night's round."""
    store = service.store

    @router.post("/api/hall/{code}/tables/{number}/free")
    async def free(code: Code, number: TableNo, request: Request) -> dict[str, Any]:
        account_id = await service.account_id(request)
        return {"freed": await service.call(store.free, code, account_id, number)}

    @router.get("/api/hall/{code}/round")
    async def round_now(code: Code) -> dict[str, Any] | None:
        """The night's round: where each player sits (what a pad asks every 15 s)."""
        shown: dict[str, Any] | None = await service.call(store.round, code)
        return shown

    @router.post("/api/hall/{code}/round")
    async def close_round(code: Code, body: RoundIn, request: Request) -> dict[str, Any]:
        account_id = await service.account_id(request)
        shown: dict[str, Any] = await service.call(store.close_round, code, account_id, body.round)
        return shown


def install(app: FastAPI) -> Hall:
    """The hall nights' routes (``app.state.hall``)."""
    service = Hall(app)
    app.state.hall = service
    app.include_router(make_router(service))
    return service
