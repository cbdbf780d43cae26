"""Duplicate Five Hundred: boards, their results, matchpoints, travellers and standings.

A *board* is a deal (the four hands and the kitty), a dealer and a preset, with a
number. Every table that plays a board gets the same cards in the same seats. A board's
*result* at a table is the hand's score for each side as the rule book scores a hand on
its own (R-SCORE: the contract made or failed, the defenders' tricks; no game-level
effect such as the 490 rule or the target), and its *net*, North-South's points less
East-West's. Each result keeps the hand's record (``fivehundred-hand/1``), which replays.

Results on a board are compared in the same direction (North-South with North-South):
2 matchpoints for every result beaten, 1 for every tie, shown as a percentage of the
top (2 a result compared). The *traveller* lists every result of a board, with its par
(the double-dummy par, :mod:`fivehundred.solver.par`) on top. See docs/duplicate.md.

>>> boards = make_boards("2026-12-06", 2)
>>> [board.number for board in boards], boards[0].dealer, boards[1].dealer
([1, 2], 0, 1)
>>> make_boards("2026-12-06", 2) == boards
True
"""

from __future__ import annotations

import bisect
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from fivehundred.actions import (
    BID_BASE,
    NUM_ACTIONS,
    Action,
    action_text,
    is_misere,
    parse_call,
)
from fivehundred.cards import CardMask, mask_text
from fivehundred.errors import RecordError
from fivehundred.game import HandState
from fivehundred.record import hand_record, parse_deal, replay_hand
from fivehundred.rules import PRESETS, Rules, make_rules
from fivehundred.scoring import side_of_seats
from fivehundred.text import hand_text
from fivehundred.words import contract_label, seat_name

BOARDS_FORMAT = "fivehundred-boards/1"
#: The first line of a board set as text (:func:`set_text`), then ``: name``.
TEXT_TITLE = "Five Hundred boards"
#: The longest board set as text that :func:`import_text` reads, and its longest line.
MAX_TEXT = 4_000_000
MAX_LINE = 2_000
#: The most boards a set holds (a day has twelve; an event a few dozen).
MAX_BOARDS = 200
#: The most results one board holds in an exported set.
MAX_RESULTS = 100_000
#: The longest entrant name kept.
MAX_NAME = 80
NS, EW = 0, 1
DIRECTIONS = ("NS", "EW")


def check_rules(rules: Rules) -> None:
    """Raise ValueError unless these rules can be played as duplicate boards: four seats in
    two partnerships (North-South against East-West), no dummies or dead hands."""
    if (
        rules.players != 4
        or rules.seats != 4
        or rules.dummies
        or rules.two_live
        or side_of_seats(rules) != (0, 1, 0, 1)
    ):
        raise ValueError(
            f"boards need four players in two partnerships, not the rules {rules.describe()!r}"
        )


def board_presets() -> list[str]:
    """The presets that can be played as boards (four players, two partnerships)."""
    out = []
    for name in PRESETS:
        try:
            check_rules(make_rules(name))
        except ValueError:
            continue
        out.append(name)
    return out


@dataclass(frozen=True)
class Board:
    """One deal to be played at every table: ``hands`` by seat (0 South, then clockwise)
    and the ``kitty``, as card masks."""

    number: int
    preset: str
    dealer: int
    hands: tuple[CardMask, ...]
    kitty: CardMask

    @property
    def rules(self) -> Rules:
        return make_rules(self.preset)

    def start(self) -> HandState:
        """The hand as dealt, about to be bid."""
        return HandState(self.rules, self.dealer, self.hands, self.kitty)

    def to_dict(self) -> dict[str, Any]:
        two = self.rules.joker_names
        return {
            "number": self.number,
            "preset": self.preset,
            "dealer": self.dealer,
            "hands": [mask_text(hand, two) for hand in self.hands],
            "kitty": mask_text(self.kitty, two),
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "board") -> Board:
        """A board from :meth:`to_dict`, every card checked against the pack (R-PACK)."""
        if not isinstance(data, Mapping):
            raise RecordError(where, "must be a JSON object")
        number = data.get("number")
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 10**6:
            raise RecordError(f"{where}.number", "must be a whole number from 1")
        preset = data.get("preset", "australian")
        if preset not in PRESETS:
            raise RecordError(f"{where}.preset", f"unknown preset {str(preset)[:40]!r}", "R-PRESET")
        rules = make_rules(preset)
        try:
            check_rules(rules)
        except ValueError as error:
            raise RecordError(f"{where}.preset", str(error), "R-PRESET") from error
        dealer, hands, kitty, _ = parse_deal(data, rules, where)
        return cls(number, preset, dealer, tuple(hands), kitty)


def make_board(seed: str | int, number: int, preset: str = "australian") -> Board:
    """Board ``number`` of the set of ``seed``: the same seed and number always give the
    same cards. The dealer turns round the table from South on board 1 (R-DEAL)."""
    rules = make_rules(preset)
    check_rules(rules)
    dealer = (number - 1) % rules.seats
    state = HandState.deal(rules, dealer, seed=f"board/{preset}/{seed}/{number}")
    return Board(number, preset, dealer, tuple(state.dealt), state.kitty_dealt)


def make_boards(seed: str | int, count: int, preset: str = "australian") -> list[Board]:
    """Boards 1 … ``count`` of the set of ``seed`` (deterministic)."""
    if not 1 <= count <= MAX_BOARDS:
        raise ValueError(f"a set has 1 to {MAX_BOARDS} boards, not {count}")
    return [make_board(seed, number, preset) for number in range(1, count + 1)]


@dataclass(frozen=True)
class Par:
    """The double-dummy par of a board (computed by :mod:`fivehundred.solver.par`): the
    contract (-1 when the par is to pass the hand in), its contractor, the contracting
    side's tricks (the misère contractor's own), and the points of each side."""

    contract: Action
    contractor: int
    tricks: int
    points: tuple[int, int]

    @property
    def net(self) -> int:
        return self.points[NS] - self.points[EW]

    def to_dict(self) -> dict[str, Any]:
        return {
            "contract": action_text(self.contract) if self.contract >= 0 else None,
            "contractor": self.contractor,
            "tricks": self.tricks,
            "points": list(self.points),
        }

    @classmethod
    def from_dict(cls, data: Any, where: str = "par") -> Par:
        if not isinstance(data, Mapping):
            raise RecordError(where, "must be a JSON object")
        text = data.get("contract")
        try:
            contract = -1 if text is None else parse_call(str(text)[:20])
        except ValueError as error:
            raise RecordError(f"{where}.contract", str(error), "R-BID") from error
        contractor = _small_int(data.get("contractor"), f"{where}.contractor", -1, 3)
        tricks = _small_int(data.get("tricks"), f"{where}.tricks", 0, 10)
        points = data.get("points")
        if not isinstance(points, list) or len(points) != 2:
            raise RecordError(f"{where}.points", "must be two numbers")
        return cls(
            contract,
            contractor,
            tricks,
            (
                _small_int(points[0], f"{where}.points[0]", -10_000, 10_000),
                _small_int(points[1], f"{where}.points[1]", -10_000, 10_000),
            ),
        )

    def label(self, rules: Rules) -> str:
        """``4♥ by North, 10 tricks: NS +300`` style words; ``passed in`` with no contract."""
        if self.contract < BID_BASE:
            return "passed in: 0"
        return (
            f"{contract_label(self.contract, rules.joker_names)} by "
            f"{seat_name(self.contractor, rules.seats)}, {self.tricks} "
            f"{'trick' if self.tricks == 1 else 'tricks'}: NS {self.net:+d}"
        )


def _small_int(value: Any, where: str, low: int, high: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise RecordError(where, f"must be a whole number from {low} to {high}")
    return value


@dataclass(frozen=True)
class BoardResult:
    """One table's result on a board. ``seat`` is the seat the entrant sat in (0, South,
    unless said); ``tricks`` the contracting side's tricks (in misère the contractor's
    own); ``points`` the hand's points for North-South and East-West."""

    board: int
    entrant: str
    seat: int
    contract: Action
    contractor: int
    tricks: int
    points: tuple[int, int]
    record: dict[str, Any] = field(compare=False, repr=False)

    @property
    def net(self) -> int:
        """North-South's points less East-West's."""
        return self.points[NS] - self.points[EW]

    @property
    def direction(self) -> int:
        """The entrant's direction: :data:`NS` or :data:`EW`."""
        return self.seat % 2

    @property
    def own_net(self) -> int:
        """The net from the entrant's direction."""
        return self.net if self.direction == NS else -self.net

    @classmethod
    def from_state(cls, board: Board, entrant: str, state: HandState, seat: int = 0) -> BoardResult:
        """The result of a finished hand of ``board``."""
        if not state.is_over:
            raise ValueError("the hand is not over")
        if tuple(state.dealt) != board.hands or state.kitty_dealt != board.kitty:
            raise ValueError(f"this hand was not dealt from board {board.number}")
        if not 0 <= seat < 4:
            raise ValueError(f"no seat {seat}")
        result = state.result
        tricks = 0
        if result.contract >= 0:
            team = {result.contractor, *state.partners}
            if is_misere(result.contract):
                team = {result.contractor}
            tricks = sum(result.tricks_won[s] for s in team)
        return cls(
            board.number,
            entrant[:MAX_NAME],
            seat,
            result.contract,
            result.contractor,
            tricks,
            (result.points[NS], result.points[EW]),
            hand_record(state),
        )

    @classmethod
    def from_record(
        cls, board: Board, entrant: str, record: Any, seat: int = 0, where: str = "record"
    ) -> BoardResult:
        """Replay a hand record of ``board`` (every step checked) and take its result."""
        state = replay_hand(record, prefix=where)
        if state.rules != board.rules:
            raise RecordError(f"{where}.rules", f"are not board {board.number}'s rules")
        if not state.is_over:
            raise RecordError(where, "the hand is not finished")
        try:
            return cls.from_state(board, entrant, state, seat)
        except ValueError as error:
            raise RecordError(where, str(error), "R-DEAL") from error

    def replay(self) -> HandState:
        """The hand, replayed from its record."""
        return replay_hand(self.record)

    def label(self, rules: Rules) -> str:
        """The contract in words: ``7♥ by West``, or ``passed in``."""
        if self.contract < BID_BASE:
            return "passed in"
        return (
            f"{contract_label(self.contract, rules.joker_names)} by "
            f"{seat_name(self.contractor, rules.seats)}"
        )

    def to_dict(self) -> dict[str, Any]:
        return {"entrant": self.entrant, "seat": self.seat, "record": self.record}


# ------------------------------------------------------------------------ matchpoints
@dataclass(frozen=True)
class Score:
    """A result's matchpoints against the others on its board in its direction, out of
    ``top`` (2 for each other result); ``percent`` is 50 when it was the only one."""

    matchpoints: int
    top: int

    @property
    def percent(self) -> float:
        return 50.0 if self.top == 0 else 100.0 * self.matchpoints / self.top


def matchpoints(results: Sequence[BoardResult]) -> list[Score]:
    """Each result's score on one board, compared with the results in the same direction:
    2 for every result it beats, 1 for every tie (its net from its own direction)."""
    if len({r.board for r in results}) > 1:
        raise ValueError("matchpoints compare the results of one board")
    # each direction's nets in order: a result beats those below it, ties those equal
    # (itself aside); two searches each, so a field of thousands is scored at once
    fields = [sorted(r.own_net for r in results if r.direction == d) for d in (NS, EW)]
    scores = []
    for result in results:
        field_ = fields[result.direction]
        mine = result.own_net
        beaten = bisect.bisect_left(field_, mine)
        ties = bisect.bisect_right(field_, mine) - beaten - 1
        scores.append(Score(2 * beaten + ties, 2 * (len(field_) - 1)))
    return scores


@dataclass(frozen=True)
class TravellerRow:
    result: BoardResult
    score: Score
    #: The result's net from its direction less the par's from the same direction.
    against_par: int | None


@dataclass(frozen=True)
class Traveller:
    """Every result of a board, best North-South net first, and the par on top."""

    board: Board
    par: Par | None
    rows: tuple[TravellerRow, ...]

    def to_dict(self) -> dict[str, Any]:
        rules = self.board.rules
        return {
            "board": self.board.number,
            "par": None if self.par is None else {**self.par.to_dict(), "net": self.par.net},
            "results": [
                {
                    "entrant": row.result.entrant,
                    "direction": DIRECTIONS[row.result.direction],
                    "contract": row.result.label(rules),
                    "contractor": row.result.contractor,
                    "tricks": row.result.tricks,
                    "points": list(row.result.points),
                    "net": row.result.net,
                    "matchpoints": row.score.matchpoints,
                    "top": row.score.top,
                    "percent": round(row.score.percent, 1),
                    "against_par": row.against_par,
                }
                for row in self.rows
            ],
        }

    def text(self) -> str:
        """The traveller as a plain-text table."""
        rules = self.board.rules
        lines = [f"Board {self.board.number}"]
        if self.par is not None:
            ns, ew = self.par.points
            lines.append(f"  Par: {self.par.label(rules)} (NS {ns}, EW {ew})")
        lines.append(
            f"  {'entrant':<16} {'contract':<22} {'tricks':>6} {'NS':>5} {'EW':>5} "
            f"{'MP':>5} {'%':>6} {'vs par':>6}"
        )
        for row in self.rows:
            r = row.result
            against = "" if row.against_par is None else f"{row.against_par:+d}"
            lines.append(
                f"  {r.entrant[:16]:<16} {r.label(rules)[:22]:<22} {r.tricks:>6} "
                f"{r.points[NS]:>5} {r.points[EW]:>5} {row.score.matchpoints:>5} "
                f"{row.score.percent:>6.1f} {against:>6}"
            )
        return "\n".join(lines)


def traveller(board: Board, results: Sequence[BoardResult], par: Par | None = None) -> Traveller:
    """The traveller of ``board``: every result with its matchpoints and points against par."""
    scores = matchpoints(results)
    rows = []
    for result, score in zip(results, scores, strict=True):
        against = None
        if par is not None:
            par_net = par.net if result.direction == NS else -par.net
            against = result.own_net - par_net
        rows.append(TravellerRow(result, score, against))
    rows.sort(key=lambda row: (-row.result.net, row.result.entrant))
    return Traveller(board, par, tuple(rows))


@dataclass(frozen=True)
class Standing:
    """An entrant's place over a set of boards: the mean of their board percentages."""

    place: int
    entrant: str
    boards: int
    percent: float
    against_par: int | None


#: One board's scores: each result's entrant, percentage and points against par (None
#: without a par), in the results' order (:func:`board_scores`).
BoardScores = list[tuple[str, float, int | None]]


def board_scores(on_board: Sequence[BoardResult], par: Par | None = None) -> BoardScores:
    """Each result's percentage on one board (as :func:`matchpoints` scores it, worked out
    once for each net in each direction: a field of thousands has a few dozen) and its
    points against ``par``."""
    nets = [(r.entrant, r.seat % 2, r.own_net) for r in on_board]
    fields = [sorted(net for _, d, net in nets if d == direction) for direction in (NS, EW)]
    scored: dict[tuple[int, int], float] = {}
    out: BoardScores = []
    for entrant, direction, net in nets:
        key = (direction, net)
        if key not in scored:
            field_ = fields[direction]
            beaten = bisect.bisect_left(field_, net)
            ties = bisect.bisect_right(field_, net) - beaten - 1
            scored[key] = Score(2 * beaten + ties, 2 * (len(field_) - 1)).percent
        against = None
        if par is not None:
            against = net - (par.net if direction == NS else -par.net)
        out.append((entrant, scored[key], against))
    return out


def ranked(boards: Iterable[BoardScores], with_pars: bool = True) -> list[Standing]:
    """The standings of boards' scores (:func:`board_scores`), the boards in order: each
    entrant's mean percentage, best first (equal percentages share a place), and with
    ``with_pars`` their points against par summed over the boards that have a par."""
    totals: dict[str, list[float]] = {}
    against: dict[str, int] = {}
    for scores in boards:
        for entrant, percent, points in scores:
            total = totals.setdefault(entrant, [0.0, 0])
            total[0] += percent
            total[1] += 1
            if points is not None:
                against[entrant] = against.get(entrant, 0) + points
    rows = sorted(
        ((sum_ / count, name, int(count)) for name, (sum_, count) in totals.items()),
        key=lambda row: (-row[0], row[1]),
    )
    out: list[Standing] = []
    for index, (percent, name, count) in enumerate(rows):
        place = out[-1].place if out and abs(out[-1].percent - percent) < 1e-9 else index + 1
        out.append(Standing(place, name, count, percent, against.get(name) if with_pars else None))
    return out


def standings(
    results: Iterable[BoardResult], pars: Mapping[int, Par] | None = None
) -> list[Standing]:
    """Every entrant's mean percentage over the boards they played, best first (equal
    percentages share a place); ``against_par`` sums their points against par over the
    boards that have a par."""
    by_board: dict[int, list[BoardResult]] = {}
    for result in results:
        by_board.setdefault(result.board, []).append(result)
    scores = (board_scores(on_board, (pars or {}).get(n)) for n, on_board in by_board.items())
    return ranked(scores, bool(pars))


# ------------------------------------------------------------------------ export
def export_set(
    boards: Sequence[Board],
    results: Iterable[BoardResult] = (),
    pars: Mapping[int, Par] | None = None,
    name: str = "",
) -> dict[str, Any]:
    """A board set with its results and pars as ``fivehundred-boards/1`` JSON: each
    result is the hand's own record (``fivehundred-hand/1``)."""
    by_board: dict[int, list[dict[str, Any]]] = {}
    for result in results:
        by_board.setdefault(result.board, []).append(result.to_dict())
    out: dict[str, Any] = {"format": BOARDS_FORMAT}
    if name:
        out["name"] = name[:MAX_NAME]
    out["boards"] = []
    for board in boards:
        entry = board.to_dict()
        if pars and board.number in pars:
            entry["par"] = pars[board.number].to_dict()
        entry["results"] = by_board.get(board.number, [])
        out["boards"].append(entry)
    return out


@dataclass
class BoardSet:
    """A re-imported board set: the boards, every result (replayed) and the pars given."""

    boards: list[Board]
    results: list[BoardResult]
    pars: dict[int, Par]
    name: str = ""

    def board(self, number: int) -> Board:
        for board in self.boards:
            if board.number == number:
                return board
        raise KeyError(number)


def import_set(data: Any) -> BoardSet:
    """Read :func:`export_set`'s JSON back, replaying every result's record against its
    board (a record that does not replay, or was not dealt from its board, is an error
    saying where)."""
    if isinstance(data, str | bytes):
        data = json.loads(data)
    if not isinstance(data, Mapping) or data.get("format") != BOARDS_FORMAT:
        raise RecordError("format", f"must be {BOARDS_FORMAT!r}")
    raw_boards = data.get("boards")
    if not isinstance(raw_boards, list) or not 1 <= len(raw_boards) <= MAX_BOARDS:
        raise RecordError("boards", f"must be a list of 1 to {MAX_BOARDS} boards")
    boards: list[Board] = []
    results: list[BoardResult] = []
    pars: dict[int, Par] = {}
    for index, raw in enumerate(raw_boards):
        where = f"boards[{index}]"
        board = Board.from_dict(
            {k: v for k, v in raw.items() if k not in ("par", "results")}
            if isinstance(raw, Mapping)
            else raw,
            where,
        )
        if any(b.number == board.number for b in boards):
            raise RecordError(f"{where}.number", f"board {board.number} appears twice")
        boards.append(board)
        if raw.get("par") is not None:
            pars[board.number] = Par.from_dict(raw["par"], f"{where}.par")
        raw_results = raw.get("results", [])
        if not isinstance(raw_results, list) or len(raw_results) > MAX_RESULTS:
            raise RecordError(f"{where}.results", f"must be a list of at most {MAX_RESULTS}")
        for k, entry in enumerate(raw_results):
            place = f"{where}.results[{k}]"
            if not isinstance(entry, Mapping):
                raise RecordError(place, "must be a JSON object")
            entrant = entry.get("entrant")
            if not isinstance(entrant, str) or not 0 < len(entrant) <= MAX_NAME:
                raise RecordError(
                    f"{place}.entrant", f"must be a name of 1 to {MAX_NAME} characters"
                )
            seat = _small_int(entry.get("seat", 0), f"{place}.seat", 0, 3)
            results.append(
                BoardResult.from_record(
                    board, entrant, entry.get("record"), seat, f"{place}.record"
                )
            )
    name = data.get("name", "")
    return BoardSet(boards, results, pars, name[:MAX_NAME] if isinstance(name, str) else "")


def set_text(
    boards: Sequence[Board],
    results: Iterable[BoardResult] = (),
    pars: Mapping[int, Par] | None = None,
    name: str = "",
) -> str:
    """A board set as a plain-text hand record a person can print: each board's four hands
    and kitty, then its traveller (par on top); standings at the end."""
    results = list(results)
    lines = [f"{TEXT_TITLE}: {name[:MAX_NAME]}" if name else TEXT_TITLE]
    for board in boards:
        rules = board.rules
        two = rules.joker_names
        lines.append(
            f"Board {board.number}  dealer {seat_name(board.dealer, rules.seats)}  "
            f"({rules.describe()})"
        )
        for seat, hand in enumerate(board.hands):
            lines.append(f"  {seat_name(seat, rules.seats):<6} {hand_text(hand, None, two)}")
        lines.append(f"  {'Kitty':<6} {hand_text(board.kitty, None, two)}")
        on_board = [r for r in results if r.board == board.number]
        par = (pars or {}).get(board.number)
        if on_board or par is not None:
            lines.append(traveller(board, on_board, par).text())
        for result in on_board:  # each hand's every move: the set re-imports and replays
            moves = " ".join(action_text(a, two) for a in result.replay().history)
            lines.append(
                f"  Play of {json.dumps(result.entrant, ensure_ascii=False)} from "
                f"{seat_name(result.seat, rules.seats)}: {moves}"
            )
        lines.append("")
    if results:
        lines.append("Standings")
        for row in standings(results, pars):
            against = "" if row.against_par is None else f"  {row.against_par:+d} against par"
            lines.append(
                f"  {row.place:>3}. {row.entrant[:30]:<30} {row.percent:6.1f}%  "
                f"({row.boards} {'board' if row.boards == 1 else 'boards'}){against}"
            )
    return "\n".join(lines).rstrip() + "\n"


_SYMBOLS = str.maketrans({"♠": "S", "♣": "C", "♦": "D", "♥": "H"})
_BOARD_LINE = re.compile(r"Board (\d{1,7})  dealer (\w+)  \((\w{1,40})\)")
_PAR_LINE = re.compile(
    r"  Par: (passed in: 0|(.{1,40}) by (\w+), (\d{1,2}) tricks?: NS [+-]\d{1,5})"
    r" \(NS (-?\d{1,5}), EW (-?\d{1,5})\)"
)
_PLAY_LINE = re.compile(r"  Play of (\".{1,400}\") from (\w+): (.{0,1500})")


def import_text(text: str) -> BoardSet:
    """Read :func:`set_text`'s plain text back: each board's hands and kitty, its par and
    every result, replayed move by move from its ``Play of`` line (each move must be legal
    where it is made); the travellers and standings printed are worked out again, not read.
    A line that is not as :func:`set_text` writes it is an error saying which
    (:class:`RecordError`, ``line N``)."""
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise RecordError("text", f"must be a text of at most {MAX_TEXT} characters")
    lines = text.splitlines()
    if not lines or not (lines[0] == TEXT_TITLE or lines[0].startswith(TEXT_TITLE + ": ")):
        raise RecordError("line 1", f"must be {TEXT_TITLE!r} (and the set's name)")
    name = lines[0][len(TEXT_TITLE) + 2 :][:MAX_NAME]
    boards: list[Board] = []
    results: list[BoardResult] = []
    pars: dict[int, Par] = {}
    seats = {seat_name(s, 4): s for s in range(4)}
    pending: dict[str, Any] | None = None  # the board being read, until its kitty
    for number, line in enumerate(lines[1:], start=2):
        where = f"line {number}"
        if len(line) > MAX_LINE:
            raise RecordError(where, f"is longer than {MAX_LINE} characters")
        board_line = _BOARD_LINE.fullmatch(line)
        if board_line:
            if len(boards) >= MAX_BOARDS:
                raise RecordError(where, f"a set has at most {MAX_BOARDS} boards")
            if board_line[2] not in seats:
                raise RecordError(where, f"no seat {board_line[2]!r}")
            pending = {
                "number": int(board_line[1]),
                "preset": board_line[3],
                "dealer": seats[board_line[2]],
                "hands": [],
            }
            continue
        if pending is not None:  # the four hands, then the kitty
            label = "Kitty" if len(pending["hands"]) == 4 else seat_name(len(pending["hands"]))
            if not line.startswith(f"  {label:<6} "):
                raise RecordError(where, f"must be the {label} line of the board")
            cards = [c.translate(_SYMBOLS) for c in line[9:].split()]
            if label != "Kitty":
                pending["hands"].append(cards)
                continue
            pending["kitty"] = cards
            board = Board.from_dict(pending, where)
            if any(b.number == board.number for b in boards):
                raise RecordError(where, f"board {board.number} appears twice")
            boards.append(board)
            pending = None
            continue
        if not boards:
            if line.strip():
                raise RecordError(where, "a board must come first")
            continue
        board = boards[-1]
        if line.startswith("  Par: "):
            pars[board.number] = _par_line(board, line, where)
        elif line.startswith("  Play of "):
            if len(results) >= MAX_RESULTS:
                raise RecordError(where, f"a set has at most {MAX_RESULTS} results")
            results.append(_play_line(board, line, where, seats))
    if pending is not None:
        raise RecordError(f"line {len(lines)}", "the last board is not complete")
    if not boards:
        raise RecordError("text", "has no board")
    return BoardSet(boards, results, pars, name)


def _par_line(board: Board, line: str, where: str) -> Par:
    found = _PAR_LINE.fullmatch(line)
    if not found:
        raise RecordError(where, "is not a par line (Par: 7♥ by North, 8 tricks: NS +200 …)")
    points = (int(found[5]), int(found[6]))
    if found[2] is None:
        return Par(-1, -1, 0, points)
    rules = board.rules
    two = rules.joker_names
    calls = {contract_label(a, two): a for a in range(BID_BASE, NUM_ACTIONS)}
    contract = calls.get(found[2])
    seats = {seat_name(s, 4): s for s in range(4)}
    if contract is None or found[3] not in seats:
        raise RecordError(where, f"no contract {found[2][:40]!r} by {found[3][:10]!r}")
    par = Par(contract, seats[found[3]], int(found[4]), points)
    if par.label(rules) + f" (NS {points[0]}, EW {points[1]})" != line[len("  Par: ") :]:
        raise RecordError(where, "the par's figures do not agree")
    return par


def _play_line(board: Board, line: str, where: str, seats: Mapping[str, int]) -> BoardResult:
    found = _PLAY_LINE.fullmatch(line)
    if not found:
        raise RecordError(where, 'is not a play line (Play of "name" from South: …)')
    try:
        entrant = json.loads(found[1])
    except ValueError as error:
        raise RecordError(where, "the entrant's name is not a quoted name") from error
    if not isinstance(entrant, str) or not 0 < len(entrant) <= MAX_NAME:
        raise RecordError(where, f"the entrant's name must have 1 to {MAX_NAME} characters")
    if found[2] not in seats:
        raise RecordError(where, f"no seat {found[2][:10]!r}")
    state = board.start()
    two = state.rules.joker_names
    for k, move in enumerate(found[3].split()):
        if state.is_over:
            raise RecordError(f"{where}, move {k + 1}", "the hand is already over")
        legal = {action_text(a, two): a for a in state.legal_actions()}
        if move not in legal:
            raise RecordError(f"{where}, move {k + 1}", f"{move[:12]!r} is not legal here")
        state.apply(legal[move])
    if not state.is_over:
        raise RecordError(where, "the hand is not finished")
    return BoardResult.from_state(board, entrant, state, seats[found[2]])
