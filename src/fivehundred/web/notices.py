"""Notices: what an account is told, in the site's list (a bell with the unread count) and
by e-mail through the operator's SMTP server (docs/web-protocol.md#notices).

Kinds (:data:`KINDS`; the list is open: more come with the tournaments):

- ``ended``: a game where the account held a seat is over: the result and a link to the
  game's page. Made by the outbox (web/outbox.py) in the transaction that deletes the
  game's ``notify`` row: once per seated account, whichever server takes it and across a
  restart (a unique ``key`` per account backs this up).
- ``turn``: a live table where the account holds a seat, it is that seat's turn and the
  person is not connected (looked at every :data:`TURN_LOOK` s by the table's own server):
  at most one per table and account an :data:`TURN_EVERY` s. At a turn-based table
  (``move_clock``): one per turn (its version), from the table in memory as above, or,
  for a table in no server's memory here (a dormant one), from its ``turn`` deadline's
  row (:meth:`NoticeStore.turns_waiting`): a restart loses none.

- ``round``: a round of a tournament the account plays in starts and its table is ready
  (web/events/): once per account and round.

Each account chooses, per kind, the list and/or e-mail (:data:`DEFAULTS` until it
chooses); e-mail needs an address. A notice due by e-mail is a row with ``mail = 1``: a
server with SMTP settings leases it (``FOR UPDATE SKIP LOCKED``, :data:`MAIL_LEASE` s),
sends it and marks it sent; a server killed before the mark leaves it to the next after
the lease (a restart loses none; a mail is sent twice only if the server dies between the
SMTP server's acceptance and the mark). Every e-mail has a link that unsubscribes the
account from all e-mail without a login: ``/notices/unsubscribe?token=``, a random
256-bit key per account. A notice carries no card: its text is the table's name, the
result and the scores.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import secrets
import smtplib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from email import policy
from email.message import EmailMessage
from pathlib import Path
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, Query, Request
from fastapi.responses import FileResponse, HTMLResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Connection, Engine

from fivehundred.web.schema import (
    account_seats,
    closures,
    deadlines,
    notice_settings,
    notices,
    tables,
)

log = logging.getLogger("fivehundred.web.notices")

STATIC_DIR = Path(__file__).with_name("static")
#: The kinds of notices, with the words of the settings.
KINDS = {
    "ended": "A game of mine ended",
    "turn": "It is my turn at a table I left",
    "round": "A round of my tournament starts",
}
#: Each kind's channels until an account chooses.
DEFAULTS = {
    "ended": {"app": True, "mail": False},
    "turn": {"app": True, "mail": True},
    "round": {"app": True, "mail": True},
}
#: Seconds between two "your turn" notices of one table to one account.
TURN_EVERY = 3600.0
#: Seconds between two looks for seats whose turn it is and whose person is away.
TURN_LOOK = 30.0
#: Turn-based tables' turns looked up in the database at one look (the rest at the next).
TURNS_AT_ONCE = 500
#: Notices the list shows (the newest).
LIST_LIMIT = 50
#: Seconds a server holds a notice it is mailing; attempts before one is dropped.
MAIL_LEASE = 120.0
MAIL_TRIES = 8
#: Seconds before a mail the SMTP server did not take is tried again, times its attempts.
MAIL_RETRY = 60.0
#: Seconds after which a mail nobody sent is dropped (no server has SMTP settings).
MAIL_KEEP = 86_400.0
#: Seconds between two looks for mail to send (besides the wake of a new notice here).
MAIL_POLL = 2.0
EMAIL_LENGTH = 254
EMAIL = re.compile(r"[^@\s<>\"',;()\[\]\\]{1,64}@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+")
#: The mail states of a notice.
NO_MAIL, MAIL_DUE, MAIL_SENT, MAIL_DROPPED = 0, 1, 2, 3
#: Every environment variable of the notices (``fivehundred serve`` reads them).
NOTICE_VARIABLES = tuple(
    f"FIVEHUNDRED_{name}"
    for name in (
        "SMTP_HOST",
        "SMTP_PORT",
        "SMTP_FROM",
        "SMTP_USER",
        "SMTP_PASSWORD",
        "SMTP_STARTTLS",
        "PUBLIC_URL",
    )
)
#: Lines up to SMTP's limit: the unsubscribe header stays one plain line.
MAIL_POLICY = policy.SMTP.clone(max_line_length=998)
TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


@dataclass(frozen=True)
class Smtp:
    """The operator's SMTP server; ``site``: the public address the links start with."""

    host: str
    port: int
    sender: str
    site: str
    user: str | None = None
    password: str | None = None
    starttls: bool = False


def smtp_from_env(environ: Mapping[str, str]) -> Smtp | None:
    """The SMTP settings of ``environ`` (None: no ``FIVEHUNDRED_SMTP_HOST``, no e-mail), or
    ValueError naming the bad one."""

    def get(name: str) -> str:
        return environ.get(f"FIVEHUNDRED_{name}", "").strip()

    host = get("SMTP_HOST")
    if not host:
        return None
    if len(host) > 253 or not re.fullmatch(r"[A-Za-z0-9.:\[\]-]+", host):
        raise ValueError(f"FIVEHUNDRED_SMTP_HOST must be a host name, got {host[:60]!r}")
    port_text = get("SMTP_PORT") or "25"
    if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
        raise ValueError(f"FIVEHUNDRED_SMTP_PORT must be 1..65535, got {port_text[:20]!r}")
    sender = get("SMTP_FROM")
    if not valid_email(sender):
        raise ValueError(f"FIVEHUNDRED_SMTP_FROM must be an e-mail address, got {sender[:80]!r}")
    site = get("PUBLIC_URL").rstrip("/")
    if not re.fullmatch(r"https?://[A-Za-z0-9.:\[\]-]+(/[^\s]*)?", site) or len(site) > 200:
        raise ValueError(
            "FIVEHUNDRED_PUBLIC_URL must be the site's address (https://cards.example.org) "
            f"when FIVEHUNDRED_SMTP_HOST is set, got {site[:80]!r}"
        )
    starttls = get("SMTP_STARTTLS").lower()
    if starttls and starttls not in TRUE + FALSE:
        raise ValueError(f"FIVEHUNDRED_SMTP_STARTTLS must be 1 or 0, got {starttls[:20]!r}")
    user, password = get("SMTP_USER") or None, environ.get("FIVEHUNDRED_SMTP_PASSWORD") or None
    if (user is None) != (password is None):
        raise ValueError("FIVEHUNDRED_SMTP_USER and FIVEHUNDRED_SMTP_PASSWORD go together")
    return Smtp(host, int(port_text), sender, site, user, password, starttls in TRUE)


def valid_email(text: str) -> bool:
    return len(text) <= EMAIL_LENGTH and EMAIL.fullmatch(text) is not None


def _choices(kinds: Any) -> dict[str, dict[str, bool]]:
    """Every kind's channels: the saved ones over the defaults (unknown kinds left out)."""
    saved = kinds if isinstance(kinds, dict) else {}
    chosen = {}
    for kind, default in DEFAULTS.items():
        found = saved.get(kind)
        mine: dict[str, Any] = found if isinstance(found, dict) else {}
        chosen[kind] = {ch: bool(mine.get(ch, on)) for ch, on in default.items()}
    return chosen


# ----------------------------------------------------------------------------- the database
class NoticeStore:
    """The notices' queries (synchronous: run in the store's thread)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def _settings(self, db: Connection, account_id: int) -> Any:
        return db.execute(
            sa.select(notice_settings).where(notice_settings.c.account_id == account_id)
        ).first()

    def settings(self, account_id: int) -> dict[str, Any]:
        with self.engine.connect() as db:
            row = self._settings(db, account_id)
        kinds = _choices(json.loads(row.kinds) if row is not None else None)
        return {"email": row.email if row is not None else None, "kinds": kinds}

    def save_settings(self, account_id: int, email: str | None, kinds: dict[str, Any]) -> None:
        values = {"email": email, "kinds": json.dumps(_choices(kinds))}
        with self.engine.begin() as db:
            if self._settings(db, account_id) is None:
                key = secrets.token_urlsafe(32)
                db.execute(
                    notice_settings.insert().values(
                        account_id=account_id, unsubscribe=key, **values
                    )
                )
            else:
                db.execute(
                    notice_settings.update()
                    .where(notice_settings.c.account_id == account_id)
                    .values(**values)
                )
            if email is None:  # nowhere to send what was due
                self._drop_mail(db, account_id)

    def _drop_mail(self, db: Connection, account_id: int) -> None:
        db.execute(
            notices.update()
            .where(notices.c.account_id == account_id, notices.c.mail == MAIL_DUE)
            .values(mail=MAIL_DROPPED)
        )

    def unsubscribe(self, token: str) -> bool:
        """No more e-mail of any kind for the account of ``token`` (False: no such key)."""
        with self.engine.begin() as db:
            row = db.execute(
                sa.select(notice_settings).where(notice_settings.c.unsubscribe == token)
            ).first()
            if row is None:
                return False
            kinds = _choices(json.loads(row.kinds))
            for channels in kinds.values():
                channels["mail"] = False
            db.execute(
                notice_settings.update()
                .where(notice_settings.c.account_id == row.account_id)
                .values(kinds=json.dumps(kinds))
            )
            self._drop_mail(db, row.account_id)
        return True

    def add(
        self, db: Connection, account_id: int, kind: str, key: str, what: tuple[str, str, str]
    ) -> bool:
        """A notice of ``kind`` (``what``: table code, text, link) for the account, in
        ``db``'s transaction, as the account chose; False if it wants none or has it."""
        code, text, link = what
        row = self._settings(db, account_id)
        chosen = _choices(json.loads(row.kinds) if row is not None else None)[kind]
        mail = chosen["mail"] and row is not None and row.email is not None
        if not (chosen["app"] or mail):
            return False
        if db.execute(
            sa.select(notices.c.id).where(notices.c.account_id == account_id, notices.c.key == key)
        ).first():
            return False
        db.execute(
            notices.insert().values(
                account_id=account_id,
                kind=kind,
                key=key,
                code=code,
                text=text[:300],
                link=link,
                at=time.time(),
                app=chosen["app"],
                read=False,
                mail=MAIL_DUE if mail else NO_MAIL,
                mail_tries=0,
            )
        )
        return True

    def game_ended(self, code: str, db: Connection) -> str:
        """The ``ended`` notice of each account seated at the finished table ``code``, in
        the outbox's transaction (web/outbox.py); what was done."""
        from fivehundred.rules import make_rules
        from fivehundred.scoring import side_of_seats

        table = db.execute(sa.select(tables).where(tables.c.code == code)).first()
        if table is None or table.finished is None:
            return "no finished table"
        rules_facts = json.loads(table.rules)
        sides = side_of_seats(make_rules(rules_facts["preset"], rules_facts.get("variants")))
        scores = ", ".join(str(int(s)) for s in json.loads(table.scores))
        held = db.execute(
            sa.select(account_seats.c.seat, account_seats.c.account_id).where(
                account_seats.c.code == code
            )
        ).all()
        made = 0
        for seat, account_id in held:
            won = seat < len(sides) and sides[seat] == table.winner
            text = f"The game at {table.name} is over: you {'won' if won else 'lost'}. "
            text += f"Final scores: {scores}."
            made += self.add(db, account_id, "ended", f"ended:{code}", (code, text, f"/g/{code}"))
        return f"{made} notices"

    def your_turn(
        self, code: str, seat: int, name: str, now: float, version: int | None = None
    ) -> bool:
        """A ``turn`` notice for the account holding ``seat`` at table ``code`` unless it
        has none or one was made in the last :data:`TURN_EVERY` s; at a turn-based table
        (the turn's ``version``): unless it has this turn's."""
        with self.engine.begin() as db:
            account_id = db.execute(
                sa.select(account_seats.c.account_id).where(
                    account_seats.c.code == code, account_seats.c.seat == seat
                )
            ).scalar()
            if account_id is None:
                return False
            text = f"It is your turn at {name}."
            if version is not None:
                key = f"turn:{code}:v{version}"
                return self.add(db, account_id, "turn", key, (code, text, f"/t/{code}"))
            last = db.execute(
                sa.select(sa.func.max(notices.c.at)).where(
                    notices.c.account_id == account_id,
                    notices.c.kind == "turn",
                    notices.c.code == code,
                )
            ).scalar()
            if last is not None and last > now - TURN_EVERY:
                return False
            key = f"turn:{code}:{int(now // TURN_EVERY)}"
            return self.add(db, account_id, "turn", key, (code, text, f"/t/{code}"))

    def turns_waiting(self, skip: set[str]) -> list[tuple[str, int, str, int]]:
        """(code, seat, table name, version) of each turn-based table not in ``skip`` (those
        in this server's memory) whose clock runs for an account's seat that has not been
        told of this turn (its ``turn`` deadline's row, not fired, says whose turn it is)."""
        key = sa.literal("turn:") + tables.c.code + ":v" + sa.cast(deadlines.c.version, sa.String)
        told = sa.exists().where(
            notices.c.account_id == account_seats.c.account_id, notices.c.key == key
        )
        query = (
            sa.select(tables.c.code, deadlines.c.seat, tables.c.name, deadlines.c.version)
            .select_from(
                deadlines.join(tables, tables.c.id == deadlines.c.table_id).join(
                    account_seats,
                    (account_seats.c.code == tables.c.code)
                    & (account_seats.c.seat == deadlines.c.seat),
                )
            )
            .where(
                deadlines.c.kind == "turn",
                deadlines.c.fired.is_(False),
                tables.c.finished.is_(None),
                tables.c.options.like('%"move_clock"%'),
                ~sa.exists().where(closures.c.table_id == tables.c.id),
                ~told,
            )
            .limit(TURNS_AT_ONCE)
        )
        with self.engine.connect() as db:
            found = [(r.code, r.seat, r.name, r.version) for r in db.execute(query)]
        return [row for row in found if row[0] not in skip]

    def listing(self, account_id: int, limit: int = LIST_LIMIT) -> dict[str, Any]:
        mine = sa.and_(notices.c.account_id == account_id, notices.c.app.is_(True))
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(notices).where(mine).order_by(notices.c.id.desc()).limit(limit)
            ).all()
            unread = db.execute(
                sa.select(sa.func.count()).where(mine, notices.c.read.is_(False))
            ).scalar()
        return {
            "notices": [
                {
                    "id": r.id,
                    "kind": r.kind,
                    "table": r.code,
                    "text": r.text,
                    "link": r.link,
                    "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(r.at)),
                    "read": bool(r.read),
                }
                for r in rows
            ],
            "unread": int(unread or 0),
        }

    def mark_read(self, account_id: int, up_to: int | None) -> None:
        where = [notices.c.account_id == account_id, notices.c.read.is_(False)]
        if up_to is not None:
            where.append(notices.c.id <= up_to)
        with self.engine.begin() as db:
            db.execute(notices.update().where(*where).values(read=True))

    # ------------------------------------------------------------------ e-mail
    def lease_mail(self, now: float) -> dict[str, Any] | None:
        """Hold the oldest notice due by e-mail that nobody holds, for :data:`MAIL_LEASE` s:
        what to send (None: none due)."""
        with self.engine.begin() as db:
            db.execute(
                notices.update()
                .where(notices.c.mail == MAIL_DUE, notices.c.at < now - MAIL_KEEP)
                .values(mail=MAIL_DROPPED)
            )
            row = db.execute(
                sa.select(notices)
                .where(
                    notices.c.mail == MAIL_DUE,
                    sa.or_(notices.c.mail_until.is_(None), notices.c.mail_until < now),
                )
                .order_by(notices.c.id)
                .limit(1)
                .with_for_update(skip_locked=True)
            ).first()
            if row is None:
                return None
            if row.mail_tries >= MAIL_TRIES:
                log.error("notice %d: its e-mail is dropped after %d tries", row.id, MAIL_TRIES)
                db.execute(notices.update().where(notices.c.id == row.id).values(mail=MAIL_DROPPED))
                return {"id": row.id, "skip": True}
            settings = self._settings(db, row.account_id)
            until = now + MAIL_LEASE
            db.execute(
                notices.update()
                .where(notices.c.id == row.id)
                .values(mail_until=until, mail_tries=notices.c.mail_tries + 1)
            )
        return {
            "id": row.id,
            "until": until,
            "tries": row.mail_tries + 1,
            "to": settings.email if settings is not None else None,
            "text": row.text,
            "link": row.link,
            "unsubscribe": settings.unsubscribe if settings is not None else None,
        }

    def mail_later(self, notice_id: int, until: float, tries: int) -> None:
        """The SMTP server did not take the leased notice: tried again after
        :data:`MAIL_RETRY` s times the attempts so far."""
        with self.engine.begin() as db:
            db.execute(
                notices.update()
                .where(notices.c.id == notice_id, notices.c.mail_until == until)
                .values(mail_until=time.time() + MAIL_RETRY * tries)
            )

    def mail_sent(self, notice_id: int, until: float, state: int = MAIL_SENT) -> bool:
        """The leased notice was sent (or cannot be): marked, if the lease still holds."""
        with self.engine.begin() as db:
            done = db.execute(
                notices.update()
                .where(
                    notices.c.id == notice_id,
                    notices.c.mail == MAIL_DUE,
                    notices.c.mail_until == until,
                )
                .values(mail=state)
            )
        return bool(done.rowcount == 1)

    def mail_states(self) -> dict[int, int]:
        """Notices by mail state (the tests)."""
        with self.engine.connect() as db:
            rows = db.execute(sa.select(notices.c.mail, sa.func.count()).group_by(notices.c.mail))
            return {int(state): int(n) for state, n in rows}


def message(smtp: Smtp, to: str, text: str, link: str, unsubscribe: str) -> EmailMessage:
    """One notice's e-mail: its text, its link, and the unsubscribe link (also in the
    ``List-Unsubscribe`` header, one click: RFC 8058)."""
    stop = f"{smtp.site}/notices/unsubscribe?token={unsubscribe}"
    mail = EmailMessage(policy=MAIL_POLICY)
    mail["From"] = smtp.sender
    mail["To"] = to
    mail["Subject"] = f"Five Hundred: {text[:120]}"
    mail["List-Unsubscribe"] = f"<{stop}>"
    mail["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    mail.set_content(
        f"{text}\n\n{smtp.site}{link}\n\n"
        "You receive this because you asked for e-mail notices. No more e-mail:\n"
        f"{stop}\n\nChoose which notices you get: {smtp.site}/notices\n"
    )
    return mail


def send(smtp: Smtp, mail: EmailMessage) -> None:
    """Hand ``mail`` to the SMTP server (blocking: run in a thread)."""
    with smtplib.SMTP(smtp.host, smtp.port, timeout=30) as client:
        if smtp.starttls:
            client.starttls()
        if smtp.user is not None and smtp.password is not None:
            client.login(smtp.user, smtp.password)
        client.send_message(mail)


# ----------------------------------------------------------------------------- the service
class Notices:
    """The notices of one server: the store, the mailer (with SMTP settings) and the look
    for seats whose person is away at their turn (:func:`seats_waiting`), run by the
    outbox's loops (:meth:`attach`)."""

    def __init__(self, async_store: Any, smtp: Smtp | None) -> None:
        self.async_store = async_store
        self.store = NoticeStore(async_store.store.engine)
        self.smtp = smtp
        self.seats_waiting: Callable[[], Any] | None = None
        self.in_memory: Callable[[], set[str]] = set
        self._wake = asyncio.Event()
        #: e-mails this server handed to the SMTP server (the tests)
        self.sent = 0

    async def call(self, function: Any, *args: Any) -> Any:
        return await self.async_store.call(function, *args)

    def attach(self, hub: Any, outbox: Any) -> Any:
        """Work with the server's ``hub`` and ``outbox`` (returned): each finished game
        gets a ``notify`` row, whose notices the outbox makes; the mailer and the look for
        seats whose person is away run (and stop) with the outbox's loops."""
        store = self.async_store.store
        if "notify" not in store.follow_ups:
            store.follow_ups = (*store.follow_ups, "notify")
        outbox.notify = self.store.game_ended
        outbox.notified = self.wake
        self.seats_waiting = lambda: seats_waiting(hub.live_tables())
        self.in_memory = lambda: set(hub.tables)
        if self.smtp is not None:
            outbox.also.append((self.mail_once, self._wake, MAIL_POLL))
        outbox.also.append((self.turns_once, asyncio.Event(), TURN_LOOK))
        return outbox

    def wake(self) -> None:
        """Notices may have been made here: mail them now."""
        self._wake.set()

    async def mail_once(self) -> int:
        """Send the notices due by e-mail (up to 50); how many were sent."""
        assert self.smtp is not None
        done = 0
        for _ in range(50):
            due = await self.call(self.store.lease_mail, time.time())
            if due is None:
                break
            if due.get("skip"):
                continue
            if not due["to"] or not due["unsubscribe"]:
                await self.call(self.store.mail_sent, due["id"], due["until"], MAIL_DROPPED)
                continue
            mail = message(self.smtp, due["to"], due["text"], due["link"], due["unsubscribe"])
            try:
                await asyncio.to_thread(send, self.smtp, mail)
            except (OSError, smtplib.SMTPException) as error:
                log.warning("notice %d: the e-mail could not be sent: %s", due["id"], error)
                await self.call(self.store.mail_later, due["id"], due["until"], due["tries"])
                break
            await self.call(self.store.mail_sent, due["id"], due["until"])
            self.sent += 1
            done += 1
        return done

    async def turns_once(self) -> int:
        """A ``turn`` notice for each seat whose person is away at their turn."""
        assert self.seats_waiting is not None
        made = 0
        now = time.time()
        for code, seat, name, version in self.seats_waiting():
            made += await self.call(self.store.your_turn, code, seat, name, now, version)
        # turn-based tables in no memory here: from their clocks' rows
        for code, seat, name, version in await self.call(
            self.store.turns_waiting, self.in_memory()
        ):
            made += await self.call(self.store.your_turn, code, seat, name, now, version)
        if made:
            self.wake()
        return made


def seats_waiting(live: list[Any]) -> list[tuple[str, int, str, int | None]]:
    """(code, seat, table name, version: a turn-based table's, else None) of each table of
    ``live`` this server plays whose seat to move is a person's who is not connected (to
    any server)."""
    waiting = []
    for table in live:
        if not table.owned or not table.live:
            continue
        seat = table.model.to_move
        if table.seats[seat].kind == "person" and not table.present(seat):
            if table.turn_based and table.held_by_stand_in(seat):
                continue  # (the stand-in's for the game: nothing to tell)
            turn = table.version if table.turn_based else None
            waiting.append((table.code, seat, table.name, turn))
    return waiting


# ----------------------------------------------------------------------------- the routes
class SettingsIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    email: str | None = Field(default=None, max_length=EMAIL_LENGTH)
    kinds: dict[
        Annotated[str, Field(max_length=20)],
        Annotated[dict[Annotated[str, Field(max_length=10)], bool], Field(max_length=4)],
    ] = Field(default_factory=dict, max_length=20)


class ReadIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    #: the newest notice read (none: all of them)
    up_to: int | None = Field(default=None, ge=0, lt=2**62)


UNSUBSCRIBED = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Five Hundred: e-mail notices</title><link rel="stylesheet" href="/static/css/site.css">
</head><body><main><h1>E-mail notices</h1><p>{text}</p>
<p><a href="/notices">Choose your notices</a></p></main></body></html>"""


def make_router(service: Notices, logged_in: Callable[[Request], Any]) -> APIRouter:
    """The notices' routes; ``logged_in(request)``: the account, or 401."""
    router = APIRouter()
    store = service.store

    @router.get("/api/notices")
    async def listing(request: Request) -> dict[str, Any]:
        account = await logged_in(request)
        return dict(await service.call(store.listing, account.id))

    @router.post("/api/notices/read")
    async def read(body: ReadIn, request: Request) -> dict[str, Any]:
        account = await logged_in(request)
        await service.call(store.mark_read, account.id, body.up_to)
        return dict(await service.call(store.listing, account.id))

    @router.get("/api/notices/settings")
    async def settings(request: Request) -> dict[str, Any]:
        account = await logged_in(request)
        return {**await service.call(store.settings, account.id), "labels": KINDS}

    @router.put("/api/notices/settings")
    async def save(body: SettingsIn, request: Request) -> dict[str, Any]:
        from fivehundred.web.accounts import AccountError

        account = await logged_in(request)
        email = (body.email or "").strip() or None
        if email is not None and not valid_email(email):
            raise AccountError(422, "email: not an e-mail address")
        unknown = sorted(set(body.kinds) - set(KINDS))
        if unknown:
            raise AccountError(422, f"kinds: no kind {unknown[0][:20]!r}")
        await service.call(store.save_settings, account.id, email, body.kinds)
        return {**await service.call(store.settings, account.id), "labels": KINDS}

    @router.get("/notices/unsubscribe", include_in_schema=False)
    @router.post("/notices/unsubscribe", include_in_schema=False)
    async def unsubscribe(token: str = Query(default="", max_length=100)) -> HTMLResponse:
        if len(token) < 20 or not await service.call(store.unsubscribe, token):
            text = "This unsubscribe link is not known here: nothing was changed."
            return HTMLResponse(UNSUBSCRIBED.format(text=text), status_code=404)
        text = "Done: you will get no more e-mail from this site."
        return HTMLResponse(UNSUBSCRIBED.format(text=text))

    @router.get("/notices", include_in_schema=False)
    async def page() -> FileResponse:
        return FileResponse(STATIC_DIR / "notices.html")

    return router


def install(
    app: Any, async_store: Any, accounts: Any, environ: Mapping[str, str] | None = None
) -> Notices:
    """The notices of ``app``: the service (``app.state.notices``) and its routes. Raises
    ValueError for bad SMTP settings in ``environ`` (default: the process's)."""
    from fivehundred.web.accounts import AccountError

    service = Notices(async_store, smtp_from_env(os.environ if environ is None else environ))

    async def logged_in(request: Request) -> Any:
        account = await accounts.current(request)
        if account is None:
            raise AccountError(401, "not logged in")
        return account

    app.state.notices = service
    app.include_router(make_router(service, logged_in))
    return service
