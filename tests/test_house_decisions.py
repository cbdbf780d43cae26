"""The bots' house-rule decisions in set positions (RULES.md §9, §10; R-HOUSE, R-PLAYERS):
where calling a house contract is clearly right they call it, where it is clearly wrong
they do not; and the engine's reading of a nominated joker (R-JOKER 1, 5)."""

from __future__ import annotations

import pytest

from conftest import apply_text, deal_hand, mask, rules
from fivehundred.actions import (
    DOUBLE_MISERE,
    HI_LO,
    NO_NOMINATION,
    NO_SLAM,
    PASS,
    SLAM,
    bid_action,
    joker_lead_action,
    nominate_action,
)
from fivehundred.bots import house, make_player
from fivehundred.bots.house import (
    dead_cards_bid,
    hi_lo_hand,
    house_bid,
    inkle_bid,
    sure_slam,
)
from fivehundred.cards import HEARTS, JOKER, JOKER_BLACK, SUITS
from fivehundred.game import HandState

BOTS = ("heuristic", "pimc:4")
SLAM_RULES = rules("australian", slam_call=True)
# Seat 1 bids (dealer 0); its partner is seat 3. Kitty cards are low, discarded at once.
SURE_SLAM = "JK JH JD AH KH QH 10H AS AC AD"  # seven top trumps against six; side aces
NOT_SURE = "JK JH AH KH QH 10H 9H AS KS QC"  # the left bower out: it beats the 10H


def _at_slam_call(hand: str) -> HandState:
    state = deal_hand(SLAM_RULES, 0, {1: hand}, kitty="4D 5S 5C")
    apply_text(state, "7H pass pass pass")
    for card in mask_cards("4D 5S 5C"):
        state.apply(card)
    assert state.phase == "slam" and state.to_move == 1
    return state


def mask_cards(text: str) -> list[int]:
    value = mask(text)
    return [c for c in range(66) if value >> c & 1]


@pytest.mark.parametrize("bot", BOTS)
def test_slam_called_when_ten_tricks_alone_are_sure(bot: str) -> None:
    """R-HOUSE slam_call: seven top trumps draw the six out and every side card is an ace:
    slam is right, and the bot then takes all ten tricks alone (the 8♥ value, 300)."""
    state = _at_slam_call(SURE_SLAM)
    assert sure_slam(state.observation(1))
    players = [make_player(bot, seat) for seat in range(4)]
    assert players[1].act(state.observation(1)) == SLAM
    while not state.is_over:
        state.apply(players[state.to_move].act(state.observation(state.to_move)))
    assert state.slam and state.tricks_won[1] == 10
    assert state.result.made and state.result.points[1] == 300


@pytest.mark.parametrize("bot", BOTS)
def test_no_slam_when_a_trick_can_be_lost(bot: str) -> None:
    """R-HOUSE slam_call: with the left bower out (above the contractor's small trumps)
    and kings and queens outside, slam is wrong."""
    state = _at_slam_call(NOT_SURE)
    assert not sure_slam(state.observation(1))
    assert make_player(bot, 1).act(state.observation(1)) == NO_SLAM


def test_sure_slam_needs_every_trump_drawn_first() -> None:
    """Six top trumps against seven out are not sure; when the defence leads first
    (eldest_leads) no trump may be out at all; in no trumps a joker out is never sure."""
    six = deal_hand(SLAM_RULES, 0, {1: "JK JH JD AH KH QH AS AC AD KD"}, kitty="4D 5S 5C")
    apply_text(six, "7H pass pass pass 4D 5S 5C")
    assert not sure_slam(six.observation(1))
    eldest = rules("australian", slam_call=True, eldest_leads=True)
    state = deal_hand(eldest, 0, {1: SURE_SLAM}, kitty="4D 5S 5C")
    apply_text(state, "7H pass pass pass 4D 5S 5C")
    assert state.phase == "slam" and not sure_slam(state.observation(1))
    nt = deal_hand(SLAM_RULES, 0, {1: "AS KS QS AC KC AD KD AH KH QH"}, kitty="4D 5S 5C")
    apply_text(nt, "7NT pass pass pass 4D 5S 5C")
    assert nt.phase == "slam" and not sure_slam(nt.observation(1))  # the joker is out


DM_RULES = rules("australian", double_misere=True, misere_anytime=True)
LOW = "4H 5H 6H 4D 5D 6D 5S 6S 5C QC"  # one danger: too high for open misère
HIGH = "JK AH KH 4D 5D 6D AS 6S 5C 6C"


@pytest.mark.parametrize("bot", BOTS)
def test_double_misere_over_partner_outbid_misere_with_a_low_hand(bot: str) -> None:
    """R-HOUSE double_misere, only with two low hands: partner's misère shows theirs, and
    the opponents have outbid it."""
    state = deal_hand(DM_RULES, 0, {3: LOW})
    apply_text(state, "misere 8H")  # seat 1 (partner of seat 3), seat 2
    assert make_player(bot, 3).act(state.observation(3)) == DOUBLE_MISERE


@pytest.mark.parametrize(
    ("hand", "calls"),
    [(HIGH, "misere 8H"), (LOW, "7S 8H"), (LOW, "pass misere"), (LOW, "misere pass")],
    ids=["high cards", "partner bid a suit", "an opponent bid misère", "partner's misère stands"],
)
def test_no_double_misere_without_two_low_hands(hand: str, calls: str) -> None:
    state = deal_hand(DM_RULES, 0, {3: hand})
    apply_text(state, calls)
    obs = state.observation(3)
    assert DOUBLE_MISERE in obs.legal
    assert make_player("heuristic", 3).act(obs) != DOUBLE_MISERE


def test_hi_lo_hand_is_balanced_with_top_winners_and_few_middling_cards() -> None:
    """R-HOUSE hi_lo: bid with a strong balanced hand that wins its five when it chooses."""
    hi_lo_rules = rules("australian", hi_lo=True)
    good = "AS KS 5S AC 5C AD 4D AH 5H 4H"  # five top winners, the rest low, 3-2-2-3
    state = deal_hand(hi_lo_rules, 0, {1: good})
    assert hi_lo_hand(mask(good))
    bid = house_bid(state.observation(1), PASS)
    assert bid is not None and bid[0] == HI_LO
    for bad in (
        "AS KS QS JS 10S 9S AC AD AH 4H",  # six spades: not balanced
        "QS JS 5S QC 5C QD 4D QH 5H 4H",  # no top winner
        "AS QS JS AC QC AD QD AH QH 4H",  # middling queens and jacks
    ):
        assert not hi_lo_hand(mask(bad))
        state = deal_hand(hi_lo_rules, 0, {1: bad})
        assert house_bid(state.observation(1), PASS) is None


INKLE = rules("american", inkle=True)
SUPPORT = "QH 10H 9H 8H KS 5C 6C 5D 6D 7S"  # four hearts, a king: not a bid alone


@pytest.mark.parametrize("bot", BOTS)
def test_seven_after_partner_inkle_with_support(bot: str) -> None:
    """R-HOUSE inkle: partner's 6♥ inkle promises hearts, so four hearts make the side's
    7♥; without the inkle the same hand passes (and the hand would be thrown in)."""
    state = deal_hand(INKLE, 0, {3: SUPPORT})
    apply_text(state, "6H pass")
    assert make_player(bot, 3).act(state.observation(3)) == bid_action(7, HEARTS)
    quiet = deal_hand(INKLE, 0, {3: SUPPORT})
    apply_text(quiet, "pass pass")
    assert make_player("heuristic", 3).act(quiet.observation(3)) == PASS


def test_no_seven_after_partner_inkle_without_support() -> None:
    """A hand with no hearts and nothing to spare lets the inkle be thrown in."""
    state = deal_hand(INKLE, 0, {3: "KS 8S 7S 6S QC 6C 7C QD 5D 6D"})
    apply_text(state, "6H pass")
    obs = state.observation(3)
    assert inkle_bid(obs, PASS) is None
    assert make_player("heuristic", 3).act(obs) == PASS


def test_inkle_responses_make_throw_ins_rarer() -> None:
    """Heuristic self-play on 120 seeded deals: the inkle responses turn most thrown-in
    inkles into real contracts (bench/bench_house.py measures the rates)."""

    def thrown_in() -> int:
        count = 0
        for index in range(120):
            state = HandState.deal(INKLE, index % 4, f"inkle/{index}")
            players = [make_player("heuristic", index * 4 + s) for s in range(4)]
            while not state.is_over:
                state.apply(players[state.to_move].act(state.observation(state.to_move)))
            count += state.result.contract < 0
        return count

    after = thrown_in()
    real = house.inkle_bid
    try:
        house.inkle_bid = lambda obs, chosen: None
        before = thrown_in()
    finally:
        house.inkle_bid = real
    assert after < before / 2


def test_dead_hand_bids_against_one_defender() -> None:
    """R-PLAYERS dead_hand, two players: one defender, the kitty to the contractor — four
    trumps to the joker bid six; a hand of low cards still passes."""
    dead = rules("two_handed", dead_hand=True)
    state = deal_hand(dead, 0, {1: "JK JH AH 5H 4H AS 6S 5C 6C 5D"})
    obs = state.observation(1)
    bid = dead_cards_bid(obs, PASS)
    assert bid is not None and bid[0] == bid_action(6, HEARTS)
    assert make_player("heuristic", 1).act(obs) == bid[0]
    low = deal_hand(dead, 0, {1: "4H 5H 6H 5S 6S 7S 5C 6C 4D 5D"})
    assert dead_cards_bid(low.observation(1), PASS) is None


def test_nominated_joker_is_a_card_of_its_suit_when_all_suits_are_led() -> None:
    """R-JOKER 1 ("behaves as a card of that suit in every way") with R-JOKER 5 ("if all
    four suits have already been led, the joker may be led only to the last trick"): the
    contractor nominated the red joker hearts and left the black one free; with both left
    and every suit led, the red joker is a heart, so the free joker waits for the last
    trick."""
    two = rules("australian", two_jokers=True)
    hand = "JKR JKB AS KS AC KC AD KD AH KH"
    state = deal_hand(two, 0, {1: hand})
    kitty = state.kitty
    apply_text(state, "6NT pass pass pass")
    for card in range(66):
        if kitty >> card & 1:
            state.apply(card)  # the kitty goes back
    assert state.phase == "nominate" and state.joker_to_nominate() == JOKER
    state.apply(nominate_action(JOKER, HEARTS))
    assert state.joker_to_nominate() == JOKER_BLACK
    state.apply(NO_NOMINATION)
    for lead in ("AS", "KS", "AC", "KC", "AD", "KD", "AH", "KH"):
        apply_text(state, lead)
        while state.trick_cards:
            state.apply(state.legal_actions()[0])
        assert state.tricks[-1].winner == 1
    assert state.suits_led == 15 and state.to_move == 1
    assert state.legal_actions() == [JOKER]  # the red joker, a heart; not JKB>S …
    state.apply(JOKER)
    while state.trick_cards:
        state.apply(state.legal_actions()[0])
    assert state.to_move == 1
    assert state.legal_actions() == [joker_lead_action(JOKER_BLACK, s) for s in SUITS]


@pytest.mark.parametrize("bot", ["heuristic", "easy"])
def test_every_claim_the_bots_make_is_right(bot: str) -> None:
    """R-HOUSE claim: claim only when it is sure. Self-play on 80 seeded deals: the bots
    claim, and no claim is wrong (a beginner's slip is a card, never a claim)."""
    claim = rules("australian", claim=True)
    claims = 0
    for index in range(80):
        state = HandState.deal(claim, index % 4, f"claims/{index}")
        players = [make_player(bot, index * 4 + s) for s in range(4)]
        while not state.is_over:
            state.apply(players[state.to_move].act(state.observation(state.to_move)))
        if state.claim_trick >= 0:
            claims += 1
            assert not state.claim_wrong, index
    assert claims >= 10


def test_hi_lo_discards_keep_five_top_winners_and_the_low_cards() -> None:
    """R-HOUSE hi/lo: the middling cards go first (they win or lose as the others' cards
    fall), then top winners beyond five, then the highest low card; the five top winners
    and the lowest cards stay."""
    from fivehundred.cards import iter_cards

    hand = mask("AS KS QS AH AC JK KD 10D 9C 4H 5S 6C 4D")  # 13 cards: three to discard
    thrown = []
    for _ in range(3):
        card, why = house.hi_lo_discard(hand, tuple(iter_cards(hand)))
        assert why.startswith("hi/lo: discard")
        thrown.append(card)
        hand &= ~(1 << card)
    assert mask(["KD", "10D"]) == (1 << thrown[0]) | (1 << thrown[1])
    assert thrown[2] == mask("QS").bit_length() - 1  # a sixth top winner, the lowest
