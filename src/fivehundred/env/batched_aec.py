"""A thin PettingZoo adapter over the batched environment's C core: one table, the AEC
interface of :mod:`fivehundred.env.aec` (every preset without house rules, one-hand
episodes, points as rewards), its
observations and masks those of ``raw_env`` (see docs/env.md, "The batched environment").

>>> from fivehundred.env.batched_aec import batched_raw_env
>>> table = batched_raw_env()
>>> table.reset(seed=1)
>>> obs, reward, terminated, truncated, info = table.last()
>>> int(obs["action_mask"].sum()) > 0
True

Its seed is the table's seed (:mod:`fivehundred.env.batched`): ``reset(seed=s)`` deals
``HandState.deal(rules, dealer, hand_seed(s, 0))``, which :meth:`hand_state` returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from fivehundred.actions import NUM_ACTIONS
from fivehundred.env.batched import BatchedEnv
from fivehundred.env.encoding import SCORE_LIMIT
from fivehundred.game import HandState, controller_of


class BatchedAECEnv(AECEnv):  # type: ignore[misc]
    """One table of :class:`~fivehundred.env.batched.BatchedEnv` as a PettingZoo AEC
    environment: ``player_0`` … ``player_{n-1}``, one hand an episode, each agent's reward its
    side's points when the hand is scored."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": [],
        "name": "fivehundred_batched_v0",
        "is_parallelizable": False,
    }

    def __init__(self, preset: str = "australian", variants: Mapping[str, Any] | None = None):
        super().__init__()
        self.table = BatchedEnv(1, preset, variants, autoreset=False)
        self.rules = self.table.rules
        self.possible_agents = [f"player_{i}" for i in range(self.rules.players)]
        vector = spaces.Box(-SCORE_LIMIT, SCORE_LIMIT, (self.table.encoder.size,), np.float32)
        mask = spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": vector, "action_mask": mask})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._mask = np.zeros(NUM_ACTIONS, np.int8)
        self._to_move = -1

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        _, infos = self.table.reset(seed=seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._select(infos)

    def _select(self, infos: dict[str, Any]) -> None:
        self._mask = infos["action_mask"][0]
        self._to_move = int(infos["to_move"][0])
        if self._to_move >= 0:  # (two players: a dummy's owner decides for it)
            self.agent_selection = self.possible_agents[controller_of(self.rules, self._to_move)]

    def hand_state(self) -> HandState:
        """The engine's hand as this table's hand was dealt."""
        return self.table.hand_state(0)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        if self._to_move >= 0 and controller_of(self.rules, self._to_move) == seat:
            seat = self._to_move  # the seat it decides for now (as fivehundred.env.aec)
        mask = self._mask if seat == self._to_move else np.zeros(NUM_ACTIONS, np.int8)
        return {"observation": self.table.observe(0, seat), "action_mask": mask.copy()}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not 0 <= int(action) < NUM_ACTIONS or not self._mask[int(action)]:
            raise ValueError(f"{agent}: action {action!r} is not legal now")
        for a in self.agents:
            self.rewards[a] = 0.0
        self._cumulative_rewards[agent] = 0.0
        _, rewards, terminations, _, infos = self.table.step([int(action)])
        self._select(infos)
        if terminations[0]:
            for i, a in enumerate(self.agents):
                self.rewards[a] = float(rewards[0, i])
                self.terminations[a] = True
            self._accumulate_rewards()

    def close(self) -> None:
        pass


def batched_raw_env(
    preset: str = "australian", variants: Mapping[str, Any] | None = None
) -> BatchedAECEnv:
    """The PettingZoo adapter (no wrappers): see :class:`BatchedAECEnv`."""
    return BatchedAECEnv(preset, variants)
