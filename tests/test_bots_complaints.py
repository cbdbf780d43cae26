"""A position for each complaint about our players' bidding and play, passed by both the
heuristic and pimc: raises without trumps, overbidding at the 8, 9 and 10 level, small
trumps counted as tricks, the cheap 6NT with the joker, contesting a cheap contract, no
escalation to 8NT, the 6 with four trumps; drawing trumps, second hand low on a trump
lead, ruffing high in front of an overruff, the joker kept at trick one, no-trump
defence and the top of a sequence."""

from __future__ import annotations

import pytest

from conftest import AUS, apply_text, deal_hand, rules
from fivehundred.actions import PASS, action_text, bid_strain, bid_tricks
from fivehundred.bots import HeuristicPlayer, PimcPlayer, Player
from fivehundred.cards import NO_TRUMPS
from fivehundred.game import HandState

HEARTS = 3
NAMES = ["heuristic", "pimc"]


def player(name: str) -> Player:
    if name == "pimc":
        pytest.importorskip("fivehundred.solver")
        return PimcPlayer(0)
    return HeuristicPlayer(0)


def decide(name: str, state: HandState) -> str:
    bot = player(name)
    action = bot.act(state.observation(state.to_move))
    assert bot.explain()
    return action_text(action)


def call(name: str, hands: dict[int, str], auction: str = "") -> str:
    state = deal_hand(AUS, 3, hands)
    apply_text(state, auction)
    return decide(name, state)


def level(text: str) -> int:
    return int(text[:-2] if text.endswith("NT") else text[:-1]) if text[0].isdigit() else 0


# ------------------------------------------------------------------ bidding
@pytest.mark.parametrize("name", NAMES)
def test_no_raise_without_trumps(name: str) -> None:
    # Three side ace-kings and a single heart: partner's 7H is not raised.
    choice = call(name, {2: "AS KS AC KC AD KD 5S 6C 7D 4H"}, "7H pass")
    assert not choice.endswith("H") or choice == PASS


@pytest.mark.parametrize("name", NAMES)
def test_two_trumps_raise_one_level_at_most(name: str) -> None:
    choice = call(name, {2: "JD 5H AS KS AC KC AD 6S 6C 7D"}, "7H pass")
    assert choice == "pass" or not choice.endswith("H") or level(choice) <= 8


@pytest.mark.parametrize("name", NAMES)
def test_no_ten_without_the_joker(name: str) -> None:
    choice = call(name, {0: "JH JD AH KH QH 10H AS AC AD KD"})
    assert choice != "pass" and level(choice) <= 9


@pytest.mark.parametrize("name", NAMES)
def test_five_small_trumps_are_not_an_eight(name: str) -> None:
    choice = call(name, {0: "4H 5H 6H 7H 8H 9S 10S 9C 10C 9D"})
    assert level(choice) < 8


def test_small_trumps_count_about_half_a_trick() -> None:
    from conftest import mask
    from fivehundred.bots.heuristic import trump_tricks

    assert trump_tricks(mask("4H 5H 6H 7H 8H"), HEARTS, AUS) < 3.0


@pytest.mark.parametrize("name", NAMES)
def test_six_no_trumps_with_the_joker(name: str) -> None:
    # The joker and three aces, no long suit: the cheap, strong 6NT.
    choice = call(name, {0: "JK AS 5S AC 6C AD 7D 5H 6H 8C"})
    assert choice == "6NT"


@pytest.mark.parametrize("name", NAMES)
def test_cheap_contract_is_contested(name: str) -> None:
    choice = call(name, {1: "JH JD AH KH 10H 9H AC KC 5D 6D"}, "6S")
    assert choice != "pass" and choice.endswith("H") and level(choice) <= 8


@pytest.mark.parametrize("name", NAMES)
def test_no_escalation_from_six_to_eight_no_trumps(name: str) -> None:
    hands = {0: "JK AS 5S AC 6C AD 7D 5H 6H 8C", 1: "JH JD AH KH QH 10H 9H KS 5D 6D"}
    choice = call(name, hands, "6NT 7H pass pass")
    assert not (choice.endswith("NT") and level(choice) >= 8)


@pytest.mark.parametrize("name", NAMES)
def test_four_trumps_and_an_ace_open_at_six(name: str) -> None:
    choice = call(name, {0: "JH AH 10H 7H AS 5S 6C 7C 5D 6D"})
    assert choice in {"6H", "7H"}


def test_heuristic_opens_no_trumps_only_with_stoppers() -> None:
    # The joker alone does not make a no-trump hand.
    state = deal_hand(AUS, 3, {0: "JK 5S 6S 7S 5C 6C 4D 5D 4H 5H"})
    choice = HeuristicPlayer(0).act(state.observation(0))
    assert choice == PASS or bid_strain(choice) != NO_TRUMPS or bid_tricks(choice) < 6


# ------------------------------------------------------------------ play
#: Seat 0 plays 7H; the joker and both bowers are out (seat 1: JK JD, seat 3: JH).
DRAW = [
    "AH KH QH 10H 9H AS KS AC 5D 6D",
    "JK JD 4H 6S 7S 8S 6C 7C 8C 4D",
    "5H 6H 9S 10S JS QS 9C 10C JC QC",
    "JH 7H 8H 5S KC 5C 7D 8D 9D 10D",
]
#: Seat 0 plays 7H; seat 3 is void in clubs and holds the joker and the left bower.
RUFF = [
    "AH KH QH 10H 5C 6C AS KS AD KD",
    "AC KC QC JC 10C 9C 4H 5S 6S 7S",
    "7C JH 6H 5H 4D 5D 6D 7D 8D 9D",
    "JK JD 7H 8H 9H 8S 9S 10S JS QS",
]


@pytest.mark.parametrize("name", NAMES)
def test_declarer_draws_trumps_when_the_top_trump_is_not_the_master(name: str) -> None:
    state = deal_hand(AUS, 3, DRAW, kitty="QD KD AD")
    apply_text(state, "7H pass pass pass 5D 6D QD AC 6C 9C 5C")
    assert state.to_move == 0
    choice = decide(name, state)
    assert choice.endswith("H"), f"led {choice}: a side winner, not a trump"


@pytest.mark.parametrize("name", NAMES)
def test_second_hand_low_on_the_declarers_small_trump(name: str) -> None:
    state = deal_hand(AUS, 3, DRAW, kitty="QD KD AD")
    apply_text(state, "7H pass pass pass 5D 6D QD AC 6C 9C 5C 9H")
    assert state.to_move == 1
    assert decide(name, state) == "4H"


@pytest.mark.parametrize("name", NAMES)
def test_no_low_ruff_in_front_of_an_overruff(name: str) -> None:
    state = deal_hand(AUS, 3, RUFF, kitty="8C 10D QD")
    # Trick 1 shows seat 3 void in clubs; seat 2 is void now and seat 3 plays after it.
    apply_text(state, "7H pass pass pass 8C 10D QD 5C AC 7C 8S KC")
    assert state.to_move == 2
    assert decide(name, state) not in {"5H", "6H"}


@pytest.mark.parametrize("name", NAMES)
def test_declarer_keeps_the_joker_at_trick_one(name: str) -> None:
    state = deal_hand(AUS, 3, {0: "JK JH AH 10H 9H AS KS AC 5D 6D"}, kitty="5S 5C 4D")
    apply_text(state, "7H pass pass pass 5S 5C 4D")
    assert decide(name, state) != "JK"


@pytest.mark.parametrize("name", NAMES)
def test_no_trump_defender_does_not_cash_a_lone_ace(name: str) -> None:
    state = deal_hand(
        rules("australian", eldest_leads=True),
        3,
        {0: "AD 5D KS QS JS 10S 6C 7C 4H 5H", 1: "JK AS AC KC AH KH QH KD QD 9C"},
        kitty="5S 5C 4D",
    )
    apply_text(state, "pass 7NT pass pass 5S 5C 4D none")
    assert state.to_move == 0
    assert decide(name, state) == "KS"  # the top of the long sequence, not the lone ace


@pytest.mark.parametrize("name", NAMES)
def test_defender_leads_the_top_of_a_real_sequence_only(name: str) -> None:
    eldest = rules("australian", eldest_leads=True)
    state = deal_hand(eldest, 3, {0: "KS 7S 5C 6C 4D 5D 4H 5H 6H 8H"}, kitty="9S 9C 9D")
    apply_text(state, "pass 7H pass pass 9S 9C 9D")
    assert decide(name, state) != "KS"  # K-7 is no sequence: lead low
    state = deal_hand(eldest, 3, {0: "KS QS 5C 6C 4D 5D 4H 5H 6H 8H"}, kitty="9S 9C 9D")
    apply_text(state, "pass 7H pass pass 9S 9C 9D")
    assert decide(name, state) == "KS"
