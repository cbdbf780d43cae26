"""The player page's figures count only what the person played (web/players.py): a seat
the stand-in played throughout is a game *left*, never won; a hand whose actions were
mostly the stand-in's is marked and counted nowhere; rated and casual games apart."""

from __future__ import annotations

import warnings
from pathlib import Path
from typing import Any

import sqlalchemy as sa

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from fivehundred.web import accounts, store
from fivehundred.web.players import hand_lengths
from fivehundred.web.server import create_app


def play_to_the_end(client: TestClient, code: str, token: str) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/tables/{code}?token={token}") as ws:
        while True:
            message = ws.receive_json()
            if message["type"] != "view":
                continue
            view = message["view"]
            if view["table"]["finished"]:
                return dict(view["table"])
            if view["legal"]:
                ws.send_json(
                    {"type": "action", "action": view["legal"][0], "version": message["version"]}
                )


def test_left_games_stand_in_hands_and_rated_figures(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    with TestClient(create_app(url, workers=0, allow_seeds=True)) as client:
        body = {
            "seats": ["open", "heuristic", "open", "heuristic"],
            "seed": 12,
            "rules": {"variants": {"target": 500}},
            "options": {"delay": 0, "grace": 0},
        }
        code = client.post("/api/tables", json=body).json()["table"]
        bob = client.post(f"/api/tables/{code}/seats/2", json={"name": "Bob"}).json()
        assert "token" in bob  # Bob sits down and never comes: the stand-in plays his seat
        ann = client.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).json()["token"]
        end = play_to_the_end(client, code, ann)
        hands = end["hands_played"]
        assert hands >= 2, "the seed should give a game of several hands"
        winner = end["winner"]

        left = client.get("/api/players/Bob").json()
        assert left["games"] == left["finished"] == left["left"] == 1
        assert left["wins"] == 0 and left["win_rate"] == 0  # Ann's side may have won: not his
        assert left["hands"] == 0 and left["stand_in_hands"] == hands
        assert left["recent"][0]["outcome"] == "left"
        assert left["casual"]["left"] == 1 and left["rated"]["games"] == 0

        before = client.get("/api/players/Ann").json()
        assert before["hands"] == hands and before["stand_in_hands"] == 0
        assert before["wins"] == (1 if winner == 0 else 0) and before["left"] == 0

        # the first hand's actions of Ann's seat made the stand-in's; the game rated
        engine = sa.create_engine(url)
        with engine.begin() as db:
            table = db.execute(
                sa.select(store.tables.c.id, store.tables.c.rules, store.tables.c.seed).where(
                    store.tables.c.code == code
                )
            ).one()
            log = [
                (r.seat, r.action, r.by)
                for r in db.execute(
                    sa.select(store.actions)
                    .where(store.actions.c.table_id == table.id)
                    .order_by(store.actions.c.version)
                )
            ]
            import json

            first = hand_lengths(
                code, json.loads(table.rules), ["human", "heuristic", "human", "heuristic"], 12, log
            )[0]
            db.execute(
                store.actions.update()
                .where(
                    store.actions.c.table_id == table.id,
                    store.actions.c.seat == 0,
                    store.actions.c.version <= first,
                )
                .values(by="stand_in")
            )
            accounts.metadata.create_all(db)
            db.execute(accounts.rated_games.insert().values(code=code, at=0.0))
        engine.dispose()
        after = client.get("/api/players/Ann").json()
        assert after["hands"] == hands - 1 and after["stand_in_hands"] == 1
        assert after["rated"]["games"] == 1 and after["casual"]["games"] == 0
        assert after["recent"][0]["outcome"] == before["recent"][0]["outcome"]  # still hers
        history = client.get("/api/players/Ann/history").json()
        marked = [p["hand"] for p in history["points"] if p["stand_in"]]
        assert marked == [1]
        assert sum(row["bid"] for row in history["strains"].values()) == after["contracts_bid"]
        assert history["games"][0]["rated"] and history["games"][0]["outcome"] != "left"
        assert client.get("/api/players/Nobody").status_code == 404
        assert client.get("/api/players/" + "x" * 61).status_code == 422
