"""Club nights online (web/events/nights*.py): a club's admin schedules a duplicate night,
members enter as pairs, the start seats them by the movement, each board at each table is
a table of the hub dealt from the board's seed (the same cards at every table), a seat
nobody comes to is played by the computer, and at the end the standings (matchpoints in
the same direction) and a traveller per board. On SQLite."""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from fivehundred.record import replay_hand
from fivehundred.web.accounts import AccountsConfig
from fivehundred.web.events import nights_words
from fivehundred.web.events.nights_store import night_board
from fivehundred.web.guard import Buckets
from fivehundred.web.schema import night_games, nights, tables
from fivehundred.web.server import create_app
from test_web_clubs import invite, new_club
from test_web_events import Person
from test_web_support import wait_for

#: a whole small night (every seat the computer's after a second)
NIGHT_SECONDS = 240.0


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    app = create_app(
        f"sqlite:///{tmp_path / 'n.sqlite3'}",
        workers=0,
        cluster=False,
        accounts_config=AccountsConfig(login_per_minute=1000, login_burst=1000),
    )
    with TestClient(app) as test_client:
        app.state.events.writes = Buckets(1000, 1000)
        app.state.nights.table_options = {"delay": 0.0}  # the computer's moves at once
        test_client.app_state = app.state
        yield test_client


def club_of(client: Any, count: int) -> tuple[str, list[Person]]:
    people = [Person(client, f"Member{i}") for i in range(count)]
    slug = new_club(people[0])
    for person in people[1:]:
        assert person.post("/api/clubs/join", {"code": invite(people[0], slug)}).is_success
    return slug, people


def scheduled(admin: Person, slug: str, people: list[Person], **facts: Any) -> int:
    body = {"club": slug, "name": "Tuesday night", "grace": 1, **facts}
    made = admin.post("/api/nights", body)
    assert made.status_code == 201, made.text
    night = int(made.json()["id"])
    for first, second in zip(people[::2], people[1::2], strict=True):
        answer = first.post(f"/api/nights/{night}/pairs", {"partner": second.name})
        assert answer.status_code == 201, answer.text
    return night


def test_a_night_of_two_tables_is_played_to_its_standings_and_travellers(client: Any) -> None:
    slug, people = club_of(client, 8)
    night = scheduled(people[0], slug, people, per_round=1, rounds=2)
    assert people[1].post(f"/api/nights/{night}/start").status_code == 403  # a member
    assert people[0].post(f"/api/nights/{night}/start").json() == {"started": True}
    assert people[0].post(f"/api/nights/{night}/start").json() == {"started": False}
    running = people[2].get(f"/api/nights/{night}").json()
    assert running["movement"] == "howell" and running["games"] == 4
    assert running["standings"] == [] and running["travellers"] == []  # nothing before the end
    early = people[2].get(f"/api/nights/{night}/results.csv")
    assert early.status_code == 409 and early.json()["detail"] == nights_words.NOT_FINISHED

    def done() -> dict[str, Any] | None:
        shown: dict[str, Any] = people[3].get(f"/api/nights/{night}").json()
        return shown if shown["state"] == "finished" else None

    shown = wait_for(done, NIGHT_SECONDS, "the night's end")

    def with_pars() -> dict[str, Any] | None:  # worked out in the background from the start
        shown: dict[str, Any] = people[3].get(f"/api/nights/{night}").json()
        return shown if all(t["par"] for t in shown["travellers"]) else None

    shown = wait_for(with_pars, NIGHT_SECONDS, "the boards' pars")
    assert shown["played"] == 4
    standings = shown["standings"]
    assert len(standings) == 4 and all(s["boards"] == 2 for s in standings)
    # nobody came: the computer stood in for every pair on both its boards, and says so
    assert all(s["computer"] == 2 for s in standings)
    # one pair a table each way: matchpoints out of the other table's pair in its direction
    assert sorted(s["percent"] for s in standings) in ([0, 0, 100, 100], [0, 50, 50, 100], [50] * 4)
    travellers = shown["travellers"]
    assert [t["board"] for t in travellers] == [1, 2]
    for board in travellers:
        assert len(board["results"]) == 4  # two tables, each result from both directions
        assert {r["direction"] for r in board["results"]} == {"NS", "EW"}
        assert all(r["top"] == 2 for r in board["results"])
        par_net = board["par"]["net"]
        for r in board["results"]:  # each result against the par from its own direction
            own = r["net"] if r["direction"] == "NS" else -r["net"]
            assert r["against_par"] == own - (par_net if r["direction"] == "NS" else -par_net)
    # and each pair's total against par over its boards
    assert all(isinstance(s["against_par"], int) for s in standings)
    # every table of a board was dealt the board's cards
    engine = client.app_state.store.store.engine
    with engine.connect() as db:
        row = db.execute(sa.select(nights).where(nights.c.id == night)).one()
        games = db.execute(sa.select(night_games).where(night_games.c.night_id == night)).all()
    for game in games:
        board = night_board(row.preset, row.seed, game.board)
        assert tuple(replay_hand(json.loads(game.result)["hand"]).dealt) == board.hands
    assert {(g.round, g.board) for g in games} == {(1, 1), (2, 2)}
    # its tables were sealed until its end, and are shown now
    with engine.connect() as db:
        sealed = dict(db.execute(sa.select(tables.c.code, tables.c.sealed)).all())
    assert {sealed[g.code] for g in games} == {f"night:{night}"}
    listed = {g["table"] for g in people[3].get("/api/games?per_page=100").json()["games"]}
    assert {g.code for g in games} <= listed
    assert all(people[3].get(f"/api/tables/{g.code}/record").is_success for g in games)
    # each board's result is recorded within 30 s of its last card
    with engine.connect() as db:
        ended = dict(db.execute(sa.select(tables.c.code, tables.c.finished)).all())
    lags = [g.finished - ended[g.code] for g in games]
    print(f"result lags after the last card: {[round(lag, 3) for lag in lags]} s")
    assert all(0 <= lag < 30 for lag in lags)
    page = people[3].get(f"/n/{night}")
    assert page.status_code == 200 and "Matchpoints %" in page.text and "Board 2 · par" in page.text
    sheet = people[3].get(f"/api/nights/{night}/results.csv")
    assert sheet.status_code == 200 and sheet.headers["content-type"].startswith("text/csv")
    lines = list(csv.reader(io.StringIO(sheet.text)))
    assert lines[0][:2] == [nights_words.PLACE, nights_words.PAIR]
    assert [line[1] for line in lines[1:]] == [s["pair"] for s in standings]
    assert [float(line[3]) for line in lines[1:]] == [s["percent"] for s in standings]


def test_only_the_clubs_admins_schedule_and_only_members_enter(client: Any) -> None:
    client.app_state.nights.pars = False
    slug, people = club_of(client, 3)
    outsider = Person(client, "Outsider")
    body = {"club": slug, "name": "Friday night"}
    assert people[1].post("/api/nights", body).status_code == 403
    assert people[0].post("/api/nights", {**body, "preset": "three_handed"}).status_code == 422
    assert people[0].post("/api/nights", {**body, "rounds": 31}).status_code == 422
    night = people[0].post("/api/nights", body).json()["id"]
    assert outsider.post(f"/api/nights/{night}/pairs", {"partner": "Member1"}).status_code == 403
    assert people[1].post(f"/api/nights/{night}/pairs", {"partner": "Outsider"}).status_code == 403
    assert people[1].post(f"/api/nights/{night}/pairs", {"partner": "Member1"}).status_code == 422
    assert people[1].post(f"/api/nights/{night}/pairs", {"partner": "Member2"}).status_code == 201
    again = people[0].post(f"/api/nights/{night}/pairs", {"partner": "Member2"})
    assert again.status_code == 409
    assert people[0].post(f"/api/nights/{night}/start").status_code == 409  # one pair
    listing = people[2].get(f"/api/clubs/{slug}/nights").json()["nights"]
    assert listing == [
        {"id": night, "name": "Friday night", "state": "registering", "url": f"/n/{night}"}
    ]
    page = people[0].get(f"/clubs/{slug}/nights")
    assert page.status_code == 200 and "Friday night" in page.text


def test_an_odd_field_gets_a_computer_pair_and_a_mitchell_from_three_tables(client: Any) -> None:
    client.app_state.nights.pars = False
    slug, people = club_of(client, 10)
    night = scheduled(people[0], slug, people, per_round=2, rounds=3)
    assert people[0].post(f"/api/nights/{night}/start").json() == {"started": True}
    shown = people[0].get(f"/api/nights/{night}").json()
    assert len(shown["pairs"]) == 6 and shown["pairs"][-1]["name"] == "6. computer pair"
    assert shown["movement"] == "mitchell" and shown["games"] == 3 * 3 * 2


def test_a_night_starts_by_itself_at_its_time(client: Any) -> None:
    client.app_state.nights.pars = False
    slug, people = club_of(client, 4)
    soon = time.time() + 1
    night = scheduled(people[0], slug, people, per_round=1, rounds=1, starts_at=soon)
    assert people[0].get(f"/api/nights/{night}").json()["state"] == "registering"

    def started() -> bool:
        shown = people[1].get(f"/api/nights/{night}").json()
        return shown["state"] != "registering" and shown["games"] == 1

    wait_for(started, 30, "the night's start at its time")
    assert people[0].post(f"/api/nights/{night}/start").json() == {"started": False}


def test_a_board_others_will_play_is_shown_to_nobody_until_the_night_ends(client: Any) -> None:
    """A sealed table (a night's board, others still to play it) finished: its record is
    refused (and with it its sheet, replays and analyses), the finished games and the
    players' pages leave it out, and nobody watches it; once the seal is lifted (the night's
    end lifts its own, below) it is shown as any finished game."""
    from fivehundred.rules import make_rules
    from fivehundred.web import seals
    from fivehundred.web.server import OptionsIn

    hub = client.app_state.hub
    options = {**OptionsIn().model_dump(), "delay": 0.0, "sealed": "night:77"}
    rules = make_rules("australian", {"target": 50})
    table = client.portal.call(hub.create, rules, ["random"] * 4, "Sealed", options, 5)
    code = table.code

    def finished() -> bool:
        return bool(client.get(f"/api/tables/{code}").json()["finished"])

    wait_for(finished, NIGHT_SECONDS, "the sealed table's end")
    for path in ("record", "sheet", "hands/1/replay", "hands/1/analysis"):
        refused = client.get(f"/api/tables/{code}/{path}")
        assert refused.status_code == 403 and refused.json()["detail"] == seals.SEALED, path
    listed = [g["table"] for g in client.get("/api/games?per_page=100").json()["games"]]
    assert code not in listed
    assert client.get("/api/players/random").status_code == 404  # its only game
    with pytest.raises(Exception) as closed, client.websocket_connect(f"/ws/tables/{code}") as ws:
        ws.receive_json()
    assert getattr(closed.value, "code", None) == 4403
    engine = client.app_state.store.store.engine
    with engine.begin() as db:
        seals.lift(db, "night:77", time.time())
        seals.lift(db, "night:77", time.time())  # once, however often
    assert client.get(f"/api/tables/{code}/record").json()["hands"]
    assert code in [g["table"] for g in client.get("/api/games?per_page=100").json()["games"]]
    assert client.get("/api/players/random").status_code == 200
    with client.websocket_connect(f"/ws/tables/{code}") as ws:
        assert ws.receive_json()["type"] == "view"


def test_a_nights_pars_nobody_works_out_are_taken_up_by_another_server(client: Any) -> None:
    """A night whose starter died before its pars were worked out (here: a night started
    with the pars off) has its pars unknown and no claim of them live: a server's look
    finds it and works them out; a live claim of another server's keeps it away."""
    from fivehundred.web.schema import par_claims

    service = client.app_state.nights
    service.pars = False
    slug, people = club_of(client, 4)
    night = scheduled(people[0], slug, people, per_round=2, rounds=1)
    assert people[0].post(f"/api/nights/{night}/start").json() == {"started": True}
    store, engine, now = service.store, client.app_state.store.store.engine, time.time()
    assert store.without_pars(now - 60, now) == [night]
    assert store.without_pars(now + 60, now) == []  # only the nights of the days looked at
    with engine.begin() as db:  # another server works on board 1
        db.execute(par_claims.insert().values(key=f"night/{night}/1", holder="x", until=now + 60))
    assert store.without_pars(now - 60, now) == []
    with engine.begin() as db:  # and died: its claim ran out
        db.execute(par_claims.update().values(until=now - 1))
    assert store.without_pars(now - 60, now) == [night]
    service.pars = True  # this server's next look takes it up

    def pars() -> bool:
        with engine.connect() as db:
            return len(store.pars(db, night)) == 2

    wait_for(pars, NIGHT_SECONDS, "the pars taken up")
    assert store.without_pars(now - 60, time.time()) == []
