"""A full-screen program ends when its terminal goes (a closed window, a killed tmux
session, a dropped ssh connection), even when no hang-up signal reaches it: under
``make play`` make is the session leader, takes the hang-up and waits for its child, and
Textual's input thread would spin for ever on a terminal that reads nothing."""

from __future__ import annotations

import contextlib
import os
import select
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

#: How often (seconds) the terminal is looked at.
INTERVAL = 0.5
#: Seconds the app has to end by itself once its terminal has gone.
GRACE = 5.0


def terminal_fd() -> int | None:
    """The terminal the program reads keys from, or None (not a terminal: tests, pipes)."""
    stream = sys.__stdin__
    try:
        fd = stream.fileno() if stream is not None else -1
    except (OSError, ValueError):
        return None
    return fd if fd >= 0 and os.isatty(fd) else None


def terminal_gone(fd: int) -> bool:
    """Whether the terminal ``fd`` has hung up or fails (end of input, a read error): a
    hung-up or orphaned terminal polls as hung up / in error, a live one does not."""
    poller = select.poll()
    flags = select.POLLHUP | select.POLLERR | select.POLLNVAL
    poller.register(fd, flags)
    try:
        events = poller.poll(0)
    except OSError:
        return True
    return any(mask & flags for _, mask in events)


def watch_terminal(app: Any, before_exit: Callable[[], None] | None = None) -> None:
    """From ``app``'s mount: once its terminal has gone, ``before_exit`` (saving) and
    ``app.exit(0)``; if the app has not ended :data:`GRACE` seconds later (Textual can hang
    on a terminal lost while it starts or stops), the process ends (the game and the pad
    are saved after every move). Nothing when the app does not run on a terminal."""
    fd = terminal_fd()
    if fd is None:
        return

    def finish() -> None:
        if before_exit is not None:
            before_exit()
        app.exit(0)

    def watch() -> None:
        while not terminal_gone(fd):
            time.sleep(INTERVAL)
        # ask the app to end (from its own loop), without waiting on that loop here
        threading.Thread(target=_call, args=(app, finish), daemon=True).start()
        time.sleep(GRACE)
        os._exit(0)  # the app could not end by itself: no terminal to wait for

    threading.Thread(target=watch, name="terminal-watch", daemon=True).start()


def _call(app: Any, callback: Callable[[], None]) -> None:
    with contextlib.suppress(Exception):  # the app may be ending already
        app.call_from_thread(callback)
