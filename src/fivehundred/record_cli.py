"""``fivehundred replay``, ``record`` and ``demo``."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from fivehundred.errors import FiveHundredError
from fivehundred.game import GameState, HandState
from fivehundred.record import (
    hand_record,
    legal_texts,
    load_json,
    one_line,
    random_hand,
    replay_record,
)
from fivehundred.rules import PRESETS, make_rules

#: Room for the longest message the rules give about command-line options: the list of
#: every variant an unknown name is checked against (longer text is still cut, keeping the
#: rule id). Errors about files keep the shorter limit of ``one_line``.
OPTION_ERROR_CHARS = 2000


class OneLineParser(argparse.ArgumentParser):
    """argparse that exits with status 2 and one line on bad arguments (every command)."""

    def error(self, message: str) -> Any:
        self.exit(2, f"{self.prog}: {message}\n")


def replay_main(argv: list[str]) -> int:
    parser = OneLineParser(
        prog="fivehundred replay",
        description="Check a hand or game record against the rules and print its result as JSON.",
    )
    parser.add_argument("file", help="record file, or - for standard input")
    parser.add_argument(
        "--legal",
        action="store_true",
        help="for a record that stops part way, list the legal actions",
    )
    args = parser.parse_args(argv)
    try:
        summary, state = replay_record(load_json(args.file))
    except FiveHundredError as error:
        print(f"fivehundred replay: {one_line(error)}", file=sys.stderr)
        return 2
    hand = state.hand if isinstance(state, GameState) else state
    if args.legal and not hand.is_over:
        summary["legal"] = legal_texts(hand)
    print(json.dumps(summary))
    return 0


def record_main(argv: list[str]) -> int:
    parser = OneLineParser(
        prog="fivehundred record",
        description="Write a complete random hand record (random legal play).",
    )
    parser.add_argument(
        "--seed", type=int, default=0, help="seed of the deal and of the random play (default 0)"
    )
    parser.add_argument(
        "--preset",
        default="australian",
        help=f"rules preset: {', '.join(PRESETS)} (default australian)",
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        metavar="NAME[=VALUE]",
        help="a rule variant, e.g. --variant target=300 --variant pack45",
    )
    parser.add_argument(
        "--out", default="-", metavar="FILE", help="file to write (default: standard output)"
    )
    args = parser.parse_args(argv)
    try:
        rules = make_rules(args.preset, parse_variants(args.variant))
    except FiveHundredError as error:
        print(f"fivehundred record: {one_line(error, OPTION_ERROR_CHARS)}", file=sys.stderr)
        return 2
    text = json.dumps(hand_record(random_hand(rules, args.seed)))
    if args.out == "-":
        print(text)
    else:
        try:
            with open(args.out, "w", encoding="utf-8") as handle:
                handle.write(text + "\n")
        except OSError as error:
            print(
                f"fivehundred record: cannot write {one_line(args.out)}: {error.strerror or error}",
                file=sys.stderr,
            )
            return 2
    return 0


def parse_variants(items: list[str]) -> dict[str, Any]:
    """``["target=300", "pack45"]`` → ``{"target": 300, "pack45": True}``."""
    variants: dict[str, Any] = {}
    for item in items:
        name, sep, value = item.partition("=")
        if not sep:
            variants[name] = True
        elif value.lower() in ("true", "false"):
            variants[name] = value.lower() == "true"
        else:
            try:
                variants[name] = int(value)
            except ValueError:
                variants[name] = value
    return variants


def demo_main(argv: list[str]) -> int:
    """Watch computer players play one hand, printed trick by trick."""
    parser = OneLineParser(
        prog="fivehundred demo",
        description="Watch four computer players play one hand (australian rules), printed "
        "deal, auction and trick by trick.",
    )
    parser.add_argument(
        "--seed", type=int, default=1, help="seed of the deal and the players (default 1)"
    )
    parser.add_argument(
        "--bot",
        default="heuristic",
        metavar="PLAYER",
        help="the computer player at every seat: random, heuristic (default), "
        "pimc, pimc:N, pimc:fast, pimc:strong, pimc:postpone",
    )
    args = parser.parse_args(argv)
    from fivehundred.bots import make_player
    from fivehundred.text import describe_hand

    if args.bot.startswith("cmd:"):
        parser.error("--bot: external players (cmd:) play in the arena, not the demo")
    try:
        players = [make_player(args.bot, seed=args.seed * 10 + seat) for seat in range(4)]
    except ValueError as error:
        parser.error(f"--bot: {one_line(error)}")
    state = HandState.deal(make_rules(), dealer=0, seed=args.seed)
    while not state.is_over:
        seat = state.to_move
        state.apply(players[seat].act(state.observation(seat)))
    print(describe_hand(state))
    return 0
