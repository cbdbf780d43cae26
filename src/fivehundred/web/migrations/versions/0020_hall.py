"""Club nights at real tables: the nights and each table's score pad (web/events/hall.py).

Revision ID: 0020
Revises: 0019
Create Date: 2026-12-07

Expand only: two new tables. A server of an earlier revision reads neither.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if not inspector.has_table("hall_nights"):
        op.create_table(
            "hall_nights",
            sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("code", sa.String(length=6), nullable=False),
            sa.Column("club_id", sa.Integer(), nullable=False),
            sa.Column("organiser_id", sa.Integer(), nullable=False),
            sa.Column("name", sa.String(length=60), nullable=False),
            sa.Column("preset", sa.String(length=40), nullable=False),
            sa.Column("state", sa.String(length=12), nullable=False),
            sa.Column("created", sa.Float(), nullable=False),
            sa.Column("ended", sa.Float(), nullable=True),
            sa.PrimaryKeyConstraint("id"),
            sqlite_autoincrement=True,
        )
        op.create_index("ux_hall_nights_code", "hall_nights", ["code"], unique=True)
        op.create_index("ix_hall_nights_club", "hall_nights", ["club_id", "created"])
    if not inspector.has_table("hall_tables"):
        op.create_table(
            "hall_tables",
            sa.Column("night_id", sa.Integer(), nullable=False),
            sa.Column("number", sa.Integer(), nullable=False),
            sa.Column("token_hash", sa.String(length=64), nullable=False),
            sa.Column("version", sa.Integer(), nullable=False),
            sa.Column("state", sa.Text(), nullable=False),
            sa.Column("updated", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(["night_id"], ["hall_nights.id"]),
            sa.PrimaryKeyConstraint("night_id", "number"),
        )


def downgrade() -> None:
    op.drop_table("hall_tables")
    op.drop_index("ix_hall_nights_club", table_name="hall_nights")
    op.drop_index("ux_hall_nights_code", table_name="hall_nights")
    op.drop_table("hall_nights")
