"""The engine's refusals in card language, for every interface (terminal, line mode, web).

The engine's errors speak record notation and seat numbers
(``7S revokes: seat 0 must follow C (R-PLAY)``); a person reads
``You must follow ♣: 7♠ is not a ♣ (R-PLAY)``. The mapping lives with the rest of the
words people read, in :mod:`fivehundred.words`; this module keeps its names.
"""

from __future__ import annotations

from fivehundred.words import card_symbols, error_text

__all__ = ["card_symbols", "error_text"]
