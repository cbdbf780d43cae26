"""Issue 52 on the table page, in chromium at phone sizes: the seats say who is your partner
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
from test_web_page import Page, act_once, post, shot, summary_open  # noqa: E402
from test_web_support import ws_url  # noqa: E402

base = test_web_page.base
browser = test_web_page.browser
open_page = test_web_page.open_page

PHONE = {"width": 390, "height": 844}
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
            assert other.locator(".relation").inner_text() == "opponent"
        colours = page.evaluate(
            """() => [...document.querySelectorAll('.seat .relation')].map(
                 e => getComputedStyle(e).backgroundColor)"""
        )
        assert len(set(colours)) == 2, colours
        assert "your partner" in (box.get_attribute("aria-label") or "")
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
    p.check()


def test_the_hands_summary_says_the_490_rule_with_the_tables_figure(
    base: str, open_page: Callable[..., Page]
) -> None:
    created = post(
        base,
        "/api/tables",
        {
            "seats": ["open", "heuristic", "heuristic", "heuristic"],
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
    assert page.inner_text("#rule-490") == (
        "The 90 rule: points won defending stop at 90; a side reaches 100 only by winning"
        " a contract."
    )
    p.check()
