"""The joker in no trumps and misère (R-JOKER 1–6, variant ``joker_lead_not_renounced``)
and with ``two_jokers`` (R-RANK)."""

from __future__ import annotations

import pytest

from conftest import AUS, apply_text, cards, deal_hand, legal_texts, mask, rules, texts
from fivehundred.actions import parse_action
from fivehundred.cards import DIAMONDS, HEARTS, JOKER, JOKER_BLACK, NO_TRUMPS, SPADES
from fivehundred.errors import IllegalActionError
from fivehundred.game import HandState
from fivehundred.play import legal_follow_mask, make_context, trick_winner_index
from fivehundred.rules import Rules

NT = make_context(NO_TRUMPS)
MISERE = make_context(NO_TRUMPS, misere=True)


def refuse(state: HandState, token: str, rule: str = "R-JOKER") -> IllegalActionError:
    before = (list(state.history), list(state.hands), state.to_move)
    with pytest.raises(IllegalActionError) as error:
        state.apply(parse_action(token, state.phase))
    assert error.value.rule == rule
    assert (list(state.history), list(state.hands), state.to_move) == before
    return error.value


# ----------------------------------------------------------------------------- a no-trump hand
#: Seat 1 contracts 6NT (dealer 0) holding the joker and no clubs once the kitty's clubs
#: are discarded. Seats 0 and 3 get the rest of the pack (see conftest.fill_deal):
#: seat 0: 7S 8S 9S 10S JS QS KS 4D 5D 6D; seat 3: 7D 8D 9D 10D JD 5H 6H 7H 8H JH.
NT_DEAL = {
    1: "JK 6S AH KH QH 10H 9H AD KD QD",
    2: "AS AC 4H KC QC JC 10C 9C 8C 7C",
}
NT_KITTY = "5S 5C 6C"


def nt_hand(game_rules: Rules = AUS, nomination: str = "none") -> HandState:
    state = deal_hand(game_rules, 0, NT_DEAL, NT_KITTY)
    apply_text(state, "6NT pass pass pass")
    apply_text(state, NT_KITTY)
    assert state.phase == "nominate"
    apply_text(state, nomination)
    assert state.phase == "play" and state.to_move == 1
    return state


def nt_hand_after_three_tricks(game_rules: Rules = AUS) -> HandState:
    """Spades, clubs and hearts have been led; seat 1 showed void in clubs and has the lead."""
    state = nt_hand(game_rules)
    apply_text(state, "6S AS 7D 7S")  # seat 2 wins with the A♠
    apply_text(state, "AC 8D 4D")  # clubs: seats 3 and 0 are void too
    assert "JK" in legal_texts(state)  # R-JOKER 3: unable to follow, the joker may be played
    apply_text(state, "9H")  # R-JOKER 4: in no trumps the holder may keep it
    apply_text(state, "4H 5H 5D")
    assert legal_texts(state) == {"AH", "KH", "QH", "10H"}  # must follow: not the joker
    apply_text(state, "AH")
    assert [trick.winner for trick in state.tricks] == [2, 2, 1]
    assert state.to_move == 1
    return state


def test_r_joker_1_contractor_may_nominate_a_suit_before_the_first_lead() -> None:
    """R-JOKER 1: a no-trump contractor holding the joker nominates a suit (or not) after
    the kitty exchange, before the first lead."""
    state = deal_hand(AUS, 0, NT_DEAL, NT_KITTY)
    apply_text(state, "6NT pass pass pass")
    apply_text(state, NT_KITTY)
    assert state.phase == "nominate"
    assert state.to_move == 1
    assert legal_texts(state) == {"S", "C", "D", "H", "none"}


def test_r_joker_1_nominated_joker_is_the_highest_card_of_its_suit() -> None:
    """R-JOKER 1: a nominated joker is the highest card of that suit and behaves as a card
    of that suit in every way: it is led as a plain card, others follow that suit, and it
    beats the ace."""
    state = nt_hand(nomination="H")
    assert state.joker_suits[0] == HEARTS
    assert "JK" in legal_texts(state)
    assert not any(">" in text for text in legal_texts(state))
    refuse(state, "JK>S")
    apply_text(state, "JK")
    assert state.led_suit == HEARTS
    assert legal_texts(state) == {"4H"}  # seat 2 must follow hearts
    apply_text(state, "4H 5H 7S")
    assert state.tricks[0].winner == 1


def test_r_joker_1_nominated_joker_must_follow_its_suit_and_cannot_renege() -> None:
    ctx = make_context(NO_TRUMPS, joker_suits=(HEARTS, -1))
    assert texts(legal_follow_mask(mask("JK 5S"), HEARTS, ctx)) == {"JK"}
    assert texts(legal_follow_mask(mask("JK 5S"), SPADES, ctx)) == {"5S"}
    # Not holding a spade, the nominated joker is a mere heart discarded: it does not win.
    assert texts(legal_follow_mask(mask("JK 5H"), SPADES, ctx)) == {"JK", "5H"}
    played = cards("4S JK")
    assert trick_winner_index(played, SPADES, ctx) == 0
    assert trick_winner_index(cards("AH JK"), HEARTS, ctx) == 1


def test_r_joker_1_no_nomination_without_the_joker_or_in_a_suit_contract() -> None:
    """Only a no-trump or misère contractor holding the joker nominates."""
    state = deal_hand(AUS, 0, {2: "JK"}, NT_KITTY)
    apply_text(state, "6NT pass pass pass")
    apply_text(state, NT_KITTY)
    assert state.phase == "play"  # seat 1 has no joker
    state = deal_hand(AUS, 0, NT_DEAL, NT_KITTY)
    apply_text(state, "6H pass pass pass")
    apply_text(state, NT_KITTY)
    assert state.phase == "play"  # in hearts the joker is simply the highest trump


def test_r_joker_1_joker_from_the_kitty_may_be_nominated() -> None:
    state = deal_hand(AUS, 0, {1: "AH"}, "JK 5S 6S")
    apply_text(state, "6NT pass pass pass")
    assert state.hands[1] >> JOKER & 1
    apply_text(state, "5S 6S AH")
    assert state.phase == "nominate"


def test_r_joker_2_unnominated_joker_wins_any_trick() -> None:
    """R-JOKER 2: an unnominated joker belongs to no suit and wins any trick it is
    played to."""
    state = nt_hand()
    apply_text(state, "6S AS 7D 7S AC 8D 4D")
    apply_text(state, "JK")  # seat 1, void in clubs, trumps the A♣ with the joker
    assert state.tricks[-1].winner == 1
    assert trick_winner_index(cards("AH KH JK"), HEARTS, NT) == 2


def test_r_joker_3_the_joker_may_not_be_played_while_able_to_follow() -> None:
    """R-JOKER 3: when another player leads, the holder may play the joker only if they
    cannot follow."""
    state = nt_hand()
    apply_text(state, "6S AS 7D 7S AC 8D 4D 9H 4H 5H 5D")
    error = refuse(state, "JK")
    assert "follow" in error.reason
    assert texts(legal_follow_mask(mask("JK 5S 9H"), SPADES, NT)) == {"5S"}
    assert texts(legal_follow_mask(mask("JK 9H"), SPADES, NT)) == {"JK", "9H"}


def test_r_joker_4_in_misere_a_holder_unable_to_follow_must_play_it() -> None:
    """R-JOKER 4: in no trumps the holder unable to follow may keep the joker; in misère
    they must play it."""
    assert texts(legal_follow_mask(mask("JK 9H 4D"), SPADES, NT)) == {"JK", "9H", "4D"}
    assert texts(legal_follow_mask(mask("JK 9H 4D"), SPADES, MISERE)) == {"JK"}
    assert texts(legal_follow_mask(mask("JK 5S 9H"), SPADES, MISERE)) == {"5S"}
    # A nominated joker is an ordinary card of its suit, so the rule does not apply.
    nominated = make_context(NO_TRUMPS, misere=True, joker_suits=(HEARTS, -1))
    assert texts(legal_follow_mask(mask("JK 9H 4D"), SPADES, nominated)) == {"JK", "9H", "4D"}


def test_r_joker_5_leading_the_joker_nominates_an_unled_suit() -> None:
    """R-JOKER 5: the leader of the joker names a suit not yet led in this hand; the others
    must follow it."""
    state = nt_hand()
    assert {"JK>S", "JK>C", "JK>D", "JK>H"} <= legal_texts(state)  # nothing led yet
    refuse(state, "JK")  # an unnominated joker is led with a suit
    state = nt_hand_after_three_tricks()
    joker_leads = {text for text in legal_texts(state) if text.startswith("JK")}
    assert joker_leads == {"JK>D"}
    for led in ("JK>S", "JK>C", "JK>H"):
        error = refuse(state, led)
        assert "led" in error.reason
    apply_text(state, "JK>D")
    assert state.led_suit == DIAMONDS
    assert legal_texts(state) == set(NT_DEAL[2].split()) - {"AS", "AC", "4H"}  # void in ♦
    apply_text(state, "KC")
    assert legal_texts(state) == {"9D", "10D", "JD"}  # seat 3 must follow diamonds
    apply_text(state, "JD 6D")
    assert state.tricks[-1].winner == 1  # R-JOKER 2


def test_r_joker_5_all_suits_led_the_joker_may_be_led_only_to_the_last_trick() -> None:
    state = deal_hand(AUS, 0, {1: "JK AS KS AC KC AD KD AH KH QH"}, "5S 5C 4D")
    apply_text(state, "6NT pass pass pass 5S 5C 4D none")
    for lead in ("AS", "AC", "AD", "AH"):
        assert any(text.startswith("JK>") for text in legal_texts(state))
        apply_text(state, lead)
        while state.trick_cards:
            apply_text(state, sorted(legal_texts(state))[0])
        assert state.to_move == 1
    assert state.suits_led == 0b1111
    for lead in ("KS", "KC", "KD", "KH", "QH"):
        assert not any(text.startswith("JK") for text in legal_texts(state))
        refuse(state, "JK>S")
        apply_text(state, lead)
        while state.trick_cards:
            apply_text(state, sorted(legal_texts(state))[0])
        assert state.to_move == 1
    assert len(state.tricks) == 9
    assert legal_texts(state) == {"JK>S", "JK>C", "JK>D", "JK>H"}
    apply_text(state, "JK>H")
    while not state.is_over:
        apply_text(state, sorted(legal_texts(state))[0])
    assert state.result.tricks_won[1] == 10


def test_r_joker_5_variant_joker_lead_not_renounced() -> None:
    """Variant ``joker_lead_not_renounced``: the nominated suit must be one in which the
    leader has not shown void (led suits are allowed)."""
    state = nt_hand_after_three_tricks(rules(joker_lead_not_renounced=True))
    joker_leads = {text for text in legal_texts(state) if text.startswith("JK")}
    assert joker_leads == {"JK>S", "JK>D", "JK>H"}  # seat 1 showed void in clubs
    error = refuse(state, "JK>C")
    assert "void" in error.reason
    apply_text(state, "JK>S")
    assert state.led_suit == SPADES


def test_r_joker_6_misere_contractor_with_an_unnominated_joker_wins_the_trick() -> None:
    """R-JOKER 6 (with R-JOKER 4): a misère contractor holding an unnominated joker must play
    it when void, wins that trick, and so loses the contract."""
    game_rules = rules(misere_anytime=True)
    hands = {1: "JK 5S 6S 7S 8S 9S 4D 5D 6D 7D", 2: "AS 4H"}
    state = deal_hand(game_rules, 0, hands, "5C 6C 7C")
    apply_text(state, "misere pass pass pass 5C 6C 7C")
    assert state.phase == "nominate"  # misère counts as no trumps for the joker
    apply_text(state, "none")
    assert state.active == (0, 1, 2)  # seat 3, the partner, sits out (R-KITTY)
    apply_text(state, "5S AS")
    apply_text(state, sorted(legal_texts(state))[0])  # seat 0 follows
    assert state.tricks[0].winner == 2
    apply_text(state, "4H")
    apply_text(state, sorted(legal_texts(state))[0])  # seat 0
    assert legal_texts(state) == {"JK"}  # seat 1 is void in hearts: must play the joker
    apply_text(state, "JK")
    assert state.tricks[1].winner == 1
    assert state.misere_decided
    while not state.is_over:
        apply_text(state, sorted(legal_texts(state))[0])
    assert state.result.made is False
    assert state.result.points == (0, -250)


def test_r_joker_6_nominating_protects_the_misere_contractor() -> None:
    """R-JOKER 1/6: with the joker nominated as a spade, the misère contractor void in
    hearts may discard another card instead."""
    game_rules = rules(misere_anytime=True)
    hands = {1: "JK 5S 6S 7S 8S 9S 4D 5D 6D 7D", 2: "AS 4H"}
    state = deal_hand(game_rules, 0, hands, "5C 6C 7C")
    apply_text(state, "misere pass pass pass 5C 6C 7C S")
    apply_text(state, "5S AS")
    apply_text(state, sorted(legal_texts(state))[0])
    apply_text(state, "4H")
    apply_text(state, sorted(legal_texts(state))[0])
    assert legal_texts(state) == set(["JK", "6S", "7S", "8S", "9S", "4D", "5D", "6D", "7D"])
    apply_text(state, "9S")
    assert state.tricks[1].winner != 1


# ----------------------------------------------------------------------------- two jokers
def test_r_rank_two_jokers_in_no_trumps_black_beats_red() -> None:
    """R-RANK with ``two_jokers``: in no trumps and misère each joker follows R-JOKER and the
    black beats the red."""
    assert trick_winner_index([JOKER, JOKER_BLACK], SPADES, NT) == 1
    assert trick_winner_index([JOKER_BLACK, JOKER], SPADES, NT) == 0
    both_hearts = make_context(NO_TRUMPS, joker_suits=(HEARTS, HEARTS))
    assert trick_winner_index([JOKER, JOKER_BLACK, cards("AH")[0]], HEARTS, both_hearts) == 1


def test_r_joker_two_jokers_each_is_nominated_and_led_in_its_own_notation() -> None:
    game_rules = rules(two_jokers=True)
    state = deal_hand(game_rules, 0, {1: "JKR JKB"}, "5S 5C 6C 4D")
    apply_text(state, "6NT pass pass pass 5S 5C 6C 4D")
    assert state.phase == "nominate"
    assert legal_texts(state) == {"S", "C", "D", "H", "none"}
    apply_text(state, "H")
    assert state.phase == "nominate"  # the black joker next
    assert legal_texts(state) == {"JKB:S", "JKB:C", "JKB:D", "JKB:H", "none"}
    apply_text(state, "none")
    assert state.phase == "play"
    assert state.joker_suits == [HEARTS, -1]
    assert {"JKR", "JKB>S", "JKB>H"} <= legal_texts(state)
    assert parse_action("JKB>S", "play") != parse_action("JK>S", "play")
