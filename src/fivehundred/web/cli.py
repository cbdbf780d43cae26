"""``fivehundred serve``: the game server for the browser."""

from __future__ import annotations

import gc
import logging
import re
import socket
import sys

from fivehundred.record_cli import OneLineParser

#: The collector's thresholds while serving (Python's defaults: 700, 10, 10).
GC_THRESHOLD = (5_000, 20, 20)
_TOKEN = re.compile(r"token=[^&\s\"']+")


class RedactTokens(logging.Filter):
    """Seat tokens travel in the WebSocket URL: keep them out of the logs."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(_TOKEN.sub("token=…", a) if isinstance(a, str) else a
                                for a in record.args)  # fmt: skip
        if isinstance(record.msg, str):
            record.msg = _TOKEN.sub("token=…", record.msg)
        return True


def serve_main(argv: list[str]) -> int:
    parser = OneLineParser(prog="fivehundred serve",
                           description="Play Five Hundred in the browser: start the game server.")  # fmt: skip
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    parser.add_argument("--port", type=int, default=8500, help="port (default 8500)")
    parser.add_argument("--db", default=None, metavar="URL",
                        help="database URL (default: SQLite in the data directory; "
                             "postgresql+psycopg://user@host/db for PostgreSQL)")  # fmt: skip
    parser.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes for the search players (default: by the CPUs)",
    )
    parser.add_argument("--allow-seeds", action="store_true", help=argparse_hidden())
    parser.add_argument("--log-level", default="info",
                        choices=["debug", "info", "warning", "error"],
                        help="how much the server logs (default: info)")  # fmt: skip
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error(f"--port must be 0..65535, got {args.port}")
    if args.workers is not None and args.workers < 0:
        parser.error("--workers must be 0 or more")

    import uvicorn

    from fivehundred.datadir import data_dir
    from fivehundred.web.server import create_app
    from fivehundred.web.store import StoreError

    logging.basicConfig(level=args.log_level.upper(),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")  # fmt: skip
    for name in ("uvicorn.access", "uvicorn.error", "fivehundred.web"):
        logging.getLogger(name).addFilter(RedactTokens())
    try:
        app = create_app(args.db, workers=args.workers, allow_seeds=args.allow_seeds)
    except StoreError as error:
        print(f"fivehundred serve: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"fivehundred serve: cannot use the data directory {data_dir()}: {error}",
              file=sys.stderr)  # fmt: skip
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
        print(f"fivehundred serve: cannot listen on {args.host}:{args.port}: {error.strerror}",
              file=sys.stderr)  # fmt: skip
        return 2
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"Five Hundred is being served: open http://{shown}:{port}/ (Ctrl-C stops it)",
          flush=True)  # fmt: skip
    # no per-message compression: views are small, and compressing each costs more CPU
    # than it saves on a LAN
    config = uvicorn.Config(app, log_level=args.log_level, ws_max_size=65536, ws_per_message_deflate=False,
                            ws_ping_interval=20, ws_ping_timeout=20, timeout_graceful_shutdown=5,
                            log_config=None)  # fmt: skip
    server = uvicorn.Server(config)
    server.run(sockets=[sock])
    return 0


def argparse_hidden() -> str:
    import argparse

    return argparse.SUPPRESS
