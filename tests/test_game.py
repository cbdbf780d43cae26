"""The hand's phases and the kitty (R-KITTY), observations (hidden information) and whole
games (R-GAME, R-490, R-ALLPASS in a game)."""

from __future__ import annotations

import random
from dataclasses import fields

import pytest

from conftest import (
    AMERICAN,
    AUS,
    apply_text,
    deal_hand,
    fill_deal,
    legal_texts,
    mask,
    rules,
    texts,
)
from fivehundred.actions import parse_action
from fivehundred.errors import IllegalActionError
from fivehundred.game import GameState, HandState
from fivehundred.observation import SPECTATOR, Observation
from fivehundred.rules import Rules


def play_out(state: HandState, seed: int = 0) -> HandState:
    """Finish a hand with seeded random legal actions."""
    rng = random.Random(seed)
    while not state.is_over:
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    return state


# ----------------------------------------------------------------------------- R-KITTY
def test_r_kitty_contractor_takes_the_kitty_and_discards_as_many_cards() -> None:
    """R-KITTY: the contractor picks up the kitty, then discards the same number of cards,
    one at a time, any cards (kitty cards included)."""
    state = deal_hand(AUS, 0, {2: "AH KH QH"}, "4D 5C JK")
    dealt = state.hands[2]
    apply_text(state, "pass 7NT pass pass")
    assert state.phase == "discard"
    assert state.contractor == 2 and state.to_move == 2
    assert state.hands[2] == dealt | mask("4D 5C JK")
    assert state.kitty == 0
    assert set(legal_texts(state)) == texts(state.hands[2])
    apply_text(state, "AH")  # a card of the hand
    assert state.phase == "discard" and state.to_move == 2
    apply_text(state, "5C KH")
    assert state.phase == "nominate"  # 7NT with the joker from the kitty
    assert state.hands[2] == (dealt | mask("4D JK")) & ~mask("AH KH")
    assert state.hands[2].bit_count() == 10
    assert state.discards == mask("AH 5C KH")


def test_r_kitty_discard_must_be_a_card_of_the_contractors_hand() -> None:
    state = deal_hand(AUS, 0, {1: "AS", 2: "KS"}, "4D 5C 6C")
    apply_text(state, "7S pass pass pass")
    for token, phase in (("KS", "discard"), ("7NT", "auction")):
        with pytest.raises(IllegalActionError) as error:
            state.apply(parse_action(token, phase))
        assert error.value.rule == "R-KITTY"
    assert state.discards == 0


def test_r_kitty_pack45_contractor_discards_five() -> None:
    game_rules = rules(pack45=True)
    state = deal_hand(game_rules, 0, {}, "4S 5S 6S 4C 5C")
    apply_text(state, "6S pass pass pass")
    assert state.hands[1].bit_count() == 15
    apply_text(state, "4S 5S 6S 4C")
    assert state.phase == "discard"
    apply_text(state, "5C")
    assert state.phase == "play"
    assert state.hands[1].bit_count() == 10


def test_r_kitty_contractor_leads() -> None:
    """R-KITTY: the contractor leads to the first trick."""
    state = deal_hand(AUS, 1, {}, "4D 5D 6D")
    apply_text(state, "pass 6D pass pass 4D 5D 6D")
    assert state.contractor == 3
    assert state.phase == "play" and state.to_move == 3


def test_r_kitty_eldest_leads_variant() -> None:
    """Variant ``eldest_leads``: the player left of the dealer leads."""
    state = deal_hand(rules(eldest_leads=True), 1, {}, "4D 5D 6D")
    apply_text(state, "pass 6D pass pass 4D 5D 6D")
    assert state.contractor == 3
    assert state.to_move == 2


@pytest.mark.parametrize("bid", ["misere", "open_misere"])
def test_r_kitty_partner_sits_out_in_misere(bid: str) -> None:
    """R-KITTY: in misère and open misère the contractor's partner takes no part; the hand
    is played by three players."""
    game_rules = rules(misere_anytime=True)
    state = deal_hand(game_rules, 3, {}, "4D 5D 6D")
    apply_text(state, f"{bid} pass pass pass 4D 5D 6D")
    assert state.contractor == 0
    assert state.active == (0, 1, 3)
    assert state.partners == ()
    play_out(state)
    assert len(state.tricks) == 10
    assert all(len(trick.plays) == 3 for trick in state.tricks)
    assert all(seat != 2 for trick in state.tricks for seat, _ in trick.plays)
    assert state.hands[2] == state.dealt[2]  # seat 2's cards lie face down throughout
    assert state.tricks_won[2] == 0


def test_r_kitty_partner_plays_in_a_suit_contract() -> None:
    state = deal_hand(AUS, 3, {}, "4D 5D 6D")
    apply_text(state, "7D pass pass pass 4D 5D 6D")
    assert state.partners == (2,)
    assert state.active == (0, 1, 2, 3)


def test_phases_in_order_and_history() -> None:
    state = deal_hand(AUS, 0, NT_HANDS, "5S 5C 6C")
    seen = [state.phase]
    for token in ["6NT", "pass", "pass", "pass", "5S", "5C", "6C", "D"]:
        apply_text(state, token)
        if seen[-1] != state.phase:
            seen.append(state.phase)
    play_out(state)
    seen.append(state.phase)
    assert seen == ["auction", "discard", "nominate", "play", "done"]
    assert len(state.history) == 4 + 3 + 1 + 40


# ----------------------------------------------------------------------------- observations
NT_HANDS = {1: "JK 6S AH KH QH 10H 9H AD KD QD", 2: "AS AC 4H KC QC JC 10C 9C 8C 7C"}


def visible_to(state: HandState, seat: int) -> int:
    """Everything ``seat`` may see: its hand, the cards played, its own discards (as the
    contractor) and an open misère hand after the first trick."""
    seen = state.hands[seat] | state.played
    if seat == state.contractor:
        seen |= state.discards
    if state.contract == parse_action("open_misere", "auction") and state.tricks:
        seen |= state.hands[state.contractor]
    return seen


def mask_fields(observation: Observation) -> int:
    """Union of every card mask in an observation."""
    union = observation.hand | observation.discards | observation.played | observation.dealt
    for _, exposed in observation.exposed:
        union |= exposed
    return union


def check_observations(state: HandState) -> None:
    for seat in range(4):
        observation = state.observation(seat)
        assert observation.seat == seat
        assert observation.hand == state.hands[seat]
        assert mask_fields(observation) & ~visible_to(state, seat) == 0
        if seat != state.contractor:
            assert observation.discards == 0
        if seat != state.to_move:
            assert observation.legal == ()
        data = observation.to_json()
        shown = set(data["hand"]) | set(data["discards"])
        for cards in data["exposed"].values():
            shown |= set(cards)
        assert shown <= texts(visible_to(state, seat))
        # The kitty as dealt is never shown to anyone but the contractor who took it.
        if seat != state.contractor:
            kitty = state.kitty_dealt & ~state.played
            assert mask_fields(observation) & kitty == 0


@pytest.mark.parametrize("seed", range(6))
def test_observations_never_show_other_hands_the_kitty_or_others_discards(seed: int) -> None:
    state = HandState.deal(rules(misere_anytime=True), seed % 4, seed)
    rng = random.Random(seed)
    check_observations(state)
    while not state.is_over:
        legal = state.legal_actions()
        if state.phase == "auction" and not state.auction.calls:
            choice = legal[1]  # the first bidder opens 6♠, so that every hand is played
        else:
            choice = legal[rng.randrange(len(legal))]
        state.apply(choice)
        check_observations(state)


def test_observation_is_the_same_whatever_the_hidden_cards() -> None:
    """Two deals that differ only in cards seat 0 cannot see give seat 0 equal views."""
    hands, kitty = fill_deal(AUS, {0: "AH KH", 2: "QS", 3: "QC"}, "4D 5D 6D")
    swapped = list(hands)
    swapped[2] = hands[2] ^ mask("QS QC")
    swapped[3] = hands[3] ^ mask("QS QC")
    first = HandState(AUS, 0, hands, kitty)
    second = HandState(AUS, 0, swapped, kitty)
    for state in (first, second):
        apply_text(state, "7H pass pass pass")
    assert first.observation(0) == second.observation(0)
    # The contractor's discards are hidden too: seat 1 discards differently in each.
    apply_text(first, "4D 5D 6D")
    apply_text(second, f"4D 5D {sorted(texts(second.hands[1]) - {'4D', '5D', '6D'})[0]}")
    assert first.phase == second.phase == "play"
    assert first.discards != second.discards
    view_first, view_second = first.observation(0), second.observation(0)
    assert [
        f.name
        for f in fields(view_first)
        if getattr(view_first, f.name) != getattr(view_second, f.name)
    ] == []


def test_the_contractor_sees_its_own_discards() -> None:
    state = deal_hand(AUS, 0, {}, "4D 5D 6D")
    apply_text(state, "7H pass pass pass")
    assert state.observation(1).hand & mask("4D 5D 6D") == mask("4D 5D 6D")
    apply_text(state, "4D 5D 6D")
    assert texts(state.observation(1).discards) == {"4D", "5D", "6D"}
    assert state.observation(1).to_json()["discards"] == ["4D", "5D", "6D"]
    for seat in (0, 2, 3):
        assert state.observation(seat).discards == 0
        assert state.observation(seat).to_json()["discards"] == []


def test_each_seat_sees_the_cards_it_was_dealt_and_the_discards_to_go() -> None:
    """The kitty exchange as a seat sees it (the terminal marks the kitty's cards by what
    was dealt): its own dealt cards only, and the count of discards still to make."""
    state = deal_hand(AUS, 0, {}, "4D 5D 6D")
    apply_text(state, "7H pass pass pass 4D")
    for seat in range(4):
        observation = state.observation(seat)
        assert observation.dealt == state.dealt[seat]
        assert observation.discards_left == 2
    contractor = state.observation(1)
    assert contractor.hand & ~contractor.dealt == mask("5D 6D")
    assert state.observation(SPECTATOR).dealt == 0


def test_open_misere_hand_is_shown_after_the_first_trick_not_before() -> None:
    """R-BID: in open misère the contractor's hand is exposed after the first trick."""
    state = deal_hand(AUS, 0, {}, "4D 5D 6D")
    apply_text(state, "open_misere pass pass pass 4D 5D 6D")
    assert state.active == (0, 1, 2)
    while not state.tricks:
        for seat in range(4):
            assert state.observation(seat).exposed == ()
        state.apply(state.legal_actions()[0])
    for seat in (0, 2, 3):
        observation = state.observation(seat)
        assert observation.exposed == ((1, state.hands[1]),)
        assert observation.to_json()["exposed"] == {
            "1": sorted(texts(state.hands[1]), key=lambda t: parse_action(t, "play"))
        }
    assert state.observation(1).exposed == ()
    state.apply(state.legal_actions()[0])
    assert state.observation(0).exposed == ((1, state.hands[1]),)  # kept up to date


def test_plain_misere_hand_is_never_shown() -> None:
    state = deal_hand(rules(misere_anytime=True), 0, {}, "4D 5D 6D")
    apply_text(state, "misere pass pass pass 4D 5D 6D")
    play_out(state)
    assert all(state.observation(seat).exposed == () for seat in range(4))


def test_legal_actions_only_for_the_seat_to_move() -> None:
    state = deal_hand(AUS, 0, {}, "4D 5D 6D")
    assert set(state.observation(1).legal) == set(state.legal_actions())
    assert state.observation(0).legal == ()


# ----------------------------------------------------------------------------- whole games
#: Seat 1 holds the ten highest hearts: bidding hearts it wins every trick whatever happens.
HEARTS_SLAM = {1: "JK JH JD AH KH QH 10H 9H 8H 7H"}
#: Seat 0 holds the ten highest spades: whatever seat 1 bids in spades, seat 0 wins all ten.
SPADES_DEFENCE = {0: "JK JS JC AS KS QS 10S 9S 8S 7S"}
KITTY = "4D 5D 6D"


def game_with(game_rules: Rules, scores: list[int], first_dealer: int = 0) -> GameState:
    """A game at ``scores`` (as if after earlier hands), dealer ``first_dealer``."""
    game = GameState(game_rules, seed=1, first_dealer=first_dealer)
    game.scores = list(scores)
    return game


def play_hand(game: GameState, cards: dict[int, str], calls: str, seed: int = 0) -> None:
    hands, kitty = fill_deal(game.rules, cards, KITTY)
    game.replace_deal(hands, kitty)
    finished = len(game.finished_hands)
    for token in calls.split():
        game.apply(parse_action(token, game.hand.phase))
    if game.hand.phase == "discard":
        for token in KITTY.split():
            game.apply(parse_action(token, "discard"))
    rng = random.Random(seed)
    while len(game.finished_hands) == finished:
        legal = game.legal_actions()
        game.apply(legal[rng.randrange(len(legal))])


def test_r_game_the_deal_passes_to_the_left() -> None:
    game = GameState(AUS, seed=3, first_dealer=2)
    assert game.hand.dealer == 2
    play_hand(game, HEARTS_SLAM, "pass pass 7H pass")
    assert game.finished_hands[0].dealer == 2
    assert game.hand.dealer == 3
    assert game.scores == [0, 250]  # a slam: max(200, 250)
    assert game.score_history == [(0, 250)]


def test_r_allpass_thrown_in_deal_passes_left_same_dealer_variant_keeps_it() -> None:
    """R-ALLPASS: all pass, the deal passes to the left; ``allpass_redeal_same_dealer``:
    the same dealer deals the next hand."""
    for game_rules, next_dealer in ((AUS, 2), (rules(allpass_redeal_same_dealer=True), 1)):
        game = GameState(game_rules, seed=9, first_dealer=1)
        for _ in range(4):
            game.apply(parse_action("pass", "auction"))
        assert len(game.finished_hands) == 1
        assert game.hand.dealer == next_dealer
        assert game.scores == [0, 0]
        assert game.hand.history == []


def test_r_allpass_play_nt_in_a_game_scores_10_a_trick() -> None:
    game = game_with(rules(allpass_play_nt=True), [0, 0])
    play_hand(game, SPADES_DEFENCE, "pass pass pass pass")
    hand = game.finished_hands[0]
    assert hand.contract == -1
    assert sum(hand.result.points) == 100
    assert game.scores == list(hand.result.points)
    assert game.hand.dealer == 1


def test_r_490_in_a_game_defenders_stop_at_490() -> None:
    """R-490: side 0 at 450 defends all ten tricks (100 points) and stops at 490."""
    game = game_with(AUS, [450, 0])
    play_hand(game, SPADES_DEFENCE, "6S pass pass pass")
    hand = game.finished_hands[0]
    assert hand.contractor == 1
    assert hand.result.points == (100, -40)
    assert game.scores == [490, -40]
    assert game.winner is None
    assert not game.is_over


def test_r_game_contract_made_past_500_wins() -> None:
    game = game_with(AUS, [0, 400])
    play_hand(game, HEARTS_SLAM, "6H pass pass pass")
    assert game.scores == [0, 650]
    assert game.winner == 1
    assert game.is_over
    assert game.legal_actions() == []
    with pytest.raises(IllegalActionError) as error:
        game.apply(parse_action("pass", "auction"))
    assert error.value.rule == "R-GAME"


def test_r_game_going_out_backwards_in_a_game() -> None:
    """R-GAME: a side whose score falls to −500 or lower loses."""
    game = game_with(AUS, [0, -480])
    play_hand(game, SPADES_DEFENCE, "6S pass pass pass")
    assert game.finished_hands[0].result.made is False
    assert game.scores == [100, -520]
    assert game.winner == 0


def test_r_game_1904_defenders_reaching_500_win() -> None:
    """R-GAME (1904, American preset): the first side to reach 500 wins; no 490 rule."""
    game = game_with(AMERICAN, [450, 0])
    play_hand(game, SPADES_DEFENCE, "6S pass pass pass")
    assert game.scores == [550, -40]
    assert game.winner == 0


def test_r_game_target_300_in_a_game() -> None:
    game = game_with(rules(target=300), [0, 40])
    play_hand(game, HEARTS_SLAM, "7H pass pass pass")
    assert game.scores == [0, 290]
    assert game.winner is None
    game = game_with(rules(target=300), [0, 60])
    play_hand(game, HEARTS_SLAM, "7H pass pass pass")
    assert game.winner == 1


def test_r_game_same_seed_same_game() -> None:
    def run(seed: int) -> tuple[list[tuple[int, ...]], list[list[int]]]:
        game = GameState(AUS, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and len(game.finished_hands) < 6:
            legal = game.legal_actions()
            game.apply(legal[rng.randrange(len(legal))])
        return game.score_history, [list(h.history) for h in game.finished_hands]

    assert run(4) == run(4)
    assert run(4) != run(5)


def test_game_observation_carries_the_scores() -> None:
    game = game_with(AUS, [120, -40])
    assert game.observation(2).scores == (120, -40)
    assert game.observation(2).hand == game.hand.hands[2]
