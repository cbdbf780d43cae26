"""Benchmark of the double-dummy solver (issue 3 targets).

Full 10-trick solves from the first lead (after the kitty exchange) of suit, no-trump (the
joker in play and free) and misère contracts over seeded deals: median, 99th percentile
and maximum; compiled random playouts per second; DDS (endplay) on the same suit deals
with the 500 trump order mapped onto bridge ranks, and the ratio. One core.

    .venv/bin/python bench/bench_solver.py            # 200 deals per kind
    .venv/bin/python bench/bench_solver.py --deals 20 # a quick run
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from fivehundred.cards import JOKERS_MASK
from fivehundred.solver import Position, playouts_position, solve_position
from fivehundred.solver.samples import start_of_play


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _row(name: str, times: list[float]) -> str:
    ms = [t * 1000 for t in times]
    return (f"{name:<24} median {statistics.median(ms):8.2f} ms   p99 {_percentile(ms, 0.99):8.2f}"
            f" ms   max {max(ms):8.2f} ms   ({len(ms)} deals)")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals per kind (default 200)")
    parser.add_argument("--playouts", type=int, default=300_000)
    parser.add_argument("--no-endplay", action="store_true")
    args = parser.parse_args(argv)

    t0 = time.perf_counter()
    solve_position(Position.from_state(start_of_play(0, "suit")))
    playouts_position(Position.from_state(start_of_play(0, "suit")), 10, 1)
    print(f"first call (compile or load the numba cache): {time.perf_counter() - t0:.2f} s")

    suit_positions = []
    for kind in ("suit", "nt", "misere"):
        times = []
        seed = 0
        while len(times) < args.deals:
            state = start_of_play(seed, kind)
            seed += 1
            if kind == "nt" and not any(state.hands[s] & JOKERS_MASK for s in state.active):
                continue
            pos = Position.from_state(state)
            if kind == "suit":
                suit_positions.append(pos)
            t = time.perf_counter()
            solve_position(pos)
            times.append(time.perf_counter() - t)
        print(_row(f"{kind} full solve", times))
        if kind == "suit":
            ours_suit = times

    pos = Position.from_state(start_of_play(1, "suit"))
    t = time.perf_counter()
    playouts_position(pos, args.playouts, seed=1)
    rate = args.playouts / (time.perf_counter() - t)
    print(f"random playouts (play phase, 10 tricks): {rate:,.0f} per second")

    if not args.no_endplay:
        try:
            sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
            from endplay.dds import solve_board
            from endplay.dds.solve import SolveMode

            from test_solver import to_bridge_deal  # the rank remap, kept with its test
        except ImportError as error:
            print(f"endplay not available: {error}")
            return 0
        dds = []
        for pos in suit_positions:
            deal = to_bridge_deal(pos)
            t = time.perf_counter()
            solve_board(deal, SolveMode.OptimalOne)
            dds.append(time.perf_counter() - t)
        print(_row("DDS (endplay) suit", dds))
        ratio = statistics.median(ours_suit) / statistics.median(dds)
        print(f"ours / DDS, suit contracts, medians: {ratio:.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
