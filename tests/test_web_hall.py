"""Club nights at real tables (web/events/hall*.py): each table's score pad joins a night by
its code and sends its whole state with a version it counts up; the server keeps each
table's state of the highest version, so states that come late, twice or out of order,
and a table offline all night that sends only its last state, give the standings of
scoring each table's last pads directly (the pad's own scoring): twelve tables of 3 to 6
players. On SQLite and (where ``$FIVEHUNDRED_TEST_PG_URL`` names one) PostgreSQL."""

from __future__ import annotations

import csv
import io
import random
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fivehundred.pad import model
from fivehundred.rules import make_rules
from fivehundred.scoring import side_of_seats
from fivehundred.web.accounts import AccountsConfig
from fivehundred.web.events import hall_words as words
from fivehundred.web.events.hall_store import ALPHABET, CODE_LENGTH, MAX_TABLES
from fivehundred.web.events.hall_view import MAX_GAMES, MAX_HANDS
from fivehundred.web.server import create_app
from test_pad_model import entry_from_hand, play_game
from test_web_clubs import invite, new_club
from test_web_events import Person
from test_web_support import database_url

#: (preset, the seats' names) of each table: tables of 3, 4, 5 and 6 at one night
TABLES = [
    ("australian", ["Ann", "Bob", "Cat", "Dan"]),
    ("three_handed", ["Eve", "Fay", "Gus"]),
    ("five_handed", ["Hal", "Ida", "Jo", "Kim", "Lou"]),
    ("six_handed", ["Mo", "Ned", "Oz", "Pat", "Quin", "Ros"]),
    ("american", ["Sam", "Tom", "Uma", "Val"]),
]
#: the tables of the night (the names above, numbered: each player at one table)
HALL = 12


@pytest.fixture(params=["sqlite", "postgresql"])
def client(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    app = create_app(
        database_url(request.param, tmp_path),
        workers=0,
        cluster=False,
        accounts_config=AccountsConfig(login_per_minute=1000, login_burst=1000),
    )
    with TestClient(app) as test_client:
        yield test_client


def opened(client: Any) -> tuple[Person, Person, str]:
    """A club's owner and a member, and a hall night the owner opened: its code."""
    owner, member = Person(client, "Owner"), Person(client, "Member")
    slug = new_club(owner)
    assert member.post("/api/clubs/join", {"code": invite(owner, slug)}).is_success
    refused = member.post("/api/hall", {"club": slug, "name": "Tuesday at the hall"})
    assert refused.status_code == 403 and refused.json()["detail"] == words.NOT_CLUB_ADMIN
    made = owner.post("/api/hall", {"club": slug, "name": "Tuesday at the hall"})
    assert made.status_code == 201, made.text
    code = made.json()["code"]
    assert len(code) == CODE_LENGTH and set(code) <= set(ALPHABET)
    assert made.json()["join"] == f"/pad?night={code}"
    return owner, member, code


def pads_of(preset: str, names: list[str], seed: int) -> list[dict[str, Any]]:
    """The pads a table writes through the night, one state after each change: a game
    played (a random legal game the engine played, to its end or not), a hand now and
    then entered twice and undone, then a second game."""
    rules = make_rules(preset)
    rng = random.Random(seed)
    games: list[dict[str, Any]] = []
    states: list[list[dict[str, Any]]] = []
    for game_seed in (seed, seed + 1):
        pad = model.new_pad(names, preset)
        games.append(pad)
        for hand in play_game(rules, game_seed, rng.randint(3, 12)):
            pad["hands"].append(entry_from_hand(rules, hand))
            if rng.random() < 0.3:  # entered twice by mistake, then undone
                pad["hands"].append(pad["hands"][-1])
                states.append([dict(g, hands=list(g["hands"])) for g in games])
                pad["hands"].pop()
            states.append([dict(g, hands=list(g["hands"])) for g in games])
    return [{"pads": state} for state in states]


def join(client: Any, code: str, number: int, pads: list[dict[str, Any]]) -> str:
    answer = client.post(
        f"/api/hall/{code}/tables", json={"table": number, "version": 1, "pads": pads}
    )
    assert answer.status_code == 201, answer.text
    return str(answer.json()["token"])


def expected(last: dict[int, list[dict[str, Any]]]) -> dict[str, tuple[int, int]]:
    """Each player's games won and points, scoring each table's last pads directly."""
    out: dict[str, tuple[int, int]] = {}
    for pads in last.values():
        for pad in pads:
            result = model.score_pad(pad)
            sides = side_of_seats(model.check_pad(pad))
            for name, side in zip(pad["players"], sides, strict=True):
                won, points = out.get(name, (0, 0))
                out[name] = (won + (result.winner == side), points + result.totals[side])
    return out


def test_states_late_twice_and_out_of_order_and_one_table_offline_give_the_direct_scores(
    client: Any,
) -> None:
    owner, _, code = opened(client)
    rng = random.Random(7)
    sends: list[tuple[int, int, dict[str, Any]]] = []  # (table, version, state)
    tokens: dict[int, str] = {}
    last: dict[int, list[dict[str, Any]]] = {}
    night = [(p, [f"{n}{i}" for n in names]) for i in range(3) for p, names in TABLES][:HALL]
    for number, (preset, names) in enumerate(night, 1):
        first = model.new_pad(names, preset)
        tokens[number] = join(client, code, number, [first])
        states = pads_of(preset, names, number * 100)
        last[number] = states[-1]["pads"]
        versions = list(enumerate(states, 2))
        if number == HALL:  # offline all night: only its last state comes
            versions = versions[-1:]
        for version, state in versions:
            sends.append((number, version, state))
            if rng.random() < 0.4:  # sent twice (the answer was lost)
                sends.append((number, version, state))
    rng.shuffle(sends)  # the hall's Wi-Fi: every order
    for number, version, state in sends:
        body = {"token": tokens[number], "version": version, **state}
        answer = client.put(f"/api/hall/{code}/tables/{number}", json=body)
        assert answer.status_code == 200, answer.text
        assert answer.json()["version"] >= version
    shown = client.get(f"/api/hall/{code}").json()
    assert [t["number"] for t in shown["tables"]] == list(range(1, HALL + 1))
    got = {s["name"]: (s["won"], s["points"]) for s in shown["standings"]}
    assert got == expected(last)
    assert sum(s["won"] for s in shown["standings"]) > 0  # games were won
    places = [s["place"] for s in shown["standings"]]
    assert places == sorted(places) and places[0] == 1
    # an older state that comes after the end of the night's play changes nothing
    stale = {"token": tokens[1], "version": 2, **pads_of(*night[0], 100)[0]}
    assert client.put(f"/api/hall/{code}/tables/1", json=stale).json()["version"] > 2
    assert client.get(f"/api/hall/{code}").json()["standings"] == shown["standings"]
    early = client.get(f"/api/hall/{code}/results.csv")
    assert early.status_code == 409
    assert owner.post(f"/api/hall/{code}/end").json() == {"ended": True}
    assert owner.post(f"/api/hall/{code}/end").json() == {"ended": False}
    late = client.put(f"/api/hall/{code}/tables/1", json={**stale, "version": 10_000})
    assert late.status_code == 409 and late.json()["detail"] == words.FINISHED
    sheet = client.get(f"/api/hall/{code}/results.csv")
    assert sheet.status_code == 200 and sheet.headers["content-type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(sheet.text)))
    assert rows[0] == [words.PLACE, words.PLAYER, words.TABLE, words.GAMES_WON, words.POINTS]
    assert {r[1]: (int(r[3]), int(r[4])) for r in rows[1:]} == expected(last)


def test_a_wrong_token_a_taken_table_and_an_unknown_code_are_refused(client: Any) -> None:
    _, member, code = opened(client)
    pad = model.new_pad(["Ann", "Bob", "Cat", "Dan"])
    token = join(client, code, 3, [pad])
    again = client.post(f"/api/hall/{code}/tables", json={"table": 3, "version": 1, "pads": [pad]})
    assert again.status_code == 409
    wrong = client.put(
        f"/api/hall/{code}/tables/3", json={"token": "x" + token, "version": 2, "pads": [pad]}
    )
    assert wrong.status_code == 403 and wrong.json()["detail"] == words.BAD_TOKEN
    other = client.put(
        f"/api/hall/{code}/tables/4", json={"token": token, "version": 2, "pads": [pad]}
    )
    assert other.status_code == 404
    assert client.get("/api/hall/AAAAAA").status_code == 404
    assert client.get(f"/api/hall/{code.lower()}").json()["code"] == code  # as typed
    assert member.post(f"/api/hall/{code}/end").status_code == 403
    slug = client.get(f"/api/hall/{code}").json()["club"]
    assert code in member.get(f"/clubs/{slug}/nights").text  # a member sees the codes
    stranger = Person(client, "Stranger")
    assert code not in stranger.get(f"/clubs/{slug}/nights").text
    assert words.OPEN_BUTTON not in stranger.get(f"/clubs/{slug}/nights").text
    assert client.post(f"/api/hall/{code}/end").status_code == 401
    assert client.post("/api/hall", json={"club": "x", "name": "Night"}).status_code == 401


def test_the_caps_on_what_a_table_sends(client: Any) -> None:
    _, _, code = opened(client)
    pad = model.new_pad(["Ann", "Bob", "Cat", "Dan"])
    token = join(client, code, 1, [pad])

    def put(body: dict[str, Any]) -> Any:
        return client.put(f"/api/hall/{code}/tables/1", json={"token": token, **body})

    big = dict(pad, players=["A" * 24] * 4, hands=[{"kind": "misdeal", "note": "x" * 3000}] * 100)
    assert put({"version": 2, "pads": [big]}).status_code == 413
    hands = [{"kind": "misdeal"}] * (MAX_HANDS // 2 + 1)
    assert put({"version": 2, "pads": [dict(pad, hands=hands)] * 2}).status_code == 422
    assert put({"version": 2, "pads": [pad] * (MAX_GAMES + 1)}).status_code == 422
    assert put({"version": 0, "pads": [pad]}).status_code == 422
    assert put({"version": 2, "pads": []}).status_code == 422
    long_name = dict(pad, players=["A" * 25, "Bob", "Cat", "Dan"])
    assert put({"version": 2, "pads": [long_name]}).status_code == 422
    two = model.new_pad(["Ann", "Bob"], "two_handed")
    assert put({"version": 2, "pads": [two]}).status_code == 422
    bad_table = {"table": MAX_TABLES + 1, "version": 1, "pads": [pad]}
    assert client.post(f"/api/hall/{code}/tables", json=bad_table).status_code == 422
    kept = {"version": 2, "round": None, "unknown": ["Ann", "Bob", "Cat", "Dan"]}
    assert put({"version": 2, "pads": [pad]}).json() == kept  # no member of the club


def qr_modules(svg: str) -> list[list[bool]]:
    """The dark modules of segno's inline SVG (a path of ``M x y``, ``m dx dy`` and
    ``h n`` strokes, each half a module below the row's top), read back as a grid."""
    size = int(re.search(r'viewBox="0 0 (\d+) \1"', svg).group(1))  # type: ignore[union-attr]
    grid = [[False] * size for _ in range(size)]
    path = re.search(r'<path[^>]* stroke="#000" d="([^"]+)"', svg).group(1)  # type: ignore[union-attr]
    x = y = 0.0
    for command, numbers in re.findall(r"([Mmh])([-0-9. ]+)", path):
        values = [float(v) for v in numbers.split()]
        if command == "M":
            x, y = values
        elif command == "m":
            x, y = x + values[0], y + values[1]
        else:
            for column in range(int(x), int(x + values[0])):
                grid[int(y)][column] = True
            x += values[0]
    return grid


def test_the_page_shows_the_join_link_as_a_qr_code_a_phone_reads(client: Any) -> None:
    import numpy as np
    import zxingcpp

    owner, _, code = opened(client)
    page = client.get(f"/hall/{code}").text
    figure = re.search(r'<figure id="join-qr">(<svg .*?</svg>)', page)
    assert figure is not None and words.QR_CAPTION in page
    grid = qr_modules(figure.group(1))
    dark = np.kron(np.array(grid), np.ones((4, 4), dtype=bool))  # 4 pixels a module
    pixels = np.where(dark, 0, 255).astype(np.uint8)
    found = zxingcpp.read_barcodes(pixels)  # an independent decoder (ZXing's), from pixels
    assert [(f.format, f.text) for f in found] == [
        (zxingcpp.BarcodeFormat.QRCode, f"http://testserver/pad?night={code}")
    ]
    assert owner.post(f"/api/hall/{code}/end").json() == {"ended": True}
    assert 'id="join-qr"' not in client.get(f"/hall/{code}").text  # over: nobody joins


def test_a_lost_pad_s_table_freed_is_taken_over_by_another_phone_with_its_games(
    client: Any,
) -> None:
    owner, member, code = opened(client)
    names = ["Owner", "member", "Guest", "Membre"]  # the club's two members, any case
    pad = model.new_pad(names)
    answer = client.post(f"/api/hall/{code}/tables", json={"table": 2, "version": 1, "pads": [pad]})
    assert answer.json()["unknown"] == ["Guest", "Membre"]  # the pad says: check them
    token = answer.json()["token"]
    played = dict(pad, hands=[{"kind": "hand", "contract": "8H", "contractor": 1, "tricks": 8}])
    body = {"token": token, "version": 5, "pads": [played]}
    assert client.put(f"/api/hall/{code}/tables/2", json=body).json()["version"] == 5
    refused = client.post(f"/api/hall/{code}/tables/2/free")
    assert refused.status_code == 401
    assert member.post(f"/api/hall/{code}/tables/2/free").status_code == 403
    assert owner.post(f"/api/hall/{code}/tables/9/free").status_code == 404
    page = owner.get(f"/hall/{code}").text
    assert words.FREE_BUTTON.format(number=2) in page
    assert owner.post(f"/api/hall/{code}/tables/2/free").json() == {"freed": True}
    assert owner.post(f"/api/hall/{code}/tables/2/free").json() == {"freed": False}
    assert words.TABLE_FREE.format(number=2) in client.get(f"/hall/{code}").text
    # the lost phone, found again, no longer writes; the table's standings stay
    lost = client.put(f"/api/hall/{code}/tables/2", json={**body, "version": 6})
    assert lost.status_code == 403 and lost.json()["detail"] == words.TABLE_FREED
    before = client.get(f"/api/hall/{code}").json()["standings"]
    assert {s["name"]: s["points"] for s in before}["member"] == 300
    # another phone joins as table 2: it gets the table's state and version, not its own
    blank = model.new_pad(["A", "B", "C", "D"])
    other = client.post(
        f"/api/hall/{code}/tables", json={"table": 2, "version": 1, "pads": [blank]}
    )
    assert other.status_code == 201, other.text
    taken = other.json()
    assert taken["version"] == 5 and taken["takeover"]["pads"] == [played]
    assert client.get(f"/api/hall/{code}").json()["standings"] == before
    again = client.post(
        f"/api/hall/{code}/tables", json={"table": 2, "version": 1, "pads": [blank]}
    )
    assert again.status_code == 409  # taken over: held again
    body = {"token": taken["token"], "version": 6, "pads": [played, blank]}
    assert client.put(f"/api/hall/{code}/tables/2", json=body).json()["version"] == 6
    lost = client.put(f"/api/hall/{code}/tables/2", json={**body, "token": token, "version": 7})
    assert lost.status_code == 403 and lost.json()["detail"] == words.BAD_TOKEN
