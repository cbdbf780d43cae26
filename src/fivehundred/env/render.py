"""The table as text, for ``render_mode="human"`` / ``"ansi"`` (a spectator's view: every
hand is shown; the agents' observations stay per seat)."""

from __future__ import annotations

from collections.abc import Sequence

from fivehundred.actions import action_text
from fivehundred.game import HandState
from fivehundred.text import hand_text
from fivehundred.words import seat_name


def table_text(state: HandState, scores: Sequence[int] = (), hands_played: int = 0) -> str:
    """The hand in progress: contract, every hand, the trick on the table, tricks and scores."""
    rules = state.rules
    two = rules.joker_names
    n = rules.seats
    names = [seat_name(s, n) for s in range(n)]
    lines = [
        f"{rules.describe()}  hand {hands_played + 1}, dealer {names[state.dealer]}, "
        f"phase {state.phase}"
    ]
    if state.contract >= 0:
        lines.append(f"contract {action_text(state.contract, two)} by {names[state.contractor]}")
    elif state.auction.calls:
        calls = ", ".join(f"{names[s]} {action_text(a, two)}" for s, a in state.auction.calls)
        lines.append(f"auction: {calls}")
    for seat in range(n):
        marker = "*" if seat == state.to_move else " "
        lines.append(
            f"{marker} {names[seat]:<7} {state.tricks_won[seat]:>2} tricks  "
            f"{hand_text(state.hands[seat], state.ctx, two)}"
        )
    if state.trick_cards:
        trick = "  ".join(f"{names[s]}: {action_text(a, two)}" for s, a in state.current_trick())
        lines.append(f"trick: {trick}")
    if scores:
        lines.append("scores: " + " ".join(str(s) for s in scores))
    if state.is_over:
        lines.append(f"hand over: points {list(state.result.points)}")
    return "\n".join(lines)
