"""Bidding and discarding by simulation, for the PIMC player (three or four players).

What the auction tells: :func:`auction_reads` turns every other seat's calls into
constraints on the hand it was dealt (a bid in a strain shows tricks there, a raise shows
support, an early pass shows a weak hand, misère shows low cards), measured with the
heuristic's own trick counting. :func:`sample_deal` deals the unseen cards to the other
seats and the kitty, preferring deals that break none of them.

:func:`bid_by_simulation` values every candidate contract on the same sampled deals: we
pick up the kitty, discard as the heuristic would and the deal is solved double-dummy from
the opening lead; one solve per strain gives the trick count for every level. Passing is
valued by solving the contract that stands (partner's or an opponent's) on the same deals.
:func:`discard_by_simulation` chooses among a few candidate discards the same way.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from fivehundred.actions import (
    HI_LO,
    MISERE,
    PASS,
    Action,
    bid_action,
    bid_strain,
    bid_tricks,
    is_bid,
    is_misere,
    is_suit_bid,
    plays_alone,
)
from fivehundred.auction import bid_rank
from fivehundred.bots import counts, equity
from fivehundred.bots.base import say
from fivehundred.bots.belief import CallModel
from fivehundred.bots.heuristic import (
    HeuristicPlayer,
    fitted_counts,
    hand_tricks,
    misere_dangers,
    misere_ok,
    support_tricks,
)
from fivehundred.bots.memory import context_for
from fivehundred.cards import JOKERS_MASK, NO_TRUMPS, SUITS, CardMask, iter_cards
from fivehundred.observation import Observation
from fivehundred.play import PlayContext
from fivehundred.rules import JOKER_LEAD_NOT_RENOUNCED, Rules
from fivehundred.scoring import HI_LO_TRICKS, SLAM_MINIMUM, bid_value

with contextlib.suppress(ImportError):  # the caller checks pimc.HAVE_SOLVER first
    from fivehundred.solver import Position, nodes_searched, solve_position

#: Double dummy knows where every card is; a real declarer does not (and the other hands
#: are guesses, the best of several calls looks better than it is): a declarer's trick
#: count is taken one lower on this share of the deals.
SHADE = 0.4
#: A suit bid by a seat that has not raised its partner shows this many tricks fewer than
#: the level in its own hand (the heuristic counts the kitty and partner for about two).
BID_SLACK = 2.3
#: Tricks above the heuristic's fitted count that a simulated bid may reach (four hands).
BID_STRETCH = 0.7
#: Deals a bid always solves, whatever its budget.
MIN_DEALS = 4
#: Deals drawn for each one kept when the deals are weighted by the calls seen.
BELIEF_DRAWS = 3
#: An early pass shows no suit worth more than this many tricks on its own.
PASS_MAX = 5.3


#: With the heuristic's fitted four-handed counts (which run higher than its rules of
#: thumb): strains within ``[1]`` of the best and above ``[0]`` are solved; a hand that
#: would pass is simulated when its best count reaches ``[2]`` or the cheapest level less
#: ``[3]``.
NEAR_FITTED = (5.8, 1.0, 6.0, 0.3)

#: Aces and kings: what a no-trump bidder holds.
_HIGH_CARDS = sum(1 << (suit * 16 + rank) for suit in SUITS for rank in (14, 15))
#: Cards from 2 to 8: what a misère bidder holds.
_LOW_CARDS = sum(1 << (suit * 16 + rank) for suit in SUITS for rank in range(7))


@dataclass(frozen=True)
class Read:
    """One thing the auction says about ``seat``'s dealt hand."""

    seat: int
    kind: str  # "bid", "raise", "pass", "misere"
    strain: int = -1
    tricks: int = 0

    def broken(self, hand: CardMask, rules: Rules) -> bool:
        """Whether ``hand`` (as dealt, before the kitty) contradicts this read."""
        if self.kind == "bid":
            return hand_tricks(hand, self.strain, rules) < self.tricks - BID_SLACK
        if self.kind == "raise":
            return support_tricks(hand, self.strain, rules) < 1.5
        if self.kind == "misere":
            return len(misere_dangers(hand, rules)) > 4
        return any(hand_tricks(hand, s, rules) > PASS_MAX for s in SUITS)


def auction_reads(obs: Observation) -> list[Read]:
    """What the calls of the other seats say about their hands (not the contractor's hand
    after the kitty: only hands as dealt are read)."""
    seats = obs.rules.seats
    reads: list[Read] = []
    bid_by: dict[int, list[Action]] = {}
    early_pass: set[int] = set()
    high = -1
    for seat, call in obs.auction:
        if call == PASS:
            if high < 0 or (is_suit_bid(high) and bid_tricks(high) <= 6):
                early_pass.add(seat)
        else:
            if is_bid(call) and not is_suit_bid(call):
                bid_by.setdefault(seat, []).append(call)
            elif is_suit_bid(call):
                partner = (seat + seats // 2) % seats if seats % 2 == 0 else -1
                raised = any(
                    is_suit_bid(c) and bid_strain(c) == bid_strain(call)
                    for c in bid_by.get(partner, [])
                )
                bid_by.setdefault(seat, []).append(call if not raised else -call - 1)
            high = call
    for seat in range(seats):
        if seat == obs.seat:
            continue
        calls = bid_by.get(seat, [])
        if calls:
            last = calls[-1]
            if is_bid(last) and not is_suit_bid(last):  # (a raise is kept as -call - 1)
                reads.append(Read(seat, "misere"))
            elif last < 0:
                real = -last - 1
                reads.append(Read(seat, "raise", bid_strain(real), bid_tricks(real)))
            else:
                reads.append(Read(seat, "bid", bid_strain(last), bid_tricks(last)))
        elif seat in early_pass:
            reads.append(Read(seat, "pass"))
    return reads


def _favoured(read: Read) -> CardMask:
    """Cards a seat with this read is likely to hold (drawn three times as often)."""
    if read.kind in ("bid", "raise"):
        if read.strain == NO_TRUMPS:
            return JOKERS_MASK | _HIGH_CARDS
        return context_for(read.strain, False, (-1, -1)).follow_masks[read.strain]
    if read.kind == "misere":
        return _LOW_CARDS
    return 0


def sample_deal(
    obs: Observation,
    reads: Sequence[Read],
    rng: random.Random,
    tries: int = 30,
    beliefs: CallModel | None = None,
) -> tuple[list[CardMask], CardMask]:
    """Hands for every seat (ours as it is) and a kitty, fitting the auction.

    Seats are dealt one by one, the most constrained first: a bidder's hand is drawn with
    the cards of its strain favoured and redrawn (up to ``tries`` times) until it shows
    the tricks of its bid; an early passer's until it has no biddable suit. The last draw
    stands if none fits, so a deal always comes back.

    With ``beliefs`` (the heuristic as the model of the other seats' calls) the deal is
    one of :data:`BELIEF_DRAWS` such deals, drawn in proportion to how likely each is to
    have produced the calls seen (:mod:`fivehundred.bots.belief`)."""
    if beliefs:
        deals = [sample_deal(obs, reads, rng, tries) for _ in range(BELIEF_DRAWS)]
        return deals[beliefs.pick([hands for hands, _ in deals], rng)]
    rules = obs.rules
    size = rules.pack.hand_size
    by_seat = {r.seat: r for r in reads}
    order = {"bid": 0, "raise": 1, "misere": 2, "pass": 3}
    others = sorted(
        (s for s in range(rules.seats) if s != obs.seat),
        key=lambda s: order[by_seat[s].kind] if s in by_seat else 4,
    )
    pool = list(iter_cards(obs.unseen))
    hands = [0] * rules.seats
    hands[obs.seat] = obs.hand
    known = dict(obs.exposed)  # two players: the dummies' face-up cards are where they lie
    for seat in others:
        read = by_seat.get(seat)
        if read is None:
            rng.shuffle(pool)
            picked = pool[: size - known.get(seat, 0).bit_count()]
        else:
            favoured = _favoured(read)
            for _ in range(tries):
                keyed = sorted(
                    pool, key=lambda c: rng.random() ** (1 / 3 if favoured >> c & 1 else 1)
                )
                picked = keyed[-size:]
                if not read.broken(sum(1 << c for c in picked), rules):
                    break
        hands[seat] = known.get(seat, 0) | sum(1 << c for c in picked)
        taken = set(picked)
        pool = [c for c in pool if c not in taken]
    kitty = sum(1 << c for c in pool)
    return hands, kitty


# ----------------------------------------------------------------------------- scoring
def contract_score(contract: Action, tricks: int, rules: Rules) -> int:
    """Contracting side's points minus the defenders' when it ends with ``tricks``: a
    misère is made with none, hi/lo with exactly five (R-HOUSE), a bid with its tricks."""
    value = bid_value(contract, rules)
    if contract == HI_LO:
        made = tricks == HI_LO_TRICKS
    elif is_misere(contract):
        made = tricks == 0
    else:
        made = tricks >= bid_tricks(contract)
        if made and tricks == 10:
            value = max(value, SLAM_MINIMUM)
    return (value if made else -value) - defence_points(contract, tricks, rules)


def defence_points(contract: Action, tricks: int, rules: Rules) -> int:
    """The defenders' points when the contracting side ends with ``tricks``: 10 a trick
    they take; in misère none, or 10 a trick the contractor takes where
    ``misere_defenders_score`` says so (R-SCORE)."""
    if is_misere(contract):
        return 10 * tricks if rules.misere_defenders_score else 0
    return 10 * (10 - tricks)


def shaded_score(contract: Action, tricks: int, rules: Rules) -> float:
    """:func:`contract_score`, the declarer's double-dummy count shaded by :data:`SHADE`
    of a trick (not in misère, where perfect defenders are the harder side already)."""
    if rules.players in counts.SOLO_COUNTS:  # each seat scores for itself
        return counts.solo_shaded(contract, tricks, rules, declarer=True)
    score = contract_score(contract, tricks, rules)
    other, weight = shade_step(rules, contract, tricks)
    if not weight:
        return float(score)
    return (1 - weight) * score + weight * contract_score(contract, other, rules)


def shade_step(rules: Rules, contract: Action, tricks: int) -> tuple[int, float]:
    """The trick count a simulated declarer's double-dummy count ``tricks`` is blended
    with at this table, and its weight (0: none): a trick less on :data:`SHADE` of the
    deals, or where :func:`~fivehundred.bots.counts.declarer_shade` is negative a trick
    more (none above ten); nothing in misère, where perfect defenders are the harder
    side already."""
    if not is_suit_bid(contract) or tricks == 0:
        return tricks, 0.0
    shade = counts.declarer_shade(rules, SHADE)
    if shade < 0:
        return (tricks, 0.0) if tricks == 10 else (tricks + 1, -shade)
    return tricks - 1, shade


# ----------------------------------------------------------------------------- solving
def _partner(rules: Rules, seat: int) -> int:
    """The seat's partner with four players; -1 with three (each plays for itself)."""
    return (seat + rules.seats // 2) % rules.seats if rules.seats == 4 else -1


def _leader(rules: Rules, dealer: int, contractor: int) -> int:
    return (dealer + 1) % rules.seats if rules.eldest_leads else contractor


def play_out(
    rules: Rules,
    dealer: int,
    contractor: int,
    contract: Action,
    hands: Sequence[CardMask],
) -> int:
    """Double-dummy tricks of the contracting side, hands after the discard: the contractor
    alone where the partner sits out (:func:`~fivehundred.actions.plays_alone`: misère,
    hi/lo), both partners in double misère, Shields double and patastrophe (R-HOUSE).

    In a suit contract the side takes as many tricks as it can, in a misère as few; in
    hi/lo (no trumps, not a misère: R-HOUSE) the contractor aims at exactly five: fewer
    than five where the defence can hold it below, more where the defence can push more
    tricks on it, else five (an estimate: forcing exactly five is a search of its own,
    :func:`fivehundred.solver.hi_lo_made`)."""
    seats = rules.seats
    partner = _partner(rules, contractor)
    strain = NO_TRUMPS if not is_suit_bid(contract) else bid_strain(contract)
    ctx = context_for(strain, is_misere(contract), (-1, -1))
    active: Sequence[int] = range(seats)
    side: Sequence[int] = (contractor, partner) if partner >= 0 else (contractor,)
    if plays_alone(contract):
        active = [s for s in range(seats) if s != partner]
        side = (contractor,)
    if rules.players != 4:  # two (dummies), three, five or six players
        active, side = counts.contract_seats(rules, contractor, contract, hands)
    leader = _leader(rules, dealer, contractor)
    if leader not in active:
        leader = (leader + 1) % seats

    def solved(ctx: PlayContext) -> int:
        pos = Position.build(
            ctx,
            active,
            side,
            hands,
            leader,
            (),
            -1,
            0,
            None,
            rules.joker_lead == JOKER_LEAD_NOT_RENOUNCED,
            0,
        )
        return solve_position(pos)

    most = solved(ctx)  # the most the contractor can be sure of, the defence ducking
    if contract != HI_LO or most < HI_LO_TRICKS:
        return most
    # The fewest it can keep to, the defence pushing tricks on it: the misère search
    # (whose one difference of rule, a void holder's joker, is neglected here).
    return max(solved(context_for(NO_TRUMPS, True, (-1, -1))), HI_LO_TRICKS)


def heuristic_discards(
    heuristic: HeuristicPlayer, hand: CardMask, contract: Action, rules: Rules
) -> CardMask:
    """The cards the heuristic would discard from ``hand`` (dealt hand and kitty)."""
    count = rules.pack.kitty_size
    if not is_suit_bid(contract):
        out = 0
        for _ in range(count):
            card = heuristic._misere_discard(hand & ~out, rules)
            out |= 1 << card
        return out
    return sum(1 << c for c in heuristic.plan_discards(hand, bid_strain(contract), count, rules))


def _within_budget(deals: int, max_nodes: int | None, minimum: int) -> Iterator[int]:
    """Deal numbers up to ``deals``, stopping (after ``minimum``) once the solver has
    searched ``max_nodes`` positions since the first: a budget in positions, not
    seconds, so that a seed gives the same decision on any machine."""
    start = nodes_searched()
    for n in range(deals):
        if max_nodes is not None and n >= minimum and nodes_searched() - start >= max_nodes:
            return
        yield n


# ----------------------------------------------------------------------------- bidding
def _strains_to_try(heuristic: HeuristicPlayer, obs: Observation, proposal: Action) -> list[int]:
    """The strains worth solving: the heuristic's choice and the other strains it rates
    within a trick and a half of its best (at most three)."""
    levels = heuristic.bid_levels(obs)
    ranked = sorted(levels, key=lambda s: -levels[s])
    best = levels[ranked[0]] if ranked else 0.0
    floor, within = NEAR_FITTED[:2] if fitted_counts(obs.rules) else (5.0, 1.5)
    strains = [s for s in ranked if levels[s] >= max(floor, best - within)][:3]
    if is_suit_bid(proposal) and bid_strain(proposal) not in strains:
        strains = [bid_strain(proposal), *strains[:2]]
    return strains


def worth_simulating(heuristic: HeuristicPlayer, obs: Observation, proposal: Action) -> bool:
    """Whether the hand is near enough to a contract that solving deals could change the
    call (most hands pass at once: no solving for them)."""
    if proposal != PASS:
        return True
    levels = heuristic.bid_levels(obs)
    legal = set(obs.legal)
    if MISERE in legal and misere_ok(obs.hand, obs.rules, obs.rules.pack.kitty_size + 1):
        return True
    best = max(levels.values(), default=0.0)
    # The cheapest legal level we could still name.
    cheapest = min((bid_tricks(a) for a in legal if is_suit_bid(a)), default=11)
    if fitted_counts(obs.rules):
        return best >= max(NEAR_FITTED[2], cheapest - NEAR_FITTED[3])
    return best >= max(5.6, cheapest - 0.9)


def _mean(scores: Sequence[float]) -> float:
    """A bid's value: its mean score over the deals."""
    return sum(scores) / len(scores)


def bid_by_simulation(
    obs: Observation,
    heuristic: HeuristicPlayer,
    deals: int,
    rng: random.Random,
    max_nodes: int | None = None,
    beliefs: bool = False,
) -> tuple[Action, str]:
    """The call with the best mean score over ``deals`` sampled deals (see the module);
    ``beliefs``: the deals are weighted by the other seats' calls (see :func:`sample_deal`)."""
    rules = obs.rules
    proposal = heuristic.act(obs)
    why = heuristic.explain()
    legal = set(obs.legal)
    game = equity.for_seat(obs)
    bids = [(s, c) for s, c in obs.auction if c != PASS]
    standing = bids[-1] if bids else None
    # Near the end: an opponent's standing contract that would win the game if just made
    # is worth a look at outbidding it, whatever the hand.
    threat = (
        game is not None
        and standing is not None
        and obs.sides[standing[0]] != obs.sides[obs.seat]
        and game.outcome(standing[1], standing[0], _needed(standing[1]))[1]
    )
    if (is_bid(proposal) and not is_suit_bid(proposal) and proposal != MISERE) or not (
        threat or worth_simulating(heuristic, obs, proposal)
    ):
        # Open misère is bid only with no card that could be forced to win: keep it.
        return proposal, why
    strains = _strains_to_try(heuristic, obs, proposal)
    if threat and not strains:
        levels = heuristic.bid_levels(obs)
        strains = sorted(levels, key=lambda s: -levels[s])[:1]
    try_misere = MISERE in legal and (
        proposal == MISERE or misere_ok(obs.hand, rules, rules.pack.kitty_size + 1)
    )
    partner = _partner(rules, obs.seat)
    pass_totals: list[int] = []
    reads = auction_reads(obs)
    model = CallModel(obs, heuristic) if beliefs else None
    tricks: dict[int, list[int]] = {s: [] for s in strains}
    misere_tricks: list[int] = []
    pass_scores: list[float] = []
    if rules.players != 4:  # whole-hand solves cost more with five or six seats
        deals, max_nodes = counts.bid_effort(rules, deals, max_nodes)
    for _n in _within_budget(deals, max_nodes, MIN_DEALS):
        hands, kitty = sample_deal(obs, reads, rng, beliefs=model)
        full = obs.hand | kitty
        for strain in strains:
            contract = bid_action(6, strain)
            mine = full & ~heuristic_discards(heuristic, full, contract, rules)
            played = list(hands)
            played[obs.seat] = mine
            tricks[strain].append(play_out(rules, obs.dealer, obs.seat, contract, played))
        if try_misere:
            mine = full & ~heuristic_discards(heuristic, full, MISERE, rules)
            if mine & JOKERS_MASK:
                misere_tricks.append(10)
            else:
                played = list(hands)
                played[obs.seat] = mine
                misere_tricks.append(play_out(rules, obs.dealer, obs.seat, MISERE, played))
        if standing is not None and PASS in legal:
            seat, call = standing
            theirs = hands[seat] | kitty
            played = list(hands)
            played[seat] = theirs & ~heuristic_discards(heuristic, theirs, call, rules)
            total = play_out(rules, obs.dealer, seat, call, played)
            pass_totals.append(total)
            score = shaded_score(call, total, rules)
            friends = (
                (obs.seat, partner) if rules.players == 4 else counts.friends_of(rules, obs.seat)
            )
            if rules.players in counts.SOLO_COUNTS and seat != obs.seat:
                score = -counts.solo_shaded(call, total, rules, declarer=False)
            pass_scores.append(score if seat in friends else -score)
    count = len(next(iter(tricks.values()))) if tricks else len(misere_tricks)
    if not count:
        return proposal, why
    options: list[tuple[float, Action]] = []
    if PASS in legal:
        options.append((sum(pass_scores) / count if pass_scores else 0.0, PASS))
    # The counts players trust: no 10 without the joker, no 9 without the joker or a bower
    # (double dummy finds the missing top trumps where they do least harm).
    levels = heuristic.bid_levels(obs)
    proposed = bid_tricks(proposal)
    fitted = fitted_counts(rules)
    for strain in strains:
        # Double dummy finds every card: it bids too high. The heuristic's count (four
        # players: fitted, contracts made 83%) bounds the level, BID_STRETCH above it.
        fit = levels.get(strain, 0.0) + BID_STRETCH
        top = min(
            heuristic.level_for(99.0, obs.hand, strain),
            max(proposed, heuristic.level_for(fit, obs.hand, strain, 0.0, fitted)),
        )
        for level in range(6, top + 1):
            action = bid_action(level, strain)
            if action not in legal:
                continue
            options.append(
                (_mean([shaded_score(action, t, rules) for t in tricks[strain]]), action)
            )
    if try_misere and misere_tricks:
        options.append((_mean([shaded_score(MISERE, t, rules) for t in misere_tricks]), MISERE))
    if not options:
        return proposal, why
    if game is not None:
        by_game = _game_options(
            game, obs, options, tricks, misere_tricks, standing, pass_totals, threat
        )
        if by_game is not None:
            value, best = by_game
            if best == PASS:
                text = (
                    f"passing: {100 * value:.0f}% to win the game, better than any bid "
                    f"over {count} deals"
                )
            else:
                text = (
                    f"bidding {say(best)}: {100 * value:.0f}% to win the game over "
                    f"{count} solved deals"
                )
            return best, text
    value, best = max(options, key=lambda o: (o[0], _cheaper_first(o[1], rules)))
    if best == PASS:
        text = f"passing: {value:+.0f} points expected, better than any bid over {count} deals"
    else:
        text = f"bidding {say(best)}: {value:+.0f} points expected over {count} solved deals"
    return best, text


def _cheaper_first(call: Action, rules: Rules) -> int:
    """The tie-break between calls of the same value: the cheaper call (a lower bid leaves
    room to stop), passing first."""
    return 1 if call == PASS else -bid_rank(call, rules)


def _needed(contract: Action) -> int:
    """The tricks that just make ``contract`` (none in misère, five in hi/lo)."""
    return HI_LO_TRICKS if contract == HI_LO else bid_tricks(contract)


def shaded_chance(
    game: equity.Equity, contract: Action, contractor: int, tricks: int, declarer_shade: bool = True
) -> tuple[float, bool]:
    """The chance to win the game after ``contractor``'s side takes ``tricks`` (shaded
    as :func:`shaded_score` shades the count), and whether the game can end."""
    chance, ends = game.outcome(contract, contractor, tricks)
    other, weight = shade_step(game.rules, contract, tricks)
    if not declarer_shade or not weight:
        return chance, ends
    near, ends_near = game.outcome(contract, contractor, other)
    return (1 - weight) * chance + weight * near, ends or ends_near


def _game_options(
    game: equity.Equity,
    obs: Observation,
    options: Sequence[tuple[float, Action]],
    tricks: dict[int, list[int]],
    misere_tricks: Sequence[int],
    standing: tuple[int, Action] | None,
    pass_totals: Sequence[int],
    threat: bool,
) -> tuple[float, Action] | None:
    """The call with the best mean chance to win the game (:mod:`fivehundred.bots.equity`)
    over the solved deals, when some call's outcome on some deal ends the game; None
    otherwise (the points decide). Against an opponent's contract that would win the game
    (``threat``) every level of the strains solved is a candidate: outbidding it is worth
    a set (defenders' points stop at 490)."""
    legal = set(obs.legal)
    values: list[tuple[float, Action]] = []
    can_end = False

    def mean(contract: Action, contractor: int, totals: Sequence[int]) -> float:
        nonlocal can_end
        got = 0.0
        for t in totals:
            chance, ends = shaded_chance(game, contract, contractor, t)
            got += chance
            can_end = can_end or ends
        return got / len(totals)

    candidates = [a for _, a in options]
    for strain in tricks if threat else ():
        for level in range(6, 11):
            action = bid_action(level, strain)
            if action in legal and action not in candidates:
                candidates.append(action)
    for action in candidates:
        if action == PASS:
            if standing is None or not pass_totals:
                values.append((game.now(), PASS))
            else:
                values.append((mean(standing[1], standing[0], pass_totals), PASS))
        elif not is_suit_bid(action):
            values.append((mean(action, obs.seat, misere_tricks), action))
        else:
            values.append((mean(action, obs.seat, tricks[bid_strain(action)]), action))
    if not can_end or not values:
        return None
    return max(values, key=lambda o: (round(o[0], 6), _cheaper_first(o[1], obs.rules)))


# ----------------------------------------------------------------------------- discarding
def discard_candidates(
    heuristic: HeuristicPlayer, hand: CardMask, contract: Action, rules: Rules
) -> list[CardMask]:
    """A few sensible discards: the heuristic's plan, voiding each short side suit, and
    the lowest side cards."""
    count = rules.pack.kitty_size
    plan = heuristic_discards(heuristic, hand, contract, rules)
    out = [plan]
    if not is_suit_bid(contract):
        return out
    strain = bid_strain(contract)
    ctx = context_for(strain, False, (-1, -1))
    trumps = hand & ctx.follow_masks[strain] if strain != NO_TRUMPS else 0
    side = hand & ~trumps & ~JOKERS_MASK
    power = ctx.power

    def lowest(mask: CardMask, n: int) -> CardMask:
        cards = sorted(iter_cards(mask), key=lambda c: power[c])[:n]
        return sum(1 << c for c in cards)

    def suit_cards(suit: int) -> CardMask:
        return side & ctx.follow_masks[suit]

    # Lowest side cards overall.
    if side.bit_count() >= count:
        out.append(lowest(side, count))
    for suit in SUITS:
        cards = suit_cards(suit)
        n = cards.bit_count()
        if not cards or n > count:
            continue
        rest = side & ~cards
        extra = count - n
        if rest.bit_count() < extra:
            continue
        out.append(cards | lowest(rest, extra))
    unique: list[CardMask] = []
    for mask in out:
        if mask.bit_count() == count and mask & ~hand == 0 and mask not in unique:
            unique.append(mask)
    return unique[:5]


def discard_by_simulation(
    obs: Observation,
    heuristic: HeuristicPlayer,
    deals: int,
    rng: random.Random,
    max_nodes: int | None = None,
    beliefs: bool = False,
) -> tuple[CardMask, str]:
    """The discard (a mask of ``kitty_size`` cards) with the best mean score on sampled
    deals of the other hands, each solved double-dummy from the opening lead (no new deal
    once ``max_nodes`` positions are searched, after at least two deals; ``beliefs``: as
    in :func:`bid_by_simulation`)."""
    rules = obs.rules
    contract = obs.contract
    candidates = discard_candidates(heuristic, obs.hand, contract, rules)
    if len(candidates) == 1:
        return candidates[0], "the heuristic's discard (no other sensible one)"
    reads = auction_reads(obs)
    model = CallModel(obs, heuristic) if beliefs else None
    totals = [0.0] * len(candidates)
    if rules.players != 4:
        deals, max_nodes = counts.bid_effort(rules, deals, max_nodes)
    solved = 0
    for _n in _within_budget(deals, max_nodes, 2):
        solved += 1
        hands, _ = sample_deal(obs, reads, rng, beliefs=model)
        for i, mask in enumerate(candidates):
            played = list(hands)
            played[obs.seat] = obs.hand & ~mask
            total = play_out(rules, obs.dealer, obs.seat, contract, played)
            # A trick more counts a little even when the score is the same.
            totals[i] += contract_score(contract, total, rules) + total
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    cards = ", ".join(say(c, rules.joker_names) for c in iter_cards(candidates[best]))
    return candidates[best], (
        f"discarding {cards}: best of {len(candidates)} discards over {solved} solved deals "
        f"(mean {totals[best] / max(solved, 1):+.0f})"
    )


__all__ = [
    "Read",
    "auction_reads",
    "bid_by_simulation",
    "contract_score",
    "discard_by_simulation",
    "discard_candidates",
    "sample_deal",
]
