"""A table in play as its clients use it: their messages (actions, chat, hints, undo)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from fivehundred.actions import action_text
from fivehundred.observation import Observation
from fivehundred.web import views
from fivehundred.web.client_messages import (
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
from fivehundred.web.live.automation import Automation
from fivehundred.web.live.base import (
    CHAT_BURST,
    CHAT_WINDOW,
    COMPUTER,
    HINT_SECONDS,
    PERSON,
    Refusal,
)
from fivehundred.web.live.connections import Connection
from fivehundred.web.live.workers import searches

log = logging.getLogger("fivehundred.web")


class LiveTable(Automation):
    """A table in play (or finished, for its facts and record): its clients' messages
    (:meth:`handle`) on top of its state, automation and cluster following."""

    # ------------------------------------------------------------------ connections
    def attach(self, conn: Connection) -> None:
        self.last_seen = time.monotonic()
        if conn.seat == views.SPECTATOR:
            self.spectators.add(conn)
        else:
            old = self.connections.get(conn.seat)
            if old is not None:
                old.cancel_work()
                old.close(4000, "replaced by a newer connection")
            self.connections[conn.seat] = conn
            log.info("table %s: seat %d connected", self.code, conn.seat)
        self.hub.hold(self)
        self.broadcast()
        self.wake.set()
        self.announce()

    def detach(self, conn: Connection) -> None:
        self.last_seen = time.monotonic()
        conn.cancel_work()
        self.answered(conn)
        if conn.seat == views.SPECTATOR:
            self.spectators.discard(conn)
        elif self.connections.get(conn.seat) is conn:
            del self.connections[conn.seat]
            log.info("table %s: seat %d disconnected", self.code, conn.seat)
            self.broadcast()
            self.wake.set()
        self.announce()
        self.hub.release(self)

    # ------------------------------------------------------------------ messages
    async def handle(self, conn: Connection, text: str) -> bool:
        """One message from a client. Refusals go back to that client alone. True when the
        message was a move that was made (the game itself limits how often that can be)."""
        try:
            try:
                message = parse_client_message(text, self.hub.limits.json_depth)
            except TooDeep as error:
                self.hub.refused("json_depth")
                raise Refusal(str(error)) from None
            except MessageError as error:
                raise Refusal(str(error)) from None
            match message:
                case Act():  # made here: the game limits how often; passed on: not
                    return await self._client_action(conn, message)
                case Chat(text=line):
                    self._chat(conn, line)
                case Resync():
                    if not self.owned:
                        await self.pull()
                    conn.send(self.view(conn.seat))
                case Ping():
                    conn.send({"type": "pong"})
                case Hint(marked=marked):
                    await self._hint(conn, marked)
                case Undo():
                    await self._undo(conn)
                case Rematch():
                    await self.hub.rematch(self, self._acting_seat(conn), conn.client, conn.device)
        except Refusal as refusal:
            conn.send({"type": "error", "message": str(refusal), "version": self.version})
        return False

    def _acting_seat(self, conn: Connection) -> int:
        if conn.seat == views.SPECTATOR:
            raise Refusal("spectators cannot act: take a seat to play")
        if self.connections.get(conn.seat) is not conn:
            raise Refusal("this connection was replaced by a newer one")
        return conn.seat

    async def _client_action(self, conn: Connection, message: Act) -> bool:
        """A client's action: made here (True), or passed to the table's server (False)."""
        seat = self._acting_seat(conn)
        text, version = message.action, message.version
        async with self.lock:
            if version != self.version:
                conn.send(self.view(seat))
            action = self.checked(seat, version, text)
            if self.owned:
                await self.commit(seat, action, PERSON)
                return True
        await self._forward(conn, seat, version, action_text(action, self.rules.joker_names))
        return False

    async def _forward(self, conn: Connection, seat: int, version: int, text: str) -> None:
        """Pass a person's checked action (or ``undo``) to the server that owns the table:
        its news brings the new view back, or its refusal (``refused:``) the reason, to this
        connection. One at a time per connection and version: a client that sends again
        before the answer is refused here."""
        if conn.waits_on(version):
            raise Refusal("your last message is still on its way to the table's server: wait")
        try:
            forwarded = await self.hub.store.call(
                self.hub.store.store.forward, self.id, self.code, version, seat, text
            )
        except Exception:
            log.exception("table %s: could not pass %s to its server", self.code, text)
            raise Refusal("the server could not pass that on; try again") from None
        self.answered(conn)
        conn.forwarded = (forwarded, version)
        self.forwarded[forwarded] = conn
        self.forwarded_at[forwarded] = time.monotonic()
        self.hub.count("passed_on")
        early = self.refused_early.pop(forwarded, None)
        if early is not None:  # refused before its id came back here
            self.refused_there(forwarded, early)
        elif self.version > version:  # made (and pulled) before its id came back here
            self.answered(conn)

    def _chat(self, conn: Connection, text: str) -> None:
        now = time.monotonic()
        while conn.chats and now - conn.chats[0] > CHAT_WINDOW:
            conn.chats.popleft()
        if len(conn.chats) >= CHAT_BURST:
            raise Refusal(f"chat: at most {CHAT_BURST} messages in {CHAT_WINDOW:.0f} seconds")
        conn.chats.append(now)
        seat = None if conn.seat == views.SPECTATOR else conn.seat
        name = self.seat_name(conn.seat) if seat is not None else "spectator"
        self.chat_to_all(
            {"type": "chat", "seat": seat, "name": name, "text": text, "time": time.time()}
        )

    async def _hint(self, conn: Connection, marked: tuple[str, ...] = ()) -> None:
        """Start working out a hint for ``conn``'s seat: one at a time per seat, a few a
        minute per address (:data:`HINTS_PER_MINUTE`), and a search hint takes its
        address's search turn (one search at a time per address: one visitor's hints
        cannot fill the search players' pool). It runs beside the connection's messages
        and is cancelled when the connection goes or is replaced. In the discard, ``marked``
        (the cards marked, not yet sent) count as discarded: the hint names another card."""
        seat = self._acting_seat(conn)
        if not any(s.kind == COMPUTER for s in self.seats):
            raise Refusal("hints are given at tables with a computer player")
        model = self.model
        if model.is_over or model.to_move != seat:
            raise Refusal("a hint is for your turn")
        observation = model.observation(model.seat_to_move)
        try:  # (the discards marked, not yet sent, as made: the hint names another card)
            observation = views.hint_observation(observation, marked)
        except ValueError as error:
            raise Refusal(str(error)) from None
        if any(
            other.hint is not None and not other.hint.done()
            for other in (conn, self.connections.get(seat))
            if other is not None
        ):
            raise Refusal("a hint is still being worked out for you: wait for it")
        if searches(self.options["stand_in"]) and self.hub.hint_searches.locked():
            self.hub.refused("hint_busy")
            raise Refusal("the server is working out other hints: ask again in a moment")
        wait = await self.hub.take_token(self.hub.hints, "hint", conn.client or self.code)
        if wait > 0:
            self.hub.refused("hint_rate")
            raise Refusal(f"too many hints from your address: try again in {int(wait) + 1} s")
        conn.hint = self.hub.spawn(
            self._give_hint(conn, self.version, observation, model.decision_seed() ^ 0x5EED)
        )

    async def _give_hint(
        self, conn: Connection, version: int, observation: Observation, seed: int
    ) -> None:
        player = self.options["stand_in"]
        try:
            if searches(player):
                async with (
                    self.hub.hint_searches,  # at most half of the search workers
                    self.hub.search_turn(conn.client or self.code),
                ):
                    decision = asyncio.ensure_future(
                        self.hub.decider.decide(player, seed, observation, self.code, HINT_SECONDS)
                    )
                    try:
                        action, reason = await asyncio.shield(decision)
                    except asyncio.CancelledError:
                        # the search runs on in its process: the turn is held until it
                        # ends (a replaced connection's hints do not pile up in the pool)
                        with contextlib.suppress(BaseException):
                            await decision
                        raise
            else:
                action, reason = await self.hub.decider.decide(player, seed, observation)
        except asyncio.CancelledError:
            return
        if self.version == version and not conn.closing:
            conn.send(
                {
                    "type": "hint",
                    "action": action_text(action, self.rules.joker_names),
                    "reason": reason,
                    "version": version,
                }
            )

    async def _undo(self, conn: Connection) -> None:
        seat = self._acting_seat(conn)
        if not all(s.kind == COMPUTER for other, s in enumerate(self.seats) if other != seat):
            raise Refusal("undo is only for a table where every other seat is a computer player")
        if not self.owned:
            await self._forward(conn, seat, self.version, "undo")
            return
        await self.undo_seat(seat)
