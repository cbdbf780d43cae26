"""Card memory and trick reading, derived from one seat's observation only.

Every computer player reads the table through :class:`TableView`: the contract's play
context, which cards are still unseen, the voids each seat has shown, the trumps still out,
and the trick in progress. Everything is recomputed from the :class:`Observation` (which
carries the whole public history), so a player's decision depends on nothing else.
"""

from __future__ import annotations

from functools import lru_cache

from fivehundred.actions import PASS, Action, action_card, is_misere
from fivehundred.cards import JOKERS_MASK, NO_TRUMPS, SUIT_MASKS, Card, CardMask, iter_cards
from fivehundred.observation import Observation
from fivehundred.play import LED_SUIT_BONUS, PlayContext, make_context
from fivehundred.scoring import side_of_seats


@lru_cache(maxsize=256)
def context_for(
    trump: int, misere: bool, joker_suits: tuple[int, int], j5: bool = False
) -> PlayContext:
    """A cached :func:`make_context` (it is built once per contract, not per decision)."""
    return make_context(trump, misere, joker_suits, j5)


def play_context(obs: Observation) -> PlayContext:
    """The play context of the hand ``obs`` sees: its trump (no trumps where none is set),
    misère as the contract says (hi/lo is not one, R-HOUSE), the jokers' nominations."""
    trump = obs.trump if obs.trump >= 0 else NO_TRUMPS
    return context_for(trump, is_misere(obs.contract), obs.joker_suits, obs.rules.j5_no_trumps)


def played_by_seat(obs: Observation) -> list[CardMask]:
    """The cards each seat has played this hand (the trick in progress too)."""
    played = [0] * obs.rules.seats
    for plays, _ in obs.tricks:
        for seat, action in plays:
            played[seat] |= 1 << action_card(action)
    for seat, action in obs.trick:
        played[seat] |= 1 << action_card(action)
    return played


def tricks_played_in(obs: Observation, seat: int, cards: CardMask) -> int:
    """How many of ``cards`` (a suit's, the trumps') ``seat`` has played in the completed
    tricks."""
    return sum(
        1
        for plays, _ in obs.tricks
        for player, action in plays
        if player == seat and cards >> action_card(action) & 1
    )


def void_cards(obs: Observation, ctx: PlayContext, seat: int) -> CardMask:
    """The cards of every suit ``seat`` has shown void in (it cannot hold them)."""
    cards = 0
    for suit in range(4):
        if obs.voids[seat] >> suit & 1:
            cards |= ctx.follow_masks[suit]
    return cards


def bidding_context(strain: int) -> PlayContext:
    """The play context a bid in ``strain`` would have (no joker nominated)."""
    return context_for(strain, False, (-1, -1))


class TableView:
    """What a seat knows in the play phase, in the terms a card player thinks in.

    ``unseen``: cards in other hands, the kitty or others' discards. ``voids[s]``: suits
    seat ``s`` has shown void in. ``declarers``: the contracting side's active seats
    (empty when all passed and the hand is played in no trumps).
    """

    __slots__ = (
        "active",
        "contractor",
        "ctx",
        "declarers",
        "friends",
        "hand",
        "led",
        "misere",
        "nt",
        "obs",
        "opponents",
        "partner",
        "seat",
        "trick_cards",
        "trick_seats",
        "trump",
        "unseen",
        "voids",
    )

    def __init__(self, obs: Observation) -> None:
        self.obs = obs
        self.seat = obs.seat
        self.hand = obs.hand
        self.trump = obs.trump if obs.trump >= 0 else NO_TRUMPS
        self.misere = is_misere(obs.contract)  # hi/lo is not one (R-HOUSE)
        self.nt = self.trump == NO_TRUMPS
        self.ctx = play_context(obs)
        self.contractor = obs.contractor
        self.active = obs.active or tuple(range(obs.rules.seats))
        sides = side_of_seats(obs.rules)
        mine = sides[obs.seat]
        if obs.contractor >= 0:
            self.declarers = frozenset((obs.contractor, *obs.partners))
        else:
            self.declarers = frozenset()
        if obs.contractor >= 0:
            # Declarers against defenders (with 3 or 5 players the defenders play together
            # for the hand; in misère the contractor is alone).
            if obs.seat in self.declarers:
                friends = [s for s in self.active if s in self.declarers]
            else:
                friends = [s for s in self.active if s not in self.declarers]
        else:
            friends = [s for s in self.active if sides[s] == mine]
        self.friends = frozenset(s for s in friends if s != obs.seat)
        #: The friend who plays last after us in a trick matters most; any friend will do.
        self.partner = min(self.friends, key=lambda s: (s - obs.seat) % obs.rules.seats, default=-1)
        self.opponents = tuple(s for s in self.active if s != obs.seat and s not in self.friends)
        unseen = obs.unseen
        self.unseen = unseen
        self.voids = obs.voids
        self.trick_seats = [seat for seat, _ in obs.trick]
        self.trick_cards = [action_card(a) for _, a in obs.trick]
        self.led = obs.led_suit

    # ------------------------------------------------------------------ cards
    def suit_of(self, card: Card) -> int:
        """The suit a card counts as in this contract (-1: an unnominated joker)."""
        return self.ctx.effective_suit[card]

    def suit_cards(self, mask: CardMask, suit: int) -> CardMask:
        return mask & self.ctx.follow_masks[suit]

    def trumps(self, mask: CardMask) -> CardMask:
        if self.nt:
            return 0
        return mask & self.ctx.follow_masks[self.trump]

    def higher_unseen(self, card: Card) -> CardMask:
        """Unseen cards of the same suit (trumps for a trump) that beat ``card``."""
        suit = self.suit_of(card)
        if suit < 0:
            return 0
        power = self.ctx.power
        mine = power[card]
        return sum(
            1 << c for c in iter_cards(self.unseen & self.ctx.follow_masks[suit]) if power[c] > mine
        )

    def is_master(self, card: Card) -> bool:
        """No unseen card of its suit can beat it (a free joker never counts: see R-JOKER)."""
        if self.ctx.free_jokers >> card & 1:
            return True
        return not self.higher_unseen(card)

    def trumps_out(self) -> CardMask:
        """Trumps neither in this hand nor played (in others' hands, kitty or discards)."""
        return self.trumps(self.unseen)

    def may_hold(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` may still hold cards of ``suit`` (it has not shown void)."""
        return not self.voids[seat] >> suit & 1

    def rank_power(self, card: Card) -> int:
        return self.ctx.power[card]

    # ------------------------------------------------------------------ the trick
    def trick_power(self, card: Card) -> int:
        """How strongly ``card`` stands in the current trick (0 if it cannot win it)."""
        power = self.ctx.power[card]
        if power < LED_SUIT_BONUS:
            if self.led >= 0 and self.ctx.follow_masks[self.led] >> card & 1:
                return power + LED_SUIT_BONUS
            return 0
        return power

    def winning(self) -> tuple[int, Card]:
        """Seat and card winning the trick so far ((-1, -1) before the lead)."""
        best, seat, card = -1, -1, -1
        for s, c in zip(self.trick_seats, self.trick_cards, strict=True):
            p = self.trick_power(c)
            if p > best:
                best, seat, card = p, s, c
        return seat, card

    def still_to_play(self) -> list[int]:
        """Active seats that play to this trick after this seat."""
        order = list(self.active)
        if not self.trick_seats:
            leader_index = order.index(self.seat)
        else:
            leader_index = order.index(self.trick_seats[0])
        rotation = order[leader_index:] + order[:leader_index]
        me = rotation.index(self.seat)
        return rotation[me + 1 :]

    def on_my_side(self, seat: int) -> bool:
        return seat == self.seat or seat in self.friends


def legal_cards(obs: Observation) -> dict[Card, list[Action]]:
    """Legal play actions grouped by the card they put down (joker leads share a card)."""
    out: dict[Card, list[Action]] = {}
    for action in obs.legal:
        out.setdefault(action_card(action), []).append(action)
    return out


def called(obs: Observation) -> list[tuple[int, Action]]:
    """The bids made so far (passes left out)."""
    return [(seat, call) for seat, call in obs.auction if call != PASS]


def jokers_in(mask: CardMask) -> CardMask:
    return mask & JOKERS_MASK


def suit_mask(suit: int) -> CardMask:
    return SUIT_MASKS[suit]
