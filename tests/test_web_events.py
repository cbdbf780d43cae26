"""Tournaments on the server (web/events/): made by an account, pairs entered and checked in,
the first round started by the organiser (once, however often asked), each round's games
made as tables with the pairs' accounts seated, a pair nobody came for played by the
computer and scored absent, the next round paired when the last game ends, standings and a
crosstable with each game's record linked, and "a round starts" in the players' notices.
On SQLite (the PostgreSQL and two-server test is tests/test_web_events_cluster.py)."""

from __future__ import annotations

import asyncio
import csv
import html
import io
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from fastapi.testclient import TestClient

from fivehundred.web.accounts import COOKIE, AccountsConfig
from fivehundred.web.events import words
from fivehundred.web.events.results_csv import csv_response
from fivehundred.web.guard import Buckets
from fivehundred.web.server import create_app
from test_web_support import wait_for, ws_url

SECRET = "correct horse battery staple 42"
#: the first side to 10 points wins: a game of one hand
ONE_HAND = {"win_1904": True}
#: a whole short event (games to 10 points, every seat the computer's after a second)
EVENT_SECONDS = 240.0


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    app = create_app(
        f"sqlite:///{tmp_path / 'w.sqlite3'}",
        workers=0,
        cluster=False,
        accounts_config=AccountsConfig(login_per_minute=1000, login_burst=1000),
    )
    with TestClient(app) as test_client:
        app.state.events.writes = Buckets(1000, 1000)
        app.state.events.table_options = {"delay": 0.0}  # the computer's moves at once
        test_client.app_state = app.state
        yield test_client


class Person:
    """An account's requests through the one test client (its own session cookie each)."""

    def __init__(self, client: Any, name: str) -> None:
        self.client = client
        self.name = name
        client.cookies.clear()
        answer = client.post("/api/accounts", json={"name": name, "password": SECRET})
        assert answer.status_code == 201, answer.text
        self.session = answer.cookies[COOKIE]
        client.cookies.clear()

    def call(self, method: str, path: str, **options: Any) -> Any:
        self.client.cookies.clear()
        return self.client.request(
            method, path, headers={"cookie": f"{COOKIE}={self.session}"}, **options
        )

    def get(self, path: str) -> Any:
        return self.call("GET", path)

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        return self.call("POST", path, json=body or {})


def people(client: Any, count: int) -> list[Person]:
    return [Person(client, f"Player{i}") for i in range(count)]


def entered(organiser: Person, players: list[Person], **facts: Any) -> int:
    """An event made by ``organiser`` with ``players`` entered two by two and checked in."""
    body = {"name": "Tuesday Swiss", "target": 10, "grace": 1, "variants": ONE_HAND, **facts}
    made = organiser.post("/api/events", body)
    assert made.status_code == 201, made.text
    event = int(made.json()["id"])
    for first, second in zip(players[::2], players[1::2], strict=True):
        answer = first.post(f"/api/events/{event}/pairs", {"partner": second.name})
        assert answer.status_code == 201, answer.text
        assert second.post(f"/api/events/{event}/check-in").status_code == 200
    return event


def finished(person: Person, event: int) -> dict[str, Any]:
    def done() -> dict[str, Any] | None:
        shown: dict[str, Any] = person.get(f"/api/events/{event}").json()
        return shown if shown["state"] == "finished" else None

    result: dict[str, Any] = wait_for(done, EVENT_SECONDS, "the event's end")
    return result


def test_entering_is_bounded_and_each_refusal_says_why(client: Any) -> None:
    assert client.post("/api/events", json={"name": "Nobody's"}).status_code == 401
    ann, bob, cat, dan, eve = people(client, 5)
    assert ann.post("/api/events", {"name": "x"}).status_code == 422
    assert ann.post("/api/events", {"name": "Cup", "preset": "nonesuch"}).status_code == 422
    assert ann.post("/api/events", {"name": "Cup", "target": 5}).status_code == 422
    assert ann.post("/api/events", {"name": "Cup", "kind": "ladder"}).status_code == 422
    unknown = ann.post("/api/events", {"name": "Cup", "variants": {"nonesuch": True}})
    assert unknown.status_code == 422 and "nonesuch" in unknown.json()["detail"]
    many = {f"v{i}": True for i in range(21)}
    assert ann.post("/api/events", {"name": "Cup", "variants": many}).status_code == 422
    six = ann.post("/api/events", {"name": "Cup", "preset": "six_handed"})
    assert six.status_code == 422
    assert ann.post("/api/events", {"name": "Cup", "starts_at": 1.0}).status_code == 422
    event = ann.post("/api/events", {"name": "Cup", "max_pairs": 2}).json()["id"]
    pairs = f"/api/events/{event}/pairs"
    assert ann.post(pairs, {"partner": "Nobody"}).status_code == 404
    assert ann.post(pairs, {"partner": "Player0"}).status_code == 422
    assert ann.post(pairs, {"partner": "player1"}).status_code == 201  # any case
    refused = cat.post(pairs, {"partner": "Player1"})
    assert refused.status_code == 409 and "Player1" in refused.json()["detail"]
    assert cat.post(pairs, {"partner": "Player3"}).status_code == 201
    assert eve.post(pairs, {"partner": "Player0"}).status_code == 409  # full
    assert eve.post(f"/api/events/{event}/check-in").status_code == 404
    assert bob.post(f"/api/events/{event}/start").status_code == 403
    assert bob.post(f"/api/events/{event}/check-in").status_code == 200
    started = ann.post(f"/api/events/{event}/start")
    assert started.status_code == 409 and started.json()["detail"] == words.TOO_FEW
    assert dan.post(f"/api/events/{event}/withdraw").status_code == 200
    assert eve.post(pairs, {"partner": "Player3"}).status_code == 201  # a place again
    assert client.get("/api/events/99999").status_code == 404
    assert client.get("/api/events/0").status_code == 422
    listed = client.get("/api/events").json()["events"]
    assert [e["name"] for e in listed] == ["Cup"]


def test_a_swiss_of_three_pairs_plays_to_its_final_standings(client: Any) -> None:
    players = people(client, 6)
    event = entered(players[0], players, rounds=2)
    # started twice: once
    assert players[0].post(f"/api/events/{event}/start").json() == {"started": True}
    assert players[0].post(f"/api/events/{event}/start").json() == {"started": False}
    assert players[0].post(f"/api/events/{event}/pairs", {"partner": "X"}).status_code == 409
    shown = players[0].get(f"/api/events/{event}").json()
    assert shown["my_game"] is not None or shown["rounds_played"][0]["byes"]
    early = client.get(f"/api/events/{event}/standings.csv")
    assert early.status_code == 409 and early.json()["detail"] == words.NOT_FINISHED
    final = finished(players[0], event)
    sheet = client.get(f"/api/events/{event}/standings.csv")
    assert sheet.status_code == 200 and sheet.headers["content-type"].startswith("text/csv")
    assert "attachment" in sheet.headers["content-disposition"]
    lines = list(csv.reader(io.StringIO(sheet.text)))
    assert lines[0] == [full for _, full in words.STANDING_COLUMNS]
    assert lines[1:] == [
        [str(s[k]) for k in ("place", "name", "points", "buchholz", "difference", "played")]
        for s in final["standings"]
    ]
    assert client.app_state.events.started == [(event, 1), (event, 2)]
    rounds = final["rounds_played"]
    assert [len(r["games"]) for r in rounds] == [1, 1]
    assert [len(r["byes"]) for r in rounds] == [1, 1]
    assert rounds[0]["byes"] != rounds[1]["byes"]  # no pair sits out twice
    assert rounds[0]["byes"] == ["Player4 & Player5"]  # the last seed
    met = [frozenset((g["ns"], g["ew"])) for r in rounds for g in r["games"]]
    assert len(set(met)) == 2  # no meeting twice
    # nobody came to a table: the computer played every seat, every pair scored absent
    for round_ in rounds:
        (game,) = round_["games"]
        assert sorted(game["absent"]) == sorted([game["ns"], game["ew"]])
        assert client.get(f"/api/tables/{game['code']}/record").status_code == 200
    by_name = {s["name"]: s for s in final["standings"]}
    assert sorted(s["points"] for s in final["standings"]) == [0, 2, 2]  # a bye each: 2
    assert sum(s["played"] for s in by_name.values()) == 4
    cells = [c for line in final["crosstable"] for c in line["rounds"]]
    assert sorted(c["result"] for c in cells) == ["absent"] * 4 + ["bye"] * 2
    # the page: standings, crosstable and the games' records linked
    page = players[3].get(f"/e/{event}").text
    assert words.STANDINGS_HEADING in page and words.CROSSTABLE_HEADING in page
    assert f'href="/g/{rounds[0]["games"][0]["code"]}"' in page
    # each player seated in a game was told its round starts
    told = players[0].get("/api/notices").json()["notices"]
    assert any(n["kind"] == "round" and n["link"].startswith("/t/") for n in told)


@pytest.mark.parametrize(
    ("kind", "rounds", "byes"), [("knockout", 2, [1, 0]), ("round_robin", 3, [1, 1, 1])]
)
def test_a_knockout_and_a_round_robin_of_three_pairs(
    client: Any, kind: str, rounds: int, byes: list[int]
) -> None:
    players = people(client, 6)
    event = entered(players[0], players, kind=kind)
    assert players[0].post(f"/api/events/{event}/start").json() == {"started": True}
    final = finished(players[0], event)
    assert final["rounds"] == rounds
    assert [len(r["byes"]) for r in final["rounds_played"]] == byes
    if kind == "knockout":
        assert final["rounds_played"][0]["byes"] == ["Player0 & Player1"]  # the top seed
        assert final["winner"] in {p["name"] for p in final["pairs"]}
        said = html.escape(words.WINNER.format(pair=final["winner"]))
        assert said in players[0].get(f"/e/{event}").text
    else:
        met = {frozenset((g["ns"], g["ew"])) for r in final["rounds_played"] for g in r["games"]}
        assert len(met) == 3


def test_pairs_not_checked_in_are_left_out_at_the_start(client: Any) -> None:
    ann, bob, cat, dan, eve, fay = people(client, 6)
    event = ann.post("/api/events", {"name": "Late Cup", "target": 10, "grace": 1}).json()["id"]
    for first, second in ((ann, bob), (cat, dan), (eve, fay)):
        first.post(f"/api/events/{event}/pairs", {"partner": second.name})
    ann.post(f"/api/events/{event}/check-in")
    cat.post(f"/api/events/{event}/check-in")
    assert ann.post(f"/api/events/{event}/start").json() == {"started": True}
    shown = ann.get(f"/api/events/{event}").json()
    assert [p["withdrawn"] for p in shown["pairs"]] == [False, False, True]
    assert shown["rounds_played"][0]["byes"] == []
    assert len(shown["rounds_played"][0]["games"]) == 1


def test_a_pair_withdraws_from_a_swiss_under_way_and_keeps_its_line(client: Any) -> None:
    players = people(client, 6)
    event = entered(players[0], players, rounds=2)
    assert players[0].post(f"/api/events/{event}/start").json() == {"started": True}
    # the last seed has round 1's bye, then leaves
    assert players[4].post(f"/api/events/{event}/withdraw").status_code == 200
    final = finished(players[0], event)
    first, second = final["rounds_played"]
    assert first["byes"] == ["Player4 & Player5"] and second["byes"] == []
    assert [(g["ns"], g["ew"]) for g in second["games"]] == [
        ("Player2 & Player3", "Player0 & Player1")
    ]
    lines = {s["name"]: s for s in final["standings"]}
    assert lines["Player4 & Player5"]["points"] == 2  # its bye
    assert [p["withdrawn"] for p in final["pairs"]] == [False, False, True]
    assert players[0].post(f"/api/events/{event}/withdraw").status_code == 409  # over


def test_a_round_robin_under_way_keeps_its_pairs(client: Any) -> None:
    players = people(client, 4)
    event = entered(players[0], players, kind="round_robin", grace=600)
    assert players[0].post(f"/api/events/{event}/start").json() == {"started": True}
    refused = players[2].post(f"/api/events/{event}/withdraw")
    assert refused.status_code == 409 and refused.json()["detail"] == words.NO_WITHDRAWING


def test_an_events_time_control_is_its_tables_turn_timer(client: Any) -> None:
    players = people(client, 4)
    assert players[0].post("/api/events", {"name": "Clock", "turn_timer": 2}).status_code == 422
    event = entered(players[0], players, turn_timer=30, grace=600)
    assert players[0].post(f"/api/events/{event}/start").json() == {"started": True}
    code = players[0].get(f"/api/events/{event}").json()["my_game"]["code"]
    options = client.get(f"/api/tables/{code}").json()["options"]
    assert options["turn_timer"] == 30 and options["grace"] == 600
    assert words.TIME_CONTROL.format(seconds="30") in players[1].get(f"/e/{event}").text


def test_a_table_closed_unfinished_scores_both_its_pairs_absent(client: Any) -> None:
    players = people(client, 4)
    event = entered(players[0], players, rounds=1, grace=600)
    assert players[0].post(f"/api/events/{event}/start").json() == {"started": True}
    code = players[0].get(f"/api/events/{event}").json()["my_game"]["code"]
    hub = client.app_state.hub
    table = client.portal.call(hub.get, code)
    client.portal.call(hub.close_table, table, "left")  # as the expiry closes a table
    final = finished(players[0], event)
    (game,) = final["rounds_played"][0]["games"]
    assert sorted(game["absent"]) == ["Player0 & Player1", "Player2 & Player3"]
    assert [s["points"] for s in final["standings"]] == [0, 0]


def test_the_pages_draw_on_a_phone_from_the_servers_words(client: Any) -> None:
    (ann,) = people(client, 1)
    index = client.get("/events")
    assert index.status_code == 200 and words.LOGIN_FIRST in index.text
    assert words.CREATE_BUTTON in ann.get("/events").text
    event = ann.post("/api/events", {"name": "<b>Bold</b> Cup"}).json()["id"]
    page = ann.get(f"/e/{event}").text
    assert "&lt;b&gt;Bold&lt;/b&gt; Cup" in page and "<b>Bold" not in page
    assert 'name="viewport"' in page and words.START_BUTTON in page


def test_a_pair_at_its_table_is_scored_and_the_pair_that_never_came_is_absent(
    tmp_path: Path,
) -> None:
    """North-South's two players come and play the game (a hand to 10 points); East-West
    never come: the computer plays their seats after the grace and they score as absent."""
    from test_web_cluster import choose
    from test_web_support import thread_server

    def quick(app: Any) -> None:
        app.state.events.table_options = {"delay": 0.0}
        app.state.events.writes = Buckets(1000, 1000)
        app.state.accounts.signups = Buckets(100, 100)

    with thread_server(f"sqlite:///{tmp_path / 'w.sqlite3'}", prepare=quick) as base:
        sessions = []
        for i in range(4):
            answer = httpx.post(f"{base}/api/accounts", json={"name": f"P{i}", "password": SECRET})
            assert answer.status_code == 201, answer.text
            sessions.append({"cookie": f"{COOKIE}={answer.cookies[COOKIE]}"})

        def post(who: int, path: str, body: dict[str, Any] | None = None) -> Any:
            return httpx.post(f"{base}{path}", json=body or {}, headers=sessions[who])

        body = {"name": "One Round", "target": 10, "grace": 1, "rounds": 1, "variants": ONE_HAND}
        event = post(0, "/api/events", body).json()["id"]
        for first, second in ((0, 1), (2, 3)):
            assert post(first, f"/api/events/{event}/pairs", {"partner": f"P{second}"}).is_success
            assert post(first, f"/api/events/{event}/check-in").is_success
        assert post(0, f"/api/events/{event}/start").json() == {"started": True}
        shown = httpx.get(f"{base}/api/events/{event}", headers=sessions[0]).json()
        game = shown["my_game"]
        assert game["ns"] == "P0 & P1" and game["code"]

        async def play_north_south() -> None:
            rng = random.Random(48)

            async def seat(who: int) -> None:
                url = ws_url(base, game["code"])
                async with websockets.connect(url, additional_headers=sessions[who]) as ws:
                    acted = -1
                    while True:
                        message = json.loads(await asyncio.wait_for(ws.recv(), 60))
                        if message["type"] != "view":
                            continue
                        if message["view"]["table"]["finished"]:
                            return
                        legal = message["view"]["legal"]
                        if legal and message["version"] > acted:
                            acted = message["version"]
                            action = choose(message["view"], rng)
                            await ws.send(
                                json.dumps({"type": "action", "version": acted, "action": action})
                            )

            await asyncio.gather(seat(0), seat(1))

        asyncio.run(asyncio.wait_for(play_north_south(), 120))

        def over() -> dict[str, Any] | None:
            shown = httpx.get(f"{base}/api/events/{event}").json()
            return shown if shown["state"] == "finished" else None

        final: dict[str, Any] = wait_for(over, 60, "the event's end")
        (played,) = final["rounds_played"][0]["games"]
        assert played["absent"] == ["P2 & P3"]
        lines = {s["name"]: s for s in final["standings"]}
        assert lines["P2 & P3"]["points"] == 0 and lines["P2 & P3"]["difference"] == 0
        ns_won = played["ns_points"] > played["ew_points"]
        assert lines["P0 & P1"]["points"] == (2 if ns_won else 0)
        assert lines["P0 & P1"]["difference"] == played["ns_points"] - played["ew_points"]


def test_a_results_cell_a_spreadsheet_would_run_is_quoted() -> None:
    answer = csv_response("x.csv", ["Pair", "Diff"], [["=HYPERLINK(1)", -20], ["Ann & Bob", None]])
    assert answer.body.decode() == "Pair,Diff\r\n'=HYPERLINK(1),-20\r\nAnn & Bob,\r\n"
