"""The first rule-based player, ``heuristic:v1``, kept so that :mod:`fivehundred.bots.heuristic`
can be measured against it in the arena: the same player with the first version's bidding
(below) and play (:attr:`HeuristicPlayer.refined` off).

Bidding counts tricks (the joker and the bowers are sure trump tricks, outside aces and K-Q
count one, small trumps nearly a trick each in a long suit), counting partner for one trick
and the kitty for at most one; play keeps card memory (see :mod:`fivehundred.bots.memory`).
"""

from __future__ import annotations

from fivehundred.actions import (
    PASS,
    Action,
    bid_strain,
    bid_tricks,
    is_suit_bid,
)
from fivehundred.bots.base import say
from fivehundred.bots.heuristic import (
    STRAIN_NAMES,
    HeuristicPlayer,
    auction_help,
    friends_of,
    hand_tricks,
    nt_stoppers,
    side_suit_cards,
    side_tricks,
    small_trumps,
    trump_tricks,
)
from fivehundred.bots.house import house_action, without_claim
from fivehundred.bots.memory import bidding_context
from fivehundred.cards import JOKERS_MASK, NO_TRUMPS, SUITS, CardMask
from fivehundred.observation import Observation
from fivehundred.rules import Rules


def small_trump(n: int) -> float:
    """The first count of a small trump: nearly a trick in a long suit."""
    return 0.9 if n >= 5 else 0.5 if n == 4 else 0.25 if n == 3 else 0.0


def support_tricks(hand: CardMask, strain: int, rules: Rules) -> float:
    """What the hand adds to partner's contract in ``strain``: top trumps, outside winners
    and ruffs; partner's own length already counts the small trumps."""
    if strain == NO_TRUMPS:
        return hand_tricks(hand, strain, rules, small_trump)
    trumps = hand & bidding_context(strain).follow_masks[strain]
    n = trumps.bit_count()
    top = trump_tricks(hand & ~small_trumps(hand, strain, rules), strain, rules, small_trump)
    side = sum(side_tricks(hand, s, strain, rules) for s in SUITS if s != strain)
    shortness = sum(
        1
        for s in SUITS
        if s != strain and (hand & side_suit_cards(rules, s, strain)).bit_count() <= 1
    )
    return top + side + (0.5 * min(shortness, n - 1) if n >= 2 else 0.0) + 0.2 * n


#: The phases this player decides itself; the house rules add others.
V1_PHASES = ("auction", "discard", "nominate", "call", "play")


class HeuristicV1Player(HeuristicPlayer):
    """The first version of :class:`HeuristicPlayer`."""

    name = "heuristic:v1"
    refined = False
    lessons = False

    def act(self, observation: Observation) -> Action:
        obs = observation
        if not obs.legal or len(obs.legal) == 1 or house_action(obs) is not None:
            return super().act(obs)
        # The house rules' decisions (claims, slam calls, the draw pack, open eight, a
        # hi/lo hand) were not this player's: the house module answers them (above), and
        # the current heuristic any other phase this player does not know.
        obs = without_claim(obs)
        if obs.phase not in V1_PHASES:
            stand_in = HeuristicPlayer(self.seed)
            action = stand_in.act(obs)
            self._reason = stand_in.explain()
            return action
        if obs.phase != "auction":
            return super().act(obs)
        return self._answer(obs, *self.bid(obs))  # without the house rules' bids (house_bid)

    # ------------------------------------------------------------------ bidding
    def bid_levels(self, obs: Observation) -> dict[int, float]:
        """The first version's estimate of our side's tricks in each strain: the hand's
        first count, partner's help, the kitty; no trumps with enough suits stopped."""
        hand = obs.hand
        rules = obs.rules
        partner_help, opponent_strains = auction_help(obs)
        levels: dict[int, float] = {}
        for strain in (*SUITS, NO_TRUMPS):
            raw = hand_tricks(hand, strain, rules, small_trump)
            if strain == NO_TRUMPS:
                jokers = (hand & JOKERS_MASK).bit_count()
                stops = nt_stoppers(hand, rules)
                # No trumps needs every suit stopped; the joker covers one weak suit.
                if stops + jokers < 4 or stops < 3:
                    continue
            kitty = 1.0 if raw < 6.0 else 0.5
            estimate = raw + kitty + partner_help
            if strain in opponent_strains:
                estimate -= 1.0  # their trumps are long: our honours in it are worth less
            levels[strain] = estimate
        return levels

    def bid(self, obs: Observation) -> tuple[Action, str]:
        rules = obs.rules
        friends = friends_of(obs)
        bids = [(s, c) for s, c in obs.auction if c != PASS]
        high_seat, high = bids[-1] if bids else (-1, -1)
        partner_bid = next((c for s, c in reversed(bids) if s in friends and is_suit_bid(c)), -1)
        levels = self.bid_levels(obs)
        choices: list[tuple[int, Action, str]] = []
        for strain, estimate in levels.items():
            # Strong hands overestimate (the tricks overlap with partner's): shade high levels.
            level = int(estimate - 0.3 - max(0.0, estimate - 7.5) * 0.5)
            why = f"about {estimate:.1f} tricks in {STRAIN_NAMES[strain]} with partner and kitty"
            if partner_bid >= 0 and bid_strain(partner_bid) == strain:
                # Partner counted on us for about a trick already: raise only with more
                # than that (never blindly), and never raise a raise of our own bid.
                if any(
                    s == obs.seat and is_suit_bid(c) and bid_strain(c) == strain for s, c in bids
                ):
                    continue
                support = support_tricks(obs.hand, strain, rules)
                level = bid_tricks(partner_bid) + int(support - 1.5)
                why = (
                    f"raising partner's {say(partner_bid)}: {support:.1f} tricks of "
                    "support, more than the trick and a half partner counts on"
                )
            self._offer(choices, obs, strain, level, why, (high_seat, high), friends)
        return self._settle(obs, levels, choices, partner_bid)


__all__ = ["HeuristicV1Player"]
