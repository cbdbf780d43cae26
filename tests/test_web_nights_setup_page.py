"""A club admin sets up a twelve-table night online in Debian's chromium at phone size
(390×844), as a person would: on the club's nights page she fills the form and schedules
it, on the night's page she enters with her partner, 22 more pairs of the club's members
enter (through the API: they are other people), and she starts it; the computer fills the
24th pair, and the night runs at twelve tables. The admin's part, timed from the nights
page to the started night: under five minutes (the issue's target; it takes seconds here,
the bound is far off so a busy machine does not fail it). Printed: the time and the steps."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright.sync_api")
import test_web_page
from fivehundred.web.accounts import COOKIE
from fivehundred.web.events import nights_words as words
from fivehundred.web.guard import Buckets
from test_web_events_page import SECRET, checked, signed_up
from test_web_page import CHROMIUM, Page
from test_web_support import thread_server

browser = test_web_page.browser
open_page = test_web_page.open_page

TABLES = 12
#: the issue's bound on the admin's part (seconds)
SETUP_LIMIT = 300.0

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="no chromium at /usr/bin/chromium"
)


def quick(app: Any) -> None:
    from argon2 import PasswordHasher

    # the members' accounts hashed cheaply: their sign-ups are not what is timed
    app.state.accounts.hasher = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
    app.state.clubs.writes = Buckets(1000, 1000)
    app.state.nights.table_options = {"delay": 0.0}
    app.state.nights.pars = False  # not what is measured here
    app.state.accounts.signups = Buckets(1000, 1000)  # the members sign up from one address
    app.state.events.writes = Buckets(1000, 1000)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("setup") / "setup.sqlite3"
    with thread_server(f"sqlite:///{db}", prepare=quick) as url:
        yield url


def member(base: str, name: str, code: str) -> httpx.Client:
    """Another member of the club (an account of its own, joined by the invite)."""
    client = httpx.Client(base_url=base, timeout=60)
    made = client.post("/api/accounts", json={"name": name, "password": SECRET})
    assert made.status_code == 201, made.text
    session = made.cookies[COOKIE]
    client.cookies.clear()
    client.headers["cookie"] = f"{COOKIE}={session}"
    assert client.post("/api/clubs/join", json={"code": code}).is_success
    return client


def test_an_admin_sets_up_a_twelve_table_night_on_a_phone(
    base: str, open_page: Callable[..., Page]
) -> None:
    ann = signed_up(open_page, base, "Ann")
    made = ann.context.request.post(f"{base}/api/clubs", data={"name": "Big Hall Club"})
    assert made.status == 201, made.text()
    slug = made.json()["slug"]
    code = ann.context.request.post(f"{base}/api/clubs/{slug}/invites").json()["code"]
    # the club's other members: 45 people, of whom Bob is Ann's partner
    names = ["Bob", *(f"M{i}" for i in range(44))]
    others = [member(base, name, code) for name in names]
    page = ann.page
    steps = 0
    started = time.monotonic()
    page.goto(f"{base}/clubs/{slug}/nights")
    page.get_by_label(words.FIELD_NAME, exact=True).fill("Twelve tables")
    page.get_by_label(words.FIELD_PER_ROUND, exact=True).fill("1")
    page.get_by_label(words.FIELD_ROUNDS, exact=True).fill("1")
    page.get_by_label(words.FIELD_GRACE, exact=True).fill("1")
    page.get_by_role("button", name=words.SCHEDULE_BUTTON).click()
    steps += 6
    page.wait_for_url(f"{base}/n/*")
    night = page.url.rsplit("/", 1)[1]
    page.get_by_label(words.FIELD_PARTNER, exact=True).fill("Bob")
    page.get_by_role("button", name=words.ENTER_BUTTON).click()
    steps += 2
    page.wait_for_selector("#pairs li")
    for first, partner in zip(others[1::2], names[2::2], strict=True):  # 22 pairs more
        entered = first.post(f"/api/nights/{night}/pairs", json={"partner": partner})
        assert entered.status_code == 201, entered.text
    page.reload()
    steps += 1
    assert page.locator("#pairs li").count() == 2 * TABLES - 1
    problems = checked(page, "night of 23 pairs")
    page.get_by_role("button", name=words.START_BUTTON).click()
    steps += 1
    running = words.STATE_LABELS["running"]
    page.wait_for_selector(f"#facts:has-text('{running}')")
    took = time.monotonic() - started
    print(f"the admin's part: {took:.1f} s, {steps} steps (filled fields and taps, a reload)")
    shown = others[0].get(f"/api/nights/{night}").json()
    assert shown["games"] == TABLES  # one round of one board: a table a game, twelve
    assert took < SETUP_LIMIT
    problems += checked(page, "night of twelve tables, started")
    assert not problems, "\n".join(problems)
    for client in others:
        client.close()
    ann.check()
