"""Play-phase positions as the dense arrays the compiled solver reads.

:class:`Position` renumbers the cards still in play (hands and the trick in progress) so
that each effective suit is one contiguous block in power order (see
:mod:`fivehundred.solver.engine`), and holds everything the rules of play read: the
contract's follow rules (bowers, a nominated joker, free jokers), misère's "a void holder
must play the joker", the joker-lead rule's suits led / voids shown, the active seats and
the contracting side.

Build one from a :class:`~fivehundred.game.HandState` with :meth:`Position.from_state`, or
from bare hands (a sampled deal in a search-based player) with :meth:`Position.build`.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from fivehundred.actions import (
    Action,
    action_card,
    is_joker_lead,
    joker_lead_action,
    joker_lead_suit,
)
from fivehundred.cards import Card, CardMask, iter_cards
from fivehundred.game import PLAY, TRICKS_PER_HAND, HandState
from fivehundred.play import PlayContext
from fivehundred.rules import JOKER_LEAD_NOT_RENOUNCED
from fivehundred.solver import engine as E

IntArray = npt.NDArray[np.int64]
MaskArray = npt.NDArray[np.uint64]

_TT_BITS = 16
#: Solves in a shared scope share the table with at most this many tricks left. Earlier,
#: the deals of one decision hardly ever reach the same position (pimc's workload, 4
#: hands of ``expert``: 1.02x fewer nodes with nine tricks left, 1.04x with eight, 1.11x
#: with seven, 1.2x to 1.36x with six to three), and the fuller table's longer probes
#: cost more than the few nodes saved (0.94x and 0.99x the time with nine and eight).
SHARED_TRICKS = 7


class _Table:
    """The transposition table, shared by every search in this process (one at a time).

    Each top-level call takes a new generation, which empties the table for free, unless
    it runs inside :meth:`sharing` (see :func:`fivehundred.solver.shared_table`). A row of
    ``keys`` is a relative key with its bounds (see :mod:`fivehundred.solver.engine`);
    ``check`` holds each row's generation and a hash of its shape."""

    def __init__(self, bits: int = _TT_BITS) -> None:
        size = 1 << bits
        self.keys = np.zeros((size, E.KEY_WORDS), np.uint64)
        self.check = np.zeros(size, np.uint64)
        self.gen = 0
        self.epoch = 0  # counts the wraps of ``gen`` (a shared generation dies with its epoch)
        self.buf = np.zeros(E.MAX_DEPTH * E.MAX_MOVES, np.int64)
        self._scope = threading.local()
        self.scopes = 0  # the scopes open, in every thread

    def next_gen(self) -> int:
        self.gen += 1
        if self.gen >= 2**31 - 1:
            self.check[:] = 0
            self.gen = 1
            self.epoch += 1
        return self.gen

    def gen_for(self, pos: Position) -> int:
        """The generation of a search of ``pos``: a new one, or inside :meth:`sharing`
        (with at most :data:`SHARED_TRICKS` tricks left) the one every search of its
        :meth:`Position.setting` in the scope uses."""
        if not self.scopes:
            return self.next_gen()
        shared: dict[bytes, tuple[int, int]] | None = getattr(self._scope, "gens", None)
        if shared is None or pos.st.item(E.S_LEFT) > SHARED_TRICKS:
            return self.next_gen()
        setting = pos.setting()
        epoch, gen = shared.get(setting, (-1, 0))
        if epoch != self.epoch:
            gen = self.next_gen()
            shared[setting] = (self.epoch, gen)
        return gen

    @contextmanager
    def sharing(self) -> Iterator[None]:
        """A scope (of this thread) whose searches keep the table's entries for one
        another, per setting; nested scopes are the outermost one."""
        if getattr(self._scope, "gens", None) is not None:
            yield
            return
        self._scope.gens = {}
        self.scopes += 1
        try:
            yield
        finally:
            self.scopes -= 1
            self._scope.gens = None


_TABLE: _Table | None = None

#: Per contract (by the context's id, the context kept so that the id stays its own):
#: every card in dense order (by block, then power) and each card's block.
_ORDERS: dict[int, tuple[PlayContext, tuple[Card, ...], tuple[int, ...]]] = {}


def _order(ctx: PlayContext) -> tuple[tuple[Card, ...], tuple[int, ...]]:
    """Every card of ``ctx`` in dense order and each card's block (4: a free joker)."""
    entry = _ORDERS.get(id(ctx))
    if entry is None or entry[0] is not ctx:
        if len(_ORDERS) >= 256:
            _ORDERS.clear()
        blocks = tuple(4 if suit < 0 else suit for suit in ctx.effective_suit)
        order = tuple(sorted(range(len(blocks)), key=lambda c: (blocks[c], ctx.power[c])))
        entry = _ORDERS[id(ctx)] = (ctx, order, blocks)
    return entry[1], entry[2]


def table() -> _Table:
    global _TABLE
    if _TABLE is None:
        _TABLE = _Table()
    return _TABLE


@dataclass
class Position:
    """A play-phase position in dense form (see :mod:`fivehundred.solver.engine`).

    ``cards[i]`` is the real card of dense card ``i``; ``seats[j]`` the seat of active
    player ``j``; ``won`` the tricks the contracting side has already won; ``free_jokers``
    the real cards that are unnominated jokers in no trumps or misère.
    """

    h: MaskArray
    st: IntArray
    tc: IntArray
    tp: IntArray
    side: IntArray
    voids: IntArray
    suitm: MaskArray
    csuit: IntArray
    crank: IntArray
    cards: list[Card]
    seats: tuple[int, ...]
    won: int
    free_jokers: CardMask

    @property
    def tricks_left(self) -> int:
        """Tricks still to be completed, counting the one in progress."""
        return int(self.st[E.S_LEFT])

    def setting(self) -> bytes:
        """What a search's values depend on besides the cards' relative ranks, the
        hands' shapes, the leader and the joker-lead state (the table's keys): the number
        of players, the contract's trump and misère, the joker-lead rule and the
        contracting side. Searches of positions with the same setting may share the
        table's entries (:func:`fivehundred.solver.shared_table`)."""
        return self.st[E.S_P : E.S_JLMODE + 1].tobytes() + self.side.tobytes()

    @property
    def player_to_move(self) -> int:
        """The seat to move."""
        return self.seats[int(self.st[E.S_TOMOVE])]

    @classmethod
    def build(
        cls,
        ctx: PlayContext,
        active: Sequence[int],
        contracting: Sequence[int],
        hands: Sequence[CardMask],
        to_move: int,
        trick: Sequence[tuple[int, Card]] = (),
        led_suit: int = -1,
        suits_led: int = 0,
        void_shown: Sequence[int] | None = None,
        joker_lead_not_renounced: bool = False,
        won: int = 0,
    ) -> Position:
        """A position from bare facts.

        ``hands`` is indexed by seat (only the ``active`` seats are read); ``trick`` the
        ``(seat, card)`` plays of the trick in progress, with ``led_suit``; ``suits_led`` the
        4-bit mask of suits led so far this hand and ``void_shown`` the per-seat 4-bit masks
        of suits shown void (both only matter while a free joker is out, R-JOKER 5);
        ``contracting`` the seats whose tricks count (the contractor alone in misère);
        ``won`` the tricks that side has already won.
        """
        active = tuple(active)
        players = len(active)
        if not 2 <= players <= 8:
            raise ValueError(f"{players} active seats")
        trick_cards = [card for _, card in trick]
        in_play = 0
        for seat in active:
            in_play |= hands[seat]
        for card in trick_cards:
            in_play |= 1 << card
        if in_play.bit_count() > 64:
            raise ValueError("more than 64 cards in play")
        order, blocks = _order(ctx)
        real = [card for card in order if in_play >> card & 1]
        # plain lists first, one array each at the end (an item set on an array costs
        # more than the whole list)
        csuit_l = [0] * 64
        crank_l = [0] * 64
        suitm_l = [0] * 5
        counts = [0] * 5
        dense = {}
        for i, card in enumerate(real):
            dense[card] = i
            b = blocks[card]
            csuit_l[i] = b
            crank_l[i] = counts[b]
            counts[b] += 1
            suitm_l[b] |= 1 << i
        h_l = [0] * 8
        for j, seat in enumerate(active):
            m = 0
            for card in iter_cards(hands[seat]):
                m |= 1 << dense[card]
            h_l[j] = m
        index = {seat: j for j, seat in enumerate(active)}
        tc_l = [0] * 80
        tp_l = [0] * 80
        for k, (seat, card) in enumerate(trick):
            tc_l[k] = dense[card]
            tp_l[k] = index[seat]
        contracting_set = set(contracting)
        side_l = [0] * 8
        voids_l = [0] * 8
        for j, seat in enumerate(active):
            side_l[j] = 1 if seat in contracting_set else 0
            voids_l[j] = void_shown[seat] if void_shown is not None else 0
        left = max(hands[seat].bit_count() for seat in active)
        if trick:
            # the player to move has not yet played to the trick in progress
            left = hands[to_move].bit_count()
        st_l = [0] * E.ST_SIZE
        st_l[E.S_P] = players
        st_l[E.S_TRUMP] = ctx.trump if ctx.trump < 4 else -1
        st_l[E.S_MISERE] = 1 if ctx.misere else 0
        st_l[E.S_JLMODE] = 1 if joker_lead_not_renounced else 0
        st_l[E.S_SUITSLED] = suits_led
        st_l[E.S_TCOUNT] = len(trick)
        st_l[E.S_LED] = led_suit if trick else 0
        st_l[E.S_TOMOVE] = index[to_move]
        st_l[E.S_LEFT] = left
        h = np.array(h_l, np.uint64)
        st = np.array(st_l, np.int64)
        tc = np.array(tc_l, np.int64)
        tp = np.array(tp_l, np.int64)
        side = np.array(side_l, np.int64)
        voids = np.array(voids_l, np.int64)
        suitm = np.array(suitm_l, np.uint64)
        csuit = np.array(csuit_l, np.int64)
        crank = np.array(crank_l, np.int64)
        return cls(
            h,
            st,
            tc,
            tp,
            side,
            voids,
            suitm,
            csuit,
            crank,
            real,
            active,
            won,
            ctx.free_jokers & in_play,
        )

    @classmethod
    def from_state(cls, state: HandState) -> Position:
        """The position of a hand in play (a trick may be in progress)."""
        if state.phase != PLAY or state.ctx is None:
            raise ValueError(f"not a play-phase position (phase {state.phase})")
        if state.contractor < 0:
            raise ValueError("no contract: nobody's tricks to count")
        # Partners sit out of misère and hi/lo (none then); double misère counts both.
        contracting = (state.contractor, *state.partners)
        won = sum(state.tricks_won[s] for s in contracting)
        trick = list(zip(state.trick_seats, state.trick_cards, strict=True))
        pos = cls.build(
            state.ctx,
            state.active,
            contracting,
            state.hands,
            state.to_move,
            trick,
            state.led_suit,
            state.suits_led,
            state.void_shown,
            state.rules.joker_lead == JOKER_LEAD_NOT_RENOUNCED,
            won,
        )
        if pos.tricks_left != TRICKS_PER_HAND - len(state.tricks):
            raise ValueError("hands and tricks played disagree")
        return pos

    # ------------------------------------------------------------------ moves
    def action_of(self, move: int) -> Action:
        """The engine action of a dense move code (``card * 8 + nomination``)."""
        card = self.cards[move >> 3]
        nomination = move & 7
        if nomination < 4:
            return joker_lead_action(card, nomination)
        return card

    def move_of(self, action: Action) -> int:
        """The dense move code of an engine action."""
        if is_joker_lead(action):
            return self.cards.index(action_card(action)) * 8 + joker_lead_suit(action)
        return self.cards.index(action) * 8 + E.NOMINATION_NONE

    def packed(self) -> tuple[MaskArray, IntArray]:
        """Working copies of the search's packed arrays ``(h, st)`` (see
        :mod:`fivehundred.solver.engine`)."""
        h = np.zeros(E.H_SIZE, np.uint64)
        h[:8] = self.h
        h[E.H_SUIT : E.H_SUIT + 5] = self.suitm
        st = np.zeros(E.ST_LEN, np.int64)
        st[: E.ST_SIZE] = self.st
        st[E.O_TC : E.O_TC + 80] = self.tc
        st[E.O_TP : E.O_TP + 80] = self.tp
        st[E.O_SIDE : E.O_SIDE + 8] = self.side
        st[E.O_VOID : E.O_VOID + 8] = self.voids
        st[E.O_CSUIT : E.O_CSUIT + 64] = self.csuit
        st[E.O_CRANK : E.O_CRANK + 64] = self.crank
        return h, st

    def arrays(
        self,
    ) -> tuple[
        MaskArray, IntArray, IntArray, IntArray, IntArray, IntArray, MaskArray, IntArray, IntArray
    ]:
        """Working copies of the arrays a search mutates (and restores)."""
        return (
            self.h.copy(),
            self.st.copy(),
            self.tc.copy(),
            self.tp.copy(),
            self.side,
            self.voids.copy(),
            self.suitm,
            self.csuit,
            self.crank,
        )
