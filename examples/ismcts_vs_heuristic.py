"""OpenSpiel's ISMCTS bot against the project's ``heuristic`` player, a few duplicate hands.

The game is ``python_five_hundred`` (``fivehundred.env.openspiel_game``); ISMCTS samples
the unseen cards with the game's ``resample_from_infostate`` and evaluates positions with
random rollouts. Each deal is played twice, ISMCTS on each side in turn, so both teams get
the same cards.

    pip install 'fivehundred[openspiel]'
    python examples/ismcts_vs_heuristic.py --hands 4 --simulations 100 --seed 1
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import fivehundred.env.openspiel_game  # registers python_five_hundred
from fivehundred.bots import make_player
from fivehundred.scoring import side_of_seats


def play_hand(
    game: pyspiel.Game, deal_seed: int, ismcts_side: int, simulations: int, seed: int
) -> list[float]:
    """One hand; returns each side's points."""
    rules = fivehundred.env.openspiel_game.rules_of(game.get_parameters())
    sides = side_of_seats(rules)
    random_state = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, random_state),
        uct_c=2.0,
        max_simulations=simulations,
        random_state=random_state,
    )
    heuristic = {p: make_player("heuristic", seed=seed * 7 + p) for p in range(rules.players)}
    state = game.new_initial_state()
    deal_rng = np.random.RandomState(deal_seed)
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[deal_rng.randint(len(outcomes))][0])
    while not state.is_terminal():
        player = state.current_player()
        if sides[player] == ismcts_side:
            action = bot.step(state)
        else:
            hand = state.hand
            action = heuristic[player].act(hand.observation(hand.to_move))
        state.apply_action(action)
    returns = state.returns()
    return [returns[sides.index(side)] for side in range(max(sides) + 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=4, help="duplicate deals (default 4)")
    parser.add_argument("--simulations", type=int, default=100, help="ISMCTS simulations a move")
    parser.add_argument("--preset", default="australian")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = pyspiel.load_game("python_five_hundred", {"preset": args.preset})
    diffs = []
    start = time.perf_counter()
    for index in range(args.hands):
        deal = args.seed * 1000 + index
        for side in (0, 1):
            points = play_hand(game, deal, side, args.simulations, deal * 2 + side)
            ismcts_points = points[side]
            others = [p for s, p in enumerate(points) if s != side]
            diffs.append(ismcts_points - sum(others) / len(others))
            print(f"deal {index + 1}, ISMCTS on side {side}: points {points}")
    mean = sum(diffs) / len(diffs)
    print(
        f"ISMCTS − heuristic per hand: {mean:+.1f} over {len(diffs)} hands "
        f"({time.perf_counter() - start:.0f} s)"
    )


if __name__ == "__main__":
    main()
