"""The ``fivehundred`` command. Each subcommand lives beside the part it drives and is
imported only when used, so the core stays free of interface dependencies."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence

#: subcommand → (module, function, one-line help). Each function takes argv and returns
#: an exit status.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "replay": ("fivehundred.record_cli", "replay_main", "check a record and print its result"),
    "record": ("fivehundred.record_cli", "record_main", "write a random complete hand record"),
    "demo": ("fivehundred.record_cli", "demo_main", "watch computer players play a hand"),
    "analyse": ("fivehundred.solver.analyse", "main", "double-dummy analysis of a hand record"),
    "arena": ("fivehundred.arena.cli", "main", "measure computer players against each other"),
    "play": ("fivehundred.tui.cli", "play_main", "play Five Hundred in the terminal"),
    "show": ("fivehundred.tui.cli", "show_main", "replay a record step by step"),
    "serve": ("fivehundred.web.cli", "serve_main", "play in the browser: start the game server"),
}


def _usage() -> str:
    lines = ["usage: fivehundred COMMAND [ARGS]", "", "commands:"]
    lines += [f"  {name:<8} {info[2]}" for name, info in COMMANDS.items()]
    lines.append("\n'fivehundred COMMAND --help' for a command's options.")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "help"):
        print(_usage())
        return 0 if args else 2
    name, rest = args[0], args[1:]
    if name == "analyze":
        name = "analyse"
    if name not in COMMANDS:
        print(f"fivehundred: unknown command {name!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module_name, function_name, _ = COMMANDS[name]
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        print(f"fivehundred {name}: not available ({error}); run 'make install'",
              file=sys.stderr)  # fmt: skip
        return 2
    function: Callable[[list[str]], int] = getattr(module, function_name)
    try:
        return function(rest)
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
