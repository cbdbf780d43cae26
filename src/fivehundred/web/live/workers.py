"""The computer players' decisions: :class:`Decider`, the one owner of their process pools."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from fivehundred.actions import Action
from fivehundred.bots import SOLVER_LEVELS
from fivehundred.bots.decide import decide
from fivehundred.bots.pimc import HAVE_SOLVER
from fivehundred.observation import Observation
from fivehundred.web.worker import bounded_decide, prepare_worker, solver_ready, watch_parent

log = logging.getLogger("fivehundred.web")


#: The players that search with the double-dummy solver (their processes prepare it).
SEARCH_PLAYERS = frozenset({"pimc", *SOLVER_LEVELS})


def searches(player: str) -> bool:
    """Whether ``player`` (``pimc``, ``pimc:fast``, ``hard``, ...) uses the solver."""
    return player.split(":", 1)[0] in SEARCH_PLAYERS


class Decider:
    """Computer decisions: ``random`` in the event loop (it is a few microseconds), the
    search players (:func:`searches`) in a process pool whose workers prepare the solver as
    they start (:meth:`start`, at server start, in the background), every other player in
    another process pool (both thread pools when ``workers`` is 0)."""

    def __init__(self, workers: int | None = None, ceiling: float = 0.0) -> None:
        self.workers = workers if workers is not None else max(2, min(4, (os.cpu_count() or 2) - 1))
        #: wall-clock ceiling of one decision (seconds; 0: none), :func:`bounded_decide`
        self.ceiling = ceiling
        #: told (player, seconds, whether the ceiling stopped it) after each decision
        self.observe: Any = None
        self._pool: Executor | None = None
        self._search: Executor | None = None
        #: the search pool's workers have the solver ready (or there is nothing to prepare)
        self.search_ready = self.workers == 0 or not HAVE_SOLVER
        self._warming: asyncio.Task[None] | None = None

    def _executor(self, search: bool = False) -> Executor:
        pool = self._search if search else self._pool
        if pool is None:
            if self.workers == 0:
                pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="fivehundred-bot")
            else:
                pool = ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=prepare_worker if search else watch_parent,
                    initargs=(os.getpid(),),
                )
            if search:
                self._search = pool
            else:
                self._pool = pool
        return pool

    def start(self) -> None:
        """Start the search players' worker processes now, each preparing the solver, so
        that a search player's first decision does not wait for it (in the background)."""
        if not self.search_ready and self._warming is None:
            self._warming = asyncio.get_running_loop().create_task(self._warm_up())

    async def _warm_up(self) -> None:
        log.info(
            "preparing the solver in %d worker process(es) for the search players "
            "(a second or less: the kernel is compiled at install)",
            self.workers,
        )
        started = time.monotonic()
        loop = asyncio.get_running_loop()
        pool = self._executor(search=True)
        try:  # one call per worker: each new worker prepares the solver before answering
            ready = await asyncio.gather(
                *(loop.run_in_executor(pool, solver_ready) for _ in range(self.workers))
            )
        except Exception as error:
            log.error("the solver could not be prepared in the workers: %s", error)
        else:
            log.info(
                "the search players are ready (%d of %d workers prepared, %.1f s)",
                sum(ready),
                len(ready),
                time.monotonic() - started,
            )
        self.search_ready = True

    async def decide(
        self,
        player: str,
        seed: int,
        observation: Observation,
        where: str = "",
        ceiling: float | None = None,
    ) -> tuple[Action, str]:
        """``player``'s decision in a worker process, stopped past ``ceiling`` seconds
        (else the server's :attr:`ceiling`) and made by the heuristic then."""
        if ceiling is None:
            ceiling = self.ceiling
        elif self.ceiling > 0:
            ceiling = min(ceiling, self.ceiling)
        if player == "random":
            return decide(player, seed, observation)
        search = searches(player)
        if search and not self.search_ready:
            log.info(
                "%s%s waits for the solver, still being prepared in its processes",
                f"table {where}: " if where else "",
                player,
            )
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        try:
            action, reason, stopped = await loop.run_in_executor(
                self._executor(search), bounded_decide, player, seed, observation, ceiling
            )
            if stopped:
                log.warning(
                    "%s%s reached the ceiling of %g s; the heuristic decided",
                    f"table {where}: " if where else "",
                    player,
                    ceiling,
                )
            if self.observe is not None:
                self.observe(player, time.monotonic() - started, stopped)
            return action, reason
        except BrokenProcessPool:
            log.error("the computer players' process pool broke; starting a new one")
            if search:
                self._search = None
            else:
                self._pool = None
        except Exception:
            log.exception("computer player %s failed; the random player moves instead", player)
        return decide("random", seed, observation)

    def close(self) -> None:
        if self._warming is not None:
            self._warming.cancel()
            self._warming = None
        for pool in (self._pool, self._search):
            if pool is None:
                continue
            # a worker may be deciding or preparing the solver for many seconds more: it
            # holds nothing that must be saved, so it is stopped rather than waited for
            workers = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in workers:
                process.terminate()
            for process in workers:
                process.join(5)
        self._pool = self._search = None
