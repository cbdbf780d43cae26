"""Club nights' check-in: a night may seat only the entrants who checked in
(``nights.check_in``), each entry's time of checking in (``night_pairs.present``).

Revision ID: 0025
Revises: 0024
Create Date: 2026-12-07

Expand only: two nullable columns. A night without them (made by a server of an earlier
revision) seats every entrant, as before; a server of an earlier revision reads neither.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0025"
down_revision = "0024"
branch_labels = None
depends_on = None


def upgrade() -> None:
    inspect = sa.inspect(op.get_bind())
    if "check_in" not in {c["name"] for c in inspect.get_columns("nights")}:
        op.add_column("nights", sa.Column("check_in", sa.Boolean(), nullable=True))
    if "present" not in {c["name"] for c in inspect.get_columns("night_pairs")}:
        op.add_column("night_pairs", sa.Column("present", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("night_pairs") as batch:
        batch.drop_column("present")
    with op.batch_alter_table("nights") as batch:
        batch.drop_column("check_in")
