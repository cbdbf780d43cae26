"""Batched environment speed: random legal play, steps per second with the batched env
(:mod:`fivehundred.env.batched`, the C core) on 1 and 2 threads, beside ``raw_env`` on
one core, in the same run (the loops alternate in rounds, so a busy machine slows them
alike; the load average is printed).

A step is one action at one table: a call of ``step`` on N tables is N steps. Three
batched loops are timed: ``step_random()`` (the random actions drawn in C, the results
left in the C core's buffers: what a learner reading the buffers sees), ``step()`` with
packed arrays returned (``sample_actions()`` then ``step(actions)``, copies of the packed
observations and masks), and ``step()`` with float32 observations and int8 masks. The
``raw_env`` loop reads ``last()`` (observation and mask) and picks a random legal action
from the mask, as bench/bench_env.py does.

    python bench/bench_batched.py [--tables 4096] [--rounds 5] [--seconds 1.0]
                                  [--preset australian] [--threads 1,2]

``--threads`` lists the thread counts to time (a machine with more cores: ``1,2,4,8``).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from collections.abc import Callable

import numpy as np

from fivehundred.env import raw_env
from fivehundred.env.batched import BatchedEnv


def raw_env_steps(preset: str, seconds: float, seed: int) -> tuple[int, float]:
    """Steps of ``raw_env`` with random legal actions for about ``seconds``."""
    table = raw_env(preset)
    rng = random.Random(seed)
    steps = 0
    hand = seed
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        table.reset(seed=hand)
        hand += 1
        while True:
            obs, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                break
            legal = np.flatnonzero(obs["action_mask"])
            table.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    return steps, time.perf_counter() - start


def batched_steps(step: Callable[[], object], tables: int, seconds: float) -> tuple[int, float]:
    calls = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        step()
        calls += 1
    return calls * tables, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=4096)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=1.0, help="per loop and round")
    parser.add_argument("--preset", default="australian")
    parser.add_argument("--threads", default="1,2", help="thread counts, comma-separated")
    args = parser.parse_args()
    n = args.tables
    counts = [int(t) for t in args.threads.split(",")]
    envs = {threads: BatchedEnv(n, args.preset, threads=threads) for threads in counts}
    packed = {
        threads: BatchedEnv(n, args.preset, threads=threads, packed=True) for threads in counts
    }
    for threads in counts:
        envs[threads].reset(seed=1)
        packed[threads].reset(seed=1)

    def api_step(env: BatchedEnv) -> Callable[[], object]:
        return lambda: env.step(env.sample_actions())

    loops: dict[str, Callable[[], tuple[int, float]]] = {
        "raw_env, 1 core": lambda: raw_env_steps(args.preset, args.seconds, 1),
    }
    for threads in counts:
        loops[f"batched step_random, {threads} thread(s)"] = lambda t=threads: batched_steps(
            packed[t].step_random, n, args.seconds
        )
        loops[f"batched step() packed, {threads} thread(s)"] = lambda t=threads: batched_steps(
            api_step(packed[t]), n, args.seconds
        )
        loops[f"batched step() float32, {threads} thread(s)"] = lambda t=threads: batched_steps(
            api_step(envs[t]), n, args.seconds
        )
    rates: dict[str, list[float]] = {name: [] for name in loops}
    load = os.getloadavg()
    for _ in range(args.rounds):
        for name, loop in loops.items():
            steps, seconds = loop()
            rates[name].append(steps / seconds)
    load_after = os.getloadavg()
    base = float(np.median(rates["raw_env, 1 core"]))
    print(
        f"{args.preset}: {n:,} tables, {args.rounds} rounds of {args.seconds:g} s a loop, "
        f"{os.cpu_count()} CPUs, load average {load[0]:.2f} before, {load_after[0]:.2f} after"
    )
    print(f"{'loop':42} {'steps/s (median)':>17} {'best':>12} {'× raw_env':>10}")
    for name, values in rates.items():
        median = float(np.median(values))
        print(f"{name:42} {median:17,.0f} {max(values):12,.0f} {median / base:10.1f}")


if __name__ == "__main__":
    main()
