"""Rematch (live.Hub.rematch): after a game, one message or request starts the same table
again — the same seats, people and computer players, the dealer moved on — and every
connection is told the new table, each person with their new token (an account's seat is
its own again, by its session)."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from fivehundred.web.accounts import COOKIE
from fivehundred.web.server import create_app


def next_of(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message = ws.receive_json()
        if message["type"] == kind:
            return dict(message)


def test_a_rematch_seats_everyone_again_with_the_dealer_moved_on(tmp_path: Path) -> None:
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
                told_bob = next_of(bob_ws, "rematch")
        new = told_ann["table"]
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
