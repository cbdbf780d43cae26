"""Events: tournaments, their pairs and players, rounds and games; leagues' seasons, pairs
and games (web/events/).

Revision ID: 0010
Revises: 0008
Create Date: 2026-12-06

Expand only: eight new tables. A server of an earlier revision has no events and never
reads them, so the two can run side by side during a rolling restart (an event's game is
an ordinary table to the older one; its result is taken by a newer server's outbox).
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def _missing(name: str) -> bool:
    return not sa.inspect(op.get_bind()).has_table(name)


def upgrade() -> None:
    _events()
    _rounds()
    _leagues()


def _events() -> None:
    if _missing("events"):
        op.create_table(
            "events",
            sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("name", sa.String(length=60), nullable=False),
            sa.Column("kind", sa.String(length=12), nullable=False),
            sa.Column("organiser_id", sa.Integer(), nullable=False),
            sa.Column("club_id", sa.Integer(), nullable=True),
            sa.Column("preset", sa.String(length=40), nullable=False),
            sa.Column("variants", sa.Text(), nullable=False),
            sa.Column("target", sa.Integer(), nullable=False),
            sa.Column("rounds", sa.Integer(), nullable=False),
            sa.Column("grace", sa.Float(), nullable=False),
            sa.Column("turn_timer", sa.Float(), nullable=True),
            sa.Column("max_pairs", sa.Integer(), nullable=False),
            sa.Column("starts_at", sa.Float(), nullable=True),
            sa.Column("state", sa.String(length=12), nullable=False),
            sa.Column("round", sa.Integer(), nullable=False),
            sa.Column("created", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("id"),
            sqlite_autoincrement=True,
        )
        op.create_index("ix_events_state", "events", ["state", "starts_at"])
    if _missing("event_pairs"):
        op.create_table(
            "event_pairs",
            sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("event_id", sa.Integer(), nullable=False),
            sa.Column("first_id", sa.Integer(), nullable=False),
            sa.Column("second_id", sa.Integer(), nullable=False),
            sa.Column("seed", sa.Integer(), nullable=False),
            sa.Column("checked_in", sa.Boolean(), nullable=False),
            sa.Column("withdrawn", sa.Boolean(), nullable=False),
            sa.ForeignKeyConstraint(["event_id"], ["events.id"]),
            sa.PrimaryKeyConstraint("id"),
        )
        op.create_index("ix_event_pairs_event", "event_pairs", ["event_id", "seed"])
    if _missing("event_players"):
        op.create_table(
            "event_players",
            sa.Column("event_id", sa.Integer(), nullable=False),
            sa.Column("account_id", sa.Integer(), nullable=False),
            sa.Column("pair_id", sa.Integer(), nullable=False),
            sa.ForeignKeyConstraint(["event_id"], ["events.id"]),
            sa.PrimaryKeyConstraint("event_id", "account_id"),
        )
        op.create_index("ix_event_players_account", "event_players", ["account_id"])


def _rounds() -> None:
    if _missing("event_rounds"):
        op.create_table(
            "event_rounds",
            sa.Column("event_id", sa.Integer(), nullable=False),
            sa.Column("number", sa.Integer(), nullable=False),
            sa.Column("started", sa.Float(), nullable=False),
            sa.Column("finished", sa.Float(), nullable=True),
            sa.Column("byes", sa.Text(), nullable=False),
            sa.Column("slots", sa.Text(), nullable=True),
            sa.ForeignKeyConstraint(["event_id"], ["events.id"]),
            sa.PrimaryKeyConstraint("event_id", "number"),
        )
    if _missing("event_games"):
        op.create_table(
            "event_games",
            sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("event_id", sa.Integer(), nullable=False),
            sa.Column("round", sa.Integer(), nullable=False),
            sa.Column("number", sa.Integer(), nullable=False),
            sa.Column("ns_pair", sa.Integer(), nullable=False),
            sa.Column("ew_pair", sa.Integer(), nullable=False),
            sa.Column("code", sa.String(length=12), nullable=True),
            sa.Column("lease_until", sa.Float(), nullable=True),
            sa.Column("finished", sa.Float(), nullable=True),
            sa.Column("ns_points", sa.Integer(), nullable=True),
            sa.Column("ew_points", sa.Integer(), nullable=True),
            sa.Column("winner", sa.Integer(), nullable=True),
            sa.Column("absent", sa.Text(), nullable=False),
            sa.ForeignKeyConstraint(["event_id"], ["events.id"]),
            sa.PrimaryKeyConstraint("id"),
        )
        op.create_index(
            "ux_event_games_number", "event_games", ["event_id", "round", "number"], unique=True
        )
        op.create_index("ux_event_games_code", "event_games", ["code"], unique=True)


def _leagues() -> None:
    if _missing("league_seasons"):
        op.create_table(
            "league_seasons",
            sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("name", sa.String(length=60), nullable=False),
            sa.Column("organiser_id", sa.Integer(), nullable=False),
            sa.Column("follows", sa.Integer(), nullable=True),
            sa.Column("weeks", sa.Integer(), nullable=False),
            sa.Column("division_size", sa.Integer(), nullable=False),
            sa.Column("per_week", sa.Integer(), nullable=False),
            sa.Column("moves", sa.Integer(), nullable=False),
            sa.Column("starts_at", sa.Float(), nullable=False),
            sa.Column("state", sa.String(length=12), nullable=False),
            sa.Column("created", sa.Float(), nullable=False),
            sa.PrimaryKeyConstraint("id"),
            sqlite_autoincrement=True,
        )
        op.create_index("ix_league_seasons_state", "league_seasons", ["state", "starts_at"])
        op.create_index("ux_league_seasons_follows", "league_seasons", ["follows"], unique=True)
    if _missing("league_pairs"):
        op.create_table(
            "league_pairs",
            sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
            sa.Column("season_id", sa.Integer(), nullable=False),
            sa.Column("first_id", sa.Integer(), nullable=False),
            sa.Column("second_id", sa.Integer(), nullable=False),
            sa.Column("place", sa.Integer(), nullable=False),
            sa.Column("division", sa.Integer(), nullable=True),
            sa.ForeignKeyConstraint(["season_id"], ["league_seasons.id"]),
            sa.PrimaryKeyConstraint("id"),
        )
        for column in ("first", "second"):
            op.create_index(
                f"ux_league_pairs_{column}",
                "league_pairs",
                ["season_id", f"{column}_id"],
                unique=True,
            )
    if _missing("league_games"):
        op.create_table(
            "league_games",
            sa.Column("season_id", sa.Integer(), nullable=False),
            sa.Column("code", sa.String(length=12), nullable=False),
            sa.Column("week", sa.Integer(), nullable=False),
            sa.Column("at", sa.Float(), nullable=False),
            sa.Column("a_pair", sa.Integer(), nullable=False),
            sa.Column("b_pair", sa.Integer(), nullable=False),
            sa.Column("a_points", sa.Integer(), nullable=False),
            sa.Column("b_points", sa.Integer(), nullable=False),
            sa.Column("winner", sa.String(length=1), nullable=True),
            sa.ForeignKeyConstraint(["season_id"], ["league_seasons.id"]),
            sa.PrimaryKeyConstraint("season_id", "code"),
        )


def downgrade() -> None:
    op.drop_table("league_games")
    for column in ("second", "first"):
        op.drop_index(f"ux_league_pairs_{column}", table_name="league_pairs")
    op.drop_table("league_pairs")
    op.drop_index("ux_league_seasons_follows", table_name="league_seasons")
    op.drop_index("ix_league_seasons_state", table_name="league_seasons")
    op.drop_table("league_seasons")
    op.drop_index("ux_event_games_code", table_name="event_games")
    op.drop_index("ux_event_games_number", table_name="event_games")
    op.drop_table("event_games")
    op.drop_table("event_rounds")
    op.drop_index("ix_event_players_account", table_name="event_players")
    op.drop_table("event_players")
    op.drop_index("ix_event_pairs_event", table_name="event_pairs")
    op.drop_table("event_pairs")
    op.drop_index("ix_events_state", table_name="events")
    op.drop_table("events")
