"""``fivehundred learn``: the tutorial in the terminal (plain line mode).

``fivehundred learn`` starts the first lesson not yet done; ``--lesson N`` (or its name)
replays any lesson; ``--list`` shows them with the ones done. Progress is kept in the
data directory (``learn-progress.json``). Standard input ending stops the lesson
quietly; the lesson is done (and remembered) once its last step is answered.
"""

from __future__ import annotations

import sys
from typing import Any

from fivehundred.learn import store
from fivehundred.learn.lessons import AFTER_LAST, LESSONS, LessonRun, find_lesson, intro_lines
from fivehundred.learn.terminal import read_line, say
from fivehundred.record import one_line
from fivehundred.record_cli import OneLineParser


def main(argv: list[str]) -> int:
    parser = OneLineParser(
        prog="fivehundred learn", description="Learn Five Hundred: short lessons on the real table."
    )
    parser.add_argument("--lesson", metavar="N|NAME", help="play (or replay) this lesson")
    parser.add_argument("--list", action="store_true", help="list the lessons")
    parser.add_argument("--all", action="store_true", help="play every lesson in turn")
    args = parser.parse_args(argv)
    progress = store.load(store.LESSONS_FILE)
    done = set(progress.get("done", [])) if isinstance(progress.get("done"), list) else set()
    if args.list:
        for number, lesson in enumerate(LESSONS, 1):
            mark = "✓" if lesson["id"] in done else " "
            print(f"{mark} {number}. {lesson['title']}  (--lesson {lesson['id']})")
        return 0
    if args.lesson is not None:
        found = find_lesson(args.lesson)
        if found is None:
            names = ", ".join(f"{n} {entry['id']}" for n, entry in enumerate(LESSONS, 1))
            print(
                f"fivehundred learn: no lesson {one_line(repr(args.lesson))}; lessons are {names}",
                file=sys.stderr,
            )
            return 2
        queue = [found]
    elif args.all:
        queue = list(LESSONS)
    else:
        todo = [lesson for lesson in LESSONS if lesson["id"] not in done]
        if not todo:
            print(
                "Every lesson is done. Replay one with --lesson N (--list shows them), or "
                f"play a whole game: {AFTER_LAST['terminal']}"
            )
            return 0
        queue = todo[:1]
    for lesson in queue:
        if not play(lesson):
            return 0
        done.add(lesson["id"])
        progress["done"] = [entry["id"] for entry in LESSONS if entry["id"] in done]
        if not store.save(store.LESSONS_FILE, progress):
            print("(the data directory cannot be written: progress is not kept)")
    return 0


def play(lesson: dict[str, Any]) -> bool:
    """Play one lesson in the terminal; False if the input ended first."""
    number = LESSONS.index(lesson) + 1
    say(f"Lesson {number}: {lesson['title']}")
    for line in intro_lines(lesson, "terminal"):
        say(f"  {line}")
    run = LessonRun(lesson)
    while (question := run.prompt()) is not None:
        say(question)
        text = read_line("> ")
        if text is None or text.lower() in ("q", "quit"):
            return False
        if not text:
            continue
        for line in run.answer(text):
            say(line)
    say(f"Lesson {number} done.")
    if number == len(LESSONS):
        say(f"That was the last lesson. {AFTER_LAST['text']}: {AFTER_LAST['terminal']}")
    return True
