"""Whole games through real sockets: a real uvicorn on a loopback port, one ``websockets``
client per seat and a spectator, every message checked against what its seat may know."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx
import pytest
import websockets

from fivehundred.rules import PRESETS
from test_web_support import (
    Player,
    check_messages,
    db_url,  # noqa: F401  (fixture)
    thread_server,
    ws_url,
)


def create(base: str, seats: list[str], **body: Any) -> str:
    body.setdefault("options", {"delay": 0})
    response = httpx.post(f"{base}/api/tables", json={"seats": seats, **body})
    assert response.status_code == 201, response.text
    return str(response.json()["table"])


def join_all(base: str, code: str, players: int) -> list[str]:
    tokens = []
    for seat in range(players):
        response = httpx.post(f"{base}/api/tables/{code}/seats/{seat}", json={"name": f"P{seat}"})
        assert response.status_code == 200, response.text
        tokens.append(response.json()["token"])
    return tokens


def choose(legal: list[str], rng: random.Random) -> str:
    """Random legal actions; in the auction the misères are bid whenever they may be and
    other calls are mostly passes, so that some games have an open misère hand exposed."""
    for bid in ("open_misere", "misere"):
        if bid in legal and rng.random() < 0.6:
            return bid
    if "pass" in legal and rng.random() < 0.7:
        return "pass"
    return rng.choice(legal)


async def play_table(
    base: str, code: str, tokens: list[str], seed: int, stop: Any, limit: int = 1500
) -> tuple[list[Player], Player]:
    """Every seat plays random legal actions through its socket until ``stop(view)``."""
    rng = random.Random(seed)
    sockets = [await websockets.connect(ws_url(base, code, token)) for token in tokens]
    watcher = await websockets.connect(ws_url(base, code))
    players = [Player(ws, seat) for seat, ws in enumerate(sockets)]
    spectator = Player(watcher, None)

    async def run(player: Player) -> None:
        acted = -1  # views come on every change (someone connecting too): act once a version
        while True:
            message = await player.next(20)
            if message["type"] == "error":
                raise AssertionError(f"seat {player.seat}: {message}")
            if message["type"] != "view":
                continue
            view = message["view"]
            if stop(view) or message["version"] >= limit:
                return
            if view["legal"] and message["version"] > acted:
                acted = message["version"]
                await player.ws.send(
                    json.dumps(
                        {
                            "type": "action",
                            "version": message["version"],
                            "action": choose(view["legal"], rng),
                        }
                    )
                )

    async def watch() -> None:
        while True:
            message = await spectator.next(20)
            if message["type"] == "view" and (stop(message["view"]) or message["version"] >= limit):
                return

    try:
        await asyncio.gather(*(run(p) for p in players), watch())
    finally:
        for ws in [*sockets, watcher]:
            await ws.close()
    return players, spectator


def test_a_whole_hand_by_four_sockets_and_a_spectator(db_url: str) -> None:  # noqa: F811
    with thread_server(db_url) as base:
        code = create(base, ["open"] * 4, seed=21)
        tokens = join_all(base, code, 4)

        def hand_over(view: dict[str, Any]) -> bool:
            return view["table"]["hand_result"] is not None

        players, spectator = asyncio.run(play_table(base, code, tokens, 1, hand_over))
        finals = [p.view for p in [*players, spectator]]
        assert all(f is not None for f in finals)
        versions = {f["version"] for f in finals if f is not None}
        assert len(versions) == 1, versions
        result = finals[0]["view"]["table"]["hand_result"]  # type: ignore[index]
        assert (result["hand"] == 1 and sum(result["tricks_won"]) in (0, 10)) or result[
            "contract"
        ] == "misere"
        for player in players:
            seen = [m["version"] for m in player.received if m["type"] == "view"]
            assert seen == sorted(seen)
            hands = {len(m["view"]["hand"]) for m in player.received if m["type"] == "view"}
            assert max(hands) >= 10
        assert all(m["view"]["hand"] == [] for m in spectator.received if m["type"] == "view")
        facts = httpx.get(f"{base}/api/tables/{code}").json()
        assert facts["hands_played"] == 1


CASES = [(preset, {}) for preset in PRESETS] + [
    ("australian", {"two_jokers": True}),
    ("australian", {"open_misere": True, "misere_anytime": True}),
    ("five_handed", {"partner_announces": True}),
]


@pytest.mark.parametrize("database", ["sqlite", "postgresql"])
def test_no_message_ever_names_a_card_its_seat_may_not_know(database: str, tmp_path: Any) -> None:
    from test_web_support import database_url

    url = database_url(database, tmp_path)
    cases = CASES if database == "sqlite" else CASES[:6]
    checked = 0
    open_misere_shown = 0
    own_hands = 0
    with thread_server(url) as base:
        for number, (preset, variants) in enumerate(cases):
            players_count = PRESETS[preset].players
            code = create(
                base,
                ["open"] * players_count,
                seed=100 + number,
                rules={"preset": preset, "variants": {"target": 10, **variants}},
            )

            def finished(view: dict[str, Any]) -> bool:
                return bool(view["table"]["finished"])

            tokens = join_all(base, code, players_count)
            players, spectator = asyncio.run(play_table(base, code, tokens, number, finished, 400))
            record = httpx.get(f"{base}/api/tables/{code}/record").json()
            assert record["hands"], f"{preset}: no hand finished"
            for player in players:
                checked += check_messages(record, player.seat, player.received)
            checked += check_messages(record, None, spectator.received)
            own_hands += check_own_hand(record, players)
            if not PRESETS[preset].dummies:
                open_misere_shown += sum(
                    1 for m in spectator.received if m["type"] == "view" and m["view"]["exposed"]
                )
    assert checked > 500
    assert own_hands > 0  # two players: each seat's own hand beside its dummy's
    if database == "sqlite":  # the seeds give open misère hands: the exposure is checked too
        assert open_misere_shown > 0


def check_own_hand(record: dict[str, Any], players: list[Any]) -> int:
    """Two players: the views that carry a seat's own hand while its dummy moves (checked
    by ``check_messages``); one changed to hold the other player's hand fails the checker."""
    views = [
        (p.seat, m)
        for p in players
        for m in p.received
        if m["type"] == "view" and "own_hand" in m["view"]
    ]
    for seat, message in views[:1]:
        other = next(p for p in players if p.seat != seat)
        theirs = next(
            m["view"]["hand"]
            for m in other.received
            if m["type"] == "view"
            and m["version"] == message["version"]
            and m["view"]["seat"] == other.seat
        )
        leaked = json.loads(json.dumps(message))
        leaked["view"]["own_hand"] = theirs
        with pytest.raises(AssertionError, match="as its own hand"):
            check_messages(record, seat, [leaked])
    return len(views)


def test_the_checker_catches_a_leak(tmp_path: Any) -> None:
    """The checker itself: a view naming another seat's card fails it."""
    with thread_server(f"sqlite:///{tmp_path / 'w.sqlite3'}") as base:
        code = create(base, ["open"] * 4, seed=4, rules={"variants": {"target": 10}})
        tokens = join_all(base, code, 4)
        players, _ = asyncio.run(
            play_table(base, code, tokens, 2, lambda v: v["table"]["finished"], 400)
        )
        record = httpx.get(f"{base}/api/tables/{code}/record").json()
    first = next(m for m in players[0].received if m["type"] == "view")
    other = players[1]
    other_view = next(
        m for m in other.received if m["type"] == "view" and m["version"] == first["version"]
    )
    leaked = json.loads(json.dumps(first))
    leaked["view"]["hand"] = other_view["view"]["hand"]
    with pytest.raises(AssertionError, match="was sent"):
        check_messages(record, 0, [leaked])
