"""The PettingZoo environment: PettingZoo's own API, seed and render tests, hidden
information (the permutation test), the encoding against the core observation, rewards."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("pettingzoo", reason="the env extra (pettingzoo) is not installed")

import numpy as np
from pettingzoo.test import api_test, performance_benchmark, render_test, seed_test

from fivehundred.actions import NUM_ACTIONS, PASS, action_card
from fivehundred.cards import NUM_CARDS, iter_cards
from fivehundred.env import env, raw_env
from fivehundred.env.encoding import Encoder
from fivehundred.env.single import SingleAgentEnv
from fivehundred.game import HandState
from fivehundred.rules import make_rules

# PettingZoo's classic card games warn alike: the observation is a dict with the mask.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]

PRESETS = [
    "australian",
    "three_handed",
    "five_handed",
    "six_handed",
    "two_handed",
    "american",
    "french_canadian",
]
#: Variants whose layouts or seats differ (their own fields, dead hands, the table's cards).
VARIANT_LAYOUTS = [
    ("two_handed", {"draw_pack": True}),
    ("two_handed", {"open_eight": True}),
    ("three_handed", {"dead_hand": True}),
    ("australian", {"ralphing": True, "slam_call": True, "hi_lo": True}),
]


def _random_position(rules_preset: str, seed: int, steps: int) -> HandState:
    rules = make_rules(rules_preset)
    rng = random.Random(seed)
    state = HandState.deal(rules, seed % rules.players, seed=seed)
    for _ in range(steps):
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("preset", PRESETS)
def test_pettingzoo_api(preset: str) -> None:
    api_test(env(preset=preset), num_cycles=200)
    api_test(env(preset=preset, reward="game", max_hands=3), num_cycles=200)


@pytest.mark.parametrize(("preset", "variants"), VARIANT_LAYOUTS)
def test_pettingzoo_api_of_variant_layouts(preset: str, variants: dict[str, bool]) -> None:
    api_test(env(preset=preset, variants=variants), num_cycles=200)
    api_test(env(preset=preset, variants=variants, reward="game", max_hands=3), num_cycles=200)


def test_pettingzoo_seed_and_render() -> None:
    seed_test(env, num_cycles=200)
    seed_test(lambda: env(preset="five_handed", episode="game"), num_cycles=200)
    render_test(env)


def test_performance_benchmark_runs(capsys: pytest.CaptureFixture[str]) -> None:
    performance_benchmark(raw_env())
    assert "turns per second" in capsys.readouterr().out


def test_spaces_follow_the_action_numbering() -> None:
    table = raw_env()
    assert table.action_space("player_0").n == NUM_ACTIONS
    table.reset(seed=3)
    obs = table.observe(table.agent_selection)
    assert obs["action_mask"].shape == (NUM_ACTIONS,) and obs["action_mask"].dtype == np.int8
    assert set(np.flatnonzero(obs["action_mask"])) == set(table.hand.legal_actions())
    assert obs["observation"].shape == (table.encoder.size,)
    others = [a for a in table.agents if a != table.agent_selection]
    assert all(table.observe(a)["action_mask"].sum() == 0 for a in others)


def test_illegal_action_is_a_clear_error() -> None:
    table = raw_env()
    table.reset(seed=1)
    with pytest.raises(ValueError, match="not legal now"):
        table.step(0)  # a card in the auction
    assert not table.hand.history  # nothing applied


def test_kitty_discards_are_single_card_actions_in_a_row() -> None:
    table = raw_env()
    table.reset(seed=5)
    while table.hand.phase == "auction":
        legal = table.hand.legal_actions()
        table.step(legal[-1] if table.hand.auction.calls == [] else PASS)
    if table.hand.phase == "done":
        pytest.skip("all passed")
    contractor = table.agent_selection
    for _ in range(table.rules.pack.kitty_size):
        assert table.agent_selection == contractor and table.hand.phase == "discard"
        mask = table.observe(contractor)["action_mask"]
        assert np.flatnonzero(mask).max() < NUM_CARDS
        table.step(int(np.flatnonzero(mask)[0]))
    assert table.hand.phase != "discard"


@pytest.mark.parametrize("preset", ["australian", "five_handed", "two_handed", "six_handed"])
def test_encoding_matches_the_core_observation(preset: str) -> None:
    for seed in range(40):
        state = _random_position(preset, seed, seed * 7 % 60)
        encoder = Encoder(state.rules)
        for seat in range(state.rules.seats):
            vector = encoder.encode(state, seat)
            obs = state.observation(seat)
            n = state.rules.seats

            def cards(mask: int) -> np.ndarray:
                out = np.zeros(NUM_CARDS, np.float32)
                out[list(iter_cards(mask))] = 1
                return out

            assert (encoder.view(vector, "hand") == cards(obs.hand)).all()
            assert (encoder.view(vector, "discards") == cards(obs.discards)).all()
            played = [0] * n
            for plays, _ in obs.tricks:
                for s, action in plays:
                    played[s] |= 1 << action_card(action)
            for s, action in obs.trick:
                played[s] |= 1 << action_card(action)
            exposed = dict(obs.exposed)
            for k in range(n):
                s = (seat + k) % n
                assert (encoder.view(vector, "played")[k] == cards(played[s])).all()
                assert (encoder.view(vector, "exposed")[k] == cards(exposed.get(s, 0))).all()
                voids = [obs.voids[s] >> suit & 1 for suit in range(4)]
                assert list(encoder.view(vector, "voids")[k]) == voids
                calls = {call - PASS for who, call in obs.auction if who == s}
                assert set(np.flatnonzero(encoder.view(vector, "calls")[k])) == calls
                won = encoder.view(vector, "tricks_won")[k]
                assert won.sum() == 1 and won[obs.tricks_won[s]] == 1
                assert encoder.view(vector, "to_move")[k, 0] == (obs.to_move == s)
            # incremental and fresh encodings agree, and so does the encoding of the core
            # observation: the vector holds nothing the seat may not see
            assert (Encoder(state.rules).encode(state, seat) == vector).all()
            scores = (250, -60, 40, 0, 0, 0)[: max(encoder.sides) + 1]
            assert (
                encoder.encode(state, seat, scores)
                == encoder.encode_observation(state.observation(seat, scores))
            ).all()


def _shuffle_unseen(state: HandState, seat: int, rng: random.Random) -> HandState:
    """The same position with the cards ``seat`` cannot see dealt anew among the places
    that hold them (other hands, the kitty, others' discards), sizes kept."""
    other = state.clone()
    unseen = state.observation(seat).unseen
    places = [("hand", s) for s in range(state.seats) if s != seat] + [("kitty", -1)]
    if seat != state.contractor:
        places.append(("discards", -1))

    def get(place: tuple[str, int]) -> int:
        kind, s = place
        return other.hands[s] if kind == "hand" else getattr(other, kind)

    def put(place: tuple[str, int], mask: int) -> None:
        kind, s = place
        if kind == "hand":
            other.hands[s] = mask
        else:
            setattr(other, kind, mask)

    pool = [c for place in places for c in iter_cards(get(place) & unseen)]
    rng.shuffle(pool)
    for place in places:
        count = (get(place) & unseen).bit_count()
        mask = get(place) & ~unseen
        for card in pool[:count]:
            mask |= 1 << card
        del pool[:count]
        put(place, mask)
    assert not pool
    return other


@pytest.mark.parametrize("preset", PRESETS)
def test_shuffling_unseen_cards_leaves_the_observation_unchanged(preset: str) -> None:
    rng = random.Random(7)
    changed_for_someone = 0
    for seed in range(30):
        state = _random_position(preset, seed, rng.randrange(70))
        encoder = Encoder(state.rules)
        for seat in range(state.rules.seats):
            shuffled = _shuffle_unseen(state, seat, rng)
            before = encoder.encode(state, seat, (120, -40, 0, 0, 0, 0)[: encoder.sides[-1] + 1])
            after = encoder.encode(shuffled, seat, (120, -40, 0, 0, 0, 0)[: encoder.sides[-1] + 1])
            assert (before == after).all(), (preset, seed, seat)
            # the test can fail: some other seat sees its hand change
            others = [s for s in range(state.rules.seats) if s != seat]
            changed_for_someone += any(
                (encoder.encode(state, s) != encoder.encode(shuffled, s)).any() for s in others
            )
    assert changed_for_someone > 0


def test_kitty_and_other_hands_never_reach_a_seat() -> None:
    table = raw_env()
    table.reset(seed=11)
    hand = table.hand
    for agent in table.agents:
        seat = table.possible_agents.index(agent)
        vector = table.observe(agent)["observation"]
        card_fields = ("hand", "discards", "called_card")
        seen = sum(table.encoder.view(vector, name) for name in card_fields)
        for card in iter_cards(hand.kitty):
            assert seen[card] == 0
        for other in range(4):
            if other != seat:
                for card in iter_cards(hand.hands[other]):
                    assert seen[card] == 0


def test_points_rewards_equal_the_hand_score() -> None:
    table = raw_env(preset="australian")
    rng = random.Random(2)
    for episode in range(10):
        table.reset(seed=episode)
        total = dict.fromkeys(table.agents, 0.0)
        for agent in table.agent_iter():
            obs, reward, terminated, truncated, _ = table.last()
            total[agent] += reward
            if terminated or truncated:
                table.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            table.step(int(legal[rng.randrange(len(legal))]))
        points = table.hand.result.points
        assert total == {f"player_{i}": float(points[i % 2]) for i in range(4)}


def test_game_episode_rewards_are_plus_minus_one() -> None:
    table = raw_env(preset="australian", reward="game", max_hands=60)
    rng = random.Random(4)
    finished = 0
    for episode in range(4):
        table.reset(seed=episode)
        total = dict.fromkeys(table.agents, 0.0)
        for agent in table.agent_iter():
            obs, reward, terminated, truncated, _ = table.last()
            total[agent] += reward
            if terminated or truncated:
                table.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            table.step(int(legal[rng.randrange(len(legal))]))
        if table.game is not None and table.game.is_over:
            finished += 1
            winner = table.game.winner
            assert total == {f"player_{i}": 1.0 if i % 2 == winner else -1.0 for i in range(4)}
        else:
            assert set(total.values()) == {0.0}
    assert finished


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="reward"):
        raw_env(reward="tricks")
    with pytest.raises(ValueError, match="needs episode='game'"):
        raw_env(reward="game", episode="hand")
    with pytest.raises(Exception, match="unknown preset"):
        raw_env(preset="seven_handed")


def test_render_ansi_shows_the_table() -> None:
    table = raw_env(render_mode="ansi")
    table.reset(seed=1)
    text = table.render()
    assert isinstance(text, str) and "phase auction" in text and "South" in text


def test_single_agent_wrapper_is_seeded_and_beats_nobody_by_luck() -> None:
    def run(seed: int) -> list[float]:
        learner = SingleAgentEnv(opponents="heuristic", side=0, seed=seed)
        rewards = []
        for episode in range(5):
            obs, _ = learner.reset(seed=seed * 10 + episode)
            done = False
            total = 0.0
            while not done:
                assert obs["action_mask"].sum() > 0
                assert (learner.action_masks() == obs["action_mask"].astype(bool)).all()
                action = int(np.flatnonzero(obs["action_mask"])[0])
                obs, reward, terminated, truncated, _ = learner.step(action)
                total += reward
                done = terminated or truncated
            rewards.append(total)
        learner.close()
        return rewards

    assert run(3) == run(3)
    with pytest.raises(ValueError, match="unknown player"):
        SingleAgentEnv(opponents="grandmaster")
    with pytest.raises(ValueError, match="no side"):
        SingleAgentEnv(side=5)


def test_single_agent_wrapper_seat_of_a_two_player_game() -> None:
    learner = SingleAgentEnv(preset="two_handed", opponents="random", seat=1, seed=1)
    obs, _ = learner.reset(seed=2)
    steps = 0
    done = False
    while not done:
        obs, _, terminated, truncated, _ = learner.step(int(np.flatnonzero(obs["action_mask"])[-1]))
        done = terminated or truncated
        steps += 1
    assert steps >= 10  # seat 1 plays its own hand and its dummy's


def test_single_agent_wrapper_against_an_external_program() -> None:
    import sys
    from pathlib import Path

    bot = Path(__file__).resolve().parents[1] / "examples" / "simple_bot.py"
    learner = SingleAgentEnv(opponents=f"cmd:{sys.executable} {bot}", seat=0, seed=4)
    try:
        obs, _ = learner.reset(seed=4)
        done = False
        total = 0.0
        while not done:
            obs, reward, terminated, truncated, _ = learner.step(
                int(np.flatnonzero(obs["action_mask"])[0])
            )
            total += reward
            done = terminated or truncated
        assert learner.table.hand is not None and learner.table.hand.is_over
        assert total == learner.table.hand.result.points[0]
        assert all(not getattr(p, "problems", []) for p in learner.players.values())
    finally:
        learner.close()


def _every_configuration() -> list[tuple[str, dict[str, object]]]:
    """Every preset, alone and with each variant of the rule book that applies to it."""
    from fivehundred.errors import RulesError
    from fivehundred.rules import PRESETS as ALL_PRESETS
    from fivehundred.rules import VARIANTS

    values: dict[str, object] = {"target": 300, "scoring_table": "perfect"}
    configs: list[tuple[str, dict[str, object]]] = []
    for preset in ALL_PRESETS:
        configs.append((preset, {}))
        for name in VARIANTS:
            variants = {name: values.get(name, True)}
            try:
                make_rules(preset, variants)
            except RulesError:
                continue  # refused by name for this preset (RULES.md §10)
            configs.append((preset, variants))
    return configs


def test_every_preset_and_variant_plays_in_the_environment() -> None:
    """A hand of every preset with each variant that applies, random agents choosing
    from the mask: every observation fits the space, the agent to move has a legal
    action, and the episode ends with the hand's points as rewards."""
    configs = _every_configuration()
    assert len(configs) > 200
    rng = random.Random(3)
    for index, (preset, variants) in enumerate(configs):
        table = raw_env(preset=preset, variants=variants)
        table.reset(seed=index)
        space = table.observation_space(table.agent_selection)
        steps = 0
        final: dict[str, float] = {}
        for agent in table.agent_iter():
            obs, reward, terminated, truncated, _ = table.last()
            assert space.contains(obs), (preset, variants)
            if terminated or truncated:
                final[agent] = reward
                table.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal), (preset, variants, agent)
            table.step(int(legal[rng.randrange(len(legal))]))
            steps += 1
        assert steps > 0 and table.hand is not None and table.hand.is_over
        points = table.hand.result.points
        assert final == {
            f"player_{i}": float(points[table.sides[i]]) for i in range(table.rules.players)
        }, (preset, variants)
