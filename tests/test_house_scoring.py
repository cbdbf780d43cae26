"""House rules that change only the score and the end of the game (RULES.md §10, R-HOUSE):
no_defender_points, failed_to_opponents, exact_target, highest_wins,
minus_500_needs_other_positive and ralphing."""

from __future__ import annotations

import random

import pytest

from fivehundred.actions import MISERE, PASS, bid_tricks, parse_call
from fivehundred.errors import RecordError, RulesError
from fivehundred.game import GameState
from fivehundred.record import game_record, replay_game
from fivehundred.rules import make_rules
from fivehundred.scoring import HandScore, apply_hand_to_scores, game_winner, score_hand

SEVEN_HEARTS = parse_call("7H")  # 200 (Avondale)
# Seat 0 bids; 0 and 2 are partners. Trick winners: the contracting side wins the first n.


def _winners(team_tricks: int) -> list[int]:
    return [0] * team_tricks + [1] * (10 - team_tricks)


def _tricks_won(winners: list[int]) -> list[int]:
    return [winners.count(seat) for seat in range(4)]


def _score(variants: dict[str, object], contract: int, team_tricks: int) -> HandScore:
    rules = make_rules("australian", variants)
    winners = _winners(team_tricks)
    partners = () if contract >= MISERE else (2,)
    return score_hand(rules, contract, 0, partners, _tricks_won(winners), winners)


def test_no_defender_points() -> None:
    """R-HOUSE no_defender_points: defenders score nothing; only contracts score."""
    assert _score({}, SEVEN_HEARTS, 7).points == (200, 30)
    assert _score({"no_defender_points": True}, SEVEN_HEARTS, 7).points == (200, 0)
    assert _score({"no_defender_points": True}, SEVEN_HEARTS, 4).points == (-200, 0)


def test_no_defender_points_refuses_misere_defenders_score() -> None:
    with pytest.raises(RulesError, match="no_defender_points"):
        make_rules("american", {"no_defender_points": True})


def test_failed_to_opponents() -> None:
    """R-HOUSE failed_to_opponents: the value goes to the opponents; nothing is subtracted."""
    hand = _score({"failed_to_opponents": True}, SEVEN_HEARTS, 6)
    assert hand.points == (0, 200 + 40) and hand.made is False
    assert _score({"failed_to_opponents": True}, SEVEN_HEARTS, 7).points == (200, 30)
    three = make_rules("three_handed", {"failed_to_opponents": True})
    winners = [0] * 5 + [1] * 3 + [2] * 2
    points = score_hand(three, SEVEN_HEARTS, 0, (), [5, 3, 2], winners).points
    assert points == (0, 200 + 30, 200 + 20)  # each opponent gains the value


def test_failed_to_opponents_lifts_the_490_rule_and_minus_500() -> None:
    """R-HOUSE: with failed_to_opponents, R-490 and −500 do not apply."""
    rules = make_rules("australian", {"failed_to_opponents": True})
    hand = _score({"failed_to_opponents": True}, SEVEN_HEARTS, 6)
    assert apply_hand_to_scores(rules, [0, 400], hand) == [0, 640]
    plain = make_rules()
    assert apply_hand_to_scores(plain, [0, 480], _score({}, SEVEN_HEARTS, 6)) == [-200, 490]
    for bad in (
        {"rule_490": True},
        {"point_spread": True},
        {"minus_500_needs_other_positive": True},
    ):
        with pytest.raises(RulesError, match="failed_to_opponents"):
            make_rules("australian", {"failed_to_opponents": True, **bad})


def test_exact_target() -> None:
    """R-HOUSE exact_target (Walker Ultimate 500): win only on exactly the target; a side at
    twice the target or more loses."""
    rules = make_rules("australian", {"exact_target": True})
    made = _score({"exact_target": True}, SEVEN_HEARTS, 7)
    assert game_winner(rules, [500, 30], made) == 0
    assert game_winner(rules, [520, 30], made) is None
    assert game_winner(make_rules(), [520, 30], made) == 0
    assert game_winner(rules, [1000, 30], made) == 1
    assert game_winner(rules, [990, 30], made) is None


def test_highest_wins() -> None:
    """R-HOUSE highest_wins: both sides past the target in one hand: the higher score wins;
    equal scores play on."""
    plain = make_rules("american")
    rules = make_rules("american", {"highest_wins": True})
    made = _score({}, SEVEN_HEARTS, 7)
    assert game_winner(plain, [510, 530], made) == 0  # 1904: the contracting side
    assert game_winner(rules, [510, 530], made) == 1
    assert game_winner(rules, [520, 520], made) is None
    assert game_winner(rules, [520, 490], made) == 0


def test_minus_500_needs_other_positive() -> None:
    """R-HOUSE: going out backwards at −500 loses only if the other side is not negative."""
    rules = make_rules("australian", {"minus_500_needs_other_positive": True})
    failed = _score({}, SEVEN_HEARTS, 5)
    assert game_winner(make_rules(), [-510, -20], failed) == 1
    assert game_winner(rules, [-510, -20], failed) is None
    assert game_winner(rules, [-510, 0], failed) == 1
    assert game_winner(rules, [-510, 60], failed) == 1


def _ralphing_game(variants: dict[str, object]) -> GameState:
    """A game (the first bidder bids 6♠, the others pass, random play) that reaches a hand
    after a contractor failed by three."""
    rules = make_rules("australian", {"ralphing": True, **variants})
    for seed in range(60):
        game = GameState(rules, seed=seed, first_dealer=0)
        rng = random.Random(seed)
        while not game.is_over and len(game.finished_hands) < 6:
            if game.hand.barred:
                return game
            legal = game.legal_actions()
            if game.hand.phase == "auction":
                bid = game.hand.auction.contract >= 0
                game.apply(PASS if bid or len(legal) == 1 else legal[1])
            else:
                game.apply(legal[rng.randrange(len(legal))])
    raise AssertionError("no contractor failed by three in 60 random games")


def test_ralphing_bars_the_contractor_from_the_next_auction() -> None:
    """R-HOUSE ralphing: a contractor who fails by three tricks or more must pass next hand."""
    game = _ralphing_game({})
    last = game.finished_hands[-1]
    team = {last.contractor, *last.partners}
    won = sum(last.tricks_won[s] for s in team)
    assert (won >= 3) if last.contract >= MISERE else (won <= bid_tricks(last.contract) - 3)
    (barred,) = game.hand.barred
    assert barred == last.contractor
    rng = random.Random(1)
    seen = False
    while game.hand.phase == "auction":
        legal = game.legal_actions()
        if game.to_move == barred:
            assert legal == [PASS]
            assert game.observation(barred).barred == (barred,)
            assert game.observation(barred).to_json()["barred"] == [barred]
            seen = True
        game.apply(legal[rng.randrange(len(legal))])
    assert seen


def test_ralphing_in_records() -> None:
    """A game record replays the bar; a record that says otherwise is refused."""
    game = _ralphing_game({})
    record = game_record(game)
    hands = record["hands"]
    assert replay_game(record).hand.barred == game.hand.barred
    previous = hands[-1] if game.hand.history else None
    assert previous is None or previous["barred"] == list(game.hand.barred)
    # Claim a bar where the game had none: refused, naming the field.
    first = dict(hands[0])
    first["barred"] = [1]
    bad = dict(record, hands=[first, *hands[1:]])
    with pytest.raises(RecordError, match=r"hands\[0\]\.barred"):
        replay_game(bad)


def test_ralphing_off_refuses_a_barred_record() -> None:
    game = GameState(make_rules(), seed=3, first_dealer=0)
    game.apply(PASS)
    record = game_record(game)
    record["hands"][0]["barred"] = [2]
    with pytest.raises(RecordError, match="ralphing"):
        replay_game(record)


def test_a_barred_seat_is_told_why_it_must_pass() -> None:
    """R-HOUSE ralphing: the barred seat's prompt and a refused bid say "barred by
    ralphing after …" in words (once "Seat 0 … must pass" in line mode, nothing on the
    full screen, whose prompt is the same observation_prompt)."""
    from fivehundred.auction import allowed_contracts
    from fivehundred.errors import IllegalActionError
    from fivehundred.words import error_text, observation_prompt

    game = _ralphing_game({})
    (barred,) = game.hand.barred
    while game.to_move != barred:
        game.apply(PASS)
    said = observation_prompt(game.observation(barred))
    assert said.startswith("Your bid: you must pass, barred by ralphing after failing")
    bid = next(a for a in allowed_contracts(game.rules) if a != PASS)
    with pytest.raises(IllegalActionError) as refused:
        game.apply(bid)
    text = error_text(refused.value)
    assert text.startswith("You must pass this hand: barred by ralphing after"), text
    assert "Seat" not in text and "seat" not in text
