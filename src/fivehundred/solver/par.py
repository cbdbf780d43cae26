"""The double-dummy par of a duplicate board (docs/duplicate.md).

Every card known, the kitty included:

1. **Each contract's result.** For every seat as contractor and every strain (♠ ♣ ♦ ♥,
   no trumps, and misère where the preset has it; open misère is misère played with the
   hand face up, the same problem double dummy), the contractor picks up the kitty and
   discards its best cards (and, in no trumps and misère, nominates the joker's suit or
   leaves it free, R-JOKER 1), and the hand is played out double dummy from the first lead
   (R-KITTY: the contractor's, or the eldest's with ``eldest_leads``). *Best* is exact: the
   search covers every discard, pruned only where two discards give the same position (the
   cards discarded are touching, in the strain's order, with only the contractor's own
   cards between them, so keeping either leaves the same hand up to ranks that never
   decide a trick). In a suit or no-trump contract the contractor's side takes as many
   tricks as it can; in misère the contractor takes as few as it can. More tricks never
   score less for the contractor's side (fewer in misère), so the best discard for tricks
   is the best for points.
2. **The par** is the auction of the preset (:class:`fivehundred.auction.Auction`, its
   own rules: who may call, when misère may be bid, when the auction ends) played with
   every card known, each call chosen to give its side the most net points (its points
   less the other side's) at the end, the contract then played as in 1 and scored as a
   hand on its own (R-SCORE). A call that ties with another is the pass, else the lowest
   bid. So neither side can improve its result by bidding on: the par.

Blind misère (declared before the cards are seen) has no place in a game where every
card is known and is left out; the house contracts and ``allpass_play_nt`` are refused.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from fivehundred.actions import (
    BLIND_MISERE,
    HOUSE_CONTRACTS,
    MISERE,
    OPEN_MISERE,
    Action,
    bid_strain,
    is_misere,
)
from fivehundred.auction import Auction, allowed_contracts
from fivehundred.boards import NS, Board, Par, check_rules
from fivehundred.cards import JOKER, JOKERS_MASK, NO_TRUMPS, STRAIN_LETTERS, CardMask, iter_cards
from fivehundred.play import FREE_SUIT, PlayContext, make_context
from fivehundred.rules import ALLPASS_PLAY_NT, JOKER_LEAD_NOT_RENOUNCED, Rules
from fivehundred.scoring import score_hand
from fivehundred.solver import Position, reach_position, solve_position

TRICKS = 10
#: The kitty the par covers (three cards: the four-handed games' 43-card pack).
KITTY = 3
#: The strains of the contract table: the suits, no trumps and misère.
STRAIN_KEYS = (*STRAIN_LETTERS, "misere")
MISERE_KEY = "misere"


@dataclass(frozen=True)
class Exchange:
    """The contractor's best kitty exchange in a strain: the tricks it leads to (the
    contracting side's; in misère the contractor's own), the cards discarded, and the suit
    nominated for each joker kept in no trumps or misère (-1: left free)."""

    tricks: int
    discard: CardMask
    nominations: tuple[int, ...] = ()


@dataclass(frozen=True)
class ParAnalysis:
    """A board's par with how it was found: ``table[(seat, strain)]`` is each contractor's
    best exchange and result in each strain (strain keys ``S C D H NT misere``); ``calls``
    the par auction, ``(seat, call)`` in order; ``exchange`` the par contractor's."""

    par: Par
    table: dict[tuple[int, str], Exchange]
    calls: tuple[tuple[int, Action], ...]
    exchange: Exchange | None


def check_par_rules(rules: Rules) -> None:
    """Raise ValueError for rules the par does not cover."""
    check_rules(rules)
    house = [c for c in HOUSE_CONTRACTS if c in allowed_contracts(rules)]
    if house or rules.allpass == ALLPASS_PLAY_NT or rules.slam_call:
        raise ValueError(f"the par does not cover these rules: {rules.describe()}")
    if rules.pack.kitty_size != KITTY:
        # a larger kitty has many more discards (286 of 13 cards; 3,003 of 15, 8,008 of 16)
        raise ValueError(
            f"the par does not cover a kitty of {rules.pack.kitty_size} cards: {rules.describe()}"
        )


def first_leader(rules: Rules, dealer: int, contractor: int, active: Sequence[int]) -> int:
    """Who leads to the first trick (R-KITTY): the contractor, or with ``eldest_leads``
    the first seat in play from the dealer's left."""
    if not rules.eldest_leads:
        return contractor
    seat = (dealer + 1) % rules.seats
    while seat not in active:
        seat = (seat + 1) % rules.seats
    return seat


def _runs(ctx: PlayContext, in_play: CardMask, mine: CardMask) -> list[list[int]]:
    """The contractor's cards (``mine``) in runs: cards of one block (effective suit; each
    free joker alone) with no other hand's card between them in the strain's order, each
    run lowest first."""

    def block(card: int) -> int:
        suit = ctx.effective_suit[card]
        return 4 + card if suit < 0 else suit

    ordered = sorted(iter_cards(in_play), key=lambda c: (block(c), ctx.power[c]))
    runs: list[list[int]] = []
    previous = -1
    for card in ordered:
        if not mine >> card & 1:
            previous = -1
            continue
        if previous >= 0 and block(previous) == block(card):
            runs[-1].append(card)
        else:
            runs.append([card])
        previous = card
    return runs


def _choices(runs: list[list[int]], count: int) -> Iterator[CardMask]:
    """Every way to discard ``count`` cards, one per class of equivalent discards: so many
    from each run, its lowest."""
    if count == 0:
        yield 0
        return
    if not runs:
        return
    first, rest = runs[0], runs[1:]
    left = sum(len(run) for run in rest)
    for k in range(max(0, count - left), min(len(first), count) + 1):
        mask = 0
        for card in first[:k]:
            mask |= 1 << card
        for more in _choices(rest, count - k):
            yield mask | more


def exchange_candidates(
    rules: Rules,
    hands: Sequence[CardMask],
    kitty: CardMask,
    contractor: int,
    strain: int,
    misere: bool,
    active: Sequence[int],
) -> list[tuple[CardMask, tuple[int, ...], PlayContext]]:
    """Every exchange worth searching: ``(discard, nominations, play context)``, one per
    class of equivalent discards in each context (the joker free, or nominated)."""
    mine = hands[contractor] | kitty
    in_play = mine
    for seat in active:
        if seat != contractor:
            in_play |= hands[seat]
    count = kitty.bit_count()
    j5 = rules.j5_no_trumps
    out: list[tuple[CardMask, tuple[int, ...], PlayContext]] = []
    jokers = list(iter_cards(mine & JOKERS_MASK)) if strain == NO_TRUMPS else []
    options = [FREE_SUIT, 0, 1, 2, 3]
    seen: set[tuple[CardMask, tuple[int, ...]]] = set()
    for suits in itertools.product(options, repeat=len(jokers)):
        named = {joker: suit for joker, suit in zip(jokers, suits, strict=True)}
        pair = [FREE_SUIT, FREE_SUIT]
        for joker, suit in named.items():
            pair[joker - JOKER] = suit
        ctx = make_context(strain, misere, (pair[0], pair[1]), j5)
        for discard in _choices(_runs(ctx, in_play, mine), count):
            # a nomination only matters for a joker kept; one discarding it is searched
            # with it free
            kept = tuple(
                suit if not discard >> joker & 1 else FREE_SUIT for joker, suit in named.items()
            )
            if kept != suits:
                continue
            key = (discard, kept)
            if key not in seen:
                seen.add(key)
                out.append((discard, kept, ctx))
    return out


class FirstLeads:
    """The first-lead positions of one contract (a play context, the seats that play, the
    leader) for each discard of the contractor: what :meth:`Position.build` makes of the
    same hands, array for array, with the work that does not depend on the discard done
    once (the cards' order, the arrays no search changes)."""

    def __init__(
        self,
        ctx: PlayContext,
        active: Sequence[int],
        side: Sequence[int],
        hands: Sequence[CardMask],
        leader: int,
        joker_lead_not_renounced: bool,
    ) -> None:
        import numpy as np

        from fivehundred.solver import engine as E

        self.ctx = ctx
        self.active = tuple(active)
        cards = []
        for j, seat in enumerate(self.active):
            for card in iter_cards(hands[seat]):
                suit = ctx.effective_suit[card]
                cards.append((4 if suit < 0 else suit, ctx.power[card], card, j))
        cards.sort()
        self.order = [(card, block, j) for block, _, card, j in cards]
        self.in_play = sum(1 << card for _, _, card, _ in cards)
        self.st = [0] * E.ST_SIZE
        self.st[E.S_P] = len(self.active)
        self.st[E.S_TRUMP] = ctx.trump if ctx.trump < 4 else -1
        self.st[E.S_MISERE] = 1 if ctx.misere else 0
        self.st[E.S_JLMODE] = 1 if joker_lead_not_renounced else 0
        self.st[E.S_TOMOVE] = self.active.index(leader)
        self.st[E.S_LEFT] = TRICKS
        self.tc = np.zeros(80, np.int64)
        self.tp = np.zeros(80, np.int64)
        self.side = np.array(
            [1 if s in side else 0 for s in self.active] + [0] * (8 - len(self.active)),
            np.int64,
        )
        self.voids = np.zeros(8, np.int64)

    def position(self, discard: CardMask) -> Position:
        """The position with ``discard`` out of the contractor's hand."""
        import numpy as np

        csuit = [0] * 64
        crank = [0] * 64
        suitm = [0] * 5
        counts = [0] * 5
        h = [0] * 8
        real = []
        i = 0
        for card, block, j in self.order:
            if discard >> card & 1:
                continue
            csuit[i] = block
            crank[i] = counts[block]
            counts[block] += 1
            suitm[block] |= 1 << i
            h[j] |= 1 << i
            real.append(card)
            i += 1
        return Position(
            np.array(h, np.uint64),
            np.array(self.st, np.int64),
            self.tc,
            self.tp,
            self.side,
            self.voids,
            np.array(suitm, np.uint64),
            np.array(csuit, np.int64),
            np.array(crank, np.int64),
            real,
            self.active,
            0,
            self.ctx.free_jokers & self.in_play & ~discard,
        )


def best_exchange(
    rules: Rules,
    dealer: int,
    hands: Sequence[CardMask],
    kitty: CardMask,
    contractor: int,
    strain: int,
    misere: bool = False,
) -> Exchange:
    """The contractor's best exchange in ``strain`` (0–3 a suit, 4 no trumps; ``misere``
    with 4) and the tricks double dummy: the most for the contracting side, or in misère
    the fewest for the contractor."""
    partner = (contractor + 2) % 4
    active = tuple(s for s in range(4) if not (misere and s == partner))
    side = (contractor,) if misere else (contractor, partner)
    leader = first_leader(rules, dealer, contractor, active)
    renounce = rules.joker_lead == JOKER_LEAD_NOT_RENOUNCED
    candidates = exchange_candidates(rules, hands, kitty, contractor, strain, misere, active)
    mine = hands[contractor] | kitty
    # likely best first: in a suit or no trumps throw low cards outside the trumps, in
    # misère high ones, so that the bound is tight early and the rest are cut cheaply
    candidates.sort(key=lambda c: _order(c[2], c[0], misere))
    held = list(hands)
    held[contractor] = mine
    leads: dict[int, FirstLeads] = {}  # by play context (one per nomination of the jokers)
    best: Exchange | None = None
    for discard, nominations, ctx in candidates:
        builder = leads.get(id(ctx))
        if builder is None:
            builder = leads[id(ctx)] = FirstLeads(ctx, active, side, held, leader, renounce)
        pos = builder.position(discard)
        if best is None:
            best = Exchange(solve_position(pos), discard, nominations)
        elif misere:
            if best.tricks == 0:
                break
            if not reach_position(pos, best.tricks):  # fewer than the best so far
                best = Exchange(solve_position(pos), discard, nominations)
        else:
            if best.tricks == TRICKS:
                break
            if reach_position(pos, best.tricks + 1):
                best = Exchange(solve_position(pos), discard, nominations)
    assert best is not None
    return best


def _order(ctx: PlayContext, discard: CardMask, misere: bool) -> int:
    value = 0
    for card in iter_cards(discard):
        suit = ctx.effective_suit[card]
        power = ctx.power[card] + (100 if suit < 0 or suit == ctx.trump else 0)
        value += -power if misere else power
    return value


def contract_table(board: Board) -> dict[tuple[int, str], Exchange]:
    """Each seat's best exchange and double-dummy result in each strain of the board's
    rules (misère only where they have it)."""
    return strain_table(board.rules, board.dealer, board.hands, board.kitty)


def strain_table(
    rules: Rules, dealer: int, hands: Sequence[CardMask], kitty: CardMask
) -> dict[tuple[int, str], Exchange]:
    """:func:`contract_table` of a deal under ``rules`` (a preset with its variants)."""
    check_par_rules(rules)
    has_misere = MISERE in allowed_contracts(rules) or OPEN_MISERE in allowed_contracts(rules)
    table: dict[tuple[int, str], Exchange] = {}
    for seat in range(4):
        for strain in range(5):
            table[(seat, STRAIN_KEYS[strain])] = best_exchange(
                rules, dealer, hands, kitty, seat, strain
            )
        if has_misere:
            table[(seat, MISERE_KEY)] = best_exchange(
                rules, dealer, hands, kitty, seat, NO_TRUMPS, misere=True
            )
    return table


def strain_key(contract: Action) -> str:
    return MISERE_KEY if is_misere(contract) else STRAIN_KEYS[bid_strain(contract)]


def contract_points(
    rules: Rules, contract: Action, contractor: int, tricks: int
) -> tuple[int, int]:
    """North-South's and East-West's points for ``contract`` by ``contractor`` when the
    contracting side (in misère the contractor) takes ``tricks``: the rule book's score of
    a hand on its own (R-SCORE)."""
    defender = (contractor + 1) % 4
    won = [0] * 4
    won[contractor] = tricks
    won[defender] = TRICKS - tricks
    winners = [contractor] * tricks + [defender] * (TRICKS - tricks)
    partners = () if is_misere(contract) else ((contractor + 2) % 4,)
    score = score_hand(rules, contract, contractor, partners, won, winners)
    return score.points[0], score.points[1]


def par_auction(
    rules: Rules, dealer: int, net: Callable[[Action, int], int]
) -> tuple[tuple[tuple[int, Action], ...], Action, int]:
    """The preset's auction played with every result known: ``net(contract, contractor)``
    is North-South's net for a contract played. Returns the calls, the contract and the
    contractor (-1, -1 when the hand is passed in)."""
    memo: dict[tuple[object, ...], tuple[int, Action]] = {}
    values: dict[tuple[Action, int], int] = {}

    def payoff(auction: Auction) -> int:
        contract, contractor = auction.winning_call
        if contract < 0:
            return 0
        key = (contract, contractor)
        if key not in values:
            values[key] = net(contract, contractor)
        return values[key]

    def key(a: Auction) -> tuple[object, ...]:
        return (
            tuple(a.passed),
            a.to_move,
            a.contract,
            a.contractor,
            a.seven_bid,
            a.raise_turn,
            a.done,
            len(a.calls) if rules.auction == "american" else 0,
            tuple(a.called) if rules.blind_misere else (),
        )

    def value(a: Auction) -> int:
        if a.done:
            return payoff(a)
        k = key(a)
        if k in memo:
            return memo[k][0]
        maximise = a.to_move % 2 == NS
        best: tuple[int, Action] | None = None
        for call in a.legal_calls():
            if call == BLIND_MISERE:
                continue
            child = a.copy()
            child.apply(call)
            v = value(child)
            if best is None or (v > best[0] if maximise else v < best[0]):
                best = (v, call)
        assert best is not None
        memo[k] = best
        return best[0]

    auction = Auction(rules, dealer)
    value(auction)
    calls: list[tuple[int, Action]] = []
    while not auction.done:
        call = memo[key(auction)][1]
        calls.append((auction.to_move, call))
        auction.apply(call)
    contract, contractor = auction.winning_call
    return tuple(calls), contract, contractor


def board_par(board: Board) -> ParAnalysis:
    """The double-dummy par of ``board`` (see the module docstring)."""
    return table_par(board.rules, board.dealer, contract_table(board))


def table_par(rules: Rules, dealer: int, table: dict[tuple[int, str], Exchange]) -> ParAnalysis:
    """The par of a deal whose :func:`strain_table` is ``table``."""

    def points(contract: Action, contractor: int) -> tuple[int, int]:
        tricks = table[(contractor, strain_key(contract))].tricks
        return contract_points(rules, contract, contractor, tricks)

    def net(contract: Action, contractor: int) -> int:
        ns, ew = points(contract, contractor)
        return ns - ew

    calls, contract, contractor = par_auction(rules, dealer, net)
    if contract < 0:
        return ParAnalysis(Par(-1, -1, 0, (0, 0)), table, calls, None)
    exchange = table[(contractor, strain_key(contract))]
    par = Par(contract, contractor, exchange.tricks, points(contract, contractor))
    return ParAnalysis(par, table, calls, exchange)


__all__ = [
    "Exchange",
    "FirstLeads",
    "ParAnalysis",
    "best_exchange",
    "board_par",
    "check_par_rules",
    "contract_points",
    "contract_table",
    "exchange_candidates",
    "first_leader",
    "par_auction",
    "strain_table",
    "table_par",
]
