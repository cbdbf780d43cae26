"""Where the terminal game keeps its files, and writing them so that none is ever lost.

The data directory is ``$FIVEHUNDRED_DATA_DIR`` if set, else the user's data directory
(platformdirs). It holds ``current-game.json`` (the game in progress, a
``fivehundred-game/1`` record rewritten after every action), ``settings.json`` (the options
last chosen) and ``games/`` (finished games, and unfinished ones put aside by a new game).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

ENV_DATA_DIR = "FIVEHUNDRED_DATA_DIR"
SAVE_NAME = "current-game.json"
SETTINGS_NAME = "settings.json"
GAMES_DIR = "games"


#: Larger files are not game records (a long game's record is a few hundred kilobytes).
MAX_FILE_BYTES = 20_000_000


class SaveError(Exception):
    """A saved file that cannot be read back; the message says which and why."""


class DataDirError(SaveError):
    """The data directory cannot be used (not a directory, not writable, ...)."""


def check_data_dir() -> Path:
    """The data directory, created if need be and checked to be writable; raises
    :class:`DataDirError` with a one-line message naming it and why not."""
    where = data_dir()
    origin = f" (${ENV_DATA_DIR})" if os.environ.get(ENV_DATA_DIR) else ""
    if where.exists() and not where.is_dir():
        raise DataDirError(f"cannot use the data directory {where}{origin}: not a directory")
    try:
        where.mkdir(parents=True, exist_ok=True)
        handle, probe = tempfile.mkstemp(prefix=".probe.", dir=where)
        os.close(handle)
        os.unlink(probe)
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise DataDirError(f"cannot use the data directory {where}{origin}: {reason}") from None
    return where


def data_dir() -> Path:
    """The directory for saves and settings (created on first write, not here)."""
    override = os.environ.get(ENV_DATA_DIR)
    if override:
        return Path(override).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("fivehundred", appauthor=False))


def save_path() -> Path:
    return data_dir() / SAVE_NAME


def settings_path() -> Path:
    return data_dir() / SETTINGS_NAME


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON to ``path`` through a temporary file in the same directory and
    ``os.replace``, so that a crash mid-write leaves the old file whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp_name, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise


def read_json(path: Path, what: str = "file") -> Any:
    """Read a JSON file, turning every failure into a one-line :class:`SaveError`."""
    try:
        if path.stat().st_size > MAX_FILE_BYTES:
            raise SaveError(f"the {what} {path} is damaged (larger than {MAX_FILE_BYTES} bytes)")
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveError(f"no {what} at {path}") from None
    except OSError as error:
        raise SaveError(f"cannot read the {what} {path}: {error.strerror}") from None
    except UnicodeDecodeError:
        raise SaveError(f"the {what} {path} is damaged (not UTF-8 text)") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise SaveError(f"the {what} {path} is damaged (not valid JSON: {error.msg} at line "
                        f"{error.lineno} column {error.colno})") from None  # fmt: skip
    except RecursionError:
        raise SaveError(f"the {what} {path} is damaged (nested too deeply)") from None
    except (ValueError, MemoryError) as error:
        reason = "an integer of thousands of digits" if "digits" in str(error) else str(error)
        raise SaveError(f"the {what} {path} is damaged ({reason[:120]})") from None


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
