"""The server's database: tables, seats, each table's action log, finished hands.

SQLAlchemy Core on SQLite (the default, a file in the data directory) or PostgreSQL
(``postgresql+psycopg://user@host/db``). Every table is defined in
:mod:`fivehundred.web.schema`; the server creates and upgrades them at its start with the
Alembic migrations of :mod:`fivehundred.web.migrations`, under one lock.

A table's state is never stored: it is rebuilt by replaying its action log. Every method
here is synchronous; the server calls them from one worker thread (:class:`AsyncStore`).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar, cast

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from fivehundred.datadir import data_dir
from fivehundred.web import schema
from fivehundred.web.seals import shown, unsealed

DB_NAME = "web.sqlite3"

#: The tables (defined in web/schema.py), by their names here as before.
metadata = schema.metadata
tables = schema.tables
seats = schema.seats
actions = schema.actions
hands = schema.hands
closures = schema.closures
inbox = schema.inbox
creators = schema.creators
buckets = schema.buckets

log = logging.getLogger("fivehundred.web")

TAKE_TOKEN = sa.text(
    """
INSERT INTO buckets AS b (name, tokens, at, full_at)
VALUES (:name, :burst - 1.0, :now, :now + 1.0 / :rate)
ON CONFLICT (name) DO UPDATE SET
    tokens = LEAST(:burst, b.tokens + (:now - b.at) * :rate) - 1.0,
    at = :now,
    full_at = :now + (:burst + 1.0 - LEAST(:burst, b.tokens + (:now - b.at) * :rate)) / :rate
WHERE LEAST(:burst, b.tokens + (:now - b.at) * :rate) >= 1.0
RETURNING b.tokens
"""
)
#: The database's clock (every server's buckets count on one clock), seconds.
NOW = sa.text("SELECT extract(epoch FROM clock_timestamp())::float8")

#: The PostgreSQL channel of the servers' notifications (payloads: cluster.py).
CHANNEL = "fivehundred"
#: The PostgreSQL advisory lock under which a server creates or migrates the schema
#: (servers started together on an empty database take turns).
SCHEMA_LOCK = 500_000


@contextlib.contextmanager
def schema_transaction(engine: Engine) -> Iterator[Connection]:
    """A transaction for creating or migrating tables: on PostgreSQL it holds
    :data:`SCHEMA_LOCK` (two servers starting together on an empty database would both
    create a table, and one would fail)."""
    with engine.begin() as db:
        if engine.dialect.name == "postgresql":
            db.execute(sa.select(sa.func.pg_advisory_xact_lock(SCHEMA_LOCK)))
        yield db


def create_schema(schema: sa.MetaData, engine: Engine) -> None:
    """Bring the database to this version's schema (every table: ``schema`` is
    :data:`~fivehundred.web.schema.metadata`, kept for the callers), under the lock."""
    migrate(engine)


def migrate(engine: Engine) -> tuple[str | None, str]:
    """Create or upgrade every table (:mod:`fivehundred.web.migrations`) in one transaction
    under :data:`SCHEMA_LOCK`: (the revision before, the revision now)."""
    # Alembic tells each step at INFO: the server says what changed in one line (_prepare)
    logging.getLogger("alembic").setLevel(logging.WARNING)
    from alembic.util import CommandError

    from fivehundred.web import migrations

    with schema_transaction(engine) as db:
        try:
            return migrations.upgrade(db)
        except (migrations.NewerDatabase, CommandError) as error:
            raise StoreError(str(error).splitlines()[0]) from None


class RematchMade(Exception):
    """The table has its rematch already (made by another request, or another server):
    ``code`` is the rematch's."""

    def __init__(self, code: str) -> None:
        super().__init__(f"the rematch is table {code}")
        self.code = code


class StoreError(Exception):
    """The database cannot be used (a one-line reason)."""


def default_db_url() -> str:
    """SQLite in the data directory of the terminal game (``$FIVEHUNDRED_DATA_DIR``)."""
    return f"sqlite:///{data_dir() / DB_NAME}"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class SeatRow:
    seat: int
    kind: str
    player: str | None = None
    name: str | None = None
    token_hash: str | None = None


@dataclass
class TableRow:
    id: int
    code: str
    name: str
    rules: dict[str, Any]
    options: dict[str, Any]
    seed: int
    created: float
    finished: float | None
    winner: int | None
    scores: list[int]
    hands_played: int
    seats: list[SeatRow] = field(default_factory=list)
    #: (seat, action text, by) in order; loaded only when asked for
    actions: list[tuple[int, str, str]] = field(default_factory=list)
    #: when the expiry closed it (unfinished), else None
    closed: float | None = None


@dataclass
class HandRow:
    number: int
    contract: str | None
    contractor: int | None
    made: bool | None
    points: list[int]
    scores: list[int]


@dataclass
class PlaceRow:
    """A table where a name held seats: the table (with its log), the seats, and its
    finished hands by number: (contract, contractor, made, points per side)."""

    table: TableRow
    seats: list[int]
    hands: dict[int, tuple[Any, ...]]


class Write:
    """A write of the group commit (:meth:`AsyncStore.write`), with those of any tables."""

    def written(self, db: Connection) -> None:
        """Its rows (an action's: more rows of its transaction, web/deadlines.py)."""


@dataclass
class ActionRow(Write):
    """One action to append to a table's log (with the hand it finished, the game's end)."""

    table_id: int
    version: int
    seat: int
    action: str
    by: str
    hand: HandRow | None = None
    #: (winning side or -1, final scores) when the action ends the game
    finished: tuple[int, list[int]] | None = None
    #: the table's code: on PostgreSQL the commit notifies the other servers (code, version)
    code: str | None = None


def _engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).expanduser().parent.mkdir(parents=True, exist_ok=True)
        engine = sa.create_engine(url, connect_args={"check_same_thread": False})

        @sa.event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            # WAL: a commit is in the file before the call returns, so a killed server
            # loses nothing; NORMAL skips the fsync per commit (power loss aside).
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        return engine
    # named, so that an operator (and a test) knows which server a connection is
    return sa.create_engine(
        url,
        pool_pre_ping=True,
        connect_args={"application_name": f"fivehundred store {os.getpid()}"},
    )


class Store:
    """The database, synchronous."""

    def __init__(self, url: str) -> None:
        self.url = url
        #: this server's name in the notifications it sends (set by the cluster): a server
        #: knows its own news from another's
        self.origin = ""
        #: the outbox's work written with each game's end (web/outbox.py): "rate", "review"
        self.follow_ups: tuple[str, ...] = ()
        try:
            self.engine = _engine(url)
            self._prepare()
        except sa.exc.SQLAlchemyError as error:
            raise StoreError(
                f"cannot open the database {self.safe_url}: "
                f"{str(getattr(error, 'orig', None) or error).splitlines()[0]}"
            ) from None
        except OSError as error:
            raise StoreError(f"cannot open the database {self.safe_url}: {error}") from None

    @property
    def is_postgres(self) -> bool:
        return self.engine.dialect.name == "postgresql"

    def _notify(self, db: Connection, payload: str) -> None:
        """Tell the other servers (PostgreSQL only; sent when the transaction commits)."""
        if self.is_postgres:
            db.execute(sa.select(sa.func.pg_notify(CHANNEL, payload)))

    def notify(self, payload: str) -> None:
        with self.engine.begin() as db:
            self._notify(db, payload)

    @property
    def safe_url(self) -> str:
        return sa.engine.make_url(self.url).render_as_string(hide_password=True)

    def _prepare(self) -> None:
        """Create the schema, or upgrade an older one (on PostgreSQL under
        :data:`SCHEMA_LOCK`: one server at a time)."""
        before, now = migrate(self.engine)
        if before != now:
            log.info("database %s: schema %s -> %s", self.safe_url, before or "new", now)

    def close(self) -> None:
        self.engine.dispose()

    def ping(self) -> None:
        """Raise if the database does not answer."""
        with self.engine.connect() as db:
            db.execute(sa.text("SELECT 1"))

    # ------------------------------------------------------------------ tables
    def create_table(
        self,
        code: str,
        name: str,
        rules: dict[str, Any],
        options: dict[str, Any],
        seed: int,
        seat_rows: Sequence[SeatRow],
        table_id: int | None = None,
        creator: str | None = None,
        rematch_of: int | None = None,
    ) -> int | None:
        """Insert a table (with the id ``table_id`` from :meth:`next_table_id`, else a new
        one; made by the address ``creator``, where servers share the limits; the rematch
        of the table of id ``rematch_of``); None if the code is taken.
        :class:`RematchMade` if that table has its rematch already."""
        try:
            with self.engine.begin() as db:
                return self._create_table(
                    db, code, name, rules, options, seed, seat_rows, table_id, creator, rematch_of
                )
        except sa.exc.IntegrityError:
            made = None if rematch_of is None else self.rematch_of(rematch_of)
            if made is None:
                raise
            raise RematchMade(made) from None

    def rematch_of(self, table_id: int) -> str | None:
        """The code of the rematch of the table of id ``table_id``, if one was made."""
        query = sa.select(tables.c.code).where(tables.c.rematch_of == table_id)
        with self.engine.connect() as db:
            return cast("str | None", db.execute(query).scalar())

    def _create_table(
        self,
        db: Connection,
        code: str,
        name: str,
        rules: dict[str, Any],
        options: dict[str, Any],
        seed: int,
        seat_rows: Sequence[SeatRow],
        table_id: int | None,
        creator: str | None,
        rematch_of: int | None,
    ) -> int | None:
        if db.execute(sa.select(tables.c.id).where(tables.c.code == code)).first():
            return None
        chosen = {} if table_id is None else {"id": table_id}
        result = db.execute(
            tables.insert().values(
                **chosen,
                code=code,
                name=name,
                rules=json.dumps(rules),
                options=json.dumps(options),
                seed=seed,
                created=time.time(),
                scores="[]",
                hands_played=0,
                rematch_of=rematch_of,
                sealed=options.get("sealed"),
            )
        )
        key = result.inserted_primary_key
        assert key is not None
        table_id = int(key[0])
        db.execute(
            seats.insert(),
            [
                {
                    "table_id": table_id,
                    "seat": s.seat,
                    "kind": s.kind,
                    "player": s.player,
                    "name": s.name,
                    "token_hash": s.token_hash,
                }
                for s in seat_rows
            ],
        )
        if creator is not None:
            db.execute(creators.insert().values(table_id=table_id, address=creator))
        return table_id

    def tables_created_by(self, address: str) -> int:
        """Unfinished tables (neither over nor closed) ``address`` created."""
        with self.engine.connect() as db:
            query = (
                sa.select(sa.func.count())
                .select_from(
                    creators.join(tables, tables.c.id == creators.c.table_id).outerjoin(
                        closures, closures.c.table_id == creators.c.table_id
                    )
                )
                .where(
                    creators.c.address == address,
                    tables.c.finished.is_(None),
                    closures.c.table_id.is_(None),
                )
            )
            return int(db.execute(query).scalar_one())

    def take_token(self, name: str, per_minute: float, burst: int) -> float:
        """Take a token from the shared bucket ``name`` (PostgreSQL), as
        :meth:`fivehundred.web.guard.Buckets.take` does from a server's own: 0 if there
        was one, else the seconds until there is."""
        rate = per_minute / 60.0
        with self.engine.begin() as db:
            now = float(db.execute(NOW).scalar_one())
            values = {"name": name, "burst": float(burst), "now": now, "rate": rate}
            if db.execute(TAKE_TOKEN, values).first() is not None:
                return 0.0
            row = db.execute(
                sa.select(buckets.c.tokens, buckets.c.at).where(buckets.c.name == name)
            ).one()
        tokens = min(float(burst), row.tokens + (now - row.at) * rate)
        return float(max(0.0, (1.0 - tokens) / rate))

    def forget_buckets(self) -> int:
        """Delete the shared buckets that are full again (as good as none); how many."""
        with self.engine.begin() as db:
            now = float(db.execute(NOW).scalar_one())
            return int(db.execute(buckets.delete().where(buckets.c.full_at < now)).rowcount)

    def next_table_id(self) -> int:
        """An id for a table about to be created (PostgreSQL: drawn from the ids'
        sequence, so that its server can hold the table's lock before the table exists)."""
        with self.engine.begin() as db:
            return int(
                db.execute(
                    sa.text("SELECT nextval(pg_get_serial_sequence('tables', 'id'))")
                ).scalar_one()
            )

    def take_seat(
        self, table_id: int, seat: int, name: str, hashed: str, code: str | None = None
    ) -> bool:
        """Seat a person in an open seat; False if it is not open (any more)."""
        with self.engine.begin() as db:
            result = db.execute(
                seats.update()
                .where(seats.c.table_id == table_id, seats.c.seat == seat, seats.c.kind == "open")
                .values(kind="person", name=name, token_hash=hashed)
            )
            if result.rowcount == 1 and code is not None:
                self._notify(db, f"seat:{code}:{self.origin}")
            return bool(result.rowcount == 1)

    def actions_after(self, table_id: int, version: int) -> list[tuple[int, int, str, str]]:
        """(version, seat, action, by) of the table's actions after ``version``, in order."""
        with self.engine.connect() as db:
            query = (
                sa.select(actions.c.version, actions.c.seat, actions.c.action, actions.c.by)
                .where(actions.c.table_id == table_id, actions.c.version > version)
                .order_by(actions.c.version)
            )
            return [(a.version, a.seat, a.action, a.by) for a in db.execute(query)]

    def forward(self, table_id: int, code: str, version: int, seat: int, action: str) -> int:
        """Pass a client's action (or "undo") to the server that owns the table; its id in
        the inbox (the owner's refusal names it)."""
        with self.engine.begin() as db:
            result = db.execute(
                inbox.insert().values(
                    table_id=table_id, version=version, seat=seat, action=action, at=time.time()
                )
            )
            self._notify(db, f"inbox:{code}")
            key = result.inserted_primary_key
            assert key is not None
            return int(key[0])

    def take_back(self, forwarded: int) -> bool:
        """Delete the inbox's entry ``forwarded`` unless its table's server took it
        already; whether it was still there (then it is never made)."""
        with self.engine.begin() as db:
            return bool(db.execute(inbox.delete().where(inbox.c.id == forwarded)).rowcount)

    def forget_inbox(self, older_than: float) -> int:
        """Delete what waits in the inbox since before ``older_than`` (time.time()): its
        sender took it back long ago, or its table ended; how many."""
        with self.engine.begin() as db:
            return int(db.execute(inbox.delete().where(inbox.c.at < older_than)).rowcount or 0)

    def inbox_tables(self) -> set[int]:
        """The tables whose inbox has actions waiting."""
        with self.engine.connect() as db:
            return set(db.execute(sa.select(inbox.c.table_id).distinct()).scalars())

    def live_tables(self) -> int:
        """How many tables are being played (unfinished, not closed), by every server."""
        with self.engine.connect() as db:
            live = sa.and_(tables.c.finished.is_(None), closures.c.table_id.is_(None))
            query = (
                sa.select(sa.func.count())
                .select_from(tables.outerjoin(closures, closures.c.table_id == tables.c.id))
                .where(live)
            )
            return int(db.execute(query).scalar() or 0)

    def take_inbox(self, table_id: int) -> list[tuple[int, int, int, str]]:
        """(id, version, seat, action) of the actions passed to the table's owner, in
        order; each is deleted as it is taken (one taker only)."""
        with self.engine.begin() as db:
            rows = list(
                db.execute(
                    sa.select(inbox.c.id, inbox.c.version, inbox.c.seat, inbox.c.action)
                    .where(inbox.c.table_id == table_id)
                    .order_by(inbox.c.id)
                    .with_for_update(skip_locked=True)
                )
            )
            if rows:
                db.execute(inbox.delete().where(inbox.c.id.in_([r.id for r in rows])))
            return [(r.id, r.version, r.seat, r.action) for r in rows]

    def append_action(self, *row: Any) -> None:
        """Write one action (:class:`ActionRow`'s fields: with the hand it finished and the
        game's end, in its transaction). Raises if the version is taken: two writers would
        never both win."""
        error = self.append_actions([ActionRow(*row)])[0]
        if error is not None:
            raise error

    def append_actions(self, rows: Sequence[Write]) -> list[Exception | None]:
        """Write actions (any :class:`Write`s) of any tables in one transaction (a group
        commit); for each None when it is written, else the error that kept it out. If the
        transaction fails, each is tried again in its own: one bad row fails alone."""
        if not rows:
            return []
        try:
            with self.engine.begin() as db:
                self._write_actions(db, rows)
            return [None] * len(rows)
        except Exception as error:
            if len(rows) == 1:
                return [error]
        results: list[Exception | None] = []
        for row in rows:
            try:
                with self.engine.begin() as db:
                    self._write_actions(db, [row])
                results.append(None)
            except Exception as error:
                results.append(error)
        return results

    def _write_actions(self, db: Connection, writes: Sequence[Write]) -> None:
        now = time.time()
        rows = [w for w in writes if isinstance(w, ActionRow)]
        if rows:
            db.execute(
                actions.insert(),
                [
                    {
                        "table_id": r.table_id,
                        "version": r.version,
                        "seat": r.seat,
                        "action": r.action,
                        "by": r.by,
                        "at": now,
                    }
                    for r in rows
                ],
            )
        for row in rows:
            hand = row.hand
            if hand is None:
                continue
            db.execute(
                hands.insert().values(
                    table_id=row.table_id,
                    number=hand.number,
                    contract=hand.contract,
                    contractor=hand.contractor,
                    made=hand.made,
                    points=json.dumps(hand.points),
                    scores=json.dumps(hand.scores),
                    at=now,
                )
            )
            values: dict[str, Any] = {
                "hands_played": hand.number,
                "scores": json.dumps(hand.scores),
            }
            if row.finished is not None:
                values.update(finished=now, winner=row.finished[0])
                if self.follow_ups:  # what follows the game, committed with its end
                    code = db.execute(
                        sa.select(tables.c.code).where(tables.c.id == row.table_id)
                    ).scalar()
                    db.execute(
                        schema.outbox.insert(),
                        [{"kind": k, "code": code, "at": now, "tries": 0} for k in self.follow_ups],
                    )
            db.execute(tables.update().where(tables.c.id == row.table_id).values(**values))
        for write in writes:
            write.written(db)
            if isinstance(write, ActionRow) and write.code is not None:
                self._notify(db, f"act:{write.code}:{write.version}")

    def close_table(self, table_id: int, code: str | None = None) -> None:
        """Close an unfinished table (the expiry): it is not resumed; its finished hands
        stay in the history."""
        with self.engine.begin() as db:
            query = sa.select(closures.c.table_id).where(closures.c.table_id == table_id)
            if db.execute(query).first() is None:
                db.execute(closures.insert().values(table_id=table_id, at=time.time()))
            if code is not None:
                self._notify(db, f"closed:{code}:{self.origin}")

    def truncate_actions(self, table_id: int, keep: int, code: str | None = None) -> None:
        """Drop the actions after version ``keep`` (undo), in an unfinished hand only."""
        with self.engine.begin() as db:
            db.execute(
                actions.delete().where(actions.c.table_id == table_id, actions.c.version > keep)
            )
            if code is not None:
                self._notify(db, f"undo:{code}:{self.origin}")

    def _table_rows(
        self,
        db: Connection,
        where: Any,
        order: Any = None,
        limit: int | None = None,
        offset: int = 0,
    ) -> list[TableRow]:
        query = (
            sa.select(tables, closures.c.at.label("closed"))
            .select_from(tables.outerjoin(closures, closures.c.table_id == tables.c.id))
            .where(where)
        )
        if order is not None:
            query = query.order_by(order)
        if limit is not None:
            query = query.limit(limit).offset(offset)
        rows = [
            TableRow(
                id=r.id,
                code=r.code,
                name=r.name,
                rules=json.loads(r.rules),
                options=json.loads(r.options),
                seed=r.seed,
                created=r.created,
                finished=r.finished,
                winner=r.winner,
                scores=json.loads(r.scores),
                hands_played=r.hands_played,
                closed=r.closed,
            )
            for r in db.execute(query)
        ]
        if rows:
            by_id = {row.id: row for row in rows}
            seat_query = (
                sa.select(seats)
                .where(seats.c.table_id.in_(list(by_id)))
                .order_by(seats.c.table_id, seats.c.seat)
            )
            for s in db.execute(seat_query):
                by_id[s.table_id].seats.append(
                    SeatRow(s.seat, s.kind, s.player, s.name, s.token_hash)
                )
        return rows

    def _log(self, db: Connection, table_id: int) -> list[tuple[int, str, str]]:
        query = (
            sa.select(actions.c.seat, actions.c.action, actions.c.by)
            .where(actions.c.table_id == table_id)
            .order_by(actions.c.version)
        )
        return [(a.seat, a.action, a.by) for a in db.execute(query)]

    def load_unfinished(self, but: Any = sa.false()) -> list[TableRow]:  # noqa: B008 (a constant)
        """The unfinished tables (not those ``but`` holds) with their logs, to resume them."""
        with self.engine.connect() as db:
            live = sa.and_(tables.c.finished.is_(None), closures.c.table_id.is_(None), ~but)
            rows = self._table_rows(db, live, tables.c.id)
            for row in rows:
                row.actions = self._log(db, row.id)
            return rows

    def load_table(self, code: str, with_actions: bool = False) -> TableRow | None:
        with self.engine.connect() as db:
            rows = self._table_rows(db, tables.c.code == code)
            if not rows:
                return None
            row = rows[0]
            if with_actions:
                row.actions = self._log(db, row.id)
            return row

    def finished_games(self, page: int, per_page: int) -> tuple[list[TableRow], int]:
        with self.engine.connect() as db:
            done = tables.c.finished.is_not(None) & unsealed()
            total = db.execute(sa.select(sa.func.count()).select_from(tables).where(done)).scalar()
            rows = self._table_rows(
                db, done, tables.c.finished.desc(), per_page, (page - 1) * per_page
            )
            return rows, int(total or 0)

    def player_places(self, name: str, limit: int) -> list[PlaceRow]:
        """The latest ``limit`` tables with a seat held under ``name`` (a person's or a
        computer player's), newest first, each with its log and finished hands (the
        figures of :mod:`fivehundred.web.players`)."""
        with self.engine.connect() as db:
            seat_name = sa.func.coalesce(seats.c.name, seats.c.player)
            latest = (
                sa.select(seats.c.table_id)
                .where(seat_name == name, seats.c.kind != "open", seats.c.table_id.in_(shown()))
                .group_by(seats.c.table_id)
                .order_by(seats.c.table_id.desc())
                .limit(limit)
            )
            ids = [r.table_id for r in db.execute(latest)]
            if not ids:
                return []
            rows = {row.id: row for row in self._table_rows(db, tables.c.id.in_(ids))}
            query = (
                sa.select(actions.c.table_id, actions.c.seat, actions.c.action, actions.c.by)
                .where(actions.c.table_id.in_(ids))
                .order_by(actions.c.table_id, actions.c.version)
            )
            for a in db.execute(query):
                rows[a.table_id].actions.append((a.seat, a.action, a.by))
            finished: dict[int, dict[int, tuple[Any, ...]]] = {i: {} for i in ids}
            query = sa.select(hands).where(hands.c.table_id.in_(ids))
            for h in db.execute(query):
                finished[h.table_id][h.number] = (
                    h.contract,
                    h.contractor,
                    h.made,
                    json.loads(h.points),
                )
        places = []
        for table_id in ids:
            row = rows[table_id]
            held = [s.seat for s in row.seats if s.kind != "open" and (s.name or s.player) == name]
            if held:
                places.append(PlaceRow(row, held, finished[table_id]))
        return places

    def open_tables(self, only_open: bool, limit: int) -> list[TableRow]:
        """The newest tables being played (a seat free if ``only_open``), all in the query."""
        live = sa.and_(tables.c.finished.is_(None), closures.c.table_id.is_(None))
        free = sa.exists().where(seats.c.table_id == tables.c.id, seats.c.kind == "open")
        with self.engine.connect() as db:
            where = sa.and_(live, free) if only_open else live
            return self._table_rows(db, where, tables.c.id.desc(), limit)


T = TypeVar("T")


class AsyncStore:
    """:class:`Store` for the event loop: every call runs, in order, in one worker thread
    (the loop never waits on the disk).

    Actions (any :class:`Write`) are written by group commit (:meth:`write`): while one
    transaction is being written, those that arrive meanwhile, from any tables, wait and go
    together in the next one. Each is answered only once it is committed."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="fivehundred-db")
        self._pending: list[tuple[Write, asyncio.Future[None]]] = []
        self._writing = False
        #: transactions and actions written by group commit (for the load check)
        self.commits = 0
        self.committed = 0
        #: told of each call the database failed (the metrics' database errors)
        self.on_error: Callable[[], None] | None = None

    async def call(self, function: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._thread, function, *args)
        except (sa.exc.SQLAlchemyError, OSError):
            self._failed()
            raise

    def _failed(self) -> None:
        if self.on_error is not None:
            self.on_error()

    def write(self, row: Write) -> asyncio.Future[None]:
        """Queue ``row`` (an action: ``append_action``) for the next group commit: the future
        is done once it is committed (its exception: why it could not be)."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._pending.append((row, future))
        self._write_next(loop)
        return future

    append_action = write

    def _write_next(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._writing or not self._pending:
            return
        batch, self._pending = self._pending, []
        self._writing = True
        try:
            done = self._thread.submit(self.store.append_actions, [row for row, _ in batch])
        except RuntimeError as error:  # the thread is shut down: the server is stopping
            self._writing = False
            for _, future in batch:
                if not future.done():
                    future.set_exception(error)
            return

        def answer(written: Future[list[Exception | None]]) -> None:  # in the thread
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(self._written, loop, batch, written)

        done.add_done_callback(answer)

    def _written(
        self,
        loop: asyncio.AbstractEventLoop,
        batch: list[tuple[Write, asyncio.Future[None]]],
        written: Future[list[Exception | None]],
    ) -> None:
        self._writing = False
        failure = written.exception()
        results: list[Exception | None] = (
            [failure if isinstance(failure, Exception) else RuntimeError(str(failure))] * len(batch)
            if failure is not None
            else written.result()
        )
        self.commits += 1
        if any(result is not None for result in results):
            self._failed()
        for (row, future), result in zip(batch, results, strict=True):
            self.committed += result is None and isinstance(row, ActionRow)
            if future.done():  # the caller is gone (the server is stopping)
                continue
            if result is None:
                future.set_result(None)
            else:
                future.set_exception(result)
        self._write_next(loop)

    def close(self) -> None:
        self._thread.shutdown(wait=True)
        self.store.close()
