"""Computer players. ``make_player(name, seed)`` builds one by name."""

from __future__ import annotations

from collections.abc import Callable

from fivehundred.bots.base import Player, RandomPlayer

PLAYERS: dict[str, Callable[[int | None], Player]] = {
    "random": RandomPlayer,
}


def make_player(name: str, seed: int | None = None) -> Player:
    """A player by name (``random``, ``heuristic``, ``pimc``, or ``cmd:PROGRAM ARGS``)."""
    factory = PLAYERS.get(name)
    if factory is None:
        raise ValueError(f"unknown player {name!r}; players are {', '.join(sorted(PLAYERS))}")
    return factory(seed)


__all__ = ["PLAYERS", "Player", "RandomPlayer", "make_player"]
