"""Computer players: legal actions always, observations only, seeds, and external programs."""

from __future__ import annotations

import random
import sys
import textwrap
from pathlib import Path

import pytest

from fivehundred.actions import action_text
from fivehundred.bots import HeuristicPlayer, PimcPlayer, RandomPlayer, make_player
from fivehundred.bots.external import ExternalPlayer
from fivehundred.cards import iter_cards
from fivehundred.game import HandState
from fivehundred.rules import PRESETS, make_rules

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_heuristic_always_legal_in_every_preset(preset: str) -> None:
    rules = make_rules(preset)
    decisions = 0
    for seed in range(25):
        state = HandState.deal(rules, seed % rules.players, seed)
        players = [
            HeuristicPlayer(seed) if (seat + seed) % 2 else RandomPlayer(seed)
            for seat in range(rules.seats)
        ]
        while not state.is_over:
            seat = state.to_move
            obs = state.observation(seat)
            choice = players[seat].act(obs)
            assert choice in obs.legal
            assert isinstance(players[seat].explain(), str)
            state.apply(choice)
            decisions += 1
    assert decisions > 500


@pytest.mark.parametrize(
    "variants",
    [
        {"two_jokers": True},
        {"pack45": True},
        {"allpass_play_nt": True},
        {"blind_misere": True},
        {"joker_lead_not_renounced": True},
        {"eldest_leads": True},
        {"dealer_must_bid": True, "misere_anytime": True},
    ],
)
def test_heuristic_legal_under_variants(variants: dict[str, bool]) -> None:
    rules = make_rules("australian", variants)
    for seed in range(20):
        state = HandState.deal(rules, seed % 4, seed)
        player = HeuristicPlayer(seed)
        while not state.is_over:
            obs = state.observation(state.to_move)
            choice = player.act(obs)
            assert choice in obs.legal
            state.apply(choice)


@pytest.mark.parametrize("preset", ["australian", "three_handed", "american"])
def test_pimc_legal_late_in_the_hand(preset: str) -> None:
    # The search itself is slow early in a hand; check it from trick 6 on in several hands.
    rules = make_rules(preset)
    for seed in range(4):
        state = HandState.deal(rules, seed % rules.players, seed)
        heuristic = HeuristicPlayer(seed)
        pimc = PimcPlayer(seed, samples=4)
        while not state.is_over:
            obs = state.observation(state.to_move)
            late = state.phase == "play" and len(state.tricks) >= 6
            choice = (pimc if late else heuristic).act(obs)
            assert choice in obs.legal
            state.apply(choice)


def _shuffle_hidden(state: HandState, seat: int, rng: random.Random) -> HandState:
    """The same position with the cards ``seat`` cannot see dealt differently among the
    other hands and the kitty (same sizes)."""
    other = state.clone()
    seats = [s for s in range(state.seats) if s != seat]
    hidden = [c for s in seats for c in iter_cards(other.hands[s])]
    hidden += list(iter_cards(other.kitty))
    rng.shuffle(hidden)
    for s in seats:
        n = other.hands[s].bit_count()
        other.hands[s] = sum(1 << c for c in hidden[:n])
        hidden = hidden[n:]
    other.kitty = sum(1 << c for c in hidden)
    return other


@pytest.mark.parametrize("name", ["heuristic", "pimc:6", "random"])
def test_bots_see_only_observations(name: str) -> None:
    rules = make_rules()
    rng = random.Random(5)
    checked = 0
    for seed in range(12):
        state = HandState.deal(rules, seed % 4, seed)
        driver = HeuristicPlayer(seed)
        while not state.is_over:
            seat = state.to_move
            slow = name.startswith("pimc") and state.phase == "play" and len(state.tricks) < 7
            if (
                state.phase in ("auction", "play")
                and not slow
                and seed % 3 == len(state.history) % 3
            ):
                shuffled = _shuffle_hidden(state, seat, rng)
                obs, obs2 = state.observation(seat), shuffled.observation(seat)
                assert obs == obs2
                first = make_player(name, seed).act(obs)
                second = make_player(name, seed).act(obs2)
                assert first == second
                checked += 1
            state.apply(driver.act(state.observation(seat)))
    assert checked > 40


def test_make_player_names() -> None:
    assert isinstance(make_player("heuristic", 1), HeuristicPlayer)
    strong = make_player("pimc:strong", 1)
    assert isinstance(strong, PimcPlayer) and strong.samples == 160
    assert make_player("pimc:30", 1).samples == 30  # type: ignore[attr-defined]
    assert isinstance(make_player("cmd:python3 examples/simple_bot.py", 1), ExternalPlayer)
    for bad in ("nobody", "pimc:lots", "pimc:0", "cmd:"):
        with pytest.raises(ValueError):
            make_player(bad, 1)


def test_explain_says_why() -> None:
    rules = make_rules()
    state = HandState.deal(rules, 0, 3)
    player = HeuristicPlayer(1)
    player.act(state.observation(state.to_move))
    assert len(player.explain()) > 5


# ----------------------------------------------------------------------------- external
def _play_with(command: str, hands: int = 1, timeout: float = 5.0) -> list[str]:
    rules = make_rules()
    problems: list[str] = []
    for seed in range(hands):
        state = HandState.deal(rules, 0, seed)
        outside = ExternalPlayer(command, seed, timeout=timeout, report=sys.stdout)
        others = [RandomPlayer(seat) for seat in range(4)]
        try:
            while not state.is_over:
                seat = state.to_move
                obs = state.observation(seat)
                choice = (outside if seat == 1 else others[seat]).act(obs)
                assert choice in obs.legal
                state.apply(choice)
            outside.hand_over({"points": list(state.result.points)})
        finally:
            outside.close()
        problems += outside.problems
    return problems


def test_example_bot_plays_cleanly() -> None:
    problems = _play_with(f"{sys.executable} {ROOT / 'examples' / 'simple_bot.py'}", hands=3)
    assert problems == []


@pytest.mark.parametrize(
    ("body", "expect", "timeout"),
    [
        # a program that answers is given all the time a busy machine may need to answer;
        # only the one that never answers meets the short limit
        ('print("not json", flush=True)', "not an answer", 60.0),
        ('print(json.dumps({"action": "XX"}), flush=True)', "illegal action", 60.0),
        ("time.sleep(600)", "no answer within", 0.3),
        ("sys.exit(0)", "exited", 60.0),
    ],
)
def test_faulty_external_player_is_replaced_by_random(
    tmp_path: Path, body: str, expect: str, timeout: float
) -> None:
    script = tmp_path / "bad.py"
    script.write_text(
        textwrap.dedent(f"""
        import json, sys, time
        for line in sys.stdin:
            if json.loads(line)["type"] == "decide":
                {body}
    """)
    )
    problems = _play_with(f"{sys.executable} {script}", timeout=timeout)
    assert problems and expect in problems[0]


def test_observation_json_has_protocol_fields() -> None:
    state = HandState.deal(make_rules(), 0, 1)
    data = state.observation(state.to_move).to_json()
    for key in (
        "seat",
        "dealer",
        "phase",
        "hand",
        "auction",
        "contract",
        "contractor",
        "joker_suit",
        "tricks",
        "trick",
        "legal",
        "scores",
    ):
        assert key in data
    assert data["legal"] == [action_text(a) for a in state.legal_actions()]


def test_pimc_bid_simulation_gives_legal_calls() -> None:
    rules = make_rules()
    for seed in range(3):
        state = HandState.deal(rules, seed % 4, seed)
        player = PimcPlayer(seed, samples=8, bid_deals=1)
        while state.phase == "auction":
            obs = state.observation(state.to_move)
            call = player.act(obs)
            assert call in obs.legal and player.explain()
            state.apply(call)


def test_external_player_in_french_canadian_names_and_plays_the_white_joker(
    tmp_path: Path,
) -> None:
    """R-HOUSE: the French-Canadian higher joker is JKW to an external program too; its
    answer "JKW" is taken (it was refused as "not JKB" and a random player moved)."""
    seen = tmp_path / "seen.txt"
    script = tmp_path / "white.py"
    script.write_text(
        textwrap.dedent(f"""
        import json, sys
        for line in sys.stdin:
            message = json.loads(line)
            if message["type"] != "decide":
                continue
            obs = message["observation"]
            legal = obs["legal"]
            with open({str(seen)!r}, "a") as out:
                out.write(" ".join(legal) + "\\n")
            plain = [a for a in legal if not a.startswith("JK")]
            answer = "JKW" if "JKW" in legal and obs["phase"] == "play" else (plain or legal)[0]
            print(json.dumps({{"action": answer}}), flush=True)
    """)
    )
    rules = make_rules("french_canadian")
    played_white = 0
    for seed in range(40):
        state = HandState.deal(rules, 0, seed)
        outside = ExternalPlayer(f"{sys.executable} {script}", seed, timeout=5.0)
        others = [RandomPlayer(seat) for seat in range(4)]
        try:
            while not state.is_over:
                seat = state.to_move
                obs = state.observation(seat)
                choice = (outside if seat == 1 else others[seat]).act(obs)
                if seat == 1 and action_text(choice, rules.joker_names) == "JKW":
                    played_white += 1
                state.apply(choice)
        finally:
            outside.close()
        assert outside.problems == []
        if played_white:
            break
    assert played_white == 1
    legal_lists = seen.read_text().split()
    assert "JKW" in legal_lists and "JKB" not in legal_lists
