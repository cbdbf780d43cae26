"""The double-dummy solver against the pure-Python engine (exhaustive minimax over
HandState) on small positions of every contract, and against DDS (endplay) on suit
contracts with the 500 trump order mapped onto bridge ranks."""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

from fivehundred.rules import make_rules
from fivehundred.solver import (
    Position,
    can_reach,
    card_values,
    random_playouts,
    solve,
    solve_position,
)
from fivehundred.solver import engine as E
from fivehundred.solver.reference import minimax, minimax_values
from fivehundred.solver.samples import KINDS, random_position, start_of_play

NOT_RENOUNCED = make_rules("australian", {"joker_lead_not_renounced": True})


def _positions(
    count: int, tricks_left: int, salt: int, kinds: tuple[str, ...] = KINDS
) -> list[tuple[str, int, object]]:
    rng = random.Random(f"solver-test/{tricks_left}/{salt}")
    out = []
    for index in range(count):
        kind = kinds[index % len(kinds)]
        rules = NOT_RENOUNCED if index % 7 == 3 else None
        seed = rng.randrange(10**6)
        state = random_position(seed, kind, tricks_left, rng.randrange(4), rules)
        out.append((kind, seed, state))
    return out


@pytest.mark.parametrize(
    ("tricks_left", "count", "kinds"),
    [
        (3, 2000, KINDS),
        (4, 50, KINDS),
        (5, 8, ("misere", "open_misere")),  # three hands: exhaustive search stays affordable
    ],
)
def test_solve_matches_exhaustive_minimax(
    tricks_left: int, count: int, kinds: tuple[str, ...]
) -> None:
    mismatches = []
    for kind, seed, state in _positions(count, tricks_left, 1, kinds):
        expected = minimax(state)  # type: ignore[arg-type]
        got = solve(state)  # type: ignore[arg-type]
        if got != expected:
            mismatches.append((kind, seed, got, expected))
    assert not mismatches, mismatches[:5]


def _solve_dense(pos: Position, exact: bool) -> tuple[int, int]:
    """(value, nodes) of a full solve, the table keyed on every card when ``exact``."""
    from fivehundred.solver.position import table

    t = table()
    h, st = pos.packed()
    st[E.S_GEN] = t.next_gen()
    st[E.S_EXACT] = int(exact)
    value = E.solve_dense(h, st, t.buf, t.keys, t.check, 0, pos.tricks_left, int(st[E.S_TCOUNT]))
    return int(value), int(st[E.S_NODES])


def test_relevant_rank_entries_match_exact_entries() -> None:
    """Table entries that ignore the small cards below each suit's relevant ranks (shared
    by every position with the same shape and the same owners of the cards above) give
    the values of entries keyed on every card, on whole hands and on positions in mid
    trick of every contract kind, and they do share: fewer nodes overall."""
    rng = random.Random("solver-test/relevant")
    shared_nodes = exact_nodes = 0
    for index in range(50):
        kind = KINDS[index % len(KINDS)]
        seed = rng.randrange(10**6)
        rules = NOT_RENOUNCED if index % 7 == 3 else None
        if index % 2 == 0:
            state = start_of_play(seed, kind, rules)
        else:
            state = random_position(seed, kind, 5 + index % 4, rng.randrange(4), rules)
        pos = Position.from_state(state)
        shared, n_shared = _solve_dense(pos, False)
        exact, n_exact = _solve_dense(pos, True)
        assert shared == exact, (kind, seed)
        shared_nodes += n_shared
        exact_nodes += n_exact
    assert shared_nodes < exact_nodes


def test_generic_kernel_matches_the_bit_instruction_kernel() -> None:
    """The search compiled for any CPU (software ``pext``/``pdep``, popcount, ...) gives the
    values and searches the very nodes of the one compiled for x86-64 CPUs with BMI2."""
    from fivehundred.solver import _kernel

    if _kernel.set_variant(True) != "x86-64-v3":
        pytest.skip("this CPU runs the generic kernel only")
    rng = random.Random("solver-test/variants")
    try:
        for index in range(40):
            kind = KINDS[index % len(KINDS)]
            state = random_position(rng.randrange(10**6), kind, 4 + index % 7, rng.randrange(4))
            pos = Position.from_state(state)
            _kernel.set_variant(True)
            fast = _solve_dense(pos, False)
            assert _kernel.set_variant(False) == "generic"
            assert _solve_dense(pos, False) == fast, kind
    finally:
        _kernel.set_variant(True)


def test_free_and_nominated_jokers_are_covered() -> None:
    # the sample positions do hold jokers in play in each NT/misère flavour
    kinds_with_free = set()
    for kind, _, state in _positions(200, 4, 2):
        pos = Position.from_state(state)  # type: ignore[arg-type]
        if pos.free_jokers:
            kinds_with_free.add(kind)
    assert {"nt", "misere", "open_misere"} <= kinds_with_free


def test_card_values_and_targets_match_minimax() -> None:
    for kind, seed, state in _positions(150, 3, 3):
        expected = minimax_values(state)  # type: ignore[arg-type]
        assert card_values(state) == expected, (kind, seed)  # type: ignore[arg-type]
        value = minimax(state)  # type: ignore[arg-type]
        for target in range(11):
            assert can_reach(state, target) == (value >= target)  # type: ignore[arg-type]


def test_misere_move_values_match_minimax() -> None:
    """The lone misère contractor's move values (each searched first at one trick) on
    positions of four tricks, the contractor to move or a defender, a trick in progress
    or not: every action's value equals exhaustive minimax's."""
    mismatches = []
    for kind, seed, state in _positions(120, 4, 4, ("misere", "open_misere")):
        expected = minimax_values(state)  # type: ignore[arg-type]
        got = card_values(state)  # type: ignore[arg-type]
        if got != expected:
            mismatches.append((kind, seed, got, expected))
    assert not mismatches, mismatches[:5]


def test_misere_counts_the_contractor_alone() -> None:
    state = start_of_play(5, "misere")
    assert len(state.active) == 3
    total = solve(state)
    assert 0 <= total <= 10
    values = card_values(state)
    assert set(values) == set(state.legal_actions())
    # the contractor (to move at the first lead) minimises
    assert total == min(values.values())


def test_full_hand_values_are_consistent() -> None:
    for kind in ("suit", "nt", "misere"):
        state = start_of_play(11, kind)
        value = solve(state)
        assert can_reach(state, value) and not can_reach(state, value + 1)
        values = card_values(state)
        wants_more = (state.to_move == state.contractor) != state.is_misere
        assert value == (max(values.values()) if wants_more else min(values.values()))


def test_playouts_are_seeded_and_legal() -> None:
    state = random_position(3, "nt", 6, 1)
    first = random_playouts(state, 500, seed=9)
    again = random_playouts(state, 500, seed=9)
    other = random_playouts(state, 500, seed=10)
    assert (first == again).all() and not (first == other).all()
    pos = Position.from_state(state)
    assert first.min() >= pos.won and first.max() <= pos.won + pos.tricks_left
    # a random playout cannot beat best play for the contracting side against best defence
    # on every deal, but its results must bracket the double-dummy value's neighbourhood
    assert first.min() <= solve(state) + pos.tricks_left


def test_playouts_match_python_random_play() -> None:
    """Mean of compiled playouts ≈ mean of uniformly random play with HandState."""
    state = random_position(4, "misere", 5, 1)
    compiled = random_playouts(state, 4000, seed=1).mean()
    rng = random.Random(1)
    seats = (state.contractor,)
    totals = []
    for _ in range(1500):
        s = state.clone()
        while not s.is_over:
            s.apply(rng.choice(s.legal_actions()))
        totals.append(sum(s.tricks_won[x] for x in seats))
    python = sum(totals) / len(totals)
    assert abs(compiled - python) < 0.15


def test_rejects_positions_outside_play() -> None:
    state = start_of_play(1, "suit")
    from fivehundred.game import HandState

    fresh = HandState.deal(state.rules, 0, seed=1)
    with pytest.raises(ValueError, match="play-phase"):
        solve(fresh)


def test_missing_kernel_gives_a_clear_import_error() -> None:
    """Where the C kernel was not built at install, importing the solver says so in one
    line (what is missing and how to get it), and numba plays no part."""
    code = (
        "import sys; sys.modules['fivehundred.solver._kernel'] = None\n"
        "sys.modules['numba'] = None\n"
        "try:\n    import fivehundred.solver\nexcept ImportError as e:\n    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.count("\n") == 1
    assert "C kernel (fivehundred.solver._kernel) was not built" in out.stdout
    assert "C compiler" in out.stdout


def test_the_solver_needs_no_numba() -> None:
    code = "import sys; sys.modules['numba'] = None\nimport fivehundred.solver\n"
    code += "from fivehundred.solver import solve\nfrom fivehundred.solver.samples import start_of_play\n"
    code += "print(solve(start_of_play(3, 'nt')))\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert 0 <= int(out.stdout) <= 10


# ----------------------------------------------------------------------------- endplay
endplay = pytest.importorskip("endplay")


def to_bridge_deal(pos: Position):  # type: ignore[no-untyped-def]
    """A suit-contract trick-start position as an endplay Deal: each effective suit's cards
    in play, in 500 power order (joker, right bower, left bower, A, K, ...), take the bridge
    ranks from the ace down; seats 0-3 are N E S W (partners opposite in both games)."""
    from endplay.types import Deal, Denom, Player

    assert pos.st[E.S_TCOUNT] == 0 and pos.st[E.S_TRUMP] >= 0 and len(pos.seats) == 4
    letters = "AKQJT98765432"
    pbn_order = (0, 3, 2, 1)  # PBN suits S H D C; ours S C D H
    hands = []
    for j in range(4):
        per_suit = {s: [] for s in range(4)}
        for s in range(4):
            block = [i for i in range(len(pos.cards)) if pos.csuit[i] == s]
            block.sort(reverse=True)
            assert len(block) <= 13
            for place, i in enumerate(block):
                if int(pos.h[j]) >> i & 1:
                    per_suit[s].append(letters[place])
        hands.append(".".join("".join(per_suit[s]) for s in pbn_order))
    deal = Deal("N:" + " ".join(hands))
    deal.first = Player(int(pos.st[E.S_TOMOVE]))
    deal.trump = (Denom.spades, Denom.clubs, Denom.diamonds, Denom.hearts)[int(pos.st[E.S_TRUMP])]
    return deal


def endplay_value(pos: Position) -> int:
    """Contracting side's total by DDS."""
    from endplay.dds import solve_board
    from endplay.dds.solve import SolveMode

    deal = to_bridge_deal(pos)
    best = max(tricks for _, tricks in solve_board(deal, SolveMode.OptimalOne))
    leader = int(pos.st[E.S_TOMOVE])
    further = best if pos.side[leader] == 1 else pos.tricks_left - best
    return pos.won + further


def test_suit_contracts_match_dds() -> None:
    checked = 0
    for seed in range(12):
        state = start_of_play(seed, "suit")
        rng = random.Random(seed)
        for _ in range(3):
            pos = Position.from_state(state)
            assert solve_position(pos) == endplay_value(pos), seed
            checked += 1
            # play a random trick and compare again
            for _ in range(4):
                state.apply(rng.choice(state.legal_actions()))
    assert checked == 36


def test_misere_bounds_match_minimax_on_many_positions() -> None:
    """The misère contractor's early bounds (held to nothing / forced to win) fire most in
    the last tricks: compare with exhaustive minimax on many short misère positions."""
    mismatches = []
    for kind, seed, state in _positions(200, 4, 2, ("misere", "open_misere")):
        expected = minimax(state)  # type: ignore[arg-type]
        got = solve(state)  # type: ignore[arg-type]
        if got != expected:
            mismatches.append((kind, seed, got, expected))
    assert not mismatches, mismatches[:5]


# ----------------------------------------------------------------------------- every contract
def _every_kind_positions(count: int) -> list[tuple[str, str, int, object]]:
    """Seeded short positions of every contract kind (the house contracts too) and every
    preset's player count, a trick in progress or not."""
    from fivehundred.rules import PRESETS
    from fivehundred.solver.samples import HOUSE_KINDS, HOUSE_RULES

    rng = random.Random("solver-test/every-kind")
    out = []
    presets = [p for p in PRESETS if p != "two_handed"]  # two-handed: see test_solver_analyse
    for index in range(count):
        kind = (KINDS + HOUSE_KINDS)[index % (len(KINDS) + len(HOUSE_KINDS))]
        if kind in HOUSE_KINDS:
            preset, rules = "australian+house", HOUSE_RULES
        else:
            preset = presets[index // 9 % len(presets)]
            rules = make_rules(preset, {"joker_lead_not_renounced": index % 4 == 1})
        seed = rng.randrange(10**6)
        tricks = 2 if rules.players >= 5 else 3  # exhaustive search stays affordable
        try:
            state = random_position(seed, kind, tricks, rng.randrange(5), rules)
        except ValueError:  # a contract this preset does not allow
            continue
        out.append((kind, preset, seed, state))
    return out


def test_every_contract_kind_and_player_count_matches_minimax() -> None:
    """The compiled solver (both of its builds) against exhaustive minimax over the rules
    engine: values of the position and of every legal action, for every contract kind and
    every preset's number of players."""
    from fivehundred.solver import _kernel

    variants = [True, False] if _kernel.set_variant(True) == "x86-64-v3" else [False]
    seen_kinds = set()
    seen_players = set()
    mismatches = []
    try:
        for kind, preset, seed, state in _every_kind_positions(180):
            expected = minimax(state)  # type: ignore[arg-type]
            expected_values = minimax_values(state)  # type: ignore[arg-type]
            for v3 in variants:
                _kernel.set_variant(v3)
                got = (solve(state), card_values(state))  # type: ignore[arg-type]
                if got != (expected, expected_values):
                    mismatches.append((kind, preset, seed, v3))
            seen_kinds.add(kind)
            seen_players.add(len(state.active))  # type: ignore[attr-defined]
    finally:
        _kernel.set_variant(True)
    assert not mismatches, mismatches[:5]
    assert seen_kinds == set(KINDS) | {"hi_lo", "double_misere", "shields_double", "patastrophe"}
    assert {3, 4, 5, 6} <= seen_players
