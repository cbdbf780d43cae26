"""Friends at one table, the server's side: the person making a table sits
where they chose (under the account's name when logged in), a table for friends can be
private (not listed), every seat is told apart as the viewer's partner or opponent from
the rules' sides, a guest signing up from their browser takes the name they played under
and its games (anyone else is told why the name is held and until when), Play now starts
at once by default, and the lobby's catalogue offers the levels in words and names the
variants as people read them."""

from __future__ import annotations

import re
import warnings
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from fivehundred.web import accounts as accounts_module
from fivehundred.web.server import create_app
from test_web_play_now import Clock
from test_web_support import db_url  # noqa: F401  (the fixture, SQLite and PostgreSQL)

SECRET = "correct horse battery staple 42"


@pytest.fixture
def client(tmp_path: Path) -> Any:
    app = create_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", workers=0)
    with TestClient(app) as test_client:
        app.state.matchmaker.options["delay"] = 0
        yield test_client


@pytest.fixture
def any_client(db_url: str) -> Any:  # noqa: F811
    """A client of a server on SQLite, then on PostgreSQL (the queries of the names)."""
    app = create_app(db_url, workers=0, cluster=False)
    with TestClient(app) as test_client:
        yield test_client


def make(client: Any, **body: Any) -> Any:
    body.setdefault("seats", ["open", "medium", "open", "medium"])
    body.setdefault("options", {"delay": 0})
    return client.post("/api/tables", json=body)


def test_the_maker_sits_in_the_seat_they_chose(client: Any) -> None:
    answer = make(client, sit=2, player="  Ann  ")
    assert answer.status_code == 201, answer.text
    made = answer.json()
    assert made["seat"] == 2 and made["token"]
    facts = client.get(f"/api/tables/{made['table']}").json()
    assert facts["seats"][2] == {**facts["seats"][2], "kind": "person", "name": "Ann"}
    assert facts["seats"][0]["kind"] == "open"  # the friend's seat stays for the friend
    # the token is the seat's: the friend's seat is still there to take
    friend = client.post(f"/api/tables/{made['table']}/seats/0", json={"name": "Bob"})
    assert friend.status_code == 200
    # without "sit", nobody is seated (programs and the older form)
    plain = make(client).json()
    assert "token" not in plain
    assert all(
        s["kind"] != "person" for s in client.get(f"/api/tables/{plain['table']}").json()["seats"]
    )


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"sit": 1}, "sit"),  # a computer's seat
        ({"sit": 4}, "sit"),  # no such seat
        ({"sit": 0, "player": "a\u0007b"}, "player"),
        ({"sit": 0, "player": "x" * 31}, "player"),
    ],
)
def test_a_bad_seat_to_sit_in_is_refused(client: Any, body: dict[str, Any], words: str) -> None:
    answer = make(client, **body)
    assert answer.status_code == 422 and answer.json()["detail"].startswith(words)


def test_a_logged_in_maker_sits_under_the_accounts_name(client: Any) -> None:
    assert client.post("/api/accounts", json={"name": "Cat", "password": SECRET}).status_code == 201
    made = make(client, sit=0, player="typed and ignored").json()
    facts = client.get(f"/api/tables/{made['table']}").json()
    assert facts["seats"][0]["name"] == "Cat"
    assert client.get(f"/api/tables/{made['table']}/accounts").json()["accounts"] == {"0": "Cat"}
    # a guest may not make a table sitting under an account's name
    guest = TestClient(client.app)
    answer = make(guest, sit=0, player="cat")
    assert answer.status_code == 409 and "account" in answer.json()["detail"]


def test_a_private_table_is_not_listed_but_opens_from_its_link(client: Any) -> None:
    private = make(client, sit=0, player="Ann", private=True).json()["table"]
    public = make(client, sit=0, player="Ann").json()["table"]
    listed = {t["table"] for t in client.get("/api/tables").json()["tables"]}
    assert public in listed and private not in listed
    listed_open = {t["table"] for t in client.get("/api/tables?open=1").json()["tables"]}
    assert private not in listed_open
    facts = client.get(f"/api/tables/{private}").json()
    assert facts["options"]["private"] is True
    assert client.post(f"/api/tables/{private}/seats/2", json={"name": "Bob"}).status_code == 200


def relations(seating: list[dict[str, Any]]) -> list[str]:
    return [entry["relation"] for entry in seating]


def test_each_seat_is_a_partner_or_an_opponent_by_the_rules(client: Any) -> None:
    made = make(client, sit=0, player="Ann").json()
    seen = client.get(f"/api/tables/{made['table']}?seat=2").json()["seating"]
    assert relations(seen) == ["partner", "opponent", "you", "opponent"]
    assert [e["place"] for e in seen] == ["South", "West", "North", "East"]
    assert seen[0]["relation_words"] == "your partner"
    assert seen[1]["invite_words"] == "invite an opponent"
    assert seen[0]["invite_words"] == "invite a partner"
    # the lobby's list: the sides without a viewer
    listed = next(
        t for t in client.get("/api/tables").json()["tables"] if t["table"] == made["table"]
    )
    assert [e["side"] for e in listed["seating"]] == [0, 1, 0, 1]
    assert listed["seating"][0]["partners"] == [2]
    assert "relation" not in listed["seating"][0]

    def form(rules: dict[str, Any], seat: int) -> list[dict[str, Any]]:
        answer = client.post("/api/rules/seating", json={"rules": rules, "seat": seat})
        assert answer.status_code == 200, answer.text
        return list(answer.json()["seating"])

    # three players: no partners; six in teams of three, or three teams of two
    assert relations(form({"preset": "three_handed"}, 0)) == ["you", "opponent", "opponent"]
    assert relations(form({"preset": "six_handed"}, 1)) == [
        "opponent", "you", "opponent", "partner", "opponent", "partner"
    ]  # fmt: skip
    pairs = form({"preset": "six_handed", "variants": {"teams_of_two": True}}, 1)
    assert relations(pairs) == ["opponent", "you", "opponent", "opponent", "partner", "opponent"]
    # five players: a partner is called each hand, nobody is one for good
    five = form({"preset": "five_handed"}, 0)
    assert set(relations(five)[1:]) == {"called"}
    assert five[1]["invite_words"] == "invite a player"
    refused = client.post("/api/rules/seating", json={"rules": {"preset": "australian"}, "seat": 4})
    assert refused.status_code == 422
    bad = client.post("/api/rules/seating", json={"rules": {"preset": "nope"}, "seat": 0})
    assert bad.status_code == 422 and bad.json()["detail"].startswith("rules:")


def guest_plays(client: Any, name: str) -> tuple[str, str]:
    code = make(client).json()["table"]
    answer = client.post(f"/api/tables/{code}/seats/0", json={"name": name})
    return code, str(answer.json()["token"])


def test_a_guest_signs_up_from_their_browser_under_their_name(any_client: Any) -> None:
    guest = TestClient(any_client.app)
    code, token = guest_plays(guest, "Robin")
    other_code, other_token = guest_plays(guest, "Someone Else")
    answer = guest.post(
        "/api/accounts",
        json={"name": "robin", "password": SECRET, "tokens": ["not-a-token", other_token, token]},
    )
    assert answer.status_code == 201, answer.text
    # the guest's game is the account's: its seat is held by it (Robin's only)
    assert guest.get(f"/api/tables/{code}/accounts").json()["accounts"] == {"0": "robin"}
    assert guest.get(f"/api/tables/{other_code}/accounts").json()["accounts"] == {}


def test_anyone_else_is_told_why_a_guests_name_is_held_and_until_when(
    any_client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = any_client
    _, token = guest_plays(TestClient(client.app), "Robin")
    stranger = TestClient(client.app)
    _, stranger_token = guest_plays(stranger, "Sam")
    answer = stranger.post(
        "/api/accounts", json={"name": "Robin", "password": SECRET, "tokens": [stranger_token]}
    )
    assert answer.status_code == 409
    detail = answer.json()["detail"]
    assert "guest played under the name" in detail and "browser" in detail
    assert re.search(r"until \d{4}-\d\d-\d\d \(30 days\)", detail), detail
    # an account's name is simply taken
    client.post("/api/accounts", json={"name": "Fay", "password": SECRET})
    taken = stranger.post("/api/accounts", json={"name": "fay", "password": SECRET})
    assert taken.json()["detail"] == "the name 'fay' is taken"
    # once the hold is over the name is free
    monkeypatch.setattr(accounts_module, "GUEST_HOLD_SECONDS", 0)
    assert (
        stranger.post("/api/accounts", json={"name": "Robin", "password": SECRET}).status_code
        == 201
    )
    too_many = {"name": "Zed", "password": SECRET, "tokens": ["t"] * 201}
    assert stranger.post("/api/accounts", json=too_many).status_code == 422
    assert token


def test_play_now_starts_at_once_by_default(client: Any) -> None:
    """A first visitor on an empty server is seated with computers at once (no wait)."""
    answer = client.post("/api/play-now", json={"preset": "australian", "name": "Ann"}).json()
    assert answer["status"] == "seated", answer
    seats = client.get(f"/api/tables/{answer['table']}").json()["seats"]
    assert [s["kind"] for s in seats] == ["person", "computer", "computer", "computer"]
    assert seats[1]["name"] == "medium"


def test_the_catalogue_offers_levels_in_words_and_variants_by_their_titles(client: Any) -> None:
    catalogue = client.get("/api/rules").json()
    assert [level["name"] for level in catalogue["levels"]] == ["easy", "medium", "hard", "expert"][
        : len(catalogue["levels"])
    ]
    assert all(level["label"].startswith(level["name"] + ":") for level in catalogue["levels"])
    assert catalogue["default_level"] == "medium"
    internal = re.compile(r"'[a-z0-9_]+'|\b[a-z0-9]+_[a-z0-9_]+\b")
    for preset in catalogue["presets"]:
        reasons = [c[2] for c in preset["conflicts"]] + list(preset["refused"].values())
        assert not [r for r in reasons if internal.search(r)], preset["name"]
    australian = next(p for p in catalogue["presets"] if p["name"] == "australian")
    why = {(a, b): reason for a, b, reason in australian["conflicts"]}
    assert why[("no_misere", "misere_anytime")].startswith("contradicts misère any time")


def test_play_now_by_default_takes_along_whoever_is_waiting(client: Any) -> None:
    """Play now is at once only while nobody waits: the next person who presses it (at
    once, as by default) while someone waits for people waits with them, and both sit at
    one table, on the first one's level, computers in the seats left, when that one's wait
    is over (never pulled into a table of the newcomer's choosing)."""
    clock = Clock()
    client.app.state.matchmaker.clock = clock
    first = client.post(
        "/api/play-now",
        json={"preset": "australian", "name": "Ann", "wait": 120, "level": "easy"},
    )
    assert first.json()["status"] == "waiting"
    second = client.post(
        "/api/play-now", json={"preset": "australian", "name": "Bob", "level": "hard"}
    ).json()
    assert second["status"] == "waiting"
    for _ in range(4):  # Ann's wait runs out, both asking how it stands (as the page polls)
        clock.now += 30
        ann = client.get(f"/api/play-now/{first.json()['ticket']}").json()
        bob = client.get(f"/api/play-now/{second['ticket']}").json()
    assert bob["status"] == ann["status"] == "seated" and ann["table"] == bob["table"]
    seats = client.get(f"/api/tables/{bob['table']}").json()["seats"]
    assert [s["kind"] for s in seats] == ["person", "person", "computer", "computer"]
    assert [s["name"] for s in seats[:2]] == ["Ann", "Bob"]
    assert {s["name"] for s in seats[2:]} == {"easy"}  # Ann's level, not Bob's


def test_play_now_is_at_once_while_nobody_waits(client: Any) -> None:
    """Nobody waiting: the default Play now seats a first visitor at once."""
    alone = client.post("/api/play-now", json={"preset": "australian", "name": "Cy"}).json()
    assert alone["status"] == "seated"
