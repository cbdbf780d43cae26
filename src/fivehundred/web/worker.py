"""What runs in the game server's worker processes (the computer players' pools, the
analysis): kept apart from the server's modules so that a new worker starts without
importing the web framework, and stops when the server is gone."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # a new worker imports nothing more before it watches its parent
    from fivehundred.actions import Action
    from fivehundred.boards import Board, Par
    from fivehundred.observation import Observation

#: How often a worker process looks whether the server is still there (seconds).
WATCH_PARENT_SECONDS = 0.5
#: prctl's option: the signal a process gets when the thread that started it ends (Linux).
PR_SET_PDEATHSIG = 1


def watch_parent(server: int | None = None) -> None:
    """In a worker process: leave Ctrl-C to the server, and exit as soon as the server is
    gone (killed, so that it could not stop its workers): on Linux the kernel kills it
    (``PR_SET_PDEATHSIG``), and everywhere a thread looks every half second whether the
    process's parent is still the one that started it. ``server``: the server's process id
    (a worker that starts after the server was killed finds another parent)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = server if server is not None else os.getppid()
    if sys.platform.startswith("linux"):
        # the kernel's own notice, even while a long solve holds the interpreter's lock
        with contextlib.suppress(Exception):
            import ctypes

            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # gone before the worker got here
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(WATCH_PARENT_SECONDS)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="fivehundred-watch-parent", daemon=True).start()


def worker_process() -> Executor:
    """A process pool of one worker (spawned, not forked: the server has threads) that
    exits with the server (:func:`watch_parent`)."""
    return ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=watch_parent,
        initargs=(os.getpid(),),
    )


def background_process() -> Executor:
    """A process pool of one worker for background work (the daily's pars), at a lower
    priority than the server's, so that play is not slowed while it works."""
    return ProcessPoolExecutor(
        max_workers=1,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=lower_priority,
        initargs=(os.getpid(),),
    )


def lower_priority(server: int) -> None:
    """A background worker's initializer: it watches its parent (:func:`watch_parent`)
    and gives way to the server's processes."""
    watch_parent(server)
    with contextlib.suppress(OSError):
        os.nice(10)


def board_par(board: Board) -> Par:
    """The double-dummy par of a board (:mod:`fivehundred.solver.par`)."""
    from fivehundred.solver.par import board_par as solve_par

    return solve_par(board).par


def prepare_worker(server: int | None = None) -> None:
    """The search players' pool initializer: each new worker process watches its parent
    (:func:`watch_parent`) and prepares the solver (imports it and runs it once) before its
    first decision. Never raises (that would break the pool): a failure leaves it to the
    first search."""
    watch_parent(server)
    try:
        from fivehundred import solver
    except ImportError:
        return  # no solver installed: no search players are offered
    try:
        solver.warm_up()
    except Exception as error:
        print(f"fivehundred serve: a worker could not prepare the solver: {error}", file=sys.stderr)


class DecisionCeiling(BaseException):
    """A decision ran past its wall-clock ceiling (a BaseException: no player's own
    ``except Exception`` keeps it)."""


def bounded_decide(
    player: str, seed: int, observation: Observation, ceiling: float
) -> tuple[Action, str, bool]:
    """:func:`~fivehundred.bots.decide.decide` with a wall-clock ceiling (in a worker
    process's main thread: an alarm signal stops the search between two solves): past
    ``ceiling`` seconds the heuristic decides instead. Returns (action, reason, whether the
    ceiling was reached). The players' own budgets (samples, positions searched) keep the
    games reproducible; the ceiling is the safety net of a slow or loaded machine."""
    from fivehundred.bots.decide import decide

    alarm = (
        ceiling > 0
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    deciding = [True]

    def expired(signum: int, frame: Any) -> None:
        if deciding[0]:
            raise DecisionCeiling

    previous: Any = None
    if alarm:
        previous = signal.signal(signal.SIGALRM, expired)
        signal.setitimer(signal.ITIMER_REAL, ceiling)
    try:
        try:
            action, reason = decide(player, seed, observation)
            deciding[0] = False
            return action, reason, False
        except DecisionCeiling:
            deciding[0] = False
        action, reason = decide("heuristic", seed, observation)
        return action, reason, True
    finally:
        deciding[0] = False
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


def solver_ready() -> bool:
    """In a worker: whether the solver is ready there."""
    try:
        from fivehundred import solver
    except ImportError:
        return False
    return solver.is_compiled()
