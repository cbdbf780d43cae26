"""Other ways to play with two or three (RULES.md §9, R-PLAYERS): ``dead_hand``,
``open_eight`` and ``draw_pack``."""

from __future__ import annotations

import random

import pytest

from fivehundred.actions import DRAW_KEEP, PASS, action_card, parse_call
from fivehundred.errors import RecordError, RulesError
from fivehundred.game import GameState, HandState
from fivehundred.record import game_record, hand_record, replay_game, replay_hand
from fivehundred.rules import make_rules
from fivehundred.scoring import side_of_seats

TWO = make_rules("two_handed", {"dead_hand": True})
THREE = make_rules("three_handed", {"dead_hand": True})


def _random_hand(rules: object, seed: int, dealer: int = 0) -> HandState:
    state = HandState.deal(rules, dealer=dealer, seed=seed)  # type: ignore[arg-type]
    state.apply(parse_call("6S"))
    while state.phase == "auction":
        state.apply(PASS)
    rng = random.Random(seed)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize(
    ("rules", "live", "pack", "kitty"),
    [
        (TWO, (0, 1), 43, 3),
        (THREE, (0, 1, 2), 43, 3),
        (make_rules("three_handed", {"dead_hand": True, "pack45": True}), (0, 1, 2), 45, 5),
    ],
)
def test_dead_hands_are_dealt_and_never_used(
    rules: object, live: tuple[int, ...], pack: int, kitty: int
) -> None:
    """R-PLAYERS dead_hand: the 43- (or 45-) card pack dealt as for four; the hands beyond
    the players lie face down, never bid, never play, never seen."""
    assert rules.seats == 4 and rules.live_seats == live  # type: ignore[attr-defined]
    assert rules.pack.size == pack and rules.pack.kitty_size == kitty  # type: ignore[attr-defined]
    state = _random_hand(rules, 3)
    assert {seat for seat, _ in state.auction.calls} <= set(live)
    assert state.active == live
    assert all(len(trick.plays) == len(live) for trick in state.tricks)
    for seat in range(4):
        if seat not in live:
            assert state.hands[seat] == state.dealt[seat]  # untouched
            assert side_of_seats(rules)[seat] == -1  # type: ignore[arg-type]
    for seat in live:
        obs = state.observation(seat)
        assert obs.exposed == ()
        for dead in set(range(4)) - set(live):
            assert obs.unseen & state.dealt[dead] == state.dealt[dead]
    played = {action_card(a) for trick in state.tricks for _, a in trick.plays}
    assert len(played) == 10 * len(live)
    assert sum(state.result.points) != 0 or state.contract < 0
    again = replay_hand(hand_record(state))
    assert again.result == state.result


def test_two_players_score_for_themselves_and_deal_in_turn() -> None:
    game = GameState(TWO, seed=2, first_dealer=1)
    rng = random.Random(2)
    while not game.is_over and len(game.finished_hands) < 4:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    assert len(game.scores) == 2
    assert [h.dealer for h in game.finished_hands] == [1, 0, 1, 0][: len(game.finished_hands)]
    assert replay_game(game_record(game)).scores == game.scores


def test_dead_hand_refusals() -> None:
    with pytest.raises(RulesError, match="dead_hand"):
        make_rules("australian", {"dead_hand": True})
    record = hand_record(_random_hand(TWO, 1))
    with pytest.raises(RecordError, match="dealer"):
        replay_hand(dict(record, dealer=2))


EIGHT = make_rules("two_handed", {"open_eight": True})


def _eight_to_play(seed: int, discard_pick: int = 0) -> HandState:
    """Table cards to the kitty (lowest first), seat 1 bids 6S, the contractor discards, the
    defender takes and discards (its ``discard_pick``-th legal card)."""
    state = HandState.deal(EIGHT, dealer=0, seed=seed)
    while state.phase == "table_kitty":
        state.apply(state.legal_actions()[0])
    state.apply(parse_call("6S"))
    state.apply(PASS)
    while state.phase == "discard":
        state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])  # the defender takes a face-up card
    state.apply(state.legal_actions()[discard_pick])
    return state


def test_open_eight_deal_and_order() -> None:
    """R-PLAYERS open_eight: 52 cards, no joker; ten each and eight face up; each player in
    turn (non-dealer first) moves one face-up card into the kitty; after the auction the
    defender takes a face-up card and discards one; the rest are dead."""
    assert EIGHT.pack.size == 52 and not EIGHT.pack.cards >> 64 & 1
    state = HandState.deal(EIGHT, dealer=0, seed=4)
    assert [h.bit_count() for h in state.hands] == [10, 10, 8, 24] and state.kitty == 0
    assert state.phase == "table_kitty" and state.to_move == 1
    table = state.hands[2]
    assert set(state.legal_actions()) == {c for c in range(64) if table >> c & 1}
    first = state.legal_actions()[0]
    state.apply(first)
    assert state.to_move == 0 and state.kitty == 1 << first
    state.apply(state.legal_actions()[0])
    assert state.phase == "auction" and state.kitty.bit_count() == 2
    assert state.observation(0).table_kitty == state.kitty == state.observation(1).table_kitty
    played = _eight_to_play(4)
    assert played.phase == "play" and played.active == (0, 1)
    assert played.hands[0].bit_count() == played.hands[1].bit_count() == 10
    assert played.hands[2].bit_count() == 5  # the rest of the face-up cards are dead


def test_open_eight_visibility() -> None:
    """Both players see the face-up cards; nobody sees the dead cards or the other's
    discards."""
    state = _eight_to_play(6)
    for seat in (0, 1):
        assert dict(state.observation(seat).exposed) == {2: state.hands[2]}
    views = [_eight_to_play(6, pick).observation(1) for pick in (0, 1)]  # the contractor
    assert views[0].to_json() == views[1].to_json()
    defender = _eight_to_play(6).observation(0)
    assert defender.table_take[1] >= 0 and views[0].table_take == (-1, -1)


def test_open_eight_records() -> None:
    state = _eight_to_play(8)
    rng = random.Random(8)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    record = hand_record(state)
    assert len(record["table_kitty"]) == 2 and len(record["table_take"]) == 2
    assert record["kitty"] == [] and [len(h) for h in record["hands"]] == [10, 10, 8, 24]
    again = replay_hand(record)
    assert again.result == state.result and hand_record(again) == record
    with pytest.raises(RecordError, match="table_kitty"):
        replay_hand({k: v for k, v in record.items() if k != "table_kitty"})
    with pytest.raises(RulesError, match="open_eight"):
        make_rules("australian", {"open_eight": True})
    with pytest.raises(RulesError, match="open_eight"):
        make_rules("two_handed", {"open_eight": True, "dead_hand": True})


@pytest.mark.parametrize("variants", [{"draw_pack": True}, {"draw_pack": True, "pack45": True}])
def test_draw_pack(variants: dict[str, object]) -> None:
    """R-PLAYERS draw_pack: the kitty set aside first; the players draw in turn, keeping or
    throwing the card drawn and doing the opposite with the next, until each holds ten;
    then the auction. Each sees only the card they drew."""
    rules = make_rules("two_handed", variants)
    state = HandState.deal(rules, dealer=1, seed=9)
    assert state.kitty.bit_count() == rules.pack.kitty_size and state.hands[2].bit_count() == 40
    assert state.phase == "draw" and state.to_move == 0
    rng = random.Random(9)
    turns = 0
    while state.phase == "draw":
        seat = state.to_move
        drawn = state.drawn
        obs = state.observation(seat)
        assert obs.drawn == drawn and state.observation(1 - seat).drawn == -1
        assert obs.to_json()["drawn"] is not None
        index = state.stock.index(drawn)
        choice = state.legal_actions()[rng.randrange(2)]
        state.apply(choice)
        kept = drawn if choice == DRAW_KEEP else state.stock[index + 1]
        assert state.hands[seat] >> kept & 1
        turns += 1
    assert turns == 20 and state.phase == "auction"
    assert state.hands[0].bit_count() == state.hands[1].bit_count() == 10
    assert state.hands[3].bit_count() == 20 and state.hands[2] == 0
    state.apply(parse_call("6H"))
    state.apply(PASS)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    record = hand_record(state)
    assert len(record["draws"]) == 20 and [len(h) for h in record["hands"]] == [0, 0, 40, 0]
    again = replay_hand(record)
    assert again.result == state.result and hand_record(again) == record
    with pytest.raises(RecordError, match="draws"):
        replay_hand({k: v for k, v in record.items() if k != "draws"})
    with pytest.raises(RulesError, match="draw_pack"):
        make_rules("three_handed", {"draw_pack": True})


@pytest.mark.parametrize("variants", [{"draw_pack": True}, {}])
def test_replace_deal_keeps_the_order_of_a_two_player_deal(variants: dict[str, object]) -> None:
    """Going back to a hand (the games' undo) deals the same cards again: the stock of
    draw_pack and the dummies keep their order."""
    rules = make_rules("two_handed", variants)
    first = GameState(rules, seed=12, first_dealer=0).hand
    again = GameState(rules, seed=12, first_dealer=0)
    again.replace_deal(first.dealt, first.kitty_dealt)
    assert again.hand.dummy_deal == first.dummy_deal
    other = GameState(rules, seed=13, first_dealer=0).hand
    with pytest.raises(ValueError, match="deal order"):
        again.replace_deal(other.dealt, other.kitty_dealt)
