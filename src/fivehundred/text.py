"""Plain-text views of hands and tricks, for the demo, the line-mode game and logs."""

from __future__ import annotations

import textwrap

from fivehundred.actions import BID_BASE
from fivehundred.cards import CardMask, JokerNames
from fivehundred.game import HandState
from fivehundred.play import PlayContext
from fivehundred.scoring import side_of_seats
from fivehundred.words import (
    action_label,
    cards_label,
    point_parts_text,
    seat_name,
    side_names,
)

#: Lines longer than this are wrapped between words (a bid or card is never cut).
WIDTH = 80


def wrapped(text: str, indent: str = "    ") -> str:
    """``text`` wrapped at :data:`WIDTH` between words, the later lines indented by
    ``indent`` (the line-mode game and the terminal lessons)."""
    return textwrap.fill(
        text, WIDTH, subsequent_indent=indent, break_long_words=False, break_on_hyphens=False
    )


def play_text(action: int, two_jokers: JokerNames = False) -> str:
    """A card played, for people: ``10♥``; a joker led as a suit ``JK as ♠``."""
    return action_label(action, two_jokers)


def call_text(action: int, two_jokers: JokerNames = False) -> str:
    """A call or contract, for people: ``7♥``, ``8NT``, ``misère``, ``open misère``."""
    return action_label(action, two_jokers)


def result_lines(state: HandState) -> list[str]:
    """A finished hand's result in words: tricks per seat and side, the contract, points."""
    rules = state.rules
    result = state.result
    sides = side_of_seats(rules)
    names = [seat_name(s, rules.seats) for s in range(rules.seats)]
    teams = side_names(rules.seats, sides)
    won = ", ".join(f"{names[s]} {n}" for s, n in enumerate(result.tricks_won))
    line = f"Tricks won: {won}"
    if len(teams) < rules.seats:
        by_side = [
            sum(n for s, n in enumerate(result.tricks_won) if sides[s] == side)
            for side in range(len(teams))
        ]
        line += " (" + ", ".join(f"{t} {n}" for t, n in zip(teams, by_side, strict=True)) + ")"
    points = ", ".join(f"{t} {p:+d}" for t, p in zip(teams, result.points, strict=True))
    if result.contract < BID_BASE:
        return [line, f"No contract: points {points}"]
    contract = call_text(result.contract, rules.joker_names)
    outcome = {True: "made", False: "failed", None: "was not scored"}[result.made]
    lines = [line, f"{names[result.contractor]}'s {contract} {outcome}: points {points}"]
    # each part of the points (a further 100, the slam's 250, the defenders' tricks)
    for side, team in enumerate(teams):
        parts = point_parts_text(
            result.score.parts, side, result.contract, result.made, rules.joker_names
        )
        if parts:
            lines.append(f"  {team}: {parts}")
    return lines


def hand_text(
    mask: CardMask, ctx: PlayContext | None = None, two_jokers: JokerNames = False
) -> str:
    """Cards with suit symbols, grouped by suit (trumps together once the contract is known)."""
    return cards_label(mask, ctx, two_jokers)


def describe_hand(state: HandState) -> str:
    """A finished (or partial) hand as readable lines: deal, auction, tricks, result."""
    rules = state.rules
    two = rules.joker_names
    names = [seat_name(s, rules.seats) for s in range(rules.seats)]
    lines = [f"Dealer: {names[state.dealer]}  ({rules.describe()})"]
    for seat, hand in enumerate(state.dealt):
        lines.append(f"  {names[seat]:<6} {hand_text(hand, None, two)}")
    lines.append(f"  Kitty  {hand_text(state.kitty_dealt, None, two)}")
    calls = ", ".join(f"{names[s]} {call_text(a, two)}" for s, a in state.auction.calls)
    lines.append(f"Auction: {calls}")
    if state.contract < BID_BASE:
        lines.append("All passed.")
    else:
        lines.append(f"Contract: {call_text(state.contract, two)} by {names[state.contractor]}")
    for number, trick in enumerate(state.tricks, 1):
        plays = "  ".join(f"{names[s][0]}:{play_text(a, two)}" for s, a in trick.plays)
        lines.append(f"  trick {number:>2}: {plays}   won by {names[trick.winner]}")
    if state.is_over:
        lines += result_lines(state)
    return "\n".join(lines)
