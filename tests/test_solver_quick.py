"""The solver's quick-trick cut-offs change no value: at a trick start, the tricks the side
on lead can cash at once (by the leader's own top cards or, after an entry, by a
partner's); in a trick in progress, the trick itself when it is the one trick a side needs
(the side whose best card beats all the other side can play takes it). The values with
each equal those of the same search without it on whole hands and mid-hand positions of
every player count, and exhaustive minimax's where the cut-off fires."""

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


#: ``S_NOQUICK`` values: every cut-off on, the trick start's off, the trick in progress's off.
_ON, _NO_START, _NO_TRICK = 0, 1, 2


def _search(pos: Position, off: int, exact: bool = False) -> tuple[int, list[tuple[int, int]], int]:
    """(value, every move's value, nodes of both searches) of ``pos``, the cut-offs
    ``off`` names (``S_NOQUICK``) left out, the table keyed on every card when ``exact``
    (else on the relevant ranks the cut-offs report)."""
    t = table()
    h, st = pos.packed()
    st[E.S_GEN] = t.next_gen()
    st[E.S_NOQUICK] = off
    st[E.S_EXACT] = int(exact)
    left = pos.tricks_left
    value = int(E.solve_dense(h, st, t.buf, t.keys, t.check, 0, left, int(st[E.S_TCOUNT])))
    nodes = int(st[E.S_NODES])
    h, st = pos.packed()
    st[E.S_GEN] = t.next_gen()
    st[E.S_NOQUICK] = off
    st[E.S_EXACT] = int(exact)
    moves = np.zeros(2 * E.MAX_MOVES, np.int64)
    values = np.zeros(E.MAX_MOVES, np.int64)
    n = E.move_values_dense(h, st, t.buf, t.keys, t.check, moves, values)
    nodes += int(st[E.S_NODES])
    return value, sorted(zip(moves[:n].tolist(), values[:n].tolist(), strict=True)), nodes


def _positions(
    count: int, salt: str, tricks: tuple[int, ...], cases: list[tuple[str, str]] = _CASES
) -> list[tuple[str, str, HandState, Position]]:
    rng = random.Random(f"solver-quick/{salt}")
    out = []
    while len(out) < count:
        kind, preset = cases[len(out) % len(cases)]
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
    and every move's value with the cut-off equal those without it, and those with it and
    the table keyed on every card, and in no trumps it cuts the search."""
    mismatches = []
    nodes = {True: 0, False: 0}
    for kind, preset, _, pos in _positions(720, "values", (2, 3, 4, 5, 6, 7, 8, 9, 10)):
        with_cut = _search(pos, _ON)
        without = _search(pos, _NO_START)
        exact = _search(pos, _ON, exact=True)
        if not with_cut[:2] == without[:2] == exact[:2]:
            mismatches.append((kind, preset, pos.tricks_left))
        if kind == "nt" and preset == "australian":
            nodes[True] += with_cut[2]
            nodes[False] += without[2]
    assert not mismatches, mismatches[:5]
    assert nodes[True] < 0.9 * nodes[False], nodes


@pytest.mark.parametrize(("count", "tricks"), [(3000, (3, 4, 5)), (600, (6, 7, 8, 9))])
def test_trick_in_progress_changes_no_value(count: int, tricks: tuple[int, ...]) -> None:
    """Positions of each contract and preset, a trick in progress in most (at most seven
    tricks left for five and six players): the value and every move's value with the trick
    in progress's cut-off equal those without it, and those with it and the table keyed on
    every card (the cards it reports as relevant are enough); it cuts the search in suit
    contracts and in no trumps."""
    mismatches = []
    nodes = {kind: {True: 0, False: 0} for kind in ("suit", "nt")}
    for kind, preset, _, pos in _positions(count, f"trick/{count}", tricks):
        with_cut = _search(pos, _ON)
        without = _search(pos, _NO_TRICK)
        exact = _search(pos, _ON, exact=True)
        if not with_cut[:2] == without[:2] == exact[:2]:
            mismatches.append((kind, preset, pos.tricks_left))
        if kind in nodes:
            nodes[kind][True] += with_cut[2]
            nodes[kind][False] += without[2]
    assert not mismatches, mismatches[:5]
    for kind, counts in nodes.items():
        assert counts[True] < 0.95 * counts[False], (kind, counts)


@pytest.mark.parametrize(
    ("tricks", "count", "off"),
    [(3, 100, _NO_START), (4, 8, _NO_START), (3, 100, _NO_TRICK), (4, 8, _NO_TRICK)],
)
def test_quick_tricks_match_minimax_where_they_cut(tricks: int, count: int, off: int) -> None:
    """Positions of three tricks (every preset) and of four (three and four players) on
    which a cut-off fires (fewer nodes with it than with it off: the trick start's, the
    trick in progress's): the value and every action's value equal exhaustive minimax's."""
    checked = 0
    mismatches = []
    for kind, preset, state, pos in _positions(40 * count, f"minimax/{tricks}/{off}", (tricks,)):
        if checked == count:
            break
        if tricks == 4 and len(state.active) > 4:
            continue
        value, _, nodes = _search(pos, _ON)
        if nodes >= _search(pos, off)[2]:
            continue
        if minimax(state) != pos.won + value:
            mismatches.append((kind, preset, "value"))
        if card_values(state) != minimax_values(state):
            mismatches.append((kind, preset, "actions"))
        checked += 1
    assert checked == count
    assert not mismatches, mismatches[:5]


#: ``S_NOQUICK`` bits of the trick start's bounds: DDS's later tricks (a side that needs
#: every trick left, no power card out, short of it by its longest holdings in the suits
#: whose top it holds), the sure tricks of two hands each holding one of the top trumps.
_NO_LATER, _NO_TWO_HANDS = 4, 8


@pytest.mark.parametrize("off", [_NO_LATER, _NO_TWO_HANDS])
def test_later_tricks_change_no_value(off: int) -> None:
    """1,200 positions of every contract and preset (two to ten tricks left, at most seven
    for five and six players, a trick in progress or not): the value and every move's
    value with the bound equal those without it, and those with it and the table keyed on
    every card (the cards it reports as relevant are enough); it cuts the search in suit
    contracts, and the later tricks in no trumps too."""
    mismatches = []
    nodes = {kind: {True: 0, False: 0} for kind in ("suit", "nt")}
    for kind, preset, _, pos in _positions(1200, f"later/{off}", (2, 3, 4, 5, 6, 7, 8, 9, 10)):
        with_cut = _search(pos, _ON)
        without = _search(pos, off)
        exact = _search(pos, _ON, exact=True)
        if not with_cut[:2] == without[:2] == exact[:2]:
            mismatches.append((kind, preset, pos.tricks_left))
        if kind in nodes:
            nodes[kind][True] += with_cut[2]
            nodes[kind][False] += without[2]
    assert not mismatches, mismatches[:5]
    assert nodes["suit"][True] < nodes["suit"][False], nodes
    if off == _NO_LATER:
        assert nodes["nt"][True] < 0.97 * nodes["nt"][False], nodes


@pytest.mark.parametrize(("tricks", "count"), [(3, 100), (4, 5)])
@pytest.mark.parametrize("off", [_NO_LATER, _NO_TWO_HANDS])
def test_later_tricks_match_minimax_where_they_cut(tricks: int, count: int, off: int) -> None:
    """Positions of three tricks (every preset) and of four (three and four players) on
    which the bound fires (fewer nodes with it than without): the value and every action's
    value equal exhaustive minimax's."""
    checked = 0
    mismatches = []
    for kind, preset, state, pos in _positions(80 * count, f"later-mm/{tricks}/{off}", (tricks,)):
        if checked == count:
            break
        if tricks == 4 and len(state.active) > 4:
            continue
        value, _, nodes = _search(pos, _ON)
        if nodes >= _search(pos, off)[2]:
            continue
        if minimax(state) != pos.won + value:
            mismatches.append((kind, preset, "value"))
        if card_values(state) != minimax_values(state):
            mismatches.append((kind, preset, "actions"))
        checked += 1
    assert checked == count
    assert not mismatches, mismatches[:5]


#: ``S_NOQUICK`` bits of the misère bounds (a lone contractor's fate in the trick in
#: progress, and in the next one at a trick start: it must take it, or it cannot; and in
#: the next two: a defender keeps a card above its lowest through this trick), and the
#: misère contracts of every player count.
_NO_MISERE_TRICK, _NO_MISERE_NEXT, _NO_MISERE_TWO = 16, 32, 64
_MISERE_CASES = [
    ("misere", "australian"),
    ("open_misere", "australian"),
    ("misere", "three_handed"),
    ("open_misere", "three_handed"),
    ("misere", "six_handed"),
    ("misere", "french_canadian"),  # two jokers
    ("double_misere", "australian+house"),  # two contractors: the bound stays off
]


@pytest.mark.parametrize("off", [_NO_MISERE_TRICK, _NO_MISERE_NEXT, _NO_MISERE_TWO])
def test_misere_trick_changes_no_value(off: int) -> None:
    """1,200 misère positions of three, four and six players (two to eight tricks left, at
    most seven for six players, a trick in progress in most): the value and every move's
    value with the misère bound equal those without it, and those with it and the table
    keyed on every card; it cuts the search."""
    mismatches = []
    nodes = {True: 0, False: 0}
    cases = _MISERE_CASES
    for kind, preset, _, pos in _positions(1200, f"misere/{off}", (2, 3, 4, 5, 6, 7, 8), cases):
        with_cut = _search(pos, _ON)
        without = _search(pos, off)
        exact = _search(pos, _ON, exact=True)
        if not with_cut[:2] == without[:2] == exact[:2]:
            mismatches.append((kind, preset, pos.tricks_left))
        nodes[True] += with_cut[2]
        nodes[False] += without[2]
    assert not mismatches, mismatches[:5]
    assert nodes[True] < 0.99 * nodes[False], nodes


@pytest.mark.parametrize(("tricks", "count"), [(3, 100), (4, 10)])
@pytest.mark.parametrize("off", [_NO_MISERE_TRICK, _NO_MISERE_NEXT, _NO_MISERE_TWO])
def test_misere_trick_matches_minimax_where_it_cuts(tricks: int, count: int, off: int) -> None:
    """Misère positions of three tricks (three, four and six players) and of four (three
    and four players) on which the cut-off fires: the value and every action's value equal
    exhaustive minimax's."""
    checked = 0
    mismatches = []
    for kind, preset, state, pos in _positions(
        100 * count, f"misere-mm/{tricks}/{off}", (tricks,), _MISERE_CASES
    ):
        if checked == count:
            break
        if tricks == 4 and len(state.active) > 4:
            continue
        value, _, nodes = _search(pos, _ON)
        if nodes >= _search(pos, off)[2]:
            continue
        if minimax(state) != pos.won + value:
            mismatches.append((kind, preset, "value"))
        if card_values(state) != minimax_values(state):
            mismatches.append((kind, preset, "actions"))
        checked += 1
    assert checked == count
    assert not mismatches, mismatches[:5]
