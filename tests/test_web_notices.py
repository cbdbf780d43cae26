"""Notices (web/notices.py): a finished game makes one "game ended" notice per seated
account, in the list and by e-mail to a local SMTP server (aiosmtpd); across a server
killed and started again none is lost and none is sent twice; the unsubscribe link stops
the e-mail; a notice carries no card; the SMTP settings are checked at start."""

from __future__ import annotations

import email
import email.policy
import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from aiosmtpd.controller import Controller
from websockets.sync.client import connect

from fivehundred.web import notices as notices_module
from fivehundred.web.notices import NoticeStore, smtp_from_env
from fivehundred.web.schema import notice_settings, notices
from fivehundred.web.store import Store
from test_web_support import (
    db_url,  # noqa: F401  (the fixture)
    free_port,
    start_server_process,
    thread_server,
    wait_for,
    ws_url,
)

PASSWORD = "a long enough password"
#: a card as any text of the game writes one: 10H, QS, JK, "Joker", "jack of ..."
CARD = re.compile(r"\b(10|[2-9JQKA])[SHDC]\b|\bJoker\b|\bof (spades|hearts|diamonds|clubs)\b", re.I)


class Inbox:
    """The local SMTP server's mailbox."""

    def __init__(self) -> None:
        self.messages: list[str] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.messages.append(envelope.content.decode("utf-8", "replace"))
        return "250 OK"


@pytest.fixture
def smtp(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Inbox, int]]:
    """A local SMTP server, and the server's settings naming it."""
    inbox, port = Inbox(), free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    for name, value in (
        ("SMTP_HOST", "127.0.0.1"),
        ("SMTP_PORT", str(port)),
        ("SMTP_FROM", "cards@example.org"),
        ("PUBLIC_URL", "http://cards.example.org"),
    ):
        monkeypatch.setenv(f"FIVEHUNDRED_{name}", value)
    try:
        yield inbox, port
    finally:
        controller.stop()


def signed_up(base: str, name: str, email: str | None) -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=30)
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    if email is not None:
        answer = client.put(
            "/api/notices/settings", json={"email": email, "kinds": {"ended": {"mail": True}}}
        )
        assert answer.status_code == 200, answer.text
    return client


def finished_game(base: str, client: httpx.Client, seed: int) -> str:
    """A game of the client's account (seat 0, played by the stand-in at once) and three
    computer players, to its end; its code."""
    body = {
        "seats": ["open", "random", "random", "random"],
        "seed": seed,
        "rules": {"variants": {"target": 10}},
        "options": {"delay": 0, "grace": 0},
    }
    code = str(httpx.post(f"{base}/api/tables", json=body, timeout=30).json()["table"])
    assert client.post(f"/api/tables/{code}/seats/0", json={"name": "x"}).status_code == 200
    wait_for(
        lambda: httpx.get(f"{base}/api/tables/{code}", timeout=30).json()["finished"],
        120,
        "the game over",
    )
    return code


def of_game(inbox: Inbox, code: str) -> list[str]:
    return [m for m in inbox.messages if f"/g/{code}" in m]


def test_a_finished_game_makes_one_notice_per_account_and_one_email(
    db_url: str,  # noqa: F811
    smtp: tuple[Inbox, int],
) -> None:
    inbox, _ = smtp
    with thread_server(db_url) as base:
        ann = signed_up(base, "Ann", "ann@example.org")
        assert ann.get("/api/notices").json() == {"notices": [], "unread": 0}
        code = finished_game(base, ann, 5)
        listed = wait_for(lambda: ann.get("/api/notices").json()["notices"], 30, "the notice")
        assert len(listed) == 1 and listed[0]["kind"] == "ended"
        assert listed[0]["link"] == f"/g/{code}" and not listed[0]["read"]
        assert "is over: you" in listed[0]["text"] and not CARD.search(listed[0]["text"])
        mail = wait_for(lambda: of_game(inbox, code), 30, "the e-mail")[0]
        parsed = email.message_from_string(mail, policy=email.policy.default)
        assert isinstance(parsed, EmailMessage) and parsed["To"] == "ann@example.org"
        body = parsed.get_content()
        assert f"http://cards.example.org/g/{code}" in body and not CARD.search(body)
        stop = re.search(r"http://cards\.example\.org(/notices/unsubscribe\?token=\S+)", body)
        assert stop is not None and parsed["List-Unsubscribe"] == f"<{stop.group(0)}>"
        # read: the badge's count goes to 0
        assert ann.post("/api/notices/read", json={}).json()["unread"] == 0
        # the unsubscribe link works without a login, and a made-up one does nothing
        assert httpx.get(f"{base}/notices/unsubscribe?token={'x' * 43}").status_code == 404
        assert httpx.get(f"{base}{stop.group(1)}").status_code == 200
        kinds = ann.get("/api/notices/settings").json()["kinds"]
        assert not any(channels["mail"] for channels in kinds.values())
        # the next game is in the list, and no e-mail is sent for it
        second = finished_game(base, ann, 6)
        wait_for(lambda: len(ann.get("/api/notices").json()["notices"]) == 2, 30, "listed")
        assert ann.get("/api/notices").json()["unread"] == 1
        engine = sa.create_engine(db_url)
        with engine.connect() as db:
            rows = db.execute(sa.select(notices.c.code, notices.c.mail)).all()
        engine.dispose()
        assert sorted(rows) == sorted([(code, 2), (second, 0)])  # sent once; never due
        assert of_game(inbox, second) == [] and len(inbox.messages) == 1


def test_settings_are_bounded_and_need_a_login(tmp_path: Path) -> None:
    with thread_server(f"sqlite:///{tmp_path / 'w.sqlite3'}") as base:
        assert httpx.get(f"{base}/api/notices").status_code == 401
        assert httpx.put(f"{base}/api/notices/settings", json={}).status_code == 401
        bea = signed_up(base, "Bea", None)
        for body in (
            {"email": "not an address"},
            {"email": "a@" + "b" * 260 + ".org"},
            {"kinds": {"chess": {"app": True}}},
            {"kinds": {"ended": {"app": "maybe"}}},
            {"kinds": {"ended": {f"c{i}": True for i in range(5)}}},
        ):
            assert bea.put("/api/notices/settings", json=body).status_code == 422, body
        off = {"kinds": {"ended": {"app": False, "mail": False}}}
        assert bea.put("/api/notices/settings", json=off).status_code == 200
        finished_game(base, bea, 7)
        # the outbox's work is done (its rows gone) and Bea, who wants none, has none
        wait_for(lambda: not outbox_rows(tmp_path), 30, "the outbox empty")
        assert bea.get("/api/notices").json()["notices"] == []
        # a deleted account's address and notices go with it
        assert bea.put("/api/notices/settings", json={"email": "bea@example.org"}).is_success
        gone = bea.request("DELETE", "/api/accounts/me", json={"password": PASSWORD})
        assert gone.status_code == 200, gone.text
        engine = sa.create_engine(f"sqlite:///{tmp_path / 'w.sqlite3'}")
        with engine.connect() as db:
            assert db.execute(sa.select(notice_settings)).all() == []
        engine.dispose()


def outbox_rows(tmp_path: Path) -> int:
    from fivehundred.web.schema import outbox

    engine = sa.create_engine(f"sqlite:///{tmp_path / 'w.sqlite3'}")
    with engine.connect() as db:
        count = db.execute(sa.select(sa.func.count()).select_from(outbox)).scalar() or 0
    engine.dispose()
    return int(count)


def test_smtp_settings_are_checked() -> None:
    good = {
        "FIVEHUNDRED_SMTP_HOST": "mail.example.org",
        "FIVEHUNDRED_SMTP_FROM": "cards@example.org",
        "FIVEHUNDRED_PUBLIC_URL": "https://cards.example.org/",
    }
    assert smtp_from_env({}) is None
    settings = smtp_from_env(good)
    assert settings is not None and settings.port == 25 and settings.site.endswith(".org")
    for name, value in (
        ("FIVEHUNDRED_SMTP_PORT", "70000"),
        ("FIVEHUNDRED_SMTP_FROM", "nobody"),
        ("FIVEHUNDRED_PUBLIC_URL", ""),
        ("FIVEHUNDRED_SMTP_STARTTLS", "perhaps"),
        ("FIVEHUNDRED_SMTP_USER", "only-a-user"),
        ("FIVEHUNDRED_SMTP_HOST", "bad host"),
    ):
        with pytest.raises(ValueError, match=name):
            smtp_from_env({**good, name: value})


def test_the_server_refuses_bad_smtp_settings_at_start(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "FIVEHUNDRED_DATA_DIR": str(tmp_path),
        "FIVEHUNDRED_SMTP_HOST": "127.0.0.1",
        "FIVEHUNDRED_SMTP_PORT": "smtp",
    }
    done = subprocess.run(
        [sys.executable, "-m", "fivehundred", "serve", "--port", "0", "--workers", "0"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "FIVEHUNDRED_SMTP_PORT must be 1..65535, got 'smtp'" in done.stderr


def test_your_turn_is_told_once_an_hour_per_table(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    store = Store(url)
    from fivehundred.web.accounts import AccountStore

    account = AccountStore(store.engine).create("Cal", "x", False)
    assert account is not None
    AccountStore(store.engine).hold_seat("TURN00000001", 2, account.id)
    told = NoticeStore(store.engine)
    now = time.time()
    assert told.your_turn("TURN00000001", 2, "Friday game", now)
    assert not told.your_turn("TURN00000001", 2, "Friday game", now + 60)
    assert not told.your_turn("TURN00000001", 1, "Friday game", now + 60)  # nobody's seat
    assert told.your_turn("TURN00000001", 2, "Friday game", now + 3601)
    assert [n["kind"] for n in told.listing(account.id)["notices"]] == ["turn", "turn"]
    store.close()


def test_a_person_away_at_their_turn_is_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eve's seat is to move, she is not connected (a long grace: nobody plays for her):
    the server's look finds her seat, and her list has a "your turn" notice."""
    monkeypatch.setattr(notices_module, "TURN_LOOK", 0.1)
    with thread_server(f"sqlite:///{tmp_path / 'w.sqlite3'}") as base:
        eve = signed_up(base, "Eve", None)
        body = {
            "seats": ["random", "open", "random", "random"],
            "seed": 8,
            "name": "Tea time",
            "options": {"delay": 0, "grace": 3600},
        }
        code = str(httpx.post(f"{base}/api/tables", json=body, timeout=30).json()["table"])
        assert eve.post(f"/api/tables/{code}/seats/1", json={"name": "x"}).status_code == 200
        wait_for(lambda: eve.get("/api/notices").json()["notices"], 30, "the notice")
        listed = eve.get("/api/notices").json()["notices"]
        assert [(n["kind"], n["link"]) for n in listed] == [("turn", f"/t/{code}")]
        assert listed[0]["text"] == "It is your turn at Tea time."
        assert httpx.get(f"{base}/api/tables/{code}").json()["to_move"] == 1


def test_a_restart_loses_no_notice_and_sends_none_twice(
    db_url: str,  # noqa: F811
    tmp_path: Path,
    smtp: tuple[Inbox, int],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first game ends on a server without SMTP settings (its e-mail waits in the
    database); the server is killed and started again with them: the first game's e-mail
    comes once, then the second's, once; one notice per game."""
    inbox, _ = smtp
    url = db_url
    monkeypatch.delenv("FIVEHUNDRED_SMTP_HOST")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    process = start_server_process(url, port, tmp_path)
    try:
        dan = signed_up(base, "Dan", "dan@example.org")
        first = finished_game(base, dan, 11)
        wait_for(lambda: mail_states(url) == [1], 30, "the e-mail due")
        process.send_signal(signal.SIGKILL)
        process.wait(30)
        monkeypatch.setenv("FIVEHUNDRED_SMTP_HOST", "127.0.0.1")
        process = start_server_process(url, port, tmp_path)
        wait_for(lambda: of_game(inbox, first), 60, "the first game's e-mail")
        second = finished_game(base, dan, 12)
        wait_for(lambda: of_game(inbox, second), 60, "the second game's e-mail")
        # (the server marks an e-mail sent once the SMTP server has taken it)
        wait_for(lambda: mail_states(url) == [2, 2], 30, "both e-mails marked sent")
        assert len(of_game(inbox, first)) == 1 and len(inbox.messages) == 2
        assert len(dan.get("/api/notices").json()["notices"]) == 2
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(30)


def mail_states(url: str) -> list[int]:
    engine = sa.create_engine(url)
    with engine.connect() as db:
        query = sa.select(notices.c.mail).order_by(notices.c.id)
        states = [int(s) for s in db.execute(query).scalars()]
    engine.dispose()
    return states


def test_the_bell_and_the_list_at_phone_size(tmp_path: Path) -> None:
    """Playwright (Debian's chromium) at 390x844: the header's bell counts the unread
    notice (its name says so to a screen reader); the list on /notices shows it with its
    link, marks it read, and the bell's count goes."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not Path("/usr/bin/chromium").exists():
        pytest.skip("no chromium at /usr/bin/chromium")
    with thread_server(f"sqlite:///{tmp_path / 'w.sqlite3'}") as base:
        fay = signed_up(base, "Fay", None)
        code = finished_game(base, fay, 9)
        wait_for(lambda: fay.get("/api/notices").json()["unread"], 30, "the notice")
        with playwright_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
            try:
                context = browser.new_context(viewport={"width": 390, "height": 844})
                host = base.split("//", 1)[1].split(":")[0]
                session = fay.cookies.get("fh_session")
                context.add_cookies(
                    [{"name": "fh_session", "value": session, "domain": host, "path": "/"}]
                )
                page = context.new_page()
                page.goto(f"{base}/")
                bell = page.locator("#notice-bell")
                bell.wait_for()
                assert bell.get_attribute("aria-label") == "Notices: 1 unread"
                assert bell.locator(".badge").inner_text() == "1"
                box = bell.bounding_box()
                assert box is not None and box["x"] + box["width"] <= 390
                bell.click()
                page.wait_for_url(f"{base}/notices")
                item = page.locator("#notice-list li a")
                item.wait_for()
                assert item.get_attribute("href") == f"/g/{code}"
                assert "is over: you" in item.inner_text()
                page.wait_for_function(
                    "document.getElementById('notice-bell')?.getAttribute('aria-label')"
                    " === 'Notices: none unread'"
                )
                assert page.locator("#notice-bell .badge").is_hidden()
                page.screenshot(path=str(tmp_path / "notices-phone.png"), full_page=True)
            finally:
                browser.close()
        assert fay.get("/api/notices").json()["unread"] == 0


def test_a_turn_based_tables_turn_is_told_once_a_turn_in_memory_or_not(
    db_url: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Eve holds seat 0 of two turn-based tables (a day a move) and bids first at each; the
    server is started again before its first look: the tables are dormant (in no memory),
    and each turn is told from its clock's row, once, without reading the table. Eve moves
    at one and leaves: her next turn there is told too (a turn, not an hour, apart)."""
    from fivehundred.game import dealer_of_seed

    first_bid = [s for s in range(200) if dealer_of_seed(s, 4) == 3][:2]
    monkeypatch.setattr(notices_module, "TURN_LOOK", 3600.0)  # no look before the restart
    tokens = {}
    with thread_server(db_url) as base:
        eve = signed_up(base, "Eve", None)
        for seed in first_bid:
            body = {
                "seats": ["open", "random", "random", "random"],
                "seed": seed,
                "name": f"Slow game {seed}",
                "options": {"delay": 0, "move_clock": 86_400, "stand_in": "random"},
            }
            code = str(eve.post("/api/tables", json=body).json()["table"])
            answer = eve.post(f"/api/tables/{code}/seats/0", json={"name": "x"})
            assert answer.status_code == 200, answer.text
            tokens[code] = answer.json()["token"]
        for code in tokens:
            wait_for(lambda c=code: turn_row(db_url, c), 30, f"Eve's clock at {code}")
        cookies = dict(eve.cookies)
        assert eve.get("/api/notices").json()["notices"] == []
    monkeypatch.setattr(notices_module, "TURN_LOOK", 0.1)
    apps: list[Any] = []
    with thread_server(db_url, prepare=apps.append) as base:
        eve = httpx.Client(base_url=base, timeout=30, cookies=cookies)

        def told() -> list[dict[str, Any]]:
            return list(eve.get("/api/notices").json()["notices"])

        listed = wait_for(lambda: len(n := told()) == 2 and n, 30, "a notice per table")
        assert sorted(n["link"] for n in listed) == sorted(f"/t/{c}" for c in tokens)
        assert all(n["kind"] == "turn" for n in listed)
        assert set(apps[0].state.hub.tables) == set(), "told without reading the tables"
        # once a turn: the rows' look finds nothing more to tell
        assert NoticeStore(apps[0].state.store.store.engine).turns_waiting(set()) == []
        code = next(iter(tokens))
        with connect(ws_url(base, code, tokens[code])) as ws:
            view = json.loads(ws.recv(timeout=30))
            while view.get("type") != "view" or not view["view"]["legal"]:
                view = json.loads(ws.recv(timeout=30))
            version = view["version"]
            move = {"type": "action", "version": version, "action": "pass"}
            ws.send(json.dumps(move))
            while view.get("type") != "view" or view["version"] <= version:
                view = json.loads(ws.recv(timeout=30))
        later = wait_for(lambda: len(n := told()) == 3 and n, 60, "her next turn told")
        assert later[0]["link"] == f"/t/{code}" and later[0]["kind"] == "turn"
        assert turn_row(db_url, code).version > version


def turn_row(url: str, code: str) -> Any:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as db:
            return db.execute(
                sa.text(
                    "SELECT d.seat, d.version FROM deadlines d JOIN tables t "
                    "ON t.id = d.table_id WHERE t.code = :code AND d.kind = 'turn'"
                ),
                {"code": code},
            ).first()
    finally:
        engine.dispose()
