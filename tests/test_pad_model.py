"""The score pad's arithmetic against the engine: hands played out by the game's own state
machine are written on the pad, and the pad's totals must be the game's."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fivehundred.actions import action_text, bid_tricks, is_misere, is_suit_bid, parse_call
from fivehundred.game import GameState, HandState
from fivehundred.pad.model import (
    Pad,
    PadError,
    allowed_contracts,
    bid_table,
    defending_sides,
    describe_rules,
    needed_to_win,
    new_pad,
    pad_csv,
    score_pad,
    scoring_variants,
)
from fivehundred.rules import PRESETS, Rules, make_rules
from fivehundred.scoring import (
    SLAM_MINIMUM,
    HandScore,
    apply_hand_to_scores,
    bid_value,
    game_winner,
    side_of_seats,
    sides_gone_out,
)

NAMES = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]


def variant_cases() -> list[tuple[str, dict[str, Any]]]:
    """Every preset alone, and every scoring variant the pad offers on each preset."""
    cases: list[tuple[str, dict[str, Any]]] = []
    for preset in PRESETS:
        cases.append((preset, {}))
        for variant in scoring_variants(preset):
            if variant["kind"] == "int":
                cases.append((preset, {variant["name"]: 300}))
            else:
                cases.append((preset, {variant["name"]: not variant["default"]}))
    return cases


CASES = variant_cases()


def entry_from_hand(rules: Rules, hand: HandState) -> dict[str, Any]:
    """What a player at the table writes on the pad for a hand the engine played."""
    if hand.contract < 0:
        entry: dict[str, Any] = {"kind": "passed"}
        if rules.allpass == "play_nt":
            sides = side_of_seats(rules)
            tricks = [0] * (max(sides) + 1)
            for seat, won in enumerate(hand.tricks_won):
                tricks[sides[seat]] += won
            entry["tricks"] = tricks
        return entry
    sides = side_of_seats(rules)
    team = {hand.contractor, *hand.partners}
    entry = {
        "kind": "hand",
        "contract": action_text(hand.contract),
        "contractor": hand.contractor,
        "tricks": sum(hand.tricks_won[s] for s in team),
    }
    if rules.called_partner and hand.partners:
        entry["partner"] = hand.partners[0]
    if hand.claim_wrong:
        entry["claim_wrong"] = True
    team_sides = {sides[s] for s in team}
    defending = [side for side in range(max(sides) + 1) if side not in team_sides]
    if not is_misere(hand.contract) and len(defending) > 1:
        entry["defenders"] = [
            sum(won for seat, won in enumerate(hand.tricks_won) if sides[seat] == side)
            for side in defending
        ]
    return entry


def play_game(rules: Rules, seed: int, max_hands: int) -> list[HandState]:
    """Random legal play, as the engine plays it, until the game ends or ``max_hands``."""
    rng = random.Random(seed)
    game = GameState(rules, seed=seed, first_dealer=0)
    while not game.is_over and len(game.finished_hands) < max_hands:
        game.apply(rng.choice(game.legal_actions()))
    return game.finished_hands


def fold_engine(rules: Rules, scores: list[HandScore]) -> tuple[list[list[int]], int | None]:
    """Totals after each hand and the winner, straight from the engine's functions (as
    the game calls them: a side out after an earlier hand stays out, R-GAME)."""
    totals = [0] * (max(side_of_seats(rules)) + 1)
    history: list[list[int]] = []
    winner = None
    for score in scores:
        out_before = sides_gone_out(rules, history)
        totals = apply_hand_to_scores(rules, totals, score)
        history.append(totals)
        winner = game_winner(rules, totals, score, (), out_before)
        if winner is not None:
            break
    return history, winner


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6), data=st.data())
def test_pad_totals_are_the_engines(case: tuple[str, dict[str, Any]], seed: int, data: Any) -> None:
    preset, variants = case
    rules = make_rules(preset, variants)
    hands = play_game(rules, seed, max_hands=14)
    pad = Pad(new_pad(NAMES[: rules.players], preset, variants))
    for hand in hands:
        pad.add(entry_from_hand(rules, hand))
    # the game's own totals after each hand, and its winner
    game = GameState(rules, seed=seed, first_dealer=0)
    rng = random.Random(seed)
    while not game.is_over and len(game.finished_hands) < len(hands):
        game.apply(rng.choice(game.legal_actions()))
    assert [line.totals for line in pad.result.lines] == [list(t) for t in game.score_history]
    assert pad.result.winner == game.winner
    if not game.is_over:
        assert pad.result.dealer == game.hand.dealer

    # a correction of an earlier hand: the totals after it are the engine's for the new order
    if len(hands) >= 2 and pad.result.winner is None:
        index = data.draw(st.integers(0, len(hands) - 2), label="corrected hand")
        other = data.draw(st.integers(0, len(hands) - 1), label="taken from")
        scores = [hand.result.score for hand in hands]
        scores[index] = hands[other].result.score
        pad.edit(index, entry_from_hand(rules, hands[other]))
        history, winner = fold_engine(rules, scores)
        assert [line.totals for line in pad.result.lines][: len(history)] == history
        assert pad.result.winner == winner
        assert all(line.void for line in pad.result.lines[len(history) :])
        assert pad.undo() and [line.totals for line in pad.result.lines] == [
            list(t) for t in game.score_history
        ]
        assert pad.redo() and pad.result.winner == winner


@settings(max_examples=40, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 10**6))
def test_irregularities(case: tuple[str, dict[str, Any]], seed: int) -> None:
    preset, variants = case
    rules = make_rules(preset, variants)
    rng = random.Random(seed)
    pad = Pad(new_pad(NAMES[: rules.players], preset, variants, first_dealer=1))
    contract = rng.choice(allowed_contracts(rules))
    contractor = rng.randrange(rules.players)
    sides = side_of_seats(rules)
    side = sides[contractor]
    defending = sorted({sides[s] for s in range(rules.seats)} - {side, -1})  # -1: a dead hand
    entry: dict[str, Any] = {
        "kind": "hand",
        "contract": action_text(contract),
        "contractor": contractor,
    }
    tricks = bid_tricks(contract) if not is_misere(contract) else 0
    entry["tricks"] = tricks
    if not is_misere(contract) and len(defending) > 1:
        entry["defenders"] = [10 - tricks] + [0] * (len(defending) - 1)
    value = bid_value(contract, rules)

    pad.add({"kind": "misdeal"})
    assert pad.result.totals == [0] * len(pad.result.sides) and pad.result.dealer == 1

    pad.add({**entry, "revoke": "defender"})  # counts as made, defenders nothing
    points = pad.result.lines[-1].points
    assert pad.result.lines[-1].made is True
    # A ten-level suit or no-trump contract made is a slam: its value or 250 (R-SCORE).
    slam = is_suit_bid(contract) and bid_tricks(contract) == 10
    assert points[side] == (max(value, SLAM_MINIMUM) if slam else value)
    assert all(points[s] == 0 for s in defending)

    failed = {**entry, "revoke": "contractor", "tricks": 10 if not is_misere(contract) else 0}
    if "defenders" in failed:
        failed["defenders"] = [0] * len(defending)
    pad.edit(1, failed)  # the contract fails, whatever the tricks
    assert pad.result.lines[-1].made is False
    points = pad.result.lines[-1].points
    if rules.failed_to_opponents:  # R-HOUSE: each opposing side gains the value instead
        assert points[side] == 0 and all(points[s] == value for s in defending)
    else:
        assert points[side] == -value


def test_a_defenders_revoke_against_ten_spades_scores_the_slam() -> None:
    # 10♠ is worth 440 (Avondale) or 120 (1904); made by a defender's revoke it is still
    # all ten tricks to the contractor: a slam, its value or 250 (R-SCORE, R-IRREG).
    for variants, value in (({}, 440), ({"original_1904": True}, 120)):
        pad = Pad(new_pad(NAMES[:4], "american", variants))
        pad.add(
            {"kind": "hand", "contract": "10S", "contractor": 0, "tricks": 10, "revoke": "defender"}
        )
        assert bid_value(parse_call("10S"), make_rules("american", variants)) == value
        assert pad.result.lines[-1].points == [max(value, SLAM_MINIMUM), 0]


def test_reasons_and_490() -> None:
    pad = Pad(new_pad(["Ann", "Bob", "Cat", "Dan"]))
    pad.add({"kind": "hand", "contract": "8H", "contractor": 1, "tricks": 8})
    assert pad.result.lines[0].reasons == [
        "8♥ by Bob made: Bob & Dan +300",
        "Ann & Cat 2 tricks: +20",
    ]
    assert [need["contract"] for need in needed_to_win(pad.data)] == ["10D", "7H"]
    pad.add({"kind": "hand", "contract": "7S", "contractor": 0, "tricks": 0})
    pad.add({"kind": "hand", "contract": "6S", "contractor": 0, "tricks": 2})
    assert pad.result.totals == [-160, 480]
    pad.add({"kind": "hand", "contract": "6NT", "contractor": 0, "tricks": 3})
    assert pad.result.totals == [-280, 490]
    assert pad.result.lines[-1].reasons[-1] == (
        "Bob & Dan 7 tricks: +70, +10 counted: held at 490 by the 490 rule"
    )
    assert pad.result.dealer == 0
    assert [need["contract"] for need in needed_to_win(pad.data)] == [None, "6S"]
    pad.add({"kind": "hand", "contract": "misere", "contractor": 1, "tricks": 0})
    assert pad.result.winner == 1
    assert pad.result.won_by == "Bob & Dan win: made their contract to reach 740 (R-GAME)"
    with pytest.raises(PadError, match="the game is over"):
        pad.add({"kind": "misdeal"})
    rows = pad_csv(pad.data).splitlines()
    assert rows[0].startswith("hand,dealer,kind,contract")
    assert rows[-1].split(",")[9:11] == ["-280", "740"]


def test_bad_hands_are_refused_with_one_line() -> None:
    pad = Pad(new_pad(["Ann", "Bob", "Cat"], "three_handed"))
    """The words are for a person (the hand counted from 1, no JSON path); the path is
    data on the error."""
    pad = Pad(new_pad(["Ann", "Bob", "Cat"], "three_handed"))
    bad = [
        (
            {"kind": "hand", "contract": "11H", "contractor": 0, "tricks": 5},
            "hand 1: '11H' is not a contract",
            "hands[0].contract",
        ),
        (
            {"kind": "hand", "contract": "7H", "contractor": 3, "tricks": 5},
            "hand 1: the contractor must be one of the 3 players",
            "hands[0].contractor",
        ),
        (
            {"kind": "hand", "contract": "7H", "contractor": 0, "tricks": 7},
            "hand 1: give the tricks of each of the 2 defending sides",
            "hands[0].defenders",
        ),
        (
            {"kind": "hand", "contract": "7H", "contractor": 0, "tricks": 7, "defenders": [2, 2]},
            "hand 1: the tricks must add up to 10",
            "hands[0].defenders",
        ),
        (
            {"kind": "hand", "contract": "7H", "contractor": 0, "tricks": 7, "defenders": [2, 11]},
            "hand 1: the second defending side's tricks must be a whole number from 0 to 10, "
            "not 11",
            "hands[0].defenders[1]",
        ),
        (
            {"kind": "bid"},
            "hand 1: 'bid' is not a kind of hand (hand, passed or misdeal)",
            "hands[0].kind",
        ),
        ({"kind": "misdeal", "tricks": 3}, "hand 1: a misdeal has no tricks", "hands[0].tricks"),
    ]
    for entry, message, path in bad:
        with pytest.raises(PadError) as error:
            pad.add(entry)
        assert str(error.value) == message and error.value.path == path
        assert "[" not in str(error.value)  # no JSON path in the words
    assert pad.hands == []  # nothing changed
    pad.add({"kind": "hand", "contract": "7H", "contractor": 0, "tricks": 7, "defenders": [2, 1]})
    assert pad.result.totals == [200, 20, 10]
    with pytest.raises(PadError) as error:
        pad.edit(0, {"kind": "hand", "contract": "7H", "contractor": 0, "tricks": "x"})
    assert str(error.value) == (
        "hand 1: the contracting side's tricks must be a whole number from 0 to 10, not 'x'"
    )
    with pytest.raises(PadError, match="australian needs the names of 4 players") as error:
        new_pad(["Ann", "Bob"], "australian")
    assert error.value.path == "players"
    with pytest.raises(PadError, match="the rules: unknown variant") as error:
        new_pad(["Ann", "Bob", "Cat", "Dan"], "australian", {"no_such": True})
    assert error.value.path == "rules"
    with pytest.raises(PadError, match="the first dealer must be one of the 4 players") as error:
        new_pad(["Ann", "Bob", "Cat", "Dan"], first_dealer=4)
    assert error.value.path == "first_dealer"


def test_tables_come_from_the_engine() -> None:
    rules = make_rules("australian", {"perfect": True})
    table = bid_table(rules)
    assert table["rows"][0]["values"] == [20, 40, 60, 80, 100]
    assert [m["value"] for m in table["misere"]] == [150, 250]
    names = {v["name"] for v in scoring_variants("australian")}
    assert {
        "original_1904",
        "perfect",
        "rule_490",
        "misere_defenders_score",
        "target",
        "point_spread",
    } <= names
    assert "eldest_leads" not in names
    assert score_pad(new_pad(["A", "B", "C", "D"])).totals == [0, 0]


def test_a_wrong_claim_costs_a_further_100() -> None:
    """R-HOUSE claim: the pad enters a wrong claim like an irregularity, and the engine's
    scoring charges it (off the contracting side, or to the opponents with
    failed_to_opponents)."""
    hand = {"kind": "hand", "contract": "7H", "contractor": 1, "tricks": 7}
    pad = Pad(new_pad(NAMES[:4], "australian", {"claim": True}))
    pad.add(hand)
    pad.add({**hand, "claim_wrong": True})
    assert [line.points for line in pad.result.lines] == [[30, 200], [30, 100]]
    assert pad.result.lines[1].reasons[0] == "wrong claim: a further 100 off the contractor's side"
    french = Pad(new_pad(NAMES[:4], "french_canadian", {"claim": True}))
    french.add({**hand, "contract": "7NT", "tricks": 6, "claim_wrong": True})
    value = bid_value(parse_call("7NT"), french.rules)
    assert french.result.lines[0].points == [value + 100 + 40, 0]  # and their 4 tricks
    with pytest.raises(PadError, match="a wrong claim counts only with the claim house rule") as e:
        Pad(new_pad(NAMES[:4])).add({**hand, "claim_wrong": True})
    assert e.value.path == "hands[0].claim_wrong"
    with pytest.raises(PadError, match="a wrong claim counts only with the claim house rule"):
        pad.add(
            {
                "kind": "hand",
                "contract": "misere",
                "contractor": 0,
                "tricks": 1,
                "claim_wrong": True,
            }
        )
    with pytest.raises(PadError, match="a wrong claim is true or false, not 'yes'"):
        pad.add({**hand, "claim_wrong": "yes"})
    assert len(pad.hands) == 2  # refused entries change nothing


def test_the_points_shown_are_the_points_credited_under_the_490_rule() -> None:
    """R-490: a side held at 490 is credited only what took it there; the points column
    (and the CSV's) adds up to the totals, the amount held back stays in the reasons."""
    import csv
    import io

    pad = Pad(new_pad(["Ann", "Bob", "Cat", "Dan"]))
    pad.add({"kind": "hand", "contract": "8H", "contractor": 1, "tricks": 8})
    pad.add({"kind": "hand", "contract": "7S", "contractor": 0, "tricks": 0})
    pad.add({"kind": "hand", "contract": "6S", "contractor": 0, "tricks": 2})
    pad.add({"kind": "hand", "contract": "6NT", "contractor": 0, "tricks": 3})
    assert pad.result.totals == [-280, 490]
    assert pad.result.lines[-1].points == [-120, 10]
    # the reason names what the column shows beside what was won (once: "+70, held at 490"
    # beside a column of 10)
    assert pad.result.lines[-1].reasons[-1] == (
        "Bob & Dan 7 tricks: +70, +10 counted: held at 490 by the 490 rule"
    )
    rows = list(csv.DictReader(io.StringIO(pad_csv(pad.data))))
    for name in pad.result.sides:
        assert sum(int(row[f"{name} points"]) for row in rows) == int(rows[-1][f"{name} total"])


def test_the_page_is_told_the_defending_sides() -> None:
    """describe_rules carries the defending sides for every contractor (and called partner):
    the pad's page shows them and works out no side itself."""
    four = describe_rules(make_rules("australian"))["defenders"]
    assert four == {"0:": [1], "1:": [0], "2:": [1], "3:": [0]}
    five = make_rules("five_handed")
    table = describe_rules(five)["defenders"]
    assert table["0:"] == [1, 2, 3, 4] and table["0:2"] == [1, 3, 4]
    assert "0:0" not in table and len(table) == 5 * 5
    for key, sides in table.items():
        contractor, partner = key.split(":")
        assert sides == defending_sides(five, int(contractor), int(partner) if partner else None)


def test_a_player_out_backwards_does_not_come_back_in() -> None:
    """R-GAME, three players: Ann goes out backwards at -520 with Bob and Cat level, so the
    game goes on; her defending tricks next hand lift her to -480, and Bob's made contract
    puts him ahead: he wins, and Ann is named as out at -520 (she does not come back in)."""
    pad = Pad(new_pad(["Ann", "Bob", "Cat"], "three_handed"))
    pad.add({"kind": "hand", "contract": "10NT", "contractor": 0, "tricks": 0, "defenders": [5, 5]})
    assert pad.result.totals == [-520, 50, 50] and pad.result.winner is None
    pad.add({"kind": "hand", "contract": "6S", "contractor": 1, "tricks": 6, "defenders": [4, 0]})
    assert pad.result.totals == [-480, 90, 50]
    assert pad.result.winner == 1 and pad.result.gone_out == [0]
    assert pad.result.won_by == "Bob win: Ann went out backwards at -520 (R-GAME)"
