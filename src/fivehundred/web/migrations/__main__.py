"""``python -m fivehundred.web.migrations upgrade|current|revision --db URL``: upgrade a
database (under the schema lock, as ``fivehundred serve`` does), say its revision, or
write a new revision from the changes of :mod:`fivehundred.web.schema` (developers)."""

from __future__ import annotations

import argparse
import os
import sys

import sqlalchemy as sa


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m fivehundred.web.migrations",
        description="Upgrade the web server's database to this version's schema (Alembic).",
    )
    parser.add_argument("command", choices=["upgrade", "current", "revision"])
    parser.add_argument(
        "--db",
        default=os.environ.get("FIVEHUNDRED_DB") or None,
        help="the database URL (default: $FIVEHUNDRED_DB, as fivehundred serve reads it, "
        "else the server's SQLite file)",
    )
    parser.add_argument("-m", "--message", default="schema change", help="(revision) its title")
    args = parser.parse_args(argv)

    from fivehundred.web import migrations
    from fivehundred.web.store import Store, StoreError, default_db_url

    url = args.db or default_db_url()
    if args.command == "upgrade":
        try:
            store = Store(url)  # upgrades under the schema lock
        except StoreError as error:
            print(f"fivehundred: {error}", file=sys.stderr)
            return 1
        print(f"{store.safe_url}: schema at revision {migrations.head()}")
        store.close()
        return 0
    engine = sa.create_engine(url)
    try:
        if args.command == "current":
            with engine.connect() as db:
                print(f"{migrations.current(db) or 'none'} (this version's: {migrations.head()})")
            return 0
        from alembic import command

        config = migrations._config()
        config.set_main_option("sqlalchemy.url", url)
        config.attributes["connection"] = None
        command.revision(config, message=args.message, autogenerate=True)
        return 0
    except sa.exc.SQLAlchemyError as error:
        print(f"fivehundred: {str(getattr(error, 'orig', None) or error).splitlines()[0]}")
        return 1
    finally:
        engine.dispose()


if __name__ == "__main__":
    sys.exit(main())
