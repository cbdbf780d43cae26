"""Nothing is lost: the server, killed mid-hand (SIGTERM, then SIGKILL) and started again on
the same database, resumes the table, computer players included; the game finishes and its
record replays."""

from __future__ import annotations

import asyncio
import json
import random
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import websockets

from test_web_support import (
    db_url,  # noqa: F401  (fixture)
    free_port,
    start_server_process,
    ws_url,
)


async def play_until(
    base: str, code: str, tokens: list[str], stop_at: int, rng: random.Random
) -> dict[str, Any]:
    """Both people play random legal actions until the table reaches version ``stop_at``
    (or the game ends); returns the last view of seat 0."""
    sockets = [await websockets.connect(ws_url(base, code, token)) for token in tokens]
    last: dict[str, Any] = {}

    async def run(index: int, ws: Any) -> None:
        acted = -1
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 20))
            if message["type"] != "view":
                assert message["type"] != "error", message
                continue
            if index == 0:
                last.update(message)
            view = message["view"]
            if message["version"] >= stop_at or view["table"]["finished"]:
                return
            if view["legal"] and message["version"] > acted:
                acted = message["version"]
                await ws.send(
                    json.dumps(
                        {
                            "type": "action",
                            "version": message["version"],
                            "action": rng.choice(view["legal"]),
                        }
                    )
                )

    try:
        await asyncio.gather(*(run(i, ws) for i, ws in enumerate(sockets)))
    finally:
        for ws in sockets:
            await ws.close()
    return last


async def first_view(base: str, code: str, token: str) -> dict[str, Any]:
    async with websockets.connect(ws_url(base, code, token)) as ws:
        return dict(json.loads(await asyncio.wait_for(ws.recv(), 20)))


def test_killed_server_resumes_every_table(db_url: str, tmp_path: Path) -> None:  # noqa: F811
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = start_server_process(db_url, port, tmp_path)
    rng = random.Random(5)
    try:
        body = {
            "seats": ["open", "heuristic", "open", "random"],
            "seed": 77,
            "rules": {"variants": {"target": 10}},
            "options": {"delay": 0},
        }
        code = httpx.post(f"{base}/api/tables", json=body).json()["table"]
        alone = httpx.post(
            f"{base}/api/tables", json={**body, "seats": ["random"] * 4, "options": {"delay": 0.15}}
        ).json()["table"]
        tokens = [
            httpx.post(f"{base}/api/tables/{code}/seats/{seat}", json={"name": name}).json()[
                "token"
            ]
            for seat, name in ((0, "Ann"), (2, "Bob"))
        ]
        before = asyncio.run(play_until(base, code, tokens, 12, rng))
        assert not before["view"]["table"]["finished"]
        assert not httpx.get(f"{base}/api/tables/{alone}").json()["finished"]
        for how in (signal.SIGTERM, signal.SIGKILL):
            process.send_signal(how)
            process.wait(30)
            process = start_server_process(db_url, port, tmp_path)
            again = asyncio.run(first_view(base, code, tokens[0]))
            assert again["version"] >= before["version"]
            if again["version"] == before["version"]:
                assert again["view"]["hand"] == before["view"]["hand"]
                assert again["view"]["auction"] == before["view"]["auction"]
            before = asyncio.run(play_until(base, code, tokens, again["version"] + 15, rng))
        final = asyncio.run(play_until(base, code, tokens, 10_000, rng))
        assert final["view"]["table"]["finished"]
        record = httpx.get(f"{base}/api/tables/{code}/record").json()
        assert record["seed"] == 77 and record["players"] == ["Ann", "heuristic", "Bob", "random"]
        path = tmp_path / "game.json"
        path.write_text(json.dumps(record))
        replay = subprocess.run(
            [sys.executable, "-m", "fivehundred", "replay", str(path)],
            capture_output=True,
            text=True,
        )
        assert replay.returncode == 0, replay.stderr
        # the computers' table went on by itself across both restarts
        deadline = 60
        while deadline and not httpx.get(f"{base}/api/tables/{alone}").json()["finished"]:
            asyncio.run(asyncio.sleep(0.5))
            deadline -= 1
        assert httpx.get(f"{base}/api/tables/{alone}").json()["finished"]
    finally:
        process.terminate()
        process.wait(30)
