"""The daily at scale on PostgreSQL with two servers: a field of ``--field`` entries (10,000
by default) on one day, how soon the standings and a board's review show the last entry,
and the latency of a move while the day's pars are worked out.

The bench makes its own database on the PostgreSQL server of ``--pg`` (by default
``$FIVEHUNDRED_TEST_PG_URL``'s server: a database ``fh_bench_daily_<pid>``, dropped at the
end) and starts two ``fivehundred serve`` processes on it (no search workers, level
``--level``).

1. Both servers make the day: each starts working out the day's pars in the background.
   While they do, ``--players`` entries are played through the routes, their moves going
   to the two servers in turn (each entry's South choosing at random among its legal
   moves, seeded): the latency of each move (``POST .../act``) is kept, apart for the
   moves made while some par was still unknown.
2. The field: ``--field`` entries, each with a result on every board, written to the
   database as the service writes them (``web.daily.result_row``), in batches; each
   result is one of a pool of hands played out on the board (``--pool`` a board, the
   computer players of ``--pool-level``; each a real hand whose record replays).
3. The last entry: one more entry played through the routes on the first server (while
   a viewer asks the second server for the day's table every second); from its last move, how long until the second server's day table counts its last board, and until its
   review of the last board (on the second server) counts it against the field, and the
   time the second server's table takes to answer.

A figure from a shared two-core machine (the servers, PostgreSQL and this client on the
same two cores) is an upper bound.

    python bench/bench_daily_field.py [--field 10000] [--players 4] [--pg URL]
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from datetime import date
from typing import Any

import sqlalchemy as sa

import bench_daily
from fivehundred.daily import today
from fivehundred.web.schema import daily_pars

Client = bench_daily.Client
load_field = bench_daily.load_field


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[int(share * (len(ordered) - 1))] if ordered else float("nan")


def start_servers(
    url: str, count: int, level: str
) -> tuple[list[subprocess.Popen[bytes]], list[int]]:
    work = tempfile.mkdtemp(prefix="bench-daily-field-")
    env = {
        **os.environ,
        "FIVEHUNDRED_DATA_DIR": work,
        "FIVEHUNDRED_DAILY_SECRET": "bench-field",
        "FIVEHUNDRED_DAILY_LEVEL": level,
    }
    servers, ports = [], []
    for _ in range(count):
        port = free_port()
        servers.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "fivehundred",
                    "serve",
                    "--port",
                    str(port),
                    "--db",
                    url,
                    "--log-level",
                    "warning",
                    "--workers",
                    "0",
                ],
                env=env,
            )
        )
        ports.append(port)
    for port in ports:
        for _ in range(600):
            try:
                Client(port).call("GET", "/api/daily")  # the day is made: its pars start
                break
            except OSError:
                time.sleep(0.2)
        else:
            raise RuntimeError(f"the server on port {port} did not start")
    return servers, ports


def play_entry(
    clients: list[Client], rng: random.Random, name: str
) -> tuple[str, list[tuple[float, float]]]:
    """A whole day of an entry through the routes, each request to the next server in
    turn: the token, and each move's (moment, latency)."""
    turn = 0

    def call(method: str, path: str, body: dict[str, Any]) -> Any:
        nonlocal turn
        turn += 1
        return clients[turn % len(clients)].call(method, path, body)

    view = call("POST", "/api/daily/entries", {"name": name})
    token = view["token"]
    moves: list[tuple[float, float]] = []
    while True:
        while view["status"] == "playing":
            choice = rng.choice(view["table"]["legal"])
            start = time.perf_counter()
            view = call("POST", f"/api/daily/entries/{token}/act", {"action": choice["action"]})
            moves.append((start, time.perf_counter() - start))
        if view["status"] == "day_over":
            return token, moves
        view = call("POST", f"/api/daily/entries/{token}/next", {})


def watch_pars(engine: sa.Engine, when: date, boards: int, done: list[float]) -> None:
    """Note the moment every par of the day is in the database."""
    query = sa.select(sa.func.count()).where(daily_pars.c.day == when.isoformat())
    while True:
        with engine.connect() as db:
            if db.execute(query).scalar() >= boards:
                done.append(time.perf_counter())
                return
        time.sleep(0.25)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--field", type=int, default=10_000)
    parser.add_argument(
        "--players",
        type=int,
        default=4,
        help="entries played through the routes while the pars are worked out",
    )
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--pool", type=int, default=40)
    parser.add_argument("--pool-level", default="heuristic")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pg", default=os.environ.get("FIVEHUNDRED_TEST_PG_URL", ""))
    args = parser.parse_args()
    if not args.pg:
        parser.error("--pg (or $FIVEHUNDRED_TEST_PG_URL) names the PostgreSQL server")
    base = sa.engine.make_url(args.pg)
    name = f"fh_bench_daily_{os.getpid()}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as db:
        db.execute(sa.text(f'CREATE DATABASE "{name}"'))
    url = base.set(database=name).render_as_string(hide_password=False)
    engine = sa.create_engine(url)
    servers: list[subprocess.Popen[bytes]] = []
    rng = random.Random(args.seed)
    try:
        when = today()
        servers, ports = start_servers(url, args.servers, args.level)
        pars_done: list[float] = []
        watcher = threading.Thread(
            target=watch_pars, args=(engine, when, 12, pars_done), daemon=True
        )
        watcher.start()
        clients = [Client(port) for port in ports]
        moves: list[tuple[float, float]] = []
        for k in range(args.players):
            moves += play_entry(clients, rng, f"player {k}")[1]
        watcher.join(timeout=600)
        done_at = pars_done[0] if pars_done else float("inf")
        during = [lat for at, lat in moves if at < done_at]
        after = [lat for at, lat in moves if at >= done_at]
        for label, lats in (("while the pars were worked out", during), ("after", after)):
            if lats:
                print(
                    f"moves {label}: {len(lats)}, latency p50 {statistics.median(lats) * 1000:.1f} ms, "
                    f"p99 {percentile(lats, 0.99) * 1000:.1f} ms, max {max(lats) * 1000:.1f} ms",
                    flush=True,
                )
        took = load_field(engine, when, args.field, args.pool, args.pool_level, rng, past=False)
        print(
            f"the field: {args.field} entries, {12 * args.field} results written in {took:.1f} s",
            flush=True,
        )
        total = args.field + args.players + 1
        clients = [Client(port) for port in ports]  # idle connections: new ones
        first, second = clients[0], clients[-1]
        start = time.perf_counter()
        table = second.call("GET", "/api/daily/table")
        print(
            f"the second server's table of the day (once): {time.perf_counter() - start:.2f} s, {table['entrants']} entrants",
            flush=True,
        )
        # the last entry, played on the first server while someone looks at the second
        # server's table every second; then the second counts it
        looking = threading.Event()

        def look() -> None:
            viewer = Client(ports[-1])
            while not looking.wait(1.0):
                viewer.call("GET", "/api/daily/table")

        viewer = threading.Thread(target=look, daemon=True)
        viewer.start()
        token, _ = play_entry([first], rng, "the last entry")
        looking.set()
        viewer.join()
        last = time.perf_counter()
        seen: dict[str, float] = {}
        answers: list[float] = []

        def watch_review() -> None:
            reviewer = Client(ports[-1])
            while time.perf_counter() - last < 60:
                review = reviewer.call("GET", f"/api/daily/entries/{token}/boards/12/review")
                if review["results"] >= total:
                    seen["review"] = time.perf_counter() - last
                    return

        reviewing = threading.Thread(target=watch_review, daemon=True)
        reviewing.start()
        while time.perf_counter() - last < 60:
            ask = time.perf_counter()
            table = second.call("GET", "/api/daily/table")
            answers.append(time.perf_counter() - ask)
            if table.get("results", 0) >= 12 * total:
                seen["table"] = time.perf_counter() - last
                break
        reviewing.join()
        seen_table, seen_review = seen.get("table"), seen.get("review")
        print(
            f"the last entry's day counted by the second server's table after {seen_table} s, "
            f"its last board in the review against the field after {seen_review} s "
            f"(the table answered in {statistics.median(answers):.2f} s median, "
            f"{max(answers):.2f} s at most, over {len(answers)} asks)",
            flush=True,
        )
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            with contextlib.suppress(subprocess.TimeoutExpired):
                server.wait(10)
        engine.dispose()
        with admin.connect() as db:
            db.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
