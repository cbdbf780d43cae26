"""The daily's review of each board against the field and the export of a day that is
over (web/daily_review.py, docs/duplicate.md), through the routes: the par on top, the
entrant's line beside the field's most common lines with how many played each and their
matchpoints, the hand's record that replays, its double-dummy review; the day's boards
and results exported as JSON and as text, each read back and replayed; nothing before the
board (or the day) is played."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from datetime import date, timedelta
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from fivehundred.boards import BoardResult, import_set, import_text
from fivehundred.web import daily as daily_module
from fivehundred.web import daily_review
from fivehundred.web.daily import DailyService
from fivehundred.web.server import create_app
from fivehundred.words import seat_name
from test_web_daily import play_out
from test_web_support import db_url  # noqa: F401  (fixture)

DAY = date(2026, 12, 6)
SECRET = "test-secret"


@pytest.fixture
def clock() -> list[date]:
    return [DAY]


@pytest.fixture
def client(db_url: str, clock: list[date]) -> Iterator[TestClient]:  # noqa: F811
    with TestClient(create_app(db_url, workers=0)) as test_client:
        app: Any = test_client.app
        app.state.daily = DailyService(
            SECRET,
            boards=2,
            clock=lambda: clock[0],
            engine=app.state.store.store.engine,
            table_seconds=0,
        )
        yield test_client


def play_entries(client: TestClient, names: list[str]) -> list[str]:
    """Each name plays board 1 (South's first legal move each time): their tokens."""
    service: DailyService = client.app.state.daily  # type: ignore[attr-defined]
    tokens = []
    for name in names:
        token, _ = service.new_entry(name)
        assert play_out(service, token)["status"] == "board_over"
        tokens.append(token)
    return tokens


def wait_for_par(service: DailyService, number: int) -> None:
    deadline = time.monotonic() + 300
    while service.today().par(number) is None:
        assert time.monotonic() < deadline, "the par was not worked out"
        time.sleep(0.1)


def test_a_boards_review_against_the_field(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Five entrants play board 1 the same way (the first legal move) and Ann another
    way: her review shows her line beside the field's, the common one first, played by
    five with its matchpoints; the par on top; her record replays to her result."""
    service: DailyService = client.app.state.daily  # type: ignore[attr-defined]
    play_entries(client, [f"p{k}" for k in range(5)])
    view = client.post("/api/daily/entries", json={"name": "Ann"}).json()
    token = view["token"]
    assert client.get(f"/api/daily/entries/{token}/boards/1/review").status_code == 403
    while view["status"] == "playing":  # Ann bids the highest call she may, then plays on
        legal = view["table"]["legal"]
        choice = legal[-1] if view["table"]["contract"] is None else legal[0]
        view = client.post(
            f"/api/daily/entries/{token}/act", json={"action": choice["action"]}
        ).json()
    wait_for_par(service, 1)
    review = client.get(f"/api/daily/entries/{token}/boards/1/review").json()
    par = service.today().par(1)
    assert par is not None and review["par"]["net"] == par.net and review["par"]["label"]
    assert review["results"] == 6
    lines = review["lines"]
    assert sum(line["count"] for line in lines) == 6
    assert lines[0]["count"] >= 5 and lines[0]["share"] >= 83
    mine = review["mine"]
    assert mine["net"] == view["result"]["net"]
    assert mine["against_par"] == view["result"]["net"] - par.net
    assert next(line for line in lines if line["mine"])["contract"] == mine["contract"]
    top = 2 * 5  # each result against the five others
    for line in lines:  # matchpoints as the traveller gives them to each of the line
        assert line["top"] == top and 0 <= line["matchpoints"] <= top
        rows = [r for r in view["traveller"]["results"] if r["contract"] == line["contract"]]
        assert {r["matchpoints"] for r in rows if r["net"] == line["net"]} == {line["matchpoints"]}
    # the hand's record replays to the same result, move by move as listed
    entry = service.entry(token)
    board = service.today().boards[0]
    again = BoardResult.from_record(board, "Ann (guest)", review["record"])
    assert again == entry.finished[0]
    assert len(review["moves"]) == len(again.replay().history)
    assert review["moves"][0]["seat"] == seat_name(board.start().to_move, 4)
    analysis = review["analysis"]
    assert analysis["text"] and (analysis.get("contract") is None or "strains" in analysis)
    day = client.get(f"/api/daily/entries/{token}/review").json()
    assert [b["board"] for b in day["boards"]] == [1]
    assert day["boards"][0]["lines"] == lines
    assert client.get(f"/api/daily/entries/{token}/boards/2/review").status_code == 403
    # a large field's traveller: the rows nearest the entrant's, and how many there are
    full = client.get(f"/api/daily/entries/{token}/boards/1/traveller").json()
    assert full["count"] == 6 and len(full["results"]) == 6 and "first" not in full
    monkeypatch.setattr(daily_module, "MAX_TRAVELLER_ROWS", 3)
    near = client.get(f"/api/daily/entries/{token}/boards/1/traveller").json()
    assert near["count"] == 6 and len(near["results"]) == 3
    assert "Ann (guest)" in {r["entrant"] for r in near["results"]}
    at = [r["entrant"] for r in full["results"]].index("Ann (guest)")
    assert near["results"] == full["results"][near["first"] - 1 : near["first"] + 2]
    assert near["first"] - 1 <= at < near["first"] + 2
    assert client.get(f"/api/daily/entries/{token}/boards/3/review").status_code == 404


def test_a_day_over_exports_and_reads_back(
    client: TestClient, clock: list[date], monkeypatch: pytest.MonkeyPatch
) -> None:
    """While the day can be played its export is refused; once it is over, the JSON and
    the text export hold every result, each re-imported and replayed equal, a page at a
    time; the entry is still reviewed but no longer played."""
    tokens = play_entries(client, ["Ann", "Bob", "Cy"])
    service: DailyService = client.app.state.daily  # type: ignore[attr-defined]
    wait_for_par(service, 1)
    wait_for_par(service, 2)
    stored = sorted(
        (r.entrant, r.board, r.points) for t in tokens for r in service.entry(t).finished
    )
    url = "/api/daily/days/2026-12-06/export"
    assert client.get(url).status_code == 403
    clock[0] = DAY + timedelta(days=1)  # still played (an entry may end the day after)
    assert client.get(url + "?format=text").status_code == 403
    clock[0] = DAY + timedelta(days=2)
    got = client.get(url)
    assert got.status_code == 200, got.text
    data = got.json()
    assert data["next"] is None and data["name"] == "daily 2026-12-06 australian"
    back = import_set(data)
    assert sorted((r.entrant, r.board, r.points) for r in back.results) == stored
    assert set(back.pars) == {1, 2}
    text = client.get(url + "?format=text")
    assert text.status_code == 200 and "Link" not in text.headers
    from_text = import_text(text.text)
    assert from_text.boards == back.boards and from_text.pars == back.pars
    assert sorted((r.entrant, r.board, r.points) for r in from_text.results) == stored
    # a page at a time
    monkeypatch.setattr(daily_review, "EXPORT_PAGE", 2)
    first = client.get(url).json()
    assert len(import_set(first).results) == 2 and first["next"]
    second = client.get(first["next"]).json()
    assert second["next"] is None
    paged = import_set(first).results + import_set(second).results
    assert sorted((r.entrant, r.board, r.points) for r in paged) == stored
    text = client.get(url + "?format=text")
    assert text.headers["Link"] == f'<{url}?format=text&page=2>; rel="next"'
    # the entry of the day over: reviewed, not played
    token = tokens[0]
    assert client.get(f"/api/daily/entries/{token}").status_code == 200
    assert client.get(f"/api/daily/entries/{token}/boards/1/review").status_code == 200
    assert client.post(f"/api/daily/entries/{token}/next").status_code == 410
    # bad input
    assert client.get(url + "?format=pdf").status_code == 422
    assert client.get(url + "?page=0").status_code == 422
    assert client.get(url + "?page=5000").status_code == 404
    assert client.get("/api/daily/days/2026-12-01/export").status_code == 404  # never made
    assert client.get("/api/daily/days/2026-13-01/export").status_code == 422
    assert client.get("/api/daily/days/" + "9" * 11 + "/export").status_code == 422


def test_a_server_reads_the_results_written_since_even_a_late_one(db_url: str) -> None:  # noqa: F811
    """Two servers of one database: each reads the other's results within a second, its
    own at once; a result whose transaction committed late (its time before the newest
    one read) is read all the same, and none twice."""
    from fivehundred.web import daily_field
    from fivehundred.web.daily import Entry, result_row
    from fivehundred.web.schema import daily_results
    from fivehundred.web.store import Store
    from test_web_daily import service_on

    store = Store(db_url)
    try:
        first, second = service_on(store.engine), service_on(store.engine)
        ann, _ = first.new_entry("Ann")
        play_out(first, ann)
        assert len(first.field(DAY).on_board(1)) == 1  # its own, at once
        bob, _ = second.new_entry("Bob")
        play_out(second, bob)
        deadline = time.monotonic() + 10
        while len(first.field(DAY).on_board(1)) < 2:
            assert time.monotonic() < deadline, "the other server's result never came"
            time.sleep(0.05)
        # a late commit: written now, its time from before the newest the first has read
        made = first.field(DAY)
        late = first.entry(ann).finished[0]
        entry = Entry("c" * 64, "Cy (guest)", first.today(), None, 1)
        row = result_row(entry, "australian", late)
        row["at"] = made.newest - daily_field.SKEW / 2
        with store.engine.begin() as db:
            db.execute(daily_results.insert().values(**row))
        deadline = time.monotonic() + 10
        while len(first.field(DAY).on_board(1)) < 3:
            assert time.monotonic() < deadline, "the late result was never read"
            time.sleep(0.05)
        time.sleep(daily_field.FIELD_SECONDS * 2)
        names = sorted(r.entrant for r in first.field(DAY).on_board(1))
        assert names == ["Ann (guest)", "Bob (guest)", "Cy (guest)"]
        assert first.day_table(DAY)["results"] == 3
    finally:
        store.close()


def test_a_days_standings_worked_out_board_by_board_are_the_whole_days() -> None:
    """A server's standings of a day, each board's scores worked out again only when its
    results or its par changed, are those of the whole day worked out at once, after every
    result that comes and the pars as they come."""
    import random

    from fivehundred.boards import Par, standings
    from fivehundred.web.daily_field import DayResults

    rng = random.Random(7)
    made = DayResults(DAY, final=False)
    pars: dict[int, Par] = {}
    came = []
    for k in range(300):
        board = rng.randint(1, 4)
        net = rng.choice([0, 40, 100, 240, -140, -520])
        result = BoardResult(board, f"e{k % 40}", 0, 60, 1, 7, (max(net, 0), max(-net, 0)), {})
        if (result.entrant, board) not in made.keys:  # (one result an entrant a board)
            came.append(result)
        made.add(result, None)
        if k % 50 == 49:
            pars[len(pars) + 1] = Par(60, 1, 7, (rng.choice([0, 100, 240]), 0))
        if k % 7 == 0:
            whole = standings(sorted(came, key=lambda r: r.board), pars or None)  # board order
            assert made.standings(pars) == whole


def test_a_boards_field_scores_its_traveller_and_lines_as_the_whole_board_does() -> None:
    """A board's field kept line by line (web/daily_field.py), its results coming one by
    one, gives each result the matchpoints, and a traveller the rows near an entrant, that
    the board's whole list of results gives (fivehundred.boards.traveller); its lines
    count every result."""
    import random
    from collections import Counter

    from fivehundred.boards import Par, make_board, traveller
    from fivehundred.web.daily_field import BoardField, DayResults

    rng = random.Random(11)
    board = make_board("field", 1)
    par = Par(60, 1, 7, (0, 240))
    made = DayResults(DAY, final=False)
    came: list[BoardResult] = []
    for k in range(260):
        tricks, net = rng.choice([(4, 60), (5, 40), (6, -140), (7, 240), (8, -100), (10, -520)])
        seat = rng.choice([0, 0, 0, 1])
        points = (max(net, 0), max(-net, 0))
        result = BoardResult(1, f"e{k:03d}", seat, 60, 1, tricks, points, {})
        made.add(result, None)
        came.append(result)
        on_board: BoardField = made.board(1)
        if k % 37 == 36 or k == 0:
            whole = traveller(board, came, par).to_dict()["results"]
            for mine in rng.sample(came, min(3, len(came))):
                first, near = on_board.window(mine, 100)
                assert [r.entrant for r in near] == [r["entrant"] for r in whole][
                    first : first + 100
                ]
                assert mine in near
                for result in near:
                    row = next(r for r in whole if r["entrant"] == result.entrant)
                    score = on_board.score(result)
                    assert (score.matchpoints, score.top) == (row["matchpoints"], row["top"])
            lines = daily_review.field_lines(on_board, came[-1], par, board.rules)
            counts = Counter((r.direction, r.tricks) for r in came)
            for line in lines:
                direction = 0 if line["direction"] == "NS" else 1
                assert line["count"] == counts[(direction, line["tricks"])]
            assert sum(on_board.counts) == len(came) == len(on_board.entrants)


def test_a_servers_first_read_of_a_day_is_the_copy_another_server_wrote(
    db_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A server that holds enough results more than the database's copy of a day's field
    writes its own; another server's first read of the day is that copy and the results
    written since: the same table and traveller as the first server's."""
    import dataclasses

    import sqlalchemy as sa

    from fivehundred.web import daily_field
    from fivehundred.web.daily import Entry, result_row
    from fivehundred.web.schema import daily_fields, daily_results
    from fivehundred.web.store import Store
    from test_web_daily import service_on

    monkeypatch.setattr(daily_field, "STORE_RESULTS", 3)
    monkeypatch.setattr(daily_field, "STORE_SECONDS", 0.0)
    store = Store(db_url)
    try:
        first = service_on(store.engine)
        ann, _ = first.new_entry("Ann")
        play_out(first, ann)
        base = first.entry(ann).finished[0]

        def write(k: int, net: int, account: int | None = None) -> None:
            points = (max(net, 0), max(-net, 0))
            entry = Entry(f"{k:064d}", f"e{k}", first.today(), account, 1)
            row = result_row(entry, "australian", dataclasses.replace(base, points=points))
            with store.engine.begin() as db:
                db.execute(daily_results.insert().values(**row))

        for k, net in enumerate([40, -100, 240, 40, 0]):
            write(k, net, account=900 + k if k % 2 else None)
        deadline = time.monotonic() + 10
        while first.day_table(DAY)["results"] < 6:  # read within a second
            assert time.monotonic() < deadline, "the first server never read the results"
            time.sleep(0.05)
        with store.engine.connect() as db:
            copies = db.execute(sa.select(daily_fields.c.results)).scalars().all()
        assert copies == [6]
        write(5, -520)  # after the copy
        second = service_on(store.engine)
        table = second.day_table(DAY)
        assert second.field(DAY).stored == 6  # the copy, read
        assert table["results"] == 7
        deadline = time.monotonic() + 10
        while first.day_table(DAY)["results"] < 7:
            assert time.monotonic() < deadline, "the first server never read the last result"
            time.sleep(0.05)
        assert first.day_table(DAY) == table
        assert [row["ranked"] for row in table["rows"]].count(True) == 2
        mine = first.traveller(first.entry(ann), 1)
        assert second.traveller(second.entry(ann), 1) == mine
        assert mine["count"] == 7
    finally:
        store.close()
