"""Trick play on bitmasks: following suit, the bowers, the joker, winning tricks
(R-RANK, R-PLAY, R-JOKER).

A :class:`PlayContext` is computed once per contract. It says which cards count as each
suit for following (the left bower is a trump; a nominated joker belongs to its suit), and
each card's power for winning a trick. After that, legal moves and trick winners are a few
integer operations.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from fivehundred.cards import (
    JOKER,
    JOKER_BLACK,
    JOKERS_MASK,
    NO_TRUMPS,
    RANK_JACK,
    SUIT_MASKS,
    SUITS,
    Card,
    CardMask,
    make_card,
    same_colour_suit,
)

#: Power offsets: an off-suit card is 0; a card of the led suit 100 + rank; a trump
#: 200 + rank (bowers 249/250); an unnominated joker in no trumps/misère 300 (black 301).
LED_SUIT_BONUS = 100
FREE_SUIT = -1


@dataclass(frozen=True, slots=True)
class PlayContext:
    """Per-contract tables for trick play.

    ``follow_masks[s]``: the cards that count as suit ``s`` for following, being void and
    winning. ``effective_suit[c]``: the suit card ``c`` belongs to (-1 for an unnominated
    joker in no trumps or misère, which belongs to no suit). ``power[c]``: see
    :data:`LED_SUIT_BONUS`. ``free_jokers``: unnominated jokers in no trumps or misère.
    """

    trump: int
    misere: bool
    follow_masks: tuple[CardMask, CardMask, CardMask, CardMask]
    effective_suit: tuple[int, ...]
    power: tuple[int, ...]
    free_jokers: CardMask

    @property
    def trump_mask(self) -> CardMask:
        return self.follow_masks[self.trump] if self.trump != NO_TRUMPS else self.free_jokers


@lru_cache(maxsize=64)
def make_context(
    trump: int,
    misere: bool = False,
    joker_suits: tuple[int, int] = (FREE_SUIT, FREE_SUIT),
    j5: bool = False,
) -> PlayContext:
    """Tables for a strain: ``trump`` 0–3 for a suit, 4 for no trumps (and misère).

    ``joker_suits`` gives the suit nominated for the joker and the black joker (R-JOKER 1),
    or -1. It only matters in no trumps and misère: in a suit contract the jokers are the
    highest trumps (R-RANK). ``j5`` (R-HOUSE ``j5_no_trumps``): in no trumps, not misère,
    each suit's jack ranks above its ace (a nominated joker stays above both).
    """
    power = [0] * 66
    effective = [FREE_SUIT] * 66
    follow = [SUIT_MASKS[s] for s in SUITS]
    for suit in SUITS:
        for rank in range(16):
            card = make_card(rank, suit)
            power[card] = rank
            effective[card] = suit
    free_jokers = 0
    j5 = j5 and trump == NO_TRUMPS and not misere
    if j5:
        for suit in SUITS:
            power[make_card(RANK_JACK, suit)] = 16
    if trump != NO_TRUMPS:
        right = make_card(RANK_JACK, trump)
        left = make_card(RANK_JACK, same_colour_suit(trump))
        follow[same_colour_suit(trump)] &= ~(1 << left)
        follow[trump] |= (1 << left) | JOKERS_MASK
        for card in range(64):
            if follow[trump] >> card & 1:
                power[card] = 200 + (card & 15)
        power[right], power[left] = 250, 249
        effective[left] = trump
        power[JOKER], power[JOKER_BLACK] = 300, 301
        effective[JOKER] = effective[JOKER_BLACK] = trump
    else:
        for joker, suit in ((JOKER, joker_suits[0]), (JOKER_BLACK, joker_suits[1])):
            if suit == FREE_SUIT:
                power[joker] = 300 + (joker - JOKER)
                free_jokers |= 1 << joker
            else:
                power[joker] = 16 + int(j5) + (joker - JOKER)
                effective[joker] = suit
                follow[suit] |= 1 << joker
    return PlayContext(
        trump=trump,
        misere=misere,
        follow_masks=(follow[0], follow[1], follow[2], follow[3]),
        effective_suit=tuple(effective),
        power=tuple(power),
        free_jokers=free_jokers,
    )


def legal_follow_mask(hand: CardMask, led_suit: int, ctx: PlayContext) -> CardMask:
    """Cards that may be played to a trick led in ``led_suit`` (R-PLAY, R-JOKER 3–4).

    Follow suit if able (the left bower is a trump, a nominated joker is of its suit); an
    unnominated joker may then not be played. Otherwise any card, except that in misère a
    holder of an unnominated joker must play it.
    """
    following = hand & ctx.follow_masks[led_suit]
    if following:
        return following
    if ctx.misere and hand & ctx.free_jokers:
        return hand & ctx.free_jokers
    return hand


def trick_winner_index(cards: list[Card], led_suit: int, ctx: PlayContext) -> int:
    """Index in ``cards`` of the card that wins the trick (R-PLAY, R-JOKER 2)."""
    led_mask = ctx.follow_masks[led_suit]
    power = ctx.power
    best = -1
    best_index = 0
    for index, card in enumerate(cards):
        p = power[card]
        if p < LED_SUIT_BONUS:
            if not led_mask >> card & 1:
                continue
            p += LED_SUIT_BONUS
        if p > best:
            best = p
            best_index = index
    return best_index
