"""Turn-based tournaments: an event's clock per move and time per round, each round's
deadline, and each game finished by the stand-ins at that deadline.

Revision ID: 0024
Revises: 0020
Create Date: 2026-12-07

Expand only: four nullable columns. A server of an earlier revision neither writes nor
reads them: the events it makes are live, as before, and a turn-based event's tables it
would open during the restart are live tables for that round (no deadline).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0024"
down_revision = "0023"
branch_labels = None
depends_on = None

COLUMNS = (
    ("events", "move_clock", sa.Float()),
    ("events", "round_time", sa.Float()),
    ("event_rounds", "due", sa.Float()),
    ("event_games", "overtime", sa.Boolean()),
)


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    for table, column, kind in COLUMNS:
        if column not in {c["name"] for c in inspector.get_columns(table)}:
            op.add_column(table, sa.Column(column, kind, nullable=True))


def downgrade() -> None:
    for table, column, _ in reversed(COLUMNS):
        with op.batch_alter_table(table) as batch:
            batch.drop_column(column)
