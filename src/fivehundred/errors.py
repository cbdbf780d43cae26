"""Exceptions of the engine. All are ``ValueError`` subclasses, so callers that only care
about "bad input" can catch one type; each carries the rule id it enforces."""

from __future__ import annotations


class FiveHundredError(ValueError):
    """Base of every error the engine raises for bad input or an illegal action."""

    rule: str = ""

    def __init__(self, message: str, rule: str = "") -> None:
        self.rule = rule or self.rule
        self.reason = message
        super().__init__(f"{message} ({self.rule})" if self.rule else message)


class CardParseError(FiveHundredError):
    """Text that is not a card of the notation (R-PACK)."""

    rule = "R-PACK"


class ActionParseError(FiveHundredError):
    """Text that is not an action in record notation."""


class RulesError(FiveHundredError):
    """An unknown preset or variant, a variant value of the wrong type, or a combination
    refused: then ``variant`` names the variant refused and ``why`` says why in its own
    words (``needs six players``), as data for the options screens."""

    rule = "R-PRESET"

    def __init__(self, message: str, rule: str = "", variant: str = "", why: str = "") -> None:
        self.variant = variant
        self.why = why or message
        super().__init__(message, rule)


class IllegalActionError(FiveHundredError):
    """A well-formed action that the rules do not allow now; ``rule`` names the rule id.

    A refused card play also says what was refused as data, for the interfaces' words
    (never read back out of the message): ``why`` is one of :data:`PLAY_REFUSALS`,
    ``card`` the card refused and ``suit`` the suit that must be followed (or -1)."""

    def __init__(
        self, message: str, rule: str = "", why: str = "", card: int = -1, suit: int = -1
    ) -> None:
        self.why = why
        self.card = card
        self.suit = suit
        super().__init__(message, rule)


#: The kinds of refused card play (:attr:`IllegalActionError.why`): a card that does not
#: follow the suit led, the joker played while the suit led can be followed, another card
#: than the joker by a misère hand that cannot follow, and a free joker led without a suit.
REVOKE, JOKER_MUST_FOLLOW, MISERE_JOKER, JOKER_NEEDS_SUIT = (
    "revoke",
    "joker_must_follow",
    "misere_joker",
    "joker_needs_suit",
)
PLAY_REFUSALS = (REVOKE, JOKER_MUST_FOLLOW, MISERE_JOKER, JOKER_NEEDS_SUIT)


class RecordError(FiveHundredError):
    """A malformed or illegal game record; ``where`` says which field (``play[13]``)."""

    def __init__(self, where: str, message: str, rule: str = "") -> None:
        self.where = where
        super().__init__(f"{where}: {message}", rule)
