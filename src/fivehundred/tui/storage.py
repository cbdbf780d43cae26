"""Where the terminal game keeps its files, and writing them so that none is ever lost.

The data directory is ``$FIVEHUNDRED_DATA_DIR`` if set, else the user's data directory
(platformdirs). It holds ``current-game.json`` (the game in progress, a
``fivehundred-game/1`` record rewritten after every action), ``settings.json`` (the options
last chosen) and ``games/`` (finished games, and unfinished ones put aside by a new game).
"""

from __future__ import annotations

import contextlib
import os as os  # tests patch storage.os (the writes moved to fivehundred.datadir)
import time
from pathlib import Path
from typing import Any

from fivehundred.datadir import ENV_DATA_DIR as ENV_DATA_DIR
from fivehundred.datadir import DataDirError as DataDirError
from fivehundred.datadir import SaveError as SaveError
from fivehundred.datadir import check_data_dir as check_data_dir
from fivehundred.datadir import data_dir as data_dir
from fivehundred.datadir import write_json_atomic as write_json_atomic
from fivehundred.errors import RecordError
from fivehundred.record import load_json, one_line

SAVE_NAME = "current-game.json"
SETTINGS_NAME = "settings.json"
GAMES_DIR = "games"


def save_path() -> Path:
    return data_dir() / SAVE_NAME


def settings_path() -> Path:
    return data_dir() / SETTINGS_NAME


def read_json(path: Path, what: str = "file") -> Any:
    """Read a JSON file with the records' hardened loader, turning every failure into a
    one-line :class:`SaveError`."""
    if not path.exists():
        raise SaveError(f"no {what} at {path}")
    try:
        return load_json(path)
    except RecordError as error:
        reason = one_line(error).removeprefix(f"{path}: ")
        raise SaveError(f"the {what} {path} is damaged ({reason})") from None


def archive_path(kind: str, seed: object) -> Path:
    """A fresh name under ``games/`` for a finished or put-aside game."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = data_dir() / GAMES_DIR / f"{stamp}-{kind}-seed{seed}"
    path = base.with_suffix(".json")
    number = 1
    while path.exists():
        number += 1
        path = base.parent / f"{base.name}-{number}.json"
    return path


def move_aside(path: Path, kind: str) -> Path:
    """Move ``path`` to a fresh name under ``games/`` (``kind``: unfinished, damaged)."""
    aside = archive_path(kind, "unknown")
    aside.parent.mkdir(parents=True, exist_ok=True)
    path.replace(aside)
    return aside


def load_settings() -> dict[str, Any]:
    """The options last chosen, or ``{}`` if none were saved or the file is unreadable
    (settings are a convenience: a damaged file must not stop a game)."""
    try:
        data = read_json(settings_path(), "settings file")
    except (SaveError, OSError):
        return {}
    return data if isinstance(data, dict) else {}


def store_settings(data: dict[str, Any]) -> None:
    # Settings are a convenience; the game itself is saved separately.
    with contextlib.suppress(OSError):
        write_json_atomic(settings_path(), data)
