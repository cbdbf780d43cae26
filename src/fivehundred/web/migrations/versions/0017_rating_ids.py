"""Ratings by id: a partnership is a row of its own, and a rating (and each change in its
history) names its account or its partnership by id.

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07

Expand only: one new table, nullable columns and indexes, filled from the string keys
(``"a:ID"``, ``"p:ID1,ID2"``). A server of an earlier revision still reads and writes the
keys, which the new servers keep writing beside the ids until a later release drops them;
a rating such a server makes during the restart gets its ids at its next change.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def _members(key: str) -> tuple[str, tuple[int, ...]] | None:
    kind, _, ids = key.partition(":")
    try:
        members = tuple(sorted(int(i) for i in ids.split(",")))
    except ValueError:
        return None
    if (kind, len(members)) in {("a", 1), ("p", 2)}:
        return kind, members
    return None


def upgrade() -> None:
    bind = op.get_bind()
    inspector = sa.inspect(bind)
    if not inspector.has_table("partnerships"):
        op.create_table(
            "partnerships",
            sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("first_id", sa.Integer(), nullable=False),
            sa.Column("second_id", sa.Integer(), nullable=False),
            sa.ForeignKeyConstraint(["first_id"], ["accounts.id"]),
            sa.ForeignKeyConstraint(["second_id"], ["accounts.id"]),
            sa.PrimaryKeyConstraint("id"),
            sa.UniqueConstraint("first_id", "second_id", name="uq_partnerships_pair"),
        )
        op.create_index("ix_partnerships_second", "partnerships", ["second_id"])
    for table in ("ratings", "rating_history"):
        if "account_id" not in {c["name"] for c in inspector.get_columns(table)}:
            op.add_column(table, sa.Column("account_id", sa.Integer(), nullable=True))
            op.add_column(table, sa.Column("partnership_id", sa.Integer(), nullable=True))
    indexes = {i["name"] for i in inspector.get_indexes("ratings")}
    if "ix_ratings_account" not in indexes:
        op.create_index("ix_ratings_account", "ratings", ["account_id", "preset"])
        op.create_index("ix_ratings_partnership", "ratings", ["partnership_id", "preset"])
    if "ix_rating_history_partnership" not in {
        i["name"] for i in inspector.get_indexes("rating_history")
    }:
        op.create_index("ix_rating_history_partnership", "rating_history", ["partnership_id"])
    _fill(bind)


def _fill(bind: sa.engine.Connection) -> None:
    """Give every rating and change its ids, from its key (a partnership's row made)."""
    meta = sa.MetaData()
    partnerships = sa.Table("partnerships", meta, autoload_with=bind)
    accounts = {r.id for r in bind.execute(sa.text("SELECT id FROM accounts"))}
    pairs: dict[tuple[int, ...], int] = {
        (r.first_id, r.second_id): r.id for r in bind.execute(sa.select(partnerships))
    }
    for name in ("ratings", "rating_history"):
        table = sa.Table(name, meta, autoload_with=bind)
        keys = [r.key for r in bind.execute(sa.select(table.c.key).distinct())]
        for key in keys:
            parsed = _members(key)
            if parsed is None or any(i not in accounts for i in parsed[1]):
                continue
            kind, members = parsed
            ids: dict[str, int | None] = {"account_id": members[0], "partnership_id": None}
            if kind == "p":
                if members not in pairs:
                    made = bind.execute(
                        partnerships.insert().values(first_id=members[0], second_id=members[1])
                    )
                    pairs[members] = int(made.inserted_primary_key[0])  # type: ignore[index]
                ids = {"account_id": None, "partnership_id": pairs[members]}
            bind.execute(table.update().where(table.c.key == key).values(**ids))


def downgrade() -> None:
    op.drop_index("ix_rating_history_partnership", table_name="rating_history")
    op.drop_index("ix_ratings_partnership", table_name="ratings")
    op.drop_index("ix_ratings_account", table_name="ratings")
    for table in ("rating_history", "ratings"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("partnership_id")
            batch.drop_column("account_id")
    op.drop_index("ix_partnerships_second", table_name="partnerships")
    op.drop_table("partnerships")
