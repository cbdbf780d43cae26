"""The table's server side (web/views.py, the vocabulary): who is whose partner (the same
as the lobby says), what the button that takes an open seat says, the 490 rule with the
table's own figure, the hand's points that the rule held and what they are made of, and
the partner who sits out a misère."""

from __future__ import annotations

import random

import pytest

from fivehundred.actions import CLAIM, MISERE, NO_SLAM, PASS, SLAM, action_text, bid_action
from fivehundred.rules import PRESETS, make_rules
from fivehundred.table import Table
from fivehundred.text import result_lines
from fivehundred.web import views
from fivehundred.web.history import hand_line


def test_every_seat_says_how_it_stands_to_you() -> None:
    """Four players: the seat opposite is the partner, the two beside are opponents;
    three players: everyone else is an opponent; six in threes: every other seat."""
    keys = [r["key"] for r in views.seat_relations(make_rules("australian"), 1) or []]
    assert keys == ["opponent", "you", "opponent", "partner"]
    words = [r["word"] for r in views.seat_relations(make_rules("australian"), 0) or []]
    assert words == ["you", "an opponent", "your partner", "an opponent"]
    keys = [r["key"] for r in views.seat_relations(make_rules("three_handed"), 0) or []]
    assert keys == ["you", "opponent", "opponent"]
    six = make_rules("six_handed", {"teams_of_two": False})
    keys = [r["key"] for r in views.seat_relations(six, 0) or []]
    assert keys == ["you", "opponent", "partner", "opponent", "partner", "opponent"]
    assert views.seat_relations(make_rules("australian"), views.SPECTATOR) is None


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_table_and_the_lobby_say_the_same_relations(preset: str) -> None:
    """Every preset (2 to 6 players), every player's seat: the table view's relations
    (``view.table.relations``) are the lobby's (``seating``), key and words; a dummy is
    its owner's (one's own dummy is nobody's relation); with partners called each hand
    (five players) no other seat is a plain opponent before a card is called, and no open
    seat is offered as an opponent's."""
    rules = make_rules(preset)
    controllers = views.seat_controllers(rules)
    for viewer in range(rules.players):
        lobby = views.seating(rules, viewer)
        table = views.seat_relations(rules, viewer)
        assert table is not None and len(table) == rules.seats
        for entry in lobby:
            seen = table[entry["seat"]]
            assert (seen["key"], seen["word"]) == (entry["relation"], entry["relation_words"])
        for seat in range(rules.players, rules.seats):
            owner = controllers[seat]
            if owner is None or owner == viewer:
                assert table[seat]["key"] == ""
            else:
                assert table[seat]["key"] == lobby[owner]["relation"]
        keys = {r["key"] for r in table} - {"", "you"}
        if rules.called_partner:
            assert keys == {"called"}
            assert {r["word"] for r in table if r["key"] == "called"} == {
                "a partner only if called"
            }
        else:
            assert "called" not in keys and keys
    seated = [("person", "Ann")] + [("open", None)] * (rules.players - 1)
    offers = views.seat_offers(rules, seated + [("out", None)] * (rules.seats - rules.players))
    if rules.called_partner:
        assert set(offers.values()) == {"Take a seat"}
    else:
        assert all("partner" in o or "opponent" in o for o in offers.values()), offers


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
        "The 490 rule, in a game to 100: points won defending stop at 90, 10 short of 100;"
        " a side reaches 100 only by winning a contract."
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
        (hand[:3], "every discard is chosen"),
        (["ZZ"], "is not a card"),
    ]:
        with pytest.raises(ValueError, match=why):
            views.hint_observation(observation, bad)
    other = next(text for text in ["AS", "KS", "QS", "JS", "10S", "9S"] if text not in hand)
    with pytest.raises(ValueError, match="not in the hand"):
        views.hint_observation(observation, [other])


@pytest.mark.parametrize(
    ("how", "bid", "further"),
    [
        ("slam", bid_action(7, 3), "the failed slam call, a further -100"),
        ("claim", bid_action(6, 3), "the wrong claim, a further -100"),
    ],
)
def test_the_further_100_is_named_in_the_hands_result_and_on_the_sheet(
    how: str, bid: int, further: str
) -> None:
    """A 7♥ whose slam call fails, a 6♥ whose contractor claims every trick at the first
    lead (house variants slam_call and claim; the cards played are the first legal ones):
    the hand's result the table sends (``hand_result.points_parts``) and the score sheet's
    row name each part of each side's points, the further 100 among them, in the terminal's
    words; the parts add up to the side's points."""
    rules = make_rules("australian", {"slam_call": True, "claim": True})
    table = Table(rules, ["human"] * 4, 0)
    table.apply(table.to_move, bid)
    while table.game.hand.phase == "auction":
        table.apply(table.to_move, PASS)
    while not table.game.finished_hands:
        legal = table.legal_actions()
        if SLAM in legal:
            action = SLAM if how == "slam" else NO_SLAM
        elif CLAIM in legal and how == "claim":
            action = CLAIM
        else:
            action = next(a for a in legal if a != CLAIM)
        table.apply(table.to_move, action)
    names = views.table_names(rules, ["Ann", "Bob", "Cat", "Dan"])
    result = views.hand_result(table, names)
    assert result is not None and result["made"] is False
    parts = result["points_parts"]
    side = result["contractor"] % 2
    assert parts[side].startswith("7♥ failed -200, " if how == "slam" else "6♥ failed -100, ")
    assert parts[side].endswith(further)
    assert parts[1 - side].endswith("tricks at 10 +" + str(result["points"][1 - side]))
    for points, text in zip(result["points"], parts, strict=True):
        signed = [w for w in text.replace(",", "").split() if w[:1] in "+-" and w[1:].isdigit()]
        assert sum(int(word) for word in signed) == points
    terminal = "\n".join(result_lines(table.game.finished_hands[-1]))
    assert all(text in terminal for text in parts)
    assert hand_line(table.game, 0)["points_parts"] == parts
