"""A club night online at scale (web/events/nights*.py): a club of ``4 × --tables`` members
(200 for 50 tables), every member entered in a pair, a night of ``--rounds`` rounds of
``--boards`` boards scheduled and started through the API as the pages do it; nobody
connects, so the computer stands in for every seat after the night's grace (one second)
and plays at once (the tables' delay 0, as the tests play), every table of every round.
Printed: the time to make the club and enter the pairs, the time from the start to the
night's standings, each board result's lag after its table's last card (the target: the
results within 30 s of the last card), and the process's CPU.

The server is the app itself in this process (Starlette's TestClient: its event loop runs
the hub, the tables and the nights' loop in a thread), on a database of its own: a fresh
SQLite file, or with ``--pg URL`` a database ``fh_bench_night_<pid>`` this bench makes on
that PostgreSQL server and drops at the end.

    python bench/bench_night.py                    # 50 tables, 2 rounds of 1 board
    python bench/bench_night.py --tables 12 --rounds 3 --boards 2
    python bench/bench_night.py --pg postgresql+psycopg://USER@HOST/postgres
"""

from __future__ import annotations

import argparse
import contextlib
import os
import statistics
import sys
import tempfile
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from argon2 import PasswordHasher

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from fivehundred.web.accounts import COOKIE, AccountsConfig
from fivehundred.web.guard import Buckets
from fivehundred.web.schema import night_games, tables
from fivehundred.web.server import create_app

PASSWORD = "correct horse battery staple 42"
#: the longest a night of the bench may take (seconds) before it is given up
NIGHT_LIMIT = 1800.0


class Member:
    """A member's requests through the one client (its own session each)."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.client = client
        self.name = name
        client.cookies.clear()
        answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
        if answer.status_code != 201:
            raise SystemExit(f"bench_night: account {name}: {answer.status_code} {answer.text}")
        self.session = answer.cookies[COOKIE]
        client.cookies.clear()

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        self.client.cookies.clear()
        answer = self.client.request(
            method, path, json=body, headers={"cookie": f"{COOKIE}={self.session}"}
        )
        return answer

    def ok(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        answer = self.call(method, path, body)
        if not answer.is_success:
            raise SystemExit(f"bench_night: {method} {path}: {answer.status_code} {answer.text}")
        return answer.json()


def cpu() -> float:
    times = os.times()
    return times.user + times.system


@contextlib.contextmanager
def database(pg: str | None) -> Iterator[str]:
    """A database of the bench's own: a fresh SQLite file, or a PostgreSQL database it
    makes (and drops at the end) on the server of ``pg``."""
    if pg is None:
        with tempfile.TemporaryDirectory(prefix="fh-bench-night-") as folder:
            yield f"sqlite:///{Path(folder) / 'night.sqlite3'}"
        return
    name = f"fh_bench_night_{os.getpid()}"
    admin = sa.create_engine(pg, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as db:
            db.execute(sa.text(f'CREATE DATABASE "{name}"'))
        yield sa.make_url(pg).set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as db:
            db.execute(sa.text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


def run(table_count: int, rounds: int, boards: int, pg: str | None = None) -> dict[str, Any]:
    """Make the club, enter the pairs, play the night; the figures (see the module)."""
    with database(pg) as url:
        app = create_app(
            url,
            workers=0,
            cluster=False,
            accounts_config=AccountsConfig(login_per_minute=100_000, login_burst=100_000),
        )
        with TestClient(app) as client:
            # the members' passwords hashed cheaply: the sign-ups are not what is measured
            app.state.accounts.hasher = PasswordHasher(time_cost=1, memory_cost=1024)
            app.state.clubs.writes = Buckets(100_000, 100_000)
            app.state.events.writes = Buckets(100_000, 100_000)
            app.state.accounts.signups = Buckets(100_000, 100_000)
            app.state.nights.table_options = {"delay": 0.0}  # the computer's moves at once
            app.state.nights.pars = False  # the pars' process is apart: not measured here
            return play(client, app, table_count, rounds, boards)


def play(
    client: TestClient, app: Any, table_count: int, rounds: int, boards: int
) -> dict[str, Any]:
    began, cpu_began = time.monotonic(), cpu()
    members = [Member(client, f"Member{i}") for i in range(4 * table_count)]
    admin = members[0]
    slug = admin.ok("POST", "/api/clubs", {"name": "Bench Club", "public": True})["slug"]
    code = admin.ok("POST", f"/api/clubs/{slug}/invites")["code"]  # one link for all
    for member in members[1:]:
        member.ok("POST", "/api/clubs/join", {"code": code})
    club = admin.ok("GET", f"/api/clubs/{slug}")
    body = {"club": slug, "name": "Bench night", "grace": 1, "per_round": boards}
    night = admin.ok("POST", "/api/nights", {**body, "rounds": rounds})["id"]
    for first, second in zip(members[::2], members[1::2], strict=True):
        first.ok("POST", f"/api/nights/{night}/pairs", {"partner": second.name})
    made, cpu_made = time.monotonic(), cpu()
    if admin.ok("POST", f"/api/nights/{night}/start") != {"started": True}:
        raise SystemExit("bench_night: the night did not start")
    shown: dict[str, Any] = {}
    while time.monotonic() - made < NIGHT_LIMIT:
        shown = admin.ok("GET", f"/api/nights/{night}")
        if shown["state"] == "finished":
            break
        time.sleep(0.5)  # a person's page asks again; the night goes on meanwhile
    else:
        raise SystemExit(f"bench_night: the night was not over in {NIGHT_LIMIT:.0f} s")
    ended, cpu_ended = time.monotonic(), cpu()
    engine = app.state.store.store.engine
    with engine.connect() as db:
        games = db.execute(
            sa.select(night_games.c.code, night_games.c.finished).where(
                night_games.c.night_id == night
            )
        ).all()
        last_card = dict(db.execute(sa.select(tables.c.code, tables.c.finished)).all())
    lags = sorted(g.finished - last_card[g.code] for g in games)
    return {
        "tables": table_count,
        "members": len(club["members"]),
        "pairs": 2 * table_count,
        "games": len(games),
        "standings": len(shown["standings"]),
        "setup_seconds": made - began,
        "setup_cpu": cpu_made - cpu_began,
        "night_seconds": ended - made,
        "night_cpu": cpu_ended - cpu_made,
        "lag_max": lags[-1],
        "lag_median": statistics.median(lags),
        "lag_p99": lags[min(len(lags) - 1, int(0.99 * len(lags)))],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="tables of four (default 50)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--boards", type=int, default=1, help="boards a round")
    parser.add_argument("--pg", default=None, help="a PostgreSQL server's URL (its own db)")
    args = parser.parse_args(argv)
    if not 1 <= args.tables <= 100 or args.rounds < 1 or args.boards < 1:
        parser.error("1 to 100 tables, and at least one round of one board")
    out = run(args.tables, args.rounds, args.boards, args.pg)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(
        f"{out['tables']} tables, {out['members']} members, {out['pairs']} pairs, "
        f"{args.rounds} rounds of {args.boards} board(s): {out['games']} board results, "
        f"{out['standings']} lines of standings ({'PostgreSQL' if args.pg else 'SQLite'}, "
        f"{os.cpu_count()} CPUs, load average at the end {load})"
    )
    print(f"club and entries: {out['setup_seconds']:.1f} s ({out['setup_cpu']:.1f} s CPU)")
    print(
        f"the night, start to standings: {out['night_seconds']:.1f} s "
        f"({out['night_cpu']:.1f} s CPU, {out['night_cpu'] / out['games']:.3f} s a board result)"
    )
    print(
        f"a result after its table's last card: median {out['lag_median']:.3f} s, "
        f"p99 {out['lag_p99']:.3f} s, max {out['lag_max']:.3f} s (target: under 30 s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
