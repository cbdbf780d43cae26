"""Hi/lo (R-HOUSE ``hi_lo``) is not a misère: the contractor plays alone for exactly five
tricks in no trumps, the joker the only trump. The bots' view of the play takes it so, with
the game's own play context (it once took every contract from misère upwards as a misère)."""

from __future__ import annotations

import pytest

from conftest import apply_text, rules
from fivehundred.actions import HI_LO, MISERE, OPEN_MISERE, is_misere
from fivehundred.bots.heuristic import HeuristicPlayer
from fivehundred.bots.memory import TableView
from fivehundred.bots.pimc import PimcPlayer
from fivehundred.bots.simulate import _needed, contract_score, play_out
from fivehundred.game import HandState


def _played(auction: str, seed: str = "hi-lo/not-misere", **variants: bool) -> HandState:
    state = HandState.deal(rules("australian", **variants), 0, seed)
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


def test_a_hi_lo_scores_only_with_exactly_five_tricks() -> None:
    """The simulations' score: 350 made with five (the defence's five tricks 50), lost with
    none or with six (a misère's score once made it with none)."""
    australian = rules("australian", hi_lo=True)
    assert contract_score(HI_LO, 5, australian) == 350 - 50
    assert contract_score(HI_LO, 0, australian) == -350 - 100
    assert contract_score(HI_LO, 6, australian) == -350 - 40
    assert contract_score(MISERE, 0, australian) == 250  # a misère is made with none
    # what just makes it (an opponent's hi/lo that would win the game is a threat)
    assert _needed(HI_LO) == 5 and _needed(MISERE) == 0


def test_the_search_players_value_of_a_hi_lo_peaks_at_five() -> None:
    """PIMC's utility of the contracting side's final tricks: made only with five; short
    of five, the nearer the better; a defender's the opposite."""
    state = _played("hi_lo pass pass pass", hi_lo=True)
    player = PimcPlayer(seed=1)
    mine = state.observation(state.contractor)
    values = [player.utility(mine, t) for t in range(11)]
    assert max(range(11), key=values.__getitem__) == 5
    assert values[5] > 0 > max(values[:5] + values[6:]) and values[4] > values[3]
    defender = state.observation((state.contractor + 1) % 4)
    assert player.utility(defender, 5) == -values[5]


def test_a_simulated_hi_lo_aims_at_five_not_at_none() -> None:
    """The bidding and discarding simulations solve a hi/lo deal for five tricks where the
    contractor can be sure of five and the defence cannot push more on it: on this deal it
    can take five, and as a misère it would keep to one (the misère's solve once said so)."""
    state = _played("hi_lo pass pass pass", "hi-lo/9", hi_lo=True)
    hands = list(state.hands)
    contractor = state.contractor
    tricks = play_out(state.rules, state.dealer, contractor, HI_LO, hands)
    assert tricks == 5
    assert play_out(state.rules, state.dealer, contractor, MISERE, hands) == 1
    assert contract_score(HI_LO, tricks, state.rules) > 0
