"""A learnt model of the hidden cards: where each card this seat cannot see lies.

From one seat's observation in the play (four players, the 43-card pack) — its hand, the
auction, the contract, the discards it made if it is the contractor, every card played and
by whom, who led, the voids shown — a small multi-layer perceptron gives, for every unseen
card, the probability that it lies in each other hand (left, partner, right) or among the
discards (the kitty). It was trained on self-play, where every position knows the true
hands (:mod:`fivehundred.bots.hidden_train`; ``python bench/train_hidden.py`` regenerates
the data and :data:`WEIGHTS` from seeds).

The deals it believes in (:class:`Belief`) are the deals that keep every hard constraint
(each hand's size, the voids shown, the cards seen), each weighted by the product of its
cards' probabilities: ``Q(deal) ∝ ∏ p(card, place)``. The normaliser is a sum over every
consistent deal, counted exactly by a dynamic programme over the places' remaining room,
so the log-likelihood of the true deal is exact, and deals are drawn from ``Q`` exactly.
With every probability equal, ``Q`` is the uniform distribution over the consistent deals:
the baseline the model is measured against (docs/bots.md).

Suits are seen relative to the trump suit (trumps first, then the suit of the same colour,
then the other two in their order), seats relative to the observer. Inference is NumPy,
deterministic; a position it does not cover (other player counts or packs, house-rule
contracts without trumps or misère, open hands) gives None and the caller samples as
before.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from fivehundred.actions import (
    PASS,
    action_card,
    bid_strain,
    bid_tricks,
    is_bid,
    is_misere,
    is_suit_bid,
)
from fivehundred.bots.memory import play_context, void_cards
from fivehundred.cards import (
    JOKER,
    NO_TRUMPS,
    CardMask,
    iter_cards,
    same_colour_suit,
)
from fivehundred.observation import Observation
from fivehundred.rules import Rules

#: The shipped weights (``bench/train_hidden.py`` writes them).
WEIGHTS = Path(__file__).with_name("hidden_model.npz")
#: Places a hidden card may lie, relative to the observer: left, partner, right, kitty.
PLACES = 4
KITTY = 3
#: Ranks of the 43-card pack (4 in the red suits only, 5 to the ace) and the joker.
RANKS = (2, 3, 4, 5, 6, 7, 8, 12, 13, 14, 15)
SLOTS = 4 * len(RANKS) + 1
_RANK_POS = {rank: i for i, rank in enumerate(RANKS)}
#: Feature blocks, in order: (name, width).
BLOCKS: tuple[tuple[str, int], ...] = (
    ("hand", SLOTS),
    ("discards", SLOTS),
    ("unseen", SLOTS),
    ("played", 4 * SLOTS),
    ("led", 4 * SLOTS),
    ("trick", SLOTS),
    ("voids", 12),
    ("contractor", 4),
    ("kind", 4),
    ("level", 5),
    ("auction", 4 * 19),
    ("sizes", 8),
    ("tricks", 11),
    ("won", 4),
    ("led_suit", 5),
    ("position", 4),
)
FEATURES = sum(width for _, width in BLOCKS)
_OFFSET = {}
_at = 0
for _name, _width in BLOCKS:
    _OFFSET[_name] = _at
    _at += _width
del _at


def _scales() -> np.ndarray:
    """Each feature's factor: the features are small counts stored as bytes, scaled here."""
    scale = np.ones(FEATURES, dtype=np.float32)
    scale[_OFFSET["sizes"] : _OFFSET["sizes"] + 8] = 0.1
    scale[_OFFSET["won"] : _OFFSET["won"] + 4] = 0.1
    for seat in range(4):
        scale[_OFFSET["auction"] + 19 * seat] = 1 / 3
    return scale


SCALE = _scales()


def covered(rules: Rules) -> bool:
    """Whether the model covers this table: four players, no dummies, the 43-card pack."""
    return (
        rules.players == 4
        and rules.seats == 4
        and not rules.dummies
        and rules.pack.size == 43
        and rules.pack.kitty_size == 3
        and not rules.pack.two_jokers
    )


@functools.cache
def _slot_table(trump: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Card -> slot (-1: none) and slot -> card, suits seen from ``trump``'s side."""
    if 0 <= trump < NO_TRUMPS:
        colour = same_colour_suit(trump)
        order = [trump, colour, *(s for s in range(4) if s not in (trump, colour))]
    else:
        order = [0, 1, 2, 3]
    place = {suit: i for i, suit in enumerate(order)}
    slot_of = [-1] * 66
    card_of = [-1] * SLOTS
    for suit in range(4):
        for rank in RANKS:
            slot = place[suit] * len(RANKS) + _RANK_POS[rank]
            slot_of[suit * 16 + rank] = slot
            card_of[slot] = suit * 16 + rank
    slot_of[JOKER] = SLOTS - 1
    card_of[SLOTS - 1] = JOKER
    return tuple(slot_of), tuple(card_of)


def _suit_place(trump: int, suit: int) -> int:
    """A printed suit's place in the order seen from ``trump`` (4: no trumps)."""
    if suit >= NO_TRUMPS:
        return 4
    slot_of, _ = _slot_table(trump)
    return slot_of[suit * 16 + RANKS[-1]] // len(RANKS)


def _strain_code(trump: int, call: int) -> int:
    """A bid's strain as one of six: four suits seen from the trump, no trumps, other."""
    if is_suit_bid(call):
        return _suit_place(trump, bid_strain(call))
    return 5


@dataclass(frozen=True)
class Position:
    """One observation encoded: the features, and the hard constraints on the hidden cards."""

    features: np.ndarray  # (FEATURES,) uint8
    #: (SLOTS, PLACES) bool: where each hidden card may lie (all False: not hidden)
    allowed: np.ndarray
    #: Each place's room (the cards hidden there).
    room: tuple[int, int, int, int]
    #: The seat of each place (the kitty: -1) and the card of each slot.
    seats: tuple[int, int, int, int]
    cards: tuple[int, ...]


def _set(row: np.ndarray, block: str, at: int, slot_of: tuple[int, ...], mask: CardMask) -> None:
    base = _OFFSET[block] + at * SLOTS
    for card in iter_cards(mask):
        slot = slot_of[card]
        if slot >= 0:
            row[base + slot] = 1


def _auction(row: np.ndarray, obs: Observation, trump: int) -> None:
    """Per seat, relative: bids made, an early pass, its highest bid's level and strain,
    its first bid's strain."""
    bids: dict[int, list[int]] = {}
    early: set[int] = set()
    any_bid = False
    for seat, call in obs.auction:
        if call == PASS:
            if not any_bid:
                early.add(seat)
        elif is_bid(call):
            any_bid = True
            bids.setdefault(seat, []).append(call)
    for seat in range(4):
        base = _OFFSET["auction"] + 19 * ((seat - obs.seat) % 4)
        calls = bids.get(seat, [])
        row[base] = min(len(calls), 9)
        row[base + 1] = seat in early
        if calls:
            last, first = calls[-1], calls[0]
            if is_suit_bid(last) and 6 <= bid_tricks(last) <= 10:
                row[base + 2 + bid_tricks(last) - 6] = 1
            row[base + 7 + _strain_code(trump, last)] = 1
            row[base + 13 + _strain_code(trump, first)] = 1


def encode(obs: Observation) -> Position | None:
    """The observation's features and constraints, or None where the model does not apply
    (see the module)."""
    if obs.phase != "play" or not covered(obs.rules) or obs.exposed or obs.seat < 0:
        return None
    if obs.contract < 0 or not (is_suit_bid(obs.contract) or is_misere(obs.contract)):
        return None
    trump = obs.trump if 0 <= obs.trump < NO_TRUMPS else NO_TRUMPS
    slot_of, card_of = _slot_table(trump)
    row = np.zeros(FEATURES, dtype=np.uint8)
    me = obs.seat
    unseen = obs.unseen
    _set(row, "hand", 0, slot_of, obs.hand)
    _set(row, "discards", 0, slot_of, obs.discards)
    _set(row, "unseen", 0, slot_of, unseen)
    for plays, _ in obs.tricks:
        for i, (seat, action) in enumerate(plays):
            rel = (seat - me) % 4
            _set(row, "played", rel, slot_of, 1 << action_card(action))
            if i == 0:
                _set(row, "led", rel, slot_of, 1 << action_card(action))
    for i, (seat, action) in enumerate(obs.trick):
        rel = (seat - me) % 4
        _set(row, "played", rel, slot_of, 1 << action_card(action))
        _set(row, "trick", 0, slot_of, 1 << action_card(action))
        if i == 0:
            _set(row, "led", rel, slot_of, 1 << action_card(action))
    for rel in (1, 2, 3):
        voids = obs.voids[(me + rel) % 4]
        for suit in range(4):
            if voids >> suit & 1:
                row[_OFFSET["voids"] + 4 * (rel - 1) + _suit_place(trump, suit)] = 1
    if obs.contractor >= 0:
        row[_OFFSET["contractor"] + (obs.contractor - me) % 4] = 1
    kind = 0 if is_suit_bid(obs.contract) and trump < NO_TRUMPS else 1
    kind = 2 if is_misere(obs.contract) else kind
    row[_OFFSET["kind"] + kind] = 1
    if is_suit_bid(obs.contract) and 6 <= bid_tricks(obs.contract) <= 10:
        row[_OFFSET["level"] + bid_tricks(obs.contract) - 6] = 1
    _auction(row, obs, trump)
    seats = ((me + 1) % 4, (me + 2) % 4, (me + 3) % 4, -1)
    hidden = unseen.bit_count()
    sizes = [obs.hand_sizes[s] for s in seats[:3]]
    room = (*sizes, hidden - sum(sizes))
    if room[KITTY] < 0:
        return None
    for rel in range(4):
        row[_OFFSET["sizes"] + rel] = obs.hand_sizes[(me + rel) % 4]
        row[_OFFSET["sizes"] + 4 + rel] = room[rel]
        row[_OFFSET["won"] + rel] = obs.tricks_won[(me + rel) % 4]
    row[_OFFSET["tricks"] + min(len(obs.tricks), 10)] = 1
    led = obs.led_suit if obs.trick and 0 <= obs.led_suit < NO_TRUMPS else NO_TRUMPS
    row[_OFFSET["led_suit"] + (_suit_place(trump, led) if obs.trick else 4)] = 1
    row[_OFFSET["position"] + len(obs.trick) % 4] = 1
    allowed = np.zeros((SLOTS, PLACES), dtype=bool)
    ctx = play_context(obs)
    for place, seat in enumerate(seats[:3]):
        if room[place]:
            free = unseen & ~void_cards(obs, ctx, seat)
            for card in iter_cards(free):
                allowed[slot_of[card], place] = True
    if room[KITTY]:
        for card in iter_cards(unseen):
            allowed[slot_of[card], KITTY] = True
    return Position(row, allowed, room, seats, card_of)  # type: ignore[arg-type]


def labels(position: Position, hands: list[CardMask] | tuple[CardMask, ...]) -> np.ndarray:
    """The true place of each hidden slot (-1 where the slot is not hidden), from the true
    hands of every seat (what is hidden and in no hand lies in the kitty)."""
    out = np.full(SLOTS, -1, dtype=np.int8)
    hidden = position.allowed.any(axis=1)
    for slot in np.flatnonzero(hidden):
        card = position.cards[slot]
        out[slot] = KITTY
        for place, seat in enumerate(position.seats[:3]):
            if hands[seat] >> card & 1:
                out[slot] = place
    return out


# ----------------------------------------------------------------------------- the network
def forward(params: dict[str, np.ndarray], features: np.ndarray) -> np.ndarray:
    """The network's logits, (N, SLOTS, PLACES), for byte features (N, FEATURES): layers
    ``w0, b0, w1, b1, ...``, ReLU between them. The training code's forward pass is this
    one, so inference and training agree."""
    h = features.astype(np.float32) * SCALE
    layers = len([k for k in params if k.startswith("w")])
    for i in range(layers):
        h = h @ params[f"w{i}"] + params[f"b{i}"]
        if i < layers - 1:
            h = np.maximum(h, 0.0)
    logits: np.ndarray = h.reshape(len(features), SLOTS, PLACES)
    return logits


def place_probabilities(logits: np.ndarray, allowed: np.ndarray, power: float = 1.0) -> np.ndarray:
    """Per hidden slot, the softmax of its logits over the places it may lie (0
    elsewhere; rows of cards not hidden are all 0); ``power`` sharpens or flattens."""
    z = np.where(allowed, logits * power, -np.inf)
    top = np.max(np.where(allowed, z, -1e30), axis=-1, keepdims=True)
    e = np.where(allowed, np.exp(z - top), 0.0)
    total = e.sum(axis=-1, keepdims=True)
    probs: np.ndarray = np.divide(e, total, out=np.zeros_like(e), where=total > 0)
    return probs


@functools.cache
def shipped() -> dict[str, Any] | None:
    """The shipped weights (and their ``power``), or None where the file is missing."""
    if not WEIGHTS.exists():
        return None
    with np.load(WEIGHTS) as data:
        return {k: data[k] for k in data.files}


class Belief:
    """The deals consistent with a position, weighted by per-card place probabilities
    (``probs``: (SLOTS, PLACES), each hidden card's row over its allowed places): exact
    normaliser, log-likelihood and sampling (see the module)."""

    def __init__(self, position: Position, probs: np.ndarray) -> None:
        self.position = position
        hidden = position.allowed.any(axis=1)
        self.slots = np.flatnonzero(hidden)
        p = np.where(position.allowed, probs, 0.0)[self.slots].astype(np.float64)
        p /= np.maximum(p.max(axis=1, keepdims=True), 1e-300)
        self.p = p
        self.room = position.room
        n = len(self.slots)
        r0, r1, r2, _ = self.room
        grid = np.indices((r0 + 1, r1 + 1, r2 + 1)).sum(axis=0)
        # table[k][a0, a1, a2]: weight of placing slots k.. with that room left in the
        # first three places (the kitty's is what remains), scaled by 10**-scale[k].
        self.tables: list[np.ndarray] = [np.zeros(0)] * (n + 1)
        self.log_scale = np.zeros(n + 1)
        last = np.zeros((r0 + 1, r1 + 1, r2 + 1))
        last[0, 0, 0] = 1.0
        self.tables[n] = last
        for k in range(n - 1, -1, -1):
            nxt = self.tables[k + 1]
            cur = np.zeros_like(nxt)
            cur[1:, :, :] += p[k, 0] * nxt[:-1, :, :]
            cur[:, 1:, :] += p[k, 1] * nxt[:, :-1, :]
            cur[:, :, 1:] += p[k, 2] * nxt[:, :, :-1]
            kitty = (n - k) - grid  # the kitty's room left before slot k
            cur += np.where(kitty >= 1, p[k, 3] * nxt, 0.0)
            cur[(kitty < 0) | (kitty > self.room[3])] = 0.0
            top = cur.max()
            if top > 0:
                cur /= top
            self.tables[k] = cur
            self.log_scale[k] = self.log_scale[k + 1] + (np.log(top) if top > 0 else 0.0)

    @property
    def log_z(self) -> float:
        """The log of the normaliser (the number of consistent deals, all weights 1)."""
        z = self.tables[0][self.room[0], self.room[1], self.room[2]]
        return float(np.log(z) + self.log_scale[0]) if z > 0 else float("-inf")

    def log_likelihood(self, truth: np.ndarray) -> float:
        """The log-probability of the true deal (``truth``: each slot's place, as
        :func:`labels` gives)."""
        places = truth[self.slots].astype(int)
        if (places < 0).any():
            raise ValueError("every hidden card needs its true place")
        picked = self.p[np.arange(len(self.slots)), places]
        if (picked <= 0).any():
            return float("-inf")
        return float(np.log(picked).sum() - self.log_z)

    def sample(self, rng: np.random.Generator, count: int) -> np.ndarray:
        """``count`` deals drawn from the belief: (count, hidden slots) places, the slots
        in the order of :attr:`slots`."""
        n = len(self.slots)
        room = np.tile(np.array(self.room[:3]), (count, 1))
        out = np.zeros((count, n), dtype=np.int8)
        rows = np.arange(count)
        for k in range(n):
            nxt = self.tables[k + 1]
            a0, a1, a2 = room[:, 0], room[:, 1], room[:, 2]
            kitty = (n - k) - room.sum(axis=1)
            w = np.zeros((count, 4))
            w[:, 0] = np.where(a0 > 0, self.p[k, 0] * nxt[np.maximum(a0 - 1, 0), a1, a2], 0)
            w[:, 1] = np.where(a1 > 0, self.p[k, 1] * nxt[a0, np.maximum(a1 - 1, 0), a2], 0)
            w[:, 2] = np.where(a2 > 0, self.p[k, 2] * nxt[a0, a1, np.maximum(a2 - 1, 0)], 0)
            w[:, 3] = np.where(kitty > 0, self.p[k, 3] * nxt[a0, a1, a2], 0)
            cum = np.cumsum(w, axis=1)
            u = rng.random(count) * cum[:, -1]
            place = np.minimum((cum <= u[:, None]).sum(axis=1), 3)
            out[:, k] = place
            take = place < 3
            room[rows[take], place[take]] -= 1
        return out

    def hands(self, places: np.ndarray, obs: Observation) -> list[CardMask]:
        """Every seat's hand in one sampled deal (``places``: one row of :meth:`sample`)."""
        hands = [0] * 4
        hands[obs.seat] = obs.hand
        for slot, place in zip(self.slots, places, strict=True):
            if place < KITTY:
                hands[self.position.seats[place]] |= 1 << self.position.cards[slot]
        return hands


def uniform(position: Position) -> Belief:
    """Every consistent deal equally likely: the baseline."""
    return Belief(position, position.allowed.astype(np.float64))


def believe(obs: Observation, params: dict[str, Any] | None = None) -> Belief | None:
    """The model's belief for ``obs`` (the shipped weights unless ``params``), or None
    where the model does not apply or no weights are shipped."""
    params = params if params is not None else shipped()
    position = encode(obs)
    if params is None or position is None:
        return None
    logits = forward(params, position.features[None, :])[0]
    power = float(params["power"]) if "power" in params else 1.0
    belief = Belief(position, place_probabilities(logits, position.allowed, power))
    return belief if belief.log_z > float("-inf") else None


class ModelSampler:
    """Deals for one observation drawn from the model: the belief is built once a
    position, and its deals drawn :data:`BATCH` at a time (seeded by the caller's
    random generator at the position's first draw, so a seed gives the same deals)."""

    #: Deals drawn at once (one draw costs a NumPy step a hidden card, whatever the batch).
    BATCH = 64

    def __init__(self) -> None:
        self._key: tuple[object, ...] = ()
        self._belief: Belief | None = None
        self._drawn: list[np.ndarray] = []
        self._gen: np.random.Generator | None = None

    def belief(self, obs: Observation) -> Belief | None:
        """The model's belief for ``obs`` (built once a position), or None."""
        key = (obs.dealer, obs.seat, obs.hand, obs.played, obs.auction, obs.trick, obs.voids)
        if key != self._key:
            self._key = key
            self._belief = believe(obs)
            self._drawn = []
            self._gen = None
        return self._belief

    def applies(self, obs: Observation) -> bool:
        """Whether the model gives the deals for ``obs``."""
        return self.belief(obs) is not None

    def draw(self, obs: Observation, rng: random.Random) -> list[CardMask] | None:
        """One deal (every seat's hand; a seat sitting out has none) drawn from the
        model's belief, or None where the model does not apply."""
        belief = self.belief(obs)
        if belief is None:
            return None
        if not self._drawn:
            if self._gen is None:
                self._gen = np.random.default_rng(rng.getrandbits(64))
            self._drawn = list(belief.sample(self._gen, self.BATCH))[::-1]
        hands = belief.hands(self._drawn.pop(), obs)
        if obs.active:
            hands = [h if s in obs.active else 0 for s, h in enumerate(hands)]
        return hands


__all__ = [
    "FEATURES",
    "PLACES",
    "SLOTS",
    "WEIGHTS",
    "Belief",
    "ModelSampler",
    "Position",
    "believe",
    "covered",
    "encode",
    "forward",
    "labels",
    "place_probabilities",
    "shipped",
    "uniform",
]
