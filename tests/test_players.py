"""Three, five, six and two players (R-PLAYERS, R-PACK §1, presets §11)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import apply_text, deal_hand, legal_texts, mask, rules, texts
from fivehundred.actions import GO_ALONE, parse_action
from fivehundred.cards import card_text, iter_cards, parse_card
from fivehundred.errors import IllegalActionError, RecordError
from fivehundred.game import CALL, DONE, GameState, HandState
from fivehundred.play import make_context, trick_winner_index
from fivehundred.record import hand_record, random_hand, replay_record
from fivehundred.scoring import bid_value, side_of_seats

PRESETS = ("three_handed", "five_handed", "six_handed", "two_handed")


@pytest.mark.parametrize(
    ("preset", "seats", "pack_size"),
    [("three_handed", 3, 33), ("five_handed", 5, 53), ("six_handed", 6, 63), ("two_handed", 4, 43)],
)
def test_pack_sizes_and_seats(preset: str, seats: int, pack_size: int) -> None:
    """R-PACK: 33 cards for 3, 53 for 5, 63 for 6, 43 for 2 (with dummies: four hands)."""
    game_rules = rules(preset)
    assert game_rules.seats == seats
    assert game_rules.pack.size == pack_size
    assert game_rules.pack.kitty_size == 3
    hand = HandState.deal(game_rules, dealer=0, seed=5)
    assert [h.bit_count() for h in hand.hands] == [10] * seats
    everything = hand.kitty
    for h in hand.hands:
        everything |= h
    assert everything == game_rules.pack.cards


def test_three_handed_pack_is_seven_to_ace() -> None:
    """R-PACK: 7–A in each suit and the joker."""
    names = texts(rules("three_handed").pack.cards)
    assert {"7S", "AS", "7H", "JK"} <= names
    assert not {"6S", "4H", "5D"} & names


def test_six_handed_ranks_13_12_11_between_jack_and_ten() -> None:
    """R-PACK: 11s, 12s and red 13s rank above 10 and below J (no black 13s)."""
    names = texts(rules("six_handed").pack.cards)
    assert {"11S", "12C", "13H", "13D", "2S"} <= names
    assert not {"13S", "13C"} & names
    ctx = make_context(4)  # no trumps: plain rank order
    trick = [parse_card(c) for c in ("10H", "11H", "13H", "12H", "JH")]
    assert trick_winner_index(trick, 3, ctx) == 4
    assert trick_winner_index(trick[:4], 3, ctx) == 2


def test_sides_by_count() -> None:
    """R-SCORE: 3 and 5 players score alone; 6 in two teams of three or three of two."""
    assert side_of_seats(rules("three_handed")) == (0, 1, 2)
    assert side_of_seats(rules("five_handed")) == (0, 1, 2, 3, 4)
    assert side_of_seats(rules("six_handed")) == (0, 1, 0, 1, 0, 1)
    assert side_of_seats(rules("six_handed", teams_of_two=True)) == (0, 1, 2, 0, 1, 2)


def test_three_handed_defenders_score_their_own_tricks() -> None:
    """R-SCORE: with three players each defender scores 10 for each trick they win."""
    game_rules = rules("three_handed")
    hand = HandState.deal(game_rules, dealer=2, seed=11)
    apply_text(hand, "6S pass pass")
    assert hand.contractor == 0 and hand.partners == ()
    rng = random.Random(1)
    while not hand.is_over:
        legal = hand.legal_actions()
        hand.apply(legal[rng.randrange(len(legal))])
    won = hand.result.tricks_won
    value = bid_value(parse_action("6S", "auction"), game_rules)
    expected0 = value if won[0] >= 6 else -value
    assert hand.result.points == (expected0, 10 * won[1], 10 * won[2])


def test_three_handed_misere_any_time() -> None:
    """§11: three-handed misère may be bid at any time (no 7 bid needed); all three play."""
    hand = HandState.deal(rules("three_handed"), dealer=0, seed=2)
    assert "misere" in legal_texts(hand)
    apply_text(hand, "misere pass pass")
    assert hand.contract == parse_action("misere", "auction")


def five_player_hand() -> HandState:
    game_rules = rules("five_handed")
    hand = deal_hand(game_rules, dealer=4, hands={0: "AH KH QH", 3: "10H"})
    apply_text(hand, "6H pass pass pass pass")
    for card in list(iter_cards(hand.hands[0]))[:3]:
        hand.apply(card)
    return hand


def test_five_handed_contractor_calls_a_card() -> None:
    """R-PLAYERS: after the kitty the contractor calls a card (not the joker) or goes alone."""
    hand = five_player_hand()
    assert hand.phase == CALL and hand.to_move == 0
    legal = legal_texts(hand)
    assert "alone" in legal and "call:10H" in legal
    assert "call:JK" not in legal and "call:AH" not in legal  # not the joker, not one's own
    with pytest.raises(IllegalActionError) as error:
        hand.apply(parse_action("call:AH", "call"))
    assert error.value.rule == "R-PLAYERS"


def test_five_handed_partner_unknown_until_card_played() -> None:
    """R-PLAYERS: the partner is revealed only when the called card is played."""
    hand = five_player_hand()
    apply_text(hand, "call:10H")
    assert hand.partners == (3,)
    assert hand.observation(1).partners == ()
    assert hand.observation(3).partners == (3,)  # the holder knows
    assert hand.observation(1).called_card == parse_card("10H")
    apply_text(hand, "AH")  # the contractor leads hearts
    while hand.to_move != 3:
        seat = hand.to_move
        hand.apply(sorted(hand.legal_actions())[0])
        assert seat != 3
    apply_text(hand, "10H")
    assert hand.observation(1).partners == (3,)


def test_five_handed_partner_announces_variant() -> None:
    """Variant partner_announces: the partner is known as soon as the card is called."""
    game_rules = rules("five_handed", partner_announces=True)
    hand = deal_hand(game_rules, dealer=4, hands={0: "AH KH QH", 3: "10H"})
    apply_text(hand, "6H pass pass pass pass")
    for card in list(iter_cards(hand.hands[0]))[:3]:
        hand.apply(card)
    apply_text(hand, "call:10H")
    assert hand.observation(1).partners == (3,)


@pytest.mark.parametrize("half_each", [False, True])
def test_five_handed_partners_score(half_each: bool) -> None:
    """R-SCORE: both partners score the full value (variant half_each: half each)."""
    game_rules = rules("five_handed", half_each=half_each)
    rng = random.Random(3)
    for seed in range(60):
        hand = HandState.deal(game_rules, dealer=0, seed=seed)
        apply_text(hand, "6S pass pass pass pass")
        while hand.phase != CALL:
            hand.apply(hand.legal_actions()[0])
        calls = [a for a in hand.legal_actions() if a != GO_ALONE]
        hand.apply(calls[rng.randrange(len(calls))])
        while not hand.is_over:
            legal = hand.legal_actions()
            hand.apply(legal[rng.randrange(len(legal))])
        contractor, (partner,) = hand.contractor, hand.partners
        won = hand.result.tricks_won
        team = won[contractor] + won[partner]
        value = 40 if team >= 6 else -40
        share = value // 2 if half_each else value
        points = hand.result.points
        assert points[contractor] == points[partner] == share
        for seat in set(range(5)) - {contractor, partner}:
            assert points[seat] == 10 * won[seat]


def test_five_handed_going_alone() -> None:
    hand = five_player_hand()
    apply_text(hand, "alone")
    assert hand.partners == ()
    assert hand.phase == "play" and hand.to_move == 0


def test_six_handed_misere_partners_sit_out() -> None:
    """R-KITTY: in misère the contractor's partners take no part (teams of three: two)."""
    game_rules = rules("six_handed")
    hand = HandState.deal(game_rules, dealer=5, seed=9)
    apply_text(hand, "7S misere pass pass pass pass pass")
    assert hand.contractor == 1
    for card in list(iter_cards(hand.hands[1]))[:3]:
        hand.apply(card)
    if hand.phase == "nominate":
        apply_text(hand, "none")
    assert hand.active == (0, 1, 2, 4)


def two_player_hand(seed: int = 4) -> HandState:
    return HandState.deal(rules("two_handed"), dealer=1, seed=seed)


def test_two_handed_only_players_bid() -> None:
    """R-PLAYERS: two players bid; the dummies (seats 2 and 3) do not."""
    hand = two_player_hand()
    assert hand.to_move == 0
    apply_text(hand, "6S")
    assert hand.to_move == 1
    apply_text(hand, "pass")
    assert hand.phase == "discard" and hand.contractor == 0


def test_two_handed_dummy_plays_face_up_cards_and_turns_up() -> None:
    """R-PLAYERS: a dummy plays only its face-up cards; an uncovered card is turned up
    after the trick; each seat's observation shows exactly the face-up cards."""
    hand = two_player_hand()
    apply_text(hand, "6NT pass")
    for card in list(iter_cards(hand.hands[0]))[:3]:
        hand.apply(card)
    if hand.phase == "nominate":
        apply_text(hand, "none")
    dummy = 2
    face_up = hand.face_up[dummy]
    assert face_up.bit_count() == 5
    face_down = hand.hands[dummy] & ~face_up
    assert face_down.bit_count() == 5
    # Seat 1 (the opponent) sees the face-up dummy cards, not the face-down ones.
    seen = dict(hand.observation(1).exposed)
    assert seen[dummy] == face_up
    assert not hand.observation(1).hand & face_down
    assert hand.observation(0).unseen & face_down == face_down  # not even its own player
    while hand.to_move != dummy:
        hand.apply(hand.legal_actions()[0])
    for action in hand.legal_actions():
        assert face_up >> action & 1
    down_card = next(iter_cards(face_down))
    with pytest.raises(IllegalActionError) as error:
        hand.apply(down_card)
    assert error.value.rule in ("R-PLAYERS", "R-PLAY")
    played = hand.legal_actions()[0]
    under = hand.dummy_under[played]
    hand.apply(played)
    while len(hand.tricks) < 1:
        hand.apply(hand.legal_actions()[0])
    assert hand.face_up[dummy] >> under & 1
    assert dict(hand.observation(1).exposed)[dummy] >> under & 1


@pytest.mark.parametrize("preset", PRESETS)
def test_observation_never_shows_hidden_cards(preset: str) -> None:
    """A seat sees its own hand and what lies face up: never other hands or the kitty."""
    game_rules = rules(preset)
    rng = random.Random(7)
    for seed in range(20):
        hand = HandState.deal(game_rules, dealer=0, seed=seed)
        while not hand.is_over:
            for seat in range(game_rules.seats):
                obs = hand.observation(seat)
                visible = obs.hand
                for _, shown in obs.exposed:
                    visible |= shown
                assert not visible & hand.kitty
                for other in range(game_rules.seats):
                    if other != seat:
                        allowed = dict(obs.exposed).get(other, 0)
                        assert obs.hand & hand.hands[other] == 0
                        assert hand.hands[other] & visible == allowed
                json.dumps(obs.to_json())
            legal = hand.legal_actions()
            hand.apply(legal[rng.randrange(len(legal))])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), preset=st.sampled_from(PRESETS))
def test_properties_every_count(seed: int, preset: str) -> None:
    """Every card once, ten tricks, scores consistent, records round-trip."""
    game_rules = rules(preset)
    hand = random_hand(game_rules, seed)
    result = hand.result
    if hand.contract < 0:
        assert result.points == tuple([0] * len(result.points))
        return
    assert len(result.trick_winners) == 10
    assert sum(result.tricks_won) == 10
    played = [card for trick in hand.tricks for _, card in trick.plays]
    cards = [c if c < 66 else 64 + (c - 66) // 4 for c in played]
    assert len(cards) == len(set(cards)) == 10 * len(hand.active)
    record = hand_record(hand)
    summary, replayed = replay_record(json.loads(json.dumps(record)))
    assert summary["points"] == list(result.points)
    assert hand_record(replayed) == record


@pytest.mark.parametrize("preset", PRESETS)
def test_games_finish_with_a_winner(preset: str) -> None:
    game_rules = rules(preset)
    game = GameState(game_rules, seed=1)
    rng = random.Random(1)
    while not game.is_over:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])
    assert game.hand.phase == DONE
    assert game.winner is not None
    assert len(game.scores) == max(side_of_seats(game_rules)) + 1


def test_record_call_errors() -> None:
    record = hand_record(random_hand(rules("five_handed"), 3))
    if "call" in record:
        record["call"] = "JK"
        with pytest.raises(RecordError) as error:
            replay_record(record)
        assert "call" in str(error.value)


def test_card_text_of_six_player_ranks() -> None:
    assert card_text(parse_card("11S")) == "11S"
    assert mask("13H 12D") == (1 << parse_card("13H")) | (1 << parse_card("12D"))
