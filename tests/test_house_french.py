"""The French-Canadian game (RULES.md §10, R-HOUSE, preset ``french_canadian``): 46 cards
with the white joker, a 6-card kitty dealt 3-3-4, petite and grosse misère, game to 1000
with failed contracts to the opponents."""

from __future__ import annotations

import random

import pytest

from fivehundred.actions import MISERE, OPEN_MISERE, PASS, parse_action, parse_call
from fivehundred.auction import Auction, bid_order
from fivehundred.bots import make_player
from fivehundred.cards import JOKER, JOKER_BLACK, NO_TRUMPS, card_text, parse_card, rank_of
from fivehundred.errors import RulesError
from fivehundred.game import GameState, HandState, _deal_plan
from fivehundred.play import make_context
from fivehundred.record import game_record, hand_record, replay_game, replay_hand
from fivehundred.rules import make_rules
from fivehundred.scoring import bid_value

FC = make_rules("french_canadian")


def test_pack_and_kitty() -> None:
    """46 cards: 4–A in every suit and two jokers; ten each and a kitty of six."""
    pack = FC.pack
    assert pack.size == 46 and pack.kitty_size == 6
    assert pack.cards >> JOKER & 1 and pack.cards >> JOKER_BLACK & 1
    ranks = {rank_of(c) for c in range(64) if pack.cards >> c & 1}
    assert min(ranks) == 2  # the 4 (rank index 2): no 2s or 3s
    assert FC.players == 4 and FC.target == 1000 and FC.failed_to_opponents


def test_deal_three_three_four_with_the_kitty_after_each_round_of_threes() -> None:
    """Deal 3-3-4: three to the kitty after the first round of threes, three after the
    second."""
    _, owners = _deal_plan(FC)
    kitty = 4
    expected = ([0] * 3 + [1] * 3 + [2] * 3 + [3] * 3 + [kitty] * 3) * 2
    expected += [0] * 4 + [1] * 4 + [2] * 4 + [3] * 4
    assert list(owners) == expected


def test_white_joker_is_written_jkw_and_is_the_higher() -> None:
    assert parse_card("JKW") == JOKER_BLACK
    assert card_text(JOKER_BLACK, FC.joker_names) == "JKW"
    assert card_text(JOKER, FC.joker_names) == "JKR"
    for trump in (0, NO_TRUMPS):
        ctx = make_context(trump)
        assert ctx.power[JOKER_BLACK] > ctx.power[JOKER]


def test_petite_and_grosse_misere() -> None:
    """Petite misère 500, outranked only by 8NT and higher; la grosse 1000, only by 10NT."""
    assert bid_value(MISERE, FC) == 500 and bid_value(OPEN_MISERE, FC) == 1000
    order = lambda call: bid_order(call, FC)  # noqa: E731
    assert order(parse_call("8H")) < order(MISERE) < order(parse_call("8NT"))
    assert order(parse_call("10H")) < order(OPEN_MISERE) < order(parse_call("10NT"))
    auction = Auction(FC, dealer=0)
    assert MISERE in auction.legal_calls()  # at any time
    auction.apply(MISERE)
    assert parse_call("8H") not in auction.legal_calls()
    assert parse_call("8NT") in auction.legal_calls()


@pytest.mark.parametrize("name", ["pack45", "two_jokers", "deal_3_4_3", "open_misere_520"])
def test_the_pack_and_misere_values_are_fixed(name: str) -> None:
    with pytest.raises(RulesError, match=name):
        make_rules("french_canadian", {name: name != "two_jokers"})


def test_contractor_discards_six_and_records_name_the_white_joker() -> None:
    for seed in range(30):
        state = HandState.deal(FC, dealer=0, seed=seed)
        if (state.hands[1] | state.kitty) >> JOKER_BLACK & 1:
            break
    state.apply(parse_call("6NT"))
    while state.phase == "auction":
        state.apply(PASS)
    assert state.hands[1].bit_count() == 16
    rng = random.Random(1)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert state.discards.bit_count() == 6
    record = hand_record(state)
    every = [c for hand in record["hands"] for c in hand] + record["kitty"]
    assert "JKW" in every and "JKB" not in every
    assert replay_hand(record).result == state.result
    assert parse_action("JKW>S", "play") == parse_action("JKB>S", "play")


def test_failed_contract_goes_to_the_opponents_in_a_game_to_1000() -> None:
    game = GameState(FC, seed=4, first_dealer=0)
    players = [make_player("heuristic", seat) for seat in range(4)]
    while not game.is_over and len(game.finished_hands) < 6:
        obs = game.observation(game.to_move)
        choice = players[game.to_move].act(obs)
        assert choice in obs.legal
        game.apply(choice)
    assert all(score >= 0 for scores in game.score_history for score in scores)
    for hand, before, after in zip(
        game.finished_hands, [(0, 0), *game.score_history], game.score_history, strict=False
    ):
        if hand.result.made is False:
            side = hand.contractor % 2
            assert after[side] == before[side]
            assert after[1 - side] >= before[1 - side] + bid_value(hand.contract, FC)
    assert replay_game(game_record(game)).scores == game.scores


def test_a_refusal_names_the_white_joker() -> None:
    """R-HOUSE: the engine's refusals name the higher joker JKW in the French-Canadian game
    (a revoke with it said JKB)."""
    from fivehundred.errors import IllegalActionError
    from fivehundred.game import PLAY

    rules = make_rules("french_canadian")
    for seed in range(200):
        state = HandState.deal(rules, 0, seed)
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            seat = state.to_move
            if (
                state.phase == PLAY
                and state.trick_cards
                and state.hands[seat] >> JOKER_BLACK & 1
                and JOKER_BLACK not in legal
            ):
                with pytest.raises(IllegalActionError) as refused:
                    state.clone().apply(JOKER_BLACK)
                assert "JKB" not in refused.value.reason
                if "revokes" in refused.value.reason:
                    assert refused.value.reason.startswith("JKW revokes")
                    return
            state.apply(rng.choice(legal))
    raise AssertionError("the white joker never revoked in 200 random hands")


def test_the_heuristic_explains_with_the_white_joker() -> None:
    """R-HOUSE: the heuristic's explanations name the higher joker JKW (they said JKB)."""
    rules = make_rules("french_canadian")
    said: list[str] = []
    for seed in range(6):
        state = HandState.deal(rules, seed % 4, seed)
        players = [make_player("heuristic", seed * 10 + seat) for seat in range(4)]
        while not state.is_over:
            player = players[state.to_move]
            state.apply(player.act(state.observation(state.to_move)))
            said.append(player.explain())
    assert any("JKW" in why for why in said)
    assert not any("JKB" in why for why in said)
