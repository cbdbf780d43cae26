"""A finished club night's board set (web/events/nights_export.py): its boards, pars and
every pair's result with the hand's record, as ``fivehundred-boards/1`` JSON and as the
plain-text hand record, both re-imported by fivehundred.boards and replayed: the same
cards, the same moves, the same points and the night's own standings. On SQLite."""

from __future__ import annotations

import json
from typing import Any

import pytest
import sqlalchemy as sa

import test_web_nights
from fivehundred.boards import import_set, import_text, standings
from fivehundred.record import replay_hand
from fivehundred.web.events import nights_export, nights_words
from fivehundred.web.events.nights_store import night_board
from fivehundred.web.schema import night_games, nights
from test_web_nights import club_of, scheduled
from test_web_support import wait_for

client = test_web_nights.client


def test_a_finished_nights_boards_export_and_re_import_with_every_record(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    slug, people = club_of(client, 8)
    night = scheduled(people[0], slug, people, per_round=1, rounds=2)
    assert people[0].post(f"/api/nights/{night}/start").json() == {"started": True}
    early = people[1].get(f"/api/nights/{night}/export")
    assert early.status_code == 409 and early.json()["detail"] == nights_words.NOT_FINISHED

    def finished() -> dict[str, Any] | None:
        shown: dict[str, Any] = people[1].get(f"/api/nights/{night}").json()
        over = shown["state"] == "finished" and all(t["par"] for t in shown["travellers"])
        return shown if over else None

    shown = wait_for(finished, test_web_nights.NIGHT_SECONDS, "the night's end and its pars")
    engine = client.app_state.store.store.engine
    with engine.connect() as db:
        row = db.execute(sa.select(nights).where(nights.c.id == night)).one()
        games = db.execute(sa.select(night_games).where(night_games.c.night_id == night)).all()
    # each pair's hand as it was played at its table: the moves, by board and pair
    names = {p["number"] - 1: p["name"] for p in shown["pairs"]}
    played = {}
    for game in games:
        moves = replay_hand(json.loads(game.result)["hand"]).history
        for pair, seat in ((game.ns_pair, 0), (game.ew_pair, 1)):
            played[game.board, names[pair], seat] = moves
    points = {
        (t["board"], r["entrant"]): tuple(r["points"])
        for t in shown["travellers"]
        for r in t["results"]
    }

    exported = people[2].get(f"/api/nights/{night}/export")
    assert exported.status_code == 200
    data = exported.json()
    assert (data["format"], data["name"], data["page"], data["next"]) == (
        "fivehundred-boards/1",
        "Tuesday night",
        1,
        None,
    )
    text = people[2].get(f"/api/nights/{night}/export?format=text")
    assert text.status_code == 200 and text.text.startswith("Five Hundred boards: Tuesday night")
    for again in (import_set(data), import_text(text.text)):  # every record replayed
        assert [b.number for b in again.boards] == [1, 2]
        for board in again.boards:
            assert board == night_board(row.preset, row.seed, board.number)  # its cards
        assert len(again.results) == 2 * len(games)  # each game from both directions
        assert {(r.board, r.entrant, r.seat): r.replay().history for r in again.results} == (played)
        assert {(r.board, r.entrant): r.points for r in again.results} == points
        assert {n: p.to_dict() for n, p in again.pars.items()} == {
            t["board"]: {k: v for k, v in t["par"].items() if k != "net"}
            for t in shown["travellers"]
        }
        assert [(s.place, s.entrant, round(s.percent, 1)) for s in standings(again.results)] == [
            (s["place"], s["pair"], s["percent"]) for s in shown["standings"]
        ]
    assert people[2].get(f"/api/nights/{night}/export?page=2").status_code == 404
    assert people[2].get(f"/api/nights/{night}/export?format=csv").status_code == 422

    monkeypatch.setattr(nights_export, "EXPORT_BOARDS", 1)  # a board a page
    first = people[2].get(f"/api/nights/{night}/export").json()
    assert [b["number"] for b in first["boards"]] == [1]
    assert first["next"] == f"/api/nights/{night}/export?format=json&page=2"
    second = people[2].get(first["next"]).json()
    assert [b["number"] for b in second["boards"]] == [2] and second["next"] is None
    paged = people[2].get(f"/api/nights/{night}/export?format=text")
    assert paged.headers["link"] == f'</api/nights/{night}/export?format=text&page=2>; rel="next"'
    page = people[2].get(f"/n/{night}").text
    assert f'href="/api/nights/{night}/export?format=text"' in page
