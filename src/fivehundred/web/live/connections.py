"""One WebSocket at a table (:class:`Connection`), a seat's state, and how messages are encoded."""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import deque
from dataclasses import dataclass
from typing import Any

import orjson
from fastapi import WebSocket

from fivehundred.web.guard import close_reason
from fivehundred.web.live.base import SEND_QUEUE


class Connection:
    """One WebSocket: its seat (or :data:`views.SPECTATOR`) and its outgoing queue."""

    def __init__(self, websocket: WebSocket, seat: int, name: str) -> None:
        self.websocket = websocket
        self.seat = seat
        self.name = name
        #: encoded messages to send, and at last a (code, reason) close
        self.queue: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue(SEND_QUEUE)
        self.closing = False
        self.chats: deque[float] = deque()
        #: (inbox id, version) of the message passed to the table's server and not yet
        #: answered (several servers: :meth:`LiveTable._forward`)
        self.forwarded: tuple[int, int] | None = None
        #: the client's address (the server sets it): the per-address limits
        self.client = ""
        #: the browser's device id, if it has one (the server sets it): the ratings
        self.device: str | None = None
        #: the hint being worked out for it (cancelled when it goes or is replaced)
        self.hint: asyncio.Task[None] | None = None

    def cancel_work(self) -> None:
        """Stop the work done for this connection alone (its hint)."""
        if self.hint is not None and not self.hint.done():
            self.hint.cancel()

    def send(self, message: dict[str, Any]) -> None:
        self.send_encoded(encode(message))

    def waits_on(self, version: int) -> bool:
        """It passed on a message chosen at ``version`` and waits for the answer."""
        return self.forwarded is not None and self.forwarded[1] == version

    def send_encoded(self, text: str) -> None:
        """Queue a message already encoded by :func:`encode` (one view for many)."""
        if self.closing:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close(1008, "too slow: messages were piling up")

    def close(self, code: int, reason: str) -> None:
        if self.closing:
            return
        self.closing = True
        reason = close_reason(reason)
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait((code, reason))
        if self.queue.full():  # no room for the close itself: make room
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
            self.queue.put_nowait((code, reason))

    async def sender(self) -> None:
        """Send the queued messages in order; a close entry closes the socket."""
        while True:
            item = await self.queue.get()
            if isinstance(item, tuple):
                with contextlib.suppress(Exception):
                    await self.websocket.close(item[0], item[1])
                return
            await self.websocket.send_text(item)


@dataclass
class SeatState:
    kind: str
    player: str | None = None
    name: str | None = None
    token_hash: str | None = None


def encode(message: dict[str, Any]) -> str:
    """A message as compact JSON text (orjson; the standard library's encoder for what orjson
    refuses, such as a lone surrogate escaped in a chat text)."""
    try:
        return orjson.dumps(message).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(message, separators=(",", ":"))
