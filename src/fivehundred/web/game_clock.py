"""A turn-based table's clock per game (``options.game_clock``, docs/web-protocol.md): each
seat has a bank of seconds for the whole game, spent while it is that seat's turn (the time
from the action before its move to its move); the turn's clock is the move's clock
(``move_clock``) or what is left of the bank, whichever runs out first, and a seat whose
bank is spent is the stand-in's for the rest of the game, as after ``move_timeouts``.

Nothing of it lives in memory only: what each seat spent is the actions' own times
(``actions.at``), read again when a server takes the table (:func:`spent_of`), and the
turn's clock is the ``turn`` deadline's row (web/deadlines.py)."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from fivehundred.web.schema import actions


def spent_of(
    engine: Engine, table_id: int, created: float, seats: int
) -> tuple[list[float], float, int]:
    """The seconds each seat spent on its moves so far (a move's time runs from the action
    before it, the first from the table's making), when the current turn began, and how
    many actions were read."""
    spent = [0.0] * seats
    began = created
    count = 0
    with engine.connect() as db:
        moves = db.execute(
            sa.select(actions.c.seat, actions.c.at)
            .where(actions.c.table_id == table_id)
            .order_by(actions.c.version)
        )
        for seat, at in moves:
            spent[seat] += max(0.0, at - began)
            began = at
            count += 1
    return spent, began, count
