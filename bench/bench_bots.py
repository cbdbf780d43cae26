"""Decision time of the computer players (one core): what a person waits for.

    python bench/bench_bots.py                    # the four levels, 2 whole games each
    python bench/bench_bots.py --games 5 --players medium hard
    python bench/bench_bots.py --hands 20 --players heuristic pimc:strong
    python bench/bench_bots.py --hands 12 --scores 450,460   # single hands near the end

For each player: the mean, the 99th percentile and the worst time per decision over every
decision (auction, discard, play; forced ones included, as a person waits for them too),
and the mean and worst over the bids, the discards and the play decisions with a choice.
Whole games (``--games``, the default) have all four seats played by that player from 0 to
the end, so the hands near the end of a game, where pimc weighs the chance to win the game,
are included; ``--hands`` plays single hands at fixed ``--scores``. Targets (docs/bots.md):
``medium`` mean under 5 ms; ``hard`` mean under 100 ms, 99th percentile under 1 s;
``expert`` mean under 300 ms, 99th percentile under 2 s. ``--cpu`` times the process's CPU
instead of the wall clock (on a shared machine). Any player name works (``pimc:N``, ...).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections.abc import Callable

from fivehundred.bots import make_player
from fivehundred.bots.base import Player
from fivehundred.bots.levels import LEVELS
from fivehundred.game import GameState, HandState
from fivehundred.observation import Observation
from fivehundred.rules import make_rules

#: Stop a benchmark game after this many hands (a game of bots takes about 7).
MAX_HANDS = 40


def percentile(values: list[float], share: float) -> float:
    """The nearest-rank percentile (``share`` in 0..1) of ``values``; 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(len(ordered) * share) - 1))]


class Timings:
    """Decision times, in seconds, all together and by kind."""

    def __init__(self) -> None:
        self.all: list[float] = []
        self.by_phase: dict[str, list[float]] = {"auction": [], "discard": [], "play": []}

    def time(self, player: Player, obs: Observation, clock: Callable[[], float]) -> int:
        start = clock()
        action = player.act(obs)
        spent = clock() - start
        self.all.append(spent)
        if len(obs.legal) > 1 and obs.phase in self.by_phase:
            self.by_phase[obs.phase].append(spent)
        return action

    def summary(self) -> dict[str, float]:
        def ms(values: list[float], how: Callable[[list[float]], float]) -> float:
            return 1000 * how(values) if values else 0.0

        result = {
            "decisions": float(len(self.all)),
            "mean_ms": ms(self.all, statistics.fmean),
            "p99_ms": 1000 * percentile(self.all, 0.99),
            "max_ms": ms(self.all, max),
        }
        for phase, key in (("auction", "bid"), ("discard", "discard"), ("play", "play")):
            result[f"{key}_mean_ms"] = ms(self.by_phase[phase], statistics.fmean)
            result[f"{key}_max_ms"] = ms(self.by_phase[phase], max)
        return result


def bench(
    name: str, hands: int, preset: str, cpu: bool = False, scores: tuple[int, ...] = ()
) -> dict[str, float]:
    """Single hands at fixed scores, all seats played by ``name``."""
    clock = time.process_time if cpu else time.perf_counter
    rules = make_rules(preset)
    timings = Timings()
    for seed in range(hands):
        state = HandState.deal(rules, seed % rules.players, f"bench/{seed}")
        players = [make_player(name, seed * 10 + seat) for seat in range(rules.seats)]
        while not state.is_over:
            seat = state.to_move
            state.apply(timings.time(players[seat], state.observation(seat, scores), clock))
    return timings.summary()


def bench_games(name: str, games: int, preset: str, cpu: bool = False) -> dict[str, float]:
    """Whole games from 0 to the end, all seats played by ``name``."""
    clock = time.process_time if cpu else time.perf_counter
    rules = make_rules(preset)
    timings = Timings()
    for seed in range(games):
        game = GameState(rules, f"bench-game/{seed}")
        players = [make_player(name, seed * 10 + seat) for seat in range(rules.seats)]
        while not game.is_over and len(game.finished_hands) < MAX_HANDS:
            seat = game.to_move
            game.apply(timings.time(players[seat], game.observation(seat), clock))
    return timings.summary()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    size = parser.add_mutually_exclusive_group()
    size.add_argument("--games", type=int, default=None, help="whole games (default 2)")
    size.add_argument("--hands", type=int, default=None, help="single hands at --scores")
    parser.add_argument("--preset", default="australian")
    parser.add_argument("--players", nargs="+", default=list(LEVELS))
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time the process's CPU, not the wall clock (on a shared machine)",
    )
    parser.add_argument(
        "--scores",
        default="",
        help="with --hands: the game's scores before each hand, e.g. 450,460: decisions near "
        "the end of a game (pimc weighs the chance to win the game when a hand can end it)",
    )
    args = parser.parse_args()
    scores = tuple(int(x) for x in args.scores.split(",")) if args.scores else ()
    if scores and args.hands is None:
        parser.error("--scores goes with --hands (whole games keep their own scores)")
    # Warm the caches (imports, the solver's table) outside the measurement.
    bench("pimc:2", 1, args.preset)
    unit = f"{args.hands} hands" if args.hands is not None else f"{args.games or 2} games"
    print(f"decision time per player ({unit}, {'CPU' if args.cpu else 'wall clock'}, ms)")
    for name in args.players:
        if args.hands is not None:
            r = bench(name, args.hands, args.preset, args.cpu, scores)
        else:
            r = bench_games(name, args.games or 2, args.preset, args.cpu)
        print(
            f"{name:14} {r['decisions']:6.0f} decisions  mean {r['mean_ms']:8.2f}  "
            f"p99 {r['p99_ms']:8.1f}  worst {r['max_ms']:8.1f}"
        )
        print(
            f"{'':14} bids: mean {r['bid_mean_ms']:8.2f}, worst {r['bid_max_ms']:8.1f}  "
            f"discards: mean {r['discard_mean_ms']:8.2f}, worst {r['discard_max_ms']:8.1f}  "
            f"play (choices >1): mean {r['play_mean_ms']:8.2f}, worst {r['play_max_ms']:8.1f}"
        )


if __name__ == "__main__":
    main()
