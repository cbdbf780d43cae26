"""The decision duplicate (``fivehundred arena --decisions PHASE``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from fivehundred.actions import Action
from fivehundred.arena import decisions
from fivehundred.arena.cli import main
from fivehundred.arena.decisions import (
    DecisionTask,
    compare_deal,
    compare_decisions,
    decision_tasks,
    summary,
)
from fivehundred.bots import HeuristicPlayer
from fivehundred.game import HandState
from fivehundred.observation import Observation
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
        state.apply(
            make_player("heuristic", task.deal * 1_000 + choices).act(obs)
            if len(obs.legal) > 1
            else players[state.to_move].act(obs)
        )
    assert outcome.decisions == choices > 0


def test_parallel_equals_serial() -> None:
    tasks = _tasks("heuristic", "heuristic:v1", "discard", 6, seed=9)
    assert compare_decisions(tasks, workers=2) == compare_decisions(tasks, workers=1)


def test_unknown_phase_is_refused() -> None:
    with pytest.raises(ValueError, match="phase"):
        _tasks("heuristic", "random", "bidding", 1)


def test_cli_json_and_out(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d.jsonl"
    argv = [
        "--team-a",
        "heuristic",
        "--team-b",
        "random",
        "--decisions",
        "play",
        "--hands",
        "3",
        "--workers",
        "1",
        "--json",
        "--out",
        str(out),
    ]
    assert main(argv) == 0
    result = json.loads(capsys.readouterr().out)
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert result["phase"] == "play" and result["deals"] == 3
    assert len(rows) == result["disagreements"] > 0
    assert all(r["difference"] == r["margin_b"] - r["margin_a"] for r in rows)


def test_cli_text(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "--team-a",
        "heuristic",
        "--team-b",
        "heuristic:v1",
        "--decisions",
        "auction",
        "--hands",
        "4",
        "--workers",
        "1",
        "--quiet",
    ]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "chose differently" in text and "a disagreement" in text and "a deal" in text


def test_cli_refuses_programs(capsys: pytest.CaptureFixture[str]) -> None:
    argv = [
        "--team-a",
        "cmd:python x.py",
        "--team-b",
        "random",
        "--decisions",
        "play",
        "--hands",
        "1",
    ]
    assert main(argv) == 2
    assert "built-in players" in capsys.readouterr().err


def test_game_scores_are_drawn_from_the_deal_and_seen_by_every_seat() -> None:
    tasks = decision_tasks(
        make_rules("australian"), "heuristic", "random", "auction", 6, 3, scores=(250, 480)
    )
    drawn = [t.game_scores() for t in tasks]
    assert drawn == [t.game_scores() for t in tasks]  # a pure function of the task
    assert len(set(drawn)) > 1
    for scores in drawn:
        assert len(scores) == 2 and all(250 <= s <= 480 and s % 10 == 0 for s in scores)
    assert _tasks("heuristic", "random", "auction", 1)[0].game_scores() == ()

    seen: list[tuple[int, ...]] = []

    class Watching(HeuristicPlayer):
        def act(self, observation: Observation) -> Action:
            seen.append(observation.scores)
            return super().act(observation)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(decisions, "make_player", lambda name, seed=None: Watching(seed))
        compare_deal(tasks[0])
    assert seen and set(seen) == {drawn[0]}


def test_at_game_scores_the_margin_is_the_chance_to_win_the_game() -> None:
    tasks = decision_tasks(
        make_rules("australian"), "heuristic", "random", "play", 10, 7, scores=(300, 480)
    )
    outcomes = compare_decisions(tasks)
    found = [d for o in outcomes for d in o.disagreements]
    assert len(found) > 20
    assert all(0.0 <= d.margin_a <= 100.0 and 0.0 <= d.margin_b <= 100.0 for d in found)
    # Near the end a hand often decides the game: some margins are certainties.
    assert any(d.margin_a in (0.0, 100.0) for d in found)
    result = summary(outcomes, tasks[0])
    assert result["unit"].startswith("chance to win the game") and result["scores"] == [300, 480]
    assert result["b_minus_a_per_disagreement"]["mean"] < 0  # random play loses games too
    # Without scores: the same deal is a single hand, measured in points.
    assert summary(outcomes[:1], _tasks("heuristic", "random", "play", 1)[0])["unit"] == "points"


def test_game_scores_only_where_the_game_model_covers_the_table() -> None:
    with pytest.raises(ValueError, match="game model"):
        decision_tasks(
            make_rules("five_handed"), "heuristic", "random", "play", 1, 1, scores=(0, 400)
        )
    for bad in ((400, 300), (0, 500), (-500, 0)):
        with pytest.raises(ValueError, match="scores"):
            decision_tasks(
                make_rules("australian"), "heuristic", "random", "play", 1, 1, scores=bad
            )
    three = decision_tasks(
        make_rules("three_handed"), "heuristic", "random", "play", 1, 1, scores=(0, 400)
    )
    assert len(three[0].game_scores()) == 3  # each player scores alone


def test_cli_at_game_scores(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "d.jsonl"
    argv = [
        "--team-a",
        "heuristic",
        "--team-b",
        "random",
        "--decisions",
        "play",
        "--hands",
        "2",
        "--workers",
        "1",
        "--quiet",
        "--scores",
        "350,480",
        "--out",
        str(out),
    ]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "at scores 350 to 480" in text and "chance to win the game" in text
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows and all(len(r["scores"]) == 2 for r in rows)
