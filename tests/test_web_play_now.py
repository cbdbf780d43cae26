"""Play now (web/matchmaking.py): people who ask at once land at the same table; a lone
person gets computer partners once their chosen wait is over (the queue's clock is moved
by the test, nothing waits for time); people far apart in rating are not matched until the
window has widened; every input is bounded; a program asks through the same protocol
(examples/ws_player.py --play-now)."""

from __future__ import annotations

import asyncio
import dataclasses
import sys
import warnings
from pathlib import Path
from typing import Any

import httpx
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from fivehundred.web.matchmaking import NEAR, WIDEN, Entry, Matchmaker
from fivehundred.web.server import UNLIMITED, create_app
from fivehundred.web.store import AsyncStore, Store
from test_web_support import thread_server

EXAMPLES = Path(__file__).parents[1] / "examples"
sys.path.insert(0, str(EXAMPLES))
import ws_player  # noqa: E402


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def quick(app: Any) -> None:
    app.state.matchmaker.options["delay"] = 0


@pytest.mark.parametrize("people", [4, 2])
def test_people_asking_at_once_land_at_the_same_table(tmp_path: Path, people: int) -> None:
    """Four fill the table at once; two wait together and get two computer players when
    the first one's wait is over."""
    clock = Clock()

    def prepare(app: Any) -> None:
        quick(app)
        app.state.matchmaker.clock = clock

    with thread_server(f"sqlite:///{tmp_path / 'w.sqlite3'}", prepare=prepare) as base:

        async def press(name: str) -> dict[str, Any]:
            async with httpx.AsyncClient(base_url=base, timeout=60) as client:
                body = {"preset": "australian", "level": "random", "wait": 20, "name": name}
                answer = (await client.post("/api/play-now", json=body)).json()
                while answer["status"] != "seated":
                    if people == 2 and answer["waiting"] == 2:
                        clock.now += 20  # both are waiting: the first one's wait is over
                    poll = 30 if people == 4 else 0
                    ticket = answer["ticket"]
                    answer = (await client.get(f"/api/play-now/{ticket}?wait={poll}")).json()
                return dict(answer)

        async def everyone() -> list[dict[str, Any]]:
            return list(await asyncio.gather(*(press(f"P{i}") for i in range(people))))

        seated = asyncio.run(everyone())
        assert len({s["table"] for s in seated}) == 1
        assert sorted(s["seat"] for s in seated) == list(range(people))
        facts = httpx.get(f"{base}/api/tables/{seated[0]['table']}").json()
        kinds = [s["kind"] for s in facts["seats"]]
        assert kinds == ["person"] * people + ["computer"] * (4 - people)
        assert {s["name"] for s in facts["seats"][:people]} == {f"P{i}" for i in range(people)}


def test_a_lone_person_gets_computer_partners_after_the_wait(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", workers=0)
    clock = Clock()
    app.state.matchmaker.clock = clock
    quick(app)
    with TestClient(app) as client:
        body = {"preset": "australian", "level": "easy", "wait": 45, "name": "Lone"}
        waiting = client.post("/api/play-now", json=body).json()
        assert waiting["status"] == "waiting" and waiting["computers_in"] == 45
        ticket = waiting["ticket"]
        assert client.get(f"/api/play-now/{ticket}").json()["status"] == "waiting"
        clock.now += 45
        seated = client.get(f"/api/play-now/{ticket}").json()
        assert seated["status"] == "seated" and seated["seat"] == 0
        facts = client.get(f"/api/tables/{seated['table']}").json()
        assert [s["name"] for s in facts["seats"]] == ["Lone", "easy", "easy", "easy"]
        with client.websocket_connect(
            f"/ws/tables/{seated['table']}?token={seated['token']}"
        ) as ws:
            assert ws.receive_json()["seat"] == 0
        # at once: no wait at all
        now = client.post("/api/play-now", json={**body, "wait": 0, "preset": "misere_500"})
        assert now.status_code == 422  # not a preset
        at_once = client.post("/api/play-now", json={**body, "wait": 0, "name": "Quick"}).json()
        assert at_once["status"] == "seated"
        # leaving the queue
        waiting = client.post("/api/play-now", json={**body, "name": "Shy"}).json()
        assert client.delete(f"/api/play-now/{waiting['ticket']}").json() == {"status": "left"}
        assert client.get(f"/api/play-now/{waiting['ticket']}").status_code == 404
        assert client.delete(f"/api/play-now/{ticket}").status_code == 409  # seated already


def test_every_input_is_bounded(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", workers=0)
    with TestClient(app) as client:

        def refused(body: dict[str, Any]) -> str:
            answer = client.post("/api/play-now", json=body)
            assert answer.status_code == 422, answer.text
            return str(answer.json()["detail"])

        assert refused({"preset": "klondike"}).startswith("preset:")
        assert refused({"level": "cmd:ls"}).startswith("level:")
        assert refused({"level": "pimc:100000"}).startswith("level:")
        assert refused({"wait": 301}).startswith("wait:")
        assert refused({"wait": -1}).startswith("wait:")
        assert refused({"name": "x" * 31}).startswith("name:")
        assert refused({"name": "\x00"}).startswith("name:")
        assert refused({"colour": "red"}).startswith("colour:")
        assert client.get("/api/play-now/x?wait=31").status_code == 422
        assert client.get("/api/play-now/" + "x" * 65).status_code == 404
        assert client.delete("/api/play-now/nothing").status_code == 404
        answers = [
            client.post("/api/play-now", json={"wait": 300, "preset": preset})
            for preset in ("australian", "american", "french_canadian") * 3
        ]  # three of each: no table of four yet, all waiting
        assert [a.status_code for a in answers] == [200] * 8 + [429]


def test_a_press_counts_as_creating_a_table(tmp_path: Path) -> None:
    """Play now may make a table: the per-address cap on unfinished tables applies."""
    limits = dataclasses.replace(UNLIMITED, tables_per_client=1)
    app = create_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", workers=0, limits=limits)
    with TestClient(app) as client:
        body = {"level": "random", "wait": 0, "name": "Once"}
        assert client.post("/api/play-now", json=body).json()["status"] == "seated"
        again = client.post("/api/play-now", json=body)
        assert again.status_code == 429 and "unfinished tables" in again.json()["detail"]


def test_people_far_apart_in_rating_wait_until_the_window_widens(tmp_path: Path) -> None:
    seated: list[list[str]] = []

    async def seat_table(preset: str, level: str, group: list[Entry]) -> list[dict[str, Any]]:
        seated.append([e.name for e in group])
        return [{"table": "T", "seat": i, "token": "t"} for i in range(len(group))]

    clock = Clock()

    async def scenario() -> None:
        store = AsyncStore(Store(f"sqlite:///{tmp_path / 'w.sqlite3'}"))  # the queue's database
        matchmaker = Matchmaker(seat_table, ["random"], clock=clock, store=store)
        from fivehundred.web.matchmaking import PlayNowIn

        def body(name: str) -> PlayNowIn:
            return PlayNowIn(preset="two_handed", level="random", wait=300, name=name)

        await matchmaker.join(body("Strong"), "Strong", None, 30.0, "a")
        weak = await matchmaker.join(body("Weak"), "Weak", None, 0.0, "b")
        assert seated == []  # 30 points apart: not near
        clock.now += (30 - NEAR) / WIDEN - 1
        await matchmaker.match()
        assert seated == []
        await matchmaker.join(body("Close"), "Close", None, 28.0, "c")
        assert seated == [["Strong", "Close"]]  # near at once: a table of two
        clock.now += 1
        late = await matchmaker.join(body("Late"), "Late", None, 100.0, "d")
        assert seated == [["Strong", "Close"]]
        for _ in range(3):  # they keep asking (a ticket nobody asks about is dropped)
            clock.now += 50
            await matchmaker.find(weak.ticket)
            await matchmaker.find(late.ticket)
        await matchmaker.match()  # Weak's window now reaches Late's rating
        assert seated[-1] == ["Weak", "Late"]
        store.close()

    asyncio.run(scenario())


def test_a_program_plays_now_and_a_rematch_through_ws_player(tmp_path: Path, capsys: Any) -> None:
    with thread_server(f"sqlite:///{tmp_path / 'w.sqlite3'}", prepare=quick) as base:
        code = ws_player.main(
            [
                "--server",
                base,
                "--play-now",
                "two_handed",
                "--level",
                "random",
                "--wait",
                "0",
                "--player",
                "random",
                "--name",
                "Robot",
                "--rematches",
                "1",
            ]
        )
        assert code == 0
        out = capsys.readouterr().out
        assert "seated at table" in out and out.count("game over") == 2
        first = out.split("seated at table ", 1)[1].split(",")[0]
        second = out.split("rematch: table ", 1)[1].split()[0]
        assert first != second
        seats = httpx.get(f"{base}/api/tables/{second}").json()["seats"]
        assert [s["name"] for s in seats] == ["Robot", "random"]
