"""The outbox of a finished game's work (web/outbox.py), on PostgreSQL: two workers racing
for one game's rating row apply it once (the one that comes second passes the locked row
by, and finds it gone after); with two real servers, the server whose worker is rating a
game is killed (SIGKILL) before its rating commits, and the other server rates the game,
once. PostgreSQL tests are skipped without ``$FIVEHUNDRED_TEST_PG_URL``."""

from __future__ import annotations

import asyncio
import signal
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

from fivehundred.rules import make_rules
from fivehundred.web.accounts import MIN_RATED_HANDS, AccountStore
from fivehundred.web.outbox import Outbox, OutboxStore
from fivehundred.web.schema import outbox, rated_games, rating_history
from fivehundred.web.store import AsyncStore, HandRow, SeatRow, Store
from test_web_support import database_url, free_port, start_server_process, wait_for

EXAMPLES = Path(__file__).parents[1] / "examples"
sys.path.insert(0, str(EXAMPLES))
from ws_player import play  # noqa: E402

PASSWORD = "bots have passwords too"
#: rating_history rows of one rated game of two partnerships: each person's, each pair's
ONCE = 4 + 2


def a_finished_game(url: str) -> str:
    """A game of four accounts at four addresses, over after enough hands to be rated,
    written as the server writes it (its end with its outbox row); its code."""
    store = Store(url)
    store.follow_ups = ("rate",)
    accounts = AccountStore(store.engine)
    code = "RACE00000001"
    seats = [SeatRow(s, "person") for s in range(4)]
    rules = {"preset": "australian", "variants": {}}
    table_id = store.create_table(code, "Race", rules, {}, 7, seats)
    assert table_id is not None
    for seat in range(4):
        account = accounts.create(f"Bot {seat}", "x", True)
        assert account is not None
        accounts.hold_seat(code, seat, account.id)
        accounts.seat_address(code, seat, f"10.0.0.{seat + 1}", None)
    for version in range(1, 8):
        last = version == 7
        hand = HandRow(MIN_RATED_HANDS, "7S", 0, True, [200, 0], [520, 40]) if last else None
        store.append_action(
            table_id, version, version % 4, "pass", "person", hand, (0, [520, 40]) if last else None
        )
    store.close()
    return code


def applied(url: str, code: str) -> tuple[int, int, int]:
    """(rated_games rows, rating_history rows, outbox rows) of ``code``."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as db:
            return (
                db.execute(sa.select(sa.func.count()).where(rated_games.c.code == code)).scalar()
                or 0,
                db.execute(sa.select(sa.func.count()).where(rating_history.c.code == code)).scalar()
                or 0,
                db.execute(sa.select(sa.func.count()).where(outbox.c.code == code)).scalar() or 0,
            )
    finally:
        engine.dispose()


def test_two_workers_racing_for_a_row_apply_it_once(tmp_path: Path) -> None:
    url = database_url("postgresql", tmp_path)
    code = a_finished_game(url)
    assert applied(url, code) == (0, 0, 1)  # the row was written with the game's end
    engines = [sa.create_engine(url), sa.create_engine(url)]  # two servers' connections
    first, second = (OutboxStore(e) for e in engines)
    ratings = AccountStore(engines[0])
    holding = threading.Event()
    release = threading.Event()
    calls: list[str] = []

    def rate_slowly(code: str, db: Any) -> str:
        calls.append(code)
        holding.set()  # the first worker holds the row, its rating not committed
        assert release.wait(30)
        return ratings.rate_game(code, db)

    results: list[Any] = []
    worker = threading.Thread(target=lambda: results.append(first.take_rating(rate_slowly)))
    worker.start()
    try:
        assert holding.wait(30)
        # the second worker comes while the first holds the row: it passes it by
        assert second.take_rating(AccountStore(engines[1]).rate_game) is None
    finally:
        release.set()
        worker.join(30)
    assert results == [(code, "rated")] and calls == [code]
    # after the first one's commit there is nothing left to take
    assert second.take_rating(AccountStore(engines[1]).rate_game) is None
    assert applied(url, code) == (1, ONCE, 0)
    # both workers at once, many times over an empty outbox: nothing more is applied
    barrier = threading.Barrier(2)

    def look(store: OutboxStore, engine: Any) -> None:
        barrier.wait(10)
        assert store.take_rating(AccountStore(engine).rate_game) is None

    racers = [
        threading.Thread(target=look, args=pair)
        for pair in zip((first, second), engines, strict=True)
    ]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(30)
    assert applied(url, code) == (1, ONCE, 0)
    for engine in engines:
        engine.dispose()


_addresses = iter(range(60, 250))


def test_a_server_killed_before_its_rating_commits_leaves_it_to_the_other(tmp_path: Path) -> None:
    """A rated game between bot accounts is played on two servers; while a transaction of
    the test holds ``ratings`` (so the rating cannot commit), the server whose worker
    is rating the game is killed; the other rates it, once."""
    url = database_url("postgresql", tmp_path)
    ports = [free_port(), free_port()]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    limits = ("--create-burst", "100", "--seat-burst", "100")  # a game after a short one
    servers = [
        start_server_process(url, port, tmp_path / str(i), *limits) for i, port in enumerate(ports)
    ]
    engine = sa.create_engine(url)
    try:
        rules = make_rules("australian", {"target": 150})
        clients = []
        for seat in range(4):
            local = httpx.HTTPTransport(local_address=f"127.0.0.{next(_addresses)}")
            client = httpx.Client(base_url=bases[seat % 2], transport=local)
            answer = client.post(
                "/api/accounts", json={"name": f"Bot {seat}", "password": PASSWORD, "bot": True}
            )
            assert answer.status_code == 201, answer.text
            clients.append(client)
        code = ""
        with engine.connect() as lock:
            # the test's transaction holds the ratings' table: a rated game's rating waits
            lock.execute(sa.text("LOCK TABLE ratings IN ACCESS EXCLUSIVE MODE"))
            for seed in range(40, 60):
                body = {
                    "seats": ["open"] * 4,
                    "seed": seed,
                    "rules": {"variants": {"target": 150}},
                    "options": {"delay": 0, "grace": 60},
                }
                made = httpx.post(f"{bases[0]}/api/tables", json=body, timeout=30)
                assert made.status_code == 201, made.text
                code = made.json()["table"]
                tokens = []
                for seat, client in enumerate(clients):
                    answer = client.post(f"/api/tables/{code}/seats/{seat}", json={"name": "x"})
                    assert answer.status_code == 200, answer.text
                    tokens.append(answer.json()["token"])

                async def all_play(code: str = code, tokens: list[str] = tokens) -> None:
                    await asyncio.gather(
                        *[
                            play(bases[s % 2], code, t, "heuristic", s, rules, quiet=True)
                            for s, t in enumerate(tokens)
                        ]
                    )

                asyncio.run(all_play())
                hands = httpx.get(f"{bases[1]}/api/tables/{code}").json()["hands_played"]
                if hands >= MIN_RATED_HANDS:
                    break
            # a worker has taken the game's row and waits for the lock: its server dies
            name = wait_for(lambda: waiting_rater(engine), 30, "a worker rating the game")
            pid = int(name.split()[2])
            killed = next(s for s in servers if s.pid == pid)
            killed.send_signal(signal.SIGKILL)
            killed.wait(30)
            lock.rollback()  # the lock is let go
        survivor = bases[1 - servers.index(killed)]

        def rated() -> bool:
            facts = httpx.get(f"{survivor}/api/tables/{code}/accounts").json()
            return bool(facts["rated_applied"])

        wait_for(rated, 30, "the game rated by the other server")
        wait_for(lambda: applied(url, code)[2] == 0, 10, "the row done")
        assert applied(url, code) == (1, ONCE, 0)
        board = httpx.get(f"{survivor}/api/leaderboard/australian").json()["players"]
        assert sorted(p["games"] for p in board) == [1, 1, 1, 1]
    finally:
        engine.dispose()
        for server in servers:
            if server.poll() is None:
                server.send_signal(signal.SIGTERM)
                server.wait(30)


def waiting_rater(engine: Any) -> str | None:
    """The application name of a server's database connection waiting for a lock."""
    with engine.connect() as db:
        return db.execute(
            sa.text(
                "SELECT application_name FROM pg_stat_activity WHERE datname = "
                "current_database() AND wait_event_type = 'Lock' AND application_name "
                "LIKE 'fivehundred store %'"
            )
        ).scalar()


def test_a_wake_as_the_worker_stops_does_not_keep_its_loop_going(tmp_path: Path) -> None:
    """The worker's stop cancels its loops: one woken at that very moment (a game ended as
    the server stops) stops too, rather than swallow the cancel and look again, with the
    stop waiting on it for ever (as ``asyncio.wait_for`` around the wake would on 3.11)."""
    store = Store(f"sqlite:///{tmp_path / 'o.sqlite3'}")

    async def main() -> bool:
        looks = 0

        async def look() -> None:
            nonlocal looks
            looks += 1

        wake = asyncio.Event()
        worker = Outbox(AsyncStore(store), lambda code, db: code, poll=3600.0)
        worker.also.append((look, wake, 3600.0))
        worker.start()
        while looks == 0:  # the loop has looked once and waits for its wake
            await asyncio.sleep(0)
        for _ in range(5):
            await asyncio.sleep(0)
        wake.set()
        stopping = asyncio.ensure_future(worker.stop())  # in the same turn of the loop
        done, _ = await asyncio.wait([stopping], timeout=10)
        return bool(done)

    try:
        stopped = asyncio.run(main())
    finally:
        store.close()
    assert stopped, "the stop waited on a loop that went on"
