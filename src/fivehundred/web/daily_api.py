"""The daily's routes (the page ``/daily`` and ``/api/daily...``) and its installation on
the server (:func:`install`); the service itself is :mod:`fivehundred.web.daily`."""

from __future__ import annotations

import os
from typing import Any

from fastapi import APIRouter, FastAPI, HTTPException, Query, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse, PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field

from fivehundred.boards import board_presets
from fivehundred.daily import DEFAULT_PRESET
from fivehundred.web import par_work
from fivehundred.web.daily import (
    MAX_ACTION,
    MAX_NAME,
    STATIC_DIR,
    DailyService,
)
from fivehundred.web.daily_review import board_review, day_review, export_day
from fivehundred.words import DEFAULT_LEVEL, preset_label, seat_name

router = APIRouter()


class EntryIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(default="guest", max_length=MAX_NAME)


class ActIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str = Field(min_length=1, max_length=MAX_ACTION)


def service(request: Request) -> DailyService:
    """The daily of the preset asked (``?preset=``; the first the operator set by default):
    404 for a preset this server deals no daily of."""
    daily: DailyService = request.app.state.daily
    preset = request.query_params.get("preset")
    if preset is None or preset == daily.preset:
        return daily
    offered: dict[str, DailyService] = getattr(request.app.state, "dailies", {})
    found = offered.get(preset)
    if found is None:
        raise HTTPException(
            404,
            f"no daily of the preset {preset[:40]!r} here: {', '.join(offered) or daily.preset}",
        )
    return found


def daily_presets(text: str | None) -> list[str]:
    """The presets of ``FIVEHUNDRED_DAILY_PRESETS`` (comma-separated; the first is the
    daily a page shows unless asked for another): ValueError, naming the setting, for a
    preset that boards cannot be played in (four players in two partnerships)."""
    if not text or not text.strip():
        return [DEFAULT_PRESET]
    playable = board_presets()
    presets: list[str] = []
    for name in (part.strip() for part in text.split(",")):
        if name not in playable:
            raise ValueError(
                f"FIVEHUNDRED_DAILY_PRESETS: {name[:40]!r} is no preset of the daily "
                f"(these are: {', '.join(playable)})"
            )
        if name not in presets:
            presets.append(name)
    return presets


@router.get("/daily", include_in_schema=False)
async def daily_page() -> FileResponse:
    return FileResponse(STATIC_DIR / "daily.html")


@router.get("/api/daily")
def daily_info(request: Request) -> dict[str, Any]:
    daily = service(request)
    day = daily.today()
    offered = getattr(request.app.state, "dailies", {}) or {daily.preset: daily}
    return {
        "day": day.day.isoformat(),
        "preset": daily.preset,
        "preset_label": preset_label(daily.preset),
        "presets": [{"preset": p, "label": preset_label(p)} for p in offered],
        "level": daily.level,
        "boards": [{"number": b.number, "dealer": seat_name(b.dealer, 4)} for b in day.boards],
    }


@router.post("/api/daily/entries")
async def new_entry(request: Request, body: EntryIn | None = None) -> dict[str, Any]:
    """A guest's new entry; with an account's session its one entry of the day (asked
    again, the same entry: it resumes)."""
    daily = service(request)
    name = " ".join((body.name if body else "guest").split())[:MAX_NAME] or "guest"
    known = getattr(request.app.state, "accounts", None)
    account = await known.current(request) if known is not None else None
    who = None if account is None else (account.id, account.name)
    return await run_in_threadpool(_new_entry_view, daily, name, who)


def _new_entry_view(
    daily: DailyService, name: str, account: tuple[int, str] | None
) -> dict[str, Any]:
    token, entry = daily.new_entry(name, account)
    with entry.lock:
        return {"token": token, **daily.view(entry)}


@router.get("/api/daily/entries/{token}")
def get_entry(request: Request, token: str) -> dict[str, Any]:
    daily = service(request)
    entry = daily.entry(token)
    with entry.lock:
        return daily.view(entry)


@router.post("/api/daily/entries/{token}/act")
def act(request: Request, token: str, body: ActIn) -> dict[str, Any]:
    daily = service(request)
    entry = daily.entry(token)
    with entry.lock:
        daily.act(entry, body.action)
        return daily.view(entry)


@router.post("/api/daily/entries/{token}/next")
def next_board(request: Request, token: str) -> dict[str, Any]:
    daily = service(request)
    entry = daily.entry(token)
    with entry.lock:
        daily.next_board(entry)
        return daily.view(entry)


@router.get("/api/daily/entries/{token}/boards/{number}/traveller")
def board_traveller(request: Request, token: str, number: int) -> dict[str, Any]:
    daily = service(request)
    entry = daily.entry(token)
    if not 1 <= number <= len(entry.day.boards):
        raise HTTPException(404, "no such board")
    with entry.lock:
        return daily.traveller(entry, number)


@router.get("/api/daily/entries/{token}/boards/{number}/review")
def review_board(request: Request, token: str, number: int) -> dict[str, Any]:
    """Board ``number`` against the field (the par, the entrant's line beside the field's
    most common lines), its record and its double-dummy review: only to an entry that has
    finished it (403 otherwise)."""
    daily = service(request)
    entry = daily.entry(token)
    if not 1 <= number <= len(entry.day.boards):
        raise HTTPException(404, "no such board")
    with entry.lock:
        return board_review(daily, entry, number)


@router.get("/api/daily/entries/{token}/review")
def review_day(request: Request, token: str) -> dict[str, Any]:
    """Every board the entry has finished against the field, board by board."""
    daily = service(request)
    entry = daily.entry(token)
    with entry.lock:
        return day_review(daily, entry)


@router.get("/api/daily/days/{day}/export", response_model=None)
def export(
    request: Request,
    day: str,
    kind: str = Query(default="json", alias="format", pattern="^(json|text)$"),
    page: int = Query(default=1, ge=1),
) -> dict[str, Any] | PlainTextResponse:
    """A day's boards, pars and results once the day is over (403 before): the board set's
    JSON (``fivehundred-boards/1``) or its plain text (``?format=text``), a page at a time
    (the JSON's ``next``, the text's ``Link`` header)."""
    daily = service(request)
    if len(day) != 10:
        raise HTTPException(422, "a day is written YYYY-MM-DD")
    when = daily.asked_day(day)
    made, more = export_day(daily, when, page, kind == "text")
    following = f"/api/daily/days/{day}/export?format={kind}&page={page + 1}" if more else None
    if kind == "text":
        headers = {"Link": f'<{following}>; rel="next"'} if following else {}
        return PlainTextResponse(made, headers=headers)
    return {**made, "page": page, "next": following}


DAY_QUERY = Query(default=None, min_length=10, max_length=10)


@router.get("/api/daily/table")
def day_table(request: Request, day: str | None = DAY_QUERY) -> dict[str, Any]:
    """A day's table (``?day=YYYY-MM-DD``; today by default): every entry's percentage
    over the boards it has finished, best first (names and figures only: no card, no
    contract)."""
    daily = service(request)
    return daily.day_table(daily.asked_day(day))


@router.get("/api/daily/week")
def week_table(request: Request, day: str | None = DAY_QUERY) -> dict[str, Any]:
    """The week's table of the accounts (the week of ``?day=``, this week by default)."""
    daily = service(request)
    return daily.week_table(daily.asked_day(day))


@router.get("/api/daily/players/{name}/history")
def player_history(request: Request, name: str) -> dict[str, Any]:
    """An account's past days and its streak (figures only: no card, no contract)."""
    if not 0 < len(name) <= MAX_NAME:
        raise HTTPException(404, "no such player")
    return service(request).history(name)


def install(app: FastAPI) -> None:
    """The daily's routes and its services on ``app`` (``app.state.dailies``, one a preset,
    the first also ``app.state.daily``; on the database of ``app.state.store``; a test may
    replace the service). The operator's settings: ``FIVEHUNDRED_DAILY_SECRET``,
    ``FIVEHUNDRED_DAILY_LEVEL`` (default ``medium``) and ``FIVEHUNDRED_DAILY_PRESETS``
    (default ``australian``)."""
    secret = os.environ.get("FIVEHUNDRED_DAILY_SECRET") or None
    level = os.environ.get("FIVEHUNDRED_DAILY_LEVEL") or DEFAULT_LEVEL
    engine = app.state.store.store.engine
    app.state.dailies = {
        preset: DailyService(secret, level, preset, engine=engine)
        for preset in daily_presets(os.environ.get("FIVEHUNDRED_DAILY_PRESETS"))
    }
    app.state.daily = next(iter(app.state.dailies.values()))
    app.include_router(router)
    par_work.install(app)  # the server's one process of pars, stopped with it
