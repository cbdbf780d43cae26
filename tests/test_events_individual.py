"""The club nights' individual and progressive movements (web/events/individual.py,
web/events/progressive.py), property-tested: every round seats everyone once; an
individual's partners never repeat while a new partner is left (then evenly), its
opponents meet at most an even share and one more (two for eight players), its directions stay within four of
even; a progressive moves each table's winners up and losers down, splits every pair,
and keeps the top winners and the bottom losers where they are."""

from __future__ import annotations

import math
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fivehundred.web.events.individual import MAX_ROUNDS, Individual, filled, individual
from fivehundred.web.events.progressive import (
    EW,
    NS,
    first_round,
    next_round,
    pairs_of,
    table_winner,
)


def check(m: Individual, rounds: int) -> None:
    players = m.players
    assert len(m.rounds) == rounds
    partners: Counter[frozenset[int]] = Counter()
    met: Counter[frozenset[int]] = Counter()
    north_south: Counter[int] = Counter()
    for round_ in m.rounds:
        seated = [p for table in round_ for p in table.seats]
        assert sorted(seated) == list(range(players))  # everyone once
        assert [t.table for t in round_] == list(range(players // 4))
        for table in round_:
            partners.update(frozenset(pair) for pair in (table.ns, table.ew))
            met.update(frozenset((x, y)) for x in table.ns for y in table.ew)
            north_south.update({p: 1 for p in table.ns})
            north_south.update({p: -1 for p in table.ew})
    cycle = players - 1
    if rounds <= cycle:  # a new partner every round while there is one
        assert max(partners.values()) == 1
    else:  # then each two partner as evenly as the rounds allow
        counts = [partners[frozenset((x, y))] for x in range(players) for y in range(x)]
        assert min(counts) == rounds // cycle and max(counts) == -(-rounds // cycle)
    assert max(met.values()) <= math.ceil(2 * rounds / cycle) + (2 if players == 8 else 1)
    assert all(abs(north_south[p]) <= 4 for p in range(players))


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 50), st.integers(1, MAX_ROUNDS))
def test_an_individual_rotates_partners_and_spreads_opponents(tables: int, rounds: int) -> None:
    check(individual(4 * tables, rounds), rounds)


@pytest.mark.parametrize("players", [4, 8, 12, 16, 20, 24, 32, 48])
@pytest.mark.parametrize("rounds", [1, 2, 3, 7, 11, 15, 23, 30])
def test_an_individual_of_the_usual_fields(players: int, rounds: int) -> None:
    check(individual(players, rounds), rounds)


def test_an_individual_is_the_same_every_time_and_refuses_odd_fields() -> None:
    assert individual(12, 6) == individual(12, 6)
    assert filled(1) == 4 and filled(5) == 8 and filled(8) == 8
    for players, rounds in ((6, 1), (0, 1), (204, 1), (8, 0), (8, 31)):
        with pytest.raises(ValueError):
            individual(players, rounds)


def test_four_players_partner_each_other_once_in_three_rounds() -> None:
    m = individual(4, 3)
    assert {frozenset(t.ns) for (t,) in m.rounds} | {frozenset(t.ew) for (t,) in m.rounds} == {
        frozenset(p) for p in ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
    }


@given(
    st.integers(1, 50).flatmap(
        lambda t: st.tuples(st.just(t), st.lists(st.sampled_from([NS, EW]), min_size=t, max_size=t))
    ),
    st.integers(0, 3),
)
def test_a_progressive_moves_winners_up_losers_down_and_splits_pairs(
    case: tuple[int, list[int]], rounds_before: int
) -> None:
    count, winners = case
    tables = first_round(4 * count)
    for r in range(rounds_before):  # a few rounds in, whoever won them
        tables = next_round(tables, [(r + t) % 2 for t in range(count)])
    after = next_round(tables, winners)
    seated = [p for seats in after for p in seats]
    assert sorted(seated) == list(range(4 * count))  # everyone once
    where = {p: t for t, seats in enumerate(after) for p in seats}
    new_partner = {}
    for seats in after:
        for side in (NS, EW):
            a, b = pairs_of(seats, side)
            new_partner[a], new_partner[b] = b, a
    for t, (seats, side) in enumerate(zip(tables, winners, strict=True)):
        won, lost = pairs_of(seats, side), pairs_of(seats, 1 - side)
        for p in won:
            assert where[p] == max(t - 1, 0)  # up one (the top table's stay)
        for p in lost:
            assert where[p] == min(t + 1, count - 1)  # down one (the last table's stay)
        for a, b in (won, lost):
            assert new_partner[a] != b  # partners change
    for seats in after:  # each new partnership joins the two pairs that came
        assert where[seats[0]] == where[seats[2]]


def test_a_progressive_of_three_tables_by_hand() -> None:
    tables = first_round(12)
    assert tables == [(0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11)]
    # North-South win at the top, East-West at the middle, North-South at the bottom
    after = next_round(tables, [NS, EW, NS])
    # top: its winners (0, 2) and the middle's winners (5, 7)
    # middle: the top's losers (1, 3) and the bottom's winners (8, 10)
    # bottom: the middle's losers (4, 6) and its own losers (9, 11)
    assert after == [(0, 2, 5, 7), (1, 3, 8, 10), (4, 6, 9, 11)]


def test_a_tables_winner_by_points_then_boards_then_north_south() -> None:
    assert table_winner([40, -60]) == EW
    assert table_winner([-10, 30]) == NS
    assert table_winner([40, -40, -10, 10, -20, 20]) == NS  # level, boards level
    assert table_winner([-30, -30, 60]) == EW  # level on points, East-West won two boards
    assert table_winner([0]) == NS
    with pytest.raises(ValueError):
        next_round(first_round(8), [NS])
