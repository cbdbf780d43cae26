"""Five Hundred as an OpenSpiel Python game, ``python_five_hundred`` (see docs/env.md).

Importing this module registers the game::

    import numpy as np
import pyspiel
    import fivehundred.env.openspiel_game  # noqa: F401  (registers the game)
    game = pyspiel.load_game("python_five_hundred", {"preset": "australian"})

One episode is one hand. The deal is explicit chance: one chance node per card, in the
order of the deal (R-DEAL), each remaining card equally likely. Players are the rules'
players (two players also decide for their dummies). Actions are the engine's action
numbers (:mod:`fivehundred.actions`); returns are each player's side's points for the
hand. ``observation_tensor`` is the environment's observation vector
(:mod:`fivehundred.env.encoding`); ``information_state_string`` is the player's whole
view as JSON (every call and card it has seen, its own dealt hand and discards).
``resample_from_infostate`` deals the unseen cards anew consistently with the player's
view (:mod:`fivehundred.env.sampling`), which OpenSpiel's ISMCTS bot uses.

Parameters: ``preset`` (default ``australian``), ``variants`` (``"target=300,two_jokers"``)
and ``dealer`` (default 0).
"""

from __future__ import annotations

import json
import random
from typing import Any

import numpy as np
import pyspiel

from fivehundred.actions import MISERE_ACTIONS, NUM_ACTIONS, action_text, bid_action
from fivehundred.cards import NUM_CARDS, card_text, mask_text
from fivehundred.env.encoding import Encoder, acting_seat
from fivehundred.env.render import table_text
from fivehundred.env.sampling import resample
from fivehundred.errors import FiveHundredError
from fivehundred.game import (
    TABLE_SEAT,
    TRICKS_PER_HAND,
    HandState,
    controller_of,
    deal_plan,
    dummy_seats,
)
from fivehundred.record_cli import parse_variants
from fivehundred.rules import Rules, make_rules
from fivehundred.scoring import DEFENDER_TRICK_POINTS, SLAM_MINIMUM, bid_value, side_of_seats

SHORT_NAME = "python_five_hundred"
DEFAULT_PARAMS: dict[str, Any] = {"preset": "australian", "variants": "", "dealer": 0}

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python Five Hundred",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMS,
)


def rules_of(params: dict[str, Any]) -> Rules:
    """The rules named by the game parameters (a clear error for bad ones)."""
    variants = [v.strip() for v in str(params.get("variants", "")).split(",") if v.strip()]
    return make_rules(str(params.get("preset", "australian")), parse_variants(variants))


def _utility_bound(rules: Rules) -> float:
    calls = [bid_action(tricks, strain) for tricks in range(6, 11) for strain in range(5)]
    best = max(bid_value(call, rules) for call in (*calls, *MISERE_ACTIONS))
    return float(max(best, SLAM_MINIMUM) + DEFENDER_TRICK_POINTS * TRICKS_PER_HAND)


class FiveHundredGame(pyspiel.Game):  # type: ignore[misc]
    """The OpenSpiel game (one hand) for a preset and variants."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**DEFAULT_PARAMS, **(params or {})}
        try:
            self.rules = rules_of(params)
        except FiveHundredError as error:
            raise ValueError(f"{SHORT_NAME}: {error}") from None
        rules = self.rules
        self.dealer = int(params["dealer"]) % rules.players
        bound = _utility_bound(rules)
        pack = rules.pack.cards.bit_count()
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=NUM_CARDS,
            num_players=rules.players,
            min_utility=-bound,
            max_utility=bound,
            max_game_length=pack
            + 30 * rules.seats
            + rules.pack.kitty_size
            + 3
            + TRICKS_PER_HAND * rules.seats,
        )
        super().__init__(GAME_TYPE, info, params)
        self.encoder = Encoder(rules)
        self.deck, self.owners = deal_plan(rules)

    def new_initial_state(self) -> FiveHundredState:
        return FiveHundredState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> Observer:
        return Observer(
            self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class FiveHundredState(pyspiel.State):  # type: ignore[misc]
    """A hand being dealt (chance) or played."""

    def __init__(self, game: FiveHundredGame) -> None:
        super().__init__(game)
        # Plain data only: OpenSpiel copies states with deepcopy.
        self.rules = game.rules
        self.dealer = game.dealer
        self.dealt: list[int] = []  # cards in deal order
        self.hand: HandState | None = None

    def current_player(self) -> int:
        hand = self.hand
        if hand is None:
            return int(pyspiel.PlayerId.CHANCE)
        if hand.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return controller_of(self.rules, hand.to_move)

    def _legal_actions(self, player: int) -> list[int]:
        assert self.hand is not None
        return sorted(self.hand.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        remaining = sorted(set(deal_plan(self.rules)[0]) - set(self.dealt))
        p = 1.0 / len(remaining)
        return [(card, p) for card in remaining]

    def _apply_action(self, action: int) -> None:
        if self.hand is None:
            self.dealt.append(int(action))
            if len(self.dealt) == len(deal_plan(self.rules)[0]):
                self.hand = self._deal()
            return
        self.hand.apply(int(action))

    def _deal(self) -> HandState:
        return HandState.from_deck(self.rules, self.dealer, self.dealt)

    def _action_to_string(self, player: int, action: int) -> str:
        two = self.rules.joker_names
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {card_text(action, two)}"
        return action_text(action, two)

    def is_terminal(self) -> bool:
        return self.hand is not None and self.hand.is_over

    def returns(self) -> list[float]:
        players = self.rules.players
        if not self.is_terminal():
            return [0.0] * players
        assert self.hand is not None
        points = self.hand.result.points
        sides = side_of_seats(self.rules)
        return [float(points[sides[p]]) for p in range(players)]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> Any:
        """A state with the same information state for ``player_id``, the cards it cannot
        see dealt anew (consistent with the auction, the play and the voids shown)."""
        if self.hand is None:
            return self.clone()
        rng = random.Random(int(probability_sampler() * 2**52))
        hand = resample(self.hand, player_id, rng)
        return _replayed(self.get_game(), hand, self.rules)

    def __str__(self) -> str:
        if self.hand is None:
            return f"dealing: {len(self.dealt)} of {len(deal_plan(self.rules)[0])} cards"
        return table_text(self.hand)


def _replayed(game: FiveHundredGame, hand: HandState, rules: Rules) -> Any:
    """The OpenSpiel state of ``hand``: its deal as chance actions, then its history."""
    state = game.new_initial_state()
    for card in _deck_of(hand, game.dealer):
        state.apply_action(card)
    for action in hand.history:
        state.apply_action(action)
    return state


def _deck_of(hand: HandState, dealer: int) -> list[int]:
    """A deck that :meth:`HandState.from_deck` deals as ``hand`` was dealt (each hand's
    cards in the order its rules need: the dummies' and the stock's as dealt)."""
    rules = hand.rules
    pools: dict[int, list[int]] = {
        seat: sorted(c for c in range(NUM_CARDS) if hand.dealt[seat] >> c & 1)
        for seat in range(rules.seats)
    }
    pools[-1] = sorted(c for c in range(NUM_CARDS) if hand.kitty_dealt >> c & 1)
    if rules.draw_pack:
        return pools[-1] + list(hand.stock)
    for seat, order in zip(dummy_seats(rules), hand.dummy_deal, strict=True):
        pools[seat] = list(order)
    if rules.open_eight:
        first = (dealer + 1) % rules.players
        return [c for seat in (first, 1 - first, TABLE_SEAT, TABLE_SEAT + 1) for c in pools[seat]]
    seats = rules.seats
    owners = [
        (dealer + 1 + owner) % seats if owner < seats else -1 for owner in deal_plan(rules)[1]
    ]
    return [pools[owner].pop(0) for owner in owners]


class Observer:
    """OpenSpiel's Python observer: the observation vector as the tensor; strings as JSON
    (the information state: every observation detail of the player's seats, its own
    dealt hand; the observation: the acting seat's view)."""

    def __init__(self, game: FiveHundredGame, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        self.encoder = Encoder(game.rules)
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.tensor = np.zeros(game.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: FiveHundredState, player: int) -> None:
        hand = state.hand
        if hand is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = self.encoder.encode(hand, acting_seat(hand, player))

    def string_from(self, state: FiveHundredState, player: int) -> str:
        rules = state.rules
        hand = state.hand
        if hand is None:
            owners = deal_owners(rules, state.dealer)
            own = [c for owner, c in zip(owners, state.dealt, strict=False) if owner == player]
            return json.dumps({"dealing": [card_text(c, rules.joker_names) for c in own]})
        if not self.perfect_recall:
            view = hand.observation(acting_seat(hand, player)).to_json()
            view.pop("players", None)
            return json.dumps(view, sort_keys=True)
        mine = [player] + [s for s in dummy_seats(rules) if controller_of(rules, s) == player]
        views = []
        for seat in mine:
            view = hand.observation(seat).to_json()
            view.pop("players", None)
            views.append(view)
        dealt = mask_text(hand.dealt[player], rules.joker_names)
        return json.dumps({"dealt": dealt, "views": views}, sort_keys=True)


def deal_owners(rules: Rules, dealer: int) -> list[int]:
    """The seat that receives the card at each position of the deal (-1: the kitty, the
    stock or the face-up cards), as :meth:`HandState.from_deck` deals."""
    deck = deal_plan(rules)[0]
    if rules.draw_pack:  # the kitty set aside, then the stock: drawn later
        return [-1] * len(deck)
    if rules.open_eight:  # each hand in turn, the non-dealer's first, then the table's
        first = (dealer + 1) % rules.players
        owners: list[int] = []
        for seat in (first, 1 - first, TABLE_SEAT, TABLE_SEAT + 1):
            owners += [seat if seat < rules.players else -1] * rules.hand_sizes[seat]
        return owners
    seats = rules.seats
    return [(dealer + 1 + owner) % seats if owner < seats else -1 for owner in deal_plan(rules)[1]]


pyspiel.register_game(GAME_TYPE, FiveHundredGame)
