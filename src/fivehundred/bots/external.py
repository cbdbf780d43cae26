"""External players: any program speaking the JSON-lines protocol of docs/player-protocol.md.

The program is started once per player (``cmd:PROGRAM ARGS``) and talks on its standard
input and output, one JSON object per line:

* it receives ``{"type": "hello", "seat": N, "rules": {...}, "protocol": 1}`` first;
* for each decision ``{"type": "decide", "observation": {...}}`` and answers
  ``{"action": "..."}`` in record notation (one of ``observation.legal``);
* after each hand ``{"type": "hand_over", ...}`` (no answer expected);
* ``{"type": "bye"}`` before its input is closed.

An illegal action, an unreadable answer, no answer within ``timeout`` seconds, or a program
that died is reported (``problems``, and on standard error) and that decision is made by the
random player instead: the game goes on.
"""

from __future__ import annotations

import json
import queue
import shlex
import subprocess
import sys
import threading
from typing import IO, Any

from fivehundred.actions import Action, action_text
from fivehundred.bots.base import Player, RandomPlayer
from fivehundred.observation import Observation
from fivehundred.rules import Rules

PROTOCOL_VERSION = 1
DEFAULT_TIMEOUT = 5.0


def start_problem(command: str, rules: Rules, timeout: float = DEFAULT_TIMEOUT) -> str | None:
    """Whether the program of ``cmd:COMMAND`` can play: it is started, greeted with
    ``hello`` and dismissed with ``bye``, as a match would. Returns what went wrong in one
    line (it cannot be started, or it exits with a failure status), or None. A program
    still running after ``timeout`` seconds has started: it is stopped and passes."""
    argv = shlex.split(command)
    if not argv:
        return "cmd: needs a program to run"
    shown = shlex.join(argv)
    try:
        process = subprocess.Popen(
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
    except OSError as error:
        return f"cannot start {shown}: {error.strerror or error}"
    hello = {"type": "hello", "seat": 0, "rules": rules.to_dict(), "protocol": PROTOCOL_VERSION}
    try:
        _, err = process.communicate(
            json.dumps(hello) + "\n" + json.dumps({"type": "bye"}) + "\n", timeout=timeout
        )
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return None
    if process.returncode != 0:
        said = [line.strip() for line in (err or "").splitlines() if line.strip()]
        why = f": {said[-1][:120]}" if said else ""
        return f"cannot start {shown}: it exited with status {process.returncode}{why}"
    return None


class ExternalPlayer(Player):
    """A player run as a separate program (started on its first decision)."""

    name = "external"

    def __init__(
        self,
        command: str,
        seed: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        report: IO[str] | None = None,
    ) -> None:
        super().__init__(seed)
        self.command = shlex.split(command)
        if not self.command:
            raise ValueError("cmd: needs a program to run")
        self.timeout = timeout
        self.fallback = RandomPlayer(seed)
        self.problems: list[str] = []
        self.report = report
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._seat = -1
        self._dead = False

    # ------------------------------------------------------------------ process
    def _start(self, obs: Observation) -> None:
        self._seat = obs.seat
        try:
            self._process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
            )
        except OSError as error:
            self._dead = True
            self._problem(f"cannot start {shlex.join(self.command)}: {error.strerror}")
            return
        stdout = self._process.stdout
        assert stdout is not None

        def pump() -> None:
            for line in stdout:
                self._lines.put(line)
            self._lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        self._send(
            {
                "type": "hello",
                "seat": obs.seat,
                "rules": obs.rules.to_dict(),
                "protocol": PROTOCOL_VERSION,
            }
        )

    def _send(self, message: dict[str, Any]) -> bool:
        process = self._process
        if process is None or process.stdin is None or self._dead:
            return False
        try:
            process.stdin.write(json.dumps(message) + "\n")
            process.stdin.flush()
            return True
        except (BrokenPipeError, OSError, ValueError):
            self._dead = True
            self._problem("the program closed its input (it has exited?)")
            return False

    def _problem(self, text: str) -> None:
        message = f"seat {self._seat} ({shlex.join(self.command)}): {text}"
        self.problems.append(message)
        print(f"fivehundred: external player {message}", file=self.report or sys.stderr)

    def _read(self) -> str | None:
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            self._problem(f"no answer within {self.timeout:g} s")
            return None
        if line is None:
            self._dead = True
            self._problem("the program exited")
        return line

    # ------------------------------------------------------------------ Player
    def act(self, observation: Observation) -> Action:
        obs = observation
        if self._process is None and not self._dead:
            self._start(obs)
        action = self._ask(obs)
        if action is None:
            action = self.fallback.act(obs)
            self._reason = "the random player decided (the external program failed)"
        return action

    def _ask(self, obs: Observation) -> Action | None:
        # A late answer to an earlier decision that timed out is stale: drop it.
        while not self._lines.empty():
            if self._lines.get_nowait() is None:
                self._dead = True
        if self._dead or not self._send({"type": "decide", "observation": obs.to_json()}):
            return None
        line = self._read()
        if line is None:
            return None
        try:
            answer = json.loads(line)
            text = answer["action"]
            if not isinstance(text, str):
                raise TypeError
        except (ValueError, KeyError, TypeError):
            self._problem(f'not an answer: {line.strip()[:80]!r} (want {{"action": "..."}})')
            return None
        two = obs.rules.joker_names
        by_text = {action_text(a, two).upper(): a for a in obs.legal}
        action = by_text.get(text.strip().upper())
        if action is None:
            self._problem(
                f"illegal action {text!r} in phase {obs.phase}; legal: "
                f"{', '.join(action_text(a, two) for a in obs.legal)}"
            )
            return None
        reason = answer.get("explain")
        self._reason = reason if isinstance(reason, str) else ""
        return action

    def hand_over(self, summary: dict[str, object]) -> None:
        if self._process is not None and not self._dead:
            self._send({"type": "hand_over", **summary})

    def close(self) -> None:
        """Say goodbye and stop the program."""
        process = self._process
        if process is None:
            return
        self._send({"type": "bye"})
        try:
            if process.stdin is not None:
                process.stdin.close()
            process.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            process.kill()
            process.wait()
        self._process = None
