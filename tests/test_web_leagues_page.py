"""A league season in Debian's chromium through Playwright at phone size (390×844): the
organiser starts a season from the leagues page (one week, divisions of two pairs, a game
counted a week) and enters with her partner on the season's page; another pair enters on
theirs; the season starts (its clock moved on by the test), so the two pairs make one
division, and its page shows the week's game between them; they play it at an ordinary
table, every seat its account's; the season's page shows its score and the game counted
in the division's standings. The layout check (no sideways scroll,
tap targets of 44 px; each division's table fits the phone's width, with no scroll of its
own) and axe-core on the leagues page, the season's page while it takes entries and its
standings. Screenshots of each go to the test's own folder."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright.sync_api")
import test_web_page
from fivehundred.web.accounts import COOKIE
from fivehundred.web.events import words
from fivehundred.web.guard import Buckets
from test_web_events_page import checked, signed_up
from test_web_leagues import play_a_game
from test_web_page import CHROMIUM, Page
from test_web_support import thread_server, wait_for

browser = test_web_page.browser
open_page = test_web_page.open_page

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="no chromium at /usr/bin/chromium"
)

#: long names, so that the pairs' names must wrap to fit a phone
NAMES = ("Evangeline", "Featherstonehaughington", "Bartholomew", "Christabel")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, list[float]]]:
    """The server and the seasons' clock, an hour behind until the test moves it on."""
    now = [time.time() - 3600]

    def prepare(app: Any) -> None:
        app.state.events.clock = lambda: now[0]
        app.state.accounts.signups = Buckets(100, 100)  # four sign-ups from one address

    db = tmp_path_factory.mktemp("leagues") / "leagues.sqlite3"
    with thread_server(f"sqlite:///{db}", prepare=prepare) as url:
        yield url, now


def headers(person: Page) -> dict[str, str]:
    """The person's session as a request's headers (for the table's sockets)."""
    session = next(c["value"] for c in person.context.cookies() if c["name"] == COOKIE)
    return {"cookie": f"{COOKIE}={session}"}


def fits(page: Any) -> list[str]:
    """Each division's table as wide as its region at most: no scroll of its own."""
    widths = page.eval_on_selector_all(
        "table.standings",
        "ts => ts.map(t => [t.scrollWidth, t.closest('.scroll').clientWidth])",
    )
    return [f"a division's table is {a}px in {b}px" for a, b in widths if a > b]


def test_a_league_season_on_a_phone_from_entries_to_standings(
    served: tuple[str, list[float]], open_page: Callable[..., Page], tmp_path: Path
) -> None:
    base, now = served
    people = {name: signed_up(open_page, base, name) for name in NAMES}
    ann, bob, cat, dan = (people[name] for name in NAMES)
    page = ann.page
    page.goto(f"{base}/leagues")
    problems = checked(page, "leagues page")
    page.screenshot(path=tmp_path / "leagues.png", full_page=True)
    page.get_by_label(words.FIELD_NAME, exact=True).fill("Phone League")
    page.get_by_label(words.FIELD_WEEKS, exact=True).fill("1")
    page.get_by_label(words.FIELD_DIVISION_SIZE, exact=True).fill("2")
    page.get_by_label(words.FIELD_PER_WEEK, exact=True).fill("1")
    page.get_by_label(words.FIELD_MOVES, exact=True).fill("1")
    page.get_by_role("button", name=words.LEAGUE_CREATE_BUTTON).click()
    page.wait_for_url(f"{base}/l/*")
    season = page.url.rsplit("/", 1)[1]
    # each pair enters on the season's page
    for first, second in ((ann, NAMES[1]), (cat, NAMES[3])):
        first.page.goto(f"{base}/l/{season}")
        first.page.get_by_label(words.FIELD_PARTNER, exact=True).fill(second)
        first.page.get_by_role("button", name=words.REGISTER_BUTTON).click()
        first.page.wait_for_selector(f"#pairs li:has-text('{second}')")
    page.reload()
    assert page.locator("#pairs li").count() == 2
    assert page.get_by_role("button", name=words.REGISTER_BUTTON).count() == 0
    problems += checked(page, "season page, taking entries")
    page.screenshot(path=tmp_path / "season-entries.png", full_page=True)

    def shown() -> dict[str, Any]:
        answer: dict[str, Any] = httpx.get(f"{base}/api/leagues/{season}").json()
        return answer

    now[0] = time.time()  # the season starts
    wait_for(lambda: shown()["state"] == "running", 10, "the season's start")
    page.reload()  # the week's game, to play
    week = page.locator("ul.week-games li")
    assert week.count() == 1 and week.inner_text().endswith(f": {words.TO_PLAY}")
    # played in a thread of its own: this one runs the browser's event loop
    with ThreadPoolExecutor(1) as player:
        player.submit(play_a_game, base, [headers(p) for p in (ann, bob, cat, dan)]).result()
    wait_for(lambda: sum(x["played"] for x in shown()["divisions"][0]) == 2, 30, "the count")

    page.reload()
    assert page.locator(f"#facts:has-text('{words.STATE_LABELS['running']}')").count() == 1
    rows = page.locator("table.standings tbody tr")
    assert rows.count() == 2
    assert rows.nth(0).locator("td").nth(2).inner_text() == "1"  # games played
    assert rows.nth(1).locator("td").nth(2).inner_text() == "1"
    assert sorted(rows.locator("th").all_inner_texts()) == sorted(
        [f"{NAMES[0]} & {NAMES[1]}", f"{NAMES[2]} & {NAMES[3]}"]
    )
    assert page.locator("table.standings th[title='Games played']").count() == 1
    assert " – " in week.inner_text() and words.TO_PLAY not in week.inner_text()  # its score
    problems += checked(page, "season page, standings") + fits(page)
    page.screenshot(path=tmp_path / "season-standings.png", full_page=True)
    assert not problems, "\n".join(problems)
    for person in people.values():
        person.check()
