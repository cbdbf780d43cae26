"""examples/baseline_batched.py: the linear policy's gradient step goes the right way, and
a few updates on the batched environment and a tiny arena evaluation run end to end."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

batched = pytest.importorskip("fivehundred.env.batched")
if batched.compiled_core() is None:
    pytest.skip("the C extension fivehundred.env._batched is not built", allow_module_level=True)

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "baseline_batched.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("baseline_batched", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_update_favours_the_actions_that_paid() -> None:
    module = _example()
    rng = np.random.default_rng(0)
    policy = module.Linear(32, seed=0)
    x = rng.random((400, 32)).astype(np.float32)
    mask = np.zeros((400, 188), bool)
    mask[:, [3, 7]] = True
    actions = np.where(np.arange(400) % 2 == 0, 3, 7)
    returns = np.where(actions == 3, 1.0, -1.0).astype(np.float32)
    before = policy.probabilities(x, mask)[:, 3].mean()
    for _ in range(20):
        policy.update(x, mask, actions, returns, lr=1e-2, value_lr=1e-2)
    after = policy.probabilities(x, mask)
    assert after[:, 3].mean() > before + 0.2
    assert (
        np.allclose(after.sum(axis=1), 1) and not after[:, ~np.isin(np.arange(188), [3, 7])].any()
    )


def test_a_few_updates_and_an_evaluation(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    module = _example()
    weights = tmp_path / "linear.npz"
    argv = ["--updates", "2", "--tables", "64", "--steps", "64", "--eval-deals", "1"]
    assert module.main([*argv, "--opponents", "random", "--save", str(weights)]) == 0
    out = capsys.readouterr().out
    assert "trained: 2 updates" in out and "linear vs random" in out
    from fivehundred.bots import PLAYERS

    assert "linear" not in PLAYERS  # the arena's registry left as it was
    saved = np.load(weights)
    assert saved["w"].shape == (batched.BatchedEnv(1).encoder.size, 188)
    # the same seed trains the same weights
    again = tmp_path / "again.npz"
    assert module.main([*argv, "--opponents", "", "--save", str(again), "--quiet"]) == 0
    assert np.array_equal(np.load(again)["w"], saved["w"])
