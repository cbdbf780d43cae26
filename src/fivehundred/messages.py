"""The engine's refusals in card language, for every interface (terminal, line mode, web).

The engine's errors speak record notation and seat numbers
(``7S revokes: seat 0 must follow C (R-PLAY)``); a person reads
``You must follow ♣: 7♠ is not a ♣ (R-PLAY)``. :func:`error_text` is the one mapping; the
rule id stays as a detail in brackets. Standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from fivehundred.cards import SUIT_LETTERS, SUIT_SYMBOLS, JokerNames, card_symbol, parse_card
from fivehundred.errors import CardParseError, FiveHundredError

_CARD = re.compile(r"\b(?:[2-9]|1[0-3]|[JQKA])[SCDH]\b|\bJK\b|\bBJ\b|\bRJ\b")
_SEAT = re.compile(r"\b[Ss]eat (\d+)('s)?")


def card_symbols(text: str, two_jokers: JokerNames = False) -> str:
    """Record notation of cards in a text (``7S``, ``10H``) as symbols (``7♠``, ``10♥``)."""
    return _symbols(text, two_jokers)


def _symbols(text: str, two_jokers: JokerNames) -> str:
    """Record notation of cards (``7S``, ``10H``) as symbols (``7♠``, ``10♥``)."""

    def card(match: re.Match[str]) -> str:
        try:
            return card_symbol(parse_card(match.group(0)), two_jokers)
        except CardParseError:
            return match.group(0)

    return _CARD.sub(card, text)


def _suit(letter: str) -> str:
    index = SUIT_LETTERS.find(letter)
    return SUIT_SYMBOLS[index] if len(letter) == 1 and index >= 0 else letter


#: (pattern on the engine's reason, how a person reads it), first match wins.
_PHRASES: tuple[tuple[re.Pattern[str], Callable[[re.Match[str]], str]], ...] = (
    (
        re.compile(r"^(\S+) revokes: seat \d+ must follow ([SCDH])$"),
        lambda m: f"You must follow {_suit(m[2])}: {m[1]} is not a {_suit(m[2])}",
    ),
    (
        re.compile(r"^the joker may be played only when unable to follow ([SCDH])$"),
        lambda m: (
            f"You must follow {_suit(m[1])}: the joker may be played only when you have "
            f"no {_suit(m[1])}"
        ),
    ),
    (
        re.compile(r"^(\S+): in misère a player who cannot follow must play the joker$"),
        lambda m: "You cannot follow suit, so in misère you must play the joker",
    ),
    (re.compile(r"^(\S+) is not in seat \d+'s hand$"), lambda m: f"You do not hold {m[1]}"),
    (re.compile(r"^(\S+) is not in the contractor's hand$"), lambda m: f"You do not hold {m[1]}"),
    (
        re.compile(r"^(\S+) does not outrank (.+)$"),
        lambda m: f"{m[1]} is not higher than the bid to beat, {m[2]}",
    ),
    (
        re.compile(r"^(\S+) is not a call; it is the auction$"),
        lambda m: "It is the bidding: choose a bid or pass",
    ),
    (
        re.compile(r"^(\S+) is not a card; it is the play$"),
        lambda m: "It is the play: choose a card",
    ),
    (
        re.compile(r"^(\S+): discard a card from the hand and kitty$"),
        lambda m: "Discard one of your cards (the kitty is in your hand now)",
    ),
    (
        re.compile(r"^the dealer may not pass when the others have$"),
        lambda m: "Everyone else has passed: as dealer you must bid",
    ),
    (
        re.compile(r"^a joker led in no trumps or misère must nominate a suit, like JK>S$"),
        lambda m: "Say which suit you lead the joker as",
    ),
    (
        re.compile(r"^the joker may not be led as ([SCDH]):(.*)$"),
        lambda m: f"You may not lead the joker as {_suit(m[1])}:{m[2]}",
    ),
    (
        re.compile(r"^(\S+) lies face down: a dummy plays only its face-up cards$"),
        lambda m: f"{m[1]} lies face down: the dummy plays only its face-up cards",
    ),
    (re.compile(r"^it is not your turn$|^seat \d+ is not to move"), lambda m: "Wait for your turn"),
)


def error_text(error: FiveHundredError, two_jokers: JokerNames = False,
               names: Sequence[str] = ()) -> str:  # fmt: skip
    """``error`` as a person reads it: suits and cards as symbols, the refusal said the
    way a player would say it, the rule id kept in brackets. ``names`` names the seats
    (``seat 2`` becomes ``names[2]``) where a message still mentions one."""
    reason = error.reason
    text = None
    for pattern, say in _PHRASES:
        match = pattern.match(reason)
        if match is not None:
            text = say(match)
            break
    if text is None:
        text = reason[:1].upper() + reason[1:]
    text = _symbols(text, two_jokers)
    if names:

        def seat(match: re.Match[str]) -> str:
            number = int(match.group(1))
            name = names[number] if number < len(names) else match.group(0)
            return name + (match.group(2) or "")

        text = _SEAT.sub(seat, text)
    return f"{text} ({error.rule})" if error.rule else text
