"""The tutorial: every lesson played through ``fivehundred learn`` (the terminal), the
refusals it teaches included; progress kept in the data directory; lessons replayable."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator

import pytest

from fivehundred.cards import JOKER_BLACK
from fivehundred.cli import main
from fivehundred.errors import FiveHundredError
from fivehundred.learn.lessons import LESSONS, NUMBER_WANTED, LessonRun, compute
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
    if number == len(LESSONS):  # the way on after the last lesson: a whole game
        assert "That was the last lesson." in out and "fivehundred play" in out


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
    assert quiz.answer("lots") == [NUMBER_WANTED]


def test_legal_choices_on_a_quiz_say_a_number_is_wanted() -> None:
    """'?' (the legal choices) on a quiz step says that the answer is a number, not
    "Type a number." as if it had been a wrong answer."""
    quiz = LessonRun(next(lesson for lesson in LESSONS if lesson["id"] == "scoring"))
    quiz.prompt()
    said = quiz.answer("?")
    assert said == [NUMBER_WANTED] and "number of points" in said[0]
    assert quiz.step == 0  # nothing answered


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


# ---------------------------------------------------------------- what the lessons say
def _walk(lesson: dict) -> Iterator[LessonRun]:  # type: ignore[type-arg]
    """The lesson gone through with right answers, yielding the run at each of the
    learner's steps (before it is answered)."""
    run = LessonRun(lesson)
    for _ in range(300):
        if run.prompt() is None:
            return
        step = run.current()
        yield run
        if step is None:
            answer = "!"
        elif "quiz" in step:
            answer = str(compute(step["compute"], run.rules)[0])
        else:
            state = run.state
            assert state is not None
            answer = next(
                t for t in step["you"] if parse_typed(t, state.phase) in state.legal_actions()
            )
        run.answer(answer)
    raise AssertionError(f"lesson {lesson['id']} does not end")


@pytest.mark.parametrize("lesson", LESSONS, ids=[entry["id"] for entry in LESSONS])
def test_every_scripted_step_is_the_learners_turn(lesson: dict) -> None:  # type: ignore[type-arg]
    """Each ``you`` step is asked when the engine has South (the learner) to move, and its
    answers are legal there: no step asks South while North is to bid (lesson 3)."""
    asked = 0
    for run in _walk(lesson):
        step = run.current()
        if step is None or "quiz" in step:
            continue
        state = run.state
        assert state is not None and not state.is_over
        assert state.to_move == 0, (lesson["id"], run.step, state.to_move)
        legal = state.legal_actions()
        assert any(parse_typed(t, state.phase) in legal for t in step["you"]), run.step
        asked += 1
    scripted = sum(isinstance(s, dict) and "you" in s for s in lesson.get("script", []))
    assert asked == scripted


def test_lesson_3_has_north_and_east_call_after_7nt() -> None:
    run = LessonRun(next(entry for entry in LESSONS if entry["id"] == "bidding"))
    run.prompt()
    run.answer("200")
    run.prompt()
    said = run.answer("7H")
    assert said[0] == "You: 7♥"
    shown = run.prompt()
    assert shown is not None
    assert "West: 7NT" in shown and "North: pass" in shown and "East: pass" in shown
    said = run.answer("8H")
    assert said[0] == "You: 8♥"
    state = run.state
    assert state is not None
    assert [seat for seat, _ in state.auction.calls] == [0, 1, 2, 3, 0]


def test_a_script_that_asks_south_out_of_turn_is_refused() -> None:
    """The guard itself: the old lesson 3 (no calls for North and East after 7NT) fails
    when it is loaded, instead of asking South for North's call."""
    import copy

    broken = copy.deepcopy(next(entry for entry in LESSONS if entry["id"] == "bidding"))
    broken["script"] = [s for s in broken["script"] if s != "pass"]
    run = LessonRun(broken)
    run.answer("200")
    with pytest.raises(ValueError, match="asks South, but North is to move"):
        run.answer("7H")


def _sentences() -> list[str]:
    out: list[str] = []
    for lesson in LESSONS:
        out += lesson.get("intro", [])
        for lines in lesson.get("how", {}).values():
            out += lines
        for step in lesson.get("script", []):
            if isinstance(step, dict):
                out += [step.get(k, "") for k in ("ask", "hint", "after", "quiz")]
                out += list(step.get("how", {}).values())
    return [text for text in out if text]


def test_the_joker_wins_any_trick_only_when_free() -> None:
    """R-JOKER 2: only a free joker takes any trick it goes to (a named one is the top
    card of its suit); every sentence saying so says "free"."""
    said = [t for t in _sentences() if "any trick" in t or "wins a trick" in t]
    assert said
    for text in said:
        assert "free" in text, text


def test_open_misere_is_described_as_the_rules_rank_it() -> None:
    """Open misère: any time, and between 10♦ and 10♥ (R-BID), as the engine ranks it."""
    from fivehundred.actions import OPEN_MISERE, parse_call
    from fivehundred.auction import bid_order

    rules = make_rules()
    rank = bid_order(OPEN_MISERE, rules)
    assert bid_order(parse_call("10D"), rules) < rank < bid_order(parse_call("10H"), rules)
    intro = " ".join(next(entry for entry in LESSONS if entry["id"] == "misere")["intro"])
    assert "any time" in intro and "above 10♦ and below 10♥" in intro
    assert "above every 7-level bid and below every 8-level bid" in intro


def test_defenders_score_nothing_in_misere_is_said() -> None:
    rules = make_rules()
    assert not rules.misere_defenders_score
    for text in _sentences():
        if "defenders take is worth 10" in text:
            assert "nothing in misère" in text, text


def test_the_joker_nomination_is_taught() -> None:
    """R-JOKER 1: the contractor names the joker's suit (or leaves it free) before the
    first lead; lesson 5 asks the learner to, on the engine's nomination step."""
    lesson = next(entry for entry in LESSONS if entry["id"] == "no-trumps")
    assert "none" not in lesson["setup"]
    phases = [run.state.phase if run.state is not None else "" for run in _walk(lesson)]
    assert phases[0] == "nominate"
    assert "name a suit" in " ".join(lesson["intro"])


def test_a_text_that_is_no_call_names_only_this_games_calls() -> None:
    """The refusal of '5H' lists the calls this game has, in the vocabulary's words:
    no code spellings (open_misere, hi_lo) and no calls the rules do not have."""
    run = LessonRun(next(entry for entry in LESSONS if entry["id"] == "bidding"))
    run.answer("200")
    said = " ".join(run.answer("5H"))
    assert "refuses" in said and "not a call" in said
    assert "misère" in said and "open misère" in said and "6♠" in said and "10NT" in said
    for word in ("_", "hi/lo", "hi lo", "blind", "double", "shields", "patastrophe", "misere"):
        assert word not in said, word


def test_lesson_4_leads_after_the_discard_and_sorts_the_trumps() -> None:
    """'Then you lead the first trick' is followed by a lead; the hand shown during the
    discard is in the table's order, the trumps first with the left bower among them."""
    lesson = next(entry for entry in LESSONS if entry["id"] == "kitty")
    seen = []
    for run in _walk(lesson):
        state = run.state
        assert state is not None
        seen.append((state.phase, state.to_move, len(state.trick_actions), run.prompt()))
    assert seen[0][0] == "discard"
    assert "J♠ J♣ A♠ K♠ Q♠ 10♠ 9♠ A♥" in str(seen[0][3])
    assert seen[-1][:3] == ("play", 0, 0)
    asks = [s["ask"] for s in lesson["script"] if isinstance(s, dict)]
    assert any("lead the first trick" in a for a in asks)


def test_the_490_rule_is_named_where_it_holds_a_score() -> None:
    value, why = compute(["score_after", 480, 1, "7S", 6], make_rules())
    assert value == 490
    assert "+40 = 490" not in why.replace(" ", "")
    assert "480 + 40 would be 520" in why and "490 rule" in why


def test_terminal_words_stay_out_of_the_web_and_the_way_on() -> None:
    """The lessons' words are the same for both interfaces; typing instructions ('!',
    'Type JK>D') are the terminal's only."""
    from fivehundred.learn.lessons import ask_text, intro_lines, next_after

    for lesson in LESSONS:
        web = " ".join(intro_lines(lesson, "web"))
        assert "'!'" not in web and "Type " not in web and "type " not in web, lesson["id"]
        for step in lesson.get("script", []):
            if isinstance(step, dict) and "ask" in step:
                text = ask_text(step, "web")
                assert "Type " not in text and "type " not in text and ">" not in text, text
        for step in lesson.get("script", []):
            if isinstance(step, dict) and step.get("try"):
                # the refusals a step invites are typed: the terminal invites them; the
                # web's bid box greys and its hand dims what may not be chosen
                assert "try" in ask_text(step, "terminal").lower(), step["ask"]
                assert "try" not in ask_text(step, "web").lower(), step["ask"]
    whole = LESSONS[-1]
    assert "'!'" in " ".join(intro_lines(whole, "terminal"))
    assert next_after(LESSONS[0]) == {
        "kind": "lesson",
        "id": "follow",
        "title": LESSONS[1]["title"],
    }
    assert next_after(LESSONS[-1])["kind"] == "game"
