"""The messages a client sends on a table's WebSocket: one union of small values, parsed in
one place (:func:`parse_client_message`). A message that is not one of them is refused
with the reason the client reads (:class:`MessageError`); what a message asks is then
checked against the table (the turn, the version, the limits) by the table itself.

``docs/web-protocol.md`` lists the same messages; ``tests/test_web_client_messages.py``
holds the two together."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from fivehundred.web.guard import json_depth

#: The longest chat line (characters).
CHAT_LENGTH = 200
#: The longest action's text ("10NT", "JK>H", a card: a few characters).
ACTION_LENGTH = 20
#: The most cards a hint's ``marked`` may name (the largest kitty is smaller).
MARKED_CARDS = 32


class MessageError(ValueError):
    """A client's message that is none of the messages: the reason goes back to it."""


class TooDeep(MessageError):
    """JSON nested deeper than the server's limit (counted apart in the metrics)."""


@dataclass(frozen=True, slots=True)
class Act:
    """An action (a call, a discard, a card, ...) chosen on the view of ``version``."""

    action: str
    version: int


@dataclass(frozen=True, slots=True)
class Chat:
    """A line of chat (stripped) to everyone at the table."""

    text: str


@dataclass(frozen=True, slots=True)
class Resync:
    """Send my view again (after a gap in the versions)."""


@dataclass(frozen=True, slots=True)
class Ping:
    """Answered by a ``pong`` (a client's keep-alive)."""


@dataclass(frozen=True, slots=True)
class Hint:
    """A hint for my turn; in the discard, ``marked`` are the cards chosen, not yet sent."""

    marked: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back my last decision (a table where every other seat is a computer)."""


@dataclass(frozen=True, slots=True)
class Rematch:
    """Ask for a rematch of a finished game."""


ClientMessage = Act | Chat | Resync | Ping | Hint | Undo | Rematch

#: Each message's ``type``, in the order the protocol lists them.
TYPES = ("action", "chat", "resync", "ping", "hint", "undo", "rematch")
#: The messages without fields, each one value.
_PLAIN: dict[str, ClientMessage] = {
    "resync": Resync(),
    "ping": Ping(),
    "undo": Undo(),
    "rematch": Rematch(),
}


def parse_client_message(text: str, max_depth: int) -> ClientMessage:
    """The message ``text`` (one JSON object) is, or :class:`MessageError` saying why it is
    none (JSON nested deeper than ``max_depth`` levels is not decoded)."""
    if json_depth(text) > max_depth:
        raise TooDeep(f"JSON nested deeper than {max_depth} levels")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError):
        raise MessageError("not JSON: send one JSON object per message") from None
    if not isinstance(message, dict):
        raise MessageError("a message must be a JSON object with a 'type'")
    kind = message.get("type")
    if kind == "action":
        return _act(message)
    if kind == "chat":
        return _chat(message)
    if kind == "hint":
        return _hint(message)
    plain = _PLAIN.get(kind) if isinstance(kind, str) else None
    if plain is None:
        raise MessageError(f"unknown message type {kind!r}; types are {', '.join(TYPES)}")
    return plain


def _act(message: dict[str, Any]) -> Act:
    action, version = message.get("action"), message.get("version")
    if not isinstance(action, str) or not action or len(action) > ACTION_LENGTH:
        raise MessageError('action: must be a string such as "7H" (one of view.legal)')
    if not isinstance(version, int) or isinstance(version, bool):
        raise MessageError("version: must be the version of the view the action was chosen on")
    return Act(action, version)


def _chat(message: dict[str, Any]) -> Chat:
    text = message.get("text")
    if not isinstance(text, str) or not text.strip():
        raise MessageError("chat: text must be a non-empty string")
    if len(text) > CHAT_LENGTH:
        raise MessageError(f"chat: at most {CHAT_LENGTH} characters")
    return Chat(text.strip())


def _hint(message: dict[str, Any]) -> Hint:
    marked = message.get("marked")
    if marked is None:
        return Hint()
    if (
        not isinstance(marked, list)
        or len(marked) > MARKED_CARDS
        or not all(isinstance(card, str) and 0 < len(card) <= 4 for card in marked)
    ):
        raise MessageError('hint: marked must be a list of cards, such as ["10H"]')
    return Hint(tuple(marked))
