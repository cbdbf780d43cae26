"""Computer players. ``make_player(name, seed)`` builds one by name.

Names: ``random``; ``heuristic`` (``heuristic:v1``: its first version, kept for measuring);
``pimc`` (the strong player; ``pimc:N`` samples N deals per decision, ``pimc:fast``,
``pimc:strong`` and ``pimc:postpone`` are presets); ``cmd:PROGRAM ARGS`` runs an external
program speaking the JSON-lines protocol of docs/player-protocol.md. Levels for people:
``easy`` (the heuristic with a beginner's slips), ``medium`` (the heuristic), ``hard``
(pimc), ``expert`` (pimc:strong); see :mod:`fivehundred.bots.levels`.
"""

from __future__ import annotations

from collections.abc import Callable

from fivehundred.bots.base import Player, RandomPlayer
from fivehundred.bots.heuristic import HeuristicPlayer
from fivehundred.bots.heuristic_v1 import HeuristicV1Player
from fivehundred.bots.levels import LEVELS, EasyPlayer
from fivehundred.bots.pimc import HAVE_SOLVER, PIMC_PRESETS, PimcPlayer

#: Levels played by the pimc player: offered only where the solver is installed.
SOLVER_LEVELS = frozenset({"hard", "expert"})

#: The players that can run here (``pimc`` only with the solver extra installed).
PLAYERS: dict[str, Callable[[int | None], Player]] = {
    "random": RandomPlayer,
    "heuristic": HeuristicPlayer,
    "heuristic:v1": HeuristicV1Player,
    **{name: level for name, level in LEVELS.items() if HAVE_SOLVER or name not in SOLVER_LEVELS},
}
if HAVE_SOLVER:
    PLAYERS["pimc"] = PimcPlayer


def player_choices() -> list[str]:
    """The computer players a person is offered (the terminal game's options, the web
    lobby): the levels first, from the beginner to the strongest, then the other players,
    then pimc's named settings (with the solver; ``pimc:default`` is ``pimc``), each name
    once."""
    levels = [name for name in LEVELS if name in PLAYERS]
    names = levels + [name for name in PLAYERS if name not in levels]
    if HAVE_SOLVER:
        names += [f"pimc:{preset}" for preset in PIMC_PRESETS if preset != "default"]
    return names


def make_player(name: str, seed: int | None = None) -> Player:
    """A player by name (``random``, ``heuristic``, ``pimc``, ``pimc:N``, ``pimc:strong``,
    or ``cmd:PROGRAM ARGS``). Raises ValueError for an unknown name."""
    if name.startswith("cmd:"):
        from fivehundred.bots.external import ExternalPlayer

        return ExternalPlayer(name[4:], seed)
    if name == "pimc":
        return PimcPlayer(seed)  # without the solver: PlayerUnavailableError, naming the extra
    if name.startswith("pimc:"):
        setting = name[5:]
        if setting in PIMC_PRESETS:
            return PimcPlayer(seed, **PIMC_PRESETS[setting])
        if setting.isdigit() and int(setting) > 0:
            return PimcPlayer(seed, samples=int(setting))
        raise ValueError(f"pimc strength must be a number of samples or one of "
                         f"{', '.join(PIMC_PRESETS)}; got {setting!r}")  # fmt: skip
    factory = PLAYERS.get(name) or LEVELS.get(name)  # a level without the solver says why
    if factory is None:
        raise ValueError(f"unknown player {name!r}; players are "
                         f"{', '.join(sorted(PLAYERS))} or cmd:PROGRAM")  # fmt: skip
    return factory(seed)


__all__ = [
    "PLAYERS",
    "EasyPlayer",
    "HeuristicPlayer",
    "PimcPlayer",
    "Player",
    "RandomPlayer",
    "make_player",
    "player_choices",
]
