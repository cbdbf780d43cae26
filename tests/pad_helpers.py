"""A small FastAPI app with the score pad's router, served by uvicorn on 127.0.0.1 in a
thread, for the pad's tests and screenshots."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from contextlib import AbstractContextManager
from typing import Any

from fivehundred.pad.local import CHROMIUM, CHROMIUM_ARGS

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "call", "pad_server"]


def pad_server() -> AbstractContextManager[str]:
    """Serve an app that includes only the pad's router; yields its base URL."""
    from fivehundred.pad.local import local_server

    return local_server()


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
    try:
        text = payload.decode()
    except UnicodeDecodeError:
        return status, payload, headers
    try:
        return status, json.loads(text), headers
    except ValueError:
        return status, text, headers
