"""Cluster following: a table read again from the database, and its inbox taken."""

from __future__ import annotations

import logging
import time

from fivehundred.actions import parse_action
from fivehundred.errors import FiveHundredError
from fivehundred.web.live.base import PERSON, Refusal
from fivehundred.web.live.model import copy_table, replay_log
from fivehundred.web.live.state import TableState
from fivehundred.web.store import TableRow

log = logging.getLogger("fivehundred.web")


class Following(TableState):
    """A table's part in a cluster: reading what other servers wrote (a follower pulls
    the actions its owner made), the actions passed to the owner, the hand-over."""

    def rebuild(self, row: TableRow, with_log: bool = True) -> bool:
        """Take the table as the database has it (seats, and the log and state unless not
        ``with_log``); the caller holds the lock. Connections keep their seats; people keep
        their time away. Whether anything changed."""
        changed = row.closed != self.closed
        for seat, s in enumerate(row.seats):
            state = self.seats[seat]
            new = (s.kind, s.player, s.name, s.token_hash)
            if new != (state.kind, state.player, state.name, state.token_hash):
                state.kind, state.player, state.name, state.token_hash = new
                changed = True
        self.closed = row.closed
        if with_log and row.actions != self.log:
            for conn in list(self.forwarded.values()):
                self.answered(conn)  # versions were taken back: wait for nothing older
            self.log = list(row.actions)
            self.model = replay_log(self.rules, self.players, self.seed, self.log)
            self.last_change = time.monotonic()
            self.turn_started = time.time()
            self.spent = None if self.log else [0.0] * len(self.seats)  # (read by the owner)
            changed = True
        return changed

    async def refresh(self, with_log: bool = True) -> None:
        """Read the table again from the database (its seats only, unless ``with_log``)
        and show it if it changed: a view is sent for a change, never twice for one state
        (a client acts on each view that offers it a move). Where the log only grew (another
        server made actions meanwhile, as when a database restart cost this one its lock),
        one view per action, as the clients of the server that made them had."""
        async with self.lock:
            row = await self.hub.store.call(self.hub.store.store.load_table, self.code, with_log)
            if row is None:
                return
            if not self.catch_up(row, with_log):
                return
        self.wake.set()
        if not with_log and not self.owned:
            self.request_pull()

    def catch_up(self, row: TableRow, with_log: bool = True) -> bool:
        """Take the table as the database has it and show it (the caller holds the lock):
        where the log only grew, one view per action, as the clients of the server that
        made them had (no version missed); else the table as it is. Whether anything
        changed."""
        known = len(self.log)
        if with_log and len(row.actions) > known and row.actions[:known] == self.log:
            self.rebuild(row, with_log=False)
            for seat, text, by in row.actions[known:]:
                self._apply_written(seat, text, by)
            return True
        if not self.rebuild(row, with_log):
            return False
        self.broadcast()
        return True

    def _apply_written(self, seat: int, text: str, by: str) -> None:
        """Make an action another server wrote (the next version) and show it."""
        model = copy_table(self.model)
        model.apply(seat, parse_action(text, model.hand.phase))
        self.model = model
        self.log.append((seat, text, by))
        self.last_change = time.monotonic()
        self.turn_started = time.time()
        self.spent = self.spent_after(seat, self.turn_started)  # (as seen here)
        self.turn_began = self.turn_started
        mover = self.connections.get(seat)
        if mover is not None and mover.waits_on(self.version - 1):
            self.answered(mover)  # its action was made
        self.broadcast()

    async def pull(self) -> None:
        """Apply the actions another server wrote since :attr:`version` (a follower): one
        view per action, as the owner's clients get them. A client that comes meanwhile
        waits for the pull to end (:meth:`Hub.get`): clients coming back together to a
        server that held the table stale get one view of the table as it is, not a replay
        of its log."""
        self.pulling += 1
        try:
            await self._pull()
        finally:
            self.pulling -= 1

    async def _pull(self) -> None:
        async with self.lock:
            self.stale = False
            if self.owned:
                return
            rows = await self.hub.store.call(
                self.hub.store.store.actions_after, self.id, self.version
            )
            if not rows:
                return
            try:  # one view per action, as the owner's clients get them
                for version, seat, text, by in rows:
                    if version != self.version + 1:
                        raise ValueError(f"version {version} after {self.version}")
                    self._apply_written(seat, text, by)
            except (ValueError, FiveHundredError) as error:
                log.info("table %s: read again (%s)", self.code, error)
                row = await self.hub.store.call(self.hub.store.store.load_table, self.code, True)
                if row is not None:
                    self.rebuild(row)
                self.broadcast()

    def between_hands(self) -> bool:
        """No action of the hand in play is made yet (a table moves to another server
        only then: no hand is interrupted)."""
        return not self.model.game.hand.history

    async def hand_over(self) -> None:
        """Give the table up (called by its driver, between hands): another server, one
        with fewer tables, takes it at its next look (:mod:`fivehundred.web.cluster`);
        this server follows it for its clients from now on."""
        cluster = self.hub.cluster
        async with self.lock:
            self.handing_over = False
            if not self.owned or cluster is None:
                return
            self.owned = False
            self.task = None
            cluster.given_up(self.id)
            await cluster.unlock(self.id)
        log.info("table %s: handed over between hands (a fair share of tables)", self.code)
        self.hub.count("handed_over")

    def request_pull(self) -> None:
        """A newer action is in the log: read it now if somebody here watches, else when
        the table is next asked for."""
        self.stale = True
        if not (self.connections or self.spectators):
            return
        if self.puller is None or self.puller.done():
            self.puller = self.hub.spawn(self._pull_while_stale())

    async def _pull_while_stale(self) -> None:
        while self.stale:
            try:
                await self.pull()
            except Exception:
                log.exception("table %s: could not read the newer actions", self.code)
                return

    async def drain_inbox(self) -> None:
        """Make the actions clients of other servers passed here (the owner), checked as
        this server's own clients' are; each refusal goes back to the sender's server
        (``refused:CODE:ID:REASON``), which tells its client."""
        if not self.owned:
            return
        rows = await self.hub.store.call(self.hub.store.store.take_inbox, self.id)
        for forwarded, version, seat, text in rows:
            try:
                if text == "undo":
                    await self.undo_seat(seat)
                    continue
                async with self.lock:
                    if not self.owned:
                        raise Refusal("the table moved to another server: try again")
                    await self.commit(seat, self.checked(seat, version, text), PERSON)
            except Refusal as refusal:
                cluster = self.hub.cluster
                if cluster is not None:
                    await cluster.notify(f"refused:{self.code}:{forwarded}:{refusal}")
