"""docs/deploy.md as written: its HAProxy and nginx configurations, taken from the guide
itself (bench/bench_deploy.py reads them), parsed by Debian's haproxy and nginx and run in
front of three servers started with the guide's environment file; its health check's
exact request answered; its Caddyfile validated by Debian's caddy and run in front of a
server. Without haproxy, nginx or caddy installed these tests are skipped, except in CI
(.ci/run installs them)."""

from __future__ import annotations

import asyncio
import contextlib
import http.client
import itertools
import json
import os
import random
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

import test_web_cluster as cluster_tests
from test_web_support import PG_ENV, check_messages, database_url

sys.path.insert(0, str(Path(__file__).parents[1] / "bench"))
import bench_deploy as deploy


def require(binary: str) -> None:
    if shutil.which(binary) is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{binary} is not installed in CI: .ci/run installs it")
        pytest.skip(f"{binary} is not installed")


@pytest.mark.parametrize("kind", ["haproxy", "nginx"])
def test_the_guides_configurations_are_valid(kind: str, tmp_path: Path) -> None:
    require(kind)
    require("openssl")  # their certificate
    blocks = deploy.guide_blocks(kind)
    assert blocks and deploy.balancer_config(kind) in blocks
    for number, block in enumerate(blocks):
        text = deploy.local_config(kind, block, deploy.free_port(), [8501, 8502, 8503], tmp_path)
        path = tmp_path / f"{kind}{number}.conf"
        path.write_text(text)
        checked = deploy.check_config(kind, path)
        assert checked.returncode == 0, checked.stderr
        assert "[WARNING]" not in checked.stderr, checked.stderr


def test_the_guides_balancers_reconnect_a_page_at_once() -> None:
    haproxy = deploy.balancer_config("haproxy")
    assert "balance roundrobin" in haproxy and "leastconn" not in haproxy
    assert "option redispatch" in haproxy and "retries" in haproxy
    assert "least_conn" not in deploy.balancer_config("nginx")
    guide = deploy.GUIDE.read_text()
    assert "RECONNECT_TABLE" not in guide and "bench/bench_deploy.py" in guide


def test_the_guides_health_check_is_answered_with_the_guides_settings(tmp_path: Path) -> None:
    environment = deploy.guide_environment()
    assert environment["FIVEHUNDRED_ALLOWED_HOSTS"] == deploy.HOST
    environment["FIVEHUNDRED_DB"] = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    environment["FIVEHUNDRED_WORKERS"] = "0"
    port = deploy.free_port()
    log = tmp_path / "server.log"
    server = deploy.start_server(port, environment, tmp_path / "data", log)
    try:
        deploy.wait_until("the server", lambda: deploy.ready(port), 120)
        check = deploy.health_check_request(deploy.balancer_config("haproxy"))
        assert deploy.raw_request(port, check) == (200, b'{"status":"ready"}')
        status, body = deploy.get(port, "/metrics", f"127.0.0.1:{port}")  # Prometheus
        assert status == 200 and b"fivehundred_connections" in body
        assert deploy.get(port, "/api/tables", deploy.HOST)[0] == 200
        assert deploy.get(port, "/api/tables", f"127.0.0.1:{port}")[0] == 400
        assert deploy.get(port, "/readyz", "evil.example.net")[0] == 400
    finally:
        deploy.stop(server)
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert all(line["server"] == f"127.0.0.1:{port} pid {server.pid}" for line in lines)
    assert not [
        line for line in lines if "/readyz" in line["message"] and "400" not in line["message"]
    ]


def test_the_guides_balancers_serve_three_servers(tmp_path: Path) -> None:
    require("haproxy")
    require("nginx")
    require("openssl")
    db = database_url("postgresql", tmp_path)
    cluster = deploy.Cluster(db, "haproxy", tmp_path, workers="0")
    nginx: subprocess.Popen[str] | None = None
    try:
        cluster.start()  # waits for HAProxy's checks: /readyz through it answers 200
        listen = cluster.listen
        assert deploy.get(listen, "/api/tables", deploy.HOST, tls=True)[0] == 200
        code = deploy.create_table(cluster)
        assert deploy.get(listen, f"/api/tables/{code}", deploy.HOST, tls=True)[0] == 200
        for host in (deploy.HOST, "127.0.0.1"):  # the metrics are not the visitors'
            assert deploy.get(listen, "/metrics", host, tls=True)[0] == 403
        for port in cluster.ports:  # Prometheus scrapes each server
            status, body = deploy.get(port, "/metrics", f"127.0.0.1:{port}")
            assert status == 200 and b"fivehundred_actions_total" in body
        text = deploy.local_config(
            "nginx", deploy.balancer_config("nginx"), deploy.free_port(), cluster.ports, tmp_path
        )
        site = int(text.split("listen 127.0.0.1:", 1)[1].split(" ", 1)[0])
        path = tmp_path / "nginx.conf"
        path.write_text(text)
        nginx = deploy.start_balancer("nginx", path)
        deploy.wait_until(
            "nginx", lambda: deploy.get(site, "/readyz", deploy.HOST, tls=True)[0] == 200, 30
        )
        assert deploy.get(site, f"/api/tables/{code}", deploy.HOST, tls=True)[0] == 200
        status, body = deploy.get(site, "/metrics", deploy.HOST, tls=True)  # location = /metrics
        assert status == 200 and b"fivehundred_connections" in body
    finally:
        if nginx is not None:
            deploy.stop(nginx)
        cluster.close()
    for number in range(3):  # JSON lines, each naming its server; no health check logged
        lines = (tmp_path / f"server{number}.log").read_text().splitlines()
        entries = [json.loads(line) for line in lines]
        assert all(entry["server"].startswith("127.0.0.1:") for entry in entries)
        assert not [e for e in entries if "/readyz" in e["message"] or "/metrics" in e["message"]]


# ----------------------------------------------------------------------------- Caddy
def caddy_config(listen: int, port: int, workdir: Path) -> str:
    """The guide's Caddyfile with this machine's ports and a self-signed certificate: the
    site ``cards.example.org`` on 127.0.0.1:``listen`` with ``tls CERT KEY`` instead of
    Caddy's own certificate, its server on ``port`` instead of 8500, and the global
    options that keep one Caddy of many on a machine to itself (no admin endpoint, its
    own storage, a free port for its redirects). Every line of the guide's is kept."""
    guide = deploy.guide_blocks("caddy")
    assert len(guide) == 1, "docs/deploy.md has one Caddyfile"
    text = guide[0]
    site = f"{deploy.HOST} {{\n"
    assert text.startswith(site) and "127.0.0.1:8500" in text, text
    cert, key, _ = deploy.self_signed(workdir)
    text = text.replace("127.0.0.1:8500", f"127.0.0.1:{port}")
    text = text.replace(
        site, f"{deploy.HOST}:{listen} {{\n    bind 127.0.0.1\n    tls {cert} {key}\n", 1
    )
    options = (
        f"{{\n    admin off\n    http_port {deploy.free_port()}\n"
        f"    storage file_system {workdir / 'caddy'}\n}}\n"
    )
    return options + text


def caddy_environment(workdir: Path) -> dict[str, str]:
    home = {name: str(workdir / "caddy") for name in ("HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME")}
    return {**os.environ, **home}


def caddy_warnings(output: str) -> list[str]:
    """Caddy's warnings, but that the guide indents with spaces (``caddy fmt`` uses tabs)
    and that the test's self-signed certificate names no OCSP server."""
    return [
        line
        for line in output.splitlines()
        if '"level":"warn"' in line
        and "is not formatted" not in line
        and "no OCSP server specified in certificate" not in line
    ]


def test_the_guides_caddyfile_is_valid(tmp_path: Path) -> None:
    require("caddy")
    require("openssl")  # its certificate, for the local run
    guide = tmp_path / "Caddyfile"
    guide.write_text(deploy.guide_blocks("caddy")[0])  # as written: Caddy's own certificate
    local = tmp_path / "local.Caddyfile"
    local.write_text(caddy_config(deploy.free_port(), deploy.free_port(), tmp_path))
    for path in (guide, local):
        checked = subprocess.run(
            ["caddy", "validate", "--adapter", "caddyfile", "--config", str(path)],
            capture_output=True,
            text=True,
            timeout=60,
            env=caddy_environment(tmp_path),
        )
        assert checked.returncode == 0, checked.stderr
        assert "Valid configuration" in checked.stdout + checked.stderr
        assert not caddy_warnings(checked.stderr), checked.stderr


def _tls() -> ssl.SSLContext:
    context = ssl.create_default_context()
    context.check_hostname = False  # self-signed
    context.verify_mode = ssl.CERT_NONE
    return context


def through(
    listen: int, method: str, path: str, body: str | None = None, **headers: str
) -> tuple[int, bytes]:
    """A request to the site through Caddy, as a browser sends it (TLS with the site's
    name, its Host), from 127.0.0.2: a visitor's address that is not the proxy's."""
    raw = socket.create_connection(("127.0.0.1", listen), 10, source_address=("127.0.0.2", 0))
    connection = http.client.HTTPConnection("127.0.0.1", listen, timeout=10)
    connection.sock = _tls().wrap_socket(raw, server_hostname=deploy.HOST)
    try:
        headers = {"Host": deploy.HOST, **headers}
        if body is not None:
            headers["Content-Type"] = "application/json"
        connection.request(method, path, body, headers)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def test_the_guides_caddyfile_serves_the_site(tmp_path: Path) -> None:
    """Caddy as the guide writes it, in front of a server started with the guide's
    environment file: the site, a table's WebSocket, the visitor's address (Caddy's
    X-Forwarded-For, trusted by the guide's FIVEHUNDRED_FORWARDED_ALLOW_IPS; a visitor's
    own X-Forwarded-For is not believed), and /metrics kept from visitors while a scrape
    of the server itself is answered."""
    require("caddy")
    require("openssl")
    import websockets

    environment = deploy.guide_environment()
    environment["FIVEHUNDRED_DB"] = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    environment["FIVEHUNDRED_WORKERS"] = "0"
    port, listen = deploy.free_port(), deploy.free_port()
    log = tmp_path / "server.log"
    server = deploy.start_server(port, environment, tmp_path / "data", log)
    path = tmp_path / "Caddyfile"
    path.write_text(caddy_config(listen, port, tmp_path))
    proxy = subprocess.Popen(
        ["caddy", "run", "--adapter", "caddyfile", "--config", str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=caddy_environment(tmp_path),
        start_new_session=True,
    )
    try:
        deploy.wait_until("the server", lambda: deploy.ready(port), 120)

        def up() -> bool:
            if proxy.poll() is not None:
                raise RuntimeError(f"caddy stopped: {proxy.stderr.read()[-2000:]}")  # type: ignore[union-attr]
            return through(listen, "GET", "/readyz")[0] == 200

        deploy.wait_until("caddy in front of the server", up, 30)
        status, page = through(listen, "GET", "/")
        assert status == 200 and b"<html" in page.lower()
        status, made = through(
            listen, "POST", "/api/tables", json.dumps({"seats": ["open", "easy", "easy", "easy"]})
        )
        assert status == 201, made
        code = json.loads(made)["table"]
        forged = "203.0.113.9"
        status, _ = through(listen, "GET", f"/api/tables/{code}", **{"X-Forwarded-For": forged})
        assert status == 200

        async def watch() -> dict[str, object]:
            async with websockets.connect(
                f"wss://{deploy.HOST}/ws/tables/{code}",
                host="127.0.0.1",
                port=listen,
                ssl=_tls(),
                origin=f"https://{deploy.HOST}",  # type: ignore[arg-type]
                open_timeout=10,
            ) as ws:
                return dict(json.loads(await asyncio.wait_for(ws.recv(), 10)))

        view = asyncio.run(watch())
        assert view["type"] == "view" and view["version"] == 0
        # the metrics: refused to a visitor by Caddy, answered to a scrape of the server
        assert through(listen, "GET", "/metrics") == (403, b"")
        status, metrics = deploy.get(port, "/metrics", f"127.0.0.1:{port}")
        assert status == 200 and b"fivehundred_connections" in metrics
    finally:
        deploy.stop(proxy)
        deploy.stop(server)
    errors = proxy.stderr.read() if proxy.stderr else ""
    assert '"level":"error"' not in errors, errors  # e.g. a request it could not pass on
    lines = [json.loads(line)["message"] for line in log.read_text().splitlines()]
    # the server saw the visitor's address (not Caddy's, not the visitor's own claim)
    seen = [line for line in lines if f"/api/tables/{code} " in line and "GET" in line]
    assert seen and all("127.0.0.2:" in line and forged not in line for line in seen), lines
    assert not [line for line in lines if "/metrics" in line]  # Caddy answered it


# ----------------------------------------------------------------------------- outages
@contextlib.contextmanager
def private_postgresql() -> Iterator[tuple[str, Callable[[], None]]]:
    """A throwaway PostgreSQL cluster of the test's own (as .ci/run makes one; run by the
    ``postgres`` user where the test runs as root), on a free port: its URL, and a restart
    (``pg_ctl restart``, as ``systemctl restart postgresql``)."""
    if not os.environ.get(PG_ENV):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{PG_ENV} is not set in CI: .ci/run starts PostgreSQL")
        pytest.skip(f"no PostgreSQL ({PG_ENV} unset)")
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), key=lambda p: p.parts[-3])
    initdb = str(found[-1]) if found else shutil.which("initdb")
    if initdb is None:
        pytest.skip("PostgreSQL's initdb is not installed")
    bindir = Path(initdb).parent
    workdir = Path(tempfile.mkdtemp(prefix="fivehundred-pg-"))
    workdir.chmod(0o755)
    port = deploy.free_port()
    root = os.geteuid() == 0
    if root:
        shutil.chown(workdir, "postgres")

    def as_pg(*command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if root else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, timeout=120)

    data = str(workdir / "data")
    options = f"-c listen_addresses=127.0.0.1 -p {port} -k {workdir} -c fsync=off"
    pg_ctl = [str(bindir / "pg_ctl"), "-D", data, "-l", str(workdir / "log"), "-w"]
    as_pg(initdb, "-D", data, "-A", "trust", "-U", "fivehundred", "-E", "UTF8")
    as_pg(*pg_ctl, "-o", options, "start")
    try:
        as_pg(
            str(bindir / "createdb"), "-h", "127.0.0.1", "-p", str(port), "-U", "fivehundred", "fh"
        )
        yield (
            f"postgresql+psycopg://fivehundred@127.0.0.1:{port}/fh",
            lambda: as_pg(*pg_ctl, "-m", "fast", "-o", options, "restart"),
        )
    finally:
        with contextlib.suppress(subprocess.SubprocessError):
            as_pg(*pg_ctl, "-m", "immediate", "stop")
        shutil.rmtree(workdir, ignore_errors=True)


class Page(cluster_tests.Client):
    """A seated person's page connected through the balancer; it connects again (after
    the page's first back-off, static/js/net.js) whenever its WebSocket closes. Keeps each
    action it sent: (the version it answered, the action)."""

    def __init__(self, seat: int, token: str, code: str, listen: int) -> None:
        super().__init__(seat, token, "")
        self.code = code
        self.listen = listen
        self.sent: list[tuple[int, str]] = []
        self.reconnects = 0

    async def connect(self, base: str | None = None) -> None:
        import websockets

        url = f"wss://{deploy.HOST}/ws/tables/{self.code}?token={self.token}"
        deadline = time.monotonic() + 30
        while True:
            try:
                self.ws = await websockets.connect(
                    url, host="127.0.0.1", port=self.listen, ssl=_tls(), open_timeout=10
                )
                break
            except (OSError, TimeoutError, websockets.InvalidHandshake):
                if time.monotonic() > deadline:
                    raise
                await asyncio.sleep(deploy.BACKOFF[0])
        self.view = None
        self.acted = -1
        self.versions.append([])


async def play_through(
    pages: list[Page], stop: Callable[[dict[str, Any]], bool], rng: random.Random
) -> None:
    """Every page plays random legal actions (test_web_cluster's) until ``stop(view)``
    holds for all of them; a page whose WebSocket closes connects again."""
    import websockets

    deadline = time.monotonic() + 60

    async def run(page: Page) -> None:
        while True:
            seen = page.view
            try:
                if seen is not None:
                    if stop(seen):
                        return
                    version = seen["version"]
                    if seen["view"]["legal"] and version > page.acted:
                        page.acted = version
                        action = cluster_tests.choose(seen["view"], rng)
                        page.sent.append((version, action))
                        message = {"type": "action", "version": version, "action": action}
                        await page.ws.send(json.dumps(message))
                left = max(0.01, deadline - time.monotonic())
                answer = json.loads(await asyncio.wait_for(page.ws.recv(), left))
            except websockets.ConnectionClosed:
                page.reconnects += 1
                await page.connect()
                continue
            except TimeoutError:
                states = [
                    (p.seat, p.view and p.view["version"], p.sent[-1:], p.received[-1:])
                    for p in pages
                ]
                raise AssertionError(f"play stopped: {states}") from None
            page.received.append(answer)
            assert answer["type"] != "error", (page.seat, answer)
            if answer["type"] == "view":
                page.view = answer
                page.versions[-1].append(answer["version"])

    await asyncio.gather(*(run(page) for page in pages))


def recorded_actions(record: dict[str, Any]) -> list[str]:
    """Every action of the record's hands, in order: the one made at each version."""
    from fivehundred.record import action_text, parse_rules, replay_hand

    rules = parse_rules(record["rules"])
    actions = []
    for index, hand in enumerate(record["hands"]):
        state = replay_hand(hand, rules, f"hands[{index}]", dealer=hand["dealer"])
        actions += [action_text(action, rules.joker_names) for action in state.history]
    return actions


def test_the_guides_haproxy_loses_nothing_when_an_owner_dies_or_postgresql_restarts(
    tmp_path: Path,
) -> None:
    """Four people play one table through the guide's HAProxy in front of three servers;
    the server that owns the table is killed (SIGKILL), later PostgreSQL restarts. Each
    time, every action acknowledged before (a view past it came back) is in the game's
    record, the pages reconnect through HAProxy (measured: the seconds from the SIGKILL to
    every page showing the table again) and play goes on; every view any page received
    is one the record allows, with no version missed. Takes a PostgreSQL cluster of its
    own (restarted), skipped where no PostgreSQL is named ($FIVEHUNDRED_TEST_PG_URL)."""
    require("haproxy")
    require("openssl")
    with private_postgresql() as (url, restart_postgresql):
        cluster = deploy.Cluster(url, "haproxy", tmp_path, workers="0")
        try:
            cluster.start()
            listen = cluster.listen
            body = {
                "seats": ["open"] * 4,
                "rules": {"variants": {"target": 2000}},  # no game ends within the test
                "options": {"delay": 0, "grace": 600},
            }
            status, made = through(listen, "POST", "/api/tables", json.dumps(body))
            assert status == 201, made
            code = json.loads(made)["table"]
            pages = []
            for seat in range(4):  # each through the balancer: spread over the servers
                path = f"/api/tables/{code}/seats/{seat}"
                status, answer = through(listen, "POST", path, json.dumps({"name": f"P{seat}"}))
                assert status == 200, answer
                pages.append(Page(seat, json.loads(answer)["token"], code, listen))
            engine = sa.create_engine(url)
            with engine.connect() as db:
                table_id = db.execute(
                    sa.text("SELECT id FROM tables WHERE code = :c"), {"c": code}
                ).scalar_one()
            engine.dispose()
            rng = random.Random(45)

            def into_hand(hands: int) -> Callable[[dict[str, Any]], bool]:
                return lambda m: m["view"]["table"]["hands_played"] >= hands

            async def until_paused(hands: int) -> tuple[int, dict[int, str]]:
                """Play to three actions into hand ``hands`` + 1: every page shows that
                version; the action made at each version before it (acknowledged: the last
                one sent at that version, by the one seat that had a move)."""
                await play_through(pages, into_hand(hands), rng)
                start = max(p.view["version"] for p in pages if p.view)  # type: ignore[index]
                await play_through(pages, lambda m: m["version"] >= start + 3, rng)
                paused = {p.view["version"] for p in pages if p.view}  # type: ignore[index]
                assert len(paused) == 1, paused
                version = paused.pop()
                made = {v: action for p in pages for v, action in p.sent if v < version}
                assert sorted(made) == list(range(version))  # every action is a person's
                return version, made

            async def game() -> tuple[float, float, dict[int, str], int]:
                for page in pages:
                    await page.connect()
                before, _ = await until_paused(1)
                owner = cluster_tests.owner_pid(url, table_id)
                assert owner in [p.pid for p in cluster.processes], owner
                killed = time.monotonic()
                os.killpg(owner, signal.SIGKILL)
                # every page shows the table again, at the version it showed: on its own
                # server (a follower) or, its socket closed, through HAProxy on another
                for page in pages:
                    page.view = None
                await play_through(pages, lambda m: m["version"] >= before, rng)
                reconnect = time.monotonic() - killed
                assert {p.view["version"] for p in pages if p.view} == {before}
                assert sum(p.reconnects for p in pages) >= 1  # the owner had pages
                await play_through(pages, lambda m: m["version"] > before, rng)
                resumed = time.monotonic() - killed  # another server plays the table
                paused, acknowledged = await until_paused(2)
                assert paused > before
                await asyncio.to_thread(restart_postgresql)
                await play_through(pages, into_hand(3), rng)
                for page in pages:
                    await page.ws.close()
                return reconnect, resumed, acknowledged, paused

            reconnect, resumed, acknowledged, restarted_at = asyncio.run(game())
            print(
                f"HAProxy, SIGKILL of the owner: every page showed the table after "
                f"{reconnect:.2f} s, the next action after {resumed:.2f} s"
            )
            status, answer = through(listen, "GET", f"/api/tables/{code}/record")
            assert status == 200
            record = json.loads(answer)
        finally:
            cluster.close()
    actions = recorded_actions(record)
    assert len(actions) > restarted_at
    for version, action in acknowledged.items():  # before the SIGKILL or the restart
        assert actions[version] == action, (version, action, actions[version])
    for page in pages:
        assert check_messages(record, page.seat, page.received)
        for versions in page.versions:
            assert {b - a for a, b in itertools.pairwise(versions)} <= {0, 1}, versions
        for before, after in itertools.pairwise(v for v in page.versions if v):
            assert after[0] >= before[-1]
    assert reconnect < 2 and resumed < cluster_tests.TAKEOVER
