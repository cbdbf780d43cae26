"""Turn-based tables (``options.move_clock``): a clock per move that runs whether or not
anyone is connected, the stand-in's move when it runs out (``timer``), the seat kept by the
stand-in after ``move_timeouts`` of them; and an account's games not over (``/my-games``),
those where it is its turn first."""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from fivehundred.game import dealer_of_seed
from fivehundred.web.server import UNLIMITED, create_app
from test_web_support import thread_server, wait_for

SECRET = "correct horse battery staple 42"


def actions_of(url: str, code: str) -> list[Any]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as db:
            return list(
                db.execute(
                    sa.text(
                        "SELECT a.seat, a.by, a.at FROM actions a JOIN tables t "
                        "ON t.id = a.table_id WHERE t.code = :code ORDER BY a.version"
                    ),
                    {"code": code},
                ).all()
            )
    finally:
        engine.dispose()


def test_the_clock_moves_for_an_absent_player_then_the_stand_in_keeps_the_seat(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    limits = dataclasses.replace(UNLIMITED, min_move_clock=1)
    with TestClient(create_app(url, workers=0, allow_seeds=True, limits=limits)) as client:
        body = {
            "seats": ["open", "random", "random", "random"],
            "seed": 12,
            "rules": {"variants": {"target": 2000}},
            "options": {"delay": 0, "move_clock": 1, "move_timeouts": 2, "stand_in": "random"},
        }
        answer = client.post("/api/tables", json=body)
        assert answer.status_code == 201, answer.text
        code = answer.json()["table"]
        assert client.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).status_code == 200
        # Ann never connects: her clock, not a grace, moves for her, twice; then the
        # stand-in has her seat and plays it at once
        facts = wait_for(
            lambda: (f := client.get(f"/api/tables/{code}").json())["seats"][0]["stand_in"] and f,
            60,
            "the stand-in keeps Ann's seat",
        )
        assert facts["options"]["move_clock"] == 1
        mine = wait_for(
            lambda: len(a := [r for r in actions_of(url, code) if r.seat == 0]) >= 3 and a,
            60,
            "a move of the stand-in's",
        )
        assert [r.by for r in mine[:3]] == ["timer", "timer", "stand_in"]
        log = actions_of(url, code)
        for timed in mine[:2]:  # each a whole clock after the action before it (if any)
            before = log.index(timed) - 1
            assert before < 0 or timed.at - log[before].at >= 0.9


def test_a_clock_under_the_servers_least_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    with TestClient(create_app(url, workers=0)) as client:
        body = {"seats": ["open"] * 4, "options": {"move_clock": 60}}
        answer = client.post("/api/tables", json=body)
        assert answer.status_code == 422 and "move_clock" in answer.text
        body["options"] = {"move_clock": 3600}
        assert client.post("/api/tables", json=body).status_code == 201


def seed_with_dealer(dealer: int) -> int:
    return next(seed for seed in range(1000) if dealer_of_seed(seed, 4) == dealer)


def test_my_games_lists_those_where_it_is_my_turn_first(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    with TestClient(create_app(url, workers=0, allow_seeds=True)) as client:
        assert client.get("/api/my-games").status_code == 401

        def table(dealer: int) -> str:  # Bob, a guest, at seat 1; seat 0 for Ann
            body = {
                "seats": ["open", "open", "random", "random"],
                "seed": seed_with_dealer(dealer),
                "options": {"delay": 0, "move_clock": 3600},
            }
            answer = client.post("/api/tables", json=body)
            assert answer.status_code == 201, answer.text
            code = str(answer.json()["table"])
            assert client.post(f"/api/tables/{code}/seats/1", json={"name": "Bob"}).is_success
            return code

        # made in this order: the list is not merely the newest first
        mine_first = table(3)  # Ann (seat 0) bids first
        waiting = table(0)  # Bob (seat 1) bids first
        mine_later = table(2)  # the computers, then Ann
        assert client.post("/api/accounts", json={"name": "Ann", "password": SECRET}).is_success
        for code in (mine_first, waiting, mine_later):
            assert client.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).is_success

        def listed() -> list[dict[str, Any]] | None:
            games: list[dict[str, Any]] = client.get("/api/my-games").json()["games"]
            settled = len(games) == 3 and sum(g["your_turn"] for g in games) == 2
            return games if settled else None

        games = wait_for(listed, 30, "Ann's three games, two at her turn")
        assert [g["table"] for g in games] == [mine_first, mine_later, waiting]
        assert [g["status"] for g in games] == ["Your turn", "Your turn", "Waiting for Bob"]
        assert games[0]["turn_deadline"] <= games[1]["turn_deadline"]
        assert games[0]["turn_deadline"] > time.time() + 3000  # an hour's clock
        assert all(g["turn_based"] and g["url"] == f"/t/{g['table']}" for g in games)
        assert [g["seats"] for g in games] == [[0], [0], [0]]
        page = client.get("/my-games")
        assert page.status_code == 200 and "mygames.js" in page.text


def test_my_games_at_phone_size(tmp_path: Path) -> None:
    """Playwright (Debian's chromium) at 390x844: the page lists the game at the account's
    turn with its link and its words, within the screen's width."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("no chromium at /usr/bin/chromium")
    with thread_server(f"sqlite:///{tmp_path / 'w.sqlite3'}") as base:
        ann = httpx.Client(base_url=base, timeout=30)
        assert ann.post("/api/accounts", json={"name": "Ann", "password": SECRET}).is_success
        body = {
            "seats": ["open", "random", "random", "random"],
            "seed": seed_with_dealer(3),
            "name": "Sunday game",
            "options": {"delay": 0, "move_clock": 86400},
        }
        code = ann.post("/api/tables", json=body).json()["table"]
        assert ann.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).is_success
        with playwright_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            try:
                context = browser.new_context(viewport={"width": 390, "height": 844})
                host = base.split("//", 1)[1].split(":")[0]
                session = ann.cookies.get("fh_session")
                context.add_cookies(
                    [{"name": "fh_session", "value": session, "domain": host, "path": "/"}]
                )
                page = context.new_page()
                page.goto(f"{base}/my-games")
                item = page.locator("#game-list li")
                item.wait_for()
                assert item.locator("a").get_attribute("href") == f"/t/{code}"
                assert "Sunday game" in item.inner_text() and "Your turn" in item.inner_text()
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= 390, width
                page.screenshot(path=str(tmp_path / "my-games-phone.png"), full_page=True)
            finally:
                browser.close()
