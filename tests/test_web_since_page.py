"""What happened while a player was away (table.js: the last view a device showed of a
table, at its seat, kept in the browser): in Debian's chromium at 390×844, Ann passes at a
table of three computers, leaves the page, and opens it again once the computers have
called and the play has come round to her; the table opens with the list of the calls
and cards made meanwhile, in the live region's words, which she dismisses; opened again
with nothing new, no list. The layout check and axe-core on the page with the list."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

pytest.importorskip("playwright.sync_api")
import test_web_page
from test_web_a11y import AXE, axe_problems
from test_web_page import CHROMIUM, Page, join, shot
from test_web_support import thread_server, wait_for

browser = test_web_page.browser
open_page = test_web_page.open_page

CHECK = (Path(__file__).with_name("layout_check.js")).read_text(encoding="utf-8")
PHONE = {"width": 390, "height": 844}

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="no chromium at /usr/bin/chromium"
)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("since") / "since.sqlite3"
    with thread_server(f"sqlite:///{db}") as url:
        yield url


def facts(base: str, code: str) -> dict[str, Any]:
    answer: dict[str, Any] = httpx.get(f"{base}/api/tables/{code}").json()
    return answer


def test_the_table_lists_what_happened_since_it_was_last_open(
    base: str, open_page: Callable[..., Page]
) -> None:
    body = {
        "seats": ["open", "random", "random", "random"],
        "seed": 11,
        "options": {"delay": 0.3},  # the computers wait a little: Ann leaves first
    }
    made = httpx.post(f"{base}/api/tables", json=body)
    assert made.status_code == 201, made.text
    code = made.json()["table"]
    holder = open_page(PHONE)
    page = holder.page
    url = f"{base}/t/{code}"
    join(page, url, "Ann", 0)
    assert page.locator("#since[hidden]").count()  # never here before: nothing listed
    # Ann's first call (a pass where she may), then she leaves before the computers answer
    page.wait_for_selector("#bid-box-wrap button:not([disabled])")
    shown = int(page.evaluate("document.body.dataset.version"))
    test_web_page.pass_or_first(page)
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=shown)
    left = int(page.evaluate("document.body.dataset.version"))
    page.goto("about:blank")

    def her_turn_again() -> dict[str, Any] | None:
        now = facts(base, code)
        return now if now["version"] >= left + 3 and now["to_move"] == 0 else None

    now = wait_for(her_turn_again, 60, "the computers' calls and Ann's turn again")
    page.goto(url)  # her seat's token is in the browser: she is back in her seat
    page.wait_for_selector("#layout:not([hidden])")
    page.wait_for_selector("#since:not([hidden])")
    lines = page.locator("#since-list li").all_inner_texts()
    print("since:", lines)
    assert now["version"] - left >= 3 and len(lines) >= 3  # the three computers' calls
    assert any(" bids " in line or line.endswith(" passes.") for line in lines), lines
    assert not any(line.startswith("Ann ") for line in lines), lines  # only what others did
    # (the cards arriving on the trick are drawn once they have arrived)
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
    problems = [f"since: {p}" for p in page.evaluate(CHECK)["problems"]]
    if AXE.exists():
        problems += axe_problems(page, "since")
    shot(page, "table-since-phone")
    page.click("#since-close")
    assert page.locator("#since[hidden]").count()
    page.reload()  # nothing new since: no list
    page.wait_for_selector("#layout:not([hidden])")
    page.wait_for_function("document.body.dataset.version !== undefined")
    assert page.locator("#since[hidden]").count()
    assert not problems, "\n".join(problems)
    holder.check()
