"""A club night on two servers of one PostgreSQL (web/events/nights*.py): its admin presses
"start" on both servers at once and it starts once; each board at each table gets one
table, the second board only after the first; each result is taken once from the outbox.
Skipped without ``$FIVEHUNDRED_TEST_PG_URL``."""

from __future__ import annotations

import signal
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import sqlalchemy as sa

from test_web_events_cluster import account, on
from test_web_support import database_url, free_port, start_server_process, wait_for

#: two boards of one hand at one table, every seat the computer's (at its usual pace)
NIGHT_SECONDS = 240.0
STARTS = 12


def test_a_night_starts_once_and_each_board_gets_one_table_across_two_servers(
    tmp_path: Path,
) -> None:
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
        slug = people[0].post("/api/clubs", json={"name": "Two Halls"}).json()["slug"]
        for person in people[1:]:
            code = people[0].post(f"/api/clubs/{slug}/invites").json()["code"]
            assert person.post("/api/clubs/join", json={"code": code}).is_success
        body = {"club": slug, "name": "Late night", "grace": 1, "per_round": 2, "rounds": 1}
        night = people[0].post("/api/nights", json=body).json()["id"]
        for first, second in ((0, 1), (2, 3)):
            answer = people[first].post(
                f"/api/nights/{night}/pairs", json={"partner": f"P{second}"}
            )
            assert answer.status_code == 201, answer.text
        admin = [people[0], on(people[0], bases[1])]
        with ThreadPoolExecutor(STARTS) as pool:
            answers = list(
                pool.map(lambda i: admin[i % 2].post(f"/api/nights/{night}/start"), range(STARTS))
            )
        assert all(a.status_code == 200 for a in answers), [a.text for a in answers]
        assert sum(a.json()["started"] for a in answers) == 1

        def over() -> bool:
            return bool(people[1].get(f"/api/nights/{night}").json()["state"] == "finished")

        wait_for(over, NIGHT_SECONDS, "the night's end")
        shown = people[2].get(f"/api/nights/{night}").json()
        assert [t["board"] for t in shown["travellers"]] == [1, 2]
        engine = sa.create_engine(url)
        try:
            with engine.connect() as db:
                games = db.execute(
                    sa.text("SELECT seq, code FROM night_games WHERE night_id = :n ORDER BY seq"),
                    {"n": night},
                ).all()
                made = db.execute(
                    sa.text("SELECT code, created, finished FROM tables WHERE name LIKE :n"),
                    {"n": "Late night ·%"},
                ).all()
                assert sorted(t.code for t in made) == sorted(g.code for g in games)
                first, second = (next(t for t in made if t.code == g.code) for g in games)
                assert second.created >= first.finished  # board 2 after board 1
                left = db.execute(sa.text("SELECT count(*) FROM outbox WHERE kind = 'night'"))
                assert left.scalar() == 0
        finally:
            engine.dispose()
    finally:
        for process in servers:
            if process.poll() is None:
                process.terminate()
                process.wait(30)


def test_a_night_carries_on_after_the_server_that_started_it_is_killed(tmp_path: Path) -> None:
    """Server A starts a night of two boards at one table and makes board 1's table; B
    comes up on the same database; A is killed (SIGKILL) during board 1. B takes the table
    over, finishes it, records it, makes board 2's table and ends the night, every result
    recorded once, and works out the boards' pars that A had begun."""
    url = database_url("postgresql", tmp_path)
    ports = [free_port(), free_port()]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    first = start_server_process(url, ports[0], tmp_path / "a")
    second = None
    engine = sa.create_engine(url)
    try:
        people = [account(bases[0], f"K{i}") for i in range(4)]
        slug = people[0].post("/api/clubs", json={"name": "Killed Hall"}).json()["slug"]
        for person in people[1:]:
            code = people[0].post(f"/api/clubs/{slug}/invites").json()["code"]
            assert person.post("/api/clubs/join", json={"code": code}).is_success
        body = {"club": slug, "name": "Kill night", "grace": 1, "per_round": 2, "rounds": 1}
        night = people[0].post("/api/nights", json=body).json()["id"]
        for a, b in ((0, 1), (2, 3)):
            answer = people[a].post(f"/api/nights/{night}/pairs", json={"partner": f"K{b}"})
            assert answer.status_code == 201, answer.text
        assert people[0].post(f"/api/nights/{night}/start").json() == {"started": True}

        def games() -> list[Any]:
            with engine.connect() as db:
                return list(
                    db.execute(
                        sa.text(
                            "SELECT seq, code, finished, result FROM night_games"
                            " WHERE night_id = :n ORDER BY seq"
                        ),
                        {"n": night},
                    ).all()
                )

        board_1 = wait_for(lambda: games()[0].code, NIGHT_SECONDS, "board 1's table on A")
        second = start_server_process(url, ports[1], tmp_path / "b")
        assert games()[0].finished is None  # killed while board 1 is played
        first.send_signal(signal.SIGKILL)
        first.wait(30)
        watcher = on(people[1], bases[1])

        def over() -> dict[str, Any] | None:
            shown: dict[str, Any] = watcher.get(f"/api/nights/{night}").json()
            return shown if shown["state"] == "finished" else None

        wait_for(over, NIGHT_SECONDS, "the night's end on B")
        played = games()
        assert played[0].code == board_1  # the same table, finished by B
        assert all(g.finished and g.result for g in played)

        def pars() -> dict[str, Any] | None:
            shown: dict[str, Any] = watcher.get(f"/api/nights/{night}").json()
            return shown if all(t["par"] for t in shown["travellers"]) else None

        shown = wait_for(pars, NIGHT_SECONDS, "the boards' pars on B")
        assert [t["board"] for t in shown["travellers"]] == [1, 2]
        assert [len(t["results"]) for t in shown["travellers"]] == [2, 2]
        with engine.connect() as db:
            left = db.execute(sa.text("SELECT count(*) FROM outbox WHERE kind = 'night'"))
            assert left.scalar() == 0
    finally:
        engine.dispose()
        for process in (first, second):
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(30)
