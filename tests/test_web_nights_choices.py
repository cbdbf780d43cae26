"""A club night's choices (web/events/nights*.py): the computer level chosen by the club,
which plays the computer pair's seats from the start and stands in for a late or dropped
player; the scoring of its standings (matchpoints, total points or games won), and its
results round by round. On SQLite."""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa

import test_web_nights
from fivehundred.web.events import nights_words
from fivehundred.web.schema import night_games, nights, seats, tables
from fivehundred.words import LEVEL_WORDS
from test_web_nights import club_of, scheduled
from test_web_support import wait_for

client = test_web_nights.client


def test_the_clubs_computer_level_fills_the_empty_seats_and_stands_in(client: Any) -> None:
    client.app_state.nights.pars = False
    slug, people = club_of(client, 6)
    body = {"club": slug, "name": "Level night"}
    for wrong in ("pimc:8", "nobody", "cmd:cat"):  # the lobby offers none of these
        refused = people[0].post("/api/nights", {**body, "level": wrong})
        assert refused.status_code == 422, wrong
        assert "easy" in refused.json()["detail"]
    night = scheduled(people[0], slug, people, per_round=1, rounds=1, level="easy")
    shown = people[1].get(f"/api/nights/{night}").json()
    assert shown["level"] == "easy"
    assert LEVEL_WORDS["easy"] in people[1].get(f"/n/{night}").text
    assert people[0].post(f"/api/nights/{night}/start").json() == {"started": True}
    engine = client.app_state.store.store.engine

    def made() -> list[Any] | None:
        with engine.connect() as db:
            games = db.execute(sa.select(night_games).where(night_games.c.night_id == night)).all()
        return games if games and all(g.code for g in games) else None

    games = wait_for(made, 60, "the night's tables")
    assert len(games) == 2  # three pairs and the computer pair (number 3), two tables
    with engine.connect() as db:
        for game in games:
            table = db.execute(sa.select(tables).where(tables.c.code == game.code)).one()
            assert json.loads(table.options)["stand_in"] == "easy"  # for the late and dropped
            kinds = db.execute(
                sa.select(seats.c.seat, seats.c.kind, seats.c.player)
                .where(seats.c.table_id == table.id)
                .order_by(seats.c.seat)
            ).all()
            computer = 3 in (game.ns_pair, game.ew_pair)
            its_seats = {1, 3} if game.ew_pair == 3 else {0, 2}
            for seat, kind, player in kinds:
                if computer and seat in its_seats:  # the computer pair: the level's own
                    assert (kind, player) == ("computer", "easy")
                else:
                    assert kind != "computer"


def test_a_night_made_without_a_level_plays_the_default_one(client: Any) -> None:
    """Made by a server before the choice (the column empty): the default level."""
    client.app_state.nights.pars = False
    slug, people = club_of(client, 4)
    night = scheduled(people[0], slug, people)
    with client.app_state.store.store.engine.begin() as db:
        db.execute(nights.update().where(nights.c.id == night).values(level=None))
    shown = people[0].get(f"/api/nights/{night}").json()
    assert shown["level"] == "medium"
    assert nights_words.LEVEL.format(level=LEVEL_WORDS["medium"]) in (
        people[0].get(f"/n/{night}").text
    )
