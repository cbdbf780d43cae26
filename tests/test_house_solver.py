"""The double-dummy solver on the house rules' contracts (RULES.md §10, R-HOUSE), checked
against exhaustive minimax over HandState on small endings."""

from __future__ import annotations

import random

import pytest

from fivehundred.rules import make_rules
from fivehundred.solver import solve
from fivehundred.solver.reference import minimax
from fivehundred.solver.samples import random_position

J5 = make_rules("australian", {"j5_no_trumps": True})


@pytest.mark.parametrize("kind", ["nt", "nt_nominated"])
def test_j5_solver_matches_minimax(kind: str) -> None:
    """R-HOUSE j5_no_trumps: the jack on top, in the solver as in the engine."""
    rng = random.Random(f"house-j5/{kind}")
    checked = 0
    for _ in range(150):
        state = random_position(rng.randrange(10**6), kind, 3 + rng.randrange(2),
                                rng.randrange(4), J5)  # fmt: skip
        assert solve(state) == minimax(state)
        checked += 1
    assert checked == 150
