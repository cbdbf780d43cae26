"""Turn-based tables at rest: many games open on one server process, no connection held.

Each game is a turn-based table (a clock per move of a day) where one person sits with three
computer players; the benchmark makes ``--games`` of them (each from a loopback address of
its own, as so many visitors), waits until every one waits on its person's clock, and
restarts the server: the server reads none of them at its start (they need no memory). Then
visitors come at ``--rate`` a second for ``--seconds``: each opens a game at random among
those not being played, reads its view over a short WebSocket, makes a move, waits for the
view that answers it, and leaves. Printed: the move answered (from the action sent to the
view of the next version) at p50 and p99, the moves made, the errors, the server's
resident memory (RSS) and the tables it holds in memory, after the start and at the end.

    .venv/bin/python bench/bench_turn_based.py                       # 1,000 games, 30 s
    .venv/bin/python bench/bench_turn_based.py --games 200 --seconds 10
    .venv/bin/python bench/bench_turn_based.py --game-clock 259200   # and 3 days a game
    createdb fh_bench    # an empty database of its own: the benchmark refuses any other
    .venv/bin/python bench/bench_turn_based.py --db postgresql+psycopg://USER@HOST/fh_bench

The server runs as ``fivehundred serve`` in its own process (``--workers 0``: the computer
players here are the random one, which needs no search process) on a fresh SQLite database,
or on ``--db``: as for ``bench_web.py``, an **empty** database made for the benchmark, which
drops every table in it at the end (one with any table in it is refused, untouched).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import sqlalchemy as sa
import websockets

from bench_web import _empty, _get, _percentile, _post, address, not_empty

#: The computer players' seats and the person's (seat 0).
SEATS = ["open", "random", "random", "random"]
CLOCK = 86400.0  # a day a move


def start_server(
    db: str, workdir: str, profile: str | None = None
) -> tuple[subprocess.Popen[bytes], str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen(
        [
            sys.executable,
            *(["-m", "cProfile", "-o", profile] if profile else []),
            "-m",
            "fivehundred",
            "serve",
            "--port",
            str(port),
            "--db",
            db,
            "--log-level",
            "warning",
            "--workers",
            "0",
        ],
        env={**os.environ, "FIVEHUNDRED_DATA_DIR": workdir},
    )
    for _ in range(1200):
        try:
            _get(base, "/api/server")
            return server, base
        except OSError:
            if server.poll() is not None:
                raise RuntimeError("the server exited") from None
            time.sleep(0.1)
    raise RuntimeError("the server did not start")


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user and system, its threads included)."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def make_game(base: str, index: int, game_clock: float | None = None) -> tuple[str, str]:
    """One game (its code, the person's token), made and sat at from an address of its own
    (with ``game_clock``: a clock per game too)."""
    source = address(1, index)
    options = {"delay": 0, "move_clock": CLOCK, "stand_in": "random"}
    if game_clock is not None:
        options["game_clock"] = game_clock
    body = {"seats": SEATS, "options": options}
    code = str(_post(base, "/api/tables", body, source)["table"])
    token = str(_post(base, f"/api/tables/{code}/seats/0", {"name": f"p{index}"}, source)["token"])
    return code, token


def waiting_clocks(db: str) -> int:
    """Tables whose person's clock runs (each waits on its person)."""
    engine = sa.create_engine(db)
    try:
        with engine.connect() as connection:
            query = "SELECT count(*) FROM deadlines WHERE kind = 'turn' AND NOT fired"
            return int(connection.execute(sa.text(query)).scalar() or 0)
    finally:
        engine.dispose()


def choose(view: dict[str, Any], rng: random.Random) -> str:
    """Pass in the auction (the computers bid: no game ends at once at -500); else random."""
    legal: list[str] = view["legal"]
    return "pass" if "pass" in legal else rng.choice(legal)


async def visit(
    base: str, index: int, code: str, token: str, rng: random.Random, totals: dict[str, Any]
) -> None:
    """Open the game, read its view, move, wait for the answer, leave."""
    url = f"{base.replace('http://', 'ws://')}/ws/tables/{code}?token={token}"
    try:
        async with websockets.connect(url, local_addr=(address(1, index), 0)) as ws:
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if message["type"] == "view":
                    break
            view = message["view"]
            if view["table"]["finished"] or not view["legal"]:
                totals["not_my_turn"] += 1
                return
            version = message["version"]
            action = choose(view, rng)
            sent = time.perf_counter()
            await ws.send(json.dumps({"type": "action", "version": version, "action": action}))
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if message["type"] == "error":
                    totals["errors"].append(message["message"])
                    return
                if message["type"] == "view" and message["version"] > version:
                    totals["latencies"].append(time.perf_counter() - sent)
                    return
    except (OSError, TimeoutError, websockets.WebSocketException) as error:
        totals["errors"].append(type(error).__name__)


async def load(
    base: str, games: list[tuple[str, str]], rate: float, seconds: float, seed: int
) -> dict[str, Any]:
    rng = random.Random(seed)
    totals: dict[str, Any] = {"latencies": [], "errors": [], "not_my_turn": 0, "busy": 0}
    idle = set(range(len(games)))
    running: set[asyncio.Task[None]] = set()

    async def one(index: int) -> None:
        try:
            await visit(base, index, *games[index], rng, totals)
        finally:
            idle.add(index)

    start = time.perf_counter()
    next_at = start
    while time.perf_counter() - start < seconds:
        next_at += rng.expovariate(rate)
        await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
        if not idle:
            totals["busy"] += 1
            continue
        index = rng.choice(tuple(idle))
        idle.discard(index)
        task = asyncio.get_running_loop().create_task(one(index))
        running.add(task)
        task.add_done_callback(running.discard)
    if running:
        await asyncio.gather(*running)
    totals["elapsed"] = time.perf_counter() - start
    return totals


def main() -> int:
    parser = argparse.ArgumentParser(description="turn-based tables at rest, on loopback")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--rate", type=float, default=50, help="visitors a second (default 50)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--game-clock",
        type=float,
        default=None,
        help="each game's clock per game too, seconds (at least a day: the move's clock)",
    )
    parser.add_argument(
        "--profile", default=None, help="write the measured server's cProfile statistics here"
    )
    parser.add_argument(
        "--db",
        default=None,
        help="database URL (default: a fresh SQLite file); it must be an empty database made "
        "for the benchmark (createdb fh_bench): one with any table in it is refused, "
        "never touched; the benchmark drops every table it made at the end",
    )
    args = parser.parse_args()
    if args.db is not None:
        refusal = not_empty(args.db)
        if refusal:
            print(f"bench_turn_based.py: {refusal}", file=sys.stderr)
            return 2
    workdir = tempfile.mkdtemp(prefix="bench-turn-")
    db = args.db or f"sqlite:///{workdir}/bench.sqlite3"
    try:
        return run(args, db, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        if db.startswith("postgresql"):
            _empty(db)  # left as it was found: empty


def run(args: argparse.Namespace, db: str, workdir: str) -> int:
    server, base = start_server(db, workdir)
    try:
        started = time.perf_counter()
        with ThreadPoolExecutor(8) as pool:
            games = list(pool.map(lambda i: make_game(base, i, args.game_clock), range(args.games)))
        while waiting_clocks(db) < args.games:
            time.sleep(0.2)
        made = time.perf_counter() - started
    finally:
        server.terminate()
        server.wait(30)
    print(f"{args.games} turn-based games made in {made:.1f} s; each waits on its person")
    server, base = start_server(db, workdir, args.profile)
    try:
        held = _get(base, "/api/server")["tables"]
        print(f"after a restart: {held} tables in memory, RSS {rss_mib(server.pid):.0f} MiB")
        cpu = cpu_seconds(server.pid)
        totals = asyncio.run(load(base, games, args.rate, args.seconds, args.seed))
        cpu = cpu_seconds(server.pid) - cpu
        stats = _get(base, "/api/server")
        rss = rss_mib(server.pid)
    finally:
        server.terminate()
        server.wait(30)
    latencies = totals["latencies"]
    moves = len(latencies)
    print(
        f"{moves} moves in {totals['elapsed']:.1f} s ({moves / totals['elapsed']:.1f}/s, "
        f"{args.rate:g} visitors/s asked), {len(totals['errors'])} errors, "
        f"{totals['not_my_turn']} not at the person's turn, {totals['busy']} with no game free"
    )
    if latencies:
        print(
            f"move answered: p50 {_percentile(latencies, 0.5) * 1000:.1f} ms, "
            f"p99 {_percentile(latencies, 0.99) * 1000:.1f} ms, "
            f"max {max(latencies) * 1000:.1f} ms; server CPU {cpu / moves * 1000:.1f} ms a "
            "visit (open, view, move and the computers' moves after it)"
        )
    print(
        f"at the end: {stats['tables']} tables in memory of {args.games} open, RSS {rss:.0f} MiB, "
        f"event-loop lag p99 {stats['loop_lag_ms']['p99']} ms"
    )
    for error in sorted(set(totals["errors"]))[:5]:
        print(f"  error: {error}")
    return 1 if totals["errors"] else 0


if __name__ == "__main__":
    sys.exit(main())
