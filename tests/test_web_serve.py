"""``fivehundred serve`` and the database's schema: one-line errors, the default database in
the data directory, a schema newer than the server refused."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from fivehundred.web import store


def serve(*args: str, data_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "FIVEHUNDRED_DATA_DIR": str(data_dir)}
    return subprocess.run(
        [sys.executable, "-m", "fivehundred", "serve", *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )


def test_serve_refuses_what_it_cannot_use_in_one_line(tmp_path: Path) -> None:
    bad_db = serve("--db", "postgresql+psycopg://nobody@127.0.0.1:1/none", data_dir=tmp_path)
    assert bad_db.returncode == 2
    assert bad_db.stderr.startswith("fivehundred serve: cannot open the database")
    assert "Traceback" not in bad_db.stderr and len(bad_db.stderr.strip().splitlines()) == 1
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        taken = serve("--port", str(port), data_dir=tmp_path)
    assert taken.returncode == 2 and "cannot listen on" in taken.stderr
    assert "Traceback" not in taken.stderr
    bad_port = serve("--port", "99999", data_dir=tmp_path)
    assert bad_port.returncode == 2 and "--port" in bad_port.stderr


def test_the_default_database_lies_in_the_data_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FIVEHUNDRED_DATA_DIR", str(tmp_path / "data"))
    url = store.default_db_url()
    assert url == f"sqlite:///{tmp_path / 'data' / store.DB_NAME}"
    opened = store.Store(url)
    opened.close()
    assert (tmp_path / "data" / store.DB_NAME).exists()


def test_a_schema_newer_than_the_server_is_refused(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    store.Store(url).close()
    store.Store(url).close()  # an existing database of this version opens again
    engine = sa.create_engine(url)
    with engine.begin() as db:
        db.execute(sa.text("UPDATE alembic_version SET version_num = '99'"))  # the migrations'
    engine.dispose()
    with pytest.raises(store.StoreError, match="revision 99, newer than this server's"):
        store.Store(url)


def test_seat_tokens_never_reach_the_logs() -> None:
    import logging

    from fivehundred.web.cli import RedactTokens

    record = logging.LogRecord(
        "uvicorn.error",
        logging.INFO,
        __file__,
        1,
        '%s - "WebSocket %s" [accepted]',
        ("127.0.0.1:5", "/ws/tables/ABCDEF?token=s3cr3t-T0ken&x=1"),
        None,
    )
    assert RedactTokens().filter(record)
    text = record.getMessage()
    assert "s3cr3t" not in text and "token=…&x=1" in text


# ----------------------------------------------------------------------------- settings
def test_settings_are_read_as_people_write_them(monkeypatch: pytest.MonkeyPatch) -> None:
    from fivehundred.web.cli import parse_serve_args

    for name, value in {
        "FIVEHUNDRED_LOG_FORMAT": "JSON",
        "FIVEHUNDRED_LOG_LEVEL": "Warning",
        "FIVEHUNDRED_REVIEW_GAMES": "false",
        "FIVEHUNDRED_CLUSTER": "No",
        "FIVEHUNDRED_DOCS": "true",
        "FIVEHUNDRED_SECURE_COOKIES": "TRUE",
        "FIVEHUNDRED_PORT": " 8501 ",
    }.items():
        monkeypatch.setenv(name, value)
    args, limits = parse_serve_args([])
    assert (args.log_format, args.log_level, args.port) == ("json", "warning", 8501)
    assert args.review_games is False and args.cluster is False and limits.docs is True
    assert args.secure_cookies is True
    monkeypatch.setenv("FIVEHUNDRED_REVIEW_GAMES", "1")
    monkeypatch.setenv("FIVEHUNDRED_SECURE_COOKIES", "0")
    args, _ = parse_serve_args(["--log-level", "DEBUG", "--log-format", "Text"])
    assert args.review_games is True and args.secure_cookies is False
    assert (args.log_level, args.log_format) == ("debug", "text")


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("FIVEHUNDRED_LOG_LEVEL", "verbose"),
        ("FIVEHUNDRED_LOG_FORMAT", "logfmt"),
        ("FIVEHUNDRED_REVIEW_GAMES", "maybe"),
        ("FIVEHUNDRED_CLUSTER", "2"),
        ("FIVEHUNDRED_SECURE_COOKIES", "always"),
        ("FIVEHUNDRED_WORKERS", "four"),
    ],
)
def test_a_setting_that_means_nothing_is_refused_in_one_line(
    name: str, value: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from fivehundred.web.cli import parse_serve_args

    monkeypatch.setenv(name, value)
    with pytest.raises(SystemExit) as stopped:
        parse_serve_args([])
    assert stopped.value.code == 2
    error = capsys.readouterr().err.strip()
    assert len(error.splitlines()) == 1 and name in error and repr(value) in error


def test_every_variable_the_guide_shows_is_one_the_server_reads() -> None:
    import re

    from fivehundred.web.cli import serve_variables

    guide = (Path(__file__).parents[1] / "docs" / "deploy.md").read_text()
    shown = set(re.findall(r"FIVEHUNDRED_[A-Z_]+[A-Z]", guide))
    assert "FIVEHUNDRED_ALLOWED_HOSTS" in shown and len(shown) > 20
    shown.discard("FIVEHUNDRED_LOGLEVEL")  # the guide's example of a misspelling
    assert shown <= serve_variables(), shown - serve_variables()


def test_a_misspelt_variable_is_named_not_silently_ignored() -> None:
    from fivehundred.web.cli import unknown_variables

    said = unknown_variables(
        {"FIVEHUNDRED_LOGLEVEL": "debug", "FIVEHUNDRED_DB": "x", "FIVEHUNDRED_TEST_PG_URL": "y"}
    )
    assert said == [
        "FIVEHUNDRED_LOGLEVEL is not a setting of fivehundred serve: ignored "
        "(did you mean FIVEHUNDRED_LOG_LEVEL?)"
    ]


# ----------------------------------------------------------------------------- checks
def test_health_and_metrics_answer_a_check_without_the_public_host(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from fivehundred.web.guard import Limits
    from fivehundred.web.server import create_app

    app = create_app(
        f"sqlite:///{tmp_path / 'w.sqlite3'}",
        workers=0,
        limits=Limits(allowed_hosts=["cards.example.org"]),
    )
    with TestClient(app) as client:
        for host in ("127.0.0.1:8501", "localhost", "[::1]:8501"):  # proxies, Prometheus
            assert client.get("/healthz", headers={"host": host}).status_code == 200
            assert client.get("/readyz", headers={"host": host}).status_code == 200
            metrics = client.get("/metrics", headers={"host": host})
            assert metrics.status_code == 200 and "fivehundred_connections" in metrics.text
        public = {"host": "cards.example.org"}
        assert client.get("/readyz", headers=public).status_code == 200
        # the game itself answers only to its names, and a check to a stranger's is refused
        assert client.get("/api/tables", headers={"host": "127.0.0.1:8501"}).status_code == 400
        assert client.get("/readyz", headers={"host": "evil.example.net"}).status_code == 400
        assert client.post("/readyz", headers={"host": "127.0.0.1"}).status_code == 400
        # a visitor's request passed on by a balancer is not the balancer's check
        forwarded = {"host": "127.0.0.1", "x-forwarded-for": "203.0.113.5"}
        assert client.get("/metrics", headers=forwarded).status_code == 400


def test_json_lines_name_the_server_request_and_table(capsys: pytest.CaptureFixture[str]) -> None:
    import asyncio
    import json
    import logging
    import logging.config

    import uvicorn.config

    from fivehundred.web.cli import LogContext, configure_logging

    saved = logging.getLogger().handlers[:], logging.getLogger().level
    try:
        # uvicorn's own logging config applied before (by an earlier server in the same
        # process): its loggers' lines still come through the one handler
        logging.config.dictConfig(uvicorn.config.LOGGING_CONFIG)
        configure_logging("info", "json", "127.0.0.1:8501")

        async def app(scope: Any, receive: Any, send: Any) -> None:
            logging.getLogger("fivehundred.web").warning("answering")
            # a task the request starts (a table's) is not the request
            await asyncio.create_task(later())

        async def later() -> None:
            logging.getLogger("fivehundred.web").warning("later")

        async def request(path: str) -> None:
            await LogContext(app)({"type": "http", "method": "GET", "path": path}, None, None)

        asyncio.run(request("/api/tables/K7QM2X/record"))
        logging.getLogger("fivehundred.web").info("table %s resumed", "ABCDEF")
        access = logging.getLogger("uvicorn.access")
        for path, status in (("/readyz", 200), ("/metrics", 200), ("/readyz", 503), ("/", 200)):
            access.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5", "GET", path, "1.1", status)
    finally:
        logging.getLogger().handlers[:] = saved[0]
        logging.getLogger().setLevel(saved[1])
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert lines[0]["message"] == "answering" and lines[0]["table"] == "K7QM2X"
    assert lines[0]["request"] == "GET /api/tables/K7QM2X/record"
    assert lines[0]["server"].startswith("127.0.0.1:8501 pid ")
    assert lines[1]["message"] == "later" and lines[1]["table"] == "K7QM2X"
    assert "request" not in lines[1]
    assert lines[2]["table"] == "ABCDEF" and "request" not in lines[2]
    # the successful health checks are not logged; a failing one is, and the page is
    assert [line["message"].split('"')[1] for line in lines[3:]] == [
        "GET /readyz HTTP/1.1",
        "GET / HTTP/1.1",
    ]


def test_a_database_outage_logs_one_line_per_event_without_tracebacks(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import json
    import logging

    from fivehundred.web.cli import configure_logging

    engine = sa.create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none")
    saved = logging.getLogger().handlers[:], logging.getLogger().level
    try:
        configure_logging("info", "json", "127.0.0.1:8501")
        log = logging.getLogger("fivehundred.web")
        for _ in range(20):  # a click each, the database gone
            try:
                engine.connect()
            except sa.exc.OperationalError:
                log.exception("error answering %s %s", "POST", "/api/tables")
        try:
            raise ValueError("a bug")
        except ValueError:
            log.exception("error answering %s %s", "GET", "/api/games")
    finally:
        logging.getLogger().handlers[:] = saved[0]
        logging.getLogger().setLevel(saved[1])
        engine.dispose()
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    outage = [line for line in lines if "database is unavailable" in line["message"]]
    assert 1 <= len(outage) <= 3 and all("exception" not in line for line in outage)
    assert "OperationalError" in outage[0]["message"]
    # an error that is not the database's keeps its traceback
    assert lines[-1]["message"] == "error answering GET /api/games"
    assert "ValueError: a bug" in lines[-1]["exception"]


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_load_benchmark_refuses_a_database_it_did_not_make(kind: str, tmp_path: Path) -> None:
    from test_web_support import database_url

    url = database_url(kind, tmp_path)
    engine = sa.create_engine(url)
    with engine.begin() as db:  # a club's data
        db.execute(sa.text("CREATE TABLE accounts (name VARCHAR(20))"))
        db.execute(sa.text("INSERT INTO accounts VALUES ('ada'), ('bo')"))
    try:
        bench = Path(__file__).parents[1] / "bench" / "bench_web.py"
        done = subprocess.run(
            [sys.executable, str(bench), "--db", url, "--seconds", "1", "--servers", "1"],
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[1] / "src")},
        )
        assert done.returncode == 2, done.stdout + done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and "is not empty" in done.stderr
        with engine.connect() as db:
            assert db.execute(sa.text("SELECT count(*) FROM accounts")).scalar() == 2
    finally:
        with engine.begin() as db:
            db.execute(sa.text("DROP TABLE accounts"))
        engine.dispose()
    helped = subprocess.run(
        [sys.executable, str(bench), "--help"], capture_output=True, text=True, timeout=60
    )
    assert "must be an empty database" in " ".join(helped.stdout.split())


def test_the_example_bot_comes_back_after_a_restart(tmp_path: Path) -> None:
    """A deploy restarts the server (its sockets close with 1012): examples/ws_player.py
    reconnects and plays on instead of ending with a traceback."""
    import json
    import time
    import urllib.request

    from test_web_support import free_port, wait_for_port

    root = Path(__file__).parents[1]
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {**os.environ, "FIVEHUNDRED_DATA_DIR": str(tmp_path), "PYTHONPATH": str(root / "src")}
    db = f"sqlite:///{tmp_path / 'w.sqlite3'}"

    def start() -> subprocess.Popen[str]:
        command = ["serve", "--port", str(port), "--db", db, "--workers", "0"]
        return subprocess.Popen(
            [sys.executable, "-m", "fivehundred", *command],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            text=True,
        )

    def call(path: str, body: Any = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            base + path, data=data, headers={"content-type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())

    def connections(count: int) -> None:
        deadline = time.monotonic() + 90
        while call("/api/server")["connections"] != count:
            assert time.monotonic() < deadline, f"not {count} connection(s) within 90 s"
            time.sleep(0.1)

    def player(seat: int) -> subprocess.Popen[str]:
        script = [str(root / "examples" / "ws_player.py"), "--server", base, "--table", code]
        return subprocess.Popen(
            [sys.executable, *script, "--seat", str(seat), "--player", "random"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    server = start()
    players: list[subprocess.Popen[str]] = []
    try:
        wait_for_port(port, 60)
        body = {
            "seats": ["open", "open", "random", "random"],
            "rules": {"variants": {"target": 10}},
            "options": {"delay": 0},
        }
        code = call("/api/tables", body)["table"]
        players.append(player(0))
        connections(1)  # seated and playing; the game waits for seat 1, still open
        server.terminate()  # a deploy: the socket is closed with 1012
        server.wait(60)
        server = start()
        wait_for_port(port, 60)
        connections(1)  # the bot came back by itself
        players.append(player(1))
        outputs = [p.communicate(timeout=120) for p in players]
    finally:
        for process in [*players, server]:
            if process.poll() is None:
                process.kill()
                process.wait(30)
    for process, (out, err) in zip(players, outputs, strict=True):
        assert process.returncode == 0, err
        assert "game over" in out and "Traceback" not in err
    assert "reconnecting" in outputs[0][1]


class Forwarder:
    """A TCP relay to the database, closed to make an outage (the database itself is
    shared by other tests and keeps running)."""

    def __init__(self, host: str, port: int) -> None:
        import threading

        self.target = (host, port)
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.sockets: list[socket.socket] = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        import threading

        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            upstream = socket.create_connection(self.target)
            self.sockets += [client, upstream]
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        for end in (source, sink):
            with contextlib.suppress(OSError):
                end.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        # a shutdown wakes the accept (a close alone leaves it listening on Linux)
        with contextlib.suppress(OSError):
            self.listener.shutdown(socket.SHUT_RDWR)
        self.listener.close()
        for sock in self.sockets:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
            sock.close()


def test_readiness_tells_the_public_no_database_address(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from fastapi.testclient import TestClient

    from fivehundred.web.server import create_app
    from test_web_support import database_url

    url = sa.engine.make_url(database_url("postgresql", tmp_path))
    relay = Forwarder(url.host or "127.0.0.1", url.port or 5432)
    try:
        relayed = url.set(host="127.0.0.1", port=relay.port).render_as_string(False)
        app = create_app(relayed, workers=0, cluster=False)
        with TestClient(app) as client:
            assert client.get("/readyz").status_code == 200
            relay.close()  # the database is gone
            with caplog.at_level("WARNING", logger="fivehundred.web"):
                answers = [client.get("/readyz") for _ in range(3)]
                stats = client.get("/api/server")
            for answer in answers:
                assert answer.status_code == 503
                assert answer.json()["problems"] == ["database: not answering"]
            for text in [a.text for a in answers] + [stats.text]:
                for secret in ("127.0.0.1", str(relay.port), "/tmp", "psycopg", "refused"):
                    assert secret not in text
            # the operator reads the driver's words, once for the outage
            said = [r.getMessage() for r in caplog.records if "not ready" in r.getMessage()]
            assert len(said) == 1 and str(relay.port) in said[0]
    finally:
        relay.close()


def test_a_stopped_server_exits_cleanly_and_leaks_nothing(tmp_path: Path) -> None:
    """SIGTERM (systemctl stop, a deploy): the server ends through its exit handlers, so
    that the worker pools' semaphores are freed (no "leaked semaphore objects" lines from
    multiprocessing's resource tracker) and every line of the output is JSON."""
    import json
    import signal
    import time
    import urllib.request

    from test_web_support import free_port

    port = free_port()
    env = {**os.environ, "FIVEHUNDRED_DATA_DIR": str(tmp_path), "FIVEHUNDRED_LOG_FORMAT": "json"}
    server = subprocess.Popen(
        [sys.executable, "-m", "fivehundred", "serve", "--port", str(port), "--workers", "1"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 120
        while True:  # ready: the search players' pool has its worker, prepared
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/readyz", timeout=5) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            assert time.monotonic() < deadline and server.poll() is None
            time.sleep(0.1)
        server.send_signal(signal.SIGTERM)
        output, _ = server.communicate(timeout=60)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(30)
    assert server.returncode == 0, output
    assert "leaked" not in output
    assert all(json.loads(line)["server"] for line in output.splitlines())
