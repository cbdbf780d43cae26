"""The house rules' phases of a hand, apart from the main line of :mod:`fivehundred.game`.

Each phase is a legal function and an apply function over a
:class:`~fivehundred.game.HandState` (:data:`HOUSE_PHASE_RULES`, which the engine's phase
table takes in), and the main line enters them at three points only: before the auction
(:func:`before_auction`), after the kitty (:func:`after_discards`) and before the play
(:func:`before_play`).

- ``draw`` (R-PLAYERS ``draw_pack``): two players draw their hands from the stock, keeping
  or throwing each card drawn;
- ``table_kitty``, ``table_take``, ``table_discard`` (R-PLAYERS ``open_eight``): each
  player moves a face-up card to the kitty before the auction; after the kitty exchange
  the defender takes a face-up card and discards one;
- ``slam``, ``slam_pass`` (R-HOUSE ``slam_call``): a seven-level contractor calls slam or
  not, and on a slam the partner passes one card and sits out;
- ``call`` (R-PLAYERS ``called_partner``): the five-handed contractor calls a card (its
  holder is the partner) or goes alone.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from fivehundred.actions import (
    CALL_BASE,
    DRAW_KEEP,
    DRAW_THROW,
    GO_ALONE,
    JOKER_LEAD_BASE,
    NO_SLAM,
    SLAM,
    Action,
    bid_tricks,
    is_suit_bid,
)
from fivehundred.cards import JOKERS_MASK, Card, CardMask, cards_of, mask_of
from fivehundred.errors import IllegalActionError
from fivehundred.phases import (
    AUCTION,
    CALL,
    DISCARD,
    DRAW,
    SLAM_CALL,
    SLAM_PASS,
    STOCK_SEAT,
    TABLE_DISCARD,
    TABLE_KITTY,
    TABLE_SEAT,
    TABLE_TAKE,
    THROWN_SEAT,
    PhaseRules,
)

if TYPE_CHECKING:
    from fivehundred.game import HandState


# ----------------------------------------------------------------- where the main line enters
def before_auction(state: HandState) -> None:
    """A new hand's first phase where the house rules deal it otherwise: the stock to draw
    from (``draw_pack``), the face-up cards to move to the kitty (``open_eight``)."""
    rules = state.rules
    if rules.open_eight:
        state.phase = TABLE_KITTY
        state.to_move = (state.dealer + 1) % rules.players  # the non-dealer first
    if rules.draw_pack:
        # the stock in the order it is drawn (given as the first of the deal's orders)
        state.stock = state.dummy_deal[0] if state.dummy_deal else ()
        stock = state.hands[STOCK_SEAT]
        if len(state.stock) != stock.bit_count() or mask_of(state.stock) != stock:
            raise ValueError("draw_pack: give the stock's cards in the order drawn")
        state.phase = DRAW
        state.to_move = (state.dealer + 1) % rules.players


def after_discards(state: HandState) -> bool:
    """After the contractor's discards: enter the house phase that comes next, if any (the
    defender's pick of the face-up cards, the slam call); False when none does."""
    if state.rules.open_eight and state.table_card < 0:
        state.phase = TABLE_TAKE
        state.to_move = 1 - state.contractor  # the defender
        return True
    if slam_offered(state):
        state.phase = SLAM_CALL
        state.to_move = state.contractor
        return True
    return False


def before_play(state: HandState) -> bool:
    """Before the contract's play: the five-handed contractor's call of a partner (not in
    misère, which is played alone); False when there is none."""
    if state.rules.called_partner and not state.is_misere:
        state.phase = CALL
        return True
    return False


# ----------------------------------------------------------------- draw (draw_pack)
def drawn(state: HandState) -> Card:
    """draw_pack: the card the player to move has drawn and decides on (-1 otherwise)."""
    if state.phase != DRAW:
        return -1
    return state.stock[len(state.stock) - state.hands[STOCK_SEAT].bit_count()]


def _draw_legal(state: HandState) -> list[Action]:
    return [DRAW_KEEP, DRAW_THROW]


def _draw(state: HandState, action: Action) -> None:
    """Keep the card drawn and throw the next, or the opposite."""
    if action not in (DRAW_KEEP, DRAW_THROW):
        raise IllegalActionError(
            f"{state.action_name(action)}: keep or throw the card drawn", "R-PLAYERS"
        )
    first = drawn(state)
    second = state.stock[state.stock.index(first) + 1]
    kept, thrown = (first, second) if action == DRAW_KEEP else (second, first)
    seat = state.to_move
    hands = state.hands
    hands[STOCK_SEAT] &= ~((1 << first) | (1 << second))
    hands[seat] |= 1 << kept
    hands[THROWN_SEAT] |= 1 << thrown
    if hands[STOCK_SEAT]:
        state.to_move = 1 - seat
    else:
        state.phase = AUCTION
        state.to_move = state.auction.to_move


# ----------------------------------------------------------------- the face-up cards (open_eight)
def _table_cards(state: HandState) -> list[Action]:
    return cards_of(state.hands[TABLE_SEAT])


def _own_cards(state: HandState) -> list[Action]:
    return cards_of(state.hands[state.to_move])


def _table(state: HandState, action: Action) -> None:
    """A face-up card to the kitty, the defender's pick, their discard."""
    phase = state.phase
    hands = state.hands
    source = hands[state.to_move] if phase == TABLE_DISCARD else hands[TABLE_SEAT]
    if not 0 <= action < JOKER_LEAD_BASE or not source >> action & 1:
        where = "their hand" if phase == TABLE_DISCARD else "the face-up cards"
        raise IllegalActionError(
            f"{state.action_name(action)}: choose a card of {where}", "R-PLAYERS"
        )
    bit = 1 << action
    if phase == TABLE_KITTY:
        hands[TABLE_SEAT] ^= bit
        state.kitty |= bit
        state.table_kitty |= bit
        if state.table_kitty.bit_count() < 2:
            state.to_move = state.dealer % state.rules.players
        else:
            state.phase = AUCTION
            state.to_move = state.auction.to_move
    elif phase == TABLE_TAKE:
        hands[TABLE_SEAT] ^= bit
        hands[state.to_move] |= bit
        state.table_card = action
        state.phase = TABLE_DISCARD
    else:
        hands[state.to_move] ^= bit
        state.table_discard = action
        state.discards_done()


# ----------------------------------------------------------------- slam (slam_call)
def slam_offered(state: HandState) -> bool:
    """R-HOUSE slam_call: a 7-level suit or no-trump contractor with a partner may call
    slam, once, after the kitty."""
    return (
        state.rules.slam_call
        and not state.slam_asked
        and is_suit_bid(state.contract)
        and bid_tricks(state.contract) == 7
        and bool(state.partners)
    )


def _slam_legal(state: HandState) -> list[Action]:
    return [SLAM, NO_SLAM]


def _slam_call(state: HandState, action: Action) -> None:
    if action not in (SLAM, NO_SLAM):
        raise IllegalActionError(
            f"{state.action_name(action)}: call slam or not (slam, no_slam)", "R-HOUSE"
        )
    state.slam_asked = True
    if action == NO_SLAM:
        state.discards_done()
        return
    state.slam = True
    state.slam_partner = state.partners[0]
    state.partners = ()
    state.phase = SLAM_PASS
    state.to_move = state.slam_partner


def _slam_pass(state: HandState, action: Action) -> None:
    seat = state.slam_partner
    hands = state.hands
    if not 0 <= action < JOKER_LEAD_BASE or not hands[seat] >> action & 1:
        raise IllegalActionError(
            f"{state.action_name(action)}: the partner passes one card of "
            "their own hand to the contractor",
            "R-HOUSE",
        )
    hands[seat] ^= 1 << action
    hands[state.contractor] |= 1 << action
    state.slam_card = action
    state.discards_left = 1
    state.phase = DISCARD
    state.to_move = state.contractor


# ----------------------------------------------------------------- call (called_partner)
def callable_cards(state: HandState) -> CardMask:
    """Cards the five-player contractor may call: any not the joker, not their own."""
    own = state.hands[state.contractor] | state.discards
    return state.rules.pack.cards & ~JOKERS_MASK & ~own


def _call_legal(state: HandState) -> list[Action]:
    return [CALL_BASE + card for card in cards_of(callable_cards(state))] + [GO_ALONE]


def _call_partner(state: HandState, action: Action) -> None:
    if action == GO_ALONE:
        state.partners = ()
    elif CALL_BASE <= action < GO_ALONE and callable_cards(state) >> (action - CALL_BASE) & 1:
        card = action - CALL_BASE
        state.called_card = card
        holder = next(s for s in range(state.seats) if state.hands[s] >> card & 1)
        state.partners = (holder,)
        state.partner_revealed = state.rules.partner_announces
    else:
        raise IllegalActionError(
            f"{state.action_name(action)}: call a card you do not hold (not the joker), or go alone",
            "R-PLAYERS",
        )
    state.start_contract_play()


#: The house phases' rules, taken into the engine's table (:data:`fivehundred.game.PHASE_RULES`).
HOUSE_PHASE_RULES: dict[str, PhaseRules] = {
    DRAW: PhaseRules(_draw_legal, _draw),
    TABLE_KITTY: PhaseRules(_table_cards, _table),
    TABLE_TAKE: PhaseRules(_table_cards, _table),
    TABLE_DISCARD: PhaseRules(_own_cards, _table),
    SLAM_CALL: PhaseRules(_slam_legal, _slam_call),
    SLAM_PASS: PhaseRules(_own_cards, _slam_pass),
    CALL: PhaseRules(_call_legal, _call_partner),
}
