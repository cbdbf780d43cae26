"""The daily boards in the database: each entry, each finished board's result and the
pars, and each day's seed, so that every server of one database sees the same entries and a restart loses
nothing.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06

Expand only: four new tables. A server of an earlier revision keeps its daily entries in
its own memory and never reads these tables, so the two can run side by side during a
rolling restart.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def _missing(name: str) -> bool:
    return not sa.inspect(op.get_bind()).has_table(name)


def upgrade() -> None:
    if _missing("daily_days"):
        op.create_table(
            "daily_days",
            sa.Column("day", sa.String(length=10), nullable=False),
            sa.Column("preset", sa.String(length=40), nullable=False),
            sa.Column("seed", sa.String(length=64), nullable=False),
            sa.Column("boards", sa.Integer(), nullable=False),
            sa.Column("created", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("day", "preset"),
        )
    if _missing("daily_entries"):
        op.create_table(
            "daily_entries",
            sa.Column("token_hash", sa.String(length=64), nullable=False),
            sa.Column("day", sa.String(length=10), nullable=False),
            sa.Column("preset", sa.String(length=40), nullable=False),
            sa.Column("name", sa.String(length=60), nullable=False),
            sa.Column("account_id", sa.Integer(), nullable=True),
            sa.Column("board", sa.Integer(), nullable=False),
            sa.Column("moves", sa.Text(), nullable=False),
            sa.Column("version", sa.Integer(), nullable=False),
            sa.Column("created", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("token_hash"),
        )
        op.create_index(
            "ux_daily_entries_name", "daily_entries", ["day", "preset", "name"], unique=True
        )
        op.create_index(
            "ux_daily_entries_account",
            "daily_entries",
            ["day", "preset", "account_id"],
            unique=True,
        )
    if _missing("daily_results"):
        op.create_table(
            "daily_results",
            sa.Column("token_hash", sa.String(length=64), nullable=False),
            sa.Column("board", sa.Integer(), nullable=False),
            sa.Column("day", sa.String(length=10), nullable=False),
            sa.Column("preset", sa.String(length=40), nullable=False),
            sa.Column("name", sa.String(length=60), nullable=False),
            sa.Column("account_id", sa.Integer(), nullable=True),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("contract", sa.String(length=20), nullable=True),
            sa.Column("contractor", sa.Integer(), nullable=False),
            sa.Column("tricks", sa.Integer(), nullable=False),
            sa.Column("ns", sa.Integer(), nullable=False),
            sa.Column("ew", sa.Integer(), nullable=False),
            sa.Column("record", sa.Text(), nullable=False),
            sa.Column("at", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("token_hash", "board"),
        )
        op.create_index("ix_daily_results_day", "daily_results", ["day", "preset", "board"])
        op.create_index("ix_daily_results_account", "daily_results", ["account_id", "day"])
    if _missing("daily_pars"):
        op.create_table(
            "daily_pars",
            sa.Column("day", sa.String(length=10), nullable=False),
            sa.Column("preset", sa.String(length=40), nullable=False),
            sa.Column("board", sa.Integer(), nullable=False),
            sa.Column("par", sa.Text(), nullable=False),
            sa.PrimaryKeyConstraint("day", "preset", "board"),
        )


def downgrade() -> None:
    op.drop_table("daily_pars")
    op.drop_index("ix_daily_results_account", table_name="daily_results")
    op.drop_index("ix_daily_results_day", table_name="daily_results")
    op.drop_table("daily_results")
    op.drop_index("ux_daily_entries_account", table_name="daily_entries")
    op.drop_index("ux_daily_entries_name", table_name="daily_entries")
    op.drop_table("daily_entries")
    op.drop_table("daily_days")
