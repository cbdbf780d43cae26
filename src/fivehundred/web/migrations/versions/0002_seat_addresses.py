"""The address each account's seat was taken from (hashed with the table's code), so that
accounts playing from one address are not rated against each other.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-06

Expand only: a new table that servers of revision 0001 never read, so the two can run side
by side during a rolling restart.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if not sa.inspect(op.get_bind()).has_table("account_seat_addresses"):
        op.create_table(
            "account_seat_addresses",
            sa.Column("code", sa.String(length=12), nullable=False),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("address_hash", sa.String(length=64), nullable=False),
            sa.PrimaryKeyConstraint("code", "seat"),
        )


def downgrade() -> None:
    op.drop_table("account_seat_addresses")
