"""docs/deploy.md as written: its HAProxy and nginx configurations, taken from the guide
itself (bench/bench_deploy.py reads them), parsed by Debian's haproxy and nginx and run in
front of three servers started with the guide's environment file; its health check's
exact request answered. Without haproxy or nginx installed these tests are skipped, except
in CI (.ci/run installs both)."""

from __future__ import annotations

import json
import os
import shutil
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
