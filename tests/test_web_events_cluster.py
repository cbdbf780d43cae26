"""Tournaments on two servers of one PostgreSQL (web/events/): a round starts exactly once
whether its organiser asks both servers at once or both servers' loops find it due at the
same time; each game of each round gets one table; the next round follows the last result
once. And one server killed in the middle of an event: started again, it carries on. The
PostgreSQL test is skipped without ``$FIVEHUNDRED_TEST_PG_URL``."""

from __future__ import annotations

import signal
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

from fivehundred.web.accounts import COOKIE
from test_web_support import database_url, free_port, start_server_process, wait_for

SECRET = "correct horse battery staple 42"
#: the first side to 10 points wins: a game of one hand
ONE_HAND = {"win_1904": True}
#: two rounds of one-hand games, every seat the computer's (at its usual pace)
EVENT_SECONDS = 240.0
STARTS = 16


def account(base: str, name: str) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=30)
    answer = client.post("/api/accounts", json={"name": name, "password": SECRET})
    assert answer.status_code == 201, answer.text
    session = answer.cookies[COOKIE]
    client.cookies.clear()
    client.headers["cookie"] = f"{COOKIE}={session}"
    return client


def on(client: httpx.Client, base: str) -> httpx.Client:
    """The same account's session on another server."""
    return httpx.Client(base_url=base, timeout=30, headers=dict(client.headers))


def event(people: list[httpx.Client], name: str, **facts: Any) -> int:
    body = {"name": name, "target": 10, "grace": 1, "rounds": 2, "variants": ONE_HAND, **facts}
    made = people[0].post("/api/events", json=body)
    assert made.status_code == 201, made.text
    number = int(made.json()["id"])
    for first, second in ((0, 1), (2, 3)):
        answer = people[first].post(f"/api/events/{number}/pairs", json={"partner": f"P{second}"})
        assert answer.status_code == 201, answer.text
        assert people[second].post(f"/api/events/{number}/check-in").status_code == 200
    return number


def test_rounds_start_once_across_two_servers(tmp_path: Path) -> None:
    url = database_url("postgresql", tmp_path)
    ports = [free_port(), free_port()]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    # the computers play at once (--event-delay 0): what is tested is the servers' turns
    servers = [
        start_server_process(url, p, tmp_path / str(i), "--event-delay", "0")
        for i, p in enumerate(ports)
    ]
    try:
        people = [account(bases[0], f"P{i}") for i in range(4)]
        # both servers' loops find this one due at the same moment
        timed = event(people, "Timed Cup", starts_at=time.time() + 3)
        # its organiser presses "start" many times on both servers at once
        pressed = event(people, "Pressed Cup")
        organiser = [people[0], on(people[0], bases[1])]
        with ThreadPoolExecutor(STARTS) as pool:
            answers = list(
                pool.map(
                    lambda i: organiser[i % 2].post(f"/api/events/{pressed}/start"),
                    range(STARTS),
                )
            )
        assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
        assert sum(a.json()["started"] for a in answers) == 1

        def over() -> bool:
            states = [people[1].get(f"/api/events/{e}").json()["state"] for e in (timed, pressed)]
            return states == ["finished", "finished"]

        wait_for(over, EVENT_SECONDS, "both events over")
        engine = sa.create_engine(url)
        try:
            with engine.connect() as db:
                for number, name in ((timed, "Timed Cup"), (pressed, "Pressed Cup")):
                    rounds = db.execute(
                        sa.text("SELECT number FROM event_rounds WHERE event_id = :e"),
                        {"e": number},
                    ).scalars()
                    assert sorted(rounds) == [1, 2]
                    games = db.execute(
                        sa.text("SELECT round, code FROM event_games WHERE event_id = :e"),
                        {"e": number},
                    ).all()
                    assert sorted(g.round for g in games) == [1, 2]  # one game a round
                    made = db.execute(
                        sa.text("SELECT code FROM tables WHERE name LIKE :n"), {"n": f"{name} ·%"}
                    ).scalars()
                    assert sorted(made) == sorted(g.code for g in games)  # one table a game
                left = db.execute(
                    sa.text("SELECT count(*) FROM outbox WHERE kind = 'event'")
                ).scalar()
                assert left == 0
        finally:
            engine.dispose()
    finally:
        for process in servers:
            if process.poll() is None:
                process.terminate()
                process.wait(30)


def test_an_event_carries_on_after_its_server_is_killed(tmp_path: Path) -> None:
    """SIGKILL while round 1 is played; the server started again on the same database
    finishes the game, records it and plays round 2 (SQLite: one server)."""
    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server_process(url, port, tmp_path / "a")
    try:
        people = [account(base, f"P{i}") for i in range(4)]
        number = event(people, "Restart Cup")
        assert people[0].post(f"/api/events/{number}/start").json() == {"started": True}

        def table_made() -> str | None:  # by the start, or by the service's look beside it
            game = people[0].get(f"/api/events/{number}").json()["my_game"]
            return game["code"] if game and game["code"] else None

        code = wait_for(table_made, EVENT_SECONDS, "round 1's table")
        server.send_signal(signal.SIGKILL)
        server.wait(30)
        server = start_server_process(url, port, tmp_path / "b")

        def over() -> dict[str, Any] | None:
            shown = people[1].get(f"/api/events/{number}").json()
            return shown if shown["state"] == "finished" else None

        final = wait_for(over, EVENT_SECONDS, "the event's end after the restart")
        rounds = final["rounds_played"]
        assert [len(r["games"]) for r in rounds] == [1, 1]
        assert rounds[0]["games"][0]["code"] == code
        assert all(g["finished"] for r in rounds for g in r["games"])
    finally:
        if server.poll() is None:
            server.terminate()
            server.wait(30)
