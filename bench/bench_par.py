"""Time of the double-dummy par of a board, one process (one core): the median and the
longest over ``--boards`` boards of each preset, and where the time goes (the contract
table of 24 best exchanges, then the par auction).

    python bench/bench_par.py [--boards 10] [--preset australian --preset american]
"""

from __future__ import annotations

import argparse
import statistics
import time

from fivehundred.boards import make_boards
from fivehundred.solver.par import board_par, contract_table


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--boards", type=int, default=10)
    parser.add_argument("--preset", action="append", default=[])
    parser.add_argument("--seed", default="bench-par")
    args = parser.parse_args()
    for preset in args.preset or ["australian", "american"]:
        totals = []
        tables = []
        for board in make_boards(args.seed, args.boards, preset):
            start = time.perf_counter()
            contract_table(board)
            tables.append(time.perf_counter() - start)
            start = time.perf_counter()
            analysis = board_par(board)
            totals.append(time.perf_counter() - start)
            print(
                f"{preset} board {board.number:>2}: {totals[-1]:6.2f} s  "
                f"par {analysis.par.label(board.rules)}",
                flush=True,
            )
        print(
            f"{preset}: {len(totals)} boards, par per board median {statistics.median(totals):.2f} s, "
            f"max {max(totals):.2f} s (the contract table alone: median "
            f"{statistics.median(tables):.2f} s, max {max(tables):.2f} s)",
            flush=True,
        )


if __name__ == "__main__":
    main()
