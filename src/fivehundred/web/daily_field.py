"""The field of a day of the daily boards: every result of the day as a server reads them
from the database, and the tables made of them (the day's, the week's, a player's
history) — the part of :class:`fivehundred.web.daily.DailyService` that reads results.

A result is never changed once written, so a server reads a day's results once and then
only the rows written since (those of the last :data:`SKEW` seconds again, each kept
once): a board finished on any server is in its traveller, its review and the day's table
within :data:`FIELD_SECONDS`, at the cost of the new rows alone, however large the day.
A server's first read of a day is the database's copy of its field (``daily_fields``,
written by the servers now and then: :data:`STORE_RESULTS`) and the rows written since.
Each board's field is kept as its lines (:class:`BoardField`): a field of thousands has a
few dozen. The day's standings are worked out again only when results came, and at most
once in ``table_seconds``. A server's own results are added at once.
"""

from __future__ import annotations

import bisect
import contextlib
import dataclasses
import functools
import itertools
import json
import logging
import threading
import time
import zlib
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Any

import sqlalchemy as sa
from fastapi import HTTPException
from sqlalchemy.engine import Engine

from fivehundred.actions import action_text, parse_call
from fivehundred.boards import (
    NS,
    BoardResult,
    BoardScores,
    Par,
    Score,
    Standing,
    ranked,
)
from fivehundred.daily import parse_day
from fivehundred.web.accounts import name_key
from fivehundred.web.schema import accounts, daily_days, daily_fields, daily_results

#: Seconds a server uses its copy of a day's results before reading the rows written
#: since (a board finished on another server is in its travellers and tables within this).
FIELD_SECONDS = 0.5
#: Seconds a day's standings are kept before they are worked out again (when results came).
TABLE_SECONDS = 0.5
#: The rows written up to this many seconds before the newest one read are read again
#: (a row's time is taken just before its transaction commits; servers' clocks differ a
#: little).
SKEW = 5.0
#: A server writes its copy of a day's field to the database (for another's first read of
#: the day) when it holds this many results more than the copy there, at most once in
#: :data:`STORE_SECONDS`.
STORE_RESULTS = 2_000
STORE_SECONDS = 60.0
#: Days' results a server keeps in its memory.
MAX_FIELDS = 16
#: Rows of a table answered (the best).
MAX_TABLE_ROWS = 100
#: The past days a player's history shows (and its streak counts) at most.
MAX_HISTORY = 60
#: How far back a day's or a week's table may be asked for.
MAX_PAST_DAYS = 400

log = logging.getLogger("fivehundred.web.daily")

Key = tuple[str, int]  # an entrant (an entry's name, unique in its day) and a board
#: A stored contract's call (a day's results have a few dozen).
stored_call = functools.lru_cache(maxsize=512)(parse_call)
#: A result on a board but for its entrant: the seat, the contract (record notation; None:
#: passed in), the contractor, the tricks and each side's points (as ``daily_results`` has
#: them). A field of thousands on a board has a few dozen.
Line = tuple[int, str | None, int, int, int, int]


def line_of(result: BoardResult) -> Line:
    contract = action_text(result.contract) if result.contract >= 0 else None
    return (result.seat, contract, result.contractor, result.tricks, *result.points)


@dataclass
class BoardField:
    """One board's results as the field keeps them: each result's entrant and line (one
    result of each line kept, with how many played it), so that a result's matchpoints
    are two searches in its direction's sorted nets, and a traveller's rows near an
    entrant a search in the results in the traveller's order."""

    number: int
    #: One result of each line (the first to come, its entrant's), and its count.
    lines: list[BoardResult] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    index: dict[Line, int] = field(default_factory=dict)
    #: Every result's entrant and line, in the order they came.
    entrants: list[str] = field(default_factory=list)
    line_index: list[int] = field(default_factory=list)
    #: Each direction's nets (its own), sorted; the results in the traveller's order
    #: (best North-South net first, then by entrant): made when first asked, then kept.
    _nets: tuple[list[int], list[int]] | None = None
    _order: list[tuple[int, str, int]] | None = None

    def add(self, entrant: str, line: Line, make: Callable[[], BoardResult]) -> None:
        k = self.index.get(line)
        if k is None:
            k = self.index[line] = len(self.lines)
            self.lines.append(make())
            self.counts.append(0)
        self.counts[k] += 1
        self.entrants.append(entrant)
        self.line_index.append(k)
        one = self.lines[k]
        if self._nets is not None:
            bisect.insort(self._nets[one.direction], one.own_net)
        if self._order is not None:
            bisect.insort(self._order, (-one.net, entrant, k))

    def nets(self) -> tuple[list[int], list[int]]:
        if self._nets is None:
            nets: tuple[list[int], list[int]] = ([], [])
            for one, count in zip(self.lines, self.counts, strict=True):
                nets[one.direction].extend([one.own_net] * count)
            self._nets = (sorted(nets[0]), sorted(nets[1]))
        return self._nets

    def score(self, one: BoardResult) -> Score:
        """The matchpoints of a result ``one`` of this board's lines (as
        :func:`fivehundred.boards.matchpoints` scores it among the board's results)."""
        nets = self.nets()[one.direction]
        mine = one.own_net
        beaten = bisect.bisect_left(nets, mine)
        ties = bisect.bisect_right(nets, mine) - beaten - 1
        return Score(2 * beaten + ties, 2 * (len(nets) - 1))

    def scores(self, par: Par | None) -> BoardScores:
        """Each result's entrant, percentage and points against ``par``, in the order the
        results came (as :func:`fivehundred.boards.board_scores` gives them)."""
        percents = [self.score(one).percent for one in self.lines]
        against: list[int | None] = [None] * len(self.lines)
        if par is not None:
            against = [
                one.own_net - (par.net if one.direction == NS else -par.net) for one in self.lines
            ]
        return [
            (e, percents[k], against[k])
            for e, k in zip(self.entrants, self.line_index, strict=True)
        ]

    def window(self, mine: BoardResult, size: int) -> tuple[int, list[BoardResult]]:
        """The results of the board's traveller (best North-South net first, then by
        entrant) nearest ``mine`` (one of them), ``size`` at most: the place (from 0) of
        the first, and them."""
        if self._order is None:
            nets = [-one.net for one in self.lines]
            order = [(nets[k], e, k) for e, k in zip(self.entrants, self.line_index, strict=True)]
            order.sort()
            self._order = order
        order = self._order
        at = bisect.bisect_left(order, (-mine.net, mine.entrant, self.index[line_of(mine)]))
        first = max(0, min(at - size // 2, len(order) - size))
        return first, [
            dataclasses.replace(self.lines[k], entrant=e) for _, e, k in order[first : first + size]
        ]


@dataclass
class DayResults:
    """A day's results as a server has read them (and its own, added as they are made)."""

    day: date
    #: Read once the day could no longer be played: the same for good.
    final: bool
    #: When (monotonic) the rows were last read, and the newest row's time read.
    at: float = float("-inf")
    newest: float = float("-inf")
    #: The results in the database's copy of the field (``daily_fields``) as this server
    #: last read or wrote it, and when (monotonic).
    stored: int = 0
    stored_at: float = float("-inf")
    keys: set[Key] = field(default_factory=set)
    by_board: dict[int, BoardField] = field(default_factory=dict)
    #: Each ranked entry's name and account.
    accounts: dict[str, int] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    standings_lock: threading.Lock = field(default_factory=threading.Lock, repr=False)
    _standings: tuple[tuple[int, int], float, list[Standing]] | None = None
    #: Each board's scores, and the count of its results and its par they are of.
    _scores: dict[int, tuple[tuple[int, Par | None], BoardScores]] = field(default_factory=dict)

    def on_board(self, number: int) -> list[BoardResult]:
        """Board ``number``'s results, in the order they came."""
        with self.lock:
            made = self.by_board.get(number)
            if made is None:
                return []
            return [
                dataclasses.replace(made.lines[k], entrant=e)
                for e, k in zip(made.entrants, made.line_index, strict=True)
            ]

    def board(self, number: int) -> BoardField:
        """Board ``number``'s field (made empty if none came): read under :attr:`lock`."""
        made = self.by_board.get(number)
        if made is None:
            made = self.by_board[number] = BoardField(number)
        return made

    def add(self, result: BoardResult, account: int | None) -> None:
        """Keep a result (once: one already kept is left)."""
        key = (result.entrant, result.board)
        if key in self.keys:
            return
        self.keys.add(key)
        self.board(result.board).add(
            result.entrant, line_of(result), lambda: dataclasses.replace(result, record={})
        )
        if account is not None:
            self.accounts[result.entrant] = account

    def add_row(self, number: int, name: str, account: int | None, line: Line) -> None:
        """Keep a result read from ``daily_results`` (once)."""
        key = (name, number)
        if key in self.keys:
            return
        self.keys.add(key)
        seat, contract, contractor, tricks, ns, ew = line

        def make() -> BoardResult:
            call = -1 if contract is None else stored_call(contract)
            return BoardResult(number, name, seat, call, contractor, tricks, (ns, ew), {})

        self.board(number).add(name, line, make)
        if account is not None:
            self.accounts[name] = account

    def standings(self, pars: dict[int, Par], seconds: float = 0.0) -> list[Standing]:
        """Every entrant's standing (as :func:`fivehundred.boards.standings` gives them):
        worked out again when results or pars came, at most once in ``seconds``, each
        board's scores again only when its results or its par did."""
        with self.standings_lock:
            version = (len(self.keys), len(pars))
            now = time.monotonic()
            kept = self._standings
            if kept is None or (kept[0] != version and now - kept[1] >= seconds):
                scores = []
                with self.lock:
                    for number, made in sorted(self.by_board.items()):
                        key = (len(made.entrants), pars.get(number))
                        known = self._scores.get(number)
                        if known is None or known[0] != key:
                            known = self._scores[number] = (key, made.scores(key[1]))
                        scores.append(known[1])
                kept = (version, now, ranked(scores, bool(pars)))
                self._standings = kept
            return kept[2]


def encode(made: DayResults) -> dict[str, Any]:
    """A day's field as JSON (read under its lock): the entrants' names, each ranked one's
    account, and each board's lines and its results' entrants and lines."""
    names: dict[str, int] = {}
    boards = {}
    for number, on_board in made.by_board.items():
        boards[str(number)] = {
            "lines": list(on_board.index),
            "entrants": [names.setdefault(e, len(names)) for e in on_board.entrants],
            "line_index": on_board.line_index,
        }
    return {"names": list(names), "accounts": made.accounts, "boards": boards}


def decode(made: DayResults, data: dict[str, Any]) -> None:
    """A day's field read from its JSON (:func:`encode`) into ``made``, yet empty."""
    names = data["names"]
    made.accounts.update(data["accounts"])
    for text, stored in data["boards"].items():
        number = int(text)
        on_board = made.board(number)
        entrants = [names[k] for k in stored["entrants"]]
        line_index = stored["line_index"]
        first = dict(zip(reversed(line_index), reversed(entrants), strict=True))
        on_board.counts = [0] * len(stored["lines"])
        for k, line in enumerate(stored["lines"]):
            seat, contract, contractor, tricks, ns, ew = line
            call = -1 if contract is None else stored_call(contract)
            result = BoardResult(number, first[k], seat, call, contractor, tricks, (ns, ew), {})
            on_board.index[(seat, contract, contractor, tricks, ns, ew)] = k
            on_board.lines.append(result)
        for k in line_index:
            on_board.counts[k] += 1
        on_board.entrants = entrants
        on_board.line_index = line_index
        made.keys.update(zip(entrants, itertools.repeat(number)))


class DailyField:
    """The results of the days and their tables (a part of the daily's service)."""

    engine: Engine
    preset: str
    clock: Callable[[], date]
    lock: threading.Lock
    table_seconds: float
    fields: OrderedDict[date, DayResults]
    #: Each week's table (by its Monday): the results and pars it is of, when it was
    #: worked out (monotonic), and the table.
    weeks: dict[date, tuple[tuple[tuple[int, int], ...], float, dict[str, Any]]]

    def over(self, when: date) -> bool:
        raise NotImplementedError

    def pars_of(self, when: date) -> dict[int, Par]:
        raise NotImplementedError

    def field(self, when: date) -> DayResults:
        """Every result of ``when``: the rows written since the last read are read after
        :data:`FIELD_SECONDS`; a day that can no longer be played is read once."""
        with self.lock:
            made = self.fields.get(when)
            if made is None:
                made = self.fields[when] = DayResults(when, self.over(when))
            self.fields.move_to_end(when)
            while len(self.fields) > MAX_FIELDS:
                self.fields.popitem(last=False)
        with made.lock:
            if made.final and made.at > float("-inf"):
                return made
            if time.monotonic() - made.at < FIELD_SECONDS:
                return made
            if made.at == float("-inf"):
                self.read_stored(made)
            c = daily_results.c
            with self.engine.connect() as db:
                rows = db.execute(
                    sa.select(c.board, c.name, c.account_id, c.at, c.seat, c.contract)
                    .add_columns(c.contractor, c.tricks, c.ns, c.ew)
                    .where(
                        c.day == when.isoformat(),
                        c.preset == self.preset,
                        c.at > made.newest - SKEW,
                    )
                ).all()
            newest = made.newest
            for board, name, account, at, *line in rows:
                made.add_row(board, name, account, tuple(line))
                if at > newest:
                    newest = at
            made.newest = newest
            made.at = time.monotonic()
            due = len(made.keys) - made.stored >= STORE_RESULTS
            if due and made.at - made.stored_at >= STORE_SECONDS:
                made.stored, made.stored_at = len(made.keys), made.at
                stored = (
                    made.stored,
                    made.newest,
                    zlib.compress(json.dumps(encode(made)).encode()),
                )
            else:
                stored = None
        if stored is not None:
            self.write_stored(when, *stored)
        return made

    def read_stored(self, made: DayResults) -> None:
        """The database's copy of the day's field (if any) into ``made``, yet empty."""
        f = daily_fields.c
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(f.results, f.upto, f.data).where(
                    f.day == made.day.isoformat(), f.preset == self.preset
                )
            ).first()
        if row is not None:
            decode(made, json.loads(zlib.decompress(row.data)))
            made.newest = row.upto
            made.stored, made.stored_at = row.results, time.monotonic()

    def write_stored(self, when: date, results: int, upto: float, data: bytes) -> None:
        """Write a copy of the day's field of ``results`` results, unless the database has
        one as large (another server's)."""
        f = daily_fields.c
        values = {"results": results, "upto": upto, "data": data, "written": time.time()}
        where = (f.day == when.isoformat(), f.preset == self.preset)
        try:
            with self.engine.begin() as db:
                done = db.execute(
                    daily_fields.update().where(*where, f.results < results).values(**values)
                ).rowcount
            if not done:
                with contextlib.suppress(sa.exc.IntegrityError), self.engine.begin() as db:
                    row = {"day": when.isoformat(), "preset": self.preset, **values}
                    db.execute(daily_fields.insert().values(**row))
        except sa.exc.OperationalError as error:  # a busy database: the next time
            log.warning("the day's field was not written: %s", error)

    def keep_result(self, when: date, result: BoardResult, account: int | None) -> None:
        """A result this server has just written, in its copy of the day at once."""
        with self.lock:
            made = self.fields.get(when)
        if made is not None:
            with made.lock:
                made.add(result, account)

    # ------------------------------------------------------------------ tables
    def asked_day(self, text: str | None) -> date:
        """A day asked for (default today): not after today, nor before
        :data:`MAX_PAST_DAYS`."""
        now = self.clock()
        if text is None:
            return now
        try:
            when = parse_day(text)
        except ValueError as error:
            raise HTTPException(422, "a day is written YYYY-MM-DD") from error
        if not now - timedelta(days=MAX_PAST_DAYS) <= when <= now:
            raise HTTPException(404, "no table of that day")
        return when

    def day_table(self, when: date) -> dict[str, Any]:
        """A day's table: every entry's percentage over the boards it has finished, best
        first (names and figures only: no card, no contract)."""
        made = self.field(when)
        rows = made.standings(self.pars_of(when), self.table_seconds)
        return {
            "day": when.isoformat(),
            "rows": [
                {
                    "place": row.place,
                    "name": row.entrant,
                    "ranked": row.entrant in made.accounts,
                    "boards": row.boards,
                    "percent": round(row.percent, 1),
                    "against_par": row.against_par,
                }
                for row in rows[:MAX_TABLE_ROWS]
            ],
            "entrants": len(rows),
            "results": sum(row.boards for row in rows),
        }

    def week_table(self, when: date) -> dict[str, Any]:
        """The table of the week (Monday to Sunday) of ``when``: each account's mean
        percentage over every board it finished that week, each board scored against the
        field of its day (guests count in the field but are not ranked). Worked out again
        when results or pars came, at most once in ``table_seconds``."""
        monday = when - timedelta(days=when.weekday())
        now = self.clock()
        week = []
        for offset in range(7):
            day = monday + timedelta(days=offset)
            if day > now:
                break
            week.append((day, self.field(day), self.pars_of(day)))
        version = tuple((len(made.keys), len(pars)) for _, made, pars in week)
        with self.lock:
            kept = self.weeks.get(monday)
        at = time.monotonic()
        if kept is not None and (kept[0] == version or at - kept[1] < self.table_seconds):
            return kept[2]
        out = self.work_out_week(monday, week)
        with self.lock:
            self.weeks[monday] = (version, at, out)
            while len(self.weeks) > MAX_FIELDS:
                self.weeks.pop(min(self.weeks))
        return out

    def work_out_week(
        self, monday: date, week: list[tuple[date, DayResults, dict[int, Par]]]
    ) -> dict[str, Any]:
        percents: dict[int, list[float]] = {}
        against: dict[int, int] = {}
        days: dict[int, set[date]] = {}
        names: dict[int, str] = {}
        for day, made, pars in week:
            with made.lock:
                scores = [made.by_board[n].scores(pars.get(n)) for n in sorted(made.by_board)]
            for entrant, percent, points in (row for board in scores for row in board):
                account = made.accounts.get(entrant)
                if account is None:
                    continue
                names[account] = entrant
                percents.setdefault(account, []).append(percent)
                days.setdefault(account, set()).add(day)
                if points is not None:
                    against[account] = against.get(account, 0) + points
        ordered = sorted(
            ((sum(p) / len(p), names[a], a) for a, p in percents.items()),
            key=lambda row: (-row[0], row[1]),
        )
        rows: list[dict[str, Any]] = []
        for index, (percent, name, account) in enumerate(ordered[:MAX_TABLE_ROWS]):
            tie = rows and abs(rows[-1]["exact"] - percent) < 1e-9
            rows.append(
                {
                    "place": rows[-1]["place"] if tie else index + 1,
                    "name": name,
                    "days": len(days[account]),
                    "boards": len(percents[account]),
                    "percent": round(percent, 1),
                    "against_par": against.get(account),
                    "exact": percent,
                }
            )
        for row in rows:
            del row["exact"]
        return {
            "week": monday.isoformat(),
            "last_day": (monday + timedelta(days=6)).isoformat(),
            "rows": rows,
            "entrants": len(ordered),
        }

    def history(self, name: str) -> dict[str, Any]:
        """An account's past days (the newest first, :data:`MAX_HISTORY` at most): each
        day's boards finished, percentage, place and points against par; and its streak,
        the days in a row up to today (or yesterday, today not yet done) on which it
        finished every board of the day."""
        key = name_key(name)
        r = daily_results.c
        with self.engine.connect() as db:
            account = db.execute(
                sa.select(accounts.c.id, accounts.c.name).where(accounts.c.name_key == key)
            ).first()
            if account is None:
                raise HTTPException(404, "no such player")
            counts = db.execute(
                sa.select(r.day, sa.func.count())
                .where(r.account_id == account.id, r.preset == self.preset)
                .group_by(r.day)
                .order_by(r.day.desc())
                .limit(MAX_HISTORY)
            ).all()
            sizes = dict(
                db.execute(
                    sa.select(daily_days.c.day, daily_days.c.boards).where(
                        daily_days.c.preset == self.preset,
                        daily_days.c.day.in_([row[0] for row in counts]),
                    )
                ).all()
            )
        days = []
        for iso, boards in counts:
            when = date.fromisoformat(iso)
            made = self.field(when)
            rows = made.standings(self.pars_of(when), self.table_seconds)
            me = next((row for row in rows if made.accounts.get(row.entrant) == account.id), None)
            days.append(
                {
                    "day": iso,
                    "boards": boards,
                    "of": sizes.get(iso, boards),
                    "percent": None if me is None else round(me.percent, 1),
                    "place": None if me is None else me.place,
                    "entrants": len(rows),
                    "against_par": None if me is None else me.against_par,
                }
            )
        done = {d["day"] for d in days if d["boards"] >= d["of"]}
        day = self.clock()
        if day.isoformat() not in done:
            day -= timedelta(days=1)
        streak = 0
        while day.isoformat() in done:
            streak += 1
            day -= timedelta(days=1)
        return {"name": account.name, "streak": streak, "days": days}
