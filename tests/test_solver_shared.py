"""The solver's table shared by the solves of one scope (the sampled deals of a decision):
the values are those of separate solves and of exhaustive minimax, and the scope shares."""

from __future__ import annotations

import random

import pytest

import fivehundred.solver as solver
from fivehundred.bots import make_player
from fivehundred.cards import iter_cards
from fivehundred.game import HandState
from fivehundred.rules import make_rules
from fivehundred.solver import (
    Position,
    nodes_searched,
    shared_table,
    table_hits,
    values_position,
)
from fivehundred.solver.reference import minimax_values
from fivehundred.solver.samples import KINDS, random_position

NOT_RENOUNCED = make_rules("australian", {"joker_lead_not_renounced": True})


def _resampled(state: HandState, rng: random.Random) -> HandState:
    """The position with the cards of every hand but the mover's dealt again among those
    hands (their sizes kept), as a search-based player samples the hands it cannot see."""
    seats = [s for s in state.active if s != state.to_move]
    pool = [c for s in seats for c in iter_cards(state.hands[s])]
    rng.shuffle(pool)
    deal = state.clone()
    for seat in seats:
        size = state.hands[seat].bit_count()
        deal.hands[seat] = sum(1 << c for c in pool[:size])
        pool = pool[size:]
    return deal


@pytest.mark.parametrize(("tricks_left", "count"), [(3, 120), (4, 12)])
def test_shared_solves_match_minimax_and_separate_solves(tricks_left: int, count: int) -> None:
    """Decisions of every contract kind (the joker-lead variant too), each solved over
    sampled deals in one scope: each deal's values of every action equal exhaustive
    minimax's and those of a separate solve, and the scope searched fewer nodes, its table
    deciding more of them, than the separate solves."""
    rng = random.Random(f"solver-shared/{tricks_left}")
    mismatches = []
    nodes_shared = nodes_separate = hits_shared = hits_separate = 0
    for index in range(count):
        kind = KINDS[index % len(KINDS)]
        rules = NOT_RENOUNCED if index % 5 == 2 else None
        base = random_position(rng.randrange(10**6), kind, tricks_left, rng.randrange(4), rules)
        deals = [_resampled(base, rng) for _ in range(6)]
        separate = []
        for deal in deals:
            nodes, hits = nodes_searched(), table_hits()
            separate.append(values_position(Position.from_state(deal)))
            nodes_separate += nodes_searched() - nodes
            hits_separate += table_hits() - hits
        nodes, hits = nodes_searched(), table_hits()
        with shared_table():
            shared = [values_position(Position.from_state(deal)) for deal in deals]
        nodes_shared += nodes_searched() - nodes
        hits_shared += table_hits() - hits
        for deal, got, alone in zip(deals, shared, separate, strict=True):
            expected = minimax_values(deal)
            if got != expected or alone != expected:
                mismatches.append((kind, index, got, alone, expected))
    assert not mismatches, mismatches[:3]
    assert nodes_shared < nodes_separate
    assert hits_shared > hits_separate


def test_solves_of_other_settings_in_a_scope_keep_their_own_values() -> None:
    """One deal solved in one scope as every contract kind, with either side contracting:
    each solve's values equal a separate solve's (a setting's entries serve it alone)."""
    rng = random.Random("solver-shared/settings")
    for _ in range(6):
        seed = rng.randrange(10**6)
        positions = []
        for kind in KINDS:
            state = random_position(seed, kind, 5, rng.randrange(4))
            pos = Position.from_state(state)
            positions.append(pos)
            other = [s for s in state.active if s not in (state.contractor, *state.partners)]
            positions.append(
                Position.build(
                    state.ctx,  # type: ignore[arg-type]
                    state.active,
                    other,
                    state.hands,
                    state.to_move,
                    list(zip(state.trick_seats, state.trick_cards, strict=True)),
                    state.led_suit,
                    state.suits_led,
                    state.void_shown,
                )
            )
        separate = [values_position(p) for p in positions]
        with shared_table():
            shared = [values_position(p) for p in positions]
            again = [values_position(p) for p in positions]
        assert shared == separate
        assert again == separate


def test_pimc_decisions_give_the_values_of_separate_solves(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every sampled deal of pimc's play decisions in a seeded hand (solved in the
    decision's shared scope): its values equal a separate solve's from an empty table."""
    recorded: list[tuple[Position, dict[int, int]]] = []
    original = solver.values_position

    def record(pos: Position) -> dict[int, int]:
        values = original(pos)
        recorded.append((pos, values))
        return values

    monkeypatch.setattr(solver, "values_position", record)
    rules = make_rules("australian")
    for n in range(2):
        state = HandState.deal(rules, n, f"solver-shared/pimc/{n}")
        players = [make_player("pimc:16", n * 10 + seat) for seat in range(rules.seats)]
        while not state.is_over:
            seat = state.to_move
            state.apply(players[seat].act(state.observation(seat)))
    monkeypatch.undo()
    assert len(recorded) > 200
    mismatches = [i for i, (pos, values) in enumerate(recorded) if original(pos) != values]
    assert not mismatches, mismatches[:5]
