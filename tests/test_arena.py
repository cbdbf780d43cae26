"""The arena: statistics on hand-made results, duplicate deals, parallel = serial, the CLI."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

from fivehundred.arena import MatchOutcome, play_match, run_matches, summarize, wilson_interval
from fivehundred.arena.cli import main
from fivehundred.arena.runner import HandOutcome, duplicate_tasks, team_seats
from fivehundred.arena.stats import mean_interval
from fivehundred.record import replay_record
from fivehundred.rules import make_rules


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(70, 100)
    assert math.isclose(lo, 0.6041, abs_tol=1e-3) and math.isclose(hi, 0.7810, abs_tol=1e-3)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and math.isclose(hi, 0.2775, abs_tol=1e-3)
    lo, hi = wilson_interval(10, 10)
    assert math.isclose(lo, 0.7225, abs_tol=1e-3) and math.isclose(hi, 1.0, abs_tol=1e-9)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_mean_interval() -> None:
    mean, lo, hi = mean_interval([1.0, 2.0, 3.0, 4.0])
    assert mean == 2.5
    half = 1.959964 * math.sqrt((2.25 + 0.25 + 0.25 + 2.25) / 3 / 4)
    assert math.isclose(lo, 2.5 - half) and math.isclose(hi, 2.5 + half)
    assert mean_interval([5.0]) == (5.0, 5.0, 5.0)


def _hand(
    a: int, b: int, team: str | None = None, strain: str | None = None, made: bool | None = None
) -> HandOutcome:
    return HandOutcome(a, b, strain and ("7" + strain), strain, team, made)


def test_summary_of_hand_made_results() -> None:
    outcomes = [
        # deal 1: A wins both halves
        MatchOutcome(
            1,
            False,
            [_hand(200, 20, "A", "H", True), _hand(300, 0, "A", "NT", True)],
            500,
            20,
            "A",
            {"A": 0.5, "B": 0.1},
            {"A": 100, "B": 100},
        ),
        MatchOutcome(
            1,
            True,
            [_hand(-200, 30, "A", "H", False), _hand(0, 250, "B", "misere", True)],
            -200,
            280,
            "B",
            {"A": 0.5, "B": 0.1},
            {"A": 100, "B": 100},
        ),
        # deal 2: a tie and a win for A
        MatchOutcome(2, False, [_hand(40, 40)], 40, 40, None),
        MatchOutcome(2, True, [_hand(100, 0, "A", "S", True)], 100, 0, "A"),
    ]
    s = summarize(outcomes, "x", "y")
    assert s.matches == 4 and s.deals == 2 and s.hands == 6
    assert s.wins == {"A": 2, "B": 1} and s.ties == 1
    assert math.isclose(s.win_rate, 2 / 3)
    assert s.win_interval == wilson_interval(2, 3)
    assert math.isclose(s.points_per_hand["A"], (200 + 300 - 200 + 0 + 40 + 100) / 6)
    assert math.isclose(s.points_per_hand["B"], (20 + 0 + 30 + 250 + 40 + 0) / 6)
    # Per deal: (sum A − B) / hands.  deal 1: (180 + 300 − 230 − 250) / 4 = 0; deal 2: 100 / 2
    mean, lo, hi = s.difference
    assert math.isclose(mean, 25.0) and lo < 25 < hi
    h = s.contracts["A"]["H"]
    assert (h.bid, h.made, h.set) == (2, 1, 1)
    assert s.contracts["A"]["NT"].made == 1 and s.contracts["A"]["S"].made == 1
    assert s.misere == {"A": (0, 0), "B": (1, 1)}
    assert math.isclose(s.decision_ms["A"], 1000 * 1.0 / 200)
    assert s.to_json()["wins"] == {"A": 2, "B": 1}


def test_duplicate_swaps_seats_and_keeps_the_cards() -> None:
    rules = make_rules()
    tasks = duplicate_tasks(rules, "heuristic", "random", 2, 3, single_hand=True, keep_records=True)
    assert [t.swapped for t in tasks] == [False, True, False, True]
    assert team_seats(rules, False) == ((0, 2), (1, 3))
    assert team_seats(rules, True) == ((1, 3), (0, 2))
    first, second = play_match(tasks[0]), play_match(tasks[1])
    assert first.hands[0].record and second.hands[0].record
    assert first.hands[0].record["hands"] == second.hands[0].record["hands"]
    for outcome in (first, second):
        _summary, state = replay_record(outcome.hands[0].record)
        assert state.is_over  # type: ignore[union-attr]


def test_parallel_results_equal_serial() -> None:
    tasks = duplicate_tasks(make_rules(), "heuristic", "random", 3, 5, single_hand=True)
    serial = run_matches(tasks, workers=1)
    parallel = run_matches(tasks, workers=2)
    strip = [
        (
            o.deal,
            o.rotation,
            o.score_a,
            o.score_b,
            o.winner,
            [(h.points_a, h.points_b, h.contract) for h in o.hands],
        )
        for o in serial
    ]
    assert strip == [
        (
            o.deal,
            o.rotation,
            o.score_a,
            o.score_b,
            o.winner,
            [(h.points_a, h.points_b, h.contract) for h in o.hands],
        )
        for o in parallel
    ]


def test_whole_games_end_with_a_winner() -> None:
    tasks = duplicate_tasks(make_rules(), "heuristic", "random", 1, 2, single_hand=False)
    for outcome in run_matches(tasks):
        assert outcome.winner == "A"  # the heuristic beats random players
        assert outcome.score_a >= 500 or outcome.score_b <= -500


def test_cli_json_out_and_plot(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, plot = tmp_path / "hands.jsonl", tmp_path / "chart.png"
    status = main(
        [
            "--team-a",
            "heuristic",
            "--team-b",
            "random",
            "--hands",
            "3",
            "--seed",
            "2",
            "--workers",
            "1",
            "--json",
            "--out",
            str(out),
            "--plot",
            str(plot),
        ]
    )
    assert status == 0
    data = json.loads(capsys.readouterr().out)
    assert data["matches"] == 6 and data["deals"] == 3
    lines = out.read_text().splitlines()
    assert len(lines) == data["hands"] == 6
    replay_record(json.loads(lines[0]))
    assert plot.read_bytes()[:4] == b"\x89PNG"


def test_cli_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(
            [
                "--team-a",
                "heuristic",
                "--team-b",
                "random",
                "--hands",
                "2",
                "--quiet",
                "--workers",
                "1",
            ]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "win rate" in text and "misère made" in text and "ms per decision" in text


@pytest.mark.parametrize(
    "argv",
    [
        ["--team-a", "nobody", "--team-b", "random"],
        ["--team-a", "random", "--team-b", "random", "--games", "0"],
        ["--team-a", "random", "--team-b", "random", "--preset", "nonsense"],
        ["--team-a", "random", "--team-b", "random", "--workers", "0"],
        [
            "--team-a",
            "random",
            "--team-b",
            "random",
            "--variant",
            "pack45",
            "--preset",
            "three_handed",
        ],
        ["--team-a", "random"],
        # --decisions plays single hands here, of built-in players, in a known phase
        ["--team-a", "random", "--team-b", "random", "--decisions", "play", "--games", "2"],
        ["--team-a", "random", "--team-b", "random", "--decisions", "play", "--backend", "ray"],
        ["--team-a", "random", "--team-b", "random", "--decisions", "play", "--plot", "x.png"],
        ["--team-a", "random", "--team-b", "random", "--decisions", "bidding"],
        ["--team-a", "cmd:python x.py", "--team-b", "random", "--decisions", "play"],
        # --scores: with --decisions only, two numbers, a table the game model covers
        ["--team-a", "random", "--team-b", "random", "--hands", "1", "--scores", "0,400"],
        ["--team-a", "random", "--team-b", "random", "--decisions", "play", "--scores", "400"],
        ["--team-a", "random", "--team-b", "random", "--decisions", "play", "--scores", "a,b"],
        ["--team-a", "random", "--team-b", "random", "--decisions", "play", "--scores", "9,1"],
        [
            "--team-a",
            "random",
            "--team-b",
            "random",
            "--preset",
            "five_handed",
            "--decisions",
            "play",
            "--scores",
            "0,400",
        ],
    ],
)
def test_cli_bad_input_is_one_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        status = main(argv)
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith("fivehundred arena:") and "Traceback" not in err


@pytest.mark.parametrize(("preset", "sides"), [("three_handed", 3), ("five_handed", 5)])
def test_more_than_two_sides_rotate_team_a_through_every_side(preset: str, sides: int) -> None:
    """With three or five players team A takes each seat in turn, B plays all the others."""
    rules = make_rules(preset)
    tasks = duplicate_tasks(rules, "heuristic", "random", 2, 4, single_hand=True, keep_records=True)
    assert [t.rotation for t in tasks] == list(range(sides)) * 2
    assert team_seats(rules, 1) == ((1,), tuple(s for s in range(sides) if s != 1))
    outcomes = run_matches(tasks[:sides])
    deals = {json.dumps(o.hands[0].record["hands"]) for o in outcomes if o.hands[0].record}
    assert len(deals) == 1  # the same cards for every rotation
    summary = summarize(outcomes, "heuristic", "random")
    assert summary.sides == sides and summary.deals == 1


def test_six_players_in_three_teams_of_two() -> None:
    rules = make_rules("six_handed", {"teams_of_two": True})
    assert team_seats(rules, 2) == ((2, 5), (0, 1, 3, 4))
    assert len(duplicate_tasks(rules, "random", "random", 1, 1, single_hand=True)) == 3


@pytest.mark.parametrize(
    ("program", "said"),
    [
        ("no-such-program-here", "No such file"),
        (f"{sys.executable} -c 'import sys; sys.exit(3)'", "status 3"),
    ],
)
def test_a_program_that_cannot_start_is_an_error_before_any_hand(
    program: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``cmd:`` players are started before the match: one that cannot start exits 2 with
    one line, instead of a random stand-in playing the match (and a 0 % table)."""
    assert (
        main(["--team-a", f"cmd:{program}", "--team-b", "random", "--games", "1", "--quiet"]) == 2
    )
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1 and captured.err.startswith(
        "fivehundred arena: cannot start"
    )
    assert said in captured.err


def test_a_program_that_starts_plays(capsys: pytest.CaptureFixture[str]) -> None:
    bot = Path(__file__).resolve().parents[1] / "examples" / "simple_bot.py"
    assert (
        main(
            [
                "--team-a",
                f"cmd:{sys.executable} {bot}",
                "--team-b",
                "random",
                "--hands",
                "1",
                "--quiet",
                "--json",
            ]
        )
        == 0
    )
    assert json.loads(capsys.readouterr().out)


def test_the_help_names_every_level_and_every_offered_player(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The arena's help offers what people are offered (the levels first), from the same
    list as the terminal game and the lobby, and each name it offers makes a player."""
    from fivehundred.bots import make_player, player_choices

    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    for name in player_choices():
        assert name in text
        make_player(name, 1)
    assert text.index("easy") < text.index("expert") < text.index("pimc:strong")
