"""Levels for people (easy, medium, hard, expert), heuristic:v1, and explanations in card
language."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import apply_text, deal_hand
from fivehundred.actions import Action, action_text
from fivehundred.bots import (
    PLAYERS,
    EasyPlayer,
    HeuristicPlayer,
    PimcPlayer,
    make_player,
    player_choices,
    uses_solver,
)
from fivehundred.bots.base import say
from fivehundred.bots.heuristic_v1 import HeuristicV1Player
from fivehundred.bots.levels import EASY_LEFT_BOWER, HARD_SAMPLES
from fivehundred.bots.pimc import DEFAULT_SAMPLES
from fivehundred.game import HandState
from fivehundred.rules import make_rules

AUS = make_rules("australian")
SUITS = "♠♣♦♥"


def play_hand(name: str, seed: int, deal: int) -> list[Action]:
    state = HandState.deal(AUS, 0, f"levels/{deal}")
    players = [make_player(name, seed * 10 + seat) for seat in range(4)]
    actions = []
    while not state.is_over:
        action = players[state.to_move].act(state.observation(state.to_move))
        actions.append(action)
        state.apply(action)
    return actions


def test_levels_are_registered_players() -> None:
    for name in ("easy", "medium", "hard", "expert", "heuristic:v1"):
        assert name in PLAYERS
    assert isinstance(make_player("easy", 1), EasyPlayer)
    assert type(make_player("medium", 1)) is HeuristicPlayer
    assert isinstance(make_player("heuristic:v1", 1), HeuristicV1Player)
    hard, expert = make_player("hard", 1), make_player("expert", 1)
    assert isinstance(hard, PimcPlayer) and isinstance(expert, PimcPlayer)
    assert expert.samples > hard.samples


def test_easy_replays_from_its_seed_and_slips() -> None:
    assert play_hand("easy", 3, 1) == play_hand("easy", 3, 1)
    slips = 0
    for deal in range(6):
        state = HandState.deal(AUS, 0, f"levels/{deal}")
        easy = [EasyPlayer(seat) for seat in range(4)]
        rules_player = HeuristicPlayer(0)
        while not state.is_over:
            obs = state.observation(state.to_move)
            action = easy[state.to_move].act(obs)
            if action != rules_player.act(obs):
                slips += 1
                why = easy[state.to_move].explain()
                assert any(s in why for s in SUITS) or "joker" in why or "pass" in why, why
            state.apply(action)
    assert slips >= 3  # a beginner slips now and then, not never


def test_every_player_explains_in_card_language() -> None:
    state = HandState.deal(AUS, 0, "levels/explain")
    while state.phase != "play":
        state.apply(HeuristicPlayer(0).act(state.observation(state.to_move)))
    for name in ("random", "heuristic", "easy"):
        player = make_player(name, 5)
        player.act(state.observation(state.to_move))
        why = player.explain()
        assert any(s in why for s in SUITS) or "joker" in why or "only legal" in why, (name, why)


def test_say_names_cards_and_bids() -> None:
    from fivehundred.actions import parse_action

    assert say(parse_action("7S", "play")) == "the 7♠"
    assert say(parse_action("JK", "play")) == "the joker"
    assert say(parse_action("JK>H", "play")) == "the joker led as ♥"
    assert say(parse_action("7H", "auction")) == "7♥"
    assert say(parse_action("6NT", "auction")) == "6NT"
    assert say(parse_action("open_misere", "auction")) == "open misère"


# ----------------------------------------------------------------------------- easy: a beginner
def _both(state: HandState) -> tuple[str, str]:
    """What the beginner and the heuristic choose here, in record notation."""
    obs = state.observation(state.to_move)
    return action_text(EasyPlayer(0).act(obs)), action_text(HeuristicPlayer(0).act(obs))


def _hearts_declarer(hand: str, others: dict[int, str] | None = None) -> HandState:
    """Seat 0 has bid 6♥ and put 7♠ 8♠ 9♠ away: its opening lead."""
    state = deal_hand(AUS, 3, {0: hand, **(others or {})}, kitty="7S 8S 9S")
    return apply_text(state, "6H pass pass pass 7S 8S 9S")


def test_easy_overbids_by_a_trick() -> None:
    state = deal_hand(AUS, 3, {0: "JH AH KH 10H 9H AS KS 5C 6C 4D"})
    easy, medium = _both(state)
    assert medium.endswith("H") and int(medium[:-1]) < 10, medium  # the premise
    assert easy == f"{int(medium[:-1]) + 1}H"


def test_easy_forgets_the_left_bower_when_counting() -> None:
    obs = deal_hand(AUS, 3, {0: "JH JD AH 9H 7H AS KS 5C 6C 4D"}).observation(0)
    easy, medium = EasyPlayer(0).bid_levels(obs), HeuristicPlayer(0).bid_levels(obs)
    assert set(easy) == set(medium) and 3 in medium
    for strain, count in medium.items():
        # hearts: the J♦ forgotten; diamonds: the J♥; no trumps has no bowers
        forgotten = EASY_LEFT_BOWER if strain in (2, 3) else 0.0
        assert easy[strain] == pytest.approx(count - forgotten), strain


def test_easy_throws_the_left_bower_out_with_its_suit() -> None:
    state = deal_hand(AUS, 3, {0: "JH JD AH KH QH AS KS QS 4D 5D"}, kitty="7S 8S 9S")
    apply_text(state, "6H pass pass pass")
    assert state.phase == "discard"
    easy, medium = _both(state)
    assert (easy, medium) == ("JD", "4D")


def test_easy_cashes_its_ace_instead_of_drawing_trumps() -> None:
    easy, medium = _both(_hearts_declarer("JH JD AH KH QH AS 5C 6C 4D 5D"))
    assert easy == "AS" and medium != "AS"


def test_easy_leads_away_from_a_king() -> None:
    easy, medium = _both(_hearts_declarer("JH JD QH 10H 9H KC 5C 6C 4D 5D"))
    assert easy == "5C" and medium == "JH"


def test_easy_puts_its_ace_on_partners_winning_king() -> None:
    state = _hearts_declarer(
        "JH JD AH KH QH KC 5C 6C 4D 5D",
        {1: "9C 10C 5S 6S 10S JS QS 6D 7D 8D", 2: "AC 7C 8C 4H 5H 6H KS AS QD KD"},
    )
    apply_text(state, "KC 9C")
    assert state.to_move == 2
    assert _both(state) == ("AC", "7C")


# ----------------------------------------------------------------------------- what people see
def test_people_are_offered_the_levels_and_the_players_they_are_made_of() -> None:
    choices = player_choices()
    assert choices[:4] == ["easy", "medium", "hard", "expert"]
    assert choices == ["easy", "medium", "hard", "expert", "random", "heuristic", "pimc"]
    # experiments not shown to gain are not offered, but the arena can still build them
    for name in ("pimc:strong", "pimc:postpone", "pimc:fast", "heuristic:v1", "heuristic:v2"):
        assert name not in choices
        assert make_player(name, 1) is not None


def test_hard_and_expert_are_search_players() -> None:
    hard, expert = make_player("hard", 1), make_player("expert", 1)
    assert isinstance(hard, PimcPlayer) and isinstance(expert, PimcPlayer)
    assert (hard.samples, expert.samples) == (HARD_SAMPLES, DEFAULT_SAMPLES)
    for name in ("hard", "expert", "pimc", "pimc:8", "pimc:strong"):
        assert uses_solver(name), name
    for name in ("easy", "medium", "heuristic", "random", "heuristic:v1", "cmd:pimc"):
        assert not uses_solver(name), name


def test_a_game_against_a_level_that_searches_prepares_the_solver_first(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The first-use notice ("Preparing the double-dummy solver") is shown for ``hard``
    and ``expert`` as for ``pimc``, and not for the levels that do not search."""
    from fivehundred import solver
    from fivehundred.tui.session import Session, Settings

    monkeypatch.setattr(solver, "is_compiled", lambda: False)
    for opponents, needed in (("hard", True), ("expert", True), ("medium", False)):
        settings = Settings(seed=5, speed=0, variants={}, opponents=opponents, partner="easy")
        session = Session(settings, path=tmp_path / "game.json", autosave=False)
        assert session.needs_solver_warm_up() is needed, opponents
