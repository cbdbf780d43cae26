"""Trick play: following suit, the bowers, winning tricks (R-RANK, R-PLAY)."""

from __future__ import annotations

import itertools

import pytest

from conftest import AUS, apply_text, cards, deal_hand, legal_texts, mask, rules, texts
from fivehundred.actions import parse_action
from fivehundred.cards import CLUBS, DIAMONDS, HEARTS, NO_TRUMPS, SPADES
from fivehundred.errors import IllegalActionError
from fivehundred.game import HandState
from fivehundred.play import legal_follow_mask, make_context, trick_winner_index

H = make_context(HEARTS)
S = make_context(SPADES)
NT = make_context(NO_TRUMPS)


def may_play(hand: str, led: int, ctx: object) -> set[str]:
    return texts(legal_follow_mask(mask(hand), led, ctx))  # type: ignore[arg-type]


def winner(trick: str, led: int, ctx: object) -> str:
    played = trick.split()
    return played[trick_winner_index(cards(played), led, ctx)]  # type: ignore[arg-type]


# ----------------------------------------------------------------------------- R-RANK tables
def test_r_rank_left_bower_belongs_to_the_trump_suit() -> None:
    """R-RANK: the left bower (J♦ when hearts are trumps) is a heart for every purpose;
    diamonds then have no jack."""
    assert H.follow_masks[HEARTS] >> cards("JD")[0] & 1
    assert not H.follow_masks[DIAMONDS] >> cards("JD")[0] & 1
    assert H.effective_suit[cards("JD")[0]] == HEARTS
    assert S.effective_suit[cards("JC")[0]] == SPADES
    assert not S.follow_masks[CLUBS] >> cards("JC")[0] & 1
    # The other black/red jacks are ordinary cards of their suits.
    assert H.effective_suit[cards("JS")[0]] == SPADES
    assert H.effective_suit[cards("JC")[0]] == CLUBS


def test_r_rank_joker_is_the_highest_trump_in_a_suit_contract() -> None:
    assert H.follow_masks[HEARTS] >> cards("JK")[0] & 1
    assert winner("JH JK AH JD", HEARTS, H) == "JK"


def test_r_rank_trump_order_joker_right_left_a_k_q_10_down_to_4() -> None:
    """R-RANK: trumps high to low: joker, right bower, left bower, A, K, Q, 10, 9, …, 4."""
    order = ["JK", "JH", "JD", "AH", "KH", "QH", "10H", "9H", "8H", "7H", "6H", "5H", "4H"]
    for high, low in itertools.pairwise(order):
        assert winner(f"{low} {high}", HEARTS, H) == high
        assert winner(f"{high} {low}", HEARTS, H) == high


def test_r_rank_spades_trumps_left_bower_is_the_jack_of_clubs() -> None:
    assert winner("AS JC", SPADES, S) == "JC"
    assert winner("JC JS", SPADES, S) == "JS"
    assert winner("AC JC", CLUBS, S) == "JC"  # clubs led, the left bower trumps it


def test_r_rank_other_suits_rank_a_k_q_j_10() -> None:
    """R-RANK: in non-trump suits the jack ranks between the queen and the ten."""
    assert winner("JC QC", CLUBS, H) == "QC"
    assert winner("10C JC", CLUBS, H) == "JC"
    assert winner("KS AS QS", SPADES, H) == "AS"


def test_r_rank_no_trumps_has_no_bowers() -> None:
    """R-RANK: in no trumps every suit ranks A K Q J 10 …; the jacks stay in their suits."""
    assert NT.effective_suit[cards("JD")[0]] == DIAMONDS
    assert winner("JD JH", DIAMONDS, NT) == "JD"
    assert winner("QH JH", HEARTS, NT) == "QH"
    assert may_play("JD 5C", HEARTS, NT) == {"JD", "5C"}


def test_r_rank_two_jokers_black_beats_red() -> None:
    """R-RANK with ``two_jokers``: both jokers are trumps above the right bower; the black
    beats the red."""
    assert winner("JKR JKB JH", HEARTS, H) == "JKB"
    assert winner("JKB JKR", HEARTS, H) == "JKB"
    assert winner("JH JKR", HEARTS, H) == "JKR"


# ----------------------------------------------------------------------------- R-PLAY
def test_r_play_following_trumps_with_only_the_left_bower() -> None:
    """R-PLAY: with trumps led, the left bower counts as a trump: it must follow."""
    assert may_play("JD AS 4C KD", HEARTS, H) == {"JD"}


def test_r_play_following_the_left_bowers_printed_suit() -> None:
    """R-PLAY: following diamonds when hearts are trumps does not accept J♦ (a heart)."""
    assert may_play("JD 5D AS", DIAMONDS, H) == {"5D"}
    # Holding J♦ and no other diamond is being void in diamonds: any card may be played.
    assert may_play("JD AS 4C", DIAMONDS, H) == {"JD", "AS", "4C"}


def test_r_play_must_follow_suit_if_able_otherwise_anything() -> None:
    assert may_play("AS KS 4H JK", SPADES, H) == {"AS", "KS"}
    assert may_play("AC 4H JK", SPADES, H) == {"AC", "4H", "JK"}


def test_r_play_joker_must_follow_trumps_in_a_suit_contract() -> None:
    """The joker is a trump in a suit contract: it follows a trump lead and may not be
    played to another suit while the holder can follow."""
    assert may_play("JK AS", HEARTS, H) == {"JK"}
    assert may_play("JK AS", SPADES, H) == {"AS"}


def test_r_play_highest_trump_wins_else_highest_of_the_suit_led() -> None:
    assert winner("5C AS KC", CLUBS, H) == "KC"  # A♠ is a discard
    assert winner("AC 4H KC", CLUBS, H) == "4H"  # trumped
    assert winner("AC 4H 5H", CLUBS, H) == "5H"  # over-trumped
    assert winner("AD JD", DIAMONDS, H) == "JD"  # J♦ is a trump: it trumps the A♦


# ----------------------------------------------------------------------------- a whole position
#: Hearts trumps, seat 0 contracts 6H (dealer 3, so seat 0 bids first and leads).
HEARTS_DEAL = [
    "AD KD QD AH KH QH 10H 9H 8H 7H",
    "JD 4D AS KS QS JS 10S 9S 8S 7S",
    "JH 6H 5H 4H AC KC QC JC 10C 9C",
    "JK 10D 9D 8D 7D 6D 5D 8C 7C 6C",
]
HEARTS_KITTY = "5S 6S 5C"


def hearts_hand() -> HandState:
    state = deal_hand(AUS, 3, HEARTS_DEAL, HEARTS_KITTY)
    apply_text(state, "6H pass pass pass")
    apply_text(state, HEARTS_KITTY)  # the contractor discards the kitty cards again
    assert state.phase == "play"
    return state


def refuse(state: HandState, token: str, rule: str) -> IllegalActionError:
    before = (list(state.history), list(state.hands), state.to_move)
    with pytest.raises(IllegalActionError) as error:
        state.apply(parse_action(token, "play"))
    assert error.value.rule == rule
    assert (list(state.history), list(state.hands), state.to_move) == before
    return error.value


def test_r_play_left_bower_in_a_played_hand() -> None:
    """R-RANK/R-PLAY in a whole hand: J♦ may not follow diamonds, must follow hearts, and
    the joker (the highest trump) wins the trick led with the right bower."""
    state = hearts_hand()
    assert state.to_move == 0  # the contractor leads (R-KITTY)
    apply_text(state, "AD")
    assert legal_texts(state) == {"4D"}
    error = refuse(state, "JD", "R-PLAY")
    assert "revoke" in str(error)
    apply_text(state, "4D")
    # Seat 2 has no diamonds: any card.
    assert legal_texts(state) == set(HEARTS_DEAL[2].split())
    apply_text(state, "4H")
    # Seat 3 can follow diamonds, so may not trump with the joker.
    assert legal_texts(state) == {"10D", "9D", "8D", "7D", "6D", "5D"}
    refuse(state, "JK", "R-PLAY")
    apply_text(state, "5D")
    assert state.tricks[0].winner == 2  # 4♥ trumps the A♦
    assert state.to_move == 2  # the winner leads
    apply_text(state, "JH")
    assert legal_texts(state) == {"JK"}  # seat 3's only trump
    apply_text(state, "JK")
    assert legal_texts(state) == {"AH", "KH", "QH", "10H", "9H", "8H", "7H"}
    apply_text(state, "7H")
    assert legal_texts(state) == {"JD"}  # seat 1's only trump is the left bower
    refuse(state, "AS", "R-PLAY")
    apply_text(state, "JD")
    assert state.tricks[1].winner == 3
    assert state.to_move == 3
    apply_text(state, "6D KD AS 5H")
    assert [trick.winner for trick in state.tricks] == [2, 3, 2]
    assert state.tricks_won == [0, 0, 2, 1]


def test_r_play_only_the_player_to_move_plays_their_own_cards() -> None:
    state = hearts_hand()
    refuse(state, "JD", "R-PLAY")  # seat 1's card, seat 0 to move
    refuse(state, "5S", "R-PLAY")  # discarded
    with pytest.raises(IllegalActionError):
        state.apply(parse_action("7NT", "auction"))


def test_r_play_a_joker_lead_with_a_suit_is_only_for_no_trumps_and_misere() -> None:
    state = deal_hand(AUS, 2, {3: "JK"}, "4H 5H 6H")
    apply_text(state, "7S pass pass pass 4H 5H 6H")
    assert state.to_move == 3
    refuse(state, "JK>S", "R-JOKER")
    apply_text(state, "JK")
    assert state.led_suit == SPADES


def test_r_play_ten_tricks_then_the_hand_is_over() -> None:
    state = hearts_hand()
    import random

    rng = random.Random(5)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert len(state.tricks) == 10
    assert sum(state.tricks_won) == 10
    assert all(hand == 0 for hand in state.hands)
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError):
        state.apply(parse_action("AH", "play"))


def test_r_play_misere_is_decided_once_the_contractor_wins_a_trick() -> None:
    """R-PLAY: play may stop once a misère is decided; the engine says when."""
    game_rules = rules(misere_anytime=True)
    state = deal_hand(game_rules, 0, {1: "AS KS QS", 2: "5S", 3: "6S"}, "4D 5D 6D")
    apply_text(state, "misere pass pass pass 4D 5D 6D")
    assert state.phase == "play" and state.to_move == 1
    assert not state.misere_decided
    apply_text(state, "AS")
    assert state.to_move == 2  # seat 3, the partner, sits out
    apply_text(state, "5S")
    apply_text(state, "7S")  # seat 0
    assert state.tricks[0].winner == 1
    assert state.misere_decided
    assert not state.is_over  # the hand can still be played out; scoring is unchanged
