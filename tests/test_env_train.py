"""Smoke test of examples/train_ppo.py: a few PPO steps and a tiny arena evaluation
(PyTorch is not a test dependency: skipped where it is absent)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

pytest.importorskip("torch", reason="PyTorch is not installed (the example's own dependency)")
pytest.importorskip("pettingzoo", reason="the env extra is not installed")

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "train_ppo.py"


def test_a_few_training_steps_and_an_evaluation(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    spec = importlib.util.spec_from_file_location("train_ppo", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    weights = tmp_path / "ppo.pt"
    args = [
        "--updates",
        "2",
        "--envs",
        "2",
        "--steps",
        "16",
        "--minibatch",
        "16",
        "--eval-deals",
        "2",
        "--save",
        str(weights),
    ]
    assert module.main(args) == 0
    out = capsys.readouterr().out
    assert "trained: 2 updates" in out
    assert "ppo vs random" in out and "ppo vs heuristic" in out
    assert weights.exists()
    # the saved weights load and play the same evaluation
    assert module.main(["--load", str(weights), "--eval-deals", "2", "--quiet"]) == 0
    again = capsys.readouterr().out
    assert [line for line in out.splitlines() if line.startswith("ppo vs")] == [
        line for line in again.splitlines() if line.startswith("ppo vs")
    ]
