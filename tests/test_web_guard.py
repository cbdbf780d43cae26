"""Hostile input as a client sees it, on a real uvicorn on a loopback port: every number
within its range, JSON nesting and body size limited before anything is read, close
reasons that fit their frame, the Host and Origin checks, only the offered computer
players; and fair use: token buckets per address, the cap on a client's tables, the
expiry of tables nobody plays at, a stand-in for open seats."""

from __future__ import annotations

import asyncio
import json
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from websockets.exceptions import ConnectionClosed, InvalidStatus

from fivehundred.bots import player_choices
from fivehundred.web.guard import Buckets, Limits, close_reason, host_allowed, json_depth
from test_web_support import database_url, thread_server, ws_url

TABLE = {"seats": ["open"] * 4, "options": {"delay": 0}}


def limits(**changes: Any) -> Limits:
    """Generous limits but for ``changes`` (the Host check as ``fivehundred serve``'s)."""
    base: dict[str, Any] = {
        "create_per_minute": 10_000,
        "create_burst": 10_000,
        "seat_per_minute": 10_000,
        "seat_burst": 10_000,
        "tables_per_client": 10_000,
    }
    return Limits(**{**base, **changes})


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[str]:
    chosen = limits(**getattr(request, "param", {}))
    with thread_server(database_url("sqlite", tmp_path), limits=chosen) as base:
        yield base


def post(base: str, path: str, body: Any, **headers: str) -> httpx.Response:
    return httpx.post(base + path, json=body, headers=headers, timeout=30)


def poll(condition: Any, timeout: float = 30.0) -> Any:
    """Wait for ``condition()`` to be true (a state, polled), bounded."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError("the state never came")
        time.sleep(0.05)


# ----------------------------------------------------------------------------- units
def test_json_depth_skips_strings_and_counts_nesting() -> None:
    assert json_depth('{"a": [1, {"b": "[[[[{{"}]}') == 3
    assert json_depth("[" * 1500 + "]" * 1500) == 1500
    assert json_depth('"\\"[["') == 0


def test_close_reason_fits_a_close_frame() -> None:
    assert close_reason("short") == "short"
    long = close_reason("é" * 300)
    assert len(long.encode()) <= 123 and long.endswith("...")


def test_buckets_refill_at_their_rate() -> None:
    now = [0.0]
    buckets = Buckets(per_minute=60, burst=2, clock=lambda: now[0])
    assert buckets.take("a") == 0 and buckets.take("a") == 0
    assert buckets.take("a") == pytest.approx(1.0)
    assert buckets.take("b") == 0  # another address has its own
    now[0] += 1.0
    assert buckets.take("a") == 0


def test_hosts_by_default_are_localhost_and_addresses() -> None:
    assert host_allowed("localhost", None) and host_allowed("192.168.1.5", None)
    assert host_allowed("::1", None) and not host_allowed("rebind.example", None)
    assert host_allowed("cards.example.org", [".example.org"])
    assert not host_allowed("example.org.evil", [".example.org"])


def test_limits_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError, match="json-depth"):
        Limits(json_depth=100_000).check()


# ----------------------------------------------------------------------------- numbers
def test_numbers_out_of_range_get_422_and_the_connection_stays(server: str) -> None:
    with httpx.Client(base_url=server, timeout=30) as client:
        for page in (10**30, 2**63 - 1, 0, -1):
            answer = client.get(f"/api/games?page={page}")
            assert answer.status_code == 422, answer.text
            assert answer.json()["detail"].startswith("page:")
        assert client.get("/api/games?page=2").status_code == 200  # the same connection

        def detail(body: dict[str, Any]) -> str:
            answer = client.post("/api/tables", json=body)
            assert answer.status_code == 422, answer.text
            return str(answer.json()["detail"])

        assert detail({**TABLE, "rules": {"variants": {"target": 10**30}}}).startswith(
            "rules: target must be 10 to 10000"
        )
        assert detail({**TABLE, "options": {"grace": 10**30}}).startswith("options.grace:")
        assert detail({**TABLE, "options": {"turn_timer": 0}}).startswith("options.turn_timer:")
        assert detail({**TABLE, "options": {"delay": 11}}).startswith("options.delay:")
        assert detail({**TABLE, "seed": 2**70}).startswith("seed:")
        nan = client.post(
            "/api/tables",
            content=b'{"seats": ["open","open","open","open"], "options": {"grace": NaN}}',
            headers={"content-type": "application/json"},
        )
        assert nan.status_code == 422, nan.text


def test_only_the_offered_computer_players_may_sit(server: str) -> None:
    answer = post(
        server, "/api/tables", {**TABLE, "seats": ["pimc:3000000", "open", "open", "open"]}
    )
    assert answer.status_code == 422
    assert answer.json()["detail"].startswith("seats[0]: 'pimc:3000000' is not offered")
    answer = post(server, "/api/tables", {**TABLE, "options": {"stand_in": "pimc:99"}})
    assert answer.status_code == 422 and answer.json()["detail"].startswith("options.stand_in:")
    for name in player_choices():
        body = {**TABLE, "seats": ["open", name, "open", "open"]}
        assert post(server, "/api/tables", body).status_code == 201, name


# ----------------------------------------------------------------------------- bodies
def test_a_large_body_is_refused_before_it_is_read(server: str) -> None:
    host, port = server.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), 10) as sock:
        sock.sendall(
            f"POST /api/tables HTTP/1.1\r\nHost: {host}:{port}\r\n"
            "Content-Type: application/json\r\nContent-Length: 5000000\r\n\r\n".encode()
        )
        sock.settimeout(10)
        answer = sock.recv(4096).decode()  # answered with none of the 5 MB sent
    assert answer.startswith("HTTP/1.1 413"), answer
    assert "limited to 16384 bytes" in answer
    chunked = httpx.post(
        server + "/api/tables",
        content=iter([b"x" * 10_000] * 3),
        headers={"content-type": "application/json"},
    )
    assert chunked.status_code == 413


def test_deep_json_bodies_are_refused(server: str) -> None:
    deep = '{"seats": ["open","open","open","open"], "rules": {"variants": {"x": ' + "[" * 1500
    answer = httpx.post(
        server + "/api/tables",
        content=deep + "]" * 1500 + "}}}",
        headers={"content-type": "application/json"},
    )
    assert answer.status_code == 400
    assert answer.json() == {"detail": "body: JSON nested deeper than 32 levels"}


def test_openapi_is_not_served_unless_the_docs_are(server: str, tmp_path: Path) -> None:
    assert httpx.get(server + "/openapi.json").status_code == 404
    assert httpx.get(server + "/docs").status_code == 404
    with thread_server(database_url("sqlite", tmp_path / "docs"), limits=limits(docs=True)) as base:
        assert httpx.get(base + "/openapi.json").json()["info"]["title"] == "Five Hundred"


# ----------------------------------------------------------------------------- hosts
def test_dns_rebinding_is_refused(server: str) -> None:
    rebind = {"host": "rebind.example", "origin": "http://rebind.example"}
    answer = httpx.get(server + "/api/tables", headers=rebind)
    assert answer.status_code == 400
    assert answer.json()["detail"].startswith("this server does not answer to the host")
    code = post(server, "/api/tables", TABLE).json()["table"]

    async def handshake() -> None:
        async with websockets.connect(ws_url(server, code), additional_headers=rebind):
            raise AssertionError("the handshake was accepted")

    with pytest.raises(InvalidStatus) as refused:
        asyncio.run(handshake())
    assert refused.value.response.status_code == 403
    # a foreign Origin on a request that changes something
    other = post(server, "/api/tables", TABLE, origin="http://evil.example")
    assert other.status_code == 403 and "another site" in other.json()["detail"]
    assert post(server, "/api/tables", TABLE, origin=server).status_code == 201


@pytest.mark.parametrize("server", [dict(allowed_hosts=["cards.example.org"])], indirect=True)
def test_a_named_host_is_served(server: str) -> None:
    assert httpx.get(server + "/healthz", headers={"host": "cards.example.org"}).status_code == 200
    assert httpx.get(server + "/api/tables").status_code == 400  # 127.0.0.1 is not listed
    # (a health check to 127.0.0.1 is answered: a balancer's or a scrape, docs/deploy.md)
    assert httpx.get(server + "/healthz").status_code == 200


# ----------------------------------------------------------------------------- sockets
def test_deep_chat_is_refused_and_the_socket_stays(server: str) -> None:
    code = post(server, "/api/tables", TABLE).json()["table"]

    async def scenario() -> list[dict[str, Any]]:
        async with websockets.connect(ws_url(server, code)) as ws:
            await ws.send('{"type": "chat", "text": ' + "[" * 1500 + "]" * 1500 + "}")
            await ws.send('{"type": "ping"}')
            got = []
            while not got or got[-1]["type"] != "pong":
                got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
            return got

    messages = asyncio.run(scenario())
    errors = [m for m in messages if m["type"] == "error"]
    assert errors and errors[0]["message"] == "JSON nested deeper than 32 levels"


def test_a_long_table_code_closes_4404(server: str) -> None:
    async def scenario(code: str) -> tuple[int, str]:
        async with websockets.connect(ws_url(server, code)) as ws:
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 10)
        assert closed.value.rcvd is not None
        return closed.value.rcvd.code, closed.value.rcvd.reason

    for code in ("A" * 120, "é" * 200, "ZZZZZZ"):
        status, reason = asyncio.run(scenario(code))
        assert status == 4404 and reason.startswith("no table ") and len(reason.encode()) <= 123


# ----------------------------------------------------------------------------- fair use
@pytest.mark.parametrize("server", [dict(create_per_minute=1, create_burst=2)], indirect=True)
def test_creating_tables_is_rate_limited_with_retry_after(server: str) -> None:
    assert [post(server, "/api/tables", TABLE).status_code for _ in range(2)] == [201, 201]
    refused = post(server, "/api/tables", TABLE)
    assert refused.status_code == 429
    assert 1 <= int(refused.headers["retry-after"]) <= 60
    assert refused.json()["detail"].startswith("too many tables from your address")


@pytest.mark.parametrize("server", [dict(seat_per_minute=1, seat_burst=1)], indirect=True)
def test_taking_seats_is_rate_limited(server: str) -> None:
    code = post(server, "/api/tables", TABLE).json()["table"]
    assert post(server, f"/api/tables/{code}/seats/0", {"name": "Ann"}).status_code == 200
    refused = post(server, f"/api/tables/{code}/seats/1", {"name": "Bob"})
    assert refused.status_code == 429 and int(refused.headers["retry-after"]) >= 1


@pytest.mark.parametrize(
    "server", [dict(tables_per_client=2, expire_unjoined=1, sweep_seconds=0.1)], indirect=True
)
def test_the_cap_counts_live_tables_and_unjoined_tables_expire(server: str) -> None:
    codes = [post(server, "/api/tables", TABLE).json()["table"] for _ in range(2)]
    capped = post(server, "/api/tables", TABLE)
    assert capped.status_code == 429 and "2 unfinished tables" in capped.json()["detail"]
    assert "retry-after" in capped.headers

    # nobody joins: both are closed, and the client may create tables again
    def facts(code: str) -> dict[str, Any]:
        return dict(httpx.get(f"{server}/api/tables/{code}").json())

    assert poll(lambda: all(facts(code)["closed"] for code in codes))
    assert not any(facts(code)["finished"] for code in codes)
    assert post(server, "/api/tables", TABLE).status_code == 201
    lobby = httpx.get(f"{server}/api/tables").json()["tables"]
    assert not {t["table"] for t in lobby} & set(codes)
    assert post(server, f"/api/tables/{codes[0]}/seats/0", {"name": "Ann"}).status_code == 409

    async def connect() -> int:
        async with websockets.connect(ws_url(server, codes[0])) as ws:
            with pytest.raises(ConnectionClosed) as closed:
                await asyncio.wait_for(ws.recv(), 10)
        assert closed.value.rcvd is not None
        return closed.value.rcvd.code

    assert asyncio.run(connect()) == 4410


@pytest.mark.parametrize("server", [dict(expire_abandoned=2, sweep_seconds=0.1)], indirect=True)
def test_a_table_everyone_left_closes_and_its_hands_stay_in_the_history(server: str) -> None:
    body = {
        "seats": ["open", "heuristic", "heuristic", "heuristic"],
        "rules": {"variants": {"target": 10_000}},
        "options": {"delay": 0, "grace": 0},
    }
    code = post(server, "/api/tables", body).json()["table"]
    assert post(server, f"/api/tables/{code}/seats/0", {"name": "Zed"}).status_code == 200
    # Zed never connects: the stand-in plays for Zed until the table is closed
    facts = poll(
        lambda: (
            ((f := httpx.get(f"{server}/api/tables/{code}").json())["closed"] or f["finished"])
            and f
        )
    )
    if facts["finished"]:
        pytest.skip("the game ended before the expiry")
    stats = httpx.get(f"{server}/api/players/Zed").json()
    # the hands stay in the history, as the stand-in's: Zed played none of them
    assert stats["games"] == 1 and stats["stand_in_hands"] == facts["hands_played"]
    assert stats["hands"] == 0 and stats["recent"][0]["outcome"] == "closed"
    version = facts["version"]
    assert httpx.get(f"{server}/api/tables/{code}").json()["version"] == version  # stopped


@pytest.mark.parametrize("server", [dict(open_seat_grace=1)], indirect=True)
def test_an_open_seat_gets_a_stand_in(server: str) -> None:
    body = {"seats": ["open", "random", "random", "random"], "options": {"delay": 0}}
    code = post(server, "/api/tables", body).json()["table"]
    facts = poll(
        lambda: (f := httpx.get(f"{server}/api/tables/{code}").json())["version"] > 8 and f
    )
    assert facts["seats"][0]["kind"] == "open"  # still open: anyone may take it
    assert post(server, f"/api/tables/{code}/seats/0", {"name": "Ann"}).status_code == 200


# ----------------------------------------------------------------------------- ceiling
def test_a_decision_past_its_ceiling_is_made_by_the_heuristic(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from fivehundred.bots import decide as decide_module
    from fivehundred.table import Table
    from fivehundred.web.worker import bounded_decide

    original = decide_module.decide

    def slow(player: str, seed: int, observation: Any) -> Any:
        while player == "slow":  # a search that never ends
            time.sleep(0.001)
        return original(player, seed, observation)

    monkeypatch.setattr(decide_module, "decide", slow)
    from fivehundred.rules import make_rules

    model = Table(make_rules("australian"), ["heuristic"] * 4, 5)
    observation = model.observation(model.seat_to_move)
    started = time.monotonic()
    action, _, stopped = bounded_decide("slow", 1, observation, 0.2)
    assert stopped and action in observation.legal
    assert time.monotonic() - started < 10
    assert bounded_decide("heuristic", 1, observation, 5.0) == (
        *original("heuristic", 1, observation),
        False,
    )


def test_one_clients_search_tables_take_turns() -> None:
    from fivehundred.web.live import Decider, Hub

    async def scenario() -> list[str]:
        hub = Hub(None, Decider(0))  # type: ignore[arg-type]  # no database needed here
        order: list[str] = []
        inside: dict[str, int] = {}

        async def search(key: str, name: str) -> None:
            async with hub.search_turn(key):
                inside[key] = inside.get(key, 0) + 1
                order.append(f"{name}+{inside[key]}")
                await asyncio.sleep(0.01)
                inside[key] -= 1

        await asyncio.gather(*(search("abuser", f"a{i}") for i in range(3)), search("visitor", "v"))
        assert not hub._search_turns  # forgotten once nobody waits
        return order

    order = asyncio.run(scenario())
    # never two of the abuser's searches at once; the visitor's goes beside the first
    assert all(entry.endswith("+1") for entry in order)
    assert order.index("v+1") < order.index("a1+1")


def test_an_ipv6_visitor_is_counted_by_its_64() -> None:
    from types import SimpleNamespace

    from fivehundred.web.guard import client_address

    def client(host: str) -> str:
        return client_address(SimpleNamespace(client=SimpleNamespace(host=host)))

    assert client("2001:db8::1:2") == client("2001:db8::ffff:1") == "2001:db8::/64"
    assert client("2001:db8:0:1::1") != client("2001:db8::1")
    assert client("192.0.2.7") == "192.0.2.7"
