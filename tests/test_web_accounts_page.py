"""The account and leaderboard pages in Debian's chromium (Playwright): sign up in one
browser, log in in another, log out everywhere; a player's rating history drawn as an SVG
chart from the server's data; screenshots at 390x844 and 1366x768
(``FIVEHUNDRED_SCREENSHOTS=1`` writes them into docs/screenshots/)."""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

playwright_api = pytest.importorskip("playwright.sync_api")
from fivehundred.web import ratings as rated  # noqa: E402
from fivehundred.web.accounts import AccountStore  # noqa: E402
from test_web_support import thread_server  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = (
    Path(__file__).resolve().parent.parent / "docs" / "screenshots"
    if os.environ.get("FIVEHUNDRED_SCREENSHOTS") == "1"
    else Path(tempfile.gettempdir()) / "fivehundred-screenshots"
)
SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1366, "height": 768}}
SECRET = "page password 123"

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and os.environ.get("CI") != "true",
    reason="no chromium at /usr/bin/chromium",
)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


def test_sign_up_log_in_elsewhere_log_out_everywhere(browser: Any, tmp_path: Path) -> None:
    with thread_server(f"sqlite:///{tmp_path / 'w.sqlite3'}") as base:
        first = browser.new_context(viewport=SIZES["desktop"])
        second = browser.new_context(viewport=SIZES["phone"])
        try:
            page = first.new_page()
            page.goto(f"{base}/account")
            page.wait_for_selector("#signed-out:not([hidden])")
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / "account-forms-desktop.png"), full_page=True)
            page.fill("#signup input[name=name]", "Zoe")
            page.fill("#signup input[name=password]", SECRET)
            page.click("#signup button")
            page.wait_for_selector("#signed-in:not([hidden])")
            assert page.inner_text("#me") == "Zoe"
            cookie = next(c for c in first.cookies() if c["name"] == "fh_session")
            assert cookie["httpOnly"] and cookie["sameSite"] == "Lax"
            assert page.evaluate("document.cookie") == ""  # out of the page's scripts' reach
            other = second.new_page()
            other.goto(f"{base}/account")
            other.wait_for_selector("#signed-out:not([hidden])")
            assert other.evaluate("document.documentElement.scrollWidth") <= SIZES["phone"]["width"]
            other.screenshot(path=str(SHOTS / "account-forms-phone.png"), full_page=True)
            other.fill("#login input[name=name]", "zoe")
            other.fill("#login input[name=password]", SECRET)
            other.click("#login button")
            other.wait_for_selector("#signed-in:not([hidden])")
            assert other.inner_text("#me") == "Zoe"
            other.click("#logout-all")
            other.wait_for_selector("#signed-out:not([hidden])")
            page.reload()
            page.wait_for_selector("#signed-out:not([hidden])")
        finally:
            first.close()
            second.close()


def seed_ratings(db: str) -> None:
    """Two accounts with rated history (as rate_game writes it), for the pages."""
    engine = sa.create_engine(db)
    store = AccountStore(engine)
    ann = store.create("Ann", "x", False)
    bob = store.create("Bob", "x", False)
    assert ann is not None and bob is not None
    now = time.time()
    with engine.begin() as conn:
        for game, (mu, sigma) in enumerate(
            [(27.0, 7.9), (28.6, 7.4), (27.9, 7.0), (30.1, 6.6), (31.0, 6.3)]
        ):
            won = "loss" if game == 2 else "win"
            lost = "win" if game == 2 else "loss"
            change = (mu, sigma, game + 1)
            rated.save(
                conn, rated.of_account(ann.id), "australian", change, f"G{game}", won, now + game
            )
            change = (50 - mu, sigma, game + 1)
            rated.save(
                conn, rated.of_account(bob.id), "australian", change, f"G{game}", lost, now + game
            )
        pair = rated.of_partnership(conn, (bob.id, ann.id))
        rated.save(conn, pair, "australian", (26.0, 7.0, 1), "G9", "win", now)
    engine.dispose()


def test_rating_chart_and_leaderboard(browser: Any, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    with thread_server(db) as base:
        seed_ratings(db)
        SHOTS.mkdir(parents=True, exist_ok=True)
        for size, viewport in SIZES.items():
            context = browser.new_context(viewport=viewport)
            try:
                page = context.new_page()
                page.goto(f"{base}/account/Ann")
                page.wait_for_selector("#rating-chart svg circle")
                assert page.locator("#rating-chart svg circle").count() == 5
                label = page.get_attribute("#rating-chart svg", "aria-label") or ""
                assert "5 games" in label
                assert "Ann & Bob" in page.inner_text("#partnerships")
                # the presets as people name them, from the server's words
                assert "Australian" in page.inner_text("#partnerships")
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= viewport["width"]  # nothing sticks out sideways
                page.screenshot(path=str(SHOTS / f"account-{size}.png"), full_page=True)
                page.goto(f"{base}/leaderboard")
                page.wait_for_selector("#board table")
                rows = page.locator("#board tbody tr")
                assert rows.count() == 2
                assert "Ann" in rows.nth(0).inner_text()
                assert page.eval_on_selector("#preset option", "o => o.textContent") == "Australian"
                assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
                page.screenshot(path=str(SHOTS / f"leaderboard-{size}.png"), full_page=True)
            finally:
                context.close()
