"""Decision time of the computer players (one core).

    python bench/bench_bots.py                # heuristic and pimc, 20 hands each
    python bench/bench_bots.py --hands 50 --players heuristic pimc:strong
    python bench/bench_bots.py --cpu --scores 450,460   # near the end of a game

For each player: the mean and the worst time per decision, over every decision (auction,
discard, play) and over the bids, the discards and the play decisions with a choice, in
hands where all four seats are that player (pimc solves sampled deals for its bids and
its discard too). Targets: heuristic <= 5 ms a decision, pimc <= 50 ms on average and
<= 1 s at worst at its default. Level names (easy, medium, hard, expert) work too.
"""

from __future__ import annotations

import argparse
import statistics
import time

from fivehundred.bots import make_player
from fivehundred.game import HandState
from fivehundred.rules import make_rules


def bench(name: str, hands: int, preset: str, cpu: bool = False,
          scores: tuple[int, ...] = ()) -> dict[str, float]:  # fmt: skip
    clock = time.process_time if cpu else time.perf_counter
    rules = make_rules(preset)
    all_times: list[float] = []
    play_times: list[float] = []
    bid_times: list[float] = []
    discard_times: list[float] = []
    for seed in range(hands):
        state = HandState.deal(rules, seed % rules.players, f"bench/{seed}")
        players = [make_player(name, seed * 10 + seat) for seat in range(rules.seats)]
        while not state.is_over:
            seat = state.to_move
            obs = state.observation(seat, scores)
            start = clock()
            action = players[seat].act(obs)
            spent = clock() - start
            all_times.append(spent)
            if len(obs.legal) > 1:
                if state.phase == "play":
                    play_times.append(spent)
                elif state.phase == "auction":
                    bid_times.append(spent)
                elif state.phase == "discard":
                    discard_times.append(spent)
            state.apply(action)
    return {
        "decisions": len(all_times),
        "mean_ms": 1000 * statistics.fmean(all_times),
        "play_mean_ms": 1000 * statistics.fmean(play_times) if play_times else 0.0,
        "play_max_ms": 1000 * max(play_times, default=0.0),
        "bid_mean_ms": 1000 * statistics.fmean(bid_times) if bid_times else 0.0,
        "bid_max_ms": 1000 * max(bid_times, default=0.0),
        "discard_mean_ms": 1000 * statistics.fmean(discard_times) if discard_times else 0.0,
        "discard_max_ms": 1000 * max(discard_times, default=0.0),
        "max_ms": 1000 * max(all_times, default=0.0),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--preset", default="australian")
    parser.add_argument("--players", nargs="+", default=["heuristic", "pimc"])
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time the process's CPU, not the wall clock (on a shared machine)",
    )
    parser.add_argument(
        "--scores",
        default="",
        help="the game's scores before each hand, e.g. 450,460: decisions near the end of a "
        "game (pimc weighs the chance to win the game when a hand can end it)",
    )
    args = parser.parse_args()
    scores = tuple(int(x) for x in args.scores.split(",")) if args.scores else ()
    # Warm the caches (imports, the solver's table) outside the measurement.
    bench("pimc:2", 1, args.preset)
    for name in args.players:
        r = bench(name, args.hands, args.preset, args.cpu, scores)
        print(
            f"{name:14} {r['decisions']:6.0f} decisions  mean {r['mean_ms']:8.2f} ms  "
            f"play (choices >1): mean {r['play_mean_ms']:8.2f} ms, worst {r['play_max_ms']:8.1f} ms"
        )
        print(
            f"{'':14} bids: mean {r['bid_mean_ms']:8.2f} ms, worst {r['bid_max_ms']:8.1f} ms  "
            f"discards: mean {r['discard_mean_ms']:8.2f} ms, worst {r['discard_max_ms']:8.1f} ms  "
            f"any decision: worst {r['max_ms']:8.1f} ms"
        )


if __name__ == "__main__":
    main()
