"""The daily boards through the web API (web/daily.py, docs/duplicate.md), with
Starlette's TestClient: whole boards played through the routes, every view checked to
hold nothing hidden (no other hand, no kitty, no traveller before the board is played),
the traveller with every entry's result and matchpoints, the par worked out in the
background, the next board dealt only after the last; bad input gets a 4xx."""

from __future__ import annotations

import json
import time
import warnings
from collections.abc import Iterator
from datetime import date
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from fivehundred.actions import action_text
from fivehundred.cards import iter_cards
from fivehundred.daily import daily_boards
from fivehundred.web.daily import DailyService
from fivehundred.web.server import create_app
from test_web_support import db_url  # noqa: F401  (fixture)

DAY = date(2026, 12, 6)
SECRET = "test-secret"
VIEW_KEYS = {
    "day",
    "name",
    "ranked",
    "level",
    "boards",
    "board",
    "dealer",
    "finished",
    "table",
    "status",
}


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:  # noqa: F811
    with TestClient(create_app(db_url, workers=0)) as test_client:
        app: Any = test_client.app
        app.state.daily = DailyService(
            SECRET,
            boards=2,
            clock=lambda: DAY,
            engine=app.state.store.store.engine,
            table_seconds=0,  # the tables read at once (a server waits ten seconds)
        )
        yield test_client


def hidden_from_south(number: int) -> set[str]:
    """The cards South must not see on board ``number`` until played or shown: the other
    hands and the kitty, in the record notation."""
    board = daily_boards(DAY, secret=SECRET, count=2)[number - 1]
    mask = board.kitty | board.hands[1] | board.hands[2] | board.hands[3]
    return {action_text(card) for card in iter_cards(mask)}


def check_hidden(view: dict[str, Any], south_contracts: bool) -> None:
    """A view of a board in play: only South's observation."""
    assert set(view) == VIEW_KEYS, set(view) ^ VIEW_KEYS
    board = daily_boards(DAY, secret=SECRET, count=2)[view["board"] - 1]
    mine = {action_text(c) for c in iter_cards(board.hands[0])}
    if south_contracts:
        mine |= {action_text(c) for c in iter_cards(board.kitty)}
    assert {c["card"] for c in view["table"]["hand"]} <= mine
    assert "hands" not in json.dumps(view) and "kitty" not in json.dumps(view)


def play_board(client: TestClient, token: str, view: dict[str, Any], bid: bool) -> dict[str, Any]:
    """South plays out the board: the first legal action each time, or with ``bid`` the
    highest call at its first turn of the auction."""
    first = True
    for _ in range(200):
        if view["status"] != "playing":
            return view
        south_contracts = (
            bool(view["table"]["contract"]) and "by South" in view["table"]["contract"]
        )
        check_hidden(view, south_contracts)
        legal = view["table"]["legal"]
        assert legal, "South is to move whenever the board is in play after the computers"
        choice = legal[-1] if bid and first else legal[0]
        first = False
        response = client.post(f"/api/daily/entries/{token}/act", json={"action": choice["action"]})
        assert response.status_code == 200, response.text
        view = response.json()
    raise AssertionError("the board did not end")


def test_the_page_and_the_day_show_no_cards(client: TestClient) -> None:
    assert client.get("/daily").status_code == 200
    info = client.get("/api/daily").json()
    assert info["day"] == "2026-12-06" and info["level"] == "medium"
    assert [b["number"] for b in info["boards"]] == [1, 2]
    text = json.dumps(info)
    for card in hidden_from_south(1):
        assert f'"{card}"' not in text


def test_a_whole_day_through_the_api(client: TestClient) -> None:
    service: DailyService = client.app.state.daily  # type: ignore[attr-defined]
    start = client.post("/api/daily/entries", json={"name": "Ann"})
    assert start.status_code == 200
    view = start.json()
    token = view.pop("token")
    assert view["board"] == 1 and view["status"] == "playing"
    # before the board is played: no traveller, no next board
    assert client.get(f"/api/daily/entries/{token}/boards/1/traveller").status_code == 403
    assert client.post(f"/api/daily/entries/{token}/next").status_code == 409
    view = play_board(client, token, view, bid=False)
    assert view["status"] == "board_over"
    assert view["result"]["points"][0] - view["result"]["points"][1] == view["result"]["net"]
    trav = view["traveller"]
    assert [r["entrant"] for r in trav["results"]] == ["Ann (guest)"]
    assert len(trav["hands"]) == 4  # after the board: the hands as dealt
    # the board is over: no more moves; board 2 is still hidden
    assert (
        client.post(f"/api/daily/entries/{token}/act", json={"action": "pass"}).status_code == 409
    )
    assert client.get(f"/api/daily/entries/{token}/boards/2/traveller").status_code == 403
    # a second entrant plays board 1: both on the traveller, with matchpoints
    other = client.post("/api/daily/entries", json={"name": "Bob"}).json()
    other_token = other.pop("token")
    play_board(client, other_token, other, bid=True)
    trav = client.get(f"/api/daily/entries/{token}/boards/1/traveller").json()
    assert sorted(r["entrant"] for r in trav["results"]) == ["Ann (guest)", "Bob (guest)"]
    assert sum(r["matchpoints"] for r in trav["results"]) == 2
    # the par, worked out in the background when the day's boards were made
    for _ in range(600):
        if service.today().par(1) is not None:
            break
        time.sleep(0.1)
    trav = client.get(f"/api/daily/entries/{token}/boards/1/traveller").json()
    assert trav["par"] is not None and "label" in trav["par"]
    assert all(r["against_par"] is not None for r in trav["results"])
    # the next board, then the end of the day
    view = client.post(f"/api/daily/entries/{token}/next").json()
    assert view["board"] == 2 and view["status"] == "playing" and view["finished"] == [1]
    view = play_board(client, token, view, bid=True)
    assert view["status"] == "day_over"
    assert view["standing"]["place"] >= 1 and view["standing"]["of"] == 2
    assert client.post(f"/api/daily/entries/{token}/next").status_code == 409
    # the view comes back whole on a reload
    assert client.get(f"/api/daily/entries/{token}").json()["status"] == "day_over"
    # the day's table: names and figures only
    table = client.get("/api/daily/table").json()
    assert [row["name"] for row in table["rows"]][:2] and table["entrants"] == 2
    assert table["results"] == 3  # Ann's two boards and Bob's one
    assert {row["name"] for row in table["rows"]} == {"Ann (guest)", "Bob (guest)"}
    assert next(r for r in table["rows"] if r["name"] == "Ann (guest)")["boards"] == 2
    assert not any(row["ranked"] for row in table["rows"])  # guests play unranked
    text = json.dumps(table)
    for card in hidden_from_south(1) | hidden_from_south(2):
        assert f'"{card}"' not in text


def test_bad_input_gets_a_4xx(client: TestClient) -> None:
    view = client.post("/api/daily/entries", json={}).json()
    token = view["token"]
    assert view["name"] == "guest"
    # each entry plays under a name of its own
    assert client.post("/api/daily/entries", json={"name": " guest "}).json()["name"] == "guest 2"
    assert client.get("/api/daily/entries/short").status_code == 404
    assert client.get("/api/daily/entries/" + "x" * 30).status_code == 404
    url = f"/api/daily/entries/{token}/act"
    assert client.post(url, json={"action": "x" * 41}).status_code == 422
    assert client.post(url, json={"action": "7H", "more": 1}).status_code == 422
    assert client.post("/api/daily/entries", json={"name": "n" * 41}).status_code == 422
    refused = client.post(url, json={"action": "JK"})  # not South's card, or not now
    assert refused.status_code == 422 and refused.json()["detail"]
    assert client.get(f"/api/daily/entries/{token}/boards/9/traveller").status_code == 404


def test_an_account_has_one_entry_a_day_and_is_ranked(client: TestClient) -> None:
    signup = client.post(
        "/api/accounts", json={"name": "Carol", "password": "correct horse battery 42"}
    )
    assert signup.status_code == 201, signup.text
    first = client.post("/api/daily/entries", json={"name": "whatever"}).json()
    assert first["name"] == "Carol" and first["ranked"] is True
    view = play_board(
        client,
        first["token"],
        {k: v for k, v in first.items() if k != "token"},
        bid=False,
    )
    assert view["status"] == "board_over"
    again = client.post("/api/daily/entries", json={"name": "Carol"}).json()
    assert again["token"] == first["token"]  # the same entry: it resumes, no second go
    assert again["finished"] == [1]
    table = client.get("/api/daily/table").json()
    assert [(row["name"], row["ranked"]) for row in table["rows"]] == [("Carol", True)]
    # a guest who calls themselves Carol is another entrant
    client.cookies.clear()
    guest = client.post("/api/daily/entries", json={"name": "Carol"}).json()
    assert guest["name"] == "Carol (guest)" and guest["ranked"] is False


# ---------------------------------------------------------------- in the database
@pytest.fixture
def engine(db_url: str) -> Iterator[Any]:  # noqa: F811
    from fivehundred.web.store import Store

    store = Store(db_url)
    yield store.engine
    store.close()


def service_on(engine: Any, secret: str = SECRET, pars: bool = False) -> DailyService:
    return DailyService(
        secret, boards=2, clock=lambda: DAY, pars=pars, engine=engine, table_seconds=0
    )


def play_out(service: DailyService, token: str) -> dict[str, Any]:
    """South plays the entry's board out through the service (its first legal move)."""
    for _ in range(200):
        entry = service.entry(token)
        with entry.lock:
            view = service.view(entry)
            if view["status"] != "playing":
                return view
            service.act(entry, view["table"]["legal"][0]["action"])
    raise AssertionError("the board did not end")


def test_servers_of_one_database_share_the_entries_and_a_restart_loses_nothing(
    engine: Any,
) -> None:
    """Two servers on one database (each its own memory and even its own secret) deal the
    same boards, see the same entries and results; one moved on by the other is built
    again from the database; a move on a copy that is behind is refused (409)."""
    from fastapi import HTTPException

    first, second = service_on(engine), service_on(engine, secret="another secret")
    assert first.today().boards == second.today().boards  # the first server's seed
    token, entry = first.new_entry("Ann")
    mine = second.entry(token)
    assert mine is not entry and mine.state is not None and entry.state is not None
    assert mine.state.history == entry.state.history
    with mine.lock:
        second.act(mine, second.view(mine)["table"]["legal"][0]["action"])
    moved = first.entry(token)  # built again: the other server moved it on
    assert moved is not entry and moved.state is not None
    assert moved.state.history == mine.state.history
    with entry.lock, pytest.raises(HTTPException) as refused:  # the stale copy
        first.act(entry, "pass")
    assert refused.value.status_code == 409
    bob, _ = first.new_entry("Bob")  # Bob's board 1 on the first server, read there
    play_out(first, bob)
    entrants = {r["entrant"] for r in first.traveller(first.entry(bob), 1)["results"]}
    assert entrants == {"Bob (guest)"}
    view = play_out(second, token)
    assert view["status"] == "board_over"
    # Ann's result is in the first server's traveller and table (read again within a second)
    deadline = time.monotonic() + 10
    while len(first.traveller(first.entry(bob), 1)["results"]) < 2:
        assert time.monotonic() < deadline, "the other server's result never came"
        time.sleep(0.05)
    names = {row["name"] for row in first.day_table(DAY)["rows"]}
    assert names == {"Ann (guest)", "Bob (guest)"}
    # a restarted server (nothing in its memory) goes on where the entry was
    restarted = service_on(engine)
    again = restarted.entry(token)
    assert again.finished == second.entry(token).finished
    assert again.finished[0].record == second.entry(token).finished[0].record
    assert restarted.view(again) == second.view(second.entry(token))
    with again.lock:
        restarted.next_board(again)
    assert second.view(second.entry(token))["board"] == 2
    # a second guest of the same name, on the other server, is another entrant
    assert second.new_entry("Ann")[1].name == "Ann (guest) 2"
    assert second.new_entry("Bob")[1].name == "Bob (guest) 2"


def test_an_account_entry_is_the_same_on_every_server(engine: Any) -> None:
    first, second = service_on(engine), service_on(engine, secret="another secret")
    token, entry = first.new_entry("x", (7, "Carol"))
    token2, entry2 = second.new_entry("y", (7, "Carol"))
    assert token2 == token and entry2.name == entry.name == "Carol"
    assert entry2.account == 7


# ---------------------------------------------------------------- tables, streaks, history
def account(engine: Any, name: str) -> tuple[int, str]:
    from fivehundred.web.schema import accounts

    with engine.begin() as db:
        made = db.execute(
            accounts.insert().values(
                name=name, name_key=name.casefold(), password_hash="x", bot=False, created=1.0
            )
        )
    return int(made.inserted_primary_key[0]), name


def play_day(service: DailyService, who: tuple[int, str] | None, boards: int) -> None:
    token, _ = service.new_entry("guest", who)
    for number in range(1, boards + 1):
        if number > 1:
            again = service.entry(token)
            with again.lock:
                service.next_board(again)
        assert play_out(service, token)["status"] in {"board_over", "day_over"}


def test_the_week_the_streak_and_a_players_history(engine: Any) -> None:
    """Carol plays every board on Wednesday, Friday, Saturday and Sunday; Dan one board on
    Saturday; a guest too: the week's table ranks the accounts over all their boards, the
    history lists each day, and Carol's streak is three days (Thursday broke it)."""
    clock = [date(2026, 12, 2)]
    service = DailyService(
        SECRET, boards=2, clock=lambda: clock[0], pars=False, engine=engine, table_seconds=0
    )
    carol, dan = account(engine, "Carol"), account(engine, "Dan")
    for day in (2, 4, 5, 6):
        clock[0] = date(2026, 12, day)
        play_day(service, carol, 2)
        if day == 5:
            play_day(service, dan, 1)
            play_day(service, None, 2)
    week = service.week_table(DAY)
    assert (week["week"], week["last_day"]) == ("2026-11-30", "2026-12-06")
    rows = {row["name"]: row for row in week["rows"]}
    assert set(rows) == {"Carol", "Dan"}  # guests are in the field, not in the table
    assert (rows["Carol"]["days"], rows["Carol"]["boards"]) == (4, 8)
    assert (rows["Dan"]["days"], rows["Dan"]["boards"]) == (1, 1)
    assert service.week_table(date(2026, 11, 29))["rows"] == []  # the week before
    history = service.history("carol")
    assert history["name"] == "Carol" and history["streak"] == 3
    assert [d["day"] for d in history["days"]] == [
        "2026-12-06",
        "2026-12-05",
        "2026-12-04",
        "2026-12-02",
    ]
    saturday = history["days"][1]
    assert (saturday["boards"], saturday["of"], saturday["entrants"]) == (2, 2, 3)
    assert 0 <= saturday["percent"] <= 100 and saturday["place"] >= 1
    assert service.history("Dan")["streak"] == 0  # one board of two: not a day played
    clock[0] = date(2026, 12, 7)  # Monday, not yet played: the streak still stands
    assert service.history("Carol")["streak"] == 3
    clock[0] = date(2026, 12, 8)
    assert service.history("Carol")["streak"] == 0
    assert service.day_table(date(2026, 12, 5))["entrants"] == 3  # a past day's table


def test_the_tables_refuse_a_bad_day_or_name(client: TestClient) -> None:
    assert client.get("/api/daily/week").status_code == 200
    assert client.get("/api/daily/table?day=2026-12-05").json()["day"] == "2026-12-05"
    assert client.get("/api/daily/table?day=2026-13-01").status_code == 422
    assert client.get("/api/daily/table?day=2026-12-07").status_code == 404  # ahead
    assert client.get("/api/daily/week?day=1999-01-01").status_code == 404
    assert client.get("/api/daily/week?day=" + "2" * 11).status_code == 422
    assert client.get("/api/daily/players/nobody/history").status_code == 404
    assert client.get("/api/daily/players/" + "n" * 41 + "/history").status_code == 404


# ---------------------------------------------------------------- nothing revealed before play
#: Fields whose words are calls, or names and days, not cards (a bid of 7♥ reads as 7H).
NOT_CARDS = {"auction", "contract", "legal", "prompt", "name", "day", "week", "last_day"}


def named_cards(value: Any, key: str | None = None) -> set[int]:
    """Every card a JSON value names, in record notation (``10H``) or as people read it
    (``10♥``, ``JK as ♠``), outside :data:`NOT_CARDS`."""
    from fivehundred.cards import parse_card

    if key in NOT_CARDS:
        return set()
    if isinstance(value, dict):
        return {c for k, v in value.items() for c in named_cards(v, k)}
    if isinstance(value, list):
        return {c for v in value for c in named_cards(v, key)}
    if not isinstance(value, str):
        return set()
    text = value.split(" as ")[0].split(">")[0]
    text = text.translate(str.maketrans({"♠": "S", "♣": "C", "♦": "D", "♥": "H"}))
    try:
        return {parse_card(text)}
    except ValueError:
        return set()


def south_knows(service: DailyService, token: str) -> tuple[int, set[int]]:
    """The board in play and the cards South may know on it: its own, the kitty once it has
    taken it, every card played, the hands laid open (open misère)."""
    from fivehundred.actions import NUM_CARDS

    entry = service.entry(token)
    state = entry.state
    assert state is not None
    board = entry.day.boards[entry.index]
    known = set(iter_cards(board.hands[0]))
    if state.contractor == 0 and state.phase != "auction":
        known |= set(iter_cards(board.kitty))
    known |= {a for a in state.history if 0 <= a < NUM_CARDS and state.phase != "auction"}
    obs = state.observation(0)
    for plays, _ in obs.tricks:
        known |= {a for _, a in plays}
    for _seat, mask in obs.exposed:
        known |= set(iter_cards(mask))
    return board.number, known


def test_no_route_reveals_a_board_before_it_is_played(client: TestClient) -> None:
    """Others have finished both boards (their results, the travellers, the pars, the
    tables and their history are all there to leak); Ann then plays. At every step, every
    route of the daily answers her only what South may know of the board in play: no other
    hand's card, no kitty card before she takes it, and no par of a board she has not
    finished (the JSON as sent): the boards' reviews too, and no export of a day that
    can still be played."""
    from fivehundred.web.schema import accounts

    app: Any = client.app
    service = DailyService(
        SECRET, boards=2, clock=lambda: DAY, engine=app.state.store.store.engine, table_seconds=0
    )
    app.state.daily = service
    engine = app.state.store.store.engine
    with engine.begin() as db:
        dan = db.execute(
            accounts.insert().values(
                name="Dan", name_key="dan", password_hash="x", bot=False, created=1.0
            )
        ).inserted_primary_key[0]
    for who in ((dan, "Dan"), None):
        token, _ = service.new_entry("Bob", who)
        play_out(service, token)
        entry = service.entry(token)
        with entry.lock:
            service.next_board(entry)
        play_out(service, token)
    day = service.today()
    deadline = time.monotonic() + 300
    while len(day.done_pars()) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    pars = day.done_pars()
    assert len(pars) == 2, "the pars were not worked out"
    rules = day.boards[0].rules
    par_words = {n: par.label(rules) for n, par in pars.items()}
    signup = client.post(
        "/api/accounts", json={"name": "Ann", "password": "correct horse battery 42"}
    )
    assert signup.status_code == 201, signup.text
    view = client.post("/api/daily/entries", json={"name": "Ann"}).json()
    token = view.pop("token")
    checked = 0

    def check(answer: Any, finished: set[int], board: int, known: set[int], what: str) -> None:
        nonlocal checked
        checked += 1
        text = json.dumps(answer, ensure_ascii=False)
        for number, words in par_words.items():
            if number not in finished:
                assert words not in text, f"{what}: the par of board {number}"
        if board in finished:  # the board just played: its traveller shows everything
            return
        leaked = named_cards(answer) - known
        assert not leaked, f"{what}: {sorted(leaked)} of board {board}"

    def walk(answer: dict[str, Any], what: str) -> None:
        board, known = south_knows(service, token)
        finished = set(answer.get("finished", []))
        check(answer, finished, board, known, what)
        for path in (
            "/api/daily",
            f"/api/daily/entries/{token}",
            "/api/daily/table",
            "/api/daily/table?day=2026-12-05",
            "/api/daily/week",
            "/api/daily/players/Ann/history",
            "/api/daily/players/Dan/history",
        ):
            got = client.get(path)
            assert got.status_code == 200, (path, got.text)
            check(got.json(), finished, board, known, path)
        for number in (1, 2):
            got = client.get(f"/api/daily/entries/{token}/boards/{number}/traveller")
            if number in finished:
                assert got.status_code == 200
                if number != board:  # an earlier board's: its cards are not this one's
                    continue
            else:
                assert got.status_code == 403, got.text
            check(got.json(), finished, board, known, f"traveller {number}")
            got = client.get(f"/api/daily/entries/{token}/boards/{number}/review")
            if number in finished:
                assert got.status_code == 200
                if number != board:
                    continue
            else:
                assert got.status_code == 403, got.text
            check(got.json(), finished, board, known, f"review {number}")
        got = client.get(f"/api/daily/entries/{token}/review")
        assert got.status_code == 200
        check(got.json(), finished, board, known, "the day's review")
        for day in ("2026-12-06", "2026-12-05"):  # days still played: no export
            for kind in ("json", "text"):
                got = client.get(f"/api/daily/days/{day}/export?format={kind}")
                assert got.status_code == 403, got.text
                check(got.json(), finished, board, known, f"export {day}")

    for number in (1, 2):
        walk(view, "the entry")
        for _ in range(200):
            if view["status"] != "playing":
                break
            answer = client.post(
                f"/api/daily/entries/{token}/act",
                json={"action": view["table"]["legal"][0]["action"]},
            )
            assert answer.status_code == 200, answer.text
            view = answer.json()
            walk(view, "a move's answer")
        assert view["status"] in {"board_over", "day_over"}
        if number == 1:
            view = client.post(f"/api/daily/entries/{token}/next").json()
    assert checked > 100
