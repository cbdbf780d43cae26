"""PIMC with the seat's next decision postponed (fivehundred.bots.postpone): the stepping on
a sampled deal's bare facts agrees with the engine, a single deal gives plain PIMC's values,
and a next card is chosen once for the deals the seat cannot tell apart."""

from __future__ import annotations

import random

import pytest

from fivehundred.actions import JOKER_LEAD_BASE, action_card
from fivehundred.bots import HeuristicPlayer, PimcPlayer, make_player
from fivehundred.game import PLAY, HandState
from fivehundred.rules import JOKER_LEAD_NOT_RENOUNCED, make_rules
from test_bots import _shuffle_hidden

pytest.importorskip("fivehundred.solver")

from fivehundred.bots import postpone
from fivehundred.solver import Position, values_position


def _in_play(rules_name: str, n: int) -> HandState | None:
    """A deal bid and discarded by the heuristic, at the first lead (None if passed out)."""
    state = HandState.deal(make_rules(rules_name), n % 4, f"postpone/{rules_name}/{n}")
    players = [HeuristicPlayer(seat) for seat in range(state.rules.seats)]
    while state.phase != PLAY:
        if not state.legal_actions():
            return None
        seat = state.to_move
        state.apply(players[seat].act(state.observation(seat)))
    return state


def _facts(state: HandState) -> tuple[postpone.Setting, postpone.Deal]:
    assert state.ctx is not None
    contracting = (state.contractor, *state.partners)
    setting = postpone.Setting(
        state.ctx,
        tuple(state.active),
        contracting,
        state.rules.joker_lead == JOKER_LEAD_NOT_RENOUNCED,
    )
    deal = postpone.Deal(
        tuple(state.hands),
        state.to_move,
        tuple(zip(state.trick_seats, state.trick_cards, strict=True)),
        state.led_suit,
        state.suits_led,
        tuple(state.void_shown),
        sum(state.tricks_won[s] for s in contracting),
        10 - len(state.tricks),
    )
    return setting, deal


@pytest.mark.parametrize("rules_name", ["australian", "american"])
def test_stepping_a_deal_builds_the_positions_the_engine_reaches(rules_name: str) -> None:
    # Random legal play, every card: the position built from the stepped facts is the
    # engine's, array for array (suit and no-trump contracts, misère, the joker led).
    steps = joker_leads = 0
    for n in range(16):
        state = _in_play(rules_name, n)
        if state is None:
            continue
        setting, deal = _facts(state)
        rng = random.Random(n)
        while len(state.tricks) < 9:
            legal = state.legal_actions()
            nominated = [a for a in legal if a >= JOKER_LEAD_BASE]  # a joker led with a suit
            action = rng.choice(nominated if nominated and rng.random() < 0.5 else legal)
            joker_leads += action in nominated
            state.apply(action)
            deal = postpone.step(setting, deal, action)
            ours, engine = setting.position(deal), Position.from_state(state)
            for a, b in zip(ours.packed(), engine.packed(), strict=True):
                assert (a == b).all()
            assert (ours.won, ours.cards, ours.seats) == (engine.won, engine.cards, engine.seats)
            steps += 1
    assert steps > 300
    assert joker_leads or rules_name == "australian"  # no-trump contracts: american here


def test_one_deal_postponed_gives_the_double_dummy_values() -> None:
    # With nothing hidden the seat's next choice is the best in that deal, so each action's
    # value is its double-dummy value, as plain PIMC has it.
    checked = 0
    for n in range(8):
        state = _in_play("australian", n)
        if state is None:
            continue
        rng = random.Random(n)
        while len(state.tricks) < 10:
            if len(state.tricks) >= 6 and len(state.legal_actions()) > 1:
                setting, deal = _facts(state)
                root = values_position(setting.position(deal))
                legal = sorted(root)
                sign = 1 if state.to_move in setting.contracting else -1

                def ours(total: int, sign: int = sign) -> float:
                    return float(sign * total)  # the seat's side's tricks, or less the others'

                the_plan = postpone.plan(setting, state.to_move, [(1.0, deal)], legal)
                planned = postpone.plan_totals(legal, [(1.0, deal)], the_plan, ours)
                for action in legal:
                    assert planned[action] == sign * root[action]
                    checked += 1
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 50


def test_a_next_card_is_chosen_once_for_deals_that_look_alike() -> None:
    # After action 1 the seat cannot tell the two deals apart, and its best next card
    # differs: 10 makes 4 in the first deal, 20 makes 4 in the second, the other 1. Plain
    # PIMC counts the best card of each deal (4 + 4 = 8 against action 2's 3 + 3) and
    # plays action 1; one card for both makes 5, so action 2 (a sure 3 in each) is better.
    guess, sure = (1, (30, 31, 32)), (2, (30, 31, 32))
    the_plan = postpone.Plan(
        reached=[{1: guess, 2: sure}, {1: guess, 2: sure}],
        fits={guess: [0, 1], sure: [0, 1]},
        leaves={
            (0, guess): {10: 4, 20: 1},
            (1, guess): {10: 1, 20: 4},
            (0, sure): {10: 3, 20: 0},
            (1, sure): {10: 3, 20: 0},
        },
    )
    deals = [(1.0, None), (1.0, None)]
    planned = postpone.plan_totals([1, 2], deals, the_plan, float)  # type: ignore[arg-type]
    assert planned == {1: 5.0, 2: 6.0}
    # A third deal that reaches another decision after action 1 but fits the first one
    # (the cards seen could have been played in it) joins that choice: alone, the first
    # two would choose 10 (4 + 2 against 1 + 4); with the third (20 worth 4 there), 20.
    # Each deal's value is that of the choice where it leads (the third's own: 10, 2).
    other = (1, (30, 31, 33))
    three = postpone.Plan(
        reached=[{1: guess, 2: sure}, {1: guess, 2: sure}, {1: other, 2: sure}],
        fits={guess: [0, 1, 2], other: [2], sure: [0, 1, 2]},
        leaves={
            (0, guess): {10: 4, 20: 1},
            (1, guess): {10: 2, 20: 4},
            (2, guess): {10: 1, 20: 4},
            (2, other): {10: 2, 20: 0},
            (0, sure): {10: 3, 20: 0},
            (1, sure): {10: 3, 20: 0},
            (2, sure): {10: 3, 20: 0},
        },
    )
    deals3 = [(1.0, None), (1.0, None), (1.0, None)]
    planned3 = postpone.plan_totals([1, 2], deals3, three, float)  # type: ignore[arg-type]
    assert planned3 == {1: 1.0 + 4.0 + 2.0, 2: 9.0}  # without the fit: 4 + 2 + 2


def test_only_deals_where_the_seen_cards_could_be_played_fit() -> None:
    state = _in_play("australian", 3)
    assert state is not None
    rng = random.Random(3)
    while len(state.tricks) < 6:
        state.apply(rng.choice(state.legal_actions()))
    setting, deal = _facts(state)
    seat = state.to_move
    legal = sorted(values_position(setting.position(deal)))
    # A second deal: the other seats' hands shuffled among them (same sizes), so the cards
    # seen played from the true deal are mostly not where it puts them.
    others = [s for s in state.active if s != seat]
    pool = [c for s in others for c in range(66) if deal.hands[s] >> c & 1]
    rng.shuffle(pool)
    hands = list(deal.hands)
    for s in others:
        size = deal.hands[s].bit_count()
        hands[s] = sum(1 << c for c in pool[:size])
        pool = pool[size:]
    other = postpone.Deal(
        tuple(hands),
        *[
            getattr(deal, f)
            for f in ("to_move", "trick", "led_suit", "suits_led", "voids", "won", "left")
        ],
    )
    the_plan = postpone.plan(setting, seat, [(1.0, deal), (1.0, other)], legal)
    for key, members in the_plan.fits.items():
        for j in members:
            start = (deal, other)[j]
            after = postpone.step(setting, start, key[0])
            for seen in key[1]:
                assert after.hands[after.to_move] >> action_card(seen) & 1
                after = postpone.step(setting, after, seen)


def test_the_postponing_player_plays_legal_cards_and_says_why() -> None:
    state = _in_play("australian", 1)
    assert state is not None
    players = [PimcPlayer(seat, samples=16, postpone=5, postpone_fit=8) for seat in range(4)]
    said = []
    while len(state.tricks) < 10:
        seat = state.to_move
        obs = state.observation(seat)
        action = players[seat].act(obs)
        assert action in obs.legal
        said.append(players[seat].explain())
        state.apply(action)
    assert any("cannot tell apart" in why for why in said)


def test_the_postponing_player_sees_only_its_observation() -> None:
    # The hidden cards dealt otherwise among the other hands: the same observation, the
    # same card (its deals are sampled from what it sees, never from the true hands).
    rng = random.Random(8)
    checked = 0
    for n in range(6):
        state = _in_play("australian", n)
        if state is None:
            continue
        driver = HeuristicPlayer(n)
        while len(state.tricks) < 10:
            seat = state.to_move
            if 4 <= len(state.tricks) <= 7 and len(state.legal_actions()) > 1:
                obs = state.observation(seat)
                other = _shuffle_hidden(state, seat, rng).observation(seat)
                assert obs == other
                first = PimcPlayer(n, samples=8, postpone=6, postpone_fit=4).act(obs)
                assert PimcPlayer(n, samples=8, postpone=6, postpone_fit=4).act(other) == first
                checked += 1
            state.apply(driver.act(state.observation(seat)))
    assert checked > 20


def test_the_preset_is_named() -> None:
    player = make_player("pimc:postpone", 3)
    assert isinstance(player, PimcPlayer)
    assert (player.samples, player.postpone, player.postpone_fit) == (64, 6, 16)
