"""Every bot plays every offered house rule legally (RULES.md §10, R-HOUSE)."""

from __future__ import annotations

import pytest

from fivehundred.actions import action_card
from fivehundred.bots import make_player
from fivehundred.cards import mask_of
from fivehundred.game import GameState
from fivehundred.rules import HOUSE_VARIANTS, VARIANTS, make_rules

BOTS = ("random", "heuristic", "pimc:4")
#: Preset and variants per offered house rule (a preset they make sense with).
SETTINGS: dict[str, tuple[str, dict[str, object]]] = {
    name: ("american" if name in ("inkle",) else "australian", {name: True})
    for name in HOUSE_VARIANTS
}


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
            unplayed = sum(hand.hands)  # the hand of a partner who sat out
            assert mask_of(played) | hand.discards | hand.kitty | unplayed == rules.pack.cards
