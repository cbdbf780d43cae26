"""A Gymnasium single-agent view: one seat (or one side) learns, the project's players
(``random``, ``heuristic``, ``pimc``, ``cmd:PROGRAM``) play every other seat.

>>> from fivehundred.env.single import SingleAgentEnv
>>> learner = SingleAgentEnv(opponents="random", side=0, seed=1)
>>> obs, info = learner.reset(seed=1)
>>> int(obs["action_mask"].sum()) > 0
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np

from fivehundred.bots import Player, make_player
from fivehundred.env.aec import MAX_HANDS, FiveHundredEnv


class SingleAgentEnv(gymnasium.Env):
    """The learner controls ``seat`` (a player number), or every player of ``side``;
    ``opponents`` names the player for the other seats (one name, or a name per player
    number). Rewards and episodes as in :class:`~fivehundred.env.aec.FiveHundredEnv`; the
    reward of a step is everything the learner's side received since its last decision.
    ``action_masks()`` returns the legal-action mask (the MaskablePPO convention).
    """

    metadata = {"render_modes": ["human", "ansi"]}  # noqa: RUF012  (gymnasium's convention)

    def __init__(
        self,
        preset: str = "australian",
        variants: Mapping[str, Any] | None = None,
        opponents: str | Mapping[int, str] = "random",
        seat: int = 0,
        side: int | None = None,
        reward: str = "points",
        episode: str | None = None,
        max_hands: int = MAX_HANDS,
        seed: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        self.table = FiveHundredEnv(preset, variants, reward, episode, max_hands, render_mode)
        self.render_mode = render_mode
        sides = self.table.sides
        count = self.table.rules.players
        if side is not None:
            learners = [i for i in range(count) if sides[i] == side]
            if not learners:
                raise ValueError(f"no side {side}: these rules have {max(sides) + 1} sides")
        else:
            if not 0 <= seat < count:
                raise ValueError(f"seat must be 0 … {count - 1}; got {seat}")
            learners = [seat]
        self.learners = tuple(self.table.possible_agents[i] for i in learners)
        others = [i for i in range(count) if i not in learners]
        names = {i: opponents for i in others} if isinstance(opponents, str) else dict(opponents)
        missing = [i for i in others if i not in names]
        if missing:
            raise ValueError(f"no opponent named for player(s) {missing}")
        for i in others:
            name = names[i]
            if not name.startswith("cmd:"):
                make_player(name, 0)  # raises ValueError with the list of players
        self.opponent_names = {i: names[i] for i in others}
        self.observation_space = self.table.observation_space(self.learners[0])
        self.action_space = self.table.action_space(self.learners[0])
        self._seed = seed
        self._rng = random.Random(seed)
        self.players: dict[int, Player] = {}

    def _make_players(self, seed: int) -> None:
        self.close()
        self.players = {
            i: make_player(name, seed=seed * 31 + i) for i, name in self.opponent_names.items()
        }

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        episode_seed = self._rng.getrandbits(32)
        if seed is not None or not self.players:
            self._make_players(episode_seed)
        self.table.reset(seed=episode_seed)
        reward = self._advance()
        first = self.learners[0]
        while self.table.terminations[first] or self.table.truncations[first]:
            # over before the learner's first decision: play the next deal instead
            self.table.reset(seed=self._rng.getrandbits(32))
            reward = self._advance()
        return self._observe(), {"reward_before_first_move": reward}

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        table = self.table
        agent = table.agent_selection
        if agent not in self.learners or table.terminations[agent] or table.truncations[agent]:
            raise ValueError("the episode is over: call reset()")
        reward = self._step(action)
        reward += self._advance()
        first = self.learners[0]
        return (self._observe(), reward, table.terminations[first], table.truncations[first], {})

    def _step(self, action: Any) -> float:
        table = self.table
        hand = table.hand
        table.step(action)
        if hand is not None and hand.is_over:
            summary: dict[str, object] = {
                "points": list(hand.result.points),
                "scores": list(table.scores),
            }
            for player in self.players.values():
                player.hand_over(summary)
        return float(table.rewards[self.learners[0]])

    def _advance(self) -> float:
        """Let the other players move until it is the learner's turn or the episode ends."""
        table = self.table
        reward = 0.0
        first = self.learners[0]
        while not (table.terminations[first] or table.truncations[first]):
            agent = table.agent_selection
            if agent in self.learners:
                break
            hand = table.hand
            assert hand is not None
            index = table.possible_agents.index(agent)
            observation = hand.observation(hand.to_move, table.scores)
            reward += self._step(self.players[index].act(observation))
        return reward

    def _observe(self) -> dict[str, np.ndarray]:
        agent = self.table.agent_selection
        return self.table.observe(agent if agent in self.learners else self.learners[0])

    def action_masks(self) -> np.ndarray:
        """The legal-action mask now (all zero once the episode is over)."""
        return self._observe()["action_mask"].astype(bool)

    def render(self) -> str | None:
        return self.table.render()

    def close(self) -> None:
        for player in self.players.values():
            close = getattr(player, "close", None)
            if close is not None:
                close()
        self.players = {}
