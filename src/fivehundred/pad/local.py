"""Serve the pad alone (a FastAPI app with only its router) on 127.0.0.1, in a thread:
for ``fivehundred pad --web``, the tests and the screenshots."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: Debian's Chromium, and the switches it needs to run headless in a container.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def make_app() -> Any:
    from fastapi import FastAPI

    from fivehundred.pad.web import router

    app = FastAPI(title="Five Hundred score pad")
    app.include_router(router)
    return app


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def local_server(port: int = 0, app: Any = None) -> Iterator[str]:
    """Run the pad (or another ASGI ``app``) on 127.0.0.1 (``port`` 0: any free one);
    yields its base URL."""
    import uvicorn

    port = port or free_port()
    server = uvicorn.Server(
        uvicorn.Config(app or make_app(), host="127.0.0.1", port=port, log_level="warning")
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError(f"the pad's server did not start on 127.0.0.1:{port}")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)
