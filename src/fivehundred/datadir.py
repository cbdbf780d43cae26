"""The data directory that the terminal game, the pad and the web server keep their files
in, and writing a file there so that none is ever lost.

The data directory is ``$FIVEHUNDRED_DATA_DIR`` if set, else the user's data directory
(platformdirs, imported only then).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

ENV_DATA_DIR = "FIVEHUNDRED_DATA_DIR"


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
