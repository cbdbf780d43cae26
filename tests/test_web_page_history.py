"""The history endpoints behind the pages: the score sheet, a hand's replay, its double-dummy
analysis (in a worker process) and a player's record, read from the server's public records
of finished hands."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
from fivehundred.cards import card_text
from fivehundred.record import replay_game
from fivehundred.words import action_label, contract_label, display_context, hand_order
from test_web_support import thread_server


def get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=30) as answer:
        return json.load(answer)


def status_of(base: str, path: str) -> tuple[int, Any]:
    try:
        return 200, get(base, path)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """A server and a game of four computer players played to its end (a small target)."""
    db = tmp_path_factory.mktemp("history") / "history.sqlite3"
    with thread_server(f"sqlite:///{db}") as base:
        body = {
            "rules": {"preset": "australian", "variants": {"target": 100}},
            "seats": ["heuristic"] * 4,
            "options": {"delay": 0},
            "seed": 21,
        }
        request = urllib.request.Request(
            base + "/api/tables", json.dumps(body).encode(), {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            code = json.load(answer)["table"]
        deadline = time.monotonic() + 60
        while not get(base, f"/api/tables/{code}")["finished"]:
            assert time.monotonic() < deadline, "the computers' game did not finish"
            time.sleep(0.2)
        yield base, code


def test_the_pages_say_the_servers_words_for_cards_and_seats(finished: tuple[str, str]) -> None:
    """The sheet and the table's facts carry the names of the seats and the words of every
    card of the pack (the pages draw them; cards.js makes no words of its own)."""
    base, code = finished
    sheet = get(base, f"/api/tables/{code}/sheet")
    assert sheet["players"] == ["heuristic"] * 4
    assert sheet["names"] == ["heuristic 1", "heuristic 2", "heuristic 3", "heuristic 4"]
    assert sheet["side_names"] == ["heuristic 1 & heuristic 3", "heuristic 2 & heuristic 4"]
    words = sheet["words"]
    assert len(words["cards"]) == len(words["names"]) == 43
    assert words["cards"]["10H"] == "10♥" and words["names"]["10H"] == "10 of hearts"
    assert words["names"]["JK"] == "joker" and words["suit_names"]["S"] == "spades"
    assert get(base, f"/api/tables/{code}")["words"] == words


def test_score_sheet_follows_the_record(finished: tuple[str, str]) -> None:
    base, code = finished
    sheet = get(base, f"/api/tables/{code}/sheet")
    game = replay_game(get(base, f"/api/tables/{code}/record"))
    assert sheet["finished"] and sheet["winner"] == game.winner
    assert len(sheet["hands"]) == len(game.finished_hands) >= 1
    for line, scores, hand in zip(
        sheet["hands"], game.score_history, game.finished_hands, strict=True
    ):
        assert line["scores"] == list(scores)
        assert line["joker_suits"] == ["SCDH"[s] if s >= 0 else None for s in hand.joker_suits]
        assert line["joker_suit"] == line["joker_suits"][0]
        assert len(line["dealt"]) == 4 and all(len(cards) == 10 for cards in line["dealt"])
        assert len(line["kitty"]) == 3
        # What the page draws, from the vocabulary: the contract's label, each hand as dealt
        # in the one display order under the hand's contract.
        two = hand.rules.joker_names
        ctx = display_context(hand.contract, (hand.joker_suits[0], hand.joker_suits[1]))
        assert line["dealt"] == [
            [card_text(c, two) for c in hand_order(mask, ctx)] for mask in hand.dealt
        ]
        assert line["contract_label"] == (
            contract_label(hand.contract, two) if hand.contract >= 0 else None
        )
    assert sheet["side_of_seat"] == [0, 1, 0, 1]
    assert sheet["rule_490"] is True and sheet["target"] == 100


def test_replay_steps_through_every_action_with_all_cards(finished: tuple[str, str]) -> None:
    base, code = finished
    game = replay_game(get(base, f"/api/tables/{code}/record"))
    number = next(i for i, h in enumerate(game.finished_hands, 1) if h.contract >= 0)
    hand = game.finished_hands[number - 1]
    replay = get(base, f"/api/tables/{code}/hands/{number}/replay")
    steps = replay["steps"]
    assert len(steps) == len(hand.history) + 1
    assert steps[0]["action"] is None and sum(len(h) for h in steps[0]["hands"]) == 40
    assert steps[-1]["phase"] == "done" and steps[-1]["tricks_won"] == list(hand.tricks_won)
    discard = next(s for s in steps if s["phase"] == "discard")
    assert len(discard["hands"][hand.contractor]) == 13  # the kitty taken
    assert [s["seat"] for s in steps[1:]][: len(hand.auction.calls)] == [
        seat for seat, _ in hand.auction.calls
    ]
    two = hand.rules.joker_names
    assert [s["label"] for s in steps[1:]] == [action_label(a, two) for a in hand.history]
    assert steps[-1]["auction_labels"] == [action_label(a, two) for _, a in hand.auction.calls]
    assert steps[-1]["contract_label"] == contract_label(hand.contract, two)


def test_analysis_runs_in_the_background(finished: tuple[str, str]) -> None:
    base, code = finished
    game = replay_game(get(base, f"/api/tables/{code}/record"))
    number = next(i for i, h in enumerate(game.finished_hands, 1) if h.contract >= 0)
    deadline = time.monotonic() + 150  # the solver compiles on its first use
    while (answer := get(base, f"/api/tables/{code}/hands/{number}/analysis"))[
        "status"
    ] == "running":
        assert time.monotonic() < deadline, "the analysis did not finish"
        time.sleep(0.5)
    assert answer["status"] == "done", answer
    analysis = answer["analysis"]
    hand = game.finished_hands[number - 1]
    assert 0 <= analysis["double_dummy"] <= 10
    assert analysis["actual"] == sum(hand.tricks_won[s] for s in analysis["side"])
    assert set(analysis["strains"]) == {"S", "C", "D", "H", "NT", "misere"}
    assert analysis["contract_label"] == contract_label(hand.contract, hand.rules.joker_names)


def test_refusals_are_one_line(finished: tuple[str, str]) -> None:
    base, code = finished
    assert status_of(base, "/api/tables/NOSUCH/sheet")[0] == 404
    status, body = status_of(base, f"/api/tables/{code}/hands/99/replay")
    assert status == 404 and "no finished hand 99" in body["detail"]
    assert status_of(base, f"/api/tables/{code}/hands/0/analysis")[0] == 404
    assert status_of(base, "/api/tables/..%2F..%2Fapi%2Fgames/sheet")[0] == 404


def test_player_history_counts_contracts_by_strain(finished: tuple[str, str]) -> None:
    base, code = finished
    history = get(base, "/api/players/heuristic/history")
    game = replay_game(get(base, f"/api/tables/{code}/record"))
    assert [g["table"] for g in history["games"]] == [code]
    assert len(history["points"]) == len(game.finished_hands)
    bid = sum(row["bid"] for row in history["strains"].values())
    assert bid == sum(1 for h in game.finished_hands if h.contract >= 0)
    for page in ("/g/" + code, "/p/heuristic"):
        with urllib.request.urlopen(base + page, timeout=10) as answer:
            assert b'<script type="module"' in answer.read()


def test_static_files_are_package_data() -> None:
    static = Path(__file__).resolve().parent.parent / "src/fivehundred/web/static"
    pyproject = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text()
    assert "web/static/**/*" in pyproject
    assert {p.name for p in static.glob("*.html")} == {
        "index.html",
        "table.html",
        "game.html",
        "player.html",
        "learn.html",
        "puzzles.html",
        "account.html",
        "leaderboard.html",
        "daily.html",
        "clubs.html",
        "notices.html",
        "my-games.html",
    }
