"""One computer decision as a plain function: what the web server runs in a process pool
and :class:`fivehundred.table.Table` calls for every computer seat."""

from __future__ import annotations

from fivehundred.actions import Action
from fivehundred.bots import make_player
from fivehundred.observation import Observation


def decide(player_name: str, seed: int, observation: Observation) -> tuple[Action, str]:
    """The action ``player_name`` (built afresh with ``seed``) chooses from
    ``observation``, and its explanation (empty if the player cannot say). Module-level
    and picklable: the same arguments give the same decision in any process."""
    player = make_player(player_name, seed)
    try:
        action = player.act(observation)
        return action, player.explain()
    finally:
        close = getattr(player, "close", None)
        if close is not None:
            close()
