"""The environment's C extension (``fivehundred.env._speedups``) and the pure-Python
path used where they are not built: the very same observations, step by step, in every
preset; the Python path checked on its own too (it runs whether or not the C extension is
built)."""

from __future__ import annotations

import random
from typing import Any

import pytest

np = pytest.importorskip("numpy", reason="the env extra (numpy) is not installed")
pytest.importorskip("pettingzoo", reason="the env extra (pettingzoo) is not installed")

from fivehundred.actions import NUM_ACTIONS  # noqa: E402
from fivehundred.env import encoding  # noqa: E402
from fivehundred.env.aec import FiveHundredEnv  # noqa: E402
from fivehundred.env.encoding import Encoder, acting_seat  # noqa: E402
from fivehundred.rules import PRESETS, make_rules  # noqa: E402

BUILT = encoding.compiled_speedups() is not None
needs_speedups = pytest.mark.skipif(not BUILT, reason="the C extension is not built")
CONFIGS = [(preset, {}) for preset in PRESETS] + [
    ("two_handed", {"draw_pack": True}),
    ("two_handed", {"open_eight": True}),
    ("three_handed", {"dead_hand": True}),
    ("australian", {"ralphing": True, "slam_call": True, "hi_lo": True}),
]
HANDS = 3


def _same(a: dict[str, Any], b: dict[str, Any]) -> None:
    for key in ("observation", "action_mask"):
        assert a[key].dtype == b[key].dtype
        assert a[key].shape == b[key].shape
        assert np.array_equal(a[key], b[key]), key
        assert a[key].flags.writeable


@needs_speedups
@pytest.mark.parametrize(("preset", "variants"), CONFIGS)
def test_compiled_and_python_observations_are_identical(
    preset: str, variants: dict[str, bool]
) -> None:
    episode = "game" if preset == "australian" and not variants else "hand"  # (with scores)
    fast = FiveHundredEnv(preset, variants, episode=episode, compiled=True)
    slow = FiveHundredEnv(preset, variants, episode=episode, compiled=False)
    assert fast.encoder.speedups is not None and slow.encoder.speedups is None
    rng = random.Random(preset)
    steps = 0
    for hand in range(HANDS):
        fast.reset(seed=hand)
        slow.reset(seed=hand)
        while True:
            assert fast.agent_selection == slow.agent_selection
            first, second = fast.last(), slow.last()
            _same(first[0], second[0])
            assert first[1:] == second[1:]
            for agent in fast.possible_agents:  # every agent, not just the one to move
                _same(fast.observe(agent), slow.observe(agent))
            if first[2] or first[3] or steps > 400:
                break
            legal = np.flatnonzero(first[0]["action_mask"])
            action = int(legal[rng.randrange(len(legal))])
            fast.step(action)
            slow.step(action)
            steps += 1
    assert steps > HANDS * 10


@pytest.mark.parametrize(("preset", "variants"), CONFIGS)
def test_python_path_turns_the_bits_into_the_vector(preset: str, variants: dict[str, bool]) -> None:
    """Without the C extension: the vector is the encoder's bits, one float32 0/1 each (scores
    0 in one-hand episodes), the mask has ones at the legal actions only."""
    table = FiveHundredEnv(preset, variants, compiled=False)
    encoder = Encoder(table.rules, compiled=False)  # (its own tracker)
    rng = random.Random(preset)
    for hand in range(HANDS):
        table.reset(seed=hand)
        while table.agents and not table.terminations[table.agent_selection]:
            agent = table.agent_selection
            obs = table.last()[0]
            state = table.hand
            assert state is not None
            seat = acting_seat(state, table.possible_agents.index(agent))
            bits = encoder.bits(state, seat)
            raw = np.frombuffer(bits.to_bytes((encoder.size + 7) // 8, "little"), np.uint8)
            expected = np.unpackbits(raw, bitorder="little")[: encoder.size].astype(np.float32)
            assert np.array_equal(obs["observation"], expected)
            mask = np.zeros(NUM_ACTIONS, np.int8)
            mask[state.legal_actions()] = 1
            assert np.array_equal(obs["action_mask"], mask)
            assert obs["action_mask"].dtype == np.int8
            table.step(int(rng.choice(np.flatnonzero(mask))))


def test_without_the_c_extension_the_python_path_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(encoding, "compiled_speedups", lambda: None)
    rules = make_rules("australian")
    assert Encoder(rules).speedups is None
    with pytest.raises(RuntimeError, match="not built"):
        Encoder(rules, compiled=True)
    table = FiveHundredEnv("australian")
    assert table.encoder.speedups is None
    table.reset(seed=1)
    for _agent in table.agent_iter(max_iter=300):
        obs, _, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
            continue
        table.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert all(table.terminations.values())


@needs_speedups
def test_speedups_convert_exactly_and_refuse_bad_input() -> None:
    speedups = encoding.compiled_speedups()
    rng = random.Random(5)
    for size in [*range(0, 70), 1252, 1748, 4000]:
        for value in (0, (1 << size) - 1, rng.getrandbits(size) if size else 0):
            raw = np.frombuffer(value.to_bytes((size + 7) // 8 + 1, "little"), np.uint8)
            expected = np.unpackbits(raw, bitorder="little")[:size].astype(np.float32)
            got = np.frombuffer(speedups.floats(value, size), np.float32)
            assert np.array_equal(got, expected), size
        for bad in (1 << size, -1, -(1 << size) - 5, 1 << (size + 40)):
            with pytest.raises(ValueError, match="non-negative int below"):
                speedups.floats(bad, size)
    for args in [(1.0, 3), (1,), ("1", 2)]:
        with pytest.raises(TypeError):
            speedups.floats(*args)
    for args in [(1, -1), (1, 10**6)]:
        with pytest.raises(ValueError, match="size"):
            speedups.floats(*args)
    legal = [0, 7, NUM_ACTIONS - 1]
    mask = np.frombuffer(speedups.mask(legal, NUM_ACTIONS), np.int8)
    assert np.flatnonzero(mask).tolist() == legal
    for args in [([NUM_ACTIONS], NUM_ACTIONS), ([-1], NUM_ACTIONS)]:
        with pytest.raises(IndexError):
            speedups.mask(*args)
    for args in [((1,), NUM_ACTIONS), (["a"], NUM_ACTIONS), ([1], -1)]:
        with pytest.raises((TypeError, ValueError)):
            speedups.mask(*args)
