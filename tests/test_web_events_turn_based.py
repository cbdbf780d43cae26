"""Turn-based tournaments (web/events/): an event's tables played over days with a clock per
move (``move_clock``, chosen by the organiser within the server's bounds) and each round a
deadline (``round_time``): when it passes, the games not over are finished by the stand-ins
(their moves ``overtime`` in the log, the game marked in the event) and the next round is
paired. The deadline is each table's ``finish`` row of the deadlines (web/deadlines.py): it
holds across a restart. Time is moved by rewriting the rows' due times (as
tests/test_web_deadlines.py does), never by waiting; on SQLite and PostgreSQL."""

from __future__ import annotations

import html
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from fivehundred.web.accounts import AccountsConfig
from fivehundred.web.events import words
from fivehundred.web.guard import Buckets
from fivehundred.web.server import create_app
from test_web_events import Person, entered, people
from test_web_support import DATABASES, database_url, thread_server, wait_for

DAY = 86_400.0


def rows(url: str, query: str, **values: Any) -> list[Any]:
    engine = sa.create_engine(url)
    try:
        with engine.begin() as db:
            result = db.execute(sa.text(query), values)
            return list(result.all()) if result.returns_rows else []
    finally:
        engine.dispose()


@contextmanager
def serving(url: str) -> Iterator[Any]:
    app = create_app(
        url,
        workers=0,
        cluster=False,
        accounts_config=AccountsConfig(login_per_minute=1000, login_burst=1000),
    )
    with TestClient(app) as client:
        app.state.events.writes = Buckets(1000, 1000)
        app.state.events.table_options = {"delay": 0.0}  # the computer's moves at once
        # the test rewrites rows' due times behind the scheduler's back: it looks at
        # every wake (as its look every RELOOK seconds would find them)
        app.state.hub.scheduler.relook = 0.0
        client.app_state = app.state  # type: ignore[attr-defined]
        yield client


def days_pass(url: str, code: str) -> float:
    """The round's deadline of table ``code`` is due now; the time it was moved to."""
    now = time.time()
    moved = rows(
        url,
        "UPDATE deadlines SET due = :now WHERE kind = 'finish' AND table_id = "
        "(SELECT id FROM tables WHERE code = :code)",
        now=now,
        code=code,
    )
    assert moved == []
    return now


def finish_row(url: str, code: str) -> Any:
    found = rows(
        url,
        "SELECT d.due, d.fired FROM deadlines d JOIN tables t ON t.id = d.table_id "
        "WHERE t.code = :code AND d.kind = 'finish'",
        code=code,
    )
    return found[0] if found else None


def the_game(person: Person, event: int, number: int) -> dict[str, Any]:
    """Round ``number``'s (one) game once its table is made."""

    def made() -> dict[str, Any] | None:
        shown = person.get(f"/api/events/{event}").json()
        if len(shown["rounds_played"]) < number:
            return None
        (game,) = shown["rounds_played"][number - 1]["games"]
        return game if game["code"] else None

    found: dict[str, Any] = wait_for(made, 60, f"round {number}'s table")
    return found


def test_a_turn_based_events_bounds_are_checked(tmp_path: Path) -> None:
    with serving(database_url("sqlite", tmp_path)) as client:
        (ann,) = people(client, 1)
        body = {"name": "Slow Cup"}
        for facts, said in (
            ({"move_clock": DAY}, words.TURN_BASED_BOTH),
            ({"round_time": DAY}, words.TURN_BASED_BOTH),
            ({"move_clock": 60, "round_time": DAY}, "at least 3600 s"),
            ({"move_clock": DAY, "round_time": 3600}, words.ROUND_TIME_LEAST),
            ({"move_clock": DAY, "round_time": DAY, "turn_timer": 30}, words.TURN_BASED_NO_TIMER),
        ):
            refused = ann.post("/api/events", {**body, **facts})
            assert refused.status_code == 422 and said in refused.json()["detail"], facts
        assert ann.post("/api/events", {**body, "move_clock": 8 * DAY}).status_code == 422
        made = ann.post("/api/events", {**body, "move_clock": DAY, "round_time": 3 * DAY})
        assert made.status_code == 201, made.text


@pytest.mark.parametrize("kind", DATABASES)
def test_a_rounds_deadline_finishes_its_games_and_pairs_the_next_across_a_restart(
    kind: str, tmp_path: Path
) -> None:
    url = database_url(kind, tmp_path)
    with serving(url) as client:
        players = people(client, 4)
        facts = {"rounds": 2, "move_clock": DAY, "round_time": 3 * DAY}
        event = entered(players[0], players, **facts)
        started = time.time()
        assert players[0].post(f"/api/events/{event}/start").json() == {"started": True}
        game = the_game(players[0], event, 1)
        shown = players[0].get(f"/api/events/{event}").json()
        assert (shown["move_clock"], shown["round_time"]) == (DAY, 3 * DAY)
        due = shown["rounds_played"][0]["due"]
        assert started + 3 * DAY <= due <= time.time() + 3 * DAY
        options = client.get(f"/api/tables/{game['code']}").json()["options"]
        assert options["move_clock"] == DAY and options["finish_by"] == due
        assert options["turn_timer"] is None
        # the round's deadline is the table's row; the players' clocks run a day a move
        row = wait_for(lambda: finish_row(url, game["code"]), 30, "the round's deadline row")
        assert row.due == due and not row.fired
        page = players[1].get(f"/e/{event}").text
        assert "Turn-based: 1 day a move, 3 days a round" in page
        assert "Round 1 ends by" in page
    # nobody moved (four people, a day each a move): the server stops, days pass
    with serving(url) as client:
        for person in players:
            person.client = client
        moved = days_pass(url, game["code"])

        def round_two() -> dict[str, Any] | None:
            shown = players[0].get(f"/api/events/{event}").json()
            return shown if len(shown["rounds_played"]) == 2 else None

        shown = wait_for(round_two, 120, "round 1 finished by the stand-ins, round 2 paired")
        (first,) = shown["rounds_played"][0]["games"]
        assert first["finished"] and first["overtime"] and first["absent"] == []
        made = rows(
            url,
            "SELECT a.by, a.at FROM actions a JOIN tables t ON t.id = a.table_id "
            "WHERE t.code = :code ORDER BY a.version",
            code=game["code"],
        )
        # every seat was a person's who never came: each move the stand-ins' after the
        # deadline, none before it
        assert made and {m.by for m in made} == {"overtime"}
        assert min(m.at for m in made) >= moved
        second = the_game(players[0], event, 2)
        started_two = rows(
            url, "SELECT started, due FROM event_rounds WHERE number = 2 AND event_id = :e", e=event
        )[0]
        assert started_two.started >= moved and started_two.due == started_two.started + 3 * DAY
        wait_for(lambda: finish_row(url, second["code"]), 30, "round 2's deadline row")
        page = players[1].get(f"/e/{event}").text
        assert html.escape(words.OVERTIME) in page
        days_pass(url, second["code"])

        def over() -> dict[str, Any] | None:
            shown = players[0].get(f"/api/events/{event}").json()
            return shown if shown["state"] == "finished" else None

        final = wait_for(over, 120, "the event's end")
        assert [g["overtime"] for r in final["rounds_played"] for g in r["games"]] == [True] * 2
        assert sorted(s["played"] for s in final["standings"]) == [2, 2]


def test_an_organiser_makes_a_turn_based_event_on_the_page_at_phone_size(tmp_path: Path) -> None:
    """The tournaments page asks a turn-based event's clocks in hours and days (Playwright,
    Debian's chromium, 390x844): the event is made with them, in seconds."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("no chromium at /usr/bin/chromium")
    with (
        thread_server(f"sqlite:///{tmp_path / 'w.sqlite3'}") as base,
        playwright_api.sync_playwright() as p,
    ):
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        try:
            context = browser.new_context(viewport={"width": 390, "height": 844})
            page = context.new_page()
            made = context.request.post(
                f"{base}/api/accounts", data={"name": "Ann", "password": "a long password 48"}
            )
            assert made.status == 201, made.text()
            page.goto(f"{base}/events")
            page.get_by_label(words.FIELD_NAME, exact=True).fill("Week Swiss")
            page.get_by_label(words.FIELD_MOVE_HOURS, exact=True).fill("24")
            page.get_by_label(words.FIELD_ROUND_DAYS, exact=True).fill("3")
            page.get_by_role("button", name=words.CREATE_BUTTON).click()
            page.wait_for_url(f"{base}/e/*")
            assert "Turn-based: 1 day a move, 3 days a round" in page.inner_text("#facts")
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            page.screenshot(path=str(tmp_path / "turn-based-event-phone.png"))
            event = page.url.rsplit("/", 1)[1]
            shown = context.request.get(f"{base}/api/events/{event}").json()
            assert (shown["move_clock"], shown["round_time"]) == (DAY, 3 * DAY)
        finally:
            browser.close()
