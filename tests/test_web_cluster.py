"""Several servers on one PostgreSQL (``fivehundred.web.cluster``): two real server
processes; four people, two connected to each, play a whole hand at one table created
through one of them; the server that owns the table is killed (SIGKILL) in the middle of the
next hand, the other takes it over, the people connect again to it and finish the hand.
Every message each client received is checked for cards it may not know and for gaps in the
versions. Also: one SQLite database refuses a second server with one line. PostgreSQL tests
are skipped without ``$FIVEHUNDRED_TEST_PG_URL``."""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa
import websockets

from test_web_support import (
    check_messages,
    database_url,
    free_port,
    start_server_process,
    wait_for,
    wait_for_port,
    ws_url,
)

#: Within this many seconds of its owner's death another server plays the table.
TAKEOVER = 5.0


class Client:
    """A seated person: its connections (one after another) and every message received."""

    def __init__(self, seat: int, token: str, base: str) -> None:
        self.seat = seat
        self.token = token
        self.base = base
        self.ws: Any = None
        self.received: list[dict[str, Any]] = []
        #: the view versions of each connection, in order
        self.versions: list[list[int]] = []
        self.view: dict[str, Any] | None = None
        self.acted = -1

    async def connect(self, base: str | None = None) -> None:
        self.base = base or self.base
        self.ws = await websockets.connect(ws_url(self.base, CODE[0], self.token))
        self.view = None
        self.acted = -1
        self.versions.append([])


CODE: list[str] = [""]


def choose(view: dict[str, Any], rng: random.Random) -> str:
    """A random legal action, but the auction's first bid is the lowest and everyone else
    passes (a failed high bid could end the game at -500 before the test is done)."""
    legal: list[str] = view["legal"]
    if view["phase"] == "auction" and "pass" in legal:
        bids = [call for call in legal if call != "pass"]
        if bids and all(call == "pass" for call in view["auction"]):
            return bids[0]
        return "pass"
    return rng.choice(legal)


async def play(
    clients: list[Client], code: str, stop: Any, rng: random.Random, timeout: float = 60.0
) -> None:
    """Every client plays random legal actions until ``stop(view)`` holds for all of them."""
    deadline = time.monotonic() + timeout

    async def run(client: Client) -> None:
        while True:
            seen = client.view
            if seen is not None:
                if stop(seen):
                    return
                version = seen["version"]
                if seen["view"]["legal"] and version > client.acted:
                    client.acted = version
                    action = choose(seen["view"], rng)
                    await client.ws.send(
                        json.dumps({"type": "action", "version": version, "action": action})
                    )
            left = deadline - time.monotonic()
            try:
                message = json.loads(await asyncio.wait_for(client.ws.recv(), max(0.01, left)))
            except TimeoutError:
                states = [
                    (c.seat, c.view and c.view["version"], c.view and c.view["view"]["legal"])
                    for c in clients
                ]
                raise AssertionError(f"no end in {timeout} s: {states}") from None
            client.received.append(message)
            assert message["type"] != "error", message
            if message["type"] == "view":
                client.view = message
                client.versions[-1].append(message["version"])

    await asyncio.gather(*(run(c) for c in clients))


def owner_pid(url: str, table_id: int) -> int | None:
    """The process id of the server holding the table's lock (its application_name)."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as db:
            name = db.execute(
                sa.text(
                    "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a "
                    "ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.classid = 500 "
                    "AND l.objid = :id AND l.objsubid = 2 AND l.granted AND l.database = "
                    "(SELECT oid FROM pg_database WHERE datname = current_database())"
                ),
                {"id": table_id},
            ).scalar()
    finally:
        engine.dispose()
    return int(name.split()[2]) if name else None  # "fivehundred serve PID SERVER"


def test_two_servers_share_a_table_and_survive_the_owners_death(tmp_path: Path) -> None:
    url = database_url("postgresql", tmp_path)
    ports = [free_port(), free_port()]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    servers = [
        start_server_process(url, port, tmp_path / str(i))  # sharing: PostgreSQL's default
        for i, port in enumerate(ports)
    ]
    rng = random.Random(36)
    try:
        body = {
            "seats": ["open"] * 4,
            "seed": 36,
            "rules": {"variants": {"target": 2000}},
            "options": {"delay": 0, "grace": 600},
        }
        code = httpx.post(f"{bases[0]}/api/tables", json=body).json()["table"]
        CODE[0] = code
        # listed and joined through the other server too
        listed = httpx.get(f"{bases[1]}/api/tables", params={"open": 1}).json()["tables"]
        assert code in [t["table"] for t in listed]
        clients = []
        for seat in range(4):
            base = bases[seat % 2]  # seats 0 and 2 on the first server, 1 and 3 on the other
            answer = httpx.post(f"{base}/api/tables/{code}/seats/{seat}", json={"name": f"P{seat}"})
            assert answer.status_code == 200, answer.text
            clients.append(Client(seat, answer.json()["token"], base))
        facts = httpx.get(f"{bases[1]}/api/tables/{code}").json()
        assert [s["kind"] for s in facts["seats"]] == ["person"] * 4
        engine = sa.create_engine(url)
        with engine.connect() as db:
            table_id = db.execute(
                sa.text("SELECT id FROM tables WHERE code = :c"), {"c": code}
            ).scalar()
        engine.dispose()
        owner = wait_for(lambda: owner_pid(url, table_id), 10, "an owner")
        assert owner in (servers[0].pid, servers[1].pid)
        dead = 0 if owner == servers[0].pid else 1
        survivor = 1 - dead

        async def game() -> float:
            for client in clients:
                await client.connect()
            # a whole hand, then into the next one: its auction has begun
            await play(clients, code, lambda m: m["view"]["table"]["hands_played"] >= 1, rng)
            start = max(c.view["version"] for c in clients if c.view)  # type: ignore[index]
            await play(clients, code, lambda m: m["version"] >= start + 3, rng)
            paused = {c.view["version"] for c in clients if c.view}
            assert len(paused) == 1, paused
            killed_at = time.monotonic()
            servers[dead].send_signal(signal.SIGKILL)
            await asyncio.to_thread(servers[dead].wait, 30)
            await asyncio.to_thread(
                wait_for,
                lambda: owner_pid(url, table_id) == servers[survivor].pid,
                TAKEOVER,
                "the survivor owns the table",
            )
            takeover = time.monotonic() - killed_at
            for client in clients:
                if client.base == bases[dead]:
                    await client.ws.close()
                    await client.connect(bases[survivor])
            await play(clients, code, lambda m: m["view"]["table"]["hands_played"] >= 2, rng)
            for client in clients:
                await client.ws.close()
            return takeover

        takeover = asyncio.run(game())
        print(f"takeover: the survivor owned the table {takeover:.2f} s after the SIGKILL")
        assert takeover <= TAKEOVER
        record = httpx.get(f"{bases[survivor]}/api/tables/{code}/record").json()
        assert len(record["hands"]) >= 2
        checked = 0
        for client in clients:
            checked += check_messages(record, client.seat, client.received)
            # no version missed or repeated out of order, on each connection and across
            for versions in client.versions:
                steps = {b - a for a, b in itertools.pairwise(versions)}
                assert steps <= {0, 1}, (client.seat, versions)
            for before, after in itertools.pairwise(client.versions):
                assert after[0] >= before[-1]
        assert checked > 40
        # the log holds each version once, and the record replays
        path = tmp_path / "game.json"
        path.write_text(json.dumps(record))
        replay = subprocess.run(
            [sys.executable, "-m", "fivehundred", "replay", str(path)],
            capture_output=True,
            text=True,
        )
        assert replay.returncode == 0, replay.stderr + replay.stdout
    finally:
        for process in servers:
            if process.poll() is None:
                process.terminate()
                process.wait(30)


def test_a_second_server_on_one_sqlite_database_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    first = start_server_process(url, free_port(), tmp_path)
    try:
        env = {**os.environ, "FIVEHUNDRED_DATA_DIR": str(tmp_path)}
        second = subprocess.run(
            [
                sys.executable,
                "-m",
                "fivehundred",
                "serve",
                "--port",
                str(free_port()),
                "--db",
                url,
                "--workers",
                "0",
            ],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
        )
        assert second.returncode == 2
        lines = second.stderr.strip().splitlines()
        assert len(lines) == 1 and "another server already uses the SQLite database" in lines[0]
        assert "Traceback" not in second.stderr
    finally:
        first.terminate()
        first.wait(30)
    # once the first is gone, the database is free again
    port = free_port()
    again = start_server_process(url, port, tmp_path)
    try:
        wait_for_port(port)
    finally:
        again.terminate()
        again.wait(30)


def test_news_of_what_a_table_already_shows_sends_no_view(tmp_path: Path) -> None:
    """A server reads a table again when the others' news says it changed; a read that
    finds nothing new sends no view: a client acts on each view that offers it a move, so a
    second view of one version would make it act twice (the second refused as stale)."""
    from fivehundred.rules import make_rules
    from fivehundred.web.cluster import Cluster
    from fivehundred.web.guard import Limits
    from fivehundred.web.live import Connection, Decider, Hub
    from fivehundred.web.store import AsyncStore, Store

    url = database_url("postgresql", tmp_path)

    def views(conn: Connection) -> list[dict[str, Any]]:
        out = []
        while not conn.queue.empty():
            item = conn.queue.get_nowait()
            assert isinstance(item, str)
            out.append(json.loads(item))
        return out

    async def scenario() -> None:
        store = AsyncStore(Store(url))
        hub = Hub(store, Decider(0), limits=Limits(open_seat_grace=3600))
        hub.cluster = Cluster(url, hub)
        await hub.start()
        try:
            table = await hub.create(make_rules("australian"), ["open"] * 4, None, {}, 7)
            assert table.owned
            token = await table.take_seat(0, "Ann")
            conn = Connection(None, table.seat_of_token(token), "Ann")  # type: ignore[arg-type]
            table.attach(conn)
            assert [m["version"] for m in views(conn)] == [0]
            # what this server wrote itself: nothing to show again
            await table.refresh(with_log=False)
            await table.refresh()
            assert views(conn) == []
            # a seat taken through another server: shown once
            other = Store(url)
            try:
                assert other.take_seat(table.id, 2, "Cy", "0" * 64)
            finally:
                other.close()
            await table.refresh(with_log=False)
            shown = views(conn)
            assert len(shown) == 1 and shown[0]["view"]["table"]["seats"][2]["name"] == "Cy"
            table.detach(conn)
        finally:
            await hub.stop()
            store.close()

    asyncio.run(scenario())


def written_elsewhere(url: str, table: Any, count: int) -> None:
    """``count`` calls written straight to the database, as another server would."""
    from fivehundred.actions import action_text
    from fivehundred.web.live import copy_table
    from fivehundred.web.store import Store

    other = Store(url)
    try:
        shadow = copy_table(table.model)
        for version in range(1, count + 1):
            seat = shadow.to_move
            action = shadow.legal_actions()[0]
            text = action_text(action, table.rules.joker_names)
            other.append_action(table.id, version, seat, text, "test")
            shadow.apply(seat, action)
    finally:
        other.close()


def versions_sent(conn: Any) -> list[int]:
    """The versions of the views queued for ``conn`` (emptying its queue)."""
    shown = []
    while not conn.queue.empty():
        item = conn.queue.get_nowait()
        assert isinstance(item, str)
        shown.append(json.loads(item)["version"])
    return shown


def test_actions_another_server_wrote_are_shown_one_view_each(tmp_path: Path) -> None:
    """A server that reads a table again and finds its log grown (another server made
    actions meanwhile, as when a database restart cost it its lock) shows each action in
    its own view, as the clients of the server that made them saw them: no version is
    skipped on a connection."""
    from fivehundred.rules import make_rules
    from fivehundred.web.cluster import Cluster
    from fivehundred.web.guard import Limits
    from fivehundred.web.live import Connection, Decider, Hub
    from fivehundred.web.store import AsyncStore, Store

    url = database_url("postgresql", tmp_path)

    async def scenario() -> None:
        store = AsyncStore(Store(url))
        hub = Hub(store, Decider(0), limits=Limits(open_seat_grace=3600))
        hub.cluster = Cluster(url, hub)
        await hub.start()
        try:
            table = await hub.create(make_rules("australian"), ["open"] * 4, None, {}, 7)
            token = await table.take_seat(0, "Ann")
            conn = Connection(None, table.seat_of_token(token), "Ann")  # type: ignore[arg-type]
            table.attach(conn)
            written_elsewhere(url, table, 3)  # as another server would
            versions_sent(conn)
            await table.refresh()
            shown = versions_sent(conn)
            assert shown == [1, 2, 3]
            table.detach(conn)
        finally:
            await hub.stop()
            store.close()

    asyncio.run(scenario())


def test_a_server_taking_over_a_table_it_followed_behind_shows_every_version(
    tmp_path: Path,
) -> None:
    """A server that takes a table over (its lock came free, as after a database restart)
    having missed the news of actions another server made shows each of them in its own
    view before playing on: a connection kept through the take-over misses no version."""
    from fivehundred.rules import make_rules
    from fivehundred.web.cluster import Cluster
    from fivehundred.web.guard import Limits
    from fivehundred.web.live import Connection, Decider, Hub
    from fivehundred.web.store import AsyncStore, Store

    url = database_url("postgresql", tmp_path)

    async def scenario() -> None:
        store = AsyncStore(Store(url))
        hub = Hub(store, Decider(0), limits=Limits(open_seat_grace=3600))
        hub.cluster = Cluster(url, hub)
        await hub.start()
        try:
            table = await hub.create(make_rules("australian"), ["open"] * 4, None, {}, 7)
            token = await table.take_seat(0, "Ann")
            conn = Connection(None, table.seat_of_token(token), "Ann")  # type: ignore[arg-type]
            table.attach(conn)
            hub.lost_all()  # this server's locks went with its connection
            written_elsewhere(url, table, 4)  # another server played on; the news is lost
            versions_sent(conn)
            assert await hub.adopt(table.code)
            shown = versions_sent(conn)
            assert sorted(set(shown)) == [1, 2, 3, 4], shown
            assert {b - a for a, b in itertools.pairwise(shown)} <= {0, 1}, shown
            assert table.owned and table.version == 4
            table.detach(conn)
        finally:
            await hub.stop()
            store.close()

    asyncio.run(scenario())


def test_sharing_is_the_default_on_postgresql_and_can_be_refused(
    tmp_path: Path, monkeypatch: Any
) -> None:
    from fivehundred.web.cli import parse_serve_args
    from fivehundred.web.server import create_app

    monkeypatch.delenv("FIVEHUNDRED_CLUSTER", raising=False)
    assert parse_serve_args([])[0].cluster is None  # on, where the database is PostgreSQL
    assert parse_serve_args(["--no-cluster"])[0].cluster is False
    assert parse_serve_args(["--cluster"])[0].cluster is True
    monkeypatch.setenv("FIVEHUNDRED_CLUSTER", "0")
    assert parse_serve_args([])[0].cluster is False
    monkeypatch.setenv("FIVEHUNDRED_CLUSTER", "1")
    assert parse_serve_args([])[0].cluster is True
    url = database_url("postgresql", tmp_path)
    from fastapi.testclient import TestClient

    for cluster, shared in ((None, True), (False, False)):
        app = create_app(url, workers=0, cluster=cluster)
        with TestClient(app):
            assert (app.state.hub.cluster is not None) is shared
    sqlite = create_app(f"sqlite:///{tmp_path / 'one.sqlite3'}", workers=0)
    with TestClient(sqlite):
        assert sqlite.state.hub.cluster is None


def test_a_table_being_made_is_neither_taken_over_nor_read_twice(tmp_path: Path) -> None:
    """While its server is still making a table (its row is written, the server has not
    finished), the look for orphaned tables does not take it, and the lobby asking for it
    gets the one table the server makes, not a second copy."""
    import threading

    from fivehundred.rules import make_rules
    from fivehundred.web.cluster import Cluster
    from fivehundred.web.guard import Limits
    from fivehundred.web.live import Decider, Hub
    from fivehundred.web.store import AsyncStore, Store

    url = database_url("postgresql", tmp_path)

    async def scenario() -> None:
        store = AsyncStore(Store(url))
        hub = Hub(store, Decider(0), limits=Limits(open_seat_grace=3600))
        hub.cluster = Cluster(url, hub)
        await hub.start()
        written, go = threading.Event(), threading.Event()
        real = store.store.create_table

        def held(*args: Any) -> Any:  # the row is in the database; the server waits
            table_id = real(*args)
            written.set()
            go.wait(30)
            return table_id

        store.store.create_table = held  # type: ignore[method-assign]
        try:
            making = asyncio.create_task(
                hub.create(make_rules("australian"), ["open"] * 4, None, {}, 3)
            )
            assert await asyncio.to_thread(written.wait, 30)
            engine = sa.create_engine(url)
            with engine.connect() as db:
                code = db.execute(sa.text("SELECT code FROM tables")).scalar_one()
            engine.dispose()
            assert await hub.cluster.scan() == 0  # its maker holds its lock already
            asking = asyncio.create_task(hub.get(code))
            for _ in range(5):  # the lobby's look is under way before the table is made
                await asyncio.sleep(0)
            go.set()
            table = await making
            assert await asking is table and hub.tables[code] is table
            assert table.owned and hub.cluster.adopted == 0
            assert await hub.cluster.scan() == 0
        finally:
            go.set()
            await hub.stop()
            store.close()

    asyncio.run(scenario())


def test_the_locks_of_another_database_are_not_this_ones(tmp_path: Path) -> None:
    """Two games' databases on one PostgreSQL server have tables of the same ids: a lock
    held in the other database does not keep this one's orphaned table from being taken."""
    from fivehundred.web.cluster import LOCK_CLASS, Cluster
    from fivehundred.web.live import Decider, Hub
    from fivehundred.web.store import AsyncStore, SeatRow, Store

    url = database_url("postgresql", tmp_path)
    store = Store(url)
    table_id = store.create_table(
        "ORPHAN",
        "t",
        {"preset": "australian"},
        {},
        1,
        [SeatRow(seat, "computer", "random") for seat in range(4)],
    )
    store.close()
    other = sa.engine.make_url(url).set(database="postgres")
    engine = sa.create_engine(other)

    async def scenario() -> int:
        hub = Hub(AsyncStore(Store(url)), Decider(0))
        hub.cluster = Cluster(url, hub, heartbeat=3600)
        with engine.connect() as db:  # the same lock, held in the other database
            assert db.execute(
                sa.select(sa.func.pg_try_advisory_lock(LOCK_CLASS, table_id))
            ).scalar()
            try:
                await hub.start()  # takes the orphaned tables
                return hub.cluster.adopted
            finally:
                await hub.stop()
                hub.store.close()

    try:
        assert asyncio.run(scenario()) == 1
    finally:
        engine.dispose()


def test_servers_starting_together_make_the_schema_once(tmp_path: Path) -> None:
    import threading

    from fivehundred.web.accounts import AccountStore
    from fivehundred.web.store import Store

    url = database_url("postgresql", tmp_path)
    ready = threading.Barrier(4)
    failures: list[BaseException] = []

    def start() -> None:
        ready.wait(30)
        try:
            store = Store(url)
            AccountStore(store.engine)
            store.close()
        except BaseException as error:
            failures.append(error)

    threads = [threading.Thread(target=start) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == []


def test_a_refusal_by_the_tables_server_reaches_the_client_of_another(tmp_path: Path) -> None:
    """A message checked by the server a client is connected to and passed to the table's
    server, which refuses it: the client is told why (an ``error``), as a client of the
    table's own server is; and one message at a time is passed on per connection."""
    from test_web_support import thread_server

    url = database_url("postgresql", tmp_path)
    body = {
        "seats": ["open", "random", "random", "random"],
        "seed": 8,
        "options": {"delay": 0},
    }

    async def game(other: str, code: str, token: str) -> list[dict[str, Any]]:
        async with websockets.connect(ws_url(other, code, token)) as ws:
            received: list[dict[str, Any]] = []

            async def until(check: Any) -> dict[str, Any]:
                while True:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                    received.append(message)
                    if check(message):
                        return message

            def my_turn(m: dict[str, Any]) -> bool:
                return m["type"] == "view" and bool(m["view"]["legal"])

            view = await until(my_turn)
            await ws.send(json.dumps({"type": "undo"}))  # nothing of seat 0's in this hand
            error = await until(lambda m: m["type"] != "view")
            assert error["type"] == "error", error
            assert "nothing of yours to take back" in error["message"]
            # an action passed on and made; the same again before its answer is refused here
            action = {"type": "action", "version": view["version"], "action": "pass"}
            await ws.send(json.dumps(action))
            await ws.send(json.dumps(action))
            again = await until(lambda m: m["type"] == "error")
            assert "on its way" in again["message"] or "moved on" in again["message"]

            def moved(m: dict[str, Any]) -> bool:
                return m["type"] == "view" and m["version"] > view["version"]

            # the new view may have come before the error (a table that moved on is shown
            # before the refusal): then it was received while waiting for the error
            if not any(moved(m) for m in received):
                await until(moved)
            await ws.send(json.dumps({"type": "undo"}))  # now there is: taken back
            back = await until(lambda m: m["type"] != "view" or m["version"] == view["version"])
            assert back["type"] == "view", back
            return received

    with thread_server(url) as first, thread_server(url) as other:
        code = httpx.post(f"{first}/api/tables", json=body).json()["table"]
        token = httpx.post(f"{first}/api/tables/{code}/seats/0", json={"name": "Ann"}).json()[
            "token"
        ]
        asyncio.run(game(other, code, token))


def test_the_per_address_limits_count_every_servers_requests(tmp_path: Path) -> None:
    """Two servers on one database: the tables one address may create (a token bucket),
    the seats it may take, and its unfinished tables count its requests to both (a load
    balancer spreads them)."""
    from fastapi.testclient import TestClient

    from fivehundred.web.guard import Limits
    from fivehundred.web.server import create_app

    url = database_url("postgresql", tmp_path)
    limits = Limits(
        allowed_hosts=["*"],
        create_per_minute=0.01,
        create_burst=3,
        seat_per_minute=0.01,
        seat_burst=2,
        tables_per_client=100,
    )
    body = {"seats": ["open"] * 4}
    with (
        TestClient(create_app(url, workers=0, limits=limits)) as one,
        TestClient(create_app(url, workers=0, limits=limits)) as two,
    ):
        made = [c.post("/api/tables", json=body) for c in (one, two, one)]
        assert [r.status_code for r in made] == [201, 201, 201]
        refused = two.post("/api/tables", json=body)
        assert refused.status_code == 429 and "too many tables" in refused.json()["detail"]
        assert int(refused.headers["Retry-After"]) > 60
        code = made[0].json()["table"]
        seats = [
            c.post(f"/api/tables/{code}/seats/{s}", json={"name": f"P{s}"})
            for c, s in ((one, 0), (two, 1), (one, 2))
        ]
        assert [r.status_code for r in seats] == [200, 200, 429]
    many = Limits(allowed_hosts=["*"], create_burst=100, tables_per_client=2)
    database_url("postgresql", tmp_path)  # empty again
    with (
        TestClient(create_app(url, workers=0, limits=many)) as one,
        TestClient(create_app(url, workers=0, limits=many)) as two,
    ):
        assert one.post("/api/tables", json=body).status_code == 201
        assert two.post("/api/tables", json=body).status_code == 201
        third = one.post("/api/tables", json=body)
        assert third.status_code == 429 and "2 unfinished tables" in third.json()["detail"]


def test_news_told_while_a_server_reads_a_table_is_not_lost(tmp_path: Path) -> None:
    """A server reads a table another plays (a client came for it); an action written
    after its read and told before the table is in its memory is not for any table it
    knows yet: the table is read again, and shows the action."""
    import threading

    from fivehundred.rules import make_rules
    from fivehundred.web.cluster import Cluster
    from fivehundred.web.guard import Limits
    from fivehundred.web.live import PERSON, Decider, Hub
    from fivehundred.web.store import AsyncStore, Store

    url = database_url("postgresql", tmp_path)

    async def scenario() -> None:
        hubs = []
        for _ in range(2):
            hub = Hub(AsyncStore(Store(url)), Decider(0), limits=Limits(open_seat_grace=3600))
            hub.cluster = Cluster(url, hub)
            await hub.start()
            hubs.append(hub)
        owner, other = hubs
        try:
            table = await owner.create(make_rules("australian"), ["open"] * 4, None, {}, 5)
            told = threading.Event()
            notified = other.notified

            def listen(payload: str) -> None:
                notified(payload)
                if payload.startswith(f"act:{table.code}:"):
                    told.set()

            other.notified = listen  # type: ignore[method-assign]
            read = other.store.store.load_table
            moved = threading.Event()

            def slow_read(*args: Any) -> Any:  # the read, then an action, told, before it ends
                row = read(*args)
                moved.set()
                assert told.wait(30)
                return row

            other.store.store.load_table = slow_read  # type: ignore[method-assign]
            reading = asyncio.create_task(other.get(table.code))
            assert await asyncio.to_thread(moved.wait, 30)
            other.store.store.load_table = read  # type: ignore[method-assign]
            async with table.lock:
                action = table.model.legal_actions()[0]
                await table.commit(table.model.to_move, action, PERSON)
            followed = await reading
            assert not followed.owned and followed.version == table.version == 1
        finally:
            for hub in hubs:
                await hub.stop()
                hub.store.close()

    asyncio.run(scenario())


def test_a_server_counts_the_tables_it_plays_not_those_it_shows(tmp_path: Path) -> None:
    """--max-live-tables bounds what one server plays: the tables of another that it holds
    for its clients (the lobby read them) do not count."""
    from fastapi.testclient import TestClient

    from fivehundred.web.guard import Limits
    from fivehundred.web.server import create_app

    url = database_url("postgresql", tmp_path)
    limits = Limits(allowed_hosts=["*"], create_burst=100, max_live_tables=1)
    body = {"seats": ["open"] * 4}
    with (
        TestClient(create_app(url, workers=0, limits=limits)) as one,
        TestClient(create_app(url, workers=0, limits=limits)) as two,
    ):
        code = one.post("/api/tables", json=body).json()["table"]
        assert [t["table"] for t in two.get("/api/tables").json()["tables"]] == [code]
        assert two.post("/api/tables", json=body).status_code == 201
        full = one.post("/api/tables", json=body)
        assert full.status_code == 503 and "as many tables" in full.json()["detail"]


def tables_by_server(url: str) -> dict[int, int]:
    """How many table locks each server process holds (by process id)."""
    engine = sa.create_engine(url)
    try:
        with engine.connect() as db:
            rows = db.execute(
                sa.text(
                    "SELECT a.application_name, count(*) FROM pg_locks l JOIN pg_stat_activity a "
                    "ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.classid = 500 "
                    "AND l.objsubid = 2 AND l.granted AND l.database = "
                    "(SELECT oid FROM pg_database WHERE datname = current_database()) "
                    "GROUP BY a.application_name"
                )
            ).all()
    finally:
        engine.dispose()
    return {int(name.split()[2]): int(n) for name, n in rows}


def test_tables_are_shared_fairly_again_after_a_failover(tmp_path: Path) -> None:
    """Four tables on two servers, two each; one is killed (SIGKILL): the other plays all
    four; a new server starts (the rolling restart's next step): two each again, each
    table moved between two hands (web/cluster.py: within a hand plus two heartbeats)."""
    url = database_url("postgresql", tmp_path)
    ports = [free_port(), free_port()]
    first = start_server_process(url, ports[0], tmp_path / "0")
    servers = [first]
    try:
        base = f"http://127.0.0.1:{ports[0]}"
        body: dict[str, Any] = {
            "seats": ["heuristic"] * 4,
            "rules": {"variants": {"target": 2000}},
            "options": {"delay": 0.1},
        }
        for seed in range(4):  # (five at most per address)
            answer = httpx.post(f"{base}/api/tables", json={**body, "seed": seed})
            assert answer.status_code == 201, answer.text
        assert tables_by_server(url) == {first.pid: 4}
        second = start_server_process(url, ports[1], tmp_path / "1")
        servers.append(second)
        started = time.monotonic()
        wait_for(lambda: tables_by_server(url) == {first.pid: 2, second.pid: 2}, 40, "two each")
        print(f"fair share after a server came: {time.monotonic() - started:.1f} s")
        first.send_signal(signal.SIGKILL)
        first.wait(30)
        servers.remove(first)
        wait_for(lambda: tables_by_server(url) == {second.pid: 4}, 10, "the survivor has all")
        third = start_server_process(url, free_port(), tmp_path / "2")
        servers.append(third)
        started = time.monotonic()
        wait_for(
            lambda: tables_by_server(url) == {second.pid: 2, third.pid: 2}, 40, "two each again"
        )
        print(f"fair share after a failover: {time.monotonic() - started:.1f} s")
        # no table's log has a gap or a second writer: each hand was played by one server
        engine = sa.create_engine(url)
        with engine.connect() as db:
            gaps = db.execute(
                sa.text(
                    "SELECT table_id FROM actions GROUP BY table_id HAVING max(version) <> count(*)"
                )
            ).all()
        engine.dispose()
        assert gaps == []
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(30)
