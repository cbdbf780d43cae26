"""The decision duplicate (``fivehundred arena --decisions PHASE``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fivehundred.arena.cli import main
from fivehundred.arena.decisions import (
    DecisionTask,
    compare_deal,
    compare_decisions,
    decision_tasks,
    summary,
)
from fivehundred.game import HandState
from fivehundred.rules import make_rules


def _tasks(a: str, b: str, phase: str, deals: int, seed: int = 5) -> list[DecisionTask]:
    return decision_tasks(make_rules("australian"), a, b, phase, deals, seed)


def test_the_same_player_never_disagrees_with_itself() -> None:
    outcomes = compare_decisions(_tasks("heuristic", "heuristic", "play", 4))
    assert sum(o.decisions for o in outcomes) > 40
    assert all(not o.disagreements for o in outcomes)


def test_random_play_loses_points_against_the_heuristic_play() -> None:
    outcomes = compare_decisions(_tasks("heuristic", "random", "play", 8))
    result = summary(outcomes, _tasks("heuristic", "random", "play", 1)[0])
    each = result["b_minus_a_per_disagreement"]
    assert result["disagreements"] > 50 and result["changed_result"] > 5
    assert each["mean"] < 0 and each["ci95"][1] < 0
    # The per-deal figure is the disagreements' sum per deal.
    total = sum(d.difference for o in outcomes for d in o.disagreements)
    assert result["b_minus_a_per_deal"]["mean"] == pytest.approx(total / len(outcomes))


def test_a_disagreement_is_played_on_from_both_choices() -> None:
    task = _tasks("heuristic", "heuristic:v1", "auction", 12)
    outcomes = compare_decisions(task)
    found = [(o, d) for o in outcomes for d in o.disagreements]
    assert found
    for _, d in found:
        assert d.action_a != d.action_b
        # A two-sided margin is even in tens (the hand's points are multiples of ten).
        assert d.margin_a % 10 == 0 and d.margin_b % 10 == 0
    # At least one changed call changed the hand's result.
    assert any(d.difference for _, d in found)


def test_the_line_of_play_is_the_first_players() -> None:
    """The deal a task plays is the one its seed deals, and the decisions counted are the
    phase's decisions with a choice on A's line."""
    task = _tasks("heuristic", "heuristic", "auction", 1)[0]
    outcome = compare_deal(task)
    rules = make_rules("australian")
    state = HandState.deal(rules, task.deal % 4, f"decisions/{task.deal}")
    from fivehundred.bots import make_player

    players = [make_player("heuristic", task.deal * 16 + s) for s in range(4)]
    choices = 0
    while state.phase == "auction":
        obs = state.observation(state.to_move)
        choices += len(obs.legal) > 1
        state.apply(make_player("heuristic", task.deal * 1_000 + choices).act(obs)
                    if len(obs.legal) > 1 else players[state.to_move].act(obs))  # fmt: skip
    assert outcome.decisions == choices > 0


def test_parallel_equals_serial() -> None:
    tasks = _tasks("heuristic", "heuristic:v1", "discard", 6, seed=9)
    assert compare_decisions(tasks, workers=2) == compare_decisions(tasks, workers=1)


def test_unknown_phase_is_refused() -> None:
    with pytest.raises(ValueError, match="phase"):
        _tasks("heuristic", "random", "bidding", 1)


def test_cli_json_and_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d.jsonl"
    argv = ["--team-a", "heuristic", "--team-b", "random", "--decisions", "play", "--hands",
            "3", "--workers", "1", "--json", "--out", str(out)]  # fmt: skip
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert result["phase"] == "play" and result["deals"] == 3
    assert len(rows) == result["disagreements"] > 0
    assert all(r["difference"] == r["margin_b"] - r["margin_a"] for r in rows)


def test_cli_text(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--team-a", "heuristic", "--team-b", "heuristic:v1", "--decisions", "auction",
            "--hands", "4", "--workers", "1", "--quiet"]  # fmt: skip
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "chose differently" in text and "a disagreement" in text and "a deal" in text


def test_cli_refuses_programs(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--team-a", "cmd:python x.py", "--team-b", "random", "--decisions", "play",
            "--hands", "1"]  # fmt: skip
    assert main(argv) == 2
    assert "built-in players" in capsys.readouterr().err
