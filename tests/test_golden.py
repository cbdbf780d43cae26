"""Golden records (tests/data/): worked hands and games with the results that the rule
book gives. Every record is replayed and compared with its ``expected`` keys."""

from __future__ import annotations

import json
from typing import Any

import pytest

from conftest import load_golden
from fivehundred.game import GameState, HandState
from fivehundred.record import game_record, hand_record, replay_record

HANDS = load_golden("hands.json")
GAMES = load_golden("games.json")


def normalised(record: dict[str, Any]) -> dict[str, Any]:
    """A hand record with each hand and the kitty as a sorted list (their order is free)."""
    out = json.loads(json.dumps(record))
    out.pop("format", None)
    out["hands"] = [sorted(cards) for cards in out["hands"]]
    out["kitty"] = sorted(out["kitty"])
    return dict(out)


def hand_id(entry: dict[str, Any]) -> str:
    return "-".join(entry.get("tags", [])) or "hand"


@pytest.mark.parametrize("entry", HANDS, ids=[f"{i}-{hand_id(e)}" for i, e in enumerate(HANDS)])
def test_golden_hand(entry: dict[str, Any]) -> None:
    summary, state = replay_record(entry["record"])
    expected = entry["expected"]
    assert set(expected) == {"contract", "contractor", "tricks", "tricks_won", "points", "made"}
    assert {key: summary[key] for key in expected} == expected
    assert isinstance(state, HandState)
    # Writing the replayed hand gives back the same record (cards within a hand aside).
    assert normalised(hand_record(state)) == normalised(entry["record"])


@pytest.mark.parametrize(
    "entry",
    GAMES,
    ids=[f"{i}-{hand_id(e) if e.get('tags') else 'game'}" for i, e in enumerate(GAMES)],
)
def test_golden_game(entry: dict[str, Any]) -> None:
    summary, game = replay_record(entry["record"])
    assert {key: summary[key] for key in entry["expected"]} == entry["expected"]
    assert isinstance(game, GameState)
    assert game.winner == entry["expected"]["winner"]
    written = json.loads(json.dumps(game_record(game)))["hands"]
    assert [normalised(hand) for hand in written] == [
        normalised(hand) for hand in entry["record"]["hands"]
    ]


def test_golden_files_cover_the_tags() -> None:
    """The sample covers what its README promises (so a truncated file is noticed)."""
    tags = {tag for entry in HANDS for tag in entry.get("tags", [])}
    assert {"suit", "misere", "open", "nominated", "jk_lead", "allpass", "slam", "american"} <= tags
    assert any("cap490" in entry.get("tags", []) for entry in GAMES)
    assert len(HANDS) >= 30 and len(GAMES) >= 4
