"""A day's field of the daily kept in the database for a server's first read of the day
(web/daily_field.py).

Revision ID: 0016
Revises: 0013
Create Date: 2026-12-07

Expand only: one new table. A server of an earlier revision reads every result of a day
and never this table.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if not sa.inspect(op.get_bind()).has_table("daily_fields"):
        op.create_table(
            "daily_fields",
            sa.Column("day", sa.String(length=10), nullable=False),
            sa.Column("preset", sa.String(length=40), nullable=False),
            sa.Column("results", sa.Integer(), nullable=False),
            sa.Column("upto", sa.Float(), nullable=False),
            sa.Column("data", sa.LargeBinary(), nullable=False),
            sa.Column("written", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("day", "preset"),
        )


def downgrade() -> None:
    op.drop_table("daily_fields")
