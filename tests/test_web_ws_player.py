"""examples/ws_player.py: a view rebuilt into the engine's observation, and a whole game
played at a web table by the example bot."""

from __future__ import annotations

import random
import sys
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from fivehundred.game import GameState
from fivehundred.rules import PRESETS, make_rules
from test_web_support import thread_server

EXAMPLES = Path(__file__).parents[1] / "examples"
sys.path.insert(0, str(EXAMPLES))
from ws_player import main, observation_from_view  # noqa: E402


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_view_rebuilds_the_seats_observation(preset: str) -> None:
    rules = make_rules(preset)
    rng = random.Random(preset)
    checked = 0
    for game_number in range(30):
        if checked >= 300:
            break
        game = GameState(rules, seed=game_number)
        while not game.is_over:
            seat = game.to_move
            observation = game.observation(seat)
            seats = [s for s, _ in observation.auction]
            # (all but the cards dealt, which the view does not carry)
            rebuilt = observation_from_view(observation.to_json(), rules, seats)
            assert rebuilt == replace(observation, dealt=0)
            other = game.observation((seat + 1) % rules.seats)
            assert observation_from_view(other.to_json(), rules, seats) == replace(other, dealt=0)
            checked += 1
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
    assert checked > 300


def test_the_example_bot_plays_a_whole_game(tmp_path: Any) -> None:
    with thread_server(f"sqlite:///{tmp_path / 'w.sqlite3'}") as base:
        body = {
            "seats": ["open", "random", "open", "random"],
            "seed": 31,
            "rules": {"variants": {"target": 10}},
            "options": {"delay": 0},
        }
        code = httpx.post(f"{base}/api/tables", json=body).json()["table"]
        outcomes: dict[int, Any] = {}

        def bot(seat: int) -> None:
            try:
                outcomes[seat] = main(
                    [
                        "--server",
                        base,
                        "--table",
                        code,
                        "--seat",
                        str(seat),
                        "--player",
                        "heuristic",
                        "--quiet",
                    ]
                )
            except BaseException as error:
                outcomes[seat] = error

        threads = [threading.Thread(target=bot, args=(seat,)) for seat in (0, 2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        assert outcomes == {0: 0, 2: 0}
        facts = httpx.get(f"{base}/api/tables/{code}").json()
        assert facts["finished"]
        assert [s["name"] for s in facts["seats"]] == [
            "heuristic bot",
            "random",
            "heuristic bot",
            "random",
        ]
