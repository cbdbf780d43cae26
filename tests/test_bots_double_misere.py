"""R-HOUSE double misère (and Shields double, patastrophe): both players of the contracting
side play and neither may take a trick. The bots' whole-hand solves and game chances must
seat the partner too; they made it sit out as in misère."""

from __future__ import annotations

import pytest

from conftest import fill_deal
from fivehundred.actions import DOUBLE_MISERE, HI_LO, MISERE, PATASTROPHE, SHIELDS_DOUBLE
from fivehundred.bots import counts, equity
from fivehundred.bots.simulate import play_out
from fivehundred.rules import make_rules
from fivehundred.solver import solve
from fivehundred.solver.samples import HOUSE_RULES, start_of_play

#: The contractor (seat 0) holds the lowest cards, its partner (seat 2) the highest: alone
#: the contractor takes nothing; with the partner playing, the side must take tricks.
LOW = "4D 4H 5S 5C 5D 5H 6S 6C 6D 6H"
HIGH = "JK AS KS QS AC KC QC AD KD AH"


def test_the_partner_plays_double_misere_in_the_bots_solve() -> None:
    rules = make_rules("australian", {"double_misere": True})
    hands, _ = fill_deal(rules, {0: LOW, 2: HIGH})
    assert play_out(rules, 3, 0, MISERE, hands) == 0  # misère: the partner sits out
    assert play_out(rules, 3, 0, DOUBLE_MISERE, hands) > 0  # its high cards win tricks


@pytest.mark.parametrize("kind", ["double_misere", "shields_double", "patastrophe"])
def test_the_bots_solve_is_the_engines_own(kind: str) -> None:
    """From the first lead, the bots' solve of the contract is the solver's solve of the
    engine's own position (whose active seats and partners follow the rules)."""
    for seed in range(3):
        state = start_of_play(seed, kind, HOUSE_RULES)
        assert state.partners
        got = play_out(HOUSE_RULES, state.dealer, state.contractor, state.contract, state.hands)
        assert got == solve(state), (kind, seed)


def test_the_partner_counts_in_the_game_chances() -> None:
    """equity: the partner is a partner in double misère (not in misère or hi/lo)."""
    rules = HOUSE_RULES
    scores = (0, 0)
    for contract, alone in (
        (MISERE, True),
        (HI_LO, True),
        (DOUBLE_MISERE, False),
        (SHIELDS_DOUBLE, False),
        (PATASTROPHE, False),
    ):
        assert counts.contract_seats(rules, 0, contract, [0] * 4)[1] == (
            (0,) if alone else (0, 2)
        ), contract
        assert equity.contract_partners(rules, contract, 0) == (() if alone else (2,)), contract
    assert equity.Equity(rules, scores, 0).outcome(DOUBLE_MISERE, 0, 0)[0] > 0.5
