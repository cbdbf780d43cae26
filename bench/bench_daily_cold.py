"""A server's first read of a big day of the daily boards: a database of its own (a fresh
SQLite file, or with ``--pg URL`` one made on that PostgreSQL server and dropped at the
end: :func:`bench_daily.own_database`) given a field of
``--field`` entries (10,000 by default: 120,000 results, each a real hand of a pool played
on its board, written as the service writes them, :func:`bench_daily.load_field`),
then a new service on it (as after a server's start) asked for the day's table (it reads
every row, and writes its copy of the field to the database), then another new service
asked for the table (it reads that copy and the rows written since), a board's traveller
and the table again: the time (and this process's CPU) each took.

    python bench/bench_daily_cold.py [--field 10000] [--pg URL]
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import sqlalchemy as sa

import bench_daily
from fivehundred.daily import today
from fivehundred.web.daily import DailyService, Entry
from fivehundred.web.schema import daily_fields
from fivehundred.web.store import Store


def timed(label: str, work: object) -> float:
    wall, cpu = time.perf_counter(), time.process_time()
    assert callable(work)
    work()
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{label}: {wall:.2f} s ({cpu:.2f} s of CPU)", flush=True)
    return wall


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--field", type=int, default=10_000)
    parser.add_argument("--pool", type=int, default=40)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--pg", default="", help="a PostgreSQL server (URL) to make the database on"
    )
    args = parser.parse_args()
    with bench_daily.own_database(args.pg) as url:
        store = Store(url)
        try:
            cold(store.engine, args)
        finally:
            store.close()
    return 0


def cold(engine: sa.Engine, args: argparse.Namespace) -> None:
    when = today()
    first = DailyService("bench-cold", "random", pars=False, engine=engine)
    first.day(when)  # the day's seed in the database
    took = bench_daily.load_field(
        engine, when, args.field, args.pool, "heuristic", random.Random(args.seed)
    )
    print(f"the field: {args.field} entries, {12 * args.field} results written in {took:.1f} s")
    reader = DailyService("bench-cold", "random", pars=False, engine=engine)
    day = reader.day(when)
    timed("the day's table, a server's first read, every row", lambda: reader.day_table(when))
    with engine.connect() as db:
        copy = db.execute(
            sa.select(daily_fields.c.results, sa.func.length(daily_fields.c.data))
        ).first()
    print(f"the database's copy of the field: {copy}")
    fresh = DailyService("bench-cold", "random", pars=False, engine=engine)
    fresh.day(when)
    timed("the day's table, another server's first read, the copy", lambda: fresh.day_table(when))
    entry = Entry("0" * 64, "field 0", day, None, 1, 0)
    entry.finished = [r for r in fresh.field(when).on_board(1) if r.entrant == "field 0"]
    timed("a board's traveller after it", lambda: fresh.traveller(entry, 1))
    timed("the day's table again", lambda: fresh.day_table(when))


if __name__ == "__main__":
    sys.exit(main())
