"""Plain-text views of hands and tricks, for the demo, the line-mode game and logs."""

from __future__ import annotations

from fivehundred.actions import BID_BASE, action_text
from fivehundred.cards import CardMask, card_symbol, iter_cards
from fivehundred.game import HandState
from fivehundred.play import PlayContext, sort_key

SEAT_NAMES = ("South", "West", "North", "East")


def seat_name(seat: int, seats: int = 4) -> str:
    return SEAT_NAMES[seat] if seats == 4 else f"Seat {seat}"


def hand_text(mask: CardMask, ctx: PlayContext | None = None, two_jokers: bool = False) -> str:
    """Cards with suit symbols, grouped by suit (trumps together once the contract is known)."""
    cards = sorted(iter_cards(mask), key=lambda c: sort_key(c, ctx))
    return " ".join(card_symbol(c, two_jokers) for c in cards)


def describe_hand(state: HandState) -> str:
    """A finished (or partial) hand as readable lines: deal, auction, tricks, result."""
    rules = state.rules
    two = rules.two_jokers
    names = [seat_name(s, rules.seats) for s in range(rules.seats)]
    lines = [f"Dealer: {names[state.dealer]}  ({rules.describe()})"]
    for seat, hand in enumerate(state.dealt):
        lines.append(f"  {names[seat]:<6} {hand_text(hand, None, two)}")
    lines.append(f"  Kitty  {hand_text(state.kitty_dealt, None, two)}")
    calls = ", ".join(f"{names[s]} {action_text(a, two)}" for s, a in state.auction.calls)
    lines.append(f"Auction: {calls}")
    if state.contract < BID_BASE:
        lines.append("All passed.")
    else:
        lines.append(f"Contract: {action_text(state.contract, two)} by {names[state.contractor]}")
    for number, trick in enumerate(state.tricks, 1):
        plays = "  ".join(
            f"{names[s][0]}:{action_text(a, two).replace('>', '→')}" for s, a in trick.plays
        )
        lines.append(f"  trick {number:>2}: {plays}   won by {names[trick.winner]}")
    if state.is_over:
        result = state.result
        made = {True: "made", False: "failed", None: "-"}[result.made]
        lines.append(f"Tricks won: {list(result.tricks_won)}  Points: {list(result.points)}  "
                     f"({made})")  # fmt: skip
    return "\n".join(lines)
