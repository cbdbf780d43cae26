"""A hall night's tables scored by the pad's own scoring (:func:`fivehundred.pad.model.score_pad`,
one copy of the rules) and its standings: per table each game's totals and winner, per
player the games won and the points (the total of the player's side in each game)."""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import HTTPException

from fivehundred.errors import FiveHundredError
from fivehundred.pad import model
from fivehundred.scoring import side_of_seats
from fivehundred.web.events import hall_words as w

#: the largest state a table may send (its JSON, in bytes)
MAX_STATE = 256 * 1024
#: games one table may play in a night, and hands in all its games
MAX_GAMES = 20
MAX_HANDS = 400
MAX_VERSION = 2**31 - 1
#: tables' scored games kept, by (code, table, version): a state is scored once, not at
#: every redraw of every screen
CACHED = 2048
_scored: OrderedDict[tuple[str, int, int], list[dict[str, Any]]] = OrderedDict()
_lock = threading.Lock()


def checked_state(body: Mapping[str, Any]) -> tuple[int, str]:
    """A table's state as sent (``{"version", "pads"}``): its version and the JSON kept.
    Every pad is scored here once, so a state kept can always be scored; 413 or 422."""
    version, pads = body.get("version"), body.get("pads")
    if (
        not isinstance(version, int)
        or isinstance(version, bool)
        or not 1 <= version <= MAX_VERSION
        or not isinstance(pads, list)
        or not 1 <= len(pads) <= MAX_GAMES
    ):
        raise HTTPException(422, w.BAD_STATE.format(count=MAX_GAMES))
    kept: dict[str, Any] = {"pads": pads}
    if "rounds" in body:  # a progressive night's (checked by the store, which knows it)
        kept["rounds"] = body["rounds"]
    text = json.dumps(kept, ensure_ascii=False, separators=(",", ":"))
    if len(text.encode()) > MAX_STATE:
        raise HTTPException(413, w.TOO_LARGE.format(size=MAX_STATE // 1024))
    hands = [pad.get("hands") if isinstance(pad, dict) else None for pad in pads]
    if sum(len(h) for h in hands if isinstance(h, list)) > MAX_HANDS:  # before any scoring
        raise HTTPException(422, w.TOO_MANY_HANDS.format(count=MAX_HANDS))
    for number, pad in enumerate(pads, 1):
        try:
            rules = model.check_pad(pad)
            model.score_pad(pad)
        except FiveHundredError as error:
            raise HTTPException(422, w.BAD_PAD.format(number=number, error=error)) from None
        if not 3 <= rules.players <= 6:
            raise HTTPException(422, w.BAD_SEATS)
    return version, text


def game_of(pad: Mapping[str, Any]) -> dict[str, Any]:
    """One pad's game: its sides, their totals, the winning side (or None), and for each
    player the side's total and whether it won."""
    result = model.score_pad(pad)
    sides = side_of_seats(model.check_pad(pad))
    players = [
        {"name": str(name), "points": result.totals[side], "won": result.winner == side}
        for name, side in zip(pad["players"], sides, strict=False)
    ]
    return {
        "sides": result.sides,
        "totals": result.totals,
        "winner": result.winner,
        "hands": len(pad.get("hands", [])),
        "players": players,
    }


def _key(name: str) -> str:
    return " ".join(name.split()).casefold()


def standings(tables: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Every player of the night (by name, the same name at two tables is one player):
    games won, points, the tables played at; by games won, then points, then name."""
    found: dict[str, dict[str, Any]] = {}
    for table in tables:
        for game in table["games"]:
            for player in game["players"]:
                entry = found.setdefault(
                    _key(player["name"]),
                    {"name": player["name"], "won": 0, "points": 0, "tables": []},
                )
                entry["won"] += int(player["won"])
                entry["points"] += player["points"]
                if table["number"] not in entry["tables"]:
                    entry["tables"].append(table["number"])
    ordered = sorted(found.values(), key=lambda p: (-p["won"], -p["points"], _key(p["name"])))
    place = 0
    for index, entry in enumerate(ordered):
        before = ordered[index - 1] if index else None
        if before is None or (before["won"], before["points"]) != (entry["won"], entry["points"]):
            place = index + 1
        entry["place"] = place
    return ordered


def _games(code: str, table: Mapping[str, Any]) -> list[dict[str, Any]]:
    key = (code, table["number"], table["version"])
    with _lock:
        games = _scored.get(key)
        if games is not None:
            _scored.move_to_end(key)
            return games
    games = [game_of(pad) for pad in table["pads"]]
    with _lock:
        _scored[key] = games
        while len(_scored) > CACHED:
            _scored.popitem(last=False)
    return games


def hall_view(night: Mapping[str, Any]) -> dict[str, Any]:
    """What the page and ``GET /api/hall/CODE`` show: the night, each table's games scored,
    the standings."""
    tables = [
        {
            "number": t["number"],
            "version": t["version"],
            "free": t["free"],
            "games": _games(night["code"], t),
        }
        for t in night["tables"]
    ]
    out = {k: night[k] for k in ("code", "name", "preset", "state", "club", "admin", "progress")}
    code = night["code"]
    out.update(
        tables=tables,
        standings=standings(tables),
        url=f"/hall/{code}",
        join=f"/pad?night={code}",
        results=f"/api/hall/{code}/results.csv",
    )
    return out
