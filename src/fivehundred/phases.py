"""The phases of a hand, and the shape of the table the engine dispatches them by.

The main line (R-BID, R-KITTY, R-JOKER, R-PLAY)::

    auction → discard (kitty exchange) → nominate (joker, optional) → play → done

and the house rules' phases (:mod:`fivehundred.house_phases`): ``draw`` and
``table_kitty`` before the auction, ``slam``/``slam_pass`` and ``table_take``/
``table_discard`` after the kitty, ``call`` before the play (R-HOUSE, R-PLAYERS).

Each phase has one :class:`PhaseRules`: what the player to move may do, and how it is
applied (:data:`fivehundred.game.PHASE_RULES`, as OpenSpiel's euchre dispatches by phase).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

from fivehundred.actions import Action

if TYPE_CHECKING:
    from fivehundred.game import HandState

AUCTION = "auction"
DISCARD = "discard"
NOMINATE = "nominate"
CALL = "call"  # R-PLAYERS called_partner: the five-handed contractor calls a card
PLAY = "play"
DONE = "done"
SLAM_CALL = "slam"  # R-HOUSE slam_call: the contractor calls slam or not, after the kitty
SLAM_PASS = "slam_pass"  # then the partner passes the contractor one card
# R-PLAYERS open_eight: before the auction each player moves a face-up card to the kitty;
# after the kitty exchange the defender takes a face-up card and discards one
TABLE_KITTY = "table_kitty"
TABLE_TAKE = "table_take"
TABLE_DISCARD = "table_discard"
TABLE_SEAT = 2  # the eight face-up cards lie at seat 2; seat 3 holds the dead rest
# R-PLAYERS draw_pack: the players draw in turn from the stock (seat 2, in order); the cards
# thrown go to seat 3
DRAW = "draw"
STOCK_SEAT = 2
THROWN_SEAT = 3
PHASES = (
    DRAW,
    TABLE_KITTY,
    AUCTION,
    DISCARD,
    SLAM_CALL,
    SLAM_PASS,
    TABLE_TAKE,
    TABLE_DISCARD,
    NOMINATE,
    CALL,
    PLAY,
    DONE,
)


class PhaseRules(NamedTuple):
    """One phase's rules: its legal actions, and applying one (which raises
    :class:`~fivehundred.errors.IllegalActionError` for anything the rules forbid; the
    history is kept by :meth:`HandState.apply`)."""

    legal: Callable[[HandState], list[Action]]
    apply: Callable[[HandState, Action], None]
