"""Levels for people (easy, medium, hard, expert), heuristic:v1, and explanations in card
language."""

from __future__ import annotations

from fivehundred.actions import Action
from fivehundred.bots import PLAYERS, EasyPlayer, HeuristicPlayer, PimcPlayer, make_player
from fivehundred.bots.base import say
from fivehundred.bots.heuristic_v1 import HeuristicV1Player
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
