"""A league season on two servers of one PostgreSQL (web/events/league_store.py), and after
both are stopped, on a third: the pairs registered through either server, the season
started once when both servers' loops find it due, a game whose players come through both
servers counted once, and the standings, the season's end and the next season kept by the
database (nothing of a season lives in a server's memory). The seasons' clock is the
test's (the service's ``clock``), the same for every server. Skipped without
``$FIVEHUNDRED_TEST_PG_URL`` (failed in CI)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

from fivehundred.web.accounts import COOKIE
from fivehundred.web.events.league import WEEK
from fivehundred.web.guard import Buckets
from test_web_leagues import play_a_game
from test_web_support import database_url, thread_server, wait_for

SECRET = "correct horse battery staple 42"


def test_a_season_on_two_servers_and_after_a_restart(tmp_path: Path) -> None:
    url = database_url("postgresql", tmp_path)
    now = [time.time() - 3600]  # the seasons' clock: an hour behind until moved on

    def prepare(app: Any) -> None:
        app.state.events.writes = Buckets(1000, 1000)
        app.state.events.clock = lambda: now[0]
        app.state.accounts.signups = Buckets(100, 100)

    def season(base: str, number: int) -> dict[str, Any]:
        answer: dict[str, Any] = httpx.get(f"{base}/api/leagues/{number}").json()
        return answer

    with thread_server(url, prepare=prepare) as one, thread_server(url, prepare=prepare) as two:
        bases = [one, two]
        sessions = []
        for i in range(8):  # accounts made on either server; a session serves on both
            made = httpx.post(
                f"{bases[i % 2]}/api/accounts", json={"name": f"P{i}", "password": SECRET}
            )
            assert made.status_code == 201, made.text
            sessions.append({"cookie": f"{COOKIE}={made.cookies[COOKIE]}"})
        facts = {"name": "Spring League", "weeks": 1, "division_size": 2, "per_week": 1}
        first = httpx.post(
            f"{one}/api/leagues",
            json={**facts, "moves": 1, "starts_at": time.time() - 30},
            headers=sessions[0],
        )
        assert first.status_code == 201, first.text
        league = first.json()["id"]
        for k, (a, b) in enumerate(((0, 1), (2, 3), (4, 5), (6, 7))):
            answer = httpx.post(
                f"{bases[k % 2]}/api/leagues/{league}/pairs",
                json={"partner": f"P{b}"},
                headers=sessions[a],
            )
            assert answer.status_code == 201, answer.text
        # a pair already registered on one server is refused on the other
        again = httpx.post(
            f"{two}/api/leagues/{league}/pairs", json={"partner": "P7"}, headers=sessions[1]
        )
        assert again.status_code == 409, again.text
        now[0] = time.time()  # both servers' loops find the season due
        for base in bases:
            wait_for(lambda b=base: season(b, league)["state"] == "running", 30, "running")
        shown = [season(base, league) for base in bases]
        assert shown[0]["divisions"] == shown[1]["divisions"]
        assert [len(d) for d in shown[0]["divisions"]] == [2, 2]

        # the top division's game: its table on the first server, two players through each
        code = play_a_game(one, sessions[:4], elsewhere=two)

        def counted(base: str) -> dict[str, Any] | None:
            shown = season(base, league)
            return shown if sum(x["played"] for x in shown["divisions"][0]) == 2 else None

        before = wait_for(lambda: counted(one), 30, "the game counted")
        assert wait_for(lambda: counted(two), 30, "the game counted on the other") == before
        engine = sa.create_engine(url)
        try:
            with engine.connect() as db:
                rows = db.execute(
                    sa.text("SELECT count(*) FROM league_games WHERE code = :c"), {"c": code}
                ).scalar()
            assert rows == 1  # once, whichever server finished the table
        finally:
            engine.dispose()

    # both servers gone: a third on the same database has the season as it was
    with thread_server(url, prepare=prepare) as three:
        assert season(three, league) == before
        now[0] += WEEK  # the season's end: found by the new server's loop
        wait_for(lambda: season(three, league)["state"] == "finished", 30, "the season's end")
        following = httpx.post(
            f"{three}/api/leagues", json={"follows": league}, headers=sessions[0]
        )
        assert following.status_code == 201, following.text
        number = following.json()["id"]
        wait_for(lambda: season(three, number)["state"] == "running", 30, "the next season")
        top = before["divisions"][0]
        names = [[x["name"] for x in d] for d in season(three, number)["divisions"]]
        assert sorted(names[0]) == sorted([top[0]["name"], "P4 & P5"])
        assert sorted(names[1]) == sorted([top[1]["name"], "P6 & P7"])
