"""Every option offered works in every interface: for every preset and every variant the
preset accepts (the switches, each scoring table and a target), one hand is played in the
terminal game's session, at a web table of computer players, and in the PettingZoo
environment. An option that is offered and then crashes an interface fails here.

The options are the ones the interfaces offer: the terminal game greys out what
``make_rules`` refuses (so it offers what it accepts), and the web lobby offers the
variants ``GET /api/rules`` lists for each preset.
"""

from __future__ import annotations

import os
import random
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fivehundred.errors import RulesError
from fivehundred.rules import PRESETS, VARIANTS, Rules, make_rules
from fivehundred.tui import storage
from fivehundred.tui.session import Session, Settings, playable_presets

#: The value variants and the values tried (the options screen's fields).
VALUE_OPTIONS: dict[str, tuple[Any, ...]] = {
    "target": (250,),
    "scoring_table": ("avondale", "original_1904", "perfect"),
}


def offered(preset: str) -> list[dict[str, Any]]:
    """Each single option the preset accepts, as the variants it sends: a switch turned
    from the preset's setting to the other one, a scoring table, a target."""
    base = PRESETS[preset]
    options: list[dict[str, Any]] = [{}]
    for name in sorted(VARIANTS):
        values = VALUE_OPTIONS.get(name)
        if values is None:
            values = (not bool(getattr(base, name, False)),)
        for value in values:
            try:
                make_rules(preset, {name: value})
            except RulesError:
                continue  # greyed out in the terminal game, not offered by the lobby
            options.append({name: value})
    return options


#: Every preset with each single option it accepts.
GRID = [(preset, variants) for preset in playable_presets() for variants in offered(preset)]


def natural(grid: list[tuple[str, dict[str, Any]]]) -> list[tuple[str, dict[str, Any]]]:
    """Each preset alone, and each option once, at the first preset that accepts it
    (Australian unless the option is for other tables)."""
    cases: list[tuple[str, dict[str, Any]]] = []
    seen: set[str] = set()
    for preset, variants in grid:
        key = "" if not variants else repr(sorted(variants.items()))
        if not variants or key not in seen:
            cases.append((preset, variants))
            seen.add(key)
    return cases


#: The cases the terminal game and the web server play: the whole grid with
#: ``FIVEHUNDRED_EVERY_OPTION=all`` (a few minutes), else each preset and each option
#: once (the environment, quick, always takes the whole grid).
CASES = GRID if os.environ.get("FIVEHUNDRED_EVERY_OPTION") == "all" else natural(GRID)


def option_id(item: tuple[str, dict[str, Any]]) -> str:
    preset, variants = item
    return "-".join([preset, *(f"{k}={v}" for k, v in variants.items())])


def test_the_grid_covers_every_preset_and_variant() -> None:
    for cases in (GRID, CASES):
        assert {preset for preset, _ in cases} == set(PRESETS)
        named = {name for _, variants in cases for name in variants}
        assert named == set(VARIANTS), set(VARIANTS) - named
    assert len(GRID) > 200  # 64 pairs of the 7 × 45 are refused (greyed out)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(storage.ENV_DATA_DIR, str(tmp_path))
    return tmp_path


# ----------------------------------------------------------------------------- terminal
@pytest.mark.parametrize("preset,variants", CASES, ids=[option_id(item) for item in CASES])
def test_the_terminal_game_plays_a_hand(
    preset: str, variants: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session behind the full-screen game and the line mode: the person (random
    legal moves) and computer players finish a hand, which is scored and saved."""
    # Saved after every action as in play, without waiting for the disk each time.
    monkeypatch.setattr(storage.os, "fsync", lambda fd: None)
    settings = Settings(
        preset=preset,
        variants=dict(variants),
        seed=3,
        speed=0,
        opponents="random",
        partner="random",
    )
    session = Session.new(settings)
    rng = random.Random(3)
    for _ in range(2000):
        if session.game.finished_hands or session.is_over:
            break
        if session.human_to_move:
            session.play(rng.choice(session.legal_actions()))
        else:
            session.step_computer()
    assert session.game.finished_hands, "no hand finished"
    assert session.rules.to_dict()["variants"] == variants
    resumed = Session.resume()
    assert resumed.record() == session.record()


# ----------------------------------------------------------------------------- web
def lobby_switches() -> dict[str, set[str]]:
    """The switches the web lobby shows for each preset (``GET /api/rules``: the
    variants of kind ``switch`` the preset lists)."""
    from fivehundred.web.history import rules_catalogue

    catalogue = rules_catalogue()
    switches = {v["name"] for v in catalogue["variants"] if v["kind"] == "switch"}
    return {p["name"]: set(p["variants"]) & switches for p in catalogue["presets"]}


def test_the_lobby_offers_every_switch_its_preset_accepts() -> None:
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    shown = lobby_switches()
    for preset, variants in GRID:
        for name, value in variants.items():
            if value is True and name not in VALUE_OPTIONS:
                assert name in shown[preset], (preset, name)


@pytest.fixture(scope="module")
def web_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    pytest.importorskip("fastapi", reason="the web extra is not installed")
    with warnings.catch_warnings():  # starlette prefers httpx2, not yet in the dev extra
        warnings.simplefilter("ignore", DeprecationWarning)
        from fastapi.testclient import TestClient
    from fivehundred.web.server import create_app

    url = f"sqlite:///{tmp_path_factory.mktemp('web') / 'web.sqlite3'}"
    with TestClient(create_app(url, workers=0, allow_seeds=True)) as client:
        yield client


def test_every_option_makes_a_web_table_that_finishes_a_hand(web_client: Any) -> None:
    """A table of computer players for each option, created through the API (all at
    once, as the server runs them side by side), each until its first hand is scored."""
    options = CASES
    codes = {}
    for preset, variants in options:
        rules: Rules = make_rules(preset, variants)
        body = {
            "seats": ["random"] * rules.players,
            "options": {"delay": 0},
            "seed": 5,
            "rules": {"preset": preset, "variants": variants},
        }
        response = web_client.post("/api/tables", json=body)
        assert response.status_code == 201, (preset, variants, response.text)
        codes[response.json()["table"]] = (preset, variants)
    deadline = time.monotonic() + 120
    waiting = dict(codes)
    while waiting:
        for code in list(waiting):
            facts = web_client.get(f"/api/tables/{code}").json()
            if facts["hands_played"] >= 1:
                assert facts["rules"] == {"preset": waiting[code][0], "variants": waiting[code][1]}
                del waiting[code]
        assert time.monotonic() < deadline, f"no hand finished: {sorted(waiting.values())}"
        time.sleep(0.05)


# ----------------------------------------------------------------------------- env
def env_case(preset: str, variants: dict[str, Any]) -> Any:
    """A case of the environment's grid, the games with hands out of play (dead_hand,
    open_eight, draw_pack: four seats, two or three agents) among them."""
    return pytest.param(preset, variants, id=option_id((preset, variants)))


@pytest.mark.filterwarnings("ignore:Observation space for each agent")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("preset,variants", [env_case(*item) for item in GRID])
def test_the_environment_steps_a_hand(preset: str, variants: dict[str, Any]) -> None:
    """The PettingZoo environment (with its order checks): random masked actions until
    the hand ends, every agent's observation the right shape on the way."""
    pytest.importorskip("pettingzoo", reason="the env extra is not installed")
    import numpy as np

    from fivehundred.env import env

    table = env(preset, variants)
    table.reset(seed=2)
    rng = np.random.default_rng(2)
    steps = 0
    for agent in table.agent_iter(max_iter=5000):
        obs, _reward, terminated, truncated, _ = table.last()
        if terminated or truncated:
            table.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert legal.size, f"{agent} to move with no legal action"
        table.step(int(rng.choice(legal)))
        steps += 1
    assert not table.agents and steps > 0
