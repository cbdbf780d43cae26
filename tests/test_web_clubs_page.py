"""The clubs pages (/clubs, /c/{slug}) in Debian's chromium through Playwright at 360×640:
an account starts a club from the index and makes an invite link; a second browser
(another account) opens the link and joins; both see the members; the owner renames the
club and its old address leads to the new. The layout check
(tests/layout_check.js: no sideways scroll, tap targets of 44 px) and axe-core (no serious or
critical violation) on the index and on the club's page as its admin sees it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
import test_web_page
from test_web_a11y import AXE, axe_problems
from test_web_friends_page import SMALL_TARGETS
from test_web_page import CHROMIUM, Page
from test_web_support import thread_server

browser = test_web_page.browser
open_page = test_web_page.open_page

CHECK = (Path(__file__).with_name("layout_check.js")).read_text(encoding="utf-8")
PHONE = {"width": 360, "height": 640}
SECRET = "correct horse battery staple 42"

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="no chromium at /usr/bin/chromium"
)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("clubs") / "clubs.sqlite3"
    with thread_server(f"sqlite:///{db}") as url:
        yield url


def signed_up(open_page: Callable[..., Page], base: str, name: str) -> Page:
    """A phone-sized browser of its own, logged in as a new account ``name``."""
    p = open_page(PHONE)
    answer = p.context.request.post(f"{base}/api/accounts", data={"name": name, "password": SECRET})
    assert answer.status == 201, answer.text()
    return p


def checked(page: Any, where: str) -> list[str]:
    problems = [f"{where}: {p}" for p in page.evaluate(CHECK)["problems"]]
    problems += [f"{where}: a small tap target: {t}" for t in page.evaluate(SMALL_TARGETS)]
    return problems + (axe_problems(page, where) if AXE.exists() else [])


def test_a_club_is_started_on_a_phone_and_joined_by_its_invite_link(
    base: str, open_page: Callable[..., Page]
) -> None:
    owner = signed_up(open_page, base, "Ann")
    page = owner.page
    page.goto(f"{base}/clubs")
    page.wait_for_selector("#create-box:not([hidden])")
    problems = checked(page, "clubs index")
    page.get_by_label("Name", exact=True).fill("Phone Club")
    page.get_by_label("Short description").fill("Fridays, all welcome")
    page.get_by_role("button", name="Start the club").click()
    page.wait_for_url(f"{base}/c/phone-club")
    page.wait_for_selector("#admin-box:not([hidden])")
    assert page.locator("#club-name").inner_text() == "Phone Club"
    page.get_by_role("button", name="New invite link").click()
    link = page.locator("#invites li a").first
    link.wait_for()
    url = link.inner_text()
    assert url.startswith(f"{base}/c/phone-club?invite=")
    problems += checked(page, "club page (owner)")

    friend = signed_up(open_page, base, "Bob")
    other = friend.page
    other.goto(url)
    join = other.get_by_role("button", name="Join the club")
    join.wait_for()
    join.click()
    other.wait_for_url(f"{base}/c/phone-club")
    other.wait_for_selector("#members tbody tr:nth-child(2)")
    assert "Bob" in other.locator("#members").inner_text()
    assert other.get_by_role("button", name="New club table").is_visible()
    assert other.locator("#admin-box").is_hidden()  # a member, not an admin
    page.reload()
    page.wait_for_selector("#members tbody tr:nth-child(2)")
    assert page.get_by_role("button", name="Remove Bob").is_visible()
    # the owner renames the club: the new address, and the old one leads there
    page.get_by_label("New name").fill("Friday Club")
    page.get_by_role("button", name="Rename").click()
    page.wait_for_url(f"{base}/c/friday-club")
    page.wait_for_function("document.querySelector('#club-name').innerText === 'Friday Club'")
    other.goto(f"{base}/c/phone-club")  # the page the browser has seen: asked again
    other.wait_for_url(f"{base}/c/friday-club")
    assert other.locator("#rename").is_hidden()  # the owner's alone
    assert not problems, "\n".join(problems)
    owner.check()
    friend.check()
