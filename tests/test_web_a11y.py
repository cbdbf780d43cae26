"""Accessibility of the web pages, in Debian's chromium through Playwright.

- axe-core (the npm package pinned in package.json, installed by ``npm ci``; ``make
  install`` runs it) audits the lobby, the table in each phase, the score sheet, the replay,
  the player page and the score pad, and (signed in) the tournaments, an event under way
  with its standings, the leagues, a league season, a club night and ``/my-games``: no
  violation of impact "serious" or "critical".
- A whole hand is played by keyboard alone: typed bids and cards, the arrow keys and Enter,
  Tab to the buttons; the focused card shows a focus ring.
- A whole hand is played only from what the accessibility tree exposes (``get_by_role``
  with the accessible names), and the live region announces every call, card and trick.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from fivehundred.web.guard import Buckets

pytest.importorskip("playwright.sync_api")
import test_web_page
from test_web_page import (
    CHROMIUM,
    Page,
    act_once,
    get,
    post,
    summary_open,
)
from test_web_support import thread_server

# The server and browser fixtures of the page tests, shared by name.
base = test_web_page.base
browser = test_web_page.browser
open_page = test_web_page.open_page

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="no chromium at /usr/bin/chromium"
)
needs_axe = pytest.mark.skipif(
    not AXE.exists(), reason="axe-core is not installed: run `npm ci` (make install does)"
)


def axe_problems(page: Any, where: str) -> list[str]:
    """The serious and critical axe-core violations on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    violations = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, help: v.help,"
        " nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))"
    )
    return [
        f"{where}: {v['id']} ({v['impact']}): {v['help']} at {v['nodes']}"
        for v in violations
        if v["impact"] in ("serious", "critical")
    ]


def contrast_problems(page: Any, where: str) -> list[str]:
    """Text whose colour contrast axe-core finds too low, of any impact, disabled controls'
    labels included (axe passes over those)."""
    found = page.evaluate(
        """async () => {
        const faint = [...document.querySelectorAll('label.unavailable')];
        faint.forEach((l) => l.querySelectorAll('input').forEach((i) => { i.dataset.was = i.disabled; i.disabled = false; }));
        const result = await axe.run(document, {runOnly: ['color-contrast']});
        faint.forEach((l) => l.querySelectorAll('input').forEach((i) => { i.disabled = i.dataset.was === 'true'; }));
        return result.violations.flatMap((v) => v.nodes.map((n) => n.target.join(' ') + ': ' + n.failureSummary));
    }"""
    )
    return [f"{where}: {f}" for f in found]


def climb(page: Any) -> None:
    bids = page.locator("#bid-box-wrap .bid-box button:not([disabled])")
    if bids.count():
        bids.first.click()
    else:
        page.click("#bid-box-wrap [data-action='pass']")


def new_table(base: str, seed: int = 7, **rules: Any) -> dict[str, Any]:
    return post(
        base,
        "/api/tables",
        {
            "seats": ["open", "heuristic", "heuristic", "heuristic"],
            "options": {"delay": 0},
            "seed": seed,
            **rules,
        },
    )


@needs_axe
def test_axe_finds_no_serious_violation(base: str, open_page: Callable[..., Page]) -> None:
    problems: list[str] = []
    p = open_page(PHONE)
    page = p.page
    page.goto(base + "/")
    page.wait_for_selector("#seat-3")
    problems += axe_problems(page, "lobby")
    # The lobby's text on its own background at every width (the header's switch, the
    # reasons beside the variants a preset refuses); each colour contrast at least 4.5:1.
    page.set_viewport_size(DESKTOP)
    page.click("#create details > summary")  # the variants shown
    page.wait_for_selector("#variants label.unavailable")
    problems += axe_problems(page, "lobby, desktop")
    problems += contrast_problems(page, "lobby, desktop")
    page.set_viewport_size(PHONE)
    created = new_table(base)
    page.goto(base + created["url"])
    page.wait_for_selector("#join:not([hidden])")
    problems += axe_problems(page, "join")
    page.fill("#player-name", "Ann")
    page.click("#join [data-seat='0']")
    page.wait_for_selector("#layout:not([hidden])")
    seen: set[str] = set()
    deadline = time.monotonic() + 60
    while not summary_open(page):
        assert time.monotonic() < deadline, "the hand did not finish"
        phase = page.evaluate("document.body.dataset.phase")
        if page.evaluate("document.body.dataset.myTurn") == "1" and phase not in seen:
            seen.add(phase)
            problems += axe_problems(page, f"table, {phase}")
        if not act_once(page, climb):
            page.wait_for_function(
                "document.body.dataset.myTurn === '1' || !!document.querySelector('#summary[open]')"
            )
    page.wait_for_function("document.getElementById('summary').innerText.includes('All the hands')")
    problems += axe_problems(page, "table, hand summary")
    assert {"auction", "play"} <= seen
    code = created["table"]
    page.goto(f"{base}/g/{code}")
    page.wait_for_selector("#sheet table")
    problems += axe_problems(page, "score sheet")
    page.goto(f"{base}/g/{code}#hand=1")
    page.wait_for_selector("#replay-board .seat-hand")
    problems += axe_problems(page, "replay")
    page.goto(f"{base}/p/Ann")
    page.wait_for_function("!document.body.innerText.includes('Loading')")
    problems += axe_problems(page, "player page")
    page.goto(f"{base}/pad")
    page.wait_for_load_state("load")
    problems += axe_problems(page, "score pad")
    # The other pages people open, as they first see them (every page).
    for path in ["/learn", "/learn/puzzles", "/account", "/leaderboard", "/clubs"]:
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        problems += axe_problems(page, path)
    assert not problems, "\n".join(problems)
    p.check()


SECRET = "correct horse battery staple 42"


def many_signups(app: Any) -> None:
    app.state.accounts.signups = Buckets(100, 100)  # four sign-ups from one address


@pytest.fixture(scope="module")
def events_base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("a11y-events") / "events.sqlite3"
    with thread_server(f"sqlite:///{db}", prepare=many_signups) as url:
        yield url


@needs_axe
def test_axe_on_the_tournament_league_night_and_my_games_pages(
    events_base: str, open_page: Callable[..., Page]
) -> None:
    """Signed in: the tournaments, an event under way with its standings and crosstable
    (nobody comes to the tables: the grace is long), the leagues, a season with a pair
    entered, a club night with a pair entered, and the games not over."""
    base = events_base
    people = {}
    for name in ("Ann", "Bob", "Cat", "Dan"):
        person = open_page(PHONE)
        made = person.context.request.post(
            f"{base}/api/accounts", data={"name": name, "password": SECRET}
        )
        assert made.status == 201, made.text()
        people[name] = person
    ann = people["Ann"].context.request
    answer = ann.post(f"{base}/api/events", data={"name": "Audit Swiss", "rounds": 2, "grace": 600})
    assert answer.status == 201, answer.text()
    event = answer.json()["id"]
    for first, second in (("Ann", "Bob"), ("Cat", "Dan")):
        request = people[first].context.request
        entered = request.post(f"{base}/api/events/{event}/pairs", data={"partner": second})
        assert entered.status == 201, entered.text()
        assert request.post(f"{base}/api/events/{event}/check-in").status == 200
    assert ann.post(f"{base}/api/events/{event}/start").status == 200
    season = ann.post(f"{base}/api/leagues", data={"name": "Audit League"})
    assert season.status == 201, season.text()
    league = season.json()["id"]
    assert ann.post(f"{base}/api/leagues/{league}/pairs", data={"partner": "Bob"}).status == 201
    club = ann.post(f"{base}/api/clubs", data={"name": "Audit Club"})
    assert club.status == 201, club.text()
    slug = club.json()["slug"]
    code = ann.post(f"{base}/api/clubs/{slug}/invites").json()["code"]
    assert people["Bob"].context.request.post(f"{base}/api/clubs/join", data={"code": code}).ok
    night = ann.post(f"{base}/api/nights", data={"club": slug, "name": "Audit night"})
    assert night.status == 201, night.text()
    night_id = night.json()["id"]
    assert ann.post(f"{base}/api/nights/{night_id}/pairs", data={"partner": "Bob"}).status == 201
    page = people["Ann"].page
    problems: list[str] = []
    for path, ready in [
        ("/events", "#list-title"),
        (f"/e/{event}", "#standings tbody tr"),
        ("/leagues", "#list-title"),
        (f"/l/{league}", "#pairs li"),
        (f"/n/{night_id}", "#pairs li"),
        ("/my-games", "main"),
    ]:
        page.goto(base + path)
        page.wait_for_selector(ready)
        page.wait_for_load_state("networkidle")
        problems += axe_problems(page, path)
    assert not problems, "\n".join(problems)
    people["Ann"].check()


# ----------------------------------------------------------------------------- keyboard
def tab_to(page: Any, test: str, limit: int = 80) -> None:
    """Press Tab until ``test`` (a JS expression on document.activeElement, ``a``) holds."""
    for _ in range(limit):
        if page.evaluate(f"(() => {{ const a = document.activeElement; return !!({test}); }})()"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reaches {test}")


def typed(action: str) -> str:
    """What a person types for a bid or a card: 6S → "6s", 10NT → "10nt", JK → "jk"."""
    return action.lower()


def wait_change(page: Any, version: str) -> None:
    page.wait_for_function(
        "v => document.body.dataset.version !== v || !!document.querySelector('#summary[open]')",
        arg=version,
    )


def test_a_whole_hand_by_keyboard_alone(base: str, open_page: Callable[..., Page]) -> None:
    created = new_table(base, seed=7)
    p = open_page(PHONE)
    page = p.page
    page.goto(base + created["url"])
    page.wait_for_selector("#player-name")
    page.focus("#player-name")
    page.keyboard.type("Kay")
    tab_to(page, "a.dataset.seat === '0'")
    page.keyboard.press("Enter")
    page.wait_for_selector("#layout:not([hidden])")
    phases: set[str] = set()
    ring = None
    deadline = time.monotonic() + 90
    while not summary_open(page):
        assert time.monotonic() < deadline, "the hand did not finish"
        if page.evaluate("document.body.dataset.myTurn") != "1":
            page.wait_for_function(
                "document.body.dataset.myTurn === '1' || !!document.querySelector('#summary[open]')"
            )
            continue
        version = page.evaluate("document.body.dataset.version")
        phase = page.evaluate("document.body.dataset.phase")
        phases.add(phase)
        if phase == "auction":  # the lowest bid allowed, typed ("6s"); "p" passes
            bids = page.eval_on_selector_all(
                "#bid-box-wrap .bid-box button:not([disabled])", "e => e.map(b => b.dataset.action)"
            )
            page.keyboard.type(typed(bids[0]) if bids else "p")
        elif phase == "discard":  # arrows and Enter choose three cards, Tab to the button
            tab_to(page, "a.closest('#hand')")
            need = len(page.eval_on_selector_all("#hand .card", "e => e")) - 10
            for _ in range(need):
                page.keyboard.press("Enter")
                page.keyboard.press("ArrowRight")
            assert page.eval_on_selector_all("#hand .card.selected", "e => e.length") == need
            tab_to(page, "a.id === 'confirm-discard'")
            page.keyboard.press("Enter")
        elif phase == "play":  # arrows to a card that may be played, Enter
            tab_to(page, "a.closest('#hand')")
            for _ in range(14):
                if page.evaluate("document.activeElement.classList.contains('legal')"):
                    break
                page.keyboard.press("ArrowRight")
            if ring is None:
                ring = page.evaluate(
                    "(() => { const s = getComputedStyle(document.activeElement);"
                    " return [s.outlineStyle, s.outlineWidth]; })()"
                )
            page.keyboard.press("Enter")
            if page.locator("[aria-label='lead the joker as'] button").count():
                tab_to(page, "a.closest(\"[aria-label='lead the joker as']\")")
                page.keyboard.press("Enter")
        else:  # nominate, call: Tab to the first choice
            tab_to(page, "a.closest('.choice-row, .call-grid') && a.dataset.action")
            page.keyboard.press("Enter")
        wait_change(page, version)
    assert {"auction", "play"} <= phases, phases
    assert ring is not None and ring[0] == "solid" and ring[1] == "3px", ring
    page.wait_for_function("document.activeElement.id === 'summary-close'")
    page.keyboard.press("Enter")  # "Next hand", focused when the summary opens
    assert not summary_open(page)
    record = get(base, f"/api/tables/{created['table']}/record")
    assert len(record["hands"]) == 1 and record["hands"][0]["play"], "the hand was played"
    p.check()


# ----------------------------------------------------------------------------- screen reader
def test_a_whole_hand_from_the_accessibility_tree(
    base: str, open_page: Callable[..., Page]
) -> None:
    """Only roles and accessible names: the bids, the cards of the hand (named in words,
    with the reason a card may not be played), the buttons; the live region says each call,
    each card played and who won each trick."""
    created = new_table(base, seed=11)
    p = open_page(PHONE)
    page = p.page
    page.goto(base + created["url"])
    page.get_by_role("textbox", name="your name").fill("Sam")
    page.get_by_role("button", name="Sit as heuristic 3's partner").click()
    hand = page.get_by_role("group", name="your hand")
    log = page.get_by_role("log", name="announcements")
    mine: list[str] = []
    deadline = time.monotonic() + 90
    while not summary_open(page):
        assert time.monotonic() < deadline, "the hand did not finish"
        if page.evaluate("document.body.dataset.myTurn") != "1":
            page.wait_for_function(
                "document.body.dataset.myTurn === '1' || !!document.querySelector('#summary[open]')"
            )
            continue
        version = page.evaluate("document.body.dataset.version")
        phase = page.evaluate("document.body.dataset.phase")
        bids = page.get_by_role("group", name="bids")
        if bids.count():
            enabled = bids.get_by_role("button", disabled=False)
            if enabled.count():
                enabled.first.click()
            else:
                page.get_by_role("button", name="Pass", exact=True).click()
        elif page.get_by_role("button", name=re.compile(r"^Discard \d of \d$")).count():
            cards = hand.get_by_role("button")
            need = cards.count() - 10
            for i in range(need):
                cards.nth(i).click()
            assert hand.get_by_role("button", pressed=True).count() == need
            page.get_by_role("button", name=f"Discard {need} of {need}").click()
        elif phase == "play":
            names = [
                b.evaluate("e => e.querySelector('.card-name').textContent")
                for b in hand.get_by_role("button").all()
            ]
            refused = [n for n in names if n and "may not be played" in n]
            for name in refused:  # each refused card says why, in card symbols
                assert re.search(r"may not be played: .*[♠♣♦♥]", name), name
            choice = next(n for n in names if n and "may not be played" not in n)
            mine.append(choice.split(",")[0])
            hand.get_by_role("button", name=choice, exact=True).click()
            lead_as = page.get_by_role("group", name="lead the joker as")
            if lead_as.count():
                lead_as.get_by_role("button").first.click()
        else:
            page.get_by_role("group").filter(has=page.locator("[data-action]")).last.get_by_role(
                "button"
            ).first.click()
        wait_change(page, version)
    said = log.inner_text()
    for card in mine:  # every card the person played was announced, in words
        assert f"Sam plays the {card}" in said, (card, said[-400:])
    assert said.count("wins the trick.") == 10, said[-400:]
    assert re.search(r"(bids|passes)", said)
    assert "Hand 1 over:" in said
    record = get(base, f"/api/tables/{created['table']}/record")
    assert len(record["hands"][0]["auction"]) == len(re.findall(r" (bids .*?|passes)\.", said))
    p.check()
