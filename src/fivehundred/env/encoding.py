"""The observation vector of one seat, field by field (see docs/env.md).

Every field is derived from what that seat may see (the same facts as the core
:class:`~fivehundred.observation.Observation`): its own hand, the public auction and play,
its own kitty discards when it is the contractor, and the cards lying face up.

The vector has three parts: the *table* fields (the seat's hand, the phase, the
contract …), then one *seat record* per seat in relative order (record 0 is the observing
seat, record 1 the seat on its left, and so on: the calls each seat made, the cards it
played, the suits it showed void in …), then the scores as floats. All but the scores
are 0/1.

Speed: while a hand is played the encoder keeps the seat records of every seat as one
integer bitmask in absolute seat order (where they lie in seat 0's vector), updated
incrementally from the actions taken (a card added to the trick, a trick's last card and
an auction call each in one step); the fields that stay the same while calls are made or
cards played are kept too. Encoding a seat's view rotates the records by whole records, ORs
in the rest (each field's bits precomputed per value) and turns the bits into float32: in C
where the optional extension ``fivehundred.env._speedups`` is built (eight floats per byte
from a 256-row table), else with the same table in numpy (``take``); both give the same
vectors. The C extension's tracker (:meth:`Encoder.tracker`) does the same tracking and
turning in C, from this encoder's positions, and writes the floats itself. Sizes come from the engine's constants
(:mod:`fivehundred.actions`, :mod:`fivehundred.cards`, :mod:`fivehundred.game`), so new
actions or phases change the layout rather than break it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from fivehundred.actions import (
    DOUBLE_MISERE,
    HI_LO,
    NOMINATE_BASE,
    NUM_ACTIONS,
    PASS,
    PATASTROPHE,
    SHIELDS_DOUBLE,
    action_card,
)
from fivehundred.cards import NUM_CARDS, SUITS
from fivehundred.game import (
    AUCTION,
    PHASES,
    TRICKS_PER_HAND,
    HandState,
    controller_of,
    dummy_seats,
)
from fivehundred.observation import Observation
from fivehundred.rules import Rules
from fivehundred.scoring import side_of_seats

#: Auction calls: pass, the suit and no-trump bids, the misère bids (action − PASS); where
#: the rules have them, the house contracts after them (CALL_WIDTH + their order here).
FIRST_CALL = PASS
CALL_WIDTH = NOMINATE_BASE - PASS
HOUSE_CONTRACTS = (HI_LO, DOUBLE_MISERE, SHIELDS_DOUBLE, PATASTROPHE)
STRAIN_WIDTH = 5  # ♠ ♣ ♦ ♥ NT
JOKERS = 2
SUIT_WIDTH = len(SUITS)
_UINT8 = np.dtype(np.uint8)
_FLOAT32 = np.dtype(np.float32)
#: Scores are divided by the target and clipped to this range.
SCORE_LIMIT = 2.0

TABLE_FIELDS: tuple[tuple[str, tuple[int, ...], str], ...] = (
    (
        "hand",
        (NUM_CARDS,),
        "the cards the seat holds (a dummy: its face-up cards; the "
        "contractor holds the kitty until the discards are made)",
    ),
    ("phase", (len(PHASES),), "one-hot phase: " + ", ".join(PHASES)),
    (
        "contract",
        (CALL_WIDTH,),
        "one-hot contract (action − PASS: 0 pass … the misère bids); "
        "empty before the auction ends or when all passed",
    ),
    ("trump", (STRAIN_WIDTH,), "one-hot trump strain ♠ ♣ ♦ ♥ NT (misère: NT)"),
    (
        "joker_suits",
        (JOKERS, SUIT_WIDTH),
        "suit nominated for the (red) joker and for the black joker, before play (R-JOKER 1)",
    ),
    ("called_card", (NUM_CARDS,), "five players: the card the contractor called"),
    ("discards", (NUM_CARDS,), "the seat's own kitty discards (the contractor only)"),
    ("led_suit", (SUIT_WIDTH,), "one-hot suit led to the trick in progress"),
    ("suits_led", (SUIT_WIDTH,), "suits led so far this hand (R-JOKER 5)"),
)

#: Table fields of the variants that have them (after the others, in this order).
VARIANT_TABLE_FIELDS: tuple[tuple[str, str, tuple[int, ...], str], ...] = (
    (
        "draw_pack",
        "drawn",
        (NUM_CARDS,),
        "draw_pack: the card the seat has drawn and keeps or throws now",
    ),
    ("open_eight", "table_kitty", (NUM_CARDS,), "open_eight: the face-up cards moved to the kitty"),
    (
        "open_eight",
        "table_take",
        (2, NUM_CARDS),
        "open_eight, to the defender only: the face-up card it took and the card it discarded",
    ),
    ("slam_call", "slam", (1,), "the contractor called slam (its partner sits out)"),
)

SEAT_FIELDS: tuple[tuple[str, int, str], ...] = (
    ("calls", CALL_WIDTH, "every call the seat made (action − PASS)"),
    ("played", NUM_CARDS, "the cards the seat has played this hand"),
    ("trick", NUM_CARDS, "its card in the trick in progress"),
    ("voids", SUIT_WIDTH, "the suits it has shown void in (♠ ♣ ♦ ♥)"),
    ("tricks_won", TRICKS_PER_HAND + 1, "one-hot tricks it has won (0 … 10)"),
    (
        "exposed",
        NUM_CARDS,
        "its cards lying face up for this seat to see: the open misère "
        "hand after trick 1, the dummies' face-up cards, a dummy's controller's hand",
    ),
    ("to_move", 1, "the seat is to move"),
    ("dealer", 1, "the seat dealt"),
    ("contractor", 1, "the seat is the contractor"),
    ("partner", 1, "the seat is known to be the contractor's partner"),
    ("active", 1, "the seat plays this hand (a misère contractor's partner sits out)"),
)

#: Seat fields of the variants that have them (at the end of every record).
VARIANT_SEAT_FIELDS: tuple[tuple[str, str, int, str], ...] = (
    ("ralphing", "barred", 1, "the seat must pass in this auction (ralphing)"),
)


def compiled_speedups() -> Any:
    """The C extension (``fivehundred.env._speedups``: bits to float32 and the action
    mask), or None where it is not built (the same results in Python)."""
    try:
        from fivehundred.env import _speedups
    except ImportError:
        return None
    return _speedups


def call_width(rules: Rules) -> int:
    """Width of the calls and contract fields: the house contracts count where the rules
    have any of them."""
    house = rules.hi_lo or rules.double_misere or rules.shields_double or rules.patastrophe
    return CALL_WIDTH + (len(HOUSE_CONTRACTS) if house else 0)


@dataclass(frozen=True)
class Field:
    """One field: where it starts (in the vector, or for a seat field in each seat record),
    its shape, and what it means."""

    name: str
    offset: int
    shape: tuple[int, ...]
    meaning: str
    per_seat: bool = False

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


class Encoder:
    """Encodes :class:`HandState` positions for one rule set (see the module docstring).

    ``encode(state, seat, scores)`` returns a fresh float32 vector of :attr:`size`.
    ``compiled``: turn the bits into floats with the C extension where it is built
    (None), always (True: an error where it is not built) or never (False); the vectors
    are the same.
    """

    def __init__(self, rules: Rules, compiled: bool | None = None) -> None:
        self.rules = rules
        speedups = compiled_speedups() if compiled is not False else None
        if compiled and speedups is None:
            raise RuntimeError("the C extension fivehundred.env._speedups is not built")
        #: the C extension in use, or None (pure Python)
        self.speedups = speedups
        self._floats = speedups.floats if speedups is not None else None
        n = self.seats = rules.seats
        self.sides = side_of_seats(rules)
        self.fields: dict[str, Field] = {}
        calls = call_width(rules)
        #: each call's place in the calls and contract fields (-1: not a call)
        self.call_index = [-1] * NUM_ACTIONS
        for action in range(FIRST_CALL, NOMINATE_BASE):
            self.call_index[action] = action - FIRST_CALL
        if calls > CALL_WIDTH:
            for i, action in enumerate(HOUSE_CONTRACTS):
                self.call_index[action] = CALL_WIDTH + i
        table = [
            (name, (calls,) if name == "contract" else shape, meaning)
            for name, shape, meaning in TABLE_FIELDS
        ]
        table += [
            (name, shape, meaning)
            for variant, name, shape, meaning in VARIANT_TABLE_FIELDS
            if getattr(rules, variant)
        ]
        seat_fields = [
            (name, calls if name == "calls" else width, meaning)
            for name, width, meaning in SEAT_FIELDS
        ]
        seat_fields += [
            (name, width, meaning)
            for variant, name, width, meaning in VARIANT_SEAT_FIELDS
            if getattr(rules, variant)
        ]
        offset = 0
        for name, shape, meaning in table:
            self.fields[name] = field = Field(name, offset, shape, meaning)
            offset += field.size
        self.seats_offset = offset
        record = 0
        for name, width, meaning in seat_fields:
            self.fields[name] = Field(name, record, (n, width), meaning, per_seat=True)
            record += width
        self.record = record
        self.binary_size = offset + n * record
        self.fields["scores"] = Field(
            "scores",
            self.binary_size,
            (n,),
            "game score of each seat's side ÷ target, clipped to ±2 (0 in single-hand episodes)",
        )
        self.size = self.binary_size + n
        self._bytes = (self.size + 7) // 8
        self._all_records = (1 << (n * record)) - 1
        f = self.fields
        self._phase = {p: 1 << (f["phase"].offset + i) for i, p in enumerate(PHASES)}
        self._contract = f["contract"].offset
        self._trump = f["trump"].offset
        self._joker = f["joker_suits"].offset
        self._called = f["called_card"].offset
        self._discards = f["discards"].offset
        self._led = f["led_suit"].offset
        self._suits_led = f["suits_led"].offset
        base = [seat * record for seat in range(n)]
        self._base = base
        self._call_at = [b + f["calls"].offset for b in base]
        self._played_at = [b + f["played"].offset for b in base]
        self._trick_at = [b + f["trick"].offset for b in base]
        self._void_at = [b + f["voids"].offset for b in base]
        self._won_at = [b + f["tricks_won"].offset for b in base]
        self._exposed_at = [self.seats_offset + b + f["exposed"].offset for b in base]
        self._to_move = [1 << (b + f["to_move"].offset) for b in base]
        self._dealer = [1 << (b + f["dealer"].offset) for b in base]
        self._contractor = [1 << (b + f["contractor"].offset) for b in base]
        self._partner = [1 << (b + f["partner"].offset) for b in base]
        self._active_bit = [1 << (b + f["active"].offset) for b in base]
        # The tracker keeps the seat records where they lie in seat 0's vector (from
        # seats_offset on); its bits per seat: a card in the trick; a card played (with it
        # in the trick); the voids shown; the two bits of tricks_won that winning one more
        # trick flips; a call.
        at0 = self.seats_offset
        self._trick_card = [
            [1 << (at0 + at + card) for card in range(NUM_CARDS)] for at in self._trick_at
        ]
        self._played_card = [
            [1 << (at0 + at + card) | trick[card] for card in range(NUM_CARDS)]
            for at, trick in zip(self._played_at, self._trick_card, strict=True)
        ]
        self._won_step = [
            [3 << (at0 + at + won) for won in range(TRICKS_PER_HAND)] for at in self._won_at
        ]
        self._void_bits = [
            [voids << (at0 + at) for voids in range(1 << SUIT_WIDTH)] for at in self._void_at
        ]
        index = self.call_index
        self._call_bit = [
            [
                1 << (at0 + at + index[call]) if index[call] >= 0 else 0
                for call in range(NUM_ACTIONS)
            ]
            for at in self._call_at
        ]
        self._to_move_bit = [bit << at0 for bit in self._to_move]
        self._records_mask = self._all_records << at0
        #: every seat's trick field (all of them clear when a trick is complete)
        self._not_trick = ~sum(((1 << NUM_CARDS) - 1) << (at0 + at) for at in self._trick_at)
        # the led suit (-1: none) and the suits led so far, together
        self._led_bits = [
            [
                (1 << (self._led + led) if led >= 0 else 0) | led_so_far << self._suits_led
                for led_so_far in range(1 << SUIT_WIDTH)
            ]
            for led in (*range(SUIT_WIDTH), -1)
        ]
        self._contract_bit = [
            1 << (self._contract + index[c]) if index[c] >= 0 else 0 for c in range(NUM_ACTIONS)
        ]
        # the variants' own fields
        self._extras = any(name in f for _, name, _, _ in VARIANT_TABLE_FIELDS) or any(
            name in f for _, name, _, _ in VARIANT_SEAT_FIELDS
        )
        self._drawn = f["drawn"].offset if "drawn" in f else -1
        self._table_kitty = f["table_kitty"].offset if "table_kitty" in f else -1
        self._table_take = f["table_take"].offset if "table_take" in f else -1
        self._slam = f["slam"].offset if "slam" in f else -1
        self._barred = self.seats_offset + f["barred"].offset if "barred" in f else -1
        self._trump_bit = [1 << (self._trump + t) for t in range(STRAIN_WIDTH)]
        self._red_bit = [1 << (self._joker + s) for s in range(SUIT_WIDTH)]
        self._black_bit = [1 << (self._joker + SUIT_WIDTH + s) for s in range(SUIT_WIDTH)]
        self._led_bit = [1 << (self._led + s) for s in range(SUIT_WIDTH)]
        self._shift = [seat * record for seat in range(n)]
        self._unshift = [n * record - shift for shift in self._shift]
        self._dummies = bool(rules.dummies)
        self._face_up_rules = bool(rules.dummies or rules.open_eight)
        #: two players (without open_eight): the cards each seat sees of others besides the
        #: hands lying face up, as HandState.visible_cards has them: (seat, where they lie
        #: in the vector, whether only its face-up cards) for its controller and the dummies
        self._dummy_views: list[list[tuple[int, int, bool]]] | None = None
        if rules.dummies and not rules.open_eight:
            self._dummy_views = [
                [
                    (c, self._exposed_at[(c - seat) % n], False)
                    for c in (controller_of(rules, seat),)
                    if c != seat
                ]
                + [
                    (s, self._exposed_at[(s - seat) % n], True)
                    for s in dummy_seats(rules)
                    if s != seat
                ]
                for seat in range(n)
            ]
        # every byte value -> its eight bits as float32 (row b, column i: bit i of b)
        self._unpack = np.unpackbits(
            np.arange(256, dtype=np.uint8)[:, None], axis=1, bitorder="little"
        ).astype(np.float32)
        #: the vector's bytes (bits 0 … 7 of the first, …) and the byte table that turns
        #: them into float32 (see :meth:`vector`)
        self.byte_size = self._bytes
        self.unpack_table = self._unpack
        self._state: HandState | None = None
        self._reset()

    def _reset(self) -> None:
        # 0 tricks won, one-hot
        self._records = sum(1 << (self.seats_offset + at) for at in self._won_at)
        self._won = [0] * self.seats
        self._seats: list[int] | None = None  # the state's trick_seats list, as tracked
        self._history = 0
        self._calls_seen = 0
        self._tricks_seen = 0
        self._in_trick = 0
        self._fixed: tuple[int, int, int, int, int, bool] | None = None
        self._fixed_phase = ""

    # ------------------------------------------------------------------ tracking
    def _sync(self, state: HandState) -> None:
        """Bring the seat records up to ``state`` (incrementally when it moved on)."""
        history = len(state.history)
        if not (  # one more call, or one card played after the first trick: it stays
            state is self._state
            and history == self._history + 1
            and state.phase is self._fixed_phase
            and (state.phase == AUCTION or (self._tricks_seen and state.claim_trick < 0))
        ):
            self._fixed = None
        if state is not self._state or history < self._history:
            self._state = state
            self._reset()
        elif history == self._history:
            return
        elif history == self._history + 1:  # the usual step: one card added to the trick
            seats = state.trick_seats
            if len(seats) == self._in_trick + 1 and self._tricks_seen == len(state.tricks):
                seat, card = seats[-1], state.trick_cards[-1]
                self._records |= (
                    self._played_card[seat][card] | self._void_bits[seat][state.void_shown[seat]]
                )
                self._in_trick += 1
                self._history = history
                self._seats = seats
                return
            calls = state.auction.calls
            if len(calls) == self._calls_seen + 1 and len(seats) == self._in_trick:  # a call
                seat, call = calls[-1]
                self._records |= self._call_bit[seat][call]
                self._calls_seen += 1
                self._history = history
                return
            tricks = state.tricks
            if not seats and len(tricks) == self._tricks_seen + 1:  # a trick's last card
                seat, action = tricks[-1].plays[-1]
                card = action_card(action)
                winner = tricks[-1].winner
                won = self._won[winner]
                # (the trick's cards leave the trick fields; the winner's count moves on)
                self._records = (
                    self._records
                    | self._played_card[seat][card]
                    | self._void_bits[seat][state.void_shown[seat]]
                ) & self._not_trick ^ self._won_step[winner][won]
                self._won[winner] = won + 1
                self._in_trick = 0
                self._tricks_seen += 1
                self._history = history
                self._seats = seats
                return
        self._history = history
        records = self._records
        calls = state.auction.calls
        if len(calls) > self._calls_seen:
            call_bit = self._call_bit
            for seat, call in calls[self._calls_seen :]:
                records |= call_bit[seat][call]
            self._calls_seen = len(calls)
        played, void_bits = self._played_card, self._void_bits
        voids = state.void_shown
        tricks = state.tricks
        while self._tricks_seen < len(tricks):
            trick = tricks[self._tricks_seen]
            for seat, action in trick.plays[self._in_trick :]:
                card = action_card(action)
                records |= played[seat][card] | void_bits[seat][voids[seat]]
            records &= self._not_trick
            winner = trick.winner
            won = self._won[winner]
            records ^= self._won_step[winner][won]
            self._won[winner] = won + 1
            self._in_trick = 0
            self._tricks_seen += 1
        seats = state.trick_seats
        if len(seats) > self._in_trick:
            cards = state.trick_cards
            for index in range(self._in_trick, len(seats)):
                seat, card = seats[index], cards[index]
                records |= played[seat][card] | void_bits[seat][voids[seat]]
            self._in_trick = len(seats)
        self._records = records
        self._seats = seats

    def _seat_set(self, seats: Sequence[int], table: list[int]) -> int:
        bits = 0
        for seat in seats:
            bits |= table[seat]
        return bits

    # ------------------------------------------------------------------ encoding
    def bits(self, state: HandState, seat: int) -> int:
        """The 0/1 part of ``seat``'s vector as one integer (bit i = element i)."""
        trick_seats = state.trick_seats
        history = len(state.history)
        if (  # the usual step, one card added to the trick (as in _sync, inlined): the
            # very list tracked (a state's own, replaced when a trick is complete), one
            # seat longer, one action later
            trick_seats is self._seats
            and history == self._history + 1
            and len(trick_seats) == self._in_trick + 1
        ):
            seat_played, card = trick_seats[-1], state.trick_cards[-1]
            self._records |= (
                self._played_card[seat_played][card]
                | self._void_bits[seat_played][state.void_shown[seat_played]]
            )
            self._in_trick += 1
            self._history = history
        elif history != self._history or state is not self._state:
            self._sync(state)
        fixed = self._fixed
        if fixed is None:
            fixed = self._fixed = self._fixed_part(state)
            self._fixed_phase = state.phase
        table_bits, fixed_records, contractor, discards, partner_bits, face_up = fixed
        records = self._records | fixed_records
        to_move = state.to_move
        if to_move >= 0:
            records |= self._to_move_bit[to_move]
        if partner_bits and (state.partner_revealed or seat in state.partners):
            records |= partner_bits
        if seat:  # the records turn by whole records: the seat's own comes first
            shift = self._shift[seat]
            records = (records >> shift | records << self._unshift[seat]) & self._records_mask
        hand = state.hands[seat]
        if self._dummies and state.face_up[seat] >= 0:  # a dummy: its face-up cards
            hand &= state.face_up[seat]
        bits = (
            records
            | table_bits
            | hand
            | self._led_bits[state.led_suit if state.trick_cards else -1][state.suits_led]
        )
        if seat == contractor:
            bits |= discards
        if face_up:
            exposed_at = self._exposed_at
            n = self.seats
            views = self._dummy_views
            if views is None:
                for other, mask in state.visible_cards(seat):
                    bits |= mask << exposed_at[(other - seat) % n]
            else:  # (state.visible_cards, inlined)
                hands = state.hands
                for other in state.exposed_seats:
                    if other != seat:
                        bits |= hands[other] << exposed_at[(other - seat) % n]
                up = state.face_up
                for other, at, dummy in views[seat]:
                    bits |= (hands[other] & up[other] if dummy else hands[other]) << at
        if self._extras:  # as the core observation has them (observation.observe)
            drawn = state.drawn if seat == state.to_move else -1
            take = (
                (state.table_card, state.table_discard)
                if seat == 1 - state.contractor
                else (-1, -1)
            )
            bits |= self._variant_bits(
                seat, drawn, state.table_kitty, take, state.slam, state.barred
            )
        return bits

    def _variant_bits(
        self,
        seat: int,
        drawn: int,
        table_kitty: int,
        take: Sequence[int],
        slam: bool,
        barred: Sequence[int],
    ) -> int:
        """The bits of the variants' own fields (``drawn``, ``table_kitty``, ``table_take``,
        ``slam``, ``barred``) that these rules have."""
        bits = 0
        if self._drawn >= 0 and drawn >= 0:
            bits |= 1 << (self._drawn + drawn)
        if self._table_kitty >= 0:
            bits |= table_kitty << self._table_kitty
        if self._table_take >= 0:
            for i, card in enumerate(take):
                if card >= 0:
                    bits |= 1 << (self._table_take + i * NUM_CARDS + card)
        if self._slam >= 0 and slam:
            bits |= 1 << self._slam
        if self._barred >= 0:
            n = self.seats
            for s in barred:
                bits |= 1 << (self._barred + (s - seat) % n * self.record)
        return bits

    def _fixed_part(self, state: HandState) -> tuple[int, int, int, int, int, bool]:
        """What stays the same while calls are made or cards are added to a trick (the
        tracker drops it on any other change): the table fields of the phase and the
        contract; the records' dealer, active, contractor and (when they are known to all)
        partner bits, where they lie in seat 0's vector (turned with the tracked records);
        the contractor and its discards' bits; the partners' bits while they are not known
        to all; whether some cards lie face up."""
        records = self._dealer[state.dealer]
        records |= self._seat_set(state.active, self._active_bit)
        bits = self._phase[state.phase]
        contract = state.contract
        contractor, discards, partner_bits = -1, 0, 0
        if contract >= 0:
            contractor = state.contractor
            records |= self._contractor[contractor]
            bits |= self._contract_bit[contract]
            partner_bits = self._seat_set(state.partners, self._partner)
            if state.partner_revealed:
                records |= partner_bits
                partner_bits = 0
            trump = state.trump
            if trump >= 0:
                bits |= self._trump_bit[trump]
            red, black = state.joker_suits
            if red >= 0:
                bits |= self._red_bit[red]
            if black >= 0:
                bits |= self._black_bit[black]
            if state.called_card >= 0:
                bits |= 1 << (self._called + state.called_card)
            discards = state.discards << self._discards
        at0 = self.seats_offset
        # (visible_cards is empty unless some seat's hand lies face up or the rules have
        # face-up cards of their own: skip the call on the common path)
        face_up = self._face_up_rules or (contract >= 0 and bool(state.exposed_seats))
        return bits, records << at0, contractor, discards, partner_bits << at0, face_up

    def tracker(self) -> Any:
        """A tracker of the C extension (``_speedups.Tracker``) that follows positions as
        :meth:`bits` does and writes the vector's floats itself, from this encoder's layout
        and :meth:`_fixed_part`. ``tracker.observe(state, seat, legal)`` gives
        ``{"observation": vector, "action_mask": mask}`` (``legal``: the mask's ones, None
        for none), or None for no seat (``seat`` -1: then :meth:`bits` answers).

        The dict and its arrays are a few the tracker reuses: one is written again only once
        nothing refers to it any more (no dict, array, view or buffer over it is left) and
        its holder left it as it was made (the two keys in order, the arrays' shape, dtype
        and flags, no weak reference), so an observation kept stays as it was, as a fresh one
        would. None where the extension is not in use or the rules have fields of their own
        (the variants' fields, open_eight's face-up cards)."""
        speedups = self.speedups
        if (
            speedups is None
            or not hasattr(speedups, "Tracker")
            or self._extras
            or self.rules.open_eight
        ):
            return None
        at0 = self.seats_offset
        f = self.fields
        layout = [
            self.seats,
            self.size,
            at0,
            self.record,
            self._led,
            self._suits_led,
            NUM_ACTIONS,
            TRICKS_PER_HAND,
            NUM_CARDS,
        ]
        for row in (self._played_at, self._trick_at, self._void_at, self._won_at, self._call_at):
            layout += [at0 + at for at in row]
        layout += [at0 + base + f["to_move"].offset for base in self._base]
        layout += self.call_index
        layout += [action_card(action) for action in range(NUM_ACTIONS)]
        for bits in (self._dealer, self._active_bit, self._contractor, self._partner):
            layout += [at0 + bit.bit_length() - 1 for bit in bits]
        layout += [bit.bit_length() - 1 for bit in self._contract_bit]  # (-1: none)
        for bits in (self._trump_bit, self._red_bit, self._black_bit):
            layout += [bit.bit_length() - 1 for bit in bits]
        layout += [self._called, self._discards]
        layout += [self._phase[phase].bit_length() - 1 for phase in PHASES]
        layout += self._exposed_at  # (where seat k to the left shows its cards)
        layout += [controller_of(self.rules, seat) for seat in range(self.seats)]
        dummies = dummy_seats(self.rules) if self._dummies else ()
        layout += [sum(1 << seat for seat in dummies), int(self._dummies)]
        return speedups.Tracker(
            tuple(layout),
            tuple(PHASES),
            AUCTION,
            _buffers(self.size, _FLOAT32),
            _buffers(NUM_ACTIONS, np.dtype(np.int8)),
        )

    def observation_bits(self, obs: Observation) -> int:
        """:meth:`bits` from a core :class:`~fivehundred.observation.Observation` (what a
        player receives): the same integer, built from the seat's view alone."""
        n = self.seats
        seat = obs.seat
        records = self._dealer[obs.dealer]
        for s in range(n):
            records |= 1 << (self._won_at[s] + obs.tricks_won[s])
            records |= obs.voids[s] << self._void_at[s]
        for s, call in obs.auction:
            records |= 1 << (self._call_at[s] + self.call_index[call])
        for plays, _ in obs.tricks:
            for s, action in plays:
                records |= 1 << (self._played_at[s] + action_card(action))
        for s, action in obs.trick:
            card = action_card(action)
            records |= 1 << (self._played_at[s] + card) | 1 << (self._trick_at[s] + card)
        if obs.to_move >= 0:
            records |= self._to_move[obs.to_move]
        records |= self._seat_set(obs.active, self._active_bit)
        bits = obs.hand | self._phase[obs.phase]
        if obs.contract >= 0:
            records |= self._contractor[obs.contractor]
            records |= self._seat_set(obs.partners, self._partner)
            bits |= self._contract_bit[obs.contract]
            if obs.trump >= 0:
                bits |= 1 << (self._trump + obs.trump)
            red, black = obs.joker_suits
            if red >= 0:
                bits |= 1 << (self._joker + red)
            if black >= 0:
                bits |= 1 << (self._joker + SUIT_WIDTH + black)
            if obs.called_card >= 0:
                bits |= 1 << (self._called + obs.called_card)
            bits |= obs.discards << self._discards
        if seat:
            shift = seat * self.record
            records = (records >> shift | records << (n * self.record - shift)) & self._all_records
        bits |= records << self.seats_offset
        if obs.led_suit >= 0:
            bits |= 1 << (self._led + obs.led_suit)
        bits |= obs.suits_led << self._suits_led
        for other, mask in obs.exposed:
            bits |= mask << self._exposed_at[(other - seat) % n]
        if self._extras:
            bits |= self._variant_bits(
                seat, obs.drawn, obs.table_kitty, obs.table_take, obs.slam, obs.barred
            )
        return bits

    def encode_observation(self, obs: Observation) -> np.ndarray:
        """The vector of a core observation (its scores included): what an agent playing
        through the player interface (the arena, ``cmd:`` players) sees."""
        return self.vector(self.observation_bits(obs), obs.seat, obs.scores)

    def encode(self, state: HandState, seat: int, scores: Sequence[int] = ()) -> np.ndarray:
        """The observation vector of ``seat`` (float32, :attr:`size` long)."""
        return self.vector(self.bits(state, seat), seat, scores)

    def vector(self, bits: int, seat: int, scores: Sequence[int] = ()) -> np.ndarray:
        """The float32 vector of :meth:`bits` (``seat``'s), the scores filled in: a fresh
        array each time, the caller's to keep or change."""
        if self._floats is not None:  # in C: the floats' bytes, wrapped (a bytearray)
            vector = np.frombuffer(self._floats(bits, self.size), _FLOAT32)
        else:  # one table look-up turns every byte into its eight float32 elements (a
            # new array, of which the vector is the leading part)
            raw = np.frombuffer(bits.to_bytes(self._bytes, "little"), _UINT8)
            vector = self._unpack.take(raw, 0).ravel()[: self.size]
        if scores:
            offset = self.binary_size
            target = self.rules.target
            sides = self.sides
            n = self.seats
            for k in range(n):
                value = scores[sides[(seat + k) % n]] / target
                vector[offset + k] = min(SCORE_LIMIT, max(-SCORE_LIMIT, value))
        return vector

    def view(self, vector: np.ndarray, name: str) -> np.ndarray:
        """One field of an encoded vector in its shape (seat fields: one row per relative
        seat), for tests and inspection."""
        field = self.fields[name]
        if not field.per_seat:
            return vector[field.offset : field.offset + field.size].reshape(field.shape)
        records = vector[self.seats_offset : self.binary_size].reshape(self.seats, self.record)
        return records[:, field.offset : field.offset + field.shape[1]]


def _buffers(size: int, dtype: np.dtype[Any]) -> Callable[[], tuple[bytearray, np.ndarray]]:
    """A maker of a new buffer of ``size`` elements of ``dtype``: its bytes and the array
    over them (for :meth:`Encoder.tracker`)."""

    def make() -> tuple[bytearray, np.ndarray]:
        raw = bytearray(size * dtype.itemsize)
        return raw, np.frombuffer(raw, dtype)

    return make


def action_mask(legal: Sequence[int]) -> np.ndarray:
    """int8 mask of :data:`~fivehundred.actions.NUM_ACTIONS` with ones at the legal actions."""
    mask = bytearray(NUM_ACTIONS)
    for action in legal:
        mask[action] = 1
    return np.frombuffer(mask, np.int8)


def acting_seat(state: HandState, player: int) -> int:
    """The seat ``player`` observes from: the seat it decides for now (two players: its
    dummy when the dummy is to move), else its own."""
    to_move = state.to_move
    if to_move >= 0 and to_move != player and controller_of(state.rules, to_move) == player:
        return to_move
    return player
