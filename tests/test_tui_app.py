"""The full-screen game driven with Textual's pilot: bidding from the bid box, the kitty
discards, naming the joker's suit, a whole hand with the keyboard, an illegal card that
cannot be played, undo, and save and resume."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Button

from fivehundred.actions import PASS, bid_action
from fivehundred.cards import JOKER, NO_TRUMPS
from fivehundred.game import AUCTION, DISCARD, NOMINATE, PLAY, GameState, HandState
from fivehundred.record import replay_game
from fivehundred.tui import storage
from fivehundred.tui.app import FiveHundredApp, TextScreen
from fivehundred.tui.session import HUMAN, Session, Settings
from fivehundred.tui.widgets import CardWidget

pytestmark = pytest.mark.asyncio
SIZE = (110, 36)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(storage.ENV_DATA_DIR, str(tmp_path))
    return tmp_path


def joker_session(dealer: int = 3) -> Session:
    """A game whose first deal gives South the joker, South bidding first (East deals)."""
    settings = Settings(seed=1, speed=0)
    game = GameState(settings.rules(), 1, first_dealer=dealer)
    for seed in range(200):
        hand = HandState.deal(game.rules, dealer, seed)
        if hand.dealt[HUMAN] >> JOKER & 1:
            game.replace_deal(hand.dealt, hand.kitty_dealt)
            return Session(settings, game, storage.save_path())
    raise AssertionError("no deal with the joker for South")


async def settle(pilot, app: FiveHundredApp) -> None:  # type: ignore[no-untyped-def]
    """Wait until the computer players have moved and the person (or a box) is to act."""
    for _ in range(500):
        await pilot.pause()
        session = app.session
        if session is None or isinstance(app.screen, TextScreen):
            return
        if not session.computer_to_move:
            await pilot.pause()
            return
    raise AssertionError("the computer players did not finish")


async def test_bid_discard_and_nominate_the_joker_with_keys() -> None:
    session = joker_session()
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        assert session.hand.phase == AUCTION and session.human_to_move
        # Pass has the focus; 10NT is just before it (left), 9NT above that (up).
        await pilot.press("left", "up", "down", "enter")
        await settle(pilot, app)
        assert session.hand.contract == bid_action(10, NO_TRUMPS)
        assert session.hand.contractor == HUMAN
        assert session.hand.phase == DISCARD
        assert session.hand.hands[HUMAN].bit_count() == 13
        # Mark three cards (Enter on each) and discard them with d. The free joker leads the
        # hand in no trumps (the one display order, words.hand_order): the three after it.
        await pilot.press("right", "enter", "right", "enter", "right", "enter")
        assert len(app.marked) == 3
        marked = set(app.marked)
        assert JOKER not in marked
        await pilot.press("d")
        await settle(pilot, app)
        assert session.hand.discards == sum(1 << c for c in marked)
        assert session.hand.phase == NOMINATE
        # The first choice offered is ♠ for the joker.
        await pilot.press("enter")
        await settle(pilot, app)
        assert session.hand.joker_suits[0] == 0
        assert session.hand.phase == PLAY
        saved = replay_game(json.loads(session.path.read_text()))
        assert saved.hand.joker_suits[0] == 0


async def test_the_bid_box_offers_only_legal_bids() -> None:
    session = joker_session()
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        from textual.widgets import Button

        legal = set(session.legal_actions())
        offered = {
            int(b.name[4:]) for b in app.query("#bidbox Button") if b.name and not b.disabled
        }
        assert offered == legal
        # Australian rules: misère only after a seven bid, so it is not offered yet.
        misere = [b for b in app.query(Button) if b.name == "bid-100"]
        assert misere and misere[0].disabled


async def test_a_whole_hand_with_the_keyboard() -> None:
    session = Session.new(Settings(seed=12, speed=0))
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(80):
            await settle(pilot, app)
            if isinstance(app.screen, TextScreen):
                break
            phase = session.hand.phase
            if phase == DISCARD:
                await pilot.press("enter", "right", "enter", "right", "enter", "d")
            else:
                await pilot.press("enter")  # pass in the auction, the first legal card in play
        assert isinstance(app.screen, TextScreen)
        assert len(session.game.finished_hands) == 1
        finished = session.game.finished_hands[0]
        assert finished.contract < 0 or len(finished.tricks) == 10 or finished.is_misere
        # The summary offers all four hands.
        await pilot.click("#b-hands")
        await pilot.pause()
        text = str(app.screen.query_one("#box-text").render())
        assert "Kitty" in text
        await pilot.press("escape")
        await settle(pilot, app)
        assert session.hand_number == 2


async def _to_illegal_position(session: Session) -> int:
    """Play on (passing, then the first legal card) until South must follow suit and holds
    a card that may not be played; returns that card."""
    for _ in range(300):
        if session.pending_summary is not None:
            session.dismiss_summary()
        elif session.human_to_move:
            hand = session.hand
            legal = session.legal_actions()
            if hand.phase == PLAY and hand.trick_cards:
                illegal = [c for c in range(64) if hand.hands[HUMAN] >> c & 1 and c not in legal]
                if illegal:
                    return illegal[0]
            session.play(PASS if PASS in legal else legal[0])
        else:
            session.step_computer()
    raise AssertionError("no position with an illegal card")


async def test_an_illegal_card_is_dimmed_and_cannot_be_played() -> None:
    session = Session.new(Settings(seed=2, speed=0))
    card = await _to_illegal_position(session)
    history = list(session.hand.history)
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        widget = next(w for w in app.query(CardWidget) if w.card == card)
        assert widget.has_class("illegal")
        assert "R-PLAY" in str(widget.tooltip) or "R-JOKER" in str(widget.tooltip)
        await pilot.click(widget)
        await pilot.pause()
        assert session.hand.history == history
        assert "Not allowed" in str(app.query_one("#prompt").render())
        # A legal card is not dimmed and plays.
        legal = next(w for w in app.query(CardWidget) if not w.has_class("illegal"))
        await pilot.click(legal)
        await pilot.pause()
        assert session.hand.history[len(history)] == legal.card


async def test_undo_and_hint_keys() -> None:
    session = Session.new(Settings(seed=2, speed=0))
    await _to_illegal_position(session)
    before = list(session.hand.history)
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot, app)
        await pilot.press("h")
        assert "Hint:" in str(app.query_one("#prompt").render())
        assert app.hinted is not None
        await pilot.press("enter")
        await settle(pilot, app)
        assert len(session.hand.history) > len(before) or session.pending_summary is not None
        await pilot.press("u")
        await settle(pilot, app)
        assert session.hand.history == before
        assert session.human_to_move


async def test_save_and_resume(data_dir: Path) -> None:
    session = Session.new(Settings(seed=4, speed=0))
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(6):
            await settle(pilot, app)
            if isinstance(app.screen, TextScreen):
                await pilot.press("escape")
                continue
            if session.hand.phase == DISCARD:
                await pilot.press("enter", "right", "enter", "right", "enter", "d")
            else:
                await pilot.press("enter")
        await settle(pilot, app)
        await pilot.press("q")
    record = session.record()
    resumed = Session.resume()
    assert resumed.record() == record
    app2 = FiveHundredApp(resumed, options_at_start=False)
    async with app2.run_test(size=SIZE) as pilot:
        await settle(pilot, app2)
        info = str(app2.query_one("#info").render())
        assert f"Hand {session.hand_number}" in info


async def test_options_screen_starts_a_new_game_with_the_chosen_target(data_dir: Path) -> None:
    app = FiveHundredApp(None, Settings(seed=5, speed=0), options_at_start=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        target = app.screen.query_one("#target")
        target.value = "300"  # type: ignore[attr-defined]
        app.screen.query_one("#v-no_open_misere").value = True  # type: ignore[attr-defined]
        await pilot.click("#start")
        await settle(pilot, app)
        assert app.session is not None
        assert app.session.rules.target == 300
        assert not app.session.rules.open_misere
    saved = json.loads((data_dir / "current-game.json").read_text())
    assert saved["rules"]["variants"] == {"no_open_misere": True, "target": 300}


async def test_options_offer_the_levels_first_and_every_named_player(data_dir: Path) -> None:
    from textual.widgets import Select

    from fivehundred.bots import player_choices

    app = FiveHundredApp(None, Settings(seed=5, speed=0), options_at_start=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for field in ("#opponents", "#partner"):
            select = app.screen.query_one(field, Select)
            offered = [value for _, value in select._options if value != Select.BLANK]
            # the web lobby's list, in its order: easy, medium, hard, expert first
            assert offered == player_choices()
            assert offered[:4] == ["easy", "medium", "hard", "expert"]
            # (chosen first: the level the web lobby chooses first too)
            assert "pimc:postpone" not in offered and select.value == "medium"
        app.screen.query_one("#opponents", Select).value = "hard"
        await pilot.click("#start")
        await settle(pilot, app)
        assert app.session is not None and app.session.settings.opponents == "hard"


async def test_show_steps_through_a_record(data_dir: Path) -> None:
    from fivehundred.tui.show import ShowApp, load_steps

    session = Session.new(Settings(seed=6, speed=0))
    while session.computer_to_move or session.human_to_move:
        if session.human_to_move:
            legal = session.legal_actions()
            session.play(PASS if PASS in legal else legal[0])
        else:
            session.step_computer()
        if session.pending_summary is not None:
            break
    steps = load_steps(str(session.path))
    assert len(steps) == len(session.game.finished_hands[0].history) + 1
    app = ShowApp(steps)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("right", "right", "right")
        assert app.index == 3
        await pilot.press("end")
        assert app.index == len(steps) - 1
        assert "hand over" in str(app.query_one("#step").render())


async def test_a_barred_person_is_told_why_on_the_full_screen() -> None:
    """R-HOUSE ralphing: South, barred after failing 10NT by three or more, sees why in
    the prompt (once nothing was said on the full screen) and only Pass in the bid box."""
    import random

    from fivehundred.actions import parse_call

    settings = Settings(seed=2, speed=0, variants={"ralphing": True})
    for seed in range(40):
        game = GameState(settings.rules(), seed, first_dealer=3)  # South bids first
        game.apply(parse_call("9NT"))
        rng = random.Random(seed)
        while not game.finished_hands:
            legal = game.legal_actions()
            game.apply(PASS if PASS in legal else rng.choice(legal))
        if game.hand.barred == (HUMAN,):
            break
    else:
        raise AssertionError("South never failed 9NT by three")
    session = Session(settings, game, storage.save_path())
    while not session.human_to_move:
        session.step_computer()
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, app)
        prompt = str(app.query_one("#prompt").render())
        assert "you must pass, barred by ralphing after failing your last contract" in prompt
        enabled = [
            b for b in app.query_one("#bidbox").query(Button) if b.display and not b.disabled
        ]
        assert [str(b.label) for b in enabled] == ["pass"]
