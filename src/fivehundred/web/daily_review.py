"""The daily's review of a board against the field, and the export of a day that is over
(docs/duplicate.md).

- A board's **review** (``GET /api/daily/entries/{token}/boards/{n}/review``), only to an
  entry that has finished the board: the par on top, the entrant's line, the field's most
  common lines (each contract, contractor and tricks, with how many played it, its points,
  matchpoints and points against par), the hand's record (which replays) with each of its
  moves in words, and the double-dummy review of the hand (what ``fivehundred analyse``
  says). ``GET /api/daily/entries/{token}/review``: the lines of every board the entry has
  finished, board by board (the end-of-day review).
- A day's **export** (``GET /api/daily/days/{day}/export``), once the day can no longer be
  played (403 before: a board is never shown to someone who has not played it while it is
  open): the boards, their pars and the results, as ``fivehundred-boards/1`` JSON or as the
  plain-text hand record (``?format=text``), both read back by
  :func:`fivehundred.boards.import_set` and :func:`fivehundred.boards.import_text`. An
  answer holds :data:`EXPORT_PAGE` results at most (ordered by board); the rest come from
  the next pages (``?page=``; the JSON's ``next``, the text's ``Link`` header).
"""

from __future__ import annotations

import json
from collections import Counter
from datetime import date
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from fastapi import HTTPException

from fivehundred.boards import (
    DIRECTIONS,
    NS,
    BoardResult,
    Par,
    export_set,
    make_boards,
    set_text,
)
from fivehundred.daily import set_name
from fivehundred.game import HandState
from fivehundred.record import replay_hand
from fivehundred.web.daily_field import BoardField
from fivehundred.web.schema import daily_days, daily_results
from fivehundred.words import action_label, seat_name

if TYPE_CHECKING:
    from fivehundred.web.daily import DailyService, Day, Entry

#: The field's lines a board's review shows (the most common).
MAX_LINES = 6
#: Results in one answer of a day's export (a page).
EXPORT_PAGE = 1_000
#: The pages of a day's export (12 boards of 20,000 entries, with room).
MAX_PAGES = 1_000
#: Past days a server keeps built in its memory (to review and export them).
MAX_PAST = 8
#: Hands' double-dummy reviews a server keeps (by entry and board).
MAX_REVIEWS = 512


def past_day(daily: DailyService, when: date) -> Day:
    """A day that can no longer be played, built again from its stored seed (404 if it was
    never made), with the pars stored: read only."""
    from fivehundred.web.daily import Day

    with daily.lock:
        got = daily.past.get(when)
    if got is not None:
        return got
    where = (daily_days.c.day == when.isoformat(), daily_days.c.preset == daily.preset)
    with daily.engine.connect() as db:
        row = db.execute(sa.select(daily_days.c.seed, daily_days.c.boards).where(*where)).first()
    if row is None:
        raise HTTPException(404, "no boards that day")
    made = Day(when, make_boards(row.seed, int(row.boards), daily.preset), row.seed)
    made.pars.update(daily.pars_of(when))
    made.closed = True
    with daily.lock:
        daily.past[when] = made
        while len(daily.past) > MAX_PAST:
            daily.past.popitem(last=False)
    return made


# ------------------------------------------------------------------ the review
def _line_key(result: BoardResult) -> tuple[int, int, int, int]:
    return (result.direction, result.contract, result.contractor, result.tricks)


def field_lines(
    on_board: BoardField, mine: BoardResult, par: Par | None, rules: Any
) -> list[dict[str, Any]]:
    """The field's lines on a board (``mine`` among its results), the most common first
    (the entrant's own always among them): each contract, contractor and tricks with how
    many played it, its points, matchpoints (the same for every result of a line) and
    points against par."""
    counts: Counter[tuple[int, int, int, int]] = Counter()
    first: dict[tuple[int, int, int, int], BoardResult] = {}
    for one, count in zip(on_board.lines, on_board.counts, strict=True):
        counts[_line_key(one)] += count
        first.setdefault(_line_key(one), one)
    total = len(on_board.entrants)
    order = sorted(counts, key=lambda k: (-counts[k], -first[k].own_net, k))
    shown = order[:MAX_LINES]
    if _line_key(mine) not in shown:
        shown.append(_line_key(mine))
    out = []
    for key in shown:
        one = first[key]
        score = on_board.score(one)
        against = None
        if par is not None:
            against = one.own_net - (par.net if one.direction == NS else -par.net)
        out.append(
            {
                "contract": one.label(rules),
                "direction": DIRECTIONS[one.direction],
                "tricks": one.tricks,
                "points": list(one.points),
                "net": one.net,
                "count": counts[key],
                "share": round(100.0 * counts[key] / total, 1),
                "matchpoints": score.matchpoints,
                "top": score.top,
                "percent": round(score.percent, 1),
                "against_par": against,
                "mine": key == _line_key(mine),
            }
        )
    return out


def board_lines(daily: DailyService, entry: Entry, number: int) -> dict[str, Any]:
    """Board ``number``'s par and lines against the field (to an entry that finished it)."""
    mine = next((r for r in entry.finished if r.board == number), None)
    if mine is None:
        raise HTTPException(403, "a board's review is shown once you have played it")
    day = entry.day
    board = day.boards[number - 1]
    rules = board.rules
    made = daily.field(day.day)
    par = day.par(number)
    with made.lock:
        made.add(mine, entry.account)  # its own, even if not read yet
        on_board = made.board(number)
        lines = field_lines(on_board, mine, par, rules)
        results = len(on_board.entrants)
    own = next(line for line in lines if line["mine"])
    return {
        "board": number,
        "par": None
        if par is None
        else {**par.to_dict(), "net": par.net, "label": par.label(rules)},
        "par_pending": par is None and daily.with_pars and not day.closed,
        "mine": {**own, "count": None, "share": None},
        "lines": lines,
        "results": results,
    }


def board_review(daily: DailyService, entry: Entry, number: int) -> dict[str, Any]:
    """:func:`board_lines`, with the hand's record (it replays), its moves in words and its
    double-dummy review (worked out once: a server keeps the latest :data:`MAX_REVIEWS`)."""
    out = board_lines(daily, entry, number)
    mine = next(r for r in entry.finished if r.board == number)
    key = (entry.key, number)
    with daily.lock:
        played = daily.reviews.get(key)
    if played is None:
        played = _played(entry.day.boards[number - 1].start(), mine)
        with daily.lock:
            daily.reviews[key] = played
            while len(daily.reviews) > MAX_REVIEWS:
                daily.reviews.popitem(last=False)
    return {**out, "record": mine.record, **played}


def _played(replay: HandState, mine: BoardResult) -> dict[str, Any]:
    """The hand's moves in words, and its double-dummy review."""
    from fivehundred.analysis.analyse import analyse_hand, format_analysis

    state = replay_hand(mine.record)
    two = state.rules.joker_names
    seats = state.rules.seats
    moves = []
    for action in state.history:
        moves.append({"seat": seat_name(replay.to_move, seats), "move": action_label(action, two)})
        replay.apply(action)
    analysis = analyse_hand(state)
    return {"moves": moves, "analysis": {"text": format_analysis(analysis, state), **analysis}}


def day_review(daily: DailyService, entry: Entry) -> dict[str, Any]:
    """Every finished board's lines against the field, board by board."""
    numbers = sorted(r.board for r in entry.finished)
    return {
        "day": entry.day.day.isoformat(),
        "name": entry.name,
        "boards": [board_lines(daily, entry, n) for n in numbers],
    }


# ------------------------------------------------------------------ the export
def export_day(daily: DailyService, when: date, page: int, text: bool) -> tuple[Any, bool]:
    """Page ``page`` (from 1) of a day's export (403 while the day can be played), and
    whether there is a next page: the set's JSON, or its text with ``text``."""
    if not daily.over(when):
        raise HTTPException(403, "a day's boards are exported once the day is over")
    if not 1 <= page <= MAX_PAGES:
        raise HTTPException(404, "no such page")
    day = past_day(daily, when)
    c = daily_results.c
    with daily.engine.connect() as db:
        rows = db.execute(
            sa.select(c.board, c.name, c.seat, c.contract, c.contractor, c.tricks, c.ns, c.ew)
            .add_columns(c.record)
            .where(c.day == when.isoformat(), c.preset == daily.preset)
            .order_by(c.board, c.at, c.token_hash)
            .offset((page - 1) * EXPORT_PAGE)
            .limit(EXPORT_PAGE + 1)
        ).all()
    from fivehundred.web.daily import stored_result

    more = len(rows) > EXPORT_PAGE
    results = [stored_result(row, json.loads(row.record)) for row in rows[:EXPORT_PAGE]]
    name = set_name(when, daily.preset)
    if text:
        return set_text(day.boards, results, day.done_pars(), name), more
    return export_set(day.boards, results, day.done_pars(), name), more
