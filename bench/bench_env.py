"""Environment speed: PettingZoo steps per second for random agents choosing from the
action mask, beside the bare engine's actions per second in the same run.

Both loops play the very same hands with the very same random legal actions (the deal the
environment makes for ``reset(seed=index)``, the same random numbers, the same order of
legal actions; the run stops if the action counts differ); the environment loop also
builds each observation (vector and mask) the way an agent reads it (``env.last()``),
reads an element of the vector (the engine loop: the hand of the seat to move), and picks
from the mask. The cost printed is the environment's time per step over the engine's per
action (engine actions/s ÷ environment steps/s, both loops timed in the same rounds); the
target is a cost of at most 1.5×.

    python bench/bench_env.py [--hands 2000] [--preset australian] [--wrapped] [--python]
                              [--opcodes]

``--python`` also times ``raw_env`` without the C extension (``compiled=False``: the
pure-Python observation, as where the C extension is not built).

``--opcodes`` also counts the Python opcodes per engine action and per environment step
(``sys.settrace``; slow, but no load on the machine disturbs the count).
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable
from types import FrameType
from typing import Any

from fivehundred.env import env as wrapped_env
from fivehundred.env import raw_env
from fivehundred.game import DONE, PLAY, HandState
from fivehundred.rules import make_rules

ROUND = 100  # hands per round: the loops alternate, so a busy machine slows both alike
TARGET = 1.5  # the most raw_env may cost per step, in engine actions


def engine_actions(preset: str, hands: int, seed: int = 1, first: int = 0) -> tuple[float, int]:
    """CPU seconds and actions for ``hands`` random hands on the bare engine: the hands
    the environment deals for ``reset(seed=index)`` (the same dealer and deal seed), and
    the same random picks (the mask lists the legal actions in ascending order, so the
    engine's list is sorted where it is not already: in the auction)."""
    rules = make_rules(preset)
    players = rules.players
    rng = random.Random(seed + first)
    actions = seen = 0
    start = time.process_time()
    for index in range(first, first + hands):
        deal = random.Random(index)
        deal_seed = deal.getrandbits(64)
        state = HandState.deal(rules, deal.randrange(players), deal_seed)
        while state.phase is not DONE:
            seen ^= state.hands[state.to_move]  # what the agent deciding looks at
            legal = state.legal_actions()
            if state.phase is not PLAY:
                legal.sort()
            state.apply(legal[int(rng.random() * len(legal))])
            actions += 1
    return time.process_time() - start, actions


def env_steps(
    preset: str, hands: int, wrapped: bool, seed: int = 1, first: int = 0, python: bool = False
) -> tuple[float, int]:
    """CPU seconds and agent steps for ``hands`` one-hand episodes with random agents
    (``python``: ``raw_env`` without the C extension)."""
    if python:
        table: Any = raw_env(preset=preset, compiled=False)
    else:
        table = wrapped_env(preset=preset) if wrapped else raw_env(preset=preset)
    rng = random.Random(seed + first)
    steps = 0
    seen = 0.0
    start = time.process_time()
    for index in range(first, first + hands):
        table.reset(seed=index)
        while True:
            obs, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                break
            seen += obs["observation"].item(-1)  # the vector is there to be read
            legal = obs["action_mask"].nonzero()[0]
            table.step(int(legal[int(rng.random() * len(legal))]))
            steps += 1
    return time.process_time() - start, steps


def opcodes(run: Callable[[], tuple[float, int]]) -> float:
    """Python opcodes executed per action (or step) by ``run``."""
    count = 0

    def trace(frame: FrameType, event: str, arg: Any) -> Any:
        nonlocal count
        frame.f_trace_opcodes = True
        if event == "opcode":
            count += 1
        return trace

    sys.settrace(trace)
    try:
        _, done = run()
    finally:
        sys.settrace(None)
    return count / done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--preset", action="append", help="preset (repeatable; default: all)")
    parser.add_argument(
        "--wrapped", action="store_true", help="also time env() with PettingZoo's checking wrappers"
    )
    parser.add_argument(
        "--python", action="store_true", help="also time raw_env without the C extension"
    )
    parser.add_argument(
        "--opcodes", action="store_true", help="also count Python opcodes per action and step"
    )
    args = parser.parse_args()
    if args.hands <= 0:
        parser.error("--hands must be positive")
    presets = args.preset or [
        "australian",
        "three_handed",
        "five_handed",
        "six_handed",
        "two_handed",
    ]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    compiled = "built" if raw_env().encoder.speedups is not None else "NOT built"
    print(
        f"{args.hands} random hands per preset, one core (load average {load}); "
        f"C extension {compiled}"
    )
    print(
        f"{'preset':<14} {'engine act/s':>13} {'raw_env step/s':>15} {'cost':>6}"
        + (f" {'env() step/s':>13} {'cost':>6}" if args.wrapped else "")
        + (f" {'python step/s':>13} {'cost':>6}" if args.python else "")
    )
    for preset in presets:
        totals = [0.0] * 8
        for first in range(0, args.hands, ROUND):
            count = min(ROUND, args.hands - first)
            runs = [
                engine_actions(preset, count, first=first),
                env_steps(preset, count, False, first=first),
            ]
            if args.wrapped:
                runs.append(env_steps(preset, count, True, first=first))
            if args.python:
                runs.append(env_steps(preset, count, False, first=first, python=True))
            if len({done for _, done in runs}) != 1:  # the loops must play the same hands
                raise SystemExit(f"{preset}: the loops played different actions: {runs}")
            for i, (seconds, done) in enumerate(runs):
                column = i if args.wrapped or i < 2 else 3  # (engine, raw, wrapped, python)
                totals[2 * column] += seconds
                totals[2 * column + 1] += done
        e_time, e_actions, r_time, r_steps, w_time, w_steps, p_time, p_steps = totals
        engine_rate = e_actions / e_time
        raw_rate = r_steps / r_time
        line = (
            f"{preset:<14} {engine_rate:>13,.0f} {raw_rate:>15,.0f} {engine_rate / raw_rate:>5.2f}×"
        )
        if args.wrapped:
            line += f" {w_steps / w_time:>13,.0f} {engine_rate * w_time / w_steps:>5.2f}×"
        if args.python:
            line += f" {p_steps / p_time:>13,.0f} {engine_rate * p_time / p_steps:>5.2f}×"
        if args.opcodes:
            hands = min(args.hands, ROUND)
            engine = opcodes(lambda: engine_actions(preset, hands))  # noqa: B023
            raw = opcodes(lambda: env_steps(preset, hands, False))  # noqa: B023
            line += f"  opcodes: engine {engine:.0f}, raw_env +{raw - engine:.0f}"
        print(line)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"(load average {load} at the end; cost = engine actions/s ÷ environment steps/s, "
        f"the environment's time per step over the engine's per action; target ≤ {TARGET}×)"
    )


if __name__ == "__main__":
    main()
