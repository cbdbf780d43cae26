"""``fivehundred play --plain``: the game over a pipe, for scripts and screen readers."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from fivehundred.actions import PASS, action_text
from fivehundred.game import HandState
from fivehundred.tui import render, storage
from fivehundred.tui.cli import play_main, show_main
from fivehundred.tui.plain import PlainGame, history_lines
from fivehundred.tui.session import Session, Settings

SRC = str(Path(__file__).resolve().parents[1] / "src")


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(storage.ENV_DATA_DIR, str(tmp_path))
    return tmp_path


def run_plain(lines: list[str], seed: int = 3) -> tuple[Session, str]:
    session = Session.new(Settings(seed=seed, speed=0))
    out = io.StringIO()
    status = PlainGame(session, io.StringIO("\n".join(lines) + "\n"), out).run()
    assert status == 0
    return session, out.getvalue()


def test_piped_commands_through_the_real_command(data_dir: Path) -> None:
    """The command falls back to line mode on a pipe, reprompts with the rule, and stops
    cleanly at the end of input with the game saved."""
    env = {**os.environ, storage.ENV_DATA_DIR: str(data_dir), "PYTHONPATH": SRC}
    commands = "pass\nhint\nfoo\nAS\nKS\nscore\n"
    result = subprocess.run(
        [sys.executable, "-m", "fivehundred", "play", "--seed", "3"],
        input=commands,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Your bid" in out
    assert "You pass." in out
    assert "Hint:" in out
    assert "Not understood: not a card: 'foo'" in out
    assert "End of input: the game is saved" in out
    assert "Traceback" not in out + result.stderr
    saved = json.loads((data_dir / "current-game.json").read_text())
    assert saved["format"] == "fivehundred-game/1"


def test_an_illegal_card_is_refused_with_the_rule_and_reprompted() -> None:
    session = Session.new(Settings(seed=2, speed=0))
    # Find the first time South must follow suit holding a card that may not be played.
    out = io.StringIO()
    game = PlainGame(session, io.StringIO(""), out)
    for _ in range(300):
        if session.pending_summary is not None:
            session.dismiss_summary()
        elif session.human_to_move:
            hand = session.hand
            legal = session.legal_actions()
            illegal = [c for c in range(64) if hand.hands[0] >> c & 1 and c not in legal]
            if hand.phase == "play" and hand.trick_cards and illegal:
                break
            session.play(74 if 74 in legal else legal[0])
        else:
            session.step_computer()
    from fivehundred.cards import card_text

    before = list(session.hand.history)
    game.command(card_text(illegal[0]))
    assert "Not allowed:" in out.getvalue()
    assert "(R-PLAY)" in out.getvalue() or "(R-JOKER)" in out.getvalue()
    assert session.hand.history == before
    game.command(card_text(legal[0]))
    assert session.hand.history[len(before)] == legal[0]


def test_undo_and_quit_in_line_mode() -> None:
    _, text = run_plain(["pass", "pass", "pass", "undo", "quit"])
    assert "Taken back." in text or "Nothing of yours" in text
    assert "The game is saved" in text


def test_a_game_to_the_end_over_a_pipe() -> None:
    """Pass every auction and play the first legal card: the game finishes and the record
    can be replayed with show."""
    session = Session.new(Settings(seed=7, speed=0, variants={"target": 200}))
    out = io.StringIO()

    class Auto(io.StringIO):
        def readline(self, size: int = -1) -> str:
            if not session.human_to_move:
                return ""
            legal = session.legal_actions()
            from fivehundred.actions import action_text

            return ("pass" if 74 in legal else action_text(legal[0])) + "\n"

    assert PlainGame(session, Auto(), out).run() == 0
    assert session.is_over
    assert "== Game over" in out.getvalue()
    assert show_main(["--plain", str(session.last_archive)]) == 0


def test_resume_of_a_damaged_save_is_a_message_not_a_traceback(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (data_dir / "current-game.json").write_text("{broken")
    assert play_main(["--resume", "--plain"]) == 2
    err = capsys.readouterr().err
    assert "cannot resume" in err and "damaged" in err
    assert "Traceback" not in err


def test_resume_continues_in_line_mode(data_dir: Path) -> None:
    session, _ = run_plain(["pass"], seed=5)
    history = list(session.hand.history)
    resumed = Session.resume()
    assert resumed.hand.history[: len(history)] == history
    assert resumed.record() == session.record()


def test_show_of_a_bad_file(capsys: pytest.CaptureFixture[str], data_dir: Path) -> None:
    path = data_dir / "bad.json"
    path.write_text('{"format": "fivehundred-game/1", "first_dealer": 0, "hands": 3}')
    assert show_main(["--plain", str(path)]) == 2
    assert "hands" in capsys.readouterr().err


def test_the_review_offered_at_the_last_hand_stays_open_after_the_game() -> None:
    """The last hand's summary offers 'hands' and 'review': once the game is over they
    still answer (until 'quit'), instead of the game ending before they can be typed."""
    from fivehundred.actions import PASS, action_text
    from fivehundred.game import AUCTION, DISCARD

    # 10NT bid at once and played badly by the random players: -520 ends the game.
    session = Session.new(Settings(seed=11, speed=0, opponents="random", partner="random"))
    after = iter(["hands", "score", "move AS", "review", "quit", "never read"])

    class Person(io.StringIO):
        def readline(self, size: int = -1) -> str:
            if session.is_over:
                return next(after) + "\n"
            legal = session.legal_actions()
            if session.hand.phase == DISCARD:
                return " ".join(action_text(a) for a in legal[: session.hand.discards_left]) + "\n"
            if session.hand.phase == AUCTION:
                return action_text([a for a in legal if a != PASS][-1]) + "\n"
            return action_text(legal[0]) + "\n"

    out = io.StringIO()
    assert PlainGame(session, Person(), out).run() == 0
    assert session.is_over
    text = out.getvalue()
    offer = text.index("'review' for the double-dummy review")
    assert offer < text.index("== Game over")
    after_the_game = text[text.index("== Game over") :]
    assert "The last hand as dealt:" in after_the_game
    assert "Double-dummy review of the last hand" in after_the_game
    assert "The game is over: 'review'" in after_the_game
    assert next(after) == "never read"


def test_both_jokers_nominations_are_shown() -> None:
    """The French-Canadian pack has two jokers: each one's nominated suit is named."""
    from fivehundred.rules import make_rules
    from fivehundred.tui import render

    french, one = make_rules("french_canadian"), make_rules()
    two = make_rules("australian", {"two_jokers": True})
    assert render.joker_nominations(one, (0, -1)) == "joker is ♠"
    assert render.joker_nominations(two, (0, 3)) == "JKR is ♠, JKB is ♥"
    # the French-Canadian higher joker is the white one, written JKW (R-HOUSE)
    assert render.joker_nominations(french, (0, 3)) == "JKR is ♠, JKW is ♥"
    assert render.joker_nominations(french, (-1, 2)) == "JKW is ♦"
    assert render.joker_nominations(french, (-1, -1)) == ""


def test_the_french_canadian_white_joker_is_written_jkw_on_the_screens() -> None:
    """Records write the French-Canadian white joker ``JKW``; the terminal game writes it
    the same way wherever it shows a card: the hand, a played card, a refusal."""
    from fivehundred.cards import JOKER_BLACK, mask_of
    from fivehundred.messages import card_symbols
    from fivehundred.rules import make_rules
    from fivehundred.tui import render

    french = make_rules("french_canadian")
    assert render.card_label(JOKER_BLACK, french.joker_names) == "JKW"
    assert render.action_label(JOKER_BLACK, french.joker_names) == "JKW"
    assert "JKW" in render.cards_text(mask_of([JOKER_BLACK]), None, french.joker_names)
    assert card_symbols("JKW cannot be played", french.joker_names) == "JKW cannot be played"
    assert (
        render.card_label(JOKER_BLACK, make_rules("australian", {"two_jokers": True}).joker_names)
        == "JKB"
    )


def test_the_review_and_the_summary_speak_card_language() -> None:
    import random

    from fivehundred.actions import PASS
    from fivehundred.tui import render
    from fivehundred.words import play_label

    # The review's joker leads (record notation in the analysis) as the rules name them.
    assert [play_label(text, True) for text in ("JK>S", "JKB>H", "10H")] == [
        "JKR as ♠",
        "JKB as ♥",
        "10♥",
    ]
    assert [render.points_text(p) for p in (0, 40, -120)] == ["0", "+40", "-120"]
    # Seed 22: the others fail a 500 contract and this side scores nothing, written "0".
    session = Session.new(Settings(seed=22, speed=0, opponents="random", partner="random"))
    rng = random.Random(22)
    while not session.game.finished_hands:
        if session.human_to_move:
            legal = session.legal_actions()
            session.play(PASS if PASS in legal else rng.choice(legal))
        else:
            session.step_computer()
    hand, totals = session.game.finished_hands[0], session.game.score_history[0]
    lines = render.hand_summary_lines(hand, totals)
    points = next(line for line in lines if line.startswith("Points:"))
    assert points == "Points: You & North 0, West & East -500."


def test_the_table_text_writes_the_white_joker_jkw() -> None:
    """The line mode's table shows a French-Canadian hand holding the white joker as
    ``JKW``, never ``JKB`` (R-HOUSE french_canadian)."""
    from fivehundred.cards import JOKER_BLACK
    from fivehundred.game import GameState
    from fivehundred.rules import make_rules
    from fivehundred.tui import render

    french = make_rules("french_canadian")
    for seed in range(200):
        game = GameState(french, seed, first_dealer=3)
        if game.hand.hands[0] >> JOKER_BLACK & 1:
            break
    else:
        raise AssertionError("no deal gave South the white joker")
    text = "\n".join(render.table_lines(game.observation(0), game))
    assert "JKW" in text and "JKB" not in text


def test_the_review_of_a_two_handed_hand() -> None:
    """Two-handed: the review rebuilds the dummies' deal (once "zip() argument 2 is shorter
    than argument 1", a traceback in line mode)."""
    from fivehundred.actions import PASS
    from fivehundred.tui.plain import review_lines

    session = Session.new(
        Settings(preset="two_handed", seed=9, speed=0, opponents="random", partner="random")
    )
    while not session.game.finished_hands:
        if session.pending_summary is not None:
            session.dismiss_summary()
        elif session.human_to_move:
            legal = session.legal_actions()
            session.play(
                legal[-1]
                if session.hand.phase == "auction" and PASS in legal and len(legal) > 1
                else legal[0]
            )
        else:
            session.step_computer()
    lines = review_lines(session)
    assert lines[0].startswith("Double-dummy review"), lines
    assert any("Double-dummy from the first lead" in line for line in lines)


def test_the_game_over_message_says_the_game_ended_by_going_out_backwards() -> None:
    """R-GAME: a game that ends because a side went out backwards says so; a game won at
    the target does not."""
    from fivehundred.tui.plain import game_end_text

    session = Session.new(Settings(preset="three_handed", seed=4, speed=0))
    game = session.game
    game.scores, game.winner = [120, -510, 300], 2
    out = io.StringIO()
    PlainGame(session, io.StringIO(""), out).game_over()
    text = out.getvalue()
    assert "== Game over: East wins ==" in text
    assert "West went out backwards at -510; the game ended there (R-GAME)." in text
    game.scores, game.winner = [520, -510, 300], 0
    assert game_end_text(session) == ""


@pytest.mark.parametrize("two_jokers", [False, True])
def test_every_printed_move_is_read_back(two_jokers: bool) -> None:
    """Every action as the game prints it (``5♠``, ``7♣``, ``open misère``, ``no slam``,
    ``joker is ♠``, ``JK as ♠``, ``calls A♥ as partner``…) reads back as that action, and
    so does the same without accents, in capitals."""
    import unicodedata

    from fivehundred.actions import NUM_ACTIONS, action_text
    from fivehundred.errors import FiveHundredError
    from fivehundred.tui import render
    from fivehundred.tui.plain import move_tokens
    from fivehundred.words import parse

    checked = 0
    for action in range(NUM_ACTIONS):
        if 103 + 4 * (not two_jokers) <= action < 111 or (two_jokers and 103 <= action < 111):
            continue  # the second joker's nominations (JKB:S), typed in record notation
        try:
            action_text(action, two_jokers)
        except FiveHundredError:
            continue  # no action has this number
        label = render.action_label(action, two_jokers)
        bare = "".join(
            c for c in unicodedata.normalize("NFKD", label) if not unicodedata.combining(c)
        ).upper()
        for text in (label, bare):
            tokens = move_tokens(text, two_jokers)
            assert len(tokens) == 1, (text, tokens)
            assert parse(tokens[0], [action], two_jokers) == action, (text, tokens)
            # two moves on one line are two tokens
            assert move_tokens(f"{text} {text}", two_jokers) == [text, text]
        checked += 1
    assert checked > 150
    assert move_tokens("4♠ 5♠ 6♣") == ["4♠", "5♠", "6♣"]
    assert move_tokens("open misère  no slam JK as ♠") == ["open misère", "no slam", "JK as ♠"]


def test_the_hints_own_words_typed_back_make_the_move() -> None:
    """A whole hand typed as the hint prints it (``Hint: 5♠ — …`` → ``5♠``)."""
    from fivehundred.tui import render

    session = Session.new(Settings(seed=3, speed=0, variants={"slam_call": True}))
    typed: list[str] = []

    class Person(io.StringIO):
        def readline(self, size: int = -1) -> str:
            if session.game.finished_hands or not session.human_to_move:
                return ""
            action, _ = session.hint()
            typed.append(render.action_label(action, session.rules.joker_names))
            return typed[-1] + "\n"

    out = io.StringIO()
    assert PlainGame(session, Person(), out).run() == 0
    assert session.game.finished_hands, out.getvalue()[-2000:]
    assert "Not understood" not in out.getvalue()
    assert any("♠" in t or "♣" in t or "♦" in t or "♥" in t for t in typed)


def test_the_hand_heading_comes_first_and_long_lists_wrap_between_bids() -> None:
    """The computers' first bids come after ``— Hand 1 …``, and the long list of legal
    bids wraps at 80 columns between bids, never inside one."""
    _, text = run_plain(["pass", "quit"], seed=5)
    lines = text.splitlines()
    first_move = next(i for i, line in enumerate(lines) if " bids " in line or "passes" in line)
    assert any(line.startswith("— Hand 1 · dealer") for line in lines[:first_move])
    start = next(i for i, line in enumerate(lines) if line.startswith("Your bid — legal:"))
    prompt = [lines[start]]
    while lines[start + len(prompt)].startswith("    "):
        prompt.append(lines[start + len(prompt)])
    assert len(prompt) > 1 and all(len(line) <= 80 for line in prompt)
    words = " ".join(prompt).split()
    assert {"6NT", "10NT", "open_misere", "pass"} <= set(words)


def test_a_long_hand_heading_fits_80_columns_without_a_lone_dash() -> None:
    """With scores like -280 the heading is too long for its closing dash: it is left off
    (wrapped, it stood alone on a line of its own)."""
    session = Session.new(Settings(seed=5, speed=0))
    session.game.scores = [-280, 40]
    out = io.StringIO()
    assert PlainGame(session, io.StringIO("quit\n"), out).run() == 0
    lines = out.getvalue().splitlines()
    heading = next(line for line in lines if line.startswith("— Hand 1 ·") and "score" in line)
    assert heading.endswith("(game to 500)") and len(heading) <= 80
    assert not any(line.strip() == "—" for line in lines)
    _, text = run_plain(["quit"], seed=5)  # a short heading keeps its dash
    assert any(
        line.startswith("— Hand 1 ·") and "score" in line and line.endswith(") —")
        for line in text.splitlines()
    )


def five_handed_game_ended_backwards() -> tuple[Session, str]:
    """A five-handed game played in line mode until the contractor and the called partner
    go out backwards together; the session and what line mode printed."""
    session = Session.new(
        Settings(preset="five_handed", seed=2, speed=0, opponents="random", partner="random")
    )
    session.game.scores = [-490] * 5  # the first contract that fails ends the game

    class Person(io.StringIO):
        def readline(self, size: int = -1) -> str:
            if session.is_over:
                return ""
            legal = session.legal_actions()
            bids = [a for a in legal if a != PASS]
            if session.hand.phase == "auction" and bids:
                return action_text(bids[-1], session.rules.joker_names) + "\n"  # the highest
            return action_text(legal[0], session.rules.joker_names) + "\n"

    out = io.StringIO()
    assert PlainGame(session, Person(), out).run() == 0
    return session, out.getvalue()


def test_a_five_handed_game_ended_backwards_says_why_once(data_dir: Path) -> None:
    """R-GAME, five players: the game that ends when a player goes out backwards says so
    exactly once (with the winner), and announces no hand after the last one."""
    session, text = five_handed_game_ended_backwards()
    assert session.is_over
    assert text.count("went out backwards") == 1, text[-3000:]
    out_sides = [
        render.side_name(session.rules, side)
        for side in range(5)
        if session.game.scores[side] <= -500
    ]
    assert len(out_sides) == 2  # the contractor and the called partner went down together
    assert f"{out_sides[0]} and {out_sides[1]} went out backwards at" in text
    assert text.count("== Game over:") == 1
    finished = len(session.game.finished_hands)
    assert f"— Hand {finished + 1} ·" not in text  # no heading for a hand never played


@pytest.mark.asyncio
async def test_the_full_screen_game_over_says_why_once(data_dir: Path) -> None:
    """The same game in the full-screen game: its game-over box gives the reason once."""
    from fivehundred.tui.app import FiveHundredApp, TextScreen

    session, _ = five_handed_game_ended_backwards()
    app = FiveHundredApp(session, options_at_start=False)
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(20):
            await pilot.pause()
            if isinstance(app.screen, TextScreen):
                break
        screen = app.screen
        assert isinstance(screen, TextScreen) and screen.title_text == "Game over"
        body = str(screen.body)
        assert body.count("went out backwards") == 1, body
        assert body.count(" wins!") + body.count(" win!") == 1, body


def test_the_help_fits_80_columns_and_its_printed_forms_are_read() -> None:
    """Every line of ``help`` fits a dumb terminal, and it names the printed forms that
    are read back (test_every_printed_move_is_read_back reads them)."""
    from fivehundred.tui.plain import HELP

    assert max(len(line) for line in HELP.splitlines()) <= 80
    _, text = run_plain(["help", "quit"])
    assert "JK as ♠  joker is ♠  calls A♥ as partner" in text


def test_the_story_of_a_hand_with_a_ralphed_dealer() -> None:
    """R-HOUSE ralphing: the story of a hand whose dealer is barred tells the dealer's pass
    (the replay, rebuilt from the deal without the barred seats, refused it although
    dealer_must_bid does not hold a barred dealer)."""
    variants = {"ralphing": True, "dealer_must_bid": True}
    session = Session.new(Settings(seed=4, speed=0, variants=variants))
    hand = HandState.deal(session.rules, 0, 4, barred=(0,))
    while hand.phase == "auction":
        hand.apply(PASS)
    lines = history_lines(session, hand, 2)
    assert len(lines) >= 4
    assert lines[3].startswith("You pass.")
