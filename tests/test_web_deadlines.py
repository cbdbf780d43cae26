"""Deadlines as rows fired by one scheduler (``fivehundred.web.deadlines``): a person's grace
set while one server owns the table is honoured by the server that takes it over after a
SIGKILL (and by the same server started again on SQLite), not started again; the turn clock
is written in the transaction of the action before it; the scheduler fires a row once."""

from __future__ import annotations

import asyncio
import json
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from fivehundred.web.server import create_app
from test_web_support import database_url, free_port, start_server_process, wait_for


def rows(url: str, query: str, **values: Any) -> list[Any]:
    engine = sa.create_engine(url)
    try:
        with engine.begin() as db:
            result = db.execute(sa.text(query), values)
            return list(result.all()) if result.returns_rows else []
    finally:
        engine.dispose()


def grace_row(url: str, code: str) -> Any:
    found = rows(
        url,
        "SELECT d.due, d.fired FROM deadlines d JOIN tables t ON t.id = d.table_id "
        "WHERE t.code = :code AND d.kind = 'grace' AND d.seat = 0",
        code=code,
    )
    return found[0] if found else None


def stand_in_move(url: str, code: str) -> Any:
    found = rows(
        url,
        "SELECT a.at FROM actions a JOIN tables t ON t.id = a.table_id "
        "WHERE t.code = :code AND a.seat = 0 AND a.by = 'stand_in' ORDER BY a.version LIMIT 1",
        code=code,
    )
    return found[0] if found else None


def seated_table(base: str, grace: float) -> str:
    """A table where Ann took seat 0 and never connected (her grace runs from then)."""
    body = {
        "seats": ["open", "random", "random", "random"],
        "seed": 5,
        "options": {"delay": 0, "grace": grace, "stand_in": "random"},
    }
    code = str(httpx.post(f"{base}/api/tables", json=body).json()["table"])
    answer = httpx.post(f"{base}/api/tables/{code}/seats/0", json={"name": "Ann"})
    assert answer.status_code == 200, answer.text
    return code


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGKILL)
    process.wait(10)


def test_a_grace_set_before_its_owner_is_killed_is_honoured_by_the_next_server(
    tmp_path: Path,
) -> None:
    url = database_url("postgresql", tmp_path)
    ports = [free_port(), free_port()]
    first = start_server_process(url, ports[0], tmp_path / "0")
    second = None
    try:
        code = seated_table(f"http://127.0.0.1:{ports[0]}", grace=4.0)
        set_before = wait_for(lambda: grace_row(url, code), 10, "Ann's grace is a row")
        assert not set_before.fired
        first.send_signal(signal.SIGKILL)  # the owner (and the scheduler) dies
        first.wait(10)
        second = start_server_process(url, ports[1], tmp_path / "1")
        ready = time.time()
        moved = wait_for(lambda: stand_in_move(url, code), 60, "the stand-in plays for Ann")
        assert moved.at >= set_before.due, "not before her grace was over"
        # started again with the new server, it would have run a whole grace from its start
        assert moved.at < ready + 4.0, "the grace is not started again"
        after = grace_row(url, code)  # (none once the game is over: a hand can end it)
        assert after is None or (after.fired and after.due == set_before.due)
    finally:
        stop(first)
        if second is not None:
            stop(second)


def test_a_grace_is_honoured_by_the_same_server_started_again(tmp_path: Path) -> None:
    url = database_url("sqlite", tmp_path)
    port = free_port()
    server = start_server_process(url, port, tmp_path / "0")
    try:
        code = seated_table(f"http://127.0.0.1:{port}", grace=3.0)
        set_before = wait_for(lambda: grace_row(url, code), 10, "Ann's grace is a row")
        server.send_signal(signal.SIGKILL)
        server.wait(10)
        server = start_server_process(url, port, tmp_path / "0")
        ready = time.time()
        moved = wait_for(lambda: stand_in_move(url, code), 60, "the stand-in plays for Ann")
        assert moved.at >= set_before.due
        assert moved.at < ready + 3.0, "the grace is not started again"
        after = grace_row(url, code)
        assert after is None or (after.fired and after.due == set_before.due)
    finally:
        stop(server)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_turn_clock_is_written_with_the_action_before_it_and_fired_once(
    kind: str, tmp_path: Path
) -> None:
    url = database_url(kind, tmp_path)
    with TestClient(create_app(url, workers=0, allow_seeds=True)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        body = {
            "seats": ["open", "random", "random", "random"],
            "seed": 2,
            "options": {"delay": 0, "turn_timer": 1, "stand_in": "random"},
        }
        code = client.post("/api/tables", json=body).json()["table"]
        token = client.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).json()["token"]
        with client.websocket_connect(f"/ws/tables/{code}?token={token}") as ws:
            while True:
                message = ws.receive_json()
                if message["type"] == "view" and message["view"]["legal"]:
                    break
            version = message["version"]
            clock = wait_for(
                lambda: rows(
                    url,
                    "SELECT d.seat, d.version, d.due, d.fired FROM deadlines d "
                    "JOIN tables t ON t.id = d.table_id WHERE t.code = :code AND d.kind = 'turn'",
                    code=code,
                ),
                10,
                "Ann's turn clock",
            )
            assert [(c.seat, c.version) for c in clock] == [(0, version)]
            assert clock[0].due == pytest.approx(message["view"]["table"]["turn_deadline"])
            if version:  # written in the transaction of the action before it
                before = rows(
                    url,
                    "SELECT a.at FROM actions a JOIN tables t ON t.id = a.table_id "
                    "WHERE t.code = :code AND a.version = :v",
                    code=code,
                    v=version,
                )
                assert clock[0].due == pytest.approx(before[0].at + 1, abs=0.5)
            fired = hub.scheduler.fired
            while True:
                message = ws.receive_json()
                if message["type"] == "view" and message["version"] > version:
                    break
        timed = rows(
            url,
            "SELECT a.seat, a.by FROM actions a JOIN tables t ON t.id = a.table_id "
            "WHERE t.code = :code AND a.version = :v",
            code=code,
            v=version + 1,
        )
        assert [(t.seat, t.by) for t in timed] == [(0, "timer")]
        assert hub.scheduler.fired >= fired + 1


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_an_expiry_is_a_row_that_outlives_a_restart(kind: str, tmp_path: Path) -> None:
    """A table nobody joined is closed when its expiry's row fires, its time set before a
    restart (not started again by the next server)."""
    url = database_url(kind, tmp_path)
    with TestClient(create_app(url, workers=0)) as client:
        body = {"seats": ["open", "random", "random", "random"]}
        code = client.post("/api/tables", json=body).json()["table"]
        query = (
            "SELECT d.seat, d.due FROM deadlines d JOIN tables t ON t.id = d.table_id "
            "WHERE t.code = :code AND d.kind = 'expire'"
        )
        expiry = wait_for(lambda: rows(url, query, code=code), 10, "the expiry's row")
        assert [e.seat for e in expiry] == [0]  # nobody joined
        assert expiry[0].due > time.time() + 800  # the server's expire_unjoined: 900 s
    # the server is down while the time passes: the expiry is due when the next one starts
    rows(
        url,
        "UPDATE deadlines SET due = :now WHERE kind = 'expire' AND table_id = "
        "(SELECT id FROM tables WHERE code = :code)",
        now=time.time(),
        code=code,
    )
    with TestClient(create_app(url, workers=0)) as client:
        facts = wait_for(
            lambda: (f := client.get(f"/api/tables/{code}").json())["closed"] and f,
            30,
            "the table closed by its expiry",
        )
        assert not facts["finished"]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_an_action_writes_the_deadlines_it_changes_in_its_transaction_and_nothing_more(
    kind: str, tmp_path: Path
) -> None:
    """Each action at a table with a turn clock is one transaction, the clock it sets in it
    (a computer's action that neither ends a clock nor starts one touches no deadline); the
    scheduler, told when the clock is due, reads nothing until then; the rows a person's
    leaving needs go in the group commit, not in a transaction of their own."""
    from fivehundred.actions import action_text
    from fivehundred.rules import make_rules
    from fivehundred.web.guard import Limits
    from fivehundred.web.live import Connection, Decider, Hub
    from fivehundred.web.store import AsyncStore, Store

    url = database_url(kind, tmp_path)
    statements: list[str] = []
    commits = [0]

    async def scenario() -> None:
        store = AsyncStore(Store(url))
        hub = Hub(store, Decider(0), limits=Limits(open_seat_grace=3600))
        await hub.start()
        await hub.scheduler.stop()  # (its looks are the test's)
        engine = store.store.engine
        sa.event.listen(engine, "before_cursor_execute", lambda *a: statements.append(a[2]))
        sa.event.listen(engine, "commit", lambda _: commits.__setitem__(0, commits[0] + 1))
        try:
            options = {"delay": 3600, "turn_timer": 600}  # (the computers move when told)
            seats = ["open", "random", "random", "random"]
            table = await hub.create(make_rules("australian"), seats, None, options, 7)
            token = await table.take_seat(0, "Ann")
            conn = Connection(None, 0, "Ann")  # type: ignore[arg-type]
            assert table.seat_of_token(token) == 0
            table.attach(conn)

            async def rows() -> dict[tuple[str, int], float]:
                found = await store.call(hub.scheduler.store.of_table, table.id)
                return {key: d.due for key, d in found.items()}

            async def settled() -> None:  # the rows the table planned are written
                for _ in range(500):
                    if await rows() == {k: d.due for k, d in table.deadlines.items()}:
                        return
                    await asyncio.sleep(0.01)
                raise AssertionError(f"{table.deadlines} never written")

            await settled()
            await hub.scheduler.fire()  # (the first look reads the rows)
            kinds = set()
            while len(kinds) < 3 or table.model.to_move != 0:
                seat = table.model.to_move
                text = action_text(table.model.legal_actions()[0], table.rules.joker_names)
                ticking = [k for k in table.deadlines if k[0] == "turn"]
                statements.clear()
                commits[0] = 0
                if seat == 0:
                    message = {"type": "action", "version": table.version, "action": text}
                    assert await table.handle(conn, json.dumps(message))
                else:
                    async with table.lock:
                        await table.commit(
                            seat, table.checked(seat, table.version, text), "computer"
                        )
                clock = [k for k in table.deadlines if k[0] == "turn"]
                touched = [s for s in statements if "deadlines" in s]
                assert commits[0] == 1, statements
                if not ticking and not clock:
                    assert touched == [], "no clock ended, none started"
                    kinds.add("none")
                else:
                    assert touched, "the clock ended or started with the action"
                    kinds.add("started" if clock else "ended")
                assert await rows() == {k: d.due for k, d in table.deadlines.items()}
            assert table.deadlines.keys() == {("turn", 0)}
            due = table.deadlines[("turn", 0)].due
            assert hub.scheduler.next_due == pytest.approx(due)
            statements.clear()
            assert await hub.scheduler.fire() > 0
            assert statements == [], "nothing is due: nothing is read"
            # Ann leaves: her grace and the expiry are written in a group commit
            group = store.commits
            commits[0] = 0
            table.detach(conn)
            await settled()
            assert {k[0] for k in table.deadlines} == {"turn", "grace", "expire"}
            assert (store.commits - group, commits[0]) == (1, 1)
            assert hub.scheduler.next_due == pytest.approx(due)  # (the grace is later)
        finally:
            await hub.stop()
            store.close()

    asyncio.run(scenario())
