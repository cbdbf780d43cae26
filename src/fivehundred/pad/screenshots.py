"""Write the score pad's screenshots (PNG) for the docs:
``python -m fivehundred.pad.screenshots docs/screenshots``. Needs the web extra,
Playwright and Debian's Chromium."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

from fivehundred.pad import model
from fivehundred.pad.commands import PadSession
from fivehundred.pad.local import CHROMIUM, CHROMIUM_ARGS, local_server

HANDS: list[dict[str, Any]] = [
    {"kind": "hand", "contract": "8H", "contractor": 1, "tricks": 8},
    {"kind": "hand", "contract": "misere", "contractor": 0, "tricks": 0},
    {"kind": "hand", "contract": "7S", "contractor": 2, "tricks": 4, "revoke": "defender"},
    {"kind": "misdeal"},
    {"kind": "hand", "contract": "6NT", "contractor": 3, "tricks": 3},
]


def _pad() -> dict[str, Any]:
    pad = model.new_pad(["Ann", "Bob", "Cat", "Dan"])
    pad["title"] = "screenshots"
    pad["hands"] = list(HANDS)
    return pad


def web_shots(out: Path) -> None:
    import json

    from playwright.sync_api import sync_playwright

    with local_server() as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 360, "height": 760}, device_scale_factor=2)
        page = context.new_page()
        page.goto(base + "/pad")
        page.wait_for_selector("#start")
        for seat, name in enumerate(["Ann", "Bob", "Cat", "Dan"]):
            page.fill(f'input[data-name="{seat}"]', name)
        page.screenshot(path=str(out / "pad-setup.png"))
        state = json.dumps({"pad": _pad(), "undo": [], "redo": [], "share": None})
        page.evaluate("(s) => localStorage.setItem('fivehundred-pad/state', s)", state)
        page.reload()
        page.wait_for_selector("#dealer")
        page.click('[data-contract="9H"]')
        page.click('[data-contractor="0"]')
        page.click('#tricks [data-tricks="9"]')
        page.wait_for_selector("#preview")
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(out / "pad-hand.png"), full_page=True)
        page.click('[data-edit="4"]')
        page.wait_for_selector("#preview")
        page.evaluate("document.querySelector('#history').scrollIntoView()")
        page.click("#cancel-edit")
        page.evaluate("document.querySelector('#history').scrollIntoView()")
        page.screenshot(path=str(out / "pad-history.png"))
        page.click('[data-tab="table"]')
        page.screenshot(path=str(out / "pad-table.png"))
        page.click('[data-tab="more"]')
        page.click("#contrast")
        page.click('[data-tab="pad"]')
        page.screenshot(path=str(out / "pad-contrast.png"))
        browser.close()


async def _terminal_svg() -> str:
    from fivehundred.pad.tui import PadApp

    pad = model.Pad(_pad())
    app = PadApp(PadSession(pad, None))
    async with app.run_test(size=(110, 30)) as pilot:
        await pilot.press(*"9h ann 9")
        await pilot.pause()
        return app.export_screenshot(title="fivehundred pad")


def terminal_shot(out: Path) -> None:
    from playwright.sync_api import sync_playwright

    svg = asyncio.run(_terminal_svg())
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as playwright:
        source = Path(folder) / "pad.svg"
        source.write_text(svg, encoding="utf-8")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        page.goto(source.as_uri())
        page.locator("svg").screenshot(path=str(out / "pad-terminal.png"))
        browser.close()


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "docs/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    web_shots(out)
    terminal_shot(out)
    print(f"screenshots written to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
