"""The bench of a club night at scale (bench/bench_night.py), run small: a club, its
members entered in pairs, a night of two rounds started and played by the computer at
every seat; every table's result is recorded, the standings have every pair, and each
result came within 30 s of its table's last card."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "bench"))
import bench_night


def test_the_bench_plays_a_whole_night() -> None:
    out = bench_night.run(3, rounds=2, boards=1)
    assert out["members"] == 12 and out["pairs"] == 6
    assert out["games"] == 3 * 2  # a result at every table each round
    assert out["standings"] == 6  # every pair, ranked
    assert 0 <= out["lag_median"] <= out["lag_p99"] <= out["lag_max"] < 30
    assert out["night_seconds"] > 0 and out["setup_seconds"] > 0
