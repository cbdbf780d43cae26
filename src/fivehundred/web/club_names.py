"""A club's name and address, and which club a table is (the rest of the clubs is
web/clubs.py).

* The owner renames the club (``PATCH /api/clubs/{ref}`` with ``{"name": ...}``): a new
  name (unique without regard to case), and the address made from it. The old addresses
  (:data:`OLD_SLUGS` at most, the latest) still find the club: ``/c/{old}`` is redirected
  to the new address (a public club's: a private club's stays unknown to non-members), and
  the API answers under the old as under the new. No other club
  takes an address one has had.
* A table is a club's when the club made it, or when it is a rematch (of a rematch …) of
  one of the club's tables: the database says whose rematch each table is, so a rematch
  is the club's from the moment it is made, whichever server made it and whether or not
  that server has marked it yet (it is marked when first looked at).
"""

from __future__ import annotations

import contextlib
import time
from typing import TYPE_CHECKING, Any

import sqlalchemy as sa
from fastapi import APIRouter, HTTPException, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Connection

from fivehundred.web.schema import club_slugs, club_tables, clubs, tables

if TYPE_CHECKING:
    from fivehundred.web.clubs import ClubService

#: A club's old addresses kept (the latest).
OLD_SLUGS = 5
#: The rematches followed back from a table to the club's first (a chain's length).
MAX_CHAIN = 200


def find_club(db: Connection, ref: str) -> Any:
    """The club of ``ref``: its id, its address, or one of its old addresses."""
    if ref.isdigit():
        return db.execute(sa.select(clubs).where(clubs.c.id == int(ref))).first()
    club = db.execute(sa.select(clubs).where(clubs.c.slug == ref)).first()
    if club is None:
        club = db.execute(
            sa.select(clubs)
            .join(club_slugs, club_slugs.c.club_id == clubs.c.id)
            .where(club_slugs.c.slug == ref)
        ).first()
    return club


def free_slug(db: Connection, base: str, club_id: int | None = None) -> str:
    """``base``, or ``base-2`` …: an address no club has, nor has had (but ``club_id``)."""
    slug, number = base, 1
    while True:
        taken = db.execute(sa.select(clubs.c.id).where(clubs.c.slug == slug)).scalar()
        had = db.execute(sa.select(club_slugs.c.club_id).where(club_slugs.c.slug == slug)).scalar()
        if {taken, had} <= {None, club_id}:
            return slug
        number += 1
        slug = f"{base}-{number}"


def rename(db: Connection, club: Any, name: str) -> dict[str, Any]:
    """Rename ``club`` (its row, locked on PostgreSQL) to ``name`` (checked): 409 when
    another club has the name. Its old address is kept to find it."""
    from fivehundred.web.clubs import name_key, slug_of

    key = name_key(name)
    other = db.execute(sa.select(clubs.c.id).where(clubs.c.name_key == key)).scalar()
    if other is not None and other != club.id:
        raise HTTPException(409, "a club of that name exists")
    slug = free_slug(db, slug_of(name), club.id)
    if slug != club.slug:
        db.execute(club_slugs.delete().where(club_slugs.c.slug == slug))  # an old one again
        db.execute(club_slugs.insert().values(slug=club.slug, club_id=club.id, at=time.time()))
        kept = db.execute(
            sa.select(club_slugs.c.slug)
            .where(club_slugs.c.club_id == club.id)
            .order_by(club_slugs.c.at.desc(), club_slugs.c.slug)
            .offset(OLD_SLUGS)
        ).scalars()
        db.execute(club_slugs.delete().where(club_slugs.c.slug.in_(list(kept))))
    db.execute(
        clubs.update().where(clubs.c.id == club.id).values(name=name, name_key=key, slug=slug)
    )
    return {"slug": slug, "name": name, "url": f"/c/{slug}"}


def forget_slugs(db: Connection, club_id: int) -> None:
    db.execute(club_slugs.delete().where(club_slugs.c.club_id == club_id))


def current_slug(engine: sa.engine.Engine, ref: str) -> str | None:
    """The public club's address now when ``ref`` is one of its old ones (else None: a
    private club's new address is told to nobody; its page asks under the old one, which
    its members' answers still come to)."""
    with engine.connect() as db:
        slug: str | None = db.execute(
            sa.select(clubs.c.slug)
            .join(club_slugs, club_slugs.c.club_id == clubs.c.id)
            .where(club_slugs.c.slug == ref, clubs.c.public.is_(True))
        ).scalar()
        return slug


# ----------------------------------------------------------------------------- tables
def club_of_table(db: Connection, code: str) -> int | None:
    """The id of the club whose table ``code`` is: one the club made, or a rematch (of a
    rematch …) of one of them, marked the club's here if it was not yet."""
    found: int | None = db.execute(
        sa.select(club_tables.c.club_id).where(club_tables.c.code == code)
    ).scalar()
    if found is not None:
        return found
    before = db.execute(sa.select(tables.c.rematch_of).where(tables.c.code == code)).scalar()
    for _ in range(MAX_CHAIN):
        if before is None:
            return None
        row = db.execute(
            sa.select(tables.c.code, tables.c.rematch_of, club_tables.c.club_id)
            .join(club_tables, club_tables.c.code == tables.c.code, isouter=True)
            .where(tables.c.id == before)
        ).first()
        if row is None:
            return None
        if row.club_id is not None:
            mark(db, row.club_id, code)
            return int(row.club_id)
        before = row.rematch_of
    return None


def mark(db: Connection, club_id: int, code: str) -> None:
    """Table ``code`` is the club's (once: marked meanwhile by another server, it stays)."""
    with contextlib.suppress(sa.exc.IntegrityError), db.begin_nested():
        db.execute(club_tables.insert().values(code=code, club_id=club_id, created=time.time()))


# ----------------------------------------------------------------------------- the route
class RenameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=60)


def rename_routes(router: APIRouter, service: ClubService) -> None:
    """``PATCH /api/clubs/{ref}``: the owner renames the club."""
    from fivehundred.web.clubs import club_name

    store = service.store

    def renamed(ref: str, owner: int, name: str) -> dict[str, Any]:
        with store.engine.begin() as db:
            club, role = store.club_and_role(db, ref, owner)
            if role != "owner":
                raise HTTPException(403, "only the club's owner may rename it")
            db.execute(sa.select(clubs.c.id).where(clubs.c.id == club.id).with_for_update())
            return rename(db, club, name)

    @router.patch("/api/clubs/{ref}")
    async def rename_club(ref: str, body: RenameIn, request: Request) -> dict[str, Any]:
        owner = await service.writer(request)
        done: dict[str, Any] = await service.call(renamed, ref, owner, club_name(body.name))
        return done
