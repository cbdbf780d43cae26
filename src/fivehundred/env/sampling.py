"""Deals consistent with one seat's view: what search players (OpenSpiel's ISMCTS) sample.

:func:`resample` deals the cards ``seat`` cannot see at random among the places they may
be (the other hands, the kitty, the contractor's discards, and with two players the
dummies' face-down cards), keeping every hand's size, the suits each seat has shown void
in and every card lying face up, and replays the hand's actions on the new deal, so the
result is a position the same history reaches, and ``seat``'s observation of it is the
same (with two players: the observations of both seats its player decides for).
Standard library only.
"""

from __future__ import annotations

import random

from fivehundred.actions import NO_NOMINATION, NOMINATE_BASE, action_card
from fivehundred.cards import JOKER, JOKERS_MASK, NO_TRUMPS, Card, CardMask, cards_of, mask_of
from fivehundred.errors import IllegalActionError
from fivehundred.game import HandState, controller_of, dummy_seats
from fivehundred.rules import Rules

ATTEMPTS = 500


def _played_by(state: HandState) -> list[CardMask]:
    played = [0] * state.seats
    for trick in state.tricks:
        for seat, action in trick.plays:
            played[seat] |= 1 << action_card(action)
    for seat, card in zip(state.trick_seats, state.trick_cards, strict=True):
        played[seat] |= 1 << card
    return played


def resample(state: HandState, seat: int, rng: random.Random) -> HandState:
    """A position with the same history and the same observation for ``seat``, the cards
    ``seat`` cannot see dealt at random (see the module docstring). Raises ValueError for
    two-player games that draw their hands or lay eight cards face up (``draw_pack``,
    ``open_eight``: the stock's order and the cards moved are not sampled) and
    RuntimeError when no consistent deal is found in :data:`ATTEMPTS` tries."""
    rules = state.rules
    if rules.draw_pack or rules.open_eight:
        raise ValueError("resampling does not cover draw_pack and open_eight")
    seat = controller_of(rules, seat)  # a dummy's player knows what the player knows
    seats = state.seats
    played = _played_by(state)
    contractor = state.contractor
    kitty_size = rules.pack.kitty_size
    # the contractor has discarded (some of) the kitty: its discards are hidden
    exchanged = contractor >= 0 and (state.discards_left < kitty_size or state.phase != "discard")
    unseen = state.observation(seat).unseen
    forbidden = [0] * seats
    ctx = state.ctx
    if ctx is not None:
        for s in range(seats):
            for suit in range(4):
                if state.void_shown[s] >> suit & 1:
                    forbidden[s] |= ctx.follow_masks[suit]
            if ctx.misere and state.void_shown[s]:
                forbidden[s] |= ctx.free_jokers
    required = [0] * seats
    if (
        contractor >= 0
        and contractor != seat
        and state.phase not in ("auction", "discard", "nominate")
    ):
        held, barred = _jokers_after_exchange(state)
        required[contractor] |= held & unseen
        forbidden[contractor] |= barred
    # Places to fill: (who, count); "kitty" / "discards" are the pack's other places.
    # (a dummy's place is its face-down cards still covered, its own player's too)
    places: list[tuple[int, int]] = []
    for s in range(seats):
        if s != seat and (count := (state.hands[s] & unseen).bit_count()):
            places.append((s, count))
    if contractor < 0 or contractor != seat:
        hidden_kitty = state.kitty.bit_count() if contractor < 0 else 0
        if contractor < 0:
            places.append((-1, hidden_kitty))  # the kitty, untouched
        elif exchanged:
            places.append((-2, state.discards.bit_count()))  # the contractor's discards
    for _ in range(ATTEMPTS):
        pool = cards_of(unseen)
        rng.shuffle(pool)
        got: dict[int, CardMask] = {}
        ok = True
        # the most constrained places first
        for who, count in sorted(
            places, key=lambda p: -(forbidden[p[0]] if p[0] >= 0 else 0).bit_count()
        ):
            bad = forbidden[who] if who >= 0 else 0
            need = required[who] if who >= 0 else 0
            take = [c for c in pool if need >> c & 1]
            take += [c for c in pool if not (bad | need) >> c & 1][: count - len(take)]
            if len(take) < count:
                ok = False
                break
            mask = 0
            for card in take:
                mask |= 1 << card
                pool.remove(card)
            got[who] = mask
        if not ok or pool:
            continue
        result = _rebuild(state, seat, played, got, exchanged, unseen)
        if result is not None:
            return result
    raise RuntimeError(f"no deal consistent with seat {seat}'s view in {ATTEMPTS} tries")


def _jokers_after_exchange(state: HandState) -> tuple[CardMask, CardMask]:
    """Jokers the contractor must have kept (nominated before play, R-JOKER 1) and jokers
    it cannot have kept (no trumps or misère without a nomination)."""
    jokers = state.rules.pack.cards & JOKERS_MASK
    if state.trump != NO_TRUMPS:
        return 0, 0
    nominations = [a for a in state.history if NOMINATE_BASE <= a <= NO_NOMINATION]
    if not nominations:
        return 0, jokers
    if len(nominations) == jokers.bit_count():
        return jokers, 0
    named = nominations[0]
    if named == NO_NOMINATION:  # one of two jokers, unnamed: the replay decides
        return 0, 0
    joker = JOKER + (named - NOMINATE_BASE) // 4
    return 1 << joker, jokers & ~(1 << joker)


def _rebuild(
    state: HandState,
    seat: int,
    played: list[CardMask],
    got: dict[int, CardMask],
    exchanged: bool,
    unseen: CardMask,
) -> HandState | None:
    """Deal the sampled cards and replay the history; None when the replay is illegal."""
    rules = state.rules
    contractor = state.contractor
    current = [
        state.hands[s] & ~unseen | got.get(s, 0) if s != seat else state.hands[s]
        for s in range(state.seats)
    ]
    holding = [current[s] | played[s] for s in range(state.seats)]
    if contractor < 0:
        kitty = got.get(-1, state.kitty)
        dealt = holding
    else:
        discards = state.discards if contractor == seat else got.get(-2, state.discards)
        if not exchanged:  # still discarding: the kitty is in the contractor's hand
            discards = state.discards
        whole = holding[contractor] | discards
        if contractor == seat:
            mine = state.dealt[seat]
        else:
            cards = cards_of(whole)
            random.Random(whole).shuffle(cards)  # any split: nothing public tells them apart
            mine = 0
            for card in cards[: state.dealt[contractor].bit_count()]:
                mine |= 1 << card
        dealt = list(holding)
        dealt[contractor] = mine
        kitty = whole & ~mine
    history = list(state.history)
    if contractor >= 0 and contractor != seat and exchanged:
        # The contractor's discards are private actions: the sampled ones replace them.
        start = len(state.auction.calls)
        made = discards.bit_count()
        history[start : start + made] = cards_of(discards)
    # the dummies' deal order (the first five face down, each under the card five places
    # on): the sampled cards take the places of the face-down cards still covered
    orders: list[list[Card]] = []
    for dummy, order in zip(dummy_seats(rules), state.dummy_deal, strict=True):
        new = cards_of(got.get(dummy, 0))
        random.Random(mask_of(new)).shuffle(new)  # any order: nothing tells them apart
        orders.append([new.pop() if unseen >> card & 1 else card for card in order])
    try:
        result = HandState(rules, state.dealer, dealt, kitty, orders, state.barred)
        for action in history:
            result.apply(action)
    except (IllegalActionError, ValueError):
        return None
    # e.g. a sampled joker that would have needed a nomination the history does not have
    for own in _seats_of(rules, seat):
        if result.observation(own) != state.observation(own):
            return None
    return result


def _seats_of(rules: Rules, player: int) -> list[int]:
    """The seats ``player`` decides for: its own, and with two players its dummy."""
    return [player] + [d for d in dummy_seats(rules) if controller_of(rules, d) == player]
