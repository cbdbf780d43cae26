"""Every house rule (R-HOUSE, R-PLAYERS §9) played through a whole hand in both modes of
the terminal game at 80×24: the house calls from the bid box and as typed words, slam and
the partner's card, open_eight's face-up cards, draw_pack's keep or throw, a claim, the
French-Canadian pack, dead hands. The person's seat bids the contract to force it; the
computer players are the project's bots."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Button

from fivehundred import game as game_module
from fivehundred.actions import (
    CLAIM,
    DOUBLE_MISERE,
    DRAW_KEEP,
    DRAW_THROW,
    HI_LO,
    JOKER_LEAD_BASE,
    MISERE,
    NO_SLAM,
    NUM_ACTIONS,
    PASS,
    PATASTROPHE,
    SHIELDS_DOUBLE,
    SLAM,
    Action,
    action_text,
    bid_action,
)
from fivehundred.cards import NO_TRUMPS
from fivehundred.game import (
    AUCTION,
    DISCARD,
    DRAW,
    PLAY,
    SLAM_CALL,
    SLAM_PASS,
    TABLE_DISCARD,
    TABLE_KITTY,
    TABLE_TAKE,
    HandState,
)
from fivehundred.pad.model import allowed_contracts, new_pad, score_pad
from fivehundred.rules import HOUSE_VARIANTS, VARIANT_HELP, make_rules
from fivehundred.tui import render, storage
from fivehundred.tui.app import VALUE_VARIANTS, FiveHundredApp, OptionsScreen, TextScreen
from fivehundred.tui.plain import PlainGame
from fivehundred.tui.session import HUMAN, Session, Settings
from fivehundred.tui.widgets import CardWidget, HandRow
from fivehundred.words import card_label

SMALL = (80, 24)
#: A house call or decision shown as its action number (``bids 179``) instead of words.
BARE_NUMBER = re.compile(r"(?:bids?|plays?|Contract:|: ) ?1(?:79|8[0-7])\b")
SEVEN_NT = bid_action(7, NO_TRUMPS)
#: The preset each house variant is played with (the others: Australian, four players).
VARIANT_PRESETS = {
    "inkle": "american",
    "dead_hand": "three_handed",
    "open_eight": "two_handed",
    "draw_pack": "two_handed",
}
#: Phases of the house rules and the choice the person makes in each.
CHOICE_PHASES = (SLAM_CALL, DRAW, TABLE_KITTY, TABLE_TAKE)
CARD_PHASES = (SLAM_PASS, TABLE_DISCARD)
HOUSE_CALLS = ("hi_lo", "double_misere", "shields_double", "patastrophe")
#: The hands played in full screen: one for each new control (the house calls of the bid
#: box, slam and a claim, open_eight's face-up cards, draw_pack); every contract family, the
#: 46-card pack and the dead hands are played in line mode, through the same session
#: (tests/test_tui_presets.py plays every preset in full screen).
FULL_SCREEN = ("patastrophe", "slam_claim", "open_eight", "draw_pack")


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(storage.ENV_DATA_DIR, str(tmp_path))
    return tmp_path


@pytest.fixture(autouse=True)
def exhaustive_claim_judge() -> Iterator[None]:
    """Claims are made in the last tricks, where the engine's exhaustive search judges
    them at once (without loading the double-dummy solver, which compiles on first use)."""
    judge = game_module._CLAIM_JUDGE[0]
    exhaustive = game_module._exhaustive_line
    game_module.set_claim_judge(lambda state: exhaustive(state))
    yield
    game_module.set_claim_judge(judge)


@dataclass(frozen=True)
class Case:
    """A hand to force: the rules, the person's bid, what they choose in the house phases,
    and what must hold of the finished hand."""

    name: str
    preset: str
    variants: dict[str, Any]
    bid: Action
    check: Callable[[HandState], bool]
    phases: tuple[str, ...] = ()
    label: str = ""
    seeds: tuple[int, ...] = (2, 4, 5, 7, 9)
    extra: dict[str, Any] = field(default_factory=dict)


def _ours(hand: HandState, contract: Action) -> bool:
    return hand.contract == contract and hand.contractor == HUMAN


CASES = [
    Case("hi_lo", "australian", {"hi_lo": True}, HI_LO, lambda h: _ours(h, HI_LO), label="hi/lo"),
    Case(
        "double_misere",
        "australian",
        {"double_misere": True},
        DOUBLE_MISERE,
        lambda h: _ours(h, DOUBLE_MISERE),
        label="double misère",
    ),
    Case(
        "shields_double",
        "australian",
        {"shields_double": True},
        SHIELDS_DOUBLE,
        lambda h: _ours(h, SHIELDS_DOUBLE),
        label="shields double",
    ),
    Case(
        "patastrophe",
        "australian",
        dict.fromkeys(HOUSE_CALLS, True),
        PATASTROPHE,
        lambda h: _ours(h, PATASTROPHE),
        label="patastrophe",
    ),
    Case(
        "wilkinson_misere",
        "australian",
        {"wilkinson_misere": True, "misere_anytime": True},
        MISERE,
        lambda h: _ours(h, MISERE),
        label="misère",
    ),
    Case(
        "slam_call",
        "australian",
        {"slam_call": True},
        SEVEN_NT,
        lambda h: _ours(h, SEVEN_NT) and h.slam_asked and h.slam_partner >= 0,
        phases=(SLAM_CALL,),
        label="slam",
    ),
    Case(
        "claim",
        "australian",
        {"claim": True},
        SEVEN_NT,
        lambda h: _ours(h, SEVEN_NT) and h.claim_trick >= 0,
        label="claim",
        seeds=(10, 11),
    ),
    Case(
        "slam_claim",
        "australian",
        {"slam_call": True, "claim": True},
        SEVEN_NT,
        lambda h: _ours(h, SEVEN_NT) and h.slam_partner >= 0 and h.claim_trick >= 0,
        phases=(SLAM_CALL,),
        label="claim",
        seeds=(10, 12, 38),
    ),
    Case(
        "french_canadian",
        "french_canadian",
        {},
        SEVEN_NT,
        lambda h: _ours(h, SEVEN_NT),
        label="7NT",
    ),
    Case(
        "open_eight",
        "two_handed",
        {"open_eight": True},
        SEVEN_NT,
        lambda h: _ours(h, SEVEN_NT) and h.table_card >= 0,
        phases=(TABLE_KITTY,),
        label="Face-up cards",
    ),
    Case(
        "draw_pack",
        "two_handed",
        {"draw_pack": True},
        SEVEN_NT,
        lambda h: _ours(h, SEVEN_NT),
        phases=(DRAW,),
        label="keep",
    ),
    Case(
        "dead_hand_two",
        "two_handed",
        {"dead_hand": True},
        SEVEN_NT,
        lambda h: _ours(h, SEVEN_NT),
        label="(dead",
    ),
    Case(
        "dead_hand_three",
        "three_handed",
        {"dead_hand": True},
        SEVEN_NT,
        lambda h: _ours(h, SEVEN_NT),
        label="(dead",
    ),
]


def new_session(preset: str, variants: dict[str, Any], seed: int) -> Session:
    return Session.new(
        Settings(
            preset=preset,
            variants=dict(variants),
            seed=seed,
            speed=0,
            opponents="heuristic",
            partner="heuristic",
        )
    )


def person_choice(session: Session, bid: Action | None) -> Action:
    """The person's move: ``bid`` when the auction allows it (else pass), slam, keep, a
    claim in the last tricks, else the first legal action."""
    legal = session.legal_actions()
    hand = session.hand
    if hand.phase == AUCTION:
        return bid if bid in legal else PASS
    for wanted in (SLAM, DRAW_KEEP):
        if wanted in legal:
            return wanted
    if CLAIM in legal and len(hand.tricks) >= 7:
        return CLAIM
    return next(a for a in legal if a != CLAIM)


# --------------------------------------------------------------------------- line mode
def play_plain(session: Session, bid: Action | None) -> str:
    out = io.StringIO()

    class Person(io.StringIO):
        """Types the person's moves in record notation; stops once a hand is over."""

        def readline(self, size: int = -1) -> str:
            if session.game.finished_hands or not session.human_to_move:
                return ""
            names = session.rules.joker_names
            if session.hand.phase == DISCARD:
                legal = session.legal_actions()[: session.hand.discards_left]
                return " ".join(action_text(a, names) for a in legal) + "\n"
            return action_text(person_choice(session, bid), names) + "\n"

    assert PlainGame(session, Person(), out).run() == 0
    text = out.getvalue()
    assert "Traceback" not in text and "Not understood" not in text, text[-2000:]
    assert "Not allowed" not in text, text[-2000:]
    return text


@pytest.mark.parametrize("variant", HOUSE_VARIANTS)
def test_every_house_variant_plays_a_hand_in_line_mode(variant: str) -> None:
    session = new_session(VARIANT_PRESETS.get(variant, "australian"), {variant: True}, 3)
    text = play_plain(session, SEVEN_NT)
    assert session.game.finished_hands and "== Hand 1 over ==" in text
    assert not BARE_NUMBER.search(text), BARE_NUMBER.search(text)


@pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])
def test_each_house_contract_and_phase_in_line_mode(case: Case) -> None:
    for seed in case.seeds:
        session = new_session(case.preset, case.variants, seed)
        text = play_plain(session, case.bid)
        hand = session.game.finished_hands[0]
        if case.check(hand):
            break
    else:
        raise AssertionError(f"{case.name}: the person's contract was never reached")
    assert case.label in text, text[-3000:]
    for phase in case.phases:
        assert phase in _phases_of(hand), phase


def _phases_of(hand: HandState) -> list[str]:
    """The phases a finished hand went through, replayed from its record."""
    replay = hand.as_dealt()
    phases = []
    for action in hand.history:
        phases.append(replay.phase)
        replay.replay_action(action)
    return phases


# --------------------------------------------------------------------------- full screen
def widget_text(widget: Widget) -> str:
    strips = widget.render_lines(Region(0, 0, widget.region.width, widget.region.height))
    return "\n".join(strip.text for strip in strips)


def check_on_screen(app: FiveHundredApp, widgets: list[Widget]) -> None:
    screen = Region(0, 0, *SMALL)
    for widget in widgets:
        assert screen.contains_region(widget.region), (widget, widget.region)
    assert screen.contains_region(app.query_one("#prompt").region)


async def play_full_screen(session: Session, bid: Action | None) -> tuple[set[str], str]:
    """Play the person's moves with the keys (the bid box, the choices, the cards) until
    the hand is over; returns the phases the person acted in and the texts seen."""
    app = FiveHundredApp(session, options_at_start=False)
    acted: set[str] = set()
    seen: list[str] = []
    async with app.run_test(size=SMALL) as pilot:
        for _ in range(600):
            await pilot.pause()
            if isinstance(app.screen, TextScreen):
                break
            if not session.human_to_move:
                continue
            await pilot.pause()
            hand = session.hand
            phase = hand.phase
            if phase not in acted or phase != PLAY or len(hand.tricks) in (1, 9):
                seen.append(widget_text(app.query_one("#table")))
                seen.append(widget_text(app.query_one("#prompt")))
            acted.add(phase)
            choice = person_choice(session, bid)
            if phase == AUCTION:
                button = next(
                    b for b in app.query_one("#bidbox").query(Button) if b.name == f"bid-{choice}"
                )
                assert not button.disabled
                box = list(app.query_one("#bidbox").query(Button))
                check_on_screen(app, box)  # the whole bid box, house calls included
                seen += [str(b.label) for b in box if not b.disabled]
                button.focus()
                await pilot.pause()
                await pilot.press("enter")
            elif phase == DISCARD:
                # Mark the cards the line mode discards (Enter on each) and press d.
                marked = session.legal_actions()[: hand.discards_left]
                for widget in app.query_one("#hand", HandRow).query(CardWidget):
                    if widget.card in marked:
                        widget.focus()
                        await pilot.pause()
                        await pilot.press("enter")
                await pilot.press("d")
            elif phase in CHOICE_PHASES:
                buttons = list(app.query_one("#choices").query(Button))
                check_on_screen(app, list(buttons))
                wanted = next(b for b in buttons if b.name == f"choice-{choice}")
                seen.append(str(wanted.label))
                wanted.focus()
                await pilot.pause()
                await pilot.press("enter")
            elif phase in CARD_PHASES:
                cards = list(app.query_one("#hand", HandRow).query(CardWidget))
                check_on_screen(app, list(cards))
                await pilot.press("enter")
            elif phase == PLAY and choice == CLAIM:
                buttons = list(app.query_one("#choices").query(Button))
                check_on_screen(app, list(buttons))
                seen += [str(b.label) for b in buttons]
                await pilot.press("c")
            elif phase == PLAY and choice < JOKER_LEAD_BASE:
                card = next(
                    w for w in app.query_one("#hand", HandRow).query(CardWidget) if w.card == choice
                )
                card.focus()
                await pilot.pause()
                await pilot.press("enter")
            else:
                await pilot.press("enter", "enter")  # a card (and a joker lead's suit)
        else:
            raise AssertionError("the hand did not end")
        assert isinstance(app.screen, TextScreen) and "is over" in app.screen.title_text
        seen.append(str(app.screen.body))
    return acted, "\n".join(seen)


FULL_CASES = [pytest.param(case, id=case.name) for case in CASES if case.name in FULL_SCREEN]


@pytest.mark.asyncio
@pytest.mark.parametrize("case", FULL_CASES)
async def test_house_contracts_and_phases_in_full_screen(case: Case) -> None:
    for seed in case.seeds[:2]:
        session = new_session(case.preset, case.variants, seed)
        acted, seen = await play_full_screen(session, case.bid)
        hand = session.game.finished_hands[0]
        if case.check(hand):
            break
    else:
        raise AssertionError(f"{case.name}: the person's contract was never reached")
    for phase in case.phases:
        assert phase in acted, (phase, acted)
    assert case.label.lower() in seen.lower(), seen[-3000:]
    if case.name == "patastrophe":
        for short in ("hilo", "dbl", "shld", "pat"):  # every house call has its button
            assert f"\n{short}\n" in f"\n{seen}\n", short
    assert not BARE_NUMBER.search(seen), BARE_NUMBER.search(seen)
    assert Session.resume().record() == session.record()


# --------------------------------------------------------------------------- the partner's card, the defender's pick
def bring_to(session: Session, phase: str, contractor: int, contract: Action) -> None:
    """Make the moves (the person's and the computer players') up to ``phase``:
    ``contractor`` bids ``contract``, the others pass; the face-up cards, the kitty and the
    slam call take the first legal choice (slam for the contractor)."""
    while session.hand.phase != phase:
        hand = session.hand
        seat = session.to_move
        legal = session.game.legal_actions()
        if hand.phase == AUCTION:
            action = contract if seat == contractor and contract in legal else PASS
        elif hand.phase == SLAM_CALL:
            action = SLAM
        else:
            action = legal[0]
        if seat == HUMAN:
            session.play(action)
        else:
            session.apply_computer(seat, action)


@pytest.mark.asyncio
async def test_the_person_passes_a_card_to_a_partner_who_calls_slam() -> None:
    session = new_session("australian", {"slam_call": True}, 3)
    bring_to(session, SLAM_PASS, 2, SEVEN_NT)
    assert session.human_to_move and session.hand.slam_partner == HUMAN
    before = session.hand.hands[HUMAN]
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        # the vocabulary's prompt, the same words as the line mode's
        assert "pass them a card" in widget_text(app.query_one("#prompt"))
        cards = list(app.query_one("#hand", HandRow).query(CardWidget))
        check_on_screen(app, list(cards))
        assert all(card.reason is None for card in cards)
        await pilot.press("enter")
        for _ in range(300):  # the person sits out: the others play the hand
            await pilot.pause()
            if isinstance(app.screen, TextScreen):
                break
        assert isinstance(app.screen, TextScreen) and "is over" in app.screen.title_text
    hand = session.game.finished_hands[0]
    assert hand.slam_card >= 0 and before >> hand.slam_card & 1
    assert hand.tricks_won[HUMAN] == 0 and hand.slam_partner == HUMAN


def test_the_person_passes_a_card_in_line_mode() -> None:
    session = new_session("australian", {"slam_call": True}, 3)
    bring_to(session, SLAM_PASS, 2, SEVEN_NT)
    text = play_plain(session, None)
    assert "Your partner calls slam: pass them a card" in text and "You pass " in text
    assert session.game.finished_hands[0].slam_card >= 0


@pytest.mark.asyncio
async def test_the_defender_takes_a_face_up_card_and_discards() -> None:
    session = new_session("two_handed", {"open_eight": True}, 3)
    bring_to(session, TABLE_TAKE, 1, bid_action(6, 0))
    assert session.human_to_move
    face_up = session.hand.hands[2]
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        assert "Face-up cards" in widget_text(app.query_one("#table"))
        buttons = list(app.query_one("#choices").query(Button))
        check_on_screen(app, list(buttons))
        assert len(buttons) == face_up.bit_count()
        await pilot.press("enter")  # the first face-up card has the focus
        await pilot.pause()
        assert session.hand.phase == TABLE_DISCARD
        taken = session.hand.table_card
        assert face_up >> taken & 1 and session.hand.hands[HUMAN] >> taken & 1
        prompt = " ".join(widget_text(app.query_one("#prompt")).split())
        label = card_label(taken, session.rules.joker_names)
        assert f"Discard a card for the one you took ({label})" in prompt
        await pilot.press("enter")  # a card of the hand
        await pilot.pause()
        assert session.hand.table_discard >= 0 and session.hand.phase in (PLAY, "nominate")


def test_the_defender_takes_and_discards_in_line_mode() -> None:
    session = new_session("two_handed", {"open_eight": True}, 3)
    bring_to(session, TABLE_TAKE, 1, bid_action(6, 0))
    text = play_plain(session, None)
    assert "Take a face-up card" in text and "from the table" in text
    assert "Discard a card for the one you took" in text
    assert session.game.finished_hands[0].table_discard >= 0


# --------------------------------------------------------------------------- words and options
def test_every_action_has_words() -> None:
    words = {
        HI_LO: "hi/lo",
        DOUBLE_MISERE: "double misère",
        SHIELDS_DOUBLE: "shields double",
        PATASTROPHE: "patastrophe",
        SLAM: "slam",
        NO_SLAM: "no slam",
        CLAIM: "claim",
        DRAW_KEEP: "keep",
        DRAW_THROW: "throw",
    }
    for action, text in words.items():
        assert render.action_label(action) == text
    for action in range(NUM_ACTIONS):
        assert not render.action_label(action).isdigit(), action


@pytest.mark.asyncio
async def test_the_options_list_every_variant_with_its_help_line() -> None:
    app = FiveHundredApp(options_at_start=True)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, OptionsScreen)
        for name, help_line in VARIANT_HELP.items():
            if name in VALUE_VARIANTS:  # a field (the scoring tables: the Scoring list)
                continue
            box = screen.query_one(f"#v-{name}")
            if box.disabled:  # refused by these rules: the reason instead, the help kept
                assert "✗" in str(box.label) and help_line in str(box.tooltip)  # type: ignore[attr-defined]
            else:
                assert help_line in str(box.label) and box.tooltip == help_line  # type: ignore[attr-defined]
        box = screen.query_one("#v-patastrophe")
        box.focus()
        await pilot.pause()
        shown = widget_text(screen.query_one("#variant-help"))
        assert shown.startswith("patastrophe: ") and "both hands open" in shown


def test_the_pad_scores_the_house_contracts() -> None:
    variants = dict.fromkeys(HOUSE_CALLS, True)
    rules = make_rules("australian", variants)
    allowed = allowed_contracts(rules)
    assert all(call in allowed for call in (HI_LO, DOUBLE_MISERE, SHIELDS_DOUBLE, PATASTROPHE))
    assert HI_LO not in allowed_contracts(make_rules("australian"))
    pad = new_pad(["Ann", "Bob", "Cat", "Dan"], "australian", variants)
    pad["hands"] = [
        {"kind": "hand", "contract": "hi_lo", "contractor": 0, "tricks": 5},
        {"kind": "hand", "contract": "double_misere", "contractor": 1, "tricks": 1},
        {"kind": "hand", "contract": "hi_lo", "contractor": 0, "tricks": 5, "revoke": "contractor"},
    ]
    result = score_pad(pad)
    assert [line.points for line in result.lines] == [[350, 50], [0, -450], [-350, 50]]
    assert result.lines[0].reasons[0].startswith("hi/lo by Ann made")
    assert result.lines[1].reasons[0].startswith("double misère by Bob failed")
