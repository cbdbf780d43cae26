"""PIMC at the other player counts: two-handed dummies, three, five and six players.

Four-handed play is :mod:`fivehundred.bots.pimc`'s own; at every other count it calls here
for these:

* :func:`sample_hands` deals the cards a seat cannot see so that the deal respects all it
  has seen: its own hand, every card played, the voids shown, the open cards (the two-handed
  dummies' face-up cards and, for a dummy, its owner's hand), and the table's shape. A
  two-handed dummy's face-down cards are unseen even to its owner and are dealt like any
  hidden card (the double-dummy search then lets the dummy play them: a small relaxation;
  they turn up as the cards above them are played). Five-handed, the called card lies in a
  defender's hand until it is played (never among the contractor's discards). Six-handed
  deals come from the 63-card pack and its hand sizes. The contractor is dealt a fair share
  of the trumps still out, as with four.
* :func:`deals_for` and :func:`deal_numbers`: how many deals to solve now, scaled to the
  cost of a solve at this count (a full-hand solve with five or six seats costs about 0.1 s,
  a trick later about 5 ms, so the search starts at the second trick, three-handed the
  first, instead of the seventh), and stopped once the solver has searched
  :data:`PLAY_NODE_BUDGET` positions
  (a count, not a time: a seed gives the same game on any machine).
* :func:`search`: the search itself, with five players the holder of the called card in
  each deal as the contractor's partner until it shows, and with three or five a defender
  weighing its own tricks against the other defenders' (:func:`selfish_utility`).
* :func:`simulated_bidding`: whether the auction and the discard are simulated at this
  count; :mod:`fivehundred.bots.simulate` asks here for the seats of a whole-hand solve
  (:func:`contract_seats`: six-handed teams, the five-handed called partner), the effort
  (:func:`bid_effort`) and, where each seat scores for itself, the value of a call
  (:func:`solo_score`, with a lone declarer's count shaded upwards: :data:`DECLARER_SHADES`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import Protocol

from fivehundred.actions import Action, action_card, bid_strain, is_suit_bid, plays_alone
from fivehundred.bots.base import say
from fivehundred.bots.heuristic import HeuristicPlayer
from fivehundred.bots.memory import context_for, play_context, tricks_played_in, void_cards
from fivehundred.cards import JOKERS_MASK, NO_TRUMPS, CardMask, iter_cards
from fivehundred.observation import Observation
from fivehundred.play import PlayContext
from fivehundred.rules import JOKER_LEAD_NOT_RENOUNCED, Rules
from fivehundred.scoring import side_of_seats

#: Positions the solver may search for one decision in play at the other counts (about
#: 0.1 s); at least :data:`MIN_PLAY_DEALS` deals are always solved.
PLAY_NODE_BUDGET = 600_000
MIN_PLAY_DEALS = 2
#: Share of the deals used when this many tricks are left, per active player count (0:
#: the heuristic plays; a first-trick solve with three seats costs ~40 ms, with five or
#: six ~100 ms, with four hands of ten ~1 s).
SCALES: dict[int, dict[int, float]] = {
    3: {10: 0.125, 9: 0.5, 8: 0.75},
    4: {10: 0.0, 9: 0.25, 8: 0.5, 7: 0.75},
    5: {10: 0.0, 9: 0.25, 8: 0.5, 7: 0.75},
    6: {10: 0.0, 9: 0.25, 8: 0.5, 7: 0.75},
}


def handles(obs: Observation) -> bool:
    """Whether this module decides how to sample and search for ``obs`` (every table but
    the plain four-handed one, and not the two-live variants whose dead hands sit out)."""
    rules = obs.rules
    return not rules.two_live and (rules.players != 4 or rules.seats != 4)


def deals_for(samples: int, obs: Observation) -> int:
    """Deals to solve for a decision in play (0: the heuristic plays it)."""
    players = len(obs.active or range(obs.rules.seats))
    left = 10 - len(obs.tricks)
    scale = SCALES.get(players, SCALES[6]).get(left, 1.0)
    if not scale:
        return 0 if samples < 128 else max(2, samples // 16)
    return max(MIN_PLAY_DEALS, round(samples * scale))


def deal_numbers(count: int, budget: int = PLAY_NODE_BUDGET) -> Iterator[int]:
    """Deal numbers up to ``count``, stopping (after :data:`MIN_PLAY_DEALS`) once the
    solver has searched ``budget`` positions since the first."""
    from fivehundred.solver import nodes_searched

    start = nodes_searched()
    for n in range(count):
        if n >= MIN_PLAY_DEALS and nodes_searched() - start >= budget:
            return
        yield n


def hidden_counts(obs: Observation) -> dict[int, int]:
    """Unseen cards each active seat holds: its hand size less the cards of it this seat
    sees (a dummy's face-up cards, its owner's hand, our own hand)."""
    seats = obs.rules.seats
    known = dict(obs.exposed)
    known[obs.seat] = known.get(obs.seat, 0) | obs.hand
    active = obs.active or tuple(range(seats))
    out: dict[int, int] = {}
    for s in active:
        n = obs.hand_sizes[s] - known.get(s, 0).bit_count()
        if n > 0:
            out[s] = n
    return out


def sample_hands(obs: Observation, rng: random.Random, tries: int = 30) -> list[CardMask] | None:
    """Every active seat's hand, the cards this seat sees where they are and the unseen ones
    dealt at random within the constraints (None if no deal was found)."""
    seats = obs.rules.seats
    ctx = play_context(obs)
    hands = [0] * seats
    for seat, mask in obs.exposed:
        hands[seat] |= mask
    hands[obs.seat] |= obs.hand
    need = hidden_counts(obs)
    to_fill = list(need)
    unseen = obs.unseen
    pile = unseen.bit_count() - sum(need.values())
    if pile < 0:
        return None
    forbidden = {s: 0 for s in to_fill}
    for s in to_fill:
        if s in dict(obs.exposed) or s == obs.seat:
            continue  # a dummy shows no void: its face-down cards may hold the suit
        forbidden[s] |= void_cards(obs, ctx, s)
    if obs.seat in forbidden and obs.trick and not obs.hand & ctx.follow_masks[obs.led_suit]:
        # A dummy to play with no face-up card of the led suit may discard: deal its
        # face-down cards none of the suit, so that the search's choices are the legal ones.
        forbidden[obs.seat] |= ctx.follow_masks[obs.led_suit]
    # Five players: the called card is in a defender's hand until it is played.
    must: dict[int, tuple[int, ...]] = {}
    called = obs.called_card
    if called >= 0 and unseen >> called & 1:
        holders = tuple(
            s for s in to_fill if s != obs.contractor and not forbidden[s] >> called & 1
        )
        if not holders:
            return None
        must[called] = holders
    contractor = obs.contractor
    wanted_trumps = 0
    trump_pool: list[int] = []
    if contractor in need and 0 <= obs.trump < NO_TRUMPS and is_suit_bid(obs.contract):
        follow = ctx.follow_masks[obs.trump]
        trumps = unseen & follow & ~forbidden[contractor]
        played_trumps = tricks_played_in(obs, contractor, follow)
        share = trumps.bit_count() * 2 // max(3, len(to_fill))
        wanted_trumps = max(0, min(need[contractor], 5 - played_trumps, share))
        trump_pool = [c for c in iter_cards(trumps) if c not in must]
    cards = [c for c in iter_cards(unseen) if c not in must]
    for _ in range(tries):
        room = dict(need)
        room_pile = pile
        out = dict.fromkeys(to_fill, 0)
        for card, holders in must.items():
            options = [s for s in holders if room[s] > 0]
            if not options:
                break
            s = rng.choices(options, [room[h] for h in options])[0]
            out[s] |= 1 << card
            room[s] -= 1
        first: list[int] = []
        if wanted_trumps:
            pool = list(trump_pool)
            rng.shuffle(pool)
            first = pool[: min(wanted_trumps, room[contractor])]
            for card in first:
                out[contractor] |= 1 << card
                room[contractor] -= 1
        rest = [c for c in cards if c not in first]
        if deal_rest(rest, to_fill, room, room_pile, forbidden, out, rng):
            for s, mask in out.items():
                hands[s] |= mask
            return hands
    return None


# ----------------------------------------------------------------------------- search
#: Player counts where each seat scores for itself (three, five): a defender also values
#: its own tricks against the other defenders' (see :func:`search`).
SELFISH_COUNTS = (3, 5)


class _Searcher(Protocol):
    samples: int
    rng: random.Random
    heuristic: HeuristicPlayer

    def deals_for(self, obs: Observation) -> int: ...

    def utility(self, obs: Observation, total: int) -> float: ...

    def game_chance(
        self, obs: Observation, outcomes: Sequence[tuple[float, dict[Action, int]]]
    ) -> Callable[[int], float] | None: ...


def deal_rest(
    rest: list[int],
    to_fill: Sequence[int],
    room: dict[int, int],
    room_pile: int,
    forbidden: dict[int, CardMask],
    out: dict[int, CardMask],
    rng: random.Random,
) -> bool:
    """Deal the cards ``rest`` into ``out`` at random, each seat up to its ``room`` and
    never a card it is ``forbidden`` (a suit it showed void in), the rest to a pile of
    ``room_pile`` (the kitty, a dead hand); the most constrained cards first. Whether every
    seat's room was filled (``room`` and ``out`` are changed in place)."""
    rng.shuffle(rest)
    rest.sort(key=lambda c: sum(1 for s in to_fill if forbidden[s] >> c & 1), reverse=True)
    for card in rest:
        options = [s for s in to_fill if room[s] > 0 and not forbidden[s] >> card & 1]
        weights = [room[s] for s in options]
        total = sum(weights) + room_pile
        if total <= 0:
            return False
        pick = rng.randrange(total)
        for s, w in zip(options, weights, strict=True):
            if pick < w:
                out[s] |= 1 << card
                room[s] -= 1
                break
            pick -= w
        else:
            room_pile -= 1
    return all(v == 0 for v in room.values())


def selfish_utility(obs: Observation, team: float, total: int, mine: int, side: int) -> float:
    """A defender's points less the average other seat's when each seat scores for itself.

    ``team`` is the defence's utility (:meth:`PimcPlayer.utility`) when the ``side``
    contracting seats end with ``total`` tricks; ``mine`` the tricks this seat can take
    against everyone. The contracting seats score the contract's value (won or lost),
    every defender 10 a trick: the other defenders' tricks count against this seat."""
    others = len(obs.active or range(obs.rules.seats)) - 1
    defence = 10 - total
    value = -team + 10 * defence - total  # the contractor's points for the contract
    return 10 * mine - (side * value + 10 * max(0, defence - mine)) / others


def deal_side(
    obs: Observation, contracting: Sequence[int], active: Sequence[int], hands: Sequence[CardMask]
) -> Sequence[int]:
    """The contracting side in a sampled deal: five players, before the called card shows,
    the contractor and whoever holds it in this deal."""
    if obs.rules.called_partner and not obs.partners and obs.called_card >= 0:
        return (obs.contractor, *(s for s in active if hands[s] >> obs.called_card & 1))
    return contracting


def solve_values(
    obs: Observation,
    ctx: PlayContext,
    active: Sequence[int],
    side: Sequence[int],
    hands: Sequence[CardMask],
    won: int,
) -> dict[Action, int]:
    """Double dummy from ``obs``'s position in a deal of ``hands``: for each legal action,
    ``side``'s final trick total (``won`` already)."""
    from fivehundred.solver import Position, values_position

    pos = Position.build(
        ctx,
        active,
        side,
        hands,
        obs.seat,
        [(seat, action_card(a)) for seat, a in obs.trick],
        obs.led_suit,
        obs.suits_led,
        obs.voids,
        obs.rules.joker_lead == JOKER_LEAD_NOT_RENOUNCED,
        won,
    )
    return values_position(pos)


def search(player: _Searcher, obs: Observation) -> tuple[Action, str]:
    """The PIMC search at the other counts: :func:`sample_hands` deals, each solved
    double-dummy, stopping after :data:`PLAY_NODE_BUDGET` positions; the action with the
    best total utility is played. Five players: before the called card shows, the seat
    holding it in each deal is the contractor's partner. Three or five players
    (:data:`SELFISH_COUNTS`), a defender weighs its own tricks too."""
    rng = random.Random(player.rng.random())
    ctx = play_context(obs)
    rules = obs.rules
    active = obs.active or tuple(range(rules.seats))
    if obs.contractor >= 0:
        contracting: tuple[int, ...] = (obs.contractor, *obs.partners)
    else:
        sides = side_of_seats(rules)
        contracting = tuple(s for s in active if sides[s] == sides[obs.seat])
    totals: dict[Action, float] = dict.fromkeys(obs.legal, 0.0)
    solved: list[tuple[dict[Action, int], dict[Action, int], int, bool]] = []
    for _ in deal_numbers(player.deals_for(obs)):
        hands = sample_hands(obs, rng)
        if hands is None:
            continue
        side = deal_side(obs, contracting, active, hands)
        won = sum(obs.tricks_won[s] for s in side)
        values = solve_values(obs, ctx, active, side, hands, won)
        if not set(totals) <= set(values):
            continue
        selfish = len(active) in SELFISH_COUNTS and obs.contractor >= 0 and obs.seat not in side
        mine: dict[Action, int] = {}
        if selfish:
            mine = solve_values(obs, ctx, active, (obs.seat,), hands, obs.tricks_won[obs.seat])
        solved.append((values, mine, len(side), selfish))
    game = player.game_chance(obs, [(1.0, values) for values, _, _, _ in solved])
    for values, mine, size, selfish in solved:
        for action in totals:
            team = player.utility(obs, values[action])
            if selfish and is_suit_bid(obs.contract):
                team = selfish_utility(obs, team, values[action], mine.get(action, 0), size)
            # Near the end of a game (three or six players): the chance to win it, the
            # hand's points a tie-break (:meth:`PimcPlayer.game_chance`).
            totals[action] += team if game is None else game(values[action]) + 0.01 * team
    if not solved:
        action = player.heuristic.act(obs)
        return action, player.heuristic.explain()
    best = max(obs.legal, key=lambda a: (totals[a], -a))
    two = rules.joker_names
    count = len(solved)

    def shown(total: float) -> str:
        value = total / count
        return f"{value / 10:.0f}% to win the game" if game else f"{value:+.0f}"

    why = f"{say(best, two)}: it scored best over {count} sampled deals (" + (
        shown(totals[best])
        if game
        else f"{totals[best] / count:+.0f} points for my side on average"
    )
    others = [a for a in obs.legal if a != best and action_card(a) != action_card(best)]
    if others:
        second = max(others, key=lambda a: (totals[a], -a))
        why += f"; the next best, {say(second, two)}, {shown(totals[second])}"
    return best, why + ")"


# ----------------------------------------------------------------------------- bidding
#: Player counts (players, not seats: two-handed is 2) whose bids and discard the PIMC
#: player simulates here; four-handed is :mod:`fivehundred.bots.pimc`'s own. Measured
#: against the heuristic (60 duplicate hands each, seed 11, points a hand): two-handed +22.3
#: simulated, +1.8 bidding by the heuristic's rules; three-handed +8.5 and +1.5;
#: five-handed +2.0 and -0.7; six-handed +19.8 simulated.
BID_COUNTS = (2, 3, 5, 6)


def simulated_bidding(obs: Observation) -> bool:
    """Whether the auction and the discard are simulated at this table (see
    :func:`fivehundred.bots.simulate.bid_by_simulation`; every count but the two-live
    variants, whose dead hands the simulation does not deal)."""
    return handles(obs) and obs.rules.players in BID_COUNTS


#: Five or six seats: at most this many deals for a bid or the discard, and this share of
#: the four-handed budget of positions (a whole-hand solve there costs ~0.1 s).
WIDE_BID_DEALS = 6
WIDE_BID_SHARE = 0.2


#: Per player count, the share of deals on which a simulated declarer's double-dummy
#: trick count is taken a trick lower (negative: a trick higher). Three-handed the
#: declarer plays alone against two defenders who, double dummy, see each other's cards:
#: it does better at the table than the solve says (60 duplicate three-handed hands, seed
#: 11: 31.5% of hands won, +8.6 points a hand against the heuristic with the four-handed
#: 0.4; 33.9% and +9.0 with -0.4, 34.5% and +10.5 with -0.8). Five-handed the contractor
#: and its called partner face three such defenders (30 duplicate hands, seed 11: +3.0
#: points a hand with -0.4, +0.9 with 0.4).
DECLARER_SHADES: dict[int, float] = {3: -0.6, 5: -0.4}


def declarer_shade(rules: Rules, default: float) -> float:
    """The shade of a simulated declarer's trick count at this table (see
    :data:`DECLARER_SHADES`)."""
    return DECLARER_SHADES.get(rules.players, default)


#: Player counts where each seat scores for itself: a simulated bid is valued as the
#: seat's points less the average other seat's (see :func:`solo_score`).
SOLO_COUNTS = (3, 5)


def solo_score(contract: Action, tricks: int, rules: Rules, declarer: bool) -> float:
    """A seat's points less the average of the other seats' when the contracting side ends
    with ``tricks``, each seat scoring for itself: the contractor (and, five-handed, its
    called partner) the contract's value won or lost, each defender 10 a trick (the
    defence's tricks taken as evenly shared). ``declarer``: the contractor's view, else a
    defender's."""
    from fivehundred.bots.simulate import contract_score, defence_points

    defence = defence_points(contract, tricks, rules)
    value = contract_score(contract, tricks, rules) + defence
    seats = rules.players
    side = 2 if rules.called_partner and is_suit_bid(contract) else 1
    defenders = seats - side
    if declarer:
        return (value * (seats - side) - defence) / (seats - 1)
    mine = defence / defenders
    return mine - (side * value + defence - mine) / (seats - 1)


def solo_shaded(contract: Action, tricks: int, rules: Rules, declarer: bool) -> float:
    """:func:`solo_score` with the declarer's double-dummy count shaded as
    :func:`fivehundred.bots.simulate.shaded_score` does (:func:`declarer_shade`)."""
    from fivehundred.bots.simulate import shade_step

    score = solo_score(contract, tricks, rules, declarer)
    other, weight = shade_step(rules, contract, tricks)
    if not weight:
        return score
    return (1 - weight) * score + weight * solo_score(contract, other, rules, declarer)


def bid_effort(rules: Rules, deals: int, max_nodes: int | None) -> tuple[int, int | None]:
    """Deals and positions a bid or a discard may spend at this count."""
    if len(rules.live_seats) < 5:
        return deals, max_nodes
    budget = None if max_nodes is None else int(max_nodes * WIDE_BID_SHARE)
    return min(deals, WIDE_BID_DEALS), budget


def friends_of(rules: Rules, seat: int) -> tuple[int, ...]:
    """``seat`` and the seats that always score with it (partners with two, four or six
    players; with three or five each seat is alone before a partner is called)."""
    sides = side_of_seats(rules)
    return tuple(s for s in range(rules.seats) if sides[s] == sides[seat])


def called_holder(
    rules: Rules, contractor: int, contract: Action, hands: Sequence[CardMask]
) -> int:
    """Five players: the seat holding the card the contractor would call (the best trump it
    lacks, in no trumps the best card, as the heuristic calls), -1 if none is held."""
    strain = bid_strain(contract)
    ctx = context_for(strain, False, (-1, -1))
    trumps = ctx.follow_masks[strain] if strain != NO_TRUMPS else 0
    best = (-1, -1, -1)
    for s in range(rules.seats):
        if s == contractor:
            continue
        for card in iter_cards(hands[s] & ~JOKERS_MASK):
            key = (1 if trumps >> card & 1 else 0, ctx.power[card], s)
            if key > best:
                best = key
    return best[2]


def contract_seats(
    rules: Rules, contractor: int, contract: Action, hands: Sequence[CardMask]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The active seats and the contracting side for a whole-hand solve of ``contract``
    (hands after the discard): partners sit out where the contractor plays alone (misère,
    hi/lo; not double misère, R-HOUSE); five-handed, the holder of the card the contractor
    would call is its partner."""
    seats = tuple(rules.live_seats)
    if rules.called_partner:
        holder = (
            -1 if not is_suit_bid(contract) else called_holder(rules, contractor, contract, hands)
        )
        return seats, (contractor,) if holder < 0 else (contractor, holder)
    side = tuple(s for s in friends_of(rules, contractor) if s in seats)
    if plays_alone(contract):
        return tuple(s for s in seats if s == contractor or s not in side), (contractor,)
    return seats, side


__all__ = [
    "BID_COUNTS",
    "PLAY_NODE_BUDGET",
    "bid_effort",
    "called_holder",
    "contract_seats",
    "deal_numbers",
    "deals_for",
    "declarer_shade",
    "friends_of",
    "handles",
    "hidden_counts",
    "sample_hands",
    "search",
    "selfish_utility",
    "simulated_bidding",
    "solo_score",
    "solo_shaded",
]
