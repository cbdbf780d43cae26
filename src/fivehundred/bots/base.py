"""The player interface: an observation in, a legal action out.

Players never see the game state, only the :class:`~fivehundred.observation.Observation`
of their seat (which carries the legal actions). Every player takes a seed.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from fivehundred.actions import Action
from fivehundred.cards import JokerNames
from fivehundred.observation import Observation
from fivehundred.words import action_phrase


def say(action: Action, two_jokers: JokerNames = False) -> str:
    """An action in card language, for explanations: ``the 7♠``, ``the joker led as ♥``,
    ``6NT``, ``pass`` (:func:`fivehundred.words.action_phrase`)."""
    return action_phrase(action, two_jokers)


class Player(ABC):
    """A computer (or external) player for one seat."""

    name: str = "player"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self._reason = ""

    @abstractmethod
    def act(self, observation: Observation) -> Action:
        """Choose one of ``observation.legal``."""

    def explain(self) -> str:
        """Why the last action was chosen (for hints); empty if the player cannot say."""
        return self._reason

    def hand_over(self, summary: dict[str, object]) -> None:  # noqa: B027  (optional hook)
        """Told the result of each hand; players that keep memory reset here."""


class RandomPlayer(Player):
    """Uniform over the legal actions."""

    name = "random"

    def act(self, observation: Observation) -> Action:
        legal = observation.legal
        if not legal:
            raise ValueError("no legal action: it is not this seat's turn")
        action = legal[self.rng.randrange(len(legal))]
        self._reason = f"{say(action, observation.rules.joker_names)}, picked at random"
        return action
