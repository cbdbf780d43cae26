"""The par's best exchanges against a brute force, board after board: for every seat as
contractor and every strain (misère where the preset has it), every discard of the
thirteen cards and every nomination of a joker kept is played through the engine's own
hand (auction, kitty, nomination) and solved double dummy; the best of them must equal
:func:`fivehundred.solver.par.contract_table`'s. Prints each board and the mismatches.

    python bench/check_par.py [--boards 10] [--first 1] [--preset australian --preset american]
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time

from fivehundred.actions import MISERE, PASS, Action, bid_action
from fivehundred.boards import Board, make_boards
from fivehundred.cards import iter_cards
from fivehundred.game import HandState
from fivehundred.rules import MISERE_AFTER_SEVEN, make_rules
from fivehundred.solver import solve
from fivehundred.solver.par import STRAIN_KEYS, contract_table


def brute(board: Board, contractor: int, contract: Action) -> int:
    # misère is bid at once with misere_anytime (the Australian default needs a 7 first)
    rules = board.rules
    if contract == MISERE and rules.misere == MISERE_AFTER_SEVEN:
        rules = make_rules(board.preset, {"misere_anytime": True})
    state = HandState(rules, board.dealer, board.hands, board.kitty)
    while state.phase == "auction":
        state.apply(contract if state.to_move == contractor and state.contract < 0 else PASS)
    assert (state.contract, state.contractor) == (contract, contractor)
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
            if best is None or (v < best if contract == MISERE else v > best):
                best = v
    assert best is not None
    return best


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--boards", type=int, default=10)
    parser.add_argument("--preset", action="append", default=[])
    parser.add_argument("--seed", default="check-par")
    parser.add_argument("--first", type=int, default=1, help="the first board checked")
    args = parser.parse_args()
    wrong = 0
    for preset in args.preset or ["australian", "american"]:
        for board in make_boards(args.seed, args.first + args.boards - 1, preset)[args.first - 1 :]:
            start = time.perf_counter()
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
