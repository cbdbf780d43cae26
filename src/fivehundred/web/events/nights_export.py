"""A finished club night's boards as a board set (docs/duplicate.md#the-board-set-format):
the boards, their pars and every pair's result with its hand's record, as the daily's
export gives a day's (:func:`fivehundred.boards.export_set`, ``fivehundred-boards/1``
JSON, or :func:`fivehundred.boards.set_text`, the plain-text hand record), both read back
by :func:`fivehundred.boards.import_set` and :func:`fivehundred.boards.import_text`,
which replay every record.

Each game gives two results, one for each pair from its direction (North-South from
South's seat, East-West from West's), so the set's matchpoints and standings are the
night's. A game's hand was played under the night's game-level rules (a target of 10, the
first side to it winning): its record is given under the board's own rules, which score
the hand on its own (R-SCORE) as the night does, and it is replayed again, every move
checked, before it is written. An answer holds :data:`EXPORT_BOARDS` boards at most (a
Mitchell of many tables deals more): the rest on the next pages (``?page=``).
"""

from __future__ import annotations

from typing import Any

from fastapi import HTTPException

from fivehundred.boards import MAX_BOARDS, Board, BoardResult, export_set, set_text
from fivehundred.web.events import nights_words as w
from fivehundred.web.events.nights_store import NightStore, night_board

#: boards in one answer of a night's export (a page)
EXPORT_BOARDS = MAX_BOARDS


def as_board_result(board: Board, result: BoardResult) -> BoardResult:
    """The result with its hand's record under the board's own rules (replayed)."""
    record = {**result.record, "rules": board.rules.to_dict()}
    return BoardResult.from_record(board, result.entrant, record, result.seat)


def night_export(store: NightStore, night_id: int, page: int, text: bool) -> tuple[Any, bool]:
    """Page ``page`` (from 1) of a finished night's board set (409 before the end, 404
    past the last page), and whether a next page follows: the JSON, or the text."""
    with store.engine.connect() as db:
        night = store.night_row(db, night_id)
        if night.state != "finished":
            raise HTTPException(409, w.NOT_FINISHED)
        results, _, _ = store.results(db, night)
        pars = store.pars(db, night_id)
    numbers = sorted(results)
    chosen = numbers[(page - 1) * EXPORT_BOARDS : page * EXPORT_BOARDS]
    if not chosen:
        raise HTTPException(404, w.NO_SUCH_PAGE)
    boards = [night_board(night.preset, night.seed, n) for n in chosen]
    played = [as_board_result(b, r) for b in boards for r in results[b.number]]
    shown_pars = {n: pars[n] for n in chosen if n in pars}
    more = page * EXPORT_BOARDS < len(numbers)
    if text:
        return set_text(boards, played, shown_pars, night.name), more
    return export_set(boards, played, shown_pars, night.name), more
