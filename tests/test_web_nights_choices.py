"""A club night's choices (web/events/nights*.py): the computer level chosen by the club,
which plays the computer pair's seats from the start and stands in for a late or dropped
player; the scoring of its standings (matchpoints, total points or games won), and its
results round by round. On SQLite."""

from __future__ import annotations

import csv
import io
import json
from typing import Any

import pytest
import sqlalchemy as sa

import test_web_nights
from fivehundred.boards import BoardResult, standings
from fivehundred.web.events import nights_words
from fivehundred.web.events.nights_scoring import night_standings
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


def result(board: int, pair: str, seat: int, ns: int, ew: int) -> BoardResult:
    """A result with its points only (the scoring reads no record)."""
    return BoardResult(board, pair, seat, -1, 0, 0, (ns, ew), {})


def two_boards() -> tuple[dict[int, list[BoardResult]], dict[tuple[int, str], int]]:
    """Four pairs, A and B North-South, C and D East-West; board 1 in round 1 (A–C 120 to
    20, B–D -100 to 30), board 2 in round 2 (A–D passed in, B–C 40 to 10)."""
    games = [(1, "A", "C", 120, 20), (1, "B", "D", -100, 30), (2, "A", "D", 0, 0)]
    games.append((2, "B", "C", 40, 10))
    results: dict[int, list[BoardResult]] = {}
    for board, ns, ew, ns_points, ew_points in games:
        results.setdefault(board, []).extend(
            [result(board, ns, 0, ns_points, ew_points), result(board, ew, 1, ns_points, ew_points)]
        )
    rounds = {(b, p.entrant): b for b, on in results.items() for p in on}
    return results, rounds


def test_each_scoring_orders_the_pairs_by_its_own_figure_round_by_round() -> None:
    results, rounds = two_boards()

    def table(scoring: str) -> list[tuple[int, str, Any, list[Any]]]:
        lines = night_standings(results, rounds, {}, scoring, 2)
        return [(s["place"], s["pair"], s["score"], s["rounds"]) for s in lines]

    # matchpoints in the same direction: A and B beat each other once; D beat C twice
    assert table("matchpoints") == [
        (1, "D", 100.0, [100.0, 100.0]),
        (2, "A", 50.0, [100.0, 0.0]),
        (2, "B", 50.0, [0.0, 100.0]),
        (4, "C", 0.0, [0.0, 0.0]),
    ]
    # the same places as the duplicate boards' own standings
    flat = [r for on in results.values() for r in on]
    assert [(s.place, s.entrant) for s in standings(flat)] == [
        (p, n) for p, n, _, _ in table("matchpoints")
    ]
    # total points: each side's own score on each board (a lost contract's minus too)
    assert table("points") == [
        (1, "A", 120, [120, 0]),
        (2, "C", 30, [20, 10]),
        (2, "D", 30, [30, 0]),
        (4, "B", -60, [-100, 40]),
    ]
    # games won: a half each for the board passed in; A and D level, A more points
    assert table("games") == [
        (1, "A", 1.5, [1.0, 0.5]),
        (2, "D", 1.5, [1.0, 0.5]),
        (3, "B", 1.0, [0.0, 1.0]),
        (4, "C", 0.0, [0.0, 0.0]),
    ]
    line = night_standings(results, rounds, {}, "games", 3)[0]
    assert line["rounds"] == [1.0, 0.5, None]  # a round not played
    assert (line["percent"], line["points"], line["won"], line["boards"]) == (50.0, 120, 1.5, 2)
    with pytest.raises(ValueError):
        night_standings(results, rounds, {}, "imps", 2)


def test_a_night_is_shown_in_the_scoring_its_club_chose(client: Any) -> None:
    """One night played (two rounds of two boards), then shown in each scoring."""
    client.app_state.nights.pars = False
    slug, people = club_of(client, 8)
    refused = people[0].post("/api/nights", {"club": slug, "name": "Imps", "scoring": "imps"})
    assert refused.status_code == 422 and "games" in refused.json()["detail"]
    night = scheduled(people[0], slug, people, per_round=2, rounds=2, scoring="games")
    assert people[1].get(f"/api/nights/{night}").json()["scoring"] == "games"
    assert people[0].post(f"/api/nights/{night}/start").json() == {"started": True}

    def done() -> dict[str, Any] | None:
        shown: dict[str, Any] = people[3].get(f"/api/nights/{night}").json()
        return shown if shown["state"] == "finished" else None

    shown = wait_for(done, test_web_nights.NIGHT_SECONDS, "the night's end")
    # every pair's games and points, counted again from the travellers
    won: dict[str, float] = {}
    points: dict[str, int] = {}
    for board in shown["travellers"]:
        for r in board["results"]:
            side = 0 if r["direction"] == "NS" else 1
            own = r["net"] if side == 0 else -r["net"]
            won[r["entrant"]] = won.get(r["entrant"], 0) + (
                1 if own > 0 else 0.5 if own == 0 else 0
            )
            points[r["entrant"]] = points.get(r["entrant"], 0) + r["points"][side]
    lines = shown["standings"]
    assert {s["pair"]: s["score"] for s in lines} == won
    assert {s["pair"]: s["points"] for s in lines} == points
    assert [(s["won"], s["points"]) for s in lines] == sorted(
        ((s["won"], s["points"]) for s in lines), reverse=True
    )
    assert all(sum(s["rounds"]) == s["won"] and len(s["rounds"]) == 2 for s in lines)
    page = people[3].get(f"/n/{night}").text
    heading = nights_words.ROUNDS_HEADING.format(scoring=nights_words.SCORING_LABELS["games"])
    assert heading in page and nights_words.SCORING.format(scoring="Games won") in page
    assert nights_words.PERCENT not in page
    sheet = list(csv.reader(io.StringIO(people[3].get(f"/api/nights/{night}/results.csv").text)))
    assert sheet[0] == [
        nights_words.PLACE,
        nights_words.PAIR,
        nights_words.BOARDS,
        "Games won",
        "Total points",
        nights_words.AGAINST_PAR,
        nights_words.COMPUTER_BOARDS,
        "Round 1",
        "Round 2",
    ]
    assert [row[1] for row in sheet[1:]] == [s["pair"] for s in lines]
    assert [[float(v) for v in row[7:]] for row in sheet[1:]] == [s["rounds"] for s in lines]
    engine = client.app_state.store.store.engine
    for scoring, figure in (("points", "points"), ("matchpoints", "percent"), (None, "percent")):
        with engine.begin() as db:  # None: a night made before the choice
            db.execute(nights.update().where(nights.c.id == night).values(scoring=scoring))
        again = people[3].get(f"/api/nights/{night}").json()["standings"]
        assert [s[figure] for s in again] == sorted((s[figure] for s in again), reverse=True)
        assert all(s["score"] == s[figure] for s in again)
        head = list(csv.reader(io.StringIO(people[3].get(f"/api/nights/{night}/results.csv").text)))
        assert head[0][3] == nights_words.SCORE_HEADS[scoring or "matchpoints"]
