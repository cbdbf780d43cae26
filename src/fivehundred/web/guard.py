"""What keeps one visitor from knocking the server over: its limits (:class:`Limits`, set
from the command line and the environment, docs/deploy.md), the check of the Host and
Origin headers, the size and nesting of request bodies (:class:`Guard`, an ASGI
middleware that refuses before the application reads anything), per-address token
buckets (:class:`Buckets`) and close reasons that fit a WebSocket close frame."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import re
import time
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any
from urllib.parse import urlsplit

import orjson

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: A WebSocket close frame holds at most 125 bytes: the code (2) and a reason of 123.
CLOSE_REASON_BYTES = 123
#: Request bodies of the score pad's endpoints may be this large (its own limit).
PAD_BODY = 512 * 1024
#: Open TCP connections one address may hold (HTTP; a trusted proxy is not counted: the
#: addresses behind it are, by the requests and sockets below). Past it a new connection
#: is closed at once.
CONNECTIONS_PER_ADDRESS = 256
#: Requests one address may have in flight at once (long polls included): 429 beyond.
REQUESTS_PER_ADDRESS = 64
#: WebSockets one address may hold open at once: refused beyond.
SOCKETS_PER_ADDRESS = 64
#: A connection that sends no complete request head for this long (a new one, or one
#: idle between requests) is closed; so is a request whose body stops coming this long.
HEADER_SECONDS = 10.0
BODY_SECONDS = 10.0


@dataclass
class Limits:
    """The server's limits. Each is an option of ``fivehundred serve`` and an environment
    variable (``FIVEHUNDRED_`` and the name in capitals); docs/deploy.md lists them."""

    #: Host names the server answers to (the Host header; an Origin must name the same
    #: host). None: ``localhost`` and any IP address (a name needs listing). ``*``: any.
    #: ``.example.org``: that domain and every name under it.
    allowed_hosts: list[str] | None = None
    #: The largest request body of the game's API (bytes; the score pad's: 512 KiB).
    max_body: int = 16 * 1024
    #: The deepest nesting of JSON arrays and objects in a body or a WebSocket message.
    json_depth: int = 32
    #: Tables one address may create a minute, and at once (a token bucket).
    create_per_minute: float = 10.0
    create_burst: int = 5
    #: Seats one address may take a minute, and at once.
    seat_per_minute: float = 30.0
    seat_burst: int = 10
    #: Unfinished tables one address may have created at once.
    tables_per_client: int = 5
    #: Unfinished tables the server plays at once.
    max_live_tables: int = 2000
    #: A table where nobody sits (open and computer seats only) and nobody watches is
    #: closed after this many seconds.
    expire_unjoined: float = 900.0
    #: A table whose people have all been gone (nobody connected) this long is closed.
    expire_abandoned: float = 3600.0
    #: An open seat nobody took for this long (since the table was made) is played by the
    #: stand-in when it is to move (the seat can still be taken).
    open_seat_grace: float = 600.0
    #: The shortest clock per move a turn-based table may have (seconds; at most 7 days).
    min_move_clock: float = 3600.0
    #: Wall-clock ceiling of one computer decision (seconds); past it the heuristic
    #: decides instead (a safety net: the named settings have a count of positions).
    decision_seconds: float = 30.0
    #: How often the sweep runs (seconds): idle tables let go from memory, old shared
    #: buckets and inbox entries forgotten (the expiry is a row of the deadlines).
    sweep_seconds: float = 15.0
    #: The computer players' pause between moves at the tables of tournaments and club
    #: nights (seconds; a lobby table's own default; 0: at once).
    event_delay: float = 0.6
    #: Serve /docs and /openapi.json (off by default).
    docs: bool = False

    def check(self) -> None:
        """ValueError naming the first limit out of its range."""
        ranges: dict[str, tuple[float, float]] = {
            "max_body": (256, 16 * 1024 * 1024),
            "json_depth": (4, 200),
            "create_per_minute": (0.01, 100_000),
            "create_burst": (1, 100_000),
            "seat_per_minute": (0.01, 100_000),
            "seat_burst": (1, 100_000),
            "tables_per_client": (1, 100_000),
            "max_live_tables": (1, 1_000_000),
            "expire_unjoined": (1, 30 * 86400),
            "expire_abandoned": (1, 30 * 86400),
            "open_seat_grace": (1, 30 * 86400),
            "min_move_clock": (1, 7 * 86400),
            "decision_seconds": (0.5, 3600),
            "sweep_seconds": (0.05, 3600),
            "event_delay": (0, 10),
        }
        for name, (low, high) in ranges.items():
            value = getattr(self, name)
            if not low <= value <= high:
                raise ValueError(
                    f"{name.replace('_', '-')} must be {low:g} to {high:g}, got {value:g}"
                )

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


# ----------------------------------------------------------------------------- hosts
def host_of(netloc: str) -> str:
    """The host of ``host[:port]`` (brackets of an IPv6 address removed), lower case."""
    netloc = netloc.strip().lower()
    if netloc.startswith("["):
        return netloc[1 : netloc.find("]")] if "]" in netloc else netloc
    if netloc.count(":") == 1:
        return netloc.split(":", 1)[0]
    return netloc


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def host_allowed(host: str, allowed: Sequence[str] | None) -> bool:
    """Whether the server answers to ``host`` (no port)."""
    if not host:
        return False
    if allowed is None:
        return host == "localhost" or _is_ip(host)
    for entry in allowed:
        entry = entry.strip().lower()
        if entry == "*" or entry == host:
            return True
        if entry.startswith(".") and (host == entry[1:] or host.endswith(entry)):
            return True
    return False


def parse_hosts(text: str | None) -> list[str] | None:
    """``FIVEHUNDRED_ALLOWED_HOSTS``: names separated by commas (or spaces)."""
    if text is None or not text.strip():
        return None
    return [name for name in re.split(r"[,\s]+", text.strip().lower()) if name]


#: What proxies and the monitoring ask for: answered to a check without the public Host.
CHECK_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})


def local_check(scope: Scope, host: str, headers: dict[str, str]) -> bool:
    """A health check or a scrape (GET or HEAD of :data:`CHECK_PATHS`) that names no host,
    ``localhost`` or an IP address, and was not passed on for a visitor (no
    ``X-Forwarded-For``): what HAProxy's ``option httpchk``, nginx's ``proxy_pass
    http://127.0.0.1:PORT`` and Prometheus send. Answered whatever ``--allowed-hosts``
    says (a page of another site, DNS rebinding included, names its own host name and is
    still refused)."""
    return (
        scope["type"] == "http"
        and scope.get("method") in ("GET", "HEAD")
        and scope.get("path") in CHECK_PATHS
        and "x-forwarded-for" not in headers
        and (not host or host == "localhost" or _is_ip(host))
    )


def origin_matches(origin: str | None, host_header: str) -> bool:
    """A browser's Origin names the site the page came from: it must be this one."""
    if not origin:
        return True  # not a browser (or a same-origin request of an old one)
    if origin == "null":
        return False
    return urlsplit(origin).netloc.lower() == host_header.strip().lower()


# ----------------------------------------------------------------------------- JSON
_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(rb"[\[\]{}]")


def json_depth(data: str | bytes) -> int:
    """How deeply arrays and objects nest in JSON text (without parsing it; not checked
    for validity). Strings are skipped, so brackets inside them do not count."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    depth = deepest = 0
    for match in _BRACKETS.finditer(_STRING.sub(b"", raw)):
        if match.group() in (b"[", b"{"):
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


# ----------------------------------------------------------------------------- closing
def close_reason(reason: str) -> str:
    """``reason`` cut to fit a close frame (123 bytes of UTF-8)."""
    raw = reason.encode("utf-8", "replace")
    if len(raw) <= CLOSE_REASON_BYTES:
        return reason
    return raw[: CLOSE_REASON_BYTES - 3].decode("utf-8", "ignore") + "..."


def shown(text: str, length: int = 16) -> str:
    """A client's text to quote back in a message: at most ``length`` characters."""
    return repr(text if len(text) <= length else text[:length] + "…")


# ----------------------------------------------------------------------------- buckets
@dataclass
class Buckets:
    """A token bucket per client address: ``burst`` at once, refilled at ``per_minute``."""

    per_minute: float
    burst: int
    #: addresses remembered at most (a full bucket is forgotten first)
    capacity: int = 100_000
    clock: Callable[[], float] = time.monotonic
    _buckets: dict[str, tuple[float, float]] = field(default_factory=dict)

    def take(self, key: str) -> float:
        """Take a token for ``key``: 0 if there was one, else the seconds until there is."""
        now = self.clock()
        rate = self.per_minute / 60.0
        tokens, since = self._buckets.get(key, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - since) * rate)
        if tokens >= 1.0:
            self._buckets[key] = (tokens - 1.0, now)
            if len(self._buckets) > self.capacity:
                self._forget(now)
            return 0.0
        self._buckets[key] = (tokens, now)
        return (1.0 - tokens) / rate

    def _forget(self, now: float) -> None:
        rate = self.per_minute / 60.0
        full = [k for k, (t, s) in self._buckets.items() if t + (now - s) * rate >= self.burst]
        for key in full:
            del self._buckets[key]
        while len(self._buckets) > self.capacity:  # all busy: the oldest go
            del self._buckets[next(iter(self._buckets))]


# ----------------------------------------------------------------------------- addresses
def address_key(host: str) -> str:
    """The key of a client's address in the per-address limits: the address, or for
    IPv6 its /64 (one visitor holds a whole /64)."""
    if ":" in host:
        with contextlib.suppress(ValueError):
            return str(ipaddress.ip_network(f"{host}/64", strict=False))
    return host


def client_address(connection: Any) -> str:
    """The key of an HTTP request's or a WebSocket's client in the per-address limits (the
    proxy's X-Forwarded-For where uvicorn trusts it): :func:`address_key` of its host."""
    client = getattr(connection, "client", None)
    return address_key(client.host if client else "unknown")


@dataclass
class Counts:
    """How many of something each address holds at once, each at most ``cap``."""

    cap: int
    held: dict[str, int] = field(default_factory=dict)

    def take(self, key: str) -> bool:
        """Count one more for ``key``; False (nothing counted) if it holds ``cap``."""
        if self.held.get(key, 0) >= self.cap:
            return False
        self.held[key] = self.held.get(key, 0) + 1
        return True

    def give(self, key: str) -> None:
        left = self.held.get(key, 0) - 1
        if left > 0:
            self.held[key] = left
        else:
            self.held.pop(key, None)


def guarded_protocol(
    base: type[asyncio.Protocol],
    trusted: Sequence[str] = (),
    per_address: int = CONNECTIONS_PER_ADDRESS,
    header_seconds: float = HEADER_SECONDS,
) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol ``base`` with two guards below the application: at most
    ``per_address`` open connections per address (``trusted`` proxies' own addresses
    are not capped), and a connection that has no request under way and starts none for
    ``header_seconds`` (a new connection that never sends its request head, a half-sent
    head, an idle keep-alive) is closed. A connection upgraded to a WebSocket leaves
    these counts (:class:`Guard` caps the sockets per address)."""
    counts = Counts(per_address)
    networks = []
    for entry in trusted:
        with contextlib.suppress(ValueError):
            networks.append(ipaddress.ip_network(entry.strip(), strict=False))
    every = any(entry.strip() == "*" for entry in trusted)

    def exempt(host: str) -> bool:
        if every:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in networks)

    class Guarded(base):  # type: ignore[valid-type, misc]
        _fh_key: str | None = None
        _fh_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: Any) -> None:
            peer = transport.get_extra_info("peername")
            host = str(peer[0]) if isinstance(peer, tuple) and peer else ""
            key = address_key(host)
            if key and not exempt(host):
                if not counts.take(key):
                    self._fh_refused = True
                    transport.abort()
                    return
                self._fh_key = key
            super().connection_made(transport)
            self._fh_arm(None)

        def _fh_arm(self, seen: Any) -> None:
            self._fh_timer = asyncio.get_running_loop().call_later(
                header_seconds, self._fh_check, seen
            )

        def _fh_check(self, seen: Any) -> None:
            cycle = getattr(self, "cycle", None)
            idle = cycle is None or cycle.response_complete
            if cycle is seen and idle:  # no request head came in all that time
                self._fh_timer = None
                self.transport.close()
                return
            self._fh_arm(cycle)

        def _fh_release(self) -> None:
            if self._fh_timer is not None:
                self._fh_timer.cancel()
                self._fh_timer = None
            if self._fh_key is not None:
                counts.give(self._fh_key)
                self._fh_key = None

        def connection_lost(self, exc: Exception | None) -> None:
            if getattr(self, "_fh_refused", False):
                return
            self._fh_release()
            super().connection_lost(exc)

        def handle_websocket_upgrade(self, *args: Any) -> None:
            self._fh_release()
            super().handle_websocket_upgrade(*args)

    Guarded.__name__ = f"Guarded{base.__name__}"
    Guarded.counts = counts
    return Guarded


def serving_protocol(trusted: Sequence[str] = ()) -> type[asyncio.Protocol]:
    """The guarded HTTP protocol ``fivehundred serve`` runs uvicorn with (httptools where
    installed, else h11, as uvicorn's ``auto``)."""
    from uvicorn.protocols.http.auto import AutoHTTPProtocol

    return guarded_protocol(AutoHTTPProtocol, trusted)


# ----------------------------------------------------------------------------- middleware
class Guard:
    """ASGI middleware: the Host check (every request and WebSocket), the Origin check of
    requests that change something, and the body's size and nesting, all before the
    application reads the request. ``refused(reason)`` counts each refusal."""

    def __init__(
        self, app: ASGIApp, limits: Limits, refused: Callable[[str], None] = lambda reason: None
    ) -> None:
        self.app = app
        self.limits = limits
        self.refused = refused
        #: requests in flight and WebSockets open, per address
        self.requests = Counts(REQUESTS_PER_ADDRESS)
        self.sockets = Counts(SOCKETS_PER_ADDRESS)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        key = address_key(str(client[0])) if client else ""
        counts = self.sockets if kind == "websocket" else self.requests
        if not counts.take(key):
            self.refused("address_" + ("sockets" if kind == "websocket" else "requests"))
            what = "WebSockets open" if kind == "websocket" else "requests under way"
            await self._refuse(
                scope, receive, send, 429, f"your address has {counts.cap} {what}: close some"
            )
            return
        try:
            await self._guarded(scope, receive, send)
        finally:
            counts.give(key)

    async def _guarded(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        headers = {
            k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())
        }
        host_header = headers.get("host", "")
        if (
            self.limits.allowed_hosts != ["*"]
            and not host_allowed(host_of(host_header), self.limits.allowed_hosts)
            and not local_check(scope, host_of(host_header), headers)
        ):
            self.refused("host")
            await self._refuse(
                scope,
                receive,
                send,
                400,
                f"this server does not answer to the host {shown(host_of(host_header), 40)}",
            )
            return
        if kind == "websocket":
            await self.app(scope, receive, send)
            return
        method = scope.get("method", "GET")
        if method in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        if not origin_matches(headers.get("origin"), host_header):
            self.refused("origin")
            await self._refuse(scope, receive, send, 403, "requests from another site are refused")
            return
        path = scope.get("path", "")
        pad = path.startswith(("/api/pad/", "/api/hall/"))  # a pad's whole state
        limit = max(self.limits.max_body, PAD_BODY) if pad else self.limits.max_body
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            self.refused("body_size")
            await self._refuse(scope, receive, send, 413, f"the body is limited to {limit} bytes")
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            try:
                async with asyncio.timeout(BODY_SECONDS):
                    message = await receive()
            except TimeoutError:
                self.refused("body_timeout")
                await self._refuse(
                    scope, receive, send, 408, f"the body did not come within {BODY_SECONDS:g} s"
                )
                return
            if message["type"] != "http.request":  # the client went away
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                self.refused("body_size")
                await self._refuse(
                    scope, receive, send, 413, f"the body is limited to {limit} bytes"
                )
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if json_depth(body) > self.limits.json_depth:  # every body of this API is JSON
            self.refused("json_depth")
            await self._refuse(
                scope,
                receive,
                send,
                400,
                f"body: JSON nested deeper than {self.limits.json_depth} levels",
            )
            return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(
        self, scope: Scope, receive: Receive, send: Send, status: int, detail: str
    ) -> None:
        if scope["type"] == "websocket":
            # before the handshake: the client is answered 403 (or a close if accepted)
            await receive()  # websocket.connect
            await send({"type": "websocket.close", "code": 4403, "reason": close_reason(detail)})
            return
        body = orjson.dumps({"detail": detail})
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
