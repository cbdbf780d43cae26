"""The analysis's kept answers: the same as worked out afresh, bounded, and never another
deal's or another rule book's."""

from __future__ import annotations

import pytest

pytest.importorskip("numpy")

from fivehundred.analysis.analyse import (
    ANALYSES,
    STRAIN_TABLES,
    Memo,
    analyse_hand,
    start_of_play,
    strain_table,
)
from fivehundred.rules import make_rules
from fivehundred.solver.samples import random_position


@pytest.mark.parametrize("preset", ["australian", "american", "three_handed"])
@pytest.mark.parametrize("kind", ["suit", "nt", "misere"])
def test_kept_answers_are_the_fresh_ones(preset: str, kind: str) -> None:
    for seed in range(4):
        hand = random_position(seed, kind, (3 * seed) % 11, rules=make_rules(preset))
        fresh = analyse_hand(hand, cache=False)
        first = analyse_hand(hand)
        again = analyse_hand(hand)
        assert first == fresh == again
        first["mistakes"].clear()  # a caller's change reaches no other caller
        assert analyse_hand(hand) == fresh


def test_memo_is_bounded_least_recently_used() -> None:
    memo = Memo(3)
    for key in range(5):
        memo.put(key, {"v": key})
    assert len(memo) == 3
    assert memo.get(0) is None and memo.get(1) is None
    assert memo.get(2) == {"v": 2}  # now the most recent: 3 goes next
    memo.put(5, {"v": 5})
    assert memo.get(3) is None and memo.get(2) == {"v": 2}


def test_the_stores_stay_within_their_caps() -> None:
    rules = make_rules()
    for seed in range(STRAIN_TABLES.size + 5):
        ANALYSES.put(("probe", seed), {})
        STRAIN_TABLES.put(("probe", seed), {})
    assert len(ANALYSES) == ANALYSES.size
    assert len(STRAIN_TABLES) == STRAIN_TABLES.size
    hand = random_position(1, "suit", 0, rules=rules)
    assert analyse_hand(hand) == analyse_hand(hand, cache=False)
    assert len(ANALYSES) == ANALYSES.size


def test_no_cross_talk_between_deals_or_rules() -> None:
    australian = random_position(7, "suit", 0, rules=make_rules("australian"))
    american = random_position(7, "suit", 0, rules=make_rules("american"))
    other = random_position(8, "suit", 0, rules=make_rules("australian"))
    for hand in (australian, american, other):
        start = start_of_play(hand)
        assert strain_table(start) == strain_table(start, cache=False)
        assert analyse_hand(hand) == analyse_hand(hand, cache=False)
    # the same cards with another contractor, and under another rule book: their own
    start = start_of_play(australian)
    other_seat = start.clone()
    other_seat.contractor = (start.contractor + 1) % 4
    assert strain_table(other_seat) == strain_table(other_seat, cache=False)
    assert strain_table(other_seat) != strain_table(start)
    other_rules = start.clone()
    other_rules.rules = make_rules("american")
    assert strain_table(other_rules) == strain_table(other_rules, cache=False)


@pytest.mark.parametrize("preset", ["two_handed", "french_canadian"])
def test_kept_answers_with_dummies_and_other_decks(preset: str) -> None:
    for seed in range(3):
        hand = random_position(seed, "suit", 0, rules=make_rules(preset))
        assert analyse_hand(hand) == analyse_hand(hand, cache=False)
