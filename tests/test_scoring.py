"""Scoring (R-SCORE), the 490 rule (R-490) and winning the game (R-GAME).

Hands here are scored from tricks per seat: seats 0 and 2 are side 0, seats 1 and 3 side 1.
"""

from __future__ import annotations

import pytest

from conftest import AMERICAN, AUS, apply_text, deal_hand, legal_texts, rules
from fivehundred.actions import parse_action
from fivehundred.rules import Rules
from fivehundred.scoring import (
    HandScore,
    apply_hand_to_scores,
    bid_value,
    game_winner,
    score_hand,
    sides_gone_out,
)

STRAINS = ("S", "C", "D", "H", "NT")

AVONDALE = {
    6: (40, 60, 80, 100, 120),
    7: (140, 160, 180, 200, 220),
    8: (240, 260, 280, 300, 320),
    9: (340, 360, 380, 400, 420),
    10: (440, 460, 480, 500, 520),
}
ORIGINAL_1904 = {
    6: (40, 80, 120, 160, 200),
    7: (60, 120, 180, 240, 300),
    8: (80, 160, 240, 320, 400),
    9: (100, 200, 300, 400, 500),
    10: (120, 240, 360, 480, 600),
}


def value(bid: str, game_rules: Rules = AUS) -> int:
    return bid_value(parse_action(bid, "auction"), game_rules)


def score(bid: str, contractor: int, tricks_won: list[int], game_rules: Rules = AUS) -> HandScore:
    """Score a hand in which seat ``s`` won ``tricks_won[s]`` tricks (R-SCORE)."""
    contract = parse_action(bid, "auction") if bid != "none" else -1
    partners: tuple[int, ...] = ()
    if 0 <= contract < parse_action("misere", "auction"):
        partners = ((contractor + 2) % 4,)
    winners = [seat for seat, won in enumerate(tricks_won) for _ in range(won)]
    assert len(winners) == 10
    return score_hand(game_rules, contract, contractor, partners, tricks_won, winners)


# ----------------------------------------------------------------------------- tables
@pytest.mark.parametrize("tricks", range(6, 11))
def test_r_score_avondale_table(tricks: int) -> None:
    """R-SCORE: the Avondale table (default)."""
    for strain, expected in zip(STRAINS, AVONDALE[tricks], strict=True):
        assert value(f"{tricks}{strain}") == expected


@pytest.mark.parametrize("tricks", range(6, 11))
def test_r_score_original_1904_table(tricks: int) -> None:
    """R-SCORE variant ``original_1904``: (tricks − 4) × 20, 40, 60, 80, 100."""
    game_rules = rules(original_1904=True)
    for strain, expected in zip(STRAINS, ORIGINAL_1904[tricks], strict=True):
        assert value(f"{tricks}{strain}", game_rules) == expected


@pytest.mark.parametrize("tricks", range(6, 11))
def test_r_score_perfect_table(tricks: int) -> None:
    """R-SCORE variant ``perfect``: every Avondale value minus 20 (6♠ 20 … 10NT 500)."""
    game_rules = rules(perfect=True)
    for strain, expected in zip(STRAINS, AVONDALE[tricks], strict=True):
        assert value(f"{tricks}{strain}", game_rules) == expected - 20


@pytest.mark.parametrize(
    ("variants", "misere", "open_misere", "blind_misere"),
    [
        ({}, 250, 500, 1000),
        ({"original_1904": True}, 250, 500, 1000),
        ({"perfect": True}, 150, 250, 1000),
        ({"open_misere_520": True}, 250, 520, 1000),
    ],
)
def test_r_score_misere_values(
    variants: dict[str, bool], misere: int, open_misere: int, blind_misere: int
) -> None:
    game_rules = rules(**variants)
    assert value("misere", game_rules) == misere
    assert value("open_misere", game_rules) == open_misere
    assert value("blind_misere", game_rules) == blind_misere


def test_r_score_bids_rank_by_tricks_then_strain_whatever_the_table() -> None:
    """R-SCORE: under original_1904, 6NT (200) is still outranked by 7♠ (60)."""
    game_rules = rules(original_1904=True)
    state = deal_hand(game_rules, 0, {})
    apply_text(state, "6NT")
    assert "7S" in legal_texts(state)
    assert "6H" not in legal_texts(state)


# ----------------------------------------------------------------------------- hand scores
def test_r_score_contract_made_scores_the_bid_value_extra_tricks_nothing() -> None:
    """R-SCORE: made, the contractor's side scores the bid value; defenders 10 a trick."""
    result = score("7H", 1, [1, 5, 0, 4])  # side 1 wins 9 tricks for 7♥
    assert result.made is True
    assert result.points == (10, 200)
    assert result.contracting_side == 1


def test_r_score_contract_made_exactly() -> None:
    result = score("8NT", 2, [5, 1, 3, 1])
    assert result.made is True
    assert result.points == (320, 20)


def test_r_score_contract_failed_loses_the_bid_value() -> None:
    """R-SCORE: failed, the value is subtracted; defenders still score 10 a trick."""
    result = score("8S", 0, [4, 2, 3, 1])  # side 0 won 7 of the 8 needed
    assert result.made is False
    assert result.points == (-240, 30)


def test_r_score_slam_scores_at_least_250() -> None:
    """R-SCORE: winning all ten tricks scores the bid value or 250, whichever is larger."""
    assert score("6S", 0, [6, 0, 4, 0]).points == (250, 0)
    assert score("7D", 3, [0, 2, 0, 8]).points == (0, 250)
    assert score("8S", 1, [0, 10, 0, 0]).points == (0, 250)
    assert score("8C", 1, [0, 10, 0, 0]).points == (0, 260)
    assert score("10H", 0, [3, 0, 7, 0]).points == (500, 0)
    # Nine tricks is no slam.
    assert score("6S", 0, [6, 1, 3, 0]).points == (40, 10)


def test_r_score_slam_with_the_perfect_and_1904_tables() -> None:
    assert score("6S", 0, [10, 0, 0, 0], rules(perfect=True)).points == (250, 0)
    assert score("10NT", 0, [10, 0, 0, 0], rules(original_1904=True)).points == (600, 0)


def test_r_score_slam_minimum_is_for_suit_and_no_trump_contracts_only() -> None:
    """R-SCORE: the 250 slam minimum is not a misère rule: a perfect-table misère made
    (the defenders take all ten tricks) scores 150."""
    result = score("misere", 1, [6, 0, 4, 0], rules(perfect=True))
    assert result.made is True
    assert result.points == (0, 150)


def test_r_score_misere_made_and_failed() -> None:
    """R-SCORE: misère +value if the contractor wins no trick, −value otherwise."""
    assert score("misere", 1, [6, 0, 4, 0]).points == (0, 250)
    failed = score("misere", 1, [6, 1, 3, 0])
    assert failed.made is False
    assert failed.points == (0, -250)
    assert score("open_misere", 2, [5, 5, 0, 0]).points == (500, 0)
    assert score("open_misere", 2, [4, 5, 1, 0]).points == (-500, 0)
    assert score("blind_misere", 3, [5, 5, 0, 0], rules(blind_misere=True)).points == (0, 1000)


def test_r_score_australian_misere_defenders_score_nothing() -> None:
    """R-SCORE (Australian): in misère and open misère the defenders score nothing."""
    assert score("misere", 0, [3, 4, 0, 3]).points == (-250, 0)
    assert score("open_misere", 0, [0, 6, 0, 4]).points == (500, 0)


def test_r_score_misere_defenders_score_variant() -> None:
    """Variant ``misere_defenders_score`` (1904, the American preset): the defenders score
    10 for each trick the misère contractor wins."""
    game_rules = rules(misere_defenders_score=True)
    assert score("misere", 0, [3, 4, 0, 3], game_rules).points == (-250, 30)
    assert score("misere", 0, [0, 6, 0, 4], game_rules).points == (250, 0)
    assert score("misere", 1, [2, 2, 6, 0], AMERICAN).points == (20, -250)


def test_r_score_defenders_score_10_a_trick_whether_or_not_the_contract_is_made() -> None:
    assert score("6C", 1, [2, 4, 0, 4]).points == (20, 60)
    assert score("9C", 1, [2, 4, 2, 2]).points == (40, -360)


def test_r_allpass_play_nt_scores_10_a_trick_to_the_side_that_wins_it() -> None:
    """R-ALLPASS ``allpass_play_nt``: no contract; every trick is worth 10 to its winner."""
    result = score("none", -1, [3, 2, 1, 4], rules(allpass_play_nt=True))
    assert result.made is None
    assert result.contracting_side is None
    assert result.points == (40, 60)


# -----------------------------------------------------------------------------
def test_r_490_defenders_stop_at_490() -> None:
    """R-490: points won as defenders cannot take a side to 500 or more: they stop at 490."""
    failed = score("7S", 1, [4, 3, 2, 1])  # side 1 fails; side 0 defends 6 tricks: 60
    assert failed.points == (60, -140)
    assert apply_hand_to_scores(AUS, [470, 100], failed) == [490, -40]
    assert apply_hand_to_scores(AUS, [490, 100], failed) == [490, -40]
    assert apply_hand_to_scores(AUS, [400, 100], failed) == [460, -40]
    assert apply_hand_to_scores(AUS, [440, 100], failed) == [490, -40]


def test_r_490_a_contract_made_goes_past_490_and_wins() -> None:
    made = score("7S", 1, [2, 4, 1, 3])
    scores = apply_hand_to_scores(AUS, [480, 400], made)
    assert scores == [490, 540]
    assert game_winner(AUS, scores, made) == 1


def test_r_490_uses_the_target() -> None:
    """Variant ``target``: with 300 the defenders stop at 290."""
    game_rules = rules(target=300)
    failed = score("7S", 1, [4, 3, 2, 1], game_rules)
    assert apply_hand_to_scores(game_rules, [250, 0], failed) == [290, -140]


def test_r_490_does_not_apply_under_the_1904_rules() -> None:
    failed = score("7S", 1, [4, 3, 2, 1], AMERICAN)
    scores = apply_hand_to_scores(AMERICAN, [470, 100], failed)
    assert scores == [530, -40]
    assert game_winner(AMERICAN, scores, failed) == 0  # first to 500 wins (1904)


# ----------------------------------------------------------------------------- R-GAME
def test_r_game_australian_win_only_by_making_a_contract() -> None:
    made = score("6S", 0, [4, 2, 2, 2])
    assert game_winner(AUS, [520, 100], made) == 0
    assert game_winner(AUS, [460, 100], made) is None
    # Side 1 defended; side 0's contract failed: nobody reaches 500 this way.
    failed = score("6S", 0, [3, 3, 2, 2])
    assert game_winner(AUS, [-40, 490], failed) is None


def test_r_game_going_out_backwards_at_minus_500() -> None:
    """R-GAME: a side whose score falls to −500 or lower loses."""
    failed = score("10NT", 1, [3, 3, 2, 2])
    assert game_winner(AUS, [50, -500], failed) == 0
    assert game_winner(AUS, [50, -620], failed) == 0
    assert game_winner(AUS, [50, -490], failed) is None
    assert game_winner(AMERICAN, [50, -500], failed) == 0


def test_r_game_1904_first_to_500_wins_and_both_reaching_go_to_the_contractors() -> None:
    """R-GAME (1904): the first side to reach 500 wins; if both reach 500 in the same hand,
    the contracting side wins."""
    made = score("6H", 1, [2, 4, 0, 4], AMERICAN)
    assert game_winner(AMERICAN, [510, 520], made) == 1
    assert game_winner(AMERICAN, [560, 520], made) == 1
    failed = score("9H", 1, [3, 4, 1, 2], AMERICAN)
    assert game_winner(AMERICAN, [500, 300], failed) == 0  # defenders reach 500 and win
    assert game_winner(AMERICAN, [490, 300], failed) is None


def test_r_game_point_spread_variant() -> None:
    """Variant ``point_spread``: one side positive, the other negative, 500 or more apart."""
    game_rules = rules(point_spread=True)
    hand = score("6S", 0, [4, 2, 2, 2], game_rules)
    assert game_winner(game_rules, [260, -240], hand) == 0
    assert game_winner(game_rules, [-240, 260], hand) == 1
    assert game_winner(game_rules, [250, -240], hand) is None
    assert game_winner(game_rules, [0, -490], hand) is None
    assert game_winner(AUS, [260, -240], hand) is None  # not without the variant


def test_r_game_target_variant() -> None:
    game_rules = rules(target=300)
    made = score("6S", 0, [4, 2, 2, 2], game_rules)
    assert game_winner(game_rules, [300, 0], made) == 0
    assert game_winner(game_rules, [290, 0], made) is None
    big = rules(target=1000)
    assert game_winner(big, [600, 0], score("6S", 0, [4, 2, 2, 2], big)) is None


def test_r_game_going_out_backwards_with_the_others_level_plays_on() -> None:
    """R-GAME, three sides: the highest other side wins when one goes out backwards; when
    the highest others are level nobody has won yet (not the first seat by ``max()``)."""
    three = rules("three_handed")
    contract = parse_action("10NT", "auction")
    winners = [0, 0, 1, 1, 1, 1, 2, 2, 2, 2]
    failed = score_hand(three, contract, 0, (), [2, 4, 4], winners)
    assert game_winner(three, [-520, 200, 200], failed) is None
    assert game_winner(three, [-520, 200, 210], failed) == 2
    assert game_winner(three, [-520, 210, 200], failed) == 1


def test_r_game_a_side_gone_out_backwards_stays_out() -> None:
    """R-GAME: a side that went out backwards has lost for good. Three sides, the others
    level at the time: when its defending tricks later lift it above −500, it is still out,
    and the hand that puts one of the others ahead ends the game."""
    three = rules("three_handed")
    history = [[-520, 50, 50]]
    assert sides_gone_out(three, history) == [0]
    contract = parse_action("6S", "auction")
    winners = [1] * 6 + [0] * 4
    made = score_hand(three, contract, 1, (), [4, 6, 0], winners)
    after = apply_hand_to_scores(three, history[-1], made)
    assert after == [-480, 90, 50]
    assert game_winner(three, after, made, (), sides_gone_out(three, history)) == 1
    assert sides_gone_out(three, [*history, after]) == [0]
    # Not out before: the game simply goes on.
    assert game_winner(three, after, made, (), sides_gone_out(three, [[-420, 50, 50]])) is None


@pytest.mark.parametrize(
    ("preset", "variants"),
    [
        ("australian", {"misere_defenders_score": True}),
        ("five_handed", {"half_each": True}),
        ("three_handed", {}),
        ("australian", {"failed_to_opponents": True}),
        ("american", {"allpass_play_nt": True}),
    ],
)
def test_r_score_the_parts_of_a_hands_points_add_up(preset: str, variants: dict) -> None:
    """Every hand's points are told part by part (HandScore.parts), and each side's parts
    add up to its points: the words that explain a result never leave a figure out."""
    import random

    from fivehundred.game import GameState
    from fivehundred.rules import make_rules

    game_rules = make_rules(preset, variants)
    kinds = set()
    for seed in range(3):
        rng = random.Random(seed)
        game = GameState(game_rules, seed=seed, first_dealer=0)
        while not game.is_over and len(game.finished_hands) < 6:
            game.apply(rng.choice(game.legal_actions()))
        for hand in game.finished_hands:
            score = hand.result.score
            for side, points in enumerate(score.points):
                assert sum(p for s, _, p in score.parts if s == side) == points
            kinds |= {kind for _, kind, _ in score.parts}
    assert kinds & {"contract", "tricks"}


def test_r_game_the_game_keeps_a_side_out_once_out() -> None:
    """The game itself (GameState): West out at -520 with the others level plays on; the
    first hand after which South and East differ ends the game, wherever West's defending
    tricks have taken West meanwhile."""
    import random

    from fivehundred.game import GameState
    from fivehundred.rules import make_rules

    three = make_rules("three_handed")
    seen_back_in = False
    for seed in range(12):
        game = GameState(three, seed=seed, first_dealer=0)
        game.scores = [50, -520, 50]
        game.score_history = [(50, -520, 50)]
        rng = random.Random(seed)
        while not game.finished_hands:
            game.apply(rng.choice(game.legal_actions()))
        scores = game.score_history[-1]
        if scores[0] == scores[2]:
            continue
        assert game.winner == (0 if scores[0] > scores[2] else 2), scores
        seen_back_in |= scores[1] > -500
    assert seen_back_in
