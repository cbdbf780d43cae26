"""A club night in Debian's chromium through Playwright at phone size (390×844): the club's
owner schedules it on the club's nights page, enters with her partner on the night's page,
another pair enters through the API, she starts it; nobody comes to the table, so the
computer plays every seat after the second's grace; the page, drawing itself again, ends
on the standings and the board's traveller. The layout check (no sideways scroll, tap
targets of 44 px) and axe-core on the nights page, the night before the start and at the
end."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
import test_web_page
from fivehundred.web.events import nights_words as words
from fivehundred.web.guard import Buckets
from test_web_events_page import checked, signed_up
from test_web_page import CHROMIUM, Page
from test_web_support import thread_server

browser = test_web_page.browser
open_page = test_web_page.open_page

#: a night of one board at one table, every seat the computer's
NIGHT_MS = 120_000

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="no chromium at /usr/bin/chromium"
)


def quick(app: Any) -> None:
    app.state.nights.table_options = {"delay": 0.0}  # the computer's moves at once
    app.state.accounts.signups = Buckets(100, 100)  # four sign-ups from one address


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("nights") / "nights.sqlite3"
    with thread_server(f"sqlite:///{db}", prepare=quick) as url:
        yield url


def test_a_club_night_from_scheduling_to_the_standings_on_a_phone(
    base: str, open_page: Callable[..., Page]
) -> None:
    ann = signed_up(open_page, base, "Ann")
    others = {name: signed_up(open_page, base, name) for name in ("Bob", "Cat", "Dan")}
    made = ann.context.request.post(f"{base}/api/clubs", data={"name": "Hall Club"})
    assert made.status == 201, made.text()
    slug = made.json()["slug"]
    for person in others.values():
        code = ann.context.request.post(f"{base}/api/clubs/{slug}/invites").json()["code"]
        assert person.context.request.post(f"{base}/api/clubs/join", data={"code": code}).ok
    page = ann.page
    page.goto(f"{base}/clubs/{slug}/nights")
    problems = checked(page, "club nights")
    page.get_by_label(words.FIELD_NAME, exact=True).fill("Phone night")
    page.get_by_label(words.FIELD_PER_ROUND, exact=True).fill("1")
    page.get_by_label(words.FIELD_ROUNDS, exact=True).fill("1")
    page.get_by_label(words.FIELD_GRACE, exact=True).fill("1")
    page.get_by_role("button", name=words.SCHEDULE_BUTTON).click()
    page.wait_for_url(f"{base}/n/*")
    night = page.url.rsplit("/", 1)[1]
    page.get_by_label(words.FIELD_PARTNER, exact=True).fill("Bob")
    page.get_by_role("button", name=words.ENTER_BUTTON).click()
    page.wait_for_selector("#pairs li")
    answer = others["Cat"].context.request.post(
        f"{base}/api/nights/{night}/pairs", data={"partner": "Dan"}
    )
    assert answer.status == 201, answer.text()
    page.reload()
    assert page.locator("#pairs li").count() == 2
    problems += checked(page, "night, entering")
    page.get_by_role("button", name=words.START_BUTTON).click()
    finished = words.STATE_LABELS["finished"]
    page.wait_for_selector(f"#facts:has-text('{finished}')", timeout=NIGHT_MS)
    assert page.locator("#results table").count() == 2  # the standings, board 1
    assert page.locator("#results table").first.locator("tbody tr").count() == 2
    problems += checked(page, "night, final")
    assert not problems, "\n".join(problems)
    ann.check()
