"""``fivehundred serve`` as a service: configuration from the environment, /healthz,
/readyz, Prometheus /metrics, logs as JSON lines, and no worker process left behind after
SIGTERM or SIGKILL of the server."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from test_web_support import free_port, wait_for_port

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def _stat(pid: int) -> tuple[int, str, str] | None:
    """(parent, state, start time) of a process, None if there is none."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2 :].split()
    return int(fields[1]), fields[0], fields[19]


def descendants(root: int) -> dict[int, str]:
    """Every process under ``root``: pid -> start time."""
    parents: dict[int, list[int]] = {}
    starts: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            stat = _stat(int(entry.name))
            if stat is not None and stat[1] != "Z":
                parents.setdefault(stat[0], []).append(int(entry.name))
                starts[int(entry.name)] = stat[2]
    found: dict[int, str] = {}
    todo = [root]
    while todo:
        for child in parents.get(todo.pop(), []):
            found[child] = starts[child]
            todo.append(child)
    return found


def alive(processes: dict[int, str]) -> list[int]:
    """The processes still running (a zombie, or another process with the pid, is not)."""
    return [
        pid
        for pid, start in processes.items()
        if (stat := _stat(pid)) is not None and stat[1] != "Z" and stat[2] == start
    ]


def poll(condition: Any, timeout: float, every: float = 0.1) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(every)


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    """Start ``fivehundred serve`` configured by environment variables; yields a function
    returning (process, base URL, log file)."""
    started: list[subprocess.Popen[bytes]] = []

    def start(**env: str) -> tuple[subprocess.Popen[bytes], str, Path]:
        port = free_port()
        log = tmp_path / f"server-{port}.log"
        environment = {
            **os.environ,
            "FIVEHUNDRED_DATA_DIR": str(tmp_path / "data"),
            "FIVEHUNDRED_DB": f"sqlite:///{tmp_path / 'web.sqlite3'}",
            "FIVEHUNDRED_PORT": str(port),
            "FIVEHUNDRED_LOG_FORMAT": "json",
            "FIVEHUNDRED_LOG_LEVEL": "info",
            **env,
        }
        with log.open("wb") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "fivehundred", "serve"],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=environment,
            )
        started.append(process)
        wait_for_port(port, 60)
        return process, f"http://127.0.0.1:{port}", log

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
            process.wait(30)


def start_pools(base: str) -> None:
    """Tables of computer players (the players' pool) to the end of a hand, and its
    double-dummy analysis (the analysis worker)."""
    body = {
        "seats": ["heuristic"] * 4,
        "rules": {"variants": {"target": 10}},
        "options": {"delay": 0},
    }
    code = httpx.post(f"{base}/api/tables", json=body, timeout=30).json()["table"]
    assert poll(lambda: httpx.get(f"{base}/api/tables/{code}").json()["hands_played"] >= 1, 120)
    analysis = httpx.get(f"{base}/api/tables/{code}/hands/1/analysis", timeout=30)
    assert analysis.status_code == 200 and analysis.json()["status"] in ("running", "done")


def test_health_readiness_metrics_and_json_logs(serve: Any) -> None:
    process, base, log = serve(
        FIVEHUNDRED_WORKERS="0",
        FIVEHUNDRED_CREATE_BURST="1",
        FIVEHUNDRED_ALLOWED_HOSTS="127.0.0.1, cards.example.org",
    )
    assert httpx.get(f"{base}/healthz").json() == {"status": "ok"}
    assert httpx.get(f"{base}/readyz").json() == {"status": "ready"}
    body = {"seats": ["random"] * 4, "options": {"delay": 0.2}}
    created = httpx.post(f"{base}/api/tables", json=body)
    assert created.status_code == 201
    table = created.json()["table"]
    assert httpx.post(f"{base}/api/tables", json=body).status_code == 429  # burst of 1
    assert httpx.get(f"{base}/api/tables", headers={"host": "localhost"}).status_code == 400
    # a health check to localhost is answered (a balancer's, docs/deploy.md), and not logged
    assert httpx.get(f"{base}/healthz", headers={"host": "localhost"}).status_code == 200

    def counted() -> str | None:
        text = httpx.get(f"{base}/metrics").text
        return text if 'fivehundred_actions_total{by="computer"}' in text else None

    metrics = poll(counted, 30)
    assert metrics, "no computer action counted"
    for name in (
        "fivehundred_tables_live",
        "fivehundred_connections",
        'fivehundred_refusals_total{reason="rate_table"} 1.0',
        'fivehundred_refusals_total{reason="host"} 1.0',
        "fivehundred_http_request_seconds_bucket",
        "fivehundred_decision_seconds",
    ):
        assert name in metrics, name
    with connect(base.replace("http://", "ws://") + f"/ws/tables/{table}") as watcher:
        watcher.recv(timeout=30)  # the first view: connected
        process.send_signal(signal.SIGTERM)
        with pytest.raises(ConnectionClosed) as closed:  # the clients are told
            while True:
                watcher.recv(timeout=30)
    assert closed.value.rcvd is not None and closed.value.rcvd.code in (1001, 1012)
    assert process.wait(30) == 0  # ended through its exit handlers (web/cli.py)
    lines = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    assert any(line["message"] == "Application shutdown complete." for line in lines)
    assert {"time", "level", "logger", "message"} <= set(lines[-1])
    assert any("table" in line["message"] and "created" in line["message"] for line in lines)


def test_bad_configuration_is_refused_clearly(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "FIVEHUNDRED_DATA_DIR": str(tmp_path),
        "FIVEHUNDRED_TABLES_PER_CLIENT": "x",
    }
    done = subprocess.run(
        [sys.executable, "-m", "fivehundred", "serve"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "FIVEHUNDRED_TABLES_PER_CLIENT must be a number" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_no_worker_outlives_the_server(serve: Any, how: signal.Signals) -> None:
    process, base, _ = serve(FIVEHUNDRED_WORKERS="1")
    start_pools(base)

    # the players' pool, the search players' pool and the analysis worker (and
    # multiprocessing's resource tracker)
    def started() -> dict[int, str] | None:
        found = descendants(process.pid)
        return found if len(found) >= 3 else None

    workers = poll(started, 60)
    assert workers, descendants(process.pid)
    process.send_signal(how)
    process.wait(30)
    left = poll(lambda: not alive(workers), 5.0)
    assert left, f"still alive 5 s after {how.name}: " + "; ".join(
        Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")[:120] for pid in alive(workers)
    )
