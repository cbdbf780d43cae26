"""What each connection is sent: a seat's view, or a spectator's.

Both are the engine's own :class:`~fivehundred.observation.Observation` (built by
:func:`~fivehundred.observation.observe`, a spectator's from the public facts only, never a
seat's view with fields removed), with what the page says added here.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from fivehundred.actions import (
    action_text,
    bid_action,
    is_bid,
    is_suit_bid,
    joker_lead_action,
)
from fivehundred.auction import Auction
from fivehundred.cards import (
    RANK_JACK,
    cards_of,
    is_joker,
    mask_text,
    rank_of,
    same_colour_suit,
    suit_of,
)
from fivehundred.game import controller_of
from fivehundred.messages import error_text
from fivehundred.observation import SPECTATOR as SPECTATOR  # (the web names it views.SPECTATOR)
from fivehundred.observation import Observation
from fivehundred.rules import Rules
from fivehundred.table import Table


@lru_cache(maxsize=64)
def allowed_calls(rules: Rules) -> tuple[str, ...]:
    """The calls other than pass and the suit bids that these rules ever make legal, in
    action order: asked of the auction itself, at its first call and after a bid of 7
    (misère may need one)."""
    opening = Auction(rules, dealer=0)
    legal = set(opening.legal_calls())
    opening.apply(bid_action(7, 0))
    legal.update(opening.legal_calls())
    return tuple(
        action_text(call) for call in sorted(legal) if is_bid(call) and not is_suit_bid(call)
    )


def seat_observation(table: Table, seat: int) -> Observation:
    """``seat``'s observation; with two players, while the seat's own dummy is to move, the
    dummy's (whose legal actions are the seat's to make)."""
    moving = table.seat_to_move
    if moving >= 0 and moving != seat and controller_of(table.rules, moving) == seat:
        return table.observation(moving)
    return table.observation(seat)


def observation_json(table: Table, seat: int) -> dict[str, Any]:
    """The view of a seat (its observation, with what the page says) or of a spectator
    (:data:`~fivehundred.observation.SPECTATOR`: the public facts only)."""
    if seat == SPECTATOR:
        view = table.observation(SPECTATOR).to_json()
        view["legal_labels"], view["refusals"], view["prompt"] = {}, {}, None
        return view
    observation = seat_observation(table, seat)
    view = observation.to_json()
    view["legal_labels"] = {text: action_label(text, view["phase"]) for text in view["legal"]}
    view["refusals"] = refusals(table, observation)
    view["prompt"] = prompt_text(view)
    if observation.seat != seat:
        # Its dummy moves: the player's own hand too, from the player's own observation.
        own = table.observation(seat)
        view["own_hand"] = [action_text(card, own.rules.joker_names) for card in cards_of(own.hand)]
    return view


def last_trick(table: Table) -> dict[str, Any] | None:
    """The last completed trick of the hand in progress, or of the hand just finished."""
    game = table.game
    hand = game.hand
    if not hand.tricks and not hand.history and game.finished_hands:
        hand = game.finished_hands[-1]
    if not hand.tricks:
        return None
    two = table.rules.joker_names
    plays, winner = hand.tricks[-1]
    return {"plays": [[seat, action_text(a, two)] for seat, a in plays], "winner": winner}


def hand_result(table: Table) -> dict[str, Any] | None:
    """The hand just finished (until the next hand's first action), else None."""
    game = table.game
    if not game.finished_hands or (not game.is_over and game.hand.history):
        return None
    hand = game.finished_hands[-1]
    result = hand.result
    return {
        "hand": len(game.finished_hands),
        "contract": action_text(result.contract, table.rules.joker_names)
        if result.contract >= 0
        else None,
        "contractor": result.contractor if result.contractor >= 0 else None,
        "made": result.made,
        "tricks_won": list(result.tricks_won),
        "points": list(result.points),
        "scores": list(game.score_history[-1]),
    }


def kitty_cards(table: Table, seat: int) -> list[str] | None:
    """The kitty's cards in the contractor's own view while it discards."""
    hand = table.game.hand
    if (
        seat == SPECTATOR
        or hand.phase != "discard"
        or seat != controller_of(table.rules, hand.contractor)
    ):
        return None
    return mask_text(hand.kitty_dealt, table.rules.joker_names)


def auction_seats(table: Table) -> list[int]:
    return [seat for seat, _ in table.game.hand.auction.calls]


# ---------------------------------------------------------------------- what a person reads
_SYMBOL = dict(zip("SCDH", "♠♣♦♥", strict=True))
_SUIT_WORD = {"S": "spades", "C": "clubs", "D": "diamonds", "H": "hearts"}
_JOKER_WORD = {"JK": "Joker", "JKR": "Red joker", "JKB": "Black joker", "JKW": "White joker"}
_CALL_WORDS = {
    "pass": "Pass",
    "misere": "Misère",
    "open_misere": "Open misère",
    "blind_misere": "Blind misère",
    "hi_lo": "Hi/lo",
    "double_misere": "Double misère",
    "shields_double": "Shields double",
    "patastrophe": "Patastrophe",
    "slam": "Call slam",
    "no_slam": "No slam",
    "claim": "Claim the rest",
    "keep": "Keep it",
    "throw": "Throw it",
    "alone": "Go alone",
    "none": "Leave the joker free",
}


def card_label(text: str) -> str:
    """A card in symbols, as a person reads it: ``10♥``, ``J♠``, ``Joker``."""
    if text in _JOKER_WORD:
        return _JOKER_WORD[text]
    return text[:-1] + _SYMBOL[text[-1]]


def action_label(text: str, phase: str) -> str:
    """An action's record text (``6D``, ``JK>S``, ``call:AS``, ``misere``) in card symbols
    and words (``6♦``, ``joker as ♠``, ``call A♠``, ``Misère``)."""
    if text in _CALL_WORDS:
        return _CALL_WORDS[text]
    if text.startswith("call:"):
        return f"call {card_label(text[5:])}"
    if ">" in text:  # a free joker led as a suit
        joker, suit = text.split(">")
        return f"{card_label(joker).lower()} as {_SYMBOL[suit]}"
    if ":" in text:  # the black/white joker's nomination (two jokers)
        joker, suit = text.split(":")
        return f"{card_label(joker).lower()}: {_SUIT_WORD[suit]}"
    if phase == "nominate" and text in _SYMBOL:
        return _SUIT_WORD[text]
    if text[:1].isdigit() and text.endswith("NT"):
        return f"{text[:-2]} NT"
    return card_label(text)


def display_names(names: list[str]) -> list[str]:
    """One name per seat, the same on every page: the person's or the computer player's
    name, with the seat's number where two seats share it (``medium 2``, ``medium 4``)."""
    return [
        f"{name} {seat + 1}" if names.count(name) > 1 else name for seat, name in enumerate(names)
    ]


_PROMPTS = {
    "auction": "Your bid",
    "nominate": "Nominate the joker's suit, or leave it free",
    "call": "Call a card: its holder is your partner for this hand",
    "slam": "Call slam (all ten tricks), or not",
    "slam_pass": "Your partner calls slam: pass them one card of your hand",
    "table_kitty": "Move one of the face-up cards to the kitty",
    "table_take": "Take one of the face-up cards into your hand",
    "table_discard": "Discard one card of your hand",
    "draw": "Keep the card drawn (and throw the next) or throw it (and keep the next)",
}


def prompt_text(view: dict[str, Any]) -> str | None:
    """What the seat is asked to do now, or None when it is not its turn."""
    if not view["legal"]:
        return None
    phase = view["phase"]
    if phase == "discard":
        need = len(view["hand"]) - 10
        return f"Choose {need} card{'s' if need != 1 else ''} to discard"
    if phase == "play":
        return "Your turn: follow" if view["trick"] else "Your lead"
    return _PROMPTS.get(phase, "Your move")


def is_left_bower(card: int, trump: int) -> bool:
    """Whether ``card`` is the jack of the trump suit's colour (a trump, R-RANK)."""
    return (
        0 <= trump < 4
        and not is_joker(card)
        and rank_of(card) == RANK_JACK
        and suit_of(card) == same_colour_suit(trump)
    )


def refusals(table: Table, observation: Observation) -> dict[str, str]:
    """Why each card of the hand that may not be played now is refused, in card language
    (the engine's own refusal, through :func:`fivehundred.messages.error_text`); empty
    when it is not this seat's turn to play a card."""
    hand = table.game.hand
    if hand.phase != "play" or not observation.legal or observation.seat != table.seat_to_move:
        return {}
    two = observation.rules.joker_names
    legal_cards = set()
    for action in observation.legal:
        legal_cards.add(action_text(action, two).split(">")[0])
    reasons: dict[str, str] = {}
    for card in cards_of(observation.hand):
        text = action_text(card, two)
        if text in legal_cards:
            continue
        error = table.refusal(table.to_move, card)
        if error is not None and is_joker(card) and "must nominate a suit" in error.reason:
            # A free joker led as no suit it may be led as now: the reason for the first.
            error = table.refusal(table.to_move, joker_lead_action(card, 0))
        reason = error_text(error, two) if error else "This card may not be played now"
        if is_left_bower(card, observation.trump) and reason.startswith("You must follow"):
            led = reason.split(":")[0].removeprefix("You must follow ")
            reason = f"{card_label(text)} is the left bower, a trump: you must follow {led}"
        reason = re.sub(r"\bJK[RBW]?\b", lambda m: card_label(m.group(0)), reason)
        reasons[text] = re.sub(r" \(R-[A-Z0-9-]+\)$", "", reason)
    return reasons
