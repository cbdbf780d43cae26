"""The par's best exchanges against a brute force, board after board: for every seat as
contractor and every strain (misère where the preset has it), every discard of the
thirteen cards and every nomination of a joker kept is played through the engine's own
hand (auction, kitty, nomination) and solved double dummy; the best of them must equal
:func:`fivehundred.solver.par.contract_table`'s. Prints each board and the mismatches.

With ``--par``, only the par's own choice on each board (much faster, so that a hundred
boards of each preset take minutes): the par contract's every discard by brute force must
give the par's tricks, and the discard (and nomination) the par chose, played through the
engine, must give them too (tests/test_par.py runs this on a few boards).

    python bench/check_par.py [--boards 10] [--first 1] [--preset australian --preset american]
    python bench/check_par.py --par --boards 100
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time

from fivehundred.actions import (
    MISERE,
    NO_NOMINATION,
    PASS,
    Action,
    bid_action,
    is_misere,
    nominate_action,
)
from fivehundred.boards import Board, make_boards
from fivehundred.cards import iter_cards
from fivehundred.game import HandState
from fivehundred.rules import MISERE_AFTER_SEVEN, make_rules
from fivehundred.solver import solve
from fivehundred.solver.par import STRAIN_KEYS, ParAnalysis, board_par, contract_table


def to_exchange(board: Board, contractor: int, contract: Action) -> HandState:
    """The board bid to ``contract`` by ``contractor``, everyone else passing, at the kitty
    exchange (misère is bid at once with misere_anytime: the Australian default needs a 7
    bid first; the hand is played the same)."""
    rules = board.rules
    if is_misere(contract) and rules.misere == MISERE_AFTER_SEVEN:
        rules = make_rules(board.preset, {"misere_anytime": True})
    state = HandState(rules, board.dealer, board.hands, board.kitty)
    while state.phase == "auction":
        state.apply(contract if state.to_move == contractor and state.contract < 0 else PASS)
    assert (state.contract, state.contractor) == (contract, contractor)
    return state


def brute(board: Board, contractor: int, contract: Action) -> int:
    """The best of every discard (and nomination) for the contractor, by brute force."""
    state = to_exchange(board, contractor, contract)
    best: int | None = None
    for discard in itertools.combinations(list(iter_cards(state.hands[contractor])), 3):
        child = state.clone()
        for card in discard:
            child.apply(card)
        finals = [child]
        if child.phase == "nominate":
            finals = []
            for nomination in child.legal_actions():
                final = child.clone()
                final.apply(nomination)
                finals.append(final)
        for final in finals:
            v = solve(final)
            if best is None or (v < best if is_misere(contract) else v > best):
                best = v
    assert best is not None
    return best


def par_choice(board: Board, analysis: ParAnalysis | None = None) -> list[str]:
    """The par's choice on ``board`` (its ``analysis`` when worked out already) against a
    brute force: the mismatches, in words (none when the par's contract and every discard
    agree; a hand passed in has no discard)."""
    analysis = analysis or board_par(board)
    par, exchange = analysis.par, analysis.exchange
    if par.contract < 0:
        return []
    wrong = []
    expected = brute(board, par.contractor, par.contract)
    if expected != par.tricks:
        wrong.append(f"par {par.tricks} tricks, brute force over every discard {expected}")
    assert exchange is not None
    state = to_exchange(board, par.contractor, par.contract)
    for card in iter_cards(exchange.discard):
        state.apply(card)
    nominations = list(exchange.nominations)
    while state.phase == "nominate":
        suit = nominations.pop(0)
        joker = state.joker_to_nominate()
        state.apply(nominate_action(joker, suit) if suit >= 0 else NO_NOMINATION)
    chosen = solve(state)
    if chosen != par.tricks:
        wrong.append(f"the par's own discard gives {chosen} tricks, not {par.tricks}")
    return wrong


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--boards", type=int, default=10)
    parser.add_argument("--preset", action="append", default=[])
    parser.add_argument("--seed", default="check-par")
    parser.add_argument("--first", type=int, default=1, help="the first board checked")
    parser.add_argument("--par", action="store_true", help="only the par's own choice")
    args = parser.parse_args()
    wrong = 0
    for preset in args.preset or ["australian", "american"]:
        for board in make_boards(args.seed, args.first + args.boards - 1, preset)[args.first - 1 :]:
            start = time.perf_counter()
            if args.par:
                found = par_choice(board)
                wrong += len(found)
                for line in found:
                    print(f"MISMATCH {preset} board {board.number}: {line}", flush=True)
                print(
                    f"{preset} board {board.number}: the par's choice checked "
                    f"({time.perf_counter() - start:.1f} s)",
                    flush=True,
                )
                continue
            table = contract_table(board)
            for (seat, key), exchange in sorted(table.items()):
                strain = STRAIN_KEYS.index(key)
                contract = MISERE if key == "misere" else bid_action(6, strain)
                expected = brute(board, seat, contract)
                if expected != exchange.tricks:
                    wrong += 1
                    print(
                        f"MISMATCH {preset} board {board.number} seat {seat} {key}: "
                        f"par {exchange.tricks}, brute force {expected}",
                        flush=True,
                    )
            print(
                f"{preset} board {board.number}: {len(table)} contracts checked "
                f"({time.perf_counter() - start:.1f} s)",
                flush=True,
            )
    print(f"mismatches: {wrong}")
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
