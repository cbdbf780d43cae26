"""The observation encoder against the reference encoder it replaced: the same vectors,
element for element, for every seat on random positions of every preset and of the house
variants that show cards face up (the reference is the earlier, simpler implementation,
kept here verbatim)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

np = pytest.importorskip("numpy", reason="the env extra (numpy) is not installed")

from fivehundred.actions import action_card  # noqa: E402
from fivehundred.env.encoding import SCORE_LIMIT, SUIT_WIDTH, Encoder  # noqa: E402
from fivehundred.game import HandState  # noqa: E402
from fivehundred.rules import PRESETS, make_rules  # noqa: E402


class ReferenceEncoder(Encoder):
    """The encoder as it was: the seat records tracked by shifting bits into place, every
    table field recomputed on each call, the bits unpacked by ``np.unpackbits`` and cast to
    float32."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self._reference_sets: dict[tuple[int, ...], tuple[int, int]] = {}

    def _reset(self) -> None:
        self._records = sum(1 << at for at in self._won_at)  # 0 tricks won, one-hot
        self._won = [0] * self.seats
        self._trick_bits = 0
        self._history = 0
        self._calls_seen = 0
        self._tricks_seen = 0
        self._in_trick = 0

    def _sync(self, state: HandState) -> None:
        """Bring the seat records up to ``state`` (incrementally when it moved on)."""
        history = len(state.history)
        if state is not self._state or history < self._history:
            self._state = state
            self._reset()
        elif history == self._history:
            return
        elif history == self._history + 1:  # the usual step: one card added to the trick
            seats = state.trick_seats
            if len(seats) == self._in_trick + 1 and self._tricks_seen == len(state.tricks):
                seat, card = seats[-1], state.trick_cards[-1]
                bit = 1 << (self._trick_at[seat] + card)
                self._trick_bits |= bit
                self._records |= (
                    bit
                    | 1 << (self._played_at[seat] + card)
                    | state.void_shown[seat] << self._void_at[seat]
                )
                self._in_trick += 1
                self._history = history
                return
        self._history = history
        records = self._records
        calls = state.auction.calls
        if len(calls) > self._calls_seen:
            call_at = self._call_at
            for seat, call in calls[self._calls_seen :]:
                records |= 1 << (call_at[seat] + self.call_index[call])
            self._calls_seen = len(calls)
        played_at, trick_at, void_at = self._played_at, self._trick_at, self._void_at
        voids = state.void_shown
        tricks = state.tricks
        while self._tricks_seen < len(tricks):
            trick = tricks[self._tricks_seen]
            for seat, action in trick.plays[self._in_trick :]:
                card = action_card(action)
                records |= 1 << (played_at[seat] + card) | voids[seat] << void_at[seat]
            records &= ~self._trick_bits
            self._trick_bits = 0
            winner = trick.winner
            won = self._won[winner]
            at = self._won_at[winner]
            records = records & ~(1 << (at + won)) | 1 << (at + won + 1)
            self._won[winner] = won + 1
            self._in_trick = 0
            self._tricks_seen += 1
        seats = state.trick_seats
        if len(seats) > self._in_trick:
            cards = state.trick_cards
            for index in range(self._in_trick, len(seats)):
                seat, card = seats[index], cards[index]
                bit = 1 << (trick_at[seat] + card)
                self._trick_bits |= bit
                records |= bit | 1 << (played_at[seat] + card) | voids[seat] << void_at[seat]
            self._in_trick = len(seats)
        self._records = records

    def bits(self, state: HandState, seat: int) -> int:
        self._sync(state)
        n = self.seats
        records = self._records | self._dealer[state.dealer]
        if state.to_move >= 0:
            records |= self._to_move[state.to_move]
        key = state.active
        active = self._reference_sets.get(key)
        if active is None:
            active = self._reference_sets[key] = (self._seat_set(key, self._active_bit), 0)
        records |= active[0]
        contract = state.contract
        bits = state.playable(seat) | self._phase[state.phase]
        if contract >= 0:
            contractor = state.contractor
            records |= self._contractor[contractor]
            bits |= 1 << (self._contract + self.call_index[contract])
            partners = state.partners
            if partners and (state.partner_revealed or seat in partners):
                records |= self._seat_set(partners, self._partner)
            trump = state.trump
            if trump >= 0:
                bits |= 1 << (self._trump + trump)
            red, black = state.joker_suits
            if red >= 0:
                bits |= 1 << (self._joker + red)
            if black >= 0:
                bits |= 1 << (self._joker + SUIT_WIDTH + black)
            if state.called_card >= 0:
                bits |= 1 << (self._called + state.called_card)
            if seat == contractor:
                bits |= state.discards << self._discards
        if seat:
            shift = seat * self.record
            records = (records >> shift | records << (n * self.record - shift)) & self._all_records
        bits |= records << self.seats_offset
        if state.trick_cards:
            bits |= 1 << (self._led + state.led_suit)
        bits |= state.suits_led << self._suits_led
        if state.contract >= 0 or state.rules.dummies or state.rules.open_eight:
            exposed_at = self._exposed_at
            for other, mask in state.visible_cards(seat):
                bits |= mask << exposed_at[(other - seat) % n]
        if self._extras:  # the variants' own fields, from the core observation
            obs = state.observation(seat)
            bits |= self._variant_bits(
                seat, obs.drawn, obs.table_kitty, obs.table_take, obs.slam, obs.barred
            )
        return bits

    def vector(self, bits: int, seat: int, scores: Sequence[int] = ()) -> np.ndarray:
        raw = bits.to_bytes(self._bytes, "little")
        unpacked = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")
        vector = unpacked[: self.size].astype(np.float32)
        if scores:
            offset = self.binary_size
            target = self.rules.target
            sides = self.sides
            n = self.seats
            for k in range(n):
                value = scores[sides[(seat + k) % n]] / target
                vector[offset + k] = min(SCORE_LIMIT, max(-SCORE_LIMIT, value))
        return vector


CONFIGS = [(preset, {}) for preset in PRESETS] + [
    ("australian", {"wilkinson_misere": True}),
    ("australian", {"claim": True}),
    ("australian", {"two_jokers": True}),
    ("australian", {"patastrophe": True, "shields_double": True, "double_misere": True}),
    ("two_handed", {"open_eight": True}),
    ("australian", {"hi_lo": True, "slam_call": True}),
    ("two_handed", {"draw_pack": True}),
    ("american", {"ralphing": True, "inkle": True}),
    ("three_handed", {"dead_hand": True}),
]


HANDS = 4  # per configuration: about 50 positions each, every seat


@pytest.mark.parametrize(("preset", "variants"), CONFIGS)
def test_encoder_matches_reference(preset: str, variants: dict[str, bool]) -> None:
    rules = make_rules(preset, variants)
    encoder, reference = Encoder(rules), ReferenceEncoder(rules)
    sides = max(encoder.sides) + 1
    rng = random.Random(f"{preset}{sorted(variants)}")
    positions = 0
    for hand in range(HANDS):
        seed = rng.getrandbits(32)
        state = HandState.deal(rules, hand % rules.players, seed=seed)
        while True:
            # every seat, in a random order (the encoder keeps state between calls)
            for seat in rng.sample(range(rules.seats), rules.seats):
                scores = [rng.randrange(-1500, 1500) for _ in range(sides)]
                for given in (scores,) if rng.random() < 0.5 else ((),):
                    new = encoder.encode(state, seat, given)
                    old = reference.encode(state, seat, given)
                    assert new.dtype == old.dtype == np.float32
                    assert new.shape == old.shape == (encoder.size,)
                    assert np.array_equal(new, old), (preset, variants, hand, seat)
                    assert new.flags.writeable
            positions += 1
            if state.is_over:
                break
            legal = state.legal_actions()
            state.apply(legal[rng.randrange(len(legal))])
        # a fresh state for the same encoder, and going back in a hand, resync it
        if hand % 2:
            earlier = HandState.deal(rules, hand % rules.players, seed=seed)
            for action in state.history[:5]:
                earlier.apply(action)
            for seat in range(rules.seats):
                assert np.array_equal(
                    encoder.encode(earlier, seat), reference.encode(earlier, seat)
                )
    assert positions > HANDS * 20


def test_vectors_are_independent() -> None:
    """Every vector is a fresh array: changing one changes no other, nor the next."""
    rules = make_rules("australian")
    encoder = Encoder(rules)
    state = HandState.deal(rules, 0, seed=3)
    first = encoder.encode(state, 0)
    kept = first.copy()
    second = encoder.encode(state, 0)
    second[:] = 7.0
    assert np.array_equal(first, kept)
    third = encoder.encode(state, 0)
    assert np.array_equal(third, kept)
    assert not np.shares_memory(first, third)


VARIANT_CONFIGS = [
    (
        "australian",
        {"hi_lo": True, "double_misere": True, "shields_double": True, "patastrophe": True},
    ),
    ("two_handed", {"draw_pack": True}),
    ("two_handed", {"open_eight": True}),
    ("australian", {"slam_call": True, "ralphing": True}),
]


@pytest.mark.parametrize(("preset", "variants"), VARIANT_CONFIGS)
def test_variant_fields_hold_what_the_core_observation_holds(
    preset: str, variants: dict[str, bool]
) -> None:
    """Every call and contract has its own element (the house contracts too), and the
    variants' own facts (the card drawn, the face-up cards moved, slam, the barred seats)
    are in the vector exactly as in the core observation."""
    from fivehundred.actions import HI_LO, PATASTROPHE

    rules = make_rules(preset, variants)
    encoder = Encoder(rules)
    rng = random.Random(f"{preset}{sorted(variants)}")
    house_contracts = drawn_seen = 0
    for hand in range(12):
        state = HandState.deal(rules, hand % rules.players, seed=rng.getrandbits(32))
        while not state.is_over:
            for seat in range(rules.players):
                vector = encoder.encode(state, seat)
                obs = state.observation(seat)
                assert np.array_equal(vector, encoder.encode_observation(obs))
                contract = encoder.view(vector, "contract")
                if obs.contract >= 0:
                    assert list(np.flatnonzero(contract)) == [encoder.call_index[obs.contract]]
                    house_contracts += HI_LO <= obs.contract <= PATASTROPHE
                else:
                    assert not contract.any()
                n = rules.seats
                for k in range(n):
                    made = {encoder.call_index[c] for s, c in obs.auction if s == (seat + k) % n}
                    assert set(np.flatnonzero(encoder.view(vector, "calls")[k])) == made
                if "drawn" in encoder.fields:
                    drawn = list(np.flatnonzero(encoder.view(vector, "drawn")))
                    assert drawn == ([obs.drawn] if obs.drawn >= 0 else [])
                    drawn_seen += bool(drawn)
            legal = state.legal_actions()
            # (bid high now and then, so that the house contracts are played)
            pick = max(legal) if rng.random() < 0.2 else legal[rng.randrange(len(legal))]
            state.apply(pick)
    if "hi_lo" in variants:
        assert house_contracts > 0
    if "draw_pack" in variants:
        assert drawn_seen > 0


def test_the_documented_layout_is_the_encoder_s() -> None:
    """docs/env.md's field tables (offset and size of every field, the vector's size)
    are those of the encoder."""
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "env.md").read_text("utf-8")
    encoder = Encoder(make_rules("australian"))
    rows = re.findall(r"^\| `(\w+)` \| (\d+) \| (\d+)(?: × (\d+))? \|", text, re.MULTILINE)
    documented = {name: (int(offset), int(a) * int(b or 1)) for name, offset, a, b in rows}
    fields = {name: field for name, field in encoder.fields.items() if name != "scores"}
    assert set(documented) == set(fields)
    for name, field in fields.items():
        size = field.size // encoder.seats if field.per_seat else field.size
        assert documented[name] == (field.offset, size), name
    offset, record = encoder.seats_offset, encoder.record
    assert f"`{offset} + {record} n + n`" in text
    for seats in (3, 4, 5, 6):
        assert f"{offset + (record + 1) * seats}" in text
