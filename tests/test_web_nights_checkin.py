"""Checking in to a club night (web/events/nights_checkin.py): a night scheduled with
``check_in`` seats at its start only the entries that checked in (a pair when either of
its players did; a single player), the others withdrawn, so that the computer does not
stand in all night for somebody who never came; a night without it seats everyone, as
before, and refuses a check-in. Through the API on SQLite, with the page's words."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from fivehundred.web.events import nights_words as w
from fivehundred.web.schema import night_games
from test_web_events import Person
from test_web_nights import client as client  # the fixture
from test_web_nights import club_of, scheduled
from test_web_nights_players import alone
from test_web_support import wait_for


def games_of(client: Any, night: int) -> list[Any]:
    engine = client.app_state.store.store.engine
    with engine.connect() as db:
        return list(db.execute(sa.select(night_games).where(night_games.c.night_id == night)))


def test_only_the_pairs_that_checked_in_are_seated(client: Any) -> None:
    client.app_state.nights.pars = False
    slug, people = club_of(client, 8)
    night = scheduled(people[0], slug, people, per_round=1, rounds=1, check_in=True)
    shown = people[0].get(f"/api/nights/{night}").json()
    assert shown["check_in"] and not shown["checked_in"] and shown["entered"]
    page = people[0].get(f"/n/{night}").text
    assert w.CHECK_IN_SAYS in page and w.CHECK_IN_BUTTON in page
    # pair 1 by its first player, pair 3 by its second, pair 4 twice (once counts); not pair 2
    for person in (people[0], people[5], people[6], people[7]):
        answer = person.post(f"/api/nights/{night}/check-in")
        assert answer.status_code == 200 and answer.json() == {"checked_in": True}
    shown = people[2].get(f"/api/nights/{night}").json()
    assert [p["present"] for p in shown["pairs"]] == [True, False, True, True]
    assert shown["entered"] and not shown["checked_in"]  # pair 2's player
    page = people[1].get(f"/n/{night}").text
    assert w.CHECKED_IN in page and page.count(w.PRESENT_MARK) == 3
    outsider = Person(client, "Visitor")
    assert outsider.post(f"/api/nights/{night}/check-in").status_code in (403, 404)
    assert people[0].post(f"/api/nights/{night}/start").json() == {"started": True}
    shown = people[0].get(f"/api/nights/{night}").json()
    names = [p["name"] for p in shown["pairs"]]
    # the three present, numbered again in their order, and the computer pair of an odd field
    assert names[:3] == ["1. Member0 & Member1", "2. Member4 & Member5", "3. Member6 & Member7"]
    assert len(names) == 4 and "Member2" not in " ".join(names)
    seated = {p for g in games_of(client, night) for p in (g.ns_pair, g.ew_pair)}
    assert seated == {0, 1, 2, 3}
    late = people[2].post(f"/api/nights/{night}/check-in")
    assert late.status_code == 409 and late.json()["detail"] == w.NOT_REGISTERING


def test_a_night_without_check_in_seats_everyone_and_refuses_one(client: Any) -> None:
    client.app_state.nights.pars = False
    slug, people = club_of(client, 6)
    night = scheduled(people[0], slug, people, per_round=1, rounds=1)
    refused = people[1].post(f"/api/nights/{night}/check-in")
    assert refused.status_code == 409 and refused.json()["detail"] == w.NO_CHECK_IN
    assert w.CHECK_IN_BUTTON not in people[1].get(f"/n/{night}").text
    assert people[0].post(f"/api/nights/{night}/start").json() == {"started": True}
    shown = people[0].get(f"/api/nights/{night}").json()
    assert len(shown["pairs"]) == 4  # three pairs and the computer's


def test_single_players_check_in_too(client: Any) -> None:
    client.app_state.nights.pars = False
    slug, people = club_of(client, 6)
    night = alone(people[0], slug, people, "individual", per_round=1, rounds=1, check_in=True)
    for person in people[:4]:
        assert person.post(f"/api/nights/{night}/check-in").status_code == 200
    shown = people[0].get(f"/api/nights/{night}").json()
    assert [p["present"] for p in shown["players"]] == [True] * 4 + [False] * 2
    not_entered = people[0].post("/api/nights", {"club": slug, "name": "Other", "check_in": True})
    other = not_entered.json()["id"]
    missing = people[1].post(f"/api/nights/{other}/check-in")
    assert missing.status_code == 404 and missing.json()["detail"] == w.NOT_ENTERED
    assert people[0].post(f"/api/nights/{night}/start").json() == {"started": True}
    shown = people[0].get(f"/api/nights/{night}").json()
    assert [p["name"] for p in shown["players"]] == [f"Member{i}" for i in range(4)]
    assert len(games_of(client, night)) == 1  # one table of the four present
    # the schedule form offers it
    assert 'name="check_in"' in people[0].get(f"/clubs/{slug}/nights").text


def test_the_operators_event_delay_paces_a_nights_computers(tmp_path: Any) -> None:
    """``--event-delay`` (``FIVEHUNDRED_EVENT_DELAY``): the computer players' pause at a
    club night's tables."""
    import json

    from fastapi.testclient import TestClient

    from fivehundred.web.accounts import AccountsConfig
    from fivehundred.web.guard import Buckets, Limits
    from fivehundred.web.schema import tables
    from fivehundred.web.server import create_app

    app = create_app(
        f"sqlite:///{tmp_path / 'd.sqlite3'}",
        workers=0,
        cluster=False,
        limits=Limits(event_delay=0.25, allowed_hosts=["testserver"]),
        accounts_config=AccountsConfig(login_per_minute=1000, login_burst=1000),
    )
    with TestClient(app) as test_client:
        app.state.events.writes = Buckets(1000, 1000)
        app.state.nights.pars = False
        test_client.app_state = app.state  # type: ignore[attr-defined]
        slug, people = club_of(test_client, 4)
        night = scheduled(people[0], slug, people, per_round=1, rounds=1)
        assert people[0].post(f"/api/nights/{night}/start").json() == {"started": True}

        def made() -> list[Any]:
            with app.state.store.store.engine.connect() as db:
                return list(db.execute(sa.select(tables.c.options)).scalars())

        options = wait_for(made, 30, "the night's table")
        assert [json.loads(o)["delay"] for o in options] == [0.25]
