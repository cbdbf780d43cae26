"""A club night in Debian's chromium through Playwright at phone size (390×844): the club's
owner schedules it on the club's nights page, enters with her partner on the night's page,
another pair enters through the API, she starts it; nobody comes to the table, so the
computer plays every seat after the second's grace; the page, drawing itself again, ends
on the standings and the board's traveller. The layout check (no sideways scroll, tap
targets of 44 px) and axe-core on the nights page, the night before the start and at the
end."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
import test_web_page
from fivehundred.web.events import nights_words as words
from fivehundred.web.guard import Buckets
from test_web_events_page import SECRET, checked, signed_up
from test_web_page import CHROMIUM, Page
from test_web_support import thread_server, wait_for

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
    assert page.locator("#results table").count() == 3  # the standings, the round, board 1
    assert page.locator("#results table").first.locator("tbody tr").count() == 2
    problems += checked(page, "night, final")
    page.screenshot(path="/tmp/night-final-phone.png", full_page=True)
    assert not problems, "\n".join(problems)
    ann.check()


#: what the print stylesheet (static/css/print.css) makes of the page, read in print media
PRINTED = """() => {
  const style = (el) => getComputedStyle(el);
  const shown = (el) => style(el).display !== "none";
  return {
    header: shown(document.querySelector("header.bar")),
    forms: [...document.querySelectorAll("form")].some(shown),
    back: [...document.querySelectorAll(".screen-only")].some(shown),
    colours: [...document.querySelectorAll("body, main, .panel, table, th, td, caption, a")]
      .map((el) => [style(el).color, style(el).backgroundColor])
      .filter(([c, b]) => c !== "rgb(0, 0, 0)" || !["rgb(255, 255, 255)", "rgba(0, 0, 0, 0)"].includes(b))
      .length,
    kept: [...document.querySelectorAll("#results table")].every(
      (t) => style(t).breakInside === "avoid"
    ),
    rows: [...document.querySelectorAll("#results tr")].every(
      (r) => style(r).breakInside === "avoid"
    ),
    tables: document.querySelectorAll("#results table").length,
  };
}"""


def test_a_finished_nights_results_print_black_on_white_without_the_pages_controls(
    base: str, browser: Any, tmp_path: Any
) -> None:
    """Four pairs, three rounds of a board scored by games won: the results page printed
    (print media, and a PDF): no header, navigation or link back, black on white, each
    table kept whole on a sheet and no row split; its screenshot in print media and the
    PDF are left in /tmp to be looked at."""
    contexts = [browser.new_context() for _ in range(8)]
    try:
        people = [c.request for c in contexts]
        for i, person in enumerate(people):
            made = person.post(
                f"{base}/api/accounts", data={"name": f"Printer{i}", "password": SECRET}
            )
            assert made.status == 201, made.text()
        slug = people[0].post(f"{base}/api/clubs", data={"name": "Print Club"}).json()["slug"]
        for person in people[1:]:
            code = people[0].post(f"{base}/api/clubs/{slug}/invites").json()["code"]
            assert person.post(f"{base}/api/clubs/join", data={"code": code}).ok
        body = {"club": slug, "name": "Printed night", "grace": 1, "per_round": 1, "rounds": 3}
        night = people[0].post(f"{base}/api/nights", data={**body, "scoring": "games"}).json()["id"]
        for first in range(0, 8, 2):
            entered = people[first].post(
                f"{base}/api/nights/{night}/pairs", data={"partner": f"Printer{first + 1}"}
            )
            assert entered.status == 201, entered.text()
        assert people[0].post(f"{base}/api/nights/{night}/start").json() == {"started": True}

        def over() -> bool:
            return bool(people[1].get(f"{base}/api/nights/{night}").json()["state"] == "finished")

        wait_for(over, NIGHT_MS / 1000, "the night's end")
        page = contexts[0].new_page()
        page.set_viewport_size({"width": 390, "height": 844})
        page.goto(f"{base}/n/{night}")
        assert page.evaluate(PRINTED)["header"]  # on the screen: the header, the link back
        page.screenshot(path="/tmp/night-results-phone.png", full_page=True)
        page.set_viewport_size({"width": 794, "height": 1123})  # A4 at 96 dpi
        page.emulate_media(media="print")
        printed = page.evaluate(PRINTED)
        assert printed == {
            "header": False,
            "forms": False,
            "back": False,
            "colours": 0,
            "kept": True,
            "rows": True,
            "tables": 2 + 3,  # the standings, the rounds, a traveller a board
        }
        page.screenshot(path="/tmp/night-print.png", full_page=True)
        pdf = page.pdf(path="/tmp/night-print.pdf", format="A4", print_background=True)
        sheets = len(re.findall(rb"/Type\s*/Page\b", pdf))
        print(f"the results printed on {sheets} A4 sheets")
        assert pdf.startswith(b"%PDF") and sheets >= 1
    finally:
        for context in contexts:
            context.close()
