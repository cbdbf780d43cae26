"""The full-screen game's keys and layout: the kitty exchange at 80×24 (every card on the
screen, the kitty cards marked, keys arriving together, undo of the whole exchange), the
arrow keys and Escape in the joker bars, the score line with a nominated joker, asking
before a new game replaces one in progress, and the log after a resume."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Button

from fivehundred.actions import NO_NOMINATION, NOMINATE_BASE, bid_action, joker_lead_action
from fivehundred.actions import PASS as PASS_ACTION
from fivehundred.cards import JOKER, NO_TRUMPS
from fivehundred.game import AUCTION, DISCARD, NOMINATE, PLAY, GameState, HandState
from fivehundred.tui import storage
from fivehundred.tui.app import FiveHundredApp, OptionsScreen, TextScreen
from fivehundred.tui.session import HUMAN, Session, Settings
from fivehundred.tui.widgets import CardWidget

pytestmark = pytest.mark.asyncio


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(storage.ENV_DATA_DIR, str(tmp_path))
    return tmp_path


def joker_session() -> Session:
    """South holds the joker and bids first (East deals)."""
    settings = Settings(seed=1, speed=0)
    game = GameState(settings.rules(), 1, first_dealer=3)
    for seed in range(200):
        hand = HandState.deal(game.rules, 3, seed)
        if hand.dealt[HUMAN] >> JOKER & 1:
            game.replace_deal(hand.dealt, hand.kitty_dealt)
            session = Session(settings, game, storage.save_path())
            session.save()
            return session
    raise AssertionError("no deal with the joker for South")


def widget_text(widget: Widget) -> str:
    strips = widget.render_lines(Region(0, 0, widget.region.width, widget.region.height))
    return "\n".join(strip.text for strip in strips)


async def settle(pilot, app: FiveHundredApp) -> None:  # type: ignore[no-untyped-def]
    for _ in range(300):
        await pilot.pause()
        session = app.session
        if session is None or isinstance(app.screen, TextScreen) or not session.computer_to_move:
            await pilot.pause()
            return
    raise AssertionError("the computer players did not finish")


async def bid_10nt_and_take_the_kitty(pilot, app: FiveHundredApp) -> None:  # type: ignore[no-untyped-def]
    session = app.session
    assert session is not None and session.hand.phase == AUCTION
    await pilot.press("left", "enter")  # 10NT lies just before Pass, which has the focus
    await settle(pilot, app)
    assert session.hand.contract == bid_action(10, NO_TRUMPS)
    assert session.hand.phase == DISCARD and session.human_to_move


def focused_button(app: FiveHundredApp) -> str:
    focused = app.focused
    assert isinstance(focused, Button), focused
    return str(focused.name)


async def test_the_kitty_exchange_at_80_by_24_and_its_undo() -> None:
    session = joker_session()
    app = FiveHundredApp(session, options_at_start=False)
    size = (80, 24)
    async with app.run_test(size=size) as pilot:
        await settle(pilot, app)
        assert "You (South)" in widget_text(app.query_one("#table"))
        await bid_10nt_and_take_the_kitty(pilot, app)
        screen = Region(0, 0, *size)
        cards = list(app.query(CardWidget))
        assert len(cards) == 13
        assert all(screen.contains_region(card.region) for card in cards)
        kitty = [card.card for card in cards if card.has_class("kitty")]
        assert sum(1 << c for c in kitty) == session.hand.kitty_dealt
        # The mark is drawn, not only a class: "+" corners on exactly the kitty cards.
        drawn = [card.card for card in cards if widget_text(card).startswith("+")]
        assert drawn == kitty
        info = widget_text(app.query_one("#info"))
        assert "Score" in info
        # Keys arriving together: each right moves one card on (past the joker, which
        # leads a no-trumps hand: it stays for the nomination).
        await pilot.press("right", "enter", "right", "right", "enter", "right", "right", "enter")
        order = [card.card for card in cards]
        assert order[0] == JOKER
        assert app.marked == {order[1], order[3], order[5]}
        await pilot.press("d")
        await settle(pilot, app)
        assert session.hand.phase == NOMINATE
        # Undo takes back the whole exchange, not one card.
        await pilot.press("u")
        await settle(pilot, app)
        assert session.hand.phase == DISCARD and session.hand.discards_left == 3
        assert len(list(app.query(CardWidget))) == 13


async def test_the_nomination_bar_takes_the_arrow_keys_and_the_score_stays_shown() -> None:
    session = joker_session()
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, app)
        await bid_10nt_and_take_the_kitty(pilot, app)
        await pilot.press("right", "enter", "right", "enter", "right", "enter", "d")  # not JK
        await settle(pilot, app)
        assert session.hand.phase == NOMINATE
        first = focused_button(app)
        await pilot.press("right", "right", "left")
        second = focused_button(app)
        assert first == f"nominate-{NOMINATE_BASE}" and second == f"nominate-{NOMINATE_BASE + 1}"
        await pilot.press("left", "enter")
        await settle(pilot, app)
        assert session.hand.joker_suits[0] == 0
        info = widget_text(app.query_one("#info"))
        assert "joker is ♠" in info and "Score" in info


async def test_the_joker_lead_bar_takes_the_arrow_keys_and_escape_cancels() -> None:
    session = joker_session()
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(110, 36)) as pilot:
        await settle(pilot, app)
        await bid_10nt_and_take_the_kitty(pilot, app)
        joker = next(card for card in app.query(CardWidget) if card.card == JOKER)
        order = [card.card for card in app.query(CardWidget)]
        # Discard three cards that are not the joker, then no nomination.
        spare = [index for index, card in enumerate(order) if card != JOKER][:3]
        for index in spare:
            app.query(CardWidget)[index].focus()
            await pilot.pause()
            await pilot.press("enter")
        await pilot.press("d")
        await settle(pilot, app)
        await pilot.press("right", "right", "right", "right", "enter")  # "none"
        await settle(pilot, app)
        assert session.hand.phase == PLAY and session.hand.joker_suits[0] == -1
        assert session.hand.history[-1] == NO_NOMINATION
        joker = next(card for card in app.query(CardWidget) if card.card == JOKER)
        joker.focus()
        await pilot.pause()
        await pilot.press("enter")
        assert app.choosing_joker_lead == JOKER
        first = focused_button(app)
        await pilot.press("right")
        assert focused_button(app) != first
        await pilot.press("escape")
        await pilot.pause()
        assert app.choosing_joker_lead is None
        # The focus is back on the joker: Enter offers its suits again (it would have
        # played the first card of the hand).
        focused = app.focused
        assert isinstance(focused, CardWidget) and focused.card == JOKER, focused
        history = list(session.hand.history)
        await pilot.press("enter", "right", "enter")
        await settle(pilot, app)
        assert session.hand.history[len(history)] == joker_lead_action(JOKER, 1)


async def test_a_new_game_asks_before_replacing_the_one_in_progress() -> None:
    session = joker_session()
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, OptionsScreen)
        await pilot.press("ctrl+n")  # Start new game, from anywhere on the options screen
        await pilot.pause()
        assert isinstance(app.screen, TextScreen) and "new game" in app.screen.title_text
        await pilot.press("enter")  # "Keep playing" has the focus
        await pilot.pause()
        assert app.session is session
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("ctrl+n")
        await pilot.pause()
        app.screen.query_one("#b-new", Button).press()
        await settle(pilot, app)
        assert app.session is not session
    kept = list((storage.data_dir() / storage.GAMES_DIR).glob("*-unfinished-*.json"))
    assert len(kept) == 1


async def test_the_log_tells_the_whole_hand_and_comes_back_after_a_resume() -> None:
    session = Session.new(Settings(seed=12, speed=0))
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        for _ in range(3):
            await pilot.press("enter")
            await settle(pilot, app)
            if isinstance(app.screen, TextScreen):
                break
        before = str(app.query_one("#log").render())
    assert "You pass." in before
    resumed = Session.resume()
    app = FiveHundredApp(resumed, options_at_start=False)
    async with app.run_test(size=(100, 40)) as pilot:
        await settle(pilot, app)
        after = str(app.query_one("#log").render())
    assert "You pass." in after and after.count("\n") >= before.count("\n") - 1


async def test_the_five_handed_contractor_calls_a_partner_from_the_call_box() -> None:
    from fivehundred.actions import CALL_BASE, GO_ALONE
    from fivehundred.game import CALL

    session = Session.new(Settings(preset="five_handed", seed=3, speed=0))
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(10):
            await settle(pilot, app)
            if session.hand.phase == AUCTION and session.human_to_move:
                break
            await pilot.press("enter")
        await pilot.press("left", "enter")  # 10NT
        await settle(pilot, app)
        assert session.hand.contractor == HUMAN
        await pilot.press("enter", "right", "enter", "right", "enter", "d")
        await settle(pilot, app)
        if session.hand.phase == NOMINATE:
            await pilot.press("enter")
            await settle(pilot, app)
        assert session.hand.phase == CALL and session.human_to_move
        calls = [b for b in app.query("#callbox Button") if b.display]
        legal = set(session.legal_actions())
        assert {int(str(b.name)[5:]) for b in calls} == legal
        assert all(Region(0, 0, 80, 24).contains_region(b.region) for b in calls)
        await pilot.press("right", "enter")  # the second card offered
        await settle(pilot, app)
        chosen = int(str(calls[1].name)[5:])
        assert CALL_BASE <= chosen < GO_ALONE and session.hand.phase != CALL
        assert session.hand.called_card == chosen - CALL_BASE


async def test_help_fits_its_box_and_played_cards_show_by_suit() -> None:
    from fivehundred.tui.app import HELP_TEXT

    session = joker_session()
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        box = app.screen.query_one("#box-text")
        assert box.region.width >= max(len(line) for line in HELP_TEXT.splitlines())
        await pilot.press("escape")
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, TextScreen)
        assert "played" in widget_text(app.screen.query_one("#box-text")).lower()


async def test_the_solver_preparation_is_announced(monkeypatch: pytest.MonkeyPatch) -> None:
    import threading

    release = threading.Event()
    seen: list[str] = []

    def warm_up(progress=None) -> None:  # type: ignore[no-untyped-def]
        if progress is not None:
            progress(1, 3)
        release.wait(5)

    monkeypatch.setattr(Session, "needs_solver_warm_up", lambda self: not seen)
    monkeypatch.setattr(Session, "warm_up_solver", staticmethod(warm_up))
    session = Session.new(Settings(seed=7, speed=0))
    while session.human_to_move:
        session.play(PASS_ACTION)
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(50):
            await pilot.pause()
            prompt = widget_text(app.query_one("#prompt"))
            if "Preparing the double-dummy solver" in prompt:
                seen.append(prompt)
                break
        release.set()
        await settle(pilot, app)
    assert seen and "one-time" in seen[0]


async def test_the_partner_call_at_80_by_24_shows_every_choice_whole() -> None:
    """Five players: the contractor's call box fits 80×24, "alone" on one line."""
    from fivehundred.game import CALL
    from fivehundred.tui.widgets import KeyGrid

    session = Session.new(Settings(preset="five_handed", seed=7, speed=0))
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(200):
            await settle(pilot, app)
            phase = session.hand.phase
            if phase == CALL and session.human_to_move:
                break
            assert session.game.finished_hands == [], "South never called a partner"
            if phase == AUCTION:
                await pilot.press("left", "enter")  # the highest bid, just before Pass
            elif phase == DISCARD:
                await pilot.press("enter", *["right", "enter"] * (session.hand.discards_left - 1))
                await pilot.press("d")
            else:
                await pilot.press("enter")
        buttons = list(app.query_one("#callbox", KeyGrid).query(Button))
        assert buttons and str(buttons[-1].label) == "alone"
        screen = Region(0, 0, 80, 24)
        for button in buttons:
            assert screen.contains_region(button.region), button.label
            assert widget_text(button).strip() == str(button.label).strip(), button.label


async def test_a_five_player_score_sheet_is_not_wrapped_where_the_screen_has_room() -> None:
    import random

    from fivehundred.tui import render

    session = Session.new(
        Settings(preset="five_handed", seed=5, speed=0, opponents="random", partner="random")
    )
    rng = random.Random(5)
    while not session.game.finished_hands:
        if session.computer_to_move:
            session.step_computer()
        else:
            session.play(rng.choice(list(session.legal_actions())))
    sheet = render.sheet_lines(session.game)
    assert max(len(line) for line in sheet) <= 76  # the box's width at 80 columns
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.push_screen(TextScreen("Game over", "\n".join(sheet), [("Close", "close")]))
        await pilot.pause()
        await pilot.pause()
        shown = widget_text(app.screen.query_one("#box-text")).splitlines()
        for line in sheet:
            assert line.rstrip() in [row.rstrip() for row in shown], line


async def test_keys_arriving_together_choose_the_card_the_cursor_is_on() -> None:
    """Right Right Enter in one write (all three queued before the focus moves) plays the
    card two to the right, not the card the focus started on."""
    from textual import events

    session = Session.new(Settings(seed=997336252, speed=0))
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        if session.hand.phase == AUCTION and session.human_to_move:
            await pilot.press("enter")  # Pass has the focus
            await settle(pilot, app)
        assert session.hand.phase == PLAY and session.human_to_move
        await pilot.pause()
        focused = app.focused
        assert isinstance(focused, CardWidget)
        cards = [w for w in app.query(CardWidget)]
        start = cards.index(focused)
        expected = cards[(start + 2) % len(cards)].card
        played = len(session.hand.history)
        for key in ("right", "right", "enter"):
            app.post_message(events.Key(key, None))
        await settle(pilot, app)
        assert session.hand.history[played] == expected


async def test_keys_arriving_together_in_the_bid_box_bid_what_the_cursor_is_on() -> None:
    from textual import events

    session = joker_session()
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        assert session.hand.phase == AUCTION and session.human_to_move
        await pilot.pause()
        buttons = [b for b in app.query_one("#bidbox").query(Button) if b.focusable]
        start = buttons.index(app.focused)  # type: ignore[arg-type]
        expected = int(str(buttons[start - 2].name)[4:])
        for key in ("left", "left", "enter"):
            app.post_message(events.Key(key, None))
        await settle(pilot, app)
        assert session.hand.history[0] == expected


async def test_the_hint_moves_the_cursor_to_its_choice_in_every_phase() -> None:
    """In the kitty exchange each hint names a card not yet marked (and Enter marks it);
    outside the auction too, Enter after a hint takes the hint's choice."""
    session = joker_session()
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await bid_10nt_and_take_the_kitty(pilot, app)
        hinted = []
        for _ in range(3):
            await pilot.press("h")
            await pilot.pause()
            hinted.append(app.hinted)
            assert app.focused is not None and getattr(app.focused, "card", None) == app.hinted
            await pilot.press("enter")
            await pilot.pause()
        assert len(set(hinted)) == 3 and app.marked == set(hinted)
        await pilot.press("d")
        await settle(pilot, app)
        assert session.hand.phase == NOMINATE and session.human_to_move
        expected, _ = session.hint()
        await pilot.press("h")
        await pilot.pause()
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot, app)
        nominations = [a for a in session.hand.history if NOMINATE_BASE <= a <= NO_NOMINATION]
        assert nominations == [expected]


@pytest.mark.parametrize("key", ["escape", "ctrl+c"])
async def test_the_options_screen_at_the_start_quits_with_escape(key: str) -> None:
    """Before any game the options screen shows how to leave (a Quit button) and Escape or
    Ctrl+C quit."""
    app = FiveHundredApp(options_at_start=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, OptionsScreen)
        quit_button = app.screen.query_one("#quit", Button)
        assert "Esc" in str(quit_button.label)
        screen = Region(0, 0, 80, 24)
        assert screen.contains_region(quit_button.region)
        await pilot.press(key)
        await pilot.pause()
        assert app.return_value == 0 and not app.is_running


async def test_the_options_show_a_rule_kept_on_and_the_whole_description() -> None:
    """With open_misere_520 on, open_misere is on and kept on (not shown refused); the
    description of the rule with the focus is shown whole at 80 columns."""
    from fivehundred.rules import VARIANT_HELP
    from fivehundred.tui.app import TickBox

    app = FiveHundredApp(
        settings=Settings(variants={"open_misere_520": True}), options_at_start=True
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        box = screen.query_one("#v-open_misere", TickBox)
        assert box.value and box.disabled
        label = str(box.label)
        assert "kept on" in label and "✗" not in label
        boxes = [b for b in screen.query(TickBox) if not b.disabled]
        longest = max((str(b.id)[2:] for b in boxes), key=lambda n: len(VARIANT_HELP[n]))
        screen.query_one(f"#v-{longest}").focus()
        await pilot.pause()
        shown = " ".join(widget_text(screen.query_one("#variant-help")).split())
        assert shown == f"{longest}: {' '.join(VARIANT_HELP[longest].split())}"


async def _summary_after_all_pass(pilot, app: FiveHundredApp) -> None:  # type: ignore[no-untyped-def]
    for _ in range(10):
        await settle(pilot, app)
        if isinstance(app.screen, TextScreen):
            return
        await pilot.press("enter")  # Pass has the focus
    raise AssertionError("no end-of-hand dialog")


@pytest.mark.parametrize("key", ["enter", "q"])
async def test_after_review_enter_starts_the_next_hand_and_q_quits(
    key: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("fivehundred.tui.app.review_lines", lambda session, hand: ["reviewed"])
    session = Session.new(Settings(preset="six_handed", seed=99, speed=0))
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(160, 50)) as pilot:
        await _summary_after_all_pass(pilot, app)
        box = app.screen
        await pilot.click("#b-review")
        for _ in range(50):
            await pilot.pause()
            if "reviewed" in widget_text(box.query_one("#box-text")):
                break
        assert "reviewed" in widget_text(box.query_one("#box-text"))
        await pilot.press(key)
        await pilot.pause()
        if key == "enter":
            await settle(pilot, app)
            assert not isinstance(app.screen, TextScreen) and session.hand_number == 2
        else:
            assert app.return_value == 0 and not app.is_running


def blank_rows_above_the_controls(app: FiveHundredApp) -> list[int]:
    """The screen rows between the header (score and hand) and the controls (bid box,
    hand) with nothing written on them, in the table or the prompt."""
    filled = set()
    for name in ("#table", "#prompt"):
        widget = app.query_one(name)
        lines = widget_text(widget).splitlines()
        filled |= {widget.region.y + row for row, line in enumerate(lines) if line.strip()}
    top = app.query_one("#info").region.bottom
    return [y for y in range(top, app.query_one("#controls").region.y) if y not in filled]


def assert_nothing_overlaps(app: FiveHundredApp, seats: tuple[str, ...]) -> None:
    from textual.widgets import Footer

    parts = [app.query_one(name) for name in ("#info", "#table", "#prompt", "#controls")]
    parts.append(app.query_one(Footer))
    screen = Region(0, 0, *app.size)
    for index, part in enumerate(parts):
        assert screen.contains_region(part.region), part
        assert not any(part.region.overlaps(other.region) for other in parts[index + 1 :])
    text = widget_text(app.query_one("#table"))
    # the whole table drawn in its box: every seat, and the cloth closed above South
    assert all(seat in text for seat in seats), text
    lines = text.splitlines()
    south = next(row for row, line in enumerate(lines) if "You (South)" in line)
    assert "╰" in lines[south - 1] and sum("╭" in line for line in lines) == 1


@pytest.mark.parametrize(
    ("preset", "seed", "seats"),
    [
        ("australian", 81, ("North", "West", "East")),
        ("five_handed", 5, ("North-West", "North-East", "West", "East")),
        ("six_handed", 99, ("North-West", "North", "North-East", "South-West", "South-East")),
    ],
)
async def test_the_table_fills_a_large_screen(
    preset: str, seed: int, seats: tuple[str, ...]
) -> None:
    """At 160×50 the table is at most 100 columns wide and centred, and reaches from the
    header down to the controls: the trick lies on a drawn table between the seats, as
    tall as the room allows. About 30 rows stayed empty (a 9-row table in the middle);
    now at most 6 rows are: the table's padding above and below (2) and a spare line or
    two a seat's block or the legend may leave, while the bid box comes and goes."""
    session = Session.new(Settings(preset=preset, seed=seed, speed=0))
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot, app)
        table = app.query_one("#table")
        left = app.query_one("#left")
        assert table.region.width <= 100
        assert abs((table.region.x - left.region.x) - (left.region.right - table.region.right)) <= 1
        assert session.hand.phase == AUCTION  # the bid box takes three rows
        assert len(blank_rows_above_the_controls(app)) <= 6, widget_text(table)
        assert_nothing_overlaps(app, seats)
        await pilot.press("enter")  # Pass has the focus
        await settle(pilot, app)
        if not isinstance(app.screen, TextScreen):  # the others bid on: a hand to play
            assert session.hand.phase != AUCTION
            assert len(blank_rows_above_the_controls(app)) <= 6, widget_text(table)
            assert_nothing_overlaps(app, seats)


async def test_the_five_handed_trick_stays_together_on_a_large_screen() -> None:
    """At 160×50 the trick's cards lie together in the middle of the table, each on its
    seat's side (the seats along the top had theirs beside them, at the screen's edges)."""
    import re

    session = Session.new(Settings(preset="five_handed", seed=5, speed=0))
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot, app)
        await pilot.press("enter")  # Pass has the focus
        await settle(pilot, app)
        assert session.hand.phase == PLAY and session.human_to_move
        await pilot.press("enter")  # the card the cursor is on
        await settle(pilot, app)
        table = app.query_one("#table")
        lines = widget_text(table).splitlines()
        cards = [
            (row, match.start())
            for row, line in enumerate(lines)
            for match in re.finditer(r"(?:10|[2-9JQKA])[♠♣♦♥]|JK", line)
        ]
        assert len(cards) == 5, lines  # the whole trick, just taken
        centre = table.region.width // 2
        assert all(abs(column - centre) <= 12 for _, column in cards), (centre, cards)
        top = sorted(column for row, column in cards if row == min(r for r, _ in cards))
        assert len(top) == 2 and top[0] < centre < top[1]  # North-West left, North-East right


async def test_the_footer_shows_every_key_at_80_by_24() -> None:
    """Every key of the footer whole at 80 columns ("Save & quit" was cut by the command
    palette's entry)."""
    from textual.widgets._footer import FooterKey

    session = joker_session()
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        keys = list(app.query(FooterKey))
        assert "Save & quit" in [key.description for key in keys]
        screen = Region(0, 0, 80, 24)
        assert all(screen.contains_region(key.region) for key in keys)
        texts = [widget_text(key) for key in keys]
        assert any("Save & quit" in text for text in texts), texts


async def test_the_legend_stands_above_the_table_not_under_you() -> None:
    """The legend ("★ contractor") on its own line above the seats: under "You (South)" it
    read as if it named the person."""
    session = joker_session()
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        await bid_10nt_and_take_the_kitty(pilot, app)
        lines = widget_text(app.query_one("#table")).splitlines()
        legend = next(i for i, line in enumerate(lines) if "★ contractor" in line)
        seats = [i for i, line in enumerate(lines) if "North" in line or "West" in line]
        you = next(i for i, line in enumerate(lines) if "You (South)" in line)
        assert legend < min(seats) < you


async def test_a_click_on_a_house_rule_toggles_it_without_scrolling_the_list() -> None:
    """At 80×24 the list of variants scrolls; a click on a rule in it (the list scrolled
    part way, the rule on its last visible row) ticks that rule and leaves the list where
    it was, so the next click lands on the row the person sees."""
    from textual.containers import VerticalScroll

    from fivehundred.tui.app import TickBox

    app = FiveHundredApp(options_at_start=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, OptionsScreen)
        scroller = screen.query_one("#variants", VerticalScroll)
        assert scroller.max_scroll_y > 0  # the list does not fit: it scrolls
        scroller.scroll_to(y=3, animate=False)
        await pilot.pause()
        before = scroller.scroll_y
        assert before == 3
        visible = scroller.content_region
        boxes = [
            box
            for box in screen.query(TickBox)
            if not box.disabled and visible.contains_region(box.region)
        ]
        rows = {box.id: box.region for box in boxes}
        for box in (boxes[-1], boxes[len(boxes) // 2], boxes[0]):
            value = box.value
            assert await pilot.click(box, offset=(1, 0))  # the box is under the pointer
            await pilot.pause()
            assert box.value is not value, box.id  # the rule clicked, and no other
            assert scroller.scroll_y == before
            assert app.focused is box
            # nothing above the list grew or shrank: every row is where it was
            assert {b.id: b.region for b in boxes} == rows


async def test_up_and_down_in_the_bid_box_move_one_row_in_the_same_column() -> None:
    """↑ after a hint goes to the bid drawn just above the hinted one (once it landed on
    an unrelated bid: the step counted the hidden buttons), ↓ comes back, and ↑ on the
    top row stays (no wrap to the bottom)."""
    session = joker_session()
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await pilot.press("h")
        await pilot.pause()
        await pilot.pause()
        grid = app.query_one("#bidbox")
        shown = [b for b in grid.query(Button) if b.display]
        hinted = app.focused
        assert hinted in shown
        start = shown.index(hinted)
        await pilot.press("up")
        await pilot.pause()
        assert shown.index(app.focused) == max(start - 10, 0) if start >= 10 else start
        above = shown.index(app.focused)
        await pilot.press("down")
        await pilot.pause()
        assert shown.index(app.focused) == above + 10 if start >= 10 else start
        # from 6♠ (top left): up stays, down is 8♠ (the row below, same column)
        shown[0].focus()
        await pilot.pause()
        await pilot.press("up")
        await pilot.pause()
        assert app.focused is shown[0]
        await pilot.press("down")
        await pilot.pause()
        assert app.focused is shown[10] and str(shown[10].label) == "8♠"


async def test_the_hint_with_every_discard_marked_names_no_marked_card() -> None:
    """Three discards marked: ``h`` compares them with the computer's choice (press d, or
    which to keep and which to discard instead), never suggests a marked card."""
    session = joker_session()
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, app)
        await bid_10nt_and_take_the_kitty(pilot, app)
        choice = session.discard_choice()
        assert len(set(choice)) == 3
        cards = [card.card for card in app.query(CardWidget)]
        # mark two of the computer's cards and one other
        other = next(c for c in cards if c not in choice and c != JOKER)
        app.marked = {choice[0], choice[1], other}
        app.refresh_view()
        await pilot.press("h")
        await pilot.pause()
        said = str(app.message)
        assert app.hinted is None or app.hinted not in app.marked
        assert said.startswith("Hint: keep ") and "instead" in said, said
        assert getattr(app.focused, "card", None) == other
        app.marked = set(choice)
        await pilot.press("h")
        await pilot.pause()
        assert "press d" in str(app.message) and app.hinted is None
