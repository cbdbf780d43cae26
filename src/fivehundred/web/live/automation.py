"""Automation: the table's driver task, its automatic moves and the stand-ins' timing."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from typing import TYPE_CHECKING, cast

from fivehundred.web.live.base import COMPUTER, OPEN
from fivehundred.web.live.following import Following
from fivehundred.web.live.workers import searches

if TYPE_CHECKING:
    from fivehundred.web.live.table import LiveTable

log = logging.getLogger("fivehundred.web")


class Automation(Following):
    """The computer moves of a table: one driver task (:meth:`drive`) makes them for
    computer seats, open seats and people away past their grace, and at a turn's end."""

    def automation(self) -> tuple[float, str, str] | None:
        """(seconds until due, player, kind) of the computer move to make next, if any."""
        model = self.model
        if not self.live:
            return None
        seat = model.to_move
        state = self.seats[seat]
        now = time.monotonic()
        delay = self.last_change + self.options["delay"] - now
        if state.kind == COMPUTER:
            return max(0.0, delay), state.player or "random", COMPUTER
        if state.kind == OPEN:
            # nobody took it: the stand-in plays it (it can still be taken)
            grace = self.hub.limits.open_seat_grace if self.open_grace is None else self.open_grace
            due = max(self.opened + grace - now, delay)
            return max(0.0, due), self.options["stand_in"], "stand_in"
        if not self.present(seat):
            due = max(state.away_since + self.options["grace"] - now, delay)
            return max(0.0, due), self.options["stand_in"], "stand_in"
        timer = self.options["turn_timer"]
        if timer:
            return max(0.0, self.last_change + timer - now), self.options["stand_in"], "timer"
        return None

    async def drive(self) -> None:
        """Make the computer moves until the game is over (the table's driver task)."""
        loop = asyncio.get_running_loop()
        while self.live:
            if self.handing_over and self.between_hands():
                await self.hand_over()
                return
            try:
                due = self.automation()
                if due is None or due[0] > 0:
                    # wait for a change or the due time (a timer, not wait_for: no task
                    # and no exception per computer move)
                    self.wake.clear()
                    timer = None if due is None else loop.call_later(due[0], self.wake.set)
                    try:
                        await self.wake.wait()
                    finally:
                        if timer is not None:
                            timer.cancel()
                    continue
                await self._automatic_move(due[1], due[2])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: computer move failed; trying again", self.code)
                await asyncio.sleep(1.0)
        if self.hub.cluster is not None:
            await self.hub.cluster.unlock(self.id)
        self.hub.release(cast("LiveTable", self))  # (the driver is a table's)

    async def _automatic_move(self, player: str, by: str) -> None:
        model = self.model
        version = self.version
        observation = model.observation(model.seat_to_move)
        if searches(player):
            # one search at a time per client's tables: one visitor's many search tables
            # take turns for the pool instead of filling it
            async with self.hub.search_turn(self.owner or self.code):
                action, _ = await self.hub.decider.decide(
                    player, model.decision_seed(), observation, self.code
                )
        else:
            action, _ = await self.hub.decider.decide(
                player, model.decision_seed(), observation, self.code
            )
        async with self.lock:
            if self.version != version or self.model is not model:
                return  # somebody moved meanwhile
            due = self.automation()
            if due is None or due[2] != by:
                return  # the person came back
            seat = model.to_move
            if model.refusal(seat, action) is not None:
                log.error(
                    "table %s: %s chose an illegal %s; a random legal action instead",
                    self.code,
                    player,
                    action,
                )
                legal = model.legal_actions()
                action = legal[random.Random(model.decision_seed()).randrange(len(legal))]
            await self.commit(seat, action, by)

    def start(self) -> None:
        if not self.owned:
            return
        if self.task is None and self.live:
            self.task = asyncio.get_running_loop().create_task(
                self.drive(), name=f"table-{self.code}"
            )

    async def stop(self) -> None:
        for conn in [*self.connections.values(), *self.spectators]:
            conn.close(1001, "the server is stopping")
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
            self.task = None
