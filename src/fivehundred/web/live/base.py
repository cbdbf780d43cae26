"""The words and figures of tables in play: seat kinds, codes, limits, default options."""

from __future__ import annotations

import secrets
from typing import Any

OPEN = "open"
PERSON = "person"
COMPUTER = "computer"
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
CODE_LENGTH = 6
#: A connection's outgoing messages waiting to be sent; beyond this it is too slow.
SEND_QUEUE = 256
#: Finished tables kept in memory after the last connection leaves (the rest are read
#: from the database again when asked for).
FINISHED_KEPT = 64
#: Seconds an unfinished table that needs no memory (a turn-based table waiting on an
#: absent person's clock) stays in it after it was last asked for or left.
IDLE_KEPT = 120.0
#: Seconds a client's action passed to the table's server may wait in the inbox: past
#: that, unless taken, it is taken back and the client is told to try again.
FORWARD_WAIT = 10.0
#: Refusals kept whose news came before this server knew the id it passed on (a table).
EARLY_REFUSALS = 16
CHAT_BURST = 5
CHAT_WINDOW = 10.0
#: Hints one address may ask for a minute, and at once (a token bucket; one at a time per
#: seat besides, and its search takes the address's turn: :meth:`Hub.search_turn`).
HINTS_PER_MINUTE = 60.0
HINT_BURST = 20
#: A search hint's wall-clock bound (seconds): past it the heuristic names the hint, and
#: the worker is free again (a replaced connection's hint, running on in its process,
#: holds it no longer).
HINT_SECONDS = 0.5
DEFAULT_OPTIONS: dict[str, Any] = {
    "grace": 60.0,
    "turn_timer": None,
    "delay": 0.6,
    "stand_in": "heuristic",
}


class Refusal(Exception):
    """A client's message that is refused: the one-line reason goes back to that client."""


#: Why a seat's connection closes when the session that took it ended (log out everywhere,
#: a password change, a deletion: on any server).
SESSION_ENDED = "your session ended: log in again"


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
