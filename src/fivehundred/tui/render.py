"""The table in words, shared by the full-screen app and the line mode: what the person
sees from South's seat (``You``, ``North (partner)``, sides, tricks, the score sheet, the
hand's display order). The words for cards, actions, contracts and seats come from the one
vocabulary, :mod:`fivehundred.words`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fivehundred.actions import BID_BASE, Action, nominate_action
from fivehundred.cards import JOKER, JOKER_BLACK, Card, CardMask, JokerNames
from fivehundred.game import (
    GameState,
    HandState,
    controller_of,
    dummy_seats,
)
from fivehundred.observation import Observation
from fivehundred.play import PlayContext
from fivehundred.rules import Rules
from fivehundred.scoring import apply_hand_to_scores, side_of_seats, sides_count, tricks_by_side
from fivehundred.text import WIDTH
from fivehundred.words import (
    action_label,
    card_label,
    contract_label,
    display_context,
    dummy_name,
    hand_order,
    place_name,
    point_parts_text,
    rule_490_short,
    side_label,
    suit_label,
    view_context,
)
from fivehundred.words import seat_name as compass_name

RED_SUITS = (2, 3)


def seat_names(rules: Rules) -> tuple[str, ...]:
    """The name of every seat: South (the person) first, then clockwise."""
    return tuple(compass_name(seat, rules.seats) for seat in range(rules.seats))


def seat_name(rules: Rules, seat: int) -> str:
    return compass_name(seat, rules.seats)


def seat_label(rules: Rules, seat: int) -> str:
    """``You``, ``North (partner)``, ``North (your dummy)``, ``West``."""
    name = seat_name(rules, seat)
    if seat == 0:
        return "You"
    place = table_place(rules, seat)
    if place:
        return place
    if rules.dummies and seat in dummy_seats(rules):
        owner = controller_of(rules, seat)
        return (
            f"{name} (your dummy)"
            if owner == 0
            else f"{name} ({dummy_name(seat_name(rules, owner))})"
        )
    sides = side_of_seats(rules)
    if sides[seat] == sides[0]:
        return f"{name} (partner)"
    return name


def table_place(rules: Rules, seat: int) -> str:
    """:func:`fivehundred.words.place_name` under the seat's compass name."""
    return place_name(rules, seat, seat_name(rules, seat))


def side_seats(rules: Rules, side: int) -> list[int]:
    """The seats of a side (players, not dummies)."""
    sides = side_of_seats(rules)
    return [seat for seat in range(rules.players) if sides[seat] == side]


def side_name(rules: Rules, side: int) -> str:
    """``You & North``, ``West & East``, ``You``, ``West`` (one seat a side)."""
    seats = side_seats(rules, side)
    short = len(seats) > 2
    names = [
        "You" if seat == 0 else seat_initials(rules, seat) if short else seat_name(rules, seat)
        for seat in seats
    ]
    return side_label(names)


def side_short(rules: Rules, side: int) -> str:
    """``us`` / ``them`` with two sides; else ``you``, ``W``, ``SW+NE``."""
    seats = side_seats(rules, side)
    if sides_count(rules) == 2:
        return "us" if 0 in seats else "them"
    if 0 in seats:
        return "you" if len(seats) == 1 else "us"
    return "+".join(seat_initials(rules, seat) for seat in seats)


def seat_initials(rules: Rules, seat: int) -> str:
    """``W``, ``NW``, ``SE``."""
    return "".join(word[0] for word in seat_name(rules, seat).split("-"))


def side_of(rules: Rules, seat: int) -> int:
    return side_of_seats(rules)[seat]


def is_red(card: Card) -> bool:
    return card == JOKER or (card < JOKER and card >> 4 in RED_SUITS)


def points_text(points: int) -> str:
    """A hand's points as a score sheet writes them: ``+120``, ``-80``, and ``0`` (no
    sign on nothing)."""
    return f"{points:+d}" if points else "0"


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


def contract_text(rules: Rules, contract: Action, contractor: int) -> str:
    if contract < BID_BASE:
        return "no contract"
    return f"{contract_label(contract, rules.joker_names)} by {seat_label(rules, contractor)}"


def auction_text(rules: Rules, calls: Sequence[tuple[int, Action]]) -> str:
    return ", ".join(
        f"{seat_name(rules, s)} {action_label(a, rules.joker_names)}" for s, a in calls
    )


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
        if hand.contract >= BID_BASE:
            initials = seat_initials(rules, hand.contractor)
            contract = f"{contract_label(hand.contract, rules.joker_names)} {initials}"
            contract += " ✓" if score.made else " ✗"
        else:
            contract = "all pass"
        rows.append(SheetRow(number, contract, score.points, tuple(totals), capped))
        before = list(totals)
    return rows


def sheet_lines(game: GameState) -> list[str]:
    rules = game.rules
    rule = f"  ({rule_490_short(rules.target)})" if rules.rule_490 else ""
    sides = range(sides_count(rules))
    # Four sides or more: columns of five, so that points and totals fit in 80 columns.
    wide = len(sides) <= 3
    width, cw, indent = (6, 12, "  ") if wide else (5, 10, "")
    names = [side_short(rules, side)[:width] for side in sides]
    heads = " ".join(f"{n:>{width}}" for n in names)
    lines = [
        f"Score sheet — to {rules.target}{rule}",
        f"{indent}{'#':>2} {'contract':<{cw}} " + heads + "   " + heads,
        f"{indent}{'':>2} {'':<{cw}} "
        + f"{'points':^{len(heads)}}"
        + "   "
        + f"{'totals':^{len(heads)}}",
    ]
    for row in score_sheet(game):
        marks = ["*" if c else " " for c in row.capped]
        points = " ".join(f"{points_text(row.points[side]):>{width}}" for side in sides)
        totals = " ".join(f"{row.totals[side]:>{width - 1}}{marks[side]}" for side in sides)
        lines.append(f"{indent}{row.number:>2} {row.contract:<{cw}} {points}   {totals}".rstrip())
    if any(any(r.capped) for r in score_sheet(game)):
        lines.append(f"  * held at {rules.target - 10} by the 490 rule")
    return lines


def hand_summary_lines(hand: HandState, totals: Sequence[int]) -> list[str]:
    """After a hand: the contract, tricks and points of each side, and the totals."""
    rules = hand.rules
    result = hand.result
    lines = []
    if result.contract >= BID_BASE:
        made = "made" if result.made else "went down"
        lines.append(f"{contract_text(rules, result.contract, result.contractor)}: {made}.")
        if hand.called_card >= 0:
            partners = [s for s in hand.partners if s != hand.contractor]
            who = seat_label(rules, partners[0]) if partners else "nobody else"
            lines.append(
                f"Called {card_label(hand.called_card, rules.joker_names)}: the partner was {who}."
            )
    else:
        lines.append("Everybody passed: no contract.")
    sides = range(sides_count(rules))
    tricks = tricks_by_side(rules, result.tricks_won)
    lines.append("Tricks: " + ", ".join(f"{side_name(rules, s)} {tricks[s]}" for s in sides) + ".")
    lines.append(
        "Points: "
        + ", ".join(f"{side_name(rules, s)} {points_text(result.points[s])}" for s in sides)
        + "."
    )
    # Each part of the points, so that a further 100 or a slam's 250 is never a mystery.
    for side in sides:
        parts = point_parts_text(
            result.score.parts, side, result.contract, result.made, rules.joker_names
        )
        if parts:
            lines.append(f"  {side_name(rules, side)}: {parts}.")
    lines.append("Score: " + ", ".join(f"{side_name(rules, s)} {totals[s]}" for s in sides) + ".")
    return lines


def all_hands_lines(hand: HandState) -> list[str]:
    """Every hand as dealt, the kitty and the contractor's discards."""
    rules = hand.rules
    two = rules.joker_names
    ctx = display_context(
        hand.contract, (hand.joker_suits[0], hand.joker_suits[1]), rules.j5_no_trumps
    )
    width = max(len(name) for name in seat_names(rules)) + 1
    lines = []
    for seat in range(hand.seats):
        lines.append(
            f"  {seat_name(rules, seat):<{width}} {cards_text(hand.dealt[seat], ctx, two)}"
        )
    lines.append(f"  {'Kitty':<{width}} {cards_text(hand.kitty_dealt, ctx, two)}")
    if hand.discards:
        lines.append(f"  {'Discards':<{width}} {cards_text(hand.discards, ctx, two)}")
    return lines


def cards_text(mask: CardMask, ctx: PlayContext | None, two_jokers: JokerNames = False) -> str:
    groups = suit_groups(hand_order(mask, ctx), ctx)
    return "  ".join(" ".join(card_label(c, two_jokers) for c in group) for group in groups)


def trick_text(rules: Rules, plays: Sequence[tuple[int, Action]]) -> str:
    return ", ".join(
        f"{seat_name(rules, s)} {action_label(a, rules.joker_names)}" for s, a in plays
    )


def played_by_suit_lines(obs: Observation) -> list[str]:
    """The cards played so far in this hand, by suit (trumps with their bowers), from the
    tricks everyone has seen."""
    rules = obs.rules
    ctx = view_context(obs)
    played = obs.played
    if not played:
        return ["No card has been played yet in this hand."]
    groups = suit_groups(hand_order(played, ctx), ctx)
    count = played.bit_count()
    lines = [f"Played so far ({count} card{'' if count == 1 else 's'}):"]
    for group in groups:
        first = group[0]
        if ctx is not None and ctx.effective_suit[first] >= 0:
            suit = ctx.effective_suit[first]
            name = suit_label(suit) + (" (trumps)" if suit == ctx.trump else "")
        elif first >= JOKER:
            name = "joker"
        else:
            name = suit_label(first >> 4)
        lines.append(f"  {name:<11} {' '.join(card_label(c, rules.joker_names) for c in group)}")
    return lines


def table_lines(obs: Observation, game: GameState) -> list[str]:
    """The table as text, from South's seat."""
    rules = obs.rules
    two = rules.joker_names
    hand_number = len(game.finished_hands) + 1
    score = ", ".join(f"{side_name(rules, s)} {game.scores[s]}" for s in range(sides_count(rules)))
    heading = (
        f"— Hand {hand_number} · dealer {seat_name(rules, obs.dealer)} · score: {score} "
        f"(game to {rules.target})"
    )
    # the closing dash only where it fits the line (wrapped, it stood alone on the next)
    lines = [heading + " —" if len(heading) + 2 <= WIDTH else heading]
    if obs.contract >= BID_BASE:
        tricks = tricks_by_side(rules, obs.tricks_won)
        line = f"Contract: {contract_text(rules, obs.contract, obs.contractor)}"
        jokers = joker_nominations(rules, obs.joker_suits)
        if jokers and obs.trump == 4:
            line += f" ({jokers})"
        if obs.called_card >= 0:
            line += f" · called {card_label(obs.called_card, two)}"
        won = ", ".join(f"{side_short(rules, s)} {tricks[s]}" for s in range(sides_count(rules)))
        lines.append(f"{line} · tricks: {won}")
    elif obs.auction:
        lines.append(f"Bids: {auction_text(rules, obs.auction)}")
    counts = ", ".join(f"{seat_label(rules, s)} {obs.hand_sizes[s]}" for s in range(1, rules.seats))
    lines.append(f"Cards held: {counts}")
    ctx = view_context(obs)
    for seat, mask in obs.exposed:
        who = "Your hand" if seat == 0 else f"{seat_label(rules, seat)}'s open cards"
        if table_place(rules, seat):
            who = table_place(rules, seat)
        lines.append(f"{who}: {cards_text(mask, ctx, two)}")
    if obs.table_kitty and obs.phase in ("table_kitty", "auction"):
        lines.append(f"Moved to the kitty: {cards_text(obs.table_kitty, ctx, two)}")
    if obs.drawn >= 0:
        lines.append(f"You drew {card_label(obs.drawn, two)}")
    if obs.trick:
        lines.append(f"Trick: {trick_text(rules, obs.trick)}")
    elif obs.tricks:
        plays, winner = obs.tricks[-1]
        lines.append(f"Last trick: {trick_text(rules, plays)} — won by {seat_name(rules, winner)}")
    mine = "Your hand" if obs.seat == 0 else f"{seat_label(rules, obs.seat)}'s playable cards"
    lines.append(f"{mine}: {cards_text(obs.hand, ctx, two)}")
    return lines


def joker_nominations(rules: Rules, joker_suits: Sequence[int]) -> str:
    """The suits nominated for the jokers in no trumps (R-JOKER): ``joker is ♠``, or with
    two jokers each one named (``JKR is ♠, JKB is ♥``; the French-Canadian white joker
    ``JKW``); "" before any nomination."""
    cards = joker_cards(bool(rules.joker_names))
    named = [(card, suit) for card, suit in zip(cards, joker_suits, strict=False) if suit >= 0]
    if not named:
        return ""
    if len(cards) == 1:
        return action_label(nominate_action(JOKER, named[0][1]))  # ``joker is ♠``
    return ", ".join(
        f"{card_label(card, rules.joker_names)} is {suit_label(suit)}" for card, suit in named
    )


def joker_cards(two_jokers: bool) -> tuple[Card, ...]:
    return (JOKER, JOKER_BLACK) if two_jokers else (JOKER,)
