"""The device each account's seat was taken from (its long-lived cookie, hashed with the
table's code), so that accounts playing from one browser are not rated against each other.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06

Expand only: a new nullable column that servers of revision 0003 never read, so the two
can run side by side during a rolling restart.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    columns = {c["name"] for c in inspector.get_columns("account_seat_addresses")}
    if "device_hash" not in columns:
        op.add_column(
            "account_seat_addresses",
            sa.Column("device_hash", sa.String(length=64), nullable=True),
        )


def downgrade() -> None:
    op.drop_column("account_seat_addresses", "device_hash")
