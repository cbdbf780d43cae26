"""House rules of play and the auction (RULES.md §10, R-HOUSE): j5_no_trumps,
split_colours and inkle."""

from __future__ import annotations

import random

import pytest

from fivehundred.actions import MISERE, OPEN_MISERE, PASS, bid_action, parse_call
from fivehundred.auction import Auction, bid_rank
from fivehundred.cards import HEARTS, NO_TRUMPS, SPADES, parse_card
from fivehundred.errors import IllegalActionError, RulesError
from fivehundred.game import HandState
from fivehundred.play import make_context, trick_winner_index
from fivehundred.record import hand_record, replay_hand
from fivehundred.rules import make_rules

J5 = make_rules("australian", {"j5_no_trumps": True})


def _winner(ctx_cards: list[str], led: int, **kw: object) -> str:
    ctx = make_context(NO_TRUMPS, **kw)  # type: ignore[arg-type]
    cards = [parse_card(c) for c in ctx_cards]
    return ctx_cards[trick_winner_index(cards, led, ctx)]


def test_j5_jack_is_the_highest_card_of_its_suit_in_no_trumps() -> None:
    """R-HOUSE j5_no_trumps: J A K Q 10 …; no left bower; the joker follows R-JOKER."""
    assert _winner(["AH", "JH", "KH"], HEARTS) == "AH"
    assert _winner(["AH", "JH", "KH"], HEARTS, j5=True) == "JH"
    assert _winner(["QS", "JS", "JC"], SPADES, j5=True) == "JS"  # no left bower
    assert _winner(["JH", "JK", "AH"], HEARTS, j5=True) == "JK"
    nominated = make_context(NO_TRUMPS, joker_suits=(HEARTS, -1), j5=True)
    cards = [parse_card(c) for c in ("JH", "JK", "AH")]
    assert trick_winner_index(cards, HEARTS, nominated) == 1  # joker above the jack
    # Suit contracts and misère are unchanged.
    assert make_context(HEARTS, j5=True) == make_context(HEARTS)
    assert make_context(NO_TRUMPS, True, j5=True) == make_context(NO_TRUMPS, True)


def test_j5_hand_is_played_with_the_jack_high() -> None:
    """A 6NT hand under J5: the engine's context has the jack on top."""
    state = HandState.deal(J5, dealer=3, seed=11)
    state.apply(bid_action(6, NO_TRUMPS))
    while state.phase == "auction":
        state.apply(PASS)
    rng = random.Random(2)
    while state.phase != "play":
        legal = state.legal_actions()
        state.apply(legal[rng.randrange(len(legal))])
    assert state.ctx is not None
    assert state.ctx.power[parse_card("JD")] > state.ctx.power[parse_card("AD")]
    record = hand_record(state)
    assert record["rules"]["variants"] == {"j5_no_trumps": True}
    assert replay_hand(record).ctx == state.ctx


def test_split_colours_ranks() -> None:
    """R-HOUSE split_colours: 7♣ < misère < 7♦ and 8♣ < open misère < 8♦; values unchanged."""
    rules = make_rules("australian", {"split_colours": True, "misere_anytime": True})
    rank = lambda text: bid_rank(parse_call(text), rules)  # noqa: E731
    assert rank("7C") < bid_rank(MISERE, rules) < rank("7D")
    assert rank("8C") < bid_rank(OPEN_MISERE, rules) < rank("8D")
    auction = Auction(rules, dealer=3)
    auction.apply(parse_call("7D"))
    assert MISERE not in auction.legal_calls()
    assert OPEN_MISERE in auction.legal_calls()
    with pytest.raises(IllegalActionError, match="does not outrank"):
        auction.apply(MISERE)
    american = make_rules("american", {"split_colours": True})
    assert bid_rank(MISERE, american) == bid_rank(MISERE, rules)
    with pytest.raises(RulesError, match="split_colours"):
        make_rules("australian", {"split_colours": True, "open_misere_520": True})


INKLE = make_rules("american", {"inkle": True})


def test_inkle_only_for_the_first_two_bidders() -> None:
    """R-HOUSE inkle: only the first two bidders may bid at the 6 level."""
    auction = Auction(INKLE, dealer=0)
    assert parse_call("6S") in auction.legal_calls()
    auction.apply(parse_call("6S"))
    assert parse_call("6C") in auction.legal_calls()
    auction.apply(PASS)
    assert min(c for c in auction.legal_calls() if c != PASS) == parse_call("7S")
    with pytest.raises(IllegalActionError, match="first two bidders"):
        auction.apply(parse_call("6NT"))


def test_an_inkle_never_becomes_the_contract() -> None:
    """R-HOUSE inkle: if the highest call is an inkle the hand is thrown in as when all pass."""
    state = HandState.deal(INKLE, dealer=0, seed=5)
    for call in ("6H", "pass", "pass", "pass"):
        state.apply(parse_call(call))
    assert state.is_over and state.contract == -1 and state.result.points == (0, 0)
    record = hand_record(state)
    assert record["auction"] == ["6H", "pass", "pass", "pass"]
    assert replay_hand(record).result.contract == -1
    played = HandState.deal(INKLE, dealer=0, seed=5)
    for call in ("6H", "7S", "pass", "pass"):
        played.apply(parse_call(call))
    assert played.contract == parse_call("7S") and played.contractor == 2


def test_inkle_needs_the_american_auction() -> None:
    with pytest.raises(RulesError, match=r"'inkle'.*American"):
        make_rules("australian", {"inkle": True})
