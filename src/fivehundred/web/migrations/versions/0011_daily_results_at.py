"""The daily's results by the time they were written: a server reads a day's new results
alone (those written since its last read), however large the day.

Revision ID: 0011
Revises: 0008
Create Date: 2026-12-06

Expand only: one new index. A server of an earlier revision never needs it, so the two
can run side by side during a rolling restart.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0008"
branch_labels = None
depends_on = None

INDEX = "ix_daily_results_at"


def upgrade() -> None:
    known = {index["name"] for index in sa.inspect(op.get_bind()).get_indexes("daily_results")}
    if INDEX not in known:
        op.create_index(INDEX, "daily_results", ["day", "preset", "at"])


def downgrade() -> None:
    op.drop_index(INDEX, table_name="daily_results")
