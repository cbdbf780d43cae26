"""The observation vector of one seat, field by field (see docs/env.md).

Every field is derived from what that seat may see (the same facts as the core
:class:`~fivehundred.observation.Observation`): its own hand, the public auction and play,
its own kitty discards when it is the contractor, and the cards lying face up. Seats are
*relative*: index 0 of every per-seat field is the observing seat, 1 the seat on its left,
and so on.

The binary fields are packed into one integer bitmask while a hand is played and unpacked
with numpy in one call, so encoding costs a few microseconds. Sizes come from the engine's
constants (:mod:`fivehundred.actions`, :mod:`fivehundred.cards`, :mod:`fivehundred.game`),
so new actions or phases change the layout, never break it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from fivehundred.actions import NOMINATE_BASE, NUM_ACTIONS, PASS, action_card
from fivehundred.cards import NUM_CARDS, SUITS
from fivehundred.game import PHASES, TRICKS_PER_HAND, HandState, controller_of
from fivehundred.rules import Rules
from fivehundred.scoring import side_of_seats

#: Auction calls: pass, the suit and no-trump bids, the misère bids.
FIRST_CALL = PASS
CALL_WIDTH = NOMINATE_BASE - PASS
STRAIN_WIDTH = 5  # ♠ ♣ ♦ ♥ NT
JOKERS = 2
SUIT_WIDTH = len(SUITS)
#: Scores are divided by the target and clipped to this range.
SCORE_LIMIT = 2.0


@dataclass(frozen=True)
class Field:
    """One field of the vector: its name, where it starts, its size, and its shape."""

    name: str
    offset: int
    size: int
    shape: tuple[int, ...]
    meaning: str


def _fields(rules: Rules) -> list[tuple[str, tuple[int, ...], str]]:
    n = rules.seats
    return [
        ("hand", (NUM_CARDS,), "the cards the seat holds (a dummy: its face-up cards)"),
        ("phase", (len(PHASES),), "one-hot: " + ", ".join(PHASES)),
        ("to_move", (n,), "one-hot relative seat to move (none when the hand is over)"),
        ("dealer", (n,), "one-hot relative seat of the dealer"),
        ("calls", (n, CALL_WIDTH), "per seat, every call it made (pass, 6S … 10NT, misère "
         "bids; action - PASS)"),
        ("contract", (CALL_WIDTH,), "one-hot contract (action - PASS); none before the auction "
         "ends or when all passed"),
        ("contractor", (n,), "one-hot relative seat of the contractor"),
        ("trump", (STRAIN_WIDTH,), "one-hot trump strain ♠ ♣ ♦ ♥ NT (misère: NT)"),
        ("joker_suits", (JOKERS, SUIT_WIDTH), "suit nominated for the (red) joker and the "
         "black joker (R-JOKER 1)"),
        ("partners", (n,), "seats known to be the contractor's partners"),
        ("called_card", (NUM_CARDS,), "five players: the card the contractor called"),
        ("discards", (NUM_CARDS,), "the seat's own kitty discards (contractor only)"),
        ("played", (n, NUM_CARDS), "per seat, the cards it has played this hand"),
        ("voids", (n, SUIT_WIDTH), "per seat, the suits it has shown void in"),
        ("trick", (n, NUM_CARDS), "per seat, its card in the trick in progress"),
        ("led_suit", (SUIT_WIDTH,), "one-hot suit led to the trick in progress"),
        ("suits_led", (SUIT_WIDTH,), "suits led so far this hand (R-JOKER 5)"),
        ("tricks_won", (n, TRICKS_PER_HAND + 1), "per seat, one-hot tricks won (0 … 10)"),
        ("exposed", (n, NUM_CARDS), "per seat, its cards lying face up (the open misère hand "
         "after trick 1, the dummies' face-up cards, a dummy's controller's hand)"),
        ("active", (n,), "seats playing this hand (a misère contractor's partner sits out)"),
        ("scores", (n,), "game score of each seat's side / target, clipped to ±2 (0 in "
         "single-hand episodes)"),
    ]  # fmt: skip


class Encoder:
    """Encodes :class:`HandState` positions for one rule set (see the module docstring).

    ``encode(state, seat, scores)`` returns a fresh float32 vector of :attr:`size`.
    The encoder keeps per-seat play history of the hand it saw last, updated
    incrementally (a new hand, or an earlier position, starts it again).
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.seats = rules.seats
        self.sides = side_of_seats(rules)
        fields: list[Field] = []
        offset = 0
        for name, shape, meaning in _fields(rules):
            size = int(np.prod(shape))
            fields.append(Field(name, offset, size, shape, meaning))
            offset += size
        self.fields = {f.name: f for f in fields}
        self.size = offset
        self.binary_size = self.fields["scores"].offset
        self._bytes = (self.binary_size + 7) // 8
        self._state: HandState | None = None
        self._history = 0
        self._played = [0] * self.seats
        self._calls = [0] * self.seats
        self._tricks = 0
        self._in_trick = 0
        self._calls_seen = 0

    # ------------------------------------------------------------------ tracking
    def _sync(self, state: HandState) -> None:
        """Bring the per-seat history up to ``state`` (incrementally when it moved on)."""
        if state is not self._state or len(state.history) < self._history:
            self._state = state
            self._played = [0] * self.seats
            self._calls = [0] * self.seats
            self._tricks = 0
            self._in_trick = 0
            self._calls_seen = 0
            self._history = 0
        if len(state.history) == self._history and self._history:
            return
        self._history = len(state.history)
        calls = state.auction.calls
        for seat, call in calls[self._calls_seen :]:
            self._calls[seat] |= 1 << (call - FIRST_CALL)
        self._calls_seen = len(calls)
        played = self._played
        tricks = state.tricks
        if len(tricks) > self._tricks:
            for trick in tricks[self._tricks :]:
                for seat, action in trick.plays[self._in_trick :]:
                    played[seat] |= 1 << action_card(action)
                self._in_trick = 0
            self._tricks = len(tricks)
        seats = state.trick_seats
        if len(seats) > self._in_trick:
            for seat, card in zip(seats[self._in_trick :], state.trick_cards[self._in_trick :],
                                  strict=True):  # fmt: skip
                played[seat] |= 1 << card
            self._in_trick = len(seats)

    # ------------------------------------------------------------------ encoding
    def bits(self, state: HandState, seat: int) -> int:
        """The binary fields for ``seat`` as one integer (bit i = vector element i)."""
        self._sync(state)
        n = self.seats
        f = self.fields
        rel = [(seat + k) % n for k in range(n)]
        bits = state.playable(seat)
        bits |= 1 << (f["phase"].offset + PHASES.index(state.phase))
        if state.to_move >= 0:
            bits |= 1 << (f["to_move"].offset + (state.to_move - seat) % n)
        bits |= 1 << (f["dealer"].offset + (state.dealer - seat) % n)
        offset = f["calls"].offset
        for k, s in enumerate(rel):
            bits |= self._calls[s] << (offset + k * CALL_WIDTH)
        if state.contract >= 0:
            bits |= 1 << (f["contract"].offset + state.contract - FIRST_CALL)
            bits |= 1 << (f["contractor"].offset + (state.contractor - seat) % n)
        trump = state.trump
        if trump >= 0:
            bits |= 1 << (f["trump"].offset + trump)
        for joker, suit in enumerate(state.joker_suits):
            if suit >= 0:
                bits |= 1 << (f["joker_suits"].offset + joker * SUIT_WIDTH + suit)
        if state.partner_revealed or seat in state.partners:
            offset = f["partners"].offset
            for partner in state.partners:
                bits |= 1 << (offset + (partner - seat) % n)
        if state.called_card >= 0:
            bits |= 1 << (f["called_card"].offset + state.called_card)
        if seat == state.contractor:
            bits |= state.discards << f["discards"].offset
        offset = f["played"].offset
        voids = f["voids"].offset
        won = f["tricks_won"].offset
        for k, s in enumerate(rel):
            bits |= self._played[s] << (offset + k * NUM_CARDS)
            bits |= state.void_shown[s] << (voids + k * SUIT_WIDTH)
            bits |= 1 << (won + k * (TRICKS_PER_HAND + 1) + state.tricks_won[s])
        if state.trick_cards:
            offset = f["trick"].offset
            for s, card in zip(state.trick_seats, state.trick_cards, strict=True):
                bits |= 1 << (offset + ((s - seat) % n) * NUM_CARDS + card)
            bits |= 1 << (f["led_suit"].offset + state.led_suit)
        bits |= state.suits_led << f["suits_led"].offset
        offset = f["exposed"].offset
        for s, mask in state.visible_cards(seat):
            bits |= mask << (offset + ((s - seat) % n) * NUM_CARDS)
        offset = f["active"].offset
        for s in state.active:
            bits |= 1 << (offset + (s - seat) % n)
        return bits

    def encode(self, state: HandState, seat: int, scores: tuple[int, ...] | list[int] = ()
               ) -> np.ndarray:  # fmt: skip
        """The observation vector of ``seat`` (float32, :attr:`size` long)."""
        raw = self.bits(state, seat).to_bytes(self._bytes, "little")
        vector = np.zeros(self.size, np.float32)
        vector[: self.binary_size] = np.unpackbits(
            np.frombuffer(raw, np.uint8), count=self.binary_size, bitorder="little"
        )
        if scores:
            offset = self.fields["scores"].offset
            target = self.rules.target
            sides = self.sides
            n = self.seats
            for k in range(n):
                value = scores[sides[(seat + k) % n]] / target
                vector[offset + k] = min(SCORE_LIMIT, max(-SCORE_LIMIT, value))
        return vector

    def view(self, vector: np.ndarray, name: str) -> np.ndarray:
        """One field of an encoded vector, in its shape (for tests and inspection)."""
        field = self.fields[name]
        return vector[field.offset : field.offset + field.size].reshape(field.shape)


def action_mask(legal: list[int]) -> np.ndarray:
    """int8 mask of :data:`NUM_ACTIONS` with ones at the legal actions."""
    mask = np.zeros(NUM_ACTIONS, np.int8)
    if legal:
        mask[legal] = 1
    return mask


def acting_seat(state: HandState, player: int) -> int:
    """The seat ``player`` observes from: the seat it decides for now (two players: its
    dummy when the dummy is to move), else its own."""
    to_move = state.to_move
    if to_move >= 0 and to_move != player and controller_of(state.rules, to_move) == player:
        return to_move
    return player
