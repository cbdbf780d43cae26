"""League seasons on the server (web/events/league_store.py): four pairs in divisions of
two, a game between the two pairs of the top division played at an ordinary table (every
seat its account's) counted in that division's standings, the season's end, and the next
season made from it with one pair promoted and one relegated. The season's clock is moved
on by the test (the service's ``clock``); on SQLite."""

from __future__ import annotations

import asyncio
import json
import random
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

from fivehundred.web.accounts import COOKIE
from fivehundred.web.events import words
from fivehundred.web.events.league import WEEK
from fivehundred.web.events.league_store import LeagueStore
from fivehundred.web.guard import Buckets
from fivehundred.web.schema import accounts, league_games
from fivehundred.web.store import Store
from test_web_cluster import choose
from test_web_support import thread_server, wait_for, ws_url

SECRET = "correct horse battery staple 42"


def test_a_season_counts_its_divisions_games_and_the_next_one_moves_pairs(
    tmp_path: Path,
) -> None:
    now = [time.time() - 3600]  # the seasons' clock: an hour behind until moved on
    apps: list[Any] = []

    def prepare(app: Any) -> None:
        app.state.events.writes = Buckets(1000, 1000)
        app.state.events.clock = lambda: now[0]
        app.state.accounts.signups = Buckets(100, 100)
        apps.append(app)

    with thread_server(f"sqlite:///{tmp_path / 'w.sqlite3'}", prepare=prepare) as base:
        sessions = []
        for i in range(8):
            answer = httpx.post(f"{base}/api/accounts", json={"name": f"P{i}", "password": SECRET})
            assert answer.status_code == 201, answer.text
            sessions.append({"cookie": f"{COOKIE}={answer.cookies[COOKIE]}"})

        def post(who: int, path: str, body: dict[str, Any]) -> Any:
            return httpx.post(f"{base}{path}", json=body, headers=sessions[who])

        def season(number: int) -> dict[str, Any]:
            answer: dict[str, Any] = httpx.get(f"{base}/api/leagues/{number}").json()
            return answer

        facts = {"name": "Winter League", "weeks": 1, "division_size": 2, "per_week": 1}
        first = post(0, "/api/leagues", {**facts, "moves": 1, "starts_at": time.time() - 30})
        assert first.status_code == 201, first.text
        league = first.json()["id"]
        for a, b in ((0, 1), (2, 3), (4, 5), (6, 7)):
            answer = post(a, f"/api/leagues/{league}/pairs", {"partner": f"P{b}"})
            assert answer.status_code == 201, answer.text
        assert post(1, f"/api/leagues/{league}/pairs", {"partner": "P7"}).status_code == 409
        now[0] = time.time()  # the season started half a minute ago
        shown = wait_for(lambda: season(league)["state"] == "running" and season(league), 10, "")
        assert [len(d) for d in shown["divisions"]] == [2, 2]
        assert post(0, f"/api/leagues/{league}/pairs", {"partner": "P2"}).status_code == 409

        # the top division's two pairs play a game at an ordinary table (one hand to 10)
        play_a_game(base, sessions[:4])

        def counted() -> dict[str, Any] | None:
            shown = season(league)
            return shown if sum(x["played"] for x in shown["divisions"][0]) == 2 else None

        shown = wait_for(counted, 30, "the game counted")
        top = shown["divisions"][0]
        assert {x["name"] for x in top} == {"P0 & P1", "P2 & P3"}
        assert top[0]["points"] + top[1]["points"] == 2
        assert top[0]["difference"] == -top[1]["difference"]
        assert [x["played"] for x in shown["divisions"][1]] == [0, 0]
        # each division's game of the week: the first division's played, the second's not
        (first_week, second_week) = shown["week_games"]
        assert first_week["games"][0]["result"] is not None
        assert second_week["games"][0]["result"] is None
        winner, loser = top[0]["name"], top[1]["name"]
        page = httpx.get(f"{base}/l/{league}").text
        assert words.DIVISION.format(number=1) in page
        # short heads, each with its whole word for a screen reader
        assert '<th scope="col" title="Games played">' in page

        # the season ends; the next starts with the promotions and relegations
        assert post(0, "/api/leagues", {"follows": league}).status_code == 409  # not over
        now[0] += WEEK
        wait_for(lambda: season(league)["state"] == "finished", 10, "the season's end")
        assert post(1, "/api/leagues", {"follows": league}).status_code == 403
        following = post(0, "/api/leagues", {"follows": league})
        assert following.status_code == 201, following.text
        assert post(0, "/api/leagues", {"follows": league}).status_code == 409  # once
        number = following.json()["id"]
        shown = wait_for(lambda: season(number)["state"] == "running" and season(number), 10, "")
        assert shown["name"] == "Winter League"
        names = [[x["name"] for x in d] for d in shown["divisions"]]
        # the top division's winner stays, its loser goes down; the second's first goes up
        assert sorted(names[0]) == sorted([winner, "P4 & P5"])
        assert sorted(names[1]) == sorted([loser, "P6 & P7"])


def play_a_game(base: str, sessions: list[dict[str, str]], elsewhere: str | None = None) -> str:
    """A game of one hand to 10 at an ordinary table, every seat its account's: the first
    two ``sessions`` (each a request's headers) a pair at North-South, the last two at
    East-West; played to its end over the tables' sockets (the second and fourth
    player's through the server at ``elsewhere`` where given). Its table's code."""
    body = {
        "seats": ["open"] * 4,
        "rules": {"variants": {"target": 10, "win_1904": True}},
        "options": {"delay": 0},
        "sit": 0,
    }
    made = httpx.post(f"{base}/api/tables", json=body, headers=sessions[0])
    assert made.status_code == 201, made.text
    code: str = made.json()["table"]
    for who, seat in ((1, 2), (2, 1), (3, 3)):
        taken = httpx.post(
            f"{base}/api/tables/{code}/seats/{seat}", json={"name": "x"}, headers=sessions[who]
        )
        assert taken.status_code == 200, taken.text

    async def play() -> None:
        rng = random.Random(7)

        async def seat(who: int) -> None:
            through = elsewhere if elsewhere is not None and who % 2 else base
            async with websockets.connect(
                ws_url(through, code), additional_headers=sessions[who]
            ) as ws:
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
                        reply = {"type": "action", "version": acted, "action": action}
                        await ws.send(json.dumps(reply))

        await asyncio.gather(*(seat(who) for who in range(4)))

    asyncio.run(asyncio.wait_for(play(), 120))
    return code


def test_only_the_games_of_the_weeks_schedule_count(tmp_path: Path) -> None:
    """A division of three pairs, a game a week: in the first week the second pair meets
    the first (North-South) and the third has a bye; a game of the first pair against the
    third, and a second game of the week's meeting, count for nothing."""
    store = Store(f"sqlite:///{tmp_path / 'schedule.sqlite3'}")
    leagues = LeagueStore(store.engine)
    try:
        with store.engine.begin() as db:
            for name in ("A1", "A2", "B1", "B2", "C1", "C2"):
                row = {"name": name, "name_key": name.lower(), "password_hash": "x"}
                db.execute(accounts.insert().values(**row, bot=False, created=0.0))
        start = time.time() - 60
        facts = {"name": "Three", "weeks": 2, "division_size": 3, "per_week": 1, "moves": 0}
        season = leagues.create(1, {**facts, "starts_at": start}, None)
        pairs = [
            leagues.register(season, first, partner)
            for first, partner in ((1, "A2"), (3, "B2"), (5, "C2"))
        ]
        assert leagues.start(season, time.time())
        a, b, c = pairs
        shown = leagues.view(season, None)["week_games"][0]
        assert [(g["ns"], g["ew"]) for g in shown["games"]] == [("B1 & B2", "A1 & A2")]
        assert shown["byes"] == ["C1 & C2"]
        with store.engine.begin() as db:
            for n, (ns, ew, ns_points) in enumerate(((a, c, 200), (a, b, 90), (b, a, 300))):
                db.execute(
                    league_games.insert().values(
                        season_id=season,
                        code=f"G{n}",
                        week=0,
                        at=start + n,
                        a_pair=ns,
                        b_pair=ew,
                        a_points=ns_points,
                        b_points=-ns_points,
                        winner="a",
                    )
                )
        shown = leagues.view(season, None)
        # the first game of the week's meeting, seen from its North-South: B's -90 to A's 90
        assert shown["week_games"][0]["games"][0]["result"] == {"ns_points": -90, "ew_points": 90}
        lines = {x["name"]: (x["played"], x["points"]) for x in shown["divisions"][0]}
        assert lines == {"A1 & A2": (1, 2), "B1 & B2": (1, 0), "C1 & C2": (0, 0)}
    finally:
        store.close()
