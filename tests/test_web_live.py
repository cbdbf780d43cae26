"""Tables that never stall: computers alone (search players in a process pool), a computer
standing in for an absent person after the grace period, the turn timer; hints and undo."""

from __future__ import annotations

import time
import warnings
from typing import Any

import sqlalchemy as sa

with warnings.catch_warnings():  # starlette prefers httpx2, not yet in the dev extra
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from fivehundred.web.server import create_app
from test_web_support import db_url  # noqa: F401  (fixture)


def wait_for(
    client: TestClient, code: str, predicate: Any, timeout: float = 30.0
) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        facts = client.get(f"/api/tables/{code}").json()
        if predicate(facts):
            return dict(facts)
        time.sleep(0.05)
    raise AssertionError(f"table {code} did not get there: {facts}")


def view_until(ws: Any, predicate: Any, limit: int = 3000) -> dict[str, Any]:
    for _ in range(limit):
        message = ws.receive_json()
        if message["type"] == "view" and predicate(message):
            return dict(message)
    raise AssertionError("no such view")


def test_computers_alone_play_to_the_end_with_search_players_in_a_process_pool(
    db_url: str,  # noqa: F811
) -> None:
    url = db_url
    with TestClient(create_app(url, workers=1)) as client:
        body = {
            "seats": ["heuristic", "random", "heuristic", "random"],
            "rules": {"variants": {"target": 10}},
            "options": {"delay": 0},
        }
        code = client.post("/api/tables", json=body).json()["table"]
        facts = wait_for(client, code, lambda f: f["finished"], 120)
        assert facts["hands_played"] >= 1 and facts["winner"] is not None
        record = client.get(f"/api/tables/{code}/record").json()
        assert "seed" in record and len(record["hands"]) == facts["hands_played"]


def test_an_absent_person_is_played_for_after_the_grace_period_and_comes_back(
    db_url: str,  # noqa: F811
) -> None:
    url = db_url
    with TestClient(create_app(url, workers=0, allow_seeds=True)) as client:
        body = {
            "seats": ["open", "heuristic", "heuristic", "heuristic"],
            "seed": 9,
            "options": {"delay": 0, "grace": 0.3, "stand_in": "heuristic"},
        }
        code = client.post("/api/tables", json=body).json()["table"]
        token = client.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).json()["token"]
        # never connected: after the grace period the stand-in plays seat 0 and the game moves
        facts = wait_for(client, code, lambda f: f["version"] >= 8)
        assert facts["seats"][0]["stand_in"] and not facts["seats"][0]["connected"]
        assert not facts["finished"]
        engine = sa.create_engine(url)
        with engine.connect() as db:
            by = db.execute(sa.text("SELECT by FROM actions WHERE seat = 0")).scalars().all()
        engine.dispose()
        assert "stand_in" in by
        with client.websocket_connect(f"/ws/tables/{code}?token={token}") as ws:

            def version() -> int:
                return int(client.get(f"/api/tables/{code}").json()["version"])

            def settled() -> dict[str, Any]:  # Ann to move in the table's latest version
                mine = view_until(ws, lambda m: bool(m["view"]["legal"]))
                while version() != mine["version"]:
                    mine = view_until(ws, lambda m: bool(m["view"]["legal"]))
                return mine

            mine = settled()
            seat = mine["view"]["table"]["seats"][0]
            assert seat["connected"] and not seat["stand_in"]
            time.sleep(0.5)  # back at the table: nobody plays for Ann any more
            if version() != mine["version"]:
                # a stand-in's move already being written to the database as Ann came back
                # lands (the version counts it once it is saved), once; then no more
                mine = settled()
                time.sleep(0.5)
            assert version() == mine["version"]
            ws.send_json(
                {"type": "action", "action": mine["view"]["legal"][0], "version": mine["version"]}
            )
            view_until(ws, lambda m: m["version"] > mine["version"])


def test_the_turn_timer_acts_for_a_person_who_waits_too_long(db_url: str) -> None:  # noqa: F811
    url = db_url
    with TestClient(create_app(url, workers=0, allow_seeds=True)) as client:
        body = {
            "seats": ["open", "random", "random", "random"],
            "seed": 2,
            "options": {"delay": 0, "turn_timer": 1, "stand_in": "random"},
        }
        code = client.post("/api/tables", json=body).json()["table"]
        token = client.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).json()["token"]
        with client.websocket_connect(f"/ws/tables/{code}?token={token}") as ws:
            mine = view_until(ws, lambda m: bool(m["view"]["legal"]))
            deadline = mine["view"]["table"]["turn_deadline"]
            assert deadline is not None and deadline - time.time() <= 1.01
            moved = view_until(ws, lambda m: m["version"] > mine["version"])
            assert len(moved["view"]["auction"]) > len(mine["view"]["auction"])
        engine = sa.create_engine(url)
        with engine.connect() as db:
            rows = db.execute(
                sa.text("SELECT version, seat, by, at FROM actions ORDER BY version")
            ).all()
        engine.dispose()
        timed = rows[mine["version"]]  # the action after the view: the timer's, for seat 0
        assert (timed.seat, timed.by) == (0, "timer")
        before = rows[mine["version"] - 1].at if mine["version"] else None
        assert before is None or timed.at - before >= 0.9


def test_hint_and_undo_at_a_table_of_computers(db_url: str) -> None:  # noqa: F811
    url = db_url
    with TestClient(create_app(url, workers=0, allow_seeds=True)) as client:
        body = {
            "seats": ["open", "random", "random", "random"],
            "seed": 13,
            "options": {"delay": 0, "stand_in": "heuristic"},
        }
        code = client.post("/api/tables", json=body).json()["table"]
        token = client.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).json()["token"]
        with client.websocket_connect(f"/ws/tables/{code}?token={token}") as ws:
            mine = view_until(ws, lambda m: bool(m["view"]["legal"]))
            assert mine["view"]["table"]["hints"] and mine["view"]["table"]["undo"]
            assert not mine["view"]["table"]["can_undo"], "nothing of Ann's yet"
            ws.send_json({"type": "undo"})
            while (answer := ws.receive_json())["type"] != "error":
                pass
            assert "nothing of yours" in answer["message"]
            ws.send_json({"type": "hint"})
            while (hint := ws.receive_json())["type"] != "hint":
                pass
            assert hint["action"] in mine["view"]["legal"] and hint["version"] == mine["version"]
            ws.send_json({"type": "action", "action": hint["action"], "version": mine["version"]})
            later = view_until(
                ws, lambda m: bool(m["view"]["legal"]) and m["version"] > mine["version"]
            )
            assert later["view"]["table"]["can_undo"], "Ann's call can be taken back"
            ws.send_json({"type": "undo"})
            back = view_until(ws, lambda m: m["version"] == mine["version"])
            assert not back["view"]["table"]["can_undo"]
            assert back["view"]["legal"] == mine["view"]["legal"]
            assert back["view"]["auction"] == mine["view"]["auction"]
            assert later["version"] > back["version"]
        record = client.get(f"/api/tables/{code}").json()
        assert record["version"] == mine["version"]


def test_hints_name_the_french_canadian_white_joker_as_the_view_does(tmp_path: Any) -> None:
    """The server's hints (and refusals) write cards as the table's views do: the
    French-Canadian white joker is ``JKW`` (R-HOUSE), so a hint is always a legal action.
    (About the words the server writes, not the database: SQLite only.)"""
    url = f"sqlite:///{tmp_path}/hints.db"
    with TestClient(create_app(url, workers=0, allow_seeds=True)) as client:
        hinted: list[str] = []
        for seed in range(1, 40):
            body = {
                "rules": {"preset": "french_canadian"},
                "seed": seed,
                "seats": ["open", "heuristic", "heuristic", "heuristic"],
                "options": {"delay": 0, "stand_in": "heuristic"},
            }
            code = client.post("/api/tables", json=body).json()["table"]
            token = client.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).json()
            with client.websocket_connect(f"/ws/tables/{code}?token={token['token']}") as ws:
                first = view_until(ws, lambda m: m["view"]["hand"] is not None)
                if "JKW" not in first["view"]["hand"]:
                    continue
                hands = first["view"]["table"]["hands_played"]

                def mine_or_over(m: dict[str, Any], h: int = hands) -> bool:
                    return bool(m["view"]["legal"]) or m["view"]["table"]["hands_played"] > h

                # the computers may all have moved before this seat connected: then the
                # first view is already this seat's turn, and no other view comes until it acts
                mine = first
                while True:
                    if not mine_or_over(mine):
                        mine = view_until(ws, mine_or_over)
                    if mine["view"]["table"]["hands_played"] > hands:
                        break
                    ws.send_json({"type": "hint"})
                    while (hint := ws.receive_json())["type"] not in ("hint", "error"):
                        pass
                    assert hint["type"] == "hint", hint
                    assert hint["action"] in mine["view"]["legal"]
                    hinted.append(hint["action"])
                    ws.send_json(
                        {"type": "action", "action": hint["action"], "version": mine["version"]}
                    )
                    mine = view_until(ws, lambda m, v=mine["version"]: m["version"] > v)
            if "JKW" in hinted:
                break
        assert "JKW" in hinted


def test_a_refusal_whose_news_comes_before_the_forwards_answer_reaches_its_client(
    tmp_path: Any,
) -> None:
    """The owner of a table may take what was passed on to it and refuse it before the
    passing server's own database call has answered (its news on another connection): the
    refusal is kept until the id is known, and the client is told (it waited for ever)."""
    import asyncio
    import json

    from fivehundred.rules import make_rules
    from fivehundred.web.guard import Limits
    from fivehundred.web.live import Connection, Decider, Hub
    from fivehundred.web.store import AsyncStore, Store

    async def scenario() -> None:
        store = AsyncStore(Store(f"sqlite:///{tmp_path / 'w.sqlite3'}"))
        hub = Hub(store, Decider(0), limits=Limits(open_seat_grace=3600))
        await hub.start()
        try:
            rules = make_rules("australian")
            options = {"delay": 3600.0}  # the computers wait: seat 0 stays without a move
            table = await hub.create(
                rules, ["open", "random", "random", "random"], None, options, 7
            )
            token = await table.take_seat(0, "Ann")
            conn = Connection(None, table.seat_of_token(token), "Ann")  # type: ignore[arg-type]
            table.attach(conn)
            table.owned = False  # another server plays it: what is asked here is passed on
            call = store.call

            async def refused_first(function: Any, *args: Any) -> Any:
                answer = await call(function, *args)
                if getattr(function, "__name__", "") == "forward":  # the owner was quicker
                    table.refused_there(answer, "nothing of yours to take back in this hand")
                return answer

            store.call = refused_first  # type: ignore[method-assign]
            while not conn.queue.empty():
                conn.queue.get_nowait()
            await table.handle(conn, json.dumps({"type": "undo"}))
            told = []
            while not conn.queue.empty():
                item = conn.queue.get_nowait()
                told.append(json.loads(item) if isinstance(item, str) else item)
            assert [m["type"] for m in told] == ["error"], told
            assert "nothing of yours" in told[0]["message"]
            assert not table.forwarded and not table.refused_early
            store.call = call  # type: ignore[method-assign]
            table.detach(conn)
        finally:
            await hub.stop()
            store.close()

    asyncio.run(scenario())


def test_an_action_made_before_the_forwards_answer_leaves_nothing_waiting(tmp_path: Any) -> None:
    """The owner may take what was passed on, make it, and this server pull it (the client
    shown the new version) before the passing server's database call has answered: the
    client got its view, and the table waits on nothing (a forward kept for ever keeps a
    turn-based table loaded)."""
    import asyncio
    import json

    from fivehundred.rules import make_rules
    from fivehundred.web.guard import Limits
    from fivehundred.web.live import Connection, Decider, Hub
    from fivehundred.web.live.base import PERSON
    from fivehundred.web.store import AsyncStore, Store

    async def scenario() -> None:
        store = AsyncStore(Store(f"sqlite:///{tmp_path / 'w.sqlite3'}"))
        hub = Hub(store, Decider(0), limits=Limits(open_seat_grace=3600))
        await hub.start()
        try:
            rules = make_rules("australian")
            options = {"delay": 3600.0}  # the computers wait: seat 0 keeps the turn
            for seed in range(100):  # a deal where seat 0 bids first
                table = await hub.create(
                    rules, ["open", "random", "random", "random"], None, options, seed
                )
                if table.model.to_move == 0:
                    break
            token = await table.take_seat(0, "Ann")
            conn = Connection(None, table.seat_of_token(token), "Ann")  # type: ignore[arg-type]
            table.attach(conn)
            table.owned = False  # another server plays it: what is asked here is passed on
            version = table.version
            call = store.call

            async def made_first(function: Any, *args: Any) -> Any:
                answer = await call(function, *args)
                if getattr(function, "__name__", "") == "forward":  # made and pulled first
                    table._apply_written(0, "pass", PERSON)
                return answer

            store.call = made_first  # type: ignore[method-assign]
            while not conn.queue.empty():
                conn.queue.get_nowait()
            await table.handle(
                conn, json.dumps({"type": "action", "version": version, "action": "pass"})
            )
            told = []
            while not conn.queue.empty():
                item = conn.queue.get_nowait()
                told.append(json.loads(item) if isinstance(item, str) else item)
            assert [(m["type"], m["version"]) for m in told] == [("view", version + 1)], told
            assert not table.forwarded and not table.forwarded_at and conn.forwarded is None
            store.call = call  # type: ignore[method-assign]
            table.detach(conn)
        finally:
            await hub.stop()
            store.close()

    asyncio.run(scenario())
