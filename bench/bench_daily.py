"""The daily boards' cost on the server: ``fivehundred serve`` in its own process (a fresh
SQLite database, no search workers), its day's pars worked out first (the CPU they take
is printed on its own), then ``--entries`` whole days played through the API by a client
in this process, each entry's South choosing uniformly among its legal moves (seeded).
The server's CPU time is read from ``/proc`` and divided by the entries: with twelve
boards a day and the operator's level (``--level``, default ``medium``), the CPU seconds
one entry costs, and so how many entries a core serves a day.

Entries and results are written to the server's database (``--db``: a PostgreSQL URL to
measure it there; its daily tables should be empty).

    python bench/bench_daily.py [--entries 20] [--level medium] [--db URL]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Client:
    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.latencies: list[float] = []

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body)
        headers = {"Content-Type": "application/json"} if body is not None else {}
        start = time.perf_counter()
        self.connection.request(method, path, data, headers)
        response = self.connection.getresponse()
        text = response.read()
        self.latencies.append(time.perf_counter() - start)
        if response.status != 200:
            raise RuntimeError(f"{method} {path}: {response.status} {text[:200]!r}")
        return json.loads(text)


def play_entry(client: Client, rng: random.Random, name: str) -> int:
    view = client.call("POST", "/api/daily/entries", {"name": name})
    token = view["token"]
    moves = 0
    while True:
        while view["status"] == "playing":
            choice = rng.choice(view["table"]["legal"])
            view = client.call(
                "POST", f"/api/daily/entries/{token}/act", {"action": choice["action"]}
            )
            moves += 1
        if view["status"] == "day_over":
            return moves
        view = client.call("POST", f"/api/daily/entries/{token}/next", {})


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=20)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--db", default="", help="the server's database (a fresh SQLite)")
    args = parser.parse_args()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    work = tempfile.mkdtemp(prefix="bench-daily-")
    env = {
        **os.environ,
        "FIVEHUNDRED_DATA_DIR": work,
        "FIVEHUNDRED_DAILY_SECRET": "bench",
        "FIVEHUNDRED_DAILY_LEVEL": args.level,
    }
    server = subprocess.Popen(
        [sys.executable, "-m", "fivehundred", "serve", "--port", str(port), "--db",
         args.db or f"sqlite:///{work}/bench.sqlite3", "--log-level", "warning", "--workers", "0"],
        env=env,
    )  # fmt: skip
    try:
        for _ in range(600):
            try:
                client = Client(port)
                client.call("GET", "/api/daily")  # the day's boards are made: pars start
                break
            except OSError:
                time.sleep(0.1)
        start = cpu_seconds(server.pid)
        last = start
        while True:  # the pars: until the server's CPU stops climbing
            time.sleep(2)
            now = cpu_seconds(server.pid)
            if now - last < 0.05:
                break
            last = now
        print(f"the day's 12 pars: {last - start:.1f} s of server CPU", flush=True)
        rng = random.Random(args.seed)
        client = Client(port)  # the first connection has been idle: a new one
        start = cpu_seconds(server.pid)
        wall = time.perf_counter()
        moves = sum(play_entry(client, rng, f"bench {k}") for k in range(args.entries))
        cpu = cpu_seconds(server.pid) - start
        wall = time.perf_counter() - wall
        per_entry = cpu / args.entries
        lat = sorted(client.latencies)
        print(
            f"{args.entries} entries ({moves} moves of South, {len(lat)} requests) in {wall:.1f} s: "
            f"server CPU {cpu:.1f} s, {per_entry:.2f} s an entry; "
            f"{86400 / per_entry:,.0f} entries a day a core; request latency median "
            f"{statistics.median(lat) * 1000:.1f} ms, p99 {lat[int(0.99 * (len(lat) - 1))] * 1000:.1f} ms"
        )
    finally:
        server.terminate()
        server.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
