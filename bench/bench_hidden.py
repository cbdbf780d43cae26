"""Measure the model of the hidden cards on held-out hands, per phase.

    python bench/bench_hidden.py [--hands 300] [--seed 3] [--draws 16] [--player medium]

Plays ``--hands`` hands of ``--player`` self-play on seeds the training never saw and, at the
start of the play (after the auction and the discard), after 3 tricks and after 6, takes
every seat's view. For each view it prints, per phase, with a 95 % interval over the hands:

- the exact log-likelihood (nats) of the true hidden cards under the model's belief and
  under the uniform distribution over the deals consistent with what the seat has seen
  (hand sizes, voids, cards seen), and their difference;
- how well sampled deals match the truth: the share of hidden cards each sampler puts in
  their true place, over ``--draws`` deals a view, for the uniform sampler, pimc's own
  sampler (the auction's reads, the contractor's share of trumps) and the model's.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

from fivehundred.bots import PimcPlayer, hidden, make_player
from fivehundred.game import HandState
from fivehundred.rules import make_rules

PHASES = (0, 3, 6)


def interval(values: list[float]) -> tuple[float, float, float]:
    """Mean and a normal-approximation 95 % interval."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / len(values) ** 0.5 if len(values) > 1 else 0.0
    return mean, mean - half, mean + half


def hit_rate(
    samples: list[list[int]], truth: list[int], unseen: int, seats: tuple[int, ...]
) -> float:
    """Share of the hidden cards the sampled deals put where they truly lie (a hand of
    ``seats``, or the kitty)."""
    kitty = unseen
    for s in seats:
        kitty &= ~truth[s]
    hits = 0
    for hands in samples:
        placed = kitty
        for s in seats:
            placed &= ~hands[s]
            hits += (hands[s] & truth[s] & unseen).bit_count()
        hits += placed.bit_count()
    return hits / max(len(samples) * unseen.bit_count(), 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--draws", type=int, default=16)
    parser.add_argument("--player", default="medium", help="the players of the hands")
    args = parser.parse_args()
    params = hidden.shipped()
    if params is None:
        raise SystemExit("no shipped weights: run bench/train_hidden.py")
    rules = make_rules("australian")
    pimc = PimcPlayer(0, beliefs=False)
    rng = random.Random(args.seed)
    start = time.process_time()
    # phase -> hand -> lists of (model LL, uniform LL, hidden cards, hits u/p/m)
    rows: dict[int, dict[int, list[tuple[float, ...]]]] = {p: {} for p in PHASES}
    for h in range(args.hands):
        state = HandState.deal(rules, h % 4, f"hidden-bench/{args.seed}/{h}")
        players = [make_player(args.player, args.seed * 1_000_003 + h * 4 + s) for s in range(4)]
        while not state.is_over:
            seat = state.to_move
            obs = state.observation(seat)
            if state.phase == "play" and not obs.trick and len(obs.tricks) in PHASES:
                for view in (state.observation(s) for s in range(4)):
                    position = hidden.encode(view)
                    belief = hidden.believe(view, params)
                    if position is None or belief is None:
                        continue
                    truth = hidden.labels(position, state.hands)
                    flat = hidden.uniform(position)
                    others = position.seats[:3]
                    gen = np.random.default_rng(rng.getrandbits(64))
                    draws = {
                        "uniform": [flat.hands(p, view) for p in flat.sample(gen, args.draws)],
                        "model": [belief.hands(p, view) for p in belief.sample(gen, args.draws)],
                        "pimc": [
                            pimc.sample_hands(view, rng) or [0] * 4 for _ in range(args.draws)
                        ],
                    }
                    hits = [
                        hit_rate(draws[k], state.hands, view.unseen, others)
                        for k in ("uniform", "pimc", "model")
                    ]
                    rows[len(view.tricks)].setdefault(h, []).append(
                        (
                            belief.log_likelihood(truth),
                            flat.log_likelihood(truth),
                            float(view.unseen.bit_count()),
                            *hits,
                        )
                    )
            state.apply(players[seat].act(obs))
    print(
        f"{args.hands} held-out hands of {args.player} self-play (seed {args.seed}), every seat; "
        f"{time.process_time() - start:.0f} s CPU"
    )
    names = ("after the auction", "after 3 tricks", "after 6 tricks")
    for phase, name in zip(PHASES, names, strict=True):
        by_hand = rows[phase]
        views = sum(len(v) for v in by_hand.values())

        def per_hand(
            index: int, by_hand: dict[int, list[tuple[float, ...]]] = by_hand
        ) -> list[float]:
            return [statistics.fmean(r[index] for r in rs) for rs in by_hand.values()]

        gain = [statistics.fmean(r[0] - r[1] for r in rs) for rs in by_hand.values()]
        cards = statistics.fmean(per_hand(2))
        print(f"\n{name}: {views} views in {len(by_hand)} hands, {cards:.1f} hidden cards a view")
        for label, values in (
            ("model log-likelihood", per_hand(0)),
            ("uniform log-likelihood", per_hand(1)),
            ("model less uniform", gain),
        ):
            mean, low, high = interval(values)
            print(f"  {label}: {mean:.2f} nats ({low:.2f} to {high:.2f})")
        mean, low, high = interval([g / cards for g in gain])
        print(f"  model less uniform a hidden card: {mean:.3f} nats ({low:.3f} to {high:.3f})")
        for index, label in ((3, "uniform"), (4, "pimc"), (5, "model")):
            mean, low, high = interval(per_hand(index))
            print(
                f"  cards in their true place, {label} sampler: {100 * mean:.1f} % "
                f"({100 * low:.1f} to {100 * high:.1f})"
            )


if __name__ == "__main__":
    main()
