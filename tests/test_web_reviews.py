"""The review summary of each finished game (web/reviews.py): with the background review
switched on (the only test that does: it costs CPU), a person's finished game is reviewed
as ``fivehundred analyse --review`` reviews it, and the accuracy by phase shows on the
player's figures over time; the seats of computer players are not reviewed."""

from __future__ import annotations

import time
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from fivehundred.analysis.review import review
from fivehundred.bots.pimc import HAVE_SOLVER
from fivehundred.record import replay_game
from fivehundred.web.server import create_app

pytestmark = pytest.mark.skipif(not HAVE_SOLVER, reason="the review needs the solver")


def test_a_finished_game_is_reviewed_for_the_player_page(tmp_path: Path) -> None:
    app = create_app(
        f"sqlite:///{tmp_path / 'w.sqlite3'}", workers=0, allow_seeds=True, review_games=True
    )
    with TestClient(app) as client:
        body = {
            "seats": ["open", "random", "random", "random"],
            "seed": 11,
            "rules": {"variants": {"target": 10}},
            "options": {"delay": 0},
        }
        code = client.post("/api/tables", json=body).json()["table"]
        token = client.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).json()["token"]
        with client.websocket_connect(f"/ws/tables/{code}?token={token}") as ws:
            while True:
                message = ws.receive_json()
                view = message["view"]
                if view["table"]["finished"]:
                    break
                if view["legal"]:
                    action = view["legal"][-1]
                    ws.send_json(
                        {"type": "action", "action": action, "version": message["version"]}
                    )
        deadline = time.monotonic() + 120  # a guard: the review runs in the worker process
        while not (reviews := client.get("/api/players/Ann").json()["reviews"]):
            assert time.monotonic() < deadline, "the game was not reviewed"
            time.sleep(0.1)
        record = client.get(f"/api/tables/{code}/record").json()
        expected = review(replay_game(record), 0)
        assert len(reviews) == 1
        [summary] = reviews
        assert summary["table"] == code and summary["seat"] == 0
        assert summary["hands"] == expected["hands"] == len(record["hands"])
        assert summary["accuracy"] == expected["accuracy"]
        assert summary["tricks_lost"] == expected["counts"]["tricks_lost"]
        assert client.get("/api/players/random").json()["reviews"] == []  # computers: not
        history = client.get("/api/players/Ann/history").json()
        assert history["summary"]["reviews"] == reviews
