"""The game state of a table: rebuilt from its log, copied to act on, one object per rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

from fivehundred.actions import parse_action
from fivehundred.rules import Rules
from fivehundred.table import Table

T = TypeVar("T")

#: one object for each set of rules the tables play (see :func:`same_rules`)
_RULES: dict[Rules, Rules] = {}


def same_rules(rules: Rules) -> Rules:
    """The one object for rules equal to ``rules``: the caches keyed by rules (looked up
    for every view) then find a table's rules by identity, not by comparing every field
    of rules equal to another table's."""
    if len(_RULES) >= 1024:  # (the rules are few: a bound, not an eviction policy)
        _RULES.clear()
    return _RULES.setdefault(rules, rules)


def replay_log(
    rules: Rules, players: Sequence[str], seed: int, entries: Sequence[tuple[int, str, str]]
) -> Table:
    """The table rebuilt from its action log."""
    model = Table(rules, players, seed)
    for seat, text, _ in entries:
        model.apply(seat, parse_action(text, model.hand.phase))
    return model


def copy_table(model: Table) -> Table:
    """A copy of a table whose game can be played on without touching the original's
    (finished hands are never changed, so they are shared)."""
    game = _shallow(model.game)
    game.hand = model.game.hand.clone()
    game.scores = list(game.scores)
    game.score_history = list(game.score_history)
    game.finished_hands = list(game.finished_hands)
    table = _shallow(model)
    table.game = game
    return table


def _shallow(obj: T) -> T:
    """``copy.copy`` of an object whose state is its ``__dict__`` (a table, a game),
    without the copy protocol's general path (once per action)."""
    other = object.__new__(type(obj))
    other.__dict__.update(obj.__dict__)
    return other


def model_copy(model: Table) -> Any:
    """A copy of the table's game, rebuilt from its record (undo works on the copy)."""
    return Table.from_record(model.record(), list(model.players), model.seed).game
