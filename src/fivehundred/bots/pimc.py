"""The strong player: Perfect Information Monte Carlo (PIMC) bidding, discarding and play.

For each decision in play it deals the unseen cards many times, consistently with all the
seat has seen — its own hand, every card played, the voids each seat has shown, the open
hands, and the auction (the contractor is dealt a fair share of the trumps of its strain;
the other seats' hands are redrawn a few times to fit their calls: a bidder's tricks in
its strain, an early passer's weakness, see :mod:`fivehundred.bots.simulate`). Each deal is
solved double-dummy (:mod:`fivehundred.solver`); the action with the best total score over
the deals is played.

Bids and the discard are simulated too (at two, three, five and six players through
:mod:`fivehundred.bots.counts`, which also samples and searches there): for each candidate contract
the seat picks up a sampled kitty, discards as the heuristic would, and the deal is solved
from the opening lead; the call with the best mean score (a set costs the contract's
value, the defenders score 10 a trick) wins, passing valued by solving the contract that
stands. The discard is the best of a few candidate sets on solved deals. Hands far from a
contract pass at once, by the heuristic's count.

The game, not the points (three, four or six players, scores known): when a call or a play can end the
game on some solved deal, the outcomes are valued by the chance to win the game from the
scores they leave (:mod:`fivehundred.bots.equity`: certain when the side goes out, nil when
the others do or it goes out backwards, a fitted estimate otherwise), not by the hand's
points. So a hand bids the level that reaches the target, and against an opponent's
contract that would win the game every level of the strains solved is weighed: defenders'
points stop at 490, so a set often costs less than the game.

Beliefs (four players): the sampled deals are weighted by how likely the heuristic, as the
model of the other players, would have made the calls seen with the hands each deal gives
them (:mod:`fivehundred.bots.belief`): for a bid or the discard, each deal is the pick of
three by that weight; in play, each solved deal counts by the weight of the opponents'
calls (not partner's, nor the contractor's, whose hand the kitty changed).

Strength: ``PimcPlayer(seed, samples=N)``; by name ``pimc`` (default, 64 deals in play, 21
for a bid, 10 for the discard), ``pimc:N``, ``pimc:fast`` (16) or ``pimc:strong`` (160).
``pimc:postpone`` (``postpone=6, postpone_fit=16``) is ``pimc`` with a remedy for PIMC's
strategy fusion in the last tricks: its next card chosen once over the deals it will not be
able to tell apart (:mod:`fivehundred.bots.postpone`). ``pimc:model`` (``model=True``) draws
its deals in play from the learnt model of the hidden cards (:mod:`fivehundred.bots.hidden`:
the deals that keep every constraint, each as likely as the model finds its cards' places)
instead of weighting them by the calls; its bids and discard are pimc's.
Early in the hand a double-dummy solve costs far more, so the number of deals is scaled
down for the first tricks, a bid or a discard stops solving once the solver has searched
its budget of positions (:data:`NODE_BUDGET`, about 0.3 s; a count, not a time, so that a
seed gives the same game on any machine), and below 128
deals the first trick is played by the heuristic (a few solved deals choose a worse opening
lead than its rules). Without the solver (numpy missing, or its compiled kernel not built
at install) there is no such player: ``PimcPlayer`` raises :class:`PlayerUnavailableError`,
naming what is missing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, TypedDict

from fivehundred.actions import (
    HI_LO,
    Action,
    action_card,
    bid_tricks,
    is_misere,
    is_suit_bid,
)
from fivehundred.bots import counts, equity
from fivehundred.bots.base import Player, say
from fivehundred.bots.belief import CallModel
from fivehundred.bots.heuristic import HeuristicPlayer
from fivehundred.bots.house import house_action, house_bid, without_claim
from fivehundred.bots.memory import (
    play_context,
    played_by_seat,
    tricks_played_in,
    void_cards,
)
from fivehundred.bots.simulate import Read, auction_reads, bid_by_simulation, discard_by_simulation
from fivehundred.cards import NO_TRUMPS, CardMask, iter_cards
from fivehundred.observation import Observation
from fivehundred.play import PlayContext
from fivehundred.rules import JOKER_LEAD_NOT_RENOUNCED
from fivehundred.scoring import HI_LO_TRICKS, bid_value, side_of_seats

if TYPE_CHECKING:
    from fivehundred.bots.hidden import ModelSampler

#: What to do where the solver is missing (see :class:`PlayerUnavailableError`).
SOLVER_MISSING = "pip install 'fivehundred[solver]'"
try:
    from fivehundred.bots import postpone
    from fivehundred.solver import Position, shared_table, values_position  # noqa: F401

    HAVE_SOLVER = True
except ImportError as error:  # pragma: no cover - depends on the environment
    HAVE_SOLVER = False
    if error.name == "fivehundred.solver._kernel":  # not built at install: say so
        SOLVER_MISSING = str(error)

DEFAULT_SAMPLES = 64


class PimcSetting(TypedDict, total=False):
    """Keyword arguments of :class:`PimcPlayer` for a named setting."""

    samples: int
    postpone: int
    postpone_fit: int
    model: bool


#: Named settings: ``pimc:NAME`` is ``PimcPlayer(seed, **PIMC_PRESETS[NAME])``.
PIMC_PRESETS: dict[str, PimcSetting] = {
    "fast": {"samples": 16},
    "default": {"samples": DEFAULT_SAMPLES},
    "strong": {"samples": 160},
    # the seat's next card chosen over the deals it cannot tell apart, 3-6 tricks left
    "postpone": {"postpone": 6, "postpone_fit": 16},
    # the deals in play drawn from the learnt model of the hidden cards
    "model": {"model": True},
}
#: Share of the deals used when this many tricks are left (a full-hand solve costs ~100x
#: a four-trick one).
_SCALE = {10: 0.0, 9: 0.25, 8: 0.5, 7: 0.75}
#: Player counts whose bids and discard are simulated here (the other counts:
#: ``fivehundred.bots.counts.BID_COUNTS``).
SIMULATED_COUNTS = (4,)
#: Positions searched for a bid at the default strength (see ``PimcPlayer.node_budget``).
NODE_BUDGET = 2_500_000


class PlayerUnavailableError(ValueError):
    """A player that cannot run here as asked (a missing optional dependency)."""


class PimcPlayer(Player):
    """Samples deals consistent with the observation and solves each double-dummy."""

    name = "pimc"

    def __init__(
        self,
        seed: int | None = None,
        samples: int = DEFAULT_SAMPLES,
        bid_deals: int | None = None,
        beliefs: bool = True,
        postpone: int = 0,
        postpone_fit: int = 16,
        model: bool = False,
    ) -> None:
        if not HAVE_SOLVER:
            raise PlayerUnavailableError(
                f"the pimc player needs the double-dummy solver: {SOLVER_MISSING}"
            )
        super().__init__(seed)
        self.samples = samples
        #: Deals solved for each bid and for the discard (0: bid and discard as the
        #: heuristic does). A whole-hand solve costs about 10 ms.
        self.bid_deals = bid_deals if bid_deals is not None else max(6, samples // 3)
        #: Positions the solver may search for one bid (a discard: half), about 0.3 s at
        #: default strength; four deals are always solved. Counted in positions, not
        #: seconds, so that a seed gives the same game on any machine, and a deal that is
        #: slow to solve leaves less for the others.
        self.node_budget = NODE_BUDGET if samples < 128 else 8 * NODE_BUDGET
        self.heuristic = HeuristicPlayer(seed)
        #: Weight the sampled deals by how likely the heuristic, as the model of the
        #: others, would have made the calls seen (:mod:`fivehundred.bots.belief`).
        self.beliefs = beliefs
        #: With this many tricks left or fewer (and at least three), four players, the
        #: seat's next decision is postponed (:mod:`fivehundred.bots.postpone`); 0: never.
        self.postpone = postpone
        #: A postponed decision is taken over the deals that lead there, topped up to
        #: this many with other sampled deals that fit what the seat will have seen.
        self.postpone_fit = postpone_fit
        #: Draw the deals in play from the learnt model of the hidden cards
        #: (:mod:`fivehundred.bots.hidden`) where it applies, instead of weighting them by
        #: the calls (the model reads the auction itself).
        self.sampler: ModelSampler | None = None
        if model:
            from fivehundred.bots.hidden import ModelSampler

            self.sampler = ModelSampler()
        self._model: CallModel | None = None
        self._model_key: tuple[object, ...] = ()
        self._discard_plan: CardMask = 0
        self._discard_why = ""
        self._reads: list[Read] = []
        self._reads_key: tuple[object, ...] = ()

    def act(self, observation: Observation) -> Action:
        obs = observation
        if not obs.legal:
            raise ValueError("no legal action: it is not this seat's turn")
        simulate = (
            self.bid_deals > 0
            and len(obs.legal) > 1
            and self.supported(obs)
            and (
                (obs.rules.players in SIMULATED_COUNTS and obs.rules.seats == obs.rules.players)
                or counts.simulated_bidding(obs)
            )
        )
        house = house_action(obs)  # claims, slam calls, hi/lo (R-HOUSE)
        if house is not None:
            self._reason = house[1]
            return house[0]
        obs = without_claim(obs)
        if simulate and obs.phase == "auction":
            rng = random.Random(self.rng.random())
            action, why = bid_by_simulation(
                obs, self.heuristic, self.bid_deals, rng, self.node_budget, self.beliefs
            )
            action, why = house_bid(obs, action) or (action, why)
            self._reason = why
            return action
        if simulate and obs.phase == "discard" and is_suit_bid(obs.contract):
            return self._discard(obs)
        if (
            obs.phase != "play"
            or len(obs.legal) == 1
            or not self.supported(obs)
            or not self.deals_for(obs)
        ):
            action = self.heuristic.act(obs)
            self._reason = self.heuristic.explain()
            return action
        action, why = counts.search(self, obs) if counts.handles(obs) else self.search(obs)
        self._reason = why
        return action

    @staticmethod
    def supported(obs: Observation) -> bool:
        """Deals can be sampled for this observation (only with the solver; the other
        player counts, two-handed dummies included, are sampled by ``counts``)."""
        if HAVE_SOLVER and counts.handles(obs):
            return True  # two, three, five or six players: see fivehundred.bots.counts
        if not HAVE_SOLVER or obs.rules.dummies:
            return False
        # With five or six at the table a full-hand solve takes far too long: search only
        # the last tricks there and play the first ones by the heuristic.
        players = len(obs.active or range(obs.rules.seats))
        return players <= 4 or len(obs.tricks) >= 6

    # ------------------------------------------------------------------ sampling
    def deals_for(self, obs: Observation) -> int:
        """Deals to solve now; 0 means play the first trick by the heuristic (a whole-hand
        solve costs up to a second, and a couple of deals choose worse than the rules of
        thumb)."""
        if counts.handles(obs):
            return counts.deals_for(self.samples, obs)
        left = 10 - len(obs.tricks)
        scale = _SCALE.get(left, 1.0)
        if not scale:
            return 0 if self.samples < 128 else max(2, self.samples // 16)
        return max(2, round(self.samples * scale))

    def sample_hands(self, obs: Observation, rng: random.Random) -> list[CardMask] | None:
        """Hands for every seat consistent with the observation (None if none found),
        preferring (a few tries) hands that fit what the others' calls showed: a bidder's
        length and honours in its strain, an early passer's weakness (see
        :func:`~fivehundred.bots.simulate.auction_reads`; the contractor's hand is read
        only through its trumps, as the kitty changed it)."""
        if counts.handles(obs):
            return counts.sample_hands(obs, rng)
        if self.sampler is not None:
            drawn = self.sampler.draw(obs, rng)
            if drawn is not None:
                return drawn
        reads = self._reads_for(obs)
        if not reads:
            return self._sample_once(obs, rng)
        played = played_by_seat(obs)
        best: tuple[int, list[CardMask] | None] = (99, None)
        for _ in range(4):
            hands = self._sample_once(obs, rng)
            if hands is None:
                return best[1]
            broken = sum(
                1 for read in reads if read.broken(hands[read.seat] | played[read.seat], obs.rules)
            )
            if broken < best[0]:
                best = (broken, hands)
            if not broken:
                break
        return best[1]

    def _reads_for(self, obs: Observation) -> list[Read]:
        """The auction's reads on seats whose hands are sampled (cached per hand)."""
        key = (obs.dealer, tuple(obs.auction), obs.seat, obs.contractor)
        if self._reads_key != key:
            exposed = {s for s, _ in obs.exposed}
            self._reads = [
                r
                for r in auction_reads(obs)
                if r.seat != obs.contractor
                and r.seat not in exposed
                and r.seat in (obs.active or range(obs.rules.seats))
                and obs.rules.players == 4
                and obs.rules.seats == 4
            ]
            self._reads_key = key
        return self._reads

    def call_model(self, obs: Observation) -> CallModel | None:
        """The model of the opponents' calls in play (cached per hand), or None without
        beliefs. The contractor's hand is not read (the kitty changed it), nor partner's:
        measured on 300 play positions, weighting by partner's calls as well gained
        nothing and cost 15 ms a decision."""
        if not self.beliefs or (self.sampler is not None and self.sampler.applies(obs)):
            return None
        key = (obs.dealer, tuple(obs.auction), obs.seat, obs.contractor)
        if self._model is None or self._model_key != key:
            friends = [
                s
                for s in range(obs.rules.seats)
                if obs.sides and s != obs.seat and obs.sides[s] == obs.sides[obs.seat]
            ]
            skip = (*friends, obs.contractor) if obs.contractor >= 0 else tuple(friends)
            self._model = CallModel(obs, self.heuristic, skip)
            self._model_key = key
        return self._model if self._model else None

    def _sample_once(self, obs: Observation, rng: random.Random) -> list[CardMask] | None:
        seats = obs.rules.seats
        ctx = play_context(obs)
        hands = [0] * seats
        hands[obs.seat] = obs.hand
        known = dict(obs.exposed)
        unseen = obs.unseen
        for seat, mask in known.items():
            hands[seat] = mask
        active = obs.active or tuple(range(seats))
        to_fill = [s for s in active if s != obs.seat and s not in known]
        need = {s: obs.hand_sizes[s] for s in to_fill}
        pile = unseen.bit_count() - sum(need.values())
        if pile < 0:
            return None
        forbidden = {s: 0 for s in to_fill}
        for s in to_fill:
            forbidden[s] |= void_cards(obs, ctx, s)
        cards = list(iter_cards(unseen))
        # What the auction says: the contractor holds its fair share of the trumps.
        contractor = obs.contractor
        trumps_first: list[int] = []
        if contractor in need and 0 <= obs.trump < NO_TRUMPS and is_suit_bid(obs.contract):
            trumps = unseen & ctx.follow_masks[obs.trump] & ~forbidden[contractor]
            played_trumps = tricks_played_in(obs, contractor, ctx.follow_masks[obs.trump])
            wanted = max(0, min(need[contractor], 5 - played_trumps, trumps.bit_count() * 2 // 3))
            pool = list(iter_cards(trumps))
            rng.shuffle(pool)
            trumps_first = pool[:wanted]
        for _ in range(30):
            room = dict(need)
            room_pile = pile
            out = {s: 0 for s in to_fill}
            for card in trumps_first:
                out[contractor] |= 1 << card
                room[contractor] -= 1
            rest = [c for c in cards if c not in trumps_first]
            if counts.deal_rest(rest, to_fill, room, room_pile, forbidden, out, rng):
                for s, mask in out.items():
                    hands[s] = mask
                return hands
        return None

    def _discard(self, obs: Observation) -> Action:
        """Discard the set chosen on solved deals, one card per action."""
        extra = obs.hand.bit_count() - obs.rules.pack.hand_size
        if extra == obs.rules.pack.kitty_size or not self._discard_plan & obs.hand:
            rng = random.Random(self.rng.random())
            deals = max(4, self.bid_deals // 2)
            self._discard_plan, self._discard_why = discard_by_simulation(
                obs, self.heuristic, deals, rng, self.node_budget // 2, self.beliefs
            )
        for card in iter_cards(self._discard_plan & obs.hand):
            if card in obs.legal:
                self._reason = self._discard_why
                return card
        action = self.heuristic.act(obs)
        self._reason = self.heuristic.explain()
        return action

    # ------------------------------------------------------------------ search
    def utility(self, obs: Observation, total: int) -> float:
        """Score difference for this seat's side if the contracting side ends with
        ``total`` tricks (the contract's value, 10 a trick to the defenders), plus a small
        tie-break on tricks."""
        contract = obs.contract
        if contract < 0:
            return float(total)
        ours = obs.seat == obs.contractor or obs.seat in obs.partners
        value = bid_value(contract, obs.rules)
        score: float
        if contract == HI_LO:  # exactly five (R-HOUSE): the nearer five, the better
            made = total == HI_LO_TRICKS
            score = (value if made else -value) - 10 * (10 - total) - abs(total - HI_LO_TRICKS)
        elif is_misere(contract):
            made = total == 0
            score = (value if made else -value) - 0.5 * total
        else:
            made = total >= bid_tricks(contract)
            score = (value if made else -value) - 10 * (10 - total) + total
        return score if ours else -score

    def _game_utility(
        self, obs: Observation, outcomes: Sequence[tuple[float, dict[Action, int]]]
    ) -> Callable[[int], float] | None:
        """When some play leads on some solved deal to an end of the game (three, four or
        six players, scores known): the chance to win the game
        (:mod:`fivehundred.bots.equity`, 1000 points for certainty) for the contracting
        side's final tricks, this hand's points a tie-break; otherwise None (the points
        decide)."""
        chance = self.game_chance(obs, outcomes)
        if chance is None:
            return None
        return lambda t: chance(t) + 0.01 * self.utility(obs, t)

    def game_chance(
        self, obs: Observation, outcomes: Sequence[tuple[float, dict[Action, int]]]
    ) -> Callable[[int], float] | None:
        """:meth:`_game_utility` without the tie-break: 1000 times the chance to win the
        game for the contracting side's final tricks, or None."""
        game = equity.for_seat(obs)
        if game is None or obs.contract < 0 or obs.contractor < 0:
            return None
        seen = {t for _, values in outcomes for t in values.values()}
        table = {t: game.outcome(obs.contract, obs.contractor, t) for t in seen}
        if not any(ends for _, ends in table.values()):
            return None
        return lambda t: 1000.0 * table[t][0]

    def _postponed(
        self,
        obs: Observation,
        ctx: PlayContext,
        active: Sequence[int],
        contracting: Sequence[int],
        trick: Sequence[tuple[int, int]],
        won: int,
        worlds: Sequence[tuple[float, list[CardMask]]],
    ) -> tuple[list[tuple[float, postpone.Deal]], postpone.Plan] | None:
        """The solved deals and the plan of this seat's next decision over them, where
        postponing applies (:mod:`fivehundred.bots.postpone`); else None."""
        left = 10 - len(obs.tricks)
        if (
            not 3 <= left <= self.postpone
            or not worlds
            or len(active) != 4
            or obs.rules.dummies
            or (obs.rules.called_partner and not obs.partners)
        ):
            return None
        setting = postpone.Setting(
            ctx, tuple(active), tuple(contracting), obs.rules.joker_lead == JOKER_LEAD_NOT_RENOUNCED
        )
        deals = [
            (
                weight,
                postpone.Deal(
                    tuple(hands),
                    obs.seat,
                    tuple(trick),
                    obs.led_suit,
                    obs.suits_led,
                    tuple(obs.voids),
                    won,
                    left,
                ),
            )
            for weight, hands in worlds
        ]
        return deals, postpone.plan(setting, obs.seat, deals, obs.legal, self.postpone_fit)

    def search(self, obs: Observation) -> tuple[Action, str]:
        """The decision in play: the sampled deals solved, the best action over them. The
        deals' solves share the solver's table (the positions of one deal that coincide
        with another's are not searched again; the values are those of separate solves)."""
        with shared_table():
            return self._search(obs)

    def _search(self, obs: Observation) -> tuple[Action, str]:
        rng = random.Random(self.rng.random())
        ctx = play_context(obs)
        active = obs.active or tuple(range(obs.rules.seats))
        if obs.contractor >= 0:
            # Partners sit out of misère (none then); double misère counts both (R-HOUSE).
            contracting: Sequence[int] = (obs.contractor, *obs.partners)
            if obs.rules.called_partner and not obs.partners and obs.called_card >= 0:
                contracting = (obs.contractor,)
        else:
            sides = side_of_seats(obs.rules)
            contracting = tuple(s for s in active if sides[s] == sides[obs.seat])
        won = sum(obs.tricks_won[s] for s in contracting)
        trick = [(seat, action_card(a)) for seat, a in obs.trick]
        totals: dict[Action, float] = dict.fromkeys(obs.legal, 0.0)
        solved = 0
        weight_sum = 0.0
        model = self.call_model(obs)
        played = played_by_seat(obs) if model is not None else [0] * obs.rules.seats
        outcomes: list[tuple[float, dict[Action, int]]] = []
        worlds: list[tuple[float, list[CardMask]]] = []
        for _ in range(self.deals_for(obs)):
            hands = self.sample_hands(obs, rng)
            if hands is None:
                continue
            side = counts.deal_side(obs, contracting, active, hands)
            values = counts.solve_values(obs, ctx, active, side, hands, won)
            if not set(totals) <= set(values):
                continue
            # The deal counts as much as its hands (as dealt) fit the others' calls.
            weight = (
                model.weight([h | p for h, p in zip(hands, played, strict=True)]) if model else 1.0
            )
            outcomes.append((weight, values))
            worlds.append((weight, hands))
            solved += 1
            weight_sum += weight
        postponed = self._postponed(obs, ctx, active, contracting, trick, won, worlds)
        # The game-aware utility needs every total that occurs, the postponed leaves' too.
        leaves = [(1.0, v) for v in postponed[1].leaves.values()] if postponed else []
        game = self._game_utility(obs, outcomes + leaves)
        utility = game or (lambda t: self.utility(obs, t))
        if postponed is not None:
            totals = postpone.plan_totals(obs.legal, *postponed, utility)
        else:
            for weight, values in outcomes:
                for action in totals:
                    totals[action] += weight * utility(values[action])
        if not solved:
            action = self.heuristic.act(obs)
            return action, self.heuristic.explain()
        best = max(obs.legal, key=lambda a: (totals[a], -a))
        mean = totals[best] / weight_sum
        weighted = ", weighted by how well each fits the bids" if model else ""
        if postponed is not None:
            weighted += "; my next card chosen once for the deals I cannot tell apart"
        two = obs.rules.joker_names

        def shown(total: float) -> str:
            value = total / weight_sum
            return f"{value / 10:.0f}% to win the game" if game else f"{value:+.0f}"

        why = f"{say(best, two)}: it scored best over {solved} sampled deals{weighted} " + (
            f"({shown(totals[best])}" if game else f"({mean:+.0f} points for my side on average"
        )
        others = [a for a in obs.legal if a != best and action_card(a) != action_card(best)]
        if others:
            second = max(others, key=lambda a: (totals[a], -a))
            why += f"; the next best, {say(second, two)}, {shown(totals[second])}"
        return best, why + ")"
