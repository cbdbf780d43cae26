"""Computer players. ``make_player(name, seed)`` builds one by name.

Names: ``random``; ``heuristic`` (``heuristic:v1``: its first version, ``heuristic:v2``: the
second, before the rules learnt from pimc; both kept for measuring);
``pimc`` (the strong player; ``pimc:N`` samples N deals per decision, ``pimc:fast``,
``pimc:strong``, ``pimc:postpone`` and ``pimc:model`` are presets); ``cmd:PROGRAM ARGS`` runs an external
program speaking the JSON-lines protocol of docs/player-protocol.md. Levels for people:
``easy`` (a beginner: the heuristic with a learner's habits), ``medium`` (the heuristic),
``hard`` (pimc with 16 deals), ``expert`` (pimc); see :mod:`fivehundred.bots.levels` and
docs/bots.md. People are offered the levels (:func:`player_choices`).
"""

from __future__ import annotations

from collections.abc import Callable

from fivehundred.bots.base import Player, RandomPlayer
from fivehundred.bots.heuristic import HeuristicPlayer, HeuristicV2Player
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
    "heuristic:v2": HeuristicV2Player,
    **{name: level for name, level in LEVELS.items() if HAVE_SOLVER or name not in SOLVER_LEVELS},
}
if HAVE_SOLVER:
    PLAYERS["pimc"] = PimcPlayer


#: The players offered to people besides the levels: the plain names of the players the
#: levels are made of (saved settings and games name them), and ``random``.
OFFERED_PLAYERS = ("random", "heuristic", "pimc")


def player_choices() -> list[str]:
    """The computer players a person is offered (the terminal game's options, the web
    lobby): the four levels, from the beginner to the strongest, then ``random``,
    ``heuristic`` and ``pimc`` (each a level's player under its own name), each name once.
    Baselines (``heuristic:v1``, ``heuristic:v2``) and pimc's other settings
    (``pimc:fast``, ``pimc:strong``, ``pimc:postpone``, ``pimc:model``, ``pimc:N``) are not offered: none
    is measured stronger than a level (docs/bots.md); they stay constructible by name for
    the arena and ``bench/``."""
    levels = [name for name in LEVELS if name in PLAYERS]
    return levels + [name for name in OFFERED_PLAYERS if name in PLAYERS]


def uses_solver(name: str) -> bool:
    """Whether the player named ``name`` searches with the double-dummy solver (``pimc``,
    ``pimc:N``, any pimc setting, and the levels ``hard`` and ``expert``): the players whose
    first decision in a fresh process waits for the solver to be prepared, so that a game
    says so first (see :func:`fivehundred.solver.warm_up`)."""
    return name in SOLVER_LEVELS or name.split(":", 1)[0] == "pimc"


def make_player(name: str, seed: int | None = None) -> Player:
    """A player by name: a level (``easy`` … ``expert``), ``random``, ``heuristic``,
    ``pimc``, a setting for measuring (``heuristic:v1``, ``heuristic:v2``, ``pimc:N``,
    ``pimc:fast``, ``pimc:strong``, ``pimc:postpone``, ``pimc:model``), or ``cmd:PROGRAM ARGS``. Raises
    ValueError for an unknown name."""
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
        raise ValueError(
            f"pimc strength must be a number of samples or one of "
            f"{', '.join(PIMC_PRESETS)}; got {setting!r}"
        )
    factory = PLAYERS.get(name) or LEVELS.get(name)  # a level without the solver says why
    if factory is None:
        raise ValueError(
            f"unknown player {name!r}; players are {', '.join(sorted(PLAYERS))} or cmd:PROGRAM"
        )
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
    "uses_solver",
]
