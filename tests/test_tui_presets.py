"""Every preset (two to six players) played through a whole hand in both modes of the
terminal game, with the layout checked at 80×24 and at a large size: the table, the
score line, the person's seat and every card of the hand stay on the screen."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path
from typing import ClassVar

import pytest
from textual.geometry import Region
from textual.widget import Widget

from fivehundred.actions import BID_BASE, JOKER_LEAD_BASE, MISERE, PASS, action_text
from fivehundred.errors import RulesError
from fivehundred.game import AUCTION, DISCARD, PLAY
from fivehundred.rules import PRESETS, SWITCH, VARIANT_REGISTRY, make_rules
from fivehundred.tui import render, storage
from fivehundred.tui.app import FiveHundredApp, TextScreen
from fivehundred.tui.plain import PlainGame
from fivehundred.tui.session import Session, Settings
from fivehundred.tui.widgets import CardWidget, HandRow

SMALL = (80, 24)
LARGE = (160, 50)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(storage.ENV_DATA_DIR, str(tmp_path))
    return tmp_path


def widget_text(widget: Widget) -> str:
    """What the widget shows on the screen (cropped to its size, as drawn)."""
    strips = widget.render_lines(Region(0, 0, widget.region.width, widget.region.height))
    return "\n".join(strip.text for strip in strips)


def check_layout(app: FiveHundredApp, size: tuple[int, int]) -> None:
    screen = Region(0, 0, *size)
    session = app.session
    assert session is not None
    info = app.query_one("#info")
    assert screen.contains_region(info.region) and "Score" in widget_text(info)
    table = app.query_one("#table")
    assert table.region.height > 0 and "You (South)" in widget_text(table)
    names = render.seat_names(session.rules)
    shown = widget_text(table)
    for seat in range(1, session.rules.seats):
        assert names[seat].split("-")[0] in shown, (names[seat], shown)
    cards = list(app.query_one("#hand", HandRow).query(CardWidget))
    assert len(cards) == session.observation().hand.bit_count()
    for card in cards:
        assert screen.contains_region(card.region), (card.card, card.region)
    prompt = app.query_one("#prompt")
    assert screen.contains_region(prompt.region)


#: Cards the person plays with the keys in each preset's full-screen hand; the engine plays
#: the rest (every frame of the full screen costs; the line mode plays whole hands).
FULL_SCREEN_CARDS = 2


async def play_hand_full_screen(preset: str, size: tuple[int, int]) -> Session:
    """The hand's auction (and the kitty, the joker's suit, the partner's card where the
    person has them) and the first cards of the play, each chosen by pressing h (the hint
    moves the cursor to its choice) and Enter, checked to be what the hint said; then the
    engine finishes the hand."""
    session = Session.new(
        Settings(preset=preset, seed=4, speed=0, opponents="random", partner="random")
    )
    app = FiveHundredApp(session, options_at_start=False)
    cards = 0
    async with app.run_test(size=size) as pilot:
        checked = False
        for _ in range(200):
            await pilot.pause()
            if isinstance(app.screen, TextScreen) or cards == FULL_SCREEN_CARDS:
                break
            if not session.human_to_move:
                continue
            await pilot.pause()
            phase = session.hand.phase
            if not checked or phase == DISCARD:
                check_layout(app, size)
                checked = True
            moves = len(session.hand.history)
            if phase == DISCARD:
                # Each hint names the next card to discard: h, Enter marks it; d discards.
                await pilot.press(*["h", "enter"] * session.hand.discards_left, "d")
                await pilot.pause()
                continue
            hinted, _ = session.hint()
            if phase == AUCTION and not cards and session.hand.contract < 0:
                # The hint puts the cursor on its bid; the person clicks the highest
                # suit or no-trump bid instead, to take the kitty in most presets.
                await pilot.press("h")
                await pilot.pause()
                assert app.focused is not None and str(app.focused.name) == f"bid-{hinted}"
                bids = [a for a in session.legal_actions() if BID_BASE <= a < MISERE]
                if bids:
                    name = f"bid-{max(bids)}"
                    button = next(b for b in app.query("#bidbox Button") if b.name == name)
                    assert await pilot.click(button)
                    await pilot.pause()
                    assert session.hand.history[moves] == max(bids), preset
                    continue
                await pilot.press("enter")
                await pilot.pause()
                assert session.hand.history[moves] == hinted, (preset, phase)
                continue
            await pilot.press("h", "enter")
            if JOKER_LEAD_BASE <= hinted < PASS:
                await pilot.press("enter")  # the joker led: its suit bar's first suit
            else:
                await pilot.pause()
                assert session.hand.history[moves] == hinted, (preset, phase)
            cards += phase == PLAY
        else:
            raise AssertionError("the person's moves did not end")
        if cards < FULL_SCREEN_CARDS:  # the hand ended first (everybody passed)
            assert isinstance(app.screen, TextScreen)
            assert "is over" in app.screen.title_text
    while not session.game.finished_hands:  # the engine plays the rest
        if session.human_to_move:
            session.play(session.legal_actions()[0])
        else:
            session.step_computer()
    return session


@pytest.mark.asyncio
@pytest.mark.parametrize("preset", sorted(PRESETS))
async def test_every_preset_plays_a_hand_in_full_screen_at_80_by_24(preset: str) -> None:
    session = await play_hand_full_screen(preset, SMALL)
    finished = session.game.finished_hands[0]
    assert finished.contract < 0 or len(finished.tricks) >= FULL_SCREEN_CARDS
    assert Session.resume().record() == session.record()


def three_house_rules(preset: str) -> dict[str, bool]:
    """Three house rules the preset accepts together, the last declared first (those that
    add calls and phases: claim, slam_call, the house contracts, dead_hand…)."""
    chosen: dict[str, bool] = {}
    for variant in reversed(VARIANT_REGISTRY):
        if not variant.house or variant.kind != SWITCH or len(chosen) == 3:
            continue
        with contextlib.suppress(RulesError):
            make_rules(preset, {**chosen, variant.name: True})
            chosen[variant.name] = True
    assert len(chosen) == 3, (preset, chosen)
    return chosen


@pytest.mark.parametrize("house", [False, True], ids=["plain", "three-house-rules"])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_plays_a_whole_hand_in_line_mode_with_hints_and_undo(
    preset: str, house: bool
) -> None:
    """``--plain``, a whole hand of every preset (as it is, and with three house rules):
    the first time the person is to move in each phase they ask for a hint, move, take
    the move back and move again."""
    variants = three_house_rules(preset) if house else {}
    session = Session.new(
        Settings(
            preset=preset,
            seed=6,
            speed=0,
            opponents="random",
            partner="random",
            variants=dict(variants),
        )
    )
    assert session.rules == make_rules(preset, variants)
    out = io.StringIO()
    phases: list[str] = []

    class Person(io.StringIO):
        """Answers each prompt: the highest bid in the auction, then the first legal move;
        stops once a hand is over."""

        queue: ClassVar[list[str]] = []

        def readline(self, size: int = -1) -> str:
            if self.queue:
                return self.queue.pop(0)
            if session.game.finished_hands or not session.human_to_move:
                return ""
            legal = session.legal_actions()
            names = session.rules.joker_names
            phase = session.hand.phase
            if phase == DISCARD:
                move = " ".join(action_text(a, names) for a in legal[: session.hand.discards_left])
            else:
                # the highest suit or no-trump bid, to take the kitty and its phases
                bids = [a for a in legal if BID_BASE <= a < MISERE]
                move = action_text(max(bids) if phase == AUCTION and bids else legal[0], names)
            if phase not in phases:
                phases.append(phase)
                self.queue.extend([move + "\n", "undo\n"])
                return "hint\n"
            return move + "\n"

    assert PlainGame(session, Person(), out).run() == 0
    text = out.getvalue()
    assert session.game.finished_hands, text[-2000:]
    finished = session.game.finished_hands[0]
    assert finished.contract >= 0 and (len(finished.tricks) == 10 or finished.is_misere)
    assert "== Hand 1 over ==" in text and "Traceback" not in text
    # (with the claim house rule a computer contractor may claim every trick at once)
    assert {AUCTION, PLAY} <= set(phases) or (house and AUCTION in phases), phases
    assert text.count("Hint: ") == text.count("Taken back.") == len(phases), text[-3000:]
    assert "Not understood" not in text and "Not allowed" not in text
    names = render.seat_names(session.rules)[1 : session.rules.players]
    assert all(name in text for name in names), names


@pytest.mark.asyncio
@pytest.mark.parametrize("preset", ["australian", "french_canadian", "six_handed"])
async def test_the_options_grey_out_every_variant_the_preset_refuses(preset: str) -> None:
    """A variant box may be changed exactly when make_rules accepts the result: the
    refused ones are greyed (disabled) with the reason on their line, and Start never
    meets a refusal reached by ticking what is offered."""
    from typing import Any

    from fivehundred.errors import RulesError
    from fivehundred.rules import VARIANTS, make_rules
    from fivehundred.tui.app import VALUE_VARIANTS, OptionsScreen, TickBox

    app = FiveHundredApp(None, Settings(seed=5, speed=0), options_at_start=True)
    async with app.run_test(size=LARGE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, OptionsScreen)
        screen.query_one("#preset").value = preset  # type: ignore[attr-defined]
        await pilot.pause()
        await pilot.pause()
        refused = 0
        for name in sorted(VARIANTS):
            if name in VALUE_VARIANTS:
                continue
            box = screen.query_one(f"#v-{name}", TickBox)
            base = PRESETS[preset]
            value = not box.value
            variants: dict[str, Any] = {}
            if value != (bool(getattr(base, name)) if hasattr(base, name) else False):
                variants[name] = value
            try:
                make_rules(preset, variants)
                accepted = True
            except RulesError as error:
                accepted = False
                assert error.reason.split(" ", 2)[-1] in str(box.label), (name, str(box.label))
            assert box.disabled is not accepted, name
            refused += not accepted
        assert refused >= 7
        # Ticking one switch greys out the one it contradicts.
        if preset == "australian":
            screen.query_one("#v-misere_anytime", TickBox).value = True
            await pilot.pause()
            await pilot.pause()
            box = screen.query_one("#v-no_misere", TickBox)
            assert box.disabled and "contradicts 'misere_anytime'" in str(box.label)


@pytest.mark.asyncio
async def test_the_options_keep_the_settings_they_open_with() -> None:
    """Opening the options does not reset the chosen target and switches to the preset's;
    choosing another preset does."""
    from fivehundred.tui.app import OptionsScreen, TickBox

    settings = Settings(seed=5, speed=0, variants={"target": 300, "rule_490": False})
    app = FiveHundredApp(None, settings, options_at_start=True)
    async with app.run_test(size=LARGE) as pilot:
        for _ in range(3):
            await pilot.pause()
        screen = app.screen
        assert isinstance(screen, OptionsScreen)
        assert screen.query_one("#target").value == "300"  # type: ignore[attr-defined]
        assert screen.query_one("#v-rule_490", TickBox).value is False
        screen.query_one("#preset").value = "french_canadian"  # type: ignore[attr-defined]
        await pilot.pause()
        await pilot.pause()
        assert screen.query_one("#target").value == "1000"  # type: ignore[attr-defined]
        assert screen.read().rules().target == 1000


@pytest.mark.asyncio
async def test_the_options_at_80_by_24_show_a_screenful_of_variants() -> None:
    """On a short terminal the fields take one line each: the list of variants (with the
    greyed ones and their reasons) gets most of the screen."""
    from fivehundred.tui.app import OptionsScreen

    app = FiveHundredApp(None, Settings(seed=5, speed=0), options_at_start=True)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, OptionsScreen)
        listing = screen.query_one("#variants")
        assert listing.region.height >= 8 and Region(0, 0, *SMALL).contains_region(listing.region)
        dead_hand = screen.query_one("#v-dead_hand")
        assert listing.region.contains_region(dead_hand.region)  # greyed, in sight
        assert "✗ is for two or three players" in widget_text(dead_hand)
        assert Region(0, 0, *SMALL).contains_region(screen.query_one("#start").region)


@pytest.mark.asyncio
@pytest.mark.parametrize("table", ["original_1904", "perfect"])
async def test_a_scoring_table_chosen_as_a_switch_leaves_the_options_usable(table: str) -> None:
    """``play --variant original_1904`` (or ``perfect``), then the options: one control for
    the scoring table (the drop-down, showing it), no variant greyed for it, and Ctrl+N
    starts the game with that table. (Once: two controls for one rule, both on, every
    variant refused and Ctrl+N doing nothing.)"""
    from fivehundred.tui.app import OptionsScreen, TickBox

    app = FiveHundredApp(None, Settings(seed=5, speed=0, variants={table: True}))
    async with app.run_test(size=LARGE) as pilot:
        for _ in range(3):
            await pilot.pause()
        screen = app.screen
        assert isinstance(screen, OptionsScreen)
        assert not screen.query(f"#v-{table}")  # no second control for the table
        assert screen.query_one("#scoring_table").value == table  # type: ignore[attr-defined]
        greyed = [box.id for box in screen.query(TickBox) if box.disabled]
        assert not any("contradicts" in str(box.label) for box in screen.query(TickBox))
        assert len(greyed) < len(screen.query(TickBox)) // 2, greyed
        assert str(screen.query_one("#option-error").render()) == ""
        await pilot.press("ctrl+n")
        for _ in range(5):
            await pilot.pause()
        assert app.session is not None
        assert app.session.rules.scoring_table == table
