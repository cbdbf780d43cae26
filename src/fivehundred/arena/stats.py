"""Arena statistics: win rates with Wilson intervals, paired point differences, contracts.

Win rate: team A's wins over the matches that had a winner, with the Wilson score interval
(good for rates near 0 or 1 and small samples). Points: the mean per hand of each team, and
the difference A − B per hand, averaged per duplicate deal (both halves together), with a
normal-approximation interval over the deals: pairing cancels the luck of the cards.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from fivehundred.arena.runner import MatchOutcome

Z95 = 1.959964


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a proportion (0, 1 when there are no trials).

    >>> lo, hi = wilson_interval(70, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.604, 0.781)
    """
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and normal-approximation interval (mean, low, high); zero width below 2 values."""
    n = len(values)
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(values) / n
    if n < 2:
        return mean, mean, mean
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


@dataclass
class ContractStats:
    bid: int = 0
    made: int = 0
    set: int = 0


@dataclass
class Summary:
    """Everything the arena prints, per team where it applies."""

    team_a: str
    team_b: str
    matches: int
    deals: int
    wins: dict[str, int]
    ties: int
    win_rate: float
    win_interval: tuple[float, float]
    hands: int
    points_per_hand: dict[str, float]
    difference: tuple[float, float, float]  # A − B per hand: mean, low, high
    contracts: dict[str, dict[str, ContractStats]]  # team -> strain -> stats
    misere: dict[str, tuple[int, int]]  # team -> (made, bid)
    decision_ms: dict[str, float]
    problems: list[str] = field(default_factory=list)
    #: Hands without a contract (all passed, or R-HOUSE inkle: the highest call an inkle).
    thrown_in: int = 0
    #: R-HOUSE calls after the auction, per team: "slam" (called, made) and "claim"
    #: (claims, right ones: ``made``; wrong ones: ``set``).
    house_calls: dict[str, dict[str, ContractStats]] = field(default_factory=dict)
    #: Sides at the table: with more than two, team A plays one side and B every other,
    #: so A's fair share of wins is 1 / sides.
    sides: int = 2

    def to_json(self) -> dict[str, Any]:
        return {
            "team_a": self.team_a,
            "team_b": self.team_b,
            "matches": self.matches,
            "deals": self.deals,
            "wins": self.wins,
            "ties": self.ties,
            "win_rate_a": self.win_rate,
            "win_rate_a_95ci": list(self.win_interval),
            "hands": self.hands,
            "points_per_hand": self.points_per_hand,
            "points_difference_per_hand": {
                "mean": self.difference[0],
                "ci95": [self.difference[1], self.difference[2]],
            },
            "contracts": {
                team: {
                    strain: {"bid": s.bid, "made": s.made, "set": s.set} for strain, s in by.items()
                }
                for team, by in self.contracts.items()
            },
            "misere": {team: {"made": m, "bid": b} for team, (m, b) in self.misere.items()},
            "decision_ms": self.decision_ms,
            "sides": self.sides,
            "problems": self.problems,
            "thrown_in": self.thrown_in,
            "house_calls": {
                team: {name: {"bid": s.bid, "made": s.made, "set": s.set} for name, s in by.items()}
                for team, by in self.house_calls.items()
            },
        }


STRAIN_ORDER = (
    "S",
    "C",
    "D",
    "H",
    "NT",
    "misere",
    "open_misere",
    "blind_misere",
    "hi_lo",
    "double_misere",
    "shields_double",
    "patastrophe",
)


def summarize(outcomes: Sequence[MatchOutcome], team_a: str = "A", team_b: str = "B") -> Summary:
    """Statistics of a list of matches (duplicate halves are paired by their deal)."""
    wins = {"A": 0, "B": 0}
    ties = 0
    points = {"A": 0.0, "B": 0.0}
    hands = 0
    by_deal: dict[int, list[float]] = defaultdict(lambda: [0.0, 0.0])
    contracts: dict[str, dict[str, ContractStats]] = {"A": {}, "B": {}}
    misere = {"A": [0, 0], "B": [0, 0]}
    spent = {"A": 0.0, "B": 0.0}
    count = {"A": 0, "B": 0}
    problems: list[str] = []
    thrown_in = 0
    house_calls: dict[str, dict[str, ContractStats]] = {"A": {}, "B": {}}
    for outcome in outcomes:
        if outcome.winner is None:
            ties += 1
        else:
            wins[outcome.winner] += 1
        pair = by_deal[outcome.deal]
        for hand in outcome.hands:
            hands += 1
            points["A"] += hand.points_a
            points["B"] += hand.points_b
            pair[0] += hand.points_a - hand.points_b
            pair[1] += 1
            if hand.declarer_team is None or hand.strain is None:
                thrown_in += hand.contract is None
                continue
            stats = contracts[hand.declarer_team].setdefault(hand.strain, ContractStats())
            stats.bid += 1
            stats.made += bool(hand.made)
            stats.set += not hand.made
            calls = house_calls[hand.declarer_team]
            if hand.slam:
                slam = calls.setdefault("slam", ContractStats())
                slam.bid += 1
                slam.made += bool(hand.made)
                slam.set += not hand.made
            if hand.claim is not None:
                claim = calls.setdefault("claim", ContractStats())
                claim.bid += 1
                claim.made += hand.claim == "right"
                claim.set += hand.claim == "wrong"
            if "misere" in hand.strain:
                misere[hand.declarer_team][1] += 1
                misere[hand.declarer_team][0] += bool(hand.made)
        for team in ("A", "B"):
            spent[team] += outcome.decision_time.get(team, 0.0)
            count[team] += outcome.decisions.get(team, 0)
        problems.extend(outcome.problems)
    decided = wins["A"] + wins["B"]
    rate = wins["A"] / decided if decided else 0.0
    per_deal = [total / n for total, n in by_deal.values() if n]
    sides = round(len(outcomes) / len(by_deal)) if by_deal else 2
    for team in contracts:
        contracts[team] = {s: contracts[team][s] for s in STRAIN_ORDER if s in contracts[team]}
    return Summary(
        team_a=team_a,
        team_b=team_b,
        matches=len(outcomes),
        deals=len(by_deal),
        wins=wins,
        ties=ties,
        win_rate=rate,
        win_interval=wilson_interval(wins["A"], decided),
        hands=hands,
        points_per_hand={t: (points[t] / hands if hands else 0.0) for t in points},
        difference=mean_interval(per_deal),
        contracts=contracts,
        misere={t: (m[0], m[1]) for t, m in misere.items()},
        decision_ms={t: (1000 * spent[t] / count[t] if count[t] else 0.0) for t in spent},
        problems=problems,
        thrown_in=thrown_in,
        house_calls=house_calls,
        sides=max(2, sides),
    )
