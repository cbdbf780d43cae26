"""A turn-based table's clock per game (``options.game_clock``, web/game_clock.py): each seat
has a bank of seconds for the whole game, spent while it is its turn; each turn's clock is
the move's clock or what is left of the bank, whichever runs out first; once the bank is
spent the stand-in has the seat for the rest of the game. What each seat spent is the
actions' own times: a server started again shows the same."""

from __future__ import annotations

import dataclasses
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient
from websockets.sync.client import connect

from fivehundred.web.server import UNLIMITED, create_app
from test_web_support import thread_server, wait_for, ws_url
from test_web_turn_based import actions_of, seed_with_dealer

DAY = 86_400.0


def rows(url: str, query: str, **values: Any) -> list[Any]:
    engine = sa.create_engine(url)
    try:
        with engine.begin() as db:
            result = db.execute(sa.text(query), values)
            return list(result.all()) if result.returns_rows else []
    finally:
        engine.dispose()


def test_a_clock_per_game_needs_a_move_clock_it_is_at_least(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    with TestClient(create_app(url, workers=0)) as client:
        body: dict[str, Any] = {"seats": ["open"] * 4}
        for options in ({"game_clock": DAY}, {"move_clock": DAY, "game_clock": 3600}):
            body["options"] = options
            answer = client.post("/api/tables", json=body)
            assert answer.status_code == 422 and "game_clock" in answer.text, options
        body["options"] = {"move_clock": DAY, "game_clock": 3 * DAY}
        made = client.post("/api/tables", json=body)
        assert made.status_code == 201, made.text
        options = client.get(f"/api/tables/{made.json()['table']}").json()["options"]
        assert (options["move_clock"], options["game_clock"]) == (DAY, 3 * DAY)
        body["options"] = {"move_clock": DAY}  # none asked: none kept
        made = client.post("/api/tables", json=body)
        assert (
            "game_clock" not in client.get(f"/api/tables/{made.json()['table']}").json()["options"]
        )


def test_a_spent_bank_hands_the_seat_to_the_stand_in(tmp_path: Path) -> None:
    """Ann never comes: a second a move, 2.5 s a game, and twenty timeouts allowed. Her
    clock runs out twice a whole second, then once for what is left of her bank (half a
    second), and the stand-in has her seat: her timeouts alone would not have given it."""
    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    limits = dataclasses.replace(UNLIMITED, min_move_clock=1)
    with TestClient(create_app(url, workers=0, allow_seeds=True, limits=limits)) as client:
        options = {"delay": 0, "move_clock": 1, "move_timeouts": 20, "game_clock": 2.5}
        body = {
            "seats": ["open", "random", "random", "random"],
            "seed": seed_with_dealer(3),  # Ann bids first
            "rules": {"variants": {"target": 2000}},
            "options": {**options, "stand_in": "random"},
        }
        code = client.post("/api/tables", json=body).json()["table"]
        assert client.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).status_code == 200
        mine = wait_for(
            lambda: len(a := [r for r in actions_of(url, code) if r.seat == 0]) >= 4 and a,
            60,
            "the stand-in's move for Ann",
        )
        assert [r.by for r in mine[:4]] == ["timer", "timer", "timer", "stand_in"]
        log = actions_of(url, code)
        waits = []
        for timed in mine[:3]:  # each from the action before it (the first: the table's making)
            before = log.index(timed) - 1
            waits.append(timed.at - log[before].at if before >= 0 else None)
        assert all(w is None or w >= 0.9 for w in waits[:2]), waits
        assert 0.4 <= waits[2] < 0.9, waits  # the bank's last half second, not a whole move
        facts = client.get(f"/api/tables/{code}").json()
        assert facts["seats"][0]["stand_in"]


def spectated(base: str, code: str) -> dict[str, Any]:
    """The table's facts as a spectator's first view with the clocks per game shown."""
    with connect(ws_url(base, code)) as ws:
        while True:
            message = json.loads(ws.recv(timeout=30))
            if message.get("type") == "view" and message["view"]["table"]["banks"]:
                table: dict[str, Any] = message["view"]["table"]
                return table


def test_each_seats_time_left_is_shown_and_outlives_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    body = {
        "seats": ["open", "random", "random", "random"],
        "seed": seed_with_dealer(3),  # Ann bids first
        "options": {"delay": 0, "move_clock": 3600, "game_clock": 3 * DAY, "stand_in": "random"},
    }
    with thread_server(url) as base:
        code = httpx.post(f"{base}/api/tables", json=body).json()["table"]
        assert httpx.post(f"{base}/api/tables/{code}/seats/0", json={"name": "Ann"}).is_success
        shown = spectated(base, code)
        banks = shown["banks"]
        assert banks[0]["left"] == 3 * DAY and banks[0]["ends"] is not None
        assert [b["left"] for b in banks[1:]] == [None] * 3  # the computers have none
        wait_for(
            lambda: rows(url, "SELECT due FROM deadlines WHERE kind = 'turn'"), 30, "Ann's clock"
        )
    # the server is down for a day: Ann's turn began a day earlier, and her clock ran out
    rows(url, "UPDATE tables SET created = created - :day WHERE code = :code", day=DAY, code=code)
    rows(url, "UPDATE deadlines SET due = :now WHERE kind = 'turn'", now=time.time())
    with thread_server(url) as base:
        timed = wait_for(
            lambda: [r for r in actions_of(url, code) if r.by == "timer"], 30, "Ann's timeout"
        )
        assert [r.seat for r in timed] == [0]

        def spent_a_day() -> dict[str, Any] | None:
            shown = spectated(base, code)
            return shown if shown["banks"][0]["left"] < 2.5 * DAY else None

        shown = wait_for(spent_a_day, 30, "a day of Ann's bank spent")
        left = shown["banks"][0]["left"]
        assert 2 * DAY - 60 < left < 2 * DAY + 1
    with thread_server(url) as base:  # read again from the actions' times
        again = spectated(base, code)["banks"][0]["left"]
        assert again == pytest.approx(left, abs=1.0)  # (the times written, not kept)
