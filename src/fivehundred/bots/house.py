"""The bots' decisions for the house rules (RULES.md §10, R-HOUSE), shared by ``heuristic``
and ``pimc``: when to bid hi/lo, double misère, Shields double and patastrophe, when to call
slam, and how to play hi/lo (exactly five tricks), which neither the heuristic's suit play
nor the solver's trick-maximising search understands.

:func:`house_bid` may replace a bid the player chose; :func:`house_action` answers the
decisions of a hi/lo hand (discards and play) and returns None for everything else.
"""

from __future__ import annotations

import random
from dataclasses import replace

from fivehundred.actions import (
    BID_BASE,
    CLAIM,
    DOUBLE_MISERE,
    DRAW_KEEP,
    DRAW_THROW,
    HI_LO,
    MISERE,
    NO_SLAM,
    OPEN_MISERE,
    PASS,
    PATASTROPHE,
    SHIELDS_DOUBLE,
    SLAM,
    Action,
    action_card,
    action_text,
    bid_action,
    bid_strain,
    is_suit_bid,
)
from fivehundred.auction import INKLE_END, bid_order
from fivehundred.cards import (
    JOKERS_MASK,
    NO_TRUMPS,
    RANK_10,
    RANK_JACK,
    SUIT_MASKS,
    SUITS,
    Card,
    CardMask,
    is_joker,
    iter_cards,
    rank_of,
)
from fivehundred.observation import Observation
from fivehundred.play import LED_SUIT_BONUS, PlayContext, make_context, trick_winner_index
from fivehundred.rules import Rules
from fivehundred.scoring import HI_LO_TRICKS, side_of_seats

STRAIN_WORDS = ("spades", "clubs", "diamonds", "hearts", "no trumps")
_POINTS = {15: 4, 14: 3, 13: 2, RANK_JACK: 1}  # A K Q J


def high_card_points(hand: CardMask) -> int:
    """A K Q J = 4 3 2 1, a joker 5."""
    points = 5 * (hand & JOKERS_MASK).bit_count()
    return points + sum(_POINTS.get(rank_of(c), 0) for c in iter_cards(hand & ~JOKERS_MASK))


def is_balanced(hand: CardMask) -> bool:
    """No suit longer than four nor shorter than two."""
    lengths = [(hand & SUIT_MASKS[s]).bit_count() for s in SUITS]
    return max(lengths) <= 4 and min(lengths) >= 2


def hi_lo_hand(hand: CardMask) -> bool:
    """A hand for hi/lo: balanced and strong (16 high-card points or more), with four top
    winners or more to take the tricks when it chooses and at most one middling card that
    wins or loses as the others' cards fall. Alone against two, exactly five is hard: with
    the sampled search of :func:`hi_lo_search` on both sides about two in five of these
    hands make it (16 of 40; with the first rules of play a quarter), and no wider class
    tried does better (balanced hands of 16 points or more: 9 of 30), so the bid stays
    rare."""
    return (
        is_balanced(hand)
        and high_card_points(hand) >= 16
        and top_winners(hand) >= 4
        and middle_cards(hand) <= 1
    )


def top_winners(hand: CardMask) -> int:
    """Cards at the head of their suit in no trumps (A, A-K, A-K-Q …; jokers too): the
    tricks the hand wins when it chooses."""
    count = (hand & JOKERS_MASK).bit_count()
    for suit in SUITS:
        top = 15
        for rank in sorted((rank_of(c) for c in iter_cards(hand & SUIT_MASKS[suit])), reverse=True):
            if rank != top:
                break
            count += 1
            top -= 1
    return count


def middle_cards(hand: CardMask) -> int:
    """Cards from the 10 to the king that are not top winners: they win or lose as the
    others' cards fall, which an exact count of five cannot afford."""
    count = 0
    for suit in SUITS:
        top = 15
        for rank in sorted((rank_of(c) for c in iter_cards(hand & SUIT_MASKS[suit])), reverse=True):
            if rank == top:
                top -= 1
            elif rank >= 10:
                count += 1
    return count


def misere_dangers(hand: CardMask) -> int:
    """Cards that may be forced to win a trick in misère: the jokers and every card above
    the 10 (a rough count: enough to tell a low hand)."""
    return (hand & JOKERS_MASK).bit_count() + sum(
        1 for c in iter_cards(hand & ~JOKERS_MASK) if rank_of(c) >= RANK_JACK
    )


def _partner_calls(obs: Observation) -> list[Action]:
    sides = side_of_seats(obs.rules)
    return [
        call for seat, call in obs.auction if seat != obs.seat and sides[seat] == sides[obs.seat]
    ]


def house_bid(obs: Observation, chosen: Action) -> tuple[Action, str] | None:
    """A house contract instead of ``chosen`` when the hand suits one and it is legal and
    outranks what the player would bid; None to keep ``chosen``."""
    legal = obs.legal
    rules = obs.rules

    def better(call: Action) -> bool:
        return call in legal and (
            chosen == PASS or bid_order(call, rules) > bid_order(chosen, rules)
        )

    hand = obs.hand
    partner = _partner_calls(obs)
    bids = [(seat, call) for seat, call in obs.auction if call != PASS]
    sides = side_of_seats(rules)
    # Partner's misère still standing is left alone: alone, with the kitty, it is made
    # nine times in ten; a double misère over it loses partner the kitty and is made about
    # a third of the time (heuristic play-outs). Over an opponent's higher bid, double
    # misère is the side's low contract.
    outbid = bool(bids) and sides[bids[-1][0]] != sides[obs.seat]
    low_partner = outbid and any(call in (MISERE, OPEN_MISERE) for call in partner)
    dangers = misere_dangers(hand)
    if low_partner and OPEN_MISERE in partner and dangers == 0 and better(PATASTROPHE):
        return PATASTROPHE, "patastrophe: partner bid open misère and this hand is as low"
    if low_partner and dangers == 0 and better(SHIELDS_DOUBLE):
        return SHIELDS_DOUBLE, "Shields double: two low hands, this one low enough to show"
    if low_partner and dangers <= 1 and better(DOUBLE_MISERE):
        return DOUBLE_MISERE, "double misère: partner bid misère, outbid, and this hand is low too"
    low_bid = chosen == PASS or BID_BASE <= chosen < BID_BASE + 5  # pass or a 6-level bid
    if low_bid and hi_lo_hand(hand) and better(HI_LO):
        return HI_LO, "hi/lo: a strong balanced hand, high cards to win five and low to stop"
    if rules.inkle:
        return inkle_bid(obs, chosen)
    if _dead_card_fit(rules) is not None:
        return dead_cards_bid(obs, chosen)
    return None


#: The contractor's tricks in the games with cards out of play (R-PLAYERS): about
#: ``a + b ×`` the heuristic's count of the hand alone in its best strain, spread ``sd``
#: (least squares over 800 heuristic play-outs each of a 6-level contract in the first
#: bidder's best strain). The heuristic's own count expects three opponents, so it passes
#: most of these hands (in 300 hands: 72 % thrown in with two players and a dead hand, 83 %
#: with open eight, 54 % with three players and a dead hand), where one or two defenders
#: with ten cards each let a contractor with the kitty make six two times in three.
DEAD_CARD_FITS = {
    (2, "dead_hand"): (4.97, 0.66, 1.58),
    (2, "open_eight"): (3.62, 0.82, 1.42),
    (3, "dead_hand"): (2.40, 0.93, 1.64),
}
#: A level is bid when the fitted count clears it by this many spreads (made about two
#: times in three).
DEAD_CARD_MARGIN = 0.25


def _dead_card_fit(rules: Rules) -> tuple[float, float, float] | None:
    name = "dead_hand" if rules.dead_hand else "open_eight" if rules.open_eight else ""
    return DEAD_CARD_FITS.get((rules.players, name))


def dead_cards_bid(obs: Observation, chosen: Action) -> tuple[Action, str] | None:
    """R-PLAYERS dead_hand, open_eight: a suit or no-trump bid from the fitted count of
    :data:`DEAD_CARD_FITS` when it outranks ``chosen``; None keeps ``chosen``."""
    from fivehundred.bots.heuristic import hand_tricks

    fit = _dead_card_fit(obs.rules)
    if fit is None or (chosen != PASS and not is_suit_bid(chosen)):
        return None
    a, b, spread = fit
    rules = obs.rules
    hand = obs.hand
    legal = set(obs.legal)
    options: list[tuple[int, int, Action, float]] = []
    for strain in (*SUITS, NO_TRUMPS):
        if strain != NO_TRUMPS:
            trumps = hand & make_context(strain).follow_masks[strain]
            if trumps.bit_count() < 3:
                continue
        elif not hand & JOKERS_MASK:
            continue  # no trumps wants the joker when the others' cards are unknown
        count = a + b * hand_tricks(hand, strain, rules)
        level = max((t for t in range(6, 11) if count >= t + DEAD_CARD_MARGIN * spread), default=0)
        if level >= 9 and not hand & JOKERS_MASK:
            level = 8
        # the cheapest bid in the strain up to that level that is legal now
        bid = next(
            (bid_action(t, strain) for t in range(6, level + 1) if bid_action(t, strain) in legal),
            -1,
        )
        if bid >= 0:
            options.append((level, strain, bid, count))
    if not options:
        return None
    level, strain, bid, count = max(options)
    if chosen != PASS and bid_order(bid, rules) <= bid_order(chosen, rules):
        return None
    return bid, (
        f"{action_text(bid)}: about {count:.1f} tricks against "
        f"{'one defender' if rules.players == 2 else 'two defenders'} with the kitty"
    )


#: Tricks a partner's inkle adds to our side's fitted count in the inkled strain: the
#: inkler's count is at least a 6-level bid's, not a random hand's (fitted over 1,200
#: heuristic play-outs of 7-level contracts after a heuristic inkle: tricks ≈ 1.5 + 0.94 ×
#: the responder's own count, spread 1.2; see bench/bench_house.py for the bids it gives).
INKLE_PARTNER = 1.2
#: The count a 7-level bid needs when the standing call is only an inkle (or nothing): the
#: alternative is a throw-in worth nothing to either side, so a 7 that is made more often
#: than not is worth bidding (the usual margin is 0.9, for a six-in-seven chance). Tried
#: over 600 heuristic hands: lower thresholds add 7s that are made less than half the time.
INKLE_SEVEN = 6.6
#: The same for a 7 from one's own count (the heuristic's, partner and kitty included),
#: without partner's inkle in the strain.
THROWN_IN_SEVEN = 6.8


def inkle_bid(obs: Observation, chosen: Action) -> tuple[Action, str] | None:
    """R-HOUSE inkle (American auction): a 6-level bid is only a signal, so a hand that
    would bid six either inkles (the first two bidders) or bids seven. The partner of an
    inkler bids a real 7-level contract in the inkled suit when the side can make it (the
    inkle promises cards of that suit, :data:`INKLE_PARTNER`), and any later bidder bids
    seven rather than let the hand be thrown in when seven is likely enough. None keeps
    ``chosen``."""
    from fivehundred.bots.heuristic import HeuristicPlayer, side_estimate, side_estimate_nt

    rules = obs.rules
    if chosen != PASS and not BID_BASE <= chosen < INKLE_END:
        return None  # a real contract already
    if any(call != PASS and not BID_BASE <= call < INKLE_END for _, call in obs.auction):
        return None  # a real contract stands: the ordinary competition
    sevens = [a for a in obs.legal if INKLE_END <= a < INKLE_END + 5]
    if not sevens or any(BID_BASE <= a < INKLE_END for a in obs.legal):
        return None  # no seven to bid, or this seat may still inkle (its choice stands)
    hand = obs.hand
    options: list[tuple[float, Action, str]] = []
    for call in _partner_calls(obs):
        if not BID_BASE <= call < INKLE_END:
            continue
        strain = bid_strain(call)
        own = (
            side_estimate_nt(hand, rules)
            if strain == NO_TRUMPS
            else side_estimate(hand, strain, rules)
        )
        count = own + INKLE_PARTNER
        seven = bid_action(7, strain)
        if count >= INKLE_SEVEN and seven in sevens:
            options.append(
                (
                    count - INKLE_SEVEN,
                    seven,
                    f"{action_text(seven)}: partner's inkle shows {STRAIN_WORDS[strain]}, "
                    f"about {count:.1f} tricks together",
                )
            )
    for strain, count in HeuristicPlayer(0).bid_levels(obs).items():
        seven = bid_action(7, strain)
        if count >= THROWN_IN_SEVEN and seven in sevens:
            options.append(
                (
                    count - THROWN_IN_SEVEN,
                    seven,
                    f"{action_text(seven)}: about {count:.1f} tricks, better than "
                    "a hand thrown in on an inkle",
                )
            )
    if not options:
        return None
    _, action, why = max(options, key=lambda t: (t[0], t[1]))
    return action, why


def _context(obs: Observation) -> PlayContext:
    return make_context(NO_TRUMPS, False, obs.joker_suits, obs.rules.j5_no_trumps)


def _wins_now(obs: Observation, ctx: PlayContext, action: Action) -> bool:
    """Whether ``action`` would be winning the trick so far (later players aside)."""
    cards = [action_card(a) for _, a in obs.trick] + [action_card(action)]
    if not obs.trick:
        return True
    return trick_winner_index(cards, obs.led_suit, ctx) == len(cards) - 1


def _strength(ctx: PlayContext, action: Action) -> int:
    card = action_card(action)
    power = ctx.power[card]
    return power if power >= LED_SUIT_BONUS else power + LED_SUIT_BONUS // 2


def sure_slam(obs: Observation) -> bool:
    """R-HOUSE slam_call: whether the contractor's ten cards (after the kitty) win all ten
    tricks alone whatever the unseen cards: the trumps out are no more than our trumps
    above all of them (leading those draws every one; in no trumps a joker out cannot be
    drawn, so none may be out), and every other card is the highest left of its suit.
    The partner's passed card can only add to this (the extra discard can be that card).
    When the defence leads first (``eldest_leads``) no trump may be out either."""
    trump = obs.trump if 0 <= obs.trump < NO_TRUMPS else NO_TRUMPS
    ctx = make_context(trump, False, obs.joker_suits, obs.rules.j5_no_trumps)
    unseen = obs.unseen
    out = unseen & ctx.trump_mask
    if out and (trump == NO_TRUMPS or obs.rules.eldest_leads):
        return False
    out_power = max((ctx.power[c] for c in iter_cards(out)), default=-1)
    mine = obs.hand & ctx.trump_mask
    top = sum(1 for c in iter_cards(mine) if ctx.power[c] > out_power)
    if out.bit_count() > top:
        return False
    for card in iter_cards(obs.hand & ~ctx.trump_mask):
        suit = ctx.effective_suit[card]
        if suit < 0:
            continue  # a free joker wins the trick it is played to
        above = unseen & ctx.follow_masks[suit]
        if any(ctx.power[c] > ctx.power[card] for c in iter_cards(above)):
            return False
    return True


def _slam_decision(obs: Observation) -> tuple[Action, str] | None:
    """R-HOUSE slam_call: call slam when ten tricks alone are sure, pass the partner's
    best card, make the extra discard."""
    if obs.phase == "slam":
        if sure_slam(obs):
            return (
                SLAM,
                "slam: ten sure tricks alone (top trumps draw theirs, the rest are winners)",
            )
        return NO_SLAM, "no slam: ten tricks alone are not sure"
    ctx = make_context(obs.trump if obs.trump >= 0 else NO_TRUMPS)
    if obs.phase == "slam_pass":
        best = max(obs.legal, key=lambda c: (ctx.power[c], c))
        return best, "slam: pass the contractor my strongest card"
    if obs.phase == "discard" and obs.seat == obs.contractor and obs.slam:
        trumps = ctx.trump_mask
        order = sorted(obs.legal, key=lambda c: (trumps >> c & 1, ctx.power[c], c))
        for card in order:  # the weakest card whose discard leaves ten sure tricks
            rest = replace(obs, hand=obs.hand & ~(1 << card), discards=obs.discards | 1 << card)
            if sure_slam(rest):
                return card, "slam: discard a card the ten sure tricks do not need"
        return order[0], "slam: discard the weakest card"
    return None


def sure_claim(obs: Observation) -> bool:
    """R-HOUSE claim: claim only when it is sure — no trump (in no trumps, no free joker)
    is out but ours, and every card we hold is the highest left of its suit, so leading
    them from the top wins every trick (the partner's unseen cards count as a threat)."""
    if CLAIM not in obs.legal:
        return False
    trump = obs.trump if obs.trump >= 0 else NO_TRUMPS
    ctx = make_context(trump, False, obs.joker_suits, obs.rules.j5_no_trumps)
    unseen = obs.unseen
    if unseen & ctx.trump_mask:
        return False
    for card in iter_cards(obs.hand):
        suit = ctx.effective_suit[card]
        if suit < 0:
            continue  # a free joker wins the trick it is led to
        if any(ctx.power[c] > ctx.power[card] for c in iter_cards(unseen & ctx.follow_masks[suit])):
            return False
    return True


def _table_decision(obs: Observation) -> tuple[Action, str]:
    """open_eight (R-PLAYERS): into the kitty goes the lowest face-up card (whoever wins
    the auction gets it); the defender takes the highest and discards the lowest."""

    def rank(card: Action) -> tuple[int, int]:
        return rank_of(card), card

    if obs.phase == "table_kitty":
        return min(obs.legal, key=rank), "open eight: the lowest face-up card to the kitty"
    if obs.phase == "table_take":
        return max(obs.legal, key=rank), "open eight: take the highest face-up card"
    return min(obs.legal, key=rank), "open eight: discard the lowest card"


def without_claim(obs: Observation) -> Observation:
    """The observation with ``claim`` taken out of the legal actions (the bots' own play
    chooses among cards; :func:`house_action` decides the claim)."""
    if CLAIM not in obs.legal:
        return obs
    return replace(obs, legal=tuple(a for a in obs.legal if a != CLAIM))


def house_action(obs: Observation) -> tuple[Action, str] | None:
    """The decisions the house rules add: the claim (R-HOUSE claim), the slam call
    (R-HOUSE slam_call), and a hi/lo hand (R-HOUSE hi_lo), where the contractor steers to
    exactly five tricks and the defenders away from five; None for everything else."""
    if not obs.legal:
        return None
    if obs.phase in ("table_kitty", "table_take", "table_discard"):
        return _table_decision(obs)
    if obs.phase == "draw" and obs.drawn >= 0:
        # draw_pack (R-PLAYERS): keep a high card (or a joker); otherwise take the next
        if is_joker(obs.drawn) or rank_of(obs.drawn) >= RANK_JACK:
            return DRAW_KEEP, "draw: keep a high card"
        return DRAW_THROW, "draw: throw a low card and keep the next"
    if sure_claim(obs):
        return CLAIM, "claim: every card left is a winner and no trump is out"
    obs = without_claim(obs)
    if obs.slam or obs.phase in ("slam", "slam_pass"):
        decision = _slam_decision(obs)
        if decision is not None:
            return decision
    if obs.contract != HI_LO:
        return None
    if obs.phase == "discard":
        return hi_lo_discard(obs.hand, obs.legal)
    if obs.phase != "play":
        return None
    ctx = _context(obs)
    searched = hi_lo_search(obs, ctx)
    if searched is not None:
        return searched
    won = obs.tricks_won[obs.contractor]
    if obs.seat == obs.contractor:
        want = won < HI_LO_TRICKS
        goal = "win" if want else "lose"
        why = f"hi/lo: {won} tricks won, play to {goal} this one"
    else:
        want = won < HI_LO_TRICKS  # keep the contractor short of five, or push past it
        why = (
            "hi/lo defence: win tricks to keep the contractor short of five"
            if want
            else "hi/lo defence: the contractor has five, give them a sixth"
        )
    winning = [a for a in obs.legal if _wins_now(obs, ctx, a)]
    losing = [a for a in obs.legal if a not in winning]
    if want:
        if not obs.trick:
            return max(obs.legal, key=lambda a: _strength(ctx, a)), why
        if winning:
            return min(winning, key=lambda a: _strength(ctx, a)), why
        return min(obs.legal, key=lambda a: _strength(ctx, a)), why
    if not obs.trick:
        return min(obs.legal, key=lambda a: _strength(ctx, a)), why
    if losing:
        return max(losing, key=lambda a: _strength(ctx, a)), why
    return max(obs.legal, key=lambda a: _strength(ctx, a)), why  # must win: shed the top


#: Sampled deals per hi/lo card decision (two double-dummy searches each).
HI_LO_SAMPLES = 12
#: The search plays when this many tricks or fewer are left (from the first trick; fewer
#: would leave the first tricks to the rules of :func:`house_action`).
HI_LO_SEARCH_TRICKS = 10


def _top_cards(hand: CardMask) -> CardMask:
    """The cards of :func:`top_winners`."""
    tops = hand & JOKERS_MASK
    for suit in SUITS:
        top = 15
        for card in sorted(iter_cards(hand & SUIT_MASKS[suit]), key=rank_of, reverse=True):
            if rank_of(card) != top:
                break
            tops |= 1 << card
            top -= 1
    return tops


def hi_lo_discard(hand: CardMask, legal: tuple[Action, ...]) -> tuple[Action, str]:
    """R-HOUSE hi/lo discards: keep five top winners to win the tricks when the contractor
    chooses and low cards to lose the others; throw the middling cards first (they win or
    lose as the others' cards fall), the highest first, then top winners beyond five,
    then the highest low card."""
    tops = _top_cards(hand)
    spare_tops = max(0, tops.bit_count() - HI_LO_TRICKS)
    extra = sorted(iter_cards(tops & ~JOKERS_MASK), key=rank_of)[:spare_tops]

    def order(card: Action) -> tuple[int, int, int]:
        if not tops >> card & 1 and rank_of(card) >= RANK_10:
            return (0, -rank_of(card), card)  # a middling card
        if card in extra:
            return (1, rank_of(card), card)
        if tops >> card & 1:
            return (3, rank_of(card), card)
        return (2, -rank_of(card), card)

    card = min(legal, key=order)
    kind = order(card)[0]
    why = (
        "a middling card, which wins or loses as the others' cards fall",
        "a top winner beyond the five tricks wanted",
        "the highest low card",
        "a top winner",
    )[kind]
    return card, f"hi/lo: discard {why}"


def _sample_hidden(obs: Observation, ctx: PlayContext, rng: random.Random) -> list[CardMask] | None:
    """The active seats' hands, ours and the exposed ones as they are, the unseen cards
    dealt at random to the others (each void shown respected, the rest to the kitty or the
    discards); None when no such deal is found in a few tries."""
    hands = [0] * obs.rules.seats
    hands[obs.seat] = obs.hand
    known = dict(obs.exposed)
    for seat, mask in known.items():
        hands[seat] = mask
    active = obs.active or tuple(range(obs.rules.seats))
    fill = [s for s in active if s != obs.seat and s not in known]
    need = {s: obs.hand_sizes[s] for s in fill}
    unseen = list(iter_cards(obs.unseen))
    pile = len(unseen) - sum(need.values())
    if pile < 0:
        return None
    forbidden = dict.fromkeys(fill, 0)
    for s in fill:
        for suit in SUITS:
            if obs.voids[s] >> suit & 1:
                forbidden[s] |= ctx.follow_masks[suit]
    for _ in range(20):
        rng.shuffle(unseen)
        unseen.sort(key=lambda c: sum(forbidden[s] >> c & 1 for s in fill), reverse=True)
        room = dict(need)
        rest = pile
        out = dict.fromkeys(fill, 0)
        for card in unseen:
            options = [s for s in fill if room[s] and not forbidden[s] >> card & 1]
            total = sum(room[s] for s in options) + rest
            if total <= 0:
                break
            pick = rng.randrange(total)
            for s in options:
                if pick < room[s]:
                    out[s] |= 1 << card
                    room[s] -= 1
                    break
                pick -= room[s]
            else:
                rest -= 1
        if not any(room.values()):
            for s, mask in out.items():
                hands[s] = mask
            return hands
    return None


def _exact_values(
    obs: Observation, ctx: PlayContext, active: tuple[int, ...] | list[int], hands: list[CardMask]
) -> dict[Action, float] | None:
    """Per legal action, 1 when it is right in this deal (the contractor: it still forces
    exactly five; a defender: five can no longer be forced), else 0; None when
    :func:`exactly_five` cannot say."""
    order = tuple(sorted(active))
    contractor = obs.contractor
    trick = tuple(action_card(a) for _, a in obs.trick)
    won = obs.tricks_won[contractor]
    nxt = order[(order.index(obs.seat) + 1) % len(order)]
    out: dict[Action, float] = {}
    for action in obs.legal:
        card = action_card(action)
        rest = {s: hands[s] for s in order}
        rest[obs.seat] &= ~(1 << card)
        cards = (*trick, card)
        suit = obs.led_suit if trick else ctx.effective_suit[card]
        if len(cards) == len(order):
            leader = nxt  # the seat after the last to play led
            offset = trick_winner_index(list(cards), suit, ctx)
            winner = order[(order.index(leader) + offset) % len(order)]
            result = exactly_five(
                ctx, order, contractor, rest, winner, (), -1, won + (winner == contractor)
            )
        else:
            result = exactly_five(ctx, order, contractor, rest, nxt, cards, suit, won)
        if result is None:
            return None
        out[action] = float(result == (obs.seat == contractor))
    return out


def hi_lo_search(obs: Observation, ctx: PlayContext) -> tuple[Action, str] | None:
    """R-HOUSE hi/lo card play by sampled double-dummy search: for each legal card and
    each of :data:`HI_LO_SAMPLES` deals of the unseen cards, the most tricks the
    contractor can force and the fewest it can be held to (two trick-maximising searches,
    one for each side). The contractor plays the card after which exactly five lies
    between the two in most deals (five still in its hands both ways; once it has five,
    the card after which it can lose every trick left), the wider the room the better; a
    defender the card after which five is out of the contractor's reach (too few or too
    many) in most deals, the narrower the room the better. None without the solver (the
    rules of :func:`house_action` play) or before :data:`HI_LO_SEARCH_TRICKS`."""
    size = obs.rules.pack.hand_size
    if size - len(obs.tricks) > HI_LO_SEARCH_TRICKS:
        return None
    try:
        from fivehundred.solver import Position, values_position
    except ImportError:  # pragma: no cover - the solver is an optional extra
        return None
    from fivehundred.rules import JOKER_LEAD_NOT_RENOUNCED

    rng = random.Random(f"hi_lo/{obs.seat}/{obs.hand}/{obs.unseen}/{len(obs.tricks)}/{obs.trick}")
    active = obs.active or tuple(range(obs.rules.seats))
    contractor = obs.contractor
    won = obs.tricks_won[contractor]
    trick = [(seat, action_card(a)) for seat, a in obs.trick]
    renounced = obs.rules.joker_lead == JOKER_LEAD_NOT_RENOUNCED
    # The fewest tricks the contractor can be held to: the misère search, in which the
    # contractor minimises (its tables differ from no trumps' only for a void holder of a
    # free joker, who must play it, and the j5 jacks: an approximation).
    low_ctx = make_context(NO_TRUMPS, True, obs.joker_suits, obs.rules.j5_no_trumps)
    scores = dict.fromkeys(obs.legal, 0.0)
    solved = 0
    exact = obs.hand_sizes[obs.seat] <= HI_LO_EXACT_TRICKS
    for _ in range(HI_LO_SAMPLES):
        hands = _sample_hidden(obs, ctx, rng)
        if hands is None:
            continue
        if exact:
            outcome = _exact_values(obs, ctx, active, hands)
            if outcome is not None:
                solved += 1
                for action, value in outcome.items():
                    scores[action] += value
                continue
        facts = (hands, obs.seat, trick, obs.led_suit, obs.suits_led, obs.voids, renounced)
        most = values_position(Position.build(ctx, active, (contractor,), *facts, won))
        fewest = values_position(Position.build(low_ctx, active, (contractor,), *facts, won))
        if not set(scores) <= set(most) or not set(scores) <= set(fewest):
            continue
        solved += 1
        for action in scores:
            high, low = most[action], fewest[action]
            reach = low <= HI_LO_TRICKS <= high
            room = min(high - HI_LO_TRICKS, HI_LO_TRICKS - low)
            if obs.seat == contractor:
                scores[action] += reach + 0.05 * room
            else:
                scores[action] += (not reach) - 0.05 * room
    if not solved:
        return None
    best = max(obs.legal, key=lambda a: (scores[a], -a))
    if obs.seat == contractor:
        why = (
            f"hi/lo: after this card exactly five tricks are still within reach in "
            f"{scores[best] / solved:.0%} of {solved} sampled deals"
        )
    else:
        why = (
            f"hi/lo defence: after this card five tricks are beyond the contractor in "
            f"{max(scores[best], 0) / solved:.0%} of {solved} sampled deals"
        )
    return best, why


#: The exact search of exactly five (:func:`exactly_five`) takes over when this many
#: tricks or fewer are left.
HI_LO_EXACT_TRICKS = 4


def exactly_five(
    ctx: PlayContext,
    order: tuple[int, ...],
    contractor: int,
    hands: dict[int, CardMask],
    to_move: int,
    trick: tuple[Card, ...],
    led_suit: int,
    won: int,
) -> bool | None:
    """R-HOUSE hi/lo, double dummy: whether the contractor can end with exactly
    :data:`~fivehundred.scoring.HI_LO_TRICKS` tricks whatever the defenders do, from a
    position of the seats ``order`` (in turn) with ``hands``, ``trick`` the cards played
    to the trick in progress since the lead, and ``won`` the contractor's tricks. A
    plain minimax over every card (for endings: it is exponential in the tricks left);
    None when a free joker is in play (its lead names a suit: not modelled here)."""
    if any(ctx.free_jokers >> c & 1 for c in trick) or any(
        hand & ctx.free_jokers for hand in hands.values()
    ):
        return None
    memo: dict[tuple[object, ...], bool] = {}
    count = len(order)

    def made(
        hands: tuple[CardMask, ...], mover: int, trick: tuple[Card, ...], led: int, won: int
    ) -> bool:
        if won > HI_LO_TRICKS:
            return False
        left = hands[mover].bit_count()
        if not left and not trick:
            return won == HI_LO_TRICKS
        if won + left < HI_LO_TRICKS:
            return False
        key = (hands, mover, trick, won)
        if key in memo:
            return memo[key]
        seat = order[mover]
        mine = seat == contractor
        hand = hands[mover]
        follow = hand & ctx.follow_masks[led] if trick else 0
        result = not mine
        for card in iter_cards(follow or hand):
            rest = (*hands[:mover], hand & ~(1 << card), *hands[mover + 1 :])
            cards = (*trick, card)
            suit = led if trick else ctx.effective_suit[card]
            if len(cards) == count:
                leader = (mover + 1) % count  # the trick's leader
                winner = (leader + trick_winner_index(list(cards), suit, ctx)) % count
                value = made(rest, winner, (), -1, won + (order[winner] == contractor))
            else:
                value = made(rest, (mover + 1) % count, cards, suit, won)
            if value == mine:
                result = mine
                break
        memo[key] = result
        return result

    mover = order.index(to_move)
    return made(tuple(hands[s] for s in order), mover, trick, led_suit, won)
