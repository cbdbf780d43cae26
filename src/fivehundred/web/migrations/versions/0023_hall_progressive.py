"""Progressive hall nights: a night's rounds, seating and moves (web/events/hall_rounds.py).

Revision ID: 0023
Revises: 0020
Create Date: 2026-12-07

Expand only: one nullable column. A server of an earlier revision ignores it (its nights
are not progressive); a night opened by one has it NULL: not progressive.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0023"
down_revision = "0022"
branch_labels = None
depends_on = None


def upgrade() -> None:
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("hall_nights")}
    if "progress" not in columns:
        op.add_column("hall_nights", sa.Column("progress", sa.Text(), nullable=True))


def downgrade() -> None:
    op.drop_column("hall_nights", "progress")
