"""Words and symbols for the table, shared by the full-screen app and the line mode."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fivehundred.actions import (
    BID_BASE,
    BLIND_MISERE,
    JOKER_LEAD_BASE,
    MISERE,
    NO_NOMINATION,
    NOMINATE_BASE,
    OPEN_MISERE,
    PASS,
    Action,
    bid_strain,
    bid_tricks,
)
from fivehundred.cards import (
    JOKER,
    JOKER_BLACK,
    SUIT_SYMBOLS,
    Card,
    CardMask,
    card_symbol,
    iter_cards,
)
from fivehundred.game import GameState, HandState
from fivehundred.observation import Observation
from fivehundred.play import PlayContext, make_context
from fivehundred.scoring import apply_hand_to_scores

SEAT_NAMES = ("South", "West", "North", "East")
SEAT_LABELS = ("You", "West", "North (partner)", "East")
SIDE_NAMES = ("You & North", "West & East")
SIDE_SHORT = ("us", "them")
STRAIN_SYMBOLS = (*SUIT_SYMBOLS, "NT")
RED_SUITS = (2, 3)


def seat_label(seat: int) -> str:
    return SEAT_LABELS[seat]


def card_label(card: Card, two_jokers: bool = False) -> str:
    """``10♥``, ``A♠``, ``JK`` (the jokers keep their letters)."""
    return card_symbol(card, two_jokers)


def is_red(card: Card) -> bool:
    return card == JOKER or (card < JOKER and card >> 4 in RED_SUITS)


def action_label(action: Action, two_jokers: bool = False) -> str:
    """An action as a person reads it: ``7♥``, ``6NT``, ``misère``, ``JK as ♠``, ``pass``."""
    if action < JOKER_LEAD_BASE:
        return card_label(action, two_jokers)
    if action < PASS:
        joker = JOKER + (action - JOKER_LEAD_BASE) // 4
        return f"{card_label(joker, two_jokers)} as {SUIT_SYMBOLS[(action - JOKER_LEAD_BASE) % 4]}"
    if action == PASS:
        return "pass"
    if BID_BASE <= action < MISERE:
        return f"{bid_tricks(action)}{STRAIN_SYMBOLS[bid_strain(action)]}"
    if action == MISERE:
        return "misère"
    if action == OPEN_MISERE:
        return "open misère"
    if action == BLIND_MISERE:
        return "blind misère"
    if NOMINATE_BASE <= action < NO_NOMINATION:
        return f"joker is {SUIT_SYMBOLS[(action - NOMINATE_BASE) % 4]}"
    if action == NO_NOMINATION:
        return "no nomination"
    return str(action)


def display_context(
    contract: Action, joker_suits: tuple[int, int] = (-1, -1)
) -> PlayContext | None:
    """Tables that group the trumps (left bower included) once the contract is known."""
    if contract < BID_BASE:
        return None
    return make_context(bid_strain(contract), contract >= MISERE, joker_suits)


def sorted_cards(mask: CardMask, ctx: PlayContext | None) -> list[Card]:
    """Cards for display: grouped by suit, trumps first (with both bowers and the joker),
    high to low within a suit; before the contract, ♠ ♣ ♦ ♥ then the joker."""

    def key(card: Card) -> tuple[int, int]:
        if ctx is None:
            suit = card >> 4 if card < JOKER else 4
            return (suit, -card)
        suit = ctx.effective_suit[card]
        group = 4 if suit < 0 else suit
        if ctx.trump < 4 and suit == ctx.trump:
            group = -1
        return (group, -ctx.power[card])

    return sorted(iter_cards(mask), key=key)


def suit_groups(cards: Sequence[Card], ctx: PlayContext | None) -> list[list[Card]]:
    """Split sorted cards into their display groups (a gap goes between groups)."""
    groups: list[list[Card]] = []
    last = None
    for card in cards:
        if ctx is None:
            group = card >> 4 if card < JOKER else 4
        else:
            group = ctx.effective_suit[card]
        if group != last:
            groups.append([])
            last = group
        groups[-1].append(card)
    return groups


def contract_text(contract: Action, contractor: int, two_jokers: bool = False) -> str:
    if contract < BID_BASE:
        return "no contract"
    return f"{action_label(contract, two_jokers)} by {seat_label(contractor)}"


def auction_text(calls: Sequence[tuple[int, Action]], two_jokers: bool = False) -> str:
    return ", ".join(f"{SEAT_NAMES[s]} {action_label(a, two_jokers)}" for s, a in calls)


def side_tricks(tricks_won: Sequence[int]) -> tuple[int, int]:
    return (tricks_won[0] + tricks_won[2], tricks_won[1] + tricks_won[3])


@dataclass(frozen=True)
class SheetRow:
    """One line of the score sheet: a finished hand and the totals after it."""

    number: int
    contract: str
    points: tuple[int, ...]
    totals: tuple[int, ...]
    capped: tuple[bool, ...]


def score_sheet(game: GameState) -> list[SheetRow]:
    """Hand by hand: contract, points, running totals, and where the 490 rule held a
    side's points back (R-490)."""
    rows = []
    before: list[int] = [0] * len(game.scores)
    rules = game.rules
    for number, (hand, totals) in enumerate(
        zip(game.finished_hands, game.score_history, strict=True), 1
    ):
        score = hand.result.score
        uncapped = [b + p for b, p in zip(before, score.points, strict=True)]
        applied = apply_hand_to_scores(rules, before, score)
        capped = tuple(u != a for u, a in zip(uncapped, applied, strict=True))
        contract = contract_text(hand.contract, hand.contractor, rules.two_jokers)
        if hand.contract >= BID_BASE:
            contract = (
                f"{action_label(hand.contract, rules.two_jokers)} {SEAT_NAMES[hand.contractor][0]}"
            )
            contract += " ✓" if score.made else " ✗"
        else:
            contract = "all pass"
        rows.append(SheetRow(number, contract, score.points, tuple(totals), capped))
        before = list(totals)
    return rows


def sheet_lines(game: GameState) -> list[str]:
    rule = "  (490 rule: defenders' points stop at 490)" if game.rules.rule_490 else ""
    lines = [f"Score sheet — to {game.rules.target}{rule}",
             f"  {'#':>2} {'contract':<12} {'us':>6} {'them':>6}   {'us':>6} {'them':>6}"]  # fmt: skip
    for row in score_sheet(game):
        marks = ["*" if c else " " for c in row.capped]
        lines.append(f"  {row.number:>2} {row.contract:<12} {row.points[0]:>+6} {row.points[1]:>+6}"
                     f"   {row.totals[0]:>5}{marks[0]} {row.totals[1]:>5}{marks[1]}")  # fmt: skip
    if any(any(r.capped) for r in score_sheet(game)):
        lines.append("  * held at 490 by the 490 rule")
    return lines


def hand_summary_lines(hand: HandState, totals: Sequence[int]) -> list[str]:
    """After a hand: the contract, tricks and points of each side, and the totals."""
    result = hand.result
    two = hand.rules.two_jokers
    ours, theirs = side_tricks(result.tricks_won)
    lines = []
    if result.contract >= BID_BASE:
        made = "made" if result.made else "went down"
        lines.append(f"{contract_text(result.contract, result.contractor, two)}: {made}.")
    else:
        lines.append("Everybody passed: no contract.")
    lines.append(f"Tricks: {SIDE_NAMES[0]} {ours}, {SIDE_NAMES[1]} {theirs}.")
    lines.append(f"Points: {SIDE_NAMES[0]} {result.points[0]:+d}, "
                 f"{SIDE_NAMES[1]} {result.points[1]:+d}.")  # fmt: skip
    lines.append(f"Score: {SIDE_NAMES[0]} {totals[0]}, {SIDE_NAMES[1]} {totals[1]}.")
    return lines


def all_hands_lines(hand: HandState) -> list[str]:
    """The four hands as dealt, the kitty and the contractor's discards."""
    two = hand.rules.two_jokers
    ctx = display_context(hand.contract, (hand.joker_suits[0], hand.joker_suits[1]))
    lines = []
    for seat in range(hand.seats):
        lines.append(f"  {SEAT_NAMES[seat]:<6} {cards_text(hand.dealt[seat], ctx, two)}")
    lines.append(f"  {'Kitty':<6} {cards_text(hand.kitty_dealt, ctx, two)}")
    if hand.discards:
        lines.append(f"  {'Discarded':<6} {cards_text(hand.discards, ctx, two)}")
    return lines


def cards_text(mask: CardMask, ctx: PlayContext | None, two_jokers: bool = False) -> str:
    groups = suit_groups(sorted_cards(mask, ctx), ctx)
    return "  ".join(" ".join(card_label(c, two_jokers) for c in group) for group in groups)


def trick_text(plays: Sequence[tuple[int, Action]], two_jokers: bool = False) -> str:
    return ", ".join(f"{SEAT_NAMES[s]} {action_label(a, two_jokers)}" for s, a in plays)


def table_lines(obs: Observation, game: GameState) -> list[str]:
    """The table as text, from South's seat."""
    rules = obs.rules
    two = rules.two_jokers
    hand_number = len(game.finished_hands) + 1
    lines = [f"— Hand {hand_number} · dealer {SEAT_NAMES[obs.dealer]} · score: {SIDE_NAMES[0]} "
             f"{game.scores[0]}, {SIDE_NAMES[1]} {game.scores[1]} (game to {rules.target}) —"]  # fmt: skip
    if obs.contract >= BID_BASE:
        ours, theirs = side_tricks(obs.tricks_won)
        line = f"Contract: {contract_text(obs.contract, obs.contractor, two)}"
        if obs.joker_suits[0] >= 0 and obs.trump == 4:
            line += f" (joker is {SUIT_SYMBOLS[obs.joker_suits[0]]})"
        lines.append(f"{line} · tricks: us {ours}, them {theirs}")
    elif obs.auction:
        lines.append(f"Bids: {auction_text(obs.auction, two)}")
    counts = ", ".join(f"{SEAT_LABELS[s]} {obs.hand_sizes[s]}" for s in (1, 2, 3))
    lines.append(f"Cards held: {counts}")
    for seat, mask in obs.exposed:
        ctx = display_context(obs.contract, obs.joker_suits)
        lines.append(f"{SEAT_NAMES[seat]}'s open hand: {cards_text(mask, ctx, two)}")
    if obs.trick:
        lines.append(f"Trick: {trick_text(obs.trick, two)}")
    elif obs.tricks:
        plays, winner = obs.tricks[-1]
        lines.append(f"Last trick: {trick_text(plays, two)} — won by {SEAT_NAMES[winner]}")
    ctx = display_context(obs.contract, obs.joker_suits)
    lines.append(f"Your hand: {cards_text(obs.hand, ctx, two)}")
    return lines


def joker_cards(two_jokers: bool) -> tuple[Card, ...]:
    return (JOKER, JOKER_BLACK) if two_jokers else (JOKER,)
