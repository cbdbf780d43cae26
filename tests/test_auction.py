"""The auction (R-BID) and all-pass hands (R-ALLPASS).

Every position is dealt with ``dealer=0`` unless a test says otherwise, so the bidding
starts with seat 1 and goes 1, 2, 3, 0. Cards do not matter to the auction, so the deals
are filled in by :func:`conftest.deal_hand`.
"""

from __future__ import annotations

import pytest

from conftest import AMERICAN, AUS, apply_text, deal_hand, legal_texts, rules
from fivehundred.actions import PASS, parse_action
from fivehundred.auction import Auction, bid_rank
from fivehundred.errors import IllegalActionError
from fivehundred.game import HandState
from fivehundred.rules import Rules

SUIT_BIDS = [
    f"{tricks}{strain}" for tricks in range(6, 11) for strain in ("S", "C", "D", "H", "NT")
]


def auction(game_rules: Rules = AUS, calls: str = "", dealer: int = 0) -> HandState:
    state = deal_hand(game_rules, dealer, {})
    return apply_text(state, calls)


def refused(state: HandState, call: str, rule: str = "R-BID") -> IllegalActionError:
    """Assert that ``call`` is refused now, citing ``rule``, and changes nothing."""
    history = list(state.history)
    assert call not in legal_texts(state)
    with pytest.raises(IllegalActionError) as error:
        state.apply(parse_action(call, "auction"))
    assert error.value.rule == rule
    assert state.history == history
    return error.value


def contract_of(state: HandState) -> tuple[str | None, int]:
    from fivehundred.actions import action_text

    return (action_text(state.contract) if state.contract >= 0 else None, state.contractor)


# ----------------------------------------------------------------------------- order and ranks
@pytest.mark.parametrize("dealer", range(4))
def test_r_bid_bidding_starts_left_of_the_dealer(dealer: int) -> None:
    state = auction(AUS, dealer=dealer)
    assert state.phase == "auction"
    assert state.to_move == (dealer + 1) % 4


def test_r_bid_suit_order_and_ranking_6s_lowest_10nt_highest() -> None:
    """R-BID: more tricks, or the same tricks in a higher strain; ♠ < ♣ < ♦ < ♥ < NT."""
    ranks = [bid_rank(parse_action(bid, "auction"), AUS) for bid in SUIT_BIDS]
    assert ranks == sorted(ranks)
    assert len(set(ranks)) == len(ranks)


def test_r_bid_opening_calls() -> None:
    """R-BID: the first bidder may pass or bid anything from 6♠; Australian misère needs a
    7 bid first, open misère may be the first bid."""
    legal = legal_texts(auction())
    assert legal == {"pass", "open_misere", *SUIT_BIDS}


def test_r_bid_a_bid_must_outrank_the_current_highest() -> None:
    state = auction(AUS, "7H")
    for lower in ("6NT", "7S", "7C", "7D", "7H"):
        error = refused(state, lower)
        assert "does not outrank 7H" in str(error)
    assert {"7NT", "8S", "10NT"} <= legal_texts(state)
    apply_text(state, "7NT")
    assert (state.auction.contract, state.auction.contractor) == (parse_action("7NT", "auction"), 2)


def test_r_bid_calls_go_clockwise() -> None:
    state = auction(AUS)
    seen = []
    for call in ("6S", "6C", "6D", "6H"):
        seen.append(state.to_move)
        apply_text(state, call)
    assert seen == [1, 2, 3, 0]
    assert state.to_move == 1


# ----------------------------------------------------------------------------- Australian
def test_r_bid_australian_a_passed_player_is_skipped_and_never_bids_again() -> None:
    """R-BID (Australian): a player who passes may not bid again in this hand."""
    state = auction(AUS, "6S pass 6C pass")
    # Seats 2 and 0 have passed: the bidding goes 1, 3, 1, 3 ...
    assert state.to_move == 1
    apply_text(state, "6D")
    assert state.to_move == 3
    apply_text(state, "6H")
    assert state.to_move == 1
    apply_text(state, "pass")
    # Everyone but seat 3 has passed after a bid: seat 3's 6♥ is the contract.
    assert state.phase == "discard"
    assert contract_of(state) == ("6H", 3)
    assert [seat for seat, _ in state.auction.calls] == [1, 2, 3, 0, 1, 3, 1]


def test_r_bid_australian_may_bid_over_partner() -> None:
    """R-BID: a player may bid again, including over their partner's bid."""
    state = auction(AUS, "6S pass 7S pass")  # seat 3 overbids partner seat 1
    assert state.phase == "auction"
    assert state.to_move == 1
    apply_text(state, "8S")  # and seat 1 over partner seat 3
    assert state.to_move == 3
    apply_text(state, "pass")
    assert contract_of(state) == ("8S", 1)


def test_r_bid_australian_ends_when_all_but_one_have_passed_after_a_bid() -> None:
    state = auction(AUS, "pass 7D pass")
    assert state.phase == "auction"
    assert state.to_move == 0
    apply_text(state, "pass")
    assert state.phase == "discard"
    assert contract_of(state) == ("7D", 2)
    assert state.to_move == 2  # the contractor takes the kitty (R-KITTY)


def test_r_bid_australian_bidder_keeps_bidding_while_others_compete() -> None:
    """The bidding goes round until every player but one has passed *after* a bid."""
    state = auction(AUS, "6S 6C 6D 6H 7S pass pass")
    assert state.phase == "auction"
    assert state.to_move == 0  # seat 0 (6H) has not passed yet
    apply_text(state, "pass")
    assert contract_of(state) == ("7S", 1)


def test_r_bid_fourth_player_bidding_after_three_passes_is_the_contract_at_once() -> None:
    """R-BID: if three players pass before anyone bids, the fourth may bid and that bid is
    the contract at once."""
    state = auction(AUS, "pass pass pass")
    assert state.to_move == 0
    assert "pass" in legal_texts(state)
    apply_text(state, "6S")
    assert state.phase == "discard"
    assert contract_of(state) == ("6S", 0)


def test_r_bid_raise_after_passes_gives_the_high_bidder_one_more_turn() -> None:
    """Variant ``raise_after_passes``: when all others have passed, the highest bidder may
    raise their own bid once before the auction ends."""
    state = auction(rules(raise_after_passes=True), "6S pass pass pass")
    assert state.phase == "auction"
    assert state.to_move == 1
    legal = legal_texts(state)
    assert "pass" in legal and "6C" in legal and "6S" not in legal
    apply_text(state, "7S")
    assert state.phase == "discard"
    assert contract_of(state) == ("7S", 1)


def test_r_bid_raise_after_passes_the_high_bidder_may_stand() -> None:
    state = auction(rules(raise_after_passes=True), "pass 7H pass pass")
    assert state.phase == "auction" and state.to_move == 2
    apply_text(state, "pass")
    assert state.phase == "discard"
    assert contract_of(state) == ("7H", 2)


def test_r_bid_without_raise_after_passes_the_auction_ends_at_once() -> None:
    state = auction(AUS, "6S pass pass pass")
    assert state.phase == "discard"
    assert contract_of(state) == ("6S", 1)


# ----------------------------------------------------------------------------- American
def test_r_bid_american_one_round_each_player_calls_once() -> None:
    """R-BID (1904): one round only; each player bids once or passes; the highest bid is
    the contract."""
    state = auction(AMERICAN, "6S 6C pass")
    assert state.phase == "auction" and state.to_move == 0
    apply_text(state, "7S")
    assert state.phase == "discard"
    assert contract_of(state) == ("7S", 0)
    assert len(state.auction.calls) == 4


def test_r_bid_american_first_bidder_is_not_asked_again() -> None:
    state = auction(AMERICAN, "8NT pass pass pass")
    assert contract_of(state) == ("8NT", 1)
    assert state.phase == "discard"


def test_r_bid_american_bids_must_outrank() -> None:
    state = auction(AMERICAN, "7H")
    refused(state, "7D")
    refused(state, "7H")


def test_r_bid_american_misere_any_time_between_8s_and_8c() -> None:
    """R-BID (American): misère may be bid at any time and ranks 8♠ < misère < 8♣."""
    assert "misere" in legal_texts(auction(AMERICAN))
    assert "misere" in legal_texts(auction(AMERICAN, "8S"))
    refused(auction(AMERICAN, "8C"), "misere")
    state = auction(AMERICAN, "misere")
    refused(state, "8S")
    assert "8C" in legal_texts(state)
    ranks = {
        bid: bid_rank(parse_action(bid, "auction"), AMERICAN) for bid in ("8S", "misere", "8C")
    }
    assert ranks["8S"] < ranks["misere"] < ranks["8C"]


def test_r_bid_american_has_no_open_misere() -> None:
    refused(auction(AMERICAN), "open_misere")


def test_r_allpass_american_all_pass_is_thrown_in() -> None:
    state = auction(AMERICAN, "pass pass pass pass")
    assert state.phase == "done"
    assert state.result.contract == -1


# ----------------------------------------------------------------------------- misère
def test_r_bid_australian_misere_only_after_a_7_bid() -> None:
    """R-BID (Australian): misère may only be bid after someone has bid 7."""
    error = refused(auction(AUS), "misere")
    assert "7" in error.reason
    refused(auction(AUS, "6S 6NT"), "misere")
    assert "misere" in legal_texts(auction(AUS, "7S"))
    # The 7 bid may be anyone's, including one's own partner's.
    state = auction(AUS, "pass 7S pass")
    assert "misere" in legal_texts(state)
    apply_text(state, "misere pass")
    assert contract_of(state) == ("misere", 0)


def test_r_bid_australian_misere_ranks_above_7nt_below_8s() -> None:
    """R-BID: misère ranks above every 7-level bid and below every 8-level bid."""
    assert "misere" in legal_texts(auction(AUS, "7NT"))
    refused(auction(AUS, "7S 8S"), "misere")
    state = auction(AUS, "7S misere")
    refused(state, "7NT")
    assert "8S" in legal_texts(state)


def test_r_bid_misere_anytime_variant() -> None:
    """Variant ``misere_anytime``: misère may be bid with no 7 bid before it."""
    state = auction(rules(misere_anytime=True))
    assert "misere" in legal_texts(state)
    apply_text(state, "misere pass pass pass")
    assert contract_of(state) == ("misere", 1)


def test_r_bid_no_misere_variant() -> None:
    refused(auction(rules(no_misere=True), "7S"), "misere")


def test_r_bid_open_misere_any_time_between_10d_and_10h() -> None:
    """R-BID: open misère may be the first bid; it outranks 10♦ and is outranked by 10♥
    and 10NT."""
    state = auction(AUS, "open_misere")
    assert state.to_move == 2
    for lower in ("10D", "9NT", "misere", "6S"):
        refused(state, lower)
    assert {"10H", "10NT"} <= legal_texts(state)
    assert "open_misere" in legal_texts(auction(AUS, "10D"))
    refused(auction(AUS, "10H"), "open_misere")
    refused(auction(AUS, "10NT"), "open_misere")


def test_r_bid_open_misere_520_is_the_highest_bid() -> None:
    """Variant ``open_misere_520``: value 520 and the highest bid of all."""
    game_rules = rules(open_misere_520=True)
    assert "open_misere" in legal_texts(auction(game_rules, "10NT"))
    state = auction(game_rules, "open_misere")
    assert legal_texts(state) == {"pass"}


def test_r_bid_no_open_misere_variant() -> None:
    refused(auction(rules(no_open_misere=True)), "open_misere")


def test_r_bid_blind_misere_only_as_a_first_call_and_outranks_everything() -> None:
    """Variant ``blind_misere``: declared before looking at one's cards; outranks all."""
    game_rules = rules(blind_misere=True)
    assert "blind_misere" in legal_texts(auction(game_rules))
    state = auction(game_rules, "10D open_misere")
    assert state.to_move == 3
    assert "blind_misere" in legal_texts(state)  # seat 3 has not called yet
    apply_text(state, "blind_misere")
    assert state.auction.contractor == 3
    # Seat 1 has already called (10D): too late to declare blind misère.
    state = auction(game_rules, "6S pass pass 6C")
    assert state.to_move == 1
    refused(state, "blind_misere")


def test_r_bid_nothing_outranks_blind_misere() -> None:
    """R-BID: a bid must outrank the current highest; blind misère outranks everything, so
    after it only passes are legal, and ``legal_actions`` must not offer a second blind
    misère that ``apply`` then refuses."""
    state = auction(rules(blind_misere=True), "blind_misere")
    assert state.to_move == 2  # seat 2 has not called yet
    refused(state, "blind_misere")
    assert legal_texts(state) == {"pass"}


def test_r_bid_blind_misere_is_off_by_default() -> None:
    refused(auction(AUS), "blind_misere")


# ----------------------------------------------------------------------------- all pass
def test_r_allpass_default_the_hand_is_thrown_in() -> None:
    """R-ALLPASS: all pass, the hand is thrown in: no contract, no tricks, no points."""
    state = auction(AUS, "pass pass pass pass")
    assert state.phase == "done"
    result = state.result
    assert result.contract == -1 and result.contractor == -1
    assert result.trick_winners == ()
    assert result.points == (0, 0)
    assert result.made is None
    assert state.legal_actions() == []


def test_r_allpass_dealer_must_bid() -> None:
    """Variant ``dealer_must_bid``: if the first three pass, the dealer may not pass."""
    state = auction(rules(dealer_must_bid=True), "pass pass pass")
    assert state.to_move == 0
    assert "pass" not in legal_texts(state)
    assert "6S" in legal_texts(state)
    refused(state, "pass", rule="R-ALLPASS")
    apply_text(state, "6S")
    assert contract_of(state) == ("6S", 0)


def test_r_allpass_dealer_must_bid_only_when_all_others_passed() -> None:
    state = auction(rules(dealer_must_bid=True), "pass 6S pass")
    assert "pass" in legal_texts(state)
    apply_text(state, "pass")
    assert contract_of(state) == ("6S", 2)


def test_r_allpass_dealer_may_pass_by_default() -> None:
    assert "pass" in legal_texts(auction(AUS, "pass pass pass"))


def test_r_allpass_play_nt_variant() -> None:
    """Variant ``allpass_play_nt``: played in no trumps with no contractor and no kitty;
    the player left of the dealer leads; no joker nomination before play."""
    game_rules = rules(allpass_play_nt=True)
    state = deal_hand(game_rules, 2, {3: "JK"}, kitty="4H 5H 6H")
    apply_text(state, "pass pass pass pass")
    assert state.phase == "play"  # not "nominate", though seat 3 holds the joker
    assert state.contract == -1 and state.contractor == -1
    assert state.to_move == 3
    assert state.kitty == state.kitty_dealt  # nobody takes the kitty
    assert all(hand.bit_count() == 10 for hand in state.hands)
    assert state.trump == 4
    assert state.active == (0, 1, 2, 3)


# ----------------------------------------------------------------------------- after the end
def test_r_bid_no_call_after_the_auction_has_ended() -> None:
    """A call once the auction is over is refused (the hand is in the kitty exchange)."""
    state = auction(AUS, "7H pass pass pass")
    assert state.phase == "discard"
    with pytest.raises(IllegalActionError):
        state.apply(PASS)
    with pytest.raises(IllegalActionError):
        state.apply(parse_action("8H", "auction"))


def test_r_bid_auction_object_refuses_calls_once_done() -> None:
    bidding = Auction(AUS, dealer=0)
    for call in ("7H", "pass", "pass", "pass"):
        bidding.apply(parse_action(call, "auction"))
    assert bidding.done
    assert bidding.legal_calls() == []
    with pytest.raises(IllegalActionError) as error:
        bidding.apply(PASS)
    assert error.value.rule == "R-BID"


def test_r_bid_a_card_is_not_a_call() -> None:
    state = auction(AUS)
    with pytest.raises(IllegalActionError) as error:
        state.apply(parse_action("AH", "play"))
    assert error.value.rule == "R-BID"
