"""Accounts (optional: guests play by seat token as before), their sessions, and the
ratings of rated tables (docs/web-protocol.md#accounts-and-ratings).

* An account is a name (unique, compared case-insensitively; a guest cannot sit down
  under it) and a password hashed with Argon2 (``argon2-cffi``). Logging in sets a
  session cookie (HttpOnly, SameSite=Lax, Secure over https or when configured); the
  database keeps only the session id's SHA-256. Every login makes a new session id (no
  fixation); "log out everywhere" and a password change end every other session.
* A seat taken while logged in belongs to the account: a WebSocket that brings the
  session cookie and no token plays that seat, from any device.
* A table is **rated** when every seat is held by an account and all of them are people
  or all of them are bot accounts (a bot is rated against bots only); a computer level at
  a seat makes it unrated (undo and hints exist only at tables with a computer player, so
  a rated table has neither). At the end of a rated game every person's rating (per
  preset) and every partnership's is updated with openskill's Plackett-Luce model. A seat
  whose actions were made by the stand-in more than :data:`~fivehundred.web.players.STAND_IN_SHARE` of the time
  counts as a loss for its absent owner only; nobody else's rating moves for that game.
  The turn timer's moves count as the stand-in's here; a game shorter than
  :data:`MIN_RATED_HANDS` hands, or where two accounts took their seats from one address,
  is not rated (docs/deploy.md, "Limits per visitor").

The tables are defined with every other in :mod:`fivehundred.web.schema` (created and
upgraded by the migrations); every query runs in the store's worker thread (:class:`AsyncStore.call`)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import re
import secrets
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import sqlalchemy as sa
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Query, Request, Response, WebSocket
from fastapi.responses import FileResponse
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Connection

from fivehundred.rules import PRESETS
from fivehundred.web import ratings as rated
from fivehundred.web import store as store_module
from fivehundred.web.guard import Buckets, client_address, shown
from fivehundred.web.players import STAND_IN_BY, stood_in
from fivehundred.web.ratings import ordinal
from fivehundred.web.schema import (  # every table is defined there
    account_seats,
    accounts,
    metadata,
    rated_games,
    seat_addresses,
    sessions,
)
from fivehundred.words import PRESET_LABELS

log = logging.getLogger("fivehundred.web.accounts")

COOKIE = "fh_session"
STATIC_DIR = Path(__file__).with_name("static")
#: Sessions last this long (seconds) since the login.
SESSION_SECONDS = 30 * 86400
#: The long-lived cookie that tells one browser from another (:class:`DeviceCookie`): the
#: device a seat was taken from, for the ratings (one device's accounts are not rated
#: against each other). Random, and nothing else is kept with it.
DEVICE_COOKIE = "fh_device"
DEVICE_SECONDS = 365 * 86400
DEVICE_PATTERN = re.compile(r"[A-Za-z0-9_-]{24}")
#: where :class:`DeviceCookie` puts the device id it gives with an answer
DEVICE_SCOPE = "fivehundred.device"
#: the health checks and metrics: no cookie for them
UNCOUNTED_PATHS = frozenset({"/healthz", "/readyz", "/metrics"})
NAME_LENGTH = (2, 30)
#: A guest's name is held for them this long after the last game they sat down to
#: (seconds): nobody else may sign up under it meanwhile; from the guest's own browser
#: (one of its seat tokens) it may be taken at any time, with the guest's games.
GUEST_HOLD_SECONDS = 30 * 86400
#: Seat tokens one sign-up may bring (a browser's guest seats).
MAX_SIGNUP_TOKENS = 200
#: Login attempts per account (from every address) and per address (at every name), as
#: multiples of the limit per (address, account): one address cannot reach the first.
LOGIN_ACCOUNT_FACTOR = 6
LOGIN_ADDRESS_FACTOR = 4
PASSWORD_LENGTH = (8, 200)

#: A game shorter than this (finished hands) is not rated (two accounts farming points
#: in one-hand games to 10).
MIN_RATED_HANDS = 2
#: The moves that are not the seat's person's for the ratings: the stand-in's for an
#: absent person, and the turn timer's for one who let it run out (a game the server's
#: stand-in played for an idle account is never that account's win).
RATING_STAND_IN_BY = frozenset({*STAND_IN_BY, "timer"})


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


@dataclass
class Account:
    id: int
    name: str
    bot: bool


class AccountError(Exception):
    def __init__(self, status: int, detail: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status = status
        self.detail = detail
        self.headers = headers


# ----------------------------------------------------------------------------- the database
class AccountStore:
    """The accounts' queries (synchronous; run in the store's thread)."""

    def __init__(self, engine: sa.engine.Engine) -> None:
        self.engine = engine
        store_module.create_schema(metadata, engine)  # two servers starting together

    def create(
        self, name: str, password_hash: str, bot: bool, tokens: tuple[str, ...] = ()
    ) -> Account | None:
        """A new account, or None if the name is an account's or held for a guest
        (:meth:`guest_hold`). ``tokens``: the seat tokens of the browser signing up; a
        guest who played under ``name`` with one of them takes the name and those seats."""
        with self.engine.begin() as db:
            key = name_key(name)
            if db.execute(sa.select(accounts.c.id).where(accounts.c.name_key == key)).first():
                return None
            own = self._guest_seats(db, name, tokens)
            if not own and self._guest_hold(db, name) is not None:
                return None  # a guest played under this name lately: it stays theirs
            result = db.execute(
                accounts.insert().values(
                    name=name,
                    name_key=key,
                    password_hash=password_hash,
                    bot=bot,
                    created=time.time(),
                )
            )
            assert result.inserted_primary_key is not None
            account_id = int(result.inserted_primary_key[0])
            for code, seat in own:  # the guest's games are the account's
                db.execute(
                    account_seats.delete().where(
                        (account_seats.c.code == code) & (account_seats.c.seat == seat)
                    )
                )
                db.execute(
                    account_seats.insert().values(code=code, seat=seat, account_id=account_id)
                )
            return Account(account_id, name, bot)

    def _guest_seats(
        self, db: Connection, name: str, tokens: tuple[str, ...]
    ) -> list[tuple[str, int]]:
        """The seats (table code, seat) a guest took under ``name`` with one of ``tokens``."""
        if not tokens:
            return []
        hashes = [store_module.token_hash(token) for token in tokens]
        rows = db.execute(
            sa.select(store_module.tables.c.code, store_module.seats.c.seat)
            .join(store_module.tables, store_module.tables.c.id == store_module.seats.c.table_id)
            .where(sa.func.lower(store_module.seats.c.name) == name.lower())
            .where(store_module.seats.c.token_hash.in_(hashes))
        ).all()
        return [(row.code, int(row.seat)) for row in rows]

    def _guest_hold(self, db: Connection, name: str) -> float | None:
        """Until when (epoch seconds) ``name`` is held for the guest who played under it:
        :data:`GUEST_HOLD_SECONDS` after the last game they sat at began; None if free."""
        last = db.execute(
            sa.select(sa.func.max(store_module.tables.c.created))
            .join(store_module.tables, store_module.tables.c.id == store_module.seats.c.table_id)
            .where(sa.func.lower(store_module.seats.c.name) == name.lower())
        ).scalar()
        if last is None or float(last) + GUEST_HOLD_SECONDS <= time.time():
            return None
        return float(last) + GUEST_HOLD_SECONDS

    def guest_hold(self, name: str) -> float | None:
        with self.engine.connect() as db:
            return self._guest_hold(db, name)

    def by_name(self, name: str) -> tuple[Account, str] | None:
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(accounts).where(accounts.c.name_key == name_key(name))
            ).first()
        if row is None:
            return None
        return Account(row.id, row.name, bool(row.bot)), row.password_hash

    def set_password(self, account_id: int, password_hash: str) -> None:
        with self.engine.begin() as db:
            db.execute(
                accounts.update()
                .where(accounts.c.id == account_id)
                .values(password_hash=password_hash)
            )

    def new_session(self, account_id: int, replaced: str | None) -> str:
        session = secrets.token_urlsafe(32)
        with self.engine.begin() as db:
            if replaced:
                db.execute(sessions.delete().where(sessions.c.id_hash == _hash(replaced)))
            db.execute(
                sessions.insert().values(
                    id_hash=_hash(session), account_id=account_id, created=time.time()
                )
            )
        return session

    def session_account(self, session: str) -> Account | None:
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(accounts.c.id, accounts.c.name, accounts.c.bot, sessions.c.created)
                .select_from(sessions.join(accounts, accounts.c.id == sessions.c.account_id))
                .where(sessions.c.id_hash == _hash(session))
            ).first()
        if row is None or time.time() - row.created > SESSION_SECONDS:
            return None
        return Account(row.id, row.name, bool(row.bot))

    def end_session(self, session: str) -> None:
        with self.engine.begin() as db:
            db.execute(sessions.delete().where(sessions.c.id_hash == _hash(session)))

    def end_sessions(self, account_id: int, keep: str | None = None) -> None:
        with self.engine.begin() as db:
            query = sessions.delete().where(sessions.c.account_id == account_id)
            if keep is not None:
                query = query.where(sessions.c.id_hash != _hash(keep))
            db.execute(query)

    def delete(self, account: Account) -> str:
        """Delete the account and its personal data; its seats in recorded games are
        renamed (the games stay). Returns the replacement name."""
        replacement = f"deleted-{secrets.token_hex(4)}"
        with self.engine.begin() as db:
            places = db.execute(
                sa.select(account_seats.c.code, account_seats.c.seat).where(
                    account_seats.c.account_id == account.id
                )
            ).all()
            for code, seat in places:
                table_id = db.execute(
                    sa.select(store_module.tables.c.id).where(store_module.tables.c.code == code)
                ).scalar()
                if table_id is not None:
                    db.execute(
                        store_module.seats.update()
                        .where(
                            store_module.seats.c.table_id == table_id,
                            store_module.seats.c.seat == seat,
                        )
                        .values(name=replacement)
                    )
            rated.forget(db, account.id)
            db.execute(account_seats.delete().where(account_seats.c.account_id == account.id))
            db.execute(sessions.delete().where(sessions.c.account_id == account.id))
            db.execute(accounts.delete().where(accounts.c.id == account.id))
        return replacement

    def revoke_seat_tokens(self, account_id: int) -> list[tuple[str, int, str]]:
        """Every seat the account holds gets a new token hash (of no token: the tokens
        issued to its sessions stop working; its sessions' cookies still seat it).
        Returns (code, seat, new hash) of each."""
        from fivehundred.web.store import token_hash

        revoked = []
        with self.engine.begin() as db:
            for code, seat in db.execute(
                sa.select(account_seats.c.code, account_seats.c.seat).where(
                    account_seats.c.account_id == account_id
                )
            ).all():
                hashed = token_hash(secrets.token_urlsafe(24))
                table_id = sa.select(store_module.tables.c.id).where(
                    store_module.tables.c.code == code
                )
                db.execute(
                    store_module.seats.update()
                    .where(
                        store_module.seats.c.table_id == table_id.scalar_subquery(),
                        store_module.seats.c.seat == seat,
                        store_module.seats.c.kind == "person",
                    )
                    .values(token_hash=hashed)
                )
                revoked.append((code, seat, hashed))
        return revoked

    def hold_seat(self, code: str, seat: int, account_id: int) -> None:
        with self.engine.begin() as db:
            db.execute(account_seats.insert().values(code=code, seat=seat, account_id=account_id))

    def copy_seat(self, old: str, new: str, seat: int, address: str, device: str | None) -> None:
        """The account holding ``seat`` at table ``old`` (if one does) holds it at ``new``,
        taken from ``address`` and ``device`` (the asker's)."""
        with self.engine.begin() as db:
            account = self.holders(db, old).get(seat)
            if account is None:
                return
            db.execute(account_seats.insert().values(code=new, seat=seat, account_id=account.id))
            self._seat_address(db, new, seat, address, device)

    def seat_address(self, code: str, seat: int, address: str, device: str | None) -> None:
        with self.engine.begin() as db:
            self._seat_address(db, code, seat, address, device)

    def _seat_address(
        self, db: Connection, code: str, seat: int, address: str, device: str | None
    ) -> None:
        db.execute(
            seat_addresses.insert().values(
                code=code,
                seat=seat,
                address_hash=_hash(f"{code}|{address}"),
                device_hash=None if device is None else _hash(f"{code}|device|{device}"),
            )
        )

    def seat_of(self, code: str, account_id: int) -> int | None:
        with self.engine.connect() as db:
            return db.execute(
                sa.select(account_seats.c.seat)
                .where(account_seats.c.code == code, account_seats.c.account_id == account_id)
                .order_by(account_seats.c.seat)
            ).scalar()

    def holders(self, db: Connection, code: str) -> dict[int, Account]:
        rows = db.execute(
            sa.select(account_seats.c.seat, accounts.c.id, accounts.c.name, accounts.c.bot)
            .select_from(account_seats.join(accounts, accounts.c.id == account_seats.c.account_id))
            .where(account_seats.c.code == code)
        )
        return {r.seat: Account(r.id, r.name, bool(r.bot)) for r in rows}

    def table_rating(self, code: str) -> dict[str, Any]:
        with self.engine.connect() as db:
            holders = self.holders(db, code)
            done = db.execute(
                sa.select(rated_games.c.code).where(rated_games.c.code == code)
            ).first()
        return {
            "accounts": {str(s): a.name for s, a in sorted(holders.items())},
            "rated_applied": done is not None,
        }

    # ------------------------------------------------------------------ ratings
    def _rating(self, db: Connection, who: rated.Rated, preset: str) -> tuple[float, float, int]:
        return rated.rating(db, who, preset)

    def rate_game(self, code: str, within: Connection | None = None) -> str:
        """Apply a finished table's result to the ratings, once; returns what was done
        ("unrated: ...", "rated", "absent: ..."), for the log and the tests. ``within``: the
        caller's transaction (the outbox's, web/outbox.py), else one of its own."""
        from fivehundred.rules import rules_from_dict
        from fivehundred.scoring import side_of_seats

        T, S, A = store_module.tables, store_module.seats, store_module.actions
        given = contextlib.nullcontext(within) if within is not None else None
        with given or self.engine.begin() as db:
            table = db.execute(sa.select(T).where(T.c.code == code)).first()
            if table is None or table.finished is None:
                return "unrated: not finished"
            if db.execute(sa.select(rated_games.c.code).where(rated_games.c.code == code)).first():
                return "unrated: already rated"
            seat_rows = db.execute(sa.select(S).where(S.c.table_id == table.id)).all()
            holders = self.holders(db, code)
            if not seat_rows or any(r.kind != "person" or r.seat not in holders for r in seat_rows):
                return "unrated: not every seat is an account's"
            kinds = {a.bot for a in holders.values()}
            if len(kinds) != 1:
                return "unrated: people and bot accounts at one table"
            if len({a.id for a in holders.values()}) != len(holders):
                return "unrated: one account at two seats"
            if table.hands_played < MIN_RATED_HANDS:
                return f"unrated: shorter than {MIN_RATED_HANDS} hands"
            places = db.execute(
                sa.select(seat_addresses.c.address_hash, seat_addresses.c.device_hash).where(
                    seat_addresses.c.code == code
                )
            ).all()
            addresses = [r.address_hash for r in places]
            if len(set(addresses)) != len(addresses):
                return "unrated: accounts playing from one address"
            devices = [r.device_hash for r in places if r.device_hash is not None]
            if len(set(devices)) != len(devices):
                return "unrated: accounts playing from one device"
            rules_json = json.loads(table.rules)
            preset = str(rules_json.get("preset", "australian"))
            rules = rules_from_dict(rules_json)
            sides = side_of_seats(rules)
            counts: dict[int, list[int]] = {}
            for seat, by in db.execute(sa.select(A.c.seat, A.c.by).where(A.c.table_id == table.id)):
                entry = counts.setdefault(seat, [0, 0])
                entry[0] += 1
                entry[1] += 1 if by in RATING_STAND_IN_BY else 0
            absent = sorted(
                s for s, (total, stood) in counts.items() if s in holders and stood_in(total, stood)
            )
            db.execute(rated_games.insert().values(code=code, at=time.time()))
            members = {seat: account.id for seat, account in holders.items()}
            return rated.apply_game(db, code, preset, members, sides, absent, table.winner)

    def rating_of(self, account_id: int, preset: str) -> float:
        """The account's rating (μ − 3σ) for ``preset``; a new player's without games."""
        with self.engine.connect() as db:
            mu, sigma, _ = self._rating(db, rated.of_account(account_id), preset)
        return ordinal(mu, sigma)

    def rated_among(self, codes: list[str]) -> set[str]:
        """Which of the tables ``codes`` were rated games."""
        if not codes:
            return set()
        with self.engine.connect() as db:
            query = sa.select(rated_games.c.code).where(rated_games.c.code.in_(codes))
            return {r.code for r in db.execute(query)}

    def leaderboard(self, preset: str, pairs: bool, limit: int) -> list[dict[str, Any]]:
        with self.engine.connect() as db:
            return rated.leaderboard(db, preset, pairs, limit)

    def profile(self, name: str) -> dict[str, Any] | None:
        found = self.by_name(name)
        if found is None:
            return None
        account = found[0]
        with self.engine.connect() as db:
            ratings_of = rated.profile(db, account.id)
        return {"name": account.name, "bot": account.bot, **ratings_of}


# ----------------------------------------------------------------------------- the API
class SignupIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=NAME_LENGTH[0], max_length=NAME_LENGTH[1])
    password: str = Field(min_length=PASSWORD_LENGTH[0], max_length=PASSWORD_LENGTH[1])
    bot: bool = False
    #: the seat tokens this browser holds: a guest signing up takes their name and games
    tokens: list[Annotated[str, Field(max_length=100)]] = Field(
        default_factory=list, max_length=MAX_SIGNUP_TOKENS
    )


class LoginIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(min_length=1, max_length=60)
    password: str = Field(min_length=1, max_length=PASSWORD_LENGTH[1])


class PasswordIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    old: str = Field(min_length=1, max_length=PASSWORD_LENGTH[1])
    new: str = Field(min_length=PASSWORD_LENGTH[0], max_length=PASSWORD_LENGTH[1])


class DeleteIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    password: str = Field(min_length=1, max_length=PASSWORD_LENGTH[1])


@dataclass
class AccountsConfig:
    #: login attempts a minute (and at once) per address and per account name
    login_per_minute: float = 5.0
    login_burst: int = 5
    #: the Secure flag of the cookie: None = when the request came over https (behind a
    #: proxy: its X-Forwarded-Proto, trusted with --forwarded-allow-ips), unless
    #: ``$FIVEHUNDRED_SECURE_COOKIES`` is ``1`` (always) or ``0`` (never)
    secure_cookie: bool | None = None

    def __post_init__(self) -> None:
        if self.secure_cookie is None:
            setting = os.environ.get("FIVEHUNDRED_SECURE_COOKIES", "").strip()
            if setting in ("0", "1"):
                self.secure_cookie = setting == "1"


class Accounts:
    """The accounts' service inside one server: its store, hasher, limits and the hooks
    the server calls where a seat is taken and where a game ends."""

    def __init__(self, async_store: store_module.AsyncStore, config: AccountsConfig) -> None:
        self.async_store = async_store
        self.store = AccountStore(async_store.store.engine)
        self.config = config
        self.hasher = PasswordHasher()
        # logins: per (address, account), so that a stranger guessing at a name from
        # their address does not keep its owner out; per account a cap that one address
        # cannot reach (many addresses guessing together); per address over all names
        self.by_address_name = Buckets(config.login_per_minute, config.login_burst)
        self.by_name = Buckets(
            LOGIN_ACCOUNT_FACTOR * config.login_per_minute,
            LOGIN_ACCOUNT_FACTOR * config.login_burst,
        )
        self.by_address = Buckets(
            LOGIN_ADDRESS_FACTOR * config.login_per_minute,
            LOGIN_ADDRESS_FACTOR * config.login_burst,
        )
        self.signups = Buckets(config.login_per_minute, config.login_burst)
        #: awaited with (account, [(code, seat, new token hash)], deleted) when sessions
        #: of the account end everywhere (the server closes their sockets)
        self.on_sessions_ended: Any = None

    async def sessions_ended(self, account: Account, deleted: bool = False) -> None:
        """Log out everywhere, a password change, a deletion: the seat tokens issued to
        the account's sessions are revoked and the server closes their sockets."""
        revoked = await self.call(self.store.revoke_seat_tokens, account.id)
        if self.on_sessions_ended is not None:
            await self.on_sessions_ended(account, revoked, deleted)

    async def call(self, function: Any, *args: Any) -> Any:
        return await self.async_store.call(function, *args)

    async def limited(self, buckets: Buckets, what: str, key: str) -> None:
        """429 when ``key``'s bucket of ``what`` is empty. On PostgreSQL the buckets are
        in the database: every server sharing it counts the same attempts."""
        store = self.async_store.store
        if store.is_postgres:
            wait = await self.call(
                store.take_token, f"{what}:{key}", buckets.per_minute, buckets.burst
            )
        else:
            wait = buckets.take(key)
        if wait > 0:
            seconds = str(int(wait) + 1)
            raise AccountError(
                429, f"too many login attempts: try again in {seconds} s", {"Retry-After": seconds}
            )

    async def login_allowed(self, request: Request, name: str) -> None:
        """The login limits of an attempt at ``name`` from ``request``'s address."""
        address, key = client_address(request), name_key(name)
        await self.limited(self.by_address_name, "login", f"{address}|{key}")
        await self.limited(self.by_address, "login-address", address)
        await self.limited(self.by_name, "login-account", key)

    async def current(self, request: Request | WebSocket) -> Account | None:
        session = request.cookies.get(COOKIE)
        if not session or len(session) > 100:
            return None
        account: Account | None = await self.call(self.store.session_account, session)
        return account

    def set_cookie(self, request: Request, response: Response, session: str) -> None:
        secure = self.config.secure_cookie
        if secure is None:
            secure = request.url.scheme == "https"
        response.set_cookie(
            COOKIE,
            session,
            max_age=SESSION_SECONDS,
            httponly=True,
            samesite="lax",
            secure=secure,
            path="/",
        )

    # ------------------------------------------------------------------ hooks
    async def seat_name(self, request: Request, name: str) -> tuple[str, Account | None]:
        """The name a seat is taken under: the account's when logged in; a guest's name
        may not be an account's (409)."""
        account = await self.current(request)
        if account is not None:
            return account.name, account
        if reserved_name(name):
            raise AccountError(
                422,
                f"the name {shown(name, 30)} is reserved (a computer level or a word the "
                "table uses): choose another",
            )
        if await self.call(self.store.by_name, name) is not None:
            raise AccountError(
                409,
                f"the name {shown(name, 30)} belongs to an account: log in "
                "to play under it, or choose another",
            )
        return name, None

    async def seat_taken(
        self,
        code: str,
        seat: int,
        account: Account | None,
        address: str | None = None,
        device: str | None = None,
    ) -> None:
        """An account's seat: held by it, with the address and device it was taken from."""
        if account is not None:
            await self.call(self.store.hold_seat, code, seat, account.id)
            if address is not None:
                await self.call(self.store.seat_address, code, seat, address, device)

    async def seat_of_session(self, websocket: WebSocket, code: str) -> int | None:
        account = await self.current(websocket)
        if account is None:
            return None
        seat: int | None = await self.call(self.store.seat_of, code, account.id)
        return seat

    async def rematch(
        self, old: str, new: str, seat: int, address: str, device: str | None
    ) -> None:
        """The person at ``seat`` of ``old`` joined its rematch ``new`` from ``address``
        and ``device``: an account's seat is its own again."""
        await self.call(self.store.copy_seat, old, new, seat, address, device)


def device_of(request: Request | WebSocket) -> str | None:
    """The browser's device id (its :data:`DEVICE_COOKIE`, or the one :class:`DeviceCookie`
    gives it with this answer), None if it has none (a WebSocket never given one)."""
    given = request.scope.get(DEVICE_SCOPE)
    if given:
        return str(given)
    value = request.cookies.get(DEVICE_COOKIE, "")
    return value if DEVICE_PATTERN.fullmatch(value) else None


class DeviceCookie:
    """ASGI middleware: an HTTP request without a valid :data:`DEVICE_COOKIE` gets one
    (random, HttpOnly, SameSite=Lax, Secure as the session's, for a year), which the
    request's handlers read by :func:`device_of`. Accounts whose seats were taken from one
    device are not rated against each other, as those of one address."""

    def __init__(self, app: Any, secure: bool | None = None) -> None:
        self.app = app
        self.secure = secure

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or scope.get("path", "") in UNCOUNTED_PATHS:
            await self.app(scope, receive, send)
            return
        for key, value in scope.get("headers", ()):
            if key == b"cookie":
                for part in value.decode("latin-1").split(";"):
                    name, _, found = part.strip().partition("=")
                    if name == DEVICE_COOKIE and DEVICE_PATTERN.fullmatch(found):
                        await self.app(scope, receive, send)
                        return
        device = secrets.token_urlsafe(18)
        scope[DEVICE_SCOPE] = device
        secure = self.secure if self.secure is not None else scope.get("scheme") == "https"
        cookie = (
            f"{DEVICE_COOKIE}={device}; Max-Age={DEVICE_SECONDS}; Path=/; HttpOnly; SameSite=lax"
            + ("; Secure" if secure else "")
        ).encode("latin-1")

        async def sending(message: Any) -> None:
            if message["type"] == "http.response.start":
                headers = [*message.get("headers", ()), (b"set-cookie", cookie)]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, sending)


def reserved_name(name: str) -> bool:
    """Names nobody sits or signs up under: the computer levels, the words the table
    uses for a seat (open, spectator, human), a deleted account's (``deleted-…``)."""
    from fivehundred.bots import player_choices

    folded = " ".join(name.split()).casefold()
    levels = {choice.casefold() for choice in player_choices()}
    return (
        folded in ("open", "human", "spectator", "computer")
        or folded in levels
        or folded.split(":", 1)[0] in levels
        or folded.startswith(("cmd:", "deleted-", "deleted "))
    )


def limited(buckets: Buckets, key: str) -> None:
    wait = buckets.take(key)
    if wait > 0:
        seconds = str(int(wait) + 1)
        raise AccountError(
            429, f"too many login attempts: try again in {seconds} s", {"Retry-After": seconds}
        )


def make_router(service: Accounts) -> APIRouter:
    router = APIRouter()
    store = service.store

    async def hashed(password: str) -> str:
        return await asyncio.to_thread(service.hasher.hash, password)

    async def verified(password_hash: str, password: str) -> bool:
        def check() -> bool:
            try:
                return service.hasher.verify(password_hash, password)
            except (VerificationError, InvalidHashError):
                return False

        return await asyncio.to_thread(check)

    async def logged_in(request: Request) -> Account:
        account = await service.current(request)
        if account is None:
            raise AccountError(401, "not logged in")
        return account

    def check_name(name: str) -> str:
        name = " ".join(name.split())
        if not NAME_LENGTH[0] <= len(name) <= NAME_LENGTH[1] or not name.isprintable():
            raise AccountError(
                422, f"name: {NAME_LENGTH[0]} to {NAME_LENGTH[1]} printable characters"
            )
        if reserved_name(name):
            raise AccountError(422, "name: that name is reserved")
        return name

    @router.post("/api/accounts", status_code=201)
    async def signup(body: SignupIn, request: Request, response: Response) -> dict[str, Any]:
        name = check_name(body.name)
        limited(service.signups, client_address(request))
        account = await service.call(
            store.create, name, await hashed(body.password), body.bot, tuple(body.tokens)
        )
        if account is None:
            taken = await service.call(store.by_name, name) is not None
            until = None if taken else await service.call(store.guest_hold, name)
            if until is None:
                raise AccountError(409, f"the name {shown(name, 30)} is taken")
            days = max(1, round((until - time.time()) / 86400))
            raise AccountError(
                409,
                f"a guest played under the name {shown(name, 30)} lately: it is held for them "
                f"until {time.strftime('%Y-%m-%d', time.gmtime(until))} ({days} days). "
                "If that was you, sign up from the browser you played in; else choose another",
            )
        session = await service.call(store.new_session, account.id, request.cookies.get(COOKIE))
        service.set_cookie(request, response, session)
        log.info("account created: %s%s", shown(name, 30), " (bot)" if body.bot else "")
        return {"name": account.name, "bot": account.bot}

    @router.post("/api/session")
    async def login(body: LoginIn, request: Request, response: Response) -> dict[str, Any]:
        await service.login_allowed(request, body.name)
        found = await service.call(store.by_name, body.name)
        if found is None:
            # the same work as a wrong password (no timing tells which names exist)
            await hashed(body.password)
            raise AccountError(401, "wrong name or password")
        account, password_hash = found
        if not await verified(password_hash, body.password):
            log.info("failed login for %s", shown(account.name, 30))
            raise AccountError(401, "wrong name or password")
        # a new session id every login (whatever cookie came in is ended)
        session = await service.call(store.new_session, account.id, request.cookies.get(COOKIE))
        service.set_cookie(request, response, session)
        return {"name": account.name, "bot": account.bot}

    @router.get("/api/session")
    async def whoami(request: Request) -> dict[str, Any]:
        account = await service.current(request)
        return {"name": account.name if account else None, "bot": account.bot if account else False}

    @router.delete("/api/session")
    async def logout(
        request: Request, response: Response, everywhere: bool = Query(default=False)
    ) -> dict[str, Any]:
        session = request.cookies.get(COOKIE)
        account = await service.current(request)
        if account is not None and everywhere:
            await service.call(store.end_sessions, account.id, None)
            await service.sessions_ended(account)
        elif session:
            await service.call(store.end_session, session[:100])
        response.delete_cookie(COOKIE, path="/")
        return {"name": None}

    @router.post("/api/accounts/me/password")
    async def change_password(
        body: PasswordIn, request: Request, response: Response
    ) -> dict[str, Any]:
        account = await logged_in(request)
        await service.login_allowed(request, account.name)
        found = await service.call(store.by_name, account.name)
        if found is None or not await verified(found[1], body.old):
            raise AccountError(401, "the old password is wrong")
        await service.call(store.set_password, account.id, await hashed(body.new))
        await service.call(store.end_sessions, account.id, None)
        await service.sessions_ended(account)
        session = await service.call(store.new_session, account.id, None)
        service.set_cookie(request, response, session)
        return {"name": account.name}

    @router.delete("/api/accounts/me")
    async def delete_account(
        body: DeleteIn, request: Request, response: Response
    ) -> dict[str, Any]:
        account = await logged_in(request)
        await service.login_allowed(request, account.name)
        found = await service.call(store.by_name, account.name)
        if found is None or not await verified(found[1], body.password):
            raise AccountError(401, "the password is wrong")
        await service.sessions_ended(account, deleted=True)
        replacement = await service.call(store.delete, account)
        response.delete_cookie(COOKIE, path="/")
        log.info("an account was deleted; its seats are now %s", replacement)
        return {"deleted": True, "games_renamed_to": replacement}

    @router.get("/api/accounts/{name}")
    async def profile(name: str) -> dict[str, Any]:
        if not 1 <= len(name) <= 60:
            raise AccountError(422, "name: 1 to 60 characters")
        found = await service.call(store.profile, name)
        if found is None:
            raise AccountError(404, f"no account {shown(name, 30)}")
        return dict(found)

    @router.get("/api/leaderboard/{preset}")
    async def leaderboard(
        preset: str,
        pairs: bool = Query(default=False),
        limit: int = Query(default=100, ge=1, le=500),
    ) -> dict[str, Any]:
        if preset not in PRESETS:
            raise AccountError(404, f"no preset {shown(preset, 30)}")
        board = await service.call(store.leaderboard, preset, pairs, limit)
        return {
            "preset": preset,
            "pairs": pairs,
            "players": board,
            "presets": list(PRESETS),
            "labels": PRESET_LABELS,
        }

    @router.get("/account", include_in_schema=False)
    @router.get("/account/{name}", include_in_schema=False)
    async def account_page(name: str = "") -> FileResponse:
        return FileResponse(STATIC_DIR / "account.html")

    @router.get("/leaderboard", include_in_schema=False)
    async def leaderboard_page() -> FileResponse:
        return FileResponse(STATIC_DIR / "leaderboard.html")

    @router.get("/api/tables/{code}/accounts")
    async def table_accounts(code: str) -> dict[str, Any]:
        if len(code) > 12:
            raise AccountError(404, "no such table")
        return dict(await service.call(store.table_rating, code))

    return router
