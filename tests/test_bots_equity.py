"""The chance to win the game from the scores (four players), and pimc's use of it near the
end of a game: in bidding and in play."""

from __future__ import annotations

import random

import pytest

from conftest import AUS, apply_text, deal_hand
from fivehundred.actions import PASS, bid_strain, bid_tricks, parse_action
from fivehundred.bots import HeuristicPlayer, PimcPlayer
from fivehundred.bots.equity import (
    Equity,
    chance_after,
    model_chance,
    model_chances,
    table_kind,
)
from fivehundred.bots.simulate import bid_by_simulation
from fivehundred.rules import Rules, make_rules
from fivehundred.scoring import HandScore, score_hand

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


THREE = make_rules("three_handed")
SIX = make_rules("six_handed")


def test_the_model_covers_three_four_and_six_players_but_not_the_others() -> None:
    assert table_kind(AUS) == "four"
    assert table_kind(SIX) == "six" and table_kind(THREE) == "three"
    for preset in ("five_handed", "two_handed"):
        assert table_kind(make_rules(preset)) is None
    assert table_kind(make_rules("six_handed", {"teams_of_two": True})) is None
    # The two-sided softmax is the logistic of the lead.
    assert model_chances((120, 300))[0] == pytest.approx(model_chance(120, 300))


def test_three_sides_share_the_chance_and_the_leader_is_ahead() -> None:
    chances = model_chances((0, 0, 0))
    assert chances == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    for scores in [(300, 100, 0), (450, -200, 200), (0, 480, 470)]:
        chances = model_chances(scores)
        assert sum(chances) == pytest.approx(1.0)
        order = sorted(range(3), key=lambda s: -scores[s])
        assert [chances[s] for s in order] == sorted(chances, reverse=True)


def test_three_handed_outcomes_go_out_and_the_defenders_stop_at_490() -> None:
    seven_hearts = parse_action("7H", "auction")
    # Seat 0 on 300 makes seven hearts (260): it wins; a defender loses.
    assert Equity(THREE, (300, 0, 0), 0).outcome(seven_hearts, 0, 7) == (1.0, True)
    assert Equity(THREE, (300, 0, 0), 1).outcome(seven_hearts, 0, 8) == (0.0, True)
    # Seat 0 set: seat 1 on 480 defends to 490, not out; the game goes on, better for it.
    chance, ends = Equity(THREE, (0, 480, 0), 1).outcome(seven_hearts, 0, 4)
    assert not ends and chance > Equity(THREE, (0, 480, 0), 1).now()
    # Going set from -300 is going out backwards: the best other score wins.
    assert Equity(THREE, (-300, 100, 50), 1).outcome(seven_hearts, 0, 3) == (1.0, True)
    assert Equity(THREE, (-300, 100, 50), 2).outcome(seven_hearts, 0, 3) == (0.0, True)


def test_six_handed_sides_are_the_alternate_seats() -> None:
    six_spades = parse_action("6S", "auction")
    # Seat 2 plays for side 0 (seats 0, 2, 4): on 470, making six spades wins it.
    assert Equity(SIX, (470, 0), 0).outcome(six_spades, 2, 6) == (1.0, True)
    assert Equity(SIX, (470, 0), 1).outcome(six_spades, 4, 6) == (0.0, True)
    chance, ends = Equity(SIX, (0, 480), 1).outcome(six_spades, 0, 5)
    assert not ends and 0.5 < chance < 1.0


@pytest.mark.parametrize("rules", [THREE, SIX], ids=["three_handed", "six_handed"])
def test_play_at_three_and_six_counts_the_game_when_it_can_end(rules: Rules) -> None:
    dealer = rules.seats - 1
    state = deal_hand(rules, dealer=dealer, hands={})
    apply_text(state, "6S " + " ".join(["pass"] * (rules.seats - 1)))
    while state.phase == "discard":
        state.apply(HeuristicPlayer(0).act(state.observation(state.to_move)))
    player = PimcPlayer(0, samples=8)
    seat = 1  # a defender
    outcomes = [(1.0, {a: t for a in state.legal_actions()}) for t in range(11)]
    early = (0, 0, 0) if rules.players == 3 else (0, 0)
    late = (470, 0, 0) if rules.players == 3 else (470, 0)
    assert player.game_chance(state.observation(seat, early), outcomes) is None
    chance = player.game_chance(state.observation(seat, late), outcomes)
    assert chance is not None and chance(6) == 0.0 and chance(5) > 0.0
    # Five tricks in (the search then solves deals at every count), at the seat's turn.
    while len(state.observation(0).tricks) < 5 or state.to_move != seat:
        state.apply(HeuristicPlayer(0).act(state.observation(state.to_move)))
    player.act(state.observation(seat, late))
    assert "to win the game" in player.explain()
    player.act(state.observation(seat, early))
    assert "points for my side" in player.explain()


def test_chance_after_a_scored_hand() -> None:
    """A hand's score on the running scores: 1 or 0 where it ends the game (the 490 rule
    too), the model's chance where it goes on; the same figures as ``Equity.outcome``."""
    six_hearts = parse_action("6H", "auction")

    def hand(contract: int, side_tricks: int) -> HandScore:
        """Seats 0 and 2 contract; seat 0 takes the side's tricks, seat 1 the rest."""
        won = [side_tricks, 10 - side_tricks, 0, 0]
        return score_hand(AUS, contract, 0, (2,), won, [0] * side_tricks + [1] * (10 - side_tricks))

    made = hand(six_hearts, 7)
    assert chance_after(AUS, (420, 300), made, 0) == (1.0, True)
    assert chance_after(AUS, (420, 300), made, 1) == (0.0, True)
    # The defenders' 10 a trick stop at 490: no win by defending.
    chance, ends = chance_after(AUS, (100, 450), hand(six_hearts, 2), 1)
    assert not ends and chance == pytest.approx(model_chance(490, 0))
    six_spades = parse_action("6S", "auction")
    for tricks in (4, 6, 9):
        assert chance_after(AUS, (200, 300), hand(six_spades, tricks), 0) == Equity(
            AUS, (200, 300), 0
        ).outcome(six_spades, 0, tricks)
