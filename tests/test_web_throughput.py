"""What keeps the server fast without weakening it: the group commit (actions of many tables
in one transaction, each told only once its own is in), finished tables leaving memory,
views encoded once (a text orjson refuses still goes out), the solver prepared at start."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette prefers httpx2, not yet in the dev extra
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from fivehundred.web import live
from fivehundred.web.server import create_app
from fivehundred.web.store import ActionRow, AsyncStore, SeatRow, Store
from test_web_support import db_url  # noqa: F401  (fixture)


def _tables(store: Store, count: int) -> list[int]:
    ids = []
    for number in range(count):
        table_id = store.create_table(
            f"GRP{number:03d}",
            "t",
            {"preset": "australian"},
            {},
            number,
            [SeatRow(s, "open") for s in range(4)],
        )
        assert table_id is not None
        ids.append(table_id)
    return ids


def test_group_commit_writes_many_tables_together_and_a_bad_row_fails_alone(
    db_url: str,  # noqa: F811
) -> None:
    store = AsyncStore(Store(db_url))
    try:
        ids = _tables(store.store, 8)

        async def play() -> list[BaseException | None]:
            # every table appends its actions one after another (as a table does: the next
            # only once the last is committed), all tables at once
            async def table(table_id: int, bad: bool) -> BaseException | None:
                error = None
                for version in range(1, 21):
                    if bad and version == 10:  # version 9 again, amid the other tables' 10th
                        try:
                            await store.append_action(ActionRow(table_id, 9, 0, "8S", "person"))
                        except Exception as refused:
                            error = refused
                    row = ActionRow(table_id, version, version % 4, "7S", "person")
                    await store.append_action(row)
                return error

            return await asyncio.gather(*(table(t, t == ids[3]) for t in ids))

        errors = asyncio.run(play())
        assert [e is not None for e in errors] == [t == ids[3] for t in ids]
        assert store.committed == 8 * 20
        assert store.commits < store.committed  # several tables' actions per transaction
        for number, table_id in enumerate(ids):
            row = store.store.load_table(f"GRP{number:03d}", True)
            assert row is not None and row.id == table_id
            assert [a[1] for a in row.actions] == ["7S"] * 20  # the refused one is not in
    finally:
        store.close()


def test_each_view_is_sent_only_once_its_action_is_in_the_database(
    db_url: str,  # noqa: F811
) -> None:
    with TestClient(create_app(db_url, workers=0, allow_seeds=True)) as client:
        body = {"seats": ["open", "random", "random", "random"], "seed": 4, "options": {"delay": 0}}
        code = client.post("/api/tables", json=body).json()["table"]
        token = client.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).json()["token"]
        store = client.app.state.store  # type: ignore[attr-defined]
        seen = 0
        with client.websocket_connect(f"/ws/tables/{code}?token={token}") as ws:
            while seen < 40:
                message = ws.receive_json()
                if message["type"] != "view":
                    continue
                version = message["version"]
                row = store.store.load_table(code, True)
                assert len(row.actions) >= version  # told only of what is committed
                seen += 1
                if message["view"]["table"]["finished"]:
                    break
                if message["view"]["legal"]:
                    ws.send_json(
                        {
                            "type": "action",
                            "action": message["view"]["legal"][-1],
                            "version": version,
                        }
                    )
        assert seen >= 10


def test_finished_tables_leave_memory_and_are_read_again_when_asked_for(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    with TestClient(create_app(url, workers=0, allow_seeds=True)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        body = {"seats": ["random"] * 4, "options": {"delay": 0}}
        codes = [
            client.post("/api/tables", json={**body, "seed": s}).json()["table"] for s in range(3)
        ]
        deadline = time.monotonic() + 30
        while any(code in hub.tables for code in codes):
            assert time.monotonic() < deadline, "the games did not end and leave memory"
            time.sleep(0.05)
        for code in codes:
            facts = client.get(f"/api/tables/{code}").json()
            assert facts["finished"] and facts["version"] > 0
            record = client.get(f"/api/tables/{code}/record").json()
            assert "seed" in record and len(record["hands"]) == facts["hands_played"]
        # a spectator of a finished table holds it while connected, then lets it go
        with client.websocket_connect(f"/ws/tables/{codes[0]}") as ws:
            assert ws.receive_json()["view"]["table"]["finished"]
            assert codes[0] in hub.tables
        deadline = time.monotonic() + 10
        while codes[0] in hub.tables:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        # only a few finished ones are kept
        hub.finished.clear()
        monkeypatch.setattr(live.base, "FINISHED_KEPT", 1)
        for code in codes:
            assert client.get(f"/api/tables/{code}").status_code == 200
        assert list(hub.finished) == [codes[-1]]


def test_a_chat_text_orjson_refuses_is_still_relayed(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    assert live.encode({"text": "\ud800"}) == '{"text":"\\ud800"}'
    with TestClient(create_app(url, workers=0)) as client:
        code = client.post("/api/tables", json={"seats": ["open"] * 4}).json()["table"]
        token = client.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).json()["token"]
        with client.websocket_connect(f"/ws/tables/{code}?token={token}") as ws:
            ws.send_text('{"type": "chat", "text": "odd \\ud800 text"}')
            while (message := ws.receive_json())["type"] != "chat":
                pass
            assert message["text"] == "odd \ud800 text"
            ws.send_json({"type": "ping"})
            while (message := ws.receive_json())["type"] != "pong":
                pass


def test_the_solver_is_prepared_in_the_workers_at_start_and_said_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    pytest.importorskip("fivehundred.solver")
    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    caplog.set_level(logging.INFO, logger="fivehundred.web")
    others = set(multiprocessing.active_children())  # earlier tests' pools
    with TestClient(create_app(url, workers=1)) as client:
        hub = client.app.state.hub  # type: ignore[attr-defined]
        body: dict[str, Any] = {
            "seats": ["hard"] * 4,
            "options": {"delay": 0},
            "rules": {"variants": {"target": 10}},
        }
        code = client.post("/api/tables", json=body).json()["table"]
        deadline = time.monotonic() + 120
        while not (facts := client.get(f"/api/tables/{code}").json())["version"]:
            assert time.monotonic() < deadline, "no search decision was made"
            time.sleep(0.1)
        assert hub.decider.search_ready
        assert client.get("/api/server").json()["search_ready"] is True
        workers = [p for p in multiprocessing.active_children() if p not in others]
        assert workers  # the search pool's worker
    assert not any(p.is_alive() for p in workers)  # stopped with the server, none left over
    text = [r.getMessage() for r in caplog.records]
    assert any(line.startswith("preparing the solver in 1 worker") for line in text)
    assert "the search players are ready (1 of 1 workers prepared" in "\n".join(text)
    waits = [i for i, line in enumerate(text) if "hard waits for the solver" in line]
    ready = next(i for i, line in enumerate(text) if "search players are ready" in line)
    assert all(i < ready for i in waits)  # a wait is said, and only while preparing
    assert facts["version"] > 0
