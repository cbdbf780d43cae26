"""The learning pages' endpoints: the puzzles, the tutorial and the review of a finished
game, in the browser. The Python side is the learn package's own (puzzles,
lessons, review); the pages draw what these endpoints say and keep no rules of their own.

- ``GET /learn`` (the tutorial) and ``GET /learn/puzzles`` (the puzzles): the pages.
- ``GET /api/learn/puzzles``: the shipped puzzles (filtered by theme, difficulty, series,
  preset) in a newcomer's order (``order``; ``start``: the four-handed Australian game's
  easiest) and the puzzle of the day; ``GET /api/learn/puzzles/{id}``: its position, every card in
  view (the single-dummy series hides the defenders'); ``POST /api/learn/puzzles/{id}/answer``
  with ``{"card": "10H"}``: refused by the engine with its reason, or right or wrong with
  the one-line reason and the solution played out.
- ``GET /api/learn/lessons``: the lessons; ``POST /api/learn/lessons/{id}`` with
  ``{"answers": [...], "text": "..."}``: the lesson replayed on the engine through the
  answers it accepted so far, then ``text`` answered (stateless: the browser keeps the
  answers), with the position and what the table said, the web's words (``intro``,
  ``ask``: no terminal typing instructions), ``answer_kind``, ``legal_choices``, a
  quiz's ``choices`` (the answers to choose from, the right one among them) and ``next``
  (the next lesson, after the last a game).
- ``GET /api/tables/{code}/review?seat=N``: the review of a finished game for one seat,
  computed in the analysis worker process (``{"status": "running"}`` until it is ready).

Every input is bounded: ids are matched against the shipped ones, texts and lists have
a size limit; a bad one gets a 4xx with one line.
"""

from __future__ import annotations

import asyncio
import datetime
import functools
import json
import logging
import re
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field

from fivehundred.actions import BID_BASE, CLAIM, action_text, parse_play
from fivehundred.errors import FiveHundredError
from fivehundred.game import HandState
from fivehundred.learn import puzzles as pz
from fivehundred.learn.lessons import (
    LESSONS,
    LessonRun,
    ask_text,
    find_lesson,
    intro_lines,
    next_after,
    quiz_choices,
)
from fivehundred.learn.single import load_single
from fivehundred.learn.terminal import (
    action_words,
    names,
    parse_typed,
    played_tricks,
    refusal,
    shown_ctx,
)
from fivehundred.scoring import side_of_seats, tricks_by_side
from fivehundred.text import call_text, play_text
from fivehundred.web.guard import Counts, address_key
from fivehundred.web.views import card_words_of
from fivehundred.words import hand_order, side_names

log = logging.getLogger("fivehundred.web.learn")
router = APIRouter()
STATIC_DIR = Path(__file__).with_name("static")
#: Answers a lesson may be replayed through (the whole hand needs about 20).
MAX_ANSWERS = 200
#: Characters of one typed answer.
MAX_TEXT = 40
#: Reviews kept in memory.
MAX_REVIEWS = 64
#: Reviews waiting for the analysis worker or running at once; beyond, 503 (try later).
MAX_PENDING_REVIEWS = 4
#: Of those, one visitor (an address) may have this many at once.
REVIEWS_PER_VISITOR = 1
#: The longest game reviewed (hands): each hand's calls are valued on sampled deals.
MAX_REVIEW_HANDS = 40
ID_PATTERN = re.compile(r"[a-z0-9-]{1,20}")


# ----------------------------------------------------------------------------- pages
@router.get("/learn", include_in_schema=False)
async def tutorial_page() -> FileResponse:
    return FileResponse(STATIC_DIR / "learn.html")


@router.get("/learn/puzzles", include_in_schema=False)
async def puzzles_page() -> FileResponse:
    return FileResponse(STATIC_DIR / "puzzles.html")


# ----------------------------------------------------------------------------- positions
def _card_list(state: HandState, mask: int) -> list[str]:
    two = state.rules.joker_names
    return [action_text(c, two) for c in hand_order(mask, shown_ctx(state))]


def _trump(state: HandState) -> int:
    ctx = shown_ctx(state)
    return ctx.trump if ctx is not None else -1


def _card_labels(state: HandState, mask: int) -> list[str]:
    """The cards of :func:`_card_list` in words, for a screen reader (``jack of hearts,
    right bower``)."""
    trump = _trump(state)
    return [action_words(c, state.rules, trump) for c in hand_order(mask, shown_ctx(state))]


def _play_entry(state: HandState, seat: int, action: int) -> dict[str, Any]:
    two = state.rules.joker_names
    name = names(state)[seat]
    return {
        "seat": seat,
        "name": name,
        "card": action_text(action, two),
        "text": play_text(action, two),
        "label": f"{name}: {action_words(action, state.rules, _trump(state))}",
    }


def position(
    state: HandState, you: int, show_all: bool = True, hidden: tuple[int, ...] | list[int] = ()
) -> dict[str, Any]:
    """The position as the pages draw it: the contract, the tricks, every seat's cards
    (only ``you``'s unless ``show_all``; ``hidden`` seats as a count), the trick in
    progress, and ``you``'s legal actions (record notation) when it is their turn.

    Beside the symbols, words for a screen reader: each seat's ``labels`` (its cards in
    words, in the order of ``cards``), each trick play's ``label`` (``West: ace of
    spades``), ``legal_labels`` (in the order of ``legal``). ``played``: the tricks already
    played this hand (every player saw them), each ``{"plays": [...], "winner": seat,
    "winner_name": ...}``. The hands are in the table's display order (trumps first, the
    left bower among them) from the moment the contract is known."""
    rules = state.rules
    two = rules.joker_names
    seat_names = names(state)
    out: dict[str, Any] = {"phase": state.phase, "to_move": None, "you": you}
    out["words"] = card_words_of(rules)  # what the page says for each card
    if not state.is_over:
        out["to_move"] = state.to_move
        out["to_move_name"] = seat_names[state.to_move]
    if state.contract >= BID_BASE and state.contractor >= 0:
        out["contract"] = call_text(state.contract, two)
        out["contractor"] = seat_names[state.contractor]
        out["partners"] = [seat_names[s] for s in state.partners]
        teams = side_names(rules.seats, side_of_seats(rules))
        won = tricks_by_side(rules, state.tricks_won)
        out["tricks"] = [{"side": t, "won": n} for t, n in zip(teams, won, strict=True)]
        out["tricks_left"] = rules.pack.hand_size - len(state.tricks)
    seats = []
    for seat in range(rules.seats):
        entry: dict[str, Any] = {"seat": seat, "name": seat_names[seat], "you": seat == you}
        if state.active and seat not in state.active:
            entry["sits_out"] = True
        elif seat in hidden:
            entry["hidden"] = state.hands[seat].bit_count()
        elif show_all or seat == you:
            entry["cards"] = _card_list(state, state.hands[seat])
            entry["labels"] = _card_labels(state, state.hands[seat])
        else:
            entry["hidden"] = state.hands[seat].bit_count()
        seats.append(entry)
    out["seats"] = seats
    out["trick"] = [
        _play_entry(state, s, a)
        for s, a in zip(state.trick_seats, state.trick_actions, strict=True)
    ]
    out["played"] = [
        {
            "plays": [_play_entry(state, s, a) for s, a in plays],
            "winner": winner,
            "winner_name": seat_names[winner],
        }
        for plays, winner in played_tricks(state)
    ]
    if state.auction.calls:
        out["auction"] = [
            {"name": seat_names[s], "call": call_text(a, two)} for s, a in state.auction.calls
        ]
    if not state.is_over and state.to_move == you:
        legal = [a for a in state.legal_actions() if a != CLAIM]
        out["legal"] = [action_text(a, two) for a in legal]
        out["legal_labels"] = [action_words(a, rules, _trump(state)) for a in legal]
    return out


def _bounded_text(text: str) -> str:
    if len(text) > MAX_TEXT:
        raise HTTPException(422, f"text: at most {MAX_TEXT} characters")
    return text


# ----------------------------------------------------------------------------- puzzles
@functools.cache
def _puzzles() -> dict[str, dict[str, Any]]:
    found = {p["id"]: {**p, "series": "double-dummy"} for p in pz.load_shipped()}
    for p in load_single():
        found[p["id"]] = {**p, "series": "single-dummy"}
    return found


def _summary(p: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": p["id"],
        "theme": p["theme"],
        "kind": p["kind"],
        "goal": p["goal"],
        "difficulty": pz.GRADES[p["difficulty"]],
        "series": p["series"],
        "preset": p["preset"],
        "contract": p["contract"],
    }


def _puzzle_or_404(pid: str) -> dict[str, Any]:
    puzzle = _puzzles().get(pid) if ID_PATTERN.fullmatch(pid) else None
    if puzzle is None:
        raise HTTPException(404, f"no puzzle {pid[:20]!r}")
    return puzzle


def _preset_entry(name: str, count: int) -> dict[str, Any]:
    from fivehundred.rules import make_rules

    players = make_rules(name).players
    return {
        "name": name,
        "label": name.replace("_", " "),
        "players": players,
        "count": count,
    }


@router.get("/api/learn/puzzles")
async def list_puzzles(
    theme: Annotated[str | None, Query(max_length=40)] = None,
    difficulty: Annotated[str | None, Query(pattern="^(easy|medium|hard)$")] = None,
    series: Annotated[str | None, Query(pattern="^(double-dummy|single-dummy)$")] = None,
    preset: Annotated[str | None, Query(max_length=40)] = None,
) -> dict[str, Any]:
    """The puzzles (filtered) in a newcomer's order (the four-handed Australian game
    first, easiest first: ``order``), the one to start with (``start``), the themes, the
    presets with their counts, and the puzzle of the day (the server's date)."""
    every = sorted(_puzzles().values(), key=pz.beginner_key)
    themes = sorted({p["theme"] for p in every} | {p["kind"] for p in every})
    if theme is not None and theme not in themes:
        raise HTTPException(422, f"theme: one of {', '.join(themes)}")
    presets = [name for name in pz.BEGINNER_PRESETS if any(p["preset"] == name for p in every)]
    if preset is not None and preset not in presets:
        raise HTTPException(422, f"preset: one of {', '.join(presets)}")
    pool = [
        p
        for p in every
        if (theme is None or theme in (p["theme"], p["kind"]))
        and (difficulty is None or pz.GRADES[p["difficulty"]] == difficulty)
        and (series is None or p["series"] == series)
        and (preset is None or p["preset"] == preset)
    ]
    double = [p for p in _puzzles().values() if p["series"] == "double-dummy"]
    day = datetime.date.today().toordinal()
    return {
        "themes": themes,
        "presets": [
            _preset_entry(name, sum(p["preset"] == name for p in every)) for name in presets
        ],
        "daily": double[day % len(double)]["id"],
        "start": pool[0]["id"] if pool else None,
        "puzzles": [{**_summary(p), "order": n} for n, p in enumerate(pool)],
    }


def _puzzle_view(puzzle: dict[str, Any]) -> dict[str, Any]:
    state = pz.replay_puzzle(puzzle)
    seat = state.to_move
    hidden = puzzle.get("hidden", [])
    goal = "make" if puzzle["goal"] == "make" else "defeat"
    if hidden:
        task = (
            f"You are {names(state)[seat]}: find the card that makes the contract however "
            "the defenders' cards lie."
        )
    else:
        task = f"You are {names(state)[seat]}: find the card that {goal}s the contract."
    return {**_summary(puzzle), "task": task, "position": position(state, seat, hidden=hidden)}


@router.get("/api/learn/puzzles/{pid}")
async def get_puzzle(pid: str) -> dict[str, Any]:
    return await asyncio.to_thread(_puzzle_view, _puzzle_or_404(pid))


class AnswerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    card: str = Field(min_length=1, max_length=MAX_TEXT)


def _solution_tricks(state: HandState, line: list[str]) -> tuple[list[dict[str, Any]], int]:
    two = state.rules.joker_names
    seat_names = names(state)
    current = state.clone()
    tricks: list[dict[str, Any]] = []
    plays = [
        {"name": seat_names[s], "card": action_text(a, two)} for s, a in current.current_trick()
    ]
    for text in line:
        mover = current.to_move
        act = parse_play(text)
        current.apply(act)
        plays.append({"name": seat_names[mover], "card": action_text(act, two)})
        if not current.trick_actions:
            tricks.append({"plays": plays, "winner": seat_names[current.tricks[-1].winner]})
            plays = []
    total = sum(current.tricks_won[s] for s in pz.contracting(current))
    return tricks, total


def _answer(puzzle: dict[str, Any], text: str) -> dict[str, Any]:
    state = pz.replay_puzzle(puzzle)
    two = state.rules.joker_names
    try:
        action = parse_typed(text, "play", state)
        state.clone().apply(action)
    except FiveHundredError as error:
        return {"status": "refused", "reason": refusal(error, state)}
    right = action == parse_play(puzzle["solution"])
    card = play_text(action, two)
    if right:
        verdict = f"Right! {puzzle['reason']}"
    elif puzzle.get("hidden"):
        wins = puzzle["wins"].get(action_text(action, two), 0)
        verdict = (
            f"Not this time: {card} makes it in {wins} of the {puzzle['layouts']} "
            f"layouts. {puzzle['reason']}"
        )
    else:
        value = puzzle["values"].get(action_text(action, two))
        verdict = (
            f"Not this time: {card} leaves the contracting side {value} "
            f"trick{'s' if value != 1 else ''}. {puzzle['reason']}"
        )
    tricks, total = _solution_tricks(state, puzzle["line"])
    return {
        "status": "right" if right else "wrong",
        "card": action_text(action, two),
        "solution": puzzle["solution"],
        "message": verdict,
        "reason": puzzle["reason"],
        "line": tricks,
        "final": total,
        "cards": position(state, state.to_move)["seats"],
    }


@router.post("/api/learn/puzzles/{pid}/answer")
async def answer_puzzle(pid: str, body: AnswerIn) -> dict[str, Any]:
    """Right or wrong with the reason and the solution played out; a card the rules refuse
    is refused with the engine's reason (``status: refused``) and may be tried again."""
    return await asyncio.to_thread(_answer, _puzzle_or_404(pid), body.card)


# ----------------------------------------------------------------------------- lessons
@router.get("/api/learn/lessons")
async def list_lessons() -> dict[str, Any]:
    return {
        "lessons": [
            {"id": lesson["id"], "number": n, "title": lesson["title"]}
            for n, lesson in enumerate(LESSONS, 1)
        ],
        "after": next_after(LESSONS[-1]),
    }


class LessonIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    answers: list[Annotated[str, Field(max_length=MAX_TEXT)]] = Field(
        default_factory=list, max_length=MAX_ANSWERS
    )
    text: str | None = Field(default=None, max_length=MAX_TEXT)


def _mark(run: LessonRun) -> tuple[Any, ...]:
    state = run.state
    return (run.step, run.done, len(state.history) if state is not None else 0)


def _lesson_view(lesson: dict[str, Any], answers: list[str], text: str | None) -> dict[str, Any]:
    run = LessonRun(lesson, interface="web")
    said = run.flush()
    for number, given in enumerate(answers):
        before = _mark(run)
        run.answer(given)
        run.flush()
        if _mark(run) == before:
            raise HTTPException(422, f"answers[{number}]: not accepted at that point of the lesson")
    accepted = None
    if text is not None:
        before = _mark(run)
        said = run.answer(text) + run.flush()
        accepted = _mark(run) != before
    step = run.current()
    out: dict[str, Any] = {
        "id": lesson["id"],
        "title": lesson["title"],
        "intro": intro_lines(lesson, "web"),
        "how": lesson.get("how", {}).get("web", []),
        "said": said,
        "accepted": accepted,
        "done": run.done,
        "whole_hand": "whole_hand" in lesson,
        "step": run.step,
        "steps": len(lesson.get("script", [])),
        "next": next_after(lesson),
        "answer_kind": None,
        "legal_choices": False,
    }
    if step is not None and "quiz" in step:
        out["quiz"] = step["quiz"]
        out["answer_kind"] = "number"
        out["choices"] = quiz_choices(step["compute"], run.rules)  # (the page's buttons)
    elif not run.done and step is not None:
        out["ask"] = ask_text(step, "web")
        out["ask_how"] = step.get("how", {}).get("web")
    if not run.done and run.state is not None and out["answer_kind"] is None:
        out["answer_kind"] = {"auction": "call", "play": "card", "discard": "discard"}.get(
            run.state.phase, run.state.phase
        )
        out["legal_choices"] = True
    if run.state is not None:
        out["position"] = position(run.state, 0, show_all=bool(lesson.get("show_all")))
    if "whole_hand" in lesson and not run.done:
        hint = run.hint()
        if hint is not None:
            out["hint"] = hint[1] or play_text(hint[0], run.rules.joker_names)
            out["hint_action"] = action_text(hint[0], run.rules.joker_names)
    return out


@router.post("/api/learn/lessons/{lid}")
async def lesson_step(lid: str, body: LessonIn) -> dict[str, Any]:
    """The lesson replayed through ``answers`` (each must have been accepted: 422 if not),
    then ``text`` answered: ``accepted`` says whether the lesson moved on (keep ``text`` in
    ``answers`` then), ``said`` is what the table said."""
    lesson = find_lesson(lid) if ID_PATTERN.fullmatch(lid) else None
    if lesson is None:
        raise HTTPException(404, f"no lesson {lid[:20]!r}")
    return await asyncio.to_thread(_lesson_view, lesson, body.answers, body.text)


# ----------------------------------------------------------------------------- review
_reviews: dict[str, asyncio.Future[dict[str, Any]]] = {}
_reviewing = Counts(REVIEWS_PER_VISITOR)


def _review_record(game_json: str, seat: int) -> dict[str, Any]:
    """In the analysis worker process: the review of one seat over a game record, with each
    costly choice in card language."""
    from fivehundred.analysis.review import item_text, review
    from fivehundred.record import replay_game

    game = replay_game(json.loads(game_json))
    result = review(game, seat)
    two = game.rules.joker_names
    result["costliest_text"] = [item_text(m, two) for m in result["costliest"]]
    return result


@router.get("/api/tables/{code}/review")
async def game_review(
    code: str, request: Request, seat: Annotated[int, Query(ge=0, le=5)]
) -> dict[str, Any]:
    """A finished game's review for ``seat`` (the costliest choices, accuracy by phase):
    ``{"status": "running"}`` until it is ready, then ``{"status": "done", ...}``."""
    from fivehundred.web import history

    record, game = await history.finished_game(request, code)
    if seat >= game.rules.players:
        raise HTTPException(422, f"seat: 0 to {game.rules.players - 1} at this table")
    if not game.is_over:
        raise HTTPException(409, "the game is not finished yet")
    if game.rules.seats != game.rules.players:
        raise HTTPException(422, "the review does not read games with dummies yet")
    if len(game.finished_hands) > MAX_REVIEW_HANDS:
        raise HTTPException(422, f"the review reads games of at most {MAX_REVIEW_HANDS} hands")
    key = json.dumps([record, seat], sort_keys=True)
    future = _reviews.get(key)
    if future is None or future.cancelled():
        visitor = address_key(request.client.host if request.client else "")
        if _reviewing.held.get(visitor, 0) >= _reviewing.cap:
            raise HTTPException(
                429,
                "your address has a review under way: wait for it",
                headers={"Retry-After": "30"},
            )
        if sum(not f.done() for f in _reviews.values()) >= MAX_PENDING_REVIEWS:
            raise HTTPException(
                503,
                "the server is reviewing other games: try again in a minute",
                headers={"Retry-After": "30"},
            )
        while len(_reviews) >= MAX_REVIEWS:  # forget the oldest
            _reviews.pop(next(iter(_reviews))).cancel()
        loop = asyncio.get_running_loop()
        game_json = json.dumps(record)
        future = asyncio.ensure_future(
            loop.run_in_executor(history.analysis_pool(), _review_record, game_json, seat)
        )
        _reviewing.take(visitor)
        future.add_done_callback(lambda _, v=visitor: _reviewing.give(v))
        _reviews[key] = future
    if not future.done():
        return {"status": "running"}
    error = future.exception()
    if error is not None:
        log.error("review of %s seat %d failed: %s", code, seat, error)
        _reviews.pop(key, None)
        return {"status": "failed", "message": str(error).splitlines()[0][:200]}
    players = record.get("players") or []
    return {"status": "done", "seat": seat, "players": players, "review": future.result()}
