"""Resampled deals (what ISMCTS searches over): the same history, the same view."""

from __future__ import annotations

import random

import pytest

from fivehundred.env.sampling import resample
from fivehundred.game import HandState, controller_of, dummy_seats
from fivehundred.rules import PRESETS, make_rules

CONFIGS = [(preset, {}) for preset in PRESETS] + [
    ("australian", {"two_jokers": True}),
    ("australian", {"ralphing": True, "slam_call": True}),
    ("three_handed", {"dead_hand": True}),
    ("two_handed", {"dead_hand": True}),
]


@pytest.mark.parametrize(("preset", "variants"), CONFIGS)
def test_resampled_deals_keep_the_seat_view_and_move_the_rest(
    preset: str, variants: dict[str, object]
) -> None:
    rules = make_rules(preset, variants)
    rng = random.Random(11)
    moved = 0
    for seed in range(20):
        state = HandState.deal(rules, seed % rules.players, seed=seed)
        for _ in range(rng.randrange(60)):
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        for seat in range(rules.seats):
            player = controller_of(rules, seat)
            if player >= rules.players:
                continue  # a dead hand: nobody's view
            other = resample(state, seat, rng)
            # everything the player knows: the views of every seat it decides for (with
            # two players its dummy's too: the face-up cards, its own hand)
            for own in [player] + [
                d for d in dummy_seats(rules) if controller_of(rules, d) == player
            ]:
                assert other.observation(own) == state.observation(own), (seed, seat, own)
                assert (
                    other.hands[own] & other.face_up[own] == state.hands[own] & state.face_up[own]
                )
            assert other.hands[player] == state.hands[player]
            assert other.phase == state.phase and other.to_move == state.to_move
            assert other.legal_actions() == state.legal_actions() or state.to_move not in (
                player,
                *(d for d in dummy_seats(rules) if controller_of(rules, d) == player),
            )
            assert len(other.history) == len(state.history)
            moved += any(other.hands[s] != state.hands[s] for s in range(rules.seats))
    assert moved > 0  # the hidden cards really are dealt anew


def test_two_player_face_down_cards_are_dealt_anew() -> None:
    """With two players the dummies' face-down cards are hidden from both players (their
    own dummy's too) and are resampled; the face-up ones stay."""
    rules = make_rules("two_handed")
    state = HandState.deal(rules, 0, seed=5)
    changed = 0
    for attempt in range(10):
        other = resample(state, 0, random.Random(attempt))
        for dummy in dummy_seats(rules):
            assert other.face_up[dummy] == state.face_up[dummy]
            changed += other.hands[dummy] != state.hands[dummy]
        assert other.hands[0] == state.hands[0]
    assert changed > 0


@pytest.mark.parametrize("variant", ["draw_pack", "open_eight"])
def test_drawn_and_open_eight_games_are_refused(variant: str) -> None:
    state = HandState.deal(make_rules("two_handed", {variant: True}), 0, seed=1)
    with pytest.raises(ValueError, match="draw_pack and open_eight"):
        resample(state, 0, random.Random(1))
