"""``fivehundred play`` and ``fivehundred show``."""

from __future__ import annotations

import os
import signal
import sys

from fivehundred.bots import PLAYERS
from fivehundred.errors import FiveHundredError
from fivehundred.record_cli import OneLineParser as _Parser
from fivehundred.record_cli import parse_variants
from fivehundred.tui import storage
from fivehundred.tui.session import Session, Settings, playable_presets


def interactive_terminal() -> bool:
    """True when both ends are a terminal that can draw the full-screen game."""
    term = os.environ.get("TERM", "")
    return sys.stdin.isatty() and sys.stdout.isatty() and term not in ("", "dumb")


def play_main(argv: list[str]) -> int:
    parser = _Parser(prog="fivehundred play",
                     description="Play Five Hundred against three computer players. You sit "
                     "South; North is your partner. The game is saved after every move.")  # fmt: skip
    parser.add_argument("--resume", action="store_true", help="continue the saved game")
    parser.add_argument(
        "--plain",
        action="store_true",
        help="line mode: text in, text out (automatic when not on a terminal)",
    )
    parser.add_argument("--preset", choices=playable_presets(), help="the rules (default: "
                        "last used, else australian)")  # fmt: skip
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

    for name in (args.opponents, args.partner):
        if name is not None and name not in PLAYERS:
            print(f"fivehundred play: unknown player {name!r}; players are "
                  f"{', '.join(sorted(PLAYERS))}", file=sys.stderr)  # fmt: skip
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
    if args.resume:
        try:
            session = Session.resume(speed=args.speed)
        except storage.SaveError as error:
            print(f"fivehundred play: cannot resume: {error}. 'fivehundred play' starts a "
                  "new game.", file=sys.stderr)  # fmt: skip
            return 2
        if session.is_over:
            print(f"fivehundred play: the saved game is finished; 'fivehundred show "
                  f"{session.path}' replays it, 'fivehundred play' starts a new one.",
                  file=sys.stderr)  # fmt: skip
            return 2

    if plain:
        from fivehundred.tui.plain import PlainGame

        if session is None:
            if storage.save_path().exists():
                print("(A saved game was put aside in "
                      f"{storage.data_dir() / storage.GAMES_DIR}; '--resume' continues the saved "
                      "game instead of starting a new one.)")  # fmt: skip
            storage.store_settings(settings.to_dict())
            session = Session.new(settings)
        return PlainGame(session, sys.stdin, sys.stdout).run()

    from fivehundred.tui.app import FiveHundredApp

    if session is None and args.new:
        storage.store_settings(settings.to_dict())
        session = Session.new(settings)
    can_resume = session is None and _resumable()
    app = FiveHundredApp(session, settings, options_at_start=session is None,
                         can_resume=can_resume)  # fmt: skip
    # The terminal going away (a closed window, a dropped ssh session) ends the app: the
    # game is already saved after every action, and an app left without a terminal spins.
    signal.signal(signal.SIGHUP, lambda _signum, _frame: app.exit())
    status = app.run()
    if app.session is not None and not app.session.is_over:
        print(f"Game saved ({app.session.path}); 'fivehundred play --resume' continues it.")
    return status or 0


def _resumable() -> bool:
    try:
        return not Session.resume().is_over
    except (storage.SaveError, FiveHundredError):
        return False


def show_main(argv: list[str]) -> int:
    parser = _Parser(prog="fivehundred show",
                     description="Replay a hand or game record step by step.")  # fmt: skip
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
    if args.plain or not interactive_terminal():
        print_steps(steps, sys.stdout)
        return 0
    from fivehundred.tui.show import ShowApp

    return ShowApp(steps, args.record).run() or 0
