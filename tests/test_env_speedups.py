"""The environment's C extension (``fivehundred.env._speedups``) and the pure-Python
path used where they are not built: the very same observations, step by step, in every
preset; the Python path checked on its own too (it runs whether or not the C extension is
built)."""

from __future__ import annotations

import random
import weakref
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


TRACKED: list[tuple[str, dict[str, bool]]] = [(preset, {}) for preset in PRESETS] + [
    ("three_handed", {"dead_hand": True}),
    ("two_handed", {"open_misere": True}),  # (an exposed hand beside the dummies)
    ("australian", {"hi_lo": True, "double_misere": True, "shields_double": True}),
    ("australian", {"patastrophe": True, "wilkinson_misere": True, "blind_misere": True}),
]


@pytest.fixture(params=[True, False], ids=["avx2", "plain"])
def avx2(request: pytest.FixtureRequest) -> Any:
    """The vectors written with AVX2 moves (where the processor has it), then without."""
    speedups = encoding.compiled_speedups()
    if speedups is None:
        pytest.skip("the C extension is not built")
    before = speedups.avx2()
    if request.param and not speedups.avx2(True):
        pytest.skip("no AVX2 on this processor")
    speedups.avx2(request.param)
    yield request.param
    speedups.avx2(before)


@needs_speedups
@pytest.mark.parametrize(("preset", "variants"), TRACKED)
def test_tracker_gives_the_encoders_vector_over_many_hands(
    preset: str, variants: dict[str, bool], avx2: bool
) -> None:
    """The C tracker (what raw_env's last() and observe() use) against the pure-Python
    encoder: the very same vector and mask for the seat to move at every step of 60 seeded
    random hands, and for another seat now and then (its mask all zero), the vectors
    written with AVX2 moves and without."""
    table = FiveHundredEnv(preset, variants)
    tracker = table.encoder.tracker()
    assert tracker is not None
    reference = Encoder(table.rules, compiled=False)
    rng = random.Random(f"{preset}{variants}")
    compared = 0
    for hand in range(60):
        table.reset(seed=hand)
        state = table.hand
        assert state is not None
        while True:
            legal = state.legal_actions()
            seats = [state.to_move] if state.to_move >= 0 else []
            if rng.random() < 0.3:
                seats.append(rng.randrange(table.rules.players))
            for seat in seats:
                mine = legal if seat == state.to_move else None
                obs = tracker.observe(state, seat, mine)
                expected = reference.encode(state, seat)
                assert obs["observation"].dtype == np.float32
                assert np.array_equal(obs["observation"], expected)
                mask = np.zeros(NUM_ACTIONS, np.int8)
                mask[mine or []] = 1
                assert np.array_equal(obs["action_mask"], mask)
                compared += 1
            if not legal:
                break
            state.apply(legal[rng.randrange(len(legal))])
    assert compared > 60 * 20


@needs_speedups
def test_tracker_answers_none_where_the_rules_need_the_python_path() -> None:
    for preset, variants in [
        ("two_handed", {"open_eight": True}),
        ("australian", {"ralphing": True}),
    ]:
        table = FiveHundredEnv(preset, variants)
        assert table.encoder.tracker() is None
    assert Encoder(make_rules("australian"), compiled=False).tracker() is None


@needs_speedups
def test_observations_kept_are_never_overwritten() -> None:
    """The tracker reuses a buffer only once nothing refers to it: every observation kept
    (or a view of it, or its buffer) stays as it was, and whatever an agent did to an
    observation it let go (reshaped it, froze it, wrote in it) does not reach the next."""
    table = FiveHundredEnv("australian")
    kept: list[tuple[Any, Any, Any]] = []
    rng = random.Random(3)
    for hand in range(4):
        table.reset(seed=hand)
        while True:
            obs, _, terminated, _, _ = table.last()
            vector, mask = obs["observation"], obs["action_mask"]
            assert vector.shape == (table.encoder.size,) and mask.shape == (NUM_ACTIONS,)
            assert vector.flags.writeable and mask.flags.writeable
            choice = rng.randrange(5)
            if choice == 0:
                kept.append((obs, vector.copy(), mask.copy()))
            elif choice == 1:
                kept.append((vector[5:], vector[5:].copy(), mask[:0]))
            elif choice == 2:
                kept.append((memoryview(vector), vector.copy(), mask[:0]))
            elif choice == 3:  # an agent's own doings to what it then lets go
                vector.shape = (1, -1)
                mask.flags.writeable = False
            else:
                vector[:] = 7.0
            if terminated:
                break
            legal = np.flatnonzero(table.last()[0]["action_mask"])
            del obs, vector, mask
            table.step(int(legal[rng.randrange(len(legal))]))
    assert len(kept) > 20
    for held, vector, mask in kept:
        if isinstance(held, dict):
            assert np.array_equal(held["observation"], vector)
            assert np.array_equal(held["action_mask"], mask)
        else:
            assert np.array_equal(np.asarray(held), vector)


@needs_speedups
def test_observations_let_go_after_any_change_are_not_handed_out_again() -> None:
    """An observation handed out is the tracker's own dict and arrays, handed out again
    once let go; one that its holder changed in any way (a key added or replaced, the keys
    reordered, an array re-typed or frozen, an array weakly referred to) never is: every
    observation has the two keys in order and arrays as new, and a weakly held array left
    alive keeps what it held."""
    table = FiveHundredEnv("australian")
    reference = Encoder(table.rules, compiled=False)
    weak: list[tuple[Any, Any]] = []
    rng = random.Random(11)
    for hand in range(6):
        table.reset(seed=hand)
        while True:
            obs, _, terminated, _, _ = table.last()
            state = table.hand
            assert state is not None
            assert list(obs) == ["observation", "action_mask"]
            vector, mask = obs["observation"], obs["action_mask"]
            assert vector.dtype == np.float32 and vector.shape == (table.encoder.size,)
            assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
            assert vector.flags.writeable and mask.flags.writeable
            if not terminated:
                assert np.array_equal(vector, reference.encode(state, state.to_move))
                assert np.flatnonzero(mask).tolist() == sorted(state.legal_actions())
            choice = rng.randrange(6)
            if choice == 0:
                obs["extra"] = 1
            elif choice == 1:
                obs["observation"] = vector.copy()
            elif choice == 2:
                obs["observation"] = obs.pop("observation")  # (the keys reordered)
            elif choice == 3:
                vector.dtype = np.int32
            elif choice == 4:
                mask.flags.writeable = False
            else:
                weak.append((weakref.ref(vector), vector.copy()))
            if terminated:
                break
            legal = np.flatnonzero(mask)
            action = int(legal[rng.randrange(len(legal))])
            del obs, vector, mask
            table.step(action)
    assert len(weak) > 10
    for ref, copy in weak:
        held = ref()
        assert held is None or np.array_equal(held, copy)


@needs_speedups
def test_last_and_step_in_c_answer_as_the_methods() -> None:
    """raw_env's last() and step() run in C after reset() (the C extension's Driver), and
    whatever the hot path does not take is answered by the class's own methods, as
    before: last(observe=False), an action not legal (its error names the legal ones), a
    NumPy integer as action, the end of the hand; a subclass keeps its own step()."""
    table = FiveHundredEnv("australian")
    slow = FiveHundredEnv("australian", compiled=False)
    table.reset(seed=3)
    slow.reset(seed=3)
    assert type(table.last).__name__ == "builtin_function_or_method"
    assert type(slow.last).__name__ == "method"
    with pytest.raises(ValueError, match="not legal now") as raised:
        table.step(NUM_ACTIONS - 1)
    with pytest.raises(ValueError, match="not legal now") as expected:
        slow.step(NUM_ACTIONS - 1)
    assert str(raised.value) == str(expected.value)
    with pytest.raises(TypeError):
        table.step(action=1, extra=2)
    while True:
        assert table.last(observe=False) == slow.last(observe=False)
        assert table.last(False)[0] is None
        fast_obs, *fast_rest = table.last()
        slow_obs, *slow_rest = slow.last()
        assert fast_rest == slow_rest and table.agent_selection == slow.agent_selection
        _same(fast_obs, slow_obs)
        if fast_rest[1]:
            break
        action = np.flatnonzero(fast_obs["action_mask"])[-1]  # (a NumPy integer)
        table.step(action)
        slow.step(action)
    assert table.rewards == slow.rewards and table._cumulative_rewards == slow._cumulative_rewards
    table.step(None)  # (the dead steps: the class's own)
    slow.step(None)
    assert table.agents == slow.agents

    class Counting(FiveHundredEnv):
        steps = 0

        def step(self, action: Any) -> None:
            Counting.steps += 1
            super().step(action)

    counting = Counting("australian")
    counting.reset(seed=1)
    counting.step(int(np.flatnonzero(counting.last()[0]["action_mask"])[0]))
    assert Counting.steps == 1


@needs_speedups
def test_tracker_refuses_bad_input() -> None:
    table = FiveHundredEnv("australian")
    tracker = table.encoder.tracker()
    table.reset(seed=1)
    state = table.hand
    for seat in (4, 99):
        with pytest.raises(ValueError, match="seat out of range"):
            tracker.observe(state, seat, None)
    assert tracker.observe(state, -1, None) is None  # no seat: the Python path answers
    for legal in ([NUM_ACTIONS], [-1]):
        with pytest.raises(IndexError):
            tracker.observe(state, 0, legal)
    bad: list[tuple[Any, ...]] = [(state, 0), (state, "0", None), (state, 0, (1,))]
    for args in bad:
        with pytest.raises(TypeError):
            tracker.observe(*args)
    with pytest.raises(AttributeError):
        tracker.observe(object(), 0, None)
    speedups = encoding.compiled_speedups()
    with pytest.raises(ValueError, match="bad layout"):
        speedups.Tracker((1, 2, 3), ("auction",), "auction", list, list)
    assert tracker.observe(state, 0, None) is not None  # (still follows its hand)
