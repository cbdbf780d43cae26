"""A live table builds the public part of its views once for every seat (the spectator's
view) and only each seat's own facts per seat (web/views.py ``observation_json`` with
``public``): every seat must still receive exactly the view built from its own
observation alone, no more (hidden cards stay hidden) and no less."""

from __future__ import annotations

import random

import pytest

from fivehundred.rules import PRESETS, Rules, make_rules
from fivehundred.table import Table
from fivehundred.web import views

RULES = [
    *(make_rules(preset) for preset in sorted(PRESETS)),
    make_rules("two_handed", {"open_eight": True}),
    make_rules("two_handed", {"draw_pack": True}),
    make_rules("three_handed", {"dead_hand": True}),
    make_rules(
        "australian",
        {
            "hi_lo": True,
            "slam_call": True,
            "claim": True,
            "double_misere": True,
            "shields_double": True,
            "patastrophe": True,
            "blind_misere": True,
        },
    ),
    make_rules("australian", {"two_jokers": True}),
]


@pytest.mark.parametrize("rules", RULES, ids=lambda rules: rules.describe())
def test_a_view_built_on_the_public_one_is_the_seats_own_view(rules: Rules) -> None:
    for seed in range(4):
        table = Table(rules, ["human"] * rules.players, seed)
        rng = random.Random(seed)
        moves = 0
        while not table.is_over and moves < 250:
            public = views.observation_json(table, views.SPECTATOR)
            for seat in [views.SPECTATOR, *range(rules.players)]:
                alone = views.observation_json(table, seat)
                shared = views.observation_json(table, seat, public)
                assert shared == alone, (seed, moves, seat)
                # (and the keys that differ from the public view are the seat's own only)
                differ = {key for key in alone if alone[key] != public.get(key)}
                assert differ <= {*views.SEAT_KEYS, "own_hand"}, differ
            table.apply(table.seat_to_move, rng.choice(table.legal_actions()))
            moves += 1
