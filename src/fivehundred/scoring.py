"""Scoring (R-SCORE) and winning the game (R-GAME, R-490).

Points are kept per *side* (a partnership; with three players each player is a side).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from fivehundred.actions import (
    BLIND_MISERE,
    DOUBLE_MISERE,
    HI_LO,
    MISERE,
    OPEN_MISERE,
    PATASTROPHE,
    SHIELDS_DOUBLE,
    Action,
    bid_strain,
    bid_tricks,
    is_misere,
    is_suit_bid,
)
from fivehundred.rules import AVONDALE, ORIGINAL_1904, PERFECT, WIN_1904, Rules

SLAM_MINIMUM = 250
HI_LO_TRICKS = 5  # R-HOUSE hi_lo: exactly five
SLAM_CALL_PENALTY = 100
CLAIM_PENALTY = 100  # R-HOUSE claim: a wrong claim costs a further 100  # R-HOUSE slam_call failed: the 7-level value plus 100
#: R-HOUSE values that do not depend on the table (patastrophe: 750 with ``perfect``).
_HOUSE_VALUES = {HI_LO: 350, DOUBLE_MISERE: 450, SHIELDS_DOUBLE: 550, PATASTROPHE: 1000}
DEFENDER_TRICK_POINTS = 10
GOING_OUT_BACKWARDS = 500


def tricks_needed(contract: Action) -> int:
    """Tricks the contracting side needs (a misère: it must take none)."""
    return 0 if is_misere(contract) else bid_tricks(contract)


def contract_made(contract: Action, total: int) -> bool:
    """Whether the contracting side's final total of tricks makes ``contract``."""
    return total == 0 if is_misere(contract) else total >= tricks_needed(contract)


def analysed_contract(contract: Action) -> bool:
    """The contracts whose play the double-dummy analysis judges (puzzles, reviews): the
    bids and misère, open or not."""
    return is_suit_bid(contract) or contract in (MISERE, OPEN_MISERE)


_MISERE_VALUES = {
    AVONDALE: (250, 500, 1000),
    ORIGINAL_1904: (250, 500, 1000),
    PERFECT: (150, 250, 1000),
}


def bid_value(call: Action, rules: Rules) -> int:
    """Points a contract is worth under the rules' scoring table (R-SCORE).

    >>> from fivehundred.rules import make_rules
    >>> from fivehundred.actions import parse_action
    >>> bid_value(parse_action("7H"), make_rules())
    200
    """
    table = rules.scoring_table
    if call in _HOUSE_VALUES:
        return 750 if call == PATASTROPHE and table == PERFECT else _HOUSE_VALUES[call]
    if call == MISERE and rules.wilkinson_misere:
        call = OPEN_MISERE  # R-HOUSE wilkinson_misere: played open, at open misère's value
    if call in (MISERE, OPEN_MISERE, BLIND_MISERE):
        misere, open_misere, blind = _MISERE_VALUES[table]
        if call == MISERE:
            return rules.misere_value or misere
        if call == OPEN_MISERE:
            return rules.open_misere_value if table != PERFECT else open_misere
        return blind
    if not is_suit_bid(call):
        raise ValueError(f"not a bid: {call}")
    tricks, strain = bid_tricks(call), bid_strain(call)
    if table == ORIGINAL_1904:
        return (tricks - 4) * 20 * (strain + 1)
    value = 40 + 20 * strain + 100 * (tricks - 6)
    return value - 20 if table == PERFECT else value


@lru_cache(maxsize=64)
def side_of_seats(rules: Rules) -> tuple[int, ...]:
    """Which side each seat scores for (R-SCORE, R-PLAYERS); -1 for a dead hand."""
    seats = rules.seats
    if rules.two_live:
        return tuple(seat if seat < rules.players else -1 for seat in range(seats))
    if rules.players in (3, 5):
        return tuple(range(seats))
    if rules.players == 6 and rules.teams_of_two:
        return tuple(seat % 3 for seat in range(seats))
    return tuple(seat % 2 for seat in range(seats))


def sides_count(rules: Rules) -> int:
    return max(side_of_seats(rules)) + 1


def tricks_by_side(rules: Rules, tricks_won: Sequence[int]) -> list[int]:
    """Tricks won by each side, from each seat's (a dummy's count for its owner's side; a
    dead hand takes none)."""
    totals = [0] * sides_count(rules)
    for side, won in zip(side_of_seats(rules), tricks_won, strict=False):
        if side >= 0:
            totals[side] += won
    return totals


@dataclass(frozen=True)
class HandScore:
    """Points of one hand per side, and whether the contract was made (None: no contract)."""

    points: tuple[int, ...]
    made: bool | None
    contracting_side: int | None
    #: Every side that played the contract (the contractor's, and with five players the
    #: called partner's), contractor's first.
    contracting_sides: tuple[int, ...] = ()
    #: Each part of the points, ``(side, kind, points)``, in the order scored; a side's
    #: parts add up to its points. Kinds: ``contract`` (the bid's value, won or lost),
    #: ``slam`` (raised to the slam minimum), ``slam_call`` (the further 100 of a failed
    #: slam call), ``claim`` (the further 100 of a wrong claim), ``tricks`` (10 a trick
    #: won defending or with no contract). :func:`fivehundred.words.point_parts_text`
    #: says them in words.
    parts: tuple[tuple[int, str, int], ...] = ()


def score_hand(
    rules: Rules,
    contract: Action,
    contractor: int,
    partners: Sequence[int],
    tricks_won: Sequence[int],
    trick_winners: Sequence[int],
    slam: bool = False,
    claim_wrong: bool = False,
) -> HandScore:
    """Score a finished hand (R-SCORE).

    ``slam``: the contractor called slam (R-HOUSE slam_call) and played alone for all ten
    tricks: made, the 8-level value of the strain; failed, the 7-level value plus 100.

    ``contract`` is -1 when there was none; ``partners`` are the seats playing with the
    contractor (none in misère); ``tricks_won`` is per seat. With no contract, only an
    ``allpass_play_nt`` hand scores (10 per trick to the winner's side, R-ALLPASS).
    """
    sides = side_of_seats(rules)
    points = [0] * (max(sides) + 1)
    parts: list[tuple[int, str, int]] = []

    def score(side: int, kind: str, gained: int) -> None:
        points[side] += gained
        if not gained:
            return
        for index, (owner, done, before) in enumerate(parts):
            if (owner, done) == (side, kind):  # one part of a kind a side (its tricks)
                parts[index] = (side, kind, before + gained)
                return
        parts.append((side, kind, gained))

    defenders_score = not rules.no_defender_points
    if contract < 0:
        for side in range(len(points)):
            won = sum(DEFENDER_TRICK_POINTS for winner in trick_winners if sides[winner] == side)
            score(side, "tricks", won)
        return HandScore(tuple(points), None, None, (), tuple(parts))
    value = bid_value(contract, rules)
    team = {contractor, *partners}
    team_tricks = sum(tricks_won[seat] for seat in team)
    contracting_side = sides[contractor]
    raised = 0
    if is_misere(contract):
        made = team_tricks == 0
        if rules.misere_defenders_score and defenders_score:
            for side in sorted(set(sides) - {contracting_side, -1}):
                score(side, "tricks", DEFENDER_TRICK_POINTS * team_tricks)
    else:
        if contract == HI_LO:
            made = team_tricks == HI_LO_TRICKS
        elif slam:
            made = team_tricks == len(trick_winners) == 10
            if made:
                value = bid_value(contract + 5, rules)
        else:
            made = team_tricks >= bid_tricks(contract)
        if made and not slam and is_suit_bid(contract) and team_tricks == len(trick_winners) == 10:
            raised = max(value, SLAM_MINIMUM) - value
        for seat, won in enumerate(tricks_won):
            if seat not in team and defenders_score:
                score(sides[seat], "tricks", DEFENDER_TRICK_POINTS * won)
    team_sides = tuple(dict.fromkeys([contracting_side] + [sides[s] for s in partners]))
    # The further 100 of a failed slam call (R-HOUSE slam_call) and of a wrong claim
    # (R-HOUSE claim), each lost like the contract's value.
    extras = [("slam_call", SLAM_CALL_PENALTY)] if slam and not made else []
    if claim_wrong:
        extras.append(("claim", CLAIM_PENALTY))
    if not made and rules.failed_to_opponents:
        # R-HOUSE failed_to_opponents: each opposing side gains the value instead.
        for side in sorted(set(sides) - set(team_sides) - {-1}):
            score(side, "contract", value)
    elif rules.players == 5:
        # Called partner: each partner scores for themselves, in full or half each.
        halves = rules.half_each and len(team) > 1
        gain = value if made else -value
        share = gain // 2 if halves else gain
        whole = (gain + raised) // 2 if halves else gain + raised
        for seat in sorted(team):
            score(sides[seat], "contract", share)
            score(sides[seat], "slam", whole - share)
    else:
        score(contracting_side, "contract", value if made else -value)
        score(contracting_side, "slam", raised)
    for kind, penalty in extras:
        if rules.failed_to_opponents:
            for side in sorted(set(sides) - set(team_sides) - {-1}):
                score(side, kind, penalty)
        else:
            score(contracting_side, kind, -penalty)
    return HandScore(tuple(points), made, contracting_side, team_sides, tuple(parts))


def apply_hand_to_scores(rules: Rules, scores: Sequence[int], hand: HandScore) -> list[int]:
    """New running scores after a hand, with the 490 rule (R-490)."""
    cap = rules.target - 10
    new = []
    capped = rules.rule_490 and not rules.failed_to_opponents
    for side, (old, gained) in enumerate(zip(scores, hand.points, strict=True)):
        total = old + gained
        if capped and side not in hand.contracting_sides and gained > 0 and total >= rules.target:
            # Points won as defenders cannot take a side to the target: they stop at 490.
            total = max(old, cap)
        new.append(total)
    return new


def game_winner(
    rules: Rules,
    scores: Sequence[int],
    hand: HandScore,
    first_to_reach: Sequence[int] = (),
    out_before: Iterable[int] = (),
) -> int | None:
    """The winning side after a hand, or None if the game goes on (R-GAME).

    ``first_to_reach`` orders non-contracting sides by when they reached the target in
    trick order (1904 rules, three players). ``out_before``: the sides that went out in an
    earlier hand (:func:`sides_gone_out`); a side that has gone out has lost for good,
    even if its score later rises above −500 while the others play on (R-GAME).
    """
    target = rules.target
    out = sorted(set(sides_out(rules, scores)) | set(out_before))
    if rules.exact_target:
        reached = [side for side, score in enumerate(scores) if score == target]
    else:
        reached = [side for side, score in enumerate(scores) if score >= target]
    reached = [side for side in reached if side not in out]
    winner = _target_winner(rules, scores, hand, reached, first_to_reach)
    if winner is not None:
        if rules.highest_wins and len(reached) > 1:
            # R-HOUSE highest_wins: the higher score wins; equal scores play on.
            best = max(scores[side] for side in reached)
            top = [side for side in reached if scores[side] == best]
            return top[0] if len(top) == 1 else None
        return winner
    if out:
        # The highest other side wins; when the highest are level (three or more sides),
        # nobody has won yet and the game goes on until a hand ends with one ahead (R-GAME).
        rest = [side for side in range(len(scores)) if side not in out]
        if not rest:
            return None
        best = max(scores[side] for side in rest)
        top = [side for side in rest if scores[side] == best]
        return top[0] if len(top) == 1 else None
    if rules.point_spread and len(scores) == 2:
        high, low = max(scores), min(scores)
        if high > 0 > low and high - low >= GOING_OUT_BACKWARDS:
            return scores.index(high)
    return None


def sides_out(rules: Rules, scores: Sequence[int]) -> list[int]:
    """The sides that have lost by their score alone: gone out backwards at −500 or below,
    or with ``exact_target`` at twice the target or more (R-GAME, R-HOUSE)."""
    target = rules.target
    out = [
        side
        for side, score in enumerate(scores)
        if score <= -GOING_OUT_BACKWARDS or (rules.exact_target and score >= 2 * target)
    ]
    if rules.minus_500_needs_other_positive:
        # R-HOUSE: going out backwards only while some other side is not negative.
        out = [
            side
            for side in out
            if scores[side] > 0
            or any(score >= 0 for other, score in enumerate(scores) if other != side)
        ]
    return out


def sides_gone_out(rules: Rules, history: Iterable[Sequence[int]]) -> list[int]:
    """The sides that went out (:func:`sides_out`) after any of the running scores in
    ``history``: once out, out for the rest of the game (R-GAME)."""
    out: set[int] = set()
    for scores in history:
        out.update(sides_out(rules, scores))
    return sorted(out)


def _target_winner(
    rules: Rules,
    scores: Sequence[int],
    hand: HandScore,
    reached: Sequence[int],
    first_to_reach: Sequence[int],
) -> int | None:
    """The side that wins by reaching the target (R-GAME), or None."""
    if rules.win_rule == WIN_1904:
        if reached:
            for side in hand.contracting_sides:
                if side in reached:
                    return side
            for side in first_to_reach:
                if side in reached:
                    return side
            return max(reached, key=lambda s: scores[s])
    elif hand.made:
        for side in hand.contracting_sides:
            if side in reached:
                return side
    return None


def ralphed(
    rules: Rules, contract: Action, contractor: int, team_tricks: int, needed: int | None = None
) -> bool:
    """R-HOUSE ralphing: whether the contractor failed by three tricks or more (a misère
    contractor: won three tricks or more) and so must pass in the next hand. ``needed``:
    the tricks undertaken when not the bid's (ten after a slam call)."""
    if not rules.ralphing or contract < 0 or contractor < 0:
        return False
    if is_misere(contract):
        return team_tricks >= 3
    if contract == HI_LO:
        return abs(team_tricks - HI_LO_TRICKS) >= 3
    return team_tricks <= (needed or bid_tricks(contract)) - 3
