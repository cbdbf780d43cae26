"""``fivehundred play`` and ``fivehundred show``."""

from __future__ import annotations

import contextlib
import os
import signal
import sys

from fivehundred.bots import PLAYERS
from fivehundred.errors import FiveHundredError
from fivehundred.record_cli import OneLineParser as _Parser
from fivehundred.record_cli import parse_variants
from fivehundred.tui import storage
from fivehundred.tui.session import (
    Session,
    Settings,
    damaged_games,
    describe_saved,
    is_computer_player,
    playable_presets,
    put_aside,
    unfinished_games,
)


def interactive_terminal() -> bool:
    """True when both ends are a terminal that can draw the full-screen game."""
    term = os.environ.get("TERM", "")
    return sys.stdin.isatty() and sys.stdout.isatty() and term not in ("", "dumb")


def play_main(argv: list[str]) -> int:
    parser = _Parser(
        prog="fivehundred play",
        description="Play Five Hundred against computer players (every preset: "
        "two to six players). You sit South; the seats of your side are your "
        "partners. The game is saved after every move.",
        epilog=f"The saved game, the games put aside and the settings are kept in "
        f"the data directory: ${storage.ENV_DATA_DIR} if it is set, else the "
        f"user data directory ({storage.data_dir()}).",
    )
    parser.add_argument(
        "--resume",
        nargs="?",
        const="",
        default=None,
        metavar="N",
        help="continue the saved game, or game N of --list",
    )
    parser.add_argument("--list", action="store_true", help="list the unfinished games")
    parser.add_argument(
        "--plain",
        action="store_true",
        help="line mode: text in, text out (automatic when not on a terminal)",
    )
    parser.add_argument(
        "--preset",
        choices=playable_presets(),
        help="the rules (default: last used, else australian)",
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME[=VALUE]",
        help="a rule variant, e.g. --variant no_open_misere (repeatable)",
    )
    parser.add_argument("--target", type=int, help="points to win (default 500)")
    parser.add_argument("--opponents", help=f"computer opponents: {', '.join(PLAYERS)}")
    parser.add_argument("--partner", help="computer partner (same choices)")
    parser.add_argument("--seed", type=int, help="seed for the deals and computer players")
    parser.add_argument("--speed", type=float, help="seconds between computer moves (0: instant)")
    parser.add_argument(
        "--new", action="store_true", help="start at once with these options (no options screen)"
    )
    args = parser.parse_args(argv)
    plain = args.plain or not interactive_terminal()
    try:
        storage.check_data_dir()
    except storage.DataDirError as error:
        print(f"fivehundred play: {error}", file=sys.stderr)
        return 2
    if args.list:
        return list_games()

    for name in (args.opponents, args.partner):
        if name is not None and not is_computer_player(name):
            print(
                f"fivehundred play: unknown player {name!r}; players are "
                f"{', '.join(sorted(PLAYERS))}, pimc:fast, pimc:strong, pimc:postpone, pimc:N",
                file=sys.stderr,
            )
            return 2
    if args.speed is not None and not 0 <= args.speed <= 10:
        print("fivehundred play: --speed must be between 0 and 10 seconds", file=sys.stderr)
        return 2

    settings = Settings.from_dict(storage.load_settings())
    if args.preset is not None:
        settings.preset = args.preset
        settings.variants = {}
    if args.variant or args.target is not None:
        settings.variants = parse_variants(args.variant)
        if args.target is not None:
            settings.variants["target"] = args.target
    settings.opponents = args.opponents or settings.opponents
    settings.partner = args.partner or settings.partner
    settings.seed = args.seed
    if args.speed is not None:
        settings.speed = args.speed
    try:
        settings.rules()
    except FiveHundredError as error:
        print(f"fivehundred play: {error}", file=sys.stderr)
        return 2

    session: Session | None = None
    if args.resume is not None:
        try:
            session = resume(args.resume, args.speed)
        except storage.SaveError as error:
            print(
                f"fivehundred play: cannot resume: {error}. 'fivehundred play --list' lists "
                "the unfinished games; 'fivehundred play' starts a new one.",
                file=sys.stderr,
            )
            return 2
        if session.is_over:
            print(
                f"fivehundred play: the saved game is finished; 'fivehundred show "
                f"{session.path}' replays it, 'fivehundred play' starts a new one.",
                file=sys.stderr,
            )
            return 2

    if plain:
        from fivehundred.tui.plain import PlainGame

        if session is None:
            aside = put_aside(storage.save_path())
            if aside is not None:
                what = "A damaged save was" if "-damaged-" in aside.name else "The saved game was"
                print(
                    f"({what} put aside as {aside}; 'fivehundred play --list' lists the "
                    "unfinished games, '--resume N' continues one.)"
                )
            storage.store_settings(settings.to_dict())
            session = Session.new(settings)
        try:
            plain_status = PlainGame(session, sys.stdin, sys.stdout).run()
        except OSError:
            return 1  # the terminal has gone (a write error); the game is saved
        with contextlib.suppress(OSError):
            sys.stdout.flush()
        return plain_status

    from fivehundred.tui.app import FiveHundredApp

    notice = ""
    if session is None:
        notice = _set_aside_damaged()
    if session is None and args.new:
        storage.store_settings(settings.to_dict())
        session = Session.new(settings)
    can_resume = session is None and _resumable()
    app = FiveHundredApp(session, settings, options_at_start=session is None, can_resume=can_resume)
    if notice:
        app.message = notice
        print(notice, file=sys.stderr)
    # The terminal going away (a closed window, a dropped ssh session) ends the app: the
    # game is already saved after every action, and an app left without a terminal spins.
    signal.signal(signal.SIGHUP, lambda _signum, _frame: app.exit())
    status = app.run()
    if app.session is not None and not app.session.is_over:
        with contextlib.suppress(OSError):  # the terminal may have gone
            print(f"Game saved ({app.session.path}); 'fivehundred play --resume' continues it.")
    return status or 0


def _resumable() -> bool:
    try:
        return not Session.resume().is_over
    except (storage.SaveError, FiveHundredError):
        return False


def _set_aside_damaged() -> str:
    """A save that cannot be read is moved aside (kept) so that a game can start."""
    path = storage.save_path()
    if not path.exists():
        return ""
    try:
        Session.resume()
        return ""
    except (storage.SaveError, FiveHundredError) as error:
        reason = str(error)
    try:
        aside = storage.move_aside(path, "damaged")
    except OSError as error:
        return f"The saved game cannot be read ({reason}) nor moved aside: {error.strerror}."
    return f"The saved game could not be read ({reason}); it was moved to {aside}."


def resume(which: str, speed: float | None) -> Session:
    """The game to continue: the saved one (``which`` empty) or number ``which`` of
    :func:`unfinished_games` (or a file)."""
    if not which:
        return Session.resume(speed=speed)
    games = unfinished_games()
    if which.isdigit():
        number = int(which)
        if not 1 <= number <= len(games):
            raise storage.SaveError(f"there is no unfinished game {which} (there are {len(games)})")
        return Session.reopen(games[number - 1], speed)
    from pathlib import Path

    return Session.reopen(Path(which), speed)


def list_games() -> int:
    games = unfinished_games()
    damaged = damaged_games()
    save = storage.save_path()
    if save.exists() and save not in games:
        # the save itself cannot be read (--resume refuses it): listed with why
        said = describe_saved(save)
        if ": cannot be read: " in said:
            why = said.split(": cannot be read: ", 1)[1]
            why = why.removeprefix("the saved game is damaged ").removeprefix("(")
            why = why.removesuffix(")")
            print(
                f"The saved game {save} is damaged and cannot be resumed ({why}); "
                "'fivehundred play' puts it aside (kept) and starts a new game."
            )
            if not games and not damaged:
                return 0
    if not games and not damaged:
        print("No unfinished games. 'fivehundred play' starts one.")
        return 0
    if games:
        print("Unfinished games ('fivehundred play --resume N' continues one):")
    for number, path in enumerate(games, 1):
        current = " (the saved game)" if path == storage.save_path() else ""
        print(f"  {number}. {describe_saved(path)}{current}")
    if damaged:
        print("Damaged saves, kept but not playable (put aside when they could not be read):")
    for path in damaged:
        print(f"  - {path}: {describe_saved(path).split(': ', 1)[-1]}")
    return 0


def show_main(argv: list[str]) -> int:
    parser = _Parser(
        prog="fivehundred show", description="Replay a hand or game record step by step."
    )
    parser.add_argument("record", help="record file (a saved game, or any hand/game record)")
    parser.add_argument(
        "--plain",
        action="store_true",
        help="print every step as text (automatic when not on a terminal)",
    )
    args = parser.parse_args(argv)
    from fivehundred.tui.show import load_steps, print_steps

    try:
        steps = load_steps(args.record)
    except (storage.SaveError, FiveHundredError) as error:
        print(f"fivehundred show: {error}", file=sys.stderr)
        return 2
    except (RecursionError, MemoryError, ValueError, TypeError, KeyError) as error:
        print(
            f"fivehundred show: {args.record}: not a usable record "
            f"({str(error)[:120] or type(error).__name__})",
            file=sys.stderr,
        )
        return 2
    if args.plain or not interactive_terminal():
        print_steps(steps, sys.stdout)
        return 0
    from fivehundred.tui.show import ShowApp

    return ShowApp(steps, args.record).run() or 0
