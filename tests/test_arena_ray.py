"""``fivehundred arena --backend ray``: the same results as the local process pool."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

ray = pytest.importorskip("ray", reason="the ray extra is not installed")

from fivehundred.arena import MatchOutcome, run_matches  # noqa: E402
from fivehundred.arena.cli import main, progress_text  # noqa: E402
from fivehundred.arena.ray_backend import chunk_size, start_local_ray  # noqa: E402
from fivehundred.arena.runner import duplicate_tasks  # noqa: E402
from fivehundred.rules import make_rules  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def ray_session() -> Iterator[None]:
    """One local Ray for the module (the backend uses a running Ray as it finds it)."""
    start_local_ray(2, log_to_driver=False, logging_level="ERROR")
    yield
    ray.shutdown()


def _results(outcomes: list[MatchOutcome]) -> list[tuple[Any, ...]]:
    """Everything but the decision times (wall clock)."""
    return [
        (
            o.deal,
            o.rotation,
            o.winner,
            o.score_a,
            o.score_b,
            o.decisions,
            o.problems,
            [(h.points_a, h.points_b, h.contract, h.declarer_team, h.made) for h in o.hands],
        )
        for o in outcomes
    ]


def test_ray_gives_the_local_results() -> None:
    rules = make_rules()
    hands = duplicate_tasks(rules, "heuristic", "random", 6, 5, single_hand=True)
    games = duplicate_tasks(
        make_rules("three_handed", {"target": 200}), "heuristic", "random", 2, 9, single_hand=False
    )
    for tasks in (hands, games):
        local = run_matches(tasks, workers=2)
        remote = run_matches(tasks, workers=2, backend="ray")
        assert _results(remote) == _results(local)
        assert _results(local) == _results(run_matches(tasks, workers=1))


def test_cli_backend_ray_prints_the_same_summary(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    args = [
        "--team-a",
        "heuristic",
        "--team-b",
        "random",
        "--hands",
        "4",
        "--seed",
        "3",
        "--workers",
        "2",
        "--json",
    ]
    assert main([*args, "--backend", "ray"]) == 0
    remote = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    local = json.loads(capsys.readouterr().out)
    remote.pop("decision_ms")
    local.pop("decision_ms")
    assert remote == local and remote["matches"] == 8


def test_an_unreachable_cluster_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")
    args = [
        "--team-a",
        "random",
        "--team-b",
        "random",
        "--hands",
        "1",
        "--backend",
        "ray",
        "--quiet",
    ]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("fivehundred arena: cannot start or join the Ray cluster at ")
    assert len(err.strip().splitlines()) == 1


def test_progress_shows_deals_and_the_win_interval() -> None:
    assert progress_text(6, 2, {"A": 0, "B": 0}) == "deals 3  A 0 – B 0"
    text = progress_text(20, 2, {"A": 14, "B": 6})
    assert text.startswith("deals 10  A 14 – B 6  A wins 70.0% (")
    assert "48.1%–85.5%" in text


def test_chunks_are_small_and_cover_every_task() -> None:
    assert chunk_size(10, 2) == 1
    assert chunk_size(100_000, 8) == 16
    with pytest.raises(ValueError, match="backend"):
        run_matches([], backend="spark")
