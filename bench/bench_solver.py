"""Benchmark of the double-dummy solver: how fast it solves whole hands, beside DDS.

Full 10-trick solves from the first lead (after the kitty exchange) of suit, no-trump (the
joker in play and free) and misère contracts over seeded deals: median, 99th percentile
and maximum CPU time (``time.process_time``: the machine may be shared), and the nodes
searched; compiled random playouts per second; DDS (endplay) on the same suit deals with
the 500 trump order mapped onto bridge ranks, timed deal by deal right after ours so that
both see the same load, and the ratio of the medians (the robust number on a busy machine;
DDS has no 500 no-trumps or misère, so those rows are compared with its suit median), and
of the 99th percentiles; the first solve in a fresh process, import included (the kernel
is compiled C, built at install: nothing is compiled at run time). One core. Each deal is solved ``--repeat`` times (default 3: whole passes over the deals, each
solve from an empty table) and its best time kept, for ours and for DDS alike: the work is
the same every time, and other tenants of a shared machine only ever add to it
(``--repeat 1``: single shots).

    .venv/bin/python bench/bench_solver.py            # 200 deals per kind
    .venv/bin/python bench/bench_solver.py --deals 20 # a quick run
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from fivehundred.cards import JOKERS_MASK
from fivehundred.solver import Position, playouts_position
from fivehundred.solver import engine as E
from fivehundred.solver.position import table
from fivehundred.solver.samples import start_of_play


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _row(name: str, times: list[float], nodes: list[int] | None = None) -> str:
    ms = [t * 1000 for t in times]
    text = (
        f"{name:<24} median {statistics.median(ms):8.2f} ms   p99 {_percentile(ms, 0.99):8.2f}"
        f" ms   max {max(ms):8.2f} ms   ({len(ms)} deals)"
    )
    if nodes:
        text += f"   nodes median {statistics.median(nodes):,.0f} total {sum(nodes):,}"
    return text


def _solve_counting(pos: Position) -> tuple[int, int]:
    """(value, nodes searched) of a full solve, as :func:`solve_position` does it."""
    t = table()
    h, st = pos.packed()
    st[E.S_GEN] = t.next_gen()
    value = E.solve_dense(h, st, t.buf, t.keys, t.check, 0, pos.tricks_left, int(st[E.S_TCOUNT]))
    return pos.won + int(value), int(st[E.S_NODES])


_FIRST = """
import time
t = time.perf_counter()
from fivehundred.solver import Position, solve_position
from fivehundred.solver.samples import start_of_play
solve_position(Position.from_state(start_of_play(0, "suit")))
print(time.perf_counter() - t)
"""


def _first_solve() -> float:
    """Seconds from a fresh interpreter's first import of the solver to its first full
    solve (the interpreter's own start not counted)."""
    src = str(Path(__file__).resolve().parents[1] / "src")
    done = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {src!r})\n" + _FIRST],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout.split()[-1])


def _endplay() -> Callable[[Position], None] | None:
    try:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
        from endplay.dds import solve_board
        from endplay.dds.solve import SolveMode

        from test_solver import to_bridge_deal  # the rank remap, kept with its test
    except ImportError as error:
        print(f"endplay not available: {error}")
        return None

    def dds(pos: Position) -> None:
        solve_board(to_bridge_deal(pos), SolveMode.OptimalOne)

    return dds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=200, help="deals per kind (default 200)")
    parser.add_argument("--playouts", type=int, default=300_000)
    parser.add_argument("--repeat", type=int, default=3, help="solves per deal, best kept")
    parser.add_argument("--no-endplay", action="store_true")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.repeat < 1:
        parser.error("--deals and --repeat must be at least 1")

    print(
        f"first solve in a fresh process, import included: {_first_solve():.3f} s "
        f"(kernel: {E.VARIANT})"
    )

    dds = None if args.no_endplay else _endplay()
    dds_times: list[float] = []
    medians = {}
    p99s = {}
    for kind in ("suit", "nt", "misere"):
        positions = []
        seed = 0
        while len(positions) < args.deals:
            state = start_of_play(seed, kind)
            seed += 1
            if kind == "nt" and not any(state.hands[s] & JOKERS_MASK for s in state.active):
                continue
            positions.append(Position.from_state(state))
        times = [float("inf")] * len(positions)
        nodes = [0] * len(positions)
        dds_best = [float("inf")] * len(positions)
        # whole passes, not repeats deal by deal: DDS keeps its table for a deal solved
        # again at once
        for _ in range(args.repeat):
            for i, pos in enumerate(positions):
                t = time.process_time()
                _, nodes[i] = _solve_counting(pos)
                times[i] = min(times[i], time.process_time() - t)
                if kind == "suit" and dds is not None:
                    t = time.process_time()
                    dds(pos)
                    dds_best[i] = min(dds_best[i], time.process_time() - t)
        if kind == "suit" and dds is not None:
            dds_times = dds_best
        print(_row(f"{kind} full solve", times, nodes))
        medians[kind] = statistics.median(times)
        p99s[kind] = _percentile(times, 0.99)

    pos = Position.from_state(start_of_play(1, "suit"))
    t = time.process_time()
    playouts_position(pos, args.playouts, seed=1)
    rate = args.playouts / (time.process_time() - t)
    print(f"random playouts (play phase, 10 tricks): {rate:,.0f} per second")

    if dds_times:
        print(_row("DDS (endplay) suit", dds_times))
        base = statistics.median(dds_times)
        base99 = _percentile(dds_times, 0.99)
        for kind, median in medians.items():
            against = "the same deals" if kind == "suit" else "its suit figures"
            print(
                f"ours / DDS, {kind} (against {against}): median {median / base:.2f}x"
                f"   p99 {p99s[kind] / base99:.2f}x"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
