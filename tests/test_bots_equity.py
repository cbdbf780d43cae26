"""The chance to win the game from the scores (four players), and pimc's use of it near the
end of a game: in bidding and in play."""

from __future__ import annotations

import random

import pytest

from conftest import AUS, apply_text, deal_hand
from fivehundred.actions import PASS, bid_strain, bid_tricks, parse_action
from fivehundred.bots import HeuristicPlayer, PimcPlayer
from fivehundred.bots.equity import Equity, model_chance
from fivehundred.bots.simulate import bid_by_simulation

HEARTS = 3


def test_model_chance_is_fair_symmetric_and_grows_with_the_score() -> None:
    assert model_chance(0, 0) == pytest.approx(0.5)
    assert model_chance(300, 300) == pytest.approx(0.5)
    for us, them in [(0, 100), (250, -40), (480, 200), (-300, 400)]:
        assert model_chance(us, them) + model_chance(them, us) == pytest.approx(1.0)
    chances = [model_chance(us, 200) for us in range(-400, 500, 50)]
    assert chances == sorted(chances) and chances[0] < 0.25 and chances[-1] > 0.65
    # The same lead counts for more near the end.
    assert model_chance(400, 300) > model_chance(100, 0) > 0.5


def test_outcomes_follow_the_rules_of_going_out() -> None:
    six_spades = parse_action("6S", "auction")
    seven_nt = parse_action("7NT", "auction")
    # Side 0 on 470 makes six spades (40): it has won the game.
    assert Equity(AUS, (470, 0), 0).outcome(six_spades, 0, 6) == (1.0, True)
    assert Equity(AUS, (470, 0), 1).outcome(six_spades, 2, 7) == (0.0, True)
    # Set, side 1 defends its way to 490 but not to the target: the game goes on.
    chance, ends = Equity(AUS, (0, 480), 1).outcome(six_spades, 0, 5)
    assert not ends and 0.5 < chance < 1.0
    # Going set 220 from -300 is going out backwards.
    assert Equity(AUS, (-300, 100), 0).outcome(seven_nt, 0, 6) == (0.0, True)
    # Early in the game nothing ends and a made contract is better than a set.
    made, ends_made = Equity(AUS, (0, 0), 0).outcome(six_spades, 0, 8)
    failed, ends_failed = Equity(AUS, (0, 0), 0).outcome(six_spades, 0, 5)
    assert not ends_made and not ends_failed and made > 0.5 > failed


def test_bidding_near_the_end_reaches_the_target() -> None:
    # Seat 0 bid six spades; seat 1 holds good hearts. At 0-0 the points decide; when
    # the opponents go out with six spades and our side is on 200, eight hearts (300)
    # wins the game when made.
    hand = "JH JD AH 9H 8H 7H 5C 6C 9S 4D"
    state = deal_hand(AUS, dealer=3, hands={1: hand})
    apply_text(state, "6S")
    heuristic = HeuristicPlayer(0)
    early, why = bid_by_simulation(state.observation(1, (0, 0)), heuristic, 8, random.Random(2))
    assert "points expected" in why
    late, why = bid_by_simulation(state.observation(1, (460, 200)), heuristic, 8, random.Random(2))
    assert "to win the game" in why
    assert late != PASS and bid_strain(late) == HEARTS and bid_tricks(late) == 8, why
    assert bid_tricks(early) < bid_tricks(late)


def test_play_values_the_game_only_when_it_can_end() -> None:
    state = deal_hand(AUS, dealer=3, hands={})
    apply_text(state, "6S pass pass pass")
    player = PimcPlayer(0, samples=8)
    while state.phase == "discard":
        state.apply(HeuristicPlayer(0).act(state.observation(state.to_move)))
    outcomes = [(1.0, {a: t for a in state.legal_actions()}) for t in range(11)]
    assert player._game_utility(state.observation(1, (0, 0)), outcomes) is None
    # Side 0 (the contractor's) on 470: six spades made wins the game; seat 1 defends.
    utility = player._game_utility(state.observation(1, (470, 0)), outcomes)
    assert utility is not None
    assert utility(6) < 1.0 and utility(5) > 100.0
    assert utility(0) > utility(5)  # a few points more for the defence as a tie-break


def test_a_contract_that_would_win_the_game_is_outbid() -> None:
    # Seat 0 bid six no trumps (120); seat 1's hand is no bid of its own. When the
    # opponents are on 460, making it wins them the game: seat 1 outbids it and risks
    # the set (they cannot defend their way past 490). On 300 it is no threat: pass.
    hand = "AS KS 10S 9S AC 7C 5D 6D 9H 8H"
    state = deal_hand(AUS, dealer=3, hands={1: hand})
    apply_text(state, "6NT")
    heuristic = HeuristicPlayer(0)
    quiet, why = bid_by_simulation(state.observation(1, (300, 100)), heuristic, 8, random.Random(2))
    assert quiet == PASS and "to win the game" not in why
    late, why = bid_by_simulation(state.observation(1, (460, 100)), heuristic, 8, random.Random(2))
    assert late != PASS and "to win the game" in why
