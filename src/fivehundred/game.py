"""Hand and game state machines.

A :class:`HandState` runs one hand through explicit phases (OpenSpiel style)::

    auction → discard (kitty exchange) → nominate (joker, optional) → play → done

At every point it says whose turn it is (:attr:`HandState.to_move`), the legal actions
(:meth:`HandState.legal_actions`), and applies an action (:meth:`HandState.apply`), raising
:class:`IllegalActionError` naming the rule for anything the rules forbid. Each seat gets
an :class:`~fivehundred.observation.Observation` with only what that seat may see.

A :class:`GameState` plays hands to the target with the dealer rotating (R-GAME).

>>> from fivehundred.rules import make_rules
>>> hand = HandState.deal(make_rules(), dealer=0, seed=1)
>>> hand.phase, hand.to_move
('auction', 1)
"""

from __future__ import annotations

import contextlib
import importlib
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

from fivehundred.actions import (
    ALONE_CONTRACTS,
    BID_BASE,
    CLAIM,
    JOKER_LEAD_BASE,
    MISERE,
    NO_NOMINATION,
    NOMINATE_BASE,
    OPEN_MISERE,
    PATASTROPHE,
    SHIELDS_DOUBLE,
    Action,
    action_card,
    action_text,
    bid_strain,
    is_call,
    is_joker_lead,
    is_misere,
    is_suit_bid,
    joker_lead_action,
    joker_lead_suit,
    nominate_action,
)
from fivehundred.auction import Auction
from fivehundred.cards import (
    JOKER,
    JOKERS_MASK,
    NO_TRUMPS,
    SUITS,
    Card,
    CardMask,
    card_text,
    cards_of,
    iter_cards,
    mask_of,
)
from fivehundred.errors import IllegalActionError, Refusal
from fivehundred.house_phases import (
    HOUSE_PHASE_RULES,
    after_discards,
    before_auction,
    before_play,
    drawn,
)
from fivehundred.phases import AUCTION as AUCTION
from fivehundred.phases import CALL as CALL
from fivehundred.phases import DISCARD as DISCARD
from fivehundred.phases import DONE as DONE
from fivehundred.phases import DRAW as DRAW
from fivehundred.phases import NOMINATE as NOMINATE
from fivehundred.phases import PHASES as PHASES
from fivehundred.phases import PLAY as PLAY
from fivehundred.phases import SLAM_CALL as SLAM_CALL
from fivehundred.phases import SLAM_PASS as SLAM_PASS
from fivehundred.phases import STOCK_SEAT as STOCK_SEAT
from fivehundred.phases import TABLE_DISCARD as TABLE_DISCARD
from fivehundred.phases import TABLE_KITTY as TABLE_KITTY
from fivehundred.phases import TABLE_SEAT as TABLE_SEAT
from fivehundred.phases import TABLE_TAKE as TABLE_TAKE
from fivehundred.phases import THROWN_SEAT as THROWN_SEAT
from fivehundred.phases import PhaseRules
from fivehundred.play import (
    FREE_SUIT,
    PlayContext,
    legal_follow_mask,
    make_context,
    trick_winner_index,
)
from fivehundred.rules import (
    ALLPASS_PLAY_NT,
    ALLPASS_REDEAL_SAME_DEALER,
    JOKER_LEAD_NOT_RENOUNCED,
    Rules,
)
from fivehundred.scoring import (
    DEFENDER_TRICK_POINTS,
    HandScore,
    apply_hand_to_scores,
    game_winner,
    ralphed,
    score_hand,
    side_of_seats,
    sides_gone_out,
)

DUMMY_STACKS = 5

TRICKS_PER_HAND = 10
_ALL_SUITS = 0b1111


@lru_cache(maxsize=32)
def deal_plan(rules: Rules) -> tuple[tuple[Card, ...], tuple[int, ...]]:
    """The order of the deal (R-DEAL): the unshuffled deck (every card of the pack, in card
    order), and who receives the card at each position of the deal: ``k`` for the seat
    ``k`` places on from the dealer's left, i.e. seat ``(dealer + 1 + k) % rules.seats``,
    or ``rules.seats`` for the kitty. A shuffled deck dealt by this plan is
    :meth:`HandState.from_deck` (which also covers the deals of ``open_eight`` and
    ``draw_pack``, R-PLAYERS, that do not follow it)."""
    pack = rules.pack
    seats = rules.seats
    owners: list[int] = []
    for each, to_kitty in pack.deal_rounds:
        for offset in range(1, seats + 1):
            owners += [offset - 1] * each
        owners += [seats] * to_kitty
    return tuple(iter_cards(pack.cards)), tuple(owners)


_deal_plan = deal_plan  # the earlier private name


def deal_cards(rules: Rules, dealer: int, rng: random.Random) -> tuple[list[CardMask], CardMask]:
    """Shuffle and deal by the pack's pattern, from the dealer's left (R-DEAL)."""
    deck, owners = _deal_plan(rules)
    cards = list(deck)
    rng.shuffle(cards)
    seats = rules.seats
    masks = [0] * (seats + 1)
    for owner, card in zip(owners, cards, strict=True):
        masks[owner] |= 1 << card
    # owners count from the dealer's left: rotate so that index = seat number
    first = (dealer + 1) % seats
    hands = [masks[(seat - first) % seats] for seat in range(seats)]
    return hands, masks[seats]


def deal_card_lists(
    rules: Rules, dealer: int, rng: random.Random
) -> tuple[list[list[Card]], list[Card]]:
    """Like :func:`deal_cards`, keeping the order in which each hand's cards were dealt
    (which the two-player dummies need: the first five lie face down, R-PLAYERS)."""
    cards = list(deal_plan(rules)[0])
    rng.shuffle(cards)
    return _deal_lists(rules, dealer, cards)


def _deal_lists(
    rules: Rules, dealer: int, cards: Sequence[Card]
) -> tuple[list[list[Card]], list[Card]]:
    """Each seat's cards and the kitty's, in the order dealt, from a shuffled deck."""
    owners = deal_plan(rules)[1]
    seats = rules.seats
    lists: list[list[Card]] = [[] for _ in range(seats + 1)]
    for owner, card in zip(owners, cards, strict=True):
        lists[owner].append(card)
    first = (dealer + 1) % seats
    return [lists[(seat - first) % seats] for seat in range(seats)], lists[seats]


def dummy_seats(rules: Rules) -> tuple[int, ...]:
    """Seats played as dummies (two players: the seats opposite them, R-PLAYERS)."""
    return (2, 3) if rules.dummies else ()


def ordered_seats(rules: Rules) -> tuple[int, ...]:
    """Seats whose cards a record lists in deal order: the two-player dummies, and the
    ``draw_pack`` stock (R-PLAYERS)."""
    if rules.draw_pack:
        return (STOCK_SEAT,)
    return dummy_seats(rules)


def controller_of(rules: Rules, seat: int) -> int:
    """The player who decides for ``seat`` (a dummy is played by the player opposite)."""
    return seat % 2 if rules.dummies else seat


class Trick(NamedTuple):
    """A completed trick: the plays ``(seat, action)`` in order and the winning seat."""

    plays: tuple[tuple[int, Action], ...]
    winner: int

    @property
    def leader(self) -> int:
        return self.plays[0][0]


@dataclass(frozen=True, slots=True)
class HandResult:
    """What ``fivehundred replay`` reports for a finished hand."""

    contract: Action  # -1: no contract (all passed)
    contractor: int  # -1: none
    trick_winners: tuple[int, ...]
    tricks_won: tuple[int, ...]
    score: HandScore

    @property
    def points(self) -> tuple[int, ...]:
        return self.score.points

    @property
    def made(self) -> bool | None:
        return self.score.made


class HandState:
    """One hand, from the deal to the score. Mutable; :meth:`clone` copies it."""

    __slots__ = (
        "_result",
        "active",
        "auction",
        "called_card",
        "claim_at",
        "claim_plan",
        "claim_trick",
        "contract",
        "contractor",
        "ctx",
        "dealer",
        "dealt",
        "discards",
        "discards_left",
        "dummy_deal",
        "dummy_under",
        "face_up",
        "hands",
        "history",
        "joker_suits",
        "jokers_pending",
        "kitty",
        "kitty_dealt",
        "led_suit",
        "next_active",
        "partner_revealed",
        "partners",
        "phase",
        "played",
        "rules",
        "seats",
        "slam",
        "slam_asked",
        "slam_card",
        "slam_partner",
        "stock",
        "suits_led",
        "table_card",
        "table_discard",
        "table_kitty",
        "to_move",
        "trick_actions",
        "trick_cards",
        "trick_seats",
        "tricks",
        "tricks_won",
        "void_shown",
    )

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        hands: Sequence[CardMask],
        kitty: CardMask,
        dummy_cards: Sequence[Sequence[Card]] = (),
        barred: Sequence[int] = (),
    ) -> None:
        """A hand about to be bid, with the cards as dealt. ``barred`` seats must pass
        (R-HOUSE ralphing).

        With two players, ``dummy_cards`` gives each dummy's ten cards in the order dealt
        (for seats 2 and 3): the first five lie face down, each under the face-up card five
        places later (R-PLAYERS).
        """
        self.rules = rules
        self.seats = rules.seats
        self.dealer = dealer
        self.dealt = tuple(hands)
        self.kitty_dealt = kitty
        self.hands = list(hands)
        self.kitty = kitty
        self.phase = AUCTION
        self.history: list[Action] = []
        bidders = None
        if rules.dummies or rules.two_live:
            # two players bid (their dummies or the dead hands do not), from the dealer's left
            live = rules.players
            bidders = [(dealer + 1 + i) % live for i in range(live)]
        self.auction = Auction(rules, dealer, bidders, tuple(barred))
        self.to_move = self.auction.to_move
        # R-PLAYERS open_eight: the face-up cards moved to the kitty (public), the one the
        # defender took and the one they discarded (seen only by the defender)
        self.table_kitty = 0
        self.table_card = -1
        self.table_discard = -1
        self.stock: tuple[Card, ...] = ()  # draw_pack: the stock in the order drawn
        self.contract = -1
        self.contractor = -1
        self.partners: tuple[int, ...] = ()
        self.called_card = -1
        self.partner_revealed = True
        # Two players: face-up dummy cards (per seat; all cards visible otherwise) and the
        # face-down card lying under each face-up one.
        self.face_up = [-1] * self.seats
        self.dummy_under: dict[Card, Card] = {}
        self.dummy_deal = tuple(tuple(order) for order in dummy_cards)  # also the stock
        if rules.dummies:
            for seat, order in zip(dummy_seats(rules), dummy_cards, strict=True):
                if len(order) != 2 * DUMMY_STACKS or mask_of(order) != hands[seat]:
                    raise ValueError(f"dummy seat {seat}: give its ten cards in deal order")
                self.face_up[seat] = mask_of(order[DUMMY_STACKS:])
                for down, up in zip(order[:DUMMY_STACKS], order[DUMMY_STACKS:], strict=True):
                    self.dummy_under[up] = down
        self.discards = 0
        self.discards_left = 0
        # R-HOUSE slam_call: asked once after the kitty; the partner who sat out and the
        # card they passed (seen only by the contractor)
        self.slam = False
        self.slam_asked = False
        self.slam_partner = -1
        self.slam_card = -1
        # R-HOUSE claim: the trick at which the contractor claimed the rest (-1: none)
        self.claim_trick = -1
        self.claim_at = -1
        self.claim_plan: list[Action] = []
        self.joker_suits = [FREE_SUIT, FREE_SUIT]
        self.jokers_pending: list[Card] = []
        self.ctx: PlayContext | None = None
        self.active: tuple[int, ...] = ()
        self.next_active: list[int] = []
        self.trick_cards: list[Card] = []
        self.trick_actions: list[Action] = []
        self.trick_seats: list[int] = []
        self.led_suit = -1
        self.tricks: list[Trick] = []
        self.tricks_won = [0] * self.seats
        self.suits_led = 0
        self.void_shown = [0] * self.seats
        self.played = 0
        self._result: HandResult | None = None
        before_auction(self)  # the house rules' phases before the auction, if any

    @classmethod
    def deal(
        cls,
        rules: Rules,
        dealer: int,
        seed: int | str | None = None,
        barred: Sequence[int] = (),
    ) -> HandState:
        """Shuffle with ``seed`` and deal (R-DEAL). The same seed gives the same deal."""
        deck = list(deal_plan(rules)[0])
        random.Random(seed).shuffle(deck)
        return cls._from_deck(rules, dealer, deck, barred)

    @classmethod
    def from_deck(
        cls,
        rules: Rules,
        dealer: int,
        deck: Sequence[Card],
        barred: Sequence[int] = (),
    ) -> HandState:
        """Deal ``deck``, the whole pack in the order it is dealt (a shuffle of
        ``deal_plan(rules)[0]``), as :meth:`deal` deals its shuffled deck: by
        :func:`deal_plan`, or for ``draw_pack`` the kitty set aside first and the rest the
        stock in the order drawn, for ``open_eight`` each hand's cards in turn (R-PLAYERS).
        """
        if sorted(deck) != list(deal_plan(rules)[0]):
            raise ValueError("the deck must hold every card of the pack once")
        return cls._from_deck(rules, dealer, list(deck), barred)

    @classmethod
    def _from_deck(
        cls, rules: Rules, dealer: int, deck: list[Card], barred: Sequence[int]
    ) -> HandState:
        if rules.draw_pack:
            kitty_size = rules.pack.kitty_size  # the kitty is set aside first
            stock = deck[kitty_size:]
            hands = [0, 0, mask_of(stock), 0]
            return cls(rules, dealer, hands, mask_of(deck[:kitty_size]), [stock], barred)
        if rules.open_eight:
            sizes = rules.hand_sizes
            first = (dealer + 1) % rules.players
            order = [first, 1 - first, TABLE_SEAT, TABLE_SEAT + 1]
            hands = [0] * rules.seats
            for seat in order:
                hands[seat] = mask_of(deck[: sizes[seat]])
                deck = deck[sizes[seat] :]
            return cls(rules, dealer, hands, 0, barred=barred)
        lists, kitty_list = _deal_lists(rules, dealer, deck)
        dummies = [lists[seat] for seat in dummy_seats(rules)]
        return cls(rules, dealer, [mask_of(c) for c in lists], mask_of(kitty_list), dummies, barred)

    # ----------------------------------------------------------------- queries
    @property
    def is_over(self) -> bool:
        return self.phase == DONE

    @property
    def barred(self) -> tuple[int, ...]:
        """Seats that must pass in this hand's auction (R-HOUSE ralphing)."""
        return self.auction.barred

    @property
    def ralphed(self) -> tuple[int, ...]:
        """When the hand is over: the seats that must pass in the next (R-HOUSE ralphing)."""
        if not self.is_over or self.contractor < 0:
            return ()
        team = {self.contractor, *self.partners}
        won = sum(self.tricks_won[seat] for seat in team)
        return (
            (self.contractor,)
            if ralphed(
                # R-HOUSE slam_call: a called slam undertakes all ten tricks.
                self.rules,
                self.contract,
                self.contractor,
                won,
                10 if self.slam else None,
            )
            else ()
        )

    @property
    def is_misere(self) -> bool:
        """A contract whose contracting side must win no trick (double misère too)."""
        return is_misere(self.contract)

    @property
    def plays_alone(self) -> bool:
        """The contractor plays alone, partners sitting out (misère, hi/lo)."""
        return self.contract in ALONE_CONTRACTS

    @property
    def kitty_exchange(self) -> int:
        """Cards the contractor takes from the kitty and discards: none in an open misère
        under ``wilkinson_misere`` (R-HOUSE) or without a contract."""
        if self.contract < 0 or (self.rules.wilkinson_misere and self.contract == OPEN_MISERE):
            return 0
        return self.rules.pack.kitty_size

    @property
    def trump(self) -> int:
        """Trump suit 0–3, or 4 for no trumps and misère; -1 before the contract."""
        if self.ctx is not None:
            return self.ctx.trump
        if self.contract < 0:
            return -1
        return bid_strain(self.contract)

    def current_trick(self) -> list[tuple[int, Action]]:
        return list(zip(self.trick_seats, self.trick_actions, strict=True))

    def legal_actions(self) -> list[Action]:
        """Every legal action for the player to move (empty when the hand is over), by the
        phase's rules (:data:`PHASE_RULES`)."""
        phase = self.phase
        if phase == PLAY and self.trick_cards and not self.claim_plan:
            # following: the hot path, inlined (the same as PHASE_RULES[PLAY].legal)
            seat = self.to_move
            hand = self.hands[seat]
            if self.face_up[seat] >= 0:
                hand &= self.face_up[seat]
            ctx = self.ctx
            assert ctx is not None
            following = hand & ctx.follow_masks[self.led_suit]
            if following:
                return cards_of(following)
            if ctx.misere and hand & ctx.free_jokers:
                return cards_of(hand & ctx.free_jokers)
            return cards_of(hand)
        return PHASE_RULES[phase].legal(self)

    def _auction_legal(self) -> list[Action]:
        return self.auction.legal_calls()

    def _discard_legal(self) -> list[Action]:
        return cards_of(self.hands[self.contractor])

    def _nominate_legal(self) -> list[Action]:
        joker = self.joker_to_nominate()
        return [nominate_action(joker, suit) for suit in SUITS] + [NO_NOMINATION]

    def _play_legal(self) -> list[Action]:
        if self.claim_plan:
            forced = self.claim_next
            return [forced] if forced is not None else []
        return self._legal_plays()

    def controller(self, seat: int) -> int:
        """The player who decides for ``seat`` (two players: a dummy's owner, R-PLAYERS)."""
        return controller_of(self.rules, seat)

    def playable(self, seat: int) -> CardMask:
        """Cards ``seat`` can play from: the whole hand, or a dummy's face-up cards."""
        face_up = self.face_up[seat]
        return self.hands[seat] if face_up < 0 else self.hands[seat] & face_up

    def legal_card_mask(self) -> CardMask:
        """In play: the cards the player to move may play (a joker led with a nomination
        counts as the joker card)."""
        hand = self.playable(self.to_move)
        ctx = self.ctx
        assert ctx is not None
        if self.trick_cards:
            return legal_follow_mask(hand, self.led_suit, ctx)
        if hand & ctx.free_jokers and not self._joker_lead_suits(self.to_move):
            return hand & ~ctx.free_jokers
        return hand

    def _legal_plays(self) -> list[Action]:
        actions = self._card_plays()
        if self.rules.claim and self.may_claim:
            actions.append(CLAIM)
        return actions

    @property
    def may_claim(self) -> bool:
        """R-HOUSE claim: the contractor of a suit or no-trump contract, on lead, may claim
        the remaining tricks (once)."""
        return (
            self.rules.claim
            and self.phase == PLAY
            and self.claim_trick < 0
            and not self.trick_cards
            and self.to_move == self.contractor
            and is_suit_bid(self.contract)
        )

    def _card_plays(self) -> list[Action]:
        hand = self.hands[self.to_move]
        if self.face_up[self.to_move] >= 0:
            hand &= self.face_up[self.to_move]
        ctx = self.ctx
        assert ctx is not None
        if self.trick_cards:
            return cards_of(legal_follow_mask(hand, self.led_suit, ctx))
        free = hand & ctx.free_jokers
        actions = cards_of(hand & ~free)
        if free:
            suits = self._joker_lead_suits(self.to_move)
            for joker in iter_cards(free):
                actions.extend(joker_lead_action(joker, s) for s in SUITS if suits >> s & 1)
        return actions

    def _joker_lead_suits(self, seat: int) -> int:
        """Suits an unnominated joker may be led as (R-JOKER 5), as a 4-bit mask."""
        if self.rules.joker_lead == JOKER_LEAD_NOT_RENOUNCED:
            allowed = _ALL_SUITS & ~self.void_shown[seat]
        else:
            allowed = _ALL_SUITS & ~self.suits_led
        free = self.ctx.free_jokers if self.ctx is not None else JOKERS_MASK
        if not allowed and not self.playable(seat) & ~free:
            # All suits led: the joker may still be led to the last trick (or, with two
            # jokers, when the leader holds nothing else; a nominated joker is a card of
            # its suit).
            return _ALL_SUITS
        return allowed

    def joker_to_nominate(self) -> Card:
        """In the nominate phase: the joker whose suit the contractor decides now (the red
        or only joker first, then the black, R-JOKER 1)."""
        if self.phase != NOMINATE:
            raise ValueError("no joker is being nominated now")
        return self.jokers_pending[0]

    # ----------------------------------------------------------------- actions
    def apply(self, action: Action) -> None:
        """Apply ``action`` for :attr:`to_move`, by the phase's rules (:data:`PHASE_RULES`),
        and record it in the history; raises :class:`IllegalActionError`."""
        phase = self.phase
        if phase == PLAY and action != CLAIM:  # a card played: the hot path, direct
            self._play(action)
        else:
            PHASE_RULES[phase].apply(self, action)
        self.history.append(action)

    def _play_or_claim(self, action: Action) -> None:
        if action == CLAIM:
            self._claim(judge=True)
        else:
            self._play(action)

    def _call(self, action: Action) -> None:
        if not is_call(action):
            raise IllegalActionError(
                f"{self.action_name(action)} is not a call; it is the auction",
                "R-BID",
                why=Refusal.NOT_A_CALL,
            )
        auction = self.auction
        auction.apply(action)
        if not auction.done:
            self.to_move = auction.to_move
            return
        self.contract, self.contractor = auction.winning_call
        if self.contract < 0:
            if self.rules.allpass == ALLPASS_PLAY_NT:
                self._start_play(
                    make_context(NO_TRUMPS, j5=self.rules.j5_no_trumps),
                    leader=(self.dealer + 1) % len(self.rules.live_seats),
                )
            else:
                self._finish()
            return
        contractor = self.contractor
        sides = side_of_seats(self.rules)
        if self.plays_alone:
            self.partners = ()
        else:
            self.partners = tuple(
                s for s in range(self.seats) if s != contractor and sides[s] == sides[contractor]
            )
        self.to_move = contractor
        if not self.kitty_exchange:
            self.discards_done()
            return
        self.hands[contractor] |= self.kitty
        self.kitty = 0
        self.discards_left = self.kitty_exchange
        self.phase = DISCARD

    def _discard(self, action: Action) -> None:
        seat = self.contractor
        if not 0 <= action < JOKER_LEAD_BASE:
            raise IllegalActionError(
                f"{self.action_name(action)}: discard a card from the hand and kitty",
                "R-KITTY",
                why=Refusal.NOT_A_DISCARD,
            )
        if not self.hands[seat] >> action & 1:
            raise IllegalActionError(
                f"{self.action_name(action)} is not in the contractor's hand",
                "R-KITTY",
                why=Refusal.NOT_HELD,
                card=action,
            )
        self.hands[seat] ^= 1 << action
        self.discards |= 1 << action
        self.discards_left -= 1
        if self.discards_left == 0:
            self.discards_done()

    @property
    def drawn(self) -> Card:
        """draw_pack: the card the player to move has drawn and decides on (-1 otherwise)."""
        return drawn(self)

    def discards_done(self) -> None:
        """The contractor's discards are made: a house rule's phase (house_phases), the
        joker's nomination in no trumps, or the play."""
        if after_discards(self):  # a house rules' phase comes first
            return
        seat = self.contractor
        if self.trump == NO_TRUMPS and self.hands[seat] & JOKERS_MASK:
            self.phase = NOMINATE
            self.jokers_pending = cards_of(self.hands[seat] & JOKERS_MASK)
        else:
            self._begin_contract_play()

    def _nominate(self, action: Action) -> None:
        joker = self.jokers_pending[0]
        if action != NO_NOMINATION:
            if not NOMINATE_BASE <= action < NO_NOMINATION or (action - NOMINATE_BASE) // 4 != (
                joker - JOKER
            ):
                raise IllegalActionError(
                    f"{self.action_name(action)}: nominate the "
                    f"{card_text(joker, self.rules.joker_names)}'s suit or "
                    "'none'",
                    "R-JOKER",
                )
            self.joker_suits[joker - JOKER] = (action - NOMINATE_BASE) % 4
        self.jokers_pending = self.jokers_pending[1:]
        if not self.jokers_pending:
            self._begin_contract_play()

    def _begin_contract_play(self) -> None:
        if before_play(self):  # a house rules' phase comes first
            return
        self.start_contract_play()

    def start_contract_play(self) -> None:
        """The contract is settled (nominations, calls and passes done): the first lead."""
        contract = self.contract
        strain = bid_strain(contract)
        ctx = make_context(
            strain,
            is_misere(contract),
            (self.joker_suits[0], self.joker_suits[1]),
            self.rules.j5_no_trumps,
        )
        leader = self.contractor
        self._start_play(ctx, leader)
        if self.rules.eldest_leads:
            eldest = (self.dealer + 1) % self.seats
            while eldest not in self.active:
                eldest = (eldest + 1) % self.seats
            self.to_move = eldest

    def _start_play(self, ctx: PlayContext, leader: int) -> None:
        self.ctx = ctx
        if self.plays_alone or self.slam:
            sides = side_of_seats(self.rules)
            out = {s for s in range(self.seats) if sides[s] == sides[self.contractor]}
            out.discard(self.contractor)
            self.active = tuple(s for s in self.rules.live_seats if s not in out)
        else:
            self.active = self.rules.live_seats
        self.next_active = [0] * self.seats
        for index, seat in enumerate(self.active):
            self.next_active[seat] = self.active[(index + 1) % len(self.active)]
        self.phase = PLAY
        self.to_move = leader

    def claim(self, judge: bool = True) -> None:
        """R-HOUSE claim: the contractor claims the remaining tricks by showing the hand.

        The claim is judged double dummy (:func:`claim_line`): the rest of the hand is the
        best play-out for both sides, so a wrong claim is scored as played out by the
        defence that beats it, and costs the contracting side a further 100 (see
        :attr:`claim_wrong`). From here each seat's only legal action is its card of that
        play-out (:meth:`GameState.apply` plays them at once). With ``judge`` false
        (replaying a record, which lists the play-out after ``claim``) the plays are
        checked only against the rules of play."""
        self._claim(judge)
        self.history.append(CLAIM)

    def _claim(self, judge: bool) -> None:
        """The claim, but for its place in the history (kept by the caller)."""
        if not self.may_claim:
            raise IllegalActionError(
                "only the contractor of a suit or no-trump contract, on lead, may claim (once)",
                "R-HOUSE",
            )
        self.claim_trick = len(self.tricks)
        self.claim_at = len(self.history) + 1  # the play-out follows the claim
        self.claim_plan = claim_line(self) if judge else []

    @property
    def claim_next(self) -> Action | None:
        """After a judged claim: the next card of the play-out (None otherwise)."""
        index = len(self.history) - self.claim_at
        if self.claim_plan and self.phase == PLAY and 0 <= index < len(self.claim_plan):
            return self.claim_plan[index]
        return None

    @property
    def claim_wrong(self) -> bool:
        """After a claim: a defender won a trick of the play-out (R-HOUSE claim)."""
        if self.claim_trick < 0:
            return False
        team = {self.contractor, *self.partners}
        return any(t.winner not in team for t in self.tricks[self.claim_trick :])

    def _play(self, action: Action) -> None:
        seat = self.to_move
        if action == CLAIM:
            raise IllegalActionError("a claim is made with HandState.claim", "R-HOUSE")
        ctx = self.ctx
        assert ctx is not None
        hand = self.hands[seat]
        card = action_card(action)
        if card < 0:
            raise IllegalActionError(
                f"{self.action_name(action)} is not a card; it is the play",
                "R-PLAY",
                why=Refusal.NOT_A_CARD,
            )
        bit = 1 << card
        if not hand & bit:
            raise IllegalActionError(
                f"{self.action_name(action)} is not in seat {seat}'s hand",
                "R-PLAY",
                why=Refusal.NOT_HELD,
                card=card,
            )
        face_up = self.face_up[seat]
        if face_up >= 0:
            if not face_up & bit:
                raise IllegalActionError(
                    f"{self.action_name(action)} lies face down: a dummy plays only its face-up cards",
                    "R-PLAYERS",
                    why=Refusal.FACE_DOWN,
                    card=card,
                )
            hand &= face_up
        trick_cards = self.trick_cards
        if trick_cards:
            if is_joker_lead(action):
                raise IllegalActionError(
                    "only the leader nominates a suit for the joker", "R-JOKER"
                )
            led = self.led_suit
            follow = ctx.follow_masks[led]
            if hand & follow:
                if not follow & bit:
                    raise self._follow_error(card, hand, led, ctx)
            else:
                if ctx.misere and hand & ctx.free_jokers and not ctx.free_jokers & bit:
                    raise self._follow_error(card, hand, led, ctx)
                if face_up < 0:  # a dummy's face-down cards may still hold the suit
                    self.void_shown[seat] |= 1 << led
        else:
            self._lead(seat, action, card, ctx)
        self.hands[seat] ^= bit
        if card == self.called_card:
            self.partner_revealed = True
        self.played |= bit
        trick_cards.append(card)
        self.trick_actions.append(action)
        self.trick_seats.append(seat)
        if len(trick_cards) < len(self.active):
            self.to_move = self.next_active[seat]
            return
        winner = self.trick_seats[trick_winner_index(trick_cards, self.led_suit, ctx)]
        self.tricks.append(
            Trick(tuple(zip(self.trick_seats, self.trick_actions, strict=True)), winner)
        )
        self.tricks_won[winner] += 1
        if self.dummy_under:
            self._turn_up_dummies()
        self.trick_cards = []
        self.trick_actions = []
        self.trick_seats = []
        self.to_move = winner
        if len(self.tricks) == TRICKS_PER_HAND:
            self._finish()

    def _lead(self, seat: int, action: Action, card: Card, ctx: PlayContext) -> None:
        """Check a lead and set the suit led (R-PLAY, R-JOKER 5)."""
        if not is_joker_lead(action):
            if ctx.free_jokers >> card & 1:
                raise IllegalActionError(
                    "a joker led in no trumps or misère must nominate a suit, like JK>S",
                    "R-JOKER",
                    why=Refusal.JOKER_NEEDS_SUIT,
                    card=card,
                )
            led = ctx.effective_suit[card]
        else:
            if not ctx.free_jokers >> card & 1:
                raise IllegalActionError(
                    "only an unnominated joker in no trumps or misère is led with a suit", "R-JOKER"
                )
            led = joker_lead_suit(action)
            if not self._joker_lead_suits(seat) >> led & 1:
                void = self.rules.joker_lead == JOKER_LEAD_NOT_RENOUNCED
                raise IllegalActionError(
                    f"the joker may not be led as {'SCDH'[led]}: the suit nominated must "
                    + (
                        "be one the leader has not shown void in"
                        if void
                        else "not have been led in this hand"
                    ),
                    "R-JOKER",
                    why=Refusal.JOKER_SUIT_VOID if void else Refusal.JOKER_SUIT_LED,
                    card=card,
                    suit=led,
                )
        self.led_suit = led
        self.suits_led |= 1 << led

    def _turn_up_dummies(self) -> None:
        """After each trick, face-down dummy cards that are uncovered are turned up."""
        for seat, card in zip(self.trick_seats, self.trick_cards, strict=True):
            if self.face_up[seat] >= 0:
                under = self.dummy_under.get(card)
                self.face_up[seat] &= ~(1 << card)
                if under is not None:
                    self.face_up[seat] |= 1 << under

    def _follow_error(
        self, card: Card, hand: CardMask, led: int, ctx: PlayContext
    ) -> IllegalActionError:
        suit = "SCDH"[led]
        if hand & ctx.follow_masks[led]:
            if ctx.free_jokers >> card & 1:
                return IllegalActionError(
                    f"the joker may be played only when unable to follow {suit}",
                    "R-JOKER",
                    why=Refusal.JOKER_MUST_FOLLOW,
                    card=card,
                    suit=led,
                )
            return IllegalActionError(
                f"{self.action_name(card)} revokes: seat {self.to_move} must follow {suit}",
                "R-PLAY",
                why=Refusal.REVOKE,
                card=card,
                suit=led,
            )
        return IllegalActionError(
            f"{self.action_name(card)}: in misère a player who cannot follow must play the joker",
            "R-JOKER",
            why=Refusal.MISERE_JOKER,
            card=card,
            suit=led,
        )

    def _finish(self) -> None:
        self.phase = DONE
        self.to_move = -1
        winners = tuple(trick.winner for trick in self.tricks)
        score = score_hand(
            self.rules,
            self.contract,
            self.contractor,
            self.partners,
            self.tricks_won,
            winners,
            self.slam,
            self.claim_wrong,
        )
        self._result = HandResult(
            self.contract, self.contractor, winners, tuple(self.tricks_won), score
        )

    def action_name(self, action: Action) -> str:
        """``action`` in record notation for a refusal (the rules' joker names)."""
        try:
            return action_text(action, self.rules.joker_names)
        except ValueError:
            return f"action {action}"

    # ----------------------------------------------------------------- results and views
    @property
    def result(self) -> HandResult:
        """The finished hand's result; raises if the hand is not over."""
        if self._result is None:
            raise ValueError("the hand is not over")
        return self._result

    @property
    def misere_decided(self) -> bool:
        """True once a misère contracting side has won a trick: play may stop (R-PLAY)."""
        return self.is_misere and any(self.tricks_won[s] for s in (self.contractor, *self.partners))

    @property
    def exposed_seats(self) -> tuple[int, ...]:
        """Seats whose hands lie face up after trick 1: the open misère contractor (a misère
        one with ``wilkinson_misere``), the Shields double contractor, both patastrophe
        partners (R-HOUSE)."""
        if self.claim_trick >= 0:
            return (self.contractor,)  # a claim shows the contractor's hand
        if not self.tricks:
            return ()
        contract = self.contract
        if contract == PATASTROPHE:
            return (self.contractor, *self.partners)
        if contract in (OPEN_MISERE, SHIELDS_DOUBLE) or (
            contract == MISERE and self.rules.wilkinson_misere
        ):
            return (self.contractor,)
        return ()

    def visible_cards(self, seat: int) -> list[tuple[int, CardMask]]:
        """Cards of other seats that ``seat`` sees: the open misère hand after trick 1,
        the dummies' face-up cards, and a dummy's controller's own hand (R-PLAYERS). For a
        spectator (seat -1) only the cards lying face up."""
        shown = [(s, self.hands[s]) for s in self.exposed_seats if s != seat]
        if self.rules.open_eight and self.hands[TABLE_SEAT]:
            shown.append((TABLE_SEAT, self.hands[TABLE_SEAT]))  # the face-up cards
        if self.rules.dummies:
            controller = controller_of(self.rules, seat)
            if seat >= 0 and controller != seat:  # (-1 % 2 is 1: a spectator controls none)
                shown.append((controller, self.hands[controller]))
            shown += [
                (s, self.hands[s] & self.face_up[s]) for s in dummy_seats(self.rules) if s != seat
            ]
        return shown

    def observation(self, seat: int, scores: Sequence[int] = ()) -> Observation:
        """What ``seat`` may see now (never other hands, the kitty or others' discards)."""
        from fivehundred.observation import observe

        return observe(self, seat, tuple(scores))

    def as_dealt(self) -> HandState:
        """This hand as dealt, before any action: the same rules, dealer, cards, deal order
        (the dummies', the stock's) and barred seats (R-HOUSE ralphing). The one way to
        rebuild a hand from its deal; replay its history with :meth:`replay_action`."""
        return HandState(
            self.rules, self.dealer, self.dealt, self.kitty_dealt, self.dummy_deal, self.barred
        )

    def replay_action(self, action: Action) -> None:
        """Apply an action of a recorded history: as :meth:`apply`, except that a claim is
        not judged again, since the history goes on with the play-out that judged it
        (R-HOUSE claim)."""
        if action == CLAIM and self.phase == PLAY:
            self.claim(judge=False)
        else:
            self.apply(action)

    def replayed(self, count: int | None = None) -> HandState:
        """This hand rebuilt from its deal with the first ``count`` actions of its history
        (all of them by default) applied again."""
        state = self.as_dealt()
        for action in self.history[:count]:
            state.replay_action(action)
        return state

    def clone(self) -> HandState:
        other = HandState.__new__(HandState)
        for name in HandState.__slots__:
            value = getattr(self, name)
            if isinstance(value, list):
                value = list(value)
            setattr(other, name, value)
        other.auction = self.auction.copy()
        return other

    @classmethod
    def replay(
        cls,
        rules: Rules,
        dealer: int,
        hands: Sequence[CardMask],
        kitty: CardMask,
        actions: Sequence[Action],
    ) -> HandState:
        """Deal the given cards and apply ``actions`` in order."""
        state = cls(rules, dealer, hands, kitty)
        for action in actions:
            state.apply(action)
        return state

    def play_key(self) -> tuple[object, ...]:
        """What a search of the play from here depends on, to memoise it by (the tricks
        each side has won apart): the hands, the trick in progress, the seat to move, the
        suits led and the voids shown, the tricks played."""
        return (
            tuple(self.hands),
            tuple(self.trick_actions),
            self.to_move,
            self.suits_led,
            tuple(self.void_shown),
            len(self.tricks),
        )

    def __repr__(self) -> str:
        return (
            f"<HandState phase={self.phase} to_move={self.to_move} "
            f"contract={self.action_name(self.contract) if self.contract >= BID_BASE else None} "
            f"tricks={len(self.tricks)}>"
        )


def _no_actions(state: HandState) -> list[Action]:
    return []


def _hand_over(state: HandState, action: Action) -> None:
    raise IllegalActionError("the hand is over", "R-PLAY")


#: Each phase's rules: its legal actions and how one is applied, which
#: :meth:`HandState.legal_actions` and :meth:`HandState.apply` dispatch by (the play of a
#: card, the hot path, directly). The house rules' phases are in :mod:`fivehundred.house_phases`.
PHASE_RULES: dict[str, PhaseRules] = {
    AUCTION: PhaseRules(HandState._auction_legal, HandState._call),
    DISCARD: PhaseRules(HandState._discard_legal, HandState._discard),
    NOMINATE: PhaseRules(HandState._nominate_legal, HandState._nominate),
    PLAY: PhaseRules(HandState._play_legal, HandState._play_or_claim),
    DONE: PhaseRules(_no_actions, _hand_over),
    **HOUSE_PHASE_RULES,
}
assert set(PHASE_RULES) == set(PHASES)


def _exhaustive_line(state: HandState) -> list[Action]:
    """Best play for both sides from ``state`` to the end, by exhaustive minimax on the
    contracting side's tricks (pure Python: for the last tricks, or without the solver)."""
    team = {state.contractor, *state.partners}
    memo: dict[tuple[object, ...], int] = {}

    def value(s: HandState) -> int:
        if s.is_over:
            return sum(s.tricks_won[seat] for seat in team)
        key = (*s.play_key(), sum(s.tricks_won[seat] for seat in team))
        if key not in memo:
            values = [value(_after(s, a)) for a in s._card_plays()]
            memo[key] = max(values) if s.to_move in team else min(values)
        return memo[key]

    line: list[Action] = []
    state = state.clone()
    while not state.is_over:
        options = [(value(_after(state, a)), a) for a in state._card_plays()]
        # ties: the lowest action, as the solver's judge does
        best = max(options, key=lambda o: (o[0], -o[1])) if state.to_move in team else min(options)
        line.append(best[1])
        state._play(best[1])
        state.history.append(best[1])
    return line


def _after(state: HandState, action: Action) -> HandState:
    child = state.clone()
    child._play(action)
    return child


#: The judge of claims (R-HOUSE claim): the play-out of the rest of the hand with best play
#: by both sides. The double-dummy solver installs its own on import
#: (:func:`set_claim_judge`); without it, an exhaustive search in pure Python.
_CLAIM_JUDGE: list[Callable[[HandState], list[Action]]] = [_exhaustive_line]


def set_claim_judge(judge: Callable[[HandState], list[Action]]) -> None:
    """Judge claims with ``judge`` (a function giving the best play-out from a position)."""
    _CLAIM_JUDGE[0] = judge


def claim_line(state: HandState) -> list[Action]:
    """The play-out that decides a claim: best play by both sides to the end of the hand.

    Without a judge installed, the double-dummy solver is loaded if it is there (an
    optional extra: the core itself needs only the standard library); failing that, the
    exhaustive search judges, which is practical for the last few tricks only."""
    if _CLAIM_JUDGE[0] is _exhaustive_line:
        with contextlib.suppress(ImportError):
            importlib.import_module("fivehundred.solver")  # installs its judge
    return _CLAIM_JUDGE[0](state)


def dealer_of_seed(seed: int | str | None, players: int) -> int:
    """The first dealer of a game dealt from ``seed`` (random without one)."""
    rng = random.Random(f"{seed}/first-dealer" if seed is not None else None)
    return rng.randrange(players)


class GameState:
    """Hands to the target with the dealer rotating, the 490 rule, −500 and the win rules
    (R-GAME). ``hand`` is the hand in progress."""

    def __init__(
        self, rules: Rules, seed: int | str | None = None, first_dealer: int | None = None
    ) -> None:
        self.rules = rules
        self.seed = seed
        self.first_dealer = (
            dealer_of_seed(seed, rules.players) if first_dealer is None else first_dealer
        )
        self.sides = max(side_of_seats(rules)) + 1
        self.scores = [0] * self.sides
        self.score_history: list[tuple[int, ...]] = []
        self.finished_hands: list[HandState] = []
        self.winner: int | None = None
        self.hand = self._new_hand(self.first_dealer)

    def _new_hand(self, dealer: int) -> HandState:
        index = len(self.finished_hands)
        seed = f"{self.seed}/hand-{index}" if self.seed is not None else None
        return HandState.deal(self.rules, dealer, seed, self.barred)

    @property
    def barred(self) -> tuple[int, ...]:
        """Seats that must pass in the next hand: the last hand's ralphed contractor."""
        return self.finished_hands[-1].ralphed if self.finished_hands else ()

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    @property
    def to_move(self) -> int:
        return self.hand.to_move

    def legal_actions(self) -> list[Action]:
        return [] if self.is_over else self.hand.legal_actions()

    def apply(self, action: Action) -> None:
        """Apply an action to the current hand; a finished hand is scored and the next dealt."""
        if self.is_over:
            raise IllegalActionError("the game is over", "R-GAME")
        self.hand.apply(action)
        if action == CLAIM:  # R-HOUSE claim: the judged play-out ends the hand at once
            while (forced := self.hand.claim_next) is not None:
                self.hand.apply(forced)
        if self.hand.is_over:
            self.finish_hand()

    def finish_hand(self) -> None:
        """Score the finished hand; deal the next unless the game is won."""
        hand = self.hand
        score = hand.result.score
        self.scores = apply_hand_to_scores(self.rules, self.scores, score)
        self.score_history.append(tuple(self.scores))
        self.finished_hands.append(hand)
        self.winner = game_winner(
            self.rules,
            self.scores,
            score,
            self._reached_in_trick_order(),
            sides_gone_out(self.rules, self.score_history[:-1]),
        )
        if self.winner is None:
            if hand.contract < 0 and self.rules.allpass == ALLPASS_REDEAL_SAME_DEALER:
                dealer = hand.dealer
            else:
                dealer = (hand.dealer + 1) % self.rules.players
            self.hand = self._new_hand(dealer)

    def _reached_in_trick_order(self) -> list[int]:
        """Non-contracting sides in the order they reached the target during the last hand,
        trick by trick (the 1904 rule for three players, R-GAME)."""
        hand = self.hand
        score = hand.result.score
        sides = side_of_seats(self.rules)
        before = self.score_history[-2] if len(self.score_history) > 1 else (0,) * self.sides
        running = list(before)
        order: list[int] = []
        for trick in hand.tricks:
            side = sides[trick.winner]
            if side in score.contracting_sides or score.points[side] <= 0:
                continue
            running[side] += DEFENDER_TRICK_POINTS
            if running[side] >= self.rules.target and side not in order:
                order.append(side)
        return order

    def replace_deal(
        self,
        hands: Sequence[CardMask],
        kitty: CardMask,
        dummy_cards: Sequence[Sequence[Card]] | None = None,
    ) -> None:
        """Use these cards for the current hand (before any call): replaying records.

        ``dummy_cards``: the cards in deal order where the rules need it (the two-player
        dummies, the ``draw_pack`` stock); left out, the current hand's order is kept when
        the deal is the same."""
        if self.hand.history:
            raise ValueError("the hand has started")
        if dummy_cards is None:
            dummy_cards = ()
            if ordered_seats(self.rules):
                if tuple(hands) != self.hand.dealt or kitty != self.hand.kitty_dealt:
                    raise ValueError("give the cards in deal order (dummy_cards) for these rules")
                dummy_cards = self.hand.dummy_deal
        self.hand = HandState(
            self.rules, self.hand.dealer, hands, kitty, dummy_cards, barred=self.barred
        )

    def observation(self, seat: int) -> Observation:
        return self.hand.observation(seat, self.scores)


from fivehundred.observation import Observation  # noqa: E402  (cycle: observe reads HandState)
