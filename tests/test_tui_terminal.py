"""The terminal game under a real terminal: closing the terminal ends it.

``make play`` runs the game under make; when the terminal closes, make (the session leader)
takes the hang-up and waits for its child, so the game itself must notice that its
terminal has gone (hang-up, end of input, a read error), save, and end. Once it did not:
it stayed alive without a terminal and spun a core."""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import select
import shutil
import struct
import sys
import termios
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.skipif(
    sys.platform != "linux" or shutil.which("make") is None, reason="a Linux pty and make"
)


def _read_until(fd: int, text: bytes, seconds: float) -> bytes:
    """What the terminal shows until ``text`` appears (a state, with a generous bound)."""
    seen = b""
    deadline = time.monotonic() + seconds
    while text not in seen:
        left = deadline - time.monotonic()
        assert left > 0, f"{text!r} never appeared; the screen ended with {seen[-400:]!r}"
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                chunk = b""
            assert chunk, f"the terminal closed before {text!r} appeared"
            seen += chunk
    return seen


def _children(pid: int) -> list[int]:
    found = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as handle:
                found += [int(child) for child in handle.read().split()]
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


def test_closing_the_terminal_ends_make_play_and_saves(tmp_path: Path) -> None:
    """``make play`` in a pseudo-terminal, a new game started (Ctrl+N), then the terminal
    closed: make and the game both end, and the game is saved."""
    env = dict(os.environ, FIVEHUNDRED_DATA_DIR=str(tmp_path), TERM="xterm-256color")
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    # `make play` as it is, except that the environment running this test is the one it
    # uses (BIN) and that make never (re)installs it (-o: the stamp counts as up to date).
    bindir = os.path.dirname(sys.executable)
    argv = ["make", "-s", "-C", str(ROOT), "-o", ".venv/.installed", f"BIN={bindir}", "play"]
    pid, master = pty.fork()
    if pid == 0:  # the child: make, in the pseudo-terminal
        os.execvpe("make", argv, env)
    try:
        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        _read_until(master, b"options", 60)
        os.write(master, b"\x0e")  # Ctrl+N: start a new game
        _read_until(master, b"Hand 1", 60)
        game = [child for child in _children(pid) if _alive(child)]
        assert game, "no game process under make"
    finally:
        os.close(master)  # the terminal goes away
    deadline = time.monotonic() + 60
    status = None
    while status is None and time.monotonic() < deadline:
        done, code = os.waitpid(pid, os.WNOHANG)
        if done:
            status = code
        else:
            select.select([], [], [], 0.1)
    try:
        assert status is not None, "make play still running after its terminal closed"
        assert not any(_alive(child) for child in game), "the game outlived its terminal"
    finally:
        for child in [pid, *game]:
            with contextlib.suppress(OSError):
                if _alive(child):
                    os.kill(child, 9)
        with contextlib.suppress(ChildProcessError):
            os.waitpid(pid, 0)
    saved = json.loads((tmp_path / "current-game.json").read_text())
    assert saved["format"] == "fivehundred-game/1"


def test_line_mode_ends_on_a_read_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Line mode: a read error (a hung-up terminal answers EIO) ends the game like the end
    of the input, saved, with no traceback."""
    import errno
    import io

    from fivehundred.tui import storage
    from fivehundred.tui.plain import PlainGame
    from fivehundred.tui.session import Session, Settings

    monkeypatch.setenv(storage.ENV_DATA_DIR, str(tmp_path))

    class HungUp(io.StringIO):
        def readline(self, size: int | None = -1) -> str:
            raise OSError(errno.EIO, "Input/output error")

    session = Session.new(Settings(seed=3, speed=0))
    out = io.StringIO()
    assert PlainGame(session, HungUp(), out).run() == 0
    assert "End of input: the game is saved" in out.getvalue()
    assert (tmp_path / "current-game.json").exists()


def test_the_pad_ends_when_its_terminal_goes_even_with_the_hang_up_ignored(
    tmp_path: Path,
) -> None:
    """``fivehundred pad`` full screen with the hang-up signal ignored (as ``nohup`` or a
    parent like make leaves it): closing the terminal still ends it; the pad is kept."""
    env = dict(os.environ, FIVEHUNDRED_DATA_DIR=str(tmp_path), TERM="xterm-256color")
    env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
    pad = tmp_path / "pad.json"
    program = f"trap '' HUP; exec '{sys.executable}' -m fivehundred pad --file '{pad}'"
    pid, master = pty.fork()
    if pid == 0:
        os.execvpe("sh", ["sh", "-c", program], env)
    try:
        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        _read_until(master, b"dealer", 60)
    finally:
        os.close(master)
    deadline = time.monotonic() + 60
    status = None
    while status is None and time.monotonic() < deadline:
        done, code = os.waitpid(pid, os.WNOHANG)
        if done:
            status = code
        else:
            select.select([], [], [], 0.1)
    if status is None:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
    assert status is not None, "the pad outlived its terminal"
    assert json.loads(pad.read_text())["format"] == "fivehundred-pad/1"
