"""Several servers on one PostgreSQL, their bounds (web/cluster.py): a person's grace runs
from their disconnect whichever server they were on; an action passed on is taken after
its news was lost, or taken back in time; clients coming back to a server that held the
table stale get the table as it is, not its whole log; the tables are spread fairly after
a server comes (between hands); the metrics count owned and followed tables apart, and the
events an operator pages on. Servers here are hubs in one process, each with its own
connections to the database (as separate processes have); PostgreSQL tests are skipped
without ``$FIVEHUNDRED_TEST_PG_URL``."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from test_web_support import database_url

HEARTBEAT = 0.1


async def until(check: Callable[[], Any], timeout: float, what: str) -> Any:
    """Wait for ``check()`` to hold (a state, never a time)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        await asyncio.sleep(0.02)
    raise AssertionError(f"{what}: not within {timeout} s")


@asynccontextmanager
async def servers(url: str, n: int) -> AsyncIterator[list[Any]]:
    """``n`` servers on ``url`` (:func:`start_server`), stopped at the end."""
    hubs = []
    try:
        for _ in range(n):
            hubs.append(await start_server(url))
        yield hubs
    finally:
        for hub in hubs:
            await hub.stop()
            hub.store.close()


async def start_server(url: str) -> Any:
    """A server's hub on ``url``, with its metrics (``hub.metrics``)."""
    from fivehundred.web.cluster import Cluster
    from fivehundred.web.guard import Limits
    from fivehundred.web.live import Decider, Hub
    from fivehundred.web.metrics import Metrics
    from fivehundred.web.store import AsyncStore, Store

    hub = Hub(AsyncStore(Store(url)), Decider(0), limits=Limits(open_seat_grace=3600))
    hub.cluster = Cluster(url, hub, HEARTBEAT)
    hub.metrics = Metrics()  # type: ignore[attr-defined]
    hub.on_count = hub.metrics.count  # type: ignore[attr-defined]
    hub.store.on_error = lambda: hub.metrics.count("database_errors")  # type: ignore[attr-defined]
    hub.metrics.track(hub.playing, hub.connection_count, hub.following)  # type: ignore[attr-defined]
    await hub.start()
    return hub


def metric(hub: Any, name: str) -> float:
    return hub.metrics.registry.get_sample_value(name) or 0.0


def connection(seat: int) -> Any:
    from fivehundred.web.live import Connection

    return Connection(None, seat, f"P{seat}")  # type: ignore[arg-type]


def views_of(conn: Any) -> list[dict[str, Any]]:
    """The messages queued to ``conn`` (taken from its queue)."""
    messages = []
    while not conn.queue.empty():
        item = conn.queue.get_nowait()
        if isinstance(item, str):
            messages.append(json.loads(item))
    return messages


async def seated_table(owner: Any, other: Any, options: dict[str, Any]) -> tuple[Any, Any]:
    """A table made on ``owner`` (three computers) whose seat 0 is a person seated through
    ``other``; (the owner's table, the other's), seat 0 to move."""
    from fivehundred.rules import make_rules

    mine = await owner.create(
        make_rules("australian"), ["open", "random", "random", "random"], None, options, 11
    )
    theirs = await other.get(mine.code)
    await theirs.take_seat(0, "Ann")
    await until(lambda: mine.seats[0].kind == "person", 10, "the owner knows the seat")
    await until(lambda: mine.model.to_move == 0, 10, "seat 0 to move")
    deadline = time.monotonic() + 10
    while theirs.version != mine.version:  # as a client's arrival reads it: current
        assert time.monotonic() < deadline, "the other server is current"
        await other.get(mine.code)
        await asyncio.sleep(0.02)
    return mine, theirs


def test_the_grace_runs_from_the_disconnect_on_a_server_that_does_not_own_the_table(
    tmp_path: Path,
) -> None:
    url = database_url("postgresql", tmp_path)

    async def scenario() -> None:
        async with servers(url, 2) as (owner, other):
            mine, theirs = await seated_table(owner, other, {"delay": 0, "grace": 60})
            conn = connection(0)
            theirs.attach(conn)  # Ann plays through the other server
            await until(lambda: mine.present(0), 10, "the owner knows Ann is there")
            theirs.detach(conn)
            await until(lambda: not mine.present(0), 10, "the owner knows Ann left")
            await until(lambda: ("grace", 0) in mine.deadlines, 10, "her grace is a deadline")
            assert mine.model.to_move == 0, "the stand-in played for Ann at once"
            due = mine.automation()
            assert due is not None and due[2] == "stand_in"
            assert due[0] > 55, f"the stand-in plays in {due[0]:.1f} s, not the grace's 60"
            # her server gone (killed) while she was connected: the grace starts then too
            theirs.attach(conn := connection(0))
            await until(lambda: mine.present(0), 10, "Ann is back")
            owner.servers_alive({owner.cluster.id})
            assert not mine.present(0)
            await until(lambda: ("grace", 0) in mine.deadlines, 10, "her grace is a deadline")
            due = mine.automation()
            assert due is not None and due[0] > 55
            theirs.detach(conn)

    asyncio.run(scenario())


def test_an_action_passed_on_whose_news_was_lost_is_taken_within_heartbeats(
    tmp_path: Path,
) -> None:
    """As when PostgreSQL comes back: the owner's listening connection missed the news of
    an action waiting in the inbox; it is taken at the owner's next heartbeat."""
    url = database_url("postgresql", tmp_path)

    async def scenario() -> None:
        async with servers(url, 2) as (owner, other):
            mine, theirs = await seated_table(owner, other, {"delay": 0, "grace": 600})
            notified = owner.notified

            def deaf(payload: str) -> None:  # the inbox's news never reaches the owner
                if not payload.startswith("inbox:"):
                    notified(payload)

            owner.notified = deaf
            conn = connection(0)
            theirs.attach(conn)
            version = theirs.version
            action = theirs.model.legal_actions()[0]
            from fivehundred.web.live import action_text

            text = action_text(action, theirs.rules.joker_names)
            message = {"type": "action", "version": version, "action": text}
            assert await theirs.handle(conn, json.dumps(message)) is False  # passed on
            started = time.monotonic()
            await until(lambda: mine.version > version, 5, "the owner took the action")
            taken = time.monotonic() - started
            print(f"an action whose news was lost taken in {taken:.2f} s")
            await until(lambda: theirs.version > version, 5, "the client's server shows it")
            assert conn.forwarded is None
            assert metric(other, "fivehundred_actions_passed_on_total") == 1
            assert taken < 10 * HEARTBEAT + 1, taken

    asyncio.run(scenario())


def test_an_action_no_server_takes_is_taken_back_and_its_client_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from fivehundred.web import live

    monkeypatch.setattr(live.base, "FORWARD_WAIT", 0.5)
    url = database_url("postgresql", tmp_path)

    async def scenario() -> None:
        async with servers(url, 2) as (owner, other):
            mine, theirs = await seated_table(owner, other, {"delay": 0, "grace": 600})

            async def frozen() -> None:  # an owner that never takes its inbox
                return None

            mine.drain_inbox = frozen
            conn = connection(0)
            theirs.attach(conn)
            views_of(conn)
            version = theirs.version
            text = live.action_text(theirs.model.legal_actions()[0], theirs.rules.joker_names)
            message = {"type": "action", "version": version, "action": text}
            await theirs.handle(conn, json.dumps(message))
            await until(lambda: conn.queue.qsize() >= 2, 10, "the action taken back")
            assert conn.forwarded is None
            told = views_of(conn)
            assert [m["type"] for m in told] == ["error", "view"], told
            assert "try again" in told[0]["message"]
            assert told[1]["version"] == version == mine.version  # never made
            assert await other.store.call(other.store.store.inbox_tables) == set()
            assert metric(other, "fivehundred_actions_taken_back_total") == 1

    asyncio.run(scenario())


def test_clients_back_at_a_server_that_held_the_table_stale_get_one_current_view(
    tmp_path: Path,
) -> None:
    from fivehundred.rules import make_rules
    from fivehundred.web.live import PERSON

    url = database_url("postgresql", tmp_path)

    async def scenario() -> None:
        async with servers(url, 2) as (owner, other):
            mine = await owner.create(make_rules("australian"), ["open"] * 4, None, {}, 7)
            await other.get(mine.code)  # held there at version 0 (the lobby read it)
            for _ in range(60):
                async with mine.lock:
                    await mine.commit(mine.model.to_move, mine.model.legal_actions()[0], PERSON)
            # the news came: stale there, nobody connected to read it
            await until(lambda: other.tables[mine.code].stale, 10, "the news of the actions")
            conns = [connection(seat) for seat in range(4)]

            async def come_back(conn: Any) -> None:  # as the server's WebSocket route does
                table = await other.get(mine.code)
                table.attach(conn)

            await asyncio.gather(*(come_back(conn) for conn in conns))
            for conn in conns:
                versions = [m["version"] for m in views_of(conn) if m["type"] == "view"]
                assert versions and set(versions) == {60}, versions
                assert len(versions) <= len(conns), versions  # one per arrival, at most

    asyncio.run(scenario())


def test_tables_are_spread_fairly_between_hands_when_a_server_comes(tmp_path: Path) -> None:
    """One server plays six computer tables; a second starts (as after a rolling restart or
    a failover): within the bound each plays three, each moved at a hand's start; then the
    second is stopped and started again: three each again."""
    from fivehundred.rules import make_rules
    from fivehundred.web.live import LiveTable

    url = database_url("postgresql", tmp_path)
    moved: list[tuple[str, int]] = []
    hand_over = LiveTable.hand_over

    async def recording(self: LiveTable) -> None:
        moved.append((self.code, len(self.model.game.hand.history)))
        await hand_over(self)

    LiveTable.hand_over = recording  # type: ignore[method-assign]
    options = {"delay": 0.02}
    rules = make_rules("australian", {"target": 5000})

    async def scenario() -> None:
        first = await start_server(url)
        hubs = [first]
        try:
            tables = [
                await first.create(rules, ["heuristic"] * 4, None, options, seed)
                for seed in range(6)
            ]
            assert first.playing() == 6
            second = await start_server(url)
            hubs.append(second)
            started = time.monotonic()
            await until(lambda: first.playing() == second.playing() == 3, 30, "three tables each")
            print(f"fair share after a server came: {time.monotonic() - started:.2f} s")
            assert moved and all(made == 0 for _, made in moved), moved
            await until(
                lambda: metric(second, "fivehundred_tables_adopted_total") == 3, 10, "counted"
            )
            assert metric(first, "fivehundred_tables_handed_over_total") == 3
            assert metric(first, "fivehundred_tables_live") == 3
            # the tables went on where they were: each one's log has no gap
            for table in tables:
                row = await first.store.call(first.store.store.load_table, table.code, True)
                assert row is not None and len(row.actions) >= table.version
            await second.stop()  # a restart: the first takes them all, then shares again
            second.store.close()
            hubs.remove(second)
            await until(lambda: first.playing() == 6, 10, "the first plays all six")
            third = await start_server(url)
            hubs.append(third)
            started = time.monotonic()
            await until(lambda: first.playing() == third.playing() == 3, 30, "shared again")
            print(f"fair share after a restart: {time.monotonic() - started:.2f} s")
            assert all(made == 0 for _, made in moved), moved
        finally:
            LiveTable.hand_over = hand_over  # type: ignore[method-assign]
            for hub in hubs:
                await hub.stop()
                hub.store.close()

    asyncio.run(scenario())


def test_the_metrics_count_owned_tables_apart_and_drop_when_the_database_is_lost(
    tmp_path: Path,
) -> None:
    from fivehundred.rules import make_rules

    url = database_url("postgresql", tmp_path)

    async def scenario() -> None:
        async with servers(url, 2) as (owner, other):
            mine = await owner.create(make_rules("australian"), ["open"] * 4, None, {}, 3)
            await other.get(mine.code)
            assert metric(owner, "fivehundred_tables_live") == 1
            assert metric(other, "fivehundred_tables_live") == 0
            assert metric(other, "fivehundred_tables_followed") == 1

            async def unreachable() -> Any:
                raise OSError("connection refused")

            owner.cluster._connect = unreachable  # the owner cannot reach PostgreSQL ...
            await owner.cluster._locks.close()  # ... from now on
            await until(
                lambda: metric(owner, "fivehundred_tables_live") == 0, 10, "the owner plays none"
            )
            await until(
                lambda: metric(other, "fivehundred_tables_live") == 1, 10, "the other took it"
            )
            assert metric(owner, "fivehundred_locks_lost_total") == 1
            assert metric(owner, "fivehundred_database_errors_total") >= 1
            await until(
                lambda: metric(other, "fivehundred_tables_adopted_total") == 1, 10, "counted"
            )
            assert metric(other, "fivehundred_tables_followed") == 0

    asyncio.run(scenario())


def test_answers_of_5xx_and_failed_database_calls_are_counted(tmp_path: Path) -> None:
    import sqlalchemy as sa
    from fastapi.testclient import TestClient

    from fivehundred.web.guard import Limits
    from fivehundred.web.server import create_app

    app = create_app(
        database_url("sqlite", tmp_path), workers=0, limits=Limits(allowed_hosts=["*"])
    )
    with TestClient(app, raise_server_exceptions=False) as client:
        hub = app.state.hub

        def broken(*args: Any) -> Any:
            raise sa.exc.OperationalError("SELECT", {}, Exception("the database is gone"))

        hub.store.store.finished_games = broken
        assert client.get("/api/games").status_code == 500
        text = client.get("/metrics").text
        assert 'fivehundred_http_5xx_total{route="/api/games"} 1.0' in text
        assert "fivehundred_database_errors_total 1.0" in text


def test_the_guides_alert_file_names_only_metrics_the_server_has() -> None:
    """docs/deploy.md's Prometheus alert file is YAML with the rules' fields, and every
    metric its expressions name is one the server exports."""
    import re

    import yaml

    from fivehundred.web.metrics import Metrics

    guide = (Path(__file__).parent.parent / "docs" / "deploy.md").read_text()
    section = guide.split("## Several servers: bounds, metrics and alerts", 1)[1]
    block = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    rules = yaml.safe_load(block)["groups"][0]["rules"]
    assert len(rules) >= 5
    exported = set()
    for family in Metrics().registry.collect():  # with the suffixes Prometheus shows
        suffixes = {"counter": ["_total"], "histogram": ["_bucket", "_count", "_sum"]}
        exported |= {family.name + x for x in suffixes.get(family.type, [""])}
    for rule in rules:
        assert {"alert", "expr", "labels", "annotations"} <= set(rule), rule
        for name in re.findall(r"fivehundred_[a-z0-9_]+", rule["expr"]):
            assert name in exported, name
    for name in re.findall(r"`(fivehundred_[a-z0-9_]+)", section):
        assert name in exported, name


def test_what_waits_in_the_inbox_long_after_its_sender_gave_up_is_deleted(
    tmp_path: Path,
) -> None:
    import sqlalchemy as sa

    from fivehundred.web.live import FORWARD_WAIT
    from fivehundred.web.store import SeatRow, Store, inbox

    store = Store(database_url("sqlite", tmp_path))
    try:
        table_id = store.create_table("ABCDEF", "t", {}, {}, 1, [SeatRow(0, "open")])
        assert table_id is not None
        old = store.forward(table_id, "ABCDEF", 0, 0, "pass")
        new = store.forward(table_id, "ABCDEF", 0, 0, "pass")
        with store.engine.begin() as db:
            db.execute(inbox.update().where(inbox.c.id == old).values(at=time.time() - 3600))
        assert store.forget_inbox(time.time() - 6 * FORWARD_WAIT) == 1
        with store.engine.connect() as db:
            assert db.execute(sa.select(inbox.c.id)).scalars().all() == [new]
    finally:
        store.close()
