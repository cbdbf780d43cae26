"""Benchmark of the double-dummy solver on pimc's real workload: the sampled deals of its
play decisions, solved as pimc solves them (every deal of one decision in turn).

The workload is regenerated from seeds, nothing is downloaded: ``--hands`` seeded hands
(``bench-pimc/<n>``, four players, ``--preset``) are played by ``--player`` at every seat,
and the positions that player's play decisions hand to the solver
(:func:`fivehundred.solver.values_position`, each sampled deal's position with the seat to
move) are recorded, decision by decision. Then each decision's deals are solved again by
each variant, ``--repeat`` times (one variant after the other decision by decision, so
that both see the same load of a shared machine; each deal's best time is kept), and the
values compared with those of the game (they must be equal).

Printed per variant: the time (``time.process_time``) per deal, mean and median, the
whole workload's total, the nodes searched and the share of them decided by the
transposition table; then the ratios to the first variant (of the totals, and the median
of the per-decision ratios), by phase (bids, discards, play by the number of tricks left).

Variants: ``separate``, every deal's solve from an empty table (each solve as a separate
call of the solver); ``shared``, the deals of a decision solved in one
:func:`fivehundred.solver.shared_table` scope (the table's entries kept from deal to deal).

    .venv/bin/python bench/bench_pimc_workload.py              # 3 hands of expert
    .venv/bin/python bench/bench_pimc_workload.py --hands 1 --repeat 1   # a quick run
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import fivehundred.solver as solver
from fivehundred.actions import Action
from fivehundred.bots import make_player, simulate
from fivehundred.bots.pimc import PimcPlayer
from fivehundred.game import HandState
from fivehundred.observation import Observation
from fivehundred.rules import make_rules
from fivehundred.solver import Position, nodes_searched, table_hits


@dataclass
class Decision:
    """The deals one decision solved (a play decision's positions with the seat to move,
    each action valued; a bid's or a discard's whole hands from the opening lead), with
    the values the game's solves gave."""

    phase: str
    left: int
    deals: list[Position] = field(default_factory=list)
    values: list[object] = field(default_factory=list)


def record(hands: int, player: str, preset: str) -> list[Decision]:
    """The decisions of ``hands`` seeded hands played by ``player`` at every seat."""
    decisions: list[Decision] = []
    original_values = solver.values_position
    bids = vars(simulate)  # the bids' and the discard's solves (imported there)
    original_solve = bids["solve_position"]
    original_act = PimcPlayer.act

    def values(pos: Position) -> dict[Action, int]:
        result = original_values(pos)
        decisions[-1].deals.append(pos)
        decisions[-1].values.append(result)
        return result

    def solve(pos: Position) -> int:
        result: int = original_solve(pos)
        decisions[-1].deals.append(pos)
        decisions[-1].values.append(result)
        return result

    def act(self: PimcPlayer, obs: Observation) -> Action:
        decisions.append(Decision(obs.phase, 10 - len(obs.tricks)))
        return original_act(self, obs)

    rules = make_rules(preset)
    solver.values_position = values
    bids["solve_position"] = solve
    PimcPlayer.act = act  # type: ignore[method-assign,assignment]
    try:
        for n in range(hands):
            state = HandState.deal(rules, n % rules.players, f"bench-pimc/{n}")
            players = [make_player(player, n * 10 + seat) for seat in range(rules.seats)]
            while not state.is_over:
                seat = state.to_move
                state.apply(players[seat].act(state.observation(seat)))
    finally:
        solver.values_position = original_values
        bids["solve_position"] = original_solve
        PimcPlayer.act = original_act  # type: ignore[method-assign]
    return [d for d in decisions if d.deals]


#: Each variant: the scope its decision's solves run in.
VARIANTS: dict[str, Callable[[], AbstractContextManager[None]]] = {
    "separate": nullcontext,
    "shared": solver.shared_table,
}


@dataclass
class Run:
    """One variant's measurements, per decision."""

    seconds: list[float] = field(default_factory=list)
    nodes: list[int] = field(default_factory=list)
    hits: list[int] = field(default_factory=list)


def solve_decision(
    decision: Decision, scope: Callable[[], AbstractContextManager[None]]
) -> Iterator[tuple[float, int, int, bool]]:
    """Each deal's (seconds, nodes, table hits, equal to the game's values)."""
    with scope():
        for pos, expected in zip(decision.deals, decision.values, strict=True):
            nodes, hits = nodes_searched(), table_hits()
            start = time.process_time()
            got: object = (
                solver.values_position(pos)
                if isinstance(expected, dict)
                else solver.solve_position(pos)
            )
            seconds = time.process_time() - start
            yield seconds, nodes_searched() - nodes, table_hits() - hits, got == expected


def measure(decisions: list[Decision], repeat: int) -> tuple[dict[str, Run], int]:
    """Every variant's runs over the decisions, and the number of unequal values."""
    runs = {name: Run() for name in VARIANTS}
    unequal = 0
    for decision in decisions:
        for name, scope in VARIANTS.items():
            best: list[float] = []
            for r in range(repeat):
                results = list(solve_decision(decision, scope))
                unequal += sum(1 for *_, equal in results if not equal)
                times = [seconds for seconds, *_ in results]
                best = times if r == 0 else [min(a, b) for a, b in zip(best, times, strict=True)]
            runs[name].seconds.append(sum(best))
            runs[name].nodes.append(sum(nodes for _, nodes, _, _ in results))
            runs[name].hits.append(sum(hits for _, _, hits, _ in results))
    return runs, unequal


def report(decisions: list[Decision], runs: dict[str, Run]) -> None:
    deals = [len(d.deals) for d in decisions]
    total_deals = sum(deals)
    print(
        f"{len(decisions)} decisions, {total_deals} deals ({statistics.mean(deals):.1f} a decision)"
    )
    first = next(iter(runs))
    for name, run in runs.items():
        per_deal = [s / n for s, n in zip(run.seconds, deals, strict=True)]
        nodes = sum(run.nodes)
        print(
            f"{name:<10} {1000 * sum(run.seconds) / total_deals:7.3f} ms a deal (mean), "
            f"median of decisions {1000 * statistics.median(per_deal):7.3f} ms a deal, "
            f"total {sum(run.seconds):7.2f} s, nodes {nodes:,} ({nodes / total_deals:,.0f} a deal), "
            f"table hits {sum(run.hits) / max(nodes, 1):.1%} of nodes"
        )
        if name == first:
            continue
        base = runs[first]
        ratios = [b / s for b, s in zip(base.seconds, run.seconds, strict=True) if s > 0]
        print(
            f"{'':<10} {first}/{name}: time {sum(base.seconds) / sum(run.seconds):.2f}x "
            f"(median of decisions {statistics.median(ratios):.2f}x), "
            f"nodes {sum(base.nodes) / max(nodes, 1):.2f}x"
        )
        for group in dict.fromkeys(sorted(map(_group, decisions), key=_order)):
            idx = [i for i, d in enumerate(decisions) if _group(d) == group]
            b = sum(base.seconds[i] for i in idx)
            s = sum(run.seconds[i] for i in idx)
            bn = sum(base.nodes[i] for i in idx)
            sn = sum(run.nodes[i] for i in idx)
            n = sum(deals[i] for i in idx)
            print(
                f"{'':<12} {group:<18} {len(idx):3d} decisions, {n:5d} deals, "
                f"{1000 * b / n:7.3f} -> {1000 * s / n:7.3f} ms a deal ({b / max(s, 1e-9):.2f}x), "
                f"nodes {bn / max(sn, 1):.2f}x"
            )


def _group(decision: Decision) -> str:
    if decision.phase == "play":
        return f"play, {decision.left:2d} left"
    return decision.phase


def _order(group: str) -> tuple[int, str]:
    return (
        0 if not group.startswith("play") else 1,
        "" if not group.startswith("play") else f"{99 - int(group.split()[1]):02d}",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=3, help="seeded hands to record")
    parser.add_argument("--player", default="expert", help="the player at every seat")
    parser.add_argument("--preset", default="australian")
    parser.add_argument(
        "--repeat", type=int, default=3, help="solves of each decision kept best of"
    )
    args = parser.parse_args()
    start = time.perf_counter()
    decisions = record(args.hands, args.player, args.preset)
    print(f"recorded {args.hands} hands of {args.player} in {time.perf_counter() - start:.1f} s")
    runs, unequal = measure(decisions, args.repeat)
    report(decisions, runs)
    print("values equal to the game's" if not unequal else f"UNEQUAL VALUES: {unequal}")
    if unequal:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
