"""The pars' background work (web/par_work.py): one process per server for the daily's and
the club nights' pars, gone with the server; and a claim per board in the database, so
that servers of one database work out each par once, a dead server's claim taken over once
its lease is past."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from fivehundred.boards import Board, Par
from fivehundred.web import par_work
from fivehundred.web.accounts import AccountsConfig
from fivehundred.web.daily import DailyService
from fivehundred.web.guard import Buckets
from fivehundred.web.schema import daily_pars, par_claims
from fivehundred.web.server import create_app
from test_web_nights import club_of, scheduled
from test_web_support import db_url  # noqa: F401  (fixture)

DAY = date(2026, 12, 6)
SECRET = "test-secret"


def daily(engine: Any, boards: int = 2) -> DailyService:
    return DailyService(
        SECRET, boards=boards, clock=lambda: DAY, pars=False, engine=engine, table_seconds=0
    )


def test_a_days_and_a_nights_pars_go_through_the_servers_one_process(tmp_path: Path) -> None:
    app = create_app(
        f"sqlite:///{tmp_path / 'p.sqlite3'}",
        workers=0,
        cluster=False,
        accounts_config=AccountsConfig(login_per_minute=1000, login_burst=1000),
    )
    with TestClient(app) as client:
        app.state.events.writes = Buckets(1000, 1000)
        app.state.nights.pars = False  # worked out below, in this thread
        engine = app.state.store.store.engine
        before = par_work.PARS.solves
        slug, people = club_of(client, 8)
        night = scheduled(people[0], slug, people, per_round=1, rounds=2)
        assert people[0].post(f"/api/nights/{night}/start").json() == {"started": True}
        assert app.state.nights.store.work_out_pars(night) == 2
        pool = par_work.PARS.pool
        assert pool is not None
        service = daily(engine)
        service.work_out_pars(service.today())
        assert len(service.today().done_pars()) == 2
        # the night's two boards and the day's two, in one process made once
        assert par_work.PARS.pool is pool and par_work.PARS.solves == before + 4
        processes = list(pool._processes.values())  # type: ignore[attr-defined]
        assert len(processes) == 1 and processes[0].is_alive()
    # the server stopped: its process of pars went with it, and no other is made
    assert par_work.PARS.pool is None
    processes[0].join(10)
    assert not processes[0].is_alive()
    with pytest.raises(RuntimeError):
        par_work.PARS.solve(service.today().boards[0])
    par_work.PARS.start()  # as the next server's start does


@pytest.fixture
def engine(db_url: str) -> Iterator[Any]:  # noqa: F811
    from fivehundred.web.store import Store

    # a server stopped earlier in this process (another test's) closed the pars' pool:
    # open it, as a server's start does (a closed pool ends the work at its first error)
    par_work.PARS.start()
    store = Store(db_url)
    yield store.engine
    store.close()


def counted(solves: list[int]) -> Callable[[Board], Par]:
    lock = threading.Lock()

    def par_of(board: Board) -> Par:
        with lock:
            solves.append(board.number)
        return par_work.solve(board)

    return par_of


def test_two_servers_work_out_each_par_once(engine: Any) -> None:
    servers = [daily(engine, boards=3), daily(engine, boards=3)]
    solves: list[int] = []
    threads = [
        threading.Thread(target=s.work_out_pars, args=(s.today(), counted(solves))) for s in servers
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    assert not any(thread.is_alive() for thread in threads)
    assert sorted(solves) == [1, 2, 3]  # each board once, on one server or the other
    pars = [s.today().done_pars() for s in servers]
    assert sorted(pars[0]) == [1, 2, 3] and pars[0] == pars[1]  # each has every par
    with engine.connect() as db:
        assert db.execute(sa.select(sa.func.count()).select_from(daily_pars)).scalar() == 3
        assert db.execute(sa.select(sa.func.count()).select_from(par_claims)).scalar() == 0


def test_a_claim_is_held_until_its_lease_ends(engine: Any) -> None:
    assert par_work.claim(engine, "k", "a")
    assert not par_work.claim(engine, "k", "b")  # held
    assert par_work.claim(engine, "gone", "dead", lease=-1)  # its lease already past
    assert par_work.claim(engine, "gone", "b")  # taken over
    assert not par_work.claim(engine, "gone", "c")  # by one only
    par_work.release(engine, "gone", "dead")  # not the holder's any more: kept
    assert not par_work.claim(engine, "gone", "c")
    par_work.release(engine, "gone", "b")
    assert par_work.claim(engine, "gone", "c")


def test_a_dead_servers_claim_is_taken_over(engine: Any) -> None:
    """A server killed while it solved board 1 left its claim: another works the board
    out once the lease is past, and meanwhile the other boards."""
    service = daily(engine)
    day = service.today()
    job = service.par_job(day, day.boards[0])
    assert par_work.claim(engine, job.key, "dead", lease=0.5)
    solves: list[int] = []
    service.work_out_pars(day, counted(solves))
    assert sorted(solves) == [1, 2] and sorted(day.done_pars()) == [1, 2]
    with engine.connect() as db:
        assert db.execute(sa.select(sa.func.count()).select_from(par_claims)).scalar() == 0
