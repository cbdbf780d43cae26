"""Friends at one table in the browser: a new player makes a table from the
home page on a phone, sits in the seat they chose and invites a partner, who joins from
the link in a second browser; the seats say partner and opponent in words and colour;
the table is private; the two friends play a short game (target 10, easy computers) to its
end by tapping, and the page's final score is the server's record's; a guest who played
from Play now signs up from the same browser and keeps their name (a stranger is told why
it is held); every control of the pages other than the table page is a finger's size on a
phone, the replay opens in view and the charts are drawn at the size they are shown.
Screenshots at 360x640, 390x844 and desktop (docs/screenshots/web-friends-*.png with
FIVEHUNDRED_SCREENSHOTS=1)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
import websockets
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import test_web_page
from fivehundred.record import replay_game
from test_web_page import (
    CHROMIUM,
    DESKTOP,
    Page,
    act_once,
    get,
    hand_cards,
    join,
    pass_or_first,
    post,
    shot,
    summary_open,
)
from test_web_support import Player, thread_server, ws_url

# the fixtures of test_web_page, used by name
browser = test_web_page.browser
open_page = test_web_page.open_page

PHONE = {"width": 390, "height": 844}
SMALL = {"width": 360, "height": 640}
SECRET = "correct horse battery staple 42"
#: A deal (and so the computers' calls) in which a computer's 9NT is set, then Ann's six of
#: her longest suit wins the auction and the game: two hands.
FIRST_GAME_SEED = 7

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="no chromium")

#: Every visible control of a page (a checkbox by its label, the thing a finger taps) that
#: is less than 44 px tall: ["what (height)"].
SMALL_TARGETS = """() => {
  const out = [];
  const seen = (e) => e.offsetParent !== null || e.getClientRects().length > 0;
  for (const e of document.querySelectorAll('a, button, select, input, summary, textarea')) {
    if (!seen(e)) continue;
    let target = e;
    if (e.matches('input[type=checkbox], input[type=radio]')) target = e.closest('label') || e;
    const height = target.getBoundingClientRect().height;
    if (height < 44) out.push(`${e.id || e.tagName + ' ' + (e.textContent || '').trim().slice(0, 24)} (${Math.round(height)})`);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("friends") / "friends.sqlite3"
    with thread_server(f"sqlite:///{db}") as url:
        yield url


def seat_words(page: Any) -> dict[str, str]:
    """The form's seats: place -> what it says beside it."""
    rows = page.eval_on_selector_all(
        "#seats .seat-choice",
        "els => els.map(e => [e.querySelector('b').textContent, e.querySelector('.seat-place').textContent])",
    )
    return {place: text for place, text in rows}


def test_a_new_player_seats_a_friend_as_their_partner(
    base: str, open_page: Callable[..., Page]
) -> None:
    ann = open_page(PHONE)
    page = ann.page
    page.goto(base + "/")
    page.wait_for_selector("#seats .seat-choice select")
    # the levels in words, medium to begin with, nothing else offered beside them
    levels = page.eval_on_selector_all("#seat-1 option", "els => els.map(e => e.value)")
    assert levels == ["open", "easy", "medium", "hard", "expert"][: len(levels)]
    assert (
        page.input_value("#seat-1") == "medium" and page.input_value("#play-now-level") == "medium"
    )
    assert page.input_value("#play-now-wait") == "0"
    # you sit in the first seat; the seat opposite is your partner's, in your colour
    assert page.input_value("#my-seat") == "0"
    words = seat_words(page)
    assert words["South"].endswith("— you")
    assert words["North"].endswith("— your partner")
    assert words["West"].endswith("— an opponent") and words["East"].endswith("— an opponent")
    colour = "e => getComputedStyle(e.closest('.seat-choice')).borderLeftColor"
    assert page.eval_on_selector("#seat-2", colour) != page.eval_on_selector("#seat-1", colour)
    assert page.eval_on_selector("#seat-2", "e => e.options[0].textContent") == "invite a partner"
    assert page.eval_on_selector("#seat-1", "e => e.options[0].textContent") == "invite an opponent"
    # sitting West instead makes East the partner (the server says so, the page draws it)
    page.select_option("#my-seat", "1")
    page.wait_for_function(
        "() => document.querySelector('#seat-3')?.closest('.seat-choice').dataset.relation === 'partner'"
    )
    page.select_option("#my-seat", "0")
    page.wait_for_function(
        "() => document.querySelector('#seat-2')?.closest('.seat-choice').dataset.relation === 'partner'"
    )
    page.select_option("#seat-2", "open")
    page.fill("#my-name", "Ann")
    page.fill("#delay", "0")
    page.fill("#name", "Ann and Bob")
    assert page.is_checked("#private")
    assert not page.eval_on_selector_all(
        "#seats select", "els => els.filter(e => e.offsetWidth < e.scrollWidth).length"
    )
    for size, name in ((SMALL, "360"), (PHONE, "390"), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        page.wait_for_function("w => document.documentElement.clientWidth <= w", arg=size["width"])
        shot(page, f"friends-form-{name}", full_page=True)
        if size is not DESKTOP:
            assert page.evaluate(SMALL_TARGETS) == [], name
    page.set_viewport_size(PHONE)
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    link = page.input_value("#share-link")
    code = link.rsplit("/", 1)[1]
    assert code not in {t["table"] for t in get(base, "/api/tables")["tables"]}  # private
    # Ann goes to the table and is already in her seat: nothing to choose, nothing to type
    page.click("#go")
    page.wait_for_selector("#layout:not([hidden])")
    assert page.is_hidden("#join") or not page.locator("#join [data-seat]").count()
    facts = get(base, f"/api/tables/{code}")
    assert facts["seats"][0]["kind"] == "person" and facts["seats"][0]["name"] == "Ann"
    assert facts["seats"][2]["kind"] == "open"
    # Bob opens the link in his own browser and takes the partner's seat
    bob = open_page(SMALL)
    join(bob.page, link, "Bob", 2)
    facts = get(base, f"/api/tables/{code}")
    assert [s["kind"] for s in facts["seats"]] == ["person", "computer", "person", "computer"]
    seen = get(base, f"/api/tables/{code}?seat=2")["seating"]
    assert seen[0]["relation_words"] == "your partner"
    for who in (page, bob.page):  # the hand has begun for both
        who.wait_for_function("document.body.dataset.phase === 'auction'")
    shot(bob.page, "friends-table-360")
    ann.check()
    bob.check()


def bid_six_of_the_longest_suit(page: Any) -> None:
    """Ann's calls: six of the suit she holds most of when the bid box offers it, else pass."""
    suits = [card[-1] for card in hand_cards(page) if card != "JK"]
    longest = max("SCDH", key=suits.count)
    if page.locator(f"#bid-box-wrap [data-action='6{longest}']").count():
        level = page.locator("#bid-box-wrap input[name='bid-level'][value='6']:not([disabled])")
        if level.count():
            level.check()
            button = page.locator(f"#bid-box-wrap [data-action='6{longest}']:not([disabled])")
            if button.count():
                button.click()
                return
    pass_or_first(page)


def page_scores(page: Any) -> list[int]:
    return [
        int(n)
        for n in page.eval_on_selector_all(
            "#score tbody td:nth-child(2)", "els => els.map(e => e.textContent)"
        )
    ]


def test_a_new_player_finishes_a_first_game_with_a_friend(
    base: str, open_page: Callable[..., Page]
) -> None:
    """From the home page's form to the end of a game: Ann makes a table (she sits South,
    invites a partner, easy computers, the smallest target the form takes, no pause), copies
    the invite with the table's button, Bob sits as her partner from the link, and both play
    by tapping what the page offers until it says the game is over; the page's final score
    is the server's record's."""
    clipboard = {"permissions": ["clipboard-read", "clipboard-write"]}
    ann = open_page(SMALL, **clipboard)
    page = ann.page

    def with_seed(route: Any) -> None:
        # The deal (and so the computers' calls) fixed, for a test that runs the same each
        # time: the form's table with a seed the test server accepts.
        if route.request.method != "POST":
            route.continue_()
            return
        body = json.loads(route.request.post_data or "{}")
        route.continue_(post_data=json.dumps({**body, "seed": FIRST_GAME_SEED}))

    page.route("**/api/tables", with_seed)
    page.goto(base + "/")
    page.wait_for_selector("#seats .seat-choice select")
    assert page.input_value("#my-seat") == "0"
    assert page.eval_on_selector("#seat-2", "e => e.options[0].textContent") == "invite a partner"
    page.select_option("#seat-2", "open")
    page.select_option("#seat-1", "easy")
    page.select_option("#seat-3", "easy")
    # the smallest target the form takes (a multiple of 10, at least 10): a made contract
    # of any size wins the game
    smallest = page.eval_on_selector("#target", "e => Number(e.min)")
    assert smallest == 10
    page.fill("#target", str(smallest))
    page.fill("#my-name", "Ann")
    page.fill("#delay", "0")
    page.fill("#name", "Ann and Bob's first game")
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    page.click("#go")
    page.wait_for_selector("#layout:not([hidden])")
    # the table page's button copies the invite, saying whom it invites
    page.wait_for_selector("#copy-invite")
    assert page.inner_text("#copy-invite") == "Copy invite link for your partner"
    page.click("#copy-invite")
    page.wait_for_selector(".invite-status:text('Copied: send it to your friend.')")
    link = page.evaluate("navigator.clipboard.readText()")
    code = link.split("/t/", 1)[1].split("?", 1)[0]
    assert get(base, f"/api/tables/{code}/sheet")["target"] == smallest
    bob = open_page(PHONE)
    join(bob.page, link, "Bob", 2)
    assert [s["kind"] for s in get(base, f"/api/tables/{code}")["seats"]] == [
        "person",
        "computer",
        "person",
        "computer",
    ]
    page.wait_for_selector("#invite", state="hidden")  # nobody left to invite
    # both play by tapping: the bid box, the kitty's cards and Discard, the playable cards
    players = ((page, bid_six_of_the_longest_suit), (bob.page, pass_or_first))
    over = "document.getElementById('prompt').textContent === 'The game is over.'"
    acted: set[tuple[bool, str]] = set()  # (Ann?, the phase she or Bob moved in)
    summaries: list[str] = []  # what Ann's page said after each hand before the last
    deadline = time.monotonic() + 240
    while not all(who.evaluate(over) for who, _ in players):
        assert time.monotonic() < deadline, "the game did not finish"
        moved = False
        for who, bid in players:
            phase = who.evaluate("document.body.dataset.phase")
            if summary_open(who) and not who.evaluate(over):
                if who is page:
                    who.wait_for_selector("#summary-sheet table.scores")
                    summaries.append(who.inner_text("#summary .summary-body"))
                who.click("#summary-close")  # "Next hand"
                moved = True
            elif act_once(who, bid):
                acted.add((who is page, phase))
                moved = True
        if not moved:  # a computer's move or the other browser's: wait for the next state
            version = page.evaluate("document.body.dataset.version")
            with contextlib.suppress(PlaywrightTimeout):  # (Bob's page may be the one to move)
                page.wait_for_function(
                    "v => document.body.dataset.version !== v", arg=version, timeout=1000
                )
    # Ann won the auction and discarded three of her 13 cards; both bid and played
    assert {(True, "auction"), (True, "discard"), (True, "play")} <= acted, acted
    assert {(False, "auction"), (False, "play")} <= acted, acted
    # the page's final score is the server's record's
    sheet = get(base, f"/api/tables/{code}/sheet")
    assert sheet["finished"]
    game = replay_game(get(base, f"/api/tables/{code}/record"))
    assert game.is_over and list(sheet["hands"][-1]["scores"]) == list(game.scores)
    for who in (page, bob.page):
        who.wait_for_selector("#summary-sheet table.scores")
        assert page_scores(who) == list(game.scores)
        winner = sheet["side_names"][game.winner]
        assert who.inner_text("#score strong") == f"Game over: {winner} won."
        last_row = who.eval_on_selector_all(
            "#summary-sheet tbody tr:last-child td", "els => els.map(e => e.textContent)"
        )
        assert [int(n) for n in last_row[2:]] == list(game.scores)
    # the summaries say who took how many tricks and why a total did not rise, in words
    names = sheet["names"]
    texts = [*summaries, page.inner_text("#summary .summary-body")]
    for line, text in zip(sheet["hands"], texts, strict=True):
        taken = ", ".join(f"{names[s]} took {n}" for s, n in enumerate(line["tricks_won"]))
        assert f"Tricks: {taken}" in text
    # (this deal's first hand: a computer's 9NT set, Ann & Bob's 20 held at 0)
    assert "Ann & Bob +20, held at 0 (none counted): points won defending stop at 0" in summaries[0]
    shot(page, "friends-game-over-360")
    shot(bob.page, "friends-game-over-390")
    page.set_viewport_size(DESKTOP)
    page.wait_for_function("w => document.documentElement.clientWidth <= w", arg=DESKTOP["width"])
    shot(page, "friends-game-over-desktop")
    page.click("#summary-close")
    shot(page, "friends-game-over-table-desktop", full_page=True)
    bob.page.click("#summary-close")
    shot(bob.page, "friends-game-over-table-390", full_page=True)
    ann.check()
    bob.check()


def test_the_lobby_lists_who_sits_where_by_side(base: str, open_page: Callable[..., Page]) -> None:
    made = post(
        base,
        "/api/tables",
        {"seats": ["open", "easy", "open", "hard"], "sit": 0, "player": "Cy", "name": "Cy's"},
    )
    p = open_page(SMALL)
    page = p.page
    page.goto(base + "/")
    row = f"#tables tr:has(a[href='/t/{made['table']}'])"
    page.wait_for_selector(row)
    sides = page.eval_on_selector_all(f"{row} .side-chip", "els => els.map(e => e.textContent)")
    assert sides == ["South: Cy & North: open", "West: easy & East: hard"]
    shot(page, "friends-lobby-360", full_page=True)
    assert page.evaluate(SMALL_TARGETS) == []
    p.check()


def test_a_guest_signs_up_and_keeps_their_name(base: str, open_page: Callable[..., Page]) -> None:
    guest = open_page(PHONE)
    page = guest.page
    page.goto(base + "/")
    page.wait_for_selector("#play-now-level option", state="attached")
    page.fill("#play-now-name", "Robin")
    page.click("#play-now-button")  # no wait by default: a table with computers at once
    page.wait_for_url("**/t/*")
    page.wait_for_selector("#layout:not([hidden])")
    # someone else, in another browser, is told why the name is held and until when
    stranger = open_page(SMALL)
    other = stranger.page
    other.goto(base + "/account")
    other.fill("#signup input[name=name]", "robin")
    other.fill("#signup input[name=password]", SECRET)
    other.click("#signup button[type=submit]")
    other.wait_for_selector("#status:text-matches('held for them until')")
    assert "sign up from the browser you played in" in other.inner_text("#status")
    # said as a sentence, in view of the button pressed far down a small phone's page
    assert other.inner_text("#status").startswith("A guest played under the name")
    assert other.evaluate(
        "(() => { const r = document.getElementById('status').getBoundingClientRect();"
        " return r.top >= 0 && r.bottom <= innerHeight; })()"
    )
    shot(other, "friends-name-held-360")
    page.goto(base + "/account")
    page.wait_for_selector("#signup")
    assert page.input_value("#signup input[name=name]") == "Robin"
    assert "Robin" in page.inner_text("#guest-name")
    for size, name in ((SMALL, "360"), (PHONE, "390"), (DESKTOP, "desktop")):
        page.set_viewport_size(size)
        page.wait_for_function("w => document.documentElement.clientWidth <= w", arg=size["width"])
        shot(page, f"friends-signup-{name}", full_page=True)
    page.set_viewport_size(PHONE)
    page.fill("#signup input[name=password]", SECRET)
    page.click("#signup button[type=submit]")
    page.wait_for_selector("#status:text('Welcome, Robin.')")
    # the guest's game is the account's
    code = page.evaluate(
        "Object.keys(localStorage).find(k => k.startsWith('fivehundred:token:')).split(':')[2]"
    )
    assert get(base, f"/api/tables/{code}/accounts")["accounts"] == {"0": "Robin"}
    # one page per person: the ratings link to the games and back
    page.goto(base + "/account/Robin")
    page.wait_for_selector("#games-link[href='/p/Robin']")
    page.goto(base + "/p/Robin")
    page.wait_for_selector("#account-link[href='/account/Robin']:not([hidden])")
    # signed in, nobody asks for a name: the forms say whose it is
    page.goto(base + "/")
    # (the new table's form and play now's are each filled by a script of their own)
    page.wait_for_selector("#playing-as:text('You play as Robin.')")
    page.wait_for_selector("#play-now-as:text('You play as Robin.')")
    page.wait_for_selector("#my-name", state="hidden")
    page.wait_for_selector("#play-now-name", state="hidden")
    guest.check()
    assert all("409" in error for error in stranger.errors)  # the refusal, said on the page


def finished_table(base: str) -> str:
    """A short game of four computers, watched until it is over."""
    made = post(
        base,
        "/api/tables",
        {
            "rules": {"preset": "australian", "variants": {"target": 10}},
            "seats": ["random", "random", "random", "random"],
            "options": {"delay": 0},
        },
    )
    code = str(made["table"])

    async def watch() -> None:
        async with websockets.connect(ws_url(base, code)) as ws:
            spectator = Player(ws, None)
            await spectator.until(
                lambda m: m["type"] == "view" and m["view"]["table"]["finished"], timeout=120
            )

    if not get(base, f"/api/tables/{code}")["finished"]:
        with ThreadPoolExecutor(1) as thread:  # (Playwright holds this thread's loop)
            thread.submit(asyncio.run, watch()).result()
    return code


def test_the_other_pages_fit_a_finger_and_the_replay_opens_in_view(
    base: str, open_page: Callable[..., Page]
) -> None:
    code = finished_table(base)
    p = open_page(SMALL)
    page = p.page
    page.goto(f"{base}/g/{code}")
    page.wait_for_selector("a[data-hand='1']")
    assert page.evaluate(SMALL_TARGETS) == [], "game page"
    page.click("a[data-hand='1']")
    page.wait_for_selector("#replay-board .seat-hand")
    page.wait_for_function(
        "() => { const r = document.getElementById('replay-panel').getBoundingClientRect();"
        " return r.top >= -1 && r.top < innerHeight; }"
    )
    shot(page, "friends-replay-360")
    page.goto(f"{base}/p/random")
    page.wait_for_selector("#chart svg")
    assert page.evaluate(SMALL_TARGETS) == [], "player page"
    scale = page.eval_on_selector(
        "#chart svg", "e => e.getBoundingClientRect().width / e.viewBox.baseVal.width"
    )
    assert scale > 0.95, f"the chart's labels are drawn at {scale:.2f} of their size"
    for path in ("/account", "/leaderboard", "/", "/learn", "/learn/puzzles"):
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        if path.startswith("/learn"):  # the lesson or puzzle drawn at its table
            page.wait_for_selector("#hand .card")
        assert page.evaluate(SMALL_TARGETS) == [], path
    p.check()
