"""The daily boards in the browser (docs/duplicate.md): the same boards for everyone each
day, played from South with a computer partner against two computer opponents, all at
the operator's level.

- ``GET /daily``: the page.
- ``GET /api/daily``: today's day, preset, level and the boards' numbers and dealers (no
  card of any board).
- ``POST /api/daily/entries`` with ``{"name": "..."}``: a new entry for today (a guest,
  unranked); answers its ``token`` (the browser keeps it to resume) and the view.
- ``GET /api/daily/entries/{token}``: the entry's view: South's view of the board in
  play (built from South's observation: nothing hidden is in it), the boards finished,
  and after a board its result, the par and the traveller.
- ``POST /api/daily/entries/{token}/act`` with ``{"action": "7H"}``: South's move (the
  engine refuses an illegal one with its reason); the computers then play until South is
  to move again or the board is over.
- ``POST /api/daily/entries/{token}/next``: the next board, dealt only once the last is
  finished.
- ``GET /api/daily/entries/{token}/boards/{n}/traveller``: board ``n``'s traveller, only
  to an entry that has finished it (403 otherwise).

- ``GET /api/daily/table?day=YYYY-MM-DD``: a day's table (today by default);
  ``GET /api/daily/week?day=``: the week's table of the accounts;
  ``GET /api/daily/players/{name}/history``: an account's past days and its streak. Names
  and figures only: no card and no contract.

The day's boards come from the date and a secret (``FIVEHUNDRED_DAILY_SECRET``; without
it a random one for the process, so that nobody can deal a day ahead): the first server
to make a day writes its seed in the database, and every server of the database deals
from it. Their pars are worked out in a background thread as soon as the day's boards are
made, and written there for the others. Entries (the board in play and its moves) and
results are in the database (:data:`MAX_ENTRIES` a day): any server of one database
serves any entry, and a restart loses nothing; each server keeps copies in its memory and
builds one again when the database has a newer version.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import logging
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from fastapi import HTTPException
from sqlalchemy.engine import Engine

from fivehundred.actions import action_text
from fivehundred.boards import (
    NS,
    Board,
    BoardResult,
    Par,
    Traveller,
    TravellerRow,
    make_boards,
)
from fivehundred.bots import PLAYERS, Player, make_player
from fivehundred.daily import (
    DAILY_BOARDS,
    DEFAULT_PRESET,
    ENTRANT_SEAT,
    daily_seed,
    today,
)
from fivehundred.errors import FiveHundredError
from fivehundred.game import HandState
from fivehundred.messages import error_text
from fivehundred.web.daily_field import TABLE_SECONDS, DailyField, DayResults, stored_call
from fivehundred.web.schema import daily_days, daily_entries, daily_pars, daily_results
from fivehundred.words import (
    DEFAULT_LEVEL,
    action_label,
    hand_order,
    parse,
    seat_name,
)

log = logging.getLogger("fivehundred.web.daily")
STATIC_DIR = Path(__file__).with_name("static")
#: Entries a day (then new ones are refused with 503).
MAX_ENTRIES = 20_000
#: Days an entry may be played on (today and yesterday: an entry started before midnight
#: finishes); an entry of an older day is read (its review), no longer played (410).
MAX_DAYS = 2
MAX_NAME = 40
MAX_ACTION = 40
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
#: A computer's moves in one request at most (a whole hand is about 45).
MAX_COMPUTER_MOVES = 200
#: Entries a server keeps built in its memory (a cache: the database is the truth).
MAX_CACHED = 2_000
#: Rows of a board's traveller answered (those nearest the entrant's own; the count says
#: how many there are).
MAX_TRAVELLER_ROWS = 100
#: Names tried for a new entry before giving up (another server took each meanwhile).
MAX_NAME_TRIES = 20

#: The operator's settings of the daily (environment variables of ``fivehundred serve``).
DAILY_VARIABLES = (
    "FIVEHUNDRED_DAILY_SECRET",
    "FIVEHUNDRED_DAILY_LEVEL",
    "FIVEHUNDRED_DAILY_PRESETS",
)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class Day:
    """One day's boards and their pars (worked out in the background)."""

    day: date
    boards: list[Board]
    seed: str = field(repr=False, default="")
    pars: dict[int, Par] = field(default_factory=dict)
    dropped: bool = False
    #: Can no longer be played (read to review it and export it).
    closed: bool = False

    def par(self, number: int) -> Par | None:
        return self.pars.get(number)

    def done_pars(self) -> dict[int, Par]:
        return dict(self.pars)


@dataclass
class Entry:
    key: str  # the SHA-256 of its token
    name: str
    day: Day
    #: The account playing (None: a guest, unranked).
    account: int | None
    #: The database row's version this copy is of.
    version: int
    index: int = 0
    state: HandState | None = None
    players: list[Player | None] = field(default_factory=list)
    finished: list[BoardResult] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def _contract_text(contract: int) -> str | None:
    return action_text(contract) if contract >= 0 else None


def stored_result(row: Any, record: dict[str, Any] | None = None) -> BoardResult:
    return BoardResult(
        row.board,
        row.name,
        row.seat,
        -1 if row.contract is None else stored_call(row.contract),
        row.contractor,
        row.tricks,
        (row.ns, row.ew),
        record if record is not None else {},
    )


def result_row(entry: Entry, preset: str, result: BoardResult) -> dict[str, Any]:
    """The row of ``daily_results`` that keeps an entry's result on a board."""
    return {
        "token_hash": entry.key,
        "board": result.board,
        "day": entry.day.day.isoformat(),
        "preset": preset,
        "name": entry.name,
        "account_id": entry.account,
        "seat": result.seat,
        "contract": _contract_text(result.contract),
        "contractor": result.contractor,
        "tricks": result.tricks,
        "ns": result.points[0],
        "ew": result.points[1],
        "record": json.dumps(result.record),
        "at": time.time(),
    }


class DailyService(DailyField):
    """The days, their entries (in the database ``engine``: every server of one database
    sees the same entries and results; each keeps copies in its memory) and the background
    work of the pars."""

    def __init__(
        self,
        secret: str | None = None,
        level: str = DEFAULT_LEVEL,
        preset: str = DEFAULT_PRESET,
        boards: int = DAILY_BOARDS,
        clock: Callable[[], date] = today,
        pars: bool = True,
        *,
        engine: Engine,
        table_seconds: float = TABLE_SECONDS,
    ) -> None:
        if level not in PLAYERS:
            raise ValueError(f"no computer player {level!r}")
        self.secret = secret if secret is not None else secrets.token_hex(32)
        self.level = level
        self.preset = preset
        self.count = boards
        self.clock = clock
        self.with_pars = pars
        self.engine = engine
        self.days: dict[date, Day] = {}
        self.cache: OrderedDict[str, Entry] = OrderedDict()
        self.past: OrderedDict[date, Day] = OrderedDict()
        self.reviews: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self.fields: OrderedDict[date, DayResults] = OrderedDict()
        self.weeks: dict[date, Any] = {}
        self.table_seconds = table_seconds
        self.lock = threading.Lock()

    # ------------------------------------------------------------------ days
    def _seed(self, when: date) -> tuple[str, int]:
        """The day's seed and number of boards: the first server's, kept in the database."""
        where = (daily_days.c.day == when.isoformat(), daily_days.c.preset == self.preset)
        query = sa.select(daily_days.c.seed, daily_days.c.boards).where(*where)
        with self.engine.connect() as db:
            row = db.execute(query).first()
        if row is None:
            values = {
                "day": when.isoformat(),
                "preset": self.preset,
                "seed": daily_seed(when, self.preset, self.secret),
                "boards": self.count,
                "created": time.time(),
            }
            with contextlib.suppress(sa.exc.IntegrityError), self.engine.begin() as db:
                db.execute(daily_days.insert().values(**values))
            with self.engine.connect() as db:
                row = db.execute(query).first()
        assert row is not None
        return str(row.seed), int(row.boards)

    def day(self, when: date) -> Day:
        """The boards of ``when``, today or one of the :data:`MAX_DAYS` before (410 for an
        older day): made once, their pars worked out in a background thread."""
        now = self.clock()
        if not now - timedelta(days=MAX_DAYS - 1) <= when <= now:
            raise HTTPException(410, "that day is over")
        with self.lock:
            got = self.days.get(when)
        if got is not None:
            return got
        seed, count = self._seed(when)
        boards = make_boards(seed, count, self.preset)
        with self.lock:
            if when in self.days:
                return self.days[when]
            made = Day(when, boards, seed)
            self.days[when] = made
            if self.with_pars:
                threading.Thread(
                    target=self.work_out_pars, args=(made,), name="daily-pars", daemon=True
                ).start()
            for old in sorted(self.days)[:-MAX_DAYS]:
                self.days.pop(old).dropped = True
            return made

    def today(self) -> Day:
        return self.day(self.clock())

    def over(self, when: date) -> bool:
        """Whether ``when`` can no longer be played (its boards are then no secret)."""
        return when < self.clock() - timedelta(days=MAX_DAYS - 1)

    def readable_day(self, when: date) -> Day:
        """The day ``when`` to read: one still played (:meth:`day`), or one over, built
        again from its stored seed (:func:`fivehundred.web.daily_review.past_day`)."""
        from fivehundred.web.daily_review import past_day

        return past_day(self, when) if self.over(when) else self.day(when)

    def work_out_pars(self, day: Day, par_of: Callable[[Board], Par] | None = None) -> None:
        """The pars of every board, each worked out once among the servers: one another
        server wrote is read, one not yet known is claimed, worked out and written for the
        others (a daemon thread runs this; the solving is done in the server's one process
        of pars at a lower priority, :mod:`fivehundred.web.par_work`, so that play is not
        slowed)."""
        from fivehundred.web import par_work

        # from a board drawn at random, round the day: servers started together mostly
        # claim different boards, and each reads the others'
        start = secrets.randbelow(len(day.boards))
        jobs = [self.par_job(day, b) for b in day.boards[start:] + day.boards[:start]]
        par_work.solve_all(
            self.engine,
            jobs,
            lambda job, par: day.pars.__setitem__(job.board.number, par),
            lambda: day.dropped,
            par_of or par_work.solve,
        )

    def par_job(self, day: Day, board: Board) -> Any:
        """The work of a board's par (:class:`fivehundred.web.par_work.ParJob`)."""
        from fivehundred.web.par_work import ParJob

        key = {"day": day.day.isoformat(), "preset": self.preset, "board": board.number}

        def read() -> Par | None:
            where = (getattr(daily_pars.c, k) == v for k, v in key.items())
            with self.engine.connect() as db:
                stored = db.execute(sa.select(daily_pars.c.par).where(*where)).scalar()
            return None if stored is None else Par.from_dict(json.loads(stored))

        def write(par: Par) -> None:
            with contextlib.suppress(sa.exc.IntegrityError), self.engine.begin() as db:
                db.execute(daily_pars.insert().values(**key, par=json.dumps(par.to_dict())))

        return ParJob(f"daily/{key['day']}/{self.preset}/{board.number}", board, read, write)

    def pars_of(self, when: date) -> dict[int, Par]:
        """The pars known of a day's boards (this server's, or the database's)."""
        with self.lock:
            day = self.days.get(when)
        if day is not None:
            return day.done_pars()
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(daily_pars.c.board, daily_pars.c.par).where(
                    daily_pars.c.day == when.isoformat(), daily_pars.c.preset == self.preset
                )
            ).all()
        return {row.board: Par.from_dict(json.loads(row.par)) for row in rows}

    # ------------------------------------------------------------------ entries
    def account_token(self, day: Day, account: int) -> str:
        """An account's token of a day, from the day's secret seed: any server gives it
        again to the account's session."""
        digest = hmac.new(day.seed.encode(), f"account/{account}".encode(), hashlib.sha256)
        return base64.urlsafe_b64encode(digest.digest()[:24]).decode()

    def new_entry(self, name: str, account: tuple[int, str] | None = None) -> tuple[str, Entry]:
        """A new entry for today, and its token: a guest's under ``name`` (made its own),
        or the ``(id, name)`` account's one entry of the day (the same one again if it has
        one)."""
        day = self.today()
        iso = day.day.isoformat()
        c = daily_entries.c
        if account is not None:
            token = self.account_token(day, account[0])
            base = account[1][:MAX_NAME]
        else:  # a guest's name says so, and never takes an account's
            token = secrets.token_urlsafe(24)
            base = name if name == "guest" else f"{name[: MAX_NAME - 8]} (guest)"
        key = token_hash(token)
        for _ in range(MAX_NAME_TRIES):
            with self.engine.connect() as db:
                if (
                    account is not None
                    and db.execute(sa.select(c.token_hash).where(c.token_hash == key)).first()
                ):
                    return token, self.entry(token)
                if (
                    db.execute(
                        sa.select(sa.func.count()).where(c.day == iso, c.preset == self.preset)
                    ).scalar_one()
                    >= MAX_ENTRIES
                ):
                    raise HTTPException(503, "the day is full: try tomorrow")
                prefix = base[: MAX_NAME - 8]
                taken = set(
                    db.execute(
                        sa.select(c.name).where(
                            c.day == iso,
                            c.preset == self.preset,
                            c.name.startswith(prefix, autoescape=True),
                        )
                    ).scalars()
                )
            unique, k = base, 1
            while unique in taken:
                k += 1
                unique = f"{prefix} {k}"
            entry = Entry(key, unique, day, account and account[0], 0)
            self.deal(entry)
            assert entry.state is not None
            try:
                with self.engine.begin() as db:
                    db.execute(
                        daily_entries.insert().values(
                            token_hash=key,
                            day=iso,
                            preset=self.preset,
                            name=unique,
                            account_id=entry.account,
                            board=1,
                            moves=json.dumps(list(entry.state.history)),
                            version=1,
                            created=time.time(),
                        )
                    )
            except sa.exc.IntegrityError:
                continue  # the name (or the account's entry) was taken meanwhile
            entry.version = 1
            self._keep(entry)
            return token, entry
        raise HTTPException(503, "too many entries at once: try again")

    def _keep(self, entry: Entry) -> None:
        with self.lock:
            self.cache[entry.key] = entry
            self.cache.move_to_end(entry.key)
            while len(self.cache) > MAX_CACHED:
                self.cache.popitem(last=False)

    def _forget(self, entry: Entry) -> None:
        with self.lock:
            if self.cache.get(entry.key) is entry:
                del self.cache[entry.key]

    def entry(self, token: str) -> Entry:
        """The entry of ``token`` as the database has it (this server's copy when it is
        the newest, else built again from its row: the boards finished and the moves of the
        board in play)."""
        if not TOKEN.fullmatch(token):
            raise HTTPException(404, "no such entry")
        key = token_hash(token)
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(daily_entries).where(daily_entries.c.token_hash == key)
            ).first()
            if row is None or row.preset != self.preset:
                raise HTTPException(404, "no such entry")
            with self.lock:
                cached = self.cache.get(key)
                if cached is not None and cached.version == row.version:
                    self.cache.move_to_end(key)
                    return cached
            results = db.execute(
                sa.select(daily_results)
                .where(daily_results.c.token_hash == key)
                .order_by(daily_results.c.board)
            ).all()
        day = self.readable_day(date.fromisoformat(row.day))
        entry = Entry(key, row.name, day, row.account_id, row.version, row.board - 1)
        entry.finished = [stored_result(r, json.loads(r.record)) for r in results]
        board = day.boards[entry.index]
        state = board.start()
        for move in json.loads(row.moves):
            state.apply(int(move))
        entry.state = state
        entry.players = self.players(entry, board)
        self._keep(entry)
        return entry

    def players(self, entry: Entry, board: Board) -> list[Player | None]:
        out: list[Player | None] = []
        for seat in range(4):
            if seat == ENTRANT_SEAT:
                out.append(None)
                continue
            digest = hashlib.sha256(f"{entry.key}/{board.number}/{seat}".encode()).digest()
            out.append(make_player(self.level, int.from_bytes(digest[:4], "big")))
        return out

    def deal(self, entry: Entry) -> BoardResult | None:
        """Deal the entry's next board and let the computers move up to South's turn."""
        board = entry.day.boards[entry.index]
        entry.state = board.start()
        entry.players = self.players(entry, board)
        return self.computers(entry)

    def computers(self, entry: Entry) -> BoardResult | None:
        """The computers' moves up to South's turn; the board's result if it ended."""
        state = entry.state
        assert state is not None
        for _ in range(MAX_COMPUTER_MOVES):
            if state.is_over:
                break
            player = entry.players[state.to_move]
            if player is None:
                break
            state.apply(player.act(state.observation(state.to_move)))
        if state.is_over and len(entry.finished) == entry.index:
            board = entry.day.boards[entry.index]
            result = BoardResult.from_state(board, entry.name, state, ENTRANT_SEAT)
            entry.finished.append(result)
            return result
        return None

    def _save(self, entry: Entry, change: Callable[[], BoardResult | None]) -> None:
        """Make ``change`` to the entry and write it, if nobody (another server) moved the
        entry on meanwhile (409 then: the copy is dropped, a reload shows the newest)."""
        before = entry.version
        try:
            result = change()
            state = entry.state
            assert state is not None
            c = daily_entries.c
            with self.engine.begin() as db:
                done = db.execute(
                    daily_entries.update()
                    .where(c.token_hash == entry.key, c.version == before)
                    .values(
                        board=entry.index + 1,
                        moves=json.dumps(list(state.history)),
                        version=before + 1,
                    )
                ).rowcount
                if done != 1:
                    raise HTTPException(409, "this entry has moved on elsewhere: reload")
                if result is not None:
                    db.execute(
                        daily_results.insert().values(**result_row(entry, self.preset, result))
                    )
        except BaseException:
            self._forget(entry)
            raise
        entry.version = before + 1
        if result is not None:
            self.keep_result(entry.day.day, result, entry.account)

    def act(self, entry: Entry, text: str) -> None:
        if self.over(entry.day.day):
            raise HTTPException(410, "that day is over")
        state = entry.state
        if state is None or state.is_over:
            raise HTTPException(409, "the board is over: ask for the next one")
        if state.to_move != ENTRANT_SEAT:
            raise HTTPException(409, "it is not your turn")
        two = state.rules.joker_names

        def change() -> BoardResult | None:
            try:
                state.apply(parse(text, state.legal_actions(), two))
            except FiveHundredError as error:
                raise HTTPException(422, error_text(error, two)) from error
            return self.computers(entry)

        self._save(entry, change)

    def next_board(self, entry: Entry) -> None:
        if self.over(entry.day.day):
            raise HTTPException(410, "that day is over")
        if entry.state is None or not entry.state.is_over:
            raise HTTPException(409, "finish this board first")
        if entry.index + 1 >= len(entry.day.boards):
            raise HTTPException(409, "that was the day's last board")

        def change() -> BoardResult | None:
            entry.index += 1
            return self.deal(entry)

        self._save(entry, change)

    # ------------------------------------------------------------------ views
    def traveller(self, entry: Entry, number: int) -> dict[str, Any]:
        if number not in {r.board for r in entry.finished}:
            raise HTTPException(403, "a board's traveller is shown once you have played it")
        day = entry.day
        board = day.boards[number - 1]
        mine = next(r for r in entry.finished if r.board == number)
        made = self.field(day.day)
        par = day.par(number)
        with made.lock:
            made.add(mine, entry.account)  # its own, even if not read yet
            on_board = made.board(number)
            first, results = on_board.window(mine, MAX_TRAVELLER_ROWS)
            rows = []
            for result in results:
                against = None
                if par is not None:
                    against = result.own_net - (par.net if result.direction == NS else -par.net)
                rows.append(TravellerRow(result, on_board.score(result), against))
            count = len(on_board.entrants)
        out = Traveller(board, par, tuple(rows)).to_dict()
        out["count"] = count
        if count > MAX_TRAVELLER_ROWS:  # the rows nearest the entrant's
            out["first"] = first + 1
        out["par_pending"] = out["par"] is None and self.with_pars
        rules = board.rules
        two = rules.joker_names
        out["hands"] = [
            {"seat": seat_name(s, 4), "cards": [action_label(c, two) for c in hand_order(h, None)]}
            for s, h in enumerate(board.hands)
        ]
        out["kitty"] = [action_label(c, two) for c in hand_order(board.kitty, None)]
        if par is not None:
            out["par"]["label"] = par.label(rules)
        return out

    def view(self, entry: Entry) -> dict[str, Any]:
        """Everything the entrant may see now (:func:`fivehundred.web.daily_view.entry_view`)."""
        from fivehundred.web.daily_view import entry_view

        return entry_view(self, entry)
