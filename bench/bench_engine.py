"""Engine speed: random complete hands (deal → auction → kitty → play → score).

Prints hands per second and actions per second for each preset, on one core, and the
ratio to a reference loop run in the same process (shuffling and summing a 43-card
list the same number of times), so figures from different machines can be compared.

    python bench/bench_engine.py [--hands 20000]
"""

from __future__ import annotations

import argparse
import random
import time

from fivehundred.game import DONE, HandState
from fivehundred.rules import make_rules


def random_hands(
    preset: str, variants: dict[str, object], hands: int, seed: int = 1
) -> tuple[float, int]:
    """CPU seconds to play ``hands`` random complete hands, and the actions taken."""
    rules = make_rules(preset, variants)
    rng = random.Random(seed)
    choose = rng.random
    actions = 0
    start = time.process_time()
    for index in range(hands):
        state = HandState.deal(rules, index % rules.seats, seed=index)
        while state.phase is not DONE:
            legal = state.legal_actions()
            state.apply(legal[int(choose() * len(legal))])
            actions += 1
        state.result  # noqa: B018  (scored)
    return time.process_time() - start, actions


def reference(hands: int) -> float:
    """A fixed pure-Python workload: shuffle a 43-card deck and take 50 random numbers."""
    rng = random.Random(0)
    deck = list(range(43))
    start = time.process_time()
    for _ in range(hands):
        rng.shuffle(deck)
        total = 0
        for _ in range(50):
            total += int(rng.random() * 10)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    args = parser.parse_args()
    ref = reference(args.hands)
    print(f"reference loop: {args.hands / ref:,.0f} iterations/s")
    for preset, variants in (
        ("australian", {}),
        ("american", {}),
        ("australian", {"allpass_play_nt": True, "two_jokers": True}),
    ):
        seconds, actions = random_hands(preset, variants, args.hands)
        label = preset + ("+" + ",".join(variants) if variants else "")
        print(
            f"{label:<45} {args.hands / seconds:>8,.0f} hands/s  {actions / seconds:>9,.0f} "
            f"actions/s  {actions / args.hands:5.1f} actions/hand  "
            f"{(args.hands / seconds) / (args.hands / ref):.3f}× reference"
        )


if __name__ == "__main__":
    main()
