"""Deadlines: the grace ends, open seats' stand-ins and turn clocks as rows, which the one
scheduler of the servers fires when due (web/deadlines.py).

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07

Expand only: one new table. A server of an earlier revision keeps its timers in memory and
never reads it, so the two can run side by side during a rolling restart (a table it owns
is timed by it, as before).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def _missing(name: str) -> bool:
    return not sa.inspect(op.get_bind()).has_table(name)


def upgrade() -> None:
    if _missing("deadlines"):
        op.create_table(
            "deadlines",
            sa.Column("table_id", sa.Integer(), nullable=False),
            sa.Column("kind", sa.String(length=12), nullable=False),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("due", sa.Float(), nullable=False),
            sa.Column("version", sa.Integer(), nullable=False),
            sa.Column("fired", sa.Boolean(), nullable=False),
            sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
            sa.PrimaryKeyConstraint("table_id", "kind", "seat"),
        )
        op.create_index("ix_deadlines_due", "deadlines", ["fired", "due"])


def downgrade() -> None:
    op.drop_index("ix_deadlines_due", table_name="deadlines")
    op.drop_table("deadlines")
