"""Rematch (live.Hub.rematch): after a game, one message or request starts the same table
again — the same rules and computer players, the dealer moved on — seating only those who
ask: every connection is told the new table and who started it, each asker is sent their
new token (an account's seat is its own again, by its session), a player who left is not
seated. One rematch per game, held by the database: a request to another server, or after
the finished table left the server's memory, finds the same table."""

from __future__ import annotations

import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

import httpx

from fivehundred.web.accounts import COOKIE
from fivehundred.web.server import create_app
from test_web_support import database_url, thread_server


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] == kind:
            return dict(message)


def test_a_rematch_seats_those_who_ask_with_the_dealer_moved_on(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", workers=0, allow_seeds=True)
    with TestClient(app) as client:
        body = {
            "seats": ["open", "random", "open", "random"],
            "seed": 3,
            "name": "Friday",
            "rules": {"variants": {"target": 10}},
            "options": {"delay": 0, "grace": 0},
        }
        code = client.post("/api/tables", json=body).json()["table"]
        signup = client.post("/api/accounts", json={"name": "Bob", "password": "x" * 12})
        assert signup.status_code == 201
        assert client.post(f"/api/tables/{code}/seats/2", json={"name": "-"}).status_code == 200
        bob = {"cookie": f"{COOKIE}={client.cookies[COOKIE]}"}
        client.cookies.clear()  # the rest of the requests are Ann's, a guest
        ann = client.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).json()["token"]
        too_soon = client.post(f"/api/tables/{code}/rematch", json={"token": ann})
        assert too_soon.status_code == 409 and "not over" in too_soon.json()["detail"]
        with client.websocket_connect(f"/ws/tables/{code}?token={ann}") as ws:
            while True:
                message = next_of(ws, "view")
                view = message["view"]
                if view["table"]["finished"]:
                    break
                if view["legal"]:
                    ws.send_json(
                        {
                            "type": "action",
                            "action": view["legal"][-1],
                            "version": message["version"],
                        }
                    )
            with client.websocket_connect(f"/ws/tables/{code}", headers=bob) as bob_ws:
                assert next_of(bob_ws, "view")["seat"] == 2  # his session holds seat 2
                ws.send_json({"type": "rematch"})
                told_ann = next_of(ws, "rematch")
                offered_bob = next_of(bob_ws, "rematch")
                new = told_ann["table"]
                # Bob is told who started it, with no token: he has not asked
                assert offered_bob == {
                    "type": "rematch",
                    "table": new,
                    "url": f"/t/{new}",
                    "by": "Ann",
                }
                seats = client.get(f"/api/tables/{new}").json()["seats"]
                assert [(s["kind"], s["name"]) for s in seats] == [
                    ("person", "Ann"),
                    ("computer", "random"),
                    ("open", None),
                    ("computer", "random"),
                ]
                bob_ws.send_json({"type": "rematch"})  # "Join Ann's rematch"
                told_bob = next_of(bob_ws, "rematch")
        assert new != code and told_bob["table"] == new and told_ann["url"] == f"/t/{new}"
        assert told_ann["token"] != told_bob["token"]
        facts = client.get(f"/api/tables/{new}").json()
        assert facts["name"] == "Friday" and not facts["finished"]
        assert [(s["kind"], s["name"]) for s in facts["seats"]] == [
            ("person", "Ann"),
            ("computer", "random"),
            ("person", "Bob"),
            ("computer", "random"),
        ]
        assert facts["rules"] == client.get(f"/api/tables/{code}").json()["rules"]
        last_dealer = client.get(f"/api/tables/{code}/sheet").json()["hands"][-1]["dealer"]
        # asked again (by the API, with the old token): the same table, the same token
        again = client.post(f"/api/tables/{code}/rematch", json={"token": ann})
        assert again.status_code == 200
        assert again.json() == {
            "table": new,
            "url": f"/t/{new}",
            "seat": 0,
            "token": told_ann["token"],
        }
        with client.websocket_connect(f"/ws/tables/{new}?token={told_ann['token']}") as ws:
            view = next_of(ws, "view")
            assert view["seat"] == 0 and view["view"]["dealer"] == (last_dealer + 1) % 4
        with client.websocket_connect(f"/ws/tables/{new}", headers=bob) as bob_ws:
            assert next_of(bob_ws, "view")["seat"] == 2
        stranger = client.post(f"/api/tables/{code}/rematch", json={"token": "nobody"})
        assert stranger.status_code == 403
        assert client.post(f"/api/tables/{code}/rematch").status_code == 403  # no session
        assert client.post("/api/tables/NOSUCH/rematch", json={}).status_code == 404
        long = client.post(f"/api/tables/{code}/rematch", json={"token": "x" * 101})
        assert long.status_code == 422


def finished_table(post: Any, get: Any, names: list[str]) -> tuple[str, list[str]]:
    """A table of ``names`` (people, seats 0, 1, ...) and computers, played to its end by
    the stand-in (nobody connects); its code and the people's tokens."""
    seats = ["open"] * len(names) + ["random"] * (4 - len(names))
    body = {
        "seats": seats,
        "seed": 3,
        "rules": {"variants": {"target": 10}},
        "options": {"delay": 0, "grace": 0, "stand_in": "random"},
    }
    code = post("/api/tables", body)["table"]
    tokens = [
        post(f"/api/tables/{code}/seats/{n}", {"name": name})["token"]
        for n, name in enumerate(names)
    ]
    deadline = time.monotonic() + 60
    while not get(f"/api/tables/{code}")["finished"]:
        assert time.monotonic() < deadline, "the game never ended"
        time.sleep(0.05)
    return code, tokens


def test_a_player_who_left_is_not_seated_and_one_rematch_survives_the_cache(
    tmp_path: Path,
) -> None:
    """Ann asks, Bob (gone) never does: his seat at the rematch stays open. The finished
    table then leaves the server's memory; Cid's request still finds Ann's rematch."""
    app = create_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", workers=0, allow_seeds=True)
    with TestClient(app) as client:

        def post(path: str, body: Any) -> Any:
            answer = client.post(path, json=body)
            assert answer.is_success, answer.text
            return answer.json()

        code, (ann, _bob, cid) = finished_table(
            post, lambda path: client.get(path).json(), ["Ann", "Bob", "Cid"]
        )
        new = post(f"/api/tables/{code}/rematch", {"token": ann})
        assert [s["kind"] for s in client.get(f"/api/tables/{new['table']}").json()["seats"]] == [
            "person",
            "open",
            "open",
            "computer",
        ]
        hub = app.state.hub
        hub.finished.pop(code, None)  # (as when 64 later games pushed it out)
        hub.tables.pop(code, None)
        joined = post(f"/api/tables/{code}/rematch", {"token": cid})
        assert joined["table"] == new["table"] and joined["seat"] == 2
        facts = client.get(f"/api/tables/{new['table']}").json()
        assert [(s["kind"], s["name"]) for s in facts["seats"]] == [
            ("person", "Ann"),
            ("open", None),
            ("person", "Cid"),
            ("computer", "random"),
        ]


def test_two_servers_asked_at_once_make_one_rematch(tmp_path: Path) -> None:
    """Two servers on one PostgreSQL, Ann's request to one and Bob's to the other at the
    same moment: one table, both seated at it."""
    url = database_url("postgresql", tmp_path)
    with thread_server(url) as first, thread_server(url) as second:

        def post(path: str, body: Any) -> Any:
            answer = httpx.post(first + path, json=body)
            assert answer.is_success, answer.text
            return answer.json()

        for round_ in range(3):
            code, tokens = finished_table(
                post, lambda path: httpx.get(first + path).json(), ["Ann", "Bob"]
            )
            with ThreadPoolExecutor(2) as pool:
                answers = list(
                    pool.map(
                        lambda pair, c=code: httpx.post(
                            f"{pair[0]}/api/tables/{c}/rematch", json={"token": pair[1]}
                        ),
                        [(first, tokens[0]), (second, tokens[1])],
                    )
                )
            assert [a.status_code for a in answers] == [200, 200], [a.text for a in answers]
            made = {a.json()["table"] for a in answers}
            assert len(made) == 1, (round_, made)
            seats = httpx.get(f"{second}/api/tables/{made.pop()}").json()["seats"]
            assert [(s["kind"], s["name"]) for s in seats[:2]] == [
                ("person", "Ann"),
                ("person", "Bob"),
            ]


def test_a_player_on_another_server_is_offered_the_rematch(tmp_path: Path) -> None:
    """Bob's page is connected to the second server; Ann starts the rematch through the
    first: Bob is told (who started it, no token) and joins it from where he is."""
    import json

    from websockets.sync.client import connect

    from test_web_support import ws_url

    url = database_url("postgresql", tmp_path)
    with thread_server(url) as first, thread_server(url) as second:

        def post(path: str, body: Any) -> Any:
            answer = httpx.post(first + path, json=body)
            assert answer.is_success, answer.text
            return answer.json()

        code, (ann, bob) = finished_table(
            post, lambda path: httpx.get(first + path).json(), ["Ann", "Bob"]
        )
        with connect(ws_url(second, code, bob), open_timeout=10) as ws:

            def next_message(kind: str) -> dict[str, Any]:
                while (message := json.loads(ws.recv(timeout=20)))["type"] != kind:
                    pass
                return dict(message)

            next_message("view")
            new = post(f"/api/tables/{code}/rematch", {"token": ann})["table"]
            offered = next_message("rematch")
            assert offered == {"type": "rematch", "table": new, "url": f"/t/{new}", "by": "Ann"}
            ws.send(json.dumps({"type": "rematch"}))
            joined = next_message("rematch")
        assert joined["table"] == new and joined["token"]
        seats = httpx.get(f"{second}/api/tables/{new}").json()["seats"]
        assert [(s["kind"], s["name"]) for s in seats[:2]] == [("person", "Ann"), ("person", "Bob")]


def test_the_seat_of_a_player_who_has_not_asked_is_played_after_the_tables_grace(
    tmp_path: Path,
) -> None:
    """Ann asks, Bob does not: Bob's open seat is played by the stand-in after the
    table's grace (here 0 s), not the server's ten minutes for a seat nobody ever took;
    Ann's game goes on."""
    app = create_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", workers=0, allow_seeds=True)
    with TestClient(app) as client:

        def post(path: str, body: Any) -> Any:
            answer = client.post(path, json=body)
            assert answer.is_success, answer.text
            return answer.json()

        code, (ann, _bob) = finished_table(
            post, lambda path: client.get(path).json(), ["Ann", "Bob"]
        )
        new = post(f"/api/tables/{code}/rematch", {"token": ann})["table"]
        deadline = time.monotonic() + 30
        while (facts := client.get(f"/api/tables/{new}").json())["hands_played"] < 1:
            assert time.monotonic() < deadline, facts["version"]
            time.sleep(0.05)
        assert [s["kind"] for s in facts["seats"][:2]] == ["person", "open"]
