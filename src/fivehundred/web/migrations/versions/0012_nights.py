"""Club nights: a club's duplicate nights of fixed pairs, their pairs and boards played
(web/events/nights*).

Revision ID: 0012
Revises: 0010 (0011 when it lands)
Create Date: 2026-12-07

Expand only: four new tables. A server of an earlier revision has no nights and never
reads them (a night's table is an ordinary table to it).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def _missing(name: str) -> bool:
    return not sa.inspect(op.get_bind()).has_table(name)


def upgrade() -> None:
    if _missing("nights"):
        op.create_table(
            "nights",
            sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("name", sa.String(length=60), nullable=False),
            sa.Column("club_id", sa.Integer(), nullable=False),
            sa.Column("organiser_id", sa.Integer(), nullable=False),
            sa.Column("preset", sa.String(length=40), nullable=False),
            sa.Column("seed", sa.BigInteger(), nullable=False),
            sa.Column("movement", sa.String(length=12), nullable=True),
            sa.Column("per_round", sa.Integer(), nullable=False),
            sa.Column("rounds", sa.Integer(), nullable=False),
            sa.Column("grace", sa.Float(), nullable=False),
            sa.Column("starts_at", sa.Float(), nullable=True),
            sa.Column("state", sa.String(length=12), nullable=False),
            sa.Column("created", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("id"),
            sqlite_autoincrement=True,
        )
        op.create_index("ix_nights_club", "nights", ["club_id", "created"])
    if _missing("night_pairs"):
        op.create_table(
            "night_pairs",
            sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("night_id", sa.Integer(), nullable=False),
            sa.Column("number", sa.Integer(), nullable=False),
            sa.Column("first_id", sa.Integer(), nullable=True),
            sa.Column("second_id", sa.Integer(), nullable=True),
            sa.ForeignKeyConstraint(["night_id"], ["nights.id"]),
            sa.PrimaryKeyConstraint("id"),
        )
        op.create_index("ux_night_pairs_number", "night_pairs", ["night_id", "number"], unique=True)
    if _missing("night_games"):
        op.create_table(
            "night_games",
            sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("night_id", sa.Integer(), nullable=False),
            sa.Column("round", sa.Integer(), nullable=False),
            sa.Column("table_no", sa.Integer(), nullable=False),
            sa.Column("seq", sa.Integer(), nullable=False),
            sa.Column("board", sa.Integer(), nullable=False),
            sa.Column("ns_pair", sa.Integer(), nullable=False),
            sa.Column("ew_pair", sa.Integer(), nullable=False),
            sa.Column("code", sa.String(length=12), nullable=True),
            sa.Column("lease_until", sa.Float(), nullable=True),
            sa.Column("finished", sa.Float(), nullable=True),
            sa.Column("result", sa.Text(), nullable=True),
            sa.ForeignKeyConstraint(["night_id"], ["nights.id"]),
            sa.PrimaryKeyConstraint("id"),
        )
        op.create_index(
            "ux_night_games_place",
            "night_games",
            ["night_id", "round", "table_no", "seq"],
            unique=True,
        )
        op.create_index("ux_night_games_code", "night_games", ["code"], unique=True)
    if _missing("night_pars"):
        op.create_table(
            "night_pars",
            sa.Column("night_id", sa.Integer(), nullable=False),
            sa.Column("board", sa.Integer(), nullable=False),
            sa.Column("par", sa.Text(), nullable=False),
            sa.ForeignKeyConstraint(["night_id"], ["nights.id"]),
            sa.PrimaryKeyConstraint("night_id", "board"),
        )


def downgrade() -> None:
    for name in ("night_pars", "night_games", "night_pairs", "nights"):
        op.drop_table(name)
