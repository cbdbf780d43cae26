"""The ``fivehundred`` command. Each subcommand lives beside the part it drives and is
imported only when used, so the core stays free of interface dependencies.

Whatever a command does, it ends with one of: its output and status 0; one line on
standard error and status 2 (bad options, bad input, a missing optional dependency);
status 130 on Ctrl-C; or quietly, when whoever reads its output stops reading (a closed
pipe: ``fivehundred demo | head -1``)."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from collections.abc import Callable, Sequence

#: subcommand → (module, function, one-line help). Each function takes argv and returns
#: an exit status.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "replay": ("fivehundred.record_cli", "replay_main", "check a record and print its result"),
    "record": ("fivehundred.record_cli", "record_main", "write a random complete hand record"),
    "demo": ("fivehundred.record_cli", "demo_main", "watch computer players play a hand"),
    "analyse": ("fivehundred.analysis.analyse", "main", "double-dummy analysis of a hand record"),
    "arena": ("fivehundred.arena.cli", "main", "measure computer players against each other"),
    "play": ("fivehundred.tui.cli", "play_main", "play Five Hundred in the terminal"),
    "show": ("fivehundred.tui.cli", "show_main", "replay a record step by step"),
    "serve": ("fivehundred.web.cli", "serve_main", "play in the browser: start the game server"),
    "pad": ("fivehundred.pad.cli", "pad_main", "score pad for a game played with real cards"),
    "learn": ("fivehundred.learn.learn_cli", "main", "lessons: learn Five Hundred step by step"),
    "puzzle": ("fivehundred.learn.puzzle_cli", "main", "find the one card: puzzles by the solver"),
    "daily": ("fivehundred.tui.daily", "daily_main", "the day's duplicate boards, with the par"),
    "dataset": (
        "fivehundred.env.dataset",
        "main",
        "deals with every contract's double-dummy tricks, to Parquet",
    ),
}

#: subcommand → (the optional extra it needs, the modules of that extra it imports).
#: Checked before the command starts, so that a missing one is said at once in one line.
EXTRAS: dict[str, tuple[str, tuple[str, ...]]] = {
    "analyse": ("solver", ("numpy",)),
    "arena": ("arena", ("rich",)),
    "play": ("tui", ("textual", "rich", "platformdirs")),
    "show": ("tui", ("textual", "rich", "platformdirs")),
    "serve": ("web", ("fastapi", "uvicorn", "sqlalchemy")),
    "pad": ("tui", ("textual",)),
    "daily": ("solver", ("numpy",)),
}


def version() -> str:
    """The installed package's version."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("fivehundred")
    except PackageNotFoundError:  # run from a source tree that is not installed
        from fivehundred import __version__

        return __version__


def _usage() -> str:
    lines = ["usage: fivehundred [--version] COMMAND [ARGS]", "", "commands:"]
    lines += [f"  {name:<8} {info[2]}" for name, info in COMMANDS.items()]
    lines.append("\n'fivehundred COMMAND --help' for a command's options.")
    return "\n".join(lines)


def _missing_module(modules: Sequence[str]) -> str | None:
    """The first of ``modules`` that cannot be imported, or None."""
    for module in modules:
        try:
            if importlib.util.find_spec(module) is None:
                return module
        except (ImportError, ValueError):
            return module
    return None


def extra_message(name: str, detail: str = "") -> str:
    """``fivehundred play needs the 'tui' extra: pip install 'fivehundred[tui]'``."""
    extra = EXTRAS[name][0]
    line = f"fivehundred {name} needs the {extra!r} extra: pip install 'fivehundred[{extra}]'"
    return f"{line} ({detail})" if detail else line


def _run(args: list[str]) -> int:
    if not args:
        print(_usage(), file=sys.stderr)
        return 2
    if args[0] in ("-h", "--help", "help"):
        print(_usage())
        return 0
    if args[0] in ("-V", "--version"):
        print(f"fivehundred {version()}")
        return 0
    name, rest = args[0], args[1:]
    if name == "analyze":
        name = "analyse"
    if name not in COMMANDS:
        from fivehundred.record import one_line

        print(
            f"fivehundred: unknown command {one_line(repr(name))}; commands are "
            f"{', '.join(COMMANDS)} ('fivehundred --help')",
            file=sys.stderr,
        )
        return 2
    if name in EXTRAS and not {"-h", "--help"} & set(rest):
        missing = _missing_module(EXTRAS[name][1])
        if missing is not None:
            print(extra_message(name, f"no module {missing!r}"), file=sys.stderr)
            return 2
    module_name, function_name, _ = COMMANDS[name]
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        detail = f"{error.name or error}"
        if error.name == "fivehundred.solver._kernel":  # not built at install: its own line
            print(f"fivehundred {name}: {error}", file=sys.stderr)
        elif name in EXTRAS:
            print(extra_message(name, f"cannot import {detail}"), file=sys.stderr)
        else:
            print(
                f"fivehundred {name}: cannot import {detail}; reinstall the package "
                "(pip install 'fivehundred[all]')",
                file=sys.stderr,
            )
        return 2
    function: Callable[[list[str]], int] = getattr(module, function_name)
    return function(rest)


def _quiet_stdout() -> None:
    """After a closed pipe: point standard output at /dev/null, so that the interpreter's
    last flush at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # not a real file (tests)
        pass


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        try:
            status = _run(args)
        except SystemExit as exit_:  # argparse: --help, or a usage error
            code = exit_.code
            status = code if isinstance(code, int) else (0 if code is None else 2)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader stopped reading (``| head``): nothing is wrong, end quietly.
        _quiet_stdout()
        return 0
    except KeyboardInterrupt:
        return 130
    return status


if __name__ == "__main__":
    sys.exit(main())
