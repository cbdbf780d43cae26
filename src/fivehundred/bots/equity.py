"""The chance to win the game from the scores, for the PIMC player (four players).

The arena counts games won, not points: near the end of a game a hand's points are worth
what they change in the chance to win. :func:`win_chance` estimates that chance for one
side from the two running scores: a logistic of the lead in points still needed, scaled by
the square root of the points both sides still need (a lead of 100 matters more at
400-300 than at 100-0). The two constants were fitted by ``bench/fit_equity.py`` on
heuristic-against-heuristic games (australian rules).

:class:`Equity` values a hand's outcome (a contract by a seat, the tricks its side takes)
by that chance after the hand is scored by the rules themselves
(:func:`~fivehundred.scoring.score_hand`, the 490 rule, :func:`~fivehundred.scoring.game_winner`):
1 if it wins the game for the side, 0 if it loses it, :func:`win_chance` otherwise.
"""

from __future__ import annotations

import math
from functools import lru_cache

from fivehundred.actions import MISERE, Action
from fivehundred.observation import Observation
from fivehundred.rules import Rules
from fivehundred.scoring import apply_hand_to_scores, game_winner, score_hand

#: Fitted by ``bench/fit_equity.py`` (heuristic games, australian rules): the logistic's
#: slope and the points added to what both sides need before the square root.
SCALE = 2.4
ROOM = 3000.0


def model_chance(us: int, them: int, scale: float = SCALE, room: float = ROOM,
                 target: int = 500) -> float:  # fmt: skip
    """The chance that the side on ``us`` points beats the side on ``them`` (the game
    going on)."""
    need_us = max(target - us, 10)
    need_them = max(target - them, 10)
    x = (need_them - need_us) / math.sqrt(100.0 * (need_us + need_them + room))
    return 1.0 / (1.0 + math.exp(-scale * x))


def applies(obs: Observation) -> bool:
    """Whether the game's scores are known and there are two sides of two (four players)."""
    rules = obs.rules
    return (rules.players == 4 and rules.seats == 4 and len(obs.scores) == 2
            and len(obs.sides) == 4)  # fmt: skip


def for_seat(obs: Observation) -> Equity | None:
    """The game chances of the observing seat's side, or None where they do not apply."""
    return Equity(obs.rules, tuple(obs.scores), obs.sides[obs.seat]) if applies(obs) else None


class Equity:
    """The chance for ``side`` to win the game after a hand, from ``scores`` before it."""

    def __init__(self, rules: Rules, scores: tuple[int, ...], side: int) -> None:
        self.rules = rules
        self.scores = scores
        self.side = side

    def now(self) -> float:
        """The chance if the hand scores nothing (all pass, thrown in)."""
        us, them = self.scores[self.side], self.scores[1 - self.side]
        return model_chance(us, them, target=self.rules.target)

    def outcome(self, contract: Action, contractor: int, tricks: int) -> tuple[float, bool]:
        """The chance after ``contractor``'s side (the contractor alone in misère) takes
        ``tricks`` tricks in ``contract``, and whether the game ends there."""
        return _outcome(self.rules, self.scores, self.side, contract, contractor, tricks)


@lru_cache(maxsize=65536)
def _outcome(rules: Rules, scores: tuple[int, ...], side: int, contract: Action,
             contractor: int, tricks: int) -> tuple[float, bool]:  # fmt: skip
    seats = rules.seats
    partner = (contractor + 2) % seats
    partners = () if contract >= MISERE else (partner,)
    defender = (contractor + 1) % seats
    won = [0] * seats
    won[contractor] = tricks
    won[defender] = 10 - tricks
    winners = [contractor] * tricks + [defender] * (10 - tricks)
    hand = score_hand(rules, contract, contractor, partners, won, winners)
    after = apply_hand_to_scores(rules, scores, hand)
    winner = game_winner(rules, after, hand)
    if winner is not None:
        return (1.0 if winner == side else 0.0), True
    return model_chance(after[side], after[1 - side], target=rules.target), False


__all__ = ["ROOM", "SCALE", "Equity", "applies", "for_seat", "model_chance"]
