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

from pathlib import Path

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


def head() -> str:
    """The newest revision this server knows."""
    revision = ScriptDirectory.from_config(_config()).get_current_head()
    assert revision is not None
    return revision


def current(connection: Connection) -> str | None:
    """The database's revision (None: never migrated)."""
    return MigrationContext.configure(connection).get_current_revision()


def upgrade(connection: Connection) -> tuple[str | None, str]:
    """Bring the database to :func:`head` in the caller's transaction; (from, to).
    :class:`NewerDatabase` if its revision is not one this server knows."""
    config = _config(connection)
    before = current(connection)
    known = {s.revision for s in ScriptDirectory.from_config(config).walk_revisions()}
    if before is not None and before not in known:
        raise NewerDatabase(
            f"the database's schema is at revision {before}, newer than this server's {head()}"
        )
    if before != head():
        command.upgrade(config, "head")
    return before, head()
