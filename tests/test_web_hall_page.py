"""A club night at real tables in Debian's chromium through Playwright at phone size
(390×844): the club's owner opens the night on the club's nights page; a table's score pad opens the join link,
starts its game, joins as table 2, enters a hand; the standings page (as the hall's TV
shows it) draws the hand's points in place. The layout check and axe-core on the
standings page, and the pad's own page after joining."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
import test_web_page
from fivehundred.pad.web import offline_files
from fivehundred.web.events import hall_words as words
from test_web_events_page import checked, signed_up
from test_web_page import CHROMIUM, Page
from test_web_support import thread_server

browser = test_web_page.browser
open_page = test_web_page.open_page
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
#: the first load of the pad and the standings' next redraw (every 5 s)
WAIT_MS = 30_000
#: the engine started in the page when offline (Brython: seconds on a busy machine)
OFFLINE_MS = 120_000
SHOTS = Path(__file__).parent.parent / "build" / "screenshots"

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="no chromium at /usr/bin/chromium"
)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("hall") / "hall.sqlite3"
    with thread_server(f"sqlite:///{db}") as url:
        yield url


def tap(p: Any, contract: str, contractor: int, tricks: int) -> None:
    """Enter one hand with taps, as a player would."""
    before = p.evaluate(
        "JSON.parse(localStorage.getItem('fivehundred-pad/state')).pad.hands.length"
    )
    p.click('[data-tab="pad"]')
    p.click('[data-kind="hand"]')
    p.click(f'[data-contract="{contract}"]')
    p.click(f'[data-contractor="{contractor}"]')
    p.click(f'#tricks [data-tricks="{tricks}"]')
    p.click('#revoke [data-revoke=""]')
    p.wait_for_selector("#preview")
    p.click("#add")
    p.wait_for_function(
        "JSON.parse(localStorage.getItem('fivehundred-pad/state')).pad.hands.length"
        f" === {before + 1}"
    )
    p.click('[data-tab="more"]')


def kept_offline(p: Any) -> None:
    """Wait until the service worker keeps every file the pad needs offline."""
    assert p.evaluate(
        """async (count) => {
          for (let i = 0; i < 1200; i++) {
            const keys = await caches.keys();
            if (keys.length && navigator.serviceWorker.controller) {
              const cache = await caches.open(keys[0]);
              if ((await cache.keys()).length >= count) return true;
            }
            await new Promise((r) => setTimeout(r, 100));
          }
          return false;
        }""",
        len(offline_files()),
    )


def test_a_table_joins_enters_a_hand_and_the_standings_show_it(
    base: str, open_page: Callable[..., Page]
) -> None:
    ann = signed_up(open_page, base, "Ann")
    made = ann.context.request.post(f"{base}/api/clubs", data={"name": "Hall Club"})
    assert made.status == 201, made.text()
    slug = made.json()["slug"]
    screen = ann.page  # the owner opens the night on the club's page, then on the TV
    screen.goto(f"{base}/clubs/{slug}/nights")
    problems = checked(screen, "club nights, with the hall's")
    SHOTS.mkdir(parents=True, exist_ok=True)
    screen.screenshot(path=str(SHOTS / "hall-club-nights.png"), full_page=True)
    screen.get_by_label(words.FIELD_NAME, exact=True).fill("Tuesday")
    screen.locator('form[name="hall"] select[name="preset"]').select_option("australian")
    screen.get_by_role("button", name=words.OPEN_BUTTON).click()
    screen.wait_for_url(f"{base}/hall/*")
    code = screen.url.rsplit("/", 1)[1]
    join = f"/pad?night={code}"
    assert screen.locator(".code").inner_text() == code
    problems += checked(screen, "hall, no table yet")

    pad = open_page(PHONE, has_touch=True)
    p = pad.page
    p.goto(base + join)
    p.wait_for_selector("#start")
    for seat, name in enumerate(["Cat", "Dan", "Eve", "Fay"]):
        p.fill(f'input[data-name="{seat}"]', name)
    p.click("#start")
    p.wait_for_selector("#hall-code", timeout=WAIT_MS)  # the join form, its code filled
    assert p.input_value("#hall-code") == code
    p.fill("#hall-table", "2")
    p.click("#hall-join")
    p.wait_for_selector("#hall-joined")
    problems += checked(p, "pad, joined")
    tap(p, "8H", 1, 8)
    p.wait_for_selector("#hall-sent:has-text('every hand sent')", timeout=WAIT_MS)

    # the TV's page draws itself again, in place: Dan & Fay's 300 comes
    screen.wait_for_selector("#standings td:has-text('300')", timeout=WAIT_MS)
    rows = screen.locator("#standings table").first.locator("tbody tr")
    assert rows.count() == 4
    assert rows.first.inner_text().split("\t")[:2] == ["1", "Dan"]
    screen.screenshot(path=str(SHOTS / "hall-standings-phone.png"), full_page=True)
    p.screenshot(path=str(SHOTS / "hall-pad-joined.png"), full_page=True)
    problems += checked(screen, "hall, a hand in")

    # the hall's Wi-Fi drops: the hand is scored on the phone and waits; back online,
    # it is sent by itself, and the TV shows it (7S made: 20 + 140, 300 + 30)
    kept_offline(p)
    pad.context.set_offline(True)
    p.set_default_timeout(OFFLINE_MS)
    tap(p, "7S", 0, 7)
    assert "waiting to send" in p.inner_text("#hall-sent")
    pad.context.set_offline(False)
    p.wait_for_selector("#hall-sent:has-text('every hand sent')", timeout=WAIT_MS)
    screen.wait_for_selector("#standings td:has-text('330')", timeout=WAIT_MS)
    assert rows.first.inner_text().split("\t")[:2] == ["1", "Dan"]
    screen.set_viewport_size(TV)
    screen.screenshot(path=str(SHOTS / "hall-standings-tv.png"))
    screen.set_viewport_size(PHONE)
    screen.get_by_role("button", name=words.END_BUTTON).click()
    screen.wait_for_selector(f"#facts:has-text('{words.STATE_LABELS['finished']}')")
    problems += checked(screen, "hall, over")
    assert not problems, "\n".join(problems)
    ann.check()
    # offline, the browser says each request it could not send: nothing else is wrong
    assert [e for e in pad.errors if "ERR_INTERNET_DISCONNECTED" not in e] == []


def test_a_progressive_night_tells_the_pad_where_to_sit_next(
    base: str, open_page: Callable[..., Page]
) -> None:
    """A progressive night of 2 hands a round, one table: its second hand ends the round
    (the PUT's answer brings the moves); the pad shows each player's next table and seat
    and starts round 2 with the new seating; the organiser ends round 2 on the TV page and
    the pad, which sent nothing since, learns the moves by asking (every 15 s)."""
    ann = signed_up(open_page, base, "Gus")
    made = ann.context.request.post(f"{base}/api/clubs", data={"name": "Ladder Club"})
    slug = made.json()["slug"]
    screen = ann.page
    screen.goto(f"{base}/clubs/{slug}/nights")
    screen.get_by_label(words.FIELD_NAME, exact=True).fill("Ladder night")
    screen.get_by_label(words.FIELD_ROUND_HANDS, exact=True).fill("2")
    screen.get_by_role("button", name=words.OPEN_BUTTON).click()
    screen.wait_for_url(f"{base}/hall/*")
    code = screen.url.rsplit("/", 1)[1]
    assert "2 hands a round" in screen.inner_text("#round")
    screen.screenshot(path=str(SHOTS / "hall-progressive-qr.png"), full_page=True)

    pad = open_page(PHONE, has_touch=True)
    p = pad.page
    p.goto(f"{base}/pad?night={code}")
    p.wait_for_selector("#start")
    for seat, name in enumerate(["Ann", "Bob", "Cat", "Dan"]):
        p.fill(f'input[data-name="{seat}"]', name)
    p.click("#start")
    p.wait_for_selector("#hall-code", timeout=WAIT_MS)
    p.fill("#hall-table", "1")
    p.click("#hall-join")
    p.wait_for_selector("#hall-round:has-text('round 1')")
    tap(p, "8H", 1, 8)
    tap(p, "8H", 1, 8)  # Bob & Dan win the round: at the top table they stay, split
    p.click('[data-tab="pad"]')
    p.wait_for_selector("#hall-moves", timeout=WAIT_MS)
    moves = p.inner_text("#hall-moves")
    assert "Round 1 is over: where to sit next" in moves
    assert "Bob (won): stay at table 1, seat 3" in moves
    assert "Ann (lost): stay at table 1, seat 1" in moves
    p.wait_for_selector("#toast", state="hidden")  # "hand 2 added", over the hands
    p.screenshot(path=str(SHOTS / "hall-pad-moves.png"))
    problems = checked(p, "pad, where to sit next")
    screen.wait_for_selector("#moves td:has-text('Bob')", timeout=WAIT_MS)  # the TV
    problems += checked(screen, "hall, moves")
    screen.screenshot(path=str(SHOTS / "hall-progressive-moves.png"), full_page=True)
    screen.set_viewport_size(TV)
    screen.screenshot(path=str(SHOTS / "hall-progressive-tv.png"))
    screen.set_viewport_size(PHONE)

    p.click("#hall-next-round")
    p.wait_for_selector("#hall-moves", state="detached")
    names = p.evaluate("JSON.parse(localStorage.getItem('fivehundred-pad/state')).pad.players")
    assert names == ["Ann", "Cat", "Bob", "Dan"]  # Ann and Bob partners now
    p.wait_for_selector("#totals")
    tap(p, "8H", 0, 8)
    p.wait_for_selector("#hall-sent:has-text('every hand sent')", timeout=WAIT_MS)
    screen.reload()
    screen.get_by_role("button", name=words.CLOSE_ROUND_BUTTON.format(round=2)).click()
    screen.wait_for_selector("#round:has-text('Round 3')", timeout=WAIT_MS)
    p.click('[data-tab="pad"]')
    p.wait_for_selector("#hall-moves:has-text('Round 2 is over')", timeout=WAIT_MS)
    assert "Ann (won): stay at table 1, seat 3" in p.inner_text("#hall-moves")
    shown = ann.context.request.get(f"{base}/api/hall/{code}").json()
    points = {s["name"]: s["points"] for s in shown["standings"]}
    # round 1: Bob & Dan two 8H (600), Ann & Cat two tricks a hand (40); round 2: Ann &
    # Bob an 8H (300), Cat & Dan two tricks (20)
    assert points == {"Ann": 40 + 300, "Bob": 600 + 300, "Cat": 40 + 20, "Dan": 600 + 20}
    assert not problems, "\n".join(problems)
    ann.check()
    assert pad.errors == []


def test_a_lost_phone_s_table_is_freed_and_another_phone_takes_it_over(
    base: str, open_page: Callable[..., Page]
) -> None:
    """The first phone enters a hand and is lost; the organiser frees its table; a second
    phone joins as that table and goes on with its game, the hand there. The pad says
    which names are not the club's members."""
    ida = signed_up(open_page, base, "Ida")
    slug = ida.context.request.post(f"{base}/api/clubs", data={"name": "Lost Club"}).json()["slug"]
    made = ida.context.request.post(f"{base}/api/hall", data={"club": slug, "name": "Friday"})
    code = made.json()["code"]

    def joined(names: list[str]) -> Any:
        phone = open_page(PHONE, has_touch=True)
        p = phone.page
        p.goto(f"{base}/pad?night={code}")
        p.wait_for_selector("#start")
        for seat, name in enumerate(names):
            p.fill(f'input[data-name="{seat}"]', name)
        p.click("#start")
        p.wait_for_selector("#hall-code", timeout=WAIT_MS)
        p.fill("#hall-table", "3")
        p.click("#hall-join")
        p.wait_for_selector("#hall-joined")
        return phone

    first = joined(["IDA", "Jon", "Kit", "Lou"])  # Ida, a member: any case
    p = first.page
    assert "Not members of the club: Jon, Kit, Lou: check the spelling" in p.inner_text(
        "#hall-unknown"
    )
    tap(p, "8H", 1, 8)
    p.wait_for_selector("#hall-sent:has-text('every hand sent')", timeout=WAIT_MS)
    p.click('[data-tab="more"]')
    p.wait_for_selector("#toast", state="hidden")
    p.screenshot(path=str(SHOTS / "hall-pad-unknown.png"))
    screen = ida.page
    screen.goto(f"{base}/hall/{code}")
    problems = checked(screen, "hall, a table to free") + checked(p, "pad, names unknown")
    screen.get_by_role("button", name=words.FREE_BUTTON.format(number=3)).click()
    screen.wait_for_selector(f"p.free:has-text('{words.TABLE_FREE.format(number=3)}')")
    second = joined(["Lee", "Max", "Ned", "Oli"])
    q = second.page
    q.wait_for_function(
        "JSON.parse(localStorage.getItem('fivehundred-pad/state')).pad.hands.length === 1"
    )
    q.click('[data-tab="pad"]')
    assert q.inner_text('[data-total="1"]') == "300"  # Jon & Lou's 8H, on the new phone
    tap(q, "7S", 0, 7)
    q.wait_for_selector("#hall-sent:has-text('every hand sent')", timeout=WAIT_MS)
    shown = ida.context.request.get(f"{base}/api/hall/{code}").json()
    points = {s["name"]: s["points"] for s in shown["standings"]}
    assert points == {"IDA": 20 + 140, "Jon": 300 + 30, "Kit": 20 + 140, "Lou": 300 + 30}
    assert not problems, "\n".join(problems)
    ida.check()
    assert first.errors == [] and second.errors == []
