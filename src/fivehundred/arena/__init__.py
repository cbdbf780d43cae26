"""The arena: computer players measured against each other in duplicate matches.

``fivehundred arena --team-a pimc --team-b heuristic --games 200 --seed 1`` — see
:mod:`fivehundred.arena.cli`. :mod:`~fivehundred.arena.runner` plays the matches (in
parallel, with the same results as serial), :mod:`~fivehundred.arena.stats` turns them into
win rates and intervals; :mod:`~fivehundred.arena.decisions` compares two players one kind
of decision at a time (``--decisions PHASE``), and :mod:`~fivehundred.arena.dd_duplicate`
scores two players' choices in play on the same positions by solving the true deal.
"""

from fivehundred.arena.runner import HandOutcome, MatchOutcome, MatchTask, play_match, run_matches
from fivehundred.arena.stats import Summary, summarize, wilson_interval

__all__ = [
    "HandOutcome",
    "MatchOutcome",
    "MatchTask",
    "Summary",
    "play_match",
    "run_matches",
    "summarize",
    "wilson_interval",
]
