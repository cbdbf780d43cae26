"""The game behind the terminal interface: saving after every action, resuming, undo,
hints, and what happens to a damaged save."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from fivehundred.actions import PASS
from fivehundred.errors import IllegalActionError
from fivehundred.game import PLAY
from fivehundred.record import replay_game
from fivehundred.tui import storage
from fivehundred.tui.session import (
    HUMAN,
    Session,
    Settings,
    default_bot,
)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(storage.ENV_DATA_DIR, str(tmp_path))
    return tmp_path


def drive(session: Session, rng: random.Random, human_moves: int) -> None:
    """Play on: the computer players, and for the person a pass in the auction (so the
    game lasts) and random legal cards. Stops when the person is to move after
    ``human_moves`` moves of theirs."""
    made = 0
    while not session.is_over:
        if session.pending_summary is not None:
            session.dismiss_summary()
        elif session.human_to_move:
            if made == human_moves:
                return  # stop where the person is to move
            legal = session.legal_actions()
            session.play(PASS if PASS in legal else legal[rng.randrange(len(legal))])
            made += 1
        else:
            session.step_computer()


def test_data_dir_comes_from_the_environment(data_dir: Path) -> None:
    assert storage.data_dir() == data_dir
    session = Session.new(Settings(seed=7, speed=0))
    assert session.path == data_dir / "current-game.json"
    assert session.path.exists()


def test_every_action_is_saved_as_a_game_record_that_replays() -> None:
    session = Session.new(Settings(seed=11, speed=0))
    rng = random.Random(1)
    for _ in range(6):
        drive(session, rng, 3)
        saved = json.loads(session.path.read_text())
        assert saved["format"] == "fivehundred-game/1"
        assert saved["seed"] == 11
        replayed = replay_game(saved)
        assert replayed.hand.history == session.game.hand.history or session.game.hand.history == []
        assert replayed.scores == session.game.scores
        assert saved["players"] == ["human", *[default_bot()] * 3]


def test_resume_continues_exactly_as_an_uninterrupted_game() -> None:
    """Computer decisions are seeded by the position, so a resumed game goes the same way."""

    def play(stop: int | None) -> dict[str, object]:
        session = Session.new(Settings(seed=5, speed=0))
        rng = random.Random(3)
        moves = 0
        while not session.is_over and moves < 60:
            drive(session, rng, 1)
            moves += 1
            if moves == stop:
                session = Session.resume()
        return session.record()

    assert play(None) == play(25)


def test_resume_after_a_hand_deals_the_next_hand_from_the_game_seed() -> None:
    session = Session.new(Settings(seed=9, speed=0))
    rng = random.Random(2)
    while not session.game.finished_hands and not session.is_over:
        drive(session, rng, 1)
    if session.is_over:
        pytest.skip("the game ended in one hand")
    session.dismiss_summary()
    resumed = Session.resume()
    assert resumed.hand.dealt == session.hand.dealt
    assert resumed.game.scores == session.game.scores


def test_undo_takes_back_the_last_card_and_the_replies() -> None:
    session = Session.new(Settings(seed=21, speed=0))
    rng = random.Random(4)
    for _ in range(100):
        if session.human_to_move and session.hand.phase == PLAY and session.hand.tricks:
            break
        drive(session, rng, 1)
    assert not session.is_over
    before = list(session.hand.history)
    card = session.legal_actions()[0]
    session.play(card)
    while session.computer_to_move:
        session.step_computer()
    assert session.undo()
    assert session.hand.history == before
    assert session.human_to_move
    saved = replay_game(json.loads(session.path.read_text()))
    assert saved.hand.history == before
    # The same card again: the computer players answer as before (seeded decisions).
    session.play(card)
    replies = []
    while session.computer_to_move:
        replies.append(session.step_computer().action)
    session.undo()
    session.play(card)
    again = []
    while session.computer_to_move:
        again.append(session.step_computer().action)
    assert again == replies


def test_illegal_action_names_the_rule_and_changes_nothing() -> None:
    session = Session.new(Settings(seed=3, speed=0))
    rng = random.Random(5)
    found = False
    for _ in range(400):
        if session.is_over:
            break
        if session.human_to_move and session.hand.phase == PLAY and session.hand.trick_cards:
            hand = session.hand.hands[HUMAN]
            legal = set(session.legal_actions())
            illegal = [c for c in range(64) if hand >> c & 1 and c not in legal]
            if illegal:
                history = list(session.hand.history)
                with pytest.raises(IllegalActionError) as caught:
                    session.play(illegal[0])
                assert "R-PLAY" in str(caught.value) or "R-JOKER" in str(caught.value)
                assert session.hand.history == history
                assert "must follow" in (session.illegal_reason(illegal[0]) or "") or "joker" in (
                    session.illegal_reason(illegal[0]) or ""
                )
                found = True
                break
        drive(session, rng, 1)
    assert found


def test_hint_offers_a_legal_move_with_a_reason() -> None:
    session = Session.new(Settings(seed=8, speed=0))
    while not session.human_to_move:
        session.step_computer()
    action, why = session.hint()
    assert action in session.legal_actions()
    assert why


@pytest.mark.parametrize(
    "content", ["{not json", '{"format": "fivehundred-game/1"}', '"just a string"', "\xff\xfe"]
)
def test_a_damaged_save_gives_a_clear_message(data_dir: Path, content: str) -> None:
    path = data_dir / "current-game.json"
    path.write_text(content, encoding="latin-1")
    with pytest.raises(storage.SaveError) as caught:
        Session.resume()
    assert "damaged" in str(caught.value)
    assert str(path) in str(caught.value)


def test_resume_without_a_save(data_dir: Path) -> None:
    with pytest.raises(storage.SaveError, match="no saved game"):
        Session.resume()


def test_a_new_game_puts_an_unfinished_one_aside(data_dir: Path) -> None:
    first = Session.new(Settings(seed=1, speed=0))
    drive(first, random.Random(0), 2)
    old = json.loads(first.path.read_text())
    Session.new(Settings(seed=2, speed=0))
    kept = list((data_dir / "games").glob("*unfinished*.json"))
    assert len(kept) == 1
    assert json.loads(kept[0].read_text()) == old


def test_atomic_write_leaves_no_temporary_files(data_dir: Path) -> None:
    target = data_dir / "x" / "file.json"
    storage.write_json_atomic(target, {"a": 1})
    storage.write_json_atomic(target, {"a": 2})
    assert json.loads(target.read_text()) == {"a": 2}
    assert [p.name for p in target.parent.iterdir()] == ["file.json"]


def test_a_finished_game_is_archived_and_replayable(data_dir: Path) -> None:
    session = Session.new(Settings(seed=4, speed=0, variants={"target": 100}))
    rng = random.Random(6)
    while not session.is_over:
        drive(session, rng, 50)
    assert session.last_archive is not None and session.last_archive.exists()
    game = replay_game(json.loads(session.last_archive.read_text()))
    assert game.winner == session.game.winner
