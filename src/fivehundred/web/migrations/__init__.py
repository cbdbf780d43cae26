"""The web server's database migrations (Alembic), shipped inside the package.

Every table is defined in :mod:`fivehundred.web.schema`; each change of the schema is a
revision in ``versions/``. :func:`upgrade` brings a database to the newest revision this
server knows; ``fivehundred serve`` calls it at its start, inside one transaction that holds
:data:`~fivehundred.web.store.SCHEMA_LOCK` on PostgreSQL (several servers started together
on an empty database take turns: the first creates, the others find it done).

A club upgrades with the new version's ``fivehundred serve`` (it upgrades before it
serves), or first, by hand: ``python -m fivehundred.web.migrations upgrade --db URL``
(``current`` says where a database is; docs/deploy.md, "Upgrading the database").

Rolling restarts follow expand, deploy, contract: a revision only adds what the running
older servers can ignore (a table, a nullable column); what they still use is removed in a
later release, once no older server runs.
"""

from __future__ import annotations

import functools
from pathlib import Path

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy.engine import Connection

HERE = Path(__file__).parent


class NewerDatabase(Exception):
    """The database was upgraded by a newer server than this one."""


def _config(connection: Connection | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(HERE))
    config.attributes["connection"] = connection
    return config


@functools.cache
def scripts() -> ScriptDirectory:
    """The revisions this server knows (read once a process)."""
    return ScriptDirectory.from_config(_config())


def head() -> str:
    """The newest revision this server knows."""
    revision = scripts().get_current_head()
    assert revision is not None
    return revision


def current(connection: Connection) -> str | None:
    """The database's revision (None: never migrated)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(connection: Connection) -> tuple[str | None, str]:
    """Bring the database to :func:`head` in the caller's transaction; (from, to).
    :class:`NewerDatabase` if its revision is not one this server knows. An empty database
    is made from :mod:`fivehundred.web.schema` at once and marked at the head (Alembic's
    "building an up to date database from scratch"; tests/test_web_schema.py checks that
    the migrations make the same schema); one made before the migrations, or at an older
    revision, is upgraded revision by revision."""
    context = MigrationContext.configure(connection)
    before = context.get_current_revision()
    target = head()
    if before == target:
        return before, target
    if before is not None and before not in {s.revision for s in scripts().walk_revisions()}:
        raise NewerDatabase(
            f"the database's schema is at revision {before}, newer than this server's {target}"
        )
    if before is None and not sa.inspect(connection).get_table_names():
        from fivehundred.web.schema import metadata

        metadata.create_all(connection)
        context.stamp(scripts(), target)
    else:
        command.upgrade(_config(connection), "head")
    return before, target
