"""The lobby's list from the database (``Store.open_tables``): the tables being played,
newest first, and with ``only_open`` those with a seat nobody has taken; a finished or
closed table is never listed; the filter and the bound are the query's, so that the seats
of no more tables are read than are listed (a lobby of many full tables costs no more).
On SQLite and PostgreSQL."""

from __future__ import annotations

import time
from typing import Any

import sqlalchemy as sa

from fivehundred.web.store import SeatRow, Store, tables
from test_web_support import db_url  # noqa: F401  (the fixture)


def seated(free: bool) -> list[SeatRow]:
    """Four seats: the last open when ``free``, else every one a person's."""
    people = [SeatRow(seat, "person", name=f"P{seat}") for seat in range(4)]
    return [*people[:3], SeatRow(3, "open")] if free else people


def test_the_lobby_lists_the_newest_live_tables_and_reads_no_more(db_url: str) -> None:  # noqa: F811
    store = Store(db_url)
    try:
        ids = {}
        # oldest first: open, full, open, full, ...; then an open table finished and an
        # open table closed, the newest of all
        for number in range(10):
            code = f"T{number:05d}"
            made = store.create_table(code, code, {}, {}, number, seated(number % 2 == 0))
            assert made is not None
            ids[code] = made
        for code in ("FINISH", "CLOSED"):
            made = store.create_table(code, code, {}, {}, 0, seated(True))
            assert made is not None
            ids[code] = made
        with store.engine.begin() as db:
            db.execute(
                tables.update().where(tables.c.code == "FINISH").values(finished=time.time())
            )
        store.close_table(ids["CLOSED"], "CLOSED")

        statements: list[tuple[str, Any]] = []

        def heard(conn: Any, cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
            statements.append((statement, parameters))

        sa.event.listen(store.engine, "before_cursor_execute", heard)
        listed = store.open_tables(True, 2)
        assert [row.code for row in listed] == ["T00008", "T00006"]
        assert all(any(s.kind == "open" for s in row.seats) for row in listed)
        # the seats read are those of the two tables listed, in one bounded query
        read = [params for sql, params in statements if sql.lstrip().startswith("SELECT seats.")]
        assert [len(params) for params in read] == [2]
        assert all("LIMIT" in sql for sql, _ in statements if "FROM tables" in sql)

        assert [row.code for row in store.open_tables(False, 3)] == ["T00009", "T00008", "T00007"]
        everyone = store.open_tables(True, 50)
        assert [row.code for row in everyone] == [f"T{n:05d}" for n in (8, 6, 4, 2, 0)]
        assert len(store.open_tables(False, 50)) == 10
    finally:
        store.close()
