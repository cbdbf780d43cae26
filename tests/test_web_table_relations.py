"""Friends at one table, the server side (web/views.py, the vocabulary): who is whose partner,
what the button that takes an open seat says, the 490 rule with the table's own figure,
the hand's points that the rule held, and the partner who sits out a misère."""

from __future__ import annotations

import random

import pytest

from fivehundred.actions import MISERE, PASS, action_text, bid_action
from fivehundred.rules import make_rules
from fivehundred.table import Table
from fivehundred.web import views


def test_every_seat_says_how_it_stands_to_you() -> None:
    """Four players: the seat opposite is the partner, the two beside are opponents;
    three players: everyone else is an opponent; six in threes: every other seat."""
    keys = [r["key"] for r in views.seat_relations(make_rules("australian"), 1) or []]
    assert keys == ["opponent", "you", "opponent", "partner"]
    words = [r["word"] for r in views.seat_relations(make_rules("australian"), 0) or []]
    assert words == ["you", "opponent", "your partner", "opponent"]
    keys = [r["key"] for r in views.seat_relations(make_rules("three_handed"), 0) or []]
    assert keys == ["you", "opponent", "opponent"]
    six = make_rules("six_handed", {"teams_of_two": False})
    keys = [r["key"] for r in views.seat_relations(six, 0) or []]
    assert keys == ["you", "opponent", "partner", "opponent", "partner", "opponent"]
    assert views.seat_relations(make_rules("australian"), views.SPECTATOR) is None


def test_an_open_seat_is_offered_as_a_partner_or_an_opponent() -> None:
    """The invite's buttons name the relation to the person already seated, not a seat
    number; with nobody seated yet, to the computers."""
    rules = make_rules("australian")
    seated = [("person", "Ann"), ("open", None), ("open", None), ("computer", "medium 4")]
    assert views.seat_offers(rules, seated) == {
        "1": "Sit as Ann's opponent",
        "2": "Sit as Ann's partner",
    }
    three = make_rules("three_handed")
    assert views.seat_offers(three, [("person", "Ann"), ("open", None), ("open", None)]) == {
        "1": "Sit as an opponent",
        "2": "Sit as an opponent",
    }
    empty = [("open", None)] * 4
    assert views.seat_offers(rules, empty) == {"0": "Take a seat"}
    bots = [("computer", "hard"), ("open", None), ("computer", "easy"), ("computer", "m")]
    assert views.seat_offers(rules, bots) == {"1": "Sit as m's partner"}


def test_the_490_rule_is_said_with_the_tables_figure_and_only_where_it_applies() -> None:
    assert views.rule_490_words(make_rules("australian", {"target": 100})) == (
        "The 90 rule: points won defending stop at 90; a side reaches 100 only by winning"
        " a contract."
    )
    assert "490" in (views.rule_490_words(make_rules("australian")) or "")
    assert views.rule_490_words(make_rules("australian", {"rule_490": False})) is None


def test_a_total_the_490_rule_held_is_explained_on_the_hands_line() -> None:
    """Games to a target of 100 (the first caller bids six, the rest pass, the cards are
    played at random): every side that gained less than its points says where it was held
    and why; the other lines are just the points."""
    rules = make_rules("australian", {"target": 100})
    held = 0
    for seed in range(12):
        table = Table(rules, ["human"] * 4, seed)
        rng = random.Random(seed)
        hands = 0
        while not table.is_over:
            hand = table.game.hand
            if hand.phase == "auction":
                bid = PASS if hand.auction.calls else bid_action(6, rng.randrange(5))
                table.apply(table.to_move, bid)
            else:
                table.apply(table.to_move, rng.choice(table.legal_actions()))
            if len(table.game.finished_hands) != hands:
                hands = len(table.game.finished_hands)
                names = views.table_names(rules, ["Ann", "Bob", "Cat", "Dan"])
                result = views.hand_result(table, names)
                assert result is not None
                history = table.game.score_history
                before = history[-2] if len(history) > 1 else (0, 0)
                for side, line in enumerate(result["points_words"]):
                    rose = history[-1][side] - before[side]
                    points = result["points"][side]
                    if points > 0 and rose < points:
                        held += 1
                        assert f"held at {history[-1][side]}" in line
                        assert "points won defending stop at 90" in line
                    else:
                        assert "held" not in line
        if held >= 2:
            break
    assert held >= 2, "the games hit the 490 rule"


def test_the_misere_contractors_partner_sits_out_and_the_page_is_told_why() -> None:
    rules = make_rules("australian")
    table = Table(rules, ["human"] * 4, 3)
    names = views.table_names(rules, ["Ann", "Bob", "Cat", "Dan"])
    assert views.sitting_out(table, names) is None
    table.apply(table.to_move, bid_action(7, 0))
    contractor = table.to_move
    table.apply(contractor, MISERE)
    while table.game.hand.phase == "auction":
        table.apply(table.to_move, PASS)
    out = views.sitting_out(table, names)
    partner = (contractor + 2) % 4
    assert out is not None and out["seats"] == [partner]
    assert out["notes"] == [
        f"{names[partner]} sits out: {names[contractor]} plays misère alone,"
        " so each trick has 3 cards."
    ]
    # A suit contract: nobody sits out.
    table = Table(rules, ["human"] * 4, 3)
    table.apply(table.to_move, bid_action(6, 0))
    while table.game.hand.phase == "auction":
        table.apply(table.to_move, PASS)
    assert views.sitting_out(table, names) is None


def test_a_hint_in_the_kitty_counts_the_marked_cards_as_discarded() -> None:
    """The contractor's observation with two cards marked: those cards are gone from the
    hand and from the legal actions, one discard is left; marks that are not the hand's
    cards, or as many as the discards left, are refused with a reason."""
    rules = make_rules("australian")
    table = Table(rules, ["human"] * 4, 3)
    table.apply(table.to_move, bid_action(6, 0))
    while table.game.hand.phase == "auction":
        table.apply(table.to_move, PASS)
    seat = table.to_move
    observation = table.observation(seat)
    assert observation.phase == "discard" and observation.discards_left == 3
    two = rules.joker_names
    hand = views.hand_texts(observation.hand, observation)
    marked = hand[:2]
    trial = views.hint_observation(observation, marked)
    assert trial.discards_left == 1
    left = {action_text(a, two) for a in trial.legal}
    assert left == set(hand[2:])
    assert views.hand_texts(trial.hand, trial) == hand[2:]
    assert views.hint_observation(observation, []) is observation
    for bad, why in [
        ("10H", "a list of cards"),
        ([1], "a list of cards"),
        (hand[:3], "every discard is chosen"),
        (["ZZ"], "is not a card"),
    ]:
        with pytest.raises(ValueError, match=why):
            views.hint_observation(observation, bad)
    other = next(text for text in ["AS", "KS", "QS", "JS", "10S", "9S"] if text not in hand)
    with pytest.raises(ValueError, match="not in the hand"):
        views.hint_observation(observation, [other])
