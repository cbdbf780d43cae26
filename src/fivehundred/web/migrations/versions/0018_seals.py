"""Sealed tables: a table's seal key, and the seals lifted (web/seals.py).

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07

Expand only: one nullable column and one new table. A server of an earlier revision
writes no seal and reads none (its club nights' tables stay unsealed, as before).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if "sealed" not in {c["name"] for c in inspector.get_columns("tables")}:
        op.add_column("tables", sa.Column("sealed", sa.String(length=40), nullable=True))
    if not inspector.has_table("seals"):
        op.create_table(
            "seals",
            sa.Column("key", sa.String(length=40), nullable=False),
            sa.Column("lifted", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("key"),
        )


def downgrade() -> None:
    op.drop_table("seals")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("sealed")
