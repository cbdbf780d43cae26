"""The game server under load, on loopback: tables of computer players playing by
themselves, and tables of four WebSocket clients playing random legal actions as fast as
the server answers. Prints actions a second, the latency from an action sent to the next
view received, the server's event-loop lag and the errors.

    .venv/bin/python bench/bench_web.py                 # 50 + 50 tables for 60 s
    .venv/bin/python bench/bench_web.py --seconds 20 --socket-tables 10 --computer-tables 10

The server runs as ``fivehundred serve`` in its own process on a fresh SQLite database
(``--db URL`` for another one); the clients share this process's event loop.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from typing import Any

import websockets


def _post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                     headers={"content-type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(request, timeout=60) as answer:
        return dict(json.loads(answer.read()))


def _get(base: str, path: str) -> dict[str, Any]:
    with urllib.request.urlopen(base + path, timeout=60) as answer:
        return dict(json.loads(answer.read()))


class Totals:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.errors: list[str] = []
        self.games = 0


async def socket_table(base: str, deadline: float, totals: Totals, seed: int) -> None:
    """Four clients at one table, acting the moment their view says it is their turn; a
    new table when a game ends."""
    rng = random.Random(seed)
    ws_base = base.replace("http://", "ws://")
    loop = asyncio.get_running_loop()
    while time.monotonic() < deadline:
        code = (await loop.run_in_executor(None, _post, base, "/api/tables",
                                           {"seats": ["open"] * 4, "options": {"delay": 0}}))["table"]  # fmt: skip
        tokens = [(await loop.run_in_executor(None, _post, base, f"/api/tables/{code}/seats/{seat}",
                                              {"name": f"bench{seat}"}))["token"] for seat in range(4)]  # fmt: skip
        sockets = [await websockets.connect(f"{ws_base}/ws/tables/{code}?token={t}", max_size=2**20)
                   for t in tokens]  # fmt: skip

        async def client(ws: Any, code: str) -> None:
            acted = -1
            sent_at: float | None = None
            while time.monotonic() < deadline:
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                except (TimeoutError, websockets.ConnectionClosed) as error:
                    totals.errors.append(f"{code}: {type(error).__name__}")
                    return
                if message["type"] == "error":
                    totals.errors.append(f"{code}: {message['message']}")
                    continue
                if message["type"] != "view":
                    continue
                if sent_at is not None and message["version"] > acted:
                    totals.latencies.append(time.perf_counter() - sent_at)
                    sent_at = None
                view = message["view"]
                if view["table"]["finished"]:
                    return
                if view["legal"] and message["version"] > acted:
                    acted = message["version"]
                    sent_at = time.perf_counter()
                    totals.actions += 1
                    await ws.send(json.dumps({"type": "action", "version": acted,
                                              "action": rng.choice(view["legal"])}))  # fmt: skip

        await asyncio.gather(*(client(ws, code) for ws in sockets))
        for ws in sockets:
            await ws.close()
        totals.games += 1


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def run(base: str, args: argparse.Namespace) -> Totals:
    totals = Totals()
    loop = asyncio.get_running_loop()
    computer_codes = []
    for _ in range(args.computer_tables):
        body = {"seats": [args.computer] * 4, "options": {"delay": args.computer_delay}}
        computer_codes.append(
            (await loop.run_in_executor(None, _post, base, "/api/tables", body))["table"]
        )
    start_versions = {code: 0 for code in computer_codes}
    deadline = time.monotonic() + args.seconds
    await asyncio.gather(
        *(socket_table(base, deadline, totals, seed) for seed in range(args.socket_tables))
    )
    totals.computer_actions = 0  # type: ignore[attr-defined]
    for code in computer_codes:
        facts = await loop.run_in_executor(None, _get, base, f"/api/tables/{code}")
        totals.computer_actions += facts["version"] - start_versions[code]  # type: ignore[attr-defined]
    return totals


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux), 0 where it cannot be read."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def main() -> int:
    parser = argparse.ArgumentParser(description="load the game server on loopback")
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--socket-tables", type=int, default=50)
    parser.add_argument("--computer-tables", type=int, default=50)
    parser.add_argument("--computer", default="random", help="the computer tables' player")
    parser.add_argument("--computer-delay", type=float, default=0.1,
                        help="seconds between the computer tables' moves")  # fmt: skip
    parser.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    args = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    workdir = tempfile.mkdtemp(prefix="bench-web-")
    db = args.db or f"sqlite:///{workdir}/bench.sqlite3"
    server = subprocess.Popen([sys.executable, "-m", "fivehundred", "serve", "--port", str(port),
                               "--db", db, "--log-level", "warning"],
                              env={**os.environ, "FIVEHUNDRED_DATA_DIR": workdir})  # fmt: skip
    try:
        for _ in range(600):
            try:
                _get(base, "/api/server")
                break
            except OSError:
                time.sleep(0.1)
        started = time.monotonic()
        cpu_before = _cpu_seconds(server.pid)
        own_before = time.process_time()
        totals = asyncio.run(run(base, args))
        own = time.process_time() - own_before
        elapsed = time.monotonic() - started
        cpu = _cpu_seconds(server.pid) - cpu_before
        stats = _get(base, "/api/server")
    finally:
        server.terminate()
        server.wait(30)
    lat = totals.latencies
    computer = getattr(totals, "computer_actions", 0)
    print(f"{args.socket_tables} socket tables + {args.computer_tables} computer tables "
          f"({args.computer}, {args.computer_delay} s between moves), {elapsed:.0f} s, {os.cpu_count()} CPUs")  # fmt: skip
    print(
        f"socket actions: {totals.actions} ({totals.actions / elapsed:.0f}/s), games finished {totals.games}"
    )
    print(f"computer actions: {computer} ({computer / elapsed:.0f}/s)")
    if lat:
        print("latency action -> next view (ms): "
              f"p50 {1000 * statistics.median(lat):.1f}  p90 {1000 * _percentile(lat, 0.9):.1f}  "
              f"p99 {1000 * _percentile(lat, 0.99):.1f}  max {1000 * max(lat):.1f}")  # fmt: skip
    total = totals.actions + computer
    if total and cpu:
        print(f"server CPU: {cpu:.1f} s ({100 * cpu / elapsed:.0f}% of one core), "
              f"{1000 * cpu / total:.2f} ms per action; the clients: {own:.1f} s "
              f"({100 * own / elapsed:.0f}% of one core)")  # fmt: skip
    lag = stats["loop_lag_ms"]
    print(
        f"server event-loop lag (ms, last minute): p50 {lag['p50']}  p99 {lag['p99']}  max {lag['max']}"
    )
    print(
        f"errors: {len(totals.errors)}" + (f" (first: {totals.errors[0]})" if totals.errors else "")
    )
    return 1 if totals.errors else 0


if __name__ == "__main__":
    sys.exit(main())
