"""The daily's results by the time they were written (a server reads a day's new results
alone, however large the day), and a renamed club's old addresses.

Revision ID: 0011
Revises: 0008
Create Date: 2026-12-06

Expand only: one new index and one new table. A server of an earlier revision never reads
them (it finds a renamed club by its new address only), so the two can run side by side
during a rolling restart.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

INDEX = "ix_daily_results_at"


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if INDEX not in {index["name"] for index in inspector.get_indexes("daily_results")}:
        op.create_index(INDEX, "daily_results", ["day", "preset", "at"])
    if not inspector.has_table("club_slugs"):
        op.create_table(
            "club_slugs",
            sa.Column("slug", sa.String(length=48), nullable=False),
            sa.Column("club_id", sa.Integer(), nullable=False),
            sa.Column("at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(["club_id"], ["clubs.id"]),
            sa.PrimaryKeyConstraint("slug"),
        )
        op.create_index("ix_club_slugs_club", "club_slugs", ["club_id"])


def downgrade() -> None:
    op.drop_index("ix_club_slugs_club", table_name="club_slugs")
    op.drop_table("club_slugs")
    op.drop_index(INDEX, table_name="daily_results")
