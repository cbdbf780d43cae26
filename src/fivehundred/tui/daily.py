"""``fivehundred daily``: a day's duplicate boards in the terminal, in plain lines.

You sit South with a computer partner against two computer opponents, all at one level,
and play the day's boards one after the other. After each board: your result, the
double-dummy par, your points against par and the traveller of the results stored for
that day (the terminal keeps them in the data directory); at the end, the day's standings.
A day left part way resumes at the first board not played. ``--export`` and ``--text``
write the day's boards with every stored result (JSON, or a plain-text hand record);
``--import`` adds the results of such a JSON file, or of the plain text. See docs/duplicate.md.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from fivehundred.boards import (
    TEXT_TITLE,
    Board,
    BoardResult,
    BoardSet,
    Par,
    export_set,
    import_set,
    import_text,
    set_text,
    standings,
    traveller,
)
from fivehundred.bots import PLAYERS, Player, make_player
from fivehundred.daily import (
    DAILY_BOARDS,
    DEFAULT_PRESET,
    ENTRANT_SEAT,
    daily_boards,
    parse_day,
    set_name,
    today,
)
from fivehundred.datadir import DataDirError, SaveError, check_data_dir, write_json_atomic
from fivehundred.errors import ActionParseError, CardParseError, FiveHundredError, RecordError
from fivehundred.game import HandState
from fivehundred.messages import error_text
from fivehundred.record_cli import OneLineParser as _Parser
from fivehundred.tui.plain import move_tokens
from fivehundred.tui.render import (
    auction_text,
    cards_text,
    contract_text,
    seat_label,
    seat_name,
    trick_text,
)
from fivehundred.words import DEFAULT_LEVEL, action_label, observation_prompt, parse, view_context

#: The most results a stored day keeps per board (an imported file may add others').
MAX_STORED = 1000


def par_of(board: Board) -> Par:
    """The board's double-dummy par (the solver, imported only here)."""
    from fivehundred.solver.par import board_par

    return board_par(board).par


def review_of(state: HandState) -> str:
    """What ``fivehundred analyse`` says of a finished hand (the solver, imported here)."""
    from fivehundred.analysis.analyse import analyse_hand, format_analysis

    return format_analysis(analyse_hand(state), state)


class DailyDay:
    """A day's boards, the results stored for it and the pars worked out so far, kept in
    one ``fivehundred-boards/1`` file."""

    def __init__(self, boards: list[Board], name: str, path: Path | None) -> None:
        self.boards = boards
        self.name = name
        self.path = path
        self.results: list[BoardResult] = []
        self.pars: dict[int, Par] = {}
        if path is not None and path.exists():
            self.merge(json.loads(path.read_text(encoding="utf-8")))

    def merge(self, data: object) -> int:
        """Add the results (and pars) of an exported set of the same boards; returns how
        many results were new. Raises RecordError for another day's boards."""
        other = data if isinstance(data, BoardSet) else import_set(data)
        mine = {b.number: b for b in self.boards}
        for board in other.boards:
            if mine.get(board.number) != board:
                raise RecordError("boards", f"board {board.number} is not this day's")
        known = {
            (r.board, r.entrant, r.seat, json.dumps(r.record, sort_keys=True)) for r in self.results
        }
        added = 0
        for result in other.results:
            key = (
                result.board,
                result.entrant,
                result.seat,
                json.dumps(result.record, sort_keys=True),
            )
            on_board = sum(1 for r in self.results if r.board == result.board)
            if key not in known and on_board < MAX_STORED:
                self.results.append(result)
                known.add(key)
                added += 1
        self.pars.update(other.pars)
        return added

    def played(self, entrant: str) -> set[int]:
        return {r.board for r in self.results if r.entrant == entrant}

    def par(self, board: Board) -> Par:
        if board.number not in self.pars:
            self.pars[board.number] = par_of(board)
            self.save()
        return self.pars[board.number]

    def add(self, result: BoardResult) -> None:
        self.results.append(result)
        self.save()

    def export(self) -> dict[str, object]:
        return export_set(self.boards, self.results, self.pars, self.name)

    def text(self) -> str:
        return set_text(self.boards, self.results, self.pars, self.name)

    def save(self) -> None:
        if self.path is not None:
            write_json_atomic(self.path, self.export())


class Quit(Exception):
    """The person stopped (``quit`` or the end of input)."""


class DailyPlay:
    """Plays a day's boards from South in plain lines over ``stdin``/``stdout``."""

    def __init__(
        self,
        day: DailyDay,
        entrant: str,
        level: str,
        stdin: TextIO,
        stdout: TextIO,
        seed: str,
        with_par: bool = True,
    ) -> None:
        self.day = day
        self.entrant = entrant
        self.level = level
        self.stdin = stdin
        self.stdout = stdout
        self.seed = seed
        self.with_par = with_par
        self.pending: list[str] = []

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def read(self, prompt: str) -> str:
        if self.pending:
            return self.pending.pop(0)
        print(f"{prompt}> ", end="", file=self.stdout, flush=True)
        line = self.stdin.readline()
        if not line:
            raise Quit
        text = line.strip()[:200]
        if text.lower() in ("quit", "q"):
            raise Quit
        return text

    def players(self, board: Board) -> list[Player | None]:
        """The computer players of a board's table, seeded from the day and the board."""
        out: list[Player | None] = []
        for seat in range(4):
            if seat == ENTRANT_SEAT:
                out.append(None)
                continue
            digest = hashlib.sha256(f"{self.seed}/{board.number}/{seat}".encode()).digest()
            out.append(make_player(self.level, seed=int.from_bytes(digest[:4], "big")))
        return out

    def run(self) -> int:
        played = self.day.played(self.entrant)
        todo = [b for b in self.day.boards if b.number not in played]
        self.say(f"== {self.day.name}: {len(self.day.boards)} boards ==")
        self.say(
            f"You are South; North is your partner; the computers play at level {self.level!r}."
        )
        if played:
            self.say(
                f"Boards played already: {len(played)}. Going on from board {todo[0].number}."
                if todo
                else "You have played every board of the day."
            )
        try:
            for board in todo:
                self.play_board(board)
        except Quit:
            self.say("Stopped. 'fivehundred daily' again goes on from the next board.")
            return 0
        self.final()
        return 0

    def play_board(self, board: Board) -> None:
        rules = board.rules
        state = board.start()
        players = self.players(board)
        self.say()
        self.say(
            f"== Board {board.number} of {len(self.day.boards)} · dealer {seat_name(rules, board.dealer)} =="
        )
        self.say(f"Your hand: {cards_text(state.hands[ENTRANT_SEAT], None, rules.joker_names)}")
        while not state.is_over:
            before, phase = len(state.tricks), state.phase
            seat = state.to_move
            player = players[seat]
            if player is None:
                self.human(state)
            else:
                action = player.act(state.observation(seat))
                self.tell(state, seat, action)
                state.apply(action)
            if len(state.tricks) > before:
                self.say(self.trick_line(state))
            if phase == "auction" and state.phase != "auction":
                said = contract_text(rules, state.contract, state.contractor)
                self.say(f"Contract: {said}" if state.contract >= 0 else "All passed.")
        result = BoardResult.from_state(board, self.entrant, state, ENTRANT_SEAT)
        self.day.add(result)
        self.after(board, state, result)

    def tell(self, state: HandState, seat: int, action: int) -> None:
        """What a computer did, as the table sees it (its discards are never shown)."""
        rules = state.rules
        two = rules.joker_names
        name = seat_name(rules, seat)
        if state.phase == "auction":
            self.say(f"{name}: {action_label(action, two)}")
        elif state.phase == "discard":
            if state.discards_left == 1:
                self.say(f"{name} takes the kitty and discards.")
        elif state.phase == "play":
            self.say(f"{name} plays {action_label(action, two)}")
        else:
            self.say(f"{name}: {action_label(action, two)}")

    def human(self, state: HandState) -> None:
        rules = state.rules
        two = rules.joker_names
        obs = state.observation(ENTRANT_SEAT)
        ctx = view_context(obs)
        if obs.contract >= 0 and state.phase in ("discard", "play", "nominate"):
            self.say(f"Contract: {contract_text(rules, obs.contract, obs.contractor)}")
        elif obs.auction:
            self.say(f"Bids: {auction_text(rules, obs.auction)}")
        for seat, mask in obs.exposed:
            if seat != ENTRANT_SEAT:
                self.say(f"{seat_label(rules, seat)}'s open cards: {cards_text(mask, ctx, two)}")
        if obs.trick:
            self.say(f"Trick: {trick_text(rules, obs.trick)}")
        self.say(f"Your hand: {cards_text(obs.hand, ctx, two)}")
        text = self.read(observation_prompt(obs))
        if text in ("help", "?"):
            self.say("Type a bid (7H, 6NT, misere, pass), a card (AS, 10H, JK) or quit.")
            return
        tokens = move_tokens(text, two)
        if not tokens:
            return
        self.pending = tokens[1:]
        try:
            state.apply(parse(tokens[0], state.legal_actions(), two))
        except (ActionParseError, CardParseError) as error:
            self.pending = []
            self.say(f"Not understood: {error} (type 'help')")
            return
        except FiveHundredError as error:
            self.pending = []
            self.say(f"Not allowed: {error_text(error, two)}")
            return

    def trick_line(self, state: HandState) -> str:
        rules = state.rules
        trick = state.tricks[-1]
        return f"Trick {len(state.tricks)}: {trick_text(rules, trick.plays)} — won by {seat_name(rules, trick.winner)}"

    def after(self, board: Board, state: HandState, result: BoardResult) -> None:
        rules = board.rules
        self.say(
            f"-- Board {board.number} over: {result.label(rules)}, {result.tricks} tricks; NS {result.points[0]:+d}, EW {result.points[1]:+d} (net {result.net:+d})"
        )
        par = None
        if self.with_par:
            self.say("Working out the par ...")
            par = self.day.par(board)
            self.say(f"Par: {par.label(rules)}; you: {result.own_net - par.net:+d} against par")
            self.say("Double-dummy review:")
            for line in review_of(state).splitlines():
                self.say(f"  {line}")
        self.say("Hands as dealt:")
        for seat, hand in enumerate(board.hands):
            self.say(f"  {seat_name(rules, seat):<6} {cards_text(hand, None, rules.joker_names)}")
        self.say(f"  {'Kitty':<6} {cards_text(board.kitty, None, rules.joker_names)}")
        on_board = [r for r in self.day.results if r.board == board.number]
        self.say(traveller(board, on_board, par).text())

    def final(self) -> None:
        mine = [r for r in self.day.results if r.entrant == self.entrant]
        self.say()
        self.say(f"== {self.day.name}: standings ==")
        for row in standings(self.day.results, self.day.pars or None):
            against = "" if row.against_par is None else f"  {row.against_par:+d} against par"
            marker = " (you)" if row.entrant == self.entrant else ""
            self.say(
                f"  {row.place:>3}. {row.entrant}{marker}: {row.percent:.1f}% over {row.boards} boards{against}"
            )
        self.say(f"Your boards: {len(mine)}")


def _daily_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="fivehundred daily",
        description="Play the day's duplicate boards against computer players (you sit "
        "South), with each result against the double-dummy par and the traveller.",
    )
    parser.add_argument("--date", help="the day, YYYY-MM-DD (default: today, UTC)")
    parser.add_argument("--seed", default="", help="a secret mixed into the day's deals")
    parser.add_argument(
        "--preset",
        default=DEFAULT_PRESET,
        choices=["australian", "american"],
        help="the rules (default australian)",
    )
    parser.add_argument("--boards", type=int, default=DAILY_BOARDS, help="boards in the day")
    parser.add_argument(
        "--level", default=DEFAULT_LEVEL, help=f"computer players: {', '.join(PLAYERS)}"
    )
    parser.add_argument("--name", default="you", help="your name on the traveller")
    parser.add_argument("--no-par", action="store_true", help="skip the double-dummy par")
    parser.add_argument(
        "--export", metavar="FILE", help="write the day's boards and results as JSON, then stop"
    )
    parser.add_argument(
        "--text", metavar="FILE", help="write them as a plain-text hand record, then stop"
    )
    parser.add_argument(
        "--import",
        dest="import_",
        metavar="FILE",
        help="add the results of a JSON file (or of a --text file)",
    )
    parser.add_argument(
        "--no-store", action="store_true", help="keep nothing in the data directory"
    )
    return parser


def daily_main(argv: list[str], stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    args = _daily_parser().parse_args(argv)
    out = stdout or sys.stdout
    err: Callable[[str], None] = lambda text: print(f"fivehundred daily: {text}", file=sys.stderr)  # noqa: E731
    try:
        day = parse_day(args.date) if args.date else today()
    except ValueError as error:
        err(str(error))
        return 2
    if not 1 <= args.boards <= 100:
        err("--boards: 1 to 100")
        return 2
    if args.level not in PLAYERS:
        err(f"--level: one of {', '.join(PLAYERS)}")
        return 2
    name = args.name.strip()[:40] or "you"
    boards = daily_boards(day, args.preset, args.seed, args.boards)
    path = None
    if not args.no_store:
        try:
            where = check_data_dir() / "daily"
        except DataDirError as error:
            err(str(error))
            return 2
        tag = hashlib.sha256(args.seed.encode()).hexdigest()[:8] if args.seed else "offline"
        path = where / f"{day.isoformat()}-{args.preset}-{args.boards}-{tag}.json"
    try:
        daily = DailyDay(boards, set_name(day, args.preset), path)
        if args.import_:
            text = Path(args.import_).read_text(encoding="utf-8")
            added = daily.merge(
                import_text(text) if text.startswith(TEXT_TITLE) else json.loads(text)
            )
            daily.save()
            print(f"{added} results added from {args.import_}", file=out)
    except (OSError, ValueError, RecordError, SaveError) as error:
        err(str(error)[:300])
        return 2
    if args.export or args.text:
        try:
            if args.export:
                Path(args.export).write_text(
                    json.dumps(daily.export(), ensure_ascii=False, indent=1) + "\n",
                    encoding="utf-8",
                )
            if args.text:
                Path(args.text).write_text(daily.text(), encoding="utf-8")
        except OSError as error:
            err(str(error))
            return 2
        return 0
    play = DailyPlay(
        daily, name, args.level, stdin or sys.stdin, out, f"{day}/{args.seed}", not args.no_par
    )
    with contextlib.suppress(BrokenPipeError):
        return play.run()
    return 0
