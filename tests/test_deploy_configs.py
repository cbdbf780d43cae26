"""docs/deploy.md as written: its HAProxy and nginx configurations, taken from the guide
itself (bench/bench_deploy.py reads them), parsed by Debian's haproxy and nginx and run in
front of three servers started with the guide's environment file; its health check's
exact request answered; its Caddyfile validated by Debian's caddy and run in front of a
server. Without haproxy, nginx or caddy installed these tests are skipped, except in CI
(.ci/run installs them)."""

from __future__ import annotations

import asyncio
import http.client
import json
import os
import shutil
import socket
import ssl
import subprocess
import sys
from pathlib import Path

import pytest

from test_web_support import database_url

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
