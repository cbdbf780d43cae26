"""Duplicate movements for a club night of fixed pairs: who sits where and which boards
each table plays, round by round.

Pure: the standard library only (and :mod:`.pairing`, pure too). Pairs are numbered
``0 … pairs - 1``; tables ``0 … tables - 1``; a *board set* is a group of boards played
together in a round (set ``s`` of ``b`` boards a round holds boards ``s·b + 1 … s·b + b``).

- **Mitchell** (:func:`mitchell`): pairs ``0 … T-1`` sit North-South and stay at their
  table; pairs ``T … 2T-1`` sit East-West and move up a table each round; the board sets
  move down a table. With an even number of tables the East-West pairs skip a table after
  half the rounds (else they would meet boards they have played). North-South pairs are
  compared with North-South, East-West with East-West: two fields of ``T`` each.
- **Howell** (:func:`howell`): online every table can hold a copy of a board, so a small
  field plays all-play-all (the circle method of :func:`.pairing.round_robin`) with every
  table playing the same set in a round: each board is played by every table, each pair
  meets every other at most once, and every pair is compared with the whole field in its
  direction.

:func:`movement` picks one: Mitchell for three tables or more when the rounds asked fit
it without a pair meeting another twice, Howell otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass

from fivehundred.web.events.pairing import round_robin

#: the most pairs a night seats, and the most rounds
MAX_PAIRS = 200
MAX_ROUNDS = 30


@dataclass(frozen=True)
class Seat:
    """One table in one round: the pair North-South, the pair East-West, the board set."""

    table: int
    ns: int
    ew: int
    board_set: int


@dataclass(frozen=True)
class Movement:
    kind: str  # "mitchell" or "howell"
    pairs: int
    #: board sets in all (each round's tables play sets among these)
    sets: int
    rounds: tuple[tuple[Seat, ...], ...]

    def boards(self, per_round: int) -> int:
        """How many boards the night deals with ``per_round`` boards a round."""
        return self.sets * per_round


def mitchell_rounds(tables: int) -> int:
    """The most rounds a Mitchell of ``tables`` plays with no two pairs meeting twice."""
    return tables if tables % 2 else tables - 1


def mitchell(tables: int, rounds: int) -> Movement:
    """A Mitchell for ``tables`` tables (``2·tables`` pairs) over ``rounds`` rounds."""
    if not 1 <= tables <= MAX_PAIRS // 2:
        raise ValueError(f"a Mitchell seats 1 to {MAX_PAIRS // 2} tables")
    if not 1 <= rounds <= tables:
        raise ValueError(f"a Mitchell of {tables} tables plays 1 to {tables} rounds")
    out = []
    for r in range(rounds):
        skip = 1 if tables % 2 == 0 and r >= tables // 2 else 0
        out.append(
            tuple(
                # the East-West pair at table t came up r tables (and the skip);
                # the board set at table t came down r tables
                Seat(t, t, tables + (t - r - skip) % tables, (t + r) % tables)
                for t in range(tables)
            )
        )
    return Movement("mitchell", 2 * tables, tables, tuple(out))


def howell(pairs: int, rounds: int) -> Movement:
    """All-play-all for an even number of ``pairs``, every table playing set ``r`` in
    round ``r``."""
    if pairs % 2 or not 2 <= pairs <= MAX_PAIRS:
        raise ValueError(f"a Howell seats an even number of pairs, 2 to {MAX_PAIRS}")
    if not 1 <= rounds <= pairs - 1:
        raise ValueError(f"a Howell of {pairs} pairs plays 1 to {pairs - 1} rounds")
    out = []
    for r, round_ in enumerate(round_robin(list(range(pairs)))[:rounds]):
        out.append(tuple(Seat(t, g.ns, g.ew, r) for t, g in enumerate(round_.games)))
    return Movement("howell", pairs, rounds, tuple(out))


def most_rounds(pairs: int) -> int:
    """The most rounds a night of ``pairs`` (an even number) plays without a repeat."""
    return pairs - 1  # a Howell's; a Mitchell's are fewer


def movement(pairs: int, rounds: int) -> Movement:
    """The movement for ``pairs`` (even: an odd field gets a computer pair first) over
    ``rounds``: a Mitchell from three tables when the rounds fit it, else a Howell."""
    if rounds > most_rounds(pairs):
        raise ValueError(f"{pairs} pairs play at most {most_rounds(pairs)} rounds")
    tables = pairs // 2
    if tables >= 3 and pairs % 2 == 0 and rounds <= mitchell_rounds(tables):
        return mitchell(tables, rounds)
    return howell(pairs, rounds)
