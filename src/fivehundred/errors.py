"""Exceptions of the engine. All are ``ValueError`` subclasses, so callers that only care
about "bad input" can catch one type; each carries the rule id it enforces."""

from __future__ import annotations

from enum import StrEnum


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

    The refusal also says what was refused as data, for the interfaces' words (never read
    back out of the message): ``why`` is a :class:`Refusal` (or empty), ``card`` the
    card or call refused, ``suit`` the suit concerned (the suit to follow, the joker's
    lead) and ``against`` the bid to beat; -1 where they do not apply."""

    why: str = ""

    def __init__(
        self,
        message: str,
        rule: str = "",
        why: str = "",
        card: int = -1,
        suit: int = -1,
        against: int = -1,
    ) -> None:
        self.why = why or self.why
        self.card = card
        self.suit = suit
        self.against = against
        super().__init__(message, rule)


class Refusal(StrEnum):
    """The kinds of refusal (:attr:`IllegalActionError.why`)."""

    REVOKE = "revoke"  # a card that does not follow the suit led
    JOKER_MUST_FOLLOW = "joker_must_follow"  # the joker while the suit led can be followed
    MISERE_JOKER = "misere_joker"  # not the joker, by a misère hand that cannot follow
    JOKER_NEEDS_SUIT = "joker_needs_suit"  # a free joker led without a suit
    JOKER_SUIT_VOID = "joker_suit_void"  # the joker led as a suit the leader showed void in
    JOKER_SUIT_LED = "joker_suit_led"  # the joker led as a suit led before
    NOT_HELD = "not_held"  # a card not in the hand (or hand and kitty)
    FACE_DOWN = "face_down"  # a dummy's face-down card
    OUTBID = "outbid"  # a bid that does not outrank the bid to beat
    DEALER_MUST_BID = "dealer_must_bid"  # the dealer passing when everyone else has
    NOT_A_CALL = "not_a_call"  # not a call, in the auction
    NOT_A_CARD = "not_a_card"  # not a card, in the play
    NOT_A_DISCARD = "not_a_discard"  # not a card, while discarding
    NOT_YOUR_TURN = "not_your_turn"  # an action from a seat that is not to move
    GAME_OVER = "game_over"  # an action once the game is over
    BARRED = "barred"  # a bid by a seat barred by ralphing (R-HOUSE)


REFUSALS = tuple(Refusal)


class RecordError(FiveHundredError):
    """A malformed or illegal game record; ``where`` says which field (``play[13]``)."""

    def __init__(self, where: str, message: str, rule: str = "") -> None:
        self.where = where
        super().__init__(f"{where}: {message}", rule)
