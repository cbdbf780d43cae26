"""The browser pad in headless Chromium (Debian's ``chromium``, driven by Playwright) at
phone size: a whole game entered by tapping, a correction, undo and redo, reload, offline
after the first load (service worker, the engine run in the page), export and import,
and the live view."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
sync_api = pytest.importorskip("playwright.sync_api")

from fivehundred.pad import model  # noqa: E402
from fivehundred.pad.local import CHROMIUM, CHROMIUM_ARGS, make_app  # noqa: E402
from fivehundred.pad.local import local_server as pad_server  # noqa: E402
from fivehundred.pad.web import offline_files  # noqa: E402
from fivehundred.rules import make_rules  # noqa: E402
from test_pad_model import CASES, NAMES, entry_from_hand, play_game  # noqa: E402

if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM}", allow_module_level=True)

PHONE = {"width": 360, "height": 740}


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    with pad_server() as url:
        yield url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport=PHONE, has_touch=True, accept_downloads=True)
    yield context
    context.close()


def start_game(page: Any, base: str, names: list[str], preset: str = "australian") -> None:
    page.goto(base + "/pad")
    page.wait_for_selector("#start")
    if preset != "australian":
        page.select_option("#preset", preset)
    for seat, name in enumerate(names):
        page.fill(f'input[data-name="{seat}"]', name)
    page.click("#start")
    page.wait_for_selector("#dealer")


def tap_hand(page: Any, entry: dict[str, Any]) -> None:
    """Enter one hand with taps, as a player would, and wait for the engine's preview."""
    page.click(f'[data-kind="{entry["kind"]}"]')
    if entry["kind"] == "hand":
        page.click(f'[data-contract="{entry["contract"]}"]')
        page.click(f'[data-contractor="{entry["contractor"]}"]')
        page.click(
            f'#tricks [data-tricks="{min(entry["tricks"], 1) if "misere" in entry["contract"] else entry["tricks"]}"]'
        )
        for index, tricks in enumerate(entry.get("defenders", [])):
            page.click(f'[data-defender-{index}="{tricks}"]')
        page.click(f'#revoke [data-revoke="{entry.get("revoke", "")}"]')
    page.wait_for_selector("#preview")


def shown_totals(page: Any) -> list[int]:
    totals = page.eval_on_selector_all("[data-total]", "els => els.map(e => e.textContent)")
    return [int(t) for t in totals]


def stored_pad(page: Any) -> dict[str, Any]:
    pad: dict[str, Any] = page.evaluate(
        "JSON.parse(localStorage.getItem('fivehundred-pad/state')).pad"
    )
    return pad


def add(page: Any, entry: dict[str, Any]) -> None:
    before = len(stored_pad(page)["hands"])
    tap_hand(page, entry)
    page.click("#add")
    page.wait_for_function(
        f"JSON.parse(localStorage.getItem('fivehundred-pad/state')).pad.hands.length === {before + 1}"
    )


def fits(page: Any, width: int) -> bool:
    return bool(page.evaluate(f"document.documentElement.scrollWidth <= {width}"))


GAME = [
    {"kind": "hand", "contract": "8H", "contractor": 1, "tricks": 8},
    {"kind": "hand", "contract": "misere", "contractor": 0, "tricks": 0},
    {"kind": "hand", "contract": "7S", "contractor": 2, "tricks": 4, "revoke": "defender"},
    {"kind": "misdeal"},
    {"kind": "hand", "contract": "6NT", "contractor": 3, "tricks": 3},
]


def test_whole_game_by_tapping(phone: Any, base: str) -> None:
    page = phone.new_page()
    page.set_viewport_size({"width": 320, "height": 700})
    start_game(page, base, ["Ann", "Bob", "Cat", "Dan"])
    assert fits(page, 320)
    page.set_viewport_size(PHONE)
    for count, entry in enumerate(GAME, 1):
        add(page, entry)
        pad = stored_pad(page)
        assert pad["hands"] == GAME[:count]
        assert shown_totals(page) == model.score_pad(pad).totals
    assert shown_totals(page) == [480, 180]
    assert "Dealer: Ann" in page.inner_text("#dealer")  # the misdeal kept Dan dealing
    assert "Ann & Cat 7 tricks: +70" in page.inner_text("#history")

    # a correction of the first hand recomputes every total after it
    page.click('[data-edit="0"]')
    page.click('#tricks [data-tricks="9"]')
    page.wait_for_selector("#preview")
    page.click("#add")
    page.wait_for_function("document.querySelector('[data-total=\"0\"]').textContent === '470'")
    corrected = stored_pad(page)
    assert corrected["hands"][0]["tricks"] == 9
    assert shown_totals(page) == model.score_pad(corrected).totals == [470, 180]
    page.click("#undo")
    page.wait_for_function("document.querySelector('[data-total=\"0\"]').textContent === '480'")
    page.click("#redo")
    page.wait_for_function("document.querySelector('[data-total=\"0\"]').textContent === '470'")

    page.click('[data-tab="table"]')
    assert "Bob & Dan: 8NT (320) or a higher bid" in page.inner_text("#needed")
    assert "Ann & Cat: 6♠ (40)" in page.inner_text("#needed")
    assert page.inner_text("#bid-table").split()[:6] == ["♠", "♣", "♦", "♥", "NT", "6"]
    page.click('[data-tab="pad"]')

    add(page, {"kind": "hand", "contract": "9H", "contractor": 0, "tricks": 9})
    final = stored_pad(page)
    assert page.inner_text("#winner") == model.score_pad(final).won_by
    assert page.inner_text("#winner") == "Ann & Cat win: made their contract to reach 870 (R-GAME)"
    assert fits(page, PHONE["width"])

    # reload keeps it
    page.reload()
    page.wait_for_selector("#winner")
    assert shown_totals(page) == [870, 190]
    assert stored_pad(page) == final


class BytesSent:
    """ASGI middleware: the bytes the server sends for each path (headers and body, as
    sent: gzipped where it gzips), i.e. what crosses the wire."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.sent: dict[str, int] = {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope["path"]

        async def counting(message: Any) -> None:
            if message["type"] == "http.response.start":
                size = len(b"HTTP/1.1 200 OK\r\n\r\n")
                size += sum(len(k) + len(v) + 4 for k, v in message.get("headers", []))
            else:
                size = len(message.get("body", b""))
            self.sent[path] = self.sent.get(path, 0) + size
            await send(message)

        await self.app(scope, receive, counting)


def wait_until_kept(page: Any) -> None:
    """Wait until the service worker controls the page and keeps every offline file."""
    kept = page.evaluate(
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
    assert kept, "the service worker did not keep the offline files"


def test_first_load_is_under_a_megabyte_and_then_works_offline(browser: Any) -> None:
    """The first visit (the page, and everything the service worker keeps for offline
    use: Brython, the standard-library modules the engine imports, the engine) crosses
    the wire in under 1 MB; then the pad scores a hand with the server gone."""
    counter = BytesSent(make_app())
    context = browser.new_context(viewport=PHONE, has_touch=True)
    try:
        page = context.new_page()
        with pad_server(app=counter) as own:
            page.goto(own + "/pad")
            page.wait_for_selector("#start")
            wait_until_kept(page)
            sent = dict(counter.sent)
        assert set(offline_files()) <= set(sent) | {"/pad"}
        assert "/pad/brython/brython_stdlib.js" not in sent
        assert sum(sent.values()) < 1_000_000, sent
        page.set_default_timeout(120_000)
        page.reload()
        start = page.wait_for_selector("#start")
        assert start is not None
        for seat, name in enumerate(["Ann", "Bob", "Cat", "Dan"]):
            page.fill(f'input[data-name="{seat}"]', name)
        page.click("#start")
        page.wait_for_selector("#dealer")
        add(page, GAME[0])
        assert "offline" in page.inner_text("#status")
        assert shown_totals(page) == model.score_pad(stored_pad(page)).totals == [20, 300]
    finally:
        context.close()


def test_offline_after_the_first_load(phone: Any) -> None:
    page = phone.new_page()
    with pad_server() as own:  # a server of its own, stopped after the first load
        start_game(page, own, ["Ann", "Bob", "Cat"], "three_handed")
        add(
            page,
            {"kind": "hand", "contract": "7H", "contractor": 0, "tricks": 7, "defenders": [2, 1]},
        )
        wait_until_kept(page)
    # the server is gone: the service worker serves the page, the page scores the hands
    # (starting Brython takes seconds on a busy machine)
    page.set_default_timeout(120_000)
    page.reload()
    page.wait_for_selector("#dealer")
    assert shown_totals(page) == [200, 20, 10]
    entry = {"kind": "hand", "contract": "6C", "contractor": 1, "tricks": 5, "defenders": [3, 2]}
    add(page, entry)
    assert "offline" in page.inner_text("#status")
    pad = stored_pad(page)
    assert shown_totals(page) == model.score_pad(pad).totals == [230, -40, 30]

    # the engine in the page answers exactly as the server's for random games
    for case_index, seed in [(3, 1), (20, 2), (40, 3), (len(CASES) - 1, 4), (55, 5), (70, 6)]:
        preset, variants = CASES[case_index % len(CASES)]
        rules = make_rules(preset, variants)
        hands = play_game(rules, seed, max_hands=12)
        trial = model.new_pad(NAMES[: rules.players], preset, variants)
        trial["hands"] = [entry_from_hand(rules, hand) for hand in hands]
        trial["hands"][0] = {**trial["hands"][0], "note": "x"}
        answer = page.evaluate(
            "([n, t]) => window.padPy(n, t)", ["score", json.dumps({"pad": trial})]
        )
        assert json.loads(answer) == model.handle("score", {"pad": trial}), (preset, variants)
    answer = page.evaluate("([n, t]) => window.padPy(n, t)", ["score", '{"pad": {"players": 1}}'])
    assert json.loads(answer) == {
        "error": "australian needs the names of 4 players",
        "path": "players",
    }


def test_export_and_import_round_trip(phone: Any, base: str, tmp_path: Path) -> None:
    page = phone.new_page()
    start_game(page, base, ["Ann", "Bob", "Cat", "Dan"])
    for entry in GAME[:3]:
        add(page, entry)
    pad = stored_pad(page)
    page.click('[data-tab="more"]')
    with page.expect_download() as download:
        page.click("#export-json")
    exported = tmp_path / "pad.json"
    download.value.save_as(exported)
    assert json.loads(exported.read_text()) == pad
    with page.expect_download() as download:
        page.click("#export-csv")
    csv_path = tmp_path / "pad.csv"
    download.value.save_as(csv_path)
    assert csv_path.read_bytes().decode() == model.pad_csv(pad)

    page.click("#new-game")
    page.click("#start")
    page.wait_for_selector("#dealer")
    assert stored_pad(page)["hands"] == []
    page.click('[data-tab="games"]')
    assert "3 hands" in page.inner_text("main")  # the earlier game is in the device's history
    page.click('[data-tab="more"]')
    page.set_input_files("#import-file", str(exported))
    page.wait_for_selector("#dealer")
    assert stored_pad(page) == pad
    assert shown_totals(page) == model.score_pad(pad).totals
    page.click('[data-tab="more"]')
    page.set_input_files(
        "#import-file",
        {"name": "x.json", "mimeType": "application/json", "buffer": b'{"players": ["A"]}'},
    )
    page.wait_for_function(
        "document.querySelector('#toast').textContent.startsWith('cannot import: australian needs the names of 4 players')"
    )
    assert stored_pad(page) == pad


def test_live_view(browser: Any, phone: Any, base: str) -> None:
    page = phone.new_page()
    start_game(page, base, ["Ann", "Bob", "Cat", "Dan"])
    add(page, GAME[0])
    page.click('[data-tab="more"]')
    page.click("#share")
    page.wait_for_selector("#live-url")
    url = page.inner_text("#live-url")
    assert url.startswith(base + "/pad?live=")
    other = browser.new_context(viewport=PHONE)
    try:
        viewer = other.new_page()
        viewer.goto(url)
        viewer.wait_for_selector("[data-total]")
        assert shown_totals(viewer) == [20, 300]
        assert viewer.query_selector("#add") is None  # read only
        page.click('[data-tab="pad"]')
        add(page, GAME[1])
        viewer.wait_for_function(
            "document.querySelector('[data-total=\"0\"]').textContent === '270'"
        )
    finally:
        other.close()


def test_contrast_theme(phone: Any, base: str) -> None:
    page = phone.new_page()
    start_game(page, base, ["Ann", "Bob", "Cat", "Dan"])
    page.click('[data-tab="more"]')
    page.click("#contrast")
    page.reload()
    page.wait_for_selector("#dealer")
    colours = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert colours == "rgb(255, 255, 255)"


def test_add_hand_brings_the_new_totals_into_view(phone: Any, base: str) -> None:
    """On a phone the form pushes *Add hand* below the totals: after it, the totals (with
    the new hand counted) are on the screen again."""
    page = phone.new_page()
    start_game(page, base, ["Ann", "Bob", "Cat", "Dan"])
    entry = {"kind": "hand", "contract": "8H", "contractor": 1, "tricks": 8}
    tap_hand(page, entry)
    page.click("#add")  # scrolls the button into view, the totals out of it
    page.wait_for_function(
        "JSON.parse(localStorage.getItem('fivehundred-pad/state')).pad.hands.length === 1"
    )
    page.wait_for_function("document.querySelector('[data-total=\"1\"]').textContent === '300'")
    top = page.evaluate("document.getElementById('totals').getBoundingClientRect().top")
    assert 0 <= top < PHONE["height"]
