"""The double-dummy review's cost: ``--boards`` hands (of a preset, each played out at
random from its first lead, as the daily bench's South plays) analysed for each of the
four seats, as the reviews ask (:func:`fivehundred.analysis.analyse.analyse_hand` once a
seat; the daily's every entrant asks again for the same boards), twice in one run: every
time afresh (``cache=False``: every strain and every position solved in full) and as the
server does (the latest strain tables and analyses kept, a card that cost nothing shown
so by a zero-window search). Prints both times and their ratio, and checks the answers
are the same.

    python bench/bench_review.py [--boards 12] [--preset australian] [--entrants 2]
"""

from __future__ import annotations

import argparse
import time

from fivehundred.analysis.analyse import ANALYSES, STRAIN_TABLES, analyse_hand
from fivehundred.rules import make_rules
from fivehundred.solver.samples import random_position


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--boards", type=int, default=12)
    parser.add_argument("--preset", default="australian")
    parser.add_argument("--entrants", type=int, default=2, help="times each board is asked")
    parser.add_argument("--seats", type=int, default=4)
    args = parser.parse_args()
    rules = make_rules(args.preset)
    kinds = ("suit", "suit", "nt", "misere")
    hands = [
        random_position(seed, kinds[seed % len(kinds)], 0, rules=rules)
        for seed in range(args.boards)
    ]
    asks = args.entrants * args.seats
    results = {}
    times = {}
    for cache in (False, True, False, True):
        ANALYSES.clear()
        STRAIN_TABLES.clear()
        began = time.perf_counter()
        results[cache] = [[analyse_hand(h, cache=cache) for _ in range(asks)] for h in hands]
        times[cache] = min(times.get(cache, float("inf")), time.perf_counter() - began)
    assert results[False] == results[True], "the answers differ"
    # one ask a board (a first entrant's first seat): the zero-window search alone
    once = {}
    for cache in (False, True, False, True):
        ANALYSES.clear()
        STRAIN_TABLES.clear()
        began = time.perf_counter()
        for hand in hands:
            analyse_hand(hand, cache=cache)
        once[cache] = min(once.get(cache, float("inf")), time.perf_counter() - began)
    print(f"{args.boards} boards of {args.preset}, {asks} asks a board (best of two runs)")
    print(
        f"  every ask: afresh {times[False]:.3f} s, kept {times[True]:.3f} s, "
        f"{times[False] / times[True]:.1f}x"
    )
    print(
        f"  one ask a board: afresh {once[False]:.3f} s, kept {once[True]:.3f} s, "
        f"{once[False] / once[True]:.2f}x"
    )


if __name__ == "__main__":
    main()
