"""Club nights' choices: the computer level that fills their empty seats and stands in for
a late or dropped player, and the scoring of their standings (web/events/nights*.py).

Revision ID: 0021
Revises: 0020
Create Date: 2026-12-07

Expand only: two nullable columns of ``nights``. A night without them (made by a server of
an earlier revision) is played at the default level and scored by matchpoints, as before;
a server of an earlier revision reads neither.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None

COLUMNS = (("level", 20), ("scoring", 12))


def upgrade() -> None:
    have = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("nights")}
    for name, length in COLUMNS:
        if name not in have:
            op.add_column("nights", sa.Column(name, sa.String(length=length), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("nights") as batch:
        for name, _ in COLUMNS:
            batch.drop_column(name)
