"""The work that follows a finished game, taken exactly once (docs/web-protocol.md#outbox).

The transaction that writes a game's last action writes, with it, one ``outbox`` row per
piece of work that must follow (:attr:`~fivehundred.web.store.Store.follow_ups`: ``rate``
and ``notify`` always under the server, ``review`` where the reviews are on). A server
killed right after that commit loses nothing: the rows are in the database, and every
server runs one :class:`Outbox` worker that takes them, each row by one worker only:

- ``rate``: one transaction locks the row (``FOR UPDATE SKIP LOCKED``: another server's
  worker passes it by), applies the ratings on the same connection
  (:meth:`~fivehundred.web.accounts.AccountStore.rate_game`) and deletes the row. The
  ratings and the row's end commit together: a worker killed at any point leaves the row
  (its transaction is rolled back) to the next, and a game is rated once.
- ``notify``: as ``rate``, the notices of the game's accounts (web/notices.py) made in
  the transaction that deletes the row: once per account.
- ``event``: a tournament game's result (web/events/), taken the same way by the events'
  own loop.
- ``review``: minutes of CPU in the analysis process, too long for a transaction. The row is
  leased (``taken_until``, :data:`LEASE` s) by one transaction, the game reviewed, and the
  summaries saved with the row's deletion in one more, only if the lease still holds (a
  worker killed in a review leaves the row to another once the lease is over).

A row whose work failed :data:`MAX_TRIES` times is dropped (logged), and so is a review
waiting longer than :data:`KEEP` s (no server of the database reviews games). The worker
looks at once when a game ends on its server, and every :data:`POLL` s (a game ended on
another server, or one whose server died)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from fivehundred.web.schema import outbox

log = logging.getLogger("fivehundred.web.outbox")

#: Seconds between two looks at the outbox (besides the wake of a game ended here).
POLL = 1.0
#: Seconds a review's row is held by the worker reviewing it.
LEASE = 600.0
#: Failed attempts after which a row is dropped.
MAX_TRIES = 5
#: Seconds after which a review nobody took is dropped.
KEEP = 86_400.0
#: Rows taken at one look (the rest at the next).
BATCH = 50


class OutboxStore:
    """The outbox's rows, synchronous (called in the store's thread)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def _next(self, db: Connection, kind: str, now: float | None = None) -> Any:
        query = sa.select(outbox.c.id, outbox.c.code, outbox.c.tries).where(outbox.c.kind == kind)
        if now is not None:
            query = query.where(sa.or_(outbox.c.taken_until.is_(None), outbox.c.taken_until < now))
        return db.execute(
            query.order_by(outbox.c.id).limit(1).with_for_update(skip_locked=True)
        ).first()

    def take_rating(self, rate: Callable[[str, Connection], str]) -> tuple[str, str] | None:
        """Rate the oldest game waiting for it, in the transaction that deletes its row;
        (code, what was done), or None if none waits (or every one is being taken)."""
        return self.take("rate", rate)

    def take(self, kind: str, work: Callable[[str, Connection], str]) -> tuple[str, str] | None:
        """Do the oldest row of ``kind`` (``rate``, ``notify``) in the transaction that
        deletes it; (code, what was done), or None if none waits."""
        failed: tuple[int, str, int] | None = None
        try:
            with self.engine.begin() as db:
                row = self._next(db, kind)
                if row is None:
                    return None
                failed = (row.id, row.code, row.tries)
                outcome = work(row.code, db)
                db.execute(outbox.delete().where(outbox.c.id == row.id))
                return row.code, outcome
        except Exception:
            if failed is None:
                raise
            log.exception("table %s: its %s work failed", failed[1], kind)
            self._failed(*failed)
            return failed[1], "failed"

    def _failed(self, row_id: int, code: str, tries: int) -> None:
        with self.engine.begin() as db:
            if tries + 1 >= MAX_TRIES:
                log.error("table %s: its follow-up work is dropped after %d tries", code, tries + 1)
                db.execute(outbox.delete().where(outbox.c.id == row_id))
            else:
                db.execute(
                    outbox.update().where(outbox.c.id == row_id).values(tries=outbox.c.tries + 1)
                )

    def lease_review(self, now: float) -> tuple[int, str, float] | None:
        """Hold the oldest review nobody holds for :data:`LEASE` s: (row id, code, until)."""
        with self.engine.begin() as db:
            db.execute(outbox.delete().where(outbox.c.kind == "review", outbox.c.at < now - KEEP))
            row = self._next(db, "review", now)
            if row is None:
                return None
            if row.tries >= MAX_TRIES:
                log.error("table %s: its review is dropped after %d tries", row.code, row.tries)
                db.execute(outbox.delete().where(outbox.c.id == row.id))
                return None
            until = now + LEASE
            db.execute(
                outbox.update()
                .where(outbox.c.id == row.id)
                .values(taken_until=until, tries=outbox.c.tries + 1)
            )
            return row.id, row.code, until

    def finish_review(
        self, row_id: int, until: float, save: Callable[[Connection], None] | None
    ) -> bool:
        """The review of a leased row is done: ``save`` (the summaries) and the row's end
        in one transaction, if the lease still holds (False: another worker has it)."""
        with self.engine.begin() as db:
            gone = db.execute(
                outbox.delete().where(outbox.c.id == row_id, outbox.c.taken_until == until)
            )
            if gone.rowcount != 1:
                return False
            if save is not None:
                save(db)
            return True

    def waiting(self) -> dict[str, int]:
        """Rows waiting, by kind (the tests and the metrics)."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(outbox.c.kind, sa.func.count()).group_by(outbox.c.kind)
            ).all()
        return {kind: int(n) for kind, n in rows}


class Outbox:
    """One server's outbox worker. ``rate(code, db)`` applies a game's ratings in ``db``;
    ``review(code)`` (None: this server reviews no games) returns a coroutine whose result
    is a function saving the game's review summaries in a transaction (or None)."""

    def __init__(
        self,
        async_store: Any,
        rate: Callable[[str, Connection], str],
        review: Callable[[str], Any] | None = None,
        poll: float = POLL,
        notify: Callable[[str, Connection], str] | None = None,
    ) -> None:
        self.async_store = async_store
        self.store = OutboxStore(async_store.store.engine)
        self.rate = rate
        self.review = review
        self.poll = poll
        #: the notices of a finished game (web/notices.py), and what to call once made
        self.notify = notify
        self.notified: Callable[[], None] | None = None
        #: more loops run and stopped with these: (work, its wake, seconds between looks)
        self.also: list[tuple[Callable[[], Any], asyncio.Event, float]] = []
        #: one loop per kind of work (a long review does not hold the ratings back)
        self._wakes: list[asyncio.Event] = []
        self._tasks: list[asyncio.Task[None]] = []
        #: pieces of work this worker did (the tests)
        self.done = 0

    def start(self) -> None:
        loop = asyncio.get_running_loop()
        works = [self.rate_once] + ([self.review_once] if self.review is not None else [])
        works += [self.notify_once] if self.notify is not None else []
        for work in works:
            wake = asyncio.Event()
            self._wakes.append(wake)
            self._tasks.append(loop.create_task(woken_loop(work, wake, self.poll, "outbox")))
        for work, wake, poll in self.also:
            self._tasks.append(loop.create_task(woken_loop(work, wake, poll, "outbox")))

    def wake(self) -> None:
        """A game ended here: look now."""
        for wake in self._wakes:
            wake.set()

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self._tasks = []
        self._wakes = []

    async def rate_once(self) -> int:
        """Rate the games waiting (up to :data:`BATCH`); how many were taken."""
        done = 0
        for _ in range(BATCH):
            taken = await self.async_store.call(self.store.take_rating, self.rate)
            if taken is None:
                break
            log.info("table %s: %s", *taken)
            done += 1
        self.done += done
        return done

    async def notify_once(self) -> int:
        """Make the notices of the games waiting (up to :data:`BATCH`); how many games."""
        assert self.notify is not None
        done = 0
        for _ in range(BATCH):
            taken = await self.async_store.call(self.store.take, "notify", self.notify)
            if taken is None:
                break
            done += 1
        self.done += done
        if done and self.notified is not None:
            self.notified()
        return done

    async def review_once(self) -> int:
        """Review the games waiting (up to :data:`BATCH`, one after another); how many."""
        assert self.review is not None
        done = 0
        for _ in range(BATCH):
            leased = await self.async_store.call(self.store.lease_review, time.time())
            if leased is None:
                break
            row_id, code, until = leased
            try:
                save = await self.review(code)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: the review failed", code)
                continue  # tried again once its lease is over
            await self.async_store.call(self.store.finish_review, row_id, until, save)
            done += 1
        self.done += done
        return done


async def woken_loop(work: Callable[[], Any], wake: asyncio.Event, poll: float, what: str) -> None:
    """Run ``work`` now, then each time ``wake`` is set or ``poll`` seconds have passed, for
    ever (until cancelled); a failure is logged and the loop goes on."""
    while True:
        try:
            await work()
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.error("%s: the look failed: %s", what, error)
        # a timer, not wait_for: a wake at the moment of a cancel (a game ending as the
        # server stops) would have wait_for swallow the cancel (Python 3.11), and the
        # stop wait for this loop for ever
        timer = asyncio.get_running_loop().call_later(poll, wake.set)
        try:
            await wake.wait()
        finally:
            timer.cancel()
        wake.clear()
