"""The solver's quick-trick cut-off (a trick start: the tricks the side on lead can cash at
once, by the leader's own top cards or, after an entry, by a partner's) changes no value:
the values with it equal those of the same search without it on whole hands and mid-hand
positions of every player count, and exhaustive minimax's where the cut-off fires."""

from __future__ import annotations

import random

import numpy as np
import pytest

from fivehundred.game import PLAY, HandState
from fivehundred.rules import Rules, make_rules
from fivehundred.solver import Position, card_values
from fivehundred.solver import engine as E
from fivehundred.solver.position import table
from fivehundred.solver.reference import minimax, minimax_values
from fivehundred.solver.samples import HOUSE_RULES, random_position

#: The contracts the cut-off applies to (misère has bounds of its own), with the preset
#: each is played under: every player count, partners of two and three, two jokers.
_CASES = [
    ("suit", "australian"),
    ("nt", "australian"),
    ("nt_nominated", "australian"),
    ("suit", "three_handed"),
    ("nt", "three_handed"),
    ("suit", "five_handed"),
    ("nt", "five_handed"),
    ("suit", "six_handed"),
    ("nt", "six_handed"),
    ("nt", "french_canadian"),  # two jokers
    ("suit", "french_canadian"),
    ("hi_lo", "australian+house"),
]


def _rules(preset: str, rng: random.Random) -> Rules:
    if preset == "australian+house":
        return HOUSE_RULES
    return make_rules(preset, {"joker_lead_not_renounced": rng.random() < 0.25})


def _search(pos: Position, quick: bool) -> tuple[int, list[tuple[int, int]], int]:
    """(value, every move's value, nodes) of ``pos``, the quick-trick cut-off on or off."""
    t = table()
    h, st = pos.packed()
    st[E.S_GEN] = t.next_gen()
    st[E.S_NOQUICK] = int(not quick)
    left = pos.tricks_left
    value = int(E.solve_dense(h, st, t.buf, t.keys, t.check, 0, left, int(st[E.S_TCOUNT])))
    nodes = int(st[E.S_NODES])
    h, st = pos.packed()
    st[E.S_GEN] = t.next_gen()
    st[E.S_NOQUICK] = int(not quick)
    moves = np.zeros(2 * E.MAX_MOVES, np.int64)
    values = np.zeros(E.MAX_MOVES, np.int64)
    n = E.move_values_dense(h, st, t.buf, t.keys, t.check, moves, values)
    return value, sorted(zip(moves[:n].tolist(), values[:n].tolist(), strict=True)), nodes


def _positions(
    count: int, salt: str, tricks: tuple[int, ...]
) -> list[tuple[str, str, HandState, Position]]:
    rng = random.Random(f"solver-quick/{salt}")
    out = []
    while len(out) < count:
        kind, preset = _CASES[len(out) % len(_CASES)]
        rules = _rules(preset, rng)
        seed = rng.randrange(10**6)
        left = rng.choice(tricks)
        if rules.players >= 5:  # their whole hands can take the search minutes
            left = min(left, 7)
        try:
            in_trick = 0 if left == 10 else rng.randrange(rules.players)
            state = random_position(seed, kind, left, in_trick, rules)
            while state.phase != PLAY:  # five players: the partner's card is called first
                state.apply(rng.choice(state.legal_actions()))
        except ValueError:  # a contract this preset does not allow
            continue
        out.append((kind, preset, state, Position.from_state(state)))
    return out


def test_quick_tricks_change_no_value() -> None:
    """720 positions (60 of each contract and preset: whole hands and two to nine tricks
    left, at most seven for five and six players, a trick in progress or not): the value
    and every move's value with the cut-off equal those without it, and in no trumps it
    cuts the search."""
    mismatches = []
    nodes = {True: 0, False: 0}
    for kind, preset, _, pos in _positions(720, "values", (2, 3, 4, 5, 6, 7, 8, 9, 10)):
        with_cut = _search(pos, True)
        without = _search(pos, False)
        if with_cut[:2] != without[:2]:
            mismatches.append((kind, preset, pos.tricks_left))
        if kind == "nt" and preset == "australian":
            nodes[True] += with_cut[2]
            nodes[False] += without[2]
    assert not mismatches, mismatches[:5]
    assert nodes[True] < 0.9 * nodes[False], nodes


@pytest.mark.parametrize(("tricks", "count"), [(3, 100), (4, 8)])
def test_quick_tricks_match_minimax_where_they_cut(tricks: int, count: int) -> None:
    """Positions of three tricks (every preset) and of four (three and four players) on
    which the cut-off fires (fewer nodes with it): the value and every action's value
    equal exhaustive minimax's."""
    checked = 0
    mismatches = []
    for kind, preset, state, pos in _positions(40 * count, f"minimax/{tricks}", (tricks,)):
        if checked == count:
            break
        if tricks == 4 and len(state.active) > 4:
            continue
        value, _, nodes = _search(pos, True)
        if nodes >= _search(pos, False)[2]:
            continue
        if minimax(state) != pos.won + value:
            mismatches.append((kind, preset, "value"))
        if card_values(state) != minimax_values(state):
            mismatches.append((kind, preset, "actions"))
        checked += 1
    assert checked == count
    assert not mismatches, mismatches[:5]
