"""Regenerate the data and the weights of the model of the hidden cards, from seeds.

    python bench/train_hidden.py [--hands 30000] [--epochs 10] [--out PATH]

Plays ``--hands`` hands of ``medium`` self-play (deals and players seeded by ``--seed``),
keeps a quarter of the play positions with their true hidden cards, trains the network
(:func:`fivehundred.bots.hidden_train.train`), chooses the sharpening power that gives
the best exact log-likelihood on a separate validation set (seed ``--seed + 1``), and
writes the weights to ``src/fivehundred/bots/hidden_model.npz`` (or ``--out``). The
measuring set of ``bench/bench_hidden.py`` uses other seeds.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

from fivehundred.bots import hidden, hidden_train

POWERS = (0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=30_000)
    parser.add_argument("--valid-hands", type=int, default=300)
    parser.add_argument("--player", default="medium")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--hidden", default="256,256", help="hidden layer widths")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(hidden.WEIGHTS))
    args = parser.parse_args()
    start = time.process_time()
    data = hidden_train.generate(args.hands, args.seed, args.player)
    valid = hidden_train.generate(
        args.valid_hands, args.seed + 1, args.player, keep=0.0, starts=(0, 3, 6)
    )
    made = time.process_time()
    print(
        f"data: {len(data)} training positions from {args.hands} hands of {args.player} "
        f"self-play (seed {args.seed}), {len(valid)} validation positions; "
        f"{made - start:.0f} s CPU"
    )
    sizes = tuple(int(s) for s in args.hidden.split(","))
    params = hidden_train.train(data, sizes, args.epochs, seed=args.seed, log=True)
    trained = time.process_time()
    print(f"trained in {trained - made:.0f} s CPU")
    uniform = hidden_train.log_likelihoods(None, valid).mean()
    scores = {}
    for power in POWERS:
        scores[power] = hidden_train.log_likelihoods(params, valid, power).mean()
        print(
            f"power {power}: validation log-likelihood {scores[power]:.3f} (uniform {uniform:.3f})"
        )
    best = max(POWERS, key=lambda p: scores[p])
    hidden_train.save({k: v.astype(np.float32) for k, v in params.items()}, args.out, best)
    size = os.path.getsize(args.out)
    print(
        f"power {best}; wrote {args.out} ({size / 1e6:.2f} MB); {time.process_time() - start:.0f} s CPU in all"
    )


if __name__ == "__main__":
    main()
