"""Seeded play-phase positions of every kind of contract, for tests and benchmarks.

:func:`start_of_play` deals, bids a contract of the asked kind (everyone else passing),
makes the kitty exchange (random discards that keep the joker in play) and the joker
nomination, and returns the hand at the first lead. :func:`random_position` then plays
random legal cards to leave a given number of tricks (and optionally part of a trick).
"""

from __future__ import annotations

import random

from fivehundred.actions import (
    DOUBLE_MISERE,
    HI_LO,
    MISERE,
    NO_NOMINATION,
    NOMINATE_BASE,
    OPEN_MISERE,
    PASS,
    PATASTROPHE,
    SHIELDS_DOUBLE,
    bid_action,
)
from fivehundred.cards import JOKERS_MASK, NO_TRUMPS, iter_cards
from fivehundred.game import AUCTION, DISCARD, NOMINATE, TRICKS_PER_HAND, HandState
from fivehundred.rules import Rules, make_rules

#: suit: a random trump suit; nt: no trumps, the joker left free; nt_nominated: no trumps,
#: a contractor holding the joker nominates a random suit; misere / open_misere.
KINDS = ("suit", "nt", "nt_nominated", "misere", "open_misere")
#: The house contracts (R-HOUSE; the rules must allow them, see :data:`HOUSE_RULES`).
HOUSE_KINDS = ("hi_lo", "double_misere", "shields_double", "patastrophe")
HOUSE_RULES = make_rules("australian", {kind: True for kind in HOUSE_KINDS})
_HOUSE_CALLS = {
    "hi_lo": HI_LO,
    "double_misere": DOUBLE_MISERE,
    "shields_double": SHIELDS_DOUBLE,
    "patastrophe": PATASTROPHE,
}


def _auction(state: HandState, kind: str, rng: random.Random) -> None:
    if kind == "suit":
        calls = [bid_action(6 + rng.randrange(2), rng.randrange(4))]
    elif kind in ("nt", "nt_nominated"):
        calls = [bid_action(6 + rng.randrange(2), NO_TRUMPS)]
    elif kind == "open_misere":
        calls = [OPEN_MISERE]
    elif kind in _HOUSE_CALLS:
        calls = [_HOUSE_CALLS[kind]]
    elif kind == "misere":
        # misère ranks above 7NT: after a seven bid in the Australian auction
        calls = [bid_action(7, rng.randrange(4)), MISERE]
    else:
        raise ValueError(f"unknown kind {kind!r}; kinds are {', '.join(KINDS + HOUSE_KINDS)}")
    for call in calls:
        state.apply(call)
    while state.phase == AUCTION:
        state.apply(PASS)


def start_of_play(seed: int, kind: str = "suit", rules: Rules | None = None) -> HandState:
    """A hand at the first lead of a contract of ``kind`` (see :data:`KINDS`)."""
    rng = random.Random(f"solver-sample/{kind}/{seed}")
    rules = rules or make_rules()
    state = HandState.deal(rules, dealer=rng.randrange(rules.seats), seed=rng.randrange(2**32))
    _auction(state, kind, rng)
    while state.phase == DISCARD:
        hand = state.hands[state.contractor]
        choices = list(iter_cards(hand & ~JOKERS_MASK))
        state.apply(rng.choice(choices))
    while state.phase == NOMINATE:
        if kind == "nt_nominated" or (kind != "nt" and rng.random() < 0.5):
            state.apply(NOMINATE_BASE + rng.randrange(4))
        else:
            state.apply(NO_NOMINATION)
    return state


def random_position(
    seed: int, kind: str, tricks_left: int, in_trick: int = 0, rules: Rules | None = None
) -> HandState:
    """A hand of ``kind`` played at random to ``tricks_left`` tricks (and ``in_trick``
    cards of the next, at most one fewer than the players) left to play."""
    state = start_of_play(seed, kind, rules)
    in_trick = min(in_trick, len(state.active) - 1)
    rng = random.Random(f"solver-play/{kind}/{seed}")
    played_tricks = TRICKS_PER_HAND - tricks_left
    while len(state.tricks) < played_tricks or len(state.trick_cards) < in_trick:
        actions = state.legal_actions()
        state.apply(rng.choice(actions))
    return state
