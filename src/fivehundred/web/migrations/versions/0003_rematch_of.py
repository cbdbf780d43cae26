"""Each table's rematch recorded on the new table (``tables.rematch_of``, unique): one
rematch per game, whichever server is asked.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-06

Expand only: a new nullable column and its unique index, which servers of revision 0002
never read, so the two can run side by side during a rolling restart.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("tables")}
    if "rematch_of" not in columns:
        op.add_column("tables", sa.Column("rematch_of", sa.Integer(), nullable=True))
        op.create_index("ux_tables_rematch_of", "tables", ["rematch_of"], unique=True)


def downgrade() -> None:
    op.drop_index("ux_tables_rematch_of", table_name="tables")
    op.drop_column("tables", "rematch_of")
