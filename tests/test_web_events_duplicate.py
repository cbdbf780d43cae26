"""Duplicate tournaments (web/events/): every table of a round is made from the round's seed
(derived from the event's secret seed), so every table is dealt the same cards hand by
hand, and each round's deals differ; a duplicate round's tables are sealed until its last
game is recorded (its finished tables' records refused, left out of the finished games,
their results kept from the event's answer), then shown. On SQLite, and the rounds on
PostgreSQL where ``$FIVEHUNDRED_TEST_PG_URL`` names one."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
import websockets

import test_web_events
from fivehundred.web import seals
from fivehundred.web.accounts import COOKIE
from fivehundred.web.events import words
from fivehundred.web.events.store import round_seal, round_seed
from fivehundred.web.guard import Buckets
from fivehundred.web.schema import event_games, events, tables
from test_web_events import ONE_HAND, SECRET, entered, finished, people
from test_web_support import wait_for, ws_url

client = test_web_events.client


def deals(client: Any, event: int) -> dict[int, list[Any]]:
    """Each round's tables' seeds and first hands (the cards, kitty and dealer), in the
    order of the round's games."""
    engine = client.app_state.store.store.engine
    with engine.connect() as db:
        rows = db.execute(
            sa.select(event_games.c.round, tables.c.seed, tables.c.sealed, tables.c.code)
            .select_from(event_games.join(tables, tables.c.code == event_games.c.code))
            .where(event_games.c.event_id == event)
            .order_by(event_games.c.round, event_games.c.number)
        ).all()
    shown: dict[int, list[Any]] = {}
    for row in rows:
        first = client.get(f"/api/tables/{row.code}/record").json()["hands"][0]
        dealt = (first["dealer"], first["hands"], first["kitty"])
        shown.setdefault(row.round, []).append((row.seed, row.sealed, dealt))
    return shown


@pytest.fixture
def pg_client(tmp_path: Path) -> Iterator[Any]:
    """The events' app on a PostgreSQL database of its own (skipped without one)."""
    from fastapi.testclient import TestClient

    from fivehundred.web.accounts import AccountsConfig
    from fivehundred.web.server import create_app
    from test_web_support import database_url

    app = create_app(
        database_url("postgresql", tmp_path),
        workers=0,
        cluster=False,
        accounts_config=AccountsConfig(login_per_minute=1000, login_burst=1000),
    )
    with TestClient(app) as test_client:
        app.state.events.writes = Buckets(1000, 1000)
        app.state.events.table_options = {"delay": 0.0}
        test_client.app_state = app.state
        yield test_client


def test_a_duplicate_events_rounds_deal_each_table_the_rounds_cards(client: Any) -> None:
    duplicate_rounds(client)


def test_a_duplicate_event_on_postgresql(pg_client: Any) -> None:
    duplicate_rounds(pg_client)


def duplicate_rounds(client: Any) -> None:
    players = people(client, 8)
    event = entered(players[0], players, rounds=2, duplicate=True)
    shown = players[0].get(f"/api/events/{event}").json()
    assert shown["duplicate"] is True and "duplicate_seed" not in json.dumps(shown)
    assert words.DUPLICATE in players[0].get(f"/e/{event}").text
    assert players[0].post(f"/api/events/{event}/start").json() == {"started": True}
    finished(players[0], event)
    engine = client.app_state.store.store.engine
    with engine.connect() as db:
        secret = db.execute(sa.select(events.c.duplicate_seed).where(events.c.id == event))
        event_seed = secret.scalar_one()
    rounds = deals(client, event)
    assert sorted(rounds) == [1, 2] and all(len(games) == 2 for games in rounds.values())
    for number, games in rounds.items():
        # every table of the round: the round's seed, sealed by the round, the same cards
        assert {seed for seed, _, _ in games} == {round_seed(event_seed, number)}
        assert {sealed for _, sealed, _ in games} == {round_seal(event, number)}
        assert games[0][2] == games[1][2]
    assert rounds[1][0][2] != rounds[2][0][2]  # each round its own cards
    # an event not duplicate: each table its own cards, unsealed
    others = [test_web_events.Person(client, f"Other{i}") for i in range(4)]
    plain = entered(others[0], others, rounds=1)
    assert others[0].get(f"/api/events/{plain}").json()["duplicate"] is False
    assert words.DUPLICATE not in others[0].get(f"/e/{plain}").text
    assert others[0].post(f"/api/events/{plain}/start").json() == {"started": True}
    finished(others[0], plain)
    (games,) = deals(client, plain).values()
    assert games[0][0] != rounds[1][0][0] and games[0][1] is None


def test_a_duplicate_is_asked_for_as_a_truth(client: Any) -> None:
    (ann,) = people(client, 1)
    refused = ann.post("/api/events", {"name": "Cup", "duplicate": "sometimes"})
    assert refused.status_code == 422
    made = ann.post("/api/events", {"name": "Cup", "duplicate": "true"})  # the page's box
    assert made.status_code == 201
    assert ann.get(f"/api/events/{made.json()['id']}").json()["duplicate"] is True
    assert 'name="duplicate"' in ann.get("/events").text


async def play(base: str, code: str, sessions: list[dict[str, str]], seed: int) -> None:
    """The people of ``sessions`` (each seated at the table ``code``) play it to its end,
    each move a legal one at random."""
    from test_web_cluster import choose

    rng = random.Random(seed)

    async def seat(headers: dict[str, str]) -> None:
        async with websockets.connect(ws_url(base, code), additional_headers=headers) as ws:
            acted = -1
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if message["type"] != "view":
                    continue
                if message["view"]["table"]["finished"]:
                    return
                if message["view"]["legal"] and message["version"] > acted:
                    acted = message["version"]
                    action = choose(message["view"], rng)
                    await ws.send(
                        json.dumps({"type": "action", "version": acted, "action": action})
                    )

    await asyncio.gather(*(seat(headers) for headers in sessions))


def test_a_duplicate_rounds_finished_table_is_shown_to_nobody_till_the_round_ends(
    tmp_path: Path,
) -> None:
    """Two tables of a duplicate round, nobody's seat played by the computer (a grace of
    600 s): the first table's four play their game to its end; while the second's have
    not, the first's record is refused, the finished games leave it out and the event's
    answer keeps its result; when the second's have played, the round is over and both
    are shown."""
    from test_web_support import thread_server

    def quick(app: Any) -> None:
        app.state.events.table_options = {"delay": 0.0}
        app.state.events.writes = Buckets(1000, 1000)
        app.state.accounts.signups = Buckets(100, 100)

    with thread_server(f"sqlite:///{tmp_path / 'w.sqlite3'}", prepare=quick) as base:
        sessions = []
        for i in range(8):
            answer = httpx.post(f"{base}/api/accounts", json={"name": f"P{i}", "password": SECRET})
            assert answer.status_code == 201, answer.text
            sessions.append({"cookie": f"{COOKIE}={answer.cookies[COOKIE]}"})

        def post(who: int, path: str, body: dict[str, Any] | None = None) -> Any:
            return httpx.post(f"{base}{path}", json=body or {}, headers=sessions[who])

        body = {"name": "Duplicate", "target": 10, "grace": 600, "rounds": 1}
        body.update(variants=ONE_HAND, duplicate=True)
        event = post(0, "/api/events", body).json()["id"]
        for first in (0, 2, 4, 6):
            partner = {"partner": f"P{first + 1}"}
            assert post(first, f"/api/events/{event}/pairs", partner).is_success
            assert post(first, f"/api/events/{event}/check-in").is_success
        assert post(0, f"/api/events/{event}/start").json() == {"started": True}
        shown = httpx.get(f"{base}/api/events/{event}").json()
        first, second = shown["rounds_played"][0]["games"]

        def seated(game: dict[str, Any]) -> list[dict[str, str]]:
            names = game["ns"].split(" & ") + game["ew"].split(" & ")
            return [sessions[int(name[1:])] for name in names]

        asyncio.run(asyncio.wait_for(play(base, first["code"], seated(first), 1), 120))

        def recorded() -> dict[str, Any] | None:
            shown = httpx.get(f"{base}/api/events/{event}").json()
            return shown if shown["rounds_played"][0]["games"][0]["finished"] else None

        shown = wait_for(recorded, 60, "the first game's result")
        assert not shown["rounds_played"][0]["finished"]
        game = shown["rounds_played"][0]["games"][0]
        assert game["ns_points"] is None and game["ew_points"] is None
        cells = [c for line in shown["crosstable"] for c in line["rounds"]]
        assert {c["result"] for c in cells} == {"playing"} and {c["points"] for c in cells} == {
            None
        }
        refused = httpx.get(f"{base}/api/tables/{first['code']}/record")
        assert refused.status_code == 403 and refused.json()["detail"] == seals.SEALED
        listed = httpx.get(f"{base}/api/games?per_page=100").json()["games"]
        assert first["code"] not in [g["table"] for g in listed]
        page = httpx.get(f"{base}/e/{event}").text
        assert "None" not in page and f'href="/g/{first["code"]}"' not in page

        asyncio.run(asyncio.wait_for(play(base, second["code"], seated(second), 2), 120))
        final = wait_for(
            lambda: (
                (shown := httpx.get(f"{base}/api/events/{event}").json())["state"] == "finished"
                and shown
            ),
            60,
            "the round's end",
        )
        games = final["rounds_played"][0]["games"]
        assert all(g["ns_points"] is not None for g in games)
        records = [httpx.get(f"{base}/api/tables/{g['code']}/record") for g in games]
        assert all(r.status_code == 200 for r in records)
        firsts = [r.json()["hands"][0] for r in records]
        assert firsts[0]["hands"] == firsts[1]["hands"] and firsts[0]["kitty"] == firsts[1]["kitty"]
        listed = httpx.get(f"{base}/api/games?per_page=100").json()["games"]
        assert {g["code"] for g in games} <= {g["table"] for g in listed}
