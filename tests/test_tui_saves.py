"""Saved games and bad input around ``fivehundred play`` and ``show``: the list of
unfinished games and resuming any of them, damaged and hostile files, an unusable data
directory, the line mode's commands, the card-language refusals, the solver's warm-up
notice, and what ``show`` labels and scores."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from fivehundred.actions import PASS, action_text, parse_action
from fivehundred.cards import parse_card
from fivehundred.errors import IllegalActionError, Refusal
from fivehundred.game import HandState
from fivehundred.messages import error_text
from fivehundred.record import hand_record
from fivehundred.rules import make_rules
from fivehundred.tui import render, storage
from fivehundred.tui.cli import play_main, show_main
from fivehundred.tui.plain import PlainGame
from fivehundred.tui.session import Session, Settings, unfinished_games
from fivehundred.tui.show import load_steps, steps_of


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(storage.ENV_DATA_DIR, str(tmp_path / "data"))
    return tmp_path / "data"


def stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(text))


def one_line_error(err: str) -> None:
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err


def test_every_unfinished_game_can_be_listed_and_resumed(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    first = Session.new(Settings(seed=11, speed=0))
    while not first.human_to_move:
        first.step_computer()
    first.play(PASS)
    second = Session.new(Settings(seed=22, speed=0))  # puts the first aside
    assert unfinished_games()[0].name == "current-game.json"
    assert len(unfinished_games()) == 2
    assert play_main(["--list"]) == 0
    listing = capsys.readouterr().out
    assert "1. current-game.json" in listing and "2. " in listing and "unfinished" in listing
    stdin(monkeypatch, "quit\n")
    assert play_main(["--plain", "--resume", "2"]) == 0
    resumed = Session.resume()
    done = first.hand.history
    assert resumed.seed == 11 and resumed.hand.history[: len(done)] == done
    # The game that was in the save file is kept in turn, and can come back.
    games = unfinished_games()
    assert len(games) == 2
    assert Session.reopen(games[1]).record() == second.record()
    stdin(monkeypatch, "quit\n")
    assert play_main(["--plain", "--resume", "7"]) == 2
    one_line_error(capsys.readouterr().err)


def test_a_damaged_save_is_moved_aside_and_the_game_starts(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir.mkdir(parents=True)
    (data_dir / "current-game.json").write_text('{"format": "fivehundred-game/1", "hands": 5}')
    stdin(monkeypatch, "quit\n")
    assert play_main(["--plain", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "damaged save was put aside" in out and "Seed 4" in out
    damaged = list((data_dir / "games").glob("*-damaged-*.json"))
    assert len(damaged) == 1 and json.loads(damaged[0].read_text())["hands"] == 5
    assert json.loads((data_dir / "current-game.json").read_text())["seed"] == 4


HOSTILE = {
    "deep": "[" * 1000 + "]" * 1000,
    "deep-object": '{"a":' * 1000 + "1" + "}" * 1000,
    "huge-integer": '{"format": "fivehundred-game/1", "first_dealer": ' + "9" * 5000 + "}",
    "long-integer": '{"format": "fivehundred-game/1", "rules": {"preset": "australian"}, '
    '"first_dealer": ' + "9" * 4000 + ', "hands": []}',
    "players": '{"format": "fivehundred-game/1", "first_dealer": 0, "hands": [], '
    '"players": [[[]]]}',
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_files_give_one_line(
    name: str, data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir.mkdir(parents=True)
    path = data_dir / "current-game.json"
    path.write_text(HOSTILE[name])
    stdin(monkeypatch, "quit\n")
    assert play_main(["--plain", "--resume"]) == 2
    err = capsys.readouterr().err
    one_line_error(err)
    assert "damaged" in err
    assert show_main(["--plain", str(path)]) == 2
    one_line_error(capsys.readouterr().err)
    # And a plain start keeps the file and plays.
    stdin(monkeypatch, "quit\n")
    assert play_main(["--plain", "--seed", "2"]) == 0
    assert "put aside" in capsys.readouterr().out


def test_an_unusable_data_directory_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    monkeypatch.setenv(storage.ENV_DATA_DIR, str(blocker))
    stdin(monkeypatch, "quit\n")
    assert play_main(["--plain"]) == 2
    err = capsys.readouterr().err
    one_line_error(err)
    assert str(blocker) in err and "not a directory" in err
    monkeypatch.setenv(storage.ENV_DATA_DIR, str(blocker / "below"))
    assert play_main(["--list"]) == 2
    one_line_error(capsys.readouterr().err)


def run_lines(session: Session, lines: list[str]) -> str:
    out = io.StringIO()
    assert PlainGame(session, io.StringIO("\n".join(lines) + "\n"), out).run() == 0
    return out.getvalue()


def test_line_mode_h_is_the_hint_and_extra_moves_are_refused_clearly() -> None:
    session = Session.new(Settings(seed=3, speed=0))
    text = run_lines(session, ["h", "?", "pass pass 7H", "p"])
    assert "Hint:" in text
    assert "Commands:" in text
    assert "Not made: pass 7H" in text  # the auction moved on after the first pass
    assert "No card has been played yet" in text or "Played so far" in text


def test_refusals_speak_card_language() -> None:
    error = IllegalActionError(
        "7S revokes: seat 0 must follow C",
        "R-PLAY",
        why=Refusal.REVOKE,
        card=parse_card("7S"),
        suit=1,
    )
    assert error_text(error) == "You must follow ♣: 7♠ is not a ♣ (R-PLAY)"
    outbid = IllegalActionError(
        "6H does not outrank 7S",
        "R-BID",
        why=Refusal.OUTBID,
        card=parse_action("6H", "auction"),
        against=parse_action("7S", "auction"),
    )
    assert error_text(outbid) == "6♥ is not higher than the bid to beat, 7♠ (R-BID)"
    other = IllegalActionError("seat 2 may not do that", "R-X")
    assert error_text(other, names=["South", "West", "North", "East"]) == (
        "North may not do that (R-X)"
    )


def test_illegal_cards_are_explained_in_card_language() -> None:
    session = Session.new(Settings(seed=2, speed=0))
    for _ in range(400):
        if session.pending_summary is not None:
            session.dismiss_summary()
        elif session.human_to_move:
            hand = session.hand
            legal = session.legal_actions()
            illegal = [c for c in range(64) if hand.hands[0] >> c & 1 and c not in legal]
            if hand.phase == "play" and hand.trick_cards and illegal:
                reason = session.illegal_reason(illegal[0]) or ""
                assert reason.startswith("You must follow") or "joker" in reason, reason
                assert "seat 0" not in reason and "(R-" in reason
                return
            session.play(PASS if PASS in legal else legal[0])
        else:
            session.step_computer()
    raise AssertionError("no illegal card came up")


def test_line_mode_says_the_solver_is_being_prepared(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    monkeypatch.setattr(Session, "needs_solver_warm_up", lambda self: not calls)
    monkeypatch.setattr(
        Session, "warm_up_solver", staticmethod(lambda progress=None: calls.append("warm"))
    )
    session = Session.new(Settings(seed=5, speed=0, variants={}))
    session.settings.seed = 5
    text = run_lines(session, ["quit"])
    assert calls == ["warm"]
    notice = text.index("Preparing the double-dummy solver")
    first_move = min(text.find(word) for word in ("passes", "bids") if word in text)
    assert notice < first_move


def test_show_labels_the_discards_and_scores_a_single_hand() -> None:
    rules = make_rules()
    state = HandState.deal(rules, 0, 9)
    while not state.is_over:
        legal = state.legal_actions()
        bids = [a for a in legal if a != PASS]
        state.apply(bids[0] if state.phase == "auction" and not state.history else legal[0])
    steps = steps_of(state)
    last = steps[-1]
    assert "hand over" in last.text
    assert last.scores == tuple(state.result.points)
    # The score names its sides, as the points do (not "60–-520").
    score = last.text.split("; score ")[1]
    assert score == ", ".join(
        f"{render.side_short(rules, side)} {points}" for side, points in enumerate(last.scores)
    )
    assert any(p != 0 for p in last.scores)
    record = hand_record(state)
    assert action_text(state.contract) in json.dumps(record)


@pytest.mark.asyncio
async def test_show_calls_the_discards_discards() -> None:
    from textual.geometry import Region

    from fivehundred.tui.show import ShowApp

    def shown() -> str:
        table = app.query_one("#table")
        strips = table.render_lines(Region(0, 0, table.region.width, table.region.height))
        return "\n".join(strip.text for strip in strips)

    rules = make_rules()
    state = HandState.deal(rules, 0, 9)
    state.apply(6 * 0 + 75)  # 6♠ from the first bidder
    while state.phase == "auction":
        state.apply(PASS)
    while state.phase == "discard":
        state.apply(state.legal_actions()[0])
    steps = steps_of(state)
    app = ShowApp(steps)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("end")
        assert "discards:" in shown() and "kitty:" not in shown()
        await pilot.press("home")
        assert "kitty:" in shown()


def test_the_double_dummy_review_of_a_hand_in_line_mode() -> None:
    session = Session.new(Settings(seed=8, speed=0))
    lines: list[str] = []

    class Person(io.StringIO):
        def readline(self, size: int = -1) -> str:
            if session.game.finished_hands and not lines:
                lines.append("review")
                return "review\n"
            if lines or not session.human_to_move:
                return ""
            legal = session.legal_actions()
            return ("pass" if PASS in legal else action_text(legal[0])) + "\n"

    out = io.StringIO()
    assert PlainGame(session, Person(), out).run() == 0
    text = out.getvalue()
    review = text[text.index("Double-dummy review") :]
    assert "seat 0" not in review and "Double-dummy from the first lead" in review


def test_computer_players_by_any_name_the_bots_know(capsys: pytest.CaptureFixture[str]) -> None:
    from fivehundred.tui.session import is_computer_player

    assert all(is_computer_player(n) for n in ("heuristic", "pimc:fast", "pimc:12", "random"))
    assert not any(is_computer_player(n) for n in ("human", "pimc:0", "nobody", 3))
    assert play_main(["--plain", "--opponents", "pimc:zero"]) == 2
    one_line_error(capsys.readouterr().err)
    settings = Settings.from_dict({"opponents": "pimc:fast", "partner": "human"})
    assert settings.opponents == "pimc:fast" and settings.partner != "human"


def test_list_shows_the_damaged_save_the_put_aside_message_points_to(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir.mkdir(parents=True)
    (data_dir / "current-game.json").write_text("{broken")
    stdin(monkeypatch, "quit\n")
    assert play_main(["--plain", "--seed", "4"]) == 0
    assert "'fivehundred play --list' lists" in capsys.readouterr().out
    damaged = next((data_dir / "games").glob("*-damaged-*.json"))
    assert play_main(["--list"]) == 0
    listing = capsys.readouterr().out
    assert "1. current-game.json" in listing
    assert "Damaged saves" in listing and str(damaged) in listing and "cannot be read" in listing
    line = next(line for line in listing.splitlines() if str(damaged) in line)
    assert line.count(str(damaged)) == 1 and line.endswith(")")  # the reason whole, once
    assert "cannot be read: the saved game is damaged (not valid JSON: " in line


def test_play_help_names_the_data_directory(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        play_main(["--help"])
    assert storage.ENV_DATA_DIR in capsys.readouterr().out


@pytest.mark.parametrize(
    ("player", "prepares"),
    [("hard", True), ("expert", True), ("pimc:fast", True), ("medium", False)],
)
def test_every_level_that_searches_announces_the_preparation(
    player: str, prepares: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The levels played by the solver (``hard``, ``expert``) prepare it as ``pimc`` does:
    the notice is not only for names starting with pimc."""
    solver = pytest.importorskip("fivehundred.solver")
    monkeypatch.setattr(solver, "is_compiled", lambda: False)
    session = Session.new(Settings(seed=5, speed=0, opponents=player, partner="medium"))
    assert session.needs_solver_warm_up() is prepares
    assert Session.new(
        Settings(seed=5, speed=0, opponents="medium", partner="medium")
    ).needs_solver_warm_up(review=True)


def test_the_line_mode_review_announces_the_preparation(monkeypatch: pytest.MonkeyPatch) -> None:
    solver = pytest.importorskip("fivehundred.solver")
    monkeypatch.setattr(solver, "is_compiled", lambda: False)
    calls: list[str] = []
    monkeypatch.setattr(
        Session, "warm_up_solver", staticmethod(lambda progress=None: calls.append("warm"))
    )
    session = Session.new(Settings(seed=5, speed=0, opponents="medium", partner="medium"))
    while not session.game.finished_hands:
        if session.human_to_move:
            session.play(PASS if PASS in session.legal_actions() else session.legal_actions()[0])
        else:
            session.step_computer()
    out = io.StringIO()
    PlainGame(session, io.StringIO(""), out).command("review")
    assert calls == ["warm"]
    assert "Preparing the double-dummy solver for the review" in out.getvalue()


def test_show_replays_a_hand_with_a_ralphed_dealer(tmp_path: Path) -> None:
    """R-HOUSE ralphing: ``show`` replays a hand whose dealer is barred (the dealer passes
    although dealer_must_bid; the replay, rebuilt from the deal without the barred seats,
    refused that pass with IllegalActionError)."""
    rules = make_rules("australian", {"ralphing": True, "dealer_must_bid": True})
    state = HandState.deal(rules, 0, 4, barred=(0,))
    while state.phase == "auction":
        state.apply(PASS)
    path = tmp_path / "barred.json"
    path.write_text(json.dumps(hand_record(state)))
    steps = load_steps(str(path))
    assert [step.state.barred for step in steps] == [(0,)] * 5
    assert steps[-1].text.startswith(f"{render.seat_name(rules, 0)} passes")
    assert steps[-1].state.history == state.history


def test_list_names_a_damaged_save_that_resume_refuses(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A save that cannot be read, not yet put aside: ``--resume`` refuses it, and
    ``--list`` lists it as damaged with the reason (once: "No unfinished games.")."""
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / "current-game.json").write_text("{broken")
    assert play_main(["--resume"]) == 2
    refused = capsys.readouterr().err
    assert "cannot resume" in refused
    assert play_main(["--list"]) == 0
    listing = capsys.readouterr().out
    assert "No unfinished games" not in listing
    assert "current-game.json is damaged and cannot be resumed (not valid JSON" in listing
    assert "not valid JSON" in listing and "'fivehundred play' puts it aside" in listing
