"""Duplicate tournaments: an event's secret seed, from which each round's tables are all
dealt the same cards.

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-07

Expand only: one nullable column. A server of an earlier revision neither writes nor reads
it: the events it makes deal every table its own cards, as before, and the duplicate
events made by the new servers, should an earlier one open a round's tables during the
restart, are dealt as ordinary ones (and unsealed) for that round.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if "duplicate_seed" not in {c["name"] for c in inspector.get_columns("events")}:
        op.add_column("events", sa.Column("duplicate_seed", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_column("duplicate_seed")
