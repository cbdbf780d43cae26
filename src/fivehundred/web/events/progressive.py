"""The progressive movement of a club night: after each round the winners of each table
move up a table and the losers down, and partners change.

Pure: the standard library only. Players are numbered ``0 … players - 1`` (a multiple of
four: computers fill the field up to one); tables ``0 … T - 1``, table 0 the top table; a
table's seats are South, West, North, East (South and North partners, West and East).

- **The first round** (:func:`first_round`): the players in their order, four a table:
  table ``t`` seats players ``4t, 4t+1, 4t+2, 4t+3`` South, West, North, East.
- **A table's winners** (:func:`table_winner`): the side (North-South or East-West) with
  more points over the round's boards at the table (each board's North-South points less
  East-West's, summed); on a tie the side that won more of the boards; on a tie still,
  North-South.
- **The next round** (:func:`next_round`): the winning pair of table ``t`` moves up to
  table ``t - 1`` (the top table's winners stay), the losing pair down to ``t + 1`` (the
  last table's losers stay). So each table receives two pairs: the *upper* pair (the top
  table's own winners, else the losers of the table above) and the *lower* pair (the
  winners of the table below, else the last table's own losers). Both split: with upper
  pair ``(a, b)`` and lower pair ``(c, d)`` (each in seat order: South before North, West
  before East) the table seats South ``a`` and North ``c`` (partners), West ``b`` and East
  ``d`` (partners). Nobody keeps last round's partner; a night of one table splits its
  two pairs the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

#: the seats of a table: South, West, North, East
Seats = tuple[int, int, int, int]
NS, EW = 0, 1


def first_round(players: int) -> list[Seats]:
    """Round 1's tables for ``players`` (a multiple of four)."""
    if players % 4 or players < 4:
        raise ValueError("a progressive seats a multiple of four players")
    return [(4 * t, 4 * t + 1, 4 * t + 2, 4 * t + 3) for t in range(players // 4)]


def table_winner(nets: Sequence[int]) -> int:
    """The side that won a table's round (:data:`NS` or :data:`EW`), from each board's
    North-South points less East-West's."""
    total = sum(nets)
    if total:
        return NS if total > 0 else EW
    boards = sum(net > 0 for net in nets) - sum(net < 0 for net in nets)
    return EW if boards < 0 else NS


def pairs_of(seats: Seats, side: int) -> tuple[int, int]:
    """A side's pair in seat order: North-South ``(South, North)``, East-West ``(West,
    East)``."""
    return (seats[0], seats[2]) if side == NS else (seats[1], seats[3])


def next_round(tables: Sequence[Seats], winners: Sequence[int]) -> list[Seats]:
    """The next round's tables from this round's and each table's winning side."""
    if len(tables) != len(winners) or not tables:
        raise ValueError("one winning side for each table")
    won = [pairs_of(seats, side) for seats, side in zip(tables, winners, strict=True)]
    lost = [pairs_of(seats, 1 - side) for seats, side in zip(tables, winners, strict=True)]
    last = len(tables) - 1
    out = []
    for t in range(len(tables)):
        upper = won[0] if t == 0 else lost[t - 1]
        lower = lost[last] if t == last else won[t + 1]
        (a, b), (c, d) = upper, lower
        out.append((a, b, c, d))
    return out
