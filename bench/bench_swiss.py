"""The Swiss pairing's cost: a field of ``--pairs`` fixed partnerships (default 200) over
``--rounds`` rounds (default 9), each game's result drawn at random (seeded), each round
paired by :func:`fivehundred.web.events.pairing.swiss_round` from the whole history (the
standings worked out again each round, as the server does). Prints each round's time and
the slowest; the target is under a second a round.

    python bench/bench_swiss.py [--pairs 200] [--rounds 9] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time

from fivehundred.web.events.pairing import Played, RoundResult, standings, swiss_round


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    pairs = list(range(args.pairs))
    history: list[RoundResult] = []
    times = []
    for number in range(1, args.rounds + 1):
        start = time.perf_counter()
        round_ = swiss_round(pairs, history)
        times.append(time.perf_counter() - start)
        games = []
        for game in round_.games:
            ns, ew = rng.randrange(-200, 600, 10), rng.randrange(-200, 600, 10)
            winner = None if ns == ew else "ns" if ns > ew else "ew"
            games.append(Played(game.ns, game.ew, ns, ew, winner))
        history.append(RoundResult(tuple(games), round_.byes))
        print(f"round {number}: {len(round_.games)} games paired in {times[-1] * 1000:.1f} ms")
    lines = standings(pairs, history)
    repeats = sum(s.played for s in lines) - sum(len(s.met) for s in lines)
    print(
        f"{args.pairs} pairs, {args.rounds} rounds: slowest round {max(times) * 1000:.1f} ms, "
        f"mean {sum(times) / len(times) * 1000:.1f} ms; repeated meetings: {repeats // 2}; "
        f"seats off by more than one: {sum(abs(s.balance) > 1 for s in lines)}"
    )


if __name__ == "__main__":
    main()
