"""One hostile address against an honest player: starts
``fivehundred serve`` on its own new SQLite database in a temporary directory (it never
touches another), then measures an honest player's action-to-view latency (the median
over their turns, from 127.0.0.2) quiet and while 127.0.0.1 runs each probe: 1,000 idle
sockets, 300 half-sent request heads, 200 WebSockets, and a hint flood (a hint on a new
connection each time, each replacing the last, at a table whose stand-in searches); and
the actions a table of ``hard`` computers makes in 10 s, quiet and under the hint flood.

    python bench/bench_abuse.py [--actions 12]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import websockets
from websockets.sync.client import connect


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def server(directory: Path) -> Iterator[str]:
    port = free_port()
    env = {**os.environ, "FIVEHUNDRED_DATA_DIR": str(directory)}
    command = [sys.executable, "-m", "fivehundred", "serve", "--port", str(port)]
    command += ["--db", f"sqlite:///{directory / 'bench.sqlite3'}", "--log-level", "error"]
    # the honest player makes a table per hand it measures: its creation limits are wide
    command += ["--create-per-minute", "10000", "--create-burst", "10000"]
    command += ["--seat-per-minute", "10000", "--seat-burst", "10000"]
    command += ["--tables-per-client", "10000"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
                break
            time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(20)


def honest_latency(base: str, actions: int) -> float:
    """Median seconds from the honest player's action to its view (127.0.0.2)."""
    port = int(base.rsplit(":", 1)[1])
    times: list[float] = []
    local = httpx.HTTPTransport(local_address="127.0.0.2")
    with httpx.Client(base_url=base, transport=local, timeout=30) as http:
        while len(times) < actions:
            body = {"seats": ["open", "random", "random", "random"], "options": {"delay": 0}}
            code = http.post("/api/tables", json=body).json()["table"]
            token = http.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).json()["token"]
            sock = socket.create_connection(("127.0.0.1", port), 10, ("127.0.0.2", 0))
            url = f"{base.replace('http', 'ws')}/ws/tables/{code}?token={token}"
            with connect(url, sock=sock, open_timeout=30) as ws:

                def view(predicate: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
                    while True:
                        message = json.loads(ws.recv(timeout=30))
                        if message["type"] == "view" and predicate(message):
                            return dict(message)

                def turn_or_done(m: dict[str, Any]) -> bool:
                    return bool(m["view"]["legal"]) or m["view"]["phase"] == "done"

                mine = view(turn_or_done)
                while mine["view"]["legal"] and len(times) < actions:
                    action = {"type": "action", "action": mine["view"]["legal"][0]}
                    started = time.perf_counter()
                    ws.send(json.dumps({**action, "version": mine["version"]}))
                    after = view(lambda m, v=mine["version"]: m["version"] > v)
                    times.append(time.perf_counter() - started)
                    mine = after if turn_or_done(after) else view(turn_or_done)
    return statistics.median(times)


def idle_sockets(base: str, count: int, head: bytes = b"") -> Callable[[], None]:
    port = int(base.rsplit(":", 1)[1])
    held = []
    for _ in range(count):
        sock = socket.socket()
        sock.setblocking(False)
        with contextlib.suppress(BlockingIOError, OSError):
            sock.connect(("127.0.0.1", port))
        held.append(sock)
    if head:
        time.sleep(0.2)
        for sock in held:
            with contextlib.suppress(OSError):
                sock.send(head)
    return lambda: [sock.close() for sock in held] and None


def many_websockets(base: str, count: int) -> Callable[[], None]:
    body = {"seats": ["open"] * 4}
    code = httpx.post(base + "/api/tables", json=body).json()["table"]
    url = f"{base.replace('http', 'ws')}/ws/tables/{code}"
    stop = threading.Event()
    accepted = [0]

    async def hold() -> None:
        async def one() -> None:
            with contextlib.suppress(Exception):
                async with websockets.connect(url, max_queue=None) as ws:
                    await asyncio.sleep(1.0)
                    if ws.close_code is None:  # still open: not refused nor closed
                        accepted[0] += 1
                    while not stop.is_set() and ws.close_code is None:
                        await asyncio.sleep(0.1)

        await asyncio.gather(*(one() for _ in range(count)))

    thread = threading.Thread(target=asyncio.run, args=(hold(),), daemon=True)
    thread.start()
    time.sleep(2)
    print(f"    websockets held open: {accepted[0]} of {count}")

    def done() -> None:
        stop.set()
        thread.join(30)

    return done


def hint_flood(base: str, hints: int) -> Callable[[], None]:
    body = {
        "seats": ["open", "heuristic", "heuristic", "heuristic"],
        "options": {"delay": 0, "stand_in": "expert"},
    }
    code = httpx.post(base + "/api/tables", json=body).json()["table"]
    token = httpx.post(f"{base}/api/tables/{code}/seats/0", json={"name": "Mal"}).json()["token"]
    url = f"{base.replace('http', 'ws')}/ws/tables/{code}?token={token}"
    stop = threading.Event()
    answers: dict[str, int] = {}

    def flood() -> None:
        sent = 0
        while sent < hints and not stop.is_set():
            with contextlib.suppress(Exception), connect(url, open_timeout=10) as ws:
                ws.send(json.dumps({"type": "hint"}))
                sent += 1
                with contextlib.suppress(TimeoutError):
                    while True:
                        kind = json.loads(ws.recv(timeout=0.02))
                        if kind["type"] in ("hint", "error"):
                            key = kind["type"] + (
                                ": " + kind["message"][:30] if kind["type"] == "error" else ""
                            )
                            answers[key] = answers.get(key, 0) + 1

    thread = threading.Thread(target=flood, daemon=True)
    thread.start()
    time.sleep(1)

    def done() -> None:
        stop.set()
        thread.join(60)
        print(f"    hint answers: {answers}")

    return done


def search_actions(base: str, seconds: float = 10.0) -> int:
    """Actions an honest table of four ``hard`` computers (a search player) makes in
    ``seconds`` (from 127.0.0.2): what a flood of search hints would take from it."""
    local = httpx.HTTPTransport(local_address="127.0.0.2")
    with httpx.Client(base_url=base, transport=local, timeout=30) as http:
        body = {"seats": ["hard"] * 4, "options": {"delay": 0}}
        code = http.post("/api/tables", json=body).json()["table"]
        time.sleep(1.0)
        start = http.get(f"/api/tables/{code}").json()["version"]
        time.sleep(seconds)
        return int(http.get(f"/api/tables/{code}").json()["version"]) - int(start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=24, help="honest turns measured each time")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as directory, server(Path(directory)) as base:
        honest_latency(base, 12)  # warm
        quiet = honest_latency(base, args.actions)
        print(f"quiet: {quiet * 1000:.1f} ms")
        probes: list[tuple[str, Callable[[], Callable[[], None]]]] = [
            ("1,000 idle sockets", lambda: idle_sockets(base, 1000)),
            ("300 half-sent heads", lambda: idle_sockets(base, 300, b"GET / HTTP/1.1\r\nHo")),
            ("200 WebSockets", lambda: many_websockets(base, 200)),
            ("hint flood (300, expert stand-in)", lambda: hint_flood(base, 300)),
        ]
        print(f"honest hard table, quiet: {search_actions(base)} actions in 10 s")
        stop = hint_flood(base, 300)
        try:
            print(f"honest hard table, hint flood: {search_actions(base)} actions in 10 s")
        finally:
            stop()
        for name, start in probes:
            stop = start()
            try:
                loaded = honest_latency(base, args.actions)
            finally:
                stop()
            print(f"{name}: {loaded * 1000:.1f} ms ({loaded / quiet:.2f}x quiet)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
