"""A progressive hall night's costs at its largest: ``--tables`` tables of four (default
60) that each entered ``--hands`` hands (default 10) of the round, each hand a random made
or set contract (seeded). Times :func:`~fivehundred.web.events.hall_rounds.round_over`
(what the send that may end a round does: every table's round scored) and
:func:`~fivehundred.web.events.hall_rounds.close_round` (the next seating), the median of
``--repeat`` runs; and the join link's QR code (:func:`~fivehundred.web.events.hall_pages.join_qr`):
its time and its size in the page.

    python bench/bench_hall_rounds.py [--tables 60] [--hands 10] [--repeat 7] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from typing import Any

from fivehundred.pad import model
from fivehundred.web.events import hall_rounds
from fivehundred.web.events.hall_pages import join_qr


def states(tables: int, hands: int, seed: int) -> list[tuple[int, dict[str, Any]]]:
    rng = random.Random(seed)
    out = []
    for number in range(1, tables + 1):
        pad = model.new_pad([f"P{number}-{seat}" for seat in range(4)])
        for _ in range(hands):
            contract = rng.choice(["6S", "7C", "8H", "9D", "10NT"])
            level = int(contract[:-1] if contract[-1] != "T" else contract[:-2])
            tricks = rng.choice([level, level - 2])
            pad["hands"].append(
                {
                    "kind": "hand",
                    "contract": contract,
                    "contractor": rng.randrange(4),
                    "tricks": tricks,
                }
            )
        out.append((number, {"pads": [pad], "rounds": [1]}))
    return out


def timed(function: Any, repeat: int) -> float:
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=60)
    parser.add_argument("--hands", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    night = states(args.tables, args.hands, args.seed)
    progress = hall_rounds.new_progress(args.hands, None, 0.0)
    over = timed(lambda: hall_rounds.round_over(progress, [s for _, s in night], 0.0), args.repeat)

    def close() -> None:
        hall_rounds.close_round(dict(progress), night, 0.0)

    closing = timed(close, args.repeat)
    url = "https://fivehundred.example.org/pad?night=ABCDEF"
    qr = timed(lambda: join_qr.__wrapped__(url), args.repeat)  # drawn, not the cached
    print(f"{args.tables} tables x {args.hands} hands")
    print(f"round_over (the last send of a round): {over * 1000:.1f} ms")
    print(f"close_round (the next seating):        {closing * 1000:.1f} ms")
    print(f"join_qr: {qr * 1000:.1f} ms, {len(join_qr(url))} bytes of SVG")


if __name__ == "__main__":
    main()
