"""The game server under load, on loopback: tables of computer players playing by
themselves, and tables of four WebSocket clients playing random legal actions as fast as
the server answers (a computer table whose game is over is replaced by a new one, so that
as many play all the time). Prints actions a second, the latency from an action sent to the next
view received, the server's event-loop lag and the errors.

Beside the normal load, an abusive client (``--abuse``, on by default) creates tables as
fast as it may and plays search tables at the highest setting offered (``expert``, as many
as the server lets one address have), and a few normal search tables (``--search-tables``,
``hard``) play too. The server runs with ``fivehundred serve``'s own limits; each normal
visitor comes from an address of its own (127.x.y.z: every table, every game), the abuser
from 127.0.0.2. Prints what the abuser got (created, refused) and the longest time any
normal table waited for its next move (a table that waits longer than ``--stall-seconds``
has stalled).

    .venv/bin/python bench/bench_web.py                 # 50 + 50 tables for 60 s
    .venv/bin/python bench/bench_web.py --seconds 20 --socket-tables 10 --computer-tables 10
    .venv/bin/python bench/bench_web.py --no-abuse      # the normal load alone
    createdb fh_bench    # an empty database of its own: the benchmark refuses any other
    .venv/bin/python bench/bench_web.py --servers 2 --db postgresql+psycopg://USER@HOST/fh_bench

With ``--servers N`` (PostgreSQL) the same load runs on 1, then 2, ... N server processes
sharing the database, each round on the database emptied: tables are made through the
servers in turn and the four clients of a socket table connect to them in turn (no sticky
sessions: most actions pass from one server to another). After the last round the server
that owns a table in play is killed (SIGKILL): printed are the seconds until another owns
it, until it plays again, and until every table of the dead server has a new owner.

The server runs as ``fivehundred serve`` in its own process on a fresh SQLite database
(``--db URL`` for another one: it must be **empty**, a database made for the benchmark, which
drops every table in it between rounds and at the end; a database with any table in it, a
club's say, is refused with one line and left untouched). The socket clients run in their own processes (two by
default, ``--client-processes``), so that the clients' own event loop does not add to the
latency measured; their loop lag is printed too, so a reader can tell. The server's CPU
time is read from ``/proc`` over the measured minute and divided by the actions made.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

import websockets


def address(kind: int, index: int) -> str:
    """A loopback address of its own for a normal visitor (``kind``: 1 socket tables, 2
    computer tables, 3 search tables)."""
    return f"127.{kind}.{index // 250 % 250}.{1 + index % 250}"


ABUSER = "127.0.0.2"


def _request(
    base: str, method: str, path: str, body: dict[str, Any] | None = None, source: str | None = None
) -> tuple[int, dict[str, Any]]:
    host, port = base.removeprefix("http://").split(":")
    connection = http.client.HTTPConnection(
        host, int(port), timeout=60, source_address=(source, 0) if source else None
    )
    try:
        data = json.dumps(body).encode() if body is not None else None
        connection.request(method, path, body=data, headers={"content-type": "application/json"})
        answer = connection.getresponse()
        return answer.status, dict(json.loads(answer.read() or b"{}"))
    finally:
        connection.close()


def _post(base: str, path: str, body: dict[str, Any], source: str | None = None) -> dict[str, Any]:
    status, answer = _request(base, "POST", path, body, source)
    if status >= 300:
        raise RuntimeError(f"POST {path}: {status} {answer.get('detail')}")
    return answer


def _get(base: str, path: str) -> dict[str, Any]:
    status, answer = _request(base, "GET", path)
    if status >= 300:
        raise RuntimeError(f"GET {path}: {status} {answer.get('detail')}")
    return answer


class Totals:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.actions = 0
        self.errors: list[str] = []
        self.games = 0
        #: how late this process's event loop wakes from a 50 ms sleep (seconds)
        self.lag: list[float] = []
        self.cpu = 0.0


async def socket_table(bases: list[str], deadline: float, totals: Totals, seed: int) -> None:
    """Four clients at one table, acting the moment their view says it is their turn; a
    new table when a game ends. ``deadline`` is wall-clock time (``time.time``). With
    several servers, the table is made through one and its four clients connect to the
    servers in turn (round-robin, as a load balancer without sticky sessions would)."""
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    game = 0
    while time.time() < deadline:
        source = address(1, seed * 1000 + game)  # a visitor of its own each game
        game += 1
        base = bases[seed % len(bases)]
        seat_bases = [bases[(seed + seat) % len(bases)] for seat in range(4)]
        code = (
            await loop.run_in_executor(
                None,
                _post,
                base,
                "/api/tables",
                {"seats": ["open"] * 4, "options": {"delay": 0}},
                source,
            )
        )["table"]
        tokens = [
            (
                await loop.run_in_executor(
                    None,
                    _post,
                    seat_bases[seat],
                    f"/api/tables/{code}/seats/{seat}",
                    {"name": f"bench{seat}"},
                    source,
                )
            )["token"]
            for seat in range(4)
        ]
        sockets = [
            await websockets.connect(
                f"{seat_bases[seat].replace('http://', 'ws://')}/ws/tables/{code}?token={t}",
                max_size=2**20,
                local_addr=(source, 0),
            )
            for seat, t in enumerate(tokens)
        ]

        async def client(ws: Any, code: str) -> None:
            acted = -1
            sent_at: float | None = None
            while time.time() < deadline:
                # past the deadline the other clients stop acting: a client that waits for
                # them then has waited for the end, not for a stalled table
                wait = min(30.0, deadline + 5.0 - time.time())
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), max(0.1, wait)))
                except (TimeoutError, websockets.ConnectionClosed) as error:
                    if time.time() < deadline:
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
                    await ws.send(
                        json.dumps(
                            {
                                "type": "action",
                                "version": acted,
                                "action": rng.choice(view["legal"]),
                            }
                        )
                    )

        await asyncio.gather(*(client(ws, code) for ws in sockets))
        for ws in sockets:
            await ws.close()
        totals.games += 1


def _percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def _lag_probe(totals: Totals) -> None:
    loop = asyncio.get_running_loop()
    while True:
        start = loop.time()
        await asyncio.sleep(0.05)
        totals.lag.append(max(0.0, loop.time() - start - 0.05))


async def _clients(bases: list[str], deadline: float, seeds: list[int]) -> Totals:
    totals = Totals()
    probe = asyncio.get_running_loop().create_task(_lag_probe(totals))
    await asyncio.gather(*(socket_table(bases, deadline, totals, seed) for seed in seeds))
    probe.cancel()
    return totals


def client_process(bases: list[str], start: float, deadline: float, seeds: list[int]) -> Totals:
    """One process of socket clients (the tables ``seeds``), from ``start`` (wall clock)."""
    time.sleep(max(0.0, start - time.time()))
    cpu = time.process_time()
    totals = asyncio.run(_clients(bases, deadline, seeds))
    totals.cpu = time.process_time() - cpu
    return totals


class ComputerTables:
    """Keeps ``count`` tables of computer players playing: a table whose game is over is
    replaced by a new one (looked for every two seconds in the lobby's list)."""

    def __init__(
        self, bases: list[str], count: int, player: str, delay: float, kind: int = 2
    ) -> None:
        self.bases = bases
        self.base = bases[0]  # the lobby and the facts (any server answers for every table)
        self.body = {"seats": [player] * 4, "options": {"delay": delay}}
        self.kind = kind
        self.made = 0
        self.live = [self._create() for _ in range(count)]
        self.actions = 0  # actions of the tables that finished (and were replaced)
        self.started: dict[str, int] = {}  # versions when the clock started
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._keep, daemon=True)
        #: per table: (its last version seen, since when), and the longest wait seen
        self.seen: dict[str, tuple[int, float]] = {}
        self.longest_wait = 0.0

    def _create(self) -> str:
        self.made += 1  # a visitor of its own each table, made through each server in turn
        base = self.bases[self.made % len(self.bases)]
        return str(_post(base, "/api/tables", self.body, address(self.kind, self.made))["table"])

    def watch(self) -> None:
        """Look at every table's version: the longest time one went without a move."""
        now = time.monotonic()
        for code in list(self.live):
            facts = _get(self.base, f"/api/tables/{code}")
            version, since = self.seen.get(code, (-1, now))
            if facts["version"] != version or facts["finished"]:
                self.seen[code] = (facts["version"], now)
            else:
                self.longest_wait = max(self.longest_wait, now - since)

    def start(self) -> None:
        self.started = {
            code: _get(self.base, f"/api/tables/{code}")["version"] for code in self.live
        }
        self.thread.start()

    def _keep(self) -> None:
        while not self.stop.wait(1.0):
            self.watch()
            playing = {t["table"] for t in _get(self.base, "/api/tables?limit=200")["tables"]}
            for index, code in enumerate(self.live):
                if code in playing:
                    continue
                facts = _get(self.base, f"/api/tables/{code}")  # not in the list: over?
                if facts["finished"]:
                    self.actions += facts["version"] - self.started.get(code, 0)
                    self.live[index] = self._create()

    def _made(self, code: str) -> int:
        return int(_get(self.base, f"/api/tables/{code}")["version"]) - self.started.get(code, 0)

    def finish(self) -> int:
        """Stops replacing tables; the computer actions made since :meth:`start`."""
        self.stop.set()
        self.thread.join()
        return self.actions + sum(self._made(code) for code in self.live)


class Abuser:
    """One address that creates tables as fast as it may (ignoring ``Retry-After``), after
    filling what it may have with search tables at the highest setting offered."""

    def __init__(self, bases: list[str], player: str) -> None:
        self.bases = bases
        self.player = player
        self.statuses: dict[int, int] = {}
        self.search_tables: list[str] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def start(self) -> None:
        self.thread.start()

    def _run(self) -> None:
        body = {"seats": [self.player] * 4, "options": {"delay": 0}}
        turn = 0
        while not self.stop.is_set():  # search tables until refused (each server in turn)
            turn += 1
            base = self.bases[turn % len(self.bases)]
            status, answer = _request(base, "POST", "/api/tables", body, ABUSER)
            if status != 201:
                break
            self.search_tables.append(answer["table"])
        spam = {"seats": ["open"] * 4}
        while not self.stop.is_set():
            turn += 1
            base = self.bases[turn % len(self.bases)]
            status, _ = _request(base, "POST", "/api/tables", spam, ABUSER)
            self.statuses[status] = self.statuses.get(status, 0) + 1

    def finish(self) -> None:
        self.stop.set()
        self.thread.join()


@dataclass
class Measure:
    totals: Totals
    computer_actions: int
    elapsed: float
    server_cpu: float
    load: tuple[float, float, float]
    longest_wait: float = 0.0
    search_wait: float = 0.0
    search_actions: int = 0
    abuser: Abuser | None = None


def run(bases: list[str], server_pids: list[int], args: argparse.Namespace) -> Measure:
    """Starts the computer tables and the client processes, and measures the servers from
    the moment the clients start to the moment the last one is done."""
    computer = ComputerTables(bases, args.computer_tables, args.computer, args.computer_delay)
    search = ComputerTables(bases, args.search_tables, args.search_player, args.computer_delay, 3)
    abuser = Abuser(bases, args.abuse_player) if args.abuse else None
    processes = max(1, min(args.client_processes, args.socket_tables))
    shares = [list(range(args.socket_tables))[i::processes] for i in range(processes)]
    with ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("spawn")) as pool:
        for ready in [pool.submit(time.sleep, 0.2) for _ in range(processes)]:
            ready.result()  # the processes are up before the clock starts
        start = time.time() + 1.0
        deadline = start + args.seconds
        results = [pool.submit(client_process, bases, start, deadline, share) for share in shares]
        time.sleep(max(0.0, start - time.time()))
        cpu_before = sum(_cpu_seconds(pid) for pid in server_pids)
        began = time.monotonic()
        computer.start()
        search.start()
        if abuser is not None:
            abuser.start()
        parts = [result.result() for result in results]
        elapsed = time.monotonic() - began
        if abuser is not None:
            abuser.finish()
        computer_actions = computer.finish()
        search_actions = search.finish()
        cpu = sum(_cpu_seconds(pid) for pid in server_pids) - cpu_before
        load = os.getloadavg()
    totals = Totals()
    for part in parts:
        totals.latencies += part.latencies
        totals.actions += part.actions
        totals.errors += part.errors
        totals.games += part.games
        totals.lag += part.lag
        totals.cpu += part.cpu
    return Measure(
        totals,
        computer_actions,
        elapsed,
        cpu,
        load,
        computer.longest_wait,
        search.longest_wait,
        search_actions,
        abuser,
    )


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
    parser.add_argument(
        "--computer-delay",
        type=float,
        default=0.1,
        help="seconds between the computer tables' moves",
    )
    parser.add_argument(
        "--db",
        default=None,
        help="database URL (default: a fresh SQLite file); it must be an empty database made "
        "for the benchmark (createdb fh_bench): one with any table in it is refused, "
        "never touched; the benchmark drops every table it made between rounds and at the end",
    )
    parser.add_argument(
        "--client-processes",
        type=int,
        default=2,
        help="processes the socket clients are shared among (default 2)",
    )
    parser.add_argument(
        "--search-tables", type=int, default=2, help="normal tables of search players (default 2)"
    )
    parser.add_argument("--search-player", default="hard", help="their player (default hard)")
    parser.add_argument(
        "--abuse",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="an abusive client beside the normal load (default: on)",
    )
    parser.add_argument(
        "--abuse-player",
        default="expert",
        help="the abuser's search tables' player (default expert)",
    )
    parser.add_argument(
        "--stall-seconds",
        type=float,
        default=30,
        help="a normal table that waits longer for a move has stalled",
    )
    parser.add_argument("--workers", type=int, default=None, help="the server's --workers")
    parser.add_argument(
        "--servers",
        type=int,
        default=1,
        help="N: the same load spread over 1, then 2, ... N server processes on one "
        "PostgreSQL (--db postgresql+psycopg://...), clients round-robin; then the time a "
        "table takes to move when its server is killed (default 1)",
    )
    args = parser.parse_args()
    if args.servers < 1:
        parser.error("--servers must be 1 or more")
    if args.servers > 1 and not (args.db or "").startswith("postgresql"):
        parser.error("--servers above 1 needs --db postgresql+psycopg://... (SQLite serves one)")
    if args.db is not None:
        refusal = not_empty(args.db)
        if refusal:
            print(f"bench_web.py: {refusal}", file=sys.stderr)
            return 2
    status = 0
    try:
        for count in range(1, args.servers + 1):
            print(f"== {count} server process{'es' if count > 1 else ''} ==", flush=True)
            status |= one_round(args, count, count == args.servers and count > 1)
    finally:
        if args.db is not None and args.db.startswith("postgresql"):
            _empty(args.db)  # left as it was found: empty
    return status


def not_empty(db: str) -> str | None:
    """Why the benchmark may not use the database ``db`` (one line), or None: it must be
    one that holds no table (made for the benchmark), so that no club's data is ever
    dropped. Connects and looks; changes nothing."""
    import sqlalchemy as sa

    try:
        engine = sa.create_engine(db)
        with engine.connect() as connection:
            names = sa.inspect(connection).get_table_names()
        engine.dispose()
    except Exception as error:
        first = str(getattr(error, "orig", None) or error).strip().splitlines()
        return f"cannot open the database: {first[0] if first else type(error).__name__}"
    if names:
        shown = ", ".join(sorted(names)[:5]) + (", …" if len(names) > 5 else "")
        safe = sa.engine.make_url(db).render_as_string(hide_password=True)
        return (
            f"the database {safe} is not empty ({len(names)} tables: {shown}); the "
            "benchmark drops every table of its database, so it runs only on an empty "
            "one made for it (createdb fh_bench)"
        )
    return None


def _empty(db: str) -> None:
    """Drop every table of the benchmark's PostgreSQL database (found empty at the start,
    :func:`not_empty`: all it holds is the benchmark's), so that each round starts afresh."""
    import sqlalchemy as sa

    from fivehundred.web import store

    engine = sa.create_engine(db)
    with engine.begin() as connection:
        found = sa.MetaData()
        found.reflect(connection)
        found.drop_all(connection)
        store.metadata.drop_all(connection)  # and its sequences
    engine.dispose()


def _start_servers(
    count: int, db: str, workdir: str, args: argparse.Namespace
) -> tuple[list[subprocess.Popen[bytes]], list[str]]:
    workers = [] if args.workers is None else ["--workers", str(args.workers)]
    servers, bases = [], []
    for _ in range(count):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        bases.append(f"http://127.0.0.1:{port}")
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
                    db,
                    "--log-level",
                    "warning",
                    *workers,
                ],
                env={**os.environ, "FIVEHUNDRED_DATA_DIR": workdir},
            )
        )
    for base in bases:
        for _ in range(600):
            try:
                _get(base, "/api/server")
                break
            except OSError:
                time.sleep(0.1)
        # the clock starts once each server has prepared the solver in its search workers
        # (at start, in the background: it would take CPU from the minute measured)
        for _ in range(1200):
            if _get(base, "/api/server").get("search_ready", True):
                break
            time.sleep(0.1)
    return servers, bases


OWNERS = """
SELECT l.objid, a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
WHERE l.locktype = 'advisory' AND l.classid = 500 AND l.objsubid = 2 AND l.granted
AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
"""
ORPHANED = """
SELECT count(*) FROM tables t LEFT JOIN closures c ON c.table_id = t.id
WHERE t.finished IS NULL AND c.table_id IS NULL AND t.id NOT IN (
    SELECT l.objid::bigint FROM pg_locks l
    WHERE l.locktype = 'advisory' AND l.classid = 500 AND l.objsubid = 2 AND l.granted
    AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database()))
"""


def failover(db: str, servers: list[subprocess.Popen[bytes]], bases: list[str]) -> None:
    """Kill (SIGKILL) the server that owns a table of computer players in play; print the
    time until another server owns it, until it plays again, and until every table the
    dead server owned has a new one."""
    import sqlalchemy as sa

    engine = sa.create_engine(db)
    body = {"seats": ["random"] * 4, "options": {"delay": 0.05}}
    code = _post(bases[0], "/api/tables", body, address(4, 1))["table"]

    def owners() -> dict[int, int]:  # table id -> the pid of its server process
        with engine.connect() as connection:
            rows = connection.execute(sa.text(OWNERS)).all()
        return {int(row[0]): int(row[1].split()[2]) for row in rows}

    with engine.connect() as connection:
        table_id = connection.execute(
            sa.text("SELECT id FROM tables WHERE code = :code"), {"code": code}
        ).scalar_one()
    victim_pid = owners()[table_id]
    victim = next(s for s in servers if s.pid == victim_pid)
    survivors = [b for s, b in zip(servers, bases, strict=True) if s is not victim]
    held = sum(1 for pid in owners().values() if pid == victim_pid)
    killed = time.monotonic()
    victim.kill()
    victim.wait(30)
    owned = played = everything = None
    version = None
    while time.monotonic() - killed < 60 and None in (owned, played, everything):
        now = time.monotonic() - killed
        current = owners()
        if owned is None and current.get(table_id, victim_pid) != victim_pid:
            owned = now
            version = _get(survivors[0], f"/api/tables/{code}")["version"]
        if owned is not None and played is None:
            facts = _get(survivors[0], f"/api/tables/{code}")
            if facts["version"] > (version or 0) or facts["finished"]:
                played = time.monotonic() - killed
        if everything is None:
            with engine.connect() as connection:
                if connection.execute(sa.text(ORPHANED)).scalar_one() == 0:
                    everything = now
        time.sleep(0.02)
    engine.dispose()

    def shown(value: float | None) -> str:
        return "not within 60 s" if value is None else f"{value:.2f} s"

    print(
        f"failover (SIGKILL of the owner, heartbeat 1 s): owned by another server after "
        f"{shown(owned)}, playing again after {shown(played)}; all {held} tables of the dead "
        f"server owned again after {shown(everything)}"
    )


def one_round(args: argparse.Namespace, count: int, failover_after: bool) -> int:
    """The load on ``count`` servers, measured and printed (then the failover)."""
    workdir = tempfile.mkdtemp(prefix="bench-web-")
    db = args.db or f"sqlite:///{workdir}/bench.sqlite3"
    if db.startswith("postgresql"):
        _empty(db)
    servers, bases = _start_servers(count, db, workdir, args)
    try:
        before = [_get(base, "/api/server") for base in bases]
        measure = run(bases, [server.pid for server in servers], args)
        after = [_get(base, "/api/server") for base in bases]
        if failover_after:
            failover(db, servers, bases)
    finally:
        for server in servers:
            if server.poll() is None:
                server.terminate()
        for server in servers:
            server.wait(30)
        shutil.rmtree(workdir, ignore_errors=True)  # the fresh database and data directory
    stats = after[0]
    stats["commits"] = {
        key: sum(a["commits"][key] for a in after) for key in ("actions", "transactions")
    }
    before_commits = {
        key: sum(b["commits"][key] for b in before) for key in ("actions", "transactions")
    }
    earlier: dict[str, Any] = {"commits": before_commits}
    if all("deadlines" in s for s in [*before, *after]):  # every server's looks
        stats["deadlines"] = {"looks": sum(a["deadlines"]["looks"] for a in after)}
        earlier["deadlines"] = {"looks": sum(b["deadlines"]["looks"] for b in before)}
    else:
        stats.pop("deadlines", None)
    return report(args, measure, earlier, stats, after)


def report(
    args: argparse.Namespace,
    measure: Measure,
    before: dict[str, Any],
    stats: dict[str, Any],
    each: list[dict[str, Any]],
) -> int:
    totals, elapsed, cpu = measure.totals, measure.elapsed, measure.server_cpu
    lat = totals.latencies
    computer = measure.computer_actions
    print(
        f"{args.socket_tables} socket tables ({args.client_processes} client processes) + "
        f"{args.computer_tables} computer tables ({args.computer}, {args.computer_delay} s "
        f"between moves), {elapsed:.0f} s, {os.cpu_count()} CPUs, load average at the end "
        + " ".join(f"{x:.2f}" for x in measure.load)
    )
    print(
        f"socket actions: {totals.actions} ({totals.actions / elapsed:.0f}/s), games finished {totals.games}"
    )
    print(f"computer actions: {computer} ({computer / elapsed:.0f}/s)")
    if lat:
        print(
            "latency action -> next view (ms): "
            f"p50 {1000 * statistics.median(lat):.1f}  p90 {1000 * _percentile(lat, 0.9):.1f}  "
            f"p99 {1000 * _percentile(lat, 0.99):.1f}  max {1000 * max(lat):.1f}"
        )
    total = totals.actions + computer
    if total and cpu:
        print(
            f"server CPU: {cpu:.1f} s ({100 * cpu / elapsed:.0f}% of one core), "
            f"{1000 * cpu / total:.2f} ms per action; the clients: {totals.cpu:.1f} s "
            f"({100 * totals.cpu / elapsed:.0f}% of one core)"
        )
    for number, server in enumerate(each):
        lag = server["loop_lag_ms"]
        print(
            f"server {number + 1} event-loop lag (ms, last minute): "
            f"p50 {lag['p50']}  p99 {lag['p99']}  max {lag['max']}"
        )
    if "commits" in stats:
        written = stats["commits"]["actions"] - before["commits"]["actions"]  # every server
        transactions = stats["commits"]["transactions"] - before["commits"]["transactions"]
        print(
            f"group commit: {written} actions in {transactions} transactions "
            f"({written / max(1, transactions):.1f} per transaction)"
        )
    if "deadlines" in stats:  # (a server that says so)
        looks = stats["deadlines"]["looks"] - before.get("deadlines", {}).get("looks", 0)
        print(f"deadlines: the scheduler read the due rows {looks} times")
    if totals.lag:
        print(
            "client event-loop lag (ms): "
            f"p50 {1000 * statistics.median(totals.lag):.1f}  "
            f"p99 {1000 * _percentile(totals.lag, 0.99):.1f}  max {1000 * max(totals.lag):.1f}"
        )
    print(
        f"longest wait for a move: computer tables {measure.longest_wait:.1f} s, "
        f"{args.search_tables} {args.search_player} tables {measure.search_wait:.1f} s "
        f"({measure.search_actions} actions)"
    )
    stalled = max(measure.longest_wait, measure.search_wait) > args.stall_seconds
    if measure.abuser is not None:
        abuser = measure.abuser
        print(
            f"abuser ({ABUSER}): {len(abuser.search_tables)} {args.abuse_player} tables, then "
            f"{sum(abuser.statuses.values())} creations answered "
            + ", ".join(f"{count} x {status}" for status, count in sorted(abuser.statuses.items()))
        )
    print(
        f"errors: {len(totals.errors)}" + (f" (first: {totals.errors[0]})" if totals.errors else "")
    )
    if stalled:
        print(f"STALLED: a normal table waited over {args.stall_seconds:g} s for a move")
    return 1 if totals.errors or stalled else 0


if __name__ == "__main__":
    sys.exit(main())
