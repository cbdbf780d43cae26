"""The batched environment: N tables stepped in one call by a C core (see docs/env.md,
"The batched environment").

>>> from fivehundred.env.batched import BatchedEnv
>>> tables = BatchedEnv(4)
>>> obs, infos = tables.reset(seed=7)
>>> obs.shape == (4, tables.encoder.size)
True
>>> obs, rewards, terminations, truncations, infos = tables.step(tables.sample_actions())
>>> rewards.shape, infos["action_mask"].shape
((4, 4), (4, 188))

The C core (the optional extension ``fivehundred.env._batched``, built at install) plays
the rule sets of :func:`supported`: every preset, with the house rules off. Its rule tables (the deal's order, the bids' ranks and values) and the
observation's layout come from the engine's and :mod:`fivehundred.env.encoding`'s own
definitions, gathered here into one int32 array (:func:`spec`); the observations it writes
are :meth:`Encoder.bits <fivehundred.env.encoding.Encoder.bits>`, bit for bit, packed
little-endian (bit ``i`` of the vector is bit ``i % 8`` of byte ``i // 8``).

Seeds: table ``i`` has a 64-bit seed (``seed + i`` from ``reset(seed=...)``, or one each
from ``reset(seed=[...])``). Its hand number ``k`` (0 for the first, counting the automatic
resets) is dealt as ``HandState.deal(rules, dealer, s)`` with ``s = hand_seed(seed, k)``
(splitmix64 of ``seed + (k + 1)·0x9E3779B97F4A7C15``) and
``dealer = ((s >> 32) * players) >> 32`` (four players: ``s >> 62``): :meth:`BatchedEnv.deals` gives both for every table now, and
:meth:`BatchedEnv.hand_state` builds the engine's hand from them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

import numpy as np

from fivehundred.actions import BLIND_MISERE, NUM_ACTIONS
from fivehundred.auction import allowed_contracts
from fivehundred.env.encoding import SCORE_LIMIT, Encoder
from fivehundred.game import PHASES, HandState, deal_plan, dummy_seats
from fivehundred.rules import (
    AMERICAN,
    JOKER_LEAD_NOT_RENOUNCED,
    MISERE_AFTER_SEVEN,
    PRESETS,
    REGISTRY,
    Rules,
    make_rules,
)
from fivehundred.scoring import DEFENDER_TRICK_POINTS, SLAM_MINIMUM, bid_value, side_of_seats

#: Most tables one environment steps.
MAX_TABLES = 65_536
#: Rule fields the C core follows where they differ from the Australian preset's (the
#: others must be the Australian preset's); the game-level ones (target, the 490 rule,
#: who wins) do not change a hand.
_FREE_FIELDS = frozenset(
    (
        "preset",
        "players",
        "auction",
        "misere",
        "misere_rank",
        "open_misere",
        "open_misere_rank",
        "open_misere_value",
        "misere_defenders_score",
        "misere_value",
        "joker_lead",
        "scoring_table",
        "rule_490",
        "win_rule",
        "target",
        "exact_target",
        "highest_wins",
        "minus_500_needs_other_positive",
        "point_spread",
        "two_jokers",
        "pack46",
        "failed_to_opponents",
        "called_partner",
        "partner_announces",
        "dummies",
    )
)
_PHASE_NAMES = ("auction", "discard", "nominate", "play", "done", "call")
_MASK_BYTES = (NUM_ACTIONS + 63) // 64 * 8


def compiled_core() -> Any:
    """The C core ``fivehundred.env._batched``, or None where it is not built."""
    try:
        from fivehundred.env import _batched
    except ImportError:
        return None
    return _batched


def _core() -> Any:
    core = compiled_core()
    if core is None:
        raise RuntimeError(
            "the batched environment needs the C extension fivehundred.env._batched "
            "(built by pip install with a C compiler)"
        )
    return core


def supported(rules: Rules) -> bool:
    """Whether the C core plays these rules: 2 to 6 players (no dead hand) and, but for
    the auction's style, the misère bids, the pack (one joker or two, the 46-card pack),
    the scoring table, a failed contract's value going to the other side, a called
    partner and the two-handed dummies, the Australian preset's rules: every preset with
    its house rules off."""
    base = PRESETS["australian"]
    if rules.blind_misere or rules.seats != (4 if rules.dummies else rules.players):
        return False
    return all(
        getattr(rules, f.name) == getattr(base, f.name)
        for f in dataclasses.fields(rules)
        if f.name not in _FREE_FIELDS
    )


def refusal(preset: str, variants: Mapping[str, Any] | None) -> str:
    """Why the batched environment refuses a preset with these variants (the rule sets it
    plays are :func:`supported`'s: the presets as they stand), naming the house rules."""
    asked = {name: value for name, value in (variants or {}).items() if value}
    house = [name for name in asked if name in REGISTRY and REGISTRY[name].house]
    why = f" ({', '.join(house)}: house {'rules' if len(house) > 1 else 'rule'}, R-HOUSE)"
    return (
        "the batched environment plays the presets as they stand, without house rules "
        f"or other variants: not {preset!r} with {asked}" + (why if house else "")
    )


def spec(rules: Rules, encoder: Encoder) -> np.ndarray:
    """The int32 array the C core reads: the rules' tables and the encoding's layout,
    each from its one definition (the engine's, :class:`Encoder`'s)."""
    core = _core()
    at = core.SPEC
    out = np.full(core.SPEC_SIZE, -1, np.int32)
    deck, owners = deal_plan(rules)
    out[at["deck_size"]] = len(deck)
    out[at["deck"] : at["deck"] + len(deck)] = deck
    out[at["owners"] : at["owners"] + len(owners)] = owners
    out[at["kitty_size"]] = rules.pack.kitty_size
    out[at["american"]] = rules.auction == AMERICAN
    out[at["misere_after_seven"]] = rules.misere == MISERE_AFTER_SEVEN
    out[at["misere_defenders_score"]] = rules.misere_defenders_score
    out[at["joker_not_renounced"]] = rules.joker_lead == JOKER_LEAD_NOT_RENOUNCED
    out[at["slam_minimum"]] = SLAM_MINIMUM
    out[at["defender_points"]] = DEFENDER_TRICK_POINTS
    out[at["failed_to_opponents"]] = rules.failed_to_opponents
    sides = side_of_seats(rules)
    out[at["nseats"]] = len(sides)
    out[at["called_partner"]] = rules.called_partner
    out[at["partner_announces"]] = rules.partner_announces
    out[at["called"]] = encoder.fields["called_card"].offset
    out[at["players"]] = rules.players
    out[at["dummies"]] = rules.dummies
    if rules.dummies and dummy_seats(rules) != (2, 3):
        raise ValueError("the C core's dummies sit at seats 2 and 3")
    out[at["side"] : at["side"] + len(sides)] = sides
    bids = [call for call in allowed_contracts(rules) if call != BLIND_MISERE]
    out[at["nbids"]] = len(bids)
    out[at["bids"] : at["bids"] + len(bids)] = bids
    for call in bids:
        out[at["value"] + call] = bid_value(call, rules)
    out[at["call_index"] : at["call_index"] + NUM_ACTIONS] = encoder.call_index
    out[at["obs_bits"]] = encoder.binary_size
    fields = encoder.fields
    for name in _PHASE_NAMES:
        out[at["phase_" + name]] = fields["phase"].offset + PHASES.index(name)
    for name in ("hand", "contract", "trump", "joker_suits", "discards", "suits_led"):
        out[at[name]] = fields[name].offset
    out[at["led"]] = fields["led_suit"].offset
    out[at["seats_offset"]] = encoder.seats_offset
    out[at["record"]] = encoder.record
    for name in (
        "calls",
        "played",
        "trick",
        "voids",
        "exposed",
        "to_move",
        "dealer",
        "contractor",
        "partner",
        "active",
    ):
        out[at["r_" + name]] = fields[name].offset
    out[at["r_won"]] = fields["tricks_won"].offset
    return out


def hand_seed(seed: int, index: int) -> int:
    """The seed of a table's hand number ``index`` (see the module docstring)."""
    return int(_core().hand_seed(seed, index))


def unpack_observations(packed: np.ndarray, encoder: Encoder) -> np.ndarray:
    """Packed observations (one row of bytes a table) as float32 vectors of
    :attr:`Encoder.size` (the scores 0, as in one-hand episodes): the vectors
    ``raw_env`` returns."""
    rows = packed.reshape(-1, packed.shape[-1])
    out = np.zeros((rows.shape[0], encoder.size), np.float32)
    out[:, : encoder.binary_size] = np.unpackbits(
        rows, axis=1, count=encoder.binary_size, bitorder="little"
    )
    return out.reshape((*packed.shape[:-1], encoder.size))


def unpack_masks(packed: np.ndarray) -> np.ndarray:
    """Packed action masks as int8 rows of :data:`~fivehundred.actions.NUM_ACTIONS`."""
    rows = packed.reshape(-1, packed.shape[-1])
    out = np.unpackbits(rows, axis=1, count=NUM_ACTIONS, bitorder="little").view(np.int8)
    return out.reshape((*packed.shape[:-1], NUM_ACTIONS))


class BatchedEnv:
    """``num_envs`` tables of one hand each, stepped together (Gymnasium ``VectorEnv``
    style, same-step autoreset: a table whose hand ends is dealt its next hand in the same
    step, and the observation returned is the new hand's).

    Each step takes one action per table, for the seat to move there
    (``infos["to_move"]``), and returns ``obs, rewards, terminations, truncations,
    infos``: the observations of the seats to move next (float32 vectors as ``raw_env``'s,
    or with ``packed`` the bits, ``encoder.binary_size`` of them in bytes, as
    :func:`unpack_observations` reads them), each seat's points when a hand ends
    (``rewards[i, seat]``, float32, one column a player, 0 otherwise), whether each table's hand ended, no
    truncations, and ``infos["action_mask"]`` (int8, or packed bits with ``packed``) and
    ``infos["to_move"]``. The observations and masks returned are the environment's own
    arrays, overwritten by the next ``step`` or ``reset`` (copy what you keep; the rewards,
    flags and ``to_move`` are fresh arrays). With ``autoreset`` false a table whose hand ends stays over (no
    legal action, ``to_move`` -1, seat 0's view) until :meth:`reset`. ``threads``: the C core steps sub-batches on this many threads
    (the GIL released).
    """

    metadata: ClassVar[dict[str, Any]] = {"autoreset_mode": "same_step"}

    def __init__(
        self,
        num_envs: int,
        preset: str = "australian",
        variants: Mapping[str, Any] | None = None,
        *,
        threads: int = 1,
        packed: bool = False,
        autoreset: bool = True,
    ) -> None:
        if not 1 <= num_envs <= MAX_TABLES:
            raise ValueError(f"num_envs must be 1 to {MAX_TABLES:,}; got {num_envs}")
        if not 1 <= threads <= 64:
            raise ValueError(f"threads must be 1 to 64; got {threads}")
        self.rules = make_rules(preset, variants)
        if not supported(self.rules):
            raise ValueError(refusal(preset, variants))
        self._core = _core()
        self.num_envs = num_envs
        self.threads = threads
        self.packed = packed
        self.autoreset = autoreset
        self.encoder = Encoder(self.rules, compiled=False)
        self.spec = spec(self.rules, self.encoder)
        self.players = self.rules.players
        n = num_envs
        width = self._core.TABLE_BYTES
        raw = np.zeros(n * width + 64, np.uint8)  # the tables, 64-byte aligned
        start = -raw.ctypes.data % 64
        self._state = raw[start : start + n * width]
        self._obs = np.zeros((n, (self.encoder.binary_size + 7) // 8), np.uint8)
        self._mask = np.zeros((n, _MASK_BYTES), np.uint8)
        self._to_move = np.zeros(n, np.int8)
        self._rewards = np.zeros((n, self.players), np.float32)
        self._done = np.zeros(n, np.uint8)
        self._actions = np.zeros(n, np.int64)
        self._seeds = np.zeros(n, np.uint64)
        self._reset = False
        self._masks_now = self._mask
        self._floats: np.ndarray | None = None
        self._masks = self._mask
        self._set_spaces()

    def _set_spaces(self) -> None:
        from gymnasium import spaces

        size = self.encoder.size
        self.single_observation_space = spaces.Box(-SCORE_LIMIT, SCORE_LIMIT, (size,), np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = spaces.Box(
            -SCORE_LIMIT, SCORE_LIMIT, (self.num_envs, size), np.float32
        )
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, NUM_ACTIONS))

    # ------------------------------------------------------------------ the API
    def reset(
        self, seed: int | Sequence[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Deal every table's first hand: table ``i``'s seed is ``seed + i`` (an int), the
        ``i``-th of ``seed`` (a sequence), or ``i`` (None)."""
        n = self.num_envs
        if seed is None or isinstance(seed, int | np.integer):
            base = int(seed or 0)
            if not 0 <= base < 1 << 64:
                raise ValueError("seed must be a non-negative 64-bit integer")
            self._seeds[:] = np.arange(n, dtype=np.uint64)
            self._seeds += np.uint64(base)  # (modulo 2**64)
        else:
            values = [int(v) for v in seed] if not isinstance(seed, np.ndarray) else None
            if values is not None:
                if len(values) != n or not all(0 <= v < 1 << 64 for v in values):
                    raise ValueError(f"seed: give {n} non-negative 64-bit integers, one a table")
                self._seeds[:] = np.array(values, np.uint64)
            else:
                array = np.asarray(seed)
                if array.shape != (n,) or array.dtype.kind not in "iu" or (array < 0).any():
                    raise ValueError(f"seed: give {n} non-negative 64-bit integers, one a table")
                self._seeds[:] = array.astype(np.uint64)
        self._core.reset(
            self.spec, self._state, self._seeds, self._obs, self._mask, self._to_move, self.threads
        )
        self._reset = True
        return self._observations(), self._infos()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action at every table (raises ValueError, naming the table, for an action
        that is not legal there; no table moves then)."""
        if not self._reset:
            raise RuntimeError("reset() first")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or chosen.dtype.kind not in "iu":
            raise ValueError(f"actions: give {self.num_envs} integers, one a table")
        self._actions[:] = chosen
        self._step()
        terminations = self._done.astype(bool)
        truncations = np.zeros(self.num_envs, bool)
        return self._observations(), self._rewards.copy(), terminations, truncations, self._infos()

    def _step(self) -> None:
        self._core.step(
            self.spec,
            self._state,
            self._actions,
            self._obs,
            self._mask,
            self._to_move,
            self._rewards,
            self._done,
            self.threads,
            self.autoreset,
        )

    def sample_actions(self) -> np.ndarray:
        """A random legal action at every table, drawn in C (each table's own generator,
        seeded from its seed)."""
        if not self._reset:
            raise RuntimeError("reset() first")
        self._core.sample(self._state, self._actions, self.threads)
        return self._actions.copy()

    def step_random(self) -> None:
        """One random legal action at every table, without building the returned arrays:
        the buffers (:attr:`packed_observations` …) hold the results."""
        if not self._reset:
            raise RuntimeError("reset() first")
        self._core.sample(self._state, self._actions, self.threads)
        self._step()

    # ------------------------------------------------------------------ views
    @property
    def packed_observations(self) -> np.ndarray:
        """The C core's own buffer of packed observations (read-only view)."""
        view = self._obs.view()
        view.flags.writeable = False
        return view

    @property
    def packed_masks(self) -> np.ndarray:
        """The C core's own buffer of packed action masks (read-only view)."""
        view = self._mask.view()
        view.flags.writeable = False
        return view

    @property
    def to_move(self) -> np.ndarray:
        return self._to_move.copy()

    def _observations(self) -> np.ndarray:
        if self.packed:
            self._masks_now = self._mask
            return self._obs
        # the floats and the int8 masks, in C on the environment's threads, into the
        # environment's own arrays (fresh ones each step would cost more than the step:
        # 328 MB of new pages for 65,536 tables)
        if self._floats is None:
            self._floats = np.empty((self.num_envs, self.encoder.size), np.float32)
            self._masks = np.empty((self.num_envs, NUM_ACTIONS), np.int8)
        self._core.unpack(self.spec, self._obs, self._mask, self._floats, self._masks, self.threads)
        self._masks_now = self._masks
        return self._floats

    def _infos(self) -> dict[str, Any]:
        return {"action_mask": self._masks_now, "to_move": self._to_move.copy()}

    def observe(self, table: int, seat: int) -> np.ndarray:
        """Table ``table`` seen from ``seat`` (any seat, not only the one to move): the
        float32 vector."""
        out = np.zeros(self._obs.shape[1], np.uint8)
        self._core.observe(self.spec, self._state, table, seat, out)
        vector: np.ndarray = unpack_observations(out[None], self.encoder)[0]
        return vector

    def deals(self) -> tuple[np.ndarray, np.ndarray]:
        """Each table's hand now: its seed (uint64) and dealer (int8)."""
        seeds = np.zeros(self.num_envs, np.uint64)
        dealers = np.zeros(self.num_envs, np.int8)
        self._core.deals(self._state, seeds, dealers)
        return seeds, dealers

    def hand_state(self, table: int) -> HandState:
        """The engine's hand as table ``table``'s hand now was dealt (before any action)."""
        seeds, dealers = self.deals()
        return HandState.deal(self.rules, int(dealers[table]), int(seeds[table]))

    def close(self) -> None:
        pass
