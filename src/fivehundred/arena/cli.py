"""``fivehundred arena``: measure two teams of players in duplicate matches.

    fivehundred arena --team-a pimc --team-b heuristic --games 200 --seed 1
    fivehundred arena --team-a heuristic --team-b random --hands 1000 --json
    fivehundred arena --team-a "cmd:python examples/simple_bot.py" --team-b random --games 4
    fivehundred arena --team-a pimc --team-b pimc:strong --decisions auction --hands 400

Each deal is played twice with the teams' seats swapped (with three or five players, or
three teams of two, once with team A in each seat or side, B playing all the others). Prints a progress bar
(deals done, team A's win rate so far and its 95% interval), then a
table (or ``--json``); ``--out`` keeps every hand as a record, ``--plot`` draws the points
per hand. ``--decisions PHASE`` compares the two players' choices in one phase instead
(:mod:`fivehundred.arena.decisions`).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

from fivehundred.arena.decisions import PHASES
from fivehundred.arena.runner import (
    BACKENDS,
    MAX_HANDS,
    MatchOutcome,
    duplicate_tasks,
    run_matches,
    sides_count,
)
from fivehundred.arena.stats import Summary, summarize, wilson_interval
from fivehundred.bots import player_choices
from fivehundred.errors import FiveHundredError
from fivehundred.record_cli import OneLineParser as _Parser
from fivehundred.record_cli import parse_variants
from fivehundred.rules import make_rules


def _parser() -> _Parser:
    p = _Parser(prog="fivehundred arena", description="Duplicate matches between two teams.")
    p.add_argument(
        "--team-a",
        required=True,
        help=f"player: a level or player offered to people ({', '.join(player_choices())}), "
        "a setting for measuring (heuristic:v1, heuristic:v2, pimc:N, pimc:fast, pimc:strong, "
        "pimc:postpone), or 'cmd:PROGRAM ARGS'",
    )
    p.add_argument("--team-b", required=True, help="player for the other side")
    size = p.add_mutually_exclusive_group()
    size.add_argument("--games", type=int, help="duplicate deals played as complete games")
    size.add_argument("--hands", type=int, help="duplicate deals played as single hands")
    p.add_argument("--seed", type=int, default=1, help="seed of the deals (default 1)")
    p.add_argument("--preset", default="australian", help="rules preset (default australian)")
    p.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME[=VALUE]",
        help="rules variant, repeatable (e.g. --variant target=300)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=os.cpu_count() or 1,
        help="parallel processes (default: all cores; at most 4 a core)",
    )
    p.add_argument(
        "--backend",
        choices=BACKENDS,
        default="local",
        help="local: a process pool (default); ray: a Ray cluster (RAY_ADDRESS, "
        "or a local Ray started for the run)",
    )
    p.add_argument(
        "--max-hands",
        type=int,
        default=MAX_HANDS,
        help=f"stop a game after this many hands (default {MAX_HANDS})",
    )
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--out", metavar="FILE", help="write every hand as a record (JSON lines)")
    p.add_argument("--plot", metavar="FILE.png", help="chart of the points per hand")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--decisions",
        choices=PHASES,
        metavar="PHASE",
        help="compare A's and B's choices in one phase (auction, discard or play): "
        "each deal is played by A, and where B would choose differently the hand "
        "is played on from both choices",
    )
    p.add_argument(
        "--scores",
        metavar="LO,HI",
        help="with --decisions: play each deal as a hand of a game, every side's "
        "score drawn from LO to HI, and measure the chance to win the game",
    )
    return p


def _fail(message: str) -> int:
    print(f"fivehundred arena: {message}", file=sys.stderr)
    return 2


def main(argv: list[str]) -> int:
    """Run the arena; returns the exit status."""
    args = _parser().parse_args(argv)
    try:
        rules = make_rules(args.preset, parse_variants(args.variant))
    except FiveHundredError as error:
        return _fail(str(error))
    deals = args.hands if args.hands is not None else args.games if args.games is not None else 10
    if deals <= 0 or args.workers <= 0 or args.max_hands <= 0:
        return _fail("--games/--hands, --workers and --max-hands must be positive")
    if args.plot and importlib.util.find_spec("matplotlib") is None:
        return _fail("--plot needs the 'arena' extra: pip install 'fivehundred[arena]'")
    from fivehundred.bots import make_player
    from fivehundred.bots.external import start_problem

    if args.decisions:
        return _decisions(args, rules, deals)
    if args.scores is not None:
        return _fail("--scores goes with --decisions (a match plays whole games or hands from 0-0)")
    for name in (args.team_a, args.team_b):
        try:
            if not name.startswith("cmd:"):
                make_player(name, 0)
            elif problem := start_problem(name[4:], rules):
                # before any hand: a stand-in would play the whole match in its place
                return _fail(problem)
        except ValueError as error:
            return _fail(str(error))
    try:
        tasks = duplicate_tasks(
            rules,
            args.team_a,
            args.team_b,
            deals,
            args.seed,
            args.hands is not None,
            bool(args.out),
            args.max_hands,
        )
    except ValueError as error:
        return _fail(str(error))
    if args.backend == "ray":
        try:
            import ray  # noqa: F401
        except ImportError:
            return _fail("--backend ray needs Ray: pip install 'fivehundred[ray]'")
    # no more processes than deals to play, nor than a few per core (each is CPU-bound)
    workers = min(args.workers, len(tasks), 4 * (os.cpu_count() or 1))
    try:
        outcomes = _run(tasks, workers, args.quiet or args.json, args.backend, sides_count(rules))
    except RuntimeError as error:
        if type(error).__name__ != "RayUnavailable":
            raise
        return _fail(str(error))
    summary = summarize(outcomes, args.team_a, args.team_b)
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as handle:
                for outcome in outcomes:
                    for hand in outcome.hands:
                        handle.write(json.dumps(hand.record) + "\n")
        except OSError as error:
            return _fail(f"cannot write {args.out}: {error.strerror}")
    if args.plot:
        try:
            plot_points(outcomes, summary, Path(args.plot))
        except OSError as error:
            return _fail(f"cannot write {args.plot}: {error.strerror}")
    if args.json:
        print(json.dumps(summary.to_json(), indent=2))
    else:
        print_table(summary, "hands" if args.hands is not None else "games")
    return 0


def _decisions(args: Any, rules: Any, deals: int) -> int:
    """``--decisions PHASE``: see :mod:`fivehundred.arena.decisions`."""
    from fivehundred.arena import decisions
    from fivehundred.bots import make_player

    if args.games is not None or args.plot or args.backend != "local":
        return _fail(
            "--decisions plays single hands on this machine: use --hands, "
            "without --games, --plot or --backend ray"
        )
    for name in (args.team_a, args.team_b):
        if name.startswith("cmd:"):
            return _fail("--decisions needs built-in players (a program cannot be asked twice)")
        try:
            make_player(name, 0)
        except ValueError as error:
            return _fail(str(error))
    scores = None
    if args.scores is not None:
        try:
            low, high = (int(part) for part in args.scores.split(","))
        except ValueError:
            return _fail(f"--scores takes two numbers, LO,HI (e.g. 250,480); got {args.scores!r}")
        scores = (low, high)
    try:
        tasks = decisions.decision_tasks(
            rules, args.team_a, args.team_b, args.decisions, deals, args.seed, scores
        )
    except ValueError as error:
        return _fail(str(error))
    workers = min(args.workers, len(tasks), 4 * (os.cpu_count() or 1))
    if args.quiet or args.json:
        outcomes = decisions.compare_decisions(tasks, workers)
    else:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeRemainingColumn(),
            transient=True,
            console=_console(stderr=True),
        ) as bar:
            job = bar.add_task("comparing", total=len(tasks))
            seen = [0]

            def advance(outcome: decisions.DealOutcome) -> None:
                seen[0] += len(outcome.disagreements)
                bar.update(job, advance=1, description=f"{seen[0]} disagreements")

            outcomes = decisions.compare_decisions(tasks, workers, advance)
    result = decisions.summary(outcomes, tasks[0])
    if args.out:
        try:
            with open(args.out, "w", encoding="utf-8") as handle:
                for row in decisions.disagreement_rows(outcomes):
                    handle.write(json.dumps(row) + "\n")
        except OSError as error:
            return _fail(f"cannot write {args.out}: {error.strerror}")
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    each, per_deal = result["b_minus_a_per_disagreement"], result["b_minus_a_per_deal"]
    at = f" at scores {scores[0]} to {scores[1]}" if scores else ""
    print(
        f"{args.decisions}{at}: {result['deals']} deals, {result['decisions']} decisions with "
        f"a choice, B ({args.team_b}) chose differently from A ({args.team_a}) "
        f"{result['disagreements']} times (the hand's result changed {result['changed_result']})"
    )
    unit = (
        "the chooser's side's chance to win the game, in percentage points"
        if scores
        else "points for the chooser's side"
    )
    print(
        f"B's choice less A's, {unit}: "
        f"{each['mean']:+.1f} a disagreement ({each['ci95'][0]:+.1f} to {each['ci95'][1]:+.1f}), "
        f"{per_deal['mean']:+.1f} a deal ({per_deal['ci95'][0]:+.1f} to "
        f"{per_deal['ci95'][1]:+.1f}, 95%)"
    )
    return 0


def progress_text(done: int, sides: int, wins: dict[str, int]) -> str:
    """The progress line: duplicate deals done, team A's win rate and its interval."""
    decided = wins["A"] + wins["B"]
    text = f"deals {done // sides}  A {wins['A']} – B {wins['B']}"
    if decided:
        lo, hi = wilson_interval(wins["A"], decided)
        text += f"  A wins {wins['A'] / decided:.1%} ({lo:.1%}–{hi:.1%})"
    return text


def _run(
    tasks: list[Any], workers: int, quiet: bool, backend: str = "local", sides: int = 2
) -> list[MatchOutcome]:
    if quiet:
        return run_matches(tasks, workers, backend=backend)
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        transient=True,
        console=_console(stderr=True),
    ) as bar:
        job = bar.add_task("playing", total=len(tasks))
        wins = {"A": 0, "B": 0}
        done = [0]

        def advance(outcome: MatchOutcome) -> None:
            done[0] += 1
            if outcome.winner:
                wins[outcome.winner] += 1
            bar.update(job, advance=1, description=progress_text(done[0], sides, wins))

        return run_matches(tasks, workers, advance, backend)


def _console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def print_table(summary: Summary, unit: str) -> None:
    """The results as rich tables on standard output."""
    from rich.table import Table

    console = _console()
    lo, hi = summary.win_interval
    mean, dlo, dhi = summary.difference
    parts = [_count(summary.deals, "duplicate deal")]
    if unit != "hands":
        parts.append(_count(summary.matches, "game"))
    parts.append(_count(summary.hands, "hand"))
    title = ", ".join(parts)
    table = Table(title=title)
    table.add_column("")
    table.add_column(f"A: {summary.team_a}", justify="right")
    table.add_column(f"B: {summary.team_b}", justify="right")
    table.add_row(f"{unit} won", str(summary.wins["A"]), str(summary.wins["B"]))
    table.add_row(
        "win rate (95% CI)",
        f"{summary.win_rate:.1%} ({lo:.1%}–{hi:.1%})",
        f"{1 - summary.win_rate:.1%}",
    )
    if summary.sides > 2:
        table.add_row(
            "fair share (one side of " + str(summary.sides) + ")",
            f"{1 / summary.sides:.1%}",
            "B: every other side",
        )
    table.add_row(
        "points per hand",
        f"{summary.points_per_hand['A']:.1f}",
        f"{summary.points_per_hand['B']:.1f}",
    )
    table.add_row("A − B per hand (95% CI)", f"{mean:+.1f} ({dlo:+.1f} to {dhi:+.1f})", "")
    strains = sorted(
        {s for by in summary.contracts.values() for s in by},
        key=lambda s: ("S", "C", "D", "H", "NT").index(s) if s in "SCDHNT" else 9,
    )
    for strain in strains:
        cells = []
        for team in ("A", "B"):
            s = summary.contracts[team].get(strain)
            cells.append(f"{s.bid} bid, {s.made} made, {s.set} set" if s else "–")
        table.add_row(f"contracts {strain}", *cells)
    for name, label in (("slam", "slam called"), ("claim", "claims")):
        if any(name in by for by in summary.house_calls.values()):
            cells = []
            for team in ("A", "B"):
                s = summary.house_calls[team].get(name)
                what = ("made", "failed") if name == "slam" else ("right", "wrong")
                cells.append(f"{s.bid}, {s.made} {what[0]}, {s.set} {what[1]}" if s else "–")
            table.add_row(label, *cells)
    if summary.thrown_in:
        table.add_row("hands thrown in", str(summary.thrown_in), "")
    cells = []
    for team in ("A", "B"):
        made, bid = summary.misere[team]
        cells.append(f"{made}/{bid}" + (f" ({made / bid:.0%})" if bid else ""))
    table.add_row("misère made", *cells)
    table.add_row(
        "ms per decision", f"{summary.decision_ms['A']:.2f}", f"{summary.decision_ms['B']:.2f}"
    )
    if summary.ties:
        table.add_row("ties", str(summary.ties), "")
    console.print(table)
    for problem in summary.problems[:20]:
        console.print(f"[yellow]external player:[/] {problem}")
    if len(summary.problems) > 20:
        console.print(f"… {len(summary.problems) - 20} more external-player problems")


def plot_points(outcomes: list[MatchOutcome], summary: Summary, path: Path) -> None:
    """Cumulative points per hand of both teams, all matches in order (matplotlib, Agg)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    a_total, b_total = 0.0, 0.0
    xs: list[int] = []
    a_series: list[float] = []
    b_series: list[float] = []
    for outcome in outcomes:
        for hand in outcome.hands:
            a_total += hand.points_a
            b_total += hand.points_b
            xs.append(len(xs) + 1)
            a_series.append(a_total)
            b_series.append(b_total)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    ax.plot(xs, a_series, label=f"A: {summary.team_a}")
    ax.plot(xs, b_series, label=f"B: {summary.team_b}")
    ax.set_xlabel("hand")
    ax.set_ylabel("cumulative points")
    ax.set_title(f"{summary.team_a} vs {summary.team_b}: {summary.win_rate:.0%} won by A")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
