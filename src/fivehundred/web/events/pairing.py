"""Pairings for events of fixed partnerships: Swiss, round robin and knockout.

Pure: the standard library only. An entrant is a *pair* of two players, named by an
integer; every game is pair against pair, one pair in the North-South seats (``ns``), the
other in East-West (``ew``). A round is data: its games and the pairs that sit it out.

Swiss (:func:`swiss_round`), in order of priority:

1. a bye (an odd field) goes to a pair with the fewest byes so far: never a second bye
   while a pair without one is still playing;
2. no two pairs meet twice while another pairing avoids it (a complete search, with a
   bound on its work for very large fields);
3. seats balanced: no pair more than one game ahead in North-South over East-West, or the
   reverse, while avoidable without a repeat;
4. among the pairs with the fewest byes, the bye to the lowest-ranked;
5. pairs meet the nearest in the ranking: the top pair left meets the next one it may
   (as in a bridge Swiss).

Ranking (:func:`standings`): match points (a win :data:`WIN`, a draw :data:`DRAW`, a bye
:data:`BYE`, a loss or an absence 0), then Buchholz (the sum of the match points of the
pairs met; a bye adds nothing), then the points difference (the game points scored less
those conceded, over the games played present), then the seeding (the order entered).

Round robin (:func:`round_robin`): the circle method, each pair meeting every other once,
seats balanced within one game after every round. Knockout (:func:`knockout_slots`,
:func:`knockout_round`): a seeded bracket (the top two seeds can meet only in the final),
byes to the top seeds when the field is not a power of two.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

#: match points
WIN = 2
DRAW = 1
LOSS = 0
BYE = 2

#: how many steps the Swiss search takes at one level before it gives up on that level
SEARCH_BUDGET = 50_000


@dataclass(frozen=True)
class Game:
    """One game of a round: the pair in the North-South seats against the pair in
    East-West."""

    ns: int
    ew: int


@dataclass(frozen=True)
class Round:
    """A round's games and the pairs that sit it out (a bye)."""

    games: tuple[Game, ...]
    byes: tuple[int, ...] = ()

    def pairs(self) -> list[int]:
        """Every pair of the round, those playing and those with a bye."""
        return [p for game in self.games for p in (game.ns, game.ew)] + list(self.byes)


@dataclass(frozen=True)
class Played:
    """A finished game: the two pairs, their game points, the winner (``ns``, ``ew`` or
    ``None`` for a draw) and the pairs scored as absent (their seats played by computers)."""

    ns: int
    ew: int
    ns_points: int
    ew_points: int
    winner: str | None
    absent: tuple[int, ...] = ()

    def match_points(self, pair: int) -> int:
        if pair in self.absent:
            return LOSS
        if self.winner is None:
            return DRAW
        side = "ns" if pair == self.ns else "ew"
        return WIN if self.winner == side else LOSS

    def difference(self, pair: int) -> int:
        if pair in self.absent:
            return 0
        own, other = (
            (self.ns_points, self.ew_points)
            if pair == self.ns
            else (self.ew_points, self.ns_points)
        )
        return own - other

    def opponent(self, pair: int) -> int:
        return self.ew if pair == self.ns else self.ns


@dataclass(frozen=True)
class RoundResult:
    """A finished round: its games' results and its byes."""

    games: tuple[Played, ...]
    byes: tuple[int, ...] = ()


@dataclass
class Standing:
    """One pair's line of the standings."""

    pair: int
    seed: int
    points: int = 0
    buchholz: int = 0
    difference: int = 0
    played: int = 0
    won: int = 0
    byes: int = 0
    ns: int = 0
    ew: int = 0
    last_ns: bool | None = None
    met: set[int] = field(default_factory=set)

    @property
    def balance(self) -> int:
        """North-South games less East-West games."""
        return self.ns - self.ew


def standings(pairs: Sequence[int], rounds: Iterable[RoundResult]) -> list[Standing]:
    """Every pair of ``pairs`` (in seeding order) ranked after ``rounds``."""
    lines = {pair: Standing(pair, seed) for seed, pair in enumerate(pairs)}
    for result in rounds:
        for pair in result.byes:
            if pair in lines:
                lines[pair].points += BYE
                lines[pair].byes += 1
        for game in result.games:
            for pair, is_ns in ((game.ns, True), (game.ew, False)):
                line = lines.get(pair)
                if line is None:
                    continue
                line.points += game.match_points(pair)
                line.won += game.match_points(pair) == WIN
                line.difference += game.difference(pair)
                line.played += 1
                line.ns += is_ns
                line.ew += not is_ns
                line.last_ns = is_ns
                line.met.add(game.opponent(pair))
    for line in lines.values():
        line.buchholz = sum(lines[o].points for o in line.met if o in lines)
    return sorted(lines.values(), key=lambda s: (-s.points, -s.buchholz, -s.difference, s.seed))


class _OutOfBudget(Exception):
    pass


def _perfect_matching(
    count: int, allowed: Callable[[int, int], bool], budget: int | None
) -> list[tuple[int, int]] | None:
    """A perfect matching of ``0..count-1`` (ranked) in which each rank meets the nearest
    allowed one: a depth-first search that remembers the sets it found unpairable; None
    when there is none; :class:`_OutOfBudget` after ``budget`` steps."""
    choices = [[j for j in range(i + 1, count) if allowed(i, j)] for i in range(count)]
    dead: set[int] = set()
    steps = 0

    def search(left: int) -> list[tuple[int, int]] | None:
        nonlocal steps
        if not left:
            return []
        if left in dead:
            return None
        first = (left & -left).bit_length() - 1
        for j in choices[first]:
            if left >> j & 1:
                steps += 1
                if budget is not None and steps > budget:
                    raise _OutOfBudget
                rest = search(left & ~(1 << first) & ~(1 << j))
                if rest is not None:
                    return [(first, j), *rest]
        dead.add(left)
        return None

    return search((1 << count) - 1)


def _orient(a: Standing, b: Standing) -> Game:
    """Which of two pairs sits North-South: the one with fewer North-South games over
    East-West, then the one that sat East-West last, then the higher-ranked (``a``)."""
    if b.balance < a.balance or (b.balance == a.balance and a.last_ns and not b.last_ns):
        return Game(b.pair, a.pair)
    return Game(a.pair, b.pair)


def _seats_fit(a: Standing, b: Standing) -> bool:
    return not (a.balance > 0 and b.balance > 0) and not (a.balance < 0 and b.balance < 0)


def _pair_field(
    ranked: list[Standing], level: int, budget: int | None
) -> list[tuple[Standing, Standing]] | None:
    """Pairs ``ranked`` at a level: 0 no repeat and seats kept in balance, 1 no repeat,
    2 anything (unmet pairs first)."""
    if level == 0:
        matching = _perfect_matching(
            len(ranked),
            lambda i, j: ranked[j].pair not in ranked[i].met and _seats_fit(ranked[i], ranked[j]),
            budget,
        )
    elif level == 1:
        matching = _perfect_matching(
            len(ranked), lambda i, j: ranked[j].pair not in ranked[i].met, budget
        )
    else:
        matching = _greedy(ranked)
    if matching is None:
        return None
    return [(ranked[i], ranked[j]) for i, j in matching]


def _greedy(ranked: list[Standing]) -> list[tuple[int, int]]:
    left = list(range(len(ranked)))
    matching = []
    while left:
        first = left.pop(0)
        unmet = [j for j in left if ranked[j].pair not in ranked[first].met]
        j = (unmet or left)[0]
        left.remove(j)
        matching.append((first, j))
    return matching


def swiss_round(
    pairs: Sequence[int], rounds: Sequence[RoundResult], budget: int | None = SEARCH_BUDGET
) -> Round:
    """The next round of a Swiss between ``pairs`` (those still playing, in seeding order)
    after ``rounds``, by the priorities of this module's description. ``budget=None``
    searches without a bound (the tests' way of checking what a complete search finds)."""
    if len(pairs) < 2:
        return Round((), tuple(pairs))
    ranked = standings(pairs, rounds)
    candidates: list[Standing | None] = [None]
    if len(ranked) % 2:
        fewest = min(s.byes for s in ranked)
        candidates = [s for s in reversed(ranked) if s.byes == fewest]
    for level in (0, 1, 2):
        for bye in candidates:
            field_ = [s for s in ranked if s is not bye]
            try:
                matching = _pair_field(field_, level, budget)
            except _OutOfBudget:
                break
            if matching is not None:
                games = tuple(_orient(a, b) for a, b in matching)
                return Round(games, () if bye is None else (bye.pair,))
    raise AssertionError("the last level always pairs")  # pragma: no cover


# ---------------------------------------------------------------- round robin
def round_robin(pairs: Sequence[int]) -> list[Round]:
    """Every round of an all-play-all between ``pairs``: the circle method (the first pair
    fixed, the others turning round it), an odd field giving one bye a round. Each pair
    meets every other once; after every round no pair is more than one game ahead in
    either seat."""
    entrants: list[int | None] = list(pairs)
    if len(entrants) % 2:
        entrants.insert(0, None)  # the fixed place: its opponent sits the round out
    count = len(entrants)
    rounds = []
    circle = entrants[1:]
    for number in range(count - 1):
        table = [entrants[0], *circle]
        games, byes = [], []
        for i in range(count // 2):
            a, b = table[i], table[count - 1 - i]
            # the fixed pair alternates; the others keep their side of the circle, which
            # each crosses once in a while (so none sits one side twice running but once)
            if i == 0:
                a, b = (a, b) if number % 2 == 0 else (b, a)
            elif i % 2:
                a, b = b, a
            if a is None or b is None:
                byes.append(b if a is None else a)
            else:
                games.append(Game(a, b))
        rounds.append(Round(tuple(games), tuple(p for p in byes if p is not None)))
        circle = circle[1:] + circle[:1]
    return rounds


# ---------------------------------------------------------------- knockout
def bracket_order(size: int) -> list[int]:
    """The seeds (1-based) in bracket order for a power-of-two ``size``: 1 meets ``size``,
    and the top two seeds can meet only in the final (``[1, 4, 2, 3]`` for 4)."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"a bracket of {size} is not a power of two")
    order = [1]
    while len(order) < size:
        half = len(order) * 2
        order = [seed for s in order for seed in (s, half + 1 - s)]
    return order


def knockout_slots(pairs: Sequence[int]) -> list[int | None]:
    """The first round's bracket: ``pairs`` in seeding order placed on a bracket of the
    next power of two, ``None`` where a seed is missing (so the top seeds get the byes)."""
    if len(pairs) < 2:
        raise ValueError("a knockout needs two pairs")
    size = 1
    while size < len(pairs):
        size *= 2
    return [pairs[seed - 1] if seed <= len(pairs) else None for seed in bracket_order(size)]


def knockout_round(slots: Sequence[int | None], balance: dict[int, int] | None = None) -> Round:
    """A knockout round from its bracket slots (neighbours meet): a pair facing an empty
    slot has a bye. ``balance``: each pair's North-South games less East-West so far; the
    pair further behind in North-South sits there (the first slot on a tie)."""
    balance = balance or {}
    games, byes = [], []
    for a, b in zip(slots[::2], slots[1::2], strict=True):
        if a is None or b is None:
            if a is not None or b is not None:
                byes.append(a if b is None else b)
            continue
        games.append(Game(b, a) if balance.get(b, 0) < balance.get(a, 0) else Game(a, b))
    return Round(tuple(games), tuple(p for p in byes if p is not None))


def knockout_next(slots: Sequence[int | None], winners: Iterable[int]) -> list[int | None]:
    """The next round's slots: from each neighbouring two, the one in ``winners`` (or the
    one alone)."""
    won = set(winners)
    following: list[int | None] = []
    for a, b in zip(slots[::2], slots[1::2], strict=True):
        if a is not None and b is not None:
            following.append(a if a in won else b if b in won else None)
        else:
            following.append(a if b is None else b)
    return following
