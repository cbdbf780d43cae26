"""Five Hundred (500): rules engine, game records, computer players and games.

The core (``cards``, ``rules``, ``actions``, ``auction``, ``play``, ``scoring``, ``game``,
``observation``, ``record``) depends on the standard library only.
"""

from fivehundred.errors import FiveHundredError, IllegalActionError, RecordError
from fivehundred.game import GameState, HandState
from fivehundred.rules import Rules, make_rules

__all__ = [
    "FiveHundredError",
    "GameState",
    "HandState",
    "IllegalActionError",
    "RecordError",
    "Rules",
    "make_rules",
]
__version__ = "0.1.0"
