"""Fuzzing the game server on a real uvicorn on a loopback port: every REST operation of its
own OpenAPI description (schemathesis), and WebSocket messages (hypothesis: nesting, types,
sizes, unicode). No answer is a 5xx, no connection closes with 1011, nothing is logged as
an error, each in bounded time."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

from fivehundred.web.guard import Limits
from test_web_support import database_url, thread_server, ws_url

#: Examples per REST operation, and WebSocket scenarios (the whole file stays near 30 s).
REST_EXAMPLES = 30
WS_EXAMPLES = 60
#: Close codes a hostile client may get: a flood, a message too large.
FAIR_CLOSES = {1008, 1009}

FUZZ_LIMITS = Limits(
    allowed_hosts=None,
    docs=True,
    create_per_minute=100_000,
    create_burst=100_000,
    seat_per_minute=100_000,
    seat_burst=100_000,
    tables_per_client=100_000,
)


def fuzz_settings(examples: int) -> settings:
    return settings(
        deadline=None,
        database=None,
        derandomize=True,
        max_examples=examples,
        suppress_health_check=list(HealthCheck),
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("fuzz")
    with thread_server(database_url("sqlite", Path(tmp)), limits=FUZZ_LIMITS) as base:
        yield base


class Errors(logging.Handler):
    """Every record of level ERROR or above (a traceback is logged at ERROR)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture
def errors() -> Iterator[Errors]:
    handler = Errors()
    loggers = [logging.getLogger(name) for name in ("fivehundred", "uvicorn", "uvicorn.error")]
    for logger in loggers:
        logger.addHandler(handler)
    yield handler
    for logger in loggers:
        logger.removeHandler(handler)
    assert not handler.records, [r.getMessage() for r in handler.records]


def test_rest_api_from_its_own_openapi(server: str, errors: Errors) -> None:
    import schemathesis

    schema = schemathesis.openapi.from_url(server + "/openapi.json")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) >= 10
    started = time.monotonic()
    failures: list[str] = []
    for operation in operations:

        @fuzz_settings(REST_EXAMPLES)
        @given(case=operation.as_strategy())
        def check(case: Any) -> None:
            answer = case.call(base_url=server, timeout=30)
            if answer.status_code >= 500:
                failures.append(f"{case.method} {case.formatted_path}: {answer.status_code}")
            assert "Traceback" not in answer.text

        check()
    assert not failures, failures[:10]
    assert time.monotonic() - started < 120


# ----------------------------------------------------------------------------- WebSocket
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
types = st.sampled_from(["action", "chat", "resync", "ping", "hint", "undo", "", "ACTION", "🂡"])
objects = st.fixed_dictionaries(
    {"type": types | st.text(max_size=10)},
    optional={
        "action": st.text(max_size=25) | json_values,
        "version": st.integers() | json_values,
        "text": st.text(max_size=300) | json_values,
    },
)
deep = st.integers(1, 3000).map(lambda n: '{"type": "chat", "text": ' + "[" * n + "]" * n + "}")
messages = (
    objects.map(json.dumps)
    | json_values.map(json.dumps)
    | deep
    | st.text(max_size=5000)
    | st.binary(max_size=5000)
)


def test_websocket_messages(server: str, errors: Errors) -> None:
    body = {"seats": ["open", "random", "random", "random"], "options": {"delay": 0}}
    code = httpx.post(server + "/api/tables", json=body).json()["table"]
    token = httpx.post(f"{server}/api/tables/{code}/seats/0", json={"name": "Fuzz"}).json()["token"]
    started = time.monotonic()

    async def scenario(sent: list[str | bytes], seated: bool) -> None:
        async with websockets.connect(
            ws_url(server, code, token if seated else None), max_size=None
        ) as ws:
            try:
                for message in sent:
                    await ws.send(message)
                await ws.send('{"type": "ping"}')
                while json.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "pong":
                    pass
            except ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code in FAIR_CLOSES, closed

    @fuzz_settings(WS_EXAMPLES)
    @given(sent=st.lists(messages, max_size=12), seated=st.booleans())
    def check(sent: list[str | bytes], seated: bool) -> None:
        asyncio.run(asyncio.wait_for(scenario(sent, seated), 30))

    check()
    assert time.monotonic() - started < 120
    assert httpx.get(f"{server}/api/tables/{code}").status_code == 200
