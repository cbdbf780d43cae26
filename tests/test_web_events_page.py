"""A small Swiss in Debian's chromium through Playwright at phone size (390×844), from the
registration to the final standings: the organiser starts it from the tournaments page
(games of one hand: the first side to 10 points wins), enters with her partner and checks
in on the event's page; two more pairs enter through the API; she starts round 1; nobody
comes to the tables, so the computer plays every seat after the second's grace; the page,
drawing itself again, ends on the final standings and the crosstable with each game's
record linked. The layout check (no sideways scroll, tap targets of 44 px; the standings
fit the phone's width, with no scroll of their own) and axe-core on the index, the
event's page before the start and its final page."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
import test_web_page
from fivehundred.web.events import words
from fivehundred.web.guard import Buckets
from test_web_a11y import AXE, axe_problems
from test_web_friends_page import SMALL_TARGETS
from test_web_page import CHROMIUM, Page
from test_web_support import thread_server

browser = test_web_page.browser
open_page = test_web_page.open_page

CHECK = (Path(__file__).with_name("layout_check.js")).read_text(encoding="utf-8")
PHONE = {"width": 390, "height": 844}
SECRET = "correct horse battery staple 42"
#: two rounds of one-hand games, every seat the computer's
EVENT_MS = 180_000

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="no chromium at /usr/bin/chromium"
)


def quick(app: Any) -> None:
    app.state.events.table_options = {"delay": 0.0}  # the computer's moves at once
    app.state.accounts.signups = Buckets(100, 100)  # six sign-ups from one address


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("events") / "events.sqlite3"
    with thread_server(f"sqlite:///{db}", prepare=quick) as url:
        yield url


def signed_up(open_page: Callable[..., Page], base: str, name: str) -> Page:
    p = open_page(PHONE)
    answer = p.context.request.post(f"{base}/api/accounts", data={"name": name, "password": SECRET})
    assert answer.status == 201, answer.text()
    return p


def checked(page: Any, where: str) -> list[str]:
    problems = [f"{where}: {p}" for p in page.evaluate(CHECK)["problems"]]
    problems += [f"{where}: a small tap target: {t}" for t in page.evaluate(SMALL_TARGETS)]
    return problems + (axe_problems(page, where) if AXE.exists() else [])


def test_a_small_swiss_from_registration_to_the_final_standings_on_a_phone(
    base: str, open_page: Callable[..., Page]
) -> None:
    ann = signed_up(open_page, base, "Ann")
    others = {
        name: signed_up(open_page, base, name) for name in ("Bob", "Cat", "Dan", "Eve", "Fay")
    }
    page = ann.page
    page.goto(f"{base}/events")
    problems = checked(page, "tournaments index")
    page.get_by_label(words.FIELD_NAME, exact=True).fill("Phone Swiss")
    page.get_by_label(words.FIELD_ROUNDS, exact=True).fill("2")
    page.get_by_label(words.FIELD_TARGET, exact=True).fill("10")
    page.get_by_label(words.FIELD_FIRST_TO_TARGET, exact=True).check()
    page.get_by_label(words.FIELD_GRACE, exact=True).fill("1")
    page.get_by_role("button", name=words.CREATE_BUTTON).click()
    page.wait_for_url(f"{base}/e/*")
    event = page.url.rsplit("/", 1)[1]
    page.get_by_label(words.FIELD_PARTNER, exact=True).fill("Bob")
    page.get_by_role("button", name=words.REGISTER_BUTTON).click()
    page.get_by_role("button", name=words.CHECK_IN_BUTTON).click()
    page.wait_for_selector(f"#mine:has-text('{words.CHECKED_IN}')")
    for first, second in (("Cat", "Dan"), ("Eve", "Fay")):
        request = others[first].context.request
        answer = request.post(f"{base}/api/events/{event}/pairs", data={"partner": second})
        assert answer.status == 201, answer.text()
        assert request.post(f"{base}/api/events/{event}/check-in").status == 200
    page.reload()
    assert page.locator("#pairs li").count() == 3
    problems += checked(page, "event page, registering")
    page.get_by_role("button", name=words.START_BUTTON).click()
    # the page draws itself again until the event is over
    page.wait_for_selector(f"#facts:has-text('{words.STATE_LABELS['finished']}')", timeout=EVENT_MS)
    rows = page.locator("#standings tbody tr")
    assert rows.count() == 3
    assert page.locator("#crosstable tbody tr").count() == 3
    links = page.locator("#crosstable a[href^='/g/']")
    assert links.count() == 4  # a game a round (and a bye), in both its pairs' lines
    problems += checked(page, "event page, final")
    # the standings fit the phone's width: no sideways scroll in their region either
    wide = page.eval_on_selector(
        "#standings", "t => [t.scrollWidth, t.closest('.scroll').clientWidth, t.offsetWidth]"
    )
    assert wide[0] <= wide[1] and wide[2] <= wide[1], (
        f"the standings are {wide[0]}px in {wide[1]}px"
    )
    assert page.locator("#standings thead th[title='Buchholz']").count() == 1
    record = page.request.get(f"{base}/api/tables/{links.first.get_attribute('href')[3:]}/record")
    assert record.status == 200
    assert not problems, "\n".join(problems)
    ann.check()
