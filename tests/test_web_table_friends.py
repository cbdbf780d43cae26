"""The first hour on the table page, in chromium at phone sizes: the seats say who is your partner
and who your opponents (word and colour) and the join buttons say it too; a copy-invite
button while a seat is open; a chat message shows at the table with an unread count; the
misère contractor's partner is shown sitting out, and why; the 490 rule's own figure."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
websockets_sync = pytest.importorskip("websockets.sync.client")
import test_web_page  # noqa: E402
from test_web_a11y import AXE, axe_problems  # noqa: E402
from test_web_friends_page import SMALL_TARGETS  # noqa: E402
from test_web_page import Page, act_once, post, shot, summary_open  # noqa: E402
from test_web_support import ws_url  # noqa: E402

base = test_web_page.base
browser = test_web_page.browser
open_page = test_web_page.open_page

PHONE = {"width": 390, "height": 844}
#: The players' names (a side's header is "Ann & heuristic 3") that the page draws over
#: more than one line in the elements ``selector`` finds.
NAMES_BROKEN = """(selector) => [...document.querySelectorAll(selector)].flatMap((box) => {
  let text = "";
  const tops = [];
  const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      tops.push(rect && node.data[i].trim() ? Math.round(rect.top) : null);
      text += node.data[i];
    }
  }
  let at = 0;
  const broken = [];
  for (const name of text.split(" & ")) {
    const lines = new Set(tops.slice(at, at + name.length).filter((t) => t !== null));
    if (lines.size > 1) broken.push(name);
    at += name.length + 3;
  }
  return broken;
})"""
SMALL = {"width": 360, "height": 640}


def test_friends_are_told_who_is_whose_partner_invited_and_chat_at_the_table(
    base: str, open_page: Callable[..., Page]
) -> None:
    created = post(
        base,
        "/api/tables",
        {"seats": ["open", "heuristic", "open", "heuristic"], "options": {"delay": 0}, "seed": 3},
    )
    url = base + created["url"]
    ann = open_page(PHONE, permissions=["clipboard-read", "clipboard-write"])
    a = ann.page
    a.goto(url)
    a.wait_for_selector("#join:not([hidden])")
    # Nobody seated yet: the buttons name the relation to the computers, not a seat number.
    assert a.inner_text("#join [data-seat='0']") == "Sit as heuristic 2 & heuristic 4's opponent"
    a.fill("#player-name", "Ann")
    a.click("#join [data-seat='0']")
    a.wait_for_selector("#layout:not([hidden])")
    # Ann's seat 2 is open: the invite bar offers the link, for her partner.
    a.wait_for_selector("#copy-invite")
    assert a.inner_text("#copy-invite") == "Copy invite link for your partner"
    assert a.locator("#copy-invite").bounding_box()["y"] < PHONE["height"]
    a.click("#copy-invite")
    a.wait_for_function("document.querySelector('.invite-status').textContent !== ''")
    assert a.evaluate("navigator.clipboard.readText()") == url
    # The friend opens the link: the open seat is Ann's partner's.
    bob = open_page(SMALL)
    b = bob.page
    b.goto(url)
    b.wait_for_selector("#join [data-seat='2']")
    assert b.inner_text("#join [data-seat='2']") == "Sit as Ann's partner"
    shot(b, "c2-join-360")
    b.fill("#player-name", "Bob")
    b.click("#join [data-seat='2']")
    b.wait_for_selector("#layout:not([hidden])")
    a.wait_for_selector("#invite", state="hidden")
    # Each seat box says how it stands to the one looking, in words and by its colour.
    for page, partner, opponents in ((a, 2, (1, 3)), (b, 0, (1, 3))):
        box = page.locator(f".seat[data-seat='{partner}']")
        box.wait_for()
        assert "rel-partner" in (box.get_attribute("class") or "")
        assert box.locator(".relation").inner_text() == "your partner"
        for seat in opponents:
            other = page.locator(f".seat[data-seat='{seat}']")
            assert "rel-opponent" in (other.get_attribute("class") or "")
            assert other.locator(".relation").inner_text() == "an opponent"
        colours = page.evaluate(
            """() => [...document.querySelectorAll('.seat .relation')].map(
                 e => getComputedStyle(e).backgroundColor)"""
        )
        assert len(set(colours)) == 2, colours
        # Each word on one line, whole, in its pill inside the seat box (86 px at 360 px).
        cut = page.evaluate(
            """() => [...document.querySelectorAll('.seat .relation')].filter((e) => {
                 const r = e.getBoundingClientRect(), seat = e.closest('.seat').getBoundingClientRect();
                 return r.height > parseFloat(getComputedStyle(e).lineHeight) * 1.5
                   || e.scrollWidth > e.clientWidth + 1 || r.left < seat.left || r.right > seat.right;
               }).map((e) => e.textContent)"""
        )
        assert not cut, cut
        assert "your partner" in (box.get_attribute("aria-label") or "")
        assert page.inner_text("#auction th.rel-partner").endswith("your partner")
        assert page.locator("#auction th.rel-opponent").count() == 2
    # Bob says something: on Ann's phone the chat log is far below; the message shows by
    # Bob's seat at the table and the Chat button counts it.
    b.fill("#chat-text", "Hello partner")
    b.press("#chat-text", "Enter")
    bubble = a.locator(".seat[data-seat='2'] .chat-bubble")
    bubble.wait_for()
    assert "Hello partner" in bubble.inner_text()
    box = bubble.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    a.wait_for_selector("#chat-unread:not([hidden])")
    assert a.inner_text("#chat-unread") == "1"
    assert a.locator("#chat-jump").bounding_box()["y"] < PHONE["height"]
    shot(a, "c2-chat-bubble-390")
    if AXE.exists():  # the relations, the bubble and the count: no serious violation
        assert not axe_problems(a, "table of friends"), axe_problems(a, "table of friends")
    a.click("#chat-jump")
    a.wait_for_selector("#chat-unread", state="hidden")
    assert a.evaluate("document.activeElement.id") == "chat-text"
    ann.check()
    bob.check()


def _play_to_misere(base: str, code: str) -> int:
    """Four people's sockets: 7♠, then misère by the next seat, the rest pass, the
    contractor discards; returns the contractor's seat."""
    tokens = [
        post(base, f"/api/tables/{code}/seats/{seat}", {"name": name})["token"]
        for seat, name in enumerate(["Ann", "Bob", "Cat", "Dan"])
    ]
    sockets = [websockets_sync.connect(ws_url(base, code, token)) for token in tokens]
    views: list[dict[str, Any]] = [{} for _ in sockets]

    def latest(seat: int, after: int) -> dict[str, Any]:
        while views[seat].get("version", -1) <= after:
            message = json.loads(sockets[seat].recv(timeout=10))
            if message["type"] == "view":
                views[seat] = message
        return views[seat]

    try:
        version = -1
        contractor = -1
        calls = 0
        while True:
            view = latest(0, version)
            version = view["version"]
            state = view["view"]
            if state["phase"] == "play":
                return contractor
            mover = state["to_move"]
            legal = latest(mover, version - 1)["view"]["legal"]
            if state["phase"] == "auction":
                action = "7S" if calls == 0 else "misere" if calls == 1 else "pass"
                if calls == 1:
                    contractor = mover
                calls += 1
            else:
                action = legal[0]
            sockets[mover].send(
                json.dumps({"type": "action", "action": action, "version": version})
            )
    finally:
        for sock in sockets:
            sock.close()


def test_the_misere_contractors_partner_is_shown_sitting_out(
    base: str, open_page: Callable[..., Page]
) -> None:
    created = post(base, "/api/tables", {"seats": ["open"] * 4, "options": {"delay": 0}, "seed": 4})
    contractor = _play_to_misere(base, created["table"])
    partner = (contractor + 2) % 4
    names = ["Ann", "Bob", "Cat", "Dan"]
    p = open_page(PHONE)
    page = p.page
    page.goto(base + created["url"] + "?watch")
    box = page.locator(f".seat[data-seat='{partner}']")
    box.wait_for()
    assert "sitting-out" in (box.get_attribute("class") or "")
    assert "sits out" in box.inner_text()
    note = page.locator("#contract .sitting-out").inner_text()
    assert note == (
        f"{names[partner]} sits out: {names[contractor]} plays misère alone,"
        " so each trick has 3 cards."
    )
    assert page.locator("#contract .sitting-out").bounding_box()["y"] < PHONE["height"]
    shot(page, "c2-misere-390")
    if AXE.exists():
        assert not axe_problems(page, "misère"), axe_problems(page, "misère")
    p.check()


def test_the_hands_summary_says_the_490_rule_with_the_tables_figure(
    base: str, open_page: Callable[..., Page]
) -> None:
    created = post(
        base,
        "/api/tables",
        {
            "seats": ["open", "easy", "easy", "easy"],
            "options": {"delay": 0},
            "seed": 7,
            "rules": {"preset": "australian", "variants": {"target": 100}},
        },
    )
    p = open_page(PHONE)
    page = p.page
    test_web_page.join(page, base + created["url"], "Ann", 0)
    while not summary_open(page):
        if not act_once(page, test_web_page.pass_or_first):
            page.wait_for_function(
                "document.body.dataset.myTurn === '1' || !!document.querySelector('#summary[open]')"
            )
    page.wait_for_selector("#rule-490")
    # The score sheet's column headers break between the players' names, never inside one.
    heads = page.eval_on_selector_all("#summary-sheet table.scores th", "ths => ths.length")
    assert heads == 4 and not page.evaluate(NAMES_BROKEN, "#summary-sheet table.scores th")
    assert page.inner_text("#rule-490") == (
        "The 490 rule, in a game to 100: points won defending stop at 90, 10 short of 100;"
        " a side reaches 100 only by winning a contract."
    )
    p.check()


def climb(page: Any) -> None:
    """Bidding policy: the lowest bid each turn (pass when none is left)."""
    bids = page.locator("#bid-box-wrap .bid-box button:not([disabled])")
    if bids.count():
        bids.first.click()
    else:
        page.click("#bid-box-wrap [data-action='pass']")


def _to_my_discard(page: Any) -> None:
    """Bid up until this seat has the kitty. (The phase and the turn are read together, and
    the seat acts only at its turn in the auction: read apart, the kitty could come between
    the two reads and the seat would discard and play on as in a whole hand.)"""
    while True:
        phase, turn = page.evaluate("[document.body.dataset.phase, document.body.dataset.myTurn]")
        if phase == "discard" and turn == "1":
            return
        assert not summary_open(page), "the seat never won the auction"
        if phase == "auction" and turn == "1":
            act_once(page, climb)
        else:
            page.wait_for_function(
                "document.body.dataset.myTurn === '1' || !!document.querySelector('#summary[open]')"
            )


def _hints(p: Page) -> list[str]:
    return [f["action"] for f in p.frames if f.get("type") == "hint"]


def test_the_kitty_on_a_small_phone_and_a_hint_after_a_marked_card(
    base: str, open_page: Callable[..., Page]
) -> None:
    """At 360×640 the Discard button is whole on the screen and the hint's line too; once
    the hinted card is marked, Hint names another card, never a marked one."""
    created = post(
        base,
        "/api/tables",
        {
            "seats": ["open", "heuristic", "heuristic", "heuristic"],
            "options": {"delay": 0},
            "seed": 7,
        },
    )
    p = open_page(SMALL)
    page = p.page
    test_web_page.join(page, base + created["url"], "Ann", 0)
    _to_my_discard(page)
    button = page.locator("#confirm-discard")
    box = button.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= SMALL["height"], box
    marked: list[str] = []
    for _ in range(2):
        page.click("#hint")
        page.wait_for_function("document.getElementById('toast').textContent.startsWith('Hint')")
        toast = page.locator("#toast").bounding_box()
        assert toast is not None and toast["y"] + toast["height"] <= SMALL["height"] + 1, toast
        page.wait_for_function(
            "n => document.getElementById('toast').dataset.hints === String(n)", arg=len(marked) + 1
        )
        hint = _hints(p)[-1]
        assert hint not in marked, (hint, marked)
        toast = page.locator("#toast").bounding_box()
        assert toast is not None and toast["y"] + toast["height"] <= SMALL["height"] + 1, toast
        shot(page, f"c2-kitty-360-{len(marked)}")
        test_web_page.click_card(page, hint)
        marked.append(hint)
        page.wait_for_selector(f"#hand .card[data-card='{hint}'][aria-pressed='true']")
    box = button.bounding_box()
    assert box is not None and box["y"] + box["height"] <= SMALL["height"], box
    p.check()


DESKTOP = {"width": 1280, "height": 800}


def _active(page: Any) -> dict[str, Any]:
    return dict(
        page.evaluate(
            """() => { const a = document.activeElement; return {
                 body: a === document.body || !a,
                 card: a && a.dataset ? a.dataset.card || null : null,
                 legal: !!(a && a.classList && a.classList.contains('legal')),
                 hand: !!(a && a.closest && a.closest('#hand')),
                 bids: !!(a && a.closest && a.closest('#bid-box-wrap')),
                 id: a ? a.id : '' }; }"""
        )
    )


def test_the_keyboards_focus_at_the_table(base: str, open_page: Callable[..., Page]) -> None:
    """At 1280×800: "Skip to your hand" then Tab reaches the bid box; after Pass (or a bid)
    and after Discard the focus is not on the page's body; at your turn to play the focus
    in the hand is on a card you may play; a Tab out of the hand comes back in a dozen."""
    created = post(
        base,
        "/api/tables",
        {
            "seats": ["open", "heuristic", "heuristic", "heuristic"],
            "options": {"delay": 0},
            "seed": 7,
        },
    )
    p = open_page(DESKTOP)
    page = p.page
    test_web_page.join(page, base + created["url"], "Kay", 0)
    phases: set[str] = set()
    loop_measured = False
    while not summary_open(page):
        if page.evaluate("document.body.dataset.myTurn") != "1":
            page.wait_for_function(
                "document.body.dataset.myTurn === '1' || !!document.querySelector('#summary[open]')"
            )
            continue
        version = page.evaluate("document.body.dataset.version")
        phase = page.evaluate("document.body.dataset.phase")
        if phase == "auction":
            page.focus(".skip-link")
            page.keyboard.press("Enter")
            page.keyboard.press("Tab")
            assert _active(page)["bids"], _active(page)
            bids = page.locator("#bid-box-wrap .bid-box button:not([disabled])")
            if bids.count():
                bids.first.focus()
            else:
                page.focus("#bid-box-wrap [data-action='pass']")
            page.keyboard.press("Enter")
        elif phase == "discard":
            page.focus("#hand .card[tabindex='0']")
            need = page.locator("#hand .card").count() - 10
            for _ in range(need):
                page.keyboard.press("Enter")
                page.keyboard.press("ArrowRight")
            page.focus("#confirm-discard")
            page.keyboard.press("Enter")
        elif phase == "play":
            state = _active(page)
            if state["hand"]:
                assert state["legal"], f"the focus sits on a card you may not play: {state}"
            if not loop_measured:
                # One Tab out of the hand, and back by Tab: a dozen stops at most.
                page.focus("#hand .card[tabindex='0']")
                count = 0
                while count < 40:
                    page.keyboard.press("Tab")
                    count += 1
                    if _active(page)["hand"]:
                        break
                assert count <= 13, f"{count} Tabs to come back to the hand"
                loop_measured = True
            page.focus("#hand .card.legal")
            page.keyboard.press("Enter")
            if page.locator("[aria-label='lead the joker as'] button").count():
                page.locator("[aria-label='lead the joker as'] button").first.focus()
                page.keyboard.press("Enter")
        else:
            page.locator(".choice-row [data-action], .call-grid [data-action]").first.focus()
            page.keyboard.press("Enter")
        phases.add(phase)
        page.wait_for_function(
            "v => document.body.dataset.version !== v || !!document.querySelector('#summary[open]')",
            arg=version,
        )
        if summary_open(page):
            break
        # The control pressed is gone: the focus is somewhere at the table, not the body.
        page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
        assert not _active(page)["body"], (phase, _active(page))
    assert {"auction", "discard", "play"} <= phases, phases
    p.check()


def test_the_score_sheet_page_says_the_490_rule_with_the_tables_figure(
    base: str, open_page: Callable[..., Page]
) -> None:
    for variants, words in [
        ({"target": 100}, "The 490 rule, in a game to 100: points won defending stop at 90"),
        ({"rule_490": False}, None),
    ]:
        created = post(
            base,
            "/api/tables",
            {
                "seats": ["open", "heuristic", "heuristic", "heuristic"],
                "options": {"delay": 0},
                "seed": 7,
                "rules": {"preset": "australian", "variants": variants},
            },
        )
        p = open_page(PHONE)
        page = p.page
        page.goto(f"{base}/g/{created['table']}")
        page.wait_for_function("document.body.innerText.includes('Target')")
        text = page.inner_text("body")
        assert "stop at 490" not in text
        assert (words in text) if words else (" rule: " not in text), text
        p.check()


def test_an_open_seat_to_move_waits_for_a_person_and_says_so(
    base: str, open_page: Callable[..., Page]
) -> None:
    """When the seat to move is open, the prompt says the table waits for someone to sit
    there, and who they would be to you: not "open to bid"."""
    created = post(
        base,
        "/api/tables",
        {"seats": ["open", "easy", "open", "easy"], "options": {"delay": 0}, "seed": 3},
    )
    p = open_page(SMALL)
    page = p.page
    test_web_page.join(page, base + created["url"], "Ann", 0)
    seat_2_moves = "!!document.querySelector(\".seat[data-seat='2'].to-move\")"
    while True:  # Ann passes until the open seat is to bid
        page.wait_for_function(f"document.body.dataset.myTurn === '1' || {seat_2_moves}")
        if not page.evaluate(seat_2_moves):
            act_once(page, test_web_page.pass_or_first)
            continue
        break
    assert page.inner_text("#prompt") == "Waiting for your partner to take the open seat 3."
    # Every control of the table page is a finger's size on a small phone: the way home
    # and the score sheet's link too.
    assert page.evaluate(SMALL_TARGETS) == []
    p.check()
