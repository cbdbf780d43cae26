"""The server's background work of pars (the daily's boards and the club nights'): one
process of its own for every par of this server, made when first needed and stopped with
the server, and a claim in the database before each solve, so that servers of one
database work out each board once (a claim past its lease is taken over: a server killed
while it solved does not hold the board for good)."""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from fivehundred.web.schema import par_claims
from fivehundred.web.worker import background_process, board_par

if TYPE_CHECKING:
    from fivehundred.boards import Board, Par

log = logging.getLogger("fivehundred.web")

#: How long a claim holds a board (seconds): a par takes well under a minute.
CLAIM_SECONDS = 600.0
#: How often a server waiting on another's claim looks again (seconds).
POLL_SECONDS = 1.0


class ParPool:
    """The one process that works out this server's pars, at a lower priority
    (:func:`fivehundred.web.worker.background_process`); ``solves`` counts its work. Its
    process is started by a thread of its own that lives as long as the pool: a worker
    exits when the thread that started it ends (:func:`fivehundred.web.worker.watch_parent`),
    and the threads that ask for pars come and go."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.pool: Executor | None = None
        self.done = threading.Event()  # the pool's thread may end
        self.closed = False
        self.solves = 0

    def executor(self) -> Executor | None:
        """The pool, made the first time (None where no process can be had)."""
        with self.lock:
            if self.closed:
                raise RuntimeError("the server is stopping: no more pars")
            if self.pool is None:
                self.pool, self.done = self.started()
            self.solves += 1
            return self.pool

    @staticmethod
    def started() -> tuple[Executor | None, threading.Event]:
        """A new pool with its process started, and the event that ends its thread."""
        made: list[Executor | None] = []
        ready, done = threading.Event(), threading.Event()

        def own() -> None:
            try:
                pool: Executor | None = background_process()
                assert pool is not None
                pool.submit(int).result()  # its process starts now, from this thread
            except OSError:  # pragma: no cover - no process to be had
                pool = None
            made.append(pool)
            ready.set()
            if pool is not None:
                done.wait()

        threading.Thread(target=own, name="fivehundred-pars", daemon=True).start()
        ready.wait()
        return made[0], done

    def solve(self, board: Board) -> Par:
        """The par of ``board``, worked out in the pool (in this thread without one; a
        pool whose process died is made again for the next)."""
        pool = self.executor()
        if pool is None:  # pragma: no cover - no process to be had
            return board_par(board)
        try:
            return pool.submit(board_par, board).result()
        except BrokenProcessPool:
            with self.lock:
                if self.pool is pool:
                    self.pool = None
                    self.done.set()
            raise

    def start(self) -> None:
        """The server starts: pars may be worked out again."""
        with self.lock:
            self.closed = False

    def shutdown(self) -> None:
        """The server stops: a par in progress is dropped, the process stopped rather than
        waited for, and no more is made until :meth:`start`."""
        with self.lock:
            pool, self.pool, self.closed = self.pool, None, True
            done = self.done
        if pool is None:
            return
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(5)
        done.set()


#: This server's one pool of pars.
PARS = ParPool()


def install(app: Any) -> None:
    """:data:`PARS` with ``app``'s life: open while it serves, stopped (its process
    gone) once the rest of the server has stopped."""
    inner = app.router.lifespan_context

    @contextlib.asynccontextmanager
    async def lifespan(app_: Any) -> AsyncIterator[Any]:
        PARS.start()
        try:
            async with inner(app_) as state:
                yield state
        finally:
            PARS.shutdown()

    app.router.lifespan_context = lifespan


def solve(board: Board) -> Par:
    """The par of ``board``, worked out in this server's one pool (:data:`PARS`)."""
    return PARS.solve(board)


def claimant() -> str:
    """A fresh name for one worker of pars (a claim's holder)."""
    return secrets.token_hex(8)


def claim(engine: Engine, key: str, holder: str, lease: float = CLAIM_SECONDS) -> bool:
    """Whether ``holder`` now holds ``key``: a new claim, or one past its lease taken over
    (by one server only: the update is conditional on the lease it read)."""
    now = time.time()
    try:
        with engine.begin() as db:
            db.execute(par_claims.insert().values(key=key, holder=holder, until=now + lease))
        return True
    except sa.exc.IntegrityError:
        pass
    with engine.begin() as db:
        taken = db.execute(
            par_claims.update()
            .where(par_claims.c.key == key, par_claims.c.until < now)
            .values(holder=holder, until=now + lease)
        )
        return bool(taken.rowcount == 1)


def release(engine: Engine, key: str, holder: str) -> None:
    """``holder``'s claim of ``key`` goes (its par is written, or it failed)."""
    with engine.begin() as db:
        db.execute(
            par_claims.delete().where(par_claims.c.key == key, par_claims.c.holder == holder)
        )


class ParJob:
    """One par to work out once among the servers: ``read`` gives the stored par (None
    while there is none), ``write`` stores one."""

    def __init__(
        self,
        key: str,
        board: Board,
        read: Callable[[], Par | None],
        write: Callable[[Par], None],
    ) -> None:
        self.key, self.board, self.read, self.write = key, board, read, write


def solve_once(
    engine: Engine,
    job: ParJob,
    holder: str,
    par_of: Callable[[Board], Par] = solve,
    lease: float = CLAIM_SECONDS,
) -> Par | None:
    """The par of ``job``: the stored one, or worked out here under a claim and written;
    None while another server holds the claim."""
    par = job.read()
    if par is not None:
        return par
    if not claim(engine, job.key, holder, lease):
        return None
    try:
        par = job.read()  # written by the holder that released just before
        if par is None:
            par = par_of(job.board)
            job.write(par)
        return par
    finally:
        release(engine, job.key, holder)


def solve_all(
    engine: Engine,
    jobs: Iterable[ParJob],
    done: Callable[[ParJob, Par], None],
    stop: Callable[[], bool] = lambda: False,
    par_of: Callable[[Board], Par] = solve,
    lease: float = CLAIM_SECONDS,
    poll: float = POLL_SECONDS,
) -> None:
    """Every job's par, each worked out once among the servers: one another server holds
    is looked at again after the others, until it is written or its claim goes stale.
    ``done`` is told of each par; ``stop`` ends the work early."""
    holder = claimant()
    waiting = list(jobs)
    while waiting and not stop():
        later = []
        for job in waiting:
            if stop():
                return
            try:
                par = solve_once(engine, job, holder, par_of, lease)
            except Exception:  # a bug, the database gone or the server stopping: unknown
                if PARS.closed:
                    return
                log.exception("the par of %s", job.key)
                continue
            if par is None:
                later.append(job)
            else:
                done(job, par)
        waiting = later
        if waiting:
            time.sleep(poll)
