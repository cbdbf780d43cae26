"""Clubs (docs/web-protocol.md#clubs): a club's page, its members and their roles, its
announcements and its own tables.

* A logged-in account makes a club: a name (unique without regard to case), a short
  description, public (listed on ``/clubs``) or private (found only by its members and by
  an invite). Its maker is its **owner**; the owner makes **admins**; everyone else is a
  **member**.
* One joins by an invite code (an admin makes and revokes them; the link is
  ``/c/{slug}?invite=CODE``), or by asking to join a public club: an admin accepts or
  declines.
* Admins post announcements (the newest :data:`MAX_ANNOUNCEMENTS` are kept), accept
  requests, make invites and remove members; the owner alone changes roles, hands the club
  over and deletes it. The owner cannot leave without handing it over first.
* A member makes a table in the club: a private table whose seats only the club's members
  may take (:meth:`ClubService.may_sit`, called where a seat is taken).
* The members list shows each member's rating in the club's games (web/club_ratings.py).
* A deleted account leaves its clubs; one it owned passes to an admin, else a member.
* A private club is a 404 to everyone but its members (an invite's code names only the
  club's name and description). Every write is limited per address; every count is bounded.

Every query runs in the store's worker thread (:meth:`AsyncStore.call`)."""

from __future__ import annotations

import contextlib
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Annotated, Any

import sqlalchemy as sa
from fastapi import APIRouter, FastAPI, HTTPException, Query, Request
from fastapi.responses import FileResponse, RedirectResponse, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from sqlalchemy.engine import Connection

from fivehundred.web.club_names import (
    club_of_table,
    current_slug,
    find_club,
    forget_slugs,
    free_slug,
    rename_routes,
)
from fivehundred.web.club_ratings import club_ratings
from fivehundred.web.guard import Buckets, client_address
from fivehundred.web.schema import (
    accounts,
    club_announcements,
    club_invites,
    club_members,
    club_requests,
    club_tables,
    clubs,
    tables,
)

STATIC_DIR = Path(__file__).with_name("static")
NAME_LENGTH = (3, 40)
DESCRIPTION_LENGTH = 300
ANNOUNCEMENT_LENGTH = 1000
#: clubs one account may own, and belong to
CLUBS_OWNED = 5
CLUBS_JOINED = 50
MAX_MEMBERS = 500
#: pending requests to one club, and of one account
REQUESTS_PER_CLUB = 100
REQUESTS_PER_ACCOUNT = 10
INVITES_PER_CLUB = 10
MAX_ANNOUNCEMENTS = 50
#: the club's tables listed on its page
TABLES_LISTED = 30
INDEX_LIMIT = 200
ROLES = ("owner", "admin", "member")
CODE_PATTERN = re.compile(r"[A-Za-z0-9_-]{8,24}")
REF_PATTERN = re.compile(r"[a-z0-9-]{1,48}")
#: writes (every POST and DELETE here) per address: a minute's worth, and at once
WRITES_PER_MINUTE = 60.0
WRITES_BURST = 60
#: words of the routes under /api/clubs/ that no club's slug may be
RESERVED_SLUGS = frozenset({"join", "invites"})


def name_key(name: str) -> str:
    return " ".join(name.split()).casefold()


def slug_of(name: str) -> str:
    slug = re.sub(r"[^a-z0-9]+", "-", name_key(name)).strip("-")[:40].strip("-")
    plain = slug and not slug.isdigit() and slug not in RESERVED_SLUGS
    return slug if plain else f"club-{slug}".strip("-")


# ----------------------------------------------------------------------------- the database
class ClubStore:
    """The clubs' queries (synchronous; run in the store's thread). Each raises
    :class:`HTTPException` with the answer a refusal gets."""

    def __init__(self, engine: sa.engine.Engine) -> None:
        self.engine = engine

    # the club and the asker's place in it
    def _find(self, db: Connection, ref: str) -> Any:
        return find_club(db, ref)  # by its id, its address or an old one

    def _role(self, db: Connection, club_id: int, account_id: int | None) -> str | None:
        if account_id is None:
            return None
        query = sa.select(club_members.c.role).where(
            club_members.c.club_id == club_id, club_members.c.account_id == account_id
        )
        return db.execute(query).scalar()

    def _club(self, db: Connection, ref: str, account_id: int | None) -> tuple[Any, str | None]:
        """The club and the account's role; 404 when there is none, or it is private and
        the account is not a member."""
        club = self._find(db, ref.lower()) if REF_PATTERN.fullmatch(ref.lower()) else None
        role = self._role(db, club.id, account_id) if club is not None else None
        if club is None or (not club.public and role is None):
            raise HTTPException(404, "no such club")
        return club, role

    club_and_role = _club

    def _admin(self, db: Connection, ref: str, account_id: int) -> Any:
        club, role = self._club(db, ref, account_id)
        if role not in ("owner", "admin"):
            raise HTTPException(403, "only the club's admins may do that")
        return club

    def _count(self, db: Connection, table: sa.Table, *where: Any) -> int:
        return int(
            db.execute(sa.select(sa.func.count()).select_from(table).where(*where)).scalar_one()
        )

    def _asked(self, db: Connection, club_id: int, account_id: int | None) -> bool:
        mine = club_requests.c.club_id == club_id, club_requests.c.account_id == account_id
        return account_id is not None and self._count(db, club_requests, *mine) > 0

    def _add_member(self, db: Connection, club: Any, account_id: int, role: str) -> None:
        """(The club's row locked on PostgreSQL: two joining at once count one another.)"""
        db.execute(sa.select(clubs.c.id).where(clubs.c.id == club.id).with_for_update())
        if self._count(db, club_members, club_members.c.club_id == club.id) >= MAX_MEMBERS:
            raise HTTPException(409, f"the club has {MAX_MEMBERS} members, as many as it may have")
        if self._count(db, club_members, club_members.c.account_id == account_id) >= CLUBS_JOINED:
            raise HTTPException(409, f"you belong to {CLUBS_JOINED} clubs, as many as one may")
        joined = {"club_id": club.id, "account_id": account_id, "role": role}
        try:
            with db.begin_nested():
                db.execute(club_members.insert().values(**joined, joined=time.time()))
        except sa.exc.IntegrityError:
            raise HTTPException(409, "a member already") from None
        db.execute(
            club_requests.delete().where(
                club_requests.c.club_id == club.id, club_requests.c.account_id == account_id
            )
        )

    # making, finding, listing
    def create(self, account_id: int, name: str, description: str, public: bool) -> dict[str, Any]:
        with self.engine.begin() as db:
            owned = self._count(db, clubs, clubs.c.owner_id == account_id)
            if owned >= CLUBS_OWNED:
                raise HTTPException(409, f"you own {CLUBS_OWNED} clubs, as many as one may")
            key = name_key(name)
            if db.execute(sa.select(clubs.c.id).where(clubs.c.name_key == key)).first():
                raise HTTPException(409, "a club of that name exists")
            slug = free_slug(db, slug_of(name))
            values = {
                "slug": slug,
                "name": name,
                "name_key": key,
                "description": description,
                "public": public,
                "owner_id": account_id,
                "created": time.time(),
            }
            try:
                with db.begin_nested():
                    made = db.execute(clubs.insert().values(**values)).inserted_primary_key
                    club_id = int(made[0]) if made is not None else 0
            except sa.exc.IntegrityError:
                raise HTTPException(409, "a club of that name exists") from None
            club = self._find(db, str(club_id))
            self._add_member(db, club, account_id, "owner")
        return {"id": club_id, "slug": slug, "url": f"/c/{slug}"}

    def index(self, account_id: int | None, limit: int) -> dict[str, Any]:
        """The public clubs (the largest first) and the account's own."""
        size = (
            sa.select(sa.func.count())
            .select_from(club_members)
            .where(club_members.c.club_id == clubs.c.id)
            .correlate(clubs)
            .scalar_subquery()
            .label("members")
        )
        columns = (clubs.c.slug, clubs.c.name, clubs.c.description, clubs.c.public, size)
        with self.engine.connect() as db:
            public = db.execute(
                sa.select(*columns)
                .where(clubs.c.public.is_(True))
                .order_by(size.desc(), clubs.c.id)
                .limit(limit)
            ).all()
            mine: list[Any] = []
            if account_id is not None:
                mine = list(
                    db.execute(
                        sa.select(*columns, club_members.c.role)
                        .join(club_members, club_members.c.club_id == clubs.c.id)
                        .where(club_members.c.account_id == account_id)
                        .order_by(clubs.c.name_key)
                    ).all()
                )
        return {
            "clubs": [dict(row._mapping) for row in public],
            "mine": [dict(row._mapping) for row in mine],
        }

    def invite_facts(self, code: str) -> dict[str, Any]:
        """What an invite's code names: the club's name and description."""
        with self.engine.connect() as db:
            row = db.execute(
                sa.select(clubs.c.slug, clubs.c.name, clubs.c.description)
                .join(club_invites, club_invites.c.club_id == clubs.c.id)
                .where(club_invites.c.code == code)
            ).first()
        if row is None:
            raise HTTPException(404, "no such invite (it may have been revoked)")
        return dict(row._mapping)

    # the club's page
    def view(self, ref: str, account_id: int | None) -> dict[str, Any]:
        """The club as the account sees it: its facts, announcements, members with their
        ratings and tables; its invites and requests to its admins."""
        with self.engine.begin() as db:
            club, role = self._club(db, ref, account_id)
            view: dict[str, Any] = {
                "id": club.id,
                "slug": club.slug,
                "name": club.name,
                "description": club.description,
                "public": club.public,
                "role": role,
                "requested": role is None and self._asked(db, club.id, account_id),
                "announcements": self._announcements(db, club.id),
                "members": self._members(db, club.id),
                "tables": self._tables(db, club.id),
            }
            if role in ("owner", "admin"):
                view["invites"] = [
                    {"code": row.code, "url": f"/c/{club.slug}?invite={row.code}"}
                    for row in db.execute(
                        sa.select(club_invites.c.code)
                        .where(club_invites.c.club_id == club.id)
                        .order_by(club_invites.c.created)
                    )
                ]
                view["requests"] = [
                    {"account": row.id, "name": row.name}
                    for row in db.execute(
                        sa.select(accounts.c.id, accounts.c.name)
                        .join(club_requests, club_requests.c.account_id == accounts.c.id)
                        .where(club_requests.c.club_id == club.id)
                        .order_by(club_requests.c.at)
                    )
                ]
        return view

    def _announcements(self, db: Connection, club_id: int) -> list[dict[str, Any]]:
        query = (
            sa.select(club_announcements.c.text, club_announcements.c.at, accounts.c.name)
            .join(accounts, accounts.c.id == club_announcements.c.account_id, isouter=True)
            .where(club_announcements.c.club_id == club_id)
            .order_by(club_announcements.c.id.desc())
            .limit(MAX_ANNOUNCEMENTS)
        )
        return [{"text": r.text, "at": r.at, "by": r.name} for r in db.execute(query)]

    def _members(self, db: Connection, club_id: int) -> list[dict[str, Any]]:
        ratings = club_ratings(db, club_id)
        query = (
            sa.select(accounts.c.id, accounts.c.name, club_members.c.role, club_members.c.joined)
            .join(club_members, club_members.c.account_id == accounts.c.id)
            .where(club_members.c.club_id == club_id)
        )
        members = []
        for row in db.execute(query):
            rating = ratings.get(row.id, {"rating": None, "games": 0, "wins": 0})
            members.append(
                {
                    "account": row.id,
                    "name": row.name,
                    "role": row.role,
                    "rating": rating["rating"],
                    "games": rating["games"],
                    "wins": rating["wins"],
                }
            )
        low = float("-inf")
        members.sort(key=lambda m: (-(m["rating"] if m["rating"] is not None else low), m["name"]))
        return members

    def _tables(self, db: Connection, club_id: int) -> list[dict[str, Any]]:
        query = (
            sa.select(tables.c.code, tables.c.name, tables.c.finished, club_tables.c.created)
            .join(club_tables, club_tables.c.code == tables.c.code)
            .where(club_tables.c.club_id == club_id)
            .order_by(club_tables.c.created.desc())
            .limit(TABLES_LISTED)
        )
        return [
            {"table": r.code, "name": r.name, "url": f"/t/{r.code}", "finished": r.finished}
            for r in db.execute(query)
        ]

    # joining
    def join(self, code: str, account_id: int) -> dict[str, Any]:
        with self.engine.begin() as db:
            club_id = db.execute(
                sa.select(club_invites.c.club_id).where(club_invites.c.code == code)
            ).scalar()
            if club_id is None:
                raise HTTPException(404, "no such invite (it may have been revoked)")
            club = self._find(db, str(club_id))
            if self._role(db, club.id, account_id) is None:
                self._add_member(db, club, account_id, "member")
        return {"slug": club.slug, "url": f"/c/{club.slug}", "role": "member"}

    def request(self, ref: str, account_id: int) -> dict[str, Any]:
        with self.engine.begin() as db:
            club, role = self._club(db, ref, account_id)
            if role is not None:
                raise HTTPException(409, "you are a member already")
            if self._asked(db, club.id, account_id):
                return {"requested": True}
            mine = club_requests.c.account_id == account_id
            if self._count(db, club_requests, mine) >= REQUESTS_PER_ACCOUNT:
                raise HTTPException(409, f"you have {REQUESTS_PER_ACCOUNT} requests waiting")
            waiting = self._count(db, club_requests, club_requests.c.club_id == club.id)
            if waiting >= REQUESTS_PER_CLUB:
                raise HTTPException(409, "the club has as many requests waiting as it may have")
            db.execute(
                club_requests.insert().values(
                    club_id=club.id, account_id=account_id, at=time.time()
                )
            )
        return {"requested": True}

    def answer_request(self, ref: str, admin: int, account_id: int, accept: bool) -> None:
        with self.engine.begin() as db:
            club = self._admin(db, ref, admin)
            asked = club_requests.c.club_id == club.id, club_requests.c.account_id == account_id
            if not self._count(db, club_requests, *asked):
                raise HTTPException(404, "no such request")
            if accept:
                self._add_member(db, club, account_id, "member")
            else:
                db.execute(club_requests.delete().where(*asked))

    def make_invite(self, ref: str, admin: int) -> dict[str, Any]:
        with self.engine.begin() as db:
            club = self._admin(db, ref, admin)
            if self._count(db, club_invites, club_invites.c.club_id == club.id) >= INVITES_PER_CLUB:
                raise HTTPException(409, f"the club has {INVITES_PER_CLUB} invites: revoke one")
            code = secrets.token_urlsafe(12)
            db.execute(
                club_invites.insert().values(code=code, club_id=club.id, created=time.time())
            )
        return {"code": code, "url": f"/c/{club.slug}?invite={code}"}

    def revoke_invite(self, ref: str, admin: int, code: str) -> None:
        with self.engine.begin() as db:
            club = self._admin(db, ref, admin)
            gone = db.execute(
                club_invites.delete().where(
                    club_invites.c.club_id == club.id, club_invites.c.code == code
                )
            )
            if not gone.rowcount:
                raise HTTPException(404, "no such invite")

    # announcements and members
    def announce(self, ref: str, admin: int, text: str) -> None:
        with self.engine.begin() as db:
            club = self._admin(db, ref, admin)
            db.execute(
                club_announcements.insert().values(
                    club_id=club.id, account_id=admin, text=text, at=time.time()
                )
            )
            kept = (
                sa.select(club_announcements.c.id)
                .where(club_announcements.c.club_id == club.id)
                .order_by(club_announcements.c.id.desc())
                .limit(MAX_ANNOUNCEMENTS)
            )
            oldest = min(db.execute(kept).scalars().all())
            db.execute(
                club_announcements.delete().where(
                    club_announcements.c.club_id == club.id, club_announcements.c.id < oldest
                )
            )

    def leave(self, ref: str, account_id: int) -> None:
        with self.engine.begin() as db:
            club, role = self._club(db, ref, account_id)
            if role is None:
                raise HTTPException(409, "you are not a member")
            if role == "owner":
                raise HTTPException(409, "the owner cannot leave: hand the club over first")
            self._drop(db, club.id, account_id)

    def _drop(self, db: Connection, club_id: int, account_id: int) -> None:
        db.execute(
            club_members.delete().where(
                club_members.c.club_id == club_id, club_members.c.account_id == account_id
            )
        )

    def remove(self, ref: str, admin: int, account_id: int) -> None:
        """An admin removes a member; only the owner removes an admin; nobody the owner."""
        with self.engine.begin() as db:
            club = self._admin(db, ref, admin)
            mine = self._role(db, club.id, admin)
            theirs = self._role(db, club.id, account_id)
            if theirs is None:
                raise HTTPException(404, "no such member")
            if theirs == "owner" or (theirs == "admin" and mine != "owner"):
                raise HTTPException(403, f"an {mine} cannot remove the club's {theirs}")
            self._drop(db, club.id, account_id)

    def set_role(self, ref: str, owner: int, account_id: int, role: str) -> None:
        """The owner makes a member an admin or a member again, or hands the club over
        (``owner``: the old owner stays as an admin)."""
        with self.engine.begin() as db:
            club, mine = self._club(db, ref, owner)
            if mine != "owner":
                raise HTTPException(403, "only the club's owner may change roles")
            theirs = self._role(db, club.id, account_id)
            if theirs is None:
                raise HTTPException(404, "no such member")
            if account_id == owner:
                raise HTTPException(409, "hand the club over to another member")
            if role == "owner":
                if self._count(db, clubs, clubs.c.owner_id == account_id) >= CLUBS_OWNED:
                    raise HTTPException(409, f"that member owns {CLUBS_OWNED} clubs already")
                db.execute(clubs.update().where(clubs.c.id == club.id).values(owner_id=account_id))
                self._set(db, club.id, owner, "admin")
            self._set(db, club.id, account_id, role)

    def _set(self, db: Connection, club_id: int, account_id: int, role: str) -> None:
        db.execute(
            club_members.update()
            .where(club_members.c.club_id == club_id, club_members.c.account_id == account_id)
            .values(role=role)
        )

    def delete(self, ref: str, owner: int) -> None:
        """The owner deletes the club and everything of it (its tables stay, as private
        tables anyone with the link may sit at)."""
        with self.engine.begin() as db:
            club, mine = self._club(db, ref, owner)
            if mine != "owner":
                raise HTTPException(403, "only the club's owner may delete it")
            self._delete(db, club.id)

    def _delete(self, db: Connection, club_id: int) -> None:
        for table in (club_members, club_invites, club_requests, club_announcements):
            db.execute(table.delete().where(table.c.club_id == club_id))
        db.execute(club_tables.delete().where(club_tables.c.club_id == club_id))
        forget_slugs(db, club_id)
        db.execute(clubs.delete().where(clubs.c.id == club_id))

    def forget_account(self, account_id: int) -> None:
        """A deleted account leaves every club: its memberships and requests go; a club it
        owned passes to its longest-standing admin, else its longest-standing member, and
        one left with nobody is deleted."""
        with self.engine.begin() as db:
            db.execute(club_requests.delete().where(club_requests.c.account_id == account_id))
            owned = db.execute(sa.select(clubs.c.id).where(clubs.c.owner_id == account_id))
            owned_ids = owned.scalars().all()
            db.execute(club_members.delete().where(club_members.c.account_id == account_id))
            admins_first = sa.case((club_members.c.role == "admin", 0), else_=1)
            for club_id in owned_ids:
                heir = db.execute(
                    sa.select(club_members.c.account_id)
                    .where(club_members.c.club_id == club_id)
                    .order_by(admins_first, club_members.c.joined)
                    .limit(1)
                ).scalar()
                if heir is None:
                    self._delete(db, club_id)
                    continue
                db.execute(clubs.update().where(clubs.c.id == club_id).values(owner_id=heir))
                self._set(db, club_id, heir, "owner")

    # the club's tables
    def member_of(self, ref: str, account_id: int) -> Any:
        with self.engine.connect() as db:
            club, role = self._club(db, ref, account_id)
        if role is None:
            raise HTTPException(403, "only the club's members may make its tables")
        return club

    def add_table(self, club_id: int, code: str, within: Connection | None = None) -> None:
        with contextlib.nullcontext(within) if within is not None else self.engine.begin() as db:
            db.execute(club_tables.insert().values(code=code, club_id=club_id, created=time.time()))

    def rematched(self, old: str, new: str) -> None:
        """The rematch of a club's table is the club's too (marked at once; a rematch not
        yet marked is the club's all the same: :func:`club_of_table`)."""
        with self.engine.begin() as db:
            club_of_table(db, new)

    def table_club(self, code: str, account_id: int | None) -> tuple[str, bool] | None:
        """The club whose table ``code`` is (its name, and whether the account is a
        member), or None for a table of no club (a rematch of a club's table is the
        club's: :func:`club_of_table`)."""
        with self.engine.begin() as db:
            club_id = club_of_table(db, code)
            if club_id is None:
                return None
            name = db.execute(sa.select(clubs.c.name).where(clubs.c.id == club_id)).scalar()
            return str(name), self._role(db, club_id, account_id) is not None


# ----------------------------------------------------------------------------- the service
class ClubIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=NAME_LENGTH[1] + 20)
    description: str = Field(default="", max_length=DESCRIPTION_LENGTH)
    public: bool = True


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    code: str = Field(max_length=24)


class AnswerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    accept: bool


class AnnouncementIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=1, max_length=ANNOUNCEMENT_LENGTH)


class RoleIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    role: str = Field(pattern="^(owner|admin|member)$")


class ClubService:
    """The clubs inside one server: their store, the accounts' sessions and the writes'
    limit per address (``writes``; on PostgreSQL counted in the database, shared by every
    server)."""

    def __init__(self, app: FastAPI) -> None:
        self.async_store = app.state.store
        self.accounts = app.state.accounts
        self.store = ClubStore(self.async_store.store.engine)
        self.writes = Buckets(WRITES_PER_MINUTE, WRITES_BURST)

    async def call(self, function: Callable[..., Any], *args: Any) -> Any:
        return await self.async_store.call(function, *args)

    async def account_id(self, request: Request) -> int | None:
        account = await self.accounts.current(request)
        return None if account is None else int(account.id)

    async def writer(self, request: Request) -> int:
        """The logged-in account making a change (401 without one), within the limit of
        its address's writes (429)."""
        account_id = await self.account_id(request)
        if account_id is None:
            raise HTTPException(401, "log in first (an account is needed for clubs)")
        store, address = self.async_store.store, client_address(request)
        if store.is_postgres:
            wait = await self.call(
                store.take_token, f"club:{address}", self.writes.per_minute, self.writes.burst
            )
        else:
            wait = self.writes.take(address)
        if wait > 0:
            seconds = str(int(wait) + 1)
            raise HTTPException(
                429, f"too many changes: try again in {seconds} s", {"Retry-After": seconds}
            )
        return account_id

    def after_rematch(self, then: Callable[..., Awaitable[None]]) -> Callable[..., Awaitable[None]]:
        """The server's hook of a seat joining a rematch (``old``, ``new``, ...), the
        rematch of a club's table made the club's first."""

        async def rematched(old: str, new: str, *rest: Any) -> None:
            await self.call(self.store.rematched, old, new)
            await then(old, new, *rest)

        return rematched

    def after_sessions_ended(
        self, then: Callable[..., Awaitable[None]]
    ) -> Callable[..., Awaitable[None]]:
        """The server's hook of an account's sessions ended, then a deleted account's
        clubs left (:meth:`ClubStore.forget_account`)."""

        async def ended(account: Any, revoked: list[Any], deleted: bool) -> None:
            await then(account, revoked, deleted)
            if deleted:
                await self.call(self.store.forget_account, account.id)

        return ended

    async def may_sit(self, code: str, request: Request) -> None:
        """403 when ``code`` is a club's table and the request's account is not one of
        its members (a guest, another account)."""
        found = await self.call(self.store.table_club, code, await self.account_id(request))
        if found is not None and not found[1]:
            raise HTTPException(403, f"the club {found[0]}'s table: only its members sit here")


def club_name(name: str) -> str:
    name = " ".join(name.split())
    if not NAME_LENGTH[0] <= len(name) <= NAME_LENGTH[1] or not name.isprintable():
        raise HTTPException(422, f"name: {NAME_LENGTH[0]} to {NAME_LENGTH[1]} printable characters")
    return name


def _text(text: str, what: str) -> str:
    text = text.strip()
    if not all(c.isprintable() or c == "\n" for c in text):
        raise HTTPException(422, f"{what}: printable text")
    return text


CreateTable = Callable[[Any, Request], Awaitable[dict[str, Any]]]


def make_router(service: ClubService, create_table: CreateTable) -> APIRouter:
    router = APIRouter()
    store = service.store

    @router.get("/clubs", include_in_schema=False)
    @router.get("/c/{ref}", include_in_schema=False)
    async def clubs_page(ref: str = "") -> Response:
        moved = await service.call(current_slug, store.engine, ref) if ref else None
        if moved:  # a club renamed: its old address goes to its new one
            return RedirectResponse(f"/c/{moved}", 308)
        return FileResponse(STATIC_DIR / "clubs.html", headers={"Cache-Control": "no-cache"})

    @router.get("/api/clubs")
    async def index(
        request: Request, limit: Annotated[int, Query(ge=1, le=INDEX_LIMIT)] = 50
    ) -> dict[str, Any]:
        answer: dict[str, Any] = await service.call(
            store.index, await service.account_id(request), limit
        )
        return answer

    @router.post("/api/clubs", status_code=201)
    async def create(body: ClubIn, request: Request) -> dict[str, Any]:
        account_id = await service.writer(request)
        name = club_name(body.name)
        description = _text(body.description, "description")
        made: dict[str, Any] = await service.call(
            store.create, account_id, name, description, body.public
        )
        return made

    @router.get("/api/clubs/invites/{code}")
    async def invite(code: str) -> dict[str, Any]:
        if not CODE_PATTERN.fullmatch(code):
            raise HTTPException(404, "no such invite")
        facts: dict[str, Any] = await service.call(store.invite_facts, code)
        return facts

    @router.post("/api/clubs/join")
    async def join(body: JoinIn, request: Request) -> dict[str, Any]:
        account_id = await service.writer(request)
        if not CODE_PATTERN.fullmatch(body.code):
            raise HTTPException(404, "no such invite (it may have been revoked)")
        joined: dict[str, Any] = await service.call(store.join, body.code, account_id)
        return joined

    @router.post("/api/clubs/{ref}/tables", status_code=201)
    async def club_table(ref: str, body: dict[str, Any], request: Request) -> dict[str, Any]:
        """A table in the club: the body of ``POST /api/tables``; always private."""
        from fivehundred.web.server import CreateIn

        member = await service.writer(request)
        club = await service.call(store.member_of, ref, member)
        try:
            wanted = CreateIn.model_validate({"name": club.name, **body, "private": True})
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"])
            raise HTTPException(422, f"{where}: {first['msg']}"[:200]) from None
        made = await create_table(wanted, request)
        await service.call(store.add_table, club.id, made["table"])
        return {**made, "club": club.slug}

    _club_routes(router, service)
    rename_routes(router, service)
    return router


def _club_routes(router: APIRouter, service: ClubService) -> None:
    """The routes of one club (``/api/clubs/{ref}/...``)."""
    store = service.store

    @router.get("/api/clubs/{ref}")
    async def club(ref: str, request: Request) -> dict[str, Any]:
        view: dict[str, Any] = await service.call(
            store.view, ref, await service.account_id(request)
        )
        return view

    @router.delete("/api/clubs/{ref}")
    async def delete(ref: str, request: Request) -> dict[str, Any]:
        await service.call(store.delete, ref, await service.writer(request))
        return {"deleted": True}

    @router.post("/api/clubs/{ref}/requests")
    async def ask(ref: str, request: Request) -> dict[str, Any]:
        asked: dict[str, Any] = await service.call(
            store.request, ref, await service.writer(request)
        )
        return asked

    @router.post("/api/clubs/{ref}/requests/{account}")
    async def answer(ref: str, account: int, body: AnswerIn, request: Request) -> dict[str, Any]:
        admin = await service.writer(request)
        await service.call(store.answer_request, ref, admin, account, body.accept)
        return {"accepted": body.accept}

    @router.post("/api/clubs/{ref}/invites", status_code=201)
    async def make_invite(ref: str, request: Request) -> dict[str, Any]:
        made: dict[str, Any] = await service.call(
            store.make_invite, ref, await service.writer(request)
        )
        return made

    @router.delete("/api/clubs/{ref}/invites/{code}")
    async def revoke_invite(ref: str, code: str, request: Request) -> dict[str, Any]:
        admin = await service.writer(request)
        if not CODE_PATTERN.fullmatch(code):
            raise HTTPException(404, "no such invite")
        await service.call(store.revoke_invite, ref, admin, code)
        return {"revoked": True}

    @router.post("/api/clubs/{ref}/announcements", status_code=201)
    async def announce(ref: str, body: AnnouncementIn, request: Request) -> dict[str, Any]:
        admin = await service.writer(request)
        text = _text(body.text, "text")
        if not text:
            raise HTTPException(422, "text: say something")
        await service.call(store.announce, ref, admin, text)
        return {"posted": True}

    @router.post("/api/clubs/{ref}/leave")
    async def leave(ref: str, request: Request) -> dict[str, Any]:
        await service.call(store.leave, ref, await service.writer(request))
        return {"left": True}

    @router.delete("/api/clubs/{ref}/members/{account}")
    async def remove(ref: str, account: int, request: Request) -> dict[str, Any]:
        await service.call(store.remove, ref, await service.writer(request), account)
        return {"removed": True}

    @router.post("/api/clubs/{ref}/members/{account}/role")
    async def role(ref: str, account: int, body: RoleIn, request: Request) -> dict[str, Any]:
        await service.call(store.set_role, ref, await service.writer(request), account, body.role)
        return {"role": body.role}


def install(app: FastAPI, create_table: CreateTable) -> None:
    """The clubs' routes and service on ``app`` (``app.state.clubs``; after the store and
    the accounts). ``create_table``: the server's table maker (``POST /api/tables``)."""
    service = ClubService(app)
    app.state.clubs = service
    app.include_router(make_router(service, create_table))
