"""Fit the game-winning chance used by pimc (``fivehundred.bots.equity``).

    python bench/fit_equity.py --games 600 [--preset six_handed]

Plays heuristic-against-heuristic games (australian rules, or a preset the model covers:
``three_handed``, ``six_handed``), notes the sides' scores before every hand and which side
went on to win, and fits the model of :func:`fivehundred.bots.equity.model_chances` (a
softmax of the points each side still needs, over the square root of what they all need:
with two sides, a logistic of the lead) by a grid search on the log-likelihood. Prints the
fitted constants and the observed win rate in a few score buckets against the model's.
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from fivehundred.bots import make_player
from fivehundred.bots.equity import model_chances
from fivehundred.game import GameState
from fivehundred.rules import make_rules

Row = tuple[tuple[int, ...], int]


def collect(games: int, seed: int, preset: str) -> list[Row]:
    """(the scores, ours first, and 1 if we won) for each side before each hand."""
    rules = make_rules(preset)
    seats = rules.seats
    rows: list[Row] = []
    for g in range(games):
        game = GameState(rules, seed=f"equity/{seed}/{g}", first_dealer=g % seats)
        players = [make_player("heuristic", seed=g * 10 + s) for s in range(seats)]
        starts: list[tuple[int, ...]] = []
        while not game.is_over and len(game.finished_hands) < 100:
            starts.append(tuple(game.scores))
            state = game.hand
            while not state.is_over:
                seat = state.to_move
                state.apply(players[seat].act(state.observation(seat, tuple(game.scores))))
            game.finish_hand()
        if game.winner is None:
            continue
        for scores in starts:
            for side in range(len(scores)):
                ordered = scores[side:] + scores[:side]
                rows.append((ordered, int(game.winner == side)))
    return rows


def loglik(rows: list[Row], scale: float, room: float) -> float:
    """The log-likelihood of the games' results under the model (numpy, the same formula
    as :func:`~fivehundred.bots.equity.model_chances`)."""
    scores = np.array([r[0] for r in rows], dtype=float)
    won = np.array([r[1] for r in rows])
    needs = np.maximum(500 - scores, 10)
    spread = np.sqrt(100.0 * (needs.sum(axis=1) + room))
    logits = -scale * needs / spread[:, None]
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits[:, 0]) / np.exp(logits).sum(axis=1)
    p = np.clip(p, 1e-6, 1 - 1e-6)
    return float(np.sum(np.where(won > 0, np.log(p), np.log(1 - p))))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="australian")
    args = parser.parse_args()
    rows = collect(args.games, args.seed, args.preset)
    print(f"{len(rows)} positions from {args.games} games")
    best = max(
        ((s / 100, r) for s in range(50, 1000, 5) for r in range(0, 20001, 250)),
        key=lambda sr: loglik(rows, *sr),
    )
    fair = 1 / len(rows[0][0])
    coin = sum(math.log(fair) if won else math.log(1 - fair) for _, won in rows)
    print(
        f"fitted: scale {best[0]:.2f}, room {best[1]:.0f}; log-likelihood "
        f"{loglik(rows, *best):.1f} (fair shares: {coin:.1f})"
    )
    buckets: dict[tuple[int, int], list[tuple[int, float]]] = {}
    for scores, won in rows:
        us, them = scores[0], max(scores[1:])
        key = (min(max(us // 100, -2), 4), min(max(them // 100, -2), 4))
        buckets.setdefault(key, []).append((won, model_chances(scores, *best)[0]))
    print("our score, the best other score (hundreds): games, observed, model")
    for key in sorted(buckets):
        got = buckets[key]
        if len(got) >= 30:
            seen = sum(w for w, _ in got) / len(got)
            model = sum(p for _, p in got) / len(got)
            print(f"  {key[0]:+d} {key[1]:+d}: {len(got):5d}  {seen:.2f}  {model:.2f}")


if __name__ == "__main__":
    main()
