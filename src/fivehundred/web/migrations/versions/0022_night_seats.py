"""Club nights of single players (individual and progressive movements): each game's
four players (web/events/nights_players.py).

Revision ID: 0022
Revises: 0020
Create Date: 2026-12-07

Expand only: one nullable column. A server of an earlier revision reads it nowhere: it
would seat a game of such a night by its ``ns_pair``/``ew_pair`` (the South and West
players' numbers), so schedule no individual or progressive night before every server
runs this revision (the nights of pairs are unchanged).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0022"
down_revision = "0021"
branch_labels = None
depends_on = None


def upgrade() -> None:
    inspector = sa.inspect(op.get_bind())
    if "seats" not in {c["name"] for c in inspector.get_columns("night_games")}:
        op.add_column("night_games", sa.Column("seats", sa.String(length=40), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("night_games") as batch:
        batch.drop_column("seats")
