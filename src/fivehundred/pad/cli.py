"""``fivehundred pad``: start or continue the terminal score pad."""

from __future__ import annotations

import argparse
import contextlib
import sys
import time
from pathlib import Path
from typing import TextIO

from fivehundred.errors import FiveHundredError
from fivehundred.pad import model
from fivehundred.pad.commands import PadSession, read_pad, seat_of
from fivehundred.record_cli import OneLineParser, parse_variants

PAD_NAME = "pad.json"


def _data_dir() -> Path:
    from fivehundred.datadir import data_dir

    return data_dir()


def pad_main(argv: list[str]) -> int:
    parser = OneLineParser(
        prog="fivehundred pad",
        description="Keep the score of a game played with real cards. "
        "The pad is saved after every hand; run again to continue it.",
    )
    parser.add_argument("--new", action="store_true", help="start a new pad (the old one is kept)")
    parser.add_argument("--players", help="names in seat order, comma-separated (with --new)")
    parser.add_argument("--preset", default="australian", help="the rules (with --new)")
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME[=VALUE]",
        help="a scoring variant, e.g. --variant rule_490=false (repeatable)",
    )
    parser.add_argument(
        "--dealer",
        default="1",
        help="the first dealer: a player's name, or their number in --players "
        "counting from 1 (default 1)",
    )
    parser.add_argument("--file", type=Path, help="the pad file (default: the data directory)")
    parser.add_argument(
        "--plain",
        action="store_true",
        help="line mode: commands on standard input (automatic when not on a terminal)",
    )
    parser.add_argument(
        "--web", action="store_true", help="serve the browser pad alone on 127.0.0.1 (see --port)"
    )
    parser.add_argument("--port", type=int, default=8500, help="port for --web (default 8500)")
    args = parser.parse_args(argv)
    if args.web:
        return serve(args.port)
    path = args.file or _data_dir() / PAD_NAME
    try:
        session = _open(args, path)
    except FiveHundredError as error:
        print(f"fivehundred pad: {error}", file=sys.stderr)
        return 2
    from fivehundred.tui.cli import interactive_terminal

    if args.plain or not interactive_terminal():
        return plain(session, sys.stdin, sys.stdout)
    from fivehundred.pad.tui import PadApp

    status = PadApp(session).run()
    with contextlib.suppress(OSError):  # the terminal may have gone
        print(f"Pad saved ({path}); 'fivehundred pad' continues it.")
    return status or 0


def serve(port: int) -> int:
    """Serve the browser pad alone on 127.0.0.1 until interrupted."""
    try:
        from fivehundred.pad.local import local_server
    except ImportError as error:
        print(f"fivehundred pad: --web needs the web extra ({error})", file=sys.stderr)
        return 2
    try:
        with local_server(port) as url:
            print(f"The score pad is at {url}/pad (Ctrl-C stops it).", flush=True)
            while True:
                time.sleep(3600)
    except RuntimeError as error:
        print(f"fivehundred pad: {error}", file=sys.stderr)
        return 2


def _open(args: argparse.Namespace, path: Path) -> PadSession:
    new = args.new
    if path.exists() and not new:
        return PadSession(model.Pad(read_pad(path)), path)
    names = [n.strip() for n in (args.players or "").split(",") if n.strip()]
    preset = args.preset
    if preset not in model.PRESETS:
        raise model.PadError(f"unknown preset {preset!r}; presets are {', '.join(model.PRESETS)}")
    players = model.PRESETS[preset].players
    if not names:
        names = [f"Player {seat + 1}" for seat in range(players)]
    variants = parse_variants(args.variant)
    dealer = 0  # with the wrong number of names, new_pad says so
    if len(names) == players:
        try:
            dealer = seat_of(names, args.dealer.strip())
        except model.PadError as error:
            raise model.PadError(f"--dealer: {error}") from None
    pad = model.new_pad(names, preset, variants, dealer)
    pad["title"] = time.strftime("%Y-%m-%d %H:%M")
    PadSession(model.Pad(pad), path).archive()
    session = PadSession(model.Pad(pad), path)
    session.save()
    return session


def plain(session: PadSession, stdin: TextIO, stdout: TextIO) -> int:
    """Line mode: one command a line; each answer and the totals are printed."""

    def totals() -> str:
        result = session.pad.result
        text = ", ".join(f"{n} {t}" for n, t in zip(result.sides, result.totals, strict=True))
        if result.winner is not None:
            return f"{text}. {result.won_by}"
        return f"{text}. Dealer: {session.pad.data['players'][result.dealer]}"

    print(totals(), file=stdout)
    for raw in stdin:
        line = raw.strip()
        if line.lower() in ("quit", "exit"):
            break
        if not line:
            continue
        try:
            answer = session.run(line)
        except FiveHundredError as error:
            print(f"error: {error}", file=stdout)
            continue
        print(answer, file=stdout)
        print(totals(), file=stdout)
    return 0
