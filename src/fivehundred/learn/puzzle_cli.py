"""``fivehundred puzzle``: the solver's puzzles in the terminal (plain line mode), and
``fivehundred puzzle --generate`` to make a set.

Each puzzle shows every hand (double dummy), the contract and the trick in progress; you
type a card. A card the rules refuse is refused with the reason, and asked again; a legal
card is right or wrong, with the one-line reason, and the solution is played out. The
streak and the success rate by theme are kept in the data directory
(``puzzle-stats.json``).
"""

from __future__ import annotations

import datetime
import json
import sys
from typing import Any

from fivehundred.actions import parse_play
from fivehundred.errors import FiveHundredError
from fivehundred.learn import puzzles as pz
from fivehundred.learn import single, store
from fivehundred.learn.terminal import (
    legal_words,
    names,
    parse_typed,
    played_lines,
    position_lines,
    read_line,
    refusal,
    say,
)
from fivehundred.record import one_line
from fivehundred.record_cli import OneLineParser
from fivehundred.text import play_text


def _parser() -> OneLineParser:
    parser = OneLineParser(
        prog="fivehundred puzzle",
        description="Puzzles made by the double-dummy solver: find the one card that makes "
        "or defeats the contract.",
    )
    parser.add_argument("--id", help="play this puzzle (e.g. p0042)")
    parser.add_argument("--daily", action="store_true", help="the puzzle of the day")
    parser.add_argument("--theme", help="only puzzles of this theme (e.g. 'the duck')")
    parser.add_argument(
        "--difficulty", choices=["easy", "medium", "hard"], help="only puzzles of this grade"
    )
    parser.add_argument(
        "--preset",
        choices=list(pz.BEGINNER_PRESETS),
        help="only puzzles of these rules (e.g. australian, the four-handed game)",
    )
    parser.add_argument(
        "--single",
        action="store_true",
        help="the harder single-dummy series: the defenders' cards hidden",
    )
    parser.add_argument("--count", type=int, default=1, help="puzzles in a row (default 1)")
    parser.add_argument(
        "--stats", action="store_true", help="print the streak and the success rate by theme"
    )
    parser.add_argument("--list", action="store_true", help="list the shipped puzzles")
    parser.add_argument(
        "--generate",
        action="store_true",
        help="make a puzzle set with the solver (needs the 'solver' extra)",
    )
    parser.add_argument("--seed", type=int, default=1, help="--generate: first seed (default 1)")
    parser.add_argument("--out", default="-", help="--generate: file to write (default stdout)")
    parser.add_argument(
        "--verify", metavar="FILE", help="re-check every puzzle of a set (needs the 'solver' extra)"
    )
    return parser


def main(argv: list[str]) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.count < 1 or args.count > 10_000:
        parser.error("--count must be between 1 and 10000")
    if args.generate:
        return _generate(args.seed, args.count, args.out, args.single)
    if args.verify:
        return _verify(args.verify)
    shipped = single.load_single() if args.single else pz.load_shipped()
    if args.preset is not None and args.id is None:
        shipped = [p for p in shipped if p["preset"] == args.preset]
        if not shipped:
            print(f"fivehundred puzzle: no puzzle of the preset {args.preset}", file=sys.stderr)
            return 2
    if args.list:
        for p in shipped:
            grade = pz.GRADES[p["difficulty"]]
            print(f"{p['id']}  {grade:<6} {p['kind']:<9} {p['theme']:<15} {p['preset']}")
        return 0
    stats = store.load(store.PUZZLES_FILE)
    if args.stats:
        print("\n".join(stats_lines(stats)))
        return 0
    chosen = choose(shipped, stats, args.id, args.daily, args.theme, args.difficulty)
    if isinstance(chosen, str):
        print(f"fivehundred puzzle: {chosen}", file=sys.stderr)
        return 2
    queue = [chosen]
    for _ in range(args.count - 1):
        nxt = choose(shipped, _with_seen(stats, queue), None, False, args.theme, args.difficulty)
        if isinstance(nxt, str):
            break
        queue.append(nxt)
    for number, puzzle in enumerate(queue):
        if number:
            print()
        answer = play_puzzle(puzzle)
        if answer is None:
            return 0
        record_answer(stats, puzzle, answer)
        if not store.save(store.PUZZLES_FILE, stats):
            print("(the data directory cannot be written: this answer is not kept)")
    return 0


def _with_seen(stats: dict[str, Any], queue: list[dict[str, Any]]) -> dict[str, Any]:
    seen = dict(stats.get("answers", {}))
    for p in queue:
        seen[p["id"]] = seen.get(p["id"], False)
    return {**stats, "answers": seen}


def choose(
    shipped: list[dict[str, Any]],
    stats: dict[str, Any],
    pid: str | None,
    daily: bool,
    theme: str | None,
    grade: str | None,
) -> dict[str, Any] | str:
    """The puzzle asked for, or the first not yet answered in a newcomer's order (the
    four-handed Australian game first, easiest first: :func:`puzzles.beginner_key`); a
    string says why there is none."""
    if pid is not None:
        for p in shipped:
            if p["id"] == pid:
                return p
        return f"no puzzle {one_line(repr(pid))} (fivehundred puzzle --list)"
    pool = shipped
    if theme is not None:
        pool = [p for p in pool if p["theme"] == theme or p["kind"] == theme]
        if not pool:
            themes = sorted({p["theme"] for p in shipped} | {p["kind"] for p in shipped})
            return f"no theme {one_line(repr(theme))}; themes are {', '.join(themes)}"
    if grade is not None:
        pool = [p for p in pool if pz.GRADES[p["difficulty"]] == grade]
    if not pool:
        return "no puzzle fits"
    if daily:
        day = datetime.date.today().toordinal()
        return pool[day % len(pool)]
    answers = stats.get("answers", {})
    fresh = [p for p in pool if p["id"] not in answers]
    ordered = sorted(fresh or pool, key=pz.beginner_key)
    return ordered[0]


def play_puzzle(puzzle: dict[str, Any]) -> bool | None:
    """Show the puzzle, read a card until a legal one (refusals explained); say right or
    wrong with the reason and play the solution out. None: the input ended."""
    state = pz.replay_puzzle(puzzle)
    two = state.rules.joker_names
    seat = state.to_move
    seat_names = names(state)
    grade = pz.GRADES[puzzle["difficulty"]]
    say(f"Puzzle {puzzle['id']} ({grade}; {puzzle['kind']}; {puzzle['preset']} rules)")
    hidden = puzzle.get("hidden", [])
    played = played_lines(state)
    if played:
        say("Tricks played:")
        say("\n".join(played))
    say("\n".join(position_lines(state, seat, hidden=hidden)))
    goal = "make" if puzzle["goal"] == "make" else "defeat"
    if hidden:
        say(
            f"You are {seat_names[seat]}: find the card that makes the contract however "
            "the defenders' cards lie."
        )
    else:
        say(
            f"You are {seat_names[seat]}: find the card that {goal}s the contract, "
            "with every card in view."
        )
    while True:
        text = read_line("Your card (e.g. 10H or 10♥; ? lists your legal cards, q quits): ")
        if text is None or text.lower() in ("q", "quit"):
            return None
        if text in ("?", "help"):
            say(f"Legal: {legal_words(state)}")
            continue
        if not text:
            continue
        try:
            action = parse_typed(text, "play", state)
            trial = state.clone()
            trial.apply(action)
        except FiveHundredError as error:
            say(refusal(error, state))
            continue
        break
    solution = parse_play(puzzle["solution"])
    right = action == solution
    if right:
        say(f"Right! {puzzle['reason']}")
    elif hidden:
        wins = puzzle["wins"].get(pz_text(action, state), 0)
        say(
            f"Not this time: {play_text(action, two)} makes it in {wins} of the "
            f"{puzzle['layouts']} layouts. {puzzle['reason']}"
        )
    else:
        value = puzzle["values"].get(pz_text(action, state))
        say(
            f"Not this time: {play_text(action, two)} leaves the contracting side "
            f"{value} trick{'s' if value != 1 else ''}. {puzzle['reason']}"
        )
    if hidden:
        say("The cards were:")
        say("\n".join(position_lines(state, seat)[2:]))
    say("The solution played out:")
    current = state.clone()
    trick = [f"{seat_names[s]} {play_text(a, two)}" for s, a in current.current_trick()]
    for text in puzzle["line"]:
        mover = current.to_move
        act = parse_play(text)
        current.apply(act)
        trick.append(f"{seat_names[mover]} {play_text(act, two)}")
        if not current.trick_actions:
            winner = current.tricks[-1].winner
            say(f"  {'  '.join(trick)}   won by {seat_names[winner]}")
            trick = []
    team = [current.contractor, *current.partners]
    total = sum(current.tricks_won[s] for s in team)
    say(f"The contracting side ends with {total} trick{'s' if total != 1 else ''}.")
    return right


def pz_text(action: int, state: Any) -> str:
    from fivehundred.actions import action_text

    return action_text(action, state.rules.joker_names)


def record_answer(stats: dict[str, Any], puzzle: dict[str, Any], right: bool) -> None:
    """Count the answer: the streak, the best streak, the rate by theme and kind."""
    answers = stats.setdefault("answers", {})
    first = puzzle["id"] not in answers
    answers[puzzle["id"]] = bool(answers.get(puzzle["id"])) or right
    stats["streak"] = stats.get("streak", 0) + 1 if right else 0
    stats["best_streak"] = max(stats.get("best_streak", 0), stats["streak"])
    if first:
        for key in (puzzle["theme"], puzzle["kind"], puzzle.get("series", "double-dummy")):
            cell = stats.setdefault("themes", {}).setdefault(key, [0, 0])
            cell[0] += right
            cell[1] += 1


def stats_lines(stats: dict[str, Any]) -> list[str]:
    answers = stats.get("answers", {})
    lines = [
        f"Puzzles answered: {len(answers)}, solved: {sum(map(bool, answers.values()))}; "
        f"streak {stats.get('streak', 0)} (best {stats.get('best_streak', 0)})"
    ]
    themes = stats.get("themes", {})
    for name in sorted(themes):
        right, tried = themes[name]
        lines.append(f"  {name:<16} {right}/{tried} first tries right ({100 * right // tried}%)")
    if not themes:
        lines.append("  (no puzzle answered yet: fivehundred puzzle)")
    return lines


def _generate(seed: int, count: int, out: str, single_dummy: bool = False) -> int:
    try:
        import fivehundred.solver  # noqa: F401
    except ImportError as error:
        print(
            f"fivehundred puzzle: --generate needs the solver: {one_line(error)}", file=sys.stderr
        )
        return 2

    def progress(done: int, total: int) -> None:
        print(f"\r{done}/{total} puzzles", end="", file=sys.stderr, flush=True)

    if single_dummy:
        found = single.generate_single(seed, count, progress)
    else:
        found = pz.generate(seed, count, progress)
    print(file=sys.stderr)
    data = pz.puzzle_set(seed, found)
    if single_dummy:
        data["command"] += " --single"
    text = json.dumps(data, ensure_ascii=False, indent=None)
    if out == "-":
        print(text)
        return 0
    try:
        with open(out, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
    except OSError as error:
        print(
            f"fivehundred puzzle: cannot write {one_line(out)}: {error.strerror or error}",
            file=sys.stderr,
        )
        return 2
    return 0


def _verify(path: str) -> int:
    try:
        import fivehundred.solver  # noqa: F401
    except ImportError as error:
        print(f"fivehundred puzzle: --verify needs the solver: {one_line(error)}", file=sys.stderr)
        return 2
    from fivehundred.errors import RecordError
    from fivehundred.record import load_json

    try:
        data = load_json(path)
        items = data["puzzles"] if isinstance(data, dict) else None
        if not isinstance(items, list):
            raise pz.PuzzleError("not a puzzle set (no 'puzzles' list)")
        for puzzle in items:
            if not isinstance(puzzle, dict):
                raise pz.PuzzleError("a puzzle is not an object")
            if puzzle.get("series") == single.SERIES:
                single.verify_single(puzzle)
            else:
                pz.verify(puzzle)
    except (RecordError, pz.PuzzleError, KeyError, TypeError, ValueError) as error:
        print(f"fivehundred puzzle: {one_line(error)}", file=sys.stderr)
        return 2
    print(f"{len(items)} puzzles hold")
    return 0
