"""The individual movement of a club night: each player plays for themself, partners
rotate round by round, and every table of a round plays the same board set.

Pure: the standard library only (and :mod:`.pairing`, pure too). Players are numbered
``0 … players - 1`` (a multiple of four: computers fill a field up to one); tables
``0 … players/4 - 1``; a table's seats are South, West, North, East (South and North
partners, West and East partners).

- **Partners** (:func:`individual`): each round takes one of the rounds of an
  all-play-all between the players not yet taken (the circle method of
  :func:`.pairing.round_robin`, a 1-factorization: each round a perfect matching, no
  two sharing a partnership), so up to ``players - 1`` rounds nobody partners anyone
  twice; a longer night takes them all again, so each two players partner
  ``⌊R/(P-1)⌋`` or ``⌈R/(P-1)⌉`` times.
- **Opponents**: each round the partnerships are put two by two at the tables so that
  players who have met least meet: for each of the next :data:`CHOICES` matchings not
  yet used, the first partnership left takes the one whose players it has faced least
  (a meeting weighing :data:`WEIGHT` times each earlier one, the lowest first on a tie),
  then tables swap partnerships while that lowers the weight; the lightest matching is
  the round's. No two players face each other more than ``⌈2R/(P-1)⌉ + 1`` times
  (``2R`` opponents shared among ``P - 1`` others: an even share, and one more), but
  for eight players, whose seven matchings leave no room (a search of 200,000 seatings
  found none within it), ``+ 2`` from seven rounds; tests/test_events_individual.py
  checks it on fields of 4 to 200 players over 1 to 30 rounds.
- **Seats**: of a table's two partnerships, the one whose players have sat North-South
  more (less East-West) sits East-West: each player's directions stay within four of
  even (the tests' bound).
"""

from __future__ import annotations

from dataclasses import dataclass

from fivehundred.web.events.pairing import round_robin

#: the most players an individual night seats, and the most rounds
MAX_PLAYERS = 200
MAX_ROUNDS = 30

Partnership = tuple[int, int]
#: a meeting's cost grows this much with each earlier one (so one pair meeting thrice
#: costs more than many pairs meeting twice)
WEIGHT = 16
#: how many of the matchings not yet used are tried for a round
CHOICES = 6
#: the weights of 0 … MAX_ROUNDS earlier meetings (two meet once a round at most)
_POWERS: list[int] = [int(WEIGHT**k) for k in range(MAX_ROUNDS + 1)]


@dataclass(frozen=True)
class Table:
    """One table in one round: the players in seat order South, West, North, East."""

    table: int
    seats: tuple[int, int, int, int]

    @property
    def ns(self) -> Partnership:
        return self.seats[0], self.seats[2]

    @property
    def ew(self) -> Partnership:
        return self.seats[1], self.seats[3]


@dataclass(frozen=True)
class Individual:
    players: int
    rounds: tuple[tuple[Table, ...], ...]


def filled(entrants: int) -> int:
    """The field of ``entrants`` players with its computers: a multiple of four, four at
    least."""
    return max(4, -(-entrants // 4) * 4)


def individual(players: int, rounds: int) -> Individual:
    """The individual movement of ``players`` (a multiple of four) over ``rounds``."""
    if players % 4 or not 4 <= players <= MAX_PLAYERS:
        raise ValueError(f"an individual seats a multiple of four players, 4 to {MAX_PLAYERS}")
    if not 1 <= rounds <= MAX_ROUNDS:
        raise ValueError(f"an individual plays 1 to {MAX_ROUNDS} rounds")
    matchings = [
        [(min(g.ns, g.ew), max(g.ns, g.ew)) for g in r.games]
        for r in round_robin(list(range(players)))
    ]
    met = [[0] * players for _ in range(players)]
    north_south = [0] * players  # North-South less East-West, each player
    out = []
    unused: list[int] = []
    for _ in range(rounds):
        if not unused:
            unused = list(range(len(matchings)))
        choices = []
        for k in unused[:CHOICES]:
            tried = _improved(_greedy(sorted(matchings[k]), met), met)
            choices.append((sum(_cost(a, b, met) for a, b in tried), k, tried))
        _, k, tables = min(choices)
        unused.remove(k)
        seated = []
        for number, (a, b) in enumerate(tables):
            if north_south[a[0]] + north_south[a[1]] > north_south[b[0]] + north_south[b[1]]:
                a, b = b, a  # the partnership that has sat North-South more goes East-West
            for p in a:
                north_south[p] += 1
            for p in b:
                north_south[p] -= 1
            for x in a:
                for y in b:
                    met[x][y] += 1
                    met[y][x] += 1
            seated.append(Table(number, (a[0], b[0], a[1], b[1])))
        out.append(tuple(seated))
    return Individual(players, tuple(out))


def _cost(a: Partnership, b: Partnership, met: list[list[int]]) -> int:
    """The weight of the players of ``a`` facing those of ``b``: :data:`WEIGHT` to the
    power of their earlier meetings, summed."""
    (x, y), (u, v), w = a, b, _POWERS
    return w[met[x][u]] + w[met[x][v]] + w[met[y][u]] + w[met[y][v]]


def _greedy(pairs: list[Partnership], met: list[list[int]]) -> list[list[Partnership]]:
    left = list(pairs)
    tables = []
    while left:
        first = left.pop(0)
        best = min(range(len(left)), key=lambda i: (_cost(first, left[i], met), i))
        tables.append([first, left.pop(best)])
    return tables


def _improved(
    tables: list[list[Partnership]], met: list[list[int]]
) -> list[tuple[Partnership, Partnership]]:
    """Swap partnerships between two tables while that lowers the meetings (each swap
    lowers their sum: it ends)."""
    changed = True
    while changed:
        changed = False
        for i in range(len(tables)):
            for j in range(i + 1, len(tables)):
                (a, b), (c, d) = tables[i], tables[j]
                now = _cost(a, b, met) + _cost(c, d, met)
                for x, y in (([a, c], [b, d]), ([a, d], [b, c])):
                    if _cost(x[0], x[1], met) + _cost(y[0], y[1], met) < now:
                        tables[i], tables[j] = x, y
                        changed = True
                        break
    return [(t[0], t[1]) for t in tables]
