"""PIMC's bidding and discarding by simulation: what it reads from the auction, the deals
it samples, the scores it weighs, and the calls and discards it makes on clear hands."""

from __future__ import annotations

import random

import pytest

from conftest import AUS, apply_text, deal_hand, mask
from fivehundred.actions import (
    MISERE,
    OPEN_MISERE,
    PASS,
    action_text,
    bid_strain,
    bid_tricks,
    parse_action,
)
from fivehundred.bots import HeuristicPlayer, PimcPlayer
from fivehundred.bots.heuristic import hand_tricks
from fivehundred.bots.simulate import (
    Read,
    auction_reads,
    bid_by_simulation,
    contract_score,
    discard_by_simulation,
    discard_candidates,
    sample_deal,
)
from fivehundred.cards import SUIT_MASKS, iter_cards
from fivehundred.game import HandState

pytest.importorskip("fivehundred.solver")

HEARTS = 3


def test_contract_score_counts_the_set_the_defence_and_the_slam() -> None:
    seven_hearts = parse_action("7H", "auction")
    assert contract_score(seven_hearts, 7, AUS) == 200 - 30
    assert contract_score(seven_hearts, 6, AUS) == -200 - 40
    assert (
        contract_score(parse_action("6S", "auction"), 10, AUS) == 250
    )  # a slam is worth 250 at least
    assert contract_score(MISERE, 0, AUS) == 250
    assert contract_score(MISERE, 1, AUS) == -250


def test_auction_reads_bids_raises_and_early_passes() -> None:
    state = deal_hand(AUS, dealer=3, hands={})
    # Seat 0 bids 6H, seat 1 passes over a six bid, seat 2 raises to 7H, seat 3 bids 7NT.
    apply_text(state, "6H pass 7H 7NT")
    reads = auction_reads(state.observation(0))
    assert Read(1, "pass") in reads
    assert Read(2, "raise", HEARTS, 7) in reads
    assert Read(3, "bid", 4, 7) in reads
    assert all(r.seat != 0 for r in reads)  # nothing is read about our own hand
    # A pass over a bid of seven shows nothing: the hand may be good but not that good.
    state = deal_hand(AUS, dealer=3, hands={})
    apply_text(state, "7S pass")
    assert auction_reads(state.observation(2)) == [Read(0, "bid", 0, 7)]


def test_sampled_deals_give_a_bidder_its_tricks() -> None:
    state = HandState.deal(AUS, 3, "bidder")
    apply_text(state, "pass pass 8H")  # seat 2 bid eight hearts
    obs = state.observation(3)
    reads = auction_reads(obs)
    rng = random.Random(3)
    fits = 0
    for _ in range(10):
        hands, kitty = sample_deal(obs, reads, rng)
        assert hands[3] == obs.hand
        assert sum(h.bit_count() for h in hands) + kitty.bit_count() == 43
        assert sum(h for h in hands) | kitty == AUS.pack.cards
        fits += hand_tricks(hands[2], HEARTS, AUS) >= 8 - 2.3
        fits += hand_tricks(hands[0], 0, AUS) <= 5.3  # seat 0 passed early
    assert fits >= 18


def _auction_state(hand: str, auction: str = "") -> HandState:
    state = deal_hand(AUS, dealer=3, hands={0: hand} if auction == "" else {1: hand})
    if auction:
        apply_text(state, auction)
    return state


def test_strong_hand_bids_high_and_junk_passes() -> None:
    heuristic = HeuristicPlayer(0)
    strong = _auction_state("JK JH JD AH KH QH 10H AS AC AD")
    call, why = bid_by_simulation(strong.observation(0), heuristic, 8, random.Random(1))
    assert bid_strain(call) == HEARTS and bid_tricks(call) >= 9, why
    assert "solved deals" in why
    junk = _auction_state("9S 10S QS 8C 10C QC 9D QD 10H 7H")
    call, why = bid_by_simulation(junk.observation(0), heuristic, 8, random.Random(1))
    assert call == PASS


def test_pass_over_a_high_opponent_bid_with_a_moderate_hand() -> None:
    # Seat 0 bid 9 no trumps; seat 1 has a fair hand but nowhere near ten tricks.
    state = _auction_state("AS KS 10S 9S AC 7C 5D 6D 9H 8H", "9NT")
    call, _ = bid_by_simulation(state.observation(1), HeuristicPlayer(0), 6, random.Random(2))
    assert call == PASS


def test_discard_candidates_and_choice() -> None:
    state = deal_hand(
        AUS,
        dealer=3,
        hands={0: "JK JH JD AH KH QH 10H 9H AS 5C"},
        kitty="6C 6D 7S",
    )
    apply_text(state, "8H pass pass pass")
    obs = state.observation(0)
    heuristic = HeuristicPlayer(0)
    contract = parse_action("8H", "auction")
    candidates = discard_candidates(heuristic, obs.hand, contract, AUS)
    assert candidates and all(c.bit_count() == 3 and c & ~obs.hand == 0 for c in candidates)
    chosen, why = discard_by_simulation(obs, heuristic, 4, random.Random(0))
    assert chosen in candidates and why
    # Never a trump or the ace of spades with three small cards to throw.
    assert not chosen & (SUIT_MASKS[HEARTS] | mask("JK JD AS"))


def test_pimc_discards_three_legal_cards_then_plays() -> None:
    for seed in range(2):
        state = HandState.deal(AUS, seed, f"sim/{seed}")
        player = PimcPlayer(seed, samples=12)
        heuristic = HeuristicPlayer(seed)
        while state.phase in ("auction", "discard"):
            obs = state.observation(state.to_move)
            mine = state.phase == "discard" or state.to_move % 2 == 0
            call = (player if mine else heuristic).act(obs)
            assert call in obs.legal, action_text(call)
            state.apply(call)
        if state.contract >= 0:
            assert state.hands[state.contractor].bit_count() == 10


def test_pimc_play_samples_read_the_auction() -> None:
    # Seat 1 bids 6S; seats 2 and 3 pass over a six bid (weak hands). Seat 0 samples the
    # hidden hands for play: seat 2's sampled hand has no suit worth a bid.
    state = deal_hand(AUS, dealer=3, hands={})
    apply_text(state, "pass 6S pass pass")
    player = PimcPlayer(0, samples=8)
    apply_text(state, " ".join(action_text(a) for a in _heuristic_discards(state)))
    obs = state.observation(0)
    reads = player._reads_for(obs)
    assert all(r.seat != obs.contractor for r in reads)
    assert Read(2, "pass") in reads
    rng = random.Random(1)
    for _ in range(5):
        hands = player.sample_hands(obs, rng)
        assert hands is not None
        assert max(hand_tricks(hands[2], s, AUS) for s in range(4)) <= 5.3


def _heuristic_discards(state: HandState) -> list[int]:
    heuristic = HeuristicPlayer(0)
    out = []
    probe = state.clone()
    while probe.phase == "discard":
        action = heuristic.act(probe.observation(probe.to_move))
        out.append(action)
        probe.apply(action)
    return out


def test_iter_cards_of_sampled_kitty_are_unseen() -> None:
    state = deal_hand(AUS, dealer=3, hands={})
    obs = state.observation(0)
    _, kitty = sample_deal(obs, [], random.Random(0))
    assert kitty & obs.hand == 0
    assert len(list(iter_cards(kitty))) == 3


def test_a_hand_of_low_cards_weighs_misere() -> None:
    # Every card low: open misère, as the heuristic sees it (no card can be forced to win).
    state = _auction_state("5S 6S 7S 5C 6C 7C 4D 5D 4H 6H")
    call, why = bid_by_simulation(state.observation(0), HeuristicPlayer(0), 6, random.Random(4))
    assert call == OPEN_MISERE, why
    # A hand of low cards with two high ones for the kitty: misère is weighed on solved
    # deals (it beats passing there), never a suit bid.
    state = _auction_state("5S 6S 7S 5C 6C 8C 4D 9D KH 6H")
    call, why = bid_by_simulation(state.observation(0), HeuristicPlayer(0), 6, random.Random(4))
    assert call in (MISERE, PASS), why


def test_bid_budget_counts_positions_searched() -> None:
    """A bid stops solving new deals once its budget of searched positions is spent (after
    the minimum); the count is the solver's, the same on any machine."""
    from fivehundred.solver import nodes_searched

    heuristic = HeuristicPlayer(0)
    strong = _auction_state("JK JH JD AH KH QH 10H AS AC AD")
    before = nodes_searched()
    _, why = bid_by_simulation(strong.observation(0), heuristic, 12, random.Random(1), 1)
    assert "over 4 solved deals" in why
    assert nodes_searched() > before
    _, why = bid_by_simulation(strong.observation(0), heuristic, 12, random.Random(1), None)
    assert "over 12 solved deals" in why


def test_three_handed_bids_and_discards_by_simulation() -> None:
    from fivehundred.rules import make_rules

    three = make_rules("three_handed")
    state = deal_hand(three, 0, {1: "JK JH JD AH KH 10H AS KS AC 9D"})
    heuristic = HeuristicPlayer(1)
    call, why = bid_by_simulation(state.observation(1), heuristic, 8, random.Random(1))
    assert "solved deals" in why
    assert call in state.legal_actions() and bid_strain(call) == HEARTS
    apply_text(state, f"{action_text(call)} pass pass")
    assert state.phase == "discard" and state.to_move == 1
    chosen, why = discard_by_simulation(state.observation(1), heuristic, 4, random.Random(1))
    assert "solved deals" in why or "no other" in why
    assert chosen.bit_count() == 3 and chosen & ~state.hands[1] == 0
    assert not mask("JK JH JD AH") & chosen
