"""The dailies of several presets on one server (``FIVEHUNDRED_DAILY_PRESETS``,
docs/duplicate.md): each preset's own boards, entries, tables and page; a preset that is
not dealt here answers 404, and a preset boards cannot be played in stops the server at
start with one line."""

from __future__ import annotations

import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from fivehundred.actions import action_text
from fivehundred.cards import iter_cards
from fivehundred.daily import daily_boards
from fivehundred.web.daily import DailyService
from fivehundred.web.daily_api import daily_presets
from fivehundred.web.server import create_app
from test_web_support import db_url  # noqa: F401  (fixture)

DAY = date(2026, 12, 6)
SECRET = "test-secret"


@pytest.fixture
def client(db_url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[TestClient]:  # noqa: F811
    monkeypatch.setenv("FIVEHUNDRED_DAILY_PRESETS", "american, australian")
    with TestClient(create_app(db_url, workers=0)) as test_client:
        app: Any = test_client.app
        made = app.state.dailies
        assert list(made) == ["american", "australian"]  # the operator's order
        assert app.state.daily is made["american"]  # the first: the page's by default
        app.state.dailies = {
            preset: DailyService(
                SECRET,
                preset=preset,
                boards=2,
                clock=lambda: DAY,
                pars=False,
                engine=app.state.store.store.engine,
                table_seconds=0,
            )
            for preset in made
        }
        app.state.daily = app.state.dailies["american"]
        yield test_client


def test_each_preset_has_its_own_day(client: TestClient) -> None:
    info = client.get("/api/daily").json()
    assert info["preset"] == "american" and info["preset_label"] == "American"
    assert info["presets"] == [
        {"preset": "american", "label": "American"},
        {"preset": "australian", "label": "Australian"},
    ]
    other = client.get("/api/daily?preset=australian").json()
    assert other["preset"] == "australian" and other["presets"] == info["presets"]
    # each preset's boards are its own (the seed is keyed by the preset)
    ours = {p: daily_boards(DAY, p, SECRET, 2) for p in ("american", "australian")}
    assert ours["american"][0].hands != ours["australian"][0].hands
    for preset in ("american", "australian"):
        made = client.post(f"/api/daily/entries?preset={preset}", json={"name": "Ann"}).json()
        token = made.pop("token")
        mine = {c["card"] for c in made["table"]["hand"]}
        assert len(mine) == 10
        dealt = ours[preset][0].hands[0]
        assert mine == {action_text(c) for c in iter_cards(dealt)}
        # an entry answers under its own preset only
        other_preset = "australian" if preset == "american" else "american"
        assert client.get(f"/api/daily/entries/{token}?preset={preset}").status_code == 200
        assert client.get(f"/api/daily/entries/{token}?preset={other_preset}").status_code == 404
        if preset == "american":  # the first preset is the one asked without ?preset=
            assert client.get(f"/api/daily/entries/{token}").status_code == 200


def play_out(client: TestClient, token: str, view: dict[str, Any], query: str) -> dict[str, Any]:
    """South's first legal action each time until the board is over (``query``: the
    preset asked, or nothing)."""
    for _ in range(200):
        if view["status"] != "playing":
            return view
        choice = view["table"]["legal"][0]["action"]
        answer = client.post(f"/api/daily/entries/{token}/act{query}", json={"action": choice})
        assert answer.status_code == 200, answer.text
        view = answer.json()
    raise AssertionError("the board did not end")


def test_a_board_played_counts_in_its_own_presets_table_only(client: TestClient) -> None:
    made = client.post("/api/daily/entries?preset=australian", json={"name": "Bob"}).json()
    token = made.pop("token")
    assert play_out(client, token, made, "?preset=australian")["status"] == "board_over"
    rows = client.get("/api/daily/table?preset=australian").json()["rows"]
    assert [r["name"] for r in rows] == ["Bob (guest)"]
    assert client.get("/api/daily/table").json()["rows"] == []  # american: nobody yet
    assert client.get("/api/daily/table?preset=american").json()["rows"] == []


def test_the_first_presets_day_plays_without_asking(client: TestClient) -> None:
    made = client.post("/api/daily/entries", json={"name": "Cy"}).json()
    token = made.pop("token")
    assert play_out(client, token, made, "")["status"] == "board_over"
    rows = client.get("/api/daily/table").json()["rows"]
    assert [r["name"] for r in rows] == ["Cy (guest)"]
    assert client.get("/api/daily/table?preset=australian").json()["rows"] == []


@pytest.mark.parametrize("asked", ["three_handed", "two_handed", "nonsense", ""])
def test_a_preset_not_dealt_here_is_404(client: TestClient, asked: str) -> None:
    for path in ("/api/daily", "/api/daily/table", "/api/daily/week"):
        answer = client.get(f"{path}?preset={asked}")
        assert answer.status_code == 404, (path, answer.text)
        assert "no daily of the preset" in answer.json()["detail"]


def test_the_setting_names_the_presets_in_order_once() -> None:
    assert daily_presets(None) == ["australian"] and daily_presets(" ") == ["australian"]
    assert daily_presets("australian,american") == ["australian", "american"]  # deploy.md's
    assert daily_presets("french_canadian,australian, french_canadian") == [
        "french_canadian",
        "australian",
    ]
    for bad in ("three_handed", "australian,,american", "Australian"):
        with pytest.raises(ValueError, match="FIVEHUNDRED_DAILY_PRESETS"):
            daily_presets(bad)


def test_the_server_refuses_a_preset_boards_cannot_be_played_in(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "FIVEHUNDRED_DATA_DIR": str(tmp_path),
        "FIVEHUNDRED_DAILY_PRESETS": "australian,five_handed",
    }
    done = subprocess.run(
        [sys.executable, "-m", "fivehundred", "serve", "--port", "0", "--workers", "0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("fivehundred serve: FIVEHUNDRED_DAILY_PRESETS: 'five_handed' is no")
