"""Club nights of single players (web/events/nights_players.py): an individual night seats
its players by the individual movement (partners rotating, computers filling the field to
a multiple of four) and a progressive night makes each round's tables from the round
before's results (each table's winners up, losers down, partners split) once every table
has ended it; the standings are per player. Through the API on SQLite."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from types import SimpleNamespace
from typing import Any

import sqlalchemy as sa

from fivehundred.boards import BoardResult
from fivehundred.record import replay_hand
from fivehundred.web.events import nights_words
from fivehundred.web.events.nights_players import seating
from fivehundred.web.events.nights_store import night_board
from fivehundred.web.events.progressive import EW, NS, next_round, pairs_of, table_winner
from fivehundred.web.schema import night_games, nights, tables
from test_web_nights import NIGHT_SECONDS, club_of
from test_web_nights import client as client  # the fixture
from test_web_support import wait_for


def alone(admin: Any, slug: str, people: list[Any], movement: str, **facts: Any) -> int:
    body = {"club": slug, "name": "Solo night", "grace": 1, "movement": movement, **facts}
    made = admin.post("/api/nights", body)
    assert made.status_code == 201, made.text
    night = int(made.json()["id"])
    for number, person in enumerate(people, 1):
        answer = person.post(f"/api/nights/{night}/players")
        assert answer.status_code == 201 and answer.json() == {"player": number}, answer.text
    return night


def games_of(client: Any, night: int) -> list[Any]:
    engine = client.app_state.store.store.engine
    with engine.connect() as db:
        return list(
            db.execute(
                sa.select(night_games)
                .where(night_games.c.night_id == night)
                .order_by(night_games.c.round, night_games.c.table_no, night_games.c.seq)
            ).all()
        )


def finished(person: Any, night: int) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        shown: dict[str, Any] = person.get(f"/api/nights/{night}").json()
        return shown if shown["state"] == "finished" else None

    return dict(wait_for(done, NIGHT_SECONDS, "the night's end"))


def check_standings(shown: dict[str, Any], players: int, boards: int) -> None:
    """Each player's percentage is the mean of their partnerships' on the travellers."""
    percents: dict[str, list[float]] = {}
    for board in shown["travellers"]:
        for row in board["results"]:
            for player in row["entrant"].split(" & "):
                percents.setdefault(player, []).append(row["percent"])
    standings = shown["standings"]
    assert len(standings) == players and all(s["boards"] == boards for s in standings)
    for s in standings:
        mean = sum(percents[s["pair"]]) / len(percents[s["pair"]])
        assert abs(s["percent"] - round(mean, 1)) < 1e-9
        # nobody came: the computer stood in for every person on every board (a computer
        # player is no one's stand-in)
        assert s["computer"] == (0 if s["pair"].startswith("computer") else boards)
    assert [s["percent"] for s in standings] == sorted(
        (s["percent"] for s in standings), reverse=True
    )


def test_an_individual_night_rotates_partners_and_ranks_each_player(client: Any) -> None:
    client.app_state.nights.pars = False
    slug, people = club_of(client, 7)
    night = alone(people[0], slug, people[1:], "individual", per_round=1, rounds=3)
    again = people[1].post(f"/api/nights/{night}/players")
    assert again.status_code == 409 and again.json()["detail"] == nights_words.ALREADY_ENTERED
    as_pair = people[0].post(f"/api/nights/{night}/pairs", {"partner": "Member1"})
    assert as_pair.status_code == 409 and as_pair.json()["detail"] == nights_words.ENTER_ALONE
    before = people[1].get(f"/api/nights/{night}").json()
    assert before["movement"] == "individual" and before["pairs"] == []
    assert [p["name"] for p in before["players"]] == [p.name for p in people[1:]]
    assert people[0].post(f"/api/nights/{night}/start").json() == {"started": True}
    shown = people[1].get(f"/api/nights/{night}").json()
    # six players and two computers: two tables, every round the same board at both
    assert [p["name"] for p in shown["players"]][6:] == ["computer 7", "computer 8"]
    assert shown["games"] == 3 * 2
    seats = shown["seating"]
    assert {s["round"] for s in seats} == {1} and len(seats) == 8
    assert Counter((s["table"], s["seat"]) for s in seats) == {
        (t, seat): 1 for t in (1, 2) for seat in nights_words.SEAT_LABELS
    }
    mine = shown["my_seat"]
    assert mine == next(s for s in seats if s["player"] == "Member1")
    page = people[1].get(f"/n/{night}").text
    assert nights_words.MOVEMENT_LABELS["individual"] in page and 'id="my-seat"' in page
    games = games_of(client, night)
    partners: set[frozenset[int]] = set()
    for round_no in (1, 2, 3):
        played = [g for g in games if g.round == round_no]
        assert {g.board for g in played} == {round_no}
        seated = [p for g in played for p in json.loads(g.seats)]
        assert sorted(seated) == list(range(8))  # everyone once a round
        for g in played:
            s, w, n, e = json.loads(g.seats)
            for pair in (frozenset((s, n)), frozenset((w, e))):
                assert pair not in partners  # never the same partner twice
                partners.add(pair)
    shown = finished(people[2], night)
    check_standings(shown, 8, 3)
    assert shown["seating"] == [] and shown["my_seat"] is None
    sheet = people[2].get(f"/api/nights/{night}/results.csv")
    lines = list(csv.reader(io.StringIO(sheet.text)))
    assert lines[0][1] == nights_words.PLAYER
    assert [line[1] for line in lines[1:]] == [s["pair"] for s in shown["standings"]]


def test_a_progressive_night_moves_winners_up_once_every_table_has_ended(client: Any) -> None:
    client.app_state.nights.pars = False
    slug, people = club_of(client, 8)
    night = alone(people[0], slug, people, "progressive", per_round=2, rounds=2)
    assert people[0].post(f"/api/nights/{night}/start").json() == {"started": True}
    first = games_of(client, night)
    assert {g.round for g in first} == {1} and len(first) == 2 * 2  # round 2 waits
    assert people[0].get(f"/api/nights/{night}").json()["games"] == 2 * 2 * 2  # in all
    assert [json.loads(g.seats) for g in first if g.seq == 1] == [[0, 1, 2, 3], [4, 5, 6, 7]]
    shown = finished(people[1], night)
    games = games_of(client, night)
    assert len(games) == 2 * 2 * 2
    engine = client.app_state.store.store.engine
    with engine.connect() as db:
        row = db.execute(sa.select(nights).where(nights.c.id == night)).one()
        made = dict(db.execute(sa.select(tables.c.code, tables.c.created)).all())
        ended = dict(db.execute(sa.select(tables.c.code, tables.c.finished)).all())

    def net(game: Any) -> int:
        board = night_board(row.preset, row.seed, game.board)
        state = replay_hand(json.loads(game.result)["hand"])
        return BoardResult.from_state(board, "", state, 0).net

    round_one = [[g for g in games if g.round == 1 and g.table_no == t] for t in (1, 2)]
    before = [tuple(json.loads(boards[0].seats)) for boards in round_one]
    winners = [table_winner([net(g) for g in boards]) for boards in round_one]
    after = [tuple(json.loads(g.seats)) for g in games if g.round == 2 and g.seq == 1]
    assert after == next_round(before, winners)
    # the top table's winners stayed, the bottom's losers stayed, everyone split
    assert set(pairs_of(before[0], winners[0])) <= set(after[0])
    assert set(pairs_of(before[1], 1 - winners[1])) <= set(after[1])
    # round 2's tables were made after every table of round 1 had ended
    assert min(made[g.code] for g in games if g.round == 2) >= max(
        ended[g.code] for g in games if g.round == 1
    )
    check_standings(shown, 8, 4)
    won = {s["pair"]: s["rounds_won"] for s in shown["standings"]}
    assert sum(won.values()) == 2 * 2 * 2  # two winners a table a round
    for round_no in (1, 2):
        boards = [[g for g in games if g.round == round_no and g.table_no == t] for t in (1, 2)]
        for played in boards:
            side = table_winner([net(g) for g in played])
            for p in pairs_of(tuple(json.loads(played[0].seats)), side):
                assert won[f"Member{p}"] >= 1
    lines = list(csv.reader(io.StringIO(people[1].get(f"/api/nights/{night}/results.csv").text)))
    column = lines[0].index(nights_words.WON)
    assert [int(line[column]) for line in lines[1:]] == [
        s["rounds_won"] for s in shown["standings"]
    ]


def test_a_night_of_single_players_needs_four_and_a_night_of_pairs_takes_no_single(
    client: Any,
) -> None:
    client.app_state.nights.pars = False
    slug, people = club_of(client, 4)
    night = alone(people[0], slug, people[:3], "progressive")
    refused = people[0].post(f"/api/nights/{night}/start")
    assert refused.status_code == 409
    assert refused.json()["detail"] == nights_words.TOO_FEW_PLAYERS.format(count=4)
    pairs = people[0].post("/api/nights", {"club": slug, "name": "Pairs night"}).json()["id"]
    single = people[1].post(f"/api/nights/{pairs}/players")
    assert single.status_code == 409 and single.json()["detail"] == nights_words.ENTER_AS_PAIR
    bad = people[0].post("/api/nights", {"club": slug, "name": "Odd", "movement": "swiss"})
    assert bad.status_code == 422
    for movement in ("individual", "progressive"):  # single players: matchpoints only
        body = {"club": slug, "name": "Points", "movement": movement, "scoring": "points"}
        scored = people[0].post("/api/nights", body)
        assert scored.status_code == 422
        assert scored.json()["detail"] == nights_words.SCORING_OF_PLAYERS
    page = people[0].get(f"/clubs/{slug}/nights").text
    assert all(label in page for label in nights_words.MOVEMENT_CHOICES.values())


def game(round_no: int, table: int, seats: list[int], done: bool) -> Any:
    return SimpleNamespace(
        round=round_no, table_no=table, seats=json.dumps(seats), finished=1.0 if done else None
    )


def test_each_player_is_told_the_next_table_and_seat() -> None:
    names = {n: f"P{n}" for n in range(8)}
    # round 1: table 1 has ended, table 2 plays on; an individual's round 2 is known
    games = [
        game(1, 1, [0, 1, 2, 3], True),
        game(1, 2, [4, 5, 6, 7], False),
        game(2, 1, [0, 4, 1, 5], False),
        game(2, 2, [2, 6, 3, 7], False),
    ]
    where = {s["player"]: (s["round"], s["table"], s["seat"]) for s in seating(games, names, 2)}
    assert where["P0"] == (2, 1, "South") and where["P3"] == (2, 2, "North")
    assert where["P4"] == (1, 2, "South") and where["P7"] == (1, 2, "East")
    # a progressive's round 2 is not written yet: the table is known at the round's end
    where = {s["player"]: (s["round"], s["table"], s["seat"]) for s in seating(games[:2], names, 2)}
    assert where["P1"] == (2, None, None) and where["P5"] == (1, 2, "West")
    # in the last round a player whose table has ended sits nowhere next
    assert {s["player"] for s in seating(games[:2], names, 1)} == {f"P{n}" for n in range(4, 8)}
    assert seating([game(1, 1, [0, 1, 2, 3], True)], names, 1) == []
    assert NS != EW
