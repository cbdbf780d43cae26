"""Other ways to play with two or three (RULES.md §9, R-PLAYERS): ``dead_hand``."""

from __future__ import annotations

import random

import pytest

from fivehundred.actions import PASS, action_card, parse_call
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
    [(TWO, (0, 1), 43, 3), (THREE, (0, 1, 2), 43, 3),
     (make_rules("three_handed", {"dead_hand": True, "pack45": True}), (0, 1, 2), 45, 5)],
)  # fmt: skip
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
