"""Hand and game records (docs/record-format.md): writing, replaying, and precise errors."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from conftest import AUS, apply_text, deal_hand, revoke_record, rules
from fivehundred.actions import PASS
from fivehundred.cards import card_symbol, parse_card
from fivehundred.errors import RecordError
from fivehundred.game import GameState, HandState
from fivehundred.record import (
    card_language,
    game_record,
    hand_record,
    random_hand,
    replay_record,
)

NT_HANDS = {1: "JK 6S AH KH QH 10H 9H AD KD QD", 2: "AS AC 4H KC QC JC 10C 9C 8C 7C"}


def finished(state: HandState, seed: int = 0) -> HandState:
    rng = random.Random(seed)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


def rejects(record: Any, where: str, rule: str | None = None) -> RecordError:
    """Assert that replaying ``record`` fails at ``where`` (and cites ``rule``)."""
    with pytest.raises(RecordError) as caught:
        replay_record(record)
    error = caught.value
    assert error.where == where, str(error)
    assert str(error).startswith(f"{where}: ")
    if rule is not None:
        assert error.rule == rule, str(error)
        assert str(error).endswith(f"({rule})")
    assert "\n" not in str(error)
    return error


def a_record(seed: int = 3) -> dict[str, Any]:
    return hand_record(random_hand(AUS, seed))


# ----------------------------------------------------------------------------- writing
def test_hand_record_fields_and_order() -> None:
    state = deal_hand(AUS, 0, NT_HANDS, "5S 5C 6C")
    apply_text(state, "6NT pass pass pass 5S 5C 6C none")
    record = hand_record(finished(state))
    assert list(record) == [
        "format",
        "rules",
        "dealer",
        "hands",
        "kitty",
        "auction",
        "discards",
        "play",
    ]
    assert record["format"] == "fivehundred-hand/1"
    assert record["rules"] == {"preset": "australian", "variants": {}}
    assert record["dealer"] == 0
    assert [set(cards) for cards in record["hands"][1:3]] == [
        set(NT_HANDS[1].split()),
        set(NT_HANDS[2].split()),
    ]
    assert set(record["kitty"]) == {"5S", "5C", "6C"}
    assert record["auction"] == ["6NT", "pass", "pass", "pass"]
    assert record["discards"] == ["5S", "5C", "6C"]
    assert "joker_suit" not in record  # no nomination
    assert len(record["play"]) == 40
    assert any(token.startswith("JK>") for token in record["play"]) or "JK" in record["play"]


def test_hand_record_joker_suit_and_joker_leads() -> None:
    state = deal_hand(AUS, 0, NT_HANDS, "5S 5C 6C")
    apply_text(state, "6NT pass pass pass 5S 5C 6C D JK")
    record = hand_record(state)
    assert record["joker_suit"] == "D"
    assert record["play"] == ["JK"]
    state = deal_hand(AUS, 0, NT_HANDS, "5S 5C 6C")
    apply_text(state, "6NT pass pass pass 5S 5C 6C none JK>S")
    record = hand_record(state)
    assert "joker_suit" not in record
    assert record["play"] == ["JK>S"]
    summary, replayed = replay_record(record)
    assert summary == {"to_move": 2, "phase": "play"}
    assert isinstance(replayed, HandState) and replayed.led_suit == 0


def test_hand_record_round_trips_through_json_and_replay() -> None:
    for seed in range(10):
        state = random_hand(AUS, seed)
        record = json.loads(json.dumps(hand_record(state)))
        summary, replayed = replay_record(record)
        assert isinstance(replayed, HandState)
        assert hand_record(replayed) == record
        assert summary["tricks"] == list(state.result.trick_winners)
        assert summary["points"] == list(state.result.points)


def test_replay_summary_of_a_complete_hand() -> None:
    state = deal_hand(AUS, 0, {1: "JK JH JD AH KH QH 10H 9H 8H 7H"}, "4D 5D 6D")
    apply_text(state, "7H pass pass pass 4D 5D 6D")
    summary, _ = replay_record(hand_record(finished(state)))
    assert summary == {
        "contract": "7H",
        "contractor": 1,
        "tricks": [1] * 10,
        "tricks_won": [0, 10, 0, 0],
        "points": [0, 250],
        "made": True,
    }


def test_replay_summary_of_a_thrown_in_hand() -> None:
    state = deal_hand(AUS, 2, {}, "4D 5D 6D")
    apply_text(state, "pass pass pass pass")
    summary, _ = replay_record(hand_record(state))
    assert summary == {
        "contract": None,
        "contractor": None,
        "tricks": [],
        "tricks_won": [0, 0, 0, 0],
        "points": [0, 0],
        "made": None,
    }


@pytest.mark.parametrize(
    ("calls", "phase", "to_move"),
    [
        ("", "auction", 1),
        ("7H pass", "auction", 3),
        ("7H pass pass pass", "discard", 1),
        ("7H pass pass pass 4D 5D 6D", "play", 1),
        ("7H pass pass pass 4D 5D 6D AH", "play", 2),
    ],
)
def test_part_way_record_gives_to_move_and_phase(calls: str, phase: str, to_move: int) -> None:
    state = deal_hand(AUS, 0, {1: "AH"}, "4D 5D 6D")
    apply_text(state, calls)
    summary, replayed = replay_record(hand_record(state))
    assert summary == {"to_move": to_move, "phase": phase}
    assert isinstance(replayed, HandState) and replayed.history == state.history


def test_part_way_record_in_the_nomination() -> None:
    state = deal_hand(AUS, 0, NT_HANDS, "5S 5C 6C")
    apply_text(state, "6NT pass pass pass 5S 5C 6C")
    summary, _ = replay_record(hand_record(state))
    assert summary == {"to_move": 1, "phase": "nominate"}


def test_game_record_round_trips() -> None:
    game = GameState(AUS, seed=11, first_dealer=3)
    rng = random.Random(11)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    record = json.loads(json.dumps(game_record(game)))
    assert record["format"] == "fivehundred-game/1"
    assert record["rules"] == {"preset": "australian", "variants": {}}
    assert record["first_dealer"] == 3
    assert all("rules" not in hand for hand in record["hands"])
    assert [hand["dealer"] for hand in record["hands"]] == [
        (3 + i) % 4 for i in range(len(record["hands"]))
    ]
    summary, replayed = replay_record(record)
    assert summary == {"scores": [list(s) for s in game.score_history], "winner": game.winner}
    assert isinstance(replayed, GameState)
    assert game_record(replayed) == record


# ----------------------------------------------------------------------------- errors
def test_record_error_revoke_names_the_play_index() -> None:
    record, card = revoke_record(13)
    error = rejects(record, "play[13]", "R-PLAY")
    assert card_symbol(parse_card(card)) in str(error)


def test_record_error_bid_that_does_not_outrank() -> None:
    record = a_record()
    record.update(auction=["7H", "pass", "pass", "7D"], discards=[], play=[])
    error = rejects(record, "auction[3]", "R-BID")
    assert "outrank" in str(error)


def test_record_error_misere_before_a_7_bid() -> None:
    record = a_record()
    record.update(auction=["6S", "6H", "misere"], discards=[], play=[])
    rejects(record, "auction[2]", "R-BID")


def test_record_error_call_after_the_auction_has_ended() -> None:
    record = a_record()
    record.update(auction=["7H", "pass", "pass", "pass", "pass"], discards=[], play=[])
    error = rejects(record, "auction[4]", "R-BID")
    assert "ended" in str(error)


def test_record_error_duplicate_card() -> None:
    record = a_record()
    record["hands"][2][4] = record["hands"][0][0]
    error = rejects(record, "hands[2][4]", "R-PACK")
    assert "duplicate" in str(error) and "hands[0][0]" in str(error)


def test_record_error_wrong_card_count() -> None:
    record = a_record()
    record["kitty"].append(record["hands"][2].pop())
    error = rejects(record, "hands[2]", "R-DEAL")
    assert "9" in str(error)
    record = a_record()
    record["hands"][1].append(record["kitty"].pop())
    rejects(record, "hands[1]", "R-DEAL")


def test_record_error_card_not_in_the_pack() -> None:
    record = a_record()
    record["hands"][3][0] = "4S"  # spades start at 5 in the 43-card pack
    rejects(record, "hands[3][0]", "R-PACK")


def test_record_error_non_card_token_in_a_hand() -> None:
    record = a_record()
    record["hands"][2][5] = "ZZ"
    error = rejects(record, "hands[2][5]", "R-PACK")
    assert "'ZZ'" in str(error)


def test_record_error_non_card_token_in_the_play() -> None:
    """A non-card token in the play names the place and the token, citing R-PACK (the card
    notation), as the same token in ``hands`` does."""
    record = a_record()
    record["play"][7] = "XX"
    error = rejects(record, "play[7]", "R-PACK")
    assert "'XX'" in str(error)


def test_record_error_unknown_variant() -> None:
    record = a_record()
    record["rules"]["variants"]["no_such_rule"] = True
    error = rejects(record, "rules")
    assert "no_such_rule" in str(error)


def test_record_error_unknown_preset() -> None:
    record = a_record()
    record["rules"]["preset"] = "klondike"
    rejects(record, "rules")


def test_record_error_wrong_format() -> None:
    record = a_record()
    record["format"] = "fivehundred-hand/2"
    rejects(record, "format")
    rejects([], "record")


def test_record_error_unknown_key() -> None:
    record = a_record()
    record["contract"] = "7H"
    error = rejects(record, "record")
    assert "contract" in str(error)


def test_record_error_discards_before_the_auction_ends() -> None:
    record = a_record()
    record.update(auction=["7H", "pass"], discards=["AH"], play=[])
    rejects(record, "discards[0]", "R-KITTY")


def test_record_error_discard_not_held() -> None:
    state = deal_hand(AUS, 0, {2: "AS"}, "4D 5D 6D")
    apply_text(state, "7H pass pass pass")
    record = hand_record(state)
    record["discards"] = ["4D", "AS"]
    rejects(record, "discards[1]", "R-KITTY")


def test_record_error_play_before_the_discards_are_complete() -> None:
    state = deal_hand(AUS, 0, {}, "4D 5D 6D")
    apply_text(state, "7H pass pass pass 4D 5D")
    record = hand_record(state)
    record["play"] = ["6D"]
    rejects(record, "play[0]", "R-PLAY")


def test_record_error_joker_suit_when_nobody_nominates() -> None:
    state = deal_hand(AUS, 0, NT_HANDS, "5S 5C 6C")
    apply_text(state, "7H pass pass pass 5S 5C 6C")
    record = hand_record(state)
    record["joker_suit"] = "H"
    rejects(record, "joker_suit", "R-JOKER")


def test_record_error_unnominated_joker_led_without_a_suit() -> None:
    state = deal_hand(AUS, 0, NT_HANDS, "5S 5C 6C")
    apply_text(state, "6NT pass pass pass 5S 5C 6C none")
    record = hand_record(state)
    record["play"] = ["JK"]
    rejects(record, "play[0]", "R-JOKER")


def test_record_error_joker_led_as_a_suit_already_led() -> None:
    state = deal_hand(AUS, 0, NT_HANDS, "5S 5C 6C")
    apply_text(state, "6NT pass pass pass 5S 5C 6C none AH 4H 5H 5D")
    record = hand_record(state)
    record["play"].append("JK>H")
    error = rejects(record, "play[4]", "R-JOKER")
    assert "led" in str(error)


def test_record_error_play_after_the_hand_is_over() -> None:
    record = a_record()
    record["play"].append(record["play"][0])
    rejects(record, "play[40]", "R-PLAY")


def test_game_record_errors_name_the_hand() -> None:
    game = GameState(AUS, seed=2, first_dealer=0)
    rng = random.Random(2)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    record = game_record(game)
    wrong_dealer = copy.deepcopy(record)
    wrong_dealer["hands"][0]["dealer"] = 1
    rejects(wrong_dealer, "hands[0].dealer", "R-DEAL")
    revoke, _ = revoke_record(13)
    game_rules = revoke.pop("rules")
    revoked = {
        "format": "fivehundred-game/1",
        "rules": game_rules,
        "first_dealer": revoke["dealer"],
        "hands": [revoke],
    }
    rejects(revoked, "hands[0].play[13]", "R-PLAY")
    too_many = copy.deepcopy(record)
    too_many["hands"].append(copy.deepcopy(record["hands"][-1]))
    rejects(too_many, f"hands[{len(record['hands'])}]", "R-GAME")


def test_record_with_variants_round_trips() -> None:
    for variants in ({"pack45": True}, {"two_jokers": True}, {"allpass_play_nt": True}):
        game_rules = rules(**variants)
        for seed in range(5):
            record = hand_record(random_hand(game_rules, seed))
            assert record["rules"] == {"preset": "australian", "variants": variants}
            _, replayed = replay_record(record)
            assert isinstance(replayed, HandState) and replayed.is_over
            assert hand_record(replayed) == record


def test_record_two_jokers_black_joker_nominated_round_trips() -> None:
    """R-JOKER 1 with ``two_jokers``: a contractor holding only the black joker nominates it
    (``JKB:H``); the record written must replay."""
    game_rules = rules(two_jokers=True)
    state = deal_hand(game_rules, 0, {1: "JKB AH", 2: "JKR"}, "5S 5C 6C 4D")
    apply_text(state, "6NT pass pass pass 5S 5C 6C 4D JKB:H AH")
    record = hand_record(state)
    summary, replayed = replay_record(json.loads(json.dumps(record)))
    assert summary == {"to_move": 2, "phase": "play"}
    assert isinstance(replayed, HandState) and replayed.joker_suits == [-1, 3]
    assert hand_record(replayed) == record


def test_record_two_jokers_one_of_two_nominated_round_trips() -> None:
    """With both jokers, the contractor names the red joker's suit and not the black's
    (``none``); the record written must replay."""
    game_rules = rules(two_jokers=True)
    state = deal_hand(game_rules, 0, {1: "JKR JKB AH"}, "5S 5C 6C 4D")
    apply_text(state, "6NT pass pass pass 5S 5C 6C 4D D none AH")
    record = hand_record(state)
    summary, replayed = replay_record(json.loads(json.dumps(record)))
    assert summary == {"to_move": 2, "phase": "play"}
    assert isinstance(replayed, HandState) and replayed.joker_suits == [2, -1]
    assert hand_record(replayed) == record


# ----------------------------------------------------------------------------- a game's hands
def _a_game() -> dict[str, Any]:
    """A game record of three complete random hands (mostly passing in the auction: random
    bids soon go out backwards at 10NT)."""
    for seed in range(100):
        game = GameState(AUS, seed=seed, first_dealer=0)
        rng = random.Random(seed)
        while not game.is_over and len(game.finished_hands) < 3:
            legal = game.legal_actions()
            if PASS in legal and rng.random() < 0.8:
                game.apply(PASS)
            else:
                game.apply(legal[rng.randrange(len(legal))])
        if len(game.finished_hands) == 3 and not game.hand.history:
            return game_record(game, players=["human", "heuristic", "pimc", "heuristic"])
    raise AssertionError("no game of three hands")


def test_game_hand_with_conflicting_rules_is_refused() -> None:
    record = _a_game()
    record["hands"][2]["rules"] = {"preset": "american"}
    error = rejects(record, "hands[2].rules")
    assert "american" in str(error) and "game's rules" in str(error)
    record["hands"][2]["rules"] = {"preset": "australian", "variants": {"pack46": True}}
    rejects(record, "hands[2].rules", "R-PRESET")


def test_game_hand_repeating_the_games_rules_is_accepted() -> None:
    record = _a_game()
    record["hands"][1]["rules"] = copy.deepcopy(record["rules"])
    summary, _ = replay_record(record)
    assert len(summary["scores"]) == 3


def test_game_hand_with_a_wrong_format_is_refused() -> None:
    record = _a_game()
    for wrong in ("fivehundred-game/1", "fivehundred-hand/2", 1, None, ["fivehundred-hand/1"]):
        record["hands"][1]["format"] = wrong
        error = rejects(record, "hands[1].format")
        assert "fivehundred-hand/1" in str(error)
    del record["hands"][1]["format"]  # left out: fine
    replay_record(record)


@pytest.mark.parametrize(
    ("players", "where"),
    [
        ("human", "players"),
        ({"0": "human"}, "players"),
        (7, "players"),
        (None, "players"),
        (["a", "b", "c"], "players"),
        (["a", "b", "c", "d", "e"], "players"),
        (["a", 2, "c", "d"], "players[1]"),
        (["a", "b", ["c"], "d"], "players[2]"),
        (["a", "b", "c", ""], "players[3]"),
        (["a", "   ", "c", "d"], "players[1]"),
        (["a", "b\nc", "c", "d"], "players[1]"),
        (["a" * 41, "b", "c", "d"], "players[0]"),
    ],
)
def test_players_must_be_one_name_per_seat(players: Any, where: str) -> None:
    record = _a_game()
    record["players"] = players
    rejects(record, where)
    hand = a_record()
    hand["players"] = players
    rejects(hand, where)


def test_players_round_trip() -> None:
    record = _a_game()
    assert record["players"] == ["human", "heuristic", "pimc", "heuristic"]
    _, game = replay_record(json.loads(json.dumps(record)))
    assert isinstance(game, GameState)
    assert game_record(game, players=record["players"]) == record


def test_errors_speak_card_language() -> None:
    record = a_record()
    record.update(auction=["pass", "8D", "8C"], discards=[], play=[])
    error = rejects(record, "auction[2]", "R-BID")
    assert "8♣ does not outrank 8♦" in str(error)
    assert card_language("QS revokes: seat 1 must follow H; 'QQ' JK>S") == (
        "Q♠ revokes: seat 1 must follow hearts; 'QQ' JK>S"
    )
