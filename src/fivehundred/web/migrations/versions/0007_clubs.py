"""Clubs: a club, its members and their roles, its invite codes, the requests to join,
its announcements and its own tables (web/clubs.py).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06

Expand only: six new tables. A server of an earlier revision has no clubs and never reads
them, so the two can run side by side during a rolling restart (a club's table made by
the newer one is an ordinary private table to the older one).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def _missing(name: str) -> bool:
    return not sa.inspect(op.get_bind()).has_table(name)


def upgrade() -> None:
    if _missing("clubs"):
        op.create_table(
            "clubs",
            sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("slug", sa.String(length=48), nullable=False),
            sa.Column("name", sa.String(length=40), nullable=False),
            sa.Column("name_key", sa.String(length=40), nullable=False),
            sa.Column("description", sa.String(length=300), nullable=False),
            sa.Column("public", sa.Boolean(), nullable=False),
            sa.Column("owner_id", sa.Integer(), nullable=False),
            sa.Column("created", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("id"),
            sa.UniqueConstraint("slug"),
            sa.UniqueConstraint("name_key"),
            sqlite_autoincrement=True,
        )
        op.create_index("ix_clubs_owner", "clubs", ["owner_id"])
    if _missing("club_members"):
        op.create_table(
            "club_members",
            sa.Column("club_id", sa.Integer(), nullable=False),
            sa.Column("account_id", sa.Integer(), nullable=False),
            sa.Column("role", sa.String(length=10), nullable=False),
            sa.Column("joined", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(["club_id"], ["clubs.id"]),
            sa.PrimaryKeyConstraint("club_id", "account_id"),
        )
        op.create_index("ix_club_members_account", "club_members", ["account_id"])
    if _missing("club_invites"):
        op.create_table(
            "club_invites",
            sa.Column("code", sa.String(length=24), nullable=False),
            sa.Column("club_id", sa.Integer(), nullable=False),
            sa.Column("created", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(["club_id"], ["clubs.id"]),
            sa.PrimaryKeyConstraint("code"),
        )
        op.create_index("ix_club_invites_club", "club_invites", ["club_id"])
    if _missing("club_requests"):
        op.create_table(
            "club_requests",
            sa.Column("club_id", sa.Integer(), nullable=False),
            sa.Column("account_id", sa.Integer(), nullable=False),
            sa.Column("at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(["club_id"], ["clubs.id"]),
            sa.PrimaryKeyConstraint("club_id", "account_id"),
        )
        op.create_index("ix_club_requests_account", "club_requests", ["account_id"])
    if _missing("club_announcements"):
        op.create_table(
            "club_announcements",
            sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("club_id", sa.Integer(), nullable=False),
            sa.Column("account_id", sa.Integer(), nullable=False),
            sa.Column("text", sa.String(length=1000), nullable=False),
            sa.Column("at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(["club_id"], ["clubs.id"]),
            sa.PrimaryKeyConstraint("id"),
        )
        op.create_index("ix_club_announcements_club", "club_announcements", ["club_id", "id"])
    if _missing("club_tables"):
        op.create_table(
            "club_tables",
            sa.Column("code", sa.String(length=12), nullable=False),
            sa.Column("club_id", sa.Integer(), nullable=False),
            sa.Column("created", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(["club_id"], ["clubs.id"]),
            sa.PrimaryKeyConstraint("code"),
        )
        op.create_index("ix_club_tables_club", "club_tables", ["club_id", "created"])


def downgrade() -> None:
    op.drop_index("ix_club_tables_club", table_name="club_tables")
    op.drop_table("club_tables")
    op.drop_index("ix_club_announcements_club", table_name="club_announcements")
    op.drop_table("club_announcements")
    op.drop_index("ix_club_requests_account", table_name="club_requests")
    op.drop_table("club_requests")
    op.drop_index("ix_club_invites_club", table_name="club_invites")
    op.drop_table("club_invites")
    op.drop_index("ix_club_members_account", table_name="club_members")
    op.drop_table("club_members")
    op.drop_index("ix_clubs_owner", table_name="clubs")
    op.drop_table("clubs")
