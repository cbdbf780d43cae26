"""The pages' own endpoints: the rule settings for the lobby, and the history pages (a
game's score sheet, each hand's replay and its double-dummy analysis, a player's record).

History is read from the tables' public records through the server's own REST endpoints
(``/api/tables/{code}/record``, ``/api/games``, ``/api/players/{name}``), called in process,
so these endpoints see exactly what anyone may see: finished hands only. The analysis runs
in a worker process, never in the event loop.
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
from concurrent.futures import Executor
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, HTTPException, Request
from fastapi.responses import FileResponse

from fivehundred.actions import action_text, parse_call
from fivehundred.bots import player_choices
from fivehundred.cards import mask_text
from fivehundred.errors import FiveHundredError, RulesError
from fivehundred.game import DONE, GameState, HandState
from fivehundred.record import replay_game
from fivehundred.rules import CHOICE, PRESETS, REGISTRY, Rules, Variant, make_rules
from fivehundred.scoring import side_of_seats
from fivehundred.web.guard import Counts, address_key
from fivehundred.web.views import (
    card_words_of,
    points_parts,
    rule_490_words,
    side_names_of,
    table_names,
)
from fivehundred.words import (
    DEFAULT_LEVEL,
    LEVEL_WORDS,
    SUIT_WORDS,
    action_label,
    contract_label,
    display_context,
    hand_order,
    suit_label,
    variant_words,
)

log = logging.getLogger("fivehundred.web.history")
router = APIRouter()
STATIC_DIR = Path(__file__).with_name("static")
MAX_GAMES = 100  # games read for a player's page
MAX_ANALYSES = 256  # analyses kept in memory
ANALYSES_PER_VISITOR = 2  # analyses one address may have waiting or running at once


# ----------------------------------------------------------------------------- rules
def _variant_entry(variant: Variant) -> dict[str, Any]:
    """A variant for the lobby: its name, label and how it is set (a switch, a number or
    a choice), all from the registry."""
    entry: dict[str, Any] = {"name": variant.name, "label": variant.title, "kind": variant.kind}
    if variant.kind == CHOICE:
        entry["options"] = list(variant.options)
    return entry


def _refusal(error: RulesError) -> tuple[str, str]:
    """The variant a refusal names and its reason in the variant's own words, the other
    variants it names by their titles (``contradicts the 490 rule``, not ``'rule_490'``)."""
    titles = {name: variant.title for name, variant in REGISTRY.items()}
    return error.variant, variant_words(error.why, titles)


def _preset_entry(name: str, variants: list[dict[str, Any]]) -> dict[str, Any]:
    """One preset: the variants it accepts, why it refuses each switch it refuses, and the
    pairs of switches it accepts alone but refuses together (all asked of ``make_rules``)."""
    base = PRESETS[name]
    accepted: list[str] = []
    refused: dict[str, str] = {}
    switches: list[str] = []
    for entry in variants:
        if entry["kind"] != "switch":
            accepted.append(entry["name"])
            continue
        try:
            make_rules(name, {entry["name"]: True})
        except RulesError as error:
            refused[entry["name"]] = _refusal(error)[1]
            continue
        accepted.append(entry["name"])
        switches.append(entry["name"])
    conflicts: list[list[str]] = []
    for i, first in enumerate(switches):
        for second in switches[i + 1 :]:
            try:
                make_rules(name, {first: True, second: True})
            except RulesError as error:
                named, reason = _refusal(error)
                pair = [second, first] if named == second else [first, second]
                conflicts.append([*pair, reason])
    # The switches that set a rules field the preset has on: ticked to begin with, and
    # sent as false when unticked (as the terminal game's options do).
    on = [s for s in switches if s in Rules.__dataclass_fields__ and getattr(base, s) is True]
    return {
        "name": name,
        "label": name.replace("_", " "),
        "players": base.players,
        "seats": base.seats,
        "target": base.target,
        "variants": accepted,
        "refused": refused,
        "conflicts": conflicts,
        "on": on,
    }


@functools.cache
def _catalogue_json() -> str:
    variants = []
    for name in sorted(REGISTRY):
        variants.append(_variant_entry(REGISTRY[name]))
    presets = [_preset_entry(name, variants) for name in PRESETS]
    # the levels people are offered, with their words (the other players stay accepted
    # by name for saved games and programs: "players")
    levels = [
        {"name": name, "label": LEVEL_WORDS[name]}
        for name in player_choices()
        if name in LEVEL_WORDS
    ]
    return json.dumps(
        {
            "presets": presets,
            "variants": variants,
            "players": player_choices(),
            "levels": levels,
            "default_level": DEFAULT_LEVEL,
        }
    )


def rules_catalogue() -> dict[str, Any]:
    """Every preset with the variants it accepts (and why it refuses the others), and the
    computer players. Computed once (about half a second), then copied from the cache."""
    catalogue: dict[str, Any] = json.loads(_catalogue_json())
    return catalogue


@router.get("/api/rules")
async def get_rules() -> dict[str, Any]:
    """The presets, variants and computer players, for the lobby's form (worked out once,
    off the event loop)."""
    return await asyncio.to_thread(rules_catalogue)


# ----------------------------------------------------------------------------- pages
@router.get("/g/{code}", include_in_schema=False)
async def game_page(code: str) -> FileResponse:
    return FileResponse(STATIC_DIR / "game.html")


@router.get("/p/{name}", include_in_schema=False)
async def player_page(name: str) -> FileResponse:
    return FileResponse(STATIC_DIR / "player.html")


# ----------------------------------------------------------------------------- reading records
async def internal_get(request: Request, path: str, query: str = "") -> Any:
    """GET one of the server's own JSON endpoints in process (its public answer)."""
    body = bytearray()
    status = 500
    sent = False

    async def receive() -> dict[str, Any]:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client never goes away
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            body.extend(message.get("body", b""))

    scope: dict[str, Any] = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "root_path": "",
        "query_string": query.encode(),
        "headers": [(b"host", b"127.0.0.1")],
        "client": ("127.0.0.1", 0),
        "server": ("127.0.0.1", 80),
    }
    if "state" in request.scope:
        scope["state"] = dict(request.scope["state"])
    await request.app(scope, receive, send)
    try:
        data = json.loads(bytes(body) or b"null")
    except ValueError:
        data = None
    if status >= 400:
        detail = data.get("detail") if isinstance(data, dict) else None
        raise HTTPException(status, detail or "not found")
    return data


async def finished_game(request: Request, code: str) -> tuple[dict[str, Any], GameState]:
    record = await internal_get(request, f"/api/tables/{quote(code, safe='')}/record")
    try:
        return record, replay_game(record)
    except FiveHundredError as error:  # the server's own record: should never happen
        log.error("table %s: record does not replay: %s", code, error)
        raise HTTPException(500, "the table's record does not replay") from None


def _joker_suit(state: HandState) -> str | None:
    suit = state.joker_suits[0]
    return "SCDH"[suit] if suit >= 0 else None


def _joker_suits(state: HandState) -> list[str | None]:
    """Both jokers' nominations, [first (red) joker, black or white joker]."""
    return ["SCDH"[suit] if suit >= 0 else None for suit in state.joker_suits[:2]]


def _ordered(state: HandState, mask: int) -> list[str]:
    """Cards in the one display order (:func:`fivehundred.words.hand_order`) under the
    hand's contract as it stands."""
    jokers = (state.joker_suits[0], state.joker_suits[1])
    ctx = display_context(state.contract, jokers, state.rules.j5_no_trumps)
    return [action_text(card, state.rules.joker_names) for card in hand_order(mask, ctx)]


def _contract_label(state: HandState, contract: int) -> str | None:
    return contract_label(contract, state.rules.joker_names) if contract >= 0 else None


def hand_line(game: GameState, index: int) -> dict[str, Any]:
    """One row of the score sheet, with the hand's cards as dealt (in display order)."""
    hand = game.finished_hands[index]
    result = hand.result
    two = hand.rules.joker_names
    return {
        "hand": index + 1,
        "dealer": hand.dealer,
        "contract": action_text(result.contract, two) if result.contract >= 0 else None,
        "contract_label": _contract_label(hand, result.contract),
        "contractor": result.contractor if result.contractor >= 0 else None,
        "made": result.made,
        "tricks_won": list(result.tricks_won),
        "points": list(result.points),
        # what each side's points are made of, in the vocabulary's words (views.points_parts)
        "points_parts": points_parts(hand.rules, result),
        "scores": list(game.score_history[index]),
        "dealt": [_ordered(hand, cards) for cards in hand.dealt],
        "kitty": mask_text(hand.kitty_dealt, two),
        "discards": mask_text(hand.discards, two),
        "joker_suit": _joker_suit(hand),
        "joker_suits": _joker_suits(hand),
    }


@router.get("/api/tables/{code}/sheet")
async def score_sheet(code: str, request: Request) -> dict[str, Any]:
    """The score sheet hand by hand (finished hands only) and each hand's cards."""
    record, game = await finished_game(request, code)
    players = record.get("players") or [f"Seat {s + 1}" for s in range(game.rules.players)]
    return {
        "table": code,
        "rules": game.rules.to_dict(),
        "players": record.get("players"),
        # every seat's name, as the table page says it (dummies and the like included)
        "names": table_names(game.rules, list(players)),
        "words": card_words_of(game.rules),
        "side_names": side_names_of(game.rules, list(players)),
        "seats": game.rules.seats,
        "sides": [0] * game.sides,
        "side_of_seat": list(side_of_seats(game.rules)),
        "target": game.rules.target,
        "rule_490": game.rules.rule_490,
        "rule_490_note": rule_490_words(game.rules),  # (its real figure; None: no such rule)
        "finished": game.is_over,
        "winner": game.winner,
        "hands": [hand_line(game, i) for i in range(len(game.finished_hands))],
    }


def replay_steps(hand: HandState) -> list[dict[str, Any]]:
    """Every position of a finished hand, all cards shown, from the deal to the end."""
    two = hand.rules.joker_names
    state = hand.as_dealt()
    steps = []

    def snapshot(action: str | None, seat: int | None, label: str | None) -> dict[str, Any]:
        return {
            "phase": state.phase,
            "to_move": state.to_move if state.phase != DONE else None,
            "action": action,
            "seat": seat,
            "label": label,
            "hands": [_ordered(state, cards) for cards in state.hands],
            "auction": [[s, action_text(a, two)] for s, a in state.auction.calls],
            "auction_labels": [action_label(a, two) for _, a in state.auction.calls],
            "contract": action_text(state.contract, two) if state.contract >= 0 else None,
            "contract_label": _contract_label(state, state.contract),
            "contractor": state.contractor if state.contractor >= 0 else None,
            "discards": mask_text(state.discards, two),
            "joker_suit": _joker_suit(state),
            "joker_suits": _joker_suits(state),
            "trick": [[s, action_text(a, two)] for s, a in state.current_trick()],
            "last_trick": (
                [[s, action_text(a, two)] for s, a in state.tricks[-1].plays]
                if state.tricks
                else None
            ),
            "tricks_won": list(state.tricks_won),
        }

    steps.append(snapshot(None, None, None))
    for action in hand.history:
        seat = state.to_move
        state.replay_action(action)
        steps.append(snapshot(action_text(action, two), seat, action_label(action, two)))
    return steps


def _hand_of(game: GameState, number: int) -> HandState:
    if not 1 <= number <= len(game.finished_hands):
        raise HTTPException(
            404, f"no finished hand {number} (finished: {len(game.finished_hands)})"
        )
    return game.finished_hands[number - 1]


@router.get("/api/tables/{code}/hands/{number}/replay")
async def hand_replay(code: str, number: int, request: Request) -> dict[str, Any]:
    """A finished hand step by step: the auction, the kitty and the play, every card shown."""
    _, game = await finished_game(request, code)
    hand = _hand_of(game, number)
    return {
        "hand": number,
        "dealer": hand.dealer,
        "line": hand_line(game, number - 1),
        "steps": replay_steps(hand),
    }


# ----------------------------------------------------------------------------- analysis
_executor: Executor | None = None
_analyses: dict[str, asyncio.Future[dict[str, Any]]] = {}
#: analyses waiting or running per address (at most :data:`ANALYSES_PER_VISITOR` each)
_analysing = Counts(ANALYSES_PER_VISITOR)


def _analyse_record(hand_json: str) -> dict[str, Any]:
    """In a worker process: the double-dummy analysis of one hand record."""
    from fivehundred.analysis.analyse import analyse_hand
    from fivehundred.record import replay_hand

    return analyse_hand(replay_hand(json.loads(hand_json)))


def set_executor(executor: Executor | None) -> None:
    """Use ``executor`` for the analyses (tests; the server may share its pool)."""
    global _executor
    _executor = executor


def analysis_pool() -> Executor:
    global _executor
    if _executor is None:
        from fivehundred.web.worker import worker_process

        # one spawned worker (the server has threads, and a forked child may inherit a held
        # lock) that exits if the server is killed
        _executor = worker_process()
    return _executor


def shutdown() -> None:
    """Stop the analysis worker (the server is stopping): an analysis in progress is
    dropped, its worker process stopped rather than waited for."""
    global _executor
    executor, _executor = _executor, None
    for future in list(_analyses.values()):
        future.cancel()
    _analyses.clear()
    if executor is None:
        return
    processes = list((getattr(executor, "_processes", None) or {}).values())
    executor.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.terminate()
    for process in processes:
        process.join(5)


@router.get("/api/tables/{code}/hands/{number}/analysis")
async def hand_analysis(code: str, number: int, request: Request) -> dict[str, Any]:
    """The hand's double-dummy analysis: ``{"status": "running"}`` until it is ready (ask
    again), then ``{"status": "done", "analysis": {...}}``."""
    record, game = await finished_game(request, code)
    _hand_of(game, number)
    hand_record = dict(record["hands"][number - 1])
    hand_record["format"] = "fivehundred-hand/1"
    hand_record["rules"] = record["rules"]
    key = json.dumps(hand_record, sort_keys=True)
    future = _analyses.get(key)
    if future is None:
        visitor = address_key(request.client.host if request.client else "")
        if not _analysing.take(visitor):  # one visitor's queue is bounded
            raise HTTPException(
                429,
                f"your address has {ANALYSES_PER_VISITOR} analyses under way: wait for them",
                headers={"Retry-After": "5"},
            )
        while len(_analyses) >= MAX_ANALYSES:  # forget the oldest
            _analyses.pop(next(iter(_analyses)))
        loop = asyncio.get_running_loop()
        future = asyncio.ensure_future(loop.run_in_executor(analysis_pool(), _analyse_record, key))
        future.add_done_callback(lambda _, v=visitor: _analysing.give(v))
        _analyses[key] = future
    if not future.done():
        return {"status": "running"}
    error = future.exception()
    if error is not None:
        log.error("analysis of %s hand %d failed: %s", code, number, error)
        _analyses.pop(key, None)
        return {"status": "failed", "message": str(error).splitlines()[0]}
    analysis = dict(future.result())
    hand = _hand_of(game, number)
    analysis["contract_label"] = _contract_label(hand, hand.contract)
    return {"status": "done", "analysis": analysis}


# ----------------------------------------------------------------------------- players
def _strain_label(strain: str) -> str:
    """A strain of the player page's table as it is read: ``♠ spades``, ``no trumps``,
    ``open misère``."""
    if strain in ("S", "C", "D", "H"):
        suit = "SCDH".index(strain)
        return f"{suit_label(suit)} {SUIT_WORDS[suit]}"
    if strain == "NT":
        return "no trumps"
    try:
        return action_label(parse_call(strain))
    except FiveHundredError:
        return strain


def _strain(contract: str | None) -> str | None:
    if contract is None:
        return None
    if "misere" in contract:
        return contract
    return contract.lstrip("0123456789")


async def player_history(request: Request, name: str) -> dict[str, Any]:
    """A player's record over their latest games (``/api/players/{name}``'s, at most
    :data:`MAX_GAMES`): only the hands they played count; the stand-in's are listed in
    ``points``, marked, and counted nowhere else."""
    summary = await internal_get(request, f"/api/players/{quote(name, safe='')}")
    recent = summary.pop("recent", [])[:MAX_GAMES]
    strains: dict[str, dict[str, Any]] = {}
    misere = {"bid": 0, "made": 0}
    points: list[dict[str, Any]] = []
    played = []
    for entry in reversed(recent):  # oldest first, for the chart
        if entry["hands"] or entry["finished"]:
            played.append(
                {
                    "table": entry["table"],
                    "name": entry.get("name"),
                    "outcome": entry["outcome"],
                    "won": None if entry["finished"] is None else entry["outcome"] == "won",
                    "rated": entry["rated"],
                    "scores": entry.get("scores"),
                    "finished": entry.get("finished"),
                }
            )
        for hand in entry["hands"]:
            points.append(
                {
                    "table": entry["table"],
                    "hand": hand["hand"],
                    "points": hand["points"],
                    "stand_in": hand["stand_in"],
                    "finished": entry.get("finished"),
                }
            )
            if hand["stand_in"] or not hand["bid"]:
                continue
            strain = _strain(hand["contract"]) or "?"
            row = strains.setdefault(strain, {"bid": 0, "made": 0})
            row["bid"] += 1
            row["made"] += int(bool(hand["made"]))
            if "misere" in strain:
                misere["bid"] += 1
                misere["made"] += int(bool(hand["made"]))
    for strain, row in strains.items():
        row["label"] = _strain_label(strain)
    played.reverse()  # newest first in the list
    return {
        "name": name,
        "summary": summary,
        "games": played,
        "strains": strains,
        "misere": misere,
        "points": points,
    }


@router.get("/api/players/{name}/history")
async def get_player_history(name: str, request: Request) -> dict[str, Any]:
    """Games, contracts bid and made by strain, misère record and points per hand."""
    return await player_history(request, name)
