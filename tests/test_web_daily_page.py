"""The daily boards page (/daily) in Debian's chromium through Playwright against a real
server: a whole day (twelve boards) played by tapping at 390×844, the result, the par and the
traveller after each board (never before), a reload that resumes where the day was left,
the layout (no sideways scroll, tap targets of 44×44 px, no overlaps: tests/layout_check.js)
at phone and desktop sizes, and axe-core (no serious or critical violation). Screenshots:
docs/screenshots/web-daily-*.png with ``FIVEHUNDRED_SCREENSHOTS=1``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
import test_web_page
from fivehundred.daily import DAILY_BOARDS
from fivehundred.web.daily import DailyService
from test_web_a11y import AXE, axe_problems
from test_web_page import CHROMIUM, Page, shot
from test_web_support import thread_server

browser = test_web_page.browser
open_page = test_web_page.open_page

CHECK = (Path(__file__).with_name("layout_check.js")).read_text(encoding="utf-8")
PHONE = (390, 844)
DESKTOP = (1366, 768)

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="no chromium at /usr/bin/chromium"
)


def daily_server(tmp_path_factory: pytest.TempPathFactory, boards: int) -> Iterator[str]:
    db = tmp_path_factory.mktemp("daily") / "daily.sqlite3"

    def prepare(app: Any) -> None:
        app.state.daily = DailyService(
            "page-secret",
            boards=boards,
            clock=lambda: date(2026, 12, 6),
            engine=app.state.store.store.engine,
            table_seconds=0,  # the tables read at once (a server waits ten seconds)
        )

    with thread_server(f"sqlite:///{db}", prepare=prepare) as url:
        yield url


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A whole daily: the day's twelve boards."""
    yield from daily_server(tmp_path_factory, DAILY_BOARDS)


@pytest.fixture(scope="module")
def short(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A day of two boards (what is shown at a day's end, sooner)."""
    yield from daily_server(tmp_path_factory, 2)


def problems_at(page: Any, where: str, shots: str) -> list[str]:
    found: list[str] = []
    for width, height in (PHONE, DESKTOP):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function("w => document.documentElement.clientWidth <= w", arg=width)
        found += [f"{where} at {width}x{height}: {p}" for p in page.evaluate(CHECK)["problems"]]
        shot(page, f"{shots}-{'phone' if width < 800 else 'desktop'}", full_page=True)
    if AXE.exists():
        found += axe_problems(page, where)
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    return found


def tap_through_board(page: Any) -> None:
    """South taps the first call (a pass, when allowed) or the first playable card until
    the board is over."""
    for _ in range(120):
        if page.locator("#after:not([hidden])").count():
            return
        assert (
            page.locator("#traveller-title").inner_text() == "Traveller"
            or page.locator("#after[hidden]").count()
        )
        calls = page.locator("#calls button")
        cards = page.locator("#hand button:not([disabled])")
        before = page.inner_text("#play")
        if calls.count():
            calls.first.click()
        elif cards.count():
            cards.first.click()
        else:
            raise AssertionError("nothing to tap while the board is in play")
        page.wait_for_function(
            "b => document.querySelector('#play').innerText !== b"
            " || !document.querySelector('#after').hidden",
            arg=before,
        )
    raise AssertionError("the board did not end")


def test_a_whole_day_by_tapping(base: str, open_page: Callable[..., Page]) -> None:
    holder = open_page({"width": PHONE[0], "height": PHONE[1]})
    page = holder.page
    page.goto(base + "/daily")
    page.wait_for_selector("body[data-ready='1']")
    assert page.inner_text("#day-title") == "The daily boards of 2026-12-06"
    problems = problems_at(page, "daily start", "daily-start")
    page.fill("#name", "Ann")
    page.click("#start")
    page.wait_for_selector("#play:not([hidden])")
    assert page.locator("#after[hidden]").count()  # no result, no traveller before play
    problems += problems_at(page, "daily board", "daily-board")
    tap_through_board(page)
    assert "Your result:" in page.inner_text("#result")
    assert page.inner_text("#traveller-title") == "Traveller of board 1"
    assert "Ann" in page.inner_text("#traveller tbody")
    page.wait_for_function("document.querySelector('#board-list').innerText.includes('played')")
    # the par, worked out in the background, shows when it is ready
    page.wait_for_function(
        "document.querySelector('#par').innerText.includes('against par')", timeout=120_000
    )
    assert page.locator("#start-row[hidden]").count()
    # your line beside the field's, and the hand's review and moves
    page.wait_for_selector("#field tbody tr.me")
    assert "(you)" in page.inner_text("#field tbody")
    page.click("#review-box summary")
    page.wait_for_selector("#moves li")
    assert page.inner_text("#analysis")
    problems += problems_at(page, "daily traveller", "daily-traveller")
    # a reload resumes the entry where it was
    page.reload()
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#after:not([hidden])")
    for board in range(2, DAILY_BOARDS + 1):  # the rest of the day
        page.click("#next")
        page.wait_for_function(
            "n => document.querySelector('#board-title').innerText.startsWith(`Board ${n}`)",
            arg=board,
        )
        assert page.locator("#after[hidden]").count()
        tap_through_board(page)
        assert page.inner_text("#traveller-title") == f"Traveller of board {board}"
    page.wait_for_function("document.querySelector('#standing').innerText.includes('Your day')")
    assert page.locator("#next[hidden]").count()
    page.wait_for_selector("#day-table-box:not([hidden])")
    assert "Ann" in page.inner_text("#day-table")
    page.wait_for_selector("#week-table li")  # a guest: unranked, and no history
    assert "Ann" not in page.inner_text("#week-table")
    assert page.locator("#history-box[hidden]").count()
    page.wait_for_selector("#day-review-box:not([hidden])")
    assert page.locator("#day-review li").count() == DAILY_BOARDS
    assert page.inner_text("#day-review").startswith("Board 1: your line ")
    problems += problems_at(page, "daily end", "daily-end")
    assert not problems, "\n".join(problems)
    holder.check()  # no console or page error on the way


def test_an_account_sees_its_streak_and_its_days(
    short: str, open_page: Callable[..., Page]
) -> None:
    """Someone logged in plays the day under the account: at the end, the week's table
    ranks them, and their streak (one day) and their days are shown."""
    holder = open_page({"width": PHONE[0], "height": PHONE[1]})
    page = holder.page
    page.goto(short + "/daily")
    page.wait_for_selector("body[data-ready='1']")
    status = page.evaluate(
        """async () => (await fetch('/api/accounts', {method: 'POST',
            headers: {'content-type': 'application/json'},
            body: JSON.stringify({name: 'Dora', password: 'correct horse battery 42'})})).status"""
    )
    assert status == 201
    page.click("#start")
    page.wait_for_selector("#play:not([hidden])")
    tap_through_board(page)
    page.click("#next")
    page.wait_for_function("document.querySelector('#board-title').innerText.startsWith('Board 2')")
    tap_through_board(page)
    page.wait_for_selector("#history-box:not([hidden])")
    assert page.inner_text("#streak") == "Your streak: 1 day in a row."
    assert page.inner_text("#history").startswith("2026-12-06: 2 of 2 boards, ")
    assert "Dora" in page.inner_text("#week-table")
    problems = problems_at(page, "daily history", "daily-history")
    assert not problems, "\n".join(problems)
    holder.check()


@pytest.fixture(scope="module")
def two_presets(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server dealing the dailies of two presets (``FIVEHUNDRED_DAILY_PRESETS``)."""
    db = tmp_path_factory.mktemp("dailies") / "dailies.sqlite3"

    def prepare(app: Any) -> None:
        app.state.dailies = {
            preset: DailyService(
                "page-secret",
                preset=preset,
                boards=2,
                clock=lambda: date(2026, 12, 6),
                pars=False,
                engine=app.state.store.store.engine,
                table_seconds=0,
            )
            for preset in ("australian", "american")
        }
        app.state.daily = app.state.dailies["australian"]

    with thread_server(f"sqlite:///{db}", prepare=prepare) as url:
        yield url


def test_the_dailies_of_two_presets(two_presets: str, open_page: Callable[..., Page]) -> None:
    """A link for each preset's daily, the one shown marked; the other's page plays its
    own boards and keeps its own entry (a reload resumes it; the first preset's page does
    not show it)."""
    holder = open_page({"width": PHONE[0], "height": PHONE[1]})
    page = holder.page
    page.goto(two_presets + "/daily")
    page.wait_for_selector("body[data-ready='1']")
    assert page.inner_text("#day-title") == "The Australian daily boards of 2026-12-06"
    links = page.locator("#presets a")
    assert links.all_inner_texts() == ["Australian", "American"]
    assert links.nth(0).get_attribute("aria-current") == "page"
    problems = problems_at(page, "daily presets", "daily-presets")
    links.nth(1).click()
    page.wait_for_url("**/daily?preset=american")
    page.wait_for_selector("body[data-ready='1']")
    assert page.inner_text("#day-title") == "The American daily boards of 2026-12-06"
    assert page.locator("#presets a").nth(1).get_attribute("aria-current") == "page"
    page.fill("#name", "Ann")
    page.click("#start")
    page.wait_for_selector("#play:not([hidden])")
    tap_through_board(page)
    assert "Ann" in page.inner_text("#traveller tbody")
    page.reload()  # the American entry resumes on the American page
    page.wait_for_selector("body[data-ready='1']")
    page.wait_for_selector("#after:not([hidden])")
    page.goto(two_presets + "/daily")  # the Australian page has no entry of Ann's
    page.wait_for_selector("body[data-ready='1']")
    assert page.locator("#start-row:not([hidden])").count()
    assert page.locator("#play[hidden]").count()
    assert not problems, "\n".join(problems)
    holder.check()
