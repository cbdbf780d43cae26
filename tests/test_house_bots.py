"""Every bot plays every offered house rule legally (RULES.md §10, R-HOUSE)."""

from __future__ import annotations

import pytest

from fivehundred.actions import (
    DOUBLE_MISERE,
    HI_LO,
    MISERE,
    OPEN_MISERE,
    PASS,
    PATASTROPHE,
    SHIELDS_DOUBLE,
    action_card,
    bid_action,
)
from fivehundred.bots import make_player
from fivehundred.bots.house import high_card_points, house_bid, is_balanced, misere_dangers
from fivehundred.cards import mask_of
from fivehundred.game import GameState, HandState
from fivehundred.rules import HOUSE_VARIANTS, VARIANTS, make_rules

BOTS = ("random", "heuristic", "heuristic:v1", "pimc:4")
#: Preset and variants per offered house rule (a preset they make sense with).
SETTINGS: dict[str, tuple[str, dict[str, object]]] = {
    name: ("american" if name in ("inkle",) else "australian", {name: True})
    for name in HOUSE_VARIANTS
}
SETTINGS["dead_hand"] = ("two_handed", {"dead_hand": True})
SETTINGS["open_eight"] = ("two_handed", {"open_eight": True})
SETTINGS["draw_pack"] = ("two_handed", {"draw_pack": True})


def test_every_house_rule_is_offered_and_tested() -> None:
    assert set(HOUSE_VARIANTS) <= set(VARIANTS)


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("name", sorted(HOUSE_VARIANTS))
def test_bots_play_house_rules_legally(name: str, bot: str) -> None:
    """Two hands of a game with the bot in every seat: each choice is legal."""
    preset, variants = SETTINGS[name]
    rules = make_rules(preset, variants)
    seed = sorted(HOUSE_VARIANTS).index(name)
    game = GameState(rules, seed=seed, first_dealer=seed % rules.players)
    players = [make_player(bot, seed + seat) for seat in range(rules.seats)]
    while not game.is_over and len(game.finished_hands) < 2:
        obs = game.observation(game.to_move)
        choice = players[game.to_move].act(obs)
        assert choice in obs.legal, (name, bot, obs.phase)
        game.apply(choice)
    for hand in game.finished_hands:
        if len(hand.tricks) == 10:  # every card once: played, discarded, in the kitty or
            # sitting out
            played = [action_card(a) for trick in hand.tricks for _, a in trick.plays]
            assert len(played) == len(set(played))
            unplayed = sum(hand.hands)  # a partner who sat out, dead hands, face-up cards
            aside = 1 << hand.table_discard if hand.table_discard >= 0 else 0  # open_eight
            every = mask_of(played) | hand.discards | hand.kitty | unplayed | aside
            assert every == rules.pack.cards


CONTRACTS = {
    "hi_lo": ({"hi_lo": True}, HI_LO),
    "double_misere": ({"double_misere": True}, DOUBLE_MISERE),
    "shields_double": ({"shields_double": True}, SHIELDS_DOUBLE),
    "patastrophe": ({"patastrophe": True}, PATASTROPHE),
    "wilkinson_misere": ({"wilkinson_misere": True, "misere_anytime": True}, MISERE),
    "wilkinson_open_misere": ({"wilkinson_misere": True}, OPEN_MISERE),
    "j5_no_trumps": ({"j5_no_trumps": True}, bid_action(6, 4)),
}


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("name", sorted(CONTRACTS))
def test_bots_play_every_house_contract_legally(name: str, bot: str) -> None:
    """Seat 1 bids the house contract, the others pass; the bot plays every seat."""
    variants, call = CONTRACTS[name]
    rules = make_rules("australian", variants)
    for seed in range(2):
        state = HandState.deal(rules, dealer=0, seed=seed)
        state.apply(call)
        while state.phase == "auction":
            state.apply(PASS)
        players = [make_player(bot, seed + seat) for seat in range(4)]
        while not state.is_over:
            obs = state.observation(state.to_move)
            choice = players[state.to_move].act(obs)
            assert choice in obs.legal, (name, bot, obs.phase)
            state.apply(choice)
        assert len(state.tricks) == 10


def test_heuristic_bids_hi_lo_with_a_strong_balanced_hand() -> None:
    """R-HOUSE hi_lo: bid with a balanced hand (no suit over four, none under two)
    strong enough to take five tricks alone."""
    rules = make_rules("australian", {"hi_lo": True})
    chose = 0
    for seed in range(200):
        state = HandState.deal(rules, dealer=0, seed=seed)
        obs = state.observation(state.to_move)
        bid = house_bid(obs, PASS)
        if bid is not None:
            assert bid[0] == HI_LO
            assert is_balanced(obs.hand) and high_card_points(obs.hand) >= 16
            chose += 1
    assert 0 < chose < 200


def test_double_misere_only_with_a_partner_who_bid_misere() -> None:
    """R-HOUSE double_misere: bid only with two low hands; the partner's misère bid shows
    theirs."""
    rules = make_rules("australian", {"double_misere": True, "misere_anytime": True})
    for seed in range(100):
        state = HandState.deal(rules, dealer=0, seed=seed)
        obs = state.observation(state.to_move)
        assert house_bid(obs, PASS) is None  # nobody has bid yet
        state.apply(MISERE)  # seat 1
        state.apply(PASS)  # seat 2
        obs = state.observation(3)  # the partner
        bid = house_bid(obs, PASS)
        if bid is not None:
            assert bid[0] == DOUBLE_MISERE and misere_dangers(obs.hand) <= 1


@pytest.mark.parametrize("bot", BOTS)
def test_bots_play_the_french_canadian_game_legally(bot: str) -> None:
    """Preset french_canadian: 46 cards, a kitty of six, two jokers."""
    rules = make_rules("french_canadian")
    game = GameState(rules, seed=11, first_dealer=1)
    players = [make_player(bot, 20 + seat) for seat in range(4)]
    while not game.is_over and len(game.finished_hands) < 2:
        obs = game.observation(game.to_move)
        choice = players[game.to_move].act(obs)
        assert choice in obs.legal, (bot, obs.phase)
        game.apply(choice)


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize("variants", [{"dead_hand": True}, {"dead_hand": True, "pack45": True}])
def test_bots_play_three_handed_dead_hand_legally(bot: str, variants: dict[str, object]) -> None:
    rules = make_rules("three_handed", variants)
    game = GameState(rules, seed=5, first_dealer=2)
    players = [make_player(bot, 30 + seat) for seat in range(rules.seats)]
    while not game.is_over and len(game.finished_hands) < 2:
        obs = game.observation(game.to_move)
        choice = players[game.to_move].act(obs)
        assert choice in obs.legal and game.to_move != 3, (bot, obs.phase)
        game.apply(choice)
