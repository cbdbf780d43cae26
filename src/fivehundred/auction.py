"""The auction (R-BID, R-ALLPASS): Australian and American styles, misère, open misère,
blind misère, ``raise_after_passes`` and ``dealer_must_bid``."""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache

from fivehundred.actions import (
    BID_BASE,
    BLIND_MISERE,
    DOUBLE_MISERE,
    HI_LO,
    HOUSE_CONTRACTS,
    MISERE,
    OPEN_MISERE,
    PASS,
    PATASTROPHE,
    SHIELDS_DOUBLE,
    Action,
    action_text,
    bid_tricks,
    is_bid,
    is_suit_bid,
)
from fivehundred.errors import IllegalActionError, Refusal
from fivehundred.rules import (
    AMERICAN,
    BLIND_MISERE_RANK,
    DOUBLE_MISERE_RANK,
    HI_LO_RANK,
    MISERE_AFTER_SEVEN,
    MISERE_OFF,
    PATASTROPHE_RANK,
    SHIELDS_DOUBLE_RANK,
    Rules,
)

SUIT_BIDS = tuple(range(BID_BASE, MISERE))
INKLE_END = BID_BASE + 5  # the 6-level bids: inkles with the inkle variant


@lru_cache(maxsize=64)
def _bid_tables(
    rules: Rules,
) -> tuple[dict[Action, float], tuple[Action, ...], tuple[float, ...]]:
    """Ranks of every bid, and the bids these rules allow (blind misère aside) by rank."""
    calls = (*range(BID_BASE, BLIND_MISERE + 1), *HOUSE_CONTRACTS)
    ranks = {call: bid_order(call, rules) for call in calls}
    bids = [call for call in allowed_contracts(rules) if call != BLIND_MISERE]
    return ranks, tuple(bids), tuple(ranks[b] for b in bids)


def house_call_allowed(call: Action, rules: Rules) -> bool:
    """Whether a house contract (R-HOUSE) may be bid under these rules."""
    return {
        HI_LO: rules.hi_lo,
        DOUBLE_MISERE: rules.double_misere,
        SHIELDS_DOUBLE: rules.shields_double,
        PATASTROPHE: rules.patastrophe,
    }.get(call, False)


def allowed_contracts(rules: Rules) -> list[Action]:
    """The contracts these rules allow (blind misère included), lowest rank first (R-BID,
    R-HOUSE): the one list the auction, the pad and the interfaces' bid boxes read."""
    calls = list(SUIT_BIDS)
    if rules.misere_allowed:
        calls.append(MISERE)
    if rules.open_misere:
        calls.append(OPEN_MISERE)
    if rules.blind_misere:
        calls.append(BLIND_MISERE)
    calls += [call for call in HOUSE_CONTRACTS if house_call_allowed(call, rules)]
    return sorted(calls, key=lambda call: bid_order(call, rules))


_HOUSE_RANKS = {
    HI_LO: HI_LO_RANK,
    DOUBLE_MISERE: DOUBLE_MISERE_RANK,
    SHIELDS_DOUBLE: SHIELDS_DOUBLE_RANK,
    PATASTROPHE: PATASTROPHE_RANK,
}


def bid_rank(call: Action, rules: Rules) -> int:
    """Rank of a bid for outbidding (R-BID): tricks, then strain; misère bids by the rules.

    A suit bid ranks ``tricks * 10 + strain * 2`` (6♠ = 60 … 10NT = 108). Shields double
    (R-HOUSE), half a step above double misère, shares its whole-number rank here; the
    auction orders by :func:`bid_order`.
    """
    return int(bid_order(call, rules))


def bid_order(call: Action, rules: Rules) -> float:
    """The exact rank the auction orders bids by: :func:`bid_rank`, with Shields double
    half a step above double misère (R-HOUSE)."""
    if call in _HOUSE_RANKS:
        return _HOUSE_RANKS[call]
    if is_suit_bid(call):
        return (call - BID_BASE) // 5 * 10 + 60 + (call - BID_BASE) % 5 * 2
    if call == MISERE:
        return rules.misere_rank
    if call == OPEN_MISERE:
        return rules.open_misere_rank
    return BLIND_MISERE_RANK


class Auction:
    """Calls in order, whose turn it is, and when it ends.

    ``calls`` holds ``(seat, call)`` in the order made. The auction is over when
    ``done``; then ``contract``/``contractor`` hold the winning bid (or -1 if all passed).
    """

    __slots__ = (
        "_bid_ranks",
        "_bids",
        "_ranks",
        "barred",
        "bidders",
        "called",
        "calls",
        "contract",
        "contractor",
        "dealer",
        "done",
        "high_rank",
        "passed",
        "raise_turn",
        "rules",
        "seats",
        "seven_bid",
        "to_move",
    )

    def __init__(
        self,
        rules: Rules,
        dealer: int,
        bidders: list[int] | None = None,
        barred: tuple[int, ...] = (),
    ) -> None:
        self.rules = rules
        #: Seats that must pass in this hand (R-HOUSE ralphing).
        self.barred = barred
        self.seats = rules.seats
        self.dealer = dealer
        #: Seats that take part, clockwise from the dealer's left (all seats with 4 players).
        self.bidders = bidders or [(dealer + 1 + i) % self.seats for i in range(self.seats)]
        self.calls: list[tuple[int, Action]] = []
        self.passed = [seat not in self.bidders for seat in range(self.seats)]
        self.called = [False] * self.seats
        self.contract = -1
        self.contractor = -1
        self.high_rank: float = 0
        self.seven_bid = False
        self.raise_turn = False
        self.done = False
        self.to_move = self.bidders[0]
        self._ranks, self._bids, self._bid_ranks = _bid_tables(rules)

    def legal_calls(self) -> list[Action]:
        """Every call the player to move may make now."""
        if self.done:
            return []
        if self.to_move in self.barred:
            return [PASS]
        calls = [] if self._dealer_must_bid() else [PASS]
        calls += self._bids[bisect_right(self._bid_ranks, self.high_rank) :]
        if MISERE in calls and self.rules.misere == MISERE_AFTER_SEVEN and not self.seven_bid:
            calls.remove(MISERE)
        if self.rules.inkle and not self._may_inkle():
            calls = [c for c in calls if not BID_BASE <= c < INKLE_END]
        if (
            self.rules.blind_misere
            and not self.called[self.to_move]
            and not self.raise_turn
            and self._ranks[BLIND_MISERE] > self.high_rank
        ):
            calls.append(BLIND_MISERE)
        return calls

    def _may_inkle(self) -> bool:
        """R-HOUSE inkle: only the first two bidders may bid at the 6 level."""
        return self.to_move in self.bidders[:2]

    def _dealer_must_bid(self) -> bool:
        return (
            self.rules.dealer_must_bid
            and self.to_move not in self.barred
            and self.contract < 0
            and self.to_move == self.bidders[-1]
            and all(self.passed[s] for s in self.bidders[:-1])
        )

    def check(self, call: Action) -> None:
        """Raise :class:`IllegalActionError` (citing the rule) unless ``call`` is legal now."""
        if self.done:
            raise IllegalActionError("the auction is over", "R-BID")
        if call == PASS:
            if self._dealer_must_bid():
                raise IllegalActionError(
                    "the dealer may not pass when the others have",
                    "R-ALLPASS",
                    why=Refusal.DEALER_MUST_BID,
                )
            return
        if not is_bid(call):
            raise IllegalActionError(f"{action_text(call)} is not a call", "R-BID")
        if call in HOUSE_CONTRACTS and not house_call_allowed(call, self.rules):
            raise IllegalActionError(
                f"{action_text(call)} is not allowed in these rules (a house rule that is off)",
                "R-HOUSE",
            )
        if self.to_move in self.barred:
            raise IllegalActionError(
                f"seat {self.to_move} failed a contract by three tricks "
                "or more last hand and must pass (ralphing)",
                "R-HOUSE",
                why=Refusal.BARRED,
            )
        rules = self.rules
        text = action_text(call)
        if call == MISERE:
            if rules.misere == MISERE_OFF:
                raise IllegalActionError("misère is not allowed in these rules", "R-BID")
            if rules.misere == MISERE_AFTER_SEVEN and not self.seven_bid:
                raise IllegalActionError("misère may only be bid after a 7 bid", "R-BID")
        if call == OPEN_MISERE and not rules.open_misere:
            raise IllegalActionError("open misère is not allowed in these rules", "R-BID")
        if call == BLIND_MISERE:
            if not rules.blind_misere:
                raise IllegalActionError("blind misère is not allowed in these rules", "R-BID")
            if self.called[self.to_move]:
                raise IllegalActionError("blind misère is declared before any other call", "R-BID")
        if rules.inkle and BID_BASE <= call < INKLE_END and not self._may_inkle():
            raise IllegalActionError(
                f"{text}: only the first two bidders may inkle (bid at the 6 level)", "R-HOUSE"
            )
        if self._ranks[call] <= self.high_rank:
            current = action_text(self.contract)
            raise IllegalActionError(
                f"{text} does not outrank {current}",
                "R-BID",
                why=Refusal.OUTBID,
                card=call,
                against=self.contract,
            )

    def apply(self, call: Action) -> None:
        """Make ``call`` for the player to move (checked with :meth:`check`)."""
        self.check(call)
        seat = self.to_move
        self.calls.append((seat, call))
        self.called[seat] = True
        if self.raise_turn:
            if call != PASS:
                self._set_high(seat, call)
            self.done = True
            return
        if call == PASS:
            self.passed[seat] = True
        else:
            alone = all(self.passed[s] for s in self.bidders if s != seat)
            self._set_high(seat, call)
            if alone:
                # The last player in after the others passed: the bid is the contract at once.
                self.done = True
                return
        if self.rules.auction == AMERICAN:
            if len(self.calls) >= len(self.bidders):
                self.done = True
                return
            self.to_move = self.bidders[len(self.calls)]
            return
        active = [s for s in self.bidders if not self.passed[s]]
        if not active:
            self.done = True
            return
        if active == [self.contractor]:
            if self.rules.raise_after_passes:
                self.raise_turn = True
                self.to_move = self.contractor
            else:
                self.done = True
            return
        index = self.bidders.index(seat)
        for step in range(1, len(self.bidders) + 1):
            nxt = self.bidders[(index + step) % len(self.bidders)]
            if not self.passed[nxt]:
                self.to_move = nxt
                return

    @property
    def winning_call(self) -> tuple[Action, int]:
        """When the auction is done: the contract and contractor, ``(-1, -1)`` if all passed
        or (R-HOUSE inkle) the highest call was an inkle, which is thrown in likewise."""
        if self.rules.inkle and BID_BASE <= self.contract < INKLE_END:
            return -1, -1
        return self.contract, self.contractor

    def _set_high(self, seat: int, call: Action) -> None:
        self.contract = call
        self.contractor = seat
        self.high_rank = self._ranks[call]
        if bid_tricks(call) == 7:
            self.seven_bid = True

    def copy(self) -> Auction:
        other = Auction.__new__(Auction)
        for name in Auction.__slots__:
            value = getattr(self, name)
            setattr(other, name, list(value) if isinstance(value, list) else value)
        return other
