"""Levels for people: ``easy``, ``medium``, ``hard`` and ``expert``, by name.

- ``easy``: a beginner. It bids and plays as the heuristic does, but slips the way people
  learning the game do: now and then it bids a trick too many out of optimism, plays its
  highest card of the suit when a low one would do (over its partner's winner, too), leads
  an ace it should keep, or throws away a card it needed. The slips come from the
  player's seed, so a seed replays the same game.
- ``medium``: the heuristic (a good club player's rules).
- ``hard``: ``pimc`` (sampled deals solved double-dummy).
- ``expert``: ``pimc:strong`` (more deals; the strongest setting).
"""

from __future__ import annotations

from collections.abc import Callable

from fivehundred.actions import (
    BID_BASE,
    CLAIM,
    MISERE,
    Action,
    bid_action,
    bid_strain,
    bid_tricks,
)
from fivehundred.bots.base import Player, say
from fivehundred.bots.heuristic import HeuristicPlayer
from fivehundred.bots.house import without_claim
from fivehundred.bots.memory import TableView, legal_cards
from fivehundred.bots.pimc import PIMC_PRESETS, PimcPlayer
from fivehundred.cards import RANK_ACE, rank_of
from fivehundred.observation import Observation

#: How often the beginner slips, by phase (a share of its decisions with a choice).
EASY_SLIPS = {"auction": 0.2, "play": 0.22}


class EasyPlayer(HeuristicPlayer):
    """The heuristic with a beginner's slips (see the module); deterministic per seed."""

    name = "easy"

    def act(self, observation: Observation) -> Action:
        obs = observation
        action = super().act(obs)
        if len(obs.legal) < 2 or self.rng.random() >= EASY_SLIPS.get(obs.phase, 0.0):
            return action
        slip = self._auction_slip(obs, action) if obs.phase == "auction" else None
        if obs.phase == "play" and action != CLAIM:
            # a slip is a card, never a claim (R-HOUSE claim: only a sure one is made)
            slip = self._play_slip(without_claim(obs), action)
        if slip is None:
            return action
        slipped, why = slip
        self._reason = why
        return slipped

    def _auction_slip(self, obs: Observation, action: Action) -> tuple[Action, str] | None:
        """Optimism: a trick more than the hand is worth."""
        if not BID_BASE <= action < MISERE or bid_tricks(action) >= 10:
            return None
        higher = bid_action(bid_tricks(action) + 1, bid_strain(action))
        if higher not in obs.legal:
            return None
        return higher, f"bidding {say(higher)}: this hand looks good enough for a trick more"

    def _play_slip(self, obs: Observation, action: Action) -> tuple[Action, str] | None:
        """A card a learner plays: its highest of the suit, an ace led early, or a card
        thrown from the wrong suit."""
        view = TableView(obs)
        cards = legal_cards(obs)
        chosen = next(c for c, actions in cards.items() if action in actions)
        others = [c for c in cards if c != chosen]
        if not others:
            return None
        power = view.ctx.power
        if view.trick_cards:
            following = view.led >= 0 and bool(view.ctx.follow_masks[view.led] >> chosen & 1)
            if following:
                card = max(cards, key=lambda c: power[c])
                if card == chosen:
                    return None
                why = f"playing {say(card)}: my highest, to be sure of the trick"
            else:
                card = others[self.rng.randrange(len(others))]
                why = f"throwing {say(card)}: I do not need it"
        else:
            aces = [c for c in others if rank_of(c) == RANK_ACE and c < 64]
            if aces:
                card = aces[0]
                why = f"leading {say(card)}: cash the ace while I can"
            else:
                card = others[self.rng.randrange(len(others))]
                why = f"leading {say(card)}: let's see who holds that suit"
        return cards[card][-1], why


def _hard(seed: int | None) -> Player:
    return PimcPlayer(seed)


def _expert(seed: int | None) -> Player:
    return PimcPlayer(seed, **PIMC_PRESETS["strong"])


#: Level name -> factory, registered in :data:`fivehundred.bots.PLAYERS`.
LEVELS: dict[str, Callable[[int | None], Player]] = {
    "easy": EasyPlayer,
    "medium": HeuristicPlayer,
    "hard": _hard,
    "expert": _expert,
}

__all__ = ["EASY_SLIPS", "LEVELS", "EasyPlayer"]
