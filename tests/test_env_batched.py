"""The batched environment (fivehundred.env.batched): equal to the engine, its API, and
the PettingZoo adapter.

The equality test plays a few hundred hands per preset here;
``FIVEHUNDRED_BATCHED_HANDS=10000 pytest tests/test_env_batched.py -k engine`` plays
10,000 (see docs/env.md).
"""

from __future__ import annotations

import os
import random
from collections import Counter

import numpy as np
import pytest

from fivehundred.actions import (
    CALL_BASE,
    GO_ALONE,
    JOKER_LEAD_BASE,
    MISERE,
    NO_NOMINATION,
    NOMINATE_BASE,
    NUM_ACTIONS,
    OPEN_MISERE,
    PASS,
)
from fivehundred.env.encoding import Encoder
from fivehundred.game import AUCTION, HandState, controller_of
from fivehundred.rules import PRESETS as RULE_PRESETS
from fivehundred.rules import REGISTRY, SWITCH, RulesError, make_rules
from fivehundred.scoring import side_of_seats

batched = pytest.importorskip("fivehundred.env.batched")
if batched.compiled_core() is None:
    pytest.skip("the C extension fivehundred.env._batched is not built", allow_module_level=True)

BatchedEnv = batched.BatchedEnv
HANDS = int(os.environ.get("FIVEHUNDRED_BATCHED_HANDS", "300"))
PRESETS = (
    "australian",
    "american",
    "french_canadian",
    "two_handed",
    "three_handed",
    "five_handed",
    "six_handed",
)


def _choose(rng: random.Random, legal: list[int], phase: str) -> int:
    """A random legal action, passing often in the auction (so that every kind of
    contract, and hands thrown in, come up rather than 10NT nearly always)."""
    if phase == AUCTION and PASS in legal and rng.random() < 0.8:
        return PASS
    return rng.choice(legal)


def _bits(state: HandState, encoder: Encoder) -> int:
    return encoder.bits(state, state.to_move)


def compare_with_engine(preset: str, hands: int, tables: int, seed: int) -> Counter[str]:
    """Play ``hands`` hands on ``tables`` tables with the batched env and, on the same
    deals (:meth:`BatchedEnv.hand_state`), with the engine, the same actions at both;
    count the differences (legal actions, observation bits, seat to move, scores) and what
    came up."""
    env = BatchedEnv(tables, preset, packed=True)
    encoder = Encoder(env.rules, compiled=False)
    env.reset(seed=seed)
    states = [env.hand_state(i) for i in range(tables)]
    seen: Counter[str] = Counter()
    rng = random.Random(seed)

    def check(i: int, state: HandState) -> None:
        legal = sorted(state.legal_actions())
        mask = batched.unpack_masks(env.packed_masks[i])
        if list(np.flatnonzero(mask)) != legal:
            seen["legal differences"] += 1
        packed = env.packed_observations[i].tobytes()
        if int.from_bytes(packed, "little") != _bits(state, encoder):
            seen["observation differences"] += 1
        if int(env.to_move[i]) != state.to_move:
            seen["to_move differences"] += 1

    for i, state in enumerate(states):
        check(i, state)
    while seen["hands"] < hands:
        actions = np.array(
            [_choose(rng, state.legal_actions(), state.phase) for state in states], np.int64
        )
        _, rewards, terminations, truncations, _ = env.step(actions)
        assert not truncations.any()
        for i, state in enumerate(states):
            action = int(actions[i])
            if NOMINATE_BASE <= action <= NO_NOMINATION:
                seen["nominations"] += 1
            if JOKER_LEAD_BASE <= action < PASS:
                seen["joker leads"] += 1
            if CALL_BASE <= action < GO_ALONE:
                seen["partners called"] += 1
            if action == GO_ALONE:
                seen["alone"] += 1
            state.apply(action)
            seen["steps"] += 1
            if state.is_over != bool(terminations[i]):
                seen["end differences"] += 1
            if terminations[i]:
                seen["hands"] += 1
                seen[f"contract {state.contract}"] += 1
                points = state.result.points
                sides = side_of_seats(env.rules)
                expected = [points[sides[player]] for player in range(env.rules.players)]
                if list(rewards[i]) != expected:
                    seen["score differences"] += 1
                states[i] = state = env.hand_state(i)
            elif rewards[i].any():
                seen["score differences"] += 1
            check(i, state)
    return seen


@pytest.mark.parametrize("preset", PRESETS)
def test_batched_env_equals_the_engine(preset: str) -> None:
    seen = compare_with_engine(preset, HANDS, tables=32, seed=2026)
    differences = {k: v for k, v in seen.items() if k.endswith("differences")}
    assert differences == {}, differences
    assert seen["hands"] >= HANDS
    # the hands covered the rules' corners: suit contracts, no trumps with the joker's
    # nomination and its lead, misère, open misère (Australian), hands thrown in
    rules = make_rules(preset)
    assert seen["contract -1"]
    if rules.misere_allowed:
        assert seen[f"contract {MISERE}"] + seen[f"contract {OPEN_MISERE}"]
    if rules.called_partner:  # five players: a card called, or alone
        assert seen["partners called"] and seen["alone"]
    assert seen["nominations"] and seen["joker leads"]
    assert sum(v for k, v in seen.items() if k.startswith("contract 7")) > 0


def test_seeds_map_to_hand_state_deal() -> None:
    env = BatchedEnv(3)
    env.reset(seed=[5, 2**64 - 1, 0])
    seeds, dealers = env.deals()
    for i, table_seed in enumerate((5, 2**64 - 1, 0)):
        assert int(seeds[i]) == batched.hand_seed(table_seed, 0)
        assert int(dealers[i]) == int(seeds[i]) >> 62
        state = HandState.deal(env.rules, int(dealers[i]), int(seeds[i]))
        assert env.hand_state(i).dealt == state.dealt
        assert np.array_equal(
            env.observe(i, state.to_move), Encoder(env.rules).encode(state, state.to_move)
        )
    # any number of players: the dealer from the seed's high half
    three = BatchedEnv(8, "three_handed")
    three.reset(seed=40)
    three_seeds, three_dealers = three.deals()
    assert [int(d) for d in three_dealers] == [(int(s) >> 32) * 3 >> 32 for s in three_seeds]
    assert len(set(three_dealers.tolist())) > 1
    # the same seed, the same deals; the next hand's seed is hand number 1's
    again = BatchedEnv(3)
    again.reset(seed=[5, 2**64 - 1, 0])
    assert np.array_equal(again.deals()[0], seeds)
    for _ in range(200):
        _, _, done, _, _ = again.step(again.sample_actions())
        if done[0]:
            break
    assert done[0]
    assert int(again.deals()[0][0]) == batched.hand_seed(5, 1)


def test_observations_are_raw_env_vectors_and_masks() -> None:
    env = BatchedEnv(16)
    obs, infos = env.reset(seed=3)
    encoder = Encoder(env.rules)
    assert obs.shape == (16, encoder.size) and obs.dtype == np.float32
    assert infos["action_mask"].shape == (16, NUM_ACTIONS)
    for _ in range(30):
        for i in range(16):
            state_obs = env.observe(i, int(infos["to_move"][i]))
            assert np.array_equal(obs[i], state_obs)
            assert infos["action_mask"][i][env.sample_actions()[i]] == 1
        obs, _, _, _, infos = env.step(env.sample_actions())
    # packed and unpacked agree
    packed = BatchedEnv(16, packed=True)
    packed_obs, packed_infos = packed.reset(seed=3)
    fresh = BatchedEnv(16)
    fresh_obs, fresh_infos = fresh.reset(seed=3)
    assert np.array_equal(batched.unpack_observations(packed_obs, encoder), fresh_obs)
    assert np.array_equal(
        batched.unpack_masks(packed_infos["action_mask"]), fresh_infos["action_mask"]
    )


def test_threads_give_the_same_tables() -> None:
    one, two = BatchedEnv(1024, threads=1, packed=True), BatchedEnv(1024, threads=2, packed=True)
    a, _ = one.reset(seed=9)
    b, _ = two.reset(seed=9)
    assert np.array_equal(a, b)
    total = np.zeros(4)
    for _ in range(60):
        actions = one.sample_actions()
        assert np.array_equal(actions, two.sample_actions())
        a, ra, da, _, _ = one.step(actions)
        b, rb, db, _, _ = two.step(actions)
        assert np.array_equal(a, b) and np.array_equal(ra, rb) and np.array_equal(da, db)
        total += ra.sum(0)
    assert total.any()  # hands were scored


def test_bad_input_is_refused_clearly() -> None:
    with pytest.raises(ValueError, match="num_envs"):
        BatchedEnv(0)
    with pytest.raises(ValueError, match="num_envs"):
        BatchedEnv(65_537)
    with pytest.raises(ValueError, match="without house rules"):
        BatchedEnv(2, variants={"ralphing": True})
    env = BatchedEnv(2)
    with pytest.raises(RuntimeError, match="reset"):
        env.step([PASS, PASS])
    obs, infos = env.reset(seed=1)
    with pytest.raises(ValueError, match="2 integers"):
        env.step([PASS])
    legal = infos["action_mask"][1]
    illegal = int(np.flatnonzero(legal == 0)[0])
    with pytest.raises(ValueError, match="table 1: action"):
        env.step([PASS, illegal])
    # nothing moved: the same observations as before
    assert np.array_equal(env.observe(0, int(infos["to_move"][0])), obs[0])
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=[1])


def _house_rules() -> list[tuple[str, str]]:
    """Every house rule (a switch) with each preset that takes it."""
    out = []
    for name, variant in REGISTRY.items():
        if not variant.house or variant.kind != SWITCH:
            continue
        for preset in RULE_PRESETS:
            try:
                make_rules(preset, {name: True})
            except RulesError:
                continue
            out.append((preset, name))
    return out


def test_house_rules_are_refused_by_name() -> None:
    from fivehundred.env.batched_aec import batched_raw_env

    cases = _house_rules()
    assert len(cases) > 50 and {"ralphing", "hi_lo", "dead_hand", "claim"} <= {
        name for _, name in cases
    }
    for preset, name in cases:
        assert not batched.supported(make_rules(preset, {name: True})), (preset, name)
        with pytest.raises(ValueError, match=rf"without house rules.*\({name}: house rule"):
            BatchedEnv(1, preset, {name: True})
    with pytest.raises(ValueError, match="without house rules"):
        batched_raw_env("australian", {"hi_lo": True})
    # the presets themselves are played, whatever their own (house) settings
    for preset in RULE_PRESETS:
        assert batched.supported(make_rules(preset)), preset


@pytest.mark.parametrize("preset", ["australian", "two_handed", "five_handed"])
def test_pettingzoo_adapter_plays_a_hand(preset: str) -> None:
    from fivehundred.env.batched_aec import batched_raw_env

    table = batched_raw_env(preset)
    table.reset(seed=11)
    state = table.hand_state()
    encoder = Encoder(table.rules)
    rewards: dict[str, float] = dict.fromkeys(table.possible_agents, 0.0)
    rng = random.Random(0)
    for agent in table.agent_iter():
        obs, reward, terminated, truncated, _ = table.last()
        rewards[agent] += reward
        if terminated or truncated:
            table.step(None)
            continue
        assert agent == f"player_{controller_of(table.rules, state.to_move)}"
        assert np.array_equal(obs["observation"], encoder.encode(state, state.to_move))
        assert list(np.flatnonzero(obs["action_mask"])) == sorted(state.legal_actions())
        action = rng.choice(state.legal_actions())
        table.step(action)
        state.apply(action)
    assert state.is_over
    sides = side_of_seats(table.rules)
    points = state.result.points
    assert [rewards[a] for a in table.possible_agents] == [
        points[sides[p]] for p in range(table.rules.players)
    ]
