"""The browser page, played in Debian's chromium through Playwright against a real server.

Four people join one table from its link and play a hand (the kitty, a no-trump contract
with the joker nominated and led, a reload in the middle); a table against three computer
players is created in the lobby and played by clicking; a phone plays a hand, one trick by
keyboard alone; every WebSocket frame a page received is checked against what its seat may
know; the history pages (score sheet, replay, analysis, player page) are opened. Any
console error or page error fails the test. Screenshots: docs/screenshots/web-*.png with
``FIVEHUNDRED_SCREENSHOTS=1``.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

playwright_api = pytest.importorskip("playwright.sync_api")
from fivehundred.cards import JOKER  # noqa: E402
from fivehundred.errors import RulesError  # noqa: E402
from fivehundred.game import GameState  # noqa: E402
from fivehundred.record import replay_game  # noqa: E402
from fivehundred.rules import make_rules  # noqa: E402
from fivehundred.web.views import card_words_of  # noqa: E402
from fivehundred.words import variant_words  # noqa: E402
from test_web_support import Player, check_messages, thread_server, ws_url  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: The README's screenshots are rewritten with FIVEHUNDRED_SCREENSHOTS=1; otherwise they go
#: to a temporary folder (still taken, so that the pages are drawn the same way).
SHOTS = (
    Path(__file__).resolve().parent.parent / "docs" / "screenshots"
    if os.environ.get("FIVEHUNDRED_SCREENSHOTS") == "1"
    else Path(tempfile.gettempdir()) / "fivehundred-screenshots"
)
DESKTOP = {"width": 1280, "height": 860}
PHONE = {"width": 375, "height": 667}

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists() and os.environ.get("CI") != "true",
    reason="no chromium at /usr/bin/chromium",
)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    db = tmp_path_factory.mktemp("page") / "page.sqlite3"
    with thread_server(f"sqlite:///{db}") as url:
        yield url


@pytest.fixture
def open_page(browser: Any) -> Iterator[Callable[..., Page]]:
    """Pages for one test; their contexts are closed even when the test fails."""
    made: list[Page] = []

    def make(viewport: dict[str, int], **options: Any) -> Page:
        made.append(Page(browser, viewport, **options))
        return made[-1]

    yield make
    for page in made:
        page.context.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with playwright_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield chromium
        chromium.close()


class Page:
    """A page in its own browser context that records its errors and WebSocket frames."""

    def __init__(self, browser: Any, viewport: dict[str, int], **options: Any) -> None:
        self.context = browser.new_context(viewport=viewport, **options)
        self.page = self.context.new_page()
        self.errors: list[str] = []
        self.frames: list[dict[str, Any]] = []
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        self.page.on("websocket", self._socket)

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(f"console: {message.text}")

    def _socket(self, ws: Any) -> None:
        def received(payload: Any) -> None:
            text = payload if isinstance(payload, str) else payload.decode()
            self.frames.append(json.loads(text))

        ws.on("framereceived", received)

    def check(self) -> None:
        """Fail on any console error or page error."""
        assert not self.errors, self.errors


def post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base + path, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return dict(json.load(answer))


def get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=10) as answer:
        return json.load(answer)


def shot(page: Any, name: str, full_page: bool = False) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    # A card arriving on the trick is drawn once it has arrived.
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
    page.screenshot(path=str(SHOTS / f"web-{name}.png"), full_page=full_page)


def join(page: Any, url: str, name: str, seat: int) -> None:
    page.goto(url)
    page.fill("#player-name", name)
    page.click(f"#join [data-seat='{seat}']")
    page.wait_for_selector("#layout:not([hidden])")
    page.wait_for_function("document.body.dataset.version !== undefined")


def click_card(page: Any, card: str) -> None:
    """Tap a card of the hand where it shows: its left edge (the cards overlap)."""
    page.click(f"#hand .card[data-card='{card}']", position={"x": 6, "y": 24})


def hand_cards(page: Any) -> list[str]:
    return list(page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.card)"))


Policy = Callable[[Any], None]


def pass_or_first(page: Any) -> None:
    """Bidding policy: pass when allowed (else the lowest bid)."""
    if page.locator("#bid-box-wrap [data-action='pass']:not([disabled])").count():
        page.click("#bid-box-wrap [data-action='pass']")
    else:
        page.locator("#bid-box-wrap button:not([disabled])").first.click()


def bid_if_legal(page: Any, call: str) -> bool:
    """Make this bid if it is legal now, as a person does: its level, then its strain."""
    tricks = call.rstrip("SCDHNT")
    level = page.locator(f"#bid-box-wrap input[name='bid-level'][value='{tricks}']:not([disabled])")
    if not level.count():
        return False
    level.check()
    button = page.locator(f"#bid-box-wrap [data-action='{call}']:not([disabled])")
    if not button.count():
        return False
    button.click()
    return True


def act_once(
    page: Any,
    bid: Policy,
    discards: Callable[[list[str]], list[str]] | None = None,
    lead: Callable[[list[str]], str | None] | None = None,
) -> bool:
    """Make this page's move if it is its turn, by clicking as a person would."""
    if summary_open(page) or page.evaluate("document.body.dataset.myTurn") != "1":
        return False
    version = page.evaluate("document.body.dataset.version")
    phase = page.evaluate("document.body.dataset.phase")
    try:
        moved = _act(page, phase, bid, discards, lead)
    except playwright_api.TimeoutError:
        # The hand ended between the check above and the click: the summary took the
        # click (the next hand's first turn may be this page's).
        if summary_open(page):
            return False
        raise
    if not moved:
        return False
    page.wait_for_function("v => document.body.dataset.version !== v", arg=version, timeout=10000)
    return True


def _act(
    page: Any,
    phase: str,
    bid: Policy,
    discards: Callable[[list[str]], list[str]] | None,
    lead: Callable[[list[str]], str | None] | None,
) -> bool:
    if phase == "auction":
        bid(page)
    elif phase == "discard":
        cards = hand_cards(page)
        need = len(cards) - 10
        chosen = discards(cards) if discards else cards[-need:]
        for card in chosen:
            click_card(page, card)
        page.click("#confirm-discard")
    elif phase == "nominate":
        page.locator('[aria-label="the joker\'s suit"] button').first.click()
    elif phase == "call":
        page.locator(".call-grid .card").first.click()
    elif phase == "play":
        legal = list(
            page.eval_on_selector_all("#hand .card.legal", "els => els.map(e => e.dataset.card)")
        )
        card = (lead(legal) if lead else None) or legal[0]
        click_card(page, card)
        if page.locator("[aria-label='lead the joker as'] button").count():
            page.locator("[aria-label='lead the joker as'] button").first.click()
    elif page.locator("#controls .choice-row [data-action]").count():
        page.locator("#controls .choice-row [data-action]").first.click()  # a house choice
    elif page.locator("#hand.active .card.legal").count():
        click_card(page, page.locator("#hand.active .card.legal").first.get_attribute("data-card"))
    else:
        return False
    return True


def summary_open(page: Any) -> bool:
    return bool(page.locator("#summary[open]").count())


def play_against_computers(
    page: Any,
    bid: Policy = pass_or_first,
    each: Callable[[Any], None] | None = None,
    timeout: float = 60,
) -> None:
    deadline = time.monotonic() + timeout
    while not summary_open(page):
        assert time.monotonic() < deadline, "the hand did not finish"
        if each:
            each(page)
        if not act_once(page, bid):
            page.wait_for_timeout(60)
    page.wait_for_selector("#summary h2")


def first_seed_with_joker_dealt() -> int:
    """A seed whose first hand deals the joker to a player, not to the kitty."""
    rules = make_rules()
    for seed in range(100):
        if not GameState(rules, seed).hand.kitty_dealt >> JOKER & 1:
            return seed
    raise AssertionError("no seed")


def in_play_turn(page: Any) -> bool:
    return bool(
        page.evaluate("document.body.dataset.phase") == "play"
        and page.evaluate("document.body.dataset.myTurn") == "1"
    )


def reload_and_compare(page: Any) -> None:
    """Reload the page: it comes back to the same view; the last trick shows on demand."""
    before = (hand_cards(page), page.inner_text("#trick"), page.inner_text("#contract"))
    page.reload()
    page.wait_for_function("document.body.dataset.myTurn === '1'")
    after = (hand_cards(page), page.inner_text("#trick"), page.inner_text("#contract"))
    assert after == before, "a reload comes back to the same view"
    page.click("#last-trick")  # the last trick on demand, then back
    assert page.get_attribute("#trick", "aria-label").startswith("the last trick, won by")
    assert page.eval_on_selector_all("#trick .card", "e => e.length") == 4
    page.click("#last-trick")
    assert page.inner_text("#trick") == before[1]


# ----------------------------------------------------------------------------- the tests
def test_four_people_play_a_hand_from_the_link(base: str, open_page: Callable[..., Page]) -> None:
    created = post(
        base,
        "/api/tables",
        {
            "seats": ["open"] * 4,
            "name": "Four friends",
            "options": {"grace": 3600},
            "seed": first_seed_with_joker_dealt(),
        },
    )
    url = base + created["url"]
    names = ["Ann", "Bob", "Cat", "Dan"]
    pages = [open_page(DESKTOP) for _ in names]
    for seat, (page, name) in enumerate(zip(pages, names, strict=True)):
        join(page.page, url, name, seat)
    holder = next(i for i, p in enumerate(pages) if "JK" in hand_cards(p.page))
    watcher = open_page(DESKTOP)
    watcher.page.goto(url + "?watch=1")
    watcher.page.wait_for_function("document.body.dataset.version !== undefined")
    assert hand_cards(watcher.page) == []
    pages[0].page.click("#chat-quick button:has-text('Good luck!')")
    pages[1].page.wait_for_selector("#chat-log :text('Ann: Good luck!')")

    def bid(page: Any) -> None:
        if (
            page is pages[holder].page
            and page.locator("[data-action='6NT']:not([disabled])").count()
        ):
            shot(page, "bidding")
        if not (page is pages[holder].page and bid_if_legal(page, "6NT")):
            page.click("#bid-box-wrap [data-action='pass']")

    def discards(cards: list[str]) -> list[str]:
        page = pages[holder].page
        marked = page.eval_on_selector_all("#hand .card.from-kitty", "els => els.length")
        assert marked == 3, "the kitty's three cards are marked in the contractor's hand"
        chosen = [c for c in reversed(cards) if c != "JK"][:3]
        for card in chosen[:2]:
            click_card(page, card)
        assert page.is_disabled("#confirm-discard")  # two of three chosen
        click_card(page, chosen[2])
        shot(page, "kitty")
        for card in chosen:  # unselect, act_once selects them again
            click_card(page, card)
        return chosen

    def lead(legal: list[str]) -> str | None:
        return "JK" if "JK" in legal else None

    deadline = time.monotonic() + 90
    reloaded = False
    joker_led = False
    nominated_seen = False
    refused_seen = False
    while not all(summary_open(p.page) for p in pages):
        assert time.monotonic() < deadline, "the hand did not finish"
        moved = False
        for seat, p in enumerate(pages):
            if summary_open(p.page):
                continue
            page = p.page
            if page.evaluate("document.body.dataset.phase") == "play" and not joker_led:
                trick = page.eval_on_selector_all(
                    "#trick .card", "els => els.map(e => e.dataset.card)"
                )
                joker_led = trick[:1] == ["JK"]
                nominated_seen |= "Joker as" in page.inner_text("#contract")
            if seat == holder and page.evaluate("document.body.dataset.phase") == "nominate":
                assert page.locator('[aria-label="the joker\'s suit"] button').count() == 5
                shot(page, "nominate")
            illegal = page.eval_on_selector_all(
                "#hand.active .card.illegal", "els => els.map(e => e.dataset.card)"
            )
            if illegal and not refused_seen:
                # A refused card says why, in card language, and nothing is sent.
                before = page.evaluate("document.body.dataset.version")
                click_card(page, illegal[0])
                reason = page.inner_text("#reason")
                assert re.search(r"must follow [♠♣♦♥]|joker may be played only", reason), reason
                assert page.get_attribute(f"#hand .card[data-card='{illegal[0]}']", "title")
                assert page.evaluate("document.body.dataset.version") == before
                refused_seen = True
            if seat == 2 and not reloaded and in_play_turn(page) and len(hand_cards(page)) < 10:
                reload_and_compare(page)  # Cat reloads in the middle of the hand, on her turn
                reloaded = True
            moved |= act_once(
                page, bid, discards if seat == holder else None, lead if seat == holder else None
            )
        if not moved:
            pages[0].page.wait_for_timeout(50)
    assert reloaded and joker_led and refused_seen
    pages[holder].page.wait_for_function(  # the score sheet loads after the summary
        "document.getElementById('summary').innerText.includes('All the hands as dealt')"
    )
    summary = pages[holder].page.inner_text("#summary")
    assert "6NT" in summary and "All the hands as dealt" in summary
    assert nominated_seen, "every seat's contract box names the joker's suit"
    record = get(base, f"/api/tables/{created['table']}/record")
    assert record["hands"][0]["auction"].count("6NT") == 1
    assert record["hands"][0]["play"][0] == "JK"  # the contractor led the nominated joker
    assert record["hands"][0].get("joker_suit") in tuple("SCDH")
    # Every frame each page received names only cards its seat may know. The views at the
    # version that ends the hand already show the next hand's deal, which the record of
    # finished hands cannot check: those are left out.
    total = sum(len(hand.history) for hand in replay_game(record).finished_hands)
    for seat, p in enumerate(pages):
        frames = [f for f in p.frames if f.get("type") != "view" or f["version"] < total]
        assert check_messages(record, seat, frames) > 20
        p.check()
    frames = [f for f in watcher.frames if f.get("type") != "view" or f["version"] < total]
    assert check_messages(record, None, frames) > 20
    watcher.check()


def test_lobby_creates_a_table_against_three_computers(
    base: str, open_page: Callable[..., Page]
) -> None:
    p = open_page(DESKTOP)
    page = p.page
    page.goto(base + "/")
    page.wait_for_selector("#seat-3")
    presets = page.eval_on_selector_all("#preset option", "els => els.map(e => e.value)")
    assert {"australian", "three_handed", "five_handed", "six_handed", "two_handed"} <= set(presets)
    assert page.input_value("#seat-1") == "medium"  # the level Play now offers first
    page.fill("#my-name", "Ann")  # the maker sits in the first seat, under this name
    page.fill("#target", "100")
    page.fill("#delay", "0")
    page.fill("#name", "Ann against the computers")
    shot(page, "lobby")
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    link = page.input_value("#share-link")
    assert link.startswith(base + "/t/")
    page.click("#go")  # already seated: no seat to choose, no name to type
    page.wait_for_selector("#layout:not([hidden])")
    # A hint, then undo: the computer players' moves after the bid are taken back too.
    page.wait_for_function("document.body.dataset.myTurn === '1'")
    page.click("#hint")
    page.wait_for_selector("#toast:text-matches('^Hint: ')")
    calls = page.eval_on_selector_all("#auction td", "els => els.filter(e => e.textContent).length")
    act_once(page, lambda page: page.click("#bid-box-wrap .bid-box button:not([disabled])"))
    page.wait_for_function(
        "document.body.dataset.phase !== 'auction' || document.body.dataset.myTurn === '1'"
    )
    version = page.evaluate("document.body.dataset.version")
    page.click("#undo")
    page.wait_for_function(
        "v => document.body.dataset.version !== v && document.body.dataset.phase === 'auction'"
        " && document.body.dataset.myTurn === '1'",
        arg=version,
    )
    after = page.eval_on_selector_all("#auction td", "els => els.filter(e => e.textContent).length")
    assert after == calls, "undo takes the bid back"
    shots: set[str] = set()

    def each(page: Any) -> None:
        my_play = (
            page.evaluate("document.body.dataset.phase") == "play"
            and page.evaluate("document.body.dataset.myTurn") == "1"
        )
        if my_play and "drag" not in shots:
            # The first card is played by dragging it onto the table.
            version = page.evaluate("document.body.dataset.version")
            card = page.eval_on_selector("#hand .card.legal", "e => e.dataset.card")
            page.drag_and_drop(
                f"#hand .card[data-card='{card}']", "#felt", source_position={"x": 6, "y": 24}
            )
            page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
            assert card not in hand_cards(page)
            shots.add("drag")
        in_play = page.evaluate("document.body.dataset.phase") == "play" and "play" not in shots
        if in_play and page.eval_on_selector_all("#trick .card", "e => e.length") >= 1:
            shot(page, "play")
            shots.add("play")

    def bid_once(page: Any) -> None:  # a bid, so that the hand is played
        if "bid" in shots:
            pass_or_first(page)
        else:
            page.click("#bid-box-wrap .bid-box button:not([disabled])")
            shots.add("bid")

    play_against_computers(page, bid=bid_once, each=each)
    assert "drag" in shots
    page.wait_for_selector("#summary .summary-hands")
    shot(page, "end-of-hand")
    text = page.inner_text("#summary")
    assert "Points this hand" in text and "Review this hand" in text
    page.click("#review-link")
    page.wait_for_selector("#replay-board .seat-hand")
    p.check()


def test_phone_plays_a_hand_and_a_trick_by_keyboard(
    base: str, open_page: Callable[..., Page]
) -> None:
    created = post(
        base,
        "/api/tables",
        {
            "seats": ["open", "heuristic", "heuristic", "heuristic"],
            "options": {"delay": 0},
            "seed": 3,
        },
    )
    p = open_page(PHONE, is_mobile=True, has_touch=True)
    page = p.page
    join(page, base + created["url"], "Pip", 0)
    watcher = open_page(PHONE, is_mobile=True, has_touch=True)
    watcher.page.goto(base + created["url"] + "?watch=1")
    watcher.page.wait_for_function("document.body.dataset.version !== undefined")

    def open_misere(page: Any) -> None:
        if page.locator("[data-action='open_misere']:not([disabled])").count():
            page.click("#bid-box-wrap [data-action='open_misere']")
        else:
            pass_or_first(page)

    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 375, f"the page is {width}px wide on a 375px phone"
    done_keyboard = False
    shots: set[str] = set()
    deadline = time.monotonic() + 60
    while not summary_open(page):
        assert time.monotonic() < deadline, "the hand did not finish"
        phase = page.evaluate("document.body.dataset.phase")
        mine = page.evaluate("document.body.dataset.myTurn") == "1"
        if phase == "auction" and mine and "bid" not in shots:
            shot(page, "phone-bidding")
            shots.add("bid")
        if phase == "play" and mine and not done_keyboard:
            keyboard_trick(page)
            shot(page, "phone-play")
            done_keyboard = True
            continue
        if not act_once(page, open_misere):
            page.wait_for_timeout(60)
        if phase == "play" and "exposed" not in shots:
            # The open misère hand lies face up for everyone after the first trick.
            shown = watcher.page.eval_on_selector_all("#exposed .card", "els => els.length")
            if shown:
                assert 1 <= shown <= 9, "after the first trick, nine cards or fewer"
                shot(watcher.page, "phone-open-misere")
                shots.add("exposed")
    assert done_keyboard and "exposed" in shots
    assert "open misère" in page.inner_text("#summary h2")
    page.wait_for_selector("#summary h2")
    shot(page, "phone-end-of-hand")
    p.check()
    watcher.check()


def keyboard_trick(page: Any) -> None:
    """Tab into the hand, arrow to a legal card, Enter: one card played by keyboard alone."""
    version = page.evaluate("document.body.dataset.version")
    page.evaluate("document.activeElement && document.activeElement.blur()")
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.closest('#hand')"):
            break
    else:
        raise AssertionError("Tab never reaches the hand")
    for _ in range(12):
        if page.evaluate("document.activeElement.classList.contains('legal')"):
            break
        page.keyboard.press("ArrowRight")
    card = page.evaluate("document.activeElement.dataset.card")
    label = page.evaluate("document.activeElement.querySelector('.card-name').textContent")
    assert label and "may not be played" not in label
    page.keyboard.press("Enter")
    if page.locator("[aria-label='lead the joker as'] button").count():
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
    page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
    assert card not in hand_cards(page)


@pytest.fixture(scope="module")
def four_friends_hand(base: str) -> str:
    """A table of four people (Ann, Bob, Cat, Dan) who played one hand, 6 no trumps bid by
    the joker's holder, the others passing; played through the sockets, not the page, so
    that the history tests need no other test to have run. Its code."""
    created = post(
        base,
        "/api/tables",
        {"seats": ["open"] * 4, "name": "Four by sockets", "seed": first_seed_with_joker_dealt()},
    )
    code = created["table"]
    tokens = [
        post(base, f"/api/tables/{code}/seats/{seat}", {"name": name})["token"]
        for seat, name in enumerate(["Ann", "Bob", "Cat", "Dan"])
    ]

    async def play() -> None:
        websockets = pytest.importorskip("websockets")
        sockets = [await websockets.connect(ws_url(base, code, token)) for token in tokens]

        async def run(player: Player) -> None:
            acted = -1  # views come on every change: act once a version
            while True:
                message = await player.next(20)
                assert message["type"] != "error", message
                if message["type"] != "view":
                    continue
                view = message["view"]
                if view["table"]["hand_result"] is not None:
                    return
                legal = view["legal"]
                if legal and message["version"] > acted:
                    acted = message["version"]
                    if "pass" in legal:
                        action = "6NT" if "JK" in view["hand"] and "6NT" in legal else "pass"
                    else:
                        action = legal[0]
                    await player.ws.send(
                        json.dumps(
                            {"type": "action", "action": action, "version": message["version"]}
                        )
                    )

        try:
            await asyncio.gather(*(run(Player(ws, seat)) for seat, ws in enumerate(sockets)))
        finally:
            for ws in sockets:
                await ws.close()

    with ThreadPoolExecutor(1) as pool:  # its own event loop: Playwright's runs in this thread
        pool.submit(asyncio.run, play()).result()
    assert get(base, f"/api/tables/{code}/record")["hands"][0]["auction"].count("6NT") == 1
    return str(code)


def test_history_pages(base: str, open_page: Callable[..., Page], four_friends_hand: str) -> None:
    code = four_friends_hand
    for viewport, suffix in ((DESKTOP, ""), (PHONE, "-phone")):
        p = open_page(viewport)
        page = p.page
        page.goto(f"{base}/g/{code}#hand=1")
        page.wait_for_selector("#replay-board .seat-hand")
        assert "Step 0 of" in page.inner_text("#step-text")
        cards_at_deal = page.eval_on_selector_all("#replay-board .card", "e => e.length")
        assert cards_at_deal == 40  # every hand shown face up
        for _ in range(12):
            page.click("#forward")
        page.click("#back")
        assert "Step 11 of" in page.inner_text("#step-text")
        page.wait_for_selector("#dd-result", timeout=120000)
        assert "6NT" in page.inner_text("#dd-result")
        shot(page, f"replay{suffix}", full_page=not suffix)
        page.goto(f"{base}/p/Ann")
        page.wait_for_selector("#stats .stat")
        page.wait_for_selector("#chart svg")  # Ann's finished hand of the four's table
        assert page.eval_on_selector_all("#chart circle", "e => e.length") >= 1
        assert "being played" in page.inner_text("#games")
        shot(page, f"player{suffix}", full_page=not suffix)
        if suffix:
            page.goto(base + "/")
            page.wait_for_selector("#seat-3")
            shot(page, "phone-lobby")
        p.check()


def test_the_summary_names_the_further_100_of_a_failed_slam_call(
    base: str, open_page: Callable[..., Page]
) -> None:
    """Four people (by sockets) play a hand under the slam call: the first caller bids 7♥
    and calls slam, every card is the first legal one, and the slam fails. A watcher who
    opens the table sees the hand's summary name each part of the points, the further 100
    among them (the server's words, in the frame it was sent), and the game page's score
    sheet says the same."""
    rules = {"preset": "australian", "variants": {"slam_call": True, "claim": True}}
    created = post(base, "/api/tables", {"seats": ["open"] * 4, "rules": rules, "seed": 0})
    code = created["table"]
    tokens = [
        post(base, f"/api/tables/{code}/seats/{seat}", {"name": name})["token"]
        for seat, name in enumerate(["Ann", "Bob", "Cat", "Dan"])
    ]

    async def play() -> None:
        websockets = pytest.importorskip("websockets")
        sockets = [await websockets.connect(ws_url(base, code, token)) for token in tokens]

        async def run(player: Player) -> None:
            acted = -1  # views come on every change: act once a version
            while True:
                message = await player.next(20)
                assert message["type"] != "error", message
                if message["type"] != "view":
                    continue
                view = message["view"]
                if view["table"]["hand_result"] is not None:
                    return
                legal = view["legal"]
                if legal and message["version"] > acted:
                    acted = message["version"]
                    if "pass" in legal:
                        action = "pass" if view["auction"] else "7H"
                    elif "slam" in legal:
                        action = "slam"
                    else:
                        action = next(a for a in legal if a != "claim")
                    await player.ws.send(
                        json.dumps(
                            {"type": "action", "action": action, "version": message["version"]}
                        )
                    )

        try:
            await asyncio.gather(*(run(Player(ws, seat)) for seat, ws in enumerate(sockets)))
        finally:
            for ws in sockets:
                await ws.close()

    with ThreadPoolExecutor(1) as pool:  # its own event loop: Playwright's runs in this thread
        pool.submit(asyncio.run, play()).result()
    further = "the failed slam call, a further -100"
    p = open_page(PHONE)
    page = p.page
    page.goto(f"{base}/t/{code}?watch=1")
    page.wait_for_selector("#summary[open] #summary-parts")
    parts = page.inner_text("#summary-parts")
    assert "7♥ failed -200, " + further in parts
    assert "tricks at 10 +" in parts
    sent = [f["view"]["table"]["hand_result"] for f in p.frames if f.get("type") == "view"]
    assert any(r and any(text.endswith(further) for text in r["points_parts"]) for r in sent)
    shot(page, "summary-slam-call-phone")
    page.goto(f"{base}/g/{code}")
    page.wait_for_selector("#hand-row-1 small.parts")
    assert further in page.inner_text("#hand-row-1")
    shot(page, "sheet-parts-phone")
    p.check()


def test_rules_catalogue_lists_every_preset_and_variant(base: str) -> None:
    from fivehundred.rules import PRESETS, VARIANTS

    catalogue = get(base, "/api/rules")
    assert [p["name"] for p in catalogue["presets"]] == list(PRESETS)
    assert {v["name"] for v in catalogue["variants"]} == set(VARIANTS)
    kinds = {v["name"]: v["kind"] for v in catalogue["variants"]}
    assert kinds["target"] == "number" and kinds["scoring_table"] == "choice"
    assert kinds["two_jokers"] == "switch" and kinds["dead_hand"] == "switch"
    assert "heuristic" in catalogue["players"]
    # a person picks a level first: from the beginner to the strongest, each name once
    assert catalogue["players"][:4] == ["easy", "medium", "hard", "expert"]
    assert len(set(catalogue["players"])) == len(catalogue["players"])
    assert "pimc:postpone" not in catalogue["players"]
    assert "pimc:default" not in catalogue["players"]


def test_rules_catalogue_says_why_a_switch_is_refused(base: str) -> None:
    """Per preset, the reason ``make_rules`` gives for each switch it refuses, and the pairs
    of switches accepted alone but refused together, with the reason."""
    catalogue = get(base, "/api/rules")
    switches = [v["name"] for v in catalogue["variants"] if v["kind"] == "switch"]
    titles = {v["name"]: v["label"] for v in catalogue["variants"]}
    for preset in catalogue["presets"]:
        for name in switches:
            assert (name in preset["variants"]) != (name in preset["refused"]), name
        # (the reasons as make_rules gives them, other variants named by their titles)
        for name, reason in preset["refused"].items():
            with pytest.raises(RulesError) as refused:
                make_rules(preset["name"], {name: True})
            assert refused.value.variant == name
            assert variant_words(refused.value.why, titles) == reason
        for first, second, reason in preset["conflicts"]:
            make_rules(preset["name"], {first: True})
            make_rules(preset["name"], {second: True})
            with pytest.raises(RulesError) as refused:
                make_rules(preset["name"], {first: True, second: True})
            assert variant_words(refused.value.why, titles) == reason
            assert "_" not in reason, reason  # no variant's name as the code spells it
    by_name = {p["name"]: p for p in catalogue["presets"]}
    assert by_name["australian"]["refused"]["teams_of_two"] == "needs six players"
    assert ["no_misere", "misere_anytime", "contradicts misère any time"] in by_name["australian"][
        "conflicts"
    ]
    assert "dead_hand" not in by_name["two_handed"]["refused"]
    # The switches a preset has on (rules fields): the lobby ticks them, unticking sends false.
    for preset in catalogue["presets"]:
        rules = make_rules(preset["name"])
        accepted = [s for s in switches if s in preset["variants"]]
        assert preset["on"] == [s for s in accepted if getattr(rules, s, None) is True]
        for name in preset["on"]:
            assert getattr(make_rules(preset["name"], {name: False}), name) is False
    assert {"rule_490", "open_misere"} <= set(by_name["australian"]["on"])


@pytest.mark.parametrize("preset", ["two_handed", "three_handed", "five_handed", "six_handed"])
def test_every_player_count_plays_a_hand(
    base: str, open_page: Callable[..., Page], preset: str
) -> None:
    """Two (with dummies), three, five (the partner call) and six players: the seats around
    the table, and a whole hand played by clicking against computer players."""
    players = make_rules(preset).players
    seats = ["open"] + ["heuristic"] * (players - 1)
    # Five players: Ann's 7♠ makes her call a partner; two: a contract, so that her dummy plays.
    bid = {"five_handed": "7S", "two_handed": "7NT"}.get(preset)
    created = post(
        base,
        "/api/tables",
        {"rules": {"preset": preset}, "seats": seats, "options": {"delay": 0}, "seed": 11},
    )
    p = open_page(DESKTOP)
    page = p.page
    join(page, base + created["url"], "Ann", 0)
    assert page.eval_on_selector_all("#seats .seat", "e => e.length") == make_rules(preset).seats
    # Ann's seats are drawn as hers: with two players, her dummy opposite too (the server
    # says whose each seat is), the computer's dummy not.
    mine = sorted(page.eval_on_selector_all("#seats .seat.mine", "e => e.map(s => s.dataset.seat)"))
    assert mine == (["0", "2"] if preset == "two_handed" else ["0"]), mine

    # The misère calls show only where the preset allows them (greyed until legal).
    misere_calls = 0 if preset in ("two_handed", "five_handed") else 1

    def policy(page: Any) -> None:
        assert page.locator("#bid-box-wrap [data-action='misere']").count() == misere_calls
        if not (bid and bid_if_legal(page, bid)):
            pass_or_first(page)

    dummy_turns = []

    def each(page: Any) -> None:
        """Two players: while the dummy is to play, its cards are in the hand row (the
        legal ones raised) and the player's own hand shows beside them."""
        if preset != "two_handed" or not in_play_turn(page):
            return
        if "dummy" not in page.inner_text("#hand-label"):
            return
        own = page.eval_on_selector_all("#own-hand .card", "e => e.length")
        raised = page.eval_on_selector_all("#hand.active .card.legal", "e => e.length")
        assert raised >= 1 and page.is_visible("#own-hand"), (own, raised)
        if not dummy_turns:
            shot(page, "two-handed-dummy")
        dummy_turns.append(own)

    play_against_computers(page, bid=policy, each=each)
    if preset == "two_handed":
        assert dummy_turns and max(dummy_turns) >= 1, "the own hand beside the dummy's"
    if preset == "five_handed":
        record = get(base, f"/api/tables/{created['table']}/record")
        hand = replay_game(record).finished_hands[0]
        assert hand.contractor == 0, "this deal's 7♠ is Ann's contract"
        assert "call" in record["hands"][0], "Ann called her partner (the page's call grid)"
    p.check()


@pytest.mark.parametrize("variant", ["draw_pack", "open_eight"])
def test_two_players_play_the_house_games_by_clicking(
    base: str, open_page: Callable[..., Page], variant: str
) -> None:
    """The house rules' own decisions (keep or throw a drawn card; the face-up cards to
    the kitty and into the hand) get buttons: a person plays a whole hand by clicking."""
    rules = {"preset": "two_handed", "variants": {variant: True}}
    created = post(
        base,
        "/api/tables",
        {"rules": rules, "seats": ["open", "heuristic"], "options": {"delay": 0}, "seed": 3},
    )
    p = open_page(DESKTOP)
    page = p.page
    join(page, base + created["url"], "Ann", 0)
    # The stock and the face-up cards are nobody's: out of play, not Ann's.
    for seat in (2, 3):
        assert "out of play" in page.inner_text(f"#seats .seat[data-seat='{seat}']")
    assert page.eval_on_selector_all("#seats .seat.mine", "e => e.length") == 1
    phases = set()

    def each(page: Any) -> None:
        if page.evaluate("document.body.dataset.myTurn") == "1":
            phase = page.evaluate("document.body.dataset.phase")
            if phase in ("draw", "table_kitty") and phase not in phases:
                shot(page, f"two-handed-{variant.replace('_', '-')}")
            phases.add(phase)

    play_against_computers(page, each=each)
    house = {"draw_pack": {"draw"}, "open_eight": {"table_kitty"}}[variant]
    assert house <= phases, phases
    p.check()


def test_lobby_greys_out_the_variants_a_preset_refuses(
    base: str, open_page: Callable[..., Page]
) -> None:
    """A switch the chosen preset does not accept is shown disabled, with the reason."""
    p = open_page(DESKTOP)
    page = p.page
    page.goto(base + "/")
    page.wait_for_selector("#variants [data-for='hi_lo']", state="attached")
    page.click("details summary")
    hi_lo = "#variants [data-for='hi_lo']"
    assert page.is_enabled(f"{hi_lo} input") and page.inner_text(f"{hi_lo} .why") == ""
    page.select_option("#preset", "two_handed")
    assert page.is_disabled(f"{hi_lo} input")
    assert "does not apply" in page.inner_text(f"{hi_lo} .why") or "four" in page.inner_text(
        f"{hi_lo} .why"
    )
    shot(page, "lobby-two-handed", full_page=True)
    page.select_option("#preset", "australian")
    assert page.is_enabled(f"{hi_lo} input")
    p.check()


def test_lobby_greys_out_a_variant_that_contradicts_one_ticked(
    base: str, open_page: Callable[..., Page]
) -> None:
    """Where the catalogue names the pairs that contradict each other ("conflicts") and
    why the others are refused ("refused"), the lobby says so beside each switch."""
    p = open_page(DESKTOP)
    page = p.page
    page.goto(base + "/")
    page.wait_for_selector("#variants [data-for='no_misere']", state="attached")
    page.click("details summary")
    no_misere = "#variants [data-for='no_misere']"
    assert page.is_enabled(f"{no_misere} input")
    page.check("#variants [data-for='misere_anytime'] input")
    assert page.is_disabled(f"{no_misere} input")
    assert "contradicts misère any time" in page.inner_text(f"{no_misere} .why")
    shot(page, "lobby-conflict", full_page=True)
    page.uncheck("#variants [data-for='misere_anytime'] input")
    assert page.is_enabled(f"{no_misere} input")
    page.select_option("#preset", "two_handed")
    assert "needs four players" in page.inner_text("#variants [data-for='hi_lo'] .why")
    # A preset's own switch is shown ticked and may be turned off: the table gets it off.
    page.select_option("#preset", "australian")
    rule_490 = "#variants [data-for='rule_490'] input"
    assert page.is_checked(rule_490) and page.is_enabled(rule_490)
    assert not page.is_checked("#variants [data-for='hi_lo'] input")
    page.uncheck(rule_490)
    page.fill("#delay", "0")
    page.click("#create-button")
    page.wait_for_selector("#created:not([hidden])")
    code = page.input_value("#share-link").rsplit("/", 1)[1]
    facts = get(base, f"/api/tables/{code}")
    assert facts["rules"] == {"preset": "australian", "variants": {"rule_490": False}}
    p.check()


def test_the_page_reconnects_by_itself_and_says_so(
    base: str, open_page: Callable[..., Page]
) -> None:
    """The connection drops (closed under the page): a banner says so, the page reconnects
    on its own and shows the table again. The turn timer counts down on the seat to act."""
    created = post(
        base,
        "/api/tables",
        {
            "seats": ["open", "heuristic", "heuristic", "heuristic"],
            "options": {"delay": 0, "turn_timer": 120},
            "seed": 5,
        },
    )
    p = open_page(DESKTOP)
    page = p.page
    routes: list[Any] = []

    def route(ws: Any) -> None:
        ws.connect_to_server()
        routes.append(ws)

    page.route_web_socket(re.compile(r"/ws/tables/"), route)
    join(page, base + created["url"], "Ann", 0)
    page.wait_for_function("document.body.dataset.myTurn === '1'")
    assert re.fullmatch(r"⏱ \d+s", page.inner_text(".seat.to-move .timer"))
    version = page.evaluate("document.body.dataset.version")
    page.evaluate("""() => { window.banners = [];
        new MutationObserver(() => { const b = document.getElementById('banner');
            window.banners.push(b.hidden ? '' : b.textContent); })
          .observe(document.getElementById('banner'), {attributes: true, childList: true}); }""")
    routes[-1].close(code=1011, reason="dropped")
    page.wait_for_function("window.banners.some(t => t.includes('reconnecting'))")
    page.wait_for_function("document.getElementById('banner').hidden", timeout=15000)
    assert len(routes) == 2, "a new connection"
    assert page.evaluate("document.body.dataset.version") == version
    assert page.evaluate("document.body.dataset.myTurn") == "1"
    act_once(page, pass_or_first)  # and the new connection plays
    p.check()


def test_card_drawings_hand_order_and_reasons(base: str, open_page: Callable[..., Page]) -> None:
    """The page's own card modules, run in the browser: every rank of the six-handed pack
    drawn with its pips, a card named in the server's words (the view's "card_words", the
    bower named: the hand's order and the words are tested in test_web_view_texts), and a
    refused card explained with the server's reason (the view's "refusals"; the page works
    out no rule of play itself)."""
    p = open_page(DESKTOP)
    page = p.page
    page.goto(base + "/")
    result = page.evaluate(
        """async () => {
        const cards = await import('/static/js/cards.js');
        const rules = await import('/static/js/rules.js');
        const box = document.createElement('div');
        const pips = {};
        for (const rank of ['2','3','4','5','6','7','8','9','10','11','12','13','A']) {
            box.innerHTML = cards.cardSVG(rank + 'D');
            pips[rank] = box.querySelectorAll('path.pip').length - 2;  // less the corners
        }
        box.innerHTML = cards.cardSVG('JK');
        const joker = box.querySelectorAll('.jk-star').length;
        const view = {phase: 'play', seat: 0, to_move: 0, contract: '7H', joker_suit: null,
                      hand: ['JD', 'AS', 'JK', '4S'], trick: [[3, 'KS']], legal: ['AS', '4S'],
                      refusals: {JD: 'J♦ is the left bower, a trump: you must follow ♠'},
                      card_words: {JD: 'jack of diamonds, left bower'},
                      table: {last_trick: {words: {JH: 'jack of hearts, right bower'}}}};
        return {pips, joker, bower: rules.refusalReason(view, 'JD'),
                words: rules.cardWords('JD', view), right: rules.cardWords('JH', view),
                ok: rules.refusalReason(view, 'AS'), unsaid: cards.cardName('13D'),
                name: (cards.setWords(words), cards.cardName('13D'))};
    }""".replace("async () =>", "async (words) =>"),
        card_words_of(make_rules("six_handed")),
    )
    assert result["pips"] == {r: (1 if r == "A" else int(r)) for r in result["pips"]}
    assert result["joker"] == 1
    assert result["bower"] == "J♦ is the left bower, a trump: you must follow ♠"
    assert result["words"] == "jack of diamonds, left bower"
    assert result["right"] == "jack of hearts, right bower"
    # a card in words is the server's (words.pack_words); before they come, its notation
    assert result["ok"] is None and result["unsaid"] == "13D"
    assert result["name"] == "13 of diamonds"
    p.check()


def test_two_jokers_each_keep_their_own_nominated_suit(
    base: str, open_page: Callable[..., Page]
) -> None:
    """The page's card module with two jokers (R-HOUSE french_canadian): the white joker
    JKW is the higher (black) joker. (Each joker's own nominated suit is the server's:
    test_web_view_texts.)"""
    p = open_page(DESKTOP)
    page = p.page
    page.goto(base + "/")
    result = page.evaluate(
        """async (words) => {
        const cards = await import('/static/js/cards.js');
        cards.setWords(words);
        return {name: cards.cardName('JKW'), black: cards.parseCard('JKW').black};
    }""",
        card_words_of(make_rules("french_canadian")),
    )
    assert result["name"] == "white joker" and result["black"] is True
    p.check()
