"""Alembic's environment: the connection is the caller's (:func:`fivehundred.web.migrations.upgrade`,
in its transaction under the schema lock), or one to ``sqlalchemy.url``."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context

from fivehundred.web.schema import metadata


def run(connection: sa.engine.Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


given = context.config.attributes.get("connection")
if given is not None:
    run(given)
else:
    engine = sa.create_engine(context.config.get_main_option("sqlalchemy.url") or "")
    with engine.begin() as connection:
        run(connection)
    engine.dispose()
