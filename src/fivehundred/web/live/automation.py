"""Automation: the table's driver task, its automatic moves and the stand-ins' timing."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import time
from functools import partial
from typing import TYPE_CHECKING, NamedTuple, cast

from fivehundred.web.deadlines import (
    EXPIRE,
    FINISH,
    GRACE,
    OPEN_SEAT,
    TURN,
    Deadline,
    DeadlineChange,
)
from fivehundred.web.game_clock import spent_of
from fivehundred.web.live.base import COMPUTER, OPEN, PERSON
from fivehundred.web.live.following import Following
from fivehundred.web.live.workers import searches
from fivehundred.web.players import OVERTIME

if TYPE_CHECKING:
    from fivehundred.web.live.table import LiveTable

log = logging.getLogger("fivehundred.web")


class Due(NamedTuple):
    """The computer move a table's driver makes next."""

    #: seconds until it is made (for one not ``ready``: until its deadline is due)
    seconds: float
    player: str
    #: who the log says made it: ``computer``, ``stand_in``, ``timer``, ``overtime``
    by: str
    #: it waits for the delay alone (not for a deadline to be fired)
    ready: bool


class Automation(Following):
    """The computer moves of a table: one driver task (:meth:`drive`) makes them for
    computer seats, open seats and people away past their grace, and at a turn's end."""

    def automation(self) -> Due | None:
        """The computer move to make next, if any: a computer seat's after the delay; the
        stand-in's for a seat nobody took, a person away, or a person whose turn clock ran
        out once the scheduler fired that deadline (:mod:`fivehundred.web.deadlines`)."""
        if not self.live:
            return None
        seat = self.model.to_move
        state = self.seats[seat]
        delay = max(0.0, self.last_change + self.options["delay"] - time.monotonic())
        if state.kind == COMPUTER:
            return Due(delay, state.player or "random", COMPUTER, True)
        if self.overtime:  # the game's deadline passed: the stand-in finishes it
            return Due(delay, self.options["stand_in"], OVERTIME, True)
        if state.kind == OPEN:  # nobody took it: the stand-in plays it (it can still be taken)
            return self.due_at(OPEN_SEAT, seat, delay)
        if self.turn_based:  # the clock alone, connected or not
            if self.held_by_stand_in(seat):
                return Due(delay, self.options["stand_in"], "stand_in", True)
            return self.due_at(TURN, seat, 0.0)
        if not self.present(seat):
            return self.due_at(GRACE, seat, delay)
        if self.options["turn_timer"]:
            return self.due_at(TURN, seat, 0.0)
        return None

    def due_at(self, kind: str, seat: int, delay: float) -> Due:
        """The stand-in's move for the deadline ``kind`` of ``seat``: ready (after
        ``delay``) once fired, else not (the seconds left until it is due)."""
        by = "timer" if kind == TURN else "stand_in"
        found = self.deadlines.get((kind, seat))
        if found is not None and found.fired and (kind != TURN or found.version == self.version):
            return Due(delay, self.options["stand_in"], by, True)
        left = math.inf if found is None else max(0.0, found.due - time.time())
        return Due(max(left, delay), self.options["stand_in"], by, False)

    def plan_deadlines(self) -> None:
        """Write the deadlines the table needs now and delete those it no longer needs (the
        owner's driver, at each change): an open seat's stand-in, a person's grace from when
        they left, the game's own deadline (``finish_by``), the turn clock of the person to move (the action before it wrote it, where
        there was one). Those read or written already keep their due time."""
        now = time.time()
        wanted: dict[tuple[str, int], Deadline] = {}
        if self.live:
            grace = float(self.options["grace"])
            opened = self.hub.limits.open_seat_grace if self.open_grace is None else self.open_grace
            for seat, state in enumerate(self.seats):
                if state.kind == OPEN:
                    wanted[(OPEN_SEAT, seat)] = Deadline(now + opened, self.version)
                elif state.kind == PERSON and not self.present(seat) and not self.turn_based:
                    wanted[(GRACE, seat)] = Deadline(now + grace, self.version)
            finish_by = self.options.get("finish_by")
            if finish_by is not None:
                wanted[(FINISH, 0)] = Deadline(float(finish_by), self.version)
            clock = self.turn_deadline()
            if clock is not None:
                wanted[(TURN, self.model.to_move)] = Deadline(clock, self.version)
            expiry = self.expiry()
            if expiry is not None:
                wanted[(EXPIRE, expiry[0])] = Deadline(now + expiry[1], self.version)
        written = {
            key: deadline
            for key, deadline in wanted.items()
            if key not in self.deadlines
            or (key[0] == TURN and self.deadlines[key].version != self.version)
        }
        deleted = [key for key in self.deadlines if key not in wanted]
        if not written and not deleted:
            return
        for key in deleted:
            del self.deadlines[key]
        self.deadlines.update(written)
        # in the group commit, with the actions of the moment (no transaction of its own)
        change = DeadlineChange(self.id, self.code, written, deleted)
        self.hub.store.write(change).add_done_callback(partial(self.deadlines_written, written))

    def expiry(self) -> tuple[int, float] | None:
        """While nobody is connected: whether a person is seated (1, else 0) and the
        seconds until the table is closed (``expire_abandoned``, ``expire_unjoined``); a
        turn-based table with a person seated is left to its clocks (None)."""
        if self.anyone_here():
            return None
        joined = any(s.kind == PERSON for s in self.seats)
        if joined and self.turn_based:
            return None
        limits = self.hub.limits
        return int(joined), limits.expire_abandoned if joined else limits.expire_unjoined

    async def expire_if_due(self) -> bool:
        """Close the table if its expiry fired (nobody came back meanwhile); whether closed."""
        fired = [k for k, d in self.deadlines.items() if k[0] == EXPIRE and d.fired]
        if not fired or self.anyone_here():
            return False
        await self.hub.close_table(
            cast("LiveTable", self), "abandoned" if fired[0][1] else "unjoined"
        )
        return True

    def deadlines_written(
        self, written: dict[tuple[str, int], Deadline], done: asyncio.Future[None]
    ) -> None:
        """The rows of :meth:`plan_deadlines` are committed (the scheduler is told when the
        soonest is due), or they could not be (planned again in a moment)."""
        error = "cancelled" if done.cancelled() else done.exception()
        if error is not None and self.task is None:
            return  # (stopped, as the server stops: its next driver plans them again)
        if error is not None:
            log.error(
                "table %s: could not write its deadlines (%s); trying again", self.code, error
            )
            for key in written:  # planned again at the next change
                self.deadlines.pop(key, None)
            self.hub.spawn(self.replan_later())
        elif written:
            self.hub.scheduler.noted(min(d.due for d in written.values()))

    async def replan_later(self) -> None:
        await asyncio.sleep(1.0)
        self.wake.set()

    async def read_deadlines(self) -> None:
        """Read the table's deadlines again (one was fired, or this server now drives the
        table); the stand-in acts on those fired."""
        found = await self.hub.store.call(self.hub.scheduler.store.of_table, self.id)
        shown = [self.stand_in_now(seat) for seat in range(len(self.seats))], self.banks()
        if self.options.get("game_clock"):
            await self.read_spent()
        self.deadlines = found
        self.wake.set()
        if shown != ([self.stand_in_now(seat) for seat in range(len(self.seats))], self.banks()):
            self.broadcast()

    async def read_spent(self) -> None:
        """What each seat spent of its clock per game: the actions' times (a read that
        missed an action made meanwhile is done again)."""
        args = (self.hub.store.store.engine, self.id, self.created, len(self.seats))
        for _ in range(3):
            version = self.version
            spent, began, count = await self.hub.store.call(spent_of, *args)
            if count == version == self.version:
                self.spent, self.turn_began = spent, began
                return

    async def drive(self) -> None:
        """Make the computer moves until the game is over (the table's driver task)."""
        loop = asyncio.get_running_loop()
        if not self.fresh:
            with contextlib.suppress(Exception):  # (else written again as needed)
                await self.read_deadlines()
        self.fresh = False
        while self.live:
            if self.handing_over and self.between_hands():
                await self.hand_over()
                return
            try:
                self.plan_deadlines()
                if await self.expire_if_due():
                    continue
                due = self.automation()
                if due is None or not due.ready or due.seconds > 0:
                    # wait for a change (a deadline fired is one) or the computer's delay
                    # (a timer, not wait_for: no task and no exception per computer move)
                    self.wake.clear()
                    timer = None
                    if due is not None and due.ready:
                        timer = loop.call_later(due.seconds, self.wake.set)
                    try:
                        await self.wake.wait()
                    finally:
                        if timer is not None:
                            timer.cancel()
                    continue
                await self._automatic_move(due.player, due.by)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: computer move failed; trying again", self.code)
                await asyncio.sleep(1.0)
        self.plan_deadlines()  # (none once the game is over)
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
            if due is None or due.by != by or not due.ready:
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
