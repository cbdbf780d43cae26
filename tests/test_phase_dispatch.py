"""The phase table (``game.PHASE_RULES``, the house phases in ``house_phases``): every phase
has one legal function and one apply function, and ``legal_actions``/``apply`` dispatch by
them. Random hands of every preset under every variant it accepts: the listed actions are
exactly those ``apply`` accepts (a sample of each), each recorded in the history once."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fivehundred.actions import (
    CLAIM,
    JOKER_LEAD_BASE,
    NUM_ACTIONS,
    PASS,
    action_text,
    bid_tricks,
    is_suit_bid,
)
from fivehundred.errors import IllegalActionError
from fivehundred.game import PHASE_RULES, PHASES, HandState
from fivehundred.house_phases import HOUSE_PHASE_RULES
from fivehundred.rules import PRESETS, SWITCH, VARIANT_REGISTRY, Rules, make_rules

#: Every preset alone, and with each variant it accepts (switches on, each choice).
RULE_SETS: list[tuple[str, dict[str, Any]]] = [(preset, {}) for preset in PRESETS]
for _variant in VARIANT_REGISTRY:
    if _variant.kind == SWITCH:
        RULE_SETS += [(preset, {_variant.name: True}) for preset in _variant.presets()]
    else:
        RULE_SETS += [
            (preset, {_variant.name: option}) for option in _variant.options for preset in PRESETS
        ]
# the house rules that come together
RULE_SETS.append(("australian", {"wilkinson_misere": True, "misere_anytime": True}))
RULE_SETS.append(("australian", {"slam_call": True, "claim": True, "j5_no_trumps": True}))
RULE_SETS.append(("five_handed", {"partner_announces": True, "claim": True}))
#: The cases with house phases (drawn as often as all the others together).
HOUSE_PHASE_CASES = [
    case
    for case in RULE_SETS
    if case[0] == "five_handed" or {"slam_call", "open_eight", "draw_pack"} & set(case[1])
]


def _rules(case: tuple[str, dict[str, Any]]) -> Rules:
    return make_rules(*case)


def _choose(state: HandState, legal: list[int], rng: random.Random, sevens: float) -> int:
    """A random action; in the auction, with chance ``sevens``, a seven-level contract
    where one is legal and none is bid yet (slam_call asks after one), else a pass."""
    if state.phase == "auction" and rng.random() < sevens:
        seven = [a for a in legal if is_suit_bid(a) and bid_tricks(a) == 7]
        if seven and state.auction.contract < 0:
            return rng.choice(seven)
        if PASS in legal:
            return PASS
    return rng.choice([a for a in legal if a != CLAIM] or legal)


def test_every_phase_has_its_rules_once() -> None:
    assert set(PHASE_RULES) == set(PHASES)
    house = set(HOUSE_PHASE_RULES)
    assert house == {
        "draw",
        "table_kitty",
        "table_take",
        "table_discard",
        "slam",
        "slam_pass",
        "call",
    }
    for phase in house:
        assert PHASE_RULES[phase] is HOUSE_PHASE_RULES[phase]


def test_every_house_phase_is_reached_by_the_cases_played() -> None:
    """The cases below reach every phase (else the dispatch test would miss some)."""
    seen: set[str] = set()
    for index, case in enumerate(RULE_SETS):
        rules = _rules(case)
        for seed in range(3):
            rng = random.Random(f"{index}/{seed}")
            state = HandState.deal(rules, seed % rules.players, seed)
            while not state.is_over:
                seen.add(state.phase)
                state.apply(_choose(state, state.legal_actions(), rng, 1.0))
            seen.add(state.phase)
    assert seen == set(PHASES)


@settings(max_examples=150, deadline=None)
@given(
    case=st.sampled_from(RULE_SETS) | st.sampled_from(HOUSE_PHASE_CASES),
    seed=st.integers(0, 2**32 - 1),
)
def test_legal_actions_and_apply_dispatch_agree(
    case: tuple[str, dict[str, Any]], seed: int
) -> None:
    rules = _rules(case)
    rng = random.Random(seed)
    state = HandState.deal(rules, rng.randrange(rules.players), seed)
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, f"no legal action in {state!r}"
        assert len(set(legal)) == len(legal)
        # the hot path inlined in legal_actions is the table's
        assert PHASE_RULES[state.phase].legal(state) == legal
        # every action in the phases between auction and play (few decisions a hand); a
        # sample in those two
        everything = state.phase not in ("play", "auction")
        accepted = legal if everything else rng.sample(legal, min(3, len(legal)))
        for action in accepted:
            if action == CLAIM:
                continue  # judged by a search: played below when chosen
            child = state.clone()
            child.apply(action)
            assert child.history == [*state.history, action]
        refused = [a for a in range(NUM_ACTIONS) if a not in legal]
        if not everything:
            cards = [a for a in refused if a < JOKER_LEAD_BASE]
            refused = rng.sample(refused, 3) + rng.sample(cards, min(3, len(cards)))
        for action in refused:
            child = state.clone()
            with pytest.raises(IllegalActionError) as error:
                child.apply(action)
            assert error.value.rule.startswith("R-"), action_text(action)
            assert child.history == state.history
        state.apply(_choose(state, legal, rng, 0.8) if rng.random() < 0.9 else rng.choice(legal))
        while (forced := state.claim_next) is not None:  # a claim's play-out
            assert state.legal_actions() == [forced]
            state.apply(forced)
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError, match="the hand is over"):
        state.apply(0)
