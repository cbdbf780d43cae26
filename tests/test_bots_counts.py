"""PIMC at two, three, five and six players: deals sampled consistently with what a seat
sees at each table, bids and discards simulated there, and the search's choices."""

from __future__ import annotations

import random

import pytest

from conftest import deal_hand
from fivehundred.actions import MISERE, action_card, bid_action
from fivehundred.bots import HeuristicPlayer, PimcPlayer, counts
from fivehundred.bots.memory import context_for
from fivehundred.bots.simulate import bid_by_simulation, sample_deal
from fivehundred.cards import NO_TRUMPS, iter_cards
from fivehundred.game import HandState, dummy_seats
from fivehundred.observation import Observation
from fivehundred.rules import make_rules

pytest.importorskip("fivehundred.solver")

from fivehundred.solver import Position, values_position

COUNTS = ["two_handed", "three_handed", "five_handed", "six_handed"]


def _play_to(state: HandState, tricks: int, seed: int) -> HandState:
    """Play the hand on by the heuristic until ``tricks`` tricks are done (or it ends)."""
    players = [HeuristicPlayer(seed + seat) for seat in range(state.seats)]
    while not state.is_over and not (state.phase == "play" and len(state.tricks) >= tricks):
        state.apply(players[state.to_move].act(state.observation(state.to_move)))
    return state


def _check_sample(state: HandState, obs: Observation, hands: list[int]) -> None:
    """A sampled deal holds every card the seat sees where it lies, the right number of
    cards in each active hand, no card twice, none it has seen played, and no card of a
    suit a seat has shown void in."""
    rules = state.rules
    ctx = context_for(
        obs.trump if obs.trump >= 0 else NO_TRUMPS, obs.contract >= MISERE, obs.joker_suits
    )
    assert hands[obs.seat] & obs.hand == obs.hand
    for seat, shown in obs.exposed:
        assert hands[seat] & shown == shown
    seen = 0
    for seat in obs.active or range(rules.seats):
        assert hands[seat].bit_count() == obs.hand_sizes[seat]
        assert not seen & hands[seat]
        seen |= hands[seat]
        for suit in range(4):
            if obs.voids[seat] >> suit & 1:
                assert not hands[seat] & ctx.follow_masks[suit]
    assert not seen & obs.played
    assert seen & ~(obs.unseen | obs.hand | sum(m for _, m in obs.exposed)) == 0
    if obs.called_card >= 0 and not obs.played >> obs.called_card & 1:
        holders = [s for s in range(rules.seats) if hands[s] >> obs.called_card & 1]
        assert holders and holders[0] != obs.contractor


@pytest.mark.parametrize("preset", COUNTS)
def test_sampled_deals_respect_every_card_seen_and_every_void(preset: str) -> None:
    rules = make_rules(preset)
    rng = random.Random(3)
    checked = 0
    for seed in range(6):
        state = _play_to(HandState.deal(rules, seed % rules.players, f"counts-{seed}"), 4, seed)
        if state.is_over:
            continue
        # Every seat still to play a card sees its own view; sample each a few times.
        obs = state.observation(state.to_move)
        for _ in range(10):
            hands = counts.sample_hands(obs, rng)
            assert hands is not None
            _check_sample(state, obs, hands)
            checked += 1
    assert checked >= 30


def test_two_handed_dummies_keep_their_face_up_cards_and_deal_the_face_down() -> None:
    rules = make_rules("two_handed")
    rng = random.Random(1)
    state = _play_to(HandState.deal(rules, 0, "dummies"), 1, 1)
    for seat in range(4):
        obs = state.observation(seat)
        hands = counts.sample_hands(obs, rng)
        assert hands is not None
        _check_sample(state, obs, hands)
        hidden = counts.hidden_counts(obs)
        for dummy in dummy_seats(rules):
            # Five cards lie face down (or fewer, as cards above them are played).
            down = state.hands[dummy] & ~state.face_up[dummy]
            assert hidden.get(dummy, 0) == down.bit_count() > 0
    # At the auction the simulation deals each dummy its face-up cards where they lie.
    auction = HandState.deal(rules, 0, "dummies")
    obs = auction.observation(auction.to_move)
    hands, kitty = sample_deal(obs, [], rng)
    for seat, shown in obs.exposed:
        assert hands[seat] & shown == shown and hands[seat].bit_count() == 10
    assert kitty.bit_count() == rules.pack.kitty_size
    assert sum(h.bit_count() for h in hands) + kitty.bit_count() == rules.pack.size


def test_a_dummy_without_the_led_suit_face_up_is_dealt_none_face_down() -> None:
    # Otherwise the search would make it follow with a card it cannot play.
    rules = make_rules("two_handed")
    rng = random.Random(2)
    found = 0
    for seed in range(30):
        state = _play_to(HandState.deal(rules, seed % 2, f"dummy-{seed}"), 2, seed)
        players = [HeuristicPlayer(s) for s in range(4)]
        while not state.is_over and found < 3:
            seat = state.to_move
            obs = state.observation(seat)
            ctx = context_for(obs.trump if obs.trump >= 0 else NO_TRUMPS, False, obs.joker_suits)
            follow = ctx.follow_masks[obs.led_suit] if obs.trick else 0
            if seat in dummy_seats(rules) and obs.trick and not obs.hand & follow:
                hands = counts.sample_hands(obs, rng)
                assert hands is not None and not hands[seat] & follow
                found += 1
            state.apply(players[seat].act(obs))
        if found >= 3:
            break
    assert found >= 1


@pytest.mark.parametrize("preset", COUNTS)
def test_pimc_plays_whole_hands_legally(preset: str) -> None:
    rules = make_rules(preset)
    searched = 0
    for seed in range(2):
        state = HandState.deal(rules, seed % rules.players, f"legal-{seed}")
        players = [PimcPlayer(seed * 10 + seat, samples=6) for seat in range(rules.seats)]
        while not state.is_over:
            obs = state.observation(state.to_move)
            player = players[state.to_move]
            choice = player.act(obs)
            assert choice in obs.legal
            searched += "sampled deals" in player.explain()
            state.apply(choice)
    assert searched > 0


@pytest.mark.parametrize("preset", ["five_handed", "six_handed"])
def test_five_and_six_handed_search_starts_at_the_second_trick(preset: str) -> None:
    rules = make_rules(preset)
    pimc = PimcPlayer(1)
    for seed in range(4):
        state = _play_to(HandState.deal(rules, seed, f"second-{seed}"), 1, seed)
        if state.is_over:
            continue
        obs = state.observation(state.to_move)
        assert pimc.supported(obs) and pimc.deals_for(obs) >= 8
        if len(obs.legal) > 1:
            pimc.act(obs)
            assert "sampled deals" in pimc.explain()
            return
    pytest.fail("no second-trick decision found")


def test_contract_seats_follow_the_table() -> None:
    six = make_rules("six_handed")
    hands = [0] * 6
    assert counts.contract_seats(six, 1, bid_action(7, 3), hands) == (tuple(range(6)), (1, 3, 5))
    # Misère: the contractor's partners sit out.
    assert counts.contract_seats(six, 1, MISERE, hands) == ((0, 1, 2, 4), (1,))
    three = make_rules("three_handed")
    assert counts.contract_seats(three, 2, bid_action(6, 0), [0] * 3) == ((0, 1, 2), (2,))
    # Five players: the holder of the best trump the contractor lacks is its partner.
    five = make_rules("five_handed")
    state = deal_hand(five, 0, {1: "AH KH", 3: "JH", 4: "JD"})
    hearts = bid_action(7, 3)
    assert counts.called_holder(five, 1, hearts, state.hands) == 3
    assert counts.contract_seats(five, 1, hearts, state.hands)[1] == (1, 3)
    assert counts.called_holder(five, 3, hearts, state.hands) == 4
    assert counts.friends_of(make_rules("two_handed"), 0) == (0, 2)


@pytest.mark.parametrize("preset", ["two_handed", "six_handed", "five_handed"])
def test_the_strongest_hand_bids_by_simulation(preset: str) -> None:
    rules = make_rules(preset)
    heuristic = HeuristicPlayer(1)
    deals = [HandState.deal(rules, seed % rules.players, f"bid-{seed}") for seed in range(30)]
    obs = max(
        (d.observation(d.to_move) for d in deals),
        key=lambda o: max(heuristic.bid_levels(o).values(), default=0.0),
    )
    call, why = bid_by_simulation(obs, heuristic, 6, random.Random(1), 2_000_000)
    assert call in obs.legal
    assert "solved deals" in why or "better than any bid over" in why


def _consistent_splits(obs: Observation) -> list[list[int]]:
    """Every deal of the unseen cards to the other active seats that fits their hand sizes
    and voids (the contractor's view: it saw the kitty and made the discards)."""
    ctx = context_for(
        obs.trump if obs.trump >= 0 else NO_TRUMPS, obs.contract >= MISERE, obs.joker_suits
    )
    seats = [s for s in obs.active if s != obs.seat]
    cards = list(iter_cards(obs.unseen))
    out: list[list[int]] = []

    def place(i: int, hands: list[int]) -> None:
        if i == len(cards):
            if all(hands[s].bit_count() == obs.hand_sizes[s] for s in seats):
                out.append(list(hands))
            return
        for s in seats:
            if hands[s].bit_count() >= obs.hand_sizes[s]:
                continue
            if any(obs.voids[s] >> u & 1 and ctx.follow_masks[u] >> cards[i] & 1 for u in range(4)):
                continue
            hands[s] |= 1 << cards[i]
            place(i + 1, hands)
            hands[s] &= ~(1 << cards[i])

    start = [0] * obs.rules.seats
    start[obs.seat] = obs.hand
    place(0, start)
    return out


@pytest.mark.parametrize("preset", ["three_handed", "six_handed"])
def test_search_picks_the_card_that_is_best_on_every_deal(preset: str) -> None:
    # The contractor two tricks from the end knows the unseen cards are in the other hands;
    # where one card is best however they lie (and another is not), the search finds it.
    rules = make_rules(preset)
    found = 0
    for seed in range(60):
        state = _play_to(HandState.deal(rules, seed % rules.players, f"end-{seed}"), 8, seed)
        if state.is_over or state.contract >= MISERE or state.contract < 0:
            continue
        while not state.is_over and state.to_move != state.contractor:
            state.apply(HeuristicPlayer(seed).act(state.observation(state.to_move)))
        if state.is_over or len(state.tricks) != 8:
            continue
        obs = state.observation(state.contractor)
        if len(obs.legal) < 2 or obs.unseen.bit_count() != sum(
            obs.hand_sizes[s] for s in obs.active if s != obs.seat
        ):
            continue
        ctx = context_for(obs.trump if obs.trump >= 0 else NO_TRUMPS, False, obs.joker_suits)
        side = (obs.contractor, *obs.partners)
        trick = [(s, action_card(a)) for s, a in obs.trick]
        won = sum(obs.tricks_won[s] for s in side)
        splits = _consistent_splits(obs)
        values = [
            values_position(
                Position.build(
                    ctx,
                    obs.active,
                    side,
                    hands,
                    obs.seat,
                    trick,
                    obs.led_suit,
                    obs.suits_led,
                    obs.voids,
                    False,
                    won,
                )
            )
            for hands in splits
        ]
        best = {a for a in obs.legal if all(v[a] == max(v.values()) for v in values)}
        if not best or best == set(obs.legal):
            continue
        pimc = PimcPlayer(seed)
        choice = pimc.act(obs)
        assert "sampled deals" in pimc.explain()
        assert choice in best, (seed, obs.legal, best, choice)
        found += 1
        if found >= 3:
            break
    assert found >= 2


def test_solo_scores_weigh_the_seat_against_the_average_other_seat() -> None:
    three = make_rules("three_handed")
    six_spades = bid_action(6, 0)
    # Made with six: the contractor +40, each defender 20 on average.
    assert counts.solo_score(six_spades, 6, three, declarer=True) == pytest.approx(40 - 20)
    assert counts.solo_score(six_spades, 6, three, declarer=False) == pytest.approx(20 - 30)
    # Set with five: the contractor -40, the defenders 25 each on average.
    assert counts.solo_score(six_spades, 5, three, declarer=True) == pytest.approx(-40 - 25)
    assert counts.solo_score(six_spades, 5, three, declarer=False) == pytest.approx(25 - -7.5)
    # Five players: the called partner scores the value too; three defenders share 40.
    five = make_rules("five_handed")
    assert counts.solo_score(six_spades, 6, five, True) == pytest.approx(40 - (40 + 40) / 4)
    mine = 40 / 3
    expected = mine - (80 + 40 - mine) / 4
    assert counts.solo_score(six_spades, 6, five, False) == pytest.approx(expected)


def test_selfish_defence_counts_the_other_defenders_tricks_against_us() -> None:
    rules = make_rules("three_handed")
    state = _play_to(HandState.deal(rules, 0, "selfish"), 1, 0)
    defender = next(s for s in range(3) if s != state.contractor)
    obs = state.observation(defender)
    pimc = PimcPlayer(0)
    contract_tricks = 6
    team = pimc.utility(obs, contract_tricks)
    # The same contract result: more tricks of our own is better for us.
    assert counts.selfish_utility(obs, team, contract_tricks, 3, 1) > counts.selfish_utility(
        obs, team, contract_tricks, 1, 1
    )


def test_a_lone_declarer_counts_on_a_trick_more_but_none_above_ten() -> None:
    three = make_rules("three_handed")
    six_diamonds = bid_action(6, 2)
    assert counts.declarer_shade(three, 0.4) < 0
    # Ten tricks stay ten: a slam is not valued above what it scores.
    slam = counts.solo_score(six_diamonds, 10, three, declarer=True)
    assert counts.solo_shaded(six_diamonds, 10, three, declarer=True) == pytest.approx(slam)
    nine = counts.solo_score(six_diamonds, 9, three, declarer=True)
    assert nine < counts.solo_shaded(six_diamonds, 9, three, declarer=True) < slam
