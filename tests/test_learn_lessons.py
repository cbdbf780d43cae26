"""The tutorial: every lesson played through ``fivehundred learn`` (the terminal), the
refusals it teaches included; progress kept in the data directory; lessons replayable."""

from __future__ import annotations

import io
import json

import pytest

from fivehundred.cards import JOKER_BLACK
from fivehundred.cli import main
from fivehundred.errors import FiveHundredError
from fivehundred.learn.lessons import LESSONS, LessonRun, compute
from fivehundred.learn.terminal import legal_words, parse_typed
from fivehundred.rules import make_rules
from fivehundred.text import call_text, play_text


def _typed_for(lesson: dict) -> tuple[list[str], list[str]]:  # type: ignore[type-arg]
    """What a learner types to go through the lesson (each invited refusal first, then a
    right answer), and the refusal words the table must say."""
    run = LessonRun(lesson)
    typed: list[str] = []
    refusals: list[str] = []
    for _ in range(300):
        if run.prompt() is None:
            return typed, refusals
        step = run.current()
        if step is None:  # the whole hand: take the hint
            answer = "!"
        elif "quiz" in step:
            answer = str(compute(step["compute"], run.rules)[0])
        else:
            for text, why in step.get("try", []):
                typed.append(text)
                refusals.append(why)
                assert any("refuses" in line for line in run.answer(text))
            state = run.state
            assert state is not None
            answer = next(
                t for t in step["you"] if parse_typed(t, state.phase) in state.legal_actions()
            )
        typed.append(answer)
        run.answer(answer)
    raise AssertionError(f"lesson {lesson['id']} does not end")


@pytest.fixture
def data_dir(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("FIVEHUNDRED_DATA_DIR", str(tmp_path))
    return tmp_path


def _learn(monkeypatch, capsys, argv: list[str], typed: list[str]) -> tuple[int, str, str]:  # type: ignore[no-untyped-def]
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{t}\n" for t in typed)))
    status = main(["learn", *argv])
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.mark.parametrize("number", range(1, len(LESSONS) + 1))
def test_every_lesson_plays_through_the_terminal(monkeypatch, capsys, data_dir, number) -> None:  # type: ignore[no-untyped-def]
    lesson = LESSONS[number - 1]
    typed, refusals = _typed_for(lesson)
    status, out, err = _learn(monkeypatch, capsys, ["--lesson", lesson["id"]], typed)
    assert status == 0, err
    assert f"Lesson {number}: {lesson['title']}" in out
    assert f"Lesson {number} done." in out
    # every line fits 80 columns, as in play --plain (the prompt's "> " is followed by
    # what the person typed, not echoed here)
    long = [line for line in out.splitlines() if len(line.removeprefix("> ")) > 80]
    assert not long, long
    low = " ".join(out.lower().split())  # a reason may be wrapped
    for why in refusals:
        assert "the table refuses: " in low and why.lower() in low, why
    progress = json.loads((data_dir / "learn-progress.json").read_text())
    assert progress["done"] == [lesson["id"]]


@pytest.mark.parametrize("lesson", LESSONS, ids=[entry["id"] for entry in LESSONS])
def test_every_answer_is_read_as_the_lesson_prints_it(lesson: dict) -> None:  # type: ignore[type-arg]
    """The moves typed back as the lesson writes them (its legal list and its replies:
    ``JK as ♦``, ``misère``, ``7♥``) make the move, as ``play --plain`` reads them; the
    short forms keep the refusals they teach (``JK`` alone asks which suit)."""
    run = LessonRun(lesson)
    for _ in range(300):
        if run.prompt() is None:
            return
        step = run.current()
        if step is None:
            answer = "!"
        elif "quiz" in step:
            answer = str(compute(step["compute"], run.rules)[0])
        else:
            state = run.state
            assert state is not None
            legal = state.legal_actions()
            action = next(a for t in step["you"] if (a := parse_typed(t, state.phase)) in legal)
            two = state.rules.two_jokers
            answer = play_text(action, two) if state.phase == "play" else call_text(action, two)
            assert answer in legal_words(state)
        said = run.answer(answer)
        assert not any("refuses" in line for line in said), (answer, said)
    raise AssertionError(f"lesson {lesson['id']} does not end")


def test_lessons_teach_refusals_of_every_kind() -> None:
    words = {
        why
        for lesson in LESSONS
        for step in lesson.get("script", [])
        if isinstance(step, dict)
        for _, why in step.get("try", [])
    }
    assert {
        "do not hold",
        "must follow",
        "not higher",
        "which suit",
        "must not have been led",
        "only when you have no",
    } <= words


def test_progress_next_lesson_and_replay(monkeypatch, capsys, data_dir) -> None:  # type: ignore[no-untyped-def]
    typed, _ = _typed_for(LESSONS[0])
    status, out, _ = _learn(monkeypatch, capsys, [], typed)
    assert status == 0 and "Lesson 1 done." in out
    status, out, _ = _learn(monkeypatch, capsys, ["--list"], [])
    assert out.splitlines()[0].startswith("✓ 1.") and out.splitlines()[1].startswith("  2.")
    status, out, _ = _learn(monkeypatch, capsys, [], [])  # the next lesson; input ends
    assert status == 0 and "Lesson 2:" in out and "Lesson 2 done." not in out
    status, out, _ = _learn(monkeypatch, capsys, ["--lesson", "1"], typed)  # replay
    assert "Lesson 1 done." in out
    assert json.loads((data_dir / "learn-progress.json").read_text())["done"] == ["pack"]


def test_a_legal_card_off_the_point_and_a_wrong_quiz_answer() -> None:
    run = LessonRun(LESSONS[0])
    assert run.prompt() is not None
    said = run.answer("AS")  # legal, but the lesson is about the joker
    assert "legal, but not this lesson's point" in said[0]
    quiz = LessonRun(next(lesson for lesson in LESSONS if lesson["id"] == "scoring"))
    quiz.prompt()
    assert quiz.answer("12")[0].startswith("Not quite")
    assert quiz.answer("lots") == ["Type a number."]


def test_scoring_quiz_answers_are_the_engines() -> None:
    rules = make_rules()
    assert compute(["bid_value", "8H"], rules)[0] == 300
    assert compute(["score_after", 480, 1, "7S", 6], rules)[0] == 490  # the 490 rule
    value, why = compute(["score_after", -400, 0, "7C", 6], rules)
    assert value == -560 and "backwards" in why


def test_every_lesson_deal_is_a_legal_deal() -> None:
    for lesson in LESSONS:
        run = LessonRun(lesson)
        if run.state is not None:
            total = sum(h.bit_count() for h in run.state.dealt) + run.state.kitty_dealt.bit_count()
            assert total == 43


def test_bad_lesson_is_one_line(monkeypatch, capsys, data_dir) -> None:  # type: ignore[no-untyped-def]
    status, _, err = _learn(monkeypatch, capsys, ["--lesson", "99"], [])
    assert status == 2 and err.count("\n") == 1 and "lessons are" in err
    with pytest.raises(FiveHundredError):
        parse_typed("zz", "play")


def test_the_learning_texts_name_the_french_canadian_white_joker() -> None:
    """The lessons' and puzzles' words name the jokers as the rules do: JKW, not JKB, in
    the French-Canadian pack (a bool was passed where the names were needed)."""
    from fivehundred.errors import IllegalActionError, Refusal
    from fivehundred.game import HandState
    from fivehundred.learn.terminal import position_lines, refusal
    from fivehundred.rules import make_rules

    state = HandState.deal(make_rules("french_canadian"), 0, "white-joker")
    holder = next(s for s in range(state.seats) if state.hands[s] >> JOKER_BLACK & 1)
    shown = " ".join(position_lines(state, holder))
    assert "JKW" in shown and "JKB" not in shown
    error = IllegalActionError("", "R-PLAY", Refusal.NOT_HELD, card=JOKER_BLACK)
    assert refusal(error, state).startswith("You do not hold JKW")
