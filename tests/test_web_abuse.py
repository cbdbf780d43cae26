"""One visitor cannot hurt the others (issue 45, points 11 to 16): hints bounded per seat
and per address and cancelled with their connection, connections capped per address and
idle ones dropped, sessions that end everywhere, ratings that cannot be farmed, logins a
stranger cannot lock, and the smaller holes (rematch chains, spectator places, reserved
names, the reviews' and analyses' share per visitor)."""

from __future__ import annotations

import asyncio
import threading
import time
import warnings
from typing import Any

with warnings.catch_warnings():  # starlette prefers httpx2, not yet in the dev extra
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from fivehundred.web import live
from fivehundred.web.server import create_app


def view_until(ws: Any, predicate: Any, limit: int = 3000) -> dict[str, Any]:
    for _ in range(limit):
        message = ws.receive_json()
        if message["type"] == "view" and predicate(message):
            return dict(message)
    raise AssertionError("no such view")


def answer(ws: Any, kinds: tuple[str, ...] = ("hint", "error")) -> dict[str, Any]:
    while (message := ws.receive_json())["type"] not in kinds:
        pass
    return dict(message)


def poll(condition: Any, timeout: float = 30.0) -> Any:
    deadline = time.monotonic() + timeout
    while not (value := condition()):
        if time.monotonic() > deadline:
            raise AssertionError("the state never came")
        time.sleep(0.02)
    return value


class HeldDecisions:
    """The app's decider, each decision held until :meth:`release` (what a long search is
    to the server), but the random players'; counts the decisions cancelled while held."""

    def __init__(self, hub: Any) -> None:
        self.gate = threading.Event()
        self.started = 0
        self.cancelled = 0
        real = hub.decider.decide

        async def held(player: str, *args: Any, **kwargs: Any) -> Any:
            if player == "random":  # the computers at the table play on
                return await real(player, *args, **kwargs)
            self.started += 1
            try:
                while not self.gate.is_set():
                    await asyncio.sleep(0.01)
            except asyncio.CancelledError:
                self.cancelled += 1
                raise
            return await real(player, *args, **kwargs)

        hub.decider.decide = held

    def release(self) -> None:
        self.gate.set()


def hint_table(client: TestClient) -> tuple[str, str]:
    body = {
        "seats": ["open", "random", "random", "random"],
        "seed": 13,
        "options": {"delay": 0, "stand_in": "heuristic"},
    }
    code = client.post("/api/tables", json=body).json()["table"]
    token = client.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).json()["token"]
    return code, token


# ----------------------------------------------------------------------------- 11 hints
def test_a_seat_has_one_hint_at_a_time_and_an_address_a_few_a_minute(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path}/hints.db"
    with TestClient(create_app(url, workers=0, allow_seeds=True)) as client:
        held = HeldDecisions(client.app.state.hub)  # type: ignore[attr-defined]
        code, token = hint_table(client)
        with client.websocket_connect(f"/ws/tables/{code}?token={token}") as ws:
            view_until(ws, lambda m: bool(m["view"]["legal"]))
            ws.send_json({"type": "hint"})
            poll(lambda: held.started == 1)
            ws.send_json({"type": "hint"})
            refused = answer(ws)
            assert refused["type"] == "error" and "still being worked out" in refused["message"]
            held.release()
            assert answer(ws)["type"] == "hint"
            for _ in range(live.HINT_BURST - 1):  # the rest of the address's burst
                ws.send_json({"type": "hint"})
                assert answer(ws)["type"] == "hint"
            ws.send_json({"type": "hint"})
            limited = answer(ws)
            assert limited["type"] == "error" and "too many hints" in limited["message"]


def test_a_replaced_connections_hint_is_cancelled(tmp_path: Any) -> None:
    url = f"sqlite:///{tmp_path}/hints.db"
    with TestClient(create_app(url, workers=0, allow_seeds=True)) as client:
        held = HeldDecisions(client.app.state.hub)  # type: ignore[attr-defined]
        code, token = hint_table(client)
        with client.websocket_connect(f"/ws/tables/{code}?token={token}") as first:
            view_until(first, lambda m: bool(m["view"]["legal"]))
            first.send_json({"type": "hint"})
            poll(lambda: held.started == 1)
            with client.websocket_connect(f"/ws/tables/{code}?token={token}") as second:
                view_until(second, lambda m: bool(m["view"]["legal"]))
                poll(lambda: held.cancelled == 1)  # the old connection's hint is gone
                held.release()
                second.send_json({"type": "hint"})
                assert answer(second)["type"] == "hint"
