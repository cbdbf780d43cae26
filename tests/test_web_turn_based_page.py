"""A turn-based game played over simulated days on a phone (390x844, Playwright with
Debian's chromium): Ann opens her game, sees her move's clock and her time for the game,
bids and leaves; a day passes (the rows' times are moved, never waited for) and her clock
runs out: she comes back to the game moved on and a day less in her bank; two more days
pass and her bank is spent: the stand-in has her seat. Screenshots under the test's own
temporary folder (``--basetemp`` to keep them)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa

from test_web_support import thread_server, wait_for
from test_web_turn_based import seed_with_dealer

SECRET = "correct horse battery staple 42"
DAY = 86_400.0


def rows(url: str, query: str, **values: Any) -> list[Any]:
    engine = sa.create_engine(url)
    try:
        with engine.begin() as db:
            result = db.execute(sa.text(query), values)
            return list(result.all()) if result.returns_rows else []
    finally:
        engine.dispose()


def days_pass(url: str, code: str, days: float) -> None:
    """``days`` pass while Ann's turn waits: the game's times are moved back by them and
    her clock's row is due now."""
    table = "(SELECT id FROM tables WHERE code = :code)"
    shift = days * DAY
    rows(url, "UPDATE tables SET created = created - :s WHERE code = :code", s=shift, code=code)
    rows(url, f"UPDATE actions SET at = at - :s WHERE table_id = {table}", s=shift, code=code)
    rows(
        url,
        f"UPDATE deadlines SET due = :now WHERE kind = 'turn' AND table_id = {table}",
        now=time.time(),
        code=code,
    )


def anns_turn(url: str, code: str, after: int) -> Any:
    found = rows(
        url,
        "SELECT d.version FROM deadlines d JOIN tables t ON t.id = d.table_id "
        "WHERE t.code = :code AND d.kind = 'turn' AND d.seat = 0 AND d.version > :after",
        code=code,
        after=after,
    )
    return found[0] if found else None


def test_a_turn_based_game_over_days_at_phone_size(tmp_path: Path) -> None:
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("no chromium at /usr/bin/chromium")
    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    apps: list[Any] = []
    with thread_server(url, prepare=apps.append) as base:
        apps[0].state.hub.scheduler.relook = 0.0  # (the test moves rows' times)
        ann = httpx.Client(base_url=base, timeout=30)
        assert ann.post("/api/accounts", json={"name": "Ann", "password": SECRET}).is_success
        options = {"delay": 0, "move_clock": DAY, "game_clock": 3 * DAY, "stand_in": "random"}
        body = {
            "seats": ["open", "random", "random", "random"],
            "seed": seed_with_dealer(3),  # Ann bids first
            "name": "Across the week",
            "rules": {"variants": {"target": 2000}},
            "options": options,
        }
        code = ann.post("/api/tables", json=body).json()["table"]
        token = ann.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).json()["token"]
        with playwright_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            try:
                context = browser.new_context(viewport={"width": 390, "height": 844})
                context.add_init_script(
                    f"localStorage.setItem('fivehundred:token:{code}', '{token}')"
                )

                def visit(day: int) -> Any:
                    page = context.new_page()
                    page.goto(f"{base}/t/{code}")
                    page.locator(".seat .bank").first.wait_for()
                    if page.locator("#summary[open]").count():  # a hand the stand-in ended
                        page.keyboard.press("Escape")
                    width = page.evaluate("document.documentElement.scrollWidth")
                    assert width <= 390, (day, width)
                    page.screenshot(path=str(tmp_path / f"turn-based-day-{day}.png"))
                    return page

                # day 1: her move's clock (a day) and her game's (three days) run
                page = visit(1)
                page.locator("#bid-box-wrap [data-action='pass']:not([disabled])").wait_for()
                clock = page.inner_text(".seat.to-move .timer")
                assert re.fullmatch(r"⏱ (23h \d+m|1d 0h)", clock), clock
                bank = page.inner_text(".seat.to-move .bank")
                assert re.fullmatch(r"⌛ (2d 23h|3d 0h)", bank), bank
                version = int(rows(url, "SELECT COUNT(*) FROM actions")[0][0])
                page.click("#bid-box-wrap [data-action='pass']")
                wait_for(lambda: anns_turn(url, code, version), 30, "Ann's next turn")
                page.close()
                # day 2: a day passed, her clock ran out; the stand-in moved for her once
                turn = anns_turn(url, code, version).version
                days_pass(url, code, 1)
                wait_for(lambda: anns_turn(url, code, turn), 30, "her turn after the timeout")
                page = visit(2)
                mine = page.locator(".seat", has=page.locator(".bank")).first
                wait_for(
                    lambda: re.fullmatch(r"⌛ (1d 23h|2d 0h)", mine.locator(".bank").inner_text()),
                    30,
                    "a day less in her bank",
                )
                facts = ann.get(f"/api/tables/{code}").json()
                assert not facts["seats"][0]["stand_in"] and facts["version"] > turn
                page.close()
                # day 4: two more days: her bank is spent, the stand-in has her seat
                turn = anns_turn(url, code, turn).version
                days_pass(url, code, 2)
                wait_for(
                    lambda: ann.get(f"/api/tables/{code}").json()["seats"][0]["stand_in"],
                    30,
                    "the stand-in keeps her seat",
                )
                page = visit(4)
                assert page.locator(".seat .bank").first.inner_text() == "⌛ 0s"
                page.close()
            finally:
                browser.close()
        timed = rows(
            url,
            "SELECT a.by FROM actions a JOIN tables t ON t.id = a.table_id "
            "WHERE t.code = :code AND a.seat = 0 ORDER BY a.version",
            code=code,
        )
        assert [r.by for r in timed[:3]] == ["person", "timer", "timer"]
        assert "stand_in" in {r.by for r in timed[3:]}
