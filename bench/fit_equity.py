"""Fit the four-handed game-winning chance used by pimc (``fivehundred.bots.equity``).

    python bench/fit_equity.py --games 600

Plays heuristic-against-heuristic games (australian rules), notes the two sides' scores
before every hand and which side went on to win, and fits the model of
:func:`fivehundred.bots.equity.win_chance` (a logistic of the lead in points still to go,
scaled by the points both sides still need) by a grid search on the log-likelihood. Prints
the fitted constants and the observed win rate in a few score buckets against the model's.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from fivehundred.bots import make_player
from fivehundred.bots.equity import model_chance
from fivehundred.game import GameState
from fivehundred.rules import make_rules


def collect(games: int, seed: int) -> list[tuple[int, int, int]]:
    """(our score, their score, 1 if we won) for each side before each hand."""
    rules = make_rules("australian")
    rows: list[tuple[int, int, int]] = []
    for g in range(games):
        game = GameState(rules, seed=f"equity/{seed}/{g}", first_dealer=g % 4)
        players = [make_player("heuristic", seed=g * 10 + s) for s in range(4)]
        starts: list[tuple[int, int]] = []
        while not game.is_over and len(game.finished_hands) < 100:
            starts.append((game.scores[0], game.scores[1]))
            state = game.hand
            while not state.is_over:
                seat = state.to_move
                state.apply(players[seat].act(state.observation(seat, tuple(game.scores))))
            game.finish_hand()
        if game.winner is None:
            continue
        for a, b in starts:
            rows.append((a, b, int(game.winner == 0)))
            rows.append((b, a, int(game.winner == 1)))
    return rows


def loglik(rows: list[tuple[int, int, int]], scale: float, room: float) -> float:
    """The log-likelihood of the games' results under the model (numpy, the same formula
    as :func:`~fivehundred.bots.equity.model_chance`)."""
    data = np.array(rows, dtype=float)
    need_us = np.maximum(500 - data[:, 0], 10)
    need_them = np.maximum(500 - data[:, 1], 10)
    x = (need_them - need_us) / np.sqrt(100.0 * (need_us + need_them + room))
    p = np.clip(1.0 / (1.0 + np.exp(-scale * x)), 1e-6, 1 - 1e-6)
    return float(np.sum(np.where(data[:, 2] > 0, np.log(p), np.log(1 - p))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rows = collect(args.games, args.seed)
    print(f"{len(rows)} positions from {args.games} games")
    best = max(
        ((s / 100, r) for s in range(50, 1000, 5) for r in range(0, 20001, 250)),
        key=lambda sr: loglik(rows, *sr),
    )
    print(f"fitted: scale {best[0]:.2f}, room {best[1]:.0f}; log-likelihood "
          f"{loglik(rows, *best):.1f} (coin: {len(rows) * math.log(0.5):.1f})")  # fmt: skip
    buckets: dict[tuple[int, int], list[tuple[int, float]]] = {}
    for us, them, won in rows:
        key = (min(max(us // 100, -2), 4), min(max(them // 100, -2), 4))
        buckets.setdefault(key, []).append((won, model_chance(us, them, *best)))
    print("our score, their score (hundreds): games, observed, model")
    for key in sorted(buckets):
        got = buckets[key]
        if len(got) >= 30:
            seen = sum(w for w, _ in got) / len(got)
            model = sum(p for _, p in got) / len(got)
            print(f"  {key[0]:+d} {key[1]:+d}: {len(got):5d}  {seen:.2f}  {model:.2f}")


if __name__ == "__main__":
    main()
