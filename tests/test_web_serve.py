"""``fivehundred serve`` and the database's schema: one-line errors, the default database in
the data directory, a schema newer than the server refused."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

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
