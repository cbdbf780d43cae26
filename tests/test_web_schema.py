"""One schema, created and upgraded by the migrations (``fivehundred.web.migrations``) under
one lock: servers started together on an empty PostgreSQL database all come up; a database
made before the migrations is taken as it is; a newer one is refused with one line; a club
upgrades by hand with ``python -m fivehundred.web.migrations upgrade``. PostgreSQL tests are
skipped without ``$FIVEHUNDRED_TEST_PG_URL``."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa

from test_web_support import database_url

#: What each server does with the database before it serves (server.py: the store, then
#: the accounts' and the reviews' stores on its engine), in a process that waits for "go".
SCHEMA_STEP = """
import sys
from fivehundred.web.accounts import AccountStore
from fivehundred.web.reviews import ReviewStore
from fivehundred.web.store import Store
print("ready", flush=True)
for line in sys.stdin:
    try:
        store = Store(line.strip())
        AccountStore(store.engine)
        ReviewStore(store.engine)
        store.close()
        print("up", flush=True)
    except BaseException as error:
        print("crashed:", type(error).__name__, str(error).splitlines()[0], flush=True)
"""

ROUNDS = 20


def empty(url: str) -> None:
    engine = sa.create_engine(url)
    with engine.begin() as db:
        db.execute(sa.text("DROP SCHEMA public CASCADE"))
        db.execute(sa.text("CREATE SCHEMA public"))
    engine.dispose()


def test_three_servers_starting_together_on_an_empty_database_all_come_up(
    tmp_path: Path,
) -> None:
    url = database_url("postgresql", tmp_path)
    servers = [
        subprocess.Popen(
            [sys.executable, "-c", SCHEMA_STEP],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for _ in range(3)
    ]
    try:
        for server in servers:
            assert server.stdout is not None
            assert server.stdout.readline().strip() == "ready"
        crashes = []
        for round_ in range(ROUNDS):
            empty(url)
            for server in servers:  # all three at once: each is waiting on its stdin
                assert server.stdin is not None
                server.stdin.write(url + "\n")
                server.stdin.flush()
            for server in servers:
                assert server.stdout is not None
                answer = server.stdout.readline().strip()
                if answer != "up":
                    crashes.append((round_, answer))
        assert crashes == [], crashes
        engine = sa.create_engine(url)
        with engine.connect() as db:
            names = set(sa.inspect(db).get_table_names())
            revision = db.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
        engine.dispose()
        from fivehundred.web import migrations
        from fivehundred.web.schema import metadata

        assert set(metadata.tables) | {"alembic_version"} == names
        assert revision == migrations.head()
    finally:
        for server in servers:
            if server.stdin is not None:
                server.stdin.close()
            server.wait(30)
        empty(url)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_database_made_before_the_migrations_is_taken_as_it_is(kind: str, tmp_path: Path) -> None:
    """A database of the server before Alembic (its tables, some missing, no revision) is
    brought to the first revision; its rows stay; a second start changes nothing."""
    from fivehundred.web import migrations
    from fivehundred.web.schema import accounts, inbox, metadata, tables
    from fivehundred.web.store import Store

    url = database_url(kind, tmp_path)
    engine = sa.create_engine(url)
    older = [t for t in metadata.sorted_tables if t is not inbox]  # gained by being opened
    metadata.create_all(engine, tables=older)
    with engine.begin() as db:
        db.execute(
            accounts.insert().values(
                name="Ann", name_key="ann", password_hash="x", bot=False, created=1.0
            )
        )
    for _ in range(2):
        Store(url).close()
    with engine.connect() as db:
        assert migrations.current(db) == migrations.head()
        assert sa.inspect(db).has_table(inbox.name)
        assert db.execute(sa.select(accounts.c.name)).scalars().all() == ["Ann"]
        assert db.execute(sa.select(sa.func.count()).select_from(tables)).scalar() == 0
    engine.dispose()


def test_a_database_of_a_newer_server_is_refused_with_one_line(tmp_path: Path) -> None:
    from fivehundred.web.store import Store, StoreError

    url = database_url("sqlite", tmp_path)
    Store(url).close()
    engine = sa.create_engine(url)
    with engine.begin() as db:
        db.execute(sa.text("UPDATE alembic_version SET version_num = 'f00d'"))
    engine.dispose()
    with pytest.raises(StoreError, match="revision f00d, newer than this server's") as error:
        Store(url)
    assert "\n" not in str(error.value)


def test_a_club_upgrades_by_hand_with_one_command(tmp_path: Path) -> None:
    """The guide's command (docs/deploy.md, "Upgrading the database")."""
    from fivehundred.web import migrations

    url = f"sqlite:///{tmp_path / 'web.sqlite3'}"
    env = {**os.environ, "FIVEHUNDRED_DATA_DIR": str(tmp_path)}
    command = [sys.executable, "-m", "fivehundred.web.migrations"]
    before = subprocess.run(
        [*command, "current", "--db", url], capture_output=True, text=True, env=env
    )
    assert before.returncode == 0 and before.stdout.startswith("none"), before
    done = subprocess.run(  # the database of the servers' environment file
        [*command, "upgrade"], capture_output=True, text=True, env={**env, "FIVEHUNDRED_DB": url}
    )
    assert done.returncode == 0, done.stderr
    assert f"schema at revision {migrations.head()}" in done.stdout
    after = subprocess.run(
        [*command, "current", "--db", url], capture_output=True, text=True, env=env
    )
    assert after.stdout.startswith(migrations.head()), after
    refused = subprocess.run(
        [*command, "upgrade", "--db", "postgresql+psycopg://nobody@127.0.0.1:1/none"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert refused.returncode == 1 and len(refused.stderr.strip().splitlines()) == 1, refused


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_migrations_make_the_schema_that_web_schema_defines(kind: str, tmp_path: Path) -> None:
    """An empty database is made from web/schema.py at once (and marked at the head); an
    older one is upgraded by the migrations: both ways give the same schema."""
    from alembic import command
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from fivehundred.web import migrations
    from fivehundred.web.schema import metadata

    url = database_url(kind, tmp_path)
    if kind == "postgresql":
        empty(url)
    engine = sa.create_engine(url)
    try:
        with engine.begin() as db:
            command.upgrade(migrations._config(db), "head")  # revision by revision
        with engine.connect() as db:
            assert migrations.current(db) == migrations.head()
            assert compare_metadata(MigrationContext.configure(db), metadata) == []
    finally:
        engine.dispose()
        if kind == "postgresql":
            empty(url)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_ratings_kept_by_string_keys_are_given_ids_by_the_upgrade(
    kind: str, tmp_path: Path
) -> None:
    """A database whose ratings name their accounts and partnerships by string keys (the
    revision before ids) is upgraded: each rating and change of its history names its
    account or its partnership by id, one partnership row per pair, and the leaderboards
    and a player's page read them by id; a key naming no account is left as it is."""
    from alembic import command

    from fivehundred.web import migrations
    from fivehundred.web import ratings as rated

    url = database_url(kind, tmp_path)
    if kind == "postgresql":
        empty(url)
    engine = sa.create_engine(url)
    try:
        with engine.begin() as db:
            command.upgrade(migrations._config(db), "0013")
            for name in ("Ann", "Bob", "Cat"):
                db.execute(
                    sa.text(
                        "INSERT INTO accounts (name, name_key, password_hash, bot, created)"
                        " VALUES (:n, :k, 'x', false, 0)"
                    ),
                    {"n": name, "k": name.lower()},
                )
            ids = dict(db.execute(sa.text("SELECT name, id FROM accounts")).all())
            ann, bob, cat = ids["Ann"], ids["Bob"], ids["Cat"]
            keys = [f"a:{ann}", f"a:{bob}", f"p:{ann},{bob}", f"p:{bob},{cat}", "a:999"]
            for index, key in enumerate(keys):
                values = {"k": key, "mu": 30.0 - index, "c": f"G{index}"}
                db.execute(
                    sa.text(
                        "INSERT INTO ratings (key, preset, mu, sigma, games)"
                        " VALUES (:k, 'australian', :mu, 5.0, 1)"
                    ),
                    values,
                )
                db.execute(
                    sa.text(
                        "INSERT INTO rating_history (key, preset, code, mu, sigma, outcome, at)"
                        " VALUES (:k, 'australian', :c, :mu, 5.0, 'win', 0)"
                    ),
                    values,
                )
        with engine.begin() as db:
            command.upgrade(migrations._config(db), "head")
        with engine.connect() as db:
            pairs = dict(
                ((r.first_id, r.second_id), r.id)
                for r in db.execute(sa.text("SELECT * FROM partnerships"))
            )
            assert set(pairs) == {(ann, bob), (bob, cat)}
            for table in ("ratings", "rating_history"):
                named = {
                    r.key: (r.account_id, r.partnership_id)
                    for r in db.execute(sa.text(f"SELECT * FROM {table}"))
                }
                assert named == {
                    f"a:{ann}": (ann, None),
                    f"a:{bob}": (bob, None),
                    f"p:{ann},{bob}": (None, pairs[(ann, bob)]),
                    f"p:{bob},{cat}": (None, pairs[(bob, cat)]),
                    "a:999": (None, None),
                }, table
            people = rated.leaderboard(db, "australian", False, 10)
            assert [entry["name"] for entry in people] == ["Ann", "Bob"]
            partnerships = rated.leaderboard(db, "australian", True, 10)
            assert len(partnerships) == 2 and "Ann" in partnerships[0]["name"]
            page = rated.profile(db, bob)
            assert len(page["partnerships"]) == 2 and page["ratings"]["australian"]["games"] == 1
            assert [h["table"] for h in page["history"]] == ["G1"]
    finally:
        engine.dispose()
        if kind == "postgresql":
            empty(url)
