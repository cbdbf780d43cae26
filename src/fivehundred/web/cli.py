"""``fivehundred serve``: the game server for the browser."""

from __future__ import annotations

import argparse
import contextvars
import dataclasses
import gc
import json
import logging
import os
import re
import signal
import socket
import sys
import time
from typing import Any

from fivehundred.record_cli import OneLineParser

#: The collector's thresholds while serving (Python's defaults: 700, 10, 10).
GC_THRESHOLD = (5_000, 20, 20)
_TOKEN = re.compile(r"token=[^&\s\"']+")


class RedactTokens(logging.Filter):
    """Seat tokens travel in the WebSocket URL: keep them out of the logs."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                _TOKEN.sub("token=…", a) if isinstance(a, str) else a for a in record.args
            )
        if isinstance(record.msg, str):
            record.msg = _TOKEN.sub("token=…", record.msg)
        return True


#: The request being answered (``GET /api/tables/ABC``, no query: seat tokens travel in
#: it) and its table's code, for the log lines written meanwhile (:class:`LogContext`).
REQUEST: contextvars.ContextVar[tuple[str, Any] | None] = contextvars.ContextVar(
    "request", default=None
)
TABLE: contextvars.ContextVar[str | None] = contextvars.ContextVar("table", default=None)
_TABLE_PATH = re.compile(r"^/(?:ws/tables|api/tables|t)/([A-Za-z0-9]{1,12})(?:/|$)")
#: Requests of the proxies and the monitoring, not logged unless --log-level debug.
CHECK_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})


class LogContext:
    """ASGI wrapper: the request (method and path) and the table it names are in every
    log line written while it is answered (the JSON lines' ``request`` and ``table``)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        path = str(scope.get("path", ""))[:200]
        method = scope.get("method", "GET") if scope["type"] == "http" else "WebSocket"
        match = _TABLE_PATH.match(path)
        request = REQUEST.set((f"{method} {path}", _task()))
        table = TABLE.set(match.group(1) if match else None)
        try:
            await self.app(scope, receive, send)
        finally:
            REQUEST.reset(request)
            TABLE.reset(table)


def _task() -> Any:
    """The asyncio task running now, if any (a request's lines are those of its own task:
    a table's task started while answering it is not the request)."""
    import asyncio

    try:
        return asyncio.current_task()
    except RuntimeError:
        return None


class QuietChecks(logging.Filter):
    """Health checks and scrapes that succeed are not logged (a proxy asks every second)."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        # uvicorn.access: (client, method, path with query, HTTP version, status)
        if record.name == "uvicorn.access" and isinstance(args, tuple) and len(args) == 5:
            path = str(args[2]).split("?", 1)[0]
            status = args[4]
            if path in CHECK_PATHS and isinstance(status, int) and status < 400:
                return False
        return True


def _outage(exc: BaseException | None) -> BaseException | None:
    """The database error (connection refused, lost, timed out) behind ``exc``, if any."""
    seen = 0
    while exc is not None and seen < 10:
        kind = type(exc)
        module = kind.__module__ or ""
        if kind.__name__ in ("OperationalError", "InterfaceError") and (
            module.startswith("sqlalchemy") or module.startswith("psycopg")
        ):
            return exc
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return None


class OutageLines(logging.Filter):
    """A database outage is one line per event, not a traceback per click: an error whose
    cause is the database's connection loses its traceback (the line names the cause), and
    lines of one kind (logger and message) come at most ``burst`` times per ``window``
    seconds; the next one says how many were left out."""

    def __init__(self, window: float = 60.0, burst: int = 3) -> None:
        super().__init__()
        self.window = window
        self.burst = burst
        self._seen: dict[tuple[str, str], tuple[float, int, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        cause = _outage(exc)
        if cause is None:
            return True
        first = (str(getattr(cause, "orig", None) or cause).strip().splitlines() or [""])[0]
        if record.args:  # the driver's words are not a format
            first = first.replace("%", "%%")
        record.msg = (
            f"{record.msg}: the database is unavailable ({type(cause).__name__}: {first[:300]})"
        )
        record.exc_info = None
        record.exc_text = None
        key = (record.name, str(record.msg))
        now = time.monotonic()
        since, count, left_out = self._seen.get(key, (now, 0, 0))
        if now - since > self.window:
            since, count = now, 0
        if count >= self.burst:
            self._seen[key] = (since, count, left_out + 1)
            return False
        if left_out:
            record.msg = f"{record.msg} ({left_out} more like it not logged)"
        self._seen[key] = (since, count + 1, 0)
        if len(self._seen) > 1000:
            self._seen.clear()
        return True


class JsonLines(logging.Formatter):
    """One JSON object a line: time, level, logger, message (and the exception's text);
    ``server`` (this server's address and process), ``request`` and ``table`` where they
    apply."""

    def __init__(self, server: str | None = None) -> None:
        super().__init__()
        self.server = server

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if self.server is not None:
            entry["server"] = self.server
        table = getattr(record, "table", None) or TABLE.get()
        if (
            table is None
            and isinstance(record.msg, str)
            and record.msg.startswith("table %s")
            and isinstance(record.args, tuple)
            and record.args
        ):
            table = str(record.args[0])
        if table is not None:
            entry["table"] = table
        request = REQUEST.get()
        if request is not None and request[1] is _task():
            entry["request"] = request[0]
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False)


#: Environment variables of the options other than the limits (each limit ``--NAME`` has
#: ``FIVEHUNDRED_NAME``, in capitals with underscores).
ENV = {
    "host": "FIVEHUNDRED_HOST",
    "port": "FIVEHUNDRED_PORT",
    "db": "FIVEHUNDRED_DB",
    "workers": "FIVEHUNDRED_WORKERS",
    "log_level": "FIVEHUNDRED_LOG_LEVEL",
    "log_format": "FIVEHUNDRED_LOG_FORMAT",
    "forwarded_allow_ips": "FIVEHUNDRED_FORWARDED_ALLOW_IPS",
}
_LIMIT_HELP = {
    "allowed_hosts": "host names the server answers to, separated by commas (default: "
    "localhost and IP addresses; '*': any; '.example.org': the domain and its subdomains)",
    "max_body": "largest request body of the game's API in bytes (default %(default)s)",
    "json_depth": "deepest JSON nesting in a body or message (default %(default)s)",
    "create_per_minute": "tables one address may create a minute (default %(default)s)",
    "create_burst": "tables one address may create at once (default %(default)s)",
    "seat_per_minute": "seats one address may take a minute (default %(default)s)",
    "seat_burst": "seats one address may take at once (default %(default)s)",
    "tables_per_client": "unfinished tables one address may have (default %(default)s)",
    "max_live_tables": "unfinished tables the server plays at once (default %(default)s)",
    "expire_unjoined": "seconds before a table nobody sits at or watches is closed "
    "(default %(default)s)",
    "expire_abandoned": "seconds before a table whose people all left is closed "
    "(default %(default)s)",
    "open_seat_grace": "seconds before the stand-in plays a seat nobody took (default %(default)s)",
    "min_move_clock": "shortest clock per move of a turn-based table, seconds "
    "(default %(default)s)",
    "decision_seconds": "wall-clock ceiling of one computer decision (default %(default)s)",
    "sweep_seconds": "how often idle tables leave memory, seconds (default %(default)s)",
    "event_delay": "the computer players' pause between moves at tournament and club night "
    "tables, seconds (default %(default)s)",
    "docs": "serve the API's description at /docs and /openapi.json",
}


def env_name(dest: str) -> str:
    return ENV.get(dest, "FIVEHUNDRED_" + dest.upper())


def unknown_variables(environ: Any) -> list[str]:
    """A line for each ``FIVEHUNDRED_…`` variable of ``environ`` that is no setting of the
    server (a misspelt one would be silently ignored), naming the setting meant if clear."""
    import difflib

    known = serve_variables()
    lines = []
    for name in sorted(environ):
        if not name.startswith("FIVEHUNDRED_") or name in known:
            continue
        if name.startswith(("FIVEHUNDRED_TEST_", "FIVEHUNDRED_SCREENSHOTS", "FIVEHUNDRED_EVERY")):
            continue  # the project's own tests
        close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.8)
        meant = f" (did you mean {close[0]}?)" if close else ""
        lines.append(f"{name} is not a setting of fivehundred serve: ignored{meant}")
    return lines


def serve_variables() -> set[str]:
    """Every environment variable ``fivehundred serve`` reads."""
    from fivehundred.datadir import ENV_DATA_DIR
    from fivehundred.web.daily import DAILY_VARIABLES
    from fivehundred.web.guard import Limits
    from fivehundred.web.notices import NOTICE_VARIABLES

    names = {env_name(dest) for dest in [*ENV, *Limits.names(), "cluster", "review_games"]}
    return names | {"FIVEHUNDRED_SECURE_COOKIES", ENV_DATA_DIR, *DAILY_VARIABLES, *NOTICE_VARIABLES}


TRUE = ("1", "true", "yes", "on")
FALSE = ("0", "false", "no", "off")
LOG_LEVELS = ("debug", "info", "warning", "error")
LOG_FORMATS = ("text", "json")


def _env_default(parser: Any, dest: str, default: Any, kind: Any) -> Any:
    """The option's default from its environment variable (refused clearly if bad)."""
    text = os.environ.get(env_name(dest))
    if text is None or text.strip() == "":
        return default
    text = text.strip()
    if kind is bool:
        if text.lower() in TRUE:
            return True
        if text.lower() in FALSE:
            return False
        parser.error(f"{env_name(dest)} must be true or false (1 or 0), got {text!r}")
    if isinstance(kind, tuple):  # one of these words, in any case
        if text.lower() in kind:
            return text.lower()
        parser.error(f"{env_name(dest)} must be one of {', '.join(kind)}, got {text!r}")
    if kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            parser.error(f"{env_name(dest)} must be a number, got {text!r}")
    return text


def parse_serve_args(argv: list[str]) -> tuple[Any, Any]:
    """The options of ``fivehundred serve`` (each also from its environment variable) and
    the :class:`~fivehundred.web.guard.Limits` they make; exits 2 on a bad one."""
    from fivehundred.web.guard import Limits, parse_hosts

    parser = OneLineParser(
        prog="fivehundred serve",
        description="Play Five Hundred in the browser: start the game server. "
        "Every option can also be set by its environment variable "
        "(FIVEHUNDRED_ and the option's name, in capitals: "
        "docs/deploy.md).",
    )

    def env(dest: str, default: Any, kind: Any = str) -> Any:
        return _env_default(parser, dest, default, kind)

    parser.add_argument(
        "--host", default=env("host", "127.0.0.1"), help="address to listen on (default 127.0.0.1)"
    )
    parser.add_argument(
        "--port", type=int, default=env("port", 8500, int), help="port (default 8500)"
    )
    parser.add_argument(
        "--db",
        default=env("db", None),
        metavar="URL",
        help="database URL (default: SQLite in the data directory; "
        "postgresql+psycopg://user@host/db for PostgreSQL)",
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=env("workers", None, int),
        help="processes for the search players (default: by the CPUs)",
    )
    parser.add_argument("--allow-seeds", action="store_true", help=argparse_hidden())
    parser.add_argument(
        "--cluster",
        action=argparse.BooleanOptionalAction,
        default=env("cluster", None, bool),
        help="on PostgreSQL (the default there), share the tables with every other server "
        "of the same database; --no-cluster: this server is the database's only one "
        "(docs/deploy.md; env FIVEHUNDRED_CLUSTER=0 or 1)",
    )
    parser.add_argument(
        "--review-games",
        action=argparse.BooleanOptionalAction,
        default=env("review_games", True, bool),
        help="review each finished game in the background for the player pages: accuracy "
        "by phase, as `fivehundred analyse --review` (CPU; default on; env "
        "FIVEHUNDRED_REVIEW_GAMES=0 turns it off)",
    )
    parser.add_argument(
        "--log-level",
        type=str.lower,
        default=env("log_level", "info", LOG_LEVELS),
        choices=LOG_LEVELS,
        help="how much the server logs (default: info)",
    )
    parser.add_argument(
        "--log-format",
        type=str.lower,
        default=env("log_format", "text", LOG_FORMATS),
        choices=LOG_FORMATS,
        help="text, or json: one JSON object a line (default: text)",
    )
    parser.add_argument(
        "--forwarded-allow-ips",
        default=env("forwarded_allow_ips", None),
        metavar="ADDRESSES",
        help="the reverse proxies whose X-Forwarded-For and X-Forwarded-Proto "
        "are trusted (comma-separated; default: none)",
    )
    defaults = Limits()
    for spec in dataclasses.fields(Limits):
        name = spec.name
        flag = "--" + name.replace("_", "-")
        default = getattr(defaults, name)
        if name == "allowed_hosts":
            parser.add_argument(
                flag, default=env(name, None), metavar="HOSTS", help=_LIMIT_HELP[name]
            )
        elif isinstance(default, bool):
            parser.add_argument(
                flag, action="store_true", default=env(name, default, bool), help=_LIMIT_HELP[name]
            )
        else:
            kind = type(default)
            parser.add_argument(
                flag,
                type=kind,
                default=env(name, default, kind),
                metavar="N",
                help=_LIMIT_HELP[name],
            )
    secure = os.environ.get("FIVEHUNDRED_SECURE_COOKIES", "").strip().lower()
    if secure and secure not in TRUE + FALSE:
        parser.error(f"FIVEHUNDRED_SECURE_COOKIES must be 1 or 0, got {secure!r}")
    args = parser.parse_args(argv)
    args.secure_cookies = (secure in TRUE) if secure else None
    if not 0 <= args.port <= 65535:
        parser.error(f"--port must be 0..65535, got {args.port}")
    if args.workers is not None and args.workers < 0:
        parser.error("--workers must be 0 or more")
    values = {name: getattr(args, name) for name in Limits.names()}
    values["allowed_hosts"] = parse_hosts(args.allowed_hosts)
    limits = Limits(**values)
    try:
        limits.check()
    except ValueError as error:
        parser.error(f"--{error}")
    return args, limits


def configure_logging(level: str, form: str, server: str) -> logging.Handler:
    """The server's logging: text or JSON lines (each with the ``server``: its address and
    process id) on standard error; seat tokens redacted; successful health checks and
    scrapes left out unless ``debug``; a database outage without tracebacks, rate-limited."""
    handler = logging.StreamHandler()
    if form == "json":
        handler.setFormatter(JsonLines(f"{server} pid {os.getpid()}"))
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(RedactTokens())
    handler.addFilter(OutageLines())
    if level != "debug":
        handler.addFilter(QuietChecks())
    logging.basicConfig(level=level.upper(), handlers=[handler], force=True)
    for name in ("uvicorn", "uvicorn.access", "uvicorn.error", "fivehundred.web"):
        # every line through the one handler above, whatever configured these loggers
        # before (uvicorn's own logging config gives them handlers that do not propagate)
        logger = logging.getLogger(name)
        logger.handlers.clear()
        logger.propagate = True
        logger.disabled = False
        logger.setLevel(logging.NOTSET)
        if name != "uvicorn":
            logger.addFilter(RedactTokens())
    return handler


def sqlite_lock(url: str) -> Any:
    """Hold the exclusive lock of a SQLite database's lock file (``DATABASE.lock``) for the
    life of the process, or raise :class:`OSError` with one line: SQLite serves one server
    (several share a PostgreSQL database). None for other databases and ``:memory:``."""
    import fcntl

    if not url.startswith("sqlite") or "///" not in url:
        return None
    path = url.split("///", 1)[1].split("?", 1)[0]
    if not path or path == ":memory:":
        return None
    lock_path = os.path.expanduser(path) + ".lock"
    os.makedirs(os.path.dirname(os.path.abspath(lock_path)), exist_ok=True)
    handle = open(lock_path, "a")  # noqa: SIM115  (held until the process ends)
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise OSError(
            f"another server already uses the SQLite database {path}; SQLite serves "
            "one process (several servers share a PostgreSQL database: "
            "docs/deploy.md)"
        ) from None
    return handle


def serve_main(argv: list[str]) -> int:
    args, limits = parse_serve_args(argv)

    import uvicorn

    from fivehundred.datadir import data_dir
    from fivehundred.web.server import create_app
    from fivehundred.web.store import StoreError

    configure_logging(args.log_level, args.log_format, f"{args.host}:{args.port}")
    for line in unknown_variables(os.environ):
        logging.getLogger("fivehundred.web").warning("%s", line)
    from fivehundred.web.accounts import AccountsConfig
    from fivehundred.web.store import default_db_url

    try:
        held = sqlite_lock(args.db or default_db_url())
    except OSError as error:
        print(f"fivehundred serve: {error}", file=sys.stderr)
        return 2
    try:
        app = create_app(
            args.db,
            workers=args.workers,
            allow_seeds=args.allow_seeds,
            limits=limits,
            cluster=args.cluster,
            review_games=args.review_games,
            accounts_config=AccountsConfig(secure_cookie=args.secure_cookies),
        )
    except (StoreError, ValueError) as error:  # ValueError: the SMTP settings
        print(f"fivehundred serve: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(
            f"fivehundred serve: cannot use the data directory {data_dir()}: {error}",
            file=sys.stderr,
        )
        return 2
    # What is loaded by now lives as long as the server: out of the collector's way, so
    # that its full collections stay short (they would stall every table).
    gc.collect()
    gc.freeze()
    # Each action makes a burst of short-lived objects (views, the table's next state) that
    # reference counting frees; collecting less often spends less time finding no cycles.
    gc.set_threshold(GC_THRESHOLD[0], GC_THRESHOLD[1], GC_THRESHOLD[2])
    try:
        sock = socket.create_server((args.host, args.port), reuse_port=False)
    except OSError as error:
        print(
            f"fivehundred serve: cannot listen on {args.host}:{args.port}: {error.strerror}",
            file=sys.stderr,
        )
        return 2
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    banner = f"Five Hundred is being served: open http://{shown}:{port}/ (Ctrl-C stops it)"
    if args.log_format == "json":  # every line of the output is a JSON object
        logging.getLogger("fivehundred.web").warning("%s", banner)
    else:
        print(banner, flush=True)
    # no per-message compression: views are small, and compressing each costs more CPU
    # than it saves on a LAN
    proxy = args.forwarded_allow_ips
    from fivehundred.web.guard import serving_protocol

    trusted = [a.strip() for a in (proxy or "").split(",") if a.strip()]
    config = uvicorn.Config(
        LogContext(app),
        http=serving_protocol(trusted),  # connections per address, request-head timeout
        log_level=args.log_level,
        ws_max_size=65536,
        ws_per_message_deflate=False,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        timeout_graceful_shutdown=5,
        log_config=None,
        proxy_headers=bool(proxy),
        forwarded_allow_ips=proxy or None,
    )
    server = uvicorn.Server(config)
    # uvicorn raises the signal that stopped it again once it has stopped: with the default
    # handler the process would die of it without running its exit handlers, and the
    # semaphores of the worker pools' queues would be reported leaked by multiprocessing's
    # resource tracker (two lines that are not JSON). Ended by this handler instead, the
    # process exits normally (status 0 for SIGTERM, 130 for Ctrl-C) and frees them.
    signal.signal(signal.SIGTERM, _stopped)
    signal.signal(signal.SIGINT, _stopped)
    server.run(sockets=[sock])
    del held
    return 0


def _stopped(signum: int, frame: Any) -> None:
    raise SystemExit(130 if signum == signal.SIGINT else 0)


def argparse_hidden() -> str:
    return argparse.SUPPRESS
