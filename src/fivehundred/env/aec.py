"""The PettingZoo AEC environment (see docs/env.md).

>>> from fivehundred.env import env
>>> table = env(preset="australian")
>>> table.reset(seed=1)
>>> obs, reward, terminated, truncated, info = table.last()
>>> obs["observation"].shape == table.observation_space("player_0")["observation"].shape
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar, NoReturn

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from fivehundred.actions import NUM_ACTIONS, action_text
from fivehundred.env.encoding import SCORE_LIMIT, Encoder
from fivehundred.env.render import table_text
from fivehundred.game import DONE, GameState, HandState, controller_of
from fivehundred.rules import make_rules
from fivehundred.scoring import side_of_seats

_UINT8 = np.dtype(np.uint8)
_FLOAT32 = np.dtype(np.float32)
_INT8 = np.dtype(np.int8)
REWARDS = ("points", "game")
EPISODES = ("hand", "game")
#: A whole-game episode is truncated after this many hands (the arena's limit).
MAX_HANDS = 100
#: the attributes the C extension's Driver reads and sets (FiveHundredEnv's slots: see
#: FiveHundredEnv._drive); the instances keep a __dict__ for all others
_DRIVEN = (
    "_cumulative_rewards",
    "_legal",
    "agent_selection",
    "game",
    "hand",
    "infos",
    "render_mode",
    "terminations",
    "truncations",
)


class FiveHundredEnv(AECEnv):  # type: ignore[misc]
    """Five Hundred for ``rules.players`` agents, ``player_0`` … ``player_{n-1}``.

    ``reward="points"``: each agent receives its side's points when a hand is scored;
    ``reward="game"``: +1 / −1 when the game is won / lost (0 for a game stopped at
    ``max_hands`` or tied). ``episode="hand"`` ends after one hand (the default with
    points), ``"game"`` plays to the target (the only choice with ``reward="game"``).
    ``compiled``: build observations with the C extension where it is built
    (None), always (True) or never (False: pure Python); the observations are the same.
    """

    __slots__ = _DRIVEN

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "fivehundred_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        preset: str = "australian",
        variants: Mapping[str, Any] | None = None,
        reward: str = "points",
        episode: str | None = None,
        max_hands: int = MAX_HANDS,
        render_mode: str | None = None,
        *,
        compiled: bool | None = None,
    ) -> None:
        super().__init__()
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}; got {reward!r}")
        episode = episode or ("game" if reward == "game" else "hand")
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {', '.join(EPISODES)}; got {episode!r}")
        if reward == "game" and episode == "hand":
            raise ValueError("reward='game' needs episode='game' (a game result needs a game)")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be human, ansi or None; got {render_mode!r}")
        if max_hands <= 0:
            raise ValueError("max_hands must be positive")
        self.rules = make_rules(preset, variants)
        self.reward_mode = reward
        self.episode = episode
        self.max_hands = max_hands
        self.render_mode = render_mode
        self.encoder = Encoder(self.rules, compiled)
        speedups = self.encoder.speedups
        self._floats: Any = speedups.floats if speedups is not None else None
        self._mask: Any = speedups.mask if speedups is not None else None
        self._bits, self._vector = self.encoder.bits, self.encoder.vector
        self._bytes, self._size, self._unpack = (
            self.encoder.byte_size,
            self.encoder.size,
            self.encoder.unpack_table,
        )
        self.sides = side_of_seats(self.rules)
        self.possible_agents = [f"player_{i}" for i in range(self.rules.players)]
        self._index = {agent: i for i, agent in enumerate(self.possible_agents)}
        vector = spaces.Box(-SCORE_LIMIT, SCORE_LIMIT, (self.encoder.size,), np.float32)
        mask = spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)
        self.observation_spaces = {
            a: spaces.Dict({"observation": vector, "action_mask": mask})
            for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._rng = random.Random()
        self.game: GameState | None = None
        self.hand: HandState | None = None
        self._legal: list[int] = []
        self._dummies = bool(self.rules.dummies)
        #: the agent deciding for each seat (two players: a dummy's owner)
        # (seats that never move, the dead hands and the table's places, have none)
        self._agent_of = [
            self.possible_agents[controller_of(self.rules, seat)]
            if controller_of(self.rules, seat) < self.rules.players
            else ""
            for seat in range(self.rules.seats)
        ]
        #: the player deciding for each seat (as controller_of)
        self._controller = [controller_of(self.rules, seat) for seat in range(self.rules.seats)]
        #: the seat the agent to move observes from, by the seat to move (as observe has it:
        #: two players, the seat to move itself; else the agent's own seat), for last()
        self._view_seat = [
            seat if self._dummies else self._controller[seat] for seat in range(self.rules.seats)
        ]
        #: last() builds the observation itself (one-hand episodes, C extension)
        self._fast = False
        #: the C extension's tracker (Encoder.tracker): an observation in one call
        self._tracker = self.encoder.tracker()
        #: its observe(hand, seat, legal) where it answers (one-hand episodes), else None
        self._tracked: Any = None
        self._take = self._unpack.take

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------ episode
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        deal_seed = self._rng.getrandbits(64)
        if self.episode == "game":
            self.game = GameState(self.rules, seed=deal_seed)
            self.hand = self.game.hand
        else:
            self.game = None
            dealer = self._rng.randrange(self.rules.players)
            self.hand = HandState.deal(self.rules, dealer, deal_seed)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._rewarded = False
        self._fast = self.game is None and self._floats is not None
        self._tracked = self._tracker.observe if self._fast and self._tracker else None
        if self._tracked is not None and "step" not in self.__dict__ and self._plain:
            self._drive()
        self._select()

    def _drive(self) -> None:
        """last() and step() in C from now on: their hot paths (the C extension's Driver,
        reading and setting the slots); anything else is handed back to the methods below."""
        speedups: Any = self.encoder.speedups
        try:
            driver = speedups.Driver(
                self, self._tracker, FiveHundredEnv.last, FiveHundredEnv.step, DONE, self._agent_of
            )
        except TypeError:  # (a subclass's attributes are not the slots)
            return
        self.__dict__.update(last=driver.last, step=driver.step)

    @property
    def _plain(self) -> bool:
        """This class's own last() and step() (not a subclass's)."""
        kind = type(self)
        return kind.last is FiveHundredEnv.last and kind.step is FiveHundredEnv.step

    def _select(self) -> None:
        hand = self.hand
        assert hand is not None
        self._legal = hand.legal_actions()
        to_move = hand.to_move
        self.agent_selection = self._agent_of[to_move] if to_move >= 0 else self._agent_for(to_move)

    def _agent_for(self, to_move: int) -> str:
        """The agent deciding for a place that is not a seat (``to_move`` below 0)."""
        return self.possible_agents[controller_of(self.rules, to_move)]

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(self.game.scores) if self.game is not None else ()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        hand = self.hand
        assert hand is not None, "reset() first"
        player = self._index[agent]
        to_move = hand.to_move
        seat = player
        if self._dummies:  # (acting_seat, inlined)
            if to_move >= 0 and self._controller[to_move] == player:
                seat = to_move
            to_move = player if seat == to_move else -1
        tracked = self._tracked
        if tracked is not None and (
            obs := tracked(hand, seat, self._legal if to_move == player else None)
        ):
            return obs  # type: ignore[no-any-return]
        game = self.game
        floats = self._floats
        if game is not None:
            vector = self._vector(self._bits(hand, seat), seat, game.scores)
        elif floats is not None:  # (Encoder.vector without scores, inlined: the hot path)
            vector = np.frombuffer(floats(self._bits(hand, seat), self._size), _FLOAT32)
        else:
            raw = np.frombuffer(self._bits(hand, seat).to_bytes(self._bytes, "little"), _UINT8)
            vector = self._take(raw, 0).ravel()[: self._size]
        if to_move == player:  # (action_mask, inlined)
            if self._mask is not None:
                mask = np.frombuffer(self._mask(self._legal, NUM_ACTIONS), _INT8)
            else:
                legal = bytearray(NUM_ACTIONS)
                for action in self._legal:
                    legal[action] = 1
                mask = np.frombuffer(legal, _INT8)
        else:
            mask = np.zeros(NUM_ACTIONS, np.int8)
        return {"observation": vector, "action_mask": mask}

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        agent = self.agent_selection
        obs: dict[str, np.ndarray] | None = None
        if observe:
            hand: Any = self.hand  # (a hand whenever _fast is set: after reset())
            tracked = self._tracked
            if tracked is not None and (legal := self._legal):
                # (observe(agent) for the agent to move, in C: the hot path; the seat to move
                # is the one it observes from, a dummy too)
                obs = tracked(hand, hand.to_move, legal)
                if obs is not None:
                    return (
                        obs,
                        self._cumulative_rewards[agent],
                        self.terminations[agent],
                        self.truncations[agent],
                        self.infos[agent],
                    )
            if self._fast and self._legal and (to_move := hand.to_move) >= 0:
                # (observe(agent), inlined for the agent to move: the Python hot path)
                seat = self._view_seat[to_move]
                vector = np.frombuffer(self._floats(self._bits(hand, seat), self._size), _FLOAT32)
                if seat == to_move:
                    mask = np.frombuffer(self._mask(self._legal, NUM_ACTIONS), _INT8)
                else:
                    mask = np.zeros(NUM_ACTIONS, np.int8)
                obs = {"observation": vector, "action_mask": mask}
            else:
                obs = self.observe(agent)
        return (
            obs,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        legal = self._legal
        hand = self.hand
        if legal and self.game is None:  # one hand in play: the hot path (_select inlined)
            # (no reward is due before the hand is scored: nothing to reset)
            if action is None or (chosen := int(action)) not in legal:
                self._refuse(agent, action)
            assert hand is not None
            hand.apply(chosen)
            if hand.phase is not DONE:
                self._legal = hand.legal_actions()
                to_move = hand.to_move
                self.agent_selection = (
                    self._agent_of[to_move] if to_move >= 0 else self._agent_for(to_move)
                )
            else:
                self._hand_over(hand)
            if self.render_mode == "human":
                self.render()
            return
        if not legal and (self.terminations[agent] or self.truncations[agent]):
            self._was_dead_step(action)
            return
        assert hand is not None
        if action is None or (chosen := int(action)) not in legal:
            self._refuse(agent, action)
        if self._rewarded:
            for a in self.agents:
                self.rewards[a] = 0.0
            self._rewarded = False
        self._cumulative_rewards[agent] = 0.0
        game = self.game
        assert game is not None  # (one hand: above, where any action is legal)
        ended = False
        finished = hand
        game.apply(chosen)
        if finished.is_over:
            self._hand_scored(finished)
            self.hand = game.hand
            if game.is_over:
                self._end(self._game_rewards(), truncated=False)
                ended = True
            elif len(game.finished_hands) >= self.max_hands:
                self.hand = finished  # observations show the last hand played
                self._end(None, truncated=True)
                ended = True
        if not ended:
            self._select()
        if self._rewarded:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _hand_over(self, hand: HandState) -> None:
        """A one-hand episode's hand scored: its rewards, every agent terminated."""
        self._hand_scored(hand)
        self._end(None, truncated=False)
        self._accumulate_rewards()

    def _refuse(self, agent: str, action: Any) -> NoReturn:
        listed = " ".join(action_text(a, self.rules.joker_names) for a in self._legal)
        raise ValueError(f"{agent}: action {action!r} is not legal now (legal: {listed})")

    def _accumulate_rewards(self) -> None:
        if self._rewarded:  # rewards are all zero between scored hands
            super()._accumulate_rewards()

    def _hand_scored(self, hand: HandState) -> None:
        if self.reward_mode != "points":
            return
        points = hand.result.points
        for a in self.agents:
            self.rewards[a] = float(points[self.sides[self._index[a]]])
        self._rewarded = True

    def _game_rewards(self) -> dict[str, float] | None:
        if self.reward_mode != "game":
            return None
        game = self.game
        assert game is not None
        return {a: 1.0 if self.sides[self._index[a]] == game.winner else -1.0 for a in self.agents}

    def _end(self, rewards: dict[str, float] | None, truncated: bool) -> None:
        if rewards:
            self.rewards.update(rewards)
            self._rewarded = True
        for a in self.agents:
            if truncated:
                self.truncations[a] = True
            else:
                self.terminations[a] = True
        self._legal = []

    # ------------------------------------------------------------------ views
    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        hand = self.hand
        if hand is None:
            text = "(no hand: call reset())"
        else:
            played = len(self.game.finished_hands) if self.game is not None else 0
            text = table_text(hand, self.scores, played)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass


def raw_env(
    preset: str = "australian",
    variants: Mapping[str, Any] | None = None,
    reward: str = "points",
    episode: str | None = None,
    max_hands: int = MAX_HANDS,
    render_mode: str | None = None,
    *,
    compiled: bool | None = None,
) -> FiveHundredEnv:
    """The environment without PettingZoo's checking wrappers (fastest)."""
    return FiveHundredEnv(
        preset, variants, reward, episode, max_hands, render_mode, compiled=compiled
    )


def env(
    preset: str = "australian",
    variants: Mapping[str, Any] | None = None,
    reward: str = "points",
    episode: str | None = None,
    max_hands: int = MAX_HANDS,
    render_mode: str | None = None,
    *,
    compiled: bool | None = None,
) -> Any:
    """The environment wrapped in PettingZoo's order-enforcing checks (the environment
    itself refuses any action that is not legal, with the legal ones in the message)."""
    table: Any = raw_env(
        preset, variants, reward, episode, max_hands, render_mode, compiled=compiled
    )
    return _OrderEnforcingWrapper(table)


class _OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order-enforcing wrapper with a direct ``last()``: the same checks
    (before ``reset()`` it reports the error as PettingZoo does), then the environment's
    own ``last()`` rather than one wrapped attribute look-up per field."""

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        super().reset(seed=seed, options=options)
        # from now on the checks of last() and observe() always pass: the environment's
        # own methods answer them directly (one Python call less a step)
        self.__dict__["last"] = self.env.last
        self.__dict__["observe"] = self.env.observe

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            super().last(observe)  # PettingZoo's error for a call before reset()
        result: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return result

    def step(self, action: Any) -> None:
        # PettingZoo's checks in PettingZoo's order, reading the environment's attributes
        # directly rather than through the wrappers' ``__getattr__``
        if not self._has_reset or not self.env.agents:
            super().step(action)  # PettingZoo's error, or its warning after the end
            return
        self._has_updated = True
        self.env.step(action)

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            super().observe(agent)  # PettingZoo's error for a call before reset()
        return self.env.observe(agent)
