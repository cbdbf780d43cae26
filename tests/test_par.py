"""The double-dummy par of a board (docs/duplicate.md): the best kitty exchange checked
against a brute force over every discard (and joker nomination) played through the
engine's own hand, and the par auction checked on hand-made results."""

from __future__ import annotations

import itertools
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from fivehundred.actions import (
    MISERE,
    NO_NOMINATION,
    OPEN_MISERE,
    PASS,
    Action,
    bid_action,
    nominate_action,
)
from fivehundred.boards import Board, make_board
from fivehundred.cards import iter_cards
from fivehundred.game import HandState
from fivehundred.rules import make_rules

pytest.importorskip("numpy")
from fivehundred.solver import solve
from fivehundred.solver.par import (
    best_exchange,
    board_par,
    check_par_rules,
    contract_points,
    exchange_candidates,
    par_auction,
)

sys.path.insert(0, str(Path(__file__).parents[1] / "bench"))
from check_par import par_choice


def to_exchange(board: Board, contractor: int, contract: Action) -> HandState:
    """The board bid to ``contract`` by ``contractor`` (everyone else passing), at the
    kitty exchange, through the engine's own auction."""
    state = board.start()
    while state.phase == "auction":
        bid = state.to_move == contractor and state.contract < 0
        state.apply(contract if bid else PASS)
    assert (state.contract, state.contractor) == (contract, contractor)
    return state


def brute_force(board: Board, contractor: int, contract: Action) -> int:
    """Every discard of the 13 cards, and every nomination of a joker kept, played out
    double dummy from the engine's own first lead: the best tricks for the contractor."""
    start = to_exchange(board, contractor, contract)
    misere = contract in (MISERE, OPEN_MISERE)
    results = []
    cards = list(iter_cards(start.hands[contractor]))
    for discard in itertools.combinations(cards, start.kitty_exchange):
        state = start.clone()
        for card in discard:
            state.apply(card)
        finals = [state]
        if state.phase == "nominate":
            finals = []
            for nomination in state.legal_actions():
                child = state.clone()
                child.apply(nomination)
                finals.append(child)
        for final in finals:
            assert final.phase == "play"
            results.append(solve(final))
    return min(results) if misere else max(results)


@pytest.mark.parametrize(
    ("preset", "number", "contractor", "contract"),
    [
        ("australian", 1, 1, bid_action(6, 4)),  # no trumps: the joker's nominations too
        ("australian", 2, 2, bid_action(6, 3)),
        ("american", 3, 3, MISERE),  # misère any time (R-BID, the 1904 rules)
        *(("australian", 6, 0, bid_action(6, strain)) for strain in range(5)),
        ("american", 7, 2, MISERE),
        ("american", 7, 1, bid_action(6, 4)),
    ],
)
def test_best_exchange_equals_a_brute_force_over_every_discard(
    preset: str, number: int, contractor: int, contract: Action
) -> None:
    board = make_board("par-brute", number, preset)
    misere = contract == MISERE
    strain = 4 if misere else (contract - 75) % 5
    best = best_exchange(
        board.rules, board.dealer, board.hands, board.kitty, contractor, strain, misere
    )
    assert best.tricks == brute_force(board, contractor, contract)
    # the exchange it names gives that result when played through the engine
    state = to_exchange(board, contractor, contract)
    for card in iter_cards(best.discard):
        state.apply(card)
    if state.phase == "nominate":
        (suit,) = best.nominations
        joker = state.joker_to_nominate()
        state.apply(nominate_action(joker, suit) if suit >= 0 else NO_NOMINATION)
    assert state.phase == "play"
    assert solve(state) == best.tricks


def test_equivalent_discards_are_searched_once() -> None:
    board = make_board("par-classes", 4)
    rules = board.rules
    for strain in range(5):
        found = exchange_candidates(rules, board.hands, board.kitty, 0, strain, False, (0, 1, 2, 3))
        assert len({(d, n) for d, n, _ in found}) == len(found)
        assert all(d.bit_count() == 3 for d, _, _ in found)
        assert len(found) < 286 * (5 if strain == 4 else 1)


def test_the_eldest_leads_variant_changes_the_first_leader() -> None:
    rules = make_rules("australian", {"eldest_leads": True})
    board = make_board("par-eldest", 1)
    plain = best_exchange(board.rules, board.dealer, board.hands, board.kitty, 2, 3)
    eldest = best_exchange(rules, board.dealer, board.hands, board.kitty, 2, 3)
    assert eldest.tricks <= plain.tricks  # leading is never a disadvantage double dummy here
    state = to_exchange(board, 2, bid_action(6, 3))
    assert state.contractor == 2


def test_contract_points_are_the_rule_books() -> None:
    rules = make_rules()
    assert contract_points(rules, bid_action(7, 3), 0, 7) == (200, 30)
    assert contract_points(rules, bid_action(7, 3), 1, 6) == (40, -200)
    assert contract_points(rules, bid_action(6, 0), 2, 10) == (250, 0)  # slam: 250
    assert contract_points(rules, MISERE, 3, 0) == (0, 250)
    assert contract_points(rules, MISERE, 3, 2) == (0, -250)  # defenders nothing
    american = make_rules("american")
    assert contract_points(american, MISERE, 0, 2) == (-250, 20)  # 1904: 10 a trick


def nets(table: dict[tuple[Action, int], int]) -> Callable[[Action, int], int]:
    """North-South's net for each contract: those in ``table``, and every other contract
    failing by 300 for its side."""
    return lambda contract, seat: table.get((contract, seat), -300 if seat % 2 == 0 else 300)


def test_par_auction_plays_the_presets_auction_with_every_result_known() -> None:
    rules = make_rules()
    six_s, seven_h, eight_s = bid_action(6, 0), bid_action(7, 3), bid_action(8, 0)
    # only South's 6♠ scores: North-South bid it and East-West cannot do better than pass
    calls, contract, contractor = par_auction(rules, 3, nets({(six_s, 0): 40}))
    assert (contract, contractor) == (six_s, 0)
    assert calls[0] == (0, six_s)  # South calls first (dealer East)
    # East-West outbid with 7♥ (200 to them), North-South sacrifice in 8♠ (-100 net)
    table = {(six_s, 0): 40, (seven_h, 1): -200, (eight_s, 2): -100}
    calls, contract, contractor = par_auction(rules, 3, nets(table))
    assert (contract, contractor) == (eight_s, 2)
    # every contract fails: the hand is passed in
    calls, contract, contractor = par_auction(rules, 0, nets({}))
    assert contract == -1 and [call for _, call in calls] == [PASS] * 4
    # the American auction is one round: West, last to call with dealer South, has the
    # last word, and East-West's 7♥ stands over North-South's 6♠
    american = make_rules("american")
    calls, contract, contractor = par_auction(
        american, 0, nets({(six_s, 0): 40, (six_s, 2): 40, (seven_h, 3): -200})
    )
    assert len(calls) == 4
    assert (contract, contractor) == (seven_h, 3)


def test_misere_needs_a_seven_bid_in_the_australian_par() -> None:
    rules = make_rules()
    # misère is worth most to South, but R-BID lets it in only after a 7 bid: the par
    # auction finds the way (a 7 bid first) when that is best
    table = {(MISERE, 0): 250, (bid_action(7, 0), 0): -140}
    calls, contract, contractor = par_auction(rules, 3, nets(table))
    assert (contract, contractor) == (MISERE, 0)
    assert any(call == bid_action(7, 0) or (call - 75) // 5 == 1 for _, call in calls)


def test_board_par_is_consistent_with_its_table() -> None:
    board = make_board("par-whole", 5)
    analysis = board_par(board)
    par = analysis.par
    if par.contract >= 0:
        assert analysis.exchange is not None
        assert par.tricks == analysis.exchange.tricks
        assert par.points == contract_points(board.rules, par.contract, par.contractor, par.tricks)
        assert analysis.calls[-1][1] == PASS or analysis.calls[-1][1] == par.contract
    assert set(analysis.table) == {
        (s, k) for s in range(4) for k in ("S", "C", "D", "H", "NT", "misere")
    }


def test_rules_the_par_does_not_cover_are_refused() -> None:
    with pytest.raises(ValueError, match="par does not cover"):
        check_par_rules(make_rules("australian", {"hi_lo": True}))
    with pytest.raises(ValueError, match="four players"):
        check_par_rules(make_rules("three_handed"))
    with pytest.raises(ValueError, match="kitty of 6 cards"):
        check_par_rules(make_rules("french_canadian"))
    with pytest.raises(ValueError, match="kitty of 5 cards"):
        check_par_rules(make_rules("australian", {"pack45": True}))


def test_the_pars_own_discard_equals_a_brute_force_over_every_discard() -> None:
    """The par's choice on a sample of boards (one of each preset here; ``python
    bench/check_par.py --par --boards 100`` checks a hundred of each): every discard of the
    par contract tried by brute force gives the par's tricks, and so does the discard the
    par chose."""
    for preset, number in (("australian", 1), ("american", 5)):
        board = make_board("par-choice", number, preset)
        analysis = board_par(board)
        assert analysis.par.contract >= 0  # a contract: a discard to check
        assert par_choice(board, analysis) == []
