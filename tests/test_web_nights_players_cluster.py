"""A progressive club night on two servers of one PostgreSQL (web/events/nights_players.py):
round 2's tables are written once, after every table of round 1 has ended, whichever
server records round 1's last board; each board at each table gets one table and each
result is taken once from the outbox; the standings are per player. Skipped without
``$FIVEHUNDRED_TEST_PG_URL``."""

from __future__ import annotations

from pathlib import Path

import sqlalchemy as sa

from test_web_events_cluster import account, on
from test_web_support import database_url, free_port, start_server_process, wait_for

#: two rounds of one board at two tables, every seat the computer's (at its usual pace)
NIGHT_SECONDS = 400.0


def test_a_progressive_night_moves_on_once_across_two_servers(tmp_path: Path) -> None:
    url = database_url("postgresql", tmp_path)
    ports = [free_port(), free_port()]
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    # the computers play at once (--event-delay 0): what is tested is the servers' turns
    servers = [
        start_server_process(url, p, tmp_path / str(i), "--event-delay", "0")
        for i, p in enumerate(ports)
    ]
    try:
        # five people (sign-ups shared between the servers): three computers fill two tables
        people = [account(bases[i % 2], f"P{i}") for i in range(5)]
        slug = people[0].post("/api/clubs", json={"name": "Two Halls"}).json()["slug"]
        for person in people[1:]:
            code = people[0].post(f"/api/clubs/{slug}/invites").json()["code"]
            assert person.post("/api/clubs/join", json={"code": code}).is_success
        body = {
            "club": slug,
            "name": "Moving night",
            "grace": 1,
            "per_round": 1,
            "rounds": 2,
            "movement": "progressive",
        }
        night = people[0].post("/api/nights", json=body).json()["id"]
        for person in people:
            answer = person.post(f"/api/nights/{night}/players")
            assert answer.status_code == 201, answer.text
        assert people[0].post(f"/api/nights/{night}/start").json() == {"started": True}
        other = on(people[0], bases[1])

        def over() -> bool:
            return bool(other.get(f"/api/nights/{night}").json()["state"] == "finished")

        wait_for(over, NIGHT_SECONDS, "the night's end")
        shown = people[2].get(f"/api/nights/{night}").json()
        assert len(shown["standings"]) == 8
        assert sum(s["rounds_won"] for s in shown["standings"]) == 2 * 2 * 2
        engine = sa.create_engine(url)
        try:
            with engine.connect() as db:
                games = db.execute(
                    sa.text(
                        "SELECT round, table_no, code FROM night_games WHERE night_id = :n "
                        "ORDER BY round, table_no"
                    ),
                    {"n": night},
                ).all()
                made = db.execute(
                    sa.text("SELECT code, created, finished FROM tables WHERE name LIKE :n"),
                    {"n": "Moving night ·%"},
                ).all()
                left = db.execute(sa.text("SELECT count(*) FROM outbox WHERE kind = 'night'"))
                assert left.scalar() == 0
        finally:
            engine.dispose()
        assert [(g.round, g.table_no) for g in games] == [(1, 1), (1, 2), (2, 1), (2, 2)]
        assert sorted(t.code for t in made) == sorted(g.code for g in games)
        times = {t.code: t for t in made}
        first = [times[g.code] for g in games if g.round == 1]
        second = [times[g.code] for g in games if g.round == 2]
        assert min(t.created for t in second) >= max(t.finished for t in first)
    finally:
        for process in servers:
            if process.poll() is None:
                process.terminate()
                process.wait(30)
