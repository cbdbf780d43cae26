"""Exhaustive minimax over :class:`~fivehundred.game.HandState`: the pure-Python reference
the compiled solver is tested against. Exponential; for positions of a few tricks only.
"""

from __future__ import annotations

from fivehundred.actions import Action
from fivehundred.game import HandState


def contracting_seats(state: HandState) -> tuple[int, ...]:
    """Seats whose tricks the solver counts: the contractor and partners (misère and hi/lo:
    the contractor alone, the partner sitting out; double misère: both)."""
    return (state.contractor, *state.partners)


def minimax(state: HandState) -> int:
    """The contracting side's final trick total with best play, by trying every legal
    action with :meth:`HandState.apply` (memoised on the full position)."""
    seats = contracting_seats(state)
    maximisers = set(seats) if not state.is_misere else {s for s in state.active if s not in seats}
    memo: dict[tuple[object, ...], int] = {}

    def won(s: HandState) -> int:
        return sum(s.tricks_won[seat] for seat in seats)

    def further(s: HandState) -> int:
        if s.is_over:
            return 0
        key = s.play_key()
        if key in memo:
            return memo[key]
        before = won(s)
        values = []
        for action in s.legal_actions():
            child = s.clone()
            child.apply(action)
            values.append(won(child) - before + further(child))
        best = max(values) if s.to_move in maximisers else min(values)
        memo[key] = best
        return best

    return won(state) + further(state)


def minimax_values(state: HandState) -> dict[Action, int]:
    """:func:`minimax` after each legal action of the player to move."""
    out = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply(action)
        out[action] = minimax(child)
    return out


def minimax_hi_lo(state: HandState) -> bool:
    """R-HOUSE hi/lo by exhaustive search: can the contractor end the hand with exactly
    five tricks, whatever the defenders do?"""
    contractor = state.contractor
    memo: dict[tuple[object, ...], bool] = {}

    def made(s: HandState) -> bool:
        won = s.tricks_won[contractor]
        if s.is_over or won > 5 or won + 10 - len(s.tricks) < 5:
            return won == 5 and s.is_over
        key = (*s.play_key(), won)
        if key not in memo:
            results = []
            for action in s.legal_actions():
                child = s.clone()
                child.apply(action)
                results.append(made(child))
            memo[key] = any(results) if s.to_move == contractor else all(results)
        return memo[key]

    return made(state)
