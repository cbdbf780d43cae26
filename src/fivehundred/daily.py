"""The daily boards: every day the same new boards for everyone (docs/duplicate.md).

A day's boards come from the date, the preset and a secret: the seed is an HMAC of the
day and the preset keyed with the secret, so that whoever does not hold the secret (a
server's) cannot deal a day's boards ahead. Offline, with no secret, the date alone
decides them.

>>> boards = daily_boards("2026-12-06")
>>> len(boards), boards == daily_boards("2026-12-06"), boards == daily_boards("2026-12-07")
(12, True, False)
>>> daily_boards("2026-12-06", secret="s") == boards
False
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import hmac

from fivehundred.boards import Board, check_rules, make_boards
from fivehundred.rules import PRESETS, make_rules

#: Boards a day.
DAILY_BOARDS = 12
DEFAULT_PRESET = "australian"
#: The seat every entrant plays from.
ENTRANT_SEAT = 0


def parse_day(text: str | _dt.date) -> _dt.date:
    """A day from ``YYYY-MM-DD`` (or a date); ValueError otherwise."""
    if isinstance(text, _dt.date):
        return text
    if not isinstance(text, str) or len(text) != 10:
        raise ValueError(f"a day is written YYYY-MM-DD, not {str(text)[:20]!r}")
    return _dt.date.fromisoformat(text)


def today() -> _dt.date:
    """Today in UTC: every entrant's day starts at the same moment."""
    return _dt.datetime.now(_dt.UTC).date()


def daily_seed(day: str | _dt.date, preset: str = DEFAULT_PRESET, secret: str = "") -> str:
    """The seed of a day's boards: HMAC-SHA256 of the day and preset keyed by ``secret``."""
    message = f"fivehundred-daily/{preset}/{parse_day(day).isoformat()}".encode()
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def daily_boards(
    day: str | _dt.date,
    preset: str = DEFAULT_PRESET,
    secret: str = "",
    count: int = DAILY_BOARDS,
) -> list[Board]:
    """The boards of ``day`` for ``preset``: the same for everyone with the same secret."""
    if preset not in PRESETS:
        raise ValueError(f"unknown preset {preset[:40]!r}")
    check_rules(make_rules(preset))
    return make_boards(daily_seed(day, preset, secret), count, preset)


def set_name(day: str | _dt.date, preset: str = DEFAULT_PRESET) -> str:
    """The name of a day's board set: ``daily 2026-12-06 australian``."""
    return f"daily {parse_day(day).isoformat()} {preset}"
