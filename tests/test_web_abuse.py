"""One visitor cannot hurt the others: hints bounded per seat
and per address and cancelled with their connection, connections capped per address and
idle ones dropped, sessions that end everywhere, ratings that cannot be farmed, logins a
stranger cannot lock, and the smaller holes (rematch chains, spectator places, reserved
names, the reviews' and analyses' share per visitor)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
import socket
import statistics
import subprocess
import sys
import threading
import time
import warnings
from typing import Any

with warnings.catch_warnings():  # starlette prefers httpx2, not yet in the dev extra
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

import httpx
import sqlalchemy as sa

from fivehundred.web import guard, live
from fivehundred.web.accounts import DEVICE_COOKIE, AccountStore
from fivehundred.web.guard import CONNECTIONS_PER_ADDRESS, Limits, guarded_protocol
from fivehundred.web.server import create_app
from test_web_play_now import Clock
from test_web_support import database_url, thread_server, ws_url


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


def connect_from(base: str, address: str, code: str, token: str) -> Any:
    """A WebSocket to ``code``'s seat of ``token`` from ``address`` (one on loopback)."""
    from websockets.sync.client import connect

    port = int(base.rsplit(":", 1)[1])
    sock = socket.create_connection(("127.0.0.1", port), 10, source_address=(address, 0))
    return connect(ws_url(base, code, token), sock=sock, open_timeout=10)


def test_search_hints_take_at_most_half_of_the_search_workers(tmp_path: Any) -> None:
    """Search hints of people at two addresses: the first is worked out, the second is
    refused at once while it is (without processes the search runs on two threads: one
    for hints), and asked again once the first is answered, it is given."""
    apps: list[Any] = []
    with thread_server(database_url("sqlite", tmp_path), prepare=apps.append) as base:
        held = HeldDecisions(apps[0].state.hub)
        seats = []
        for address in ("127.0.0.2", "127.0.0.3"):
            body = {
                "seats": ["open", "random", "random", "random"],
                "seed": 13,
                "options": {"delay": 0, "stand_in": "expert"},
            }
            code = httpx.post(f"{base}/api/tables", json=body).json()["table"]
            seat = httpx.post(f"{base}/api/tables/{code}/seats/0", json={"name": "Ann"}).json()
            seats.append((address, code, seat["token"]))

        def until(ws: Any, check: Any) -> dict[str, Any]:
            while not check(message := json.loads(ws.recv(timeout=20))):
                pass
            return dict(message)

        def my_turn(m: dict[str, Any]) -> bool:
            return m["type"] == "view" and bool(m["view"]["legal"])

        def answered(m: dict[str, Any]) -> bool:
            return m["type"] in ("hint", "error")

        with connect_from(base, *seats[0]) as first, connect_from(base, *seats[1]) as second:
            until(first, my_turn)
            until(second, my_turn)
            first.send(json.dumps({"type": "hint"}))
            poll(lambda: held.started == 1)
            second.send(json.dumps({"type": "hint"}))
            refused = until(second, answered)
            assert refused["type"] == "error" and "other hints" in refused["message"], refused
            assert held.started == 1
            held.release()
            assert until(first, answered)["type"] == "hint"
            second.send(json.dumps({"type": "hint"}))
            assert until(second, answered)["type"] == "hint"


#: Seconds of each measure of the honest table's pace (quiet, then under the flood).
PACE_SECONDS = 6.0

#: The flooding visitor (``python -c FLOODER url seconds``): a hint on a new connection
#: each time, each replacing the last; prints ``flooding`` once its first connection is
#: up, then the hints it sent.
FLOODER = """
import json, sys, time
from websockets.sync.client import connect
url, seconds = sys.argv[1], float(sys.argv[2])
sent, deadline = 0, None
while deadline is None or time.monotonic() < deadline:
    with connect(url, open_timeout=10) as ws:
        while not json.loads(ws.recv(timeout=20)).get("view", {}).get("legal"):
            pass
        if deadline is None:
            deadline = time.monotonic() + seconds
            print("flooding", flush=True)
        ws.send(json.dumps({"type": "hint"}))
        sent += 1
print(sent)
"""


def test_a_flood_of_hints_from_one_seat_leaves_another_tables_search_players_going(
    tmp_path: Any,
) -> None:
    """Search players in two worker processes. Honest tables of ``hard`` players (from
    127.0.0.2, one after another) are timed quiet, then while one seat of another table, whose stand-in is
    ``expert``, sends a hint on a new connection each time (each replacing the last): the
    honest tables keep at least a quarter of their quiet pace (actions per interval;
    both figures are printed: a shared machine makes them noisy)."""
    apps: list[Any] = []
    url = database_url("sqlite", tmp_path)
    with thread_server(url, workers=2, prepare=apps.append) as base:
        hub = apps[0].state.hub
        poll(lambda: hub.decider.search_ready, 120)
        local = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(base_url=base, transport=local, timeout=20) as honest:
            body = {"seats": ["hard"] * 4, "options": {"delay": 0}}
            # (a game of these players ends within seconds: the pace counts the actions of
            # the honest tables, a new one started whenever the last one's game is over)
            played = [0]  # actions of the finished honest tables
            code = [honest.post("/api/tables", json=body).json()["table"]]

            def actions() -> int:
                table = honest.get(f"/api/tables/{code[0]}").json()
                if table["finished"]:
                    played[0] += int(table["version"])
                    code[0] = honest.post("/api/tables", json=body).json()["table"]
                    return played[0]
                return played[0] + int(table["version"])

            poll(lambda: actions() > 0, 60)

            def pace() -> int:
                start = actions()
                deadline = time.monotonic() + PACE_SECONDS
                while time.monotonic() < deadline:
                    time.sleep(0.1)
                    actions()
                return actions() - start

            quiet = pace()
            flooded_body = {
                "seats": ["open", "random", "random", "random"],
                "seed": 13,
                "options": {"delay": 0, "stand_in": "expert"},
            }
            flooded = httpx.post(f"{base}/api/tables", json=flooded_body).json()["table"]
            token = httpx.post(f"{base}/api/tables/{flooded}/seats/0", json={"name": "Ann"})
            url = ws_url(base, flooded, token.json()["token"])
            # the flooding visitor is a process of its own (as it would be: in this
            # process it would take the server's interpreter lock, not only its sockets)
            flooder = subprocess.Popen(
                [sys.executable, "-c", FLOODER, url, str(PACE_SECONDS + 1)],
                stdout=subprocess.PIPE,
                text=True,
            )
            try:
                assert flooder.stdout is not None
                assert flooder.stdout.readline().strip() == "flooding"
                loaded = pace()
                out, _ = flooder.communicate(timeout=60)
            finally:
                flooder.kill()
            sent = [int(out.split()[-1])]
        print(
            f"honest hard table: {quiet} actions in {PACE_SECONDS:g} s quiet, {loaded} "
            f"under a flood of {sent[0]} hints"
        )
        assert quiet > 0 and loaded * 4 >= quiet, (quiet, loaded, sent[0])


# ----------------------------------------------------------------------------- 12 sockets
def honest_latency(base: str, actions: int = 8) -> float:
    """The median seconds from an honest player's action to the view it makes, over
    ``actions`` of their turns (at new tables, one hand each), from 127.0.0.2 (another
    address on loopback)."""
    from websockets.sync.client import connect

    port = int(base.rsplit(":", 1)[1])
    times: list[float] = []
    local = httpx.HTTPTransport(local_address="127.0.0.2")
    with httpx.Client(base_url=base, transport=local, timeout=20) as http:
        while len(times) < actions:
            body = {"seats": ["open", "random", "random", "random"], "options": {"delay": 0}}
            code = http.post("/api/tables", json=body).json()["table"]
            seat = http.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).json()
            sock = socket.create_connection(
                ("127.0.0.1", port), 10, source_address=("127.0.0.2", 0)
            )
            with connect(ws_url(base, code, seat["token"]), sock=sock, open_timeout=10) as ws:

                def view(predicate: Any) -> dict[str, Any]:
                    while True:
                        message = json.loads(ws.recv(timeout=20))
                        if message["type"] == "view" and predicate(message):
                            return dict(message)

                def turn_or_done(m: dict[str, Any]) -> bool:
                    return bool(m["view"]["legal"]) or m["view"]["phase"] == "done"

                mine = view(turn_or_done)
                while mine["view"]["legal"] and len(times) < actions:
                    action = {
                        "type": "action",
                        "action": mine["view"]["legal"][0],
                        "version": mine["version"],
                    }
                    started = time.perf_counter()
                    ws.send(json.dumps(action))
                    after = view(lambda m, v=mine["version"]: m["version"] > v)
                    times.append(time.perf_counter() - started)
                    mine = after if turn_or_done(after) else view(turn_or_done)
    return statistics.median(times)


def test_one_addresses_idle_sockets_are_capped_and_dropped_and_others_play_on(
    tmp_path: Any,
) -> None:
    """1,000 idle sockets from one address: past the cap each is closed at once, the rest
    when no request head comes in time, and an honest player at another address keeps
    their action-to-view latency within 2x of its quiet value meanwhile."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 2600:  # the sockets' both ends are in this process
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(4096, hard), hard))
    protocol = guarded_protocol(AutoHTTPProtocol, header_seconds=2.0)
    with thread_server(database_url("sqlite", tmp_path), http=protocol) as base:
        honest_latency(base, 4)  # warm
        quiet = honest_latency(base)
        port = int(base.rsplit(":", 1)[1])
        idle = []
        for _ in range(1000):
            sock = socket.socket()
            sock.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                sock.connect(("127.0.0.1", port))
            idle.append(sock)

        def closed() -> int:
            count = 0
            for sock in idle:
                try:
                    count += sock.recv(1) == b""
                except (BlockingIOError, OSError) as error:
                    count += not isinstance(error, BlockingIOError)
            return count

        try:
            poll(lambda: closed() >= 1000 - CONNECTIONS_PER_ADDRESS, 30)
            loaded = honest_latency(base)
            poll(lambda: closed() == 1000, 30)  # no request head came: all dropped
        finally:
            for sock in idle:
                sock.close()
        assert loaded < 2 * quiet + 0.005, (quiet, loaded)


def test_one_address_has_a_share_of_sockets_and_slow_bodies_time_out(
    tmp_path: Any, monkeypatch: Any
) -> None:
    import websockets
    from websockets.exceptions import InvalidStatus

    monkeypatch.setattr(guard, "BODY_SECONDS", 0.5)
    with thread_server(database_url("sqlite", tmp_path)) as base:
        from fivehundred.web.server import SPECTATORS_PER_ADDRESS

        body = {"seats": ["open"] * 4}
        tables = -(-guard.SOCKETS_PER_ADDRESS // SPECTATORS_PER_ADDRESS) + 1
        codes = [httpx.post(base + "/api/tables", json=body).json()["table"] for _ in range(tables)]

        async def sockets() -> int:
            async with contextlib.AsyncExitStack() as held:
                for n in range(guard.SOCKETS_PER_ADDRESS):  # each table's spectator share
                    url = ws_url(base, codes[n // SPECTATORS_PER_ADDRESS])
                    await held.enter_async_context(websockets.connect(url, max_queue=None))
                try:
                    async with websockets.connect(ws_url(base, codes[-1]), max_queue=None):
                        return 101
                except InvalidStatus as refused:
                    return int(refused.response.status_code)

        assert asyncio.run(sockets()) == 403, "a socket past the address's share was refused"
        port = int(base.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), 10) as slow:
            slow.sendall(
                b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"
            )
            slow.settimeout(20)
            assert slow.recv(100).startswith(b"HTTP/1.1 408")


def test_one_address_has_a_share_of_requests_under_way(tmp_path: Any) -> None:
    """One address holds 64 long polls: its next request is answered 429 at once, while
    another address (127.0.0.2) is served as usual."""
    with thread_server(database_url("sqlite", tmp_path)) as base:
        entry = httpx.post(f"{base}/api/play-now", json={"name": "Ann", "wait": 60})
        ticket = entry.json()["ticket"]

        async def held() -> tuple[int, str, int]:
            limits = httpx.Limits(max_connections=2 * guard.REQUESTS_PER_ADDRESS)
            async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as client:
                polls = [
                    asyncio.create_task(client.get(f"/api/play-now/{ticket}?wait=8"))
                    for _ in range(guard.REQUESTS_PER_ADDRESS)
                ]
                deadline = time.monotonic() + 8
                while (refused := await client.get("/api/tables")).status_code != 429:
                    assert time.monotonic() < deadline, "the cap never came"
                    await asyncio.sleep(0.02)
                other = httpx.AsyncHTTPTransport(local_address="127.0.0.2")
                async with httpx.AsyncClient(base_url=base, transport=other) as stranger:
                    served = (await stranger.get("/api/tables")).status_code
                answers = await asyncio.gather(*polls)
            assert {a.status_code for a in answers} == {200}
            return refused.status_code, refused.json()["detail"], served

        status, detail, served = asyncio.run(held())
        assert status == 429 and f"{guard.REQUESTS_PER_ADDRESS} requests under way" in detail
        assert served == 200


# ----------------------------------------------------------------------------- 16 the rest
def test_rematch_chains_count_against_the_table_creation_limit(tmp_path: Any) -> None:
    limits = Limits(allowed_hosts=["*"], create_per_minute=0.01, create_burst=2)
    app = create_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", workers=0, limits=limits)
    with TestClient(app) as client:
        body = {
            "seats": ["open", "random", "random", "random"],
            "rules": {"variants": {"target": 10}},
            "options": {"delay": 0, "grace": 0, "stand_in": "random"},
        }
        code = client.post("/api/tables", json=body).json()["table"]
        token = client.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).json()["token"]
        answers = []
        for _ in range(2):  # the stand-in plays Ann's seat (grace 0) to the end
            poll(lambda c=code: client.get(f"/api/tables/{c}").json()["finished"])
            answer = client.post(f"/api/tables/{code}/rematch", json={"token": token})
            answers.append((answer.status_code, answer.json()))
            if answer.status_code != 200:
                break
            code, token = answer.json()["table"], answer.json()["token"]
        assert answers[0][0] == 200, answers  # the second table of the burst of two
        assert answers[1][0] == 409 and "too many new tables" in answers[1][1]["detail"]


def test_one_address_takes_a_share_of_a_tables_spectator_places(tmp_path: Any) -> None:
    from fivehundred.web.server import SPECTATORS_PER_ADDRESS

    with TestClient(create_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", workers=0)) as client:
        code = client.post("/api/tables", json={"seats": ["open"] * 4}).json()["table"]
        with contextlib.ExitStack() as watching:
            for _ in range(SPECTATORS_PER_ADDRESS):
                ws = watching.enter_context(client.websocket_connect(f"/ws/tables/{code}"))
                assert ws.receive_json()["type"] == "view"
            with client.websocket_connect(f"/ws/tables/{code}") as extra:
                closed = extra.receive()
        assert closed["type"] == "websocket.close" and closed["code"] == 1013
        assert "watches this table" in closed["reason"]


def test_guests_may_not_sit_under_reserved_names_nor_accounts_be_named_deleted(
    tmp_path: Any,
) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", workers=0)) as client:
        code = client.post("/api/tables", json={"seats": ["open"] * 4}).json()["table"]
        for name in ("expert", "Spectator", "open", "deleted-1a2b3c4d", "Hard"):
            taken = client.post(f"/api/tables/{code}/seats/0", json={"name": name})
            assert taken.status_code == 422 and "reserved" in taken.json()["detail"], name
        for name in ("Deleted-1a2b3c4d", "DELETED-x"):
            made = client.post("/api/accounts", json={"name": name, "password": "x" * 12})
            assert made.status_code == 422 and "reserved" in made.json()["detail"], name
        assert client.post(f"/api/tables/{code}/seats/0", json={"name": "Ann"}).status_code == 200


# ----------------------------------------------------------------------------- 15 logins
def test_a_stranger_guessing_at_a_name_does_not_keep_its_owner_out(tmp_path: Any) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", workers=0)
    with TestClient(app, client=("203.0.113.5", 1000)) as owner:
        made = owner.post("/api/accounts", json={"name": "Olga", "password": "right-password"})
        assert made.status_code == 201
        stranger = TestClient(app, client=("198.51.100.7", 2000))
        refused = [
            stranger.post("/api/session", json={"name": "Olga", "password": f"guess{n}"})
            for n in range(12)
        ]
        assert {r.status_code for r in refused[:5]} == {401}
        assert refused[-1].status_code == 429  # the stranger's own attempts are limited
        owner.cookies.clear()
        back = owner.post("/api/session", json={"name": "olga", "password": "right-password"})
        assert back.status_code == 200 and back.json()["name"] == "Olga"


def test_login_limits_hold_across_the_servers_of_one_database(tmp_path: Any) -> None:
    url = database_url("postgresql", tmp_path)
    first = create_app(url, workers=0, cluster=False)
    second = create_app(url, workers=0, cluster=False)
    with TestClient(first) as one, TestClient(second) as two:
        codes = [
            client.post("/api/session", json={"name": "Nobody", "password": "x" * 12}).status_code
            for _ in range(4)
            for client in (one, two)
        ]
    assert codes[:5] == [401] * 5 and set(codes[5:]) == {429}, codes


# ----------------------------------------------------------------------------- 14 ratings
def rate_finished(
    tmp_path: Any,
    seats: list[tuple[str, str]] | list[tuple[str, str, str]],
    body: dict[str, Any],
    by: str | None = None,
    sit: bool = False,
) -> str:
    """Accounts ``(name, address[, device cookie])`` seated in order at a new table of
    ``body`` (the first by making it, with ``sit``); the stand-in plays them all (grace 0,
    nobody connects); what the ratings made of the game (with every move's maker
    rewritten as ``by`` first, if given, and the server's own rating of the game undone)."""
    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    app = create_app(url, workers=0, allow_seeds=True)
    # (the table is made by the client that runs the app's loop: its tasks live there)
    maker = (seats[0][1], 999) if sit else ("testclient", 50000)
    with TestClient(app, client=maker) as lobby:
        code = None if sit else lobby.post("/api/tables", json=body).json()["table"]
        for seat, (name, address, *device) in enumerate(seats):
            client = lobby if code is None else TestClient(app, client=(address, 1000 + seat))
            if device:
                client.cookies.set(DEVICE_COOKIE, device[0])
            made = client.post("/api/accounts", json={"name": name, "password": "x" * 12})
            assert made.status_code == 201, made.text
            if code is None:
                code = client.post("/api/tables", json={**body, "sit": 0}).json()["table"]
                client.cookies.clear()
                continue
            assert client.post(f"/api/tables/{code}/seats/{seat}", json={"name": name}).is_success
        poll(lambda: lobby.get(f"/api/tables/{code}").json()["finished"], 60)
        facts = lobby.get(f"/api/tables/{code}").json()
    engine = sa.create_engine(url)
    try:
        if by is not None:
            with engine.begin() as db:
                db.execute(sa.text("UPDATE actions SET by = :by"), {"by": by})
                for table in ("rated_games", "ratings", "rating_history"):
                    db.execute(sa.text(f"DELETE FROM {table}"))  # rated again below
        outcome = AccountStore(engine).rate_game(code)
    finally:
        engine.dispose()
    return f"{outcome} ({facts['hands_played']} hands)"


def test_short_games_and_accounts_of_one_address_are_not_rated(tmp_path: Any) -> None:
    short = {
        "seats": ["open", "open"],
        "seed": 5,
        "rules": {"preset": "two_handed", "variants": {"target": 10}},
        "options": {"delay": 0, "grace": 0},
    }
    two = [("Ann", "192.0.2.1"), ("Bob", "192.0.2.2")]
    assert rate_finished(tmp_path / "a", two, short).startswith("unrated: shorter than")
    longer = {**short, "rules": {"preset": "two_handed", "variants": {"target": 500}}}
    same = [("Cat", "192.0.2.9"), ("Dan", "192.0.2.9")]
    outcome = rate_finished(tmp_path / "b", same, longer)
    assert outcome.startswith("unrated: accounts playing from one address"), outcome


def test_accounts_of_one_device_are_not_rated_and_the_device_cookie_is_kept(
    tmp_path: Any,
) -> None:
    """Two accounts from two addresses but one browser (its device cookie): unrated. The
    maker of a table who sits at it counts with their address too. A browser gets its
    device cookie (HttpOnly, SameSite=Lax, for a year) once, and keeps it."""
    body = {
        "seats": ["open", "open"],
        "seed": 5,
        "rules": {"preset": "two_handed", "variants": {"target": 500}},
        "options": {"delay": 0, "grace": 0},
    }
    device = "d" * 24
    same = [("Ida", "192.0.2.5", device), ("Jon", "192.0.2.6", device)]
    outcome = rate_finished(tmp_path / "a", same, body)
    assert outcome.startswith("unrated: accounts playing from one device"), outcome
    apart = [("Kay", "192.0.2.7", "e" * 24), ("Lou", "192.0.2.7", "f" * 24)]
    outcome = rate_finished(tmp_path / "b", apart, body, sit=True)
    assert outcome.startswith("unrated: accounts playing from one address"), outcome
    with TestClient(create_app(f"sqlite:///{tmp_path / 'c.sqlite3'}", workers=0)) as client:
        given = client.get("/").headers["set-cookie"]
        assert given.startswith(f"{DEVICE_COOKIE}=") and "HttpOnly" in given
        assert "SameSite=lax" in given and f"Max-Age={365 * 86400}" in given
        assert "set-cookie" not in client.get("/").headers  # kept: not given again
        assert "set-cookie" not in client.get("/healthz").headers


def test_a_game_the_turn_timer_played_is_never_the_idle_accounts_win(tmp_path: Any) -> None:
    """Two accounts connected and idle: the turn timer's stand-in made every move (the
    log says ``timer``). Neither is credited a win: both count as absent."""
    body = {
        "seats": ["open", "open"],
        "seed": 5,
        "rules": {"preset": "two_handed", "variants": {"target": 500}},
        "options": {"delay": 0, "grace": 0},
    }
    seats = [("Eve", "192.0.2.3"), ("Fay", "192.0.2.4")]
    outcome = rate_finished(tmp_path, seats, body, by="timer")
    assert outcome.startswith("absent: seats [0, 1]"), outcome


# ----------------------------------------------------------------------------- 13 sessions
def test_logging_out_everywhere_closes_the_sessions_sockets_and_revokes_its_seat_tokens(
    tmp_path: Any,
) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", workers=0)
    with TestClient(app) as client:
        made = client.post("/api/accounts", json={"name": "Gus", "password": "x" * 12})
        assert made.status_code == 201
        code = client.post("/api/tables", json={"seats": ["open"] * 4}).json()["table"]
        token = client.post(f"/api/tables/{code}/seats/1", json={"name": "-"}).json()["token"]
        with client.websocket_connect(f"/ws/tables/{code}?token={token}") as ws:
            assert ws.receive_json()["seat"] == 1
            assert client.delete("/api/session?everywhere=true").status_code == 200
            while (message := ws.receive())["type"] != "websocket.close":
                pass
        assert message["code"] == 4401 and "session ended" in message["reason"]
        with client.websocket_connect(f"/ws/tables/{code}?token={token}") as again:
            refused = again.receive()
        assert refused["type"] == "websocket.close" and refused["code"] == 4401


def test_a_deleted_account_leaves_the_play_now_queue_and_its_id_is_never_reused(
    tmp_path: Any,
) -> None:
    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    engine = sa.create_engine(url)

    def ids() -> dict[str, int]:
        with engine.connect() as db:
            return dict(db.execute(sa.text("SELECT name, id FROM accounts")).all())  # type: ignore[arg-type]

    with TestClient(create_app(url, workers=0)) as client:
        client.post("/api/accounts", json={"name": "Hal", "password": "x" * 12})
        hal = ids()["Hal"]
        ticket = client.post("/api/play-now", json={"wait": 60}).json()["ticket"]
        gone = client.request("DELETE", "/api/accounts/me", json={"password": "x" * 12})
        assert gone.status_code == 200
        assert client.get(f"/api/play-now/{ticket}").status_code == 404
        client.post("/api/accounts", json={"name": "Kim", "password": "x" * 12})
        assert ids()["Kim"] != hal
    engine.dispose()


def test_one_visitor_has_a_bounded_share_of_the_analysis_queue(
    tmp_path: Any, monkeypatch: Any
) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from fivehundred.web import history

    release = threading.Event()

    def held(key: str) -> dict[str, Any]:
        release.wait(30)
        return {}

    monkeypatch.setattr(history, "_analyse_record", held)
    monkeypatch.setattr(history, "_analyses", {})
    history.set_executor(ThreadPoolExecutor(max_workers=1))
    try:
        app = create_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", workers=0, allow_seeds=True)
        with TestClient(app) as client:
            body = {
                "seats": ["random"] * 4,
                "rules": {"variants": {"target": 10}},
                "options": {"delay": 0},
            }
            codes = [
                client.post("/api/tables", json={**body, "seed": seed}).json()["table"]
                for seed in range(history.ANALYSES_PER_VISITOR + 1)
            ]
            for code in codes:
                poll(lambda c=code: client.get(f"/api/tables/{c}").json()["finished"], 60)
            answers = [client.get(f"/api/tables/{code}/hands/1/analysis") for code in codes]
            assert [a.status_code for a in answers[:-1]] == [200] * history.ANALYSES_PER_VISITOR
            assert answers[-1].status_code == 429 and "under way" in answers[-1].json()["detail"]
            release.set()
    finally:
        release.set()
        history.shutdown()


def test_a_person_waiting_for_people_is_not_sniped_into_a_table_of_computers(
    tmp_path: Any,
) -> None:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'w.sqlite3'}", workers=0)) as client:
        clock = Clock()
        client.app.state.matchmaker.clock = clock
        honest = client.post(
            "/api/play-now", json={"wait": 60, "name": "Nan", "level": "medium"}
        ).json()
        assert honest["status"] == "waiting"
        sniper = client.post(
            "/api/play-now", json={"wait": 0, "level": "random", "name": "Sam"}
        ).json()
        # the one who would start at once waits with the person waiting for people
        assert sniper["status"] == "waiting"
        still = client.get(f"/api/play-now/{honest['ticket']}").json()
        assert still["status"] == "waiting", still
        clock.now += 60  # Nan's wait is over: the table is made on her terms
        nan = client.get(f"/api/play-now/{honest['ticket']}").json()
        assert nan["status"] == "seated", nan
        table = client.get(f"/api/tables/{nan['table']}").json()
        assert [s["name"] for s in table["seats"] if s["kind"] == "person"] == ["Nan", "Sam"]
        assert {s["name"] for s in table["seats"] if s["kind"] == "computer"} == {"medium"}


def test_sessions_that_end_on_one_server_end_on_the_others_too(tmp_path: Any) -> None:
    """Two servers on one PostgreSQL: Gus's seat socket and his play-now place are on the
    second; he logs out everywhere, then deletes his account, on the first. The second
    closes the socket, refuses the old seat token, and drops his place in its queue."""
    import websockets.sync.client as ws_client

    url = database_url("postgresql", tmp_path)
    with (
        thread_server(url) as first,
        thread_server(url) as second,
        httpx.Client(base_url=first) as one,
    ):
        made = one.post("/api/accounts", json={"name": "Gus", "password": "x" * 12})
        assert made.status_code == 201
        code = one.post("/api/tables", json={"seats": ["open"] * 4}).json()["table"]
        token = one.post(f"/api/tables/{code}/seats/1", json={"name": "-"}).json()["token"]
        with ws_client.connect(ws_url(second, code, token)) as ws:
            assert json.loads(ws.recv(10))["seat"] == 1
            assert one.delete("/api/session?everywhere=true").status_code == 200
            with contextlib.suppress(Exception):
                while True:
                    ws.recv(10)
            assert ws.close_code == 4401 and "session ended" in (ws.close_reason or "")
        with ws_client.connect(ws_url(second, code, token)) as again:
            with contextlib.suppress(Exception):
                again.recv(10)
            assert again.close_code == 4401
        assert one.post("/api/session", json={"name": "Gus", "password": "x" * 12}).is_success
        cookies = dict(one.cookies)
        with httpx.Client(base_url=second, cookies=cookies) as two:
            ticket = two.post("/api/play-now", json={"wait": 60}).json()["ticket"]
            assert two.get(f"/api/play-now/{ticket}").status_code == 200
            gone = one.request("DELETE", "/api/accounts/me", json={"password": "x" * 12})
            assert gone.status_code == 200
            poll(lambda: two.get(f"/api/play-now/{ticket}").status_code == 404, 10)
