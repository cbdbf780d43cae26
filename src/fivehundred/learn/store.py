"""Progress kept in the data directory (the terminal game's: ``$FIVEHUNDRED_DATA_DIR`` or
the user's data directory): ``learn-progress.json`` for the lessons, ``puzzle-stats.json``
for the puzzles. A damaged or missing file counts as no progress; writes are atomic."""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

LESSONS_FILE = "learn-progress.json"
PUZZLES_FILE = "puzzle-stats.json"


def _path(name: str) -> Path:
    from fivehundred.tui.storage import data_dir

    return data_dir() / name


def load(name: str) -> dict[str, Any]:
    """The stored dict, or ``{}`` when there is none or it cannot be read."""
    from fivehundred.tui.storage import SaveError, read_json

    try:
        data = read_json(_path(name), name)
    except (SaveError, OSError, ImportError):
        return {}
    return data if isinstance(data, dict) else {}


def save(name: str, data: dict[str, Any]) -> bool:
    """Write ``data``; False (and nothing raised) when the data directory is unusable."""
    from fivehundred.tui.storage import write_json_atomic

    with contextlib.suppress(OSError, ImportError):
        write_json_atomic(_path(name), data)
        return True
    return False


def where(name: str) -> Path:
    return _path(name)
