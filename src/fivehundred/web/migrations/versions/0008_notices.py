"""Notices: the list each account is told ("a game ended", "your turn") and its choice of
them (which kinds, in the list and by e-mail; its address).

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06

Expand only: two new tables. A server of an earlier revision never reads them and makes
no notices, so the two can run side by side during a rolling restart (a game finished by
the older one makes no "game ended" notice).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def _missing(name: str) -> bool:
    return not sa.inspect(op.get_bind()).has_table(name)


def upgrade() -> None:
    if _missing("notices"):
        op.create_table(
            "notices",
            sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("account_id", sa.Integer(), nullable=False),
            sa.Column("kind", sa.String(length=20), nullable=False),
            sa.Column("key", sa.String(length=60), nullable=False),
            sa.Column("code", sa.String(length=12), nullable=True),
            sa.Column("text", sa.String(length=300), nullable=False),
            sa.Column("link", sa.String(length=200), nullable=False),
            sa.Column("at", sa.Float(), nullable=False),
            sa.Column("app", sa.Boolean(), nullable=False),
            sa.Column("read", sa.Boolean(), nullable=False),
            sa.Column("mail", sa.Integer(), nullable=False),
            sa.Column("mail_until", sa.Float(), nullable=True),
            sa.Column("mail_tries", sa.Integer(), nullable=False),
            sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
            sa.PrimaryKeyConstraint("id"),
        )
        op.create_index("ux_notices_key", "notices", ["account_id", "key"], unique=True)
        op.create_index("ix_notices_mail", "notices", ["mail", "id"])
    if _missing("notice_settings"):
        op.create_table(
            "notice_settings",
            sa.Column("account_id", sa.Integer(), autoincrement=False, nullable=False),
            sa.Column("email", sa.String(length=254), nullable=True),
            sa.Column("kinds", sa.Text(), nullable=False),
            sa.Column("unsubscribe", sa.String(length=64), nullable=False),
            sa.ForeignKeyConstraint(["account_id"], ["accounts.id"], ondelete="CASCADE"),
            sa.PrimaryKeyConstraint("account_id"),
            sa.UniqueConstraint("unsubscribe"),
        )


def downgrade() -> None:
    op.drop_table("notice_settings")
    op.drop_index("ix_notices_mail", table_name="notices")
    op.drop_index("ux_notices_key", table_name="notices")
    op.drop_table("notices")
