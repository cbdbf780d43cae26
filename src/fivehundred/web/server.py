"""The FastAPI application: pages, REST endpoints and the tables' WebSockets
(docs/web-protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import math
import time
from collections import deque
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Annotated, Any

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from fivehundred.bots import player_choices
from fivehundred.errors import FiveHundredError
from fivehundred.pad import web as pad_web
from fivehundred.rules import make_rules
from fivehundred.table import HUMAN, check_player_name
from fivehundred.web import clubs as clubs_web
from fivehundred.web import daily_api, history, learn, my_games, notices, players, seals, views
from fivehundred.web.accounts import (
    Account,
    AccountError,
    Accounts,
    AccountsConfig,
    DeviceCookie,
    device_of,
)
from fivehundred.web.accounts import make_router as accounts_router
from fivehundred.web.events import service as events
from fivehundred.web.guard import (
    ASGIApp,
    Buckets,
    Guard,
    Limits,
    Receive,
    Scope,
    Send,
    client_address,
    close_reason,
    host_allowed,
    host_of,
    origin_matches,
    shown,
)
from fivehundred.web.live import (
    OPEN,
    SESSION_ENDED,
    Connection,
    Decider,
    Hub,
    LiveTable,
    Refusal,
)
from fivehundred.web.matchmaking import Matchmaker, PlayNowError
from fivehundred.web.matchmaking import make_router as play_now_router
from fivehundred.web.metrics import Metrics
from fivehundred.web.outbox import Outbox
from fivehundred.web.reviews import GameReviews
from fivehundred.web.store import AsyncStore, Store, default_db_url

log = logging.getLogger("fivehundred.web")

STATIC_DIR = Path(__file__).with_name("static")
#: The largest WebSocket message a client may send (bytes).
MAX_MESSAGE = 4096
#: More messages than this in one second from one connection is a flood (moves that were
#: made do not count: a program may play as fast as the table goes).
FLOOD_PER_SECOND = 100
#: Unfinished tables the server keeps playing at once; beyond, creating one is refused.
MAX_LIVE_TABLES = Limits.max_live_tables
#: Spectators one table admits.
MAX_SPECTATORS = 100
#: Spectator places one address may take at one table.
SPECTATORS_PER_ADDRESS = 10
#: The targets a web table may play to (the rules also want a multiple of 10).
TARGETS = (10, 10_000)
#: The pages of the history (``GET /api/games?page=``).
MAX_PAGE = 100_000
#: Limits of a server made without any (the tests, an embedding program): no fair-use
#: limits and any Host; ``fivehundred serve`` has the real ones (:class:`Limits`).
UNLIMITED = Limits(
    allowed_hosts=["*"],
    create_per_minute=100_000,
    create_burst=100_000,
    seat_per_minute=100_000,
    seat_burst=100_000,
    tables_per_client=100_000,
)


class ApiError(Exception):
    def __init__(self, status: int, detail: str, headers: dict[str, str] | None = None) -> None:
        self.status = status
        self.detail = detail
        self.headers = headers


class RulesIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    preset: str = "australian"
    variants: dict[str, Any] = Field(default_factory=dict)


class OptionsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    grace: float = Field(default=60.0, ge=0, le=3600, allow_inf_nan=False)
    turn_timer: float | None = Field(default=None, ge=1, le=3600, allow_inf_nan=False)
    delay: float = Field(default=0.6, ge=0, le=10, allow_inf_nan=False)
    stand_in: str = Field(default="heuristic", max_length=60)
    #: a turn-based table: the clock of each move, seconds (from the server's
    #: ``min_move_clock`` to 7 days); none: a table played live
    move_clock: float | None = Field(default=None, gt=0, le=7 * 86400, allow_inf_nan=False)
    #: a turn-based table: the clock's timeouts after which the stand-in keeps the seat
    move_timeouts: int = Field(default=3, ge=1, le=20)
    #: with move_clock: each seat's time for the whole game, seconds (web/game_clock.py)
    game_clock: float | None = Field(default=None, gt=0, le=30 * 86400, allow_inf_nan=False)


class CreateIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rules: RulesIn = Field(default_factory=lambda: RulesIn())
    seats: list[Annotated[str, Field(max_length=60)]] = Field(min_length=1, max_length=6)
    name: str | None = Field(default=None, max_length=60)
    options: OptionsIn = Field(default_factory=lambda: OptionsIn())
    seed: int | None = Field(default=None, ge=0, lt=2**62)
    #: the seat the person making the table sits in (an open one), and a guest's name
    #: there (a logged-in person sits under the account's); none: nobody is seated
    sit: int | None = Field(default=None, ge=0, lt=6)
    player: str | None = Field(default=None, max_length=30)
    #: not listed in the lobby: only people with the link find it (a table for friends)
    private: bool = False


class SeatingIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    rules: RulesIn = Field(default_factory=lambda: RulesIn())
    #: the seat of the person asking (their partners and opponents are named)
    seat: int | None = Field(default=None, ge=0, lt=6)


class RematchIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    #: the seat's token at the finished table (a guest, a program); none: the session's
    token: str | None = Field(default=None, max_length=100)


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=30)


def _computer_player(name: str, where: str, offered: list[str]) -> str:
    """A computer player's name for a web table, or :class:`ApiError` 422: only the
    players and settings offered to people (:func:`fivehundred.bots.player_choices`), each
    with its own budget per decision (``pimc:N`` with any N is refused)."""
    if name.startswith("cmd:"):
        raise ApiError(422, f"{where}: programs (cmd:) cannot play at a web table")
    if name in (HUMAN, OPEN):
        raise ApiError(422, f"{where}: must be a computer player's name")
    try:
        check_player_name(name)
    except FiveHundredError as error:
        raise ApiError(422, f"{where}: {error.reason[:200]}") from None
    if name not in offered:
        raise ApiError(
            422,
            f"{where}: {shown(name, 30)} is not offered at web tables; "
            f"computer players are {', '.join(offered)}",
        )
    return name


def _table_options(body: CreateIn, offered: list[str], limits: Limits) -> dict[str, Any]:
    """A new table's options: its stand-in one of the players offered, a private table
    marked, a turn-based table's clock within the server's bounds (none: a live table)."""
    options = body.options.model_dump()
    options["stand_in"] = _computer_player(body.options.stand_in, "options.stand_in", offered)
    if body.private:
        options["private"] = True
    clock, timeouts, bank = (options.pop(k) for k in ("move_clock", "move_timeouts", "game_clock"))
    if bank is not None and (clock is None or bank < clock):
        raise ApiError(422, "options.game_clock: a turn-based table's, at least its move_clock")
    if clock is not None:
        if clock < limits.min_move_clock:
            raise ApiError(
                422, f"options.move_clock: at least {limits.min_move_clock:g} s on this server"
            )
        options.update(move_clock=clock, move_timeouts=timeouts)
        options.update({} if bank is None else {"game_clock": bank})
    return options


def _iso(moment: float | None) -> str | None:
    return None if moment is None else time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(moment))


def _origin_allowed(websocket: WebSocket, limits: Limits) -> bool:
    """A browser connecting from another site sends its own Origin: refuse it (the Host
    itself is checked by :class:`~fivehundred.web.guard.Guard`)."""
    origin = websocket.headers.get("origin")
    host = websocket.headers.get("host", "")
    if not origin_matches(origin, host):
        return False
    return (
        not origin
        or limits.allowed_hosts == ["*"]
        or host_allowed(host_of(host), limits.allowed_hosts)
    )


class Timing:
    """ASGI middleware: the time to answer each HTTP request, by route, in the metrics."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = [500]  # an exception that escapes is answered 500

        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                status[0] = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            route = getattr(scope.get("route"), "path", None) or "other"
            self.metrics.requests.labels(scope.get("method", "GET"), route).observe(
                time.perf_counter() - started
            )
            if status[0] >= 500:
                self.metrics.server_errors.labels(route).inc()


async def spectator_refused(
    store: AsyncStore, metrics: Any, table: LiveTable, websocket: WebSocket
) -> tuple[int, str] | None:
    """Why ``websocket`` may not watch ``table`` (a close code and its reason), or None."""
    if await seals.holds(store, table):  # nobody watches a board others will play
        return 4403, close_reason(seals.SEALED)
    if len(table.spectators) >= MAX_SPECTATORS:
        return 1013, "this table has as many spectators as it admits"
    address = client_address(websocket)
    if sum(c.client == address for c in table.spectators) >= SPECTATORS_PER_ADDRESS:
        metrics.refused("spectators_per_address")
        return 1013, f"your address watches this table {SPECTATORS_PER_ADDRESS} times already"
    return None


def create_app(
    db_url: str | None = None,
    *,
    workers: int | None = None,
    allow_seeds: bool = False,
    limits: Limits | None = None,
    cluster: bool | None = None,
    cluster_heartbeat: float = 1.0,
    accounts_config: AccountsConfig | None = None,
    review_games: bool = False,
) -> FastAPI:
    """The server's application on the database ``db_url`` (default: SQLite in the data
    directory). ``workers``: processes for the search players (0: threads, for tests).
    ``allow_seeds``: accept a ``seed`` when creating a table (tests and demonstrations
    only: whoever knows the seed knows every card). ``limits``: the fair-use limits and
    the allowed hosts (default :data:`UNLIMITED`). Raises
    :class:`~fivehundred.web.store.StoreError` if the database cannot be used, ValueError
    if a limit is out of its range. On PostgreSQL the server shares the tables with every
    other server of the same database (:mod:`fivehundred.web.cluster`; ``cluster_heartbeat``:
    seconds between its looks for tables whose server died) unless ``cluster`` is False
    (None: on PostgreSQL; SQLite serves one process). ``review_games``: review each
    finished game in the background for the player pages (web/reviews.py; CPU: off unless
    asked, ``fivehundred serve`` asks)."""
    limits = dataclasses.replace(limits) if limits is not None else dataclasses.replace(UNLIMITED)
    limits.check()
    store = AsyncStore(Store(db_url or default_db_url()))
    accounts = Accounts(store, accounts_config or AccountsConfig())  # web/accounts.py
    reviews = GameReviews(store, review_games)  # web/reviews.py
    holder: dict[str, Hub] = {}
    metrics = Metrics()
    offered = player_choices()
    creating = Buckets(limits.create_per_minute, limits.create_burst)
    seating = Buckets(limits.seat_per_minute, limits.seat_burst)

    def decided(player: str, seconds: float, stopped: bool) -> None:
        metrics.decisions.labels(player).observe(seconds)
        if stopped:
            metrics.decision_ceilings.labels(player).inc()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        decider = Decider(workers, limits.decision_seconds)
        decider.observe = decided
        hub = Hub(store, decider, allow_seeds, limits)
        if cluster is not False and store.store.is_postgres:  # any number of servers
            from fivehundred.web.cluster import Cluster

            hub.cluster = Cluster(store.store.url, hub, cluster_heartbeat)
        hub.on_refusal = metrics.refused
        hub.on_action = lambda by: metrics.actions.labels(by).inc()
        hub.on_expired = lambda why: metrics.expired.labels(why).inc()

        # the ratings and the reviews of each finished game, written with its end and
        # taken once by one server (web/outbox.py)
        store.store.follow_ups = ("rate", "review") if review_games else ("rate",)
        reviews.table_of = hub.get
        outbox = Outbox(store, accounts.store.rate_game, reviews.review if review_games else None)
        app.state.outbox = app.state.notices.attach(hub, outbox)  # notices (web/notices.py)
        hub.on_game_over = lambda code: outbox.wake()
        hub.on_rematch = app.state.clubs.after_rematch(accounts.rematch)  # seats', clubs' own
        metrics.track(hub.playing, hub.connection_count, hub.following)  # owned, followed
        hub.on_count = metrics.count  # the cluster's and the database's events
        store.on_error = lambda: metrics.count("database_errors")
        hub.creating = creating  # a rematch is a new table: the creation limits apply

        async def sessions_ended(account: Any, revoked: list[Any], deleted: bool) -> None:
            for code, seat, hashed in revoked:  # their sockets here close (web/accounts.py)
                table = hub.tables.get(code) or hub.finished.get(code)
                if table is not None:
                    table.revoke_seat(seat, hashed, SESSION_ENDED)
                if hub.cluster is not None:  # and every other server's (the new hash:
                    # of a token nobody was given)
                    await hub.cluster.notify(f"revoked:{code}:{hub.cluster.id}:{seat}:{hashed}")
            if deleted:
                await matchmaker.forget_account(account.id)

        accounts.on_sessions_ended = app.state.clubs.after_sessions_ended(sessions_ended)
        holder["hub"] = hub
        app.state.hub = hub
        if hub.cluster is not None:  # a seat written by another server: the polls here look
            hub.cluster.listeners["queue"] = lambda payload: matchmaker.changed()
        await hub.start()
        outbox.start()
        log.info("database %s", store.store.safe_url)
        try:
            yield
        finally:
            # the tables stop (their clients are told), the writes in flight finish, then
            # every worker process goes: the players' pools and the analysis
            await hub.stop()
            await outbox.stop()
            history.shutdown()
            store.close()

    app = FastAPI(
        title="Five Hundred",
        docs_url="/docs" if limits.docs else None,
        redoc_url=None,
        openapi_url="/openapi.json" if limits.docs else None,
        lifespan=lifespan,
    )
    app.state.store = store
    app.state.limits = limits
    app.state.metrics = metrics
    app.state.accounts = accounts
    app.state.reviews = reviews
    app.add_middleware(DeviceCookie, secure=accounts.config.secure_cookie)  # the ratings
    app.add_middleware(Guard, limits=limits, refused=metrics.refused)
    app.add_middleware(Timing, metrics=metrics)
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")

    def hub() -> Hub:
        return holder["hub"]

    @app.exception_handler(ApiError)
    async def api_error(request: Request, error: ApiError) -> JSONResponse:
        return JSONResponse(
            {"detail": error.detail}, status_code=error.status, headers=error.headers
        )

    @app.exception_handler(PlayNowError)
    async def play_now_error(request: Request, error: PlayNowError) -> JSONResponse:
        return JSONResponse({"detail": error.detail}, status_code=error.status)

    @app.exception_handler(AccountError)
    async def account_error(request: Request, error: AccountError) -> JSONResponse:
        return JSONResponse(
            {"detail": error.detail}, status_code=error.status, headers=error.headers
        )

    @app.exception_handler(RequestValidationError)
    async def validation_error(request: Request, error: RequestValidationError) -> JSONResponse:
        metrics.refused("invalid")
        first = error.errors()[0] if error.errors() else {"loc": (), "msg": "invalid request"}
        loc = [str(p)[:40] for p in first.get("loc", ()) if p not in ("body", "query", "path")]
        where = ".".join(loc) if loc else "body"
        return JSONResponse({"detail": f"{where}: {first.get('msg', 'invalid')}"}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"detail": str(error.detail)}, status_code=error.status_code)

    @app.exception_handler(Exception)
    async def server_error(request: Request, error: Exception) -> JSONResponse:
        log.exception("error answering %s %s", request.method, request.url.path)
        return JSONResponse({"detail": "internal error (logged on the server)"}, status_code=500)

    async def table_or_404(code: str) -> LiveTable:
        table = await hub().get(code)
        if table is None:
            raise ApiError(404, f"no table {shown(code)}")
        return table

    async def may_create(client: str) -> None:
        """429 if ``client`` (an address) has as many unfinished tables as one may have."""
        if await hub().tables_of(client) >= limits.tables_per_client:
            metrics.refused("tables_per_client")
            raise ApiError(
                429,
                f"your address has {limits.tables_per_client} unfinished tables, "
                "as many as one may have: finish or leave one first",
                {"Retry-After": str(int(limits.sweep_seconds) + 1)},
            )

    async def take_token(buckets: Buckets, request: Request, what: str) -> None:
        wait = await hub().take_token(buckets, what, client_address(request))
        if wait > 0:
            metrics.refused(f"rate_{what}")
            raise ApiError(
                429,
                f"too many {what}s from your address: try again in {math.ceil(wait)} s",
                {"Retry-After": str(math.ceil(wait))},
            )

    # ------------------------------------------------------------------ pages
    @app.get("/", include_in_schema=False)
    async def lobby() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html")

    @app.get("/sw.js", include_in_schema=False)  # the service worker, whose scope is "/"
    async def service_worker() -> FileResponse:
        return FileResponse(STATIC_DIR / "js" / "sw.js", media_type="text/javascript")

    @app.get("/t/{code}", include_in_schema=False)
    async def table_page(code: str) -> FileResponse:
        return FileResponse(STATIC_DIR / "table.html")

    # ------------------------------------------------------------------ tables
    @app.post("/api/tables", status_code=201)
    async def create_table(body: CreateIn, request: Request) -> dict[str, Any]:
        try:
            rules = make_rules(body.rules.preset, body.rules.variants)
        except FiveHundredError as error:
            raise ApiError(422, f"rules: {error.reason[:200]}") from None
        if not TARGETS[0] <= rules.target <= TARGETS[1]:
            raise ApiError(
                422, f"rules: target must be {TARGETS[0]} to {TARGETS[1]} at a web table"
            )
        if len(body.seats) != rules.players:
            raise ApiError(
                422,
                f"seats: the {rules.preset} game has {rules.players} seats; "
                f'give {rules.players}, each "open" or a computer player',
            )
        seat_players = [
            OPEN if name == OPEN else _computer_player(name, f"seats[{seat}]", offered)
            for seat, name in enumerate(body.seats)
        ]
        options = _table_options(body, offered, limits)
        if body.sit is not None and (body.sit >= rules.players or body.seats[body.sit] != OPEN):
            raise ApiError(422, 'sit: the seat you sit in must be one of the seats "open"')
        player_name = " ".join((body.player or "Guest").split())
        if body.sit is not None and (not player_name or not player_name.isprintable()):
            raise ApiError(422, "player: must be printable text")
        if body.seed is not None and not hub().allow_seeds:
            raise ApiError(422, "seed: this server deals its own cards")
        name = body.name.strip() if body.name and body.name.strip() else None
        client = client_address(request)
        await may_create(client)
        if hub().playing() >= limits.max_live_tables:
            metrics.refused("server_full")
            raise ApiError(
                503,
                "the server has as many tables as it can play; try later",
                {"Retry-After": str(int(limits.sweep_seconds) + 1)},
            )
        await take_token(creating, request, "table")
        account = None
        if body.sit is not None:  # an account's name is its own; a guest's not an account's
            player_name, account = await accounts.seat_name(request, player_name)
        table = await hub().create(rules, seat_players, name, options, body.seed, client)
        made: dict[str, Any] = {"table": table.code, "url": f"/t/{table.code}"}
        if body.sit is not None:  # the maker sits where they chose, before anyone else
            made["token"] = await table.take_seat(body.sit, player_name)
            made["seat"] = body.sit
            await accounts.seat_taken(table.code, body.sit, account, client, device_of(request))
        return made

    @app.post("/api/rules/seating")
    async def rules_seating(body: SeatingIn) -> dict[str, Any]:
        """Who would be whose partner at a table of these rules (the lobby's form)."""
        try:
            rules = make_rules(body.rules.preset, body.rules.variants)
        except FiveHundredError as error:
            raise ApiError(422, f"rules: {error.reason[:200]}") from None
        if body.seat is not None and body.seat >= rules.players:
            raise ApiError(422, f"seat: the {rules.preset} game has seats 0 to {rules.players - 1}")
        return {"players": rules.players, "seating": views.seating(rules, body.seat)}

    @app.get("/api/tables")
    async def list_tables(
        open: Annotated[int, Query(ge=0, le=1)] = 0,
        limit: Annotated[int, Query(ge=1, le=200)] = 50,
    ) -> dict[str, Any]:
        # every server's tables from the database (a dormant one from its row alone)
        return {"tables": await hub().lobby(bool(open), limit)}

    @app.get("/api/tables/{code}")
    async def get_table(
        code: str, seat: Annotated[int | None, Query(ge=0, lt=6)] = None
    ) -> dict[str, Any]:
        table = await table_or_404(code)
        viewer = seat if seat is not None and seat < table.rules.players else None
        # (the words the page says for its cards: the table page's, not the lobby list's;
        # who sits with whom, as seen from ``seat`` when asked)
        return {
            **table.public_facts(),
            "words": views.card_words_of(table.rules),
            "seating": views.seating(table.rules, viewer),
        }

    @app.post("/api/tables/{code}/seats/{seat}")
    async def take_seat(code: str, seat: int, body: SeatIn, request: Request) -> dict[str, Any]:
        table = await table_or_404(code)
        if not 0 <= seat < len(table.seats):
            raise ApiError(404, f"table {table.code} has seats 0 to {len(table.seats) - 1}")
        await app.state.clubs.may_sit(table.code, request)  # a club's table: its members'
        name = body.name.strip()
        if not name or not name.isprintable():
            raise ApiError(422, "name: must be printable text")
        await take_token(seating, request, "seat")
        name, account = await accounts.seat_name(request, name)  # an account's name is its own
        try:
            token = await table.take_seat(seat, name)
        except Refusal as refusal:
            raise ApiError(409, str(refusal)) from None
        await accounts.seat_taken(
            table.code, seat, account, client_address(request), device_of(request)
        )
        return {"seat": seat, "token": token}

    @app.post("/api/tables/{code}/rematch")
    async def rematch(code: str, request: Request, body: RematchIn | None = None) -> dict[str, Any]:
        """The same table again after its game (live.Hub.rematch), asked by one of its
        players: by the seat's token, or by the session of the account holding it."""
        table = await table_or_404(code)
        seat = None
        if body is not None and body.token:
            seat = table.seat_of_token(body.token)
        else:
            account = await accounts.current(request)
            if account is not None:
                seat = await accounts.call(accounts.store.seat_of, table.code, account.id)
        if seat is None:
            raise ApiError(403, "only the players of this table can start its rematch")
        try:
            new, token = await hub().rematch(
                table, seat, client_address(request), device_of(request)
            )
        except Refusal as refusal:
            raise ApiError(409, str(refusal)) from None
        return {"table": new.code, "url": f"/t/{new.code}", "seat": seat, "token": token}

    @app.get("/api/tables/{code}/record")
    async def table_record(code: str) -> dict[str, Any]:
        await seals.refuse_record(store, table := await table_or_404(code))
        return table.record()

    # ------------------------------------------------------------------ history
    @app.get("/api/games")
    async def games(
        page: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 1,
        per_page: Annotated[int, Query(ge=1, le=100)] = 20,
    ) -> dict[str, Any]:
        rows, total = await store.call(store.store.finished_games, page, per_page)
        return {
            "games": [
                {
                    "table": r.code,
                    "name": r.name,
                    "rules": r.rules,
                    "players": [s.name or s.player or OPEN for s in r.seats],
                    "scores": r.scores,
                    "winner": r.winner,
                    "hands": r.hands_played,
                    "finished": _iso(r.finished),
                }
                for r in rows
            ],
            "page": page,
            "per_page": per_page,
            "total": total,
        }

    @app.get("/api/players/{name}")
    async def player(name: str) -> dict[str, Any]:
        if not 1 <= len(name) <= 60:
            raise ApiError(422, "name: 1 to 60 characters")
        places = await store.call(store.store.player_places, name, players.STATS_GAMES)
        if not places:
            raise ApiError(404, f"no games of {shown(name, 30)}")
        rated = await accounts.call(accounts.store.rated_among, [p.table.code for p in places])
        # the logs are replayed off the event loop and off the store's thread
        stats = await asyncio.to_thread(players.player_stats, name, places, rated)
        stats["reviews"] = await reviews.of_name(name)  # accuracy by phase over time
        # one page per person: the account of this name, whose ratings are on /account/NAME
        found = await accounts.call(accounts.store.by_name, name)
        stats["account"] = found[0].name if found is not None else None
        return stats

    @app.get("/api/server")
    async def server_stats() -> dict[str, Any]:
        return hub().stats()

    # ------------------------------------------------------------------ service
    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        """Liveness: the server answers."""
        return {"status": "ok"}

    readiness: dict[str, str] = {}  # the readiness problem last logged

    @app.get("/readyz")
    async def readyz() -> JSONResponse:
        """Readiness: the database answers (within 5 s) and the search players are ready."""
        problems = []
        try:
            await asyncio.wait_for(store.call(store.store.ping), 5.0)
        except Exception as error:
            # the driver's words (host, port, socket path) go to the log, once an outage;
            # the public is told what, not where
            detail = str(error).splitlines()[0][:300] if str(error) else type(error).__name__
            problems.append("database: not answering")
            if "database" not in readiness:  # once, when it stops answering
                log.warning("not ready: the database does not answer: %s", detail)
            readiness["database"] = detail
        else:
            if readiness.pop("database", None) is not None:
                log.warning("ready: the database answers again")
        if not hub().decider.search_ready:
            problems.append("solver: still being prepared in the worker processes")
        if problems:
            return JSONResponse({"status": "not ready", "problems": problems}, status_code=503)
        return JSONResponse({"status": "ready"})

    @app.get("/metrics", include_in_schema=False)
    async def prometheus() -> Response:
        from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

        return Response(generate_latest(metrics.registry), media_type=CONTENT_TYPE_LATEST)

    app.include_router(history.router)
    app.include_router(pad_web.router)  # the score pad: /pad and its live views
    app.include_router(learn.router)  # the tutorial, the puzzles and the review
    daily_api.install(app)  # the daily duplicate boards (web/daily_api.py)
    clubs_web.install(app, create_table)  # clubs and their tables (web/clubs.py)
    app.include_router(accounts_router(accounts))  # accounts, ratings (web/accounts.py)
    my_games.install(app, accounts)  # an account's games not over (web/my_games.py)
    events.install(app, notices.install(app, store, accounts))  # notices, then tournaments

    # ------------------------------------------------------------------ play now
    async def seat_play_now(preset: str, level: str, group: list[Any]) -> list[dict[str, Any]]:
        """A new table of ``preset``: the people of ``group`` in its first seats, ``level``
        in the others (web/matchmaking.py)."""
        rules = make_rules(preset)
        if len(hub().live_tables()) >= limits.max_live_tables:
            raise RuntimeError("the server has as many tables as it can play")
        seats = [OPEN] * len(group) + [level] * (rules.players - len(group))
        options = dict(matchmaker.options)
        table = await hub().create(rules, seats, "Play now", options, None, group[0].client)
        answers = []
        for seat, entry in enumerate(group):
            token = await table.take_seat(seat, entry.name)
            held = (
                None if entry.account_id is None else Account(entry.account_id, entry.name, False)
            )
            await accounts.seat_taken(table.code, seat, held, entry.client, entry.device)
            answers.append(
                {"table": table.code, "url": f"/t/{table.code}", "seat": seat, "token": token}
            )
        return answers

    async def who_plays(request: Request, name: str, preset: str) -> tuple[str, Any, float, str]:
        # a press may make a table: the limits of creating one (per address) apply
        client = client_address(request)
        await may_create(client)
        await take_token(creating, request, "table")
        name, account = await accounts.seat_name(request, name)
        rating = 0.0
        if account is not None:
            rating = await accounts.call(accounts.store.rating_of, account.id, preset)
        return name, account, rating, client

    matchmaker = Matchmaker(seat_play_now, offered, OptionsIn().model_dump(), store=store)
    app.state.matchmaker = matchmaker
    app.include_router(play_now_router(matchmaker, who_plays))  # web/matchmaking.py

    # ------------------------------------------------------------------ play
    @app.websocket("/ws/tables/{code}")
    async def play(websocket: WebSocket, code: str, token: str | None = None) -> None:
        await websocket.accept()
        if not _origin_allowed(websocket, limits):
            log.warning(
                "refused a WebSocket from %s", shown(websocket.headers.get("origin", ""), 80)
            )
            metrics.refused("ws_origin")
            await websocket.close(4403, "connections from another site are refused")
            return
        table = await hub().get(code)
        if table is None:
            await websocket.close(4404, close_reason(f"no table {shown(code)}"))
            return
        if table.closed is not None and not table.model.is_over:
            await websocket.close(4410, "this table was closed: nobody played at it for a while")
            return
        seat = views.SPECTATOR
        if token is not None:
            found = table.seat_of_token(token)
            if found is None:
                await websocket.close(4401, "this token holds no seat at this table")
                return
            seat = found
        elif (held := await accounts.seat_of_session(websocket, table.code)) is not None:
            seat = held  # the session's account holds a seat here (any device)
        elif (refused := await spectator_refused(store, metrics, table, websocket)) is not None:
            await websocket.close(*refused)
            return
        conn = Connection(websocket, seat, table.seat_name(seat) if seat >= 0 else "spectator")
        conn.client = client_address(websocket)  # the per-address limits (hints)
        conn.device = device_of(websocket)  # the ratings (a rematch's seat)
        sender = websocket_sender(conn)
        table.attach(conn)
        recent: deque[float] = deque()
        try:
            while not conn.closing:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text = message.get("text")
                if text is None:
                    data = message.get("bytes") or b""
                    if len(data) > MAX_MESSAGE:
                        metrics.refused("ws_too_large")
                        conn.close(1009, f"messages are limited to {MAX_MESSAGE} bytes")
                        break
                    text = data.decode("utf-8", "replace")
                if len(text) > MAX_MESSAGE:
                    metrics.refused("ws_too_large")
                    conn.close(1009, f"messages are limited to {MAX_MESSAGE} bytes")
                    break
                started = time.perf_counter()
                moved = await table.handle(conn, text)
                metrics.messages.observe(time.perf_counter() - started)
                if moved:
                    continue
                now = time.monotonic()
                recent.append(now)
                while recent and now - recent[0] > 1.0:
                    recent.popleft()
                if len(recent) > FLOOD_PER_SECOND:
                    metrics.refused("ws_flood")
                    log.warning("table %s: closed a flooding connection", table.code)
                    conn.close(1008, f"too many messages (over {FLOOD_PER_SECOND} a second)")
                    break
        except WebSocketDisconnect:
            pass
        except Exception:
            log.exception("table %s: connection error", table.code)
            conn.close(1011, "server error (logged)")
        finally:
            table.detach(conn)
            if not conn.closing:
                conn.close(1000, "bye")
            with contextlib.suppress(Exception):
                await sender

    return app


def websocket_sender(conn: Connection) -> Any:
    import asyncio

    return asyncio.get_running_loop().create_task(conn.sender())
