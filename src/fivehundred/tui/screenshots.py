"""Write the README's screenshots (SVG) of the terminal game:
``python -m fivehundred.tui.screenshots docs/screenshots``."""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
from pathlib import Path

from fivehundred.actions import PASS
from fivehundred.game import AUCTION, PLAY
from fivehundred.tui import storage
from fivehundred.tui.app import FiveHundredApp
from fivehundred.tui.session import Session, Settings

SIZE = (110, 34)


def _advance(session: Session, stop: str, tricks: int = 0) -> None:
    """Play on (South passing, then the first legal card) to South's turn in ``stop``."""
    for _ in range(600):
        if session.pending_summary is not None:
            session.dismiss_summary()
        elif session.human_to_move:
            hand = session.hand
            if (
                hand.phase == stop
                and len(hand.tricks) >= tricks
                and (stop != PLAY or hand.trick_cards)
            ):
                return
            legal = session.legal_actions()
            session.play(PASS if PASS in legal else legal[0])
        else:
            session.step_computer()


async def _shoot(session: Session, path: Path, keys: tuple[str, ...] = ()) -> None:
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(50):
            await pilot.pause()
        if keys:
            await pilot.press(*keys)
            await pilot.pause()
        app.save_screenshot(path.name, str(path.parent))


async def _options(path: Path) -> None:
    app = FiveHundredApp(None, Settings(seed=42, speed=0.6), options_at_start=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        app.save_screenshot(path.name, str(path.parent))


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "docs/screenshots")
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        os.environ[storage.ENV_DATA_DIR] = scratch
        session = Session.new(Settings(seed=2, speed=0))
        _advance(session, AUCTION)
        asyncio.run(_shoot(session, out / "bidding.svg"))
        _advance(session, PLAY, tricks=3)
        asyncio.run(_shoot(session, out / "play.svg"))
        asyncio.run(_shoot(session, out / "hint.svg", ("h",)))
        asyncio.run(_options(out / "options.svg"))
        six = Session.new(Settings(preset="six_handed", seed=3, speed=0))
        _advance(six, PLAY, tricks=2)
        asyncio.run(_shoot(six, out / "six_handed.svg"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
