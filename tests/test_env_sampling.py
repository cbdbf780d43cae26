"""Resampled deals (what ISMCTS searches over): the same history, the same view."""

from __future__ import annotations

import random

import pytest

from fivehundred.env.sampling import resample
from fivehundred.game import HandState
from fivehundred.rules import make_rules


@pytest.mark.parametrize(
    ("preset", "variants"),
    [("australian", {}), ("australian", {"two_jokers": True}), ("american", {}),
     ("three_handed", {}), ("five_handed", {}), ("six_handed", {})],
)  # fmt: skip
def test_resampled_deals_keep_the_seat_view_and_move_the_rest(
    preset: str, variants: dict[str, object]
) -> None:
    rules = make_rules(preset, variants)
    rng = random.Random(11)
    moved = 0
    for seed in range(25):
        state = HandState.deal(rules, seed % rules.players, seed=seed)
        for _ in range(rng.randrange(60)):
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        for seat in range(rules.seats):
            other = resample(state, seat, rng)
            assert other.observation(seat) == state.observation(seat)
            assert other.phase == state.phase and other.to_move == state.to_move
            assert other.hands[seat] == state.hands[seat]
            moved += any(other.hands[s] != state.hands[s] for s in range(rules.seats))
    assert moved > 0


def test_two_player_dummies_are_refused() -> None:
    state = HandState.deal(make_rules("two_handed"), 0, seed=1)
    with pytest.raises(ValueError, match="dummies"):
        resample(state, 0, random.Random(1))
