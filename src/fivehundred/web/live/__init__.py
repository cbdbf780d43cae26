"""Tables in play: seats, connections, the action log, and the computer players.

A :class:`LiveTable` holds a :class:`~fivehundred.table.Table` rebuilt from the action log
in the database. Every action, a person's or a computer's, goes through
:meth:`LiveTable.commit`: checked against the rules, written to the database, and only then
applied and sent to everyone (each connection gets its own seat's view). One driver task
per table makes the computer moves: for computer seats, for a person away longer than the
grace period, and for a person whose turn clock ran out (the grace's end and the clocks
are rows of the database, fired by one scheduler: :mod:`fivehundred.web.deadlines`). The
search players run in a process pool, never in the event loop.

The parts, each doing one thing:

- :mod:`~fivehundred.web.live.base`: seat kinds, codes, limits, default options;
- :mod:`~fivehundred.web.live.workers`: :class:`Decider`, the owner of the computer
  players' process pools;
- :mod:`~fivehundred.web.live.connections`: one WebSocket (:class:`Connection`), a seat's
  state, :func:`encode`;
- :mod:`~fivehundred.web.live.model`: the game rebuilt from its log, copied to act on;
- :mod:`~fivehundred.web.live.state`: a table's state, views and commit;
- :mod:`~fivehundred.web.live.following`: a table read again from what other servers wrote;
- :mod:`~fivehundred.web.live.automation`: the driver task and the stand-ins' timing;
- :mod:`~fivehundred.web.live.table`: :class:`LiveTable`, its clients' messages;
- :mod:`~fivehundred.web.live.registry`, :mod:`~fivehundred.web.live.news` and
  :mod:`~fivehundred.web.live.hub`: :class:`Hub`, every table of a server.
"""

from __future__ import annotations

from fivehundred.actions import action_text
from fivehundred.web.live.base import (
    CHAT_BURST,
    CHAT_WINDOW,
    CODE_ALPHABET,
    CODE_LENGTH,
    COMPUTER,
    DEFAULT_OPTIONS,
    FINISHED_KEPT,
    FORWARD_WAIT,
    HINT_BURST,
    HINT_SECONDS,
    HINTS_PER_MINUTE,
    OPEN,
    PERSON,
    SEND_QUEUE,
    SESSION_ENDED,
    Refusal,
    new_code,
)
from fivehundred.web.live.connections import Connection, SeatState, encode
from fivehundred.web.live.hub import Hub
from fivehundred.web.live.model import copy_table, model_copy, replay_log, same_rules
from fivehundred.web.live.table import LiveTable
from fivehundred.web.live.workers import SEARCH_PLAYERS, Decider, searches

__all__ = [
    "CHAT_BURST",
    "CHAT_WINDOW",
    "CODE_ALPHABET",
    "CODE_LENGTH",
    "COMPUTER",
    "DEFAULT_OPTIONS",
    "FINISHED_KEPT",
    "FORWARD_WAIT",
    "HINTS_PER_MINUTE",
    "HINT_BURST",
    "HINT_SECONDS",
    "OPEN",
    "PERSON",
    "SEARCH_PLAYERS",
    "SEND_QUEUE",
    "SESSION_ENDED",
    "Connection",
    "Decider",
    "Hub",
    "LiveTable",
    "Refusal",
    "SeatState",
    "action_text",
    "copy_table",
    "encode",
    "model_copy",
    "new_code",
    "replay_log",
    "same_rules",
    "searches",
]
