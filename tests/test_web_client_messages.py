"""The client's messages (``fivehundred.web.client_messages``): each parsed to its value,
everything else refused with the reason the client reads, and the protocol's document
listing the same messages."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from fivehundred.web.client_messages import (
    CHAT_LENGTH,
    MARKED_CARDS,
    TYPES,
    Act,
    Chat,
    Hint,
    MessageError,
    Ping,
    Rematch,
    Resync,
    TooDeep,
    Undo,
    parse_client_message,
)

DOCS = Path(__file__).resolve().parent.parent / "docs" / "web-protocol.md"


def parse(message: object) -> object:
    return parse_client_message(json.dumps(message), 32)


def test_each_message_is_parsed_to_its_value() -> None:
    assert parse({"type": "action", "action": "7H", "version": 3}) == Act("7H", 3)
    assert parse({"type": "chat", "text": "  well played "}) == Chat("well played")
    assert parse({"type": "resync"}) == Resync()
    assert parse({"type": "ping", "extra": [1, 2]}) == Ping()  # unknown fields ignored
    assert parse({"type": "hint"}) == Hint()
    assert parse({"type": "hint", "marked": None}) == Hint()
    assert parse({"type": "hint", "marked": ["10H", "JK"]}) == Hint(("10H", "JK"))
    assert parse({"type": "undo"}) == Undo()
    assert parse({"type": "rematch"}) == Rematch()


@pytest.mark.parametrize(
    ("message", "why"),
    [
        ([1, 2], "a JSON object"),
        ({"kind": "action"}, "unknown message type None"),
        ({"type": "move"}, "unknown message type 'move'; types are action, chat"),
        ({"type": ["action"]}, "unknown message type"),
        ({"type": "action", "action": "7H"}, "version: must be"),
        ({"type": "action", "action": "7H", "version": True}, "version: must be"),
        ({"type": "action", "action": "", "version": 1}, "action: must be a string"),
        ({"type": "action", "action": "7" * 21, "version": 1}, "action: must be a string"),
        ({"type": "chat", "text": "   "}, "non-empty"),
        ({"type": "chat", "text": 5}, "non-empty"),
        ({"type": "chat", "text": "x" * (CHAT_LENGTH + 1)}, f"at most {CHAT_LENGTH}"),
        ({"type": "hint", "marked": "10H"}, "a list of cards"),
        ({"type": "hint", "marked": [1]}, "a list of cards"),
        ({"type": "hint", "marked": ["10HHH"]}, "a list of cards"),
        ({"type": "hint", "marked": ["2H"] * (MARKED_CARDS + 1)}, "a list of cards"),
    ],
)
def test_anything_else_is_refused_with_a_reason(message: object, why: str) -> None:
    with pytest.raises(MessageError, match=re.escape(why)):
        parse(message)


def test_not_json_and_too_deep() -> None:
    with pytest.raises(MessageError, match="not JSON"):
        parse_client_message("{", 32)
    with pytest.raises(TooDeep, match="deeper than 4 levels"):
        parse_client_message('{"type": "ping", "x": [[[[[1]]]]]}', 4)


def test_the_protocol_lists_the_same_messages_in_the_same_order() -> None:
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("### Client → server") : text.index("### Reconnecting")]
    listed = re.findall(r'^\| `\{"type": "(\w+)"', section, re.MULTILINE)
    assert listed == list(TYPES)
