"""A club renamed by its owner (web/club_names.py): the new name and address, the old
addresses still finding it (the page redirected), no other club taking them; and a
rematch of a club's table that is the club's from the moment it is made, even before the
server that made it has marked it (as when another server made it). On SQLite, and on
PostgreSQL where ``$FIVEHUNDRED_TEST_PG_URL`` names one."""

from __future__ import annotations

from typing import Any

import pytest

from fivehundred.web import club_names
from test_web_clubs import Person, client, invite, lite, new_club  # noqa: F401  (fixtures)
from test_web_support import db_url, wait_for  # noqa: F401  (the fixture)


def test_the_owner_renames_the_club_and_its_old_address_still_finds_it(
    client: Any,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ann, bob, eve = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Eve")
    slug = new_club(ann, "Bowls Club")
    assert bob.post("/api/clubs/join", {"code": invite(ann, slug)}).is_success
    assert ann.post(
        f"/api/clubs/{slug}/members/{bob_id(ann, slug)}/role", {"role": "admin"}
    ).is_success
    # only the owner renames; a name is checked as a new club's is
    assert bob.call("PATCH", f"/api/clubs/{slug}", json={"name": "Bob's"}).status_code == 403
    assert eve.call("PATCH", f"/api/clubs/{slug}", json={"name": "Eve's"}).status_code == 403
    client.cookies.clear()
    assert client.patch(f"/api/clubs/{slug}", json={"name": "Nobody's"}).status_code == 401
    assert ann.call("PATCH", f"/api/clubs/{slug}", json={"name": "ab"}).status_code == 422
    assert ann.call("PATCH", f"/api/clubs/{slug}", json={"name": "x" * 61}).status_code == 422
    assert ann.call("PATCH", f"/api/clubs/{slug}", json={"name": "Ok", "x": 1}).status_code == 422
    new_club(eve, "Eve Club")
    taken = ann.call("PATCH", f"/api/clubs/{slug}", json={"name": "EVE  club"})
    assert taken.status_code == 409
    renamed = ann.call("PATCH", f"/api/clubs/{slug}", json={"name": "Tuesday  Bowls"})
    assert renamed.status_code == 200, renamed.text
    assert renamed.json() == {
        "slug": "tuesday-bowls",
        "name": "Tuesday Bowls",
        "url": "/c/tuesday-bowls",
    }
    # the new address and the old one both find it; the page at the old one is redirected
    for ref in ("tuesday-bowls", slug):
        view = bob.get(f"/api/clubs/{ref}").json()
        assert (view["slug"], view["name"], view["role"]) == (
            "tuesday-bowls",
            "Tuesday Bowls",
            "admin",
        )
    page = client.get(f"/c/{slug}", follow_redirects=False)
    assert page.status_code == 308 and page.headers["location"] == "/c/tuesday-bowls"
    assert client.get("/c/tuesday-bowls").status_code == 200
    assert client.get("/c/no-such-club").status_code == 200  # the page says so itself
    assert "Tuesday Bowls" in {c["name"] for c in client.get("/api/clubs").json()["clubs"]}
    # a new club of the old name does not take the old address
    assert new_club(bob, "Bowls Club") == "bowls-club-2"
    assert bob.get(f"/api/clubs/{slug}").json()["name"] == "Tuesday Bowls"
    # renamed back: its own old address again, and the name as it was typed
    back = ann.call("PATCH", "/api/clubs/tuesday-bowls", json={"name": "bowls club"})
    assert back.status_code == 409  # Bob's club has that name now
    again = ann.call("PATCH", "/api/clubs/tuesday-bowls", json={"name": "Tuesday Bowls!"})
    assert again.json()["slug"] == "tuesday-bowls"  # the same address: nothing kept
    # a few old addresses are kept, the latest
    monkeypatch.setattr(club_names, "OLD_SLUGS", 2)
    ref = "tuesday-bowls"
    for name in ("First Name", "Second Name", "Third Name"):
        answer = ann.call("PATCH", f"/api/clubs/{ref}", json={"name": name})
        assert answer.status_code == 200, answer.text
        ref = answer.json()["slug"]
    found = {
        old: ann.get(f"/api/clubs/{old}").status_code
        for old in ("third-name", "second-name", "first-name", "tuesday-bowls", slug)
    }
    assert found == {
        "third-name": 200,
        "second-name": 200,
        "first-name": 200,
        "tuesday-bowls": 404,
        slug: 404,
    }
    # a private club renamed: its members find it at the old address, nobody else learns
    # the new one
    hidden = new_club(ann, "Key Club", public=False)
    assert ann.call("PATCH", f"/api/clubs/{hidden}", json={"name": "Lock Club"}).is_success
    assert ann.get(f"/api/clubs/{hidden}").json()["slug"] == "lock-club"
    assert eve.get(f"/api/clubs/{hidden}").status_code == 404
    page = client.get(f"/c/{hidden}", follow_redirects=False)
    assert page.status_code == 200 and "lock-club" not in page.text
    # a deleted club's addresses go with it
    assert ann.delete("/api/clubs/third-name").is_success
    assert ann.get("/api/clubs/second-name").status_code == 404
    assert new_club(eve, "Second Name") == "second-name"


def bob_id(owner: Person, slug: str) -> int:
    members = owner.get(f"/api/clubs/{slug}").json()["members"]
    return int(next(m["account"] for m in members if m["name"] == "Bob"))


def test_a_rematch_is_the_clubs_before_it_is_marked(client: Any) -> None:  # noqa: F811
    """The rematch of a club's table made where the club's marking has not run (as on
    another server, the marking still on its way): its open seats are still the members'
    only, it is the club's on its page, and so is the rematch of the rematch."""
    ann, bob, eve = Person(client, "Ann"), Person(client, "Bob"), Person(client, "Eve")
    slug = new_club(ann)
    assert bob.post("/api/clubs/join", {"code": invite(ann, slug)}).is_success
    body = {
        "seats": ["open", "random", "open", "random"],
        "rules": {"variants": {"target": 10}},
        "options": {"delay": 0, "grace": 0, "stand_in": "random"},
        "seed": 11,
        "sit": 0,
    }
    made = ann.post(f"/api/clubs/{slug}/tables", body)
    assert made.status_code == 201, made.text
    code = made.json()["table"]
    assert bob.post(f"/api/tables/{code}/seats/2", {"name": "Bob"}).status_code == 200
    app: Any = client.app
    hub = app.state.hub
    hub.on_rematch = app.state.accounts.rematch  # the seats' own hook, not the club's
    for _ in range(2):  # a rematch, then its rematch
        wait_for(lambda c=code: client.get(f"/api/tables/{c}").json()["finished"], 120, "the end")
        again = ann.post(f"/api/tables/{code}/rematch")
        assert again.status_code == 200, again.text
        code = again.json()["table"]
        stranger = eve.post(f"/api/tables/{code}/seats/2", {"name": "Eve"})
        assert stranger.status_code == 403, stranger.text
        assert bob.post(f"/api/tables/{code}/seats/2", {"name": "Bob"}).status_code == 200
        listed = {t["table"] for t in ann.get(f"/api/clubs/{slug}").json()["tables"]}
        assert code in listed
