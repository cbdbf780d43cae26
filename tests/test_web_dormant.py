"""Only tables that need memory are in it: a turn-based table waiting on an absent person's
clock (dormant) is not read at a server's start (nor taken over by another server), is read
when it is opened, and when its clock runs out; an idle one leaves memory."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi import FastAPI
from websockets.sync.client import connect

from fivehundred.web.server import UNLIMITED
from test_web_support import DATABASES, database_url, thread_server, wait_for, ws_url

SECRET = "correct horse battery staple 42"


def rows(url: str, query: str, **values: Any) -> list[Any]:
    engine = sa.create_engine(url)
    try:
        with engine.begin() as db:
            result = db.execute(sa.text(query), values)
            return list(result.all()) if result.returns_rows else []
    finally:
        engine.dispose()


def clock_of(url: str, code: str) -> Any:
    """The turn clock's row of the table (seat, due, fired), if any."""
    found = rows(
        url,
        "SELECT d.seat, d.due, d.fired FROM deadlines d JOIN tables t ON t.id = d.table_id "
        "WHERE t.code = :code AND d.kind = 'turn'",
        code=code,
    )
    return found[0] if found else None


def waiting_tables(base: str, url: str, count: int) -> dict[str, str]:
    """``count`` turn-based tables (an hour a move) where Ann took seat 0 and it is her
    turn: each code with her token."""
    made = {}
    for n in range(count):
        body = {
            "seats": ["open", "random", "random", "random"],
            "seed": n,
            "options": {"delay": 0, "move_clock": 3600, "stand_in": "random"},
        }
        answer = httpx.post(f"{base}/api/tables", json=body)
        assert answer.status_code == 201, answer.text
        code = str(answer.json()["table"])
        seat = httpx.post(f"{base}/api/tables/{code}/seats/0", json={"name": "Ann"})
        assert seat.status_code == 200, seat.text
        made[code] = str(seat.json()["token"])
    for code in made:
        wait_for(lambda c=code: clock_of(url, c), 30, f"Ann's clock at {code}")
    return made


def kept(apps: list[FastAPI]) -> Any:
    def prepare(app: FastAPI) -> None:
        apps.append(app)

    return prepare


def in_memory(app: FastAPI) -> set[str]:
    return set(app.state.hub.tables)


@pytest.mark.parametrize("kind", DATABASES)
def test_a_restart_reads_no_dormant_table_then_one_is_opened_and_played(
    kind: str, tmp_path: Path
) -> None:
    url = database_url(kind, tmp_path)
    with thread_server(url) as base:
        tokens = waiting_tables(base, url, 6)
    apps: list[FastAPI] = []
    with thread_server(url, prepare=kept(apps)) as base:
        assert in_memory(apps[0]) == set()  # none read at the start
        # the lobby lists them from their rows, none read for it
        listed = httpx.get(f"{base}/api/tables").json()["tables"]
        assert {t["table"] for t in listed} == set(tokens)
        assert all(t["seats"][0]["name"] == "Ann" for t in listed)
        assert all(t["scores"] == [0, 0] and t["url"] == f"/t/{t['table']}" for t in listed)
        assert in_memory(apps[0]) == set()
        code, token = next(iter(tokens.items()))
        facts = httpx.get(f"{base}/api/tables/{code}").json()
        assert facts["to_move"] == 0 and not facts["finished"]
        # opened, it is played here (with several servers: its lock taken at once, not when
        # a move is passed on)
        hub = apps[0].state.hub
        wait_for(lambda: code in hub.tables and hub.tables[code].owned, 30, "the table played")
        with connect(ws_url(base, code, token)) as ws:
            view = json.loads(ws.recv())
            while view.get("type") != "view":
                view = json.loads(ws.recv())
            version = view["version"]
            legal = view["view"]["legal"]
            action = "pass" if "pass" in legal else legal[0]
            ws.send(json.dumps({"type": "action", "version": version, "action": action}))
            answer = json.loads(ws.recv())
            while answer.get("type") != "view" or answer["version"] <= version:
                assert answer.get("type") != "error", answer
                answer = json.loads(ws.recv())
        assert answer["view"]["table"]["seats"][0]["name"] == "Ann"
        played = rows(
            url,
            "SELECT a.by FROM actions a JOIN tables t ON t.id = a.table_id "
            "WHERE t.code = :code AND a.version = :version",
            code=code,
            version=version + 1,
        )
        assert [r.by for r in played] == ["person"]
        assert in_memory(apps[0]) <= {code}  # the others still only in the database


@pytest.mark.parametrize("kind", DATABASES)
def test_a_clock_running_out_on_a_table_not_in_memory_moves_it(kind: str, tmp_path: Path) -> None:
    url = database_url(kind, tmp_path)
    with thread_server(url) as base:
        tokens = waiting_tables(base, url, 3)
    apps: list[FastAPI] = []
    with thread_server(url, prepare=kept(apps)) as base:
        assert in_memory(apps[0]) == set()
        code = next(iter(tokens))
        # days pass: Ann's clock at that table is due now (written behind the scheduler's
        # back, which knew it due days later: it looks at each wake, as a look at the
        # latest every RELOOK seconds would find it)
        apps[0].state.hub.scheduler.relook = 0.0
        rows(
            url,
            "UPDATE deadlines SET due = :now WHERE kind = 'turn' AND table_id = "
            "(SELECT id FROM tables WHERE code = :code)",
            now=time.time(),
            code=code,
        )
        timed = wait_for(
            lambda: rows(
                url,
                "SELECT a.seat FROM actions a JOIN tables t ON t.id = a.table_id "
                "WHERE t.code = :code AND a.by = 'timer'",
                code=code,
            ),
            30,
            "the stand-in's move for Ann when her clock ran out",
        )
        assert [r.seat for r in timed] == [0]
        assert code in in_memory(apps[0])
        assert in_memory(apps[0]) <= {code}


def test_an_idle_table_leaves_memory_and_comes_back_when_opened(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    apps: list[FastAPI] = []
    limits = dataclasses.replace(UNLIMITED, sweep_seconds=0.1)
    with thread_server(url, prepare=kept(apps), limits=limits) as base:
        tokens = waiting_tables(base, url, 2)
        hub = apps[0].state.hub
        assert set(tokens) <= in_memory(apps[0])
        hub.idle_kept = 0.0
        first = next(iter(tokens))
        wait_for(lambda: not in_memory(apps[0]), 60, "the idle tables let go")
        hub.idle_kept = 3600.0
        facts = httpx.get(f"{base}/api/tables/{first}").json()
        assert facts["to_move"] == 0 and facts["seats"][0]["name"] == "Ann"
        assert first in in_memory(apps[0])


def test_my_games_lists_dormant_tables_from_their_rows(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    with thread_server(url) as base, httpx.Client(base_url=base) as ann:
        made = ann.post("/api/accounts", json={"name": "Ann", "password": SECRET})
        assert made.is_success, made.text
        codes = []
        for seed in range(3):
            body = {
                "seats": ["open", "random", "random", "random"],
                "seed": seed,
                "options": {"delay": 0, "move_clock": 3600, "stand_in": "random"},
            }
            code = str(ann.post("/api/tables", json=body).json()["table"])
            assert ann.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).is_success
            codes.append(code)
        for code in codes:
            wait_for(lambda c=code: clock_of(url, c), 30, f"Ann's clock at {code}")
        before = {g["table"]: g for g in ann.get("/api/my-games").json()["games"]}
        cookies = dict(ann.cookies)
    apps: list[FastAPI] = []
    with thread_server(url, prepare=kept(apps)) as base, httpx.Client(base_url=base) as ann:
        ann.cookies.update(cookies)
        games = ann.get("/api/my-games").json()["games"]
        assert in_memory(apps[0]) == set()  # listed from their rows and clocks
        assert {g["table"] for g in games} == set(codes)
        for game in games:
            assert game["your_turn"] and game["status"] == "Your turn"
            was = before[game["table"]]
            for key in ("turn_deadline", "version", "players", "scores", "seats", "move_clock"):
                assert game[key] == was[key], key
