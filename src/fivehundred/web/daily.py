"""The daily boards in the browser (docs/duplicate.md): the same boards for everyone each
day, played from South with a computer partner against two computer opponents, all at
the operator's level.

- ``GET /daily``: the page.
- ``GET /api/daily``: today's day, preset, level and the boards' numbers and dealers (no
  card of any board).
- ``POST /api/daily/entries`` with ``{"name": "..."}``: a new entry for today (a guest,
  unranked); answers its ``token`` (the browser keeps it to resume) and the view.
- ``GET /api/daily/entries/{token}``: the entry's view: South's view of the board in
  play (built from South's observation: nothing hidden is in it), the boards finished,
  and after a board its result, the par and the traveller.
- ``POST /api/daily/entries/{token}/act`` with ``{"action": "7H"}``: South's move (the
  engine refuses an illegal one with its reason); the computers then play until South is
  to move again or the board is over.
- ``POST /api/daily/entries/{token}/next``: the next board, dealt only once the last is
  finished.
- ``GET /api/daily/entries/{token}/boards/{n}/traveller``: board ``n``'s traveller, only
  to an entry that has finished it (403 otherwise).

The day's boards come from the date and a secret (``FIVEHUNDRED_DAILY_SECRET``; without
it a random one for the process, so that nobody can deal a day ahead), their pars are
worked out in a background thread as soon as the day's boards are made. Entries and
results are kept in the server's memory (bounded: :data:`MAX_ENTRIES` a day).
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, HTTPException, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from fivehundred.actions import action_text
from fivehundred.boards import Board, BoardResult, Par, standings, traveller
from fivehundred.bots import PLAYERS, Player, make_player
from fivehundred.daily import (
    DAILY_BOARDS,
    DEFAULT_LEVEL,
    DEFAULT_PRESET,
    ENTRANT_SEAT,
    daily_boards,
    today,
)
from fivehundred.errors import FiveHundredError
from fivehundred.game import HandState
from fivehundred.messages import error_text
from fivehundred.words import (
    action_label,
    contract_label,
    hand_order,
    observation_prompt,
    parse,
    seat_name,
    view_context,
)

log = logging.getLogger("fivehundred.web.daily")
STATIC_DIR = Path(__file__).with_name("static")
#: Entries kept a day (then new ones are refused with 503).
MAX_ENTRIES = 20_000
#: Days kept in memory (today and yesterday: an entry started before midnight finishes).
MAX_DAYS = 2
MAX_NAME = 40
#: Rows of the day's table answered (the best).
MAX_TABLE_ROWS = 100
MAX_ACTION = 40
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
#: A computer's moves in one request at most (a whole hand is about 45).
MAX_COMPUTER_MOVES = 200

router = APIRouter()
#: The operator's settings of the daily (environment variables of ``fivehundred serve``).
DAILY_VARIABLES = ("FIVEHUNDRED_DAILY_SECRET", "FIVEHUNDRED_DAILY_LEVEL")


def par_of(board: Board) -> Par:
    from fivehundred.solver.par import board_par

    return board_par(board).par


@dataclass
class Day:
    """One day's boards, their pars (worked out in the background) and every result."""

    day: date
    boards: list[Board]
    pars: dict[int, Par] = field(default_factory=dict)
    results: dict[int, list[BoardResult]] = field(default_factory=dict)
    entries: int = 0
    dropped: bool = False
    #: The names the day's entries play under: each its own (a second "guest" is "guest 2").
    names: set[str] = field(default_factory=set)
    #: Each account's one entry of the day (its token).
    accounts: dict[int, str] = field(default_factory=dict)
    #: The names the accounts play under (ranked in the day's table).
    ranked: set[str] = field(default_factory=set)

    def par(self, number: int) -> Par | None:
        return self.pars.get(number)

    def done_pars(self) -> dict[int, Par]:
        return dict(self.pars)

    def work_out_pars(self) -> None:
        """The pars of every board, one after the other (a daemon thread runs this: the
        solver releases the interpreter while it searches)."""
        for board in self.boards:
            if self.dropped:
                return
            try:
                self.pars[board.number] = par_of(board)
            except Exception:  # pragma: no cover - a bug: logged, the par stays unknown
                log.exception("the par of board %s", board.number)


@dataclass
class Entry:
    token: str
    name: str
    day: Day
    #: The account playing (None: a guest, unranked).
    account: int | None = None
    index: int = 0
    state: HandState | None = None
    players: list[Player | None] = field(default_factory=list)
    finished: list[BoardResult] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


class DailyService:
    """The days, their entries and the background work of the pars."""

    def __init__(
        self,
        secret: str | None = None,
        level: str = DEFAULT_LEVEL,
        preset: str = DEFAULT_PRESET,
        boards: int = DAILY_BOARDS,
        clock: Callable[[], date] = today,
        pars: bool = True,
    ) -> None:
        if level not in PLAYERS:
            raise ValueError(f"no computer player {level!r}")
        self.secret = secret if secret is not None else secrets.token_hex(32)
        self.level = level
        self.preset = preset
        self.count = boards
        self.clock = clock
        self.with_pars = pars
        self.days: dict[date, Day] = {}
        self.entries: dict[str, Entry] = {}
        self.lock = threading.Lock()

    def today(self) -> Day:
        day = self.clock()
        with self.lock:
            if day not in self.days:
                made = Day(day, daily_boards(day, self.preset, self.secret, self.count))
                self.days[day] = made
                if self.with_pars:
                    threading.Thread(
                        target=made.work_out_pars, name="daily-pars", daemon=True
                    ).start()
                for old in sorted(self.days)[:-MAX_DAYS]:
                    gone = self.days.pop(old)
                    gone.dropped = True
                    self.entries = {t: e for t, e in self.entries.items() if e.day is not gone}
            return self.days[day]

    def new_entry(self, name: str, account: tuple[int, str] | None = None) -> Entry:
        """A new entry for today: a guest's under ``name`` (made its own), or the
        ``(id, name)`` account's one entry of the day (the same one again if it has one)."""
        day = self.today()
        with self.lock:
            if account is not None and account[0] in day.accounts:
                return self.entries[day.accounts[account[0]]]
            if day.entries >= MAX_ENTRIES:
                raise HTTPException(503, "the day is full: try tomorrow")
            day.entries += 1
            if account is not None:
                base = account[1]
            else:  # a guest's name says so, and never takes an account's
                base = name if name == "guest" else f"{name[: MAX_NAME - 8]} (guest)"
            unique, k = base, 1
            while unique in day.names:
                k += 1
                unique = f"{base[: MAX_NAME - 8]} {k}"
            day.names.add(unique)
            entry = Entry(secrets.token_urlsafe(24), unique, day, account and account[0])
            self.entries[entry.token] = entry
            if account is not None:
                day.accounts[account[0]] = entry.token
                day.ranked.add(unique)
        with entry.lock:
            self.deal(entry)
        return entry

    def entry(self, token: str) -> Entry:
        if not TOKEN.fullmatch(token):
            raise HTTPException(404, "no such entry")
        entry = self.entries.get(token)
        if entry is None:
            raise HTTPException(404, "no such entry")
        return entry

    def deal(self, entry: Entry) -> None:
        """Deal the entry's next board and let the computers move up to South's turn."""
        board = entry.day.boards[entry.index]
        entry.state = board.start()
        entry.players = []
        for seat in range(4):
            if seat == ENTRANT_SEAT:
                entry.players.append(None)
                continue
            digest = hashlib.sha256(f"{entry.token}/{board.number}/{seat}".encode()).digest()
            entry.players.append(make_player(self.level, int.from_bytes(digest[:4], "big")))
        self.computers(entry)

    def computers(self, entry: Entry) -> None:
        state = entry.state
        assert state is not None
        for _ in range(MAX_COMPUTER_MOVES):
            if state.is_over:
                break
            player = entry.players[state.to_move]
            if player is None:
                break
            state.apply(player.act(state.observation(state.to_move)))
        if state.is_over and len(entry.finished) == entry.index:
            board = entry.day.boards[entry.index]
            result = BoardResult.from_state(board, entry.name, state, ENTRANT_SEAT)
            entry.finished.append(result)
            with self.lock:
                entry.day.results.setdefault(board.number, []).append(result)

    def act(self, entry: Entry, text: str) -> None:
        state = entry.state
        if state is None or state.is_over:
            raise HTTPException(409, "the board is over: ask for the next one")
        if state.to_move != ENTRANT_SEAT:
            raise HTTPException(409, "it is not your turn")
        two = state.rules.joker_names
        try:
            state.apply(parse(text, state.legal_actions(), two))
        except FiveHundredError as error:
            raise HTTPException(422, error_text(error, two)) from error
        self.computers(entry)

    def next_board(self, entry: Entry) -> None:
        if entry.state is None or not entry.state.is_over:
            raise HTTPException(409, "finish this board first")
        if entry.index + 1 >= len(entry.day.boards):
            raise HTTPException(409, "that was the day's last board")
        entry.index += 1
        self.deal(entry)

    def traveller(self, entry: Entry, number: int) -> dict[str, Any]:
        if number not in {r.board for r in entry.finished}:
            raise HTTPException(403, "a board's traveller is shown once you have played it")
        day = entry.day
        board = day.boards[number - 1]
        with self.lock:
            results = list(day.results.get(number, []))
        par = day.par(number)
        out = traveller(board, results, par).to_dict()
        out["par_pending"] = out["par"] is None and self.with_pars
        rules = board.rules
        two = rules.joker_names
        out["hands"] = [
            {"seat": seat_name(s, 4), "cards": [action_label(c, two) for c in hand_order(h, None)]}
            for s, h in enumerate(board.hands)
        ]
        out["kitty"] = [action_label(c, two) for c in hand_order(board.kitty, None)]
        if par is not None:
            out["par"]["label"] = par.label(rules)
        return out

    def view(self, entry: Entry) -> dict[str, Any]:
        """Everything the entrant may see now (South's observation; the traveller of a
        board only once it is finished)."""
        state = entry.state
        assert state is not None
        board = entry.day.boards[entry.index]
        rules = board.rules
        two = rules.joker_names
        obs = state.observation(ENTRANT_SEAT)
        ctx = view_context(obs)
        out: dict[str, Any] = {
            "day": entry.day.day.isoformat(),
            "name": entry.name,
            "ranked": entry.account is not None,
            "level": self.level,
            "boards": len(entry.day.boards),
            "board": board.number,
            "dealer": seat_name(board.dealer, 4),
            "finished": [r.board for r in entry.finished],
        }
        table: dict[str, Any] = {
            "hand": [
                {"card": action_text(c, two), "label": action_label(c, two)}
                for c in hand_order(obs.hand, ctx)
            ],
            "auction": [
                {"seat": seat_name(s, 4), "call": action_label(a, two)} for s, a in obs.auction
            ],
            "contract": None
            if obs.contract < 0
            else f"{contract_label(obs.contract, two)} by {seat_name(obs.contractor, 4)}",
            "trick": [
                {"seat": seat_name(s, 4), "card": action_label(a, two)} for s, a in obs.trick
            ],
            "last_trick": None,
            "tricks_won": {"NS": 0, "EW": 0},
            "exposed": [
                {
                    "seat": seat_name(s, 4),
                    "cards": [action_label(c, two) for c in hand_order(m, ctx)],
                }
                for s, m in obs.exposed
                if s != ENTRANT_SEAT
            ],
        }
        for s, n in enumerate(obs.tricks_won):
            table["tricks_won"]["NS" if s % 2 == 0 else "EW"] += n
        if obs.tricks:
            plays, winner = obs.tricks[-1]
            table["last_trick"] = {
                "plays": [
                    {"seat": seat_name(s, 4), "card": action_label(a, two)} for s, a in plays
                ],
                "winner": seat_name(winner, 4),
            }
        if not state.is_over and state.to_move == ENTRANT_SEAT:
            table["prompt"] = observation_prompt(obs)
            table["legal"] = [
                {"action": action_text(a, two), "label": action_label(a, two)} for a in obs.legal
            ]
        else:
            table["prompt"] = None
            table["legal"] = []
        out["table"] = table
        if state.is_over:
            result = entry.finished[-1]
            par = entry.day.par(board.number)
            out["status"] = "day_over" if entry.index + 1 >= len(entry.day.boards) else "board_over"
            out["result"] = {
                "contract": result.label(rules),
                "tricks": result.tricks,
                "points": list(result.points),
                "net": result.net,
                "par": None if par is None else par.label(rules),
                "against_par": None if par is None else result.own_net - par.net,
            }
            out["traveller"] = self.traveller(entry, board.number)
            if out["status"] == "day_over":
                mine = {r.board for r in entry.finished}
                with self.lock:
                    field_ = [r for n, rs in entry.day.results.items() if n in mine for r in rs]
                rows = standings(field_, entry.day.done_pars() or None)
                me = next((row for row in rows if row.entrant == entry.name), None)
                out["standing"] = (
                    None
                    if me is None
                    else {
                        "place": me.place,
                        "of": len(rows),
                        "percent": round(me.percent, 1),
                        "against_par": me.against_par,
                    }
                )
        else:
            out["status"] = "playing"
        return out


class EntryIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(default="guest", max_length=MAX_NAME)


class ActIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    action: str = Field(min_length=1, max_length=MAX_ACTION)


def service(request: Request) -> DailyService:
    daily: DailyService = request.app.state.daily
    return daily


@router.get("/daily", include_in_schema=False)
async def daily_page() -> FileResponse:
    return FileResponse(STATIC_DIR / "daily.html")


@router.get("/api/daily")
def daily_info(request: Request) -> dict[str, Any]:
    daily = service(request)
    day = daily.today()
    return {
        "day": day.day.isoformat(),
        "preset": daily.preset,
        "level": daily.level,
        "boards": [{"number": b.number, "dealer": seat_name(b.dealer, 4)} for b in day.boards],
    }


@router.post("/api/daily/entries")
async def new_entry(request: Request, body: EntryIn | None = None) -> dict[str, Any]:
    """A guest's new entry; with an account's session its one entry of the day (asked
    again, the same entry: it resumes)."""
    daily = service(request)
    name = " ".join((body.name if body else "guest").split())[:MAX_NAME] or "guest"
    accounts = getattr(request.app.state, "accounts", None)
    account = await accounts.current(request) if accounts is not None else None
    who = None if account is None else (account.id, account.name)
    return await run_in_threadpool(_new_entry_view, daily, name, who)


def _new_entry_view(
    daily: DailyService, name: str, account: tuple[int, str] | None
) -> dict[str, Any]:
    entry = daily.new_entry(name, account)
    with entry.lock:
        return {"token": entry.token, **daily.view(entry)}


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


@router.get("/api/daily/table")
def day_table(request: Request) -> dict[str, Any]:
    """Today's table: every entry's percentage over the boards it has finished, best first
    (names and figures only: no card, no contract)."""
    daily = service(request)
    day = daily.today()
    with daily.lock:
        results = [r for rs in day.results.values() for r in rs]
    rows = standings(results, day.done_pars() or None)
    return {
        "day": day.day.isoformat(),
        "rows": [
            {
                "place": row.place,
                "name": row.entrant,
                "ranked": row.entrant in day.ranked,
                "boards": row.boards,
                "percent": round(row.percent, 1),
                "against_par": row.against_par,
            }
            for row in rows[:MAX_TABLE_ROWS]
        ],
        "entrants": len(rows),
    }


def install(app: FastAPI) -> None:
    """The daily's routes and its service on ``app`` (``app.state.daily``; a test may
    replace the service). The operator's settings: ``FIVEHUNDRED_DAILY_SECRET``,
    ``FIVEHUNDRED_DAILY_LEVEL`` (default ``medium``)."""
    app.state.daily = DailyService(
        os.environ.get("FIVEHUNDRED_DAILY_SECRET") or None,
        os.environ.get("FIVEHUNDRED_DAILY_LEVEL") or DEFAULT_LEVEL,
    )
    app.include_router(router)
