"""Belief weighting: sampled deals weighted by how likely the heuristic, as the model of the
other seats, would have made the calls seen."""

from __future__ import annotations

import random

import pytest

from conftest import AUS, apply_text, mask
from fivehundred.actions import PASS
from fivehundred.bots import HeuristicPlayer, PimcPlayer
from fivehundred.bots.belief import MISMATCH, NEAR, CallModel
from fivehundred.bots.simulate import auction_reads, sample_deal
from fivehundred.game import HandState

pytest.importorskip("fivehundred.solver")


def _heuristic_auction(seed: str, calls: int) -> HandState:
    """A deal whose first ``calls`` calls the heuristic made."""
    state = HandState.deal(AUS, 3, seed)
    players = [HeuristicPlayer(seat) for seat in range(4)]
    for _ in range(calls):
        seat = state.to_move
        state.apply(players[seat].act(state.observation(seat)))
    return state


def test_the_true_deal_fits_the_heuristics_calls_and_a_swapped_one_does_not() -> None:
    # Deals where the heuristic bid something: the hands it held reproduce every call.
    found = 0
    for n in range(40):
        state = _heuristic_auction(f"belief/{n}", 3)
        if all(call == PASS for _, call in state.auction.calls):
            continue
        obs = state.observation(state.to_move)
        model = CallModel(obs, HeuristicPlayer(0))
        assert len(model.calls) == 3  # the three others' calls, none of our own
        assert model.weight(state.hands) == 1.0
        # Give the bidder a passer's hand and the passer the bidder's: the calls no longer
        # fit.
        bidder = next(s for s, c in state.auction.calls if c != PASS)
        passer = next((s for s, c in state.auction.calls if c == PASS), None)
        if passer is None:
            continue
        swapped = list(state.hands)
        swapped[bidder], swapped[passer] = swapped[passer], swapped[bidder]
        assert model.weight(swapped) <= NEAR
        found += 1
    assert found >= 3


def test_weights_multiply_over_calls_and_skip_seats() -> None:
    state = HandState.deal(AUS, 3, "belief/skip")
    apply_text(state, "pass pass pass")
    obs = state.observation(3)
    model = CallModel(obs, HeuristicPlayer(0), skip=(1,))
    assert [seat for seat, _, _ in model.calls] == [0, 2]
    # A hand the heuristic opens with (a strong heart suit) breaks each pass it is given.
    strong = mask("JK JH JD AH KH QH 10H AS AC AD")
    hands = [strong if s in (0, 2) else state.hands[s] for s in range(4)]
    assert model.weight(hands) == pytest.approx(MISMATCH**2)


def test_sampling_with_beliefs_finds_deals_that_fit_the_calls() -> None:
    state = HandState.deal(AUS, 3, "belief/sample")
    apply_text(state, "pass 7H pass")  # seat 1 bids seven hearts between two passes
    obs = state.observation(3)
    model = CallModel(obs, HeuristicPlayer(0))
    reads = auction_reads(obs)
    plain = [model.weight(sample_deal(obs, reads, random.Random(n))[0]) for n in range(30)]
    weighted = [
        model.weight(sample_deal(obs, reads, random.Random(n), beliefs=model)[0]) for n in range(30)
    ]
    assert sum(weighted) > sum(plain) * 1.2


def test_pimc_play_says_its_deals_are_weighted() -> None:
    state = _heuristic_auction("belief/play", 0)
    players = [PimcPlayer(seat, samples=8) for seat in range(4)]
    reasons: list[str] = []
    while not state.is_over and len(state.tricks) < 3:
        seat = state.to_move
        action = players[seat].act(state.observation(seat))
        if state.phase == "play" and state.contractor >= 0 and len(state.tricks) >= 1:
            reasons.append(players[seat].explain())
        state.apply(action)
    if state.contractor >= 0:
        assert any("weighted by how well each fits the bids" in r for r in reasons), reasons


def test_in_play_only_the_opponents_calls_are_read() -> None:
    # Seat 0 opens 6S, seat 1 bids 6H, seat 2 and 3 pass, seat 0 passes: 6H by seat 1.
    state = HandState.deal(AUS, 3, "belief/opponents")
    apply_text(state, "6S 6H pass pass pass")
    while state.phase != "play":
        seat = state.to_move
        state.apply(HeuristicPlayer(seat).act(state.observation(seat)))
    pimc = PimcPlayer(0, samples=8)
    model = pimc.call_model(state.observation(state.to_move))
    # Whoever is to move, partner's calls and the contractor's (seat 1) are not read.
    seats = {seat for seat, _, _ in model.calls} if model else set()
    assert 1 not in seats and (state.to_move + 2) % 4 not in seats
    assert seats <= {0, 2, 3} - {state.to_move}
    assert PimcPlayer(0, samples=8, beliefs=False).call_model(state.observation(0)) is None


def test_a_bid_is_valued_at_its_mean_score_over_the_deals() -> None:
    from fivehundred.bots import simulate

    assert simulate._mean([0.0, 100.0]) == 50.0
    assert simulate._mean([50.0, 50.0]) == 50.0
