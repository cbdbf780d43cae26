"""Accounts (web/accounts.py): sign up, log in and out, sessions, the name a guest cannot
take, a seat played from two devices, the login limits, CSRF, the password kept out of
every log and answer, deleting an account."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from fastapi.testclient import TestClient

from fivehundred.web.accounts import COOKIE, AccountsConfig
from fivehundred.web.server import create_app
from test_web_support import Player, thread_server, ws_url

SECRET = "correct horse battery staple 42"


@pytest.fixture
def client(tmp_path: Path) -> Any:
    app = create_app(
        f"sqlite:///{tmp_path / 'w.sqlite3'}",
        workers=0,
        allow_seeds=True,
        accounts_config=AccountsConfig(login_per_minute=5, login_burst=5),
    )
    with TestClient(app) as test_client:
        yield test_client


def table(client: Any, seats: list[str] | None = None) -> str:
    body = {
        "seats": seats or ["open", "heuristic", "open", "heuristic"],
        "seed": 5,
        "options": {"delay": 0},
    }
    answer = client.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["table"])


def test_sign_up_log_in_log_out(client: Any) -> None:
    answer = client.post("/api/accounts", json={"name": "Ann", "password": SECRET})
    assert answer.status_code == 201
    cookie = answer.headers["set-cookie"]
    assert "HttpOnly" in cookie and "SameSite=lax" in cookie.replace("Lax", "lax")
    assert "Secure" not in cookie  # plain http here; https (or the option) sets it
    assert client.get("/api/session").json()["name"] == "Ann"
    assert client.post("/api/accounts", json={"name": "ann", "password": SECRET}).status_code == 409
    assert client.delete("/api/session").status_code == 200
    assert client.get("/api/session").json()["name"] is None
    wrong = client.post("/api/session", json={"name": "Ann", "password": "not it at all"})
    assert wrong.status_code == 401
    assert client.post("/api/session", json={"name": "ANN", "password": SECRET}).json() == {
        "name": "Ann",
        "bot": False,
    }
    assert client.get("/api/session").json()["name"] == "Ann"


def test_the_secure_flag_can_be_required(tmp_path: Path) -> None:
    app = create_app(
        f"sqlite:///{tmp_path / 'w.sqlite3'}",
        workers=0,
        accounts_config=AccountsConfig(secure_cookie=True),
    )
    with TestClient(app) as client:
        answer = client.post("/api/accounts", json={"name": "Sec", "password": SECRET})
        assert "Secure" in answer.headers["set-cookie"]
    app = create_app(f"sqlite:///{tmp_path / 'x.sqlite3'}", workers=0)
    with TestClient(app, base_url="https://testserver") as client:
        answer = client.post("/api/accounts", json={"name": "Sec", "password": SECRET})
        assert "Secure" in answer.headers["set-cookie"]


def test_a_new_session_id_at_every_login_and_log_out_everywhere(client: Any) -> None:
    client.post("/api/accounts", json={"name": "Bea", "password": SECRET})
    first = client.cookies[COOKIE]
    client.post("/api/session", json={"name": "Bea", "password": SECRET})
    second = client.cookies[COOKIE]
    assert second != first
    # the session id from before the login is gone (no fixation)
    other = TestClient(client.app)
    other.cookies.set(COOKIE, first)
    assert other.get("/api/session").json()["name"] is None
    # a session planted before the login is not adopted
    planted = TestClient(client.app)
    planted.cookies.set(COOKIE, "planted-by-an-attacker")
    answer = planted.post("/api/session", json={"name": "Bea", "password": SECRET})
    issued = answer.cookies[COOKIE]
    assert issued not in ("planted-by-an-attacker", first, second)
    planted.cookies.clear()
    planted.cookies.set(COOKIE, "planted-by-an-attacker")
    assert planted.get("/api/session").json()["name"] is None
    planted.cookies.clear()
    planted.cookies.set(COOKIE, issued)
    assert planted.get("/api/session").json()["name"] == "Bea"
    assert client.delete("/api/session?everywhere=true").status_code == 200
    assert planted.get("/api/session").json()["name"] is None


def test_login_attempts_are_limited_per_name_and_per_address(client: Any) -> None:
    client.post("/api/accounts", json={"name": "Cid", "password": SECRET})
    client.delete("/api/session")
    service = client.app.state.accounts
    frozen = type(service.by_address)  # the buckets on a stopped clock (no refill)
    service.by_address = frozen(5, 5, clock=lambda: 0.0)
    service.by_name = frozen(5, 5, clock=lambda: 0.0)
    # one address trying many names is limited too
    others = [
        client.post("/api/session", json={"name": f"n{i}", "password": "guess number"}).status_code
        for i in range(5)
    ]
    assert others == [401] * 5
    assert client.post("/api/session", json={"name": "n9", "password": "x"}).status_code == 429
    service.by_address = frozen(100, 100, clock=lambda: 0.0)
    codes = [
        client.post("/api/session", json={"name": "Cid", "password": "guess number"}).status_code
        for _ in range(6)
    ]
    assert codes == [401] * 5 + [429]
    # the right password waits too: the name is limited
    limited = client.post("/api/session", json={"name": "Cid", "password": SECRET})
    assert limited.status_code == 429
    assert int(limited.headers["retry-after"]) >= 1


def test_requests_from_another_site_are_refused(client: Any) -> None:
    client.post("/api/accounts", json={"name": "Dee", "password": SECRET})
    code = table(client)
    evil = {"Origin": "http://evil.example"}
    for method, url, body in [
        ("POST", "/api/session", {"name": "Dee", "password": SECRET}),
        ("DELETE", "/api/session", None),
        ("POST", "/api/accounts/me/password", {"old": SECRET, "new": SECRET + "!"}),
        ("DELETE", "/api/accounts/me", {"password": SECRET}),
        ("POST", "/api/accounts", {"name": "Eve", "password": SECRET}),
        ("POST", f"/api/tables/{code}/seats/0", {"name": "x"}),
        ("POST", "/api/tables", {"seats": ["open", "heuristic", "open", "heuristic"]}),
    ]:
        answer = client.request(method, url, json=body, headers=evil)
        assert answer.status_code == 403, (method, url)
    assert client.get("/api/session").json()["name"] == "Dee"
    same = {"Origin": "http://testserver"}
    assert client.delete("/api/session", headers=same).status_code == 200


def test_a_guest_cannot_take_an_accounts_name(client: Any) -> None:
    client.post("/api/accounts", json={"name": "Fay", "password": SECRET})
    code = table(client)
    guest = TestClient(client.app)
    answer = guest.post(f"/api/tables/{code}/seats/0", json={"name": "fay"})
    assert answer.status_code == 409 and "account" in answer.json()["detail"]
    # logged in, the seat is the account's whatever name is typed
    answer = client.post(f"/api/tables/{code}/seats/0", json={"name": "whatever"})
    assert answer.status_code == 200
    facts = client.get(f"/api/tables/{code}").json()
    assert facts["seats"][0]["name"] == "Fay"
    assert client.get(f"/api/tables/{code}/accounts").json()["accounts"] == {"0": "Fay"}
    # a guest who played under a name keeps it: nobody can sign up as them later
    guest.post(f"/api/tables/{code}/seats/2", json={"name": "Gus"})
    assert guest.post("/api/accounts", json={"name": "gus", "password": SECRET}).status_code == 409


def test_change_password_ends_other_sessions(client: Any) -> None:
    client.post("/api/accounts", json={"name": "Hal", "password": SECRET})
    other = TestClient(client.app)
    other.post("/api/session", json={"name": "Hal", "password": SECRET})
    wrong = client.post("/api/accounts/me/password", json={"old": "nope nope", "new": "x" * 10})
    assert wrong.status_code == 401
    answer = client.post("/api/accounts/me/password", json={"old": SECRET, "new": "new secret 99"})
    assert answer.status_code == 200
    assert client.get("/api/session").json()["name"] == "Hal"
    assert other.get("/api/session").json()["name"] is None
    assert other.post("/api/session", json={"name": "Hal", "password": SECRET}).status_code == 401
    assert (
        other.post("/api/session", json={"name": "Hal", "password": "new secret 99"}).status_code
        == 200
    )


def test_delete_an_account_keeps_its_games_under_another_name(client: Any) -> None:
    client.post("/api/accounts", json={"name": "Ivy", "password": SECRET})
    code = table(client)
    client.post(f"/api/tables/{code}/seats/0", json={"name": "Ivy"})
    assert (
        client.request("DELETE", "/api/accounts/me", json={"password": "wrong one"}).status_code
        == 401
    )
    answer = client.request("DELETE", "/api/accounts/me", json={"password": SECRET})
    assert answer.status_code == 200
    renamed = answer.json()["games_renamed_to"]
    assert renamed.startswith("deleted-")
    assert client.get("/api/session").json()["name"] is None
    assert client.get("/api/accounts/Ivy").status_code == 404
    assert client.post("/api/session", json={"name": "Ivy", "password": SECRET}).status_code == 401
    # the stored game keeps the seat under the new name (the table's own memory is the
    # live game's; the database is what history and statistics read)
    assert client.get(f"/api/players/{renamed}").json()["games"] == 1
    assert client.get("/api/players/Ivy").status_code == 404


def test_the_password_is_in_no_log_and_no_answer(client: Any, caplog: Any) -> None:
    caplog.set_level(logging.DEBUG)
    answers = [
        client.post("/api/accounts", json={"name": "Jo", "password": SECRET}),
        client.post("/api/session", json={"name": "Jo", "password": SECRET}),
        client.post("/api/session", json={"name": "Jo", "password": SECRET + "x"}),
        client.post("/api/session", json={"name": "Nobody", "password": SECRET}),
        client.post("/api/accounts/me/password", json={"old": SECRET, "new": SECRET + "2"}),
        client.post("/api/accounts", json={"name": "Jo2", "password": SECRET, "extra": SECRET}),
        client.post("/api/accounts", json={"name": "J", "password": SECRET}),
        client.post("/api/session", json={"name": "Jo", "password": SECRET * 20}),
        client.get("/api/accounts/Jo"),
    ]
    for answer in answers:
        assert SECRET not in answer.text
        assert SECRET not in json.dumps(dict(answer.headers))
    assert caplog.records  # something was logged (the accounts' own lines)
    assert SECRET not in caplog.text


def test_a_seat_taken_logged_in_plays_from_another_device(tmp_path: Path) -> None:
    with thread_server(f"sqlite:///{tmp_path / 'w.sqlite3'}") as base:
        phone = httpx.Client(base_url=base)
        laptop = httpx.Client(base_url=base)
        phone.post("/api/accounts", json={"name": "Kim", "password": SECRET})
        laptop.post("/api/session", json={"name": "Kim", "password": SECRET})
        body = {"seats": ["open", "random", "random", "random"], "seed": 3, "options": {"delay": 0}}
        code = phone.post("/api/tables", json=body).json()["table"]
        token = phone.post(f"/api/tables/{code}/seats/0", json={"name": "Kim"}).json()["token"]

        async def play_one(cookie: str | None, token: str | None) -> int:
            headers = {"Cookie": f"{COOKIE}={cookie}"} if cookie else {}
            async with websockets.connect(
                ws_url(base, code, token), additional_headers=headers
            ) as ws:
                player = Player(ws, None)
                message = await player.until(lambda m: m["type"] == "view" and m["view"]["legal"])
                assert message["seat"] == 0
                version = message["version"]
                await ws.send(
                    json.dumps(
                        {
                            "type": "action",
                            "version": version,
                            "action": message["view"]["legal"][0],
                        }
                    )
                )
                await player.until(lambda m: m["type"] == "view" and m["version"] > version)
                return int(version)

        first = asyncio.run(play_one(phone.cookies[COOKIE], None))
        second = asyncio.run(play_one(laptop.cookies[COOKIE], None))
        assert second > first
        third = asyncio.run(play_one(None, token))  # the token still works (programs)
        assert third > second

        async def spectator() -> Any:
            async with websockets.connect(ws_url(base, code)) as ws:  # a guest watches
                return (await Player(ws, None).until(lambda m: m["type"] == "view"))["seat"]

        assert asyncio.run(spectator()) is None
