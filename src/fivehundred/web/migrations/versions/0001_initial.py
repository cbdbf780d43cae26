"""The schema of version 1 (every table the server had before migrations).

Revision ID: 0001
Revises:
Create Date: 2026-12-06

A database made by a server of before the migrations has some or all of these tables:
each is created only where it is missing (then the database is at this revision).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _missing(name: str) -> bool:
    return not sa.inspect(op.get_bind()).has_table(name)


def upgrade() -> None:
    if _missing("accounts"):
        op.create_table(
            "accounts",
            sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("name", sa.String(length=60), nullable=False),
            sa.Column("name_key", sa.String(length=60), nullable=False),
            sa.Column("password_hash", sa.String(length=200), nullable=False),
            sa.Column("bot", sa.Boolean(), nullable=False),
            sa.Column("created", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("id"),
            sa.UniqueConstraint("name_key"),
            # ids never used again (a new SQLite database; an older one keeps its table)
            sqlite_autoincrement=True,
        )
    if _missing("buckets"):
        op.create_table(
            "buckets",
            sa.Column("name", sa.String(length=120), nullable=False),
            sa.Column("tokens", sa.Float(), nullable=False),
            sa.Column("at", sa.Float(), nullable=False),
            sa.Column("full_at", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("name"),
        )
        op.create_index("ix_buckets_full_at", "buckets", ["full_at"], unique=False)
    if _missing("game_reviews"):
        op.create_table(
            "game_reviews",
            sa.Column("code", sa.String(length=12), nullable=False),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("at", sa.Float(), nullable=False),
            sa.Column("hands", sa.Integer(), nullable=False),
            sa.Column("calls", sa.Float(), nullable=True),
            sa.Column("discards", sa.Float(), nullable=True),
            sa.Column("cards", sa.Float(), nullable=True),
            sa.Column("tricks_lost", sa.Integer(), nullable=False),
            sa.PrimaryKeyConstraint("code", "seat"),
        )
    if _missing("rated_games"):
        op.create_table(
            "rated_games",
            sa.Column("code", sa.String(length=12), nullable=False),
            sa.Column("at", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("code"),
        )
    if _missing("rating_history"):
        op.create_table(
            "rating_history",
            sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("key", sa.String(length=40), nullable=False),
            sa.Column("preset", sa.String(length=40), nullable=False),
            sa.Column("code", sa.String(length=12), nullable=False),
            sa.Column("mu", sa.Float(), nullable=False),
            sa.Column("sigma", sa.Float(), nullable=False),
            sa.Column("outcome", sa.String(length=10), nullable=False),
            sa.Column("at", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("id"),
        )
        op.create_index("ix_rating_history_key", "rating_history", ["key", "preset"], unique=False)
    if _missing("ratings"):
        op.create_table(
            "ratings",
            sa.Column("key", sa.String(length=40), nullable=False),
            sa.Column("preset", sa.String(length=40), nullable=False),
            sa.Column("mu", sa.Float(), nullable=False),
            sa.Column("sigma", sa.Float(), nullable=False),
            sa.Column("games", sa.Integer(), nullable=False),
            sa.PrimaryKeyConstraint("key", "preset"),
        )
    if _missing("tables"):
        op.create_table(
            "tables",
            sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("code", sa.String(length=12), nullable=False),
            sa.Column("name", sa.String(length=80), nullable=False),
            sa.Column("rules", sa.Text(), nullable=False),
            sa.Column("options", sa.Text(), nullable=False),
            sa.Column("seed", sa.BigInteger(), nullable=False),
            sa.Column("created", sa.Float(), nullable=False),
            sa.Column("finished", sa.Float(), nullable=True),
            sa.Column("winner", sa.Integer(), nullable=True),
            sa.Column("scores", sa.Text(), nullable=False),
            sa.Column("hands_played", sa.Integer(), nullable=False),
            sa.PrimaryKeyConstraint("id"),
            sa.UniqueConstraint("code"),
        )
        op.create_index("ix_tables_finished", "tables", ["finished"], unique=False)
    if _missing("account_seats"):
        op.create_table(
            "account_seats",
            sa.Column("code", sa.String(length=12), nullable=False),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("account_id", sa.Integer(), nullable=False),
            sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
            sa.PrimaryKeyConstraint("code", "seat"),
        )
        op.create_index("ix_account_seats_account", "account_seats", ["account_id"], unique=False)
    if _missing("account_sessions"):
        op.create_table(
            "account_sessions",
            sa.Column("id_hash", sa.String(length=64), nullable=False),
            sa.Column("account_id", sa.Integer(), nullable=False),
            sa.Column("created", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(["account_id"], ["accounts.id"]),
            sa.PrimaryKeyConstraint("id_hash"),
        )
        op.create_index(
            "ix_account_sessions_account", "account_sessions", ["account_id"], unique=False
        )
    if _missing("actions"):
        op.create_table(
            "actions",
            sa.Column("table_id", sa.Integer(), nullable=False),
            sa.Column("version", sa.Integer(), nullable=False),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("action", sa.String(length=20), nullable=False),
            sa.Column("by", sa.String(length=10), nullable=False),
            sa.Column("at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
            sa.PrimaryKeyConstraint("table_id", "version"),
        )
    if _missing("closures"):
        op.create_table(
            "closures",
            sa.Column("table_id", sa.Integer(), nullable=False),
            sa.Column("at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
            sa.PrimaryKeyConstraint("table_id"),
        )
    if _missing("creators"):
        op.create_table(
            "creators",
            sa.Column("table_id", sa.Integer(), nullable=False),
            sa.Column("address", sa.String(length=64), nullable=False),
            sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
            sa.PrimaryKeyConstraint("table_id"),
        )
        op.create_index("ix_creators_address", "creators", ["address"], unique=False)
    if _missing("hands"):
        op.create_table(
            "hands",
            sa.Column("table_id", sa.Integer(), nullable=False),
            sa.Column("number", sa.Integer(), nullable=False),
            sa.Column("contract", sa.String(length=20), nullable=True),
            sa.Column("contractor", sa.Integer(), nullable=True),
            sa.Column("made", sa.Boolean(), nullable=True),
            sa.Column("points", sa.Text(), nullable=False),
            sa.Column("scores", sa.Text(), nullable=False),
            sa.Column("at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
            sa.PrimaryKeyConstraint("table_id", "number"),
        )
    if _missing("inbox"):
        op.create_table(
            "inbox",
            sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("table_id", sa.Integer(), nullable=False),
            sa.Column("version", sa.Integer(), nullable=False),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("action", sa.String(length=20), nullable=False),
            sa.Column("at", sa.Float(), nullable=False),
            sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
            sa.PrimaryKeyConstraint("id"),
        )
        op.create_index("ix_inbox_table", "inbox", ["table_id"], unique=False)
    if _missing("seats"):
        op.create_table(
            "seats",
            sa.Column("table_id", sa.Integer(), nullable=False),
            sa.Column("seat", sa.Integer(), nullable=False),
            sa.Column("kind", sa.String(length=10), nullable=False),
            sa.Column("player", sa.String(length=60), nullable=True),
            sa.Column("name", sa.String(length=60), nullable=True),
            sa.Column("token_hash", sa.String(length=64), nullable=True),
            sa.ForeignKeyConstraint(["table_id"], ["tables.id"]),
            sa.PrimaryKeyConstraint("table_id", "seat"),
        )
        op.create_index("ix_seats_name", "seats", ["name"], unique=False)


def downgrade() -> None:
    raise NotImplementedError("the first schema is not taken back (drop the database)")
