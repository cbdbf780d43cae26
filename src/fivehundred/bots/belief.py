"""Belief weighting: how likely a sampled deal is to have produced the calls seen.

The heuristic is the model of the other players. For every call another seat made, the
auction is replayed up to that call and the heuristic is asked what it would have called
with the hand the deal gives that seat; a deal whose hands reproduce the calls seen keeps
its full weight, one that does not is weighted down (:data:`MISMATCH`: a call of the same
kind close to the one seen, :data:`NEAR`). The weights multiply over the calls.

Only hands known as they were dealt are read: in the play, the contractor's hand changed
with the kitty and is not weighted (the auction reads in :mod:`fivehundred.bots.simulate`
still give it its share of trumps). Four players only (the heuristic's fitted counts).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

from fivehundred.actions import PASS, Action, bid_strain, bid_tricks, is_suit_bid
from fivehundred.auction import Auction
from fivehundred.bots.heuristic import HeuristicPlayer
from fivehundred.cards import CardMask
from fivehundred.observation import Observation

#: Weight of a deal in which the model would have made a clearly different call.
MISMATCH = 0.08
#: Weight when the model's call differs by one level in the same strain (or the model
#: bids the cheapest level where the seat passed, or passes where it bid six).
NEAR = 0.35


def _close(model: Action, seen: Action) -> bool:
    """Whether two calls are near misses of each other (one level apart, same strain; a
    pass against a six-level bid)."""
    if is_suit_bid(model) and is_suit_bid(seen):
        return (
            bid_strain(model) == bid_strain(seen) and abs(bid_tricks(model) - bid_tricks(seen)) == 1
        )
    if model == PASS and is_suit_bid(seen):
        return bid_tricks(seen) == 6
    if seen == PASS and is_suit_bid(model):
        return bid_tricks(model) == 6
    return False


class CallModel:
    """The other seats' calls in one auction, ready to be checked against sampled hands."""

    def __init__(self, obs: Observation, heuristic: HeuristicPlayer, skip: Sequence[int] = ()):
        self.heuristic = heuristic
        self._memo: dict[tuple[int, CardMask], float] = {}
        #: (seat, the seat's view at its call with no hand yet, the call it made)
        self.calls: list[tuple[int, Observation, Action]] = []
        rules = obs.rules
        if rules.players != 4 or rules.seats != 4 or not obs.auction:
            return
        try:
            auction = Auction(rules, obs.dealer, barred=obs.barred)
            for index, (seat, call) in enumerate(obs.auction):
                if auction.done or auction.to_move != seat:
                    self.calls = []
                    return
                legal = tuple(auction.legal_calls())
                if seat != obs.seat and seat not in skip and len(legal) > 1:
                    view = dataclasses.replace(
                        obs,
                        seat=seat,
                        phase="auction",
                        to_move=seat,
                        hand=0,
                        auction=obs.auction[:index],
                        legal=legal,
                        contract=-1,
                        contractor=-1,
                        partners=(),
                        trump=-1,
                        tricks=(),
                        trick=(),
                        exposed=(),
                    )
                    self.calls.append((seat, view, call))
                auction.apply(call)
        except ValueError:  # an auction the replay cannot follow (house rules): no weighting
            self.calls = []

    def __bool__(self) -> bool:
        return bool(self.calls)

    def weight(self, dealt: Sequence[CardMask]) -> float:
        """The deal's weight: 1 when the model reproduces every call from the hands as
        dealt (``dealt[seat]``), less for each call it would have made differently."""
        weight = 1.0
        for index, (seat, view, seen) in enumerate(self.calls):
            key = (index, dealt[seat])
            part = self._memo.get(key)
            if part is None:
                model, _ = self.heuristic.bid(dataclasses.replace(view, hand=dealt[seat]))
                part = 1.0 if model == seen else NEAR if _close(model, seen) else MISMATCH
                if len(self._memo) < 50_000:
                    self._memo[key] = part
            weight *= part
        return weight

    def pick(self, deals: Sequence[Sequence[CardMask]], rng: random.Random) -> int:
        """One of ``deals`` (their index), drawn in proportion to their weights."""
        weights = [self.weight(d) for d in deals]
        return rng.choices(range(len(deals)), weights)[0]


__all__ = ["MISMATCH", "NEAR", "CallModel"]
