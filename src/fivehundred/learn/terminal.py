"""Plain-terminal helpers shared by ``fivehundred puzzle`` and ``fivehundred learn``:
a position in card symbols, and reading a card or call typed by a person."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Sequence

from fivehundred.actions import (
    BID_BASE,
    CLAIM,
    Action,
    action_card,
    is_joker_lead,
    joker_lead_suit,
    parse_action,
)
from fivehundred.auction import allowed_contracts
from fivehundred.cards import NUM_CARDS, SUIT_LETTERS, SUIT_SYMBOLS
from fivehundred.errors import ActionParseError, FiveHundredError
from fivehundred.game import HandState
from fivehundred.messages import error_text
from fivehundred.play import PlayContext
from fivehundred.rules import Rules
from fivehundred.scoring import side_of_seats, tricks_by_side
from fivehundred.text import call_text, play_text, wrapped
from fivehundred.words import (
    SUIT_WORDS,
    action_label,
    card_words,
    display_context,
    hand_order,
    parse,
    seat_name,
    side_names,
)

Reader = Callable[[str], str | None]


def read_line(prompt: str) -> str | None:
    """A line typed at the prompt; None at the end of input."""
    sys.stdout.write(prompt)
    sys.stdout.flush()
    line = sys.stdin.readline()
    if not line:
        sys.stdout.write("\n")
        return None
    return line.strip()


def say(text: str) -> None:
    """Print ``text`` a line at a time, each wrapped at 80 columns between words (its
    later lines keep the line's indent, two more), as ``play --plain`` prints."""
    for line in text.splitlines() or [""]:
        indent = line[: len(line) - len(line.lstrip())]
        print(wrapped(line, indent + "  " if indent else indent))


def typed_to_record(text: str) -> str:
    """What a person types (``Q♠``, ``q s``, ``10h``, ``jk>♥``, ``7 NT``) in record notation."""
    out = text.strip().replace(" ", "")
    for letter, symbol in zip(SUIT_LETTERS, SUIT_SYMBOLS, strict=True):
        out = out.replace(symbol, letter)
    out = out.replace("→", ">").replace("è", "e")
    return out


def parse_typed(text: str, phase: str, state: HandState | None = None) -> Action:
    """Parse a typed action for ``phase``: the short forms people type (``QS``, ``q s``,
    ``7 NT``, ``jk→♥``), then every form the game prints, read as ``fivehundred play
    --plain`` reads it (:func:`fivehundred.words.parse`: ``7♥``, ``open misère``, and with
    ``state``, ``JK as ♦`` naming one of its legal actions). A text read neither way keeps
    the short form's reason (``JK`` alone asks which suit, ``5H`` in the auction is not a
    call). Raises FiveHundredError with a clear reason."""
    try:
        return parse_action(typed_to_record(text), phase)
    except ActionParseError as error:
        first = error
    jokers = state.rules.joker_names if state is not None else False
    with contextlib.suppress(ActionParseError):
        return parse(text, None, jokers, phase)
    if state is not None:
        legal = state.legal_actions()
        with contextlib.suppress(ActionParseError):
            action = parse(text, legal, jokers)
            if action in legal:
                return action
    raise first


def names(state: HandState) -> list[str]:
    return [seat_name(seat, state.rules.seats) for seat in range(state.rules.seats)]


def position_lines(
    state: HandState, you: int, show_all: bool = True, hidden: Sequence[int] = ()
) -> list[str]:
    """The position in card symbols: contract, tricks so far, the hands (all of them
    double dummy, else only ``you``'s; ``hidden`` seats as a count), each hand in the one
    display order of the table (trumps first, the left bower among them, from the moment
    the contract is known), the trick in progress."""
    rules = state.rules
    two = rules.joker_names
    seat_names = names(state)
    lines: list[str] = []
    if state.contract >= BID_BASE and state.contractor >= 0:
        who = seat_names[state.contractor]
        if state.partners:
            who += f" (partner {' and '.join(seat_names[s] for s in state.partners)})"
        elif state.is_misere and rules.seats == 4:
            who += " alone"
        lines.append(f"Contract: {call_text(state.contract, two)} by {who}.")
        teams = side_names(rules.seats, side_of_seats(rules))
        won = tricks_by_side(rules, state.tricks_won)
        done = ", ".join(f"{t} {n}" for t, n in zip(teams, won, strict=True))
        left = rules.pack.hand_size - len(state.tricks)
        lines.append(f"Tricks so far: {done}; {left} to play.")
    for seat in range(rules.seats):
        if not show_all and seat != you:
            continue
        mark = "  ← you" if seat == you else ""
        if state.active and seat not in state.active:
            lines.append(f"  {seat_names[seat]:<7} (sits out){mark}")
            continue
        if seat in hidden:
            lines.append(f"  {seat_names[seat]:<7} ({state.hands[seat].bit_count()} cards, hidden)")
            continue
        cards = " ".join(play_text(c, two) for c in hand_order(state.hands[seat], shown_ctx(state)))
        lines.append(f"  {seat_names[seat]:<7} {cards}{mark}")
    if state.trick_actions:
        plays = "  ".join(
            f"{seat_names[s]} {play_text(a, two)}"
            for s, a in zip(state.trick_seats, state.trick_actions, strict=True)
        )
        lines.append(f"Trick so far: {plays}")
    elif state.phase == "play":
        lines.append(f"{seat_names[state.to_move]} to lead.")
    return lines


def shown_ctx(state: HandState) -> PlayContext | None:
    """The display order's context once the contract is known (the discard included,
    where the engine has no play tables yet): trumps first, the left bower among them."""
    if state.ctx is not None:
        return state.ctx
    return display_context(
        state.contract, (state.joker_suits[0], state.joker_suits[1]), state.rules.j5_no_trumps
    )


def played_tricks(state: HandState) -> list[tuple[list[tuple[int, Action]], int]]:
    """The tricks already played this hand: each trick's plays ``(seat, action)`` and its
    winner (every card played is seen by every player)."""
    return [(list(trick.plays), trick.winner) for trick in state.tricks]


def played_lines(state: HandState) -> list[str]:
    """The tricks already played, a line each: ``Trick 1: West A♠, North 5♠ … won by West``."""
    two = state.rules.joker_names
    seat_names = names(state)
    lines = []
    for number, (plays, winner) in enumerate(played_tricks(state), 1):
        cards = ", ".join(f"{seat_names[s]} {play_text(a, two)}" for s, a in plays)
        lines.append(f"  Trick {number}: {cards}; won by {seat_names[winner]}")
    return lines


def action_words(action: Action, rules: Rules, trump: int = -1) -> str:
    """A card played (or a joker led as a suit) in words, for a screen reader: ``jack of
    hearts, right bower``, ``joker led as diamonds``; a call as it is written (``7♥``)."""
    jokers = rules.joker_names
    if 0 <= action < NUM_CARDS:
        return card_words(action, jokers, trump)
    if is_joker_lead(action):
        suit = SUIT_WORDS[joker_lead_suit(action)]
        return f"{card_words(action_card(action), jokers)} led as {suit}"
    return action_label(action, jokers)


def calls_text(rules: Rules) -> str:
    """The calls this game has, in the words people read: ``pass, a bid from 6♠ to 10NT,
    misère or open misère``."""
    special = [action_label(c, rules.joker_names) for c in allowed_contracts(rules) if c >= 0]
    special = [w for w in special if not w[:1].isdigit()]
    parts = ["pass", "a bid from 6♠ to 10NT", *special]
    return ", ".join(parts[:-1]) + " or " + parts[-1]


def legal_words(state: HandState) -> str:
    two = state.rules.joker_names
    legal = [a for a in state.legal_actions() if a != CLAIM]
    if state.phase == "play" or state.phase == "discard":
        return " ".join(play_text(a, two) for a in legal)
    return ", ".join(call_text(a, two) for a in legal)


def refusal(error: FiveHundredError, state: HandState) -> str:
    """The engine's refusal in card language; a text that is no call at all names the
    calls this game has (in the vocabulary's words, never the record's spellings)."""
    if isinstance(error, ActionParseError) and state.phase == "auction":
        return f"That is not a call in this game: the calls are {calls_text(state.rules)}"
    return error_text(error, state.rules.joker_names, names(state))
