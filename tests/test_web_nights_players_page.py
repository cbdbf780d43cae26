"""A club night of single players in Debian's chromium through Playwright at phone size
(390×844): the club's owner schedules an individual night on the club's nights page
(choosing the movement), enters alone on the night's page, three more enter through the
API (so two computers fill the second table), she starts it, and the page says the
movement and where each player sits (her own seat first, in words). The layout check (no
sideways scroll, tap targets of 44 px) and axe-core on the night before and after the
start."""

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

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="no chromium at /usr/bin/chromium"
)


def quick(app: Any) -> None:
    app.state.nights.pars = False
    app.state.accounts.signups = Buckets(100, 100)  # five sign-ups from one address


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("solo") / "solo.sqlite3"
    with thread_server(f"sqlite:///{db}", prepare=quick) as url:
        yield url


def test_an_individual_night_tells_each_player_where_to_sit_on_a_phone(
    base: str, open_page: Callable[..., Page]
) -> None:
    ann = signed_up(open_page, base, "Ann")
    others = {name: signed_up(open_page, base, name) for name in ("Bob", "Cat", "Dan", "Eve")}
    made = ann.context.request.post(f"{base}/api/clubs", data={"name": "Solo Club"})
    assert made.status == 201, made.text()
    slug = made.json()["slug"]
    for person in others.values():
        code = ann.context.request.post(f"{base}/api/clubs/{slug}/invites").json()["code"]
        assert person.context.request.post(f"{base}/api/clubs/join", data={"code": code}).ok
    page = ann.page
    page.goto(f"{base}/clubs/{slug}/nights")
    page.get_by_label(words.FIELD_NAME, exact=True).fill("Rotating night")
    page.get_by_label(words.FIELD_ROUNDS, exact=True).fill("3")
    page.get_by_label(words.FIELD_MOVEMENT).select_option("individual")
    page.get_by_role("button", name=words.SCHEDULE_BUTTON).click()
    page.wait_for_url(f"{base}/n/*")
    night = page.url.rsplit("/", 1)[1]
    assert page.get_by_text(words.MOVEMENT_LABELS["individual"], exact=False).count() == 1
    page.get_by_role("button", name=words.ENTER_ALONE_BUTTON).click()
    page.wait_for_selector("#players li")
    for person in others.values():
        answer = person.context.request.post(f"{base}/api/nights/{night}/players")
        assert answer.status == 201, answer.text()
    page.reload()
    assert page.locator("#players li").count() == 5
    problems = checked(page, "individual night, entering")
    page.get_by_role("button", name=words.START_BUTTON).click()
    page.wait_for_selector("#seating tbody tr")
    rows = page.locator("#seating tbody tr")
    assert rows.count() == 8  # five people, three computers, two tables
    mine = page.locator("#seating tbody tr", has_text="Ann").first.locator("td").all_inner_texts()
    said = words.MY_SEAT.format(round=1, table=mine[2], seat=mine[3])
    assert page.locator("#my-seat").inner_text() == said
    problems += checked(page, "individual night, seated")
    assert not problems, "\n".join(problems)
    ann.check()
