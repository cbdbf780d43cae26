"""Clubs (web/clubs.py): made by an account, joined by an invite or by a request an admin
accepts, roles and what each may do, announcements, leaving and removing, the owner's
rules, a private club hidden from everyone but its members, a club's table whose seats
only its members take, the members' ratings in the club's finished games, and the bounds
on everything. On SQLite, and on PostgreSQL where ``$FIVEHUNDRED_TEST_PG_URL`` names one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from fivehundred.web import clubs as clubs_module
from fivehundred.web.accounts import COOKIE, AccountsConfig
from fivehundred.web.guard import Buckets
from fivehundred.web.server import create_app
from test_web_support import db_url, wait_for  # noqa: F401  (the fixture)

SECRET = "correct horse battery staple 42"


def make_app(url: str) -> Any:
    return create_app(
        url,
        workers=0,
        allow_seeds=True,
        cluster=False,
        accounts_config=AccountsConfig(login_per_minute=100, login_burst=100),
    )


@pytest.fixture
def client(db_url: str) -> Iterator[Any]:  # noqa: F811
    app = make_app(db_url)
    with TestClient(app) as test_client:
        app.state.clubs.writes = Buckets(1000, 1000)  # the limit has its own test
        yield test_client


@pytest.fixture
def lite(tmp_path: Path) -> Iterator[Any]:
    """SQLite only: the rules that do not touch a query of their own."""
    app = make_app(f"sqlite:///{tmp_path / 'w.sqlite3'}")
    with TestClient(app) as test_client:
        app.state.clubs.writes = Buckets(1000, 1000)
        yield test_client


class Person:
    """An account's requests through the one test client (its own session cookie each)."""

    def __init__(self, client: Any, name: str) -> None:
        self.client = client
        client.cookies.clear()
        answer = client.post("/api/accounts", json={"name": name, "password": SECRET})
        assert answer.status_code == 201, answer.text
        self.session = answer.cookies[COOKIE]
        client.cookies.clear()

    def call(self, method: str, path: str, **options: Any) -> Any:
        self.client.cookies.clear()
        headers = {"cookie": f"{COOKIE}={self.session}", **options.pop("headers", {})}
        return self.client.request(method, path, headers=headers, **options)

    def get(self, path: str) -> Any:
        return self.call("GET", path)

    def post(self, path: str, body: dict[str, Any] | None = None) -> Any:
        return self.call("POST", path, json=body or {})

    def delete(self, path: str) -> Any:
        return self.call("DELETE", path)


def new_club(owner: Person, name: str = "Bowls Club", public: bool = True) -> str:
    body = {"name": name, "description": "Tuesdays at the hall", "public": public}
    answer = owner.post("/api/clubs", body)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["slug"])


def invite(admin: Person, slug: str) -> str:
    answer = admin.post(f"/api/clubs/{slug}/invites")
    assert answer.status_code == 201, answer.text
    return str(answer.json()["code"])


def member_of(person: Person, slug: str) -> str | None:
    answer = person.get(f"/api/clubs/{slug}")
    return answer.json()["role"] if answer.status_code == 200 else None


def names(view: dict[str, Any]) -> dict[str, str]:
    return {m["name"]: m["role"] for m in view["members"]}


def test_a_club_is_made_and_joined_by_its_invite(client: Any) -> None:
    ann, bob, cat = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Cat")
    client.cookies.clear()
    guest = client.post("/api/clubs", json={"name": "Guests", "public": True})
    assert guest.status_code == 401
    slug = new_club(ann, "  Bowls   Club ")
    assert slug == "bowls-club"
    again = ann.post("/api/clubs", {"name": "BOWLS CLUB"})
    assert again.status_code == 409 and "exists" in again.json()["detail"]
    assert ann.post("/api/clubs", {"name": "x"}).status_code == 422
    index = client.get("/api/clubs").json()
    assert [(c["slug"], c["members"]) for c in index["clubs"]] == [("bowls-club", 1)]
    assert [c["role"] for c in ann.get("/api/clubs").json()["mine"]] == ["owner"]
    code = invite(ann, slug)
    facts = bob.get(f"/api/clubs/invites/{code}").json()
    assert facts["name"] == "Bowls Club" and facts["slug"] == slug
    joined = bob.post("/api/clubs/join", {"code": code})
    assert joined.status_code == 200 and joined.json()["url"] == f"/c/{slug}"
    view = bob.get(f"/api/clubs/{slug}").json()
    assert view["role"] == "member" and names(view) == {"Ann": "owner", "Bob": "member"}
    assert "invites" not in view and "requests" not in view  # an admin's only
    assert ann.get(f"/api/clubs/{slug}").json()["invites"][0]["code"] == code
    assert ann.delete(f"/api/clubs/{slug}/invites/{code}").status_code == 200
    assert cat.post("/api/clubs/join", {"code": code}).status_code == 404
    assert member_of(cat, slug) is None
    assert client.get(f"/api/clubs/{view['id']}").json()["slug"] == slug  # by its id too


def test_a_request_is_accepted_or_declined_by_an_admin(client: Any) -> None:
    ann, bob, cat = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Cat")
    slug = new_club(ann)
    for person in (bob, cat):
        answer = person.post(f"/api/clubs/{slug}/requests")
        assert answer.status_code == 200 and answer.json() == {"requested": True}
    assert bob.get(f"/api/clubs/{slug}").json()["requested"] is True
    requests = {r["name"]: r["account"] for r in ann.get(f"/api/clubs/{slug}").json()["requests"]}
    assert set(requests) == {"Bob", "Cat"}
    # a requester cannot answer their own request
    own = bob.post(f"/api/clubs/{slug}/requests/{requests['Bob']}", {"accept": True})
    assert own.status_code == 403
    assert ann.post(f"/api/clubs/{slug}/requests/{requests['Bob']}", {"accept": True}).is_success
    assert ann.post(f"/api/clubs/{slug}/requests/{requests['Cat']}", {"accept": False}).is_success
    assert member_of(bob, slug) == "member" and member_of(cat, slug) is None
    view = ann.get(f"/api/clubs/{slug}").json()
    assert view["requests"] == [] and names(view) == {"Ann": "owner", "Bob": "member"}
    again = ann.post(f"/api/clubs/{slug}/requests/{requests['Cat']}", {"accept": True})
    assert again.status_code == 404  # declined is gone
    assert bob.post(f"/api/clubs/{slug}/requests").status_code == 409  # a member already


def test_a_member_is_refused_what_admins_do_and_the_owner_makes_admins(lite: Any) -> None:
    ann, bob, cat = Person(lite, "Ann"), Person(lite, "Bob"), Person(lite, "Cat")
    slug = new_club(ann)
    code = invite(ann, slug)
    for person in (bob, cat):
        assert person.post("/api/clubs/join", {"code": code}).is_success
    ids = {m["name"]: m["account"] for m in ann.get(f"/api/clubs/{slug}").json()["members"]}
    refused = [
        bob.post(f"/api/clubs/{slug}/invites"),
        bob.delete(f"/api/clubs/{slug}/invites/{code}"),
        bob.post(f"/api/clubs/{slug}/announcements", {"text": "free beer"}),
        bob.delete(f"/api/clubs/{slug}/members/{ids['Cat']}"),
        bob.post(f"/api/clubs/{slug}/members/{ids['Bob']}/role", {"role": "admin"}),
        bob.delete(f"/api/clubs/{slug}"),
    ]
    assert [answer.status_code for answer in refused] == [403] * len(refused)
    assert ann.post(f"/api/clubs/{slug}/announcements", {"text": "Hall closed Tuesday"}).is_success
    made = ann.post(f"/api/clubs/{slug}/members/{ids['Bob']}/role", {"role": "admin"})
    assert made.is_success
    assert bob.post(f"/api/clubs/{slug}/announcements", {"text": "Finals next week"}).is_success
    seen = cat.get(f"/api/clubs/{slug}").json()["announcements"]
    assert [(a["text"], a["by"]) for a in seen] == [
        ("Finals next week", "Bob"),
        ("Hall closed Tuesday", "Ann"),
    ]
    # an admin removes a member, but not another admin, and nobody the owner
    assert bob.delete(f"/api/clubs/{slug}/members/{ids['Ann']}").status_code == 403
    assert bob.delete(f"/api/clubs/{slug}/members/{ids['Cat']}").is_success
    assert member_of(cat, slug) is None
    assert (
        bob.post(f"/api/clubs/{slug}/members/{ids['Ann']}/role", {"role": "member"}).status_code
        == 403
    )
    assert ann.delete(f"/api/clubs/{slug}/members/{ids['Bob']}").is_success


def test_leaving_and_the_owners_rules(client: Any) -> None:
    ann, bob = Person(client, "Ann"), Person(client, "Bob")
    slug = new_club(ann, "Hall Five Hundred", public=False)
    assert bob.post("/api/clubs/join", {"code": invite(ann, slug)}).is_success
    left = ann.post(f"/api/clubs/{slug}/leave")
    assert left.status_code == 409 and "hand the club over" in left.json()["detail"]
    bob_id = next(
        m["account"] for m in ann.get(f"/api/clubs/{slug}").json()["members"] if m["name"] == "Bob"
    )
    assert ann.post(f"/api/clubs/{slug}/members/{bob_id}/role", {"role": "owner"}).is_success
    assert names(bob.get(f"/api/clubs/{slug}").json()) == {"Ann": "admin", "Bob": "owner"}
    assert ann.post(f"/api/clubs/{slug}/leave").is_success
    assert ann.get(f"/api/clubs/{slug}").status_code == 404  # private: gone from her view
    assert ann.post(f"/api/clubs/{slug}/leave").status_code == 404
    assert bob.delete(f"/api/clubs/{slug}").is_success
    assert bob.get(f"/api/clubs/{slug}").status_code == 404
    assert bob.get("/api/clubs").json()["mine"] == []


def test_a_private_club_is_hidden_from_everyone_but_its_members(client: Any) -> None:
    ann, bob, eve = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Eve")
    slug = new_club(ann, "Quiet Club", public=False)
    assert ann.post(f"/api/clubs/{slug}/announcements", {"text": "Key under the mat"}).is_success
    client.cookies.clear()
    assert client.get("/api/clubs").json()["clubs"] == []
    club_id = ann.get(f"/api/clubs/{slug}").json()["id"]
    for path in (f"/api/clubs/{slug}", f"/api/clubs/{club_id}"):
        client.cookies.clear()
        assert client.get(path).status_code == 404
        assert eve.get(path).status_code == 404
    assert eve.post(f"/api/clubs/{slug}/requests").status_code == 404
    assert eve.post(f"/api/clubs/{slug}/tables", {"seats": ["open"] * 4}).status_code == 404
    assert "Key under" not in eve.get(f"/api/clubs/{slug}").text
    code = invite(ann, slug)
    facts = eve.get(f"/api/clubs/invites/{code}").json()
    assert set(facts) == {"slug", "name", "description"}  # the invite names, nothing more
    assert bob.post("/api/clubs/join", {"code": code}).is_success
    assert bob.get(f"/api/clubs/{slug}").json()["announcements"][0]["text"] == "Key under the mat"


def test_a_club_table_seats_only_members_and_its_game_rates_them(client: Any) -> None:
    ann, bob, eve = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Eve")
    slug = new_club(ann)
    assert bob.post("/api/clubs/join", {"code": invite(ann, slug)}).is_success
    body = {
        "seats": ["open", "random", "open", "random"],
        "rules": {"variants": {"target": 10}},
        "options": {"delay": 0, "grace": 0, "stand_in": "random"},
        "seed": 11,
    }
    assert eve.post(f"/api/clubs/{slug}/tables", body).status_code == 403  # not a member
    assert ann.post(f"/api/clubs/{slug}/tables", {"seats": "four"}).status_code == 422
    made = ann.post(f"/api/clubs/{slug}/tables", {**body, "sit": 0})
    assert made.status_code == 201, made.text
    code = made.json()["table"]
    facts = client.get(f"/api/tables/{code}").json()
    assert facts["name"] == "Bowls Club" and facts["seats"][0]["name"] == "Ann"
    assert code not in {t["table"] for t in client.get("/api/tables").json()["tables"]}
    stranger = eve.post(f"/api/tables/{code}/seats/2", {"name": "Eve"})
    assert stranger.status_code == 403 and "members" in stranger.json()["detail"]
    client.cookies.clear()
    assert client.post(f"/api/tables/{code}/seats/2", json={"name": "Guest"}).status_code == 403
    assert bob.post(f"/api/tables/{code}/seats/2", {"name": "Bob"}).status_code == 200
    # nobody connects: the stand-ins play Ann's and Bob's seats to the end of the game
    wait_for(lambda: client.get(f"/api/tables/{code}").json()["finished"], 120, "the game's end")
    winner = client.get(f"/api/tables/{code}").json()["winner"]
    view = ann.get(f"/api/clubs/{slug}").json()
    assert [(t["table"], t["finished"] is not None) for t in view["tables"]] == [(code, True)]
    members = {m["name"]: m for m in view["members"]}
    for name in ("Ann", "Bob"):  # partners at seats 0 and 2: one side
        assert members[name]["games"] == 1 and members[name]["wins"] == int(winner == 0)
    # a won game lifts them above the starting rating (μ 25, σ 25/3: 0), a lost one below
    assert (members["Ann"]["rating"] > 0) == (winner == 0)
    assert members["Ann"]["rating"] == members["Bob"]["rating"]
    # the rematch is the club's table too: its open seats are still the members' only
    again = ann.post(f"/api/tables/{code}/rematch")
    assert again.status_code == 200, again.text
    rematch = again.json()["table"]
    assert eve.post(f"/api/tables/{rematch}/seats/2", {"name": "Eve"}).status_code == 403
    assert bob.post(f"/api/tables/{rematch}/seats/2", {"name": "Bob"}).status_code == 200


def test_every_count_and_text_is_bounded(lite: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    ann, bob, cat = Person(lite, "Ann"), Person(lite, "Bob"), Person(lite, "Cat")
    assert ann.post("/api/clubs", {"name": "Long", "description": "x" * 301}).status_code == 422
    assert ann.post("/api/clubs", {"name": "Bell\u0007Club"}).status_code == 422
    for number in range(clubs_module.CLUBS_OWNED):
        new_club(ann, f"Club {number}")
    too_many = ann.post("/api/clubs", {"name": "One More"})
    assert too_many.status_code == 409 and "own" in too_many.json()["detail"]
    slug = "club-0"
    text = ann.post(f"/api/clubs/{slug}/announcements", {"text": "y" * 1001})
    assert text.status_code == 422
    monkeypatch.setattr(clubs_module, "MAX_ANNOUNCEMENTS", 3)
    for number in range(5):
        assert ann.post(f"/api/clubs/{slug}/announcements", {"text": f"news {number}"}).is_success
    kept = [a["text"] for a in ann.get(f"/api/clubs/{slug}").json()["announcements"]]
    assert kept == ["news 4", "news 3", "news 2"]
    monkeypatch.setattr(clubs_module, "MAX_MEMBERS", 2)
    code = invite(ann, slug)
    assert bob.post("/api/clubs/join", {"code": code}).is_success
    full = cat.post("/api/clubs/join", {"code": code})
    assert full.status_code == 409 and "members" in full.json()["detail"]
    monkeypatch.setattr(clubs_module, "INVITES_PER_CLUB", 1)
    assert ann.post(f"/api/clubs/{slug}/invites").status_code == 409
    assert bob.get("/api/clubs/invites/not a code!").status_code == 404
    assert bob.get("/api/clubs/" + "a" * 49).status_code == 404


def test_writes_are_limited_per_address_and_refused_from_another_site(lite: Any) -> None:
    ann = Person(lite, "Ann")
    lite.app.state.clubs.writes = Buckets(1, 2)
    statuses = [ann.post(f"/api/clubs/nowhere-{n}/leave").status_code for n in range(3)]
    assert statuses == [404, 404, 429]
    lite.app.state.clubs.writes = Buckets(1000, 1000)
    elsewhere = ann.call(
        "POST", "/api/clubs", json={"name": "Forged"}, headers={"origin": "https://evil.example"}
    )
    assert elsewhere.status_code == 403
    assert ann.get("/api/clubs").json()["mine"] == []


def test_a_deleted_account_leaves_its_clubs_and_its_club_passes_on(client: Any) -> None:
    ann, bob, cat = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Cat")
    slug = new_club(ann)
    lonely = new_club(ann, "Just Ann")
    code = invite(ann, slug)
    for person in (cat, bob):  # Cat first: the longest-standing member
        assert person.post("/api/clubs/join", {"code": code}).is_success
    bob_id = next(
        m["account"] for m in ann.get(f"/api/clubs/{slug}").json()["members"] if m["name"] == "Bob"
    )
    assert ann.post(f"/api/clubs/{slug}/members/{bob_id}/role", {"role": "admin"}).is_success
    gone = ann.call("DELETE", "/api/accounts/me", json={"password": SECRET})
    assert gone.status_code == 200, gone.text
    view = bob.get(f"/api/clubs/{slug}").json()
    assert names(view) == {"Bob": "owner", "Cat": "member"}  # the admin before the member
    assert [(c["slug"], c["members"]) for c in client.get("/api/clubs").json()["clubs"]] == [
        (slug, 2)
    ]
    assert bob.get(f"/api/clubs/{lonely}").status_code == 404  # nobody left: deleted
