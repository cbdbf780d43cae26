"""The daily boards' cost on the server: ``fivehundred serve`` in its own process (a
database of its own: a fresh SQLite file, or with ``--pg URL`` a database
``fh_bench_daily_<pid>`` the bench makes on that PostgreSQL server and drops at the end;
no search workers), then ``--entries`` whole days played through its HTTP API
as the page plays them (``static/js/daily.js``): the day's boards, a new entry, South's
moves (each chosen uniformly among its legal moves, seeded; the computer players take the
other seats on the server), after each board its review against the field, at the day's
end the day's review, the week's table and the day's table, and the next board.

Before the entries play, the day's field may be given ``--field`` entries (each a result
on every board, written as the service writes them: :func:`load_field`), so that each
entry is scored against a field of that size (at 10,000 entries a day, the mean is about
5,000), and the day's pars are waited for (``--no-pars``: not; their process is apart from
the server's and is not counted). The server's CPU seconds (``/proc/PID/stat``) over the
entries (and on PostgreSQL its processes serving the database, on this machine), divided
by them: the CPU an entry costs, and so how many entries a day a two-core server plays
(``86,400 × 2 / CPU an entry``).

    python bench/bench_daily.py [--entries 20] [--field 5000] [--level medium] [--pg URL]
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
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
from collections.abc import Iterator
from datetime import date
from typing import Any

import sqlalchemy as sa

#: The cores of the server the daily is to run on.
CORES = 2
SECONDS_A_DAY = 86_400


def cpu_seconds(pid: int) -> float:
    """A process's CPU seconds (user and system), its children apart."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children_cpu(pid: int) -> float:
    """The CPU seconds of the processes ``pid`` started (such as its process of pars)."""
    total = 0.0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/children") as children:
                for child in children.read().split():
                    total += cpu_seconds(int(child)) + children_cpu(int(child))
        except OSError:
            continue
    return total


class Client:
    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.latencies: list[float] = []

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = None if body is None else json.dumps(body)
        headers = {"Content-Type": "application/json"} if body is not None else {}
        start = time.perf_counter()
        try:
            self.connection.request(method, path, data, headers)
            response = self.connection.getresponse()
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            self.connection.close()  # the server closed an idle connection: a new one
            self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            self.connection.request(method, path, data, headers)
            response = self.connection.getresponse()
        text = response.read()
        self.latencies.append(time.perf_counter() - start)
        if response.status != 200:
            raise RuntimeError(f"{method} {path}: {response.status} {text[:200]!r}")
        return json.loads(text)


def play_entry(client: Client, rng: random.Random, name: str) -> tuple[str, int]:
    """A whole day of an entry through the routes, as the page asks them: its token and
    South's moves."""
    client.call("GET", "/api/daily")
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
        client.call("GET", f"/api/daily/entries/{token}/boards/{view['board']}/review")
        if view["status"] == "day_over":
            client.call("GET", f"/api/daily/entries/{token}/review")
            client.call("GET", "/api/daily/week")
            client.call("GET", "/api/daily/table")
            return token, moves
        view = client.call("POST", f"/api/daily/entries/{token}/next", {})


def load_field(
    engine: sa.Engine,
    when: date,
    entries: int,
    pool: int,
    level: str,
    rng: random.Random,
    past: bool = True,
) -> float:
    """``entries`` entries of the day ``when`` (made: its seed is in the database) with a
    result on every board, written as the service writes them (each a real hand, drawn
    from ``pool`` hands a board played out by the computer players of ``level``; with
    ``past``, each written at the time it would have come before now, at 10,000 entries a
    day, for a server that has not read the day yet; else now): the seconds it took."""
    from fivehundred.boards import BoardResult, make_boards
    from fivehundred.bots import make_player
    from fivehundred.web.daily import Day, Entry, result_row
    from fivehundred.web.schema import daily_days, daily_entries, daily_results

    with engine.connect() as db:
        row = db.execute(sa.select(daily_days.c.seed, daily_days.c.boards)).one()
    boards = make_boards(row.seed, int(row.boards))
    hands: dict[int, list[Any]] = {}
    for board in boards:
        hands[board.number] = []
        for k in range(pool):
            state = board.start()
            players = [make_player(level, rng.randrange(2**31)) for _ in range(4)]
            while not state.is_over:
                state.apply(players[state.to_move].act(state.observation(state.to_move)))
            hands[board.number].append((state, BoardResult.from_state(board, f"pool {k}", state)))
    day = Day(when, boards)
    start = time.perf_counter()
    batch = 500
    for first in range(0, entries, batch):
        entry_rows, result_rows = [], []
        for k in range(first, min(entries, first + batch)):
            name = f"field {k}"
            key = hashlib.sha256(name.encode()).hexdigest()
            entry = Entry(key, name, day, None, 1, len(boards) - 1)
            last_state = None
            for board in boards:
                state, result = rng.choice(hands[board.number])
                last_state = state
                row = result_row(entry, "australian", result)
                if past:  # written as they would have come
                    row["at"] = start - (entries - k) * SECONDS_A_DAY / 10_000
                result_rows.append(row)
            assert last_state is not None
            entry_rows.append(
                {
                    "token_hash": key,
                    "day": when.isoformat(),
                    "preset": "australian",
                    "name": name,
                    "account_id": None,
                    "board": len(boards),
                    "moves": str(list(last_state.history)),
                    "version": 2 * len(boards),
                    "created": time.time(),
                }
            )
        with engine.begin() as db:
            db.execute(daily_entries.insert(), entry_rows)
            db.execute(daily_results.insert(), result_rows)
    return time.perf_counter() - start


def database_cpu(engine: sa.Engine) -> dict[int, float]:
    """The CPU seconds of each PostgreSQL process serving the database (on this machine;
    none for SQLite, which runs in the server's process)."""
    if engine.dialect.name != "postgresql":
        return {}
    query = "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
    with engine.connect() as db:
        pids = db.execute(sa.text(query)).scalars().all()
    out = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            out[pid] = cpu_seconds(pid)
    return out


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for_pars(engine: sa.Engine, when: date, boards: int, seconds: float) -> bool:
    """Whether every par of the day was in the database within ``seconds``."""
    from fivehundred.web.schema import daily_pars

    query = sa.select(sa.func.count()).where(daily_pars.c.day == when.isoformat())
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with engine.connect() as db:
            if db.execute(query).scalar_one() >= boards:
                return True
        time.sleep(0.5)
    return False


def run(
    entries: int,
    level: str = "medium",
    field: int = 0,
    pars: bool = True,
    seed: int = 1,
    pg: str = "",
    pool: int = 40,
) -> dict[str, Any]:
    """Start a server, play ``entries`` entries through its routes (after a field of
    ``field`` and, with ``pars``, the day's pars): the figures, and what the database
    holds of the entries afterwards."""
    with own_database(pg) as url:
        return serve_and_play(url, entries, level, field, pars, seed, pool)


@contextlib.contextmanager
def own_database(pg: str = "") -> Iterator[str]:
    """A database of the bench's own: a fresh SQLite file, or with ``pg`` (a PostgreSQL
    server's URL) a database ``fh_bench_daily_<pid>`` made on it and dropped at the end."""
    if not pg:
        yield f"sqlite:///{tempfile.mkdtemp(prefix='bench-daily-')}/bench.sqlite3"
        return
    base = sa.engine.make_url(pg)
    name = f"fh_bench_daily_{os.getpid()}"
    admin = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(sa.text(f'CREATE DATABASE "{name}"'))
    try:
        yield base.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def serve_and_play(
    url: str, entries: int, level: str, field: int, pars: bool, seed: int, pool: int
) -> dict[str, Any]:
    """:func:`run` on the database ``url``."""
    from fivehundred.daily import today
    from fivehundred.web.schema import daily_entries, daily_results
    from fivehundred.web.store import Store

    work = tempfile.mkdtemp(prefix="bench-daily-")
    env = {
        **os.environ,
        "FIVEHUNDRED_DATA_DIR": work,
        "FIVEHUNDRED_DAILY_SECRET": "bench",
        "FIVEHUNDRED_DAILY_LEVEL": level,
    }
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "fivehundred", "serve", "--port", str(port), "--db", url,
         "--log-level", "warning", "--workers", "0"],
        env=env,
    )  # fmt: skip
    engine = None
    out: dict[str, Any] = {"entries": entries, "field": field, "level": level}
    try:
        client = Client(port)
        for _ in range(600):
            try:
                info = client.call("GET", "/api/daily")  # the day is made: its pars start
                break
            except OSError:
                time.sleep(0.1)
                client = Client(port)
        else:
            raise RuntimeError("the server did not start")
        when = date.fromisoformat(info["day"])
        assert when == today()
        engine = Store(url).engine
        rng = random.Random(seed)
        if field:
            out["field_seconds"] = load_field(engine, when, field, pool, "heuristic", rng)
        if pars:
            start = time.perf_counter()
            out["pars_done"] = wait_for_pars(engine, when, len(info["boards"]), 900)
            out["pars_seconds"] = time.perf_counter() - start
            out["pars_cpu"] = children_cpu(server.pid)
        cpu = cpu_seconds(server.pid)
        wall = time.perf_counter()
        client.call("GET", "/api/daily/table")  # the server's first read of the day
        out["first_read_seconds"] = time.perf_counter() - wall
        out["first_read_cpu"] = cpu_seconds(server.pid) - cpu
        client = Client(port)
        before = database_cpu(engine)
        cpu, wall = cpu_seconds(server.pid), time.perf_counter()
        tokens, moves = [], 0
        for k in range(entries):
            token, made = play_entry(client, rng, f"bench {k}")
            tokens.append(token)
            moves += made
        out["cpu"] = cpu_seconds(server.pid) - cpu
        out["wall"] = time.perf_counter() - wall
        after = database_cpu(engine)
        out["database_cpu"] = sum(t - before.get(pid, 0.0) for pid, t in after.items())
        out["moves"] = moves
        out["requests"] = len(client.latencies)
        lat = sorted(client.latencies)
        out["median_ms"] = statistics.median(lat) * 1000
        out["p99_ms"] = lat[int(0.99 * (len(lat) - 1))] * 1000
        out["cpu_per_entry"] = (out["cpu"] + out["database_cpu"]) / entries
        out["entries_a_day"] = SECONDS_A_DAY * CORES / out["cpu_per_entry"]
        keys = [hashlib.sha256(t.encode()).hexdigest() for t in tokens]
        with engine.connect() as conn:
            out["finished"] = conn.execute(
                sa.select(sa.func.count()).where(
                    daily_entries.c.token_hash.in_(keys), daily_entries.c.board == 12
                )
            ).scalar_one()
            out["results"] = conn.execute(
                sa.select(sa.func.count()).where(daily_results.c.token_hash.in_(keys))
            ).scalar_one()
    finally:
        server.terminate()
        server.wait(30)
        if engine is not None:
            engine.dispose()
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entries", type=int, default=20)
    parser.add_argument("--level", default="medium")
    parser.add_argument("--field", type=int, default=5_000, help="entries played before")
    parser.add_argument("--pool", type=int, default=40, help="hands a board of the field")
    parser.add_argument("--no-pars", action="store_true", help="play before the pars are in")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--pg", default="", help="a PostgreSQL server (URL) to make the database on"
    )
    args = parser.parse_args(argv)
    out = run(args.entries, args.level, args.field, not args.no_pars, args.seed, args.pg, args.pool)
    if "pars_seconds" in out:
        print(
            f"the day's 12 pars: {out['pars_seconds']:.1f} s, {out['pars_cpu']:.1f} s of CPU "
            f"in the server's process of pars (not counted below)"
        )
    print(
        f"the field: {out['field']} entries before; the server's first read of the day "
        f"{out['first_read_seconds']:.2f} s ({out['first_read_cpu']:.2f} s of its CPU)"
    )
    print(
        f"{out['entries']} entries ({out['finished']} finished, {out['results']} results, "
        f"{out['moves']} moves of South, {out['requests']} requests) in {out['wall']:.1f} s: "
        f"server CPU {out['cpu']:.1f} s (and the database's {out['database_cpu']:.1f} s), "
        f"{out['cpu_per_entry']:.3f} s an entry; "
        f"{out['entries_a_day']:,.0f} entries a day on {CORES} cores; request latency "
        f"median {out['median_ms']:.1f} ms, p99 {out['p99_ms']:.1f} ms"
    )
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
