"""The double-dummy solver on the house rules' contracts (RULES.md §10, R-HOUSE), checked
against exhaustive minimax over HandState on small endings."""

from __future__ import annotations

import random

import pytest

from fivehundred.actions import action_card
from fivehundred.cards import JOKERS_MASK
from fivehundred.rules import make_rules
from fivehundred.solver import card_values, hi_lo_made, random_playouts, solve
from fivehundred.solver.reference import minimax, minimax_hi_lo
from fivehundred.solver.samples import HOUSE_RULES, random_position, start_of_play

J5 = make_rules("australian", {"j5_no_trumps": True})


@pytest.mark.parametrize("kind", ["nt", "nt_nominated"])
def test_j5_solver_matches_minimax(kind: str) -> None:
    """R-HOUSE j5_no_trumps: the jack on top, in the solver as in the engine."""
    rng = random.Random(f"house-j5/{kind}")
    checked = 0
    for _ in range(150):
        state = random_position(
            rng.randrange(10**6), kind, 3 + rng.randrange(2), rng.randrange(4), J5
        )
        assert solve(state) == minimax(state)
        checked += 1
    assert checked == 150


@pytest.mark.parametrize("kind", ["double_misere", "shields_double", "patastrophe"])
def test_double_misere_family_solver_matches_minimax(kind: str) -> None:
    """R-HOUSE double misère, Shields double, patastrophe: both partners minimise (the
    exposed hands change nothing double dummy)."""
    rng = random.Random(f"house-dm/{kind}")
    for _ in range(120):
        state = random_position(
            rng.randrange(10**6), kind, 3 + rng.randrange(2), rng.randrange(4), HOUSE_RULES
        )
        assert state.partners and state.is_misere
        assert solve(state) == minimax(state)


def test_hi_lo_solver_matches_exhaustive_search() -> None:
    """R-HOUSE hi/lo: the contractor aims for exactly five; the solver's answer agrees with
    exhaustive search on small endings, and both outcomes occur."""
    rng = random.Random("house-hi-lo")
    outcomes = set()
    for _ in range(60):
        state = random_position(rng.randrange(10**6), "hi_lo", 3, rng.randrange(3), HOUSE_RULES)
        assert len(state.active) == 3
        expected = minimax_hi_lo(state)
        assert hi_lo_made(state) == expected
        outcomes.add(expected)
    assert outcomes == {True, False}


def test_two_free_jokers_led_when_every_suit_has_been_led() -> None:
    """R-JOKER 5 with two jokers (the French-Canadian pack): when every suit has been led,
    a leader holding nothing but the two free jokers leads one naming any suit, with two
    tricks left, in the solver as in the engine."""
    rules = make_rules("french_canadian")
    checked = 0
    for seed in range(200):
        state = start_of_play(seed, "nt", rules)
        if not any(state.hands[s] & JOKERS_MASK == JOKERS_MASK for s in state.active):
            continue
        rng = random.Random(seed)
        while len(state.tricks) < 8:  # keep the jokers to the end
            actions = state.legal_actions()
            plain = [a for a in actions if not (1 << action_card(a)) & JOKERS_MASK]
            state.apply(rng.choice(plain or actions))
        if state.suits_led != 15 or state.hands[state.to_move] & ~JOKERS_MASK:
            continue
        legal = state.legal_actions()
        assert len(legal) == 8  # two jokers, each naming any of four suits
        assert sorted(card_values(state)) == sorted(legal)
        assert solve(state) == minimax(state)
        assert all(0 <= total <= 10 for total in random_playouts(state, 20, seed))
        checked += 1
    assert checked >= 3


def test_bots_exact_five_search_matches_exhaustive_search() -> None:
    """The bots' exactly-five search (bots/house.py, for the last tricks of a hi/lo hand)
    agrees with exhaustive search over the game's own rules, a trick in progress or not."""
    from fivehundred.bots.house import exactly_five
    from fivehundred.cards import NO_TRUMPS
    from fivehundred.play import make_context

    rng = random.Random("house-exact-five")
    outcomes = set()
    checked = 0
    for _ in range(60):
        state = random_position(rng.randrange(10**6), "hi_lo", 3, rng.randrange(3), HOUSE_RULES)
        obs = state.observation(state.to_move)
        ctx = make_context(NO_TRUMPS, False, obs.joker_suits, obs.rules.j5_no_trumps)
        order = tuple(sorted(obs.active))
        hands = {seat: state.hands[seat] for seat in order}
        trick = tuple(action_card(a) for _, a in obs.trick)
        got = exactly_five(
            ctx,
            order,
            obs.contractor,
            hands,
            obs.seat,
            trick,
            obs.led_suit,
            obs.tricks_won[obs.contractor],
        )
        if got is None:  # a free joker in play
            assert any(hands[s] & JOKERS_MASK for s in order) or trick
            continue
        expected = minimax_hi_lo(state)
        assert got == expected
        outcomes.add(expected)
        checked += 1
    assert outcomes == {True, False} and checked >= 30
