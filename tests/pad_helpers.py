"""A small FastAPI app with the score pad's router, served by uvicorn on 127.0.0.1 in a
thread, for the pad's tests and screenshots."""

from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextmanager
def pad_server() -> Iterator[str]:
    """Serve an app that includes only the pad's router; yields its base URL."""
    import uvicorn
    from fastapi import FastAPI

    from fivehundred.pad.web import router

    app = FastAPI()
    app.include_router(router)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the pad's test server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


def call(base: str, method: str, path: str, body: Any = None, raw: bytes | None = None
         ) -> tuple[int, Any, Any]:  # fmt: skip
    """One request; returns (status, parsed JSON or text, headers)."""
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    request = urllib.request.Request(base + path, data=data, method=method)
    request.add_header("content-type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            status, payload, headers = response.status, response.read(), response.headers
    except urllib.error.HTTPError as error:
        status, payload, headers = error.code, error.read(), error.headers
    text = payload.decode()
    try:
        return status, json.loads(text), headers
    except ValueError:
        return status, text, headers
