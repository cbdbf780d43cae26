"""Hi/lo (R-HOUSE ``hi_lo``) is not a misère: the contractor plays alone for exactly five
tricks in no trumps, the joker the only trump. The bots' view of the play takes it so, with
the game's own play context (it once took every contract from misère upwards as a misère)."""

from __future__ import annotations

import pytest

from conftest import apply_text, rules
from fivehundred.actions import HI_LO, MISERE, OPEN_MISERE, is_misere
from fivehundred.bots.heuristic import HeuristicPlayer
from fivehundred.bots.memory import TableView
from fivehundred.game import HandState


def _played(auction: str, **variants: bool) -> HandState:
    state = HandState.deal(rules("australian", **variants), 0, "hi-lo/not-misere")
    apply_text(state, auction)
    while state.phase != "play":
        seat = state.to_move
        state.apply(HeuristicPlayer(seat).act(state.observation(seat)))
    return state


def test_hi_lo_is_not_a_misere_and_the_misere_contracts_are() -> None:
    assert not is_misere(HI_LO)
    assert is_misere(MISERE) and is_misere(OPEN_MISERE)


@pytest.mark.parametrize(
    ("auction", "misere"), [("hi_lo pass pass pass", False), ("7S misere pass pass pass", True)]
)
def test_the_bots_play_view_of_hi_lo_is_not_a_misere(auction: str, misere: bool) -> None:
    state = _played(auction, hi_lo=True)
    assert state.is_misere is misere
    view = TableView(state.observation(state.to_move))
    assert view.misere is misere
    assert view.ctx == state.ctx  # the game's own play context
