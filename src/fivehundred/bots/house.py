"""The bots' decisions for the house rules (RULES.md §10, R-HOUSE), shared by ``heuristic``
and ``pimc``: when to bid hi/lo, double misère, Shields double and patastrophe, when to call
slam, and how to play hi/lo (exactly five tricks), which neither the heuristic's suit play
nor the solver's trick-maximising search understands.

:func:`house_bid` may replace a bid the player chose; :func:`house_action` answers the
decisions of a hi/lo hand (discards and play) and returns None for everything else.
"""

from __future__ import annotations

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
)
from fivehundred.auction import bid_order
from fivehundred.cards import (
    JOKERS_MASK,
    NO_TRUMPS,
    RANK_JACK,
    SUIT_MASKS,
    SUITS,
    CardMask,
    iter_cards,
    rank_of,
)
from fivehundred.observation import Observation
from fivehundred.play import LED_SUIT_BONUS, PlayContext, make_context, trick_winner_index
from fivehundred.scoring import HI_LO_TRICKS, side_of_seats

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
    """A hand for hi/lo: balanced and strong (16 high-card points or more): alone against
    two, five tricks need the high cards, and the balance gives the low ones to lose with.
    (Measured with the heuristic's play: about a third of such hands make exactly five,
    against a tenth of the others.)"""
    return is_balanced(hand) and high_card_points(hand) >= 16


def misere_dangers(hand: CardMask) -> int:
    """Cards that may be forced to win a trick in misère: the jokers and every card above
    the 10 (a rough count: enough to tell a low hand)."""
    return (hand & JOKERS_MASK).bit_count() + sum(
        1 for c in iter_cards(hand & ~JOKERS_MASK) if rank_of(c) >= RANK_JACK
    )


def _partner_calls(obs: Observation) -> list[Action]:
    sides = side_of_seats(obs.rules)
    return [call for seat, call in obs.auction
            if seat != obs.seat and sides[seat] == sides[obs.seat]]  # fmt: skip


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
    low_partner = any(call in (MISERE, OPEN_MISERE) for call in partner)
    dangers = misere_dangers(hand)
    if low_partner and OPEN_MISERE in partner and dangers == 0 and better(PATASTROPHE):
        return PATASTROPHE, "patastrophe: partner bid open misère and this hand is as low"
    if low_partner and dangers == 0 and better(SHIELDS_DOUBLE):
        return SHIELDS_DOUBLE, "Shields double: two low hands, this one low enough to show"
    if low_partner and dangers <= 1 and better(DOUBLE_MISERE):
        return DOUBLE_MISERE, "double misère: partner bid misère and this hand is low too"
    low_bid = chosen == PASS or BID_BASE <= chosen < BID_BASE + 5  # pass or a 6-level bid
    if low_bid and hi_lo_hand(hand) and better(HI_LO):
        return HI_LO, "hi/lo: a strong balanced hand, high cards to win five and low to stop"
    return None


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


def _slam_decision(obs: Observation) -> tuple[Action, str] | None:
    """R-HOUSE slam_call: call slam, pass the partner's best card, make the extra discard."""
    if obs.phase == "slam":
        trump = obs.trump
        if 0 <= trump < NO_TRUMPS:
            ctx = make_context(trump)
            trumps = obs.hand & ctx.follow_masks[trump]
            side = obs.hand & ~trumps
            top = sorted((ctx.power[c] for c in iter_cards(trumps)), reverse=True)
            if (trumps.bit_count() >= 6 and top[:2] == [300, 250]
                    and all(rank_of(c) == 15 for c in iter_cards(side))):  # fmt: skip
                return SLAM, "slam: the top trumps and only aces outside"
        return NO_SLAM, "no slam: ten tricks alone are not sure"
    ctx = make_context(obs.trump if obs.trump >= 0 else NO_TRUMPS)
    if obs.phase == "slam_pass":
        best = max(obs.legal, key=lambda c: (ctx.power[c], c))
        return best, "slam: pass the contractor my strongest card"
    if obs.phase == "discard" and obs.seat == obs.contractor and obs.slam:
        trumps = ctx.trump_mask
        return min(obs.legal, key=lambda c: (trumps >> c & 1, ctx.power[c], c)), (
            "slam: discard the weakest card"
        )
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
        if obs.drawn >= 64 or rank_of(obs.drawn) >= RANK_JACK:
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
        # Keep the high cards: they decide when the contractor wins a trick.
        low = min(obs.legal, key=lambda c: (rank_of(c), c))
        return low, "hi/lo: discard a low card, keep the high ones for control"
    if obs.phase != "play":
        return None
    ctx = _context(obs)
    won = obs.tricks_won[obs.contractor]
    if obs.seat == obs.contractor:
        want = won < HI_LO_TRICKS
        goal = "win" if want else "lose"
        why = f"hi/lo: {won} tricks won, play to {goal} this one"
    else:
        want = won < HI_LO_TRICKS  # keep the contractor short of five, or push past it
        why = ("hi/lo defence: win tricks to keep the contractor short of five" if want
               else "hi/lo defence: the contractor has five, give them a sixth")  # fmt: skip
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
