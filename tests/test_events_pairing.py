"""The pairings of the tournaments (web/events/pairing.py), checked as properties over
whole events with random results: in a Swiss no two pairs meet twice while another
pairing of the round avoids it, a bye never goes twice to one pair while another has had
none, seats stay within one game of even while avoidable; a round robin meets everyone
once with seats within one after every round; a knockout gives its byes to the top seeds
and keeps the top two apart until the final."""

from __future__ import annotations

import random
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from fivehundred.web.events.pairing import (
    BYE,
    WIN,
    Game,
    Played,
    Round,
    RoundResult,
    bracket_order,
    knockout_next,
    knockout_round,
    knockout_slots,
    round_robin,
    standings,
    swiss_round,
)

SETTINGS = settings(max_examples=120, deadline=None)


def play(round_: Round, rng: random.Random) -> RoundResult:
    """Random results for a round: game points, a winner (now and then a draw) and now
    and then an absent pair."""
    games = []
    for game in round_.games:
        ns, ew = rng.randrange(-200, 600, 10), rng.randrange(-200, 600, 10)
        winner = None if ns == ew else "ns" if ns > ew else "ew"
        absent = (game.ew,) if rng.random() < 0.05 else ()
        games.append(Played(game.ns, game.ew, ns, ew, winner, absent))
    return RoundResult(tuple(games), round_.byes)


def matchings(people: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every way to pair ``people`` off (the tests' own exhaustive search)."""
    if not people:
        yield []
        return
    first, rest = people[0], people[1:]
    for i, other in enumerate(rest):
        for matching in matchings(rest[:i] + rest[i + 1 :]):
            yield [(first, other), *matching]


def exists(
    pairs: list[int], met: set[frozenset[int]], balance: dict[int, int], seats: bool
) -> bool:
    """Whether some bye (to a pair with the fewest byes: the caller's list) and matching
    of the rest has no repeat (and, with ``seats``, no two pairs ahead on the same side)."""
    for matching in matchings(pairs):
        if any(frozenset(m) in met for m in matching):
            continue
        if seats and any(balance[a] * balance[b] > 0 for a, b in matching):
            continue
        return True
    return False


def any_pairing(
    pairs: list[int],
    byes: list[int | None],
    met: set[frozenset[int]],
    balance: dict[int, int],
    seats: bool,
) -> bool:
    return any(exists([p for p in pairs if p != bye], met, balance, seats) for bye in byes)


@SETTINGS
@given(count=st.integers(2, 11), rounds=st.integers(1, 12), seed=st.integers(0, 2**32))
def test_a_swiss_repeats_no_meeting_gives_fair_byes_and_balances_seats(
    count: int, rounds: int, seed: int
) -> None:
    rng = random.Random(seed)
    pairs = [100 + i for i in range(count)]
    history: list[RoundResult] = []
    met: set[frozenset[int]] = set()
    byes = dict.fromkeys(pairs, 0)
    for _ in range(rounds):
        balance = {s.pair: s.balance for s in standings(pairs, history)}
        round_ = swiss_round(pairs, history, budget=None)
        # every pair once a round, one bye at most (an odd field: exactly one)
        assert sorted(round_.pairs()) == sorted(pairs)
        assert len(round_.byes) == count % 2
        # the bye to a pair with the fewest byes
        fewest = min(byes.values())
        for pair in round_.byes:
            assert byes[pair] == fewest
            byes[pair] += 1
        assert max(byes.values()) - min(byes.values()) <= 1
        # a repeat only when every pairing of the round has one
        candidates = [p for p in pairs if byes[p] - (p in round_.byes) == fewest]
        choices: list[int | None] = [*candidates] if count % 2 else [None]

        meetings = [frozenset((g.ns, g.ew)) for g in round_.games]
        if any(m in met for m in meetings):
            assert not any_pairing(pairs, choices, met, balance, seats=False)
        # two pairs ahead on the same side meet only when nothing else avoids it
        elif any(balance[g.ns] * balance[g.ew] > 0 for g in round_.games):
            assert not any_pairing(pairs, choices, met, balance, seats=True)
        # the pair further ahead in North-South sits East-West
        for game in round_.games:
            assert balance[game.ns] <= balance[game.ew]
        met.update(meetings)
        history.append(play(round_, rng))


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_a_large_swiss_pairs_without_repeats_with_seats_within_one(seed: int) -> None:
    """A field of 200 pairs over eight rounds (the bench's) meets no one twice and keeps
    every pair's seats within one game of even."""
    rng = random.Random(seed)
    pairs = list(range(200))
    history: list[RoundResult] = []
    meetings: set[frozenset[int]] = set()
    for _ in range(8):
        round_ = swiss_round(pairs, history)
        for game in round_.games:
            assert frozenset((game.ns, game.ew)) not in meetings
            meetings.add(frozenset((game.ns, game.ew)))
        history.append(play(round_, rng))
    lines = standings(pairs, history)
    assert all(abs(s.balance) <= 1 for s in lines)
    assert all(s.played == 8 for s in lines)


def test_the_first_round_pairs_neighbours_and_gives_the_bye_to_the_last_seed() -> None:
    round_ = swiss_round([1, 2, 3, 4, 5], [])
    assert round_.byes == (5,)
    assert round_.games == (Game(1, 2), Game(3, 4))


def test_standings_rank_by_points_then_buchholz_then_difference() -> None:
    # 1 beats 2 by 100, 3 beats 4 by 300, 5 has the bye
    first = RoundResult(
        (Played(1, 2, 500, 400, "ns"), Played(3, 4, 500, 200, "ns")),
        byes=(5,),
    )
    lines = standings([1, 2, 3, 4, 5], [first])
    # all winners on 2 points; no one met has points but 5's bye counts for nothing:
    # the difference decides 3 (+300) over 1 (+100) over 5 (0)
    assert [s.pair for s in lines] == [3, 1, 5, 2, 4]
    assert [s.points for s in lines] == [WIN, WIN, BYE, 0, 0]
    second = RoundResult((Played(5, 3, 500, 0, "ns"), Played(2, 1, 0, 500, "ew")), byes=(4,))
    lines = standings([1, 2, 3, 4, 5], [first, second])
    by_pair = {s.pair: s for s in lines}
    assert by_pair[1].points == by_pair[5].points == 4
    # 1 met 2 (0 points... and 2 again) against 5's 3 (2): Buchholz puts 5 first
    assert by_pair[5].buchholz == 2 and by_pair[1].buchholz == 0
    assert [s.pair for s in lines][:2] == [5, 1]


def test_an_absent_pair_scores_nothing_and_its_opponents_keep_the_result() -> None:
    result = RoundResult((Played(1, 2, 520, 300, "ns", absent=(2,)),))
    lines = {s.pair: s for s in standings([1, 2], [result])}
    assert lines[1].points == WIN and lines[1].difference == 220
    assert lines[2].points == 0 and lines[2].difference == 0
    result = RoundResult((Played(1, 2, 300, 520, "ew", absent=(2,)),))
    lines = {s.pair: s for s in standings([1, 2], [result])}
    assert lines[2].points == 0 and lines[1].points == 0


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 30))
def test_a_round_robin_meets_everyone_once_with_seats_within_one(count: int) -> None:
    pairs = [7 * i + 3 for i in range(count)]
    rounds = round_robin(pairs)
    assert len(rounds) == count - 1 + count % 2
    meetings = [frozenset((g.ns, g.ew)) for r in rounds for g in r.games]
    assert len(meetings) == len(set(meetings)) == count * (count - 1) // 2
    balance = dict.fromkeys(pairs, 0)
    byes = dict.fromkeys(pairs, 0)
    for round_ in rounds:
        assert sorted(round_.pairs()) == sorted(pairs)
        assert len(round_.byes) == count % 2
        for pair in round_.byes:
            byes[pair] += 1
        for game in round_.games:
            balance[game.ns] += 1
            balance[game.ew] -= 1
        assert all(abs(b) <= 1 for b in balance.values())
    assert set(byes.values()) == {count % 2}


def test_a_bracket_keeps_the_top_seeds_apart() -> None:
    assert bracket_order(1) == [1]
    assert bracket_order(4) == [1, 4, 2, 3]
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


@settings(max_examples=80, deadline=None)
@given(count=st.integers(2, 70), seed=st.integers(0, 2**32))
def test_a_knockout_gives_byes_to_the_top_seeds_and_ends_with_one_winner(count: int, seed: int):
    rng = random.Random(seed)
    pairs = [1000 + i for i in range(count)]
    size = 1 << (count - 1).bit_length()
    slots = knockout_slots(pairs)
    first = knockout_round(slots)
    assert sorted(first.byes) == pairs[: size - count]
    rounds = 0
    balance: dict[int, int] = {}
    while len(slots) > 1:
        round_ = knockout_round(slots, balance)
        assert sorted(round_.pairs()) == sorted(p for p in slots if p is not None)
        for game in round_.games:
            balance[game.ns] = balance.get(game.ns, 0) + 1
            balance[game.ew] = balance.get(game.ew, 0) - 1
        winners = [rng.choice((g.ns, g.ew)) for g in round_.games]
        slots = knockout_next(slots, winners)
        rounds += 1
    assert rounds == (size - 1).bit_length()
    assert slots[0] in pairs


def test_the_favourites_meet_in_the_final() -> None:
    pairs = list(range(1, 13))  # 12: seeds 1 to 4 have byes
    slots = knockout_slots(pairs)
    rounds = []
    while len(slots) > 1:
        round_ = knockout_round(slots)
        rounds.append(round_)
        slots = knockout_next(slots, [min(g.ns, g.ew) for g in round_.games])
    assert sorted(rounds[0].byes) == [1, 2, 3, 4]
    assert {frozenset((g.ns, g.ew)) for g in rounds[-1].games} == {frozenset((1, 2))}
    assert {frozenset((g.ns, g.ew)) for g in rounds[-2].games} == {
        frozenset((1, 4)),
        frozenset((2, 3)),
    }
