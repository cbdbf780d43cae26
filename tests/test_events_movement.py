"""The club nights' duplicate movements (web/events/movement.py), property-tested: no pair
plays a board twice, no pair meets another twice, every table has a board set every
round, each set is played equally often, and each board is played by several tables in
one direction (so that matchpoints compare like with like)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fivehundred.web.events.movement import (
    Movement,
    howell,
    mitchell,
    mitchell_rounds,
    most_rounds,
    movement,
)


def check(m: Movement) -> None:
    played: set[tuple[int, int]] = set()
    met: set[frozenset[int]] = set()
    by_set: Counter[int] = Counter()
    for round_ in m.rounds:
        seated = [p for seat in round_ for p in (seat.ns, seat.ew)]
        assert len(seated) == len(set(seated)) == m.pairs  # everyone plays, once
        assert sorted(seat.table for seat in round_) == list(range(m.pairs // 2))
        for seat in round_:
            assert 0 <= seat.board_set < m.sets
            for pair in (seat.ns, seat.ew):
                assert (pair, seat.board_set) not in played
                played.add((pair, seat.board_set))
            meeting = frozenset((seat.ns, seat.ew))
            assert meeting not in met
            met.add(meeting)
            by_set[seat.board_set] += 1
    counts = set(by_set.values())
    assert max(counts) - min(counts) <= 1  # the sets balanced
    if m.kind == "howell":
        assert counts == {m.pairs // 2}  # every table plays each set of its round
    if m.kind == "mitchell":
        # every North-South pair stays North-South: a set's results compare in one field
        for round_ in m.rounds:
            assert all(seat.ns < m.pairs // 2 <= seat.ew for seat in round_)


@given(
    st.integers(1, 40).flatmap(lambda t: st.tuples(st.just(t), st.integers(1, mitchell_rounds(t))))
)
def test_a_mitchell_never_repeats_a_board_or_a_meeting(case: tuple[int, int]) -> None:
    check(mitchell(*case))


@given(st.integers(1, 40).flatmap(lambda t: st.tuples(st.just(2 * t), st.integers(1, 2 * t - 1))))
def test_a_howell_never_repeats_a_board_or_a_meeting(case: tuple[int, int]) -> None:
    check(howell(*case))


@given(st.integers(1, 50).flatmap(lambda t: st.tuples(st.just(2 * t), st.integers(1, 2 * t - 1))))
def test_the_movement_chosen_for_a_field_is_sound(case: tuple[int, int]) -> None:
    m = movement(*case)
    check(m)
    assert m.kind == (
        "mitchell" if case[0] >= 6 and case[1] <= mitchell_rounds(case[0] // 2) else "howell"
    )


def test_a_mitchell_moves_east_west_up_and_the_boards_down() -> None:
    m = mitchell(5, 3)
    first, second = m.rounds[0], m.rounds[1]
    for seat in second:
        came_from = next(s for s in first if s.ew == seat.ew)
        assert seat.table == (came_from.table + 1) % 5
        sent = next(s for s in first if s.table == (seat.table + 1) % 5)
        assert seat.board_set == sent.board_set
        assert seat.ns == seat.table


def test_an_even_mitchell_skips_a_table_half_way() -> None:
    m = mitchell(4, 3)
    ew_tables = [{s.ew: s.table for s in round_} for round_ in m.rounds]
    assert [ew_tables[r][4] for r in range(3)] == [0, 1, 3]  # skipped table 2
    check(m)


def test_a_field_too_small_for_its_rounds_is_refused() -> None:
    assert most_rounds(4) == 3
    with pytest.raises(ValueError, match="at most 3"):
        movement(4, 4)
    with pytest.raises(ValueError):
        howell(5, 1)
