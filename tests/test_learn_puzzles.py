"""The solver's puzzles: every shipped puzzle re-verified, the generator deterministic,
and ``fivehundred puzzle`` in the terminal (refusals, right and wrong, stats kept)."""

from __future__ import annotations

import copy
import io
import json

import pytest

pytest.importorskip("fivehundred.solver")

from fivehundred.actions import parse_play
from fivehundred.cli import main
from fivehundred.learn import puzzles as pz
from fivehundred.rules import PRESETS
from fivehundred.text import play_text
from fivehundred.words import seat_name

SHIPPED = pz.load_shipped()


def test_shipped_set_is_large_and_varied() -> None:
    assert len(SHIPPED) >= 300
    kinds = {p["kind"] for p in SHIPPED}
    assert kinds == {"suit", "no trumps", "misère"}
    # every preset, two- to six-handed, has puzzles
    assert set(pz.GENERATOR_PRESETS) == set(PRESETS)
    assert {p["preset"] for p in SHIPPED} == set(PRESETS)
    assert {p["difficulty"] for p in SHIPPED} == {1, 2, 3}
    assert {p["goal"] for p in SHIPPED} == {"make", "defeat"}
    assert any(p["kind"] == "no trumps" and p["theme"] == "the joker" for p in SHIPPED)
    assert len({p["id"] for p in SHIPPED}) == len(SHIPPED)


def test_every_shipped_puzzle_holds() -> None:
    """Replays (legal and reachable), the solution is the only winning card double dummy,
    the values are the solver's and the solution line is legal to the end."""
    for puzzle in SHIPPED:
        pz.verify(puzzle)


def test_two_handed_puzzles_wait_for_the_dummies_face_down_cards() -> None:
    """The solver takes a dummy's face-down cards as playable: no puzzle (and no shipped
    one) while any lies face down, so the two-handed puzzles are double dummy as ruled."""
    assert pz.GENERATOR_PRESETS[5] == "two_handed"
    # the first played position of the first two-handed hand that is played out
    state, choice = next(
        position for seed in range(5, 200, 7) for position in pz.computer_positions(seed)
    )
    assert state.rules.dummies and not pz.solver_exact(state)
    assert pz.find_puzzles(state, choice) is None
    two_handed = [p for p in SHIPPED if p["preset"] == "two_handed"]
    assert two_handed and all(pz.solver_exact(pz.replay_puzzle(p)) for p in two_handed)


def test_generator_is_deterministic_and_made_the_shipped_set() -> None:
    first = pz.generate(1, 3)
    assert first == pz.generate(1, 3)
    assert first == SHIPPED[:3]


def test_a_tampered_puzzle_is_caught() -> None:
    puzzle = copy.deepcopy(SHIPPED[0])
    wrong = next(card for card in puzzle["values"] if card != puzzle["solution"])
    puzzle["solution"] = wrong
    with pytest.raises(pz.PuzzleError, match="only winning card"):
        pz.verify(puzzle)
    puzzle = copy.deepcopy(SHIPPED[0])
    puzzle["record"]["play"] = [*puzzle["record"].get("play", [])[:-1], "2S"]
    with pytest.raises(pz.PuzzleError):
        pz.verify(puzzle)


def _run(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: list[str], typed: str
) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    status = main(argv)
    out = capsys.readouterr()
    return status, out.out, out.err


@pytest.fixture
def data_dir(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("FIVEHUNDRED_DATA_DIR", str(tmp_path))
    return tmp_path


def _not_held(puzzle: dict) -> str:  # type: ignore[type-arg]
    state = pz.replay_puzzle(puzzle)
    hand = state.hands[state.to_move]
    return next(f"{r}S" for r in "AKQJ98765" if not hand >> parse_play(f"{r}S") & 1)


def test_terminal_puzzle_right_answer(monkeypatch, capsys, data_dir) -> None:  # type: ignore[no-untyped-def]
    puzzle = SHIPPED[0]
    typed = f"?\n{_not_held(puzzle)}\n{puzzle['solution']}\n"
    status, out, err = _run(monkeypatch, capsys, ["puzzle", "--id", puzzle["id"]], typed)
    assert status == 0, err
    out = " ".join(out.split())  # wrapped at 80 columns
    assert "Legal:" in out
    assert "You do not hold" in out
    assert "Right!" in out and puzzle["reason"] in out
    assert "The solution played out:" in out
    assert "The contracting side ends with" in out
    stats = json.loads((data_dir / "puzzle-stats.json").read_text())
    assert stats["streak"] == 1
    assert stats["themes"][puzzle["theme"]] == [1, 1]


def test_terminal_puzzle_wrong_answer_and_stats(monkeypatch, capsys, data_dir) -> None:  # type: ignore[no-untyped-def]
    puzzle = SHIPPED[1]
    wrong = next(c for c in puzzle["values"] if c != puzzle["solution"])
    status, out, _ = _run(monkeypatch, capsys, ["puzzle", "--id", puzzle["id"]], wrong + "\n")
    assert status == 0
    out = " ".join(out.split())  # wrapped at 80 columns
    assert "Not this time" in out and puzzle["reason"] in out
    value = puzzle["values"][wrong]
    assert f"leaves the contracting side {value} trick" in out
    status, out, _ = _run(monkeypatch, capsys, ["puzzle", "--stats"], "")
    assert "streak 0" in out and "0/1" in out


def test_terminal_puzzle_next_unanswered_and_end_of_input(monkeypatch, capsys, data_dir) -> None:  # type: ignore[no-untyped-def]
    status, out, _ = _run(monkeypatch, capsys, ["puzzle"], "")
    assert status == 0
    easiest = min(
        (p for p in SHIPPED if p["preset"] == "australian"),
        key=lambda p: (p["difficulty"], p["id"]),
    )
    assert out.startswith(f"Puzzle {easiest['id']} (easy; ") and "australian rules" in out


def test_a_newcomer_starts_with_the_australian_game_and_can_choose_the_rules(
    monkeypatch, capsys, data_dir
) -> None:  # type: ignore[no-untyped-def]
    """With no choice the first puzzle is a four-handed Australian one, the easiest; the
    first visit never opens another game's hard puzzle. ``--preset`` chooses the rules."""
    ordered = sorted(SHIPPED, key=pz.beginner_key)
    assert ordered[0]["preset"] == "australian" and ordered[0]["difficulty"] == 1
    status, out, _ = _run(monkeypatch, capsys, ["puzzle", "--preset", "six_handed"], "")
    assert status == 0 and "six_handed rules" in out.splitlines()[0]
    assert "(easy;" in out.splitlines()[0]
    status, out, _ = _run(monkeypatch, capsys, ["puzzle", "--preset", "american", "--list"], "")
    assert status == 0 and {line.split()[-1] for line in out.splitlines()} == {"american"}
    status, _, err = _run(monkeypatch, capsys, ["puzzle", "--preset", "nonsense"], "")
    assert status == 2 and "invalid choice" in err and err.count("\n") == 1


def test_list_and_daily(monkeypatch, capsys, data_dir) -> None:  # type: ignore[no-untyped-def]
    status, out, _ = _run(monkeypatch, capsys, ["puzzle", "--list"], "")
    assert status == 0 and len(out.splitlines()) == len(SHIPPED)
    status, out, _ = _run(monkeypatch, capsys, ["puzzle", "--daily", "--difficulty", "hard"], "")
    assert status == 0
    shown = out.split()[1]
    assert next(p for p in SHIPPED if p["id"] == shown)["difficulty"] == 3


def test_bad_options_are_one_line(monkeypatch, capsys, data_dir) -> None:  # type: ignore[no-untyped-def]
    status, _, err = _run(monkeypatch, capsys, ["puzzle", "--id", "nope"], "")
    assert status == 2 and err.count("\n") == 1 and "no puzzle" in err
    status, _, err = _run(monkeypatch, capsys, ["puzzle", "--theme", "nope"], "")
    assert status == 2 and "themes are" in err
    status, _, err = _run(monkeypatch, capsys, ["puzzle", "--count", "0"], "")
    assert status == 2 and err.count("\n") == 1


def test_verify_command(monkeypatch, capsys, tmp_path) -> None:  # type: ignore[no-untyped-def]
    good = tmp_path / "set.json"
    good.write_text(json.dumps(pz.puzzle_set(1, SHIPPED[:5])))
    status, out, _ = _run(monkeypatch, capsys, ["puzzle", "--verify", str(good)], "")
    assert status == 0 and "5 puzzles hold" in out
    bad = tmp_path / "bad.json"
    bad.write_text("[1, 2]")
    status, _, err = _run(monkeypatch, capsys, ["puzzle", "--verify", str(bad)], "")
    assert status == 2 and err.count("\n") == 1


# --------------------------------------------------------------- the single-dummy series
from fivehundred.learn import single  # noqa: E402

SINGLE = single.load_single()


def test_every_shipped_single_dummy_puzzle_holds() -> None:
    """The only card that makes the contract in every layout of the defenders' cards
    consistent with the play; the counts are the solver's."""
    assert len(SINGLE) >= 30
    for puzzle in SINGLE:
        single.verify_single(puzzle)
        assert puzzle["layouts"] >= single.MIN_LAYOUTS
        assert (
            max(n for c, n in puzzle["wins"].items() if c != puzzle["solution"]) * 2
            >= (puzzle["layouts"])
        )


def test_single_dummy_generator_is_deterministic() -> None:
    assert single.generate_single(1, 1) == SINGLE[:1]


def test_a_tampered_single_dummy_puzzle_is_caught() -> None:
    puzzle = copy.deepcopy(SINGLE[0])
    puzzle["solution"] = puzzle["tempting"][0]
    with pytest.raises(pz.PuzzleError, match="only sure card"):
        single.verify_single(puzzle)
    puzzle = copy.deepcopy(SINGLE[0])
    puzzle["difficulty"] = 1 + puzzle["difficulty"] % 3
    with pytest.raises(pz.PuzzleError, match="difficulty"):
        single.verify_single(puzzle)


def test_the_single_dummy_series_has_easy_puzzles_in_every_preset() -> None:
    """Graded from what the learner faces (tricks left, how close the tempting card comes,
    how many tempt), not all "hard": every preset of the series has easy ones."""
    for preset in single.SINGLE_PRESETS:
        grades = {p["difficulty"] for p in SINGLE if p["preset"] == preset}
        assert 1 in grades, preset
    assert {p["difficulty"] for p in SINGLE} == {1, 2, 3}
    for p in SINGLE:
        expected = single.single_difficulty(
            p["tricks_left"], p["layouts"], p["wins"], p["tempting"]
        )
        assert p["difficulty"] == expected


def test_terminal_single_dummy_hides_the_defenders(monkeypatch, capsys, data_dir) -> None:  # type: ignore[no-untyped-def]
    puzzle = SINGLE[0]
    tempting = puzzle["tempting"][0]
    argv = ["puzzle", "--single", "--id", puzzle["id"]]
    status, out, _ = _run(monkeypatch, capsys, argv, tempting + "\n")
    assert status == 0
    long = [line for line in out.splitlines() if len(line.split("): ")[-1]) > 80]
    assert not long, long  # wrapped at 80 columns (what follows the prompt is typed)
    before = out.split("Your card")[0]
    out = " ".join(out.split())
    assert before.count("hidden)") == 2
    # the cards already played are shown (the answer depends on them)
    state = pz.replay_puzzle(puzzle)
    assert "Tricks played:" in before
    for number, trick in enumerate(state.tricks, 1):
        line = next(x for x in before.splitlines() if x.strip().startswith(f"Trick {number}:"))
        for seat, action in trick.plays:
            assert f"{seat_name(seat, state.rules.seats)} {play_text(action)}" in line
        assert line.endswith(f"won by {seat_name(trick.winner, state.rules.seats)}")
    assert f"makes it in {puzzle['wins'][tempting]} of the {puzzle['layouts']} layouts" in out
    assert "The cards were:" in out
    stats = json.loads((data_dir / "puzzle-stats.json").read_text())
    assert stats["themes"]["single-dummy"] == [0, 1]
