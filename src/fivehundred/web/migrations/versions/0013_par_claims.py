"""The claims of the pars a server works out (web/par_work.py).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-07

Expand only: one new table. A server of an earlier revision works out its pars without a
claim and never reads it (its par's insert still stops a second write).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if not sa.inspect(op.get_bind()).has_table("par_claims"):
        op.create_table(
            "par_claims",
            sa.Column("key", sa.String(length=80), nullable=False),
            sa.Column("holder", sa.String(length=32), nullable=False),
            sa.Column("until", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("key"),
        )


def downgrade() -> None:
    op.drop_table("par_claims")
