"""The play-now queue in the database (every server of one database takes a join) and
the outbox of the work that follows a finished game (ratings, reviews).

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06

Expand only: two new tables. A server of an earlier revision keeps its queue in its own
memory and rates a game in its own task; it never reads these tables, so the two can run
side by side during a rolling restart (a game finished by the older one is rated by it).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _missing(name: str) -> bool:
    return not sa.inspect(op.get_bind()).has_table(name)


def upgrade() -> None:
    if _missing("play_now_queue"):
        op.create_table(
            "play_now_queue",
            sa.Column("ticket_hash", sa.String(length=64), nullable=False),
            sa.Column("preset", sa.String(length=40), nullable=False),
            sa.Column("level", sa.String(length=30), nullable=False),
            sa.Column("wait", sa.Float(), nullable=False),
            sa.Column("name", sa.String(length=60), nullable=False),
            sa.Column("account_id", sa.Integer(), nullable=True),
            sa.Column("rating", sa.Float(), nullable=False),
            sa.Column("client", sa.String(length=64), nullable=False),
            sa.Column("since", sa.Float(), nullable=False),
            sa.Column("arrived", sa.Integer(), nullable=False),
            sa.Column("last_seen", sa.Float(), nullable=False),
            sa.Column("claim", sa.String(length=32), nullable=True),
            sa.Column("claimed_at", sa.Float(), nullable=True),
            sa.Column("seat", sa.Text(), nullable=True),
            sa.PrimaryKeyConstraint("ticket_hash"),
        )
        op.create_index("ix_play_now_queue_account", "play_now_queue", ["account_id"])
        op.create_index("ix_play_now_queue_client", "play_now_queue", ["client"])
    if _missing("outbox"):
        op.create_table(
            "outbox",
            sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("kind", sa.String(length=20), nullable=False),
            sa.Column("code", sa.String(length=12), nullable=False),
            sa.Column("at", sa.Float(), nullable=False),
            sa.Column("taken_until", sa.Float(), nullable=True),
            sa.Column("tries", sa.Integer(), nullable=False),
            sa.PrimaryKeyConstraint("id"),
        )
        op.create_index("ix_outbox_kind", "outbox", ["kind", "id"])


def downgrade() -> None:
    op.drop_index("ix_outbox_kind", table_name="outbox")
    op.drop_table("outbox")
    op.drop_index("ix_play_now_queue_client", table_name="play_now_queue")
    op.drop_index("ix_play_now_queue_account", table_name="play_now_queue")
    op.drop_table("play_now_queue")
