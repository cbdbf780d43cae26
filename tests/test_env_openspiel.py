"""The OpenSpiel game ``python_five_hundred``: OpenSpiel's random simulation test, the
information state across resampling, tensors, and the ISMCTS example."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
np = pytest.importorskip("numpy")

import fivehundred.env.openspiel_game as game_module  # noqa: E402  (registers the game)
from fivehundred.env.encoding import Encoder, acting_seat  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "preset", ["australian", "three_handed", "five_handed", "six_handed", "two_handed"]
)
def test_random_sim_test(preset: str) -> None:
    game = pyspiel.load_game("python_five_hundred", {"preset": preset})
    assert game.num_players() == game_module.rules_of({"preset": preset}).players
    pyspiel.random_sim_test(game, num_sims=3, serialize=preset == "australian", verbose=False)


def test_game_type_and_parameters() -> None:
    game = pyspiel.load_game("python_five_hundred", {"variants": "target=300,two_jokers"})
    kind = game.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert kind.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    assert game.num_distinct_actions() == game_module.NUM_ACTIONS
    state = game.new_initial_state()
    assert state.is_chance_node() and len(state.chance_outcomes()) == 44  # 43 + black joker
    with pytest.raises(Exception, match="unknown preset"):
        pyspiel.load_game("python_five_hundred", {"preset": "nine_handed"})


def _dealt_and_played(seed: int, steps: int, preset: str = "australian") -> object:
    game = pyspiel.load_game("python_five_hundred", {"preset": preset})
    rng = random.Random(seed)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
    for _ in range(steps):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return state


@pytest.mark.parametrize("preset", ["australian", "two_handed"])
def test_resampling_keeps_the_information_state(preset: str) -> None:
    moved = 0
    for seed in range(12):
        state = _dealt_and_played(seed, seed * 5, preset)
        if state.is_terminal():
            continue
        player = state.current_player()
        sampler = random.Random(seed).random
        other = state.resample_from_infostate(player, sampler)
        assert other.information_state_string(player) == state.information_state_string(player)
        assert other.observation_tensor(player) == state.observation_tensor(player)
        assert other.legal_actions() == state.legal_actions()
        hidden = [s for s in range(4) if s != player]  # (two players: the dummies too)
        moved += any(other.hand.hands[s] != state.hand.hands[s] for s in hidden)
    assert moved  # the unseen cards really are dealt anew


def test_tensors_are_the_environment_encoding() -> None:
    state = _dealt_and_played(3, 20)
    encoder = Encoder(state.rules)
    for player in range(4):
        expected = encoder.encode(state.hand, acting_seat(state.hand, player))
        assert np.array_equal(np.array(state.observation_tensor(player), np.float32), expected)
        assert state.information_state_string(player) != state.information_state_string(
            (player + 1) % 4
        )


def test_ismcts_example_plays_a_hand() -> None:
    result = subprocess.run(
        [
            sys.executable,
            str(ROOT / "examples" / "ismcts_vs_heuristic.py"),
            "--hands",
            "1",
            "--simulations",
            "8",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "ISMCTS − heuristic per hand" in result.stdout
