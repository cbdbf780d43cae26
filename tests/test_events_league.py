"""Seasonal leagues (web/events/league.py): divisions of a set size, each week's schedule
(the division's round robin, a fixed number of rounds a week) and the games it counts,
standings per division, and promotion and relegation that keep every entrant and every
division's size."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from fivehundred.web.events.league import (
    WEEK,
    LeagueGame,
    counted,
    divisions,
    meeting,
    next_season,
    standings,
    week_of,
    week_rounds,
)
from fivehundred.web.events.pairing import DRAW, LOSS, WIN, round_robin

SETTINGS = settings(max_examples=150, deadline=None)


@SETTINGS
@given(count=st.integers(2, 200), size=st.integers(2, 20))
def test_divisions_hold_everyone_once_at_about_the_set_size(count: int, size: int) -> None:
    entrants = list(range(count))
    cut = divisions(entrants, size)
    assert [e for division in cut for e in division] == entrants
    assert all(len(d) == size for d in cut[:-2])
    if len(cut) > 1:
        assert size // 2 <= len(cut[-1]) <= size + size // 2


@SETTINGS
@given(size=st.integers(2, 16), per_week=st.integers(1, 6), weeks=st.integers(1, 8))
def test_each_week_every_pair_has_its_games_and_all_meet_in_turn(
    size: int, per_week: int, weeks: int
) -> None:
    division = list(range(100, 100 + size))
    season = [r for week in range(weeks) for r in week_rounds(division, week, per_week)]
    for week in range(weeks):
        rounds = week_rounds(division, week, per_week)
        assert len(rounds) == per_week
        for r in rounds:  # every pair in each round once: a game or a bye
            assert sorted(r.pairs()) == division
            assert len(r.byes) == size % 2
    # the weeks go on through the round robin: every pair meets every other once in turn
    whole = len(round_robin(division))
    for start in range(0, len(season) - whole + 1, whole):
        met = Counter(meeting(g) for r in season[start : start + whole] for g in r.games)
        assert len(met) == size * (size - 1) // 2 and set(met.values()) == {1}


def played(rng: random.Random, division: list[int], weeks: int) -> list[LeagueGame]:
    games = []
    for week in range(weeks):
        for _ in range(rng.randrange(0, 3 * len(division))):
            a, b = rng.sample(division, 2)
            pa, pb = rng.randrange(-100, 600, 10), rng.randrange(-100, 600, 10)
            winner = None if pa == pb else "a" if pa > pb else "b"
            at = week * WEEK + rng.random() * WEEK
            games.append(LeagueGame(week, at, a, b, pa, pb, winner))
    return games


@SETTINGS
@given(
    size=st.integers(2, 12),
    weeks=st.integers(1, 6),
    per_week=st.integers(1, 4),
    seed=st.integers(0, 2**32),
)
def test_standings_count_the_first_game_of_each_meeting_of_the_week(
    size: int, weeks: int, per_week: int, seed: int
) -> None:
    rng = random.Random(seed)
    division = list(range(size))

    def schedule(week: int) -> list[Any]:
        return [g for r in week_rounds(division, week, per_week) for g in r.games]

    games = played(rng, division, weeks)
    kept = counted(games, schedule)
    for week in range(weeks):
        owed = Counter(meeting(g) for g in schedule(week))
        got = Counter(frozenset((g.a, g.b)) for g in kept if g.week == week)
        assert all(owed[pair] >= count for pair, count in got.items())
        for entrant in division:  # never more than the week's number
            assert sum(entrant in (g.a, g.b) for g in kept if g.week == week) <= per_week
    # a game left out met no opponents of the week, or its meeting had counted already
    for game in games:
        if game not in kept:
            pair = frozenset((game.a, game.b))
            owed = Counter(meeting(g) for g in schedule(game.week))
            before = [g for g in kept if g.week == game.week and frozenset((g.a, g.b)) == pair]
            assert len(before) == owed[pair] and all(g.at <= game.at for g in before)
    lines = standings(division, kept)
    assert sorted(line.entrant for line in lines) == division
    # a game gives a win and a loss, or two draws
    assert WIN + LOSS == 2 * DRAW
    assert sum(line.points for line in lines) == len(kept) * (WIN + LOSS)
    assert sum(line.difference for line in lines) == 0
    keys = [(-x.points, -x.difference, -x.won, x.order) for x in lines]
    assert keys == sorted(keys)


@SETTINGS
@given(
    count=st.integers(2, 120),
    size=st.integers(2, 16),
    moves=st.integers(0, 5),
    seed=st.integers(0, 2**32),
)
def test_promotion_and_relegation_keep_everyone_and_every_divisions_size(
    count: int, size: int, moves: int, seed: int
) -> None:
    rng = random.Random(seed)
    cut = divisions(list(range(count)), size)
    finished = [rng.sample(d, len(d)) for d in cut]  # each division's final order
    following = next_season(finished, moves)
    assert sorted(e for d in following for e in d) == list(range(count))
    assert [len(d) for d in following] == [len(d) for d in finished]
    moved = min(moves, min(len(d) for d in finished) // 2)
    where = {e: n for n, d in enumerate(following) for e in d}
    for number, division in enumerate(finished):
        for place, entrant in enumerate(division):
            up = number > 0 and place < moved
            down = number < len(finished) - 1 and place >= len(division) - moved
            assert where[entrant] == number - up + down
    # the top division's winner stays on top, the relegated above the promoted below
    assert following[0][0] == finished[0][0]


def test_a_season_has_its_weeks() -> None:
    assert week_of(99.0, 100.0, 4) is None
    assert week_of(100.0, 100.0, 4) == 0
    assert week_of(100.0 + WEEK * 3.5, 100.0, 4) == 3
    assert week_of(100.0 + WEEK * 4, 100.0, 4) is None
