"""The table page's layout at phone, landscape, tablet and desktop sizes, in Debian's chromium.

For every preset (two to six seats: the dummies, the five-handed partner call) a person plays
a hand against computer players; at each of their turns (auction, kitty, call, play), at the
join screen and at the hand's summary the one page is resized to 360×640, 390×844, 844×390,
768×1024 and 1366×768 and measured (``tests/layout_check.js``): no sideways scroll, no overlap
between the elements that carry information (seat boxes, the dealer chip, the trick's cards,
the contract, trump, tricks and score), nothing cut off or covered (sampled with
``document.elementFromPoint``), every tap target at least 44×44 px and unobscured; while
bidding the bid box, the auction so far and the hand are all on the screen at once, and the
strip of the contract, trump, tricks and score takes at most two rows (for a person watching
too: checked on a phone, upright and on its side, in play). The score sheet and the
lobby do not scroll sideways on a 360 px phone. With ``FIVEHUNDRED_SCREENSHOTS=1`` each phase
is photographed at phone and desktop size to docs/screenshots/ (otherwise no screenshots: the
check reads the page itself).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
import test_web_page
from fivehundred.rules import make_rules
from test_web_page import (
    CHROMIUM,
    Page,
    act_once,
    pass_or_first,
    post,
    shot,
    summary_open,
)

# The server and browser fixtures of the page tests, shared by name.
base = test_web_page.base
browser = test_web_page.browser
open_page = test_web_page.open_page

VIEWPORTS = [(360, 640), (390, 844), (844, 390), (768, 1024), (1366, 768)]
PHONE, DESKTOP = (390, 844), (1366, 768)
CHECK = (Path(__file__).with_name("layout_check.js")).read_text(encoding="utf-8")
SHOTS = os.environ.get("FIVEHUNDRED_SCREENSHOTS") == "1"

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="no chromium at /usr/bin/chromium"
)


def check_layout(
    page: Any, where: str, shots: str | None = None, viewports: list[tuple[int, int]] = VIEWPORTS
) -> list[str]:
    """The problems at each viewport (each prefixed with where and the size)."""
    problems: list[str] = []
    for width, height in viewports:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function("w => document.documentElement.clientWidth <= w", arg=width)
        result = page.evaluate(CHECK)
        problems += [f"{where} at {width}x{height}: {p}" for p in result["problems"]]
        if shots and SHOTS and (width, height) in (PHONE, DESKTOP):
            shot(page, f"{shots}-{'phone' if (width, height) == PHONE else 'desktop'}")
    page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
    return problems


def climb(page: Any) -> None:
    """Bid the lowest bid allowed (so that the person wins contracts: the kitty, the call)."""
    bids = page.locator("#bid-box-wrap .bid-box button:not([disabled])")
    if bids.count():
        bids.first.click()
    else:
        pass_or_first(page)


PRESETS = ["australian", "three_handed", "five_handed", "six_handed", "two_handed"]


@pytest.mark.parametrize("preset", PRESETS)
def test_table_layout_in_every_phase(
    base: str, open_page: Callable[..., Page], preset: str
) -> None:
    players = make_rules(preset).players
    created = post(
        base,
        "/api/tables",
        {
            "rules": {"preset": preset},
            "seats": ["open"] + ["heuristic"] * (players - 1),
            "options": {"delay": 0},
            "seed": 7,
        },
    )
    p = open_page({"width": PHONE[0], "height": PHONE[1]}, reduced_motion="reduce")
    page = p.page
    page.goto(base + created["url"])
    page.wait_for_selector("#join:not([hidden])")
    assert page.is_hidden("#layout"), "the join screen shows no empty table"
    shots = preset in ("australian", "five_handed", "two_handed")
    problems = check_layout(page, "join", f"layout-{preset}-join" if shots else None)
    page.fill("#player-name", "Ann")
    page.click("#join [data-seat='0']")
    page.wait_for_selector("#layout:not([hidden])")
    checked: set[str] = set()
    deadline = time.monotonic() + 600  # a guard against a hand stuck, not a wait
    while not summary_open(page):
        assert time.monotonic() < deadline, "the hand did not finish"
        phase = page.evaluate("document.body.dataset.phase")
        if page.evaluate("document.body.dataset.myTurn") == "1" and phase not in checked:
            checked.add(phase)
            name = f"layout-{preset}-{phase}" if shots or phase == "play" else None
            if phase == "discard":  # two cards chosen: raised, counted
                cards = page.eval_on_selector_all("#hand .card", "e => e.map(c => c.dataset.card)")
                for card in cards[-2:]:
                    page.click(f"#hand .card[data-card='{card}']")
                assert "2 of" in page.inner_text("#chosen-count")
                lifted = page.eval_on_selector(
                    "#hand .card.selected", "e => getComputedStyle(e).transform"
                )
                assert lifted not in ("none", ""), "a chosen discard is raised"
            problems += check_layout(page, phase, name)
            if phase == "play":  # a person watching: the strip names no side either
                watcher = open_page({"width": 360, "height": 640}, reduced_motion="reduce")
                watcher.page.goto(base + created["url"] + "?watch=1")
                watcher.page.wait_for_function("document.body.dataset.phase === 'play'")
                problems += check_layout(watcher.page, "watching", None, [(360, 640), (844, 390)])
                watcher.check()
                watcher.context.close()
            if phase == "discard":
                for card in cards[-2:]:
                    page.click(f"#hand .card[data-card='{card}']")
        if not act_once(page, climb):
            page.wait_for_function(
                "document.body.dataset.myTurn === '1' || !!document.querySelector('#summary[open]')"
            )
    page.wait_for_function("document.getElementById('summary').innerText.includes('All the hands')")
    problems += check_layout(page, "summary", f"layout-{preset}-summary" if shots else None)
    assert {"auction", "play"} <= checked, checked
    # The dialog's buttons close it; what the next hand needs is then free to tap.
    page.click("#summary-close")
    assert not summary_open(page)
    if page.evaluate("document.body.dataset.myTurn") == "1":  # (its auction: checked above)
        problems += check_layout(page, "next hand", None, [PHONE])
    # The score sheet of this table: no sideways scroll on a phone either.
    page.set_viewport_size({"width": 360, "height": 640})
    page.goto(f"{base}/g/{created['table']}")
    page.wait_for_selector("#sheet table")
    width = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert width[0] <= width[1], f"the score sheet scrolls sideways: {width}"
    assert not problems, "\n".join(problems)
    p.check()


def test_lobby_has_no_sideways_scroll_on_a_phone(base: str, open_page: Callable[..., Page]) -> None:
    p = open_page({"width": 360, "height": 640})
    page = p.page
    page.goto(base + "/")
    page.wait_for_selector("#seat-3")
    width = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert width[0] <= width[1], width
    p.check()
