"""The chance to win the game from the scores, for the PIMC player (three, four and six
players).

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
from collections.abc import Sequence
from functools import lru_cache

from fivehundred.actions import Action, plays_alone
from fivehundred.observation import Observation
from fivehundred.rules import Rules
from fivehundred.scoring import (
    HandScore,
    apply_hand_to_scores,
    game_winner,
    score_hand,
    side_of_seats,
)

#: Fitted by ``bench/fit_equity.py`` (heuristic games, australian rules): the logistic's
#: slope and the points added to what both sides need before the square root.
SCALE = 2.4
ROOM = 3000.0

#: The constants by table (``bench/fit_equity.py --preset``): four players (two sides of
#: two), six players (two sides of three), three players (each alone).
FITTED: dict[str, tuple[float, float]] = {
    "four": (SCALE, ROOM),
    "six": (1.30, 250.0),  # 800 games, 16,874 positions
    "three": (4.90, 12750.0),  # 1,200 games, 35,094 positions
}


def model_chance(
    us: int, them: int, scale: float = SCALE, room: float = ROOM, target: int = 500
) -> float:
    """The chance that the side on ``us`` points beats the side on ``them`` (the game
    going on)."""
    return model_chances((us, them), scale, room, target)[0]


def model_chances(
    scores: Sequence[int], scale: float = SCALE, room: float = ROOM, target: int = 500
) -> tuple[float, ...]:
    """Each side's chance to win the game from ``scores`` (the game going on): a softmax of
    the points each still needs, over the square root of what they all need. With two
    sides this is the logistic of the lead in points still needed."""
    needs = [max(target - score, 10) for score in scores]
    spread = math.sqrt(100.0 * (sum(needs) + room))
    low = min(needs)
    weights = [math.exp(-scale * (need - low) / spread) for need in needs]
    total = sum(weights)
    return tuple(w / total for w in weights)


def table_kind(rules: Rules) -> str | None:
    """Which fitted model a table uses: ``four`` (two sides of two), ``six`` (two sides
    of three), ``three`` (three players each alone); None for the others (five players'
    called partner, two players, dead hands, three sides of two)."""
    if rules.two_live or rules.players != rules.seats:
        return None
    if rules.players == 4:
        return "four"
    if rules.players == 6 and not rules.teams_of_two:
        return "six"
    if rules.players == 3:
        return "three"
    return None


def applies(obs: Observation) -> bool:
    """Whether the game's scores are known and the table is one the model covers
    (:func:`table_kind`)."""
    kind = table_kind(obs.rules)
    sides = 3 if kind == "three" else 2
    return kind is not None and len(obs.scores) == sides and len(obs.sides) == obs.rules.seats


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
        return _chances(self.rules, self.scores)[self.side]

    def outcome(self, contract: Action, contractor: int, tricks: int) -> tuple[float, bool]:
        """The chance after ``contractor``'s side (the contractor alone in misère) takes
        ``tricks`` tricks in ``contract``, and whether the game ends there. Where the
        defenders score for different sides (three players), they share their tricks
        evenly, the odd one to the seat after the contractor."""
        return _outcome(self.rules, self.scores, self.side, contract, contractor, tricks)


def _chances(rules: Rules, scores: tuple[int, ...]) -> tuple[float, ...]:
    scale, room = FITTED[table_kind(rules) or "four"]
    return model_chances(scores, scale, room, rules.target)


def contract_partners(rules: Rules, contract: Action, contractor: int) -> tuple[int, ...]:
    """The contractor's partners who play ``contract`` with it: none where it plays alone
    (misère, hi/lo), its side's other seats otherwise (double misère too, R-HOUSE)."""
    if plays_alone(contract):
        return ()
    sides = side_of_seats(rules)
    ours = sides[contractor]
    return tuple(s for s in range(rules.seats) if s != contractor and sides[s] == ours)


@lru_cache(maxsize=65536)
def _outcome(
    rules: Rules, scores: tuple[int, ...], side: int, contract: Action, contractor: int, tricks: int
) -> tuple[float, bool]:
    seats = rules.seats
    sides = side_of_seats(rules)
    ours = sides[contractor]
    partners = contract_partners(rules, contract, contractor)
    defenders = [
        (contractor + k) % seats for k in range(1, seats) if sides[(contractor + k) % seats] != ours
    ]
    solo = len({sides[d] for d in defenders}) > 1
    won = [0] * seats
    won[contractor] = tricks
    rest = 10 - tricks
    if solo:
        share, odd = divmod(rest, len(defenders))
        for k, d in enumerate(defenders):
            won[d] = share + (1 if k < odd else 0)
    else:
        won[defenders[0]] = rest
    winners = [s for s in range(seats) for _ in range(won[s])]
    hand = score_hand(rules, contract, contractor, partners, won, winners)
    return chance_after(rules, scores, hand, side)


def chance_after(
    rules: Rules, scores: Sequence[int], hand: HandScore, side: int
) -> tuple[float, bool]:
    """``side``'s chance to win the game after ``hand`` is scored on ``scores`` (by the
    rules: the 490 rule, :func:`~fivehundred.scoring.game_winner`), and whether the game
    ends there: 1 or 0 if it does, the fitted model's chance (:func:`model_chances`) if
    not."""
    after = apply_hand_to_scores(rules, scores, hand)
    winner = game_winner(rules, after, hand)
    if winner is not None:
        return (1.0 if winner == side else 0.0), True
    return _chances(rules, tuple(after))[side], False


__all__ = [
    "FITTED",
    "ROOM",
    "SCALE",
    "Equity",
    "applies",
    "chance_after",
    "contract_partners",
    "for_seat",
    "model_chance",
    "model_chances",
    "table_kind",
]
