"""The bench of the daily's cost (bench/bench_daily.py), run small: a real server in its
own process on a database of its own, a small field, and two entries played through its
routes as the page plays them; both finish their twelve boards, every result is in the
database, and the server's CPU an entry is measured."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "bench"))
import bench_daily


def test_the_bench_plays_whole_entries_through_a_real_server() -> None:
    out = bench_daily.run(2, level="random", field=30, pars=False, pool=2)
    assert out["finished"] == 2  # each on its last board, finished
    assert out["results"] == 2 * 12  # a result a board of each, in the database
    assert out["moves"] >= 2 * 12  # South moved on every board
    assert out["requests"] > out["moves"]  # the reviews and the tables asked as well
    assert out["cpu"] > 0 and out["wall"] > 0
    assert out["entries_a_day"] == 86_400 * 2 / out["cpu_per_entry"]
