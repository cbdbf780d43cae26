"""A rule-based player that plays like a good club player (the strategy of RULES.md and the
seed texts).

Bidding counts tricks. With four players the count is fitted to played-out deals
(:data:`SUIT_FIT`, :data:`NT_FIT`: trump length, joker, bowers, trump honours, side aces and
kings, shortness; a passed partner takes a little off); with other counts the joker and the
bowers are sure trump tricks, outside aces and K-Q count one, small trumps about half a
trick in a long suit, plus a trick for partner and one for the kitty. Each level needs a
margin above the count (:data:`BID_MARGIN`); no 10 without the joker, no 9 without the
joker or a bower. A trump suit needs three trumps; no trumps needs stoppers (with the
joker, two stopped suits: the cheap 6NT). Partner's bid is raised only with trumps (two
trumps: one level at most) and more than the trick partner counted on. A bid that wins
the game is enough; against an opponent about to go out the count stretches a little.

In play it keeps card memory (cards played, voids shown, trumps out — all read from the
observation): the declarer draws trumps (the lowest of its top trumps first, forcing out a
higher one when the side has the length) and cashes winners, ruffs high in front of an
overruff; defenders play second hand low on a trump lead, lead the suits the declarer is
weak in or partner's suit, the top only of a real sequence; no-trump hands run their long
suits and keep the joker past trick one, and misère defenders lead low to squeeze the lone
declarer.
"""

from __future__ import annotations

from collections.abc import Callable

from fivehundred.actions import (
    CALL_BASE,
    GO_ALONE,
    MISERE,
    NO_NOMINATION,
    NOMINATE_BASE,
    OPEN_MISERE,
    PASS,
    Action,
    action_card,
    bid_action,
    bid_strain,
    bid_tricks,
    is_suit_bid,
    joker_lead_suit,
)
from fivehundred.auction import bid_rank
from fivehundred.bots.base import Player, say
from fivehundred.bots.house import house_action, house_bid, without_claim
from fivehundred.bots.memory import TableView, bidding_context, legal_cards
from fivehundred.cards import (
    JOKER,
    JOKERS_MASK,
    NO_TRUMPS,
    RANK_ACE,
    RANK_JACK,
    SUIT_MASKS,
    SUITS,
    Card,
    CardMask,
    JokerNames,
    iter_cards,
    make_card,
    rank_of,
    same_colour_suit,
    suit_of,
)
from fivehundred.observation import Observation
from fivehundred.rules import AMERICAN, Rules
from fivehundred.scoring import bid_value, side_of_seats
from fivehundred.words import card_label

STRAIN_NAMES = ("♠", "♣", "♦", "♥", "no trumps")
#: Value of each small trump (below the ace) by the number of trumps held.
SMALL_TRUMP = {0: 0.0, 1: 0.0, 2: 0.0, 3: 0.25, 4: 0.4, 5: 0.55, 6: 0.65}
#: The estimate a bid needs above its level: high contracts need a margin, since the
#: tricks counted for partner and the kitty overlap with ours and a set costs the value.
BID_MARGIN = {6: 0.6, 7: 0.9, 8: 1.2, 9: 1.5, 10: 1.8}
#: The margins for the rule-of-thumb count of the other player counts (hand, kitty and
#: partner's trick), which runs lower than the fitted four-handed count.
COUNT_MARGIN = {6: -0.5, 7: -0.2, 8: 0.4, 9: 0.9, 10: 1.3}
#: Tricks off the fitted count (per half trick of partner's help lost) when partner passed.
PASSED_PARTNER = 0.6
#: Tricks the count stretches by to outbid an opponent's contract that would win the game.
STRETCH_AGAINST_GAME = 2.0
#: Tricks the count stretches by for a contract that takes our side to the target.
GOING_OUT_STRETCH = 0.6
RANK_KING = 14
RANK_QUEEN = 13


# ----------------------------------------------------------------------------- hand values
def side_suit_cards(rules: Rules, suit: int, trump: int) -> CardMask:
    """Pack cards of a side suit in a trump contract (its jack is the left bower)."""
    mask = rules.pack.cards & SUIT_MASKS[suit]
    if trump != NO_TRUMPS and suit == same_colour_suit(trump):
        mask &= ~(1 << make_card(RANK_JACK, suit))
    return mask


def trump_tricks(
    hand: CardMask, trump: int, rules: Rules, small_trump: Callable[[int], float] | None = None
) -> float:
    """Trick value of the trumps in ``hand`` if ``trump`` were trumps (``small_trump``: the
    value of each small trump by the number held; :data:`SMALL_TRUMP` by default)."""
    ctx = bidding_context(trump)
    trumps = rules.pack.cards & ctx.follow_masks[trump]
    order = sorted(iter_cards(trumps), key=lambda c: -ctx.power[c])
    mine = [c for c in order if hand >> c & 1]
    n = len(mine)
    value = 0.0
    counted = 0
    missing = 0
    held_above = 0
    for card in order:
        if not hand >> card & 1:
            missing += 1
            continue
        lower = n - held_above - 1
        held_above += 1
        if missing == 0:
            part = 1.0
        elif missing == 1 and lower >= 1:
            part = 0.6
        elif missing == 2 and lower >= 2:
            part = 0.4
        else:
            part = 0.0
        if part:
            counted += 1
        value += part
    small = n - counted
    # Small trumps win once the opponents' trumps are drawn, or ruff side suits; with eight
    # or so trumps out among three hands and the kitty, a small trump is half a trick in a
    # five-card suit, not nearly a whole one.
    per_small = SMALL_TRUMP.get(n, 0.75) if small_trump is None else small_trump(n)
    return value + small * per_small


def side_tricks(hand: CardMask, suit: int, trump: int, rules: Rules) -> float:
    """Trick value of a side suit (or a no-trump suit): aces, K-Q, guarded kings."""
    cards = hand & side_suit_cards(rules, suit, trump)
    n = cards.bit_count()
    if not n:
        return 0.0
    ace = bool(cards >> make_card(RANK_ACE, suit) & 1)
    king = bool(cards >> make_card(RANK_KING, suit) & 1)
    queen = bool(cards >> make_card(RANK_QUEEN, suit) & 1)
    value = 0.0
    if ace:
        value += 1.0
    if king:
        value += 1.0 if ace else 0.5 if n >= 2 else 0.15
    if queen:
        if ace and king:
            value += 0.8 if n >= 3 else 0.5
        elif king:
            value += 0.5
        elif ace and n >= 3:
            value += 0.25
        elif n >= 3:
            value += 0.2
    if trump == NO_TRUMPS:
        tops = 1 if ace else 0
        if ace and king:
            tops = 3 if queen else 2
        # A long suit runs in no trumps once its top cards are out.
        if n >= 5:
            value += (n - 4) * (0.9 if tops >= 2 else 0.5 if tops else 0.25)
    return min(value, float(n))


def hand_tricks(
    hand: CardMask, strain: int, rules: Rules, small_trump: Callable[[int], float] | None = None
) -> float:
    """Tricks the hand alone should take in ``strain`` (4: no trumps)."""
    if strain == NO_TRUMPS:
        jokers = (hand & JOKERS_MASK).bit_count()
        return jokers + sum(side_tricks(hand, s, NO_TRUMPS, rules) for s in SUITS)
    total = trump_tricks(hand, strain, rules, small_trump)
    total += sum(side_tricks(hand, s, strain, rules) for s in SUITS if s != strain)
    return total


#: Tricks the side takes in a suit contract, four players, a random partner, the kitty
#: picked up (a least-squares fit over 15,000 heuristic play-outs of random deals: each
#: hand's suits of three cards or more declared at six, everyone passing). The spread
#: around it is about 1.6 tricks (partner's hand and the kitty are unknown).
SUIT_FIT = {
    "base": 2.81,
    "trump": 0.664,
    "trump2": -0.0101,
    "joker": 0.86,
    "right": 0.6,
    "left": 0.31,
    "ace": 0.25,
    "king": 0.16,
    "queen": 0.1,
    "side_ace": 0.55,
    "side_king": 0.32,
    "ace_king": 0.16,
    "singleton": 0.13,
    "void": 0.24,
}


def side_estimate(hand: CardMask, strain: int, rules: Rules) -> float:
    """Expected tricks of a four-handed side in suit ``strain`` (see :data:`SUIT_FIT`)."""
    f = SUIT_FIT
    trumps = hand & bidding_context(strain).follow_masks[strain]
    n = trumps.bit_count()
    value = f["base"] + f["trump"] * n + f["trump2"] * min(n, 7) ** 2
    value += f["joker"] * (hand & JOKERS_MASK).bit_count()
    value += f["right"] * (hand >> make_card(RANK_JACK, strain) & 1)
    value += f["left"] * (hand >> make_card(RANK_JACK, same_colour_suit(strain)) & 1)
    value += f["ace"] * (hand >> make_card(RANK_ACE, strain) & 1)
    value += f["king"] * (hand >> make_card(RANK_KING, strain) & 1)
    value += f["queen"] * (hand >> make_card(RANK_QUEEN, strain) & 1)
    for suit in SUITS:
        if suit == strain:
            continue
        cards = hand & side_suit_cards(rules, suit, strain)
        ace = cards >> make_card(RANK_ACE, suit) & 1
        king = cards >> make_card(RANK_KING, suit) & 1
        value += f["side_ace"] * ace + f["ace_king"] * (ace & king)
        value += f["side_king"] * (king and cards.bit_count() >= 2)
        count = cards.bit_count()
        value += f["singleton"] * (count == 1) + f["void"] * (count == 0)
    return value


#: The same for no trumps (5,000 hands with the joker or three stopped suits; spread 2.0).
NT_FIT = {
    "base": 4.25,
    "joker": 0.97,
    "ace": 0.98,
    "king": 0.7,
    "queen": 0.23,
    "stopper": -0.45,
    "long_tops": 0.31,
}


def side_estimate_nt(hand: CardMask, rules: Rules) -> float:
    """Expected tricks of a four-handed side in no trumps (see :data:`NT_FIT`)."""
    f = NT_FIT
    value = f["base"] + f["joker"] * (hand & JOKERS_MASK).bit_count()
    value += f["stopper"] * nt_stoppers(hand, rules)
    longest, tops = 0, 0
    for suit in SUITS:
        cards = hand & SUIT_MASKS[suit]
        n = cards.bit_count()
        ace = cards >> make_card(RANK_ACE, suit) & 1
        king = cards >> make_card(RANK_KING, suit) & 1
        value += f["ace"] * ace + f["king"] * (king and n >= 2)
        value += f["queen"] * (cards >> make_card(RANK_QUEEN, suit) & 1 and n >= 3)
        if n > longest:
            longest, tops = n, ace + king
    return value + f["long_tops"] * max(0, longest - 4) * tops


def support_tricks(hand: CardMask, strain: int, rules: Rules) -> float:
    """What the hand adds to partner's contract in ``strain``: top trumps, outside winners
    and ruffs; partner's own length already counts the small trumps."""
    if strain == NO_TRUMPS:
        return hand_tricks(hand, strain, rules)
    ctx = bidding_context(strain)
    trumps = hand & ctx.follow_masks[strain]
    n = trumps.bit_count()
    top = trump_tricks(hand & ~small_trumps(hand, strain, rules), strain, rules)
    # Side aces count in full; side kings only half (partner's own count often holds the
    # ace, and a king is ruffed or beaten as often as it wins in a suit contract).
    side = 0.0
    for s in SUITS:
        if s == strain:
            continue
        cards = hand & side_suit_cards(rules, s, strain)
        if cards >> make_card(RANK_ACE, s) & 1:
            side += 1.0
            if cards >> make_card(RANK_KING, s) & 1:
                side += 0.5
        elif cards >> make_card(RANK_KING, s) & 1 and cards.bit_count() >= 2:
            side += 0.3
    # Ruffs need trumps to ruff with: a short suit is worth half a trick per trump beyond
    # the first, only with three trumps or more.
    shortness = sum(
        1
        for s in SUITS
        if s != strain and (hand & side_suit_cards(rules, s, strain)).bit_count() <= 1
    )
    ruffs = 0.5 * min(shortness, n - 2) if n >= 3 else 0.0
    return top + side + ruffs + 0.15 * n


def small_trumps(hand: CardMask, strain: int, rules: Rules) -> CardMask:
    ctx = bidding_context(strain)
    trumps = hand & ctx.follow_masks[strain]
    return sum(1 << c for c in iter_cards(trumps) if ctx.power[c] < 200 + RANK_ACE)


def nt_stoppers(hand: CardMask, rules: Rules) -> int:
    """Suits the hand stops in no trumps (A, K-x, Q-x-x, or five cards)."""
    stops = 0
    for suit in SUITS:
        cards = hand & rules.pack.cards & SUIT_MASKS[suit]
        n = cards.bit_count()
        if (
            cards >> make_card(RANK_ACE, suit) & 1
            or (cards >> make_card(RANK_KING, suit) & 1 and n >= 2)
            or (cards >> make_card(RANK_QUEEN, suit) & 1 and n >= 3)
            or n >= 5
        ):
            stops += 1
    return stops


def misere_dangers(hand: CardMask, rules: Rules) -> list[tuple[int, Card]]:
    """(danger, card) for the cards that could be forced to win a trick in misère.

    A suit's i-th lowest card is safe while at most ``2i + 1`` cards of the suit rank below
    it: the defenders run out of low cards before it must win. Jokers are always dangerous.
    """
    out: list[tuple[int, Card]] = [(20, j) for j in iter_cards(hand & JOKERS_MASK)]
    for suit in SUITS:
        pack = list(iter_cards(rules.pack.cards & SUIT_MASKS[suit]))
        mine = [c for c in pack if hand >> c & 1]
        for index, card in enumerate(mine):
            danger = pack.index(card) - 2 * index - 1
            if danger > 0:
                out.append((danger, card))
    out.sort(reverse=True)
    return out


def misere_ok(hand: CardMask, rules: Rules, discards: int, strict: bool = False) -> bool:
    """Whether a hand of low cards can bid misère: the dangerous cards fit in the discard,
    with a card to spare for whatever the kitty brings."""
    dangers = misere_dangers(hand, rules)
    if strict:
        return not dangers and not hand & JOKERS_MASK
    return len(dangers) <= max(0, discards - 1) and sum(d for d, _ in dangers) <= 8


def fitted_counts(rules: Rules) -> bool:
    """Whether the fitted trick counts apply: four players, the 43-card pack or the
    French-Canadian 46 (same partnerships, a kitty of six: with the rule-of-thumb count
    instead the heuristic bid a third fewer suit contracts there and lost to its first
    version, which bids from the count alone)."""
    return rules.players == 4 and rules.seats == 4 and rules.pack.size in (43, 46)


def _touching(view: TableView, high: Card, low: Card) -> bool:
    """Whether no unseen card lies between ``high`` and ``low`` (a sequence)."""
    return not view.higher_unseen(low) & ~view.higher_unseen(high)


def friends_of(obs: Observation) -> set[int]:
    """Seats on this seat's side for the whole game (none with three or five players)."""
    sides = side_of_seats(obs.rules)
    return {s for s in range(obs.rules.seats) if sides[s] == sides[obs.seat] and s != obs.seat}


def auction_help(obs: Observation) -> tuple[float, set[int]]:
    """What the auction so far tells a bidder: the tricks partner is worth (a trick or
    so; half after partner passed; without a fixed partner, 3 or 5 players, a little) and
    the strains the opponents have bid (their trumps are long there)."""
    friends = friends_of(obs)
    partner_calls = [c for s, c in obs.auction if s in friends]
    opponent_strains = {
        bid_strain(c)
        for s, c in obs.auction
        if s not in friends and s != obs.seat and is_suit_bid(c)
    }
    partner_help = 1.0 if friends else 0.5 if obs.rules.called_partner else 0.0
    if partner_calls and partner_calls[-1] == PASS:
        partner_help = 0.5
    return partner_help, opponent_strains


# ----------------------------------------------------------------------------- the player
class HeuristicPlayer(Player):
    """Plays like a good club player; every decision comes with a reason (explain())."""

    name = "heuristic"
    #: The second version's play (False: the first's, for ``heuristic:v1``): ruffing high
    #: against a likely overruff, second hand low on the declarer's trump lead, drawing
    #: trumps with the lowest top trump, defenders' no-trump leads in partner's suit, and
    #: a sequence led from the top only from a ten up.
    refined = True
    #: Play by the rules learnt from pimc's choices (:meth:`_lesson_lead`, ...); False:
    #: the player as it was before them, ``heuristic:v2`` (:class:`HeuristicV2Player`).
    lessons = True
    #: How the rules in force name the jokers (set by :meth:`act`), for the explanations.
    _jokers: JokerNames = False

    def _card(self, card: Card) -> str:
        """A card for explanations: ``7♠``, ``joker`` (the other joker by its name: ``JKB``,
        ``JKW`` in the French-Canadian game)."""
        return "joker" if card == JOKER else card_label(card, self._jokers)

    def act(self, observation: Observation) -> Action:
        obs = observation
        self._jokers = obs.rules.joker_names
        if not obs.legal:
            raise ValueError("no legal action: it is not this seat's turn")
        if len(obs.legal) == 1:
            self._reason = "the only legal action"
            return obs.legal[0]
        house = house_action(obs)  # claims, slam calls, hi/lo (R-HOUSE)
        if house is not None:
            self._reason = house[1]
            return house[0]
        obs = without_claim(obs)
        if obs.phase == "auction":
            action, why = self.bid(obs)
            action, why = house_bid(obs, action) or (action, why)
        elif obs.phase == "discard":
            action, why = self.discard(obs)
        elif obs.phase == "nominate":
            action, why = self.nominate(obs)
        elif obs.phase == "call":
            action, why = self.call_partner(obs)
        else:
            action, why = self.play(obs)
        return self._answer(obs, action, why)

    def _answer(self, obs: Observation, action: Action, why: str) -> Action:
        """``action``, with ``why`` kept for :meth:`explain`; a safety net: never an illegal
        action (the first legal one instead)."""
        if action not in obs.legal:
            action, why = obs.legal[0], "no better idea"
        self._reason = why
        return action

    # ------------------------------------------------------------------ bidding
    def bid_levels(self, obs: Observation) -> dict[int, float]:
        """Estimated tricks for our side in each strain (4 = NT), before the auction's
        competition: hand, partner's help, the kitty."""
        rules = obs.rules
        hand = obs.hand
        partner_help, opponent_strains = auction_help(obs)
        levels: dict[int, float] = {}
        jokers = (hand & JOKERS_MASK).bit_count()
        fitted = fitted_counts(rules)
        for strain in (*SUITS, NO_TRUMPS):
            raw = hand_tricks(hand, strain, rules)
            help_ = partner_help
            if strain == NO_TRUMPS:
                stops = nt_stoppers(hand, rules)
                # No trumps needs the suits stopped: the joker covers a weak suit and
                # partner is counted on for one of the others (the cheap, strong 6NT with
                # the joker and two stopped suits); without the joker every suit but one.
                if jokers:
                    if stops < 2 or raw < 3.5:
                        continue
                    if stops < 3:
                        help_ = min(help_, 0.8)
                elif stops < 4:
                    continue
            else:
                trumps = (hand & bidding_context(strain).follow_masks[strain]).bit_count()
                if trumps < 3:
                    continue  # a trump suit needs length
            kitty = 1.0 if raw < 6.0 else 0.5
            estimate = raw + kitty + help_
            if fitted:
                # Four players: the fitted count, less when partner has passed.
                fit = (
                    side_estimate_nt(hand, rules)
                    if strain == NO_TRUMPS
                    else side_estimate(hand, strain, rules)
                )
                estimate = fit + (min(help_, partner_help) - 1.0) * PASSED_PARTNER
            if strain in opponent_strains:
                estimate -= 1.0  # their trumps are long: our honours in it are worth less
            levels[strain] = estimate
        return levels

    @staticmethod
    def level_for(
        estimate: float, hand: CardMask, strain: int, stretch: float = 0.0, fitted: bool = True
    ) -> int:
        """The highest level the estimate supports (0: none): each level needs a margin
        above it, ten needs the joker in hand, nine the joker or a bower in a suit."""
        level = 0
        margins = BID_MARGIN if fitted else COUNT_MARGIN
        for tricks in range(6, 11):
            if estimate + stretch >= tricks + margins[tricks]:
                level = tricks
        has_joker = bool(hand & JOKERS_MASK)
        if level == 10 and not has_joker:
            level = 9
        if level == 9 and not has_joker:
            bowers = 0
            if strain != NO_TRUMPS:
                bowers = sum(
                    1
                    for suit in (strain, same_colour_suit(strain))
                    if hand >> make_card(RANK_JACK, suit) & 1
                )
            if not bowers:
                level = 8
        return level

    def _stretch(self, obs: Observation, high: Action, high_seat: int) -> float:
        """Tricks to stretch by to stop the opponents going out with the standing bid."""
        rules = obs.rules
        if high < 0 or high_seat in friends_of(obs) or high_seat == obs.seat or not obs.scores:
            return 0.0
        sides = side_of_seats(rules)
        if len(obs.scores) <= max(sides):
            return 0.0
        theirs = obs.scores[sides[high_seat]]
        if theirs + bid_value(high, rules) >= rules.target:
            return STRETCH_AGAINST_GAME if self.lessons else 0.6
        return 0.0

    def _winning_bid(self, obs: Observation, action: Action) -> bool:
        """Whether making ``action`` takes our side to the target."""
        sides = side_of_seats(obs.rules)
        if not obs.scores or len(obs.scores) <= max(sides):
            return False
        return obs.scores[sides[obs.seat]] + bid_value(action, obs.rules) >= obs.rules.target

    def _going_out(
        self, obs: Observation, estimate: float, strain: int, stretch: float, level: int
    ) -> int:
        """A lesson from pimc's calls near the end of a game: a contract that takes our side
        to the target is worth a stretch of the count (defending cannot win the game, and
        making it ends it), up to :data:`GOING_OUT_STRETCH` tricks."""
        if level >= 10 or not obs.scores:
            return level
        if level >= 6 and self._winning_bid(obs, bid_action(level, strain)):
            return level
        fitted = fitted_counts(obs.rules)
        reach = self.level_for(estimate, obs.hand, strain, stretch + GOING_OUT_STRETCH, fitted)
        for tricks in range(max(level + 1, 6), reach + 1):
            if self._winning_bid(obs, bid_action(tricks, strain)):
                return tricks
        return level

    def bid(self, obs: Observation) -> tuple[Action, str]:
        rules = obs.rules
        legal = set(obs.legal)
        friends = friends_of(obs)
        bids = [(s, c) for s, c in obs.auction if c != PASS]
        high_seat, high = bids[-1] if bids else (-1, -1)
        partner_bid = next((c for s, c in reversed(bids) if s in friends and is_suit_bid(c)), -1)
        levels = self.bid_levels(obs)
        stretch = self._stretch(obs, high, high_seat)
        choices: list[tuple[int, Action, str]] = []
        going_out: list[tuple[int, Action, str]] = []
        strains = set(levels)
        if partner_bid >= 0:
            strains.add(bid_strain(partner_bid))
        for strain in strains:
            estimate = levels.get(strain, 0.0)
            level = self.level_for(estimate, obs.hand, strain, stretch, fitted_counts(rules))
            if self.lessons and strain in levels and high_seat not in friends:
                out = self._going_out(obs, estimate, strain, stretch, level)
                if out > level and bid_action(out, strain) in legal:
                    going_out.append(
                        (
                            bid_rank(bid_action(out, strain), rules),
                            bid_action(out, strain),
                            f"about {estimate:.1f} tricks in {STRAIN_NAMES[strain]}, "
                            "stretched: the game is in reach",
                        )
                    )
            why = f"about {estimate:.1f} tricks in {STRAIN_NAMES[strain]} with partner and kitty"
            if partner_bid >= 0 and bid_strain(partner_bid) == strain:
                # Partner's bid already counted a trick from us and one from the kitty:
                # raise only with trumps and more than that trick (never blindly), and
                # never raise a raise of our own bid.
                if any(
                    s == obs.seat and is_suit_bid(c) and bid_strain(c) == strain for s, c in bids
                ):
                    continue
                if strain == NO_TRUMPS:
                    trumps = 0
                    support = hand_tricks(obs.hand, strain, rules)
                else:
                    trumps = (obs.hand & bidding_context(strain).follow_masks[strain]).bit_count()
                    support = support_tricks(obs.hand, strain, rules)
                extra = int(support - 1.3)
                if strain != NO_TRUMPS:
                    if trumps < 2:
                        continue
                    extra = min(extra, trumps - 1, 1 if trumps == 2 else 3)
                level = bid_tricks(partner_bid) + extra
                if level >= 9 and not obs.hand & JOKERS_MASK:
                    level = min(level, 8 if trumps < 4 else 9)
                if extra < 1:
                    continue
                why = (
                    f"raising partner's {say(partner_bid)}: {support:.1f} tricks of "
                    f"support with {trumps} trumps, more than the trick partner counts on"
                    if strain != NO_TRUMPS
                    else f"raising partner's {say(partner_bid)}: {support:.1f} tricks"
                )
            self._offer(choices, obs, strain, level, why, (high_seat, high), friends)
        if going_out and not any(self._winning_bid(obs, c[1]) for c in choices):
            choices.append(min(going_out))  # nothing else wins the game: the cheapest that does
        if choices:
            # A contract that wins the game is enough: bid the cheapest of those.
            winning = [c for c in choices if self._winning_bid(obs, c[1])]
            if winning and len(winning) < len(choices):
                cheapest_win = min(winning)
                choices = [cheapest_win]
        action, why = self._settle(obs, levels, choices, partner_bid)
        if len(choices) == 1 and action == choices[0][1] and self._winning_bid(obs, action):
            why += "; enough to win the game"
        return action, why

    def _offer(
        self,
        choices: list[tuple[int, Action, str]],
        obs: Observation,
        strain: int,
        level: int,
        why: str,
        highest: tuple[int, Action],
        friends: set[int],
    ) -> None:
        """Add to ``choices`` (rank, bid, why) the bid of ``level`` (at most ten) in
        ``strain`` where it is legal, else the cheapest legal bid of the strain up to it (not
        in the American auction); nothing below six, nor over partner's contract (the
        ``highest`` bid so far: seat, call) without a clearly better hand."""
        rules = obs.rules
        legal = set(obs.legal)
        high_seat, high = highest
        level = min(level, 10)
        if level < 6:
            return
        action = bid_action(level, strain)
        # Do not take partner's contract away without a clearly better hand.
        partners_contract = high_seat in friends and (
            not is_suit_bid(high) or (strain != bid_strain(high) and level < bid_tricks(high) + 1)
        )
        if partners_contract:
            return
        if action in legal:
            choices.append((bid_rank(action, rules), action, why))
        elif rules.auction != AMERICAN:
            # Outbid at the cheapest level still within our estimate.
            cheapest = next(
                (
                    bid_action(t, strain)
                    for t in range(6, level + 1)
                    if bid_action(t, strain) in legal
                ),
                -1,
            )
            if cheapest >= 0:
                choices.append((bid_rank(cheapest, rules), cheapest, why))

    def _settle(
        self,
        obs: Observation,
        levels: dict[int, float],
        choices: list[tuple[int, Action, str]],
        partner_bid: Action,
    ) -> tuple[Action, str]:
        """The call, once ``choices`` holds the bids the hand may make: open misère or misère
        for a low hand that has no better, else the contract that scores most among the
        choices, else a pass, else (the dealer must bid) the cheapest bid in the best
        strain."""
        rules = obs.rules
        legal = obs.legal
        best_suit = max(levels.values(), default=0.0)
        kitty = rules.pack.kitty_size
        if OPEN_MISERE in legal and best_suit < 8 and misere_ok(obs.hand, rules, kitty, True):
            return OPEN_MISERE, "open misère: every card is low enough to play under"
        if (
            MISERE in legal
            and best_suit < 7.5
            and misere_ok(obs.hand, rules, kitty)
            and (not choices or max(choices)[0] < bid_rank(MISERE, rules))
        ):
            return MISERE, "misère: a hand of low cards, the few high ones go to the kitty"
        if choices:
            # Prefer the strain that scores most among those we expect to make.
            _, action, why = max(choices, key=lambda t: (bid_tricks(t[1]), bid_strain(t[1])))
            return action, f"bidding {say(action)}: {why}"
        if PASS in legal:
            if partner_bid >= 0:
                return PASS, "passing: not enough support to raise partner"
            return PASS, "passing: not enough tricks for a contract"
        # The dealer must bid: the cheapest bid in the strain we are best in.
        cheapest_strain = max(levels, key=lambda s: levels[s], default=0)
        options = [a for a in legal if is_suit_bid(a)]
        pick = min(options, key=lambda a: (bid_strain(a) != cheapest_strain, bid_rank(a, rules)))
        return pick, "the dealer must bid: the cheapest bid in the best strain"

    # ------------------------------------------------------------------ the kitty
    def discard(self, obs: Observation) -> tuple[Action, str]:
        rules = obs.rules
        hand = obs.hand
        left = hand.bit_count() - rules.pack.hand_size
        contract = obs.contract
        if not is_suit_bid(contract):
            card = self._misere_discard(hand, rules)
            return card, f"discarding the {self._card(card)}: too high to play under in misère"
        strain = bid_strain(contract)
        plan = self.plan_discards(hand, strain, left, rules)
        card = plan[0]
        return card, f"discarding the {self._card(card)}: " + (
            "voiding a short side suit"
            if strain != NO_TRUMPS
            else "keeping long suits and stoppers"
        )

    def _misere_discard(self, hand: CardMask, rules: Rules) -> Card:
        dangers = misere_dangers(hand, rules)
        if dangers:
            return dangers[0][1]
        # Nothing dangerous: shed the highest card of the shortest suit (voids help misère).
        return max(
            iter_cards(hand),
            key=lambda c: (-(hand & SUIT_MASKS[suit_of(c)]).bit_count(), rank_of(c)),
        )

    def plan_discards(self, hand: CardMask, strain: int, count: int, rules: Rules) -> list[Card]:
        """The cards to discard, best first: void short side suits, keep trumps and aces."""
        if strain == NO_TRUMPS:

            def keep_nt(card: Card) -> float:
                if card >= JOKER:
                    return 1000.0
                suit = suit_of(card)
                n = (hand & SUIT_MASKS[suit]).bit_count()
                stop = side_tricks(hand, suit, NO_TRUMPS, rules)
                return rank_of(card) + 4 * n + 6 * stop

            return sorted(iter_cards(hand), key=keep_nt)[:count]
        ctx = bidding_context(strain)
        trumps = hand & ctx.follow_masks[strain]
        side = hand & ~trumps
        plan: list[Card] = []
        suits = []
        for suit in SUITS:
            if suit == strain:
                continue
            cards = side & SUIT_MASKS[suit]
            if cards:
                has_ace = bool(cards >> make_card(RANK_ACE, suit) & 1)
                suits.append((has_ace, cards.bit_count(), suit, cards))
        suits.sort()
        budget = count
        for has_ace, n, _, cards in suits:
            if has_ace:
                continue
            if n <= budget:
                plan.extend(sorted(iter_cards(cards), key=rank_of))
                budget -= n
        rest = [c for c in iter_cards(side) if c not in plan]

        def keep_side(card: Card) -> float:
            suit = suit_of(card)
            value = side_tricks(hand, suit, strain, rules)
            top = 20 if rank_of(card) == RANK_ACE else 0
            return top + rank_of(card) + 3 * value - (hand & SUIT_MASKS[suit]).bit_count() * 0.5

        rest.sort(key=keep_side)
        plan.extend(rest)
        plan.extend(sorted(iter_cards(trumps), key=lambda c: ctx.power[c]))
        return plan[:count]

    def nominate(self, obs: Observation) -> tuple[Action, str]:
        hand = obs.hand
        joker_actions = [a for a in obs.legal if a != NO_NOMINATION]
        if not is_suit_bid(obs.contract):
            # A nominated joker is only the top card of its suit: put it in our longest suit
            # so we can always play under with it and discard it when void elsewhere.
            best = max(
                joker_actions,
                key=lambda a: (hand & SUIT_MASKS[(a - NOMINATE_BASE) % 4]).bit_count(),
            )
            return best, (
                f"nominating the joker as a {'♠♣♦♥'[(best - NOMINATE_BASE) % 4]}: "
                "a free joker would win a trick in misère"
            )
        return NO_NOMINATION, "keeping the joker free: it wins any trick and stops every suit"

    def call_partner(self, obs: Observation) -> tuple[Action, str]:
        """Five players: call the best trump we lack (the holder is surely strong), or in
        no trumps the best ace."""
        calls = [a for a in obs.legal if CALL_BASE <= a < GO_ALONE]
        if not calls:
            return GO_ALONE, "going alone"
        trump = obs.trump if 0 <= obs.trump < NO_TRUMPS else NO_TRUMPS
        ctx = bidding_context(trump)

        def strength(action: Action) -> tuple[int, int]:
            card = action - CALL_BASE
            is_trump = trump != NO_TRUMPS and bool(ctx.follow_masks[trump] >> card & 1)
            return (1 if is_trump else 0, ctx.power[card])

        best = max(calls, key=strength)
        return best, f"calling the {self._card(best - CALL_BASE)}: its holder will be strong"

    # ------------------------------------------------------------------ play
    def play(self, obs: Observation) -> tuple[Action, str]:
        view = TableView(obs)
        cards = legal_cards(obs)
        if view.misere:
            if obs.seat == obs.contractor:
                card, why = self._misere_declarer(view, cards)
            else:
                card, why = self._misere_defender(view, cards)
        elif view.trick_cards:
            card, why = self._follow(view, cards)
        else:
            card, why = self._lead(view, cards)
        actions = cards[card]
        if len(actions) > 1:
            return self._joker_lead(view, actions), why
        return actions[0], why

    def _joker_lead(self, view: TableView, actions: list[Action]) -> Action:
        """Lead an unnominated joker as our longest suit (the others must follow it)."""
        hand = view.hand
        return max(
            actions,
            key=lambda a: (
                (hand & SUIT_MASKS[joker_lead_suit(a)]).bit_count(),
                -joker_lead_suit(a),
            ),
        )

    # ---------------------------------------------------------------- following
    def _cheapest(self, view: TableView, cards: list[Card]) -> Card:
        return min(cards, key=lambda c: (view.trick_power(c) >= 200, view.ctx.power[c]))

    def _shed(self, view: TableView, cards: list[Card]) -> Card:
        """The card we miss least: low, from a short side suit, never a winner or a trump."""
        hand = view.hand

        def value(card: Card) -> float:
            if view.ctx.free_jokers >> card & 1:
                return 1000.0
            suit = view.suit_of(card)
            if not view.nt and suit == view.trump:
                return 500.0 + view.ctx.power[card]
            length = (hand & view.ctx.follow_masks[suit]).bit_count() if suit >= 0 else 0
            master = 60 if view.is_master(card) else 0
            if view.nt and suit >= 0:
                # In no trumps keep the long suit that will run; shed from short ones.
                return master + view.ctx.power[card] + 3 * length
            return master + view.ctx.power[card] + 2 * length

        return min(cards, key=value)

    def _follow(self, view: TableView, legal: dict[Card, list[Action]]) -> tuple[Card, str]:
        cards = list(legal)
        win_seat, win_card = view.winning()
        after = view.still_to_play()
        opponents_after = [s for s in after if not view.on_my_side(s)]
        best = view.trick_power(win_card)
        winners = [c for c in cards if view.trick_power(c) > best]
        following = view.led >= 0 and bool(view.ctx.follow_masks[view.led] >> cards[0] & 1)
        if view.on_my_side(win_seat):
            safe = (
                not opponents_after
                or (
                    view.is_master(win_card)
                    and not any(not view.may_hold(s, view.led) for s in opponents_after)
                    and view.trick_power(win_card) < 200
                )
                or (view.trick_power(win_card) >= 200 and view.is_master(win_card))
            )
            if safe or not winners:
                card = self._cheapest(view, cards) if following else self._shed(view, cards)
                return card, "partner is winning the trick: playing low"
        if not winners:
            if following:
                return self._cheapest(view, cards), "cannot beat the trick: playing my lowest"
            return self._shed(view, cards), "cannot win: discarding my least useful card"
        if not opponents_after:
            card = self._cheapest(view, winners)
            return card, f"winning the trick as cheaply as possible with the {self._card(card)}"
        masters = [c for c in winners if view.is_master(c)]
        ruffing = not following
        if ruffing:
            # Ruff high enough that an opponent still to play, also void (shown, or likely
            # with few cards of the suit left), cannot overruff; without a master, ruff
            # with the highest trump so that an overruff costs them their best.
            left = (view.unseen & view.ctx.follow_masks[view.led]).bit_count()
            threat = any(not view.may_hold(s, view.led) for s in opponents_after) or (
                self.refined and bool(view.trumps_out()) and left < len(opponents_after)
            )
            if threat and masters:
                pick = self._cheapest(view, masters)
            elif threat and self.refined:
                pick = max(winners, key=lambda c: view.ctx.power[c])
            else:
                pick = self._cheapest(view, winners)
            if view.ctx.free_jokers >> pick & 1 and len(after) > 0 and win_seat in view.friends:
                return self._shed(view, cards), "partner is winning: keeping the joker"
            return pick, f"trumping in with the {self._card(pick)}"
        trump_led = not view.nt and view.led == view.trump
        if (
            self.refined
            and trump_led
            and view.seat not in view.declarers
            and win_seat in view.declarers
            and any(s in view.friends for s in after)
            and not view.is_master(win_card)
        ):
            # Second hand low on the declarer's trump lead: our top trumps win later anyway.
            card = self._cheapest(view, cards)
            return card, f"second hand low on the declarer's trump lead: the {self._card(card)}"
        if masters:
            card = self._cheapest(view, masters)
            return card, f"the {self._card(card)} is the best card left in the suit: taking it"
        if any(s in view.friends for s in after):
            # Second hand low: partner still plays after us.
            return self._cheapest(view, cards), "second hand low: partner plays after me"
        card = self._cheapest(view, winners)
        return card, f"third hand high enough: the {self._card(card)} makes them pay"

    # ---------------------------------------------------------------- leading
    def _lead(self, view: TableView, legal: dict[Card, list[Action]]) -> tuple[Card, str]:
        cards = list(legal)
        hand = view.hand
        ctx = view.ctx
        declarer = view.seat in view.declarers
        trumps = [c for c in cards if not view.nt and view.suit_of(c) == view.trump]
        side = [c for c in cards if c not in trumps and not ctx.free_jokers >> c & 1]
        jokers = [c for c in cards if ctx.free_jokers >> c & 1]
        opponents = [s for s in view.opponents]
        trumps_out = view.trumps_out()
        opp_trumps = bool(trumps_out) and any(view.may_hold(s, view.trump) for s in opponents)
        if view.nt:
            return self._lead_nt(view, cards, side, jokers, declarer)
        # Declarer: draw trumps when long in them, leading from the top (never a low trump).
        if declarer and trumps and opp_trumps:
            top = max(trumps, key=lambda c: ctx.power[c])
            out = trumps_out.bit_count()
            long_in_trumps = len(trumps) >= 3 or len(trumps) > out // 2
            if view.is_master(top) and (view.seat == view.contractor or long_in_trumps):
                # Of the top trumps, lead the lowest: they are equals, and the joker is kept
                # for the trick only it can win.
                masters = [c for c in trumps if view.is_master(c)]
                lead = min(masters, key=lambda c: ctx.power[c]) if self.refined else top
                return lead, (
                    f"leading the {self._card(lead)}: a top trump, drawing the "
                    f"{out} trumps still out"
                )
            force = (
                len(trumps) >= 3 and len(trumps) + 1 >= out // 2
                if self.refined
                else long_in_trumps and len(trumps) >= 4
            )
            if view.seat == view.contractor and force:
                return top, (
                    f"leading the {self._card(top)} to force out the higher trump "
                    f"and draw the {out} still out"
                )
        # Cash side-suit winners that will not be ruffed.
        cashable = []
        for card in side:
            suit = view.suit_of(card)
            if not view.is_master(card):
                continue
            ruff_risk = any(not view.may_hold(s, suit) for s in opponents) and (
                opp_trumps or not declarer
            )
            if not ruff_risk:
                cashable.append(card)
        if cashable and (declarer or not view.trick_cards):
            card = max(
                cashable,
                key=lambda c: (
                    ctx.power[c],
                    -(hand & ctx.follow_masks[view.suit_of(c)]).bit_count(),
                ),
            )
            return card, f"leading the {self._card(card)}: a sure trick"
        if declarer:
            if trumps and len(trumps) >= 2 and side:
                singles = [
                    c
                    for c in side
                    if (hand & ctx.follow_masks[view.suit_of(c)]).bit_count() == 1
                    and rank_of(c) != RANK_ACE
                ]
                if singles and view.seat == view.contractor:
                    card = min(singles, key=lambda c: ctx.power[c])
                    return card, f"leading the singleton {self._card(card)} to ruff the suit later"
            if side:
                suit = max(
                    {view.suit_of(c) for c in side},
                    key=lambda s: (hand & ctx.follow_masks[s]).bit_count(),
                )
                in_suit = [c for c in side if view.suit_of(c) == suit]
                card = min(in_suit, key=lambda c: ctx.power[c])
                return card, f"leading low from my longest side suit ({self._card(card)})"
            top = max(trumps, key=lambda c: ctx.power[c])
            return top, f"only trumps left: leading the {self._card(top)}"
        # Defender: lead the suit the declarer is weak in, and never into a void with trumps.
        if side:
            return self._defender_lead(view, side)
        low = min(trumps, key=lambda c: ctx.power[c])
        return low, "only trumps left"

    def _suit_score_for_defence(self, view: TableView, suit: int) -> float:
        declarers = [s for s in view.declarers if s in view.active]
        score = 0.0
        trumps_out = bool(view.trumps_out())
        for seat in declarers:
            if not view.may_hold(seat, suit) and trumps_out:
                score -= 6  # the declarer side would ruff it
        obs = view.obs
        for plays, _ in obs.tricks:
            leader, action = plays[0]
            card = action_card(action)
            if view.suit_of(card) != suit:
                continue
            if leader in view.friends:
                score += 3  # return partner's suit
            elif leader in view.declarers:
                score -= 2  # the declarer's own suit: it is strong there
        return score

    def _sequence(self, view: TableView, cards: list[Card]) -> bool:
        """Whether ``cards`` (lowest first) are a sequence to lead the top of: touching, the
        top a ten or higher. The first version (not :attr:`refined`) compared the top two
        the other way round, and any rank."""
        top = cards[-1]
        if not self.refined:
            return _touching(view, cards[-2], top)
        return rank_of(top) >= 10 and all(
            _touching(view, high, low)
            for high, low in zip(cards[::-1], cards[-2::-1], strict=False)
        )

    def _defender_lead(self, view: TableView, side: list[Card]) -> tuple[Card, str]:
        ctx = view.ctx
        hand = view.hand
        suits = {view.suit_of(c) for c in side}

        def key(suit: int) -> tuple[float, int]:
            return (
                self._suit_score_for_defence(view, suit),
                (hand & ctx.follow_masks[suit]).bit_count(),
            )

        suit = max(suits, key=key)
        in_suit = sorted((c for c in side if view.suit_of(c) == suit), key=lambda c: ctx.power[c])
        top = in_suit[-1]
        if view.is_master(top):
            return top, f"leading the {self._card(top)}: a winner in the declarer's weak suit"
        if len(in_suit) >= 2 and self._sequence(view, in_suit[-2:]):
            return top, f"leading the {self._card(top)} from the top of a sequence"
        return in_suit[0], f"leading low in {'♠♣♦♥'[suit]}, the suit the declarer is weak in"

    def _lead_nt(
        self,
        view: TableView,
        cards: list[Card],
        side: list[Card],
        jokers: list[Card],
        declarer: bool,
    ) -> tuple[Card, str]:
        ctx = view.ctx
        hand = view.hand
        if not side:
            return jokers[0], "leading the joker"
        masters = [c for c in side if view.is_master(c)]
        length = {s: (hand & ctx.follow_masks[s]).bit_count() for s in SUITS}
        if not declarer and self.refined:
            # A defender cashes a lone winner only late or in partner's suit; early it sets
            # up the declarer's cards in that suit.
            late = len(view.obs.tricks) >= 6
            masters = [
                c
                for c in masters
                if late
                or length[view.suit_of(c)] >= 3
                or self._suit_score_for_defence(view, view.suit_of(c)) > 0
            ]
        if masters:
            # Run the long suit first: its winners also set up the small cards.
            card = max(masters, key=lambda c: (length[view.suit_of(c)], ctx.power[c]))
            return card, f"running my long suit: the {self._card(card)} is a winner"
        if (
            jokers
            and (view.obs.tricks or not self.refined)
            and (declarer or view.obs.suits_led.bit_count() >= 3)
        ):
            return jokers[0], (
                "leading the joker, nominating my long suit: a sure trick that pulls a round of it"
            )
        # No winners: lead from the longest suit (never a bare singleton), top of a sequence.
        if declarer:
            suit = max({view.suit_of(c) for c in side}, key=lambda s: length[s])
        elif self.refined:
            # Defenders: partner's suit first, never the declarer's, then our longest.
            suit = max(
                {view.suit_of(c) for c in side},
                key=lambda s: (self._suit_score_for_defence(view, s), length[s]),
            )
        else:
            suit = max(
                {view.suit_of(c) for c in side},
                key=lambda s: (length[s], self._suit_score_for_defence(view, s)),
            )
        in_suit = sorted((c for c in side if view.suit_of(c) == suit), key=lambda c: ctx.power[c])
        top = in_suit[-1]
        if len(in_suit) >= 3 and self._sequence(
            view, in_suit[-3:] if self.refined else in_suit[-2:]
        ):
            return top, f"leading the {self._card(top)}, top of a sequence in my long suit"
        return in_suit[0], f"leading low from my longest suit ({self._card(in_suit[0])})"

    # ---------------------------------------------------------------- misère
    def _misere_declarer(
        self, view: TableView, legal: dict[Card, list[Action]]
    ) -> tuple[Card, str]:
        ctx = view.ctx
        cards = [c for c in legal if not ctx.free_jokers >> c & 1] or list(legal)
        if not view.trick_cards:
            # Lead the card most likely to be beaten: most unseen cards above it.
            def covered(card: Card) -> tuple[int, int]:
                suit = view.suit_of(card)
                above = view.higher_unseen(card).bit_count() if suit >= 0 else 0
                return (above, -ctx.power[card])

            card = max(cards, key=covered)
            return card, f"leading the {self._card(card)}: plenty of higher cards are out"
        _, win_card = view.winning()
        best = view.trick_power(win_card)
        under = [c for c in cards if view.trick_power(c) < best]
        following = view.led >= 0 and bool(ctx.follow_masks[view.led] >> cards[0] & 1)
        if not following:
            card = self._misere_discard(view.hand & sum(1 << c for c in cards), view.obs.rules)
            if card not in legal:
                card = max(cards, key=lambda c: ctx.power[c])
            return card, f"void: throwing away the dangerous {self._card(card)}"
        if under:
            card = max(under, key=lambda c: ctx.power[c])
            return card, f"playing under with the {self._card(card)}, the highest card that loses"
        card = min(cards, key=lambda c: ctx.power[c])
        return card, "every card I hold wins this trick"

    def _misere_defender(
        self, view: TableView, legal: dict[Card, list[Action]]
    ) -> tuple[Card, str]:
        ctx = view.ctx
        contractor = view.contractor
        exposed = dict(view.obs.exposed).get(contractor, 0)
        non_jokers = [c for c in legal if not ctx.free_jokers >> c & 1]
        cards = non_jokers or list(legal)
        if not view.trick_cards:

            def squeeze(card: Card) -> tuple[int, int, int]:
                suit = view.suit_of(card)
                if suit < 0:
                    return (-100, 0, 0)
                if not view.may_hold(contractor, suit):
                    return (-50, 0, -ctx.power[card])
                theirs = view.unseen & ctx.follow_masks[suit]
                if exposed:
                    theirs = exposed & ctx.follow_masks[suit]
                    if not theirs:
                        return (-50, 0, -ctx.power[card])
                    # Best of all: a card below every card the contractor holds in the suit.
                    beneath = all(ctx.power[c] > ctx.power[card] for c in iter_cards(theirs))
                    return (10 if beneath else 0, -ctx.power[card], 0)
                below = sum(1 for c in iter_cards(theirs) if ctx.power[c] < ctx.power[card])
                return (0, -below, -ctx.power[card])

            card = max(cards, key=squeeze)
            return card, (
                f"leading the low {self._card(card)}: squeezing the misère declarer to win a trick"
            )
        win_seat, win_card = view.winning()
        best = view.trick_power(win_card)
        following = view.led >= 0 and bool(ctx.follow_masks[view.led] >> cards[0] & 1)
        contractor_played = contractor in view.trick_seats
        if contractor_played and win_seat == contractor:
            under = [c for c in cards if view.trick_power(c) < best]
            if under:
                card = max(under, key=lambda c: ctx.power[c])
                return card, "the declarer is winning the trick: playing under"
        if not contractor_played and following:
            card = min(cards, key=lambda c: ctx.power[c])
            return card, "playing low so the declarer's card can win"
        # The trick is lost for the declarer or we are void: shed high cards, keep low ones
        # for leading later; the joker is never thrown away if another card will do.
        card = max(cards, key=lambda c: ctx.power[c])
        return card, f"shedding the high {self._card(card)}, keeping low cards to lead"


class HeuristicV2Player(HeuristicPlayer):
    """The heuristic before the rules learnt from pimc (``lessons``), kept unchanged as
    ``heuristic:v2`` so that the new one can be measured against it in the arena."""

    name = "heuristic:v2"
    lessons = False


__all__ = [
    "HeuristicPlayer",
    "HeuristicV2Player",
    "fitted_counts",
    "hand_tricks",
    "misere_dangers",
    "misere_ok",
]
