"""Hall nights' queries (synchronous: run in the store's thread). Each refusal raises
:class:`HTTPException` with its answer.

A table's pad sends its whole state with a version it counts up itself; a table keeps the
state of the highest version that came (:meth:`HallStore.send`: one ``UPDATE … WHERE
version < new``), so states that come late, twice or out of order change nothing, and
the table's last state is the one scored: nothing is counted twice.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from typing import Any

import sqlalchemy as sa
from fastapi import HTTPException
from sqlalchemy.engine import Connection, Engine

from fivehundred.web.accounts import name_key
from fivehundred.web.events import hall_rounds as rounds
from fivehundred.web.events import hall_words as w
from fivehundred.web.schema import accounts, club_members, clubs, hall_nights, hall_tables

#: a night's join code: letters and digits nobody mistakes for another (no 0/O, 1/I/L)
ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"
CODE_LENGTH = 6
#: real tables one night may have
MAX_TABLES = 60
#: hall nights not yet over one club may have
NIGHTS_OPEN = 10
#: the token hash of a table the organiser freed (its pad lost): the next pad to join as
#: that table takes it over, with its state
FREE = ""


def new_code() -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))


def clean_code(code: str) -> str:
    """A code as typed (any case, spaces) in its stored form."""
    return "".join(code.split()).upper()


def _hashed(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _progress(night: Any) -> dict[str, Any] | None:
    text = night._mapping.get("progress")
    return None if text is None else dict(json.loads(text))


class HallStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.clock = time.time  # the time a round starts and ends by (a test sets it)

    # -------------------------------------------------------------- reading
    def night_row(self, db: Connection, code: str, lock: bool = False) -> Any:
        query = sa.select(hall_nights).where(hall_nights.c.code == clean_code(code))
        row = db.execute(query.with_for_update() if lock else query).first()
        if row is None:
            raise HTTPException(404, w.NO_SUCH_NIGHT)
        return row

    def role(self, db: Connection, club_id: int, account_id: int | None) -> str | None:
        if account_id is None:
            return None
        role = db.execute(
            sa.select(club_members.c.role).where(
                club_members.c.club_id == club_id, club_members.c.account_id == account_id
            )
        ).scalar()
        return None if role is None else str(role)

    def night(self, code: str, account_id: int | None) -> dict[str, Any]:
        """The night, its tables' states (version and pads) and whether the account runs it."""
        with self.engine.connect() as db:
            night = self.night_row(db, code)
            club = db.execute(sa.select(clubs.c.slug).where(clubs.c.id == night.club_id)).scalar()
            rows = db.execute(
                sa.select(
                    hall_tables.c.number,
                    hall_tables.c.version,
                    hall_tables.c.state,
                    hall_tables.c.token_hash,
                )
                .where(hall_tables.c.night_id == night.id)
                .order_by(hall_tables.c.number)
            ).all()
            admin = self.role(db, night.club_id, account_id) in ("owner", "admin")
        tables = [
            {
                "number": r.number,
                "version": r.version,
                "pads": json.loads(r.state)["pads"],
                "free": r.token_hash == FREE,
            }
            for r in rows
        ]
        facts = {k: night._mapping[k] for k in ("code", "name", "preset", "state")}
        progress = rounds.round_view(_progress(night))
        if progress is not None and progress["ends"] is not None:  # for the page's clock
            progress["left"] = max(0, int(progress["ends"] - self.clock()))
        return {**facts, "club": club, "admin": admin, "tables": tables, "progress": progress}

    def round(self, code: str) -> dict[str, Any] | None:
        """The night's round (None: not progressive), what a pad asks for now and then."""
        with self.engine.connect() as db:
            return rounds.round_view(_progress(self.night_row(db, code)))

    def of_club(self, slug: str, account_id: int | None) -> list[dict[str, Any]] | None:
        """The club's newest hall nights for one of its members (None for anyone else:
        a night's code is the key to its standings)."""
        with self.engine.connect() as db:
            club_id = db.execute(sa.select(clubs.c.id).where(clubs.c.slug == slug.lower())).scalar()
            if club_id is None or self.role(db, club_id, account_id) is None:
                return None
            rows = db.execute(
                sa.select(hall_nights.c.code, hall_nights.c.name, hall_nights.c.state)
                .where(hall_nights.c.club_id == club_id)
                .order_by(hall_nights.c.created.desc())
                .limit(20)
            ).all()
        return [{"code": r.code, "name": r.name, "state": r.state} for r in rows]

    # -------------------------------------------------------------- writing
    def create(
        self,
        organiser_id: int,
        slug: str,
        name: str,
        preset: str,
        progressive: tuple[int | None, int | None] | None = None,
    ) -> str:
        """A new hall night of the club ``slug`` (its owner or an admin); its code.
        ``progressive``: (hands, minutes) a round, one of them given."""
        progress = None if progressive is None else rounds.new_progress(*progressive, self.clock())
        with self.engine.begin() as db:
            club_id = db.execute(sa.select(clubs.c.id).where(clubs.c.slug == slug.lower())).scalar()
            if club_id is None:
                raise HTTPException(404, w.NO_SUCH_CLUB)
            if self.role(db, club_id, organiser_id) not in ("owner", "admin"):
                raise HTTPException(403, w.NOT_CLUB_ADMIN)
            open_ = db.execute(
                sa.select(sa.func.count())
                .select_from(hall_nights)
                .where(hall_nights.c.club_id == club_id, hall_nights.c.state == "open")
            ).scalar_one()
            if open_ >= NIGHTS_OPEN:
                raise HTTPException(409, w.TOO_MANY.format(count=NIGHTS_OPEN))
            while True:
                code = new_code()
                taken = db.execute(sa.select(hall_nights.c.id).where(hall_nights.c.code == code))
                if taken.first() is None:
                    break
            db.execute(
                hall_nights.insert().values(
                    code=code,
                    club_id=club_id,
                    organiser_id=organiser_id,
                    name=name,
                    preset=preset,
                    state="open",
                    created=time.time(),
                    progress=None if progress is None else json.dumps(progress),
                )
            )
            return code

    def join(
        self, code: str, number: int, version: int, state: str
    ) -> tuple[str, dict[str, Any] | None, list[str]]:
        """Table ``number`` joins the night with its first state: its write token, None
        (or, where the organiser freed the table, the table's state kept, which this pad
        takes over: its own is set aside) and the names not the club's members."""
        token = secrets.token_urlsafe(24)
        with self.engine.begin() as db:
            night = self.night_row(db, code, lock=True)  # one join at a time
            if night.state != "open":
                raise HTTPException(409, w.FINISHED)
            rows = db.execute(
                sa.select(hall_tables.c.number, hall_tables.c.token_hash, hall_tables.c.version)
                .add_columns(hall_tables.c.state)
                .where(hall_tables.c.night_id == night.id)
            ).all()
            numbers = {r.number: r for r in rows}
            if number in numbers and numbers[number].token_hash == FREE:
                row = numbers[number]
                db.execute(
                    hall_tables.update()
                    .where(hall_tables.c.night_id == night.id, hall_tables.c.number == number)
                    .values(token_hash=_hashed(token), updated=time.time())
                )
                kept = {"version": row.version, **json.loads(row.state)}
                return token, kept, self.unknown(db, night, row.state)
            if number in numbers:
                raise HTTPException(409, w.TABLE_TAKEN.format(number=number))
            state = self._rounds(night, state)
            if len(numbers) >= MAX_TABLES:
                raise HTTPException(409, w.FULL.format(count=MAX_TABLES))
            try:
                with db.begin_nested():
                    db.execute(
                        hall_tables.insert().values(
                            night_id=night.id,
                            number=number,
                            token_hash=_hashed(token),
                            version=version,
                            state=state,
                            updated=time.time(),
                        )
                    )
            except sa.exc.IntegrityError:  # another pad took the number at the same moment
                raise HTTPException(409, w.TABLE_TAKEN.format(number=number)) from None
            return token, None, self.unknown(db, night, state)

    def unknown(self, db: Connection, night: Any, state: str) -> list[str]:
        """The names at the table's game in play that are no member's of the night's club
        (a guest, or a name mistyped): the pad says so."""
        names = [str(n) for n in json.loads(state)["pads"][-1]["players"]]
        keys = {name_key(n) for n in names}
        found = set(
            db.execute(
                sa.select(accounts.c.name_key)
                .join(club_members, club_members.c.account_id == accounts.c.id)
                .where(club_members.c.club_id == night.club_id, accounts.c.name_key.in_(keys))
            ).scalars()
        )
        return [n for n in names if name_key(n) not in found]

    def free(self, code: str, account_id: int, number: int) -> bool:
        """The owner or an admin frees table ``number`` (its pad lost): its token no longer
        writes, and the next pad to join as that table takes it over; whether it was held."""
        with self.engine.begin() as db:
            night = self.night_row(db, code, lock=True)
            if self.role(db, night.club_id, account_id) not in ("owner", "admin"):
                raise HTTPException(403, w.NOT_CLUB_ADMIN)
            if night.state != "open":
                raise HTTPException(409, w.FINISHED)
            where = (hall_tables.c.night_id == night.id, hall_tables.c.number == number)
            if db.execute(sa.select(hall_tables.c.number).where(*where)).first() is None:
                raise HTTPException(404, w.NO_SUCH_TABLE)
            done = db.execute(
                hall_tables.update()
                .where(*where, hall_tables.c.token_hash != FREE)
                .values(token_hash=FREE)
            )
            return bool(done.rowcount)

    def check_token(self, code: str, number: int, token: str) -> None:
        """404 for no such table, 403 for a token not the table's."""
        with self.engine.connect() as db:
            self._token_row(db, self.night_row(db, code), number, token)

    def _token_row(self, db: Connection, night: Any, number: int, token: str) -> Any:
        row = db.execute(
            sa.select(hall_tables.c.token_hash, hall_tables.c.version).where(
                hall_tables.c.night_id == night.id, hall_tables.c.number == number
            )
        ).first()
        if row is None:
            raise HTTPException(404, w.NO_SUCH_TABLE)
        if row.token_hash == FREE:
            raise HTTPException(403, w.TABLE_FREED)
        if not hmac.compare_digest(row.token_hash, _hashed(token)):
            raise HTTPException(403, w.BAD_TOKEN)
        return row

    def _rounds(self, night: Any, state: str) -> str:
        """A table's state as kept: in a progressive night with each game's round checked
        (:func:`.hall_rounds.checked_rounds`), elsewhere without rounds."""
        progress = _progress(night)
        if progress is None and '"rounds"' not in state:
            return state
        data = json.loads(state)
        if progress is None:
            data.pop("rounds", None)
        else:
            rounds.checked_rounds(data, progress["round"])
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    def send(
        self, code: str, number: int, token: str, version: int, state: str
    ) -> tuple[int, dict[str, Any] | None, list[str]]:
        """Keep the table's state if ``version`` is newer than the one kept; the version
        kept (the same as before for a state that came late or twice), the night's
        round (None unless progressive), which this state may have ended, and the names
        at the game in play not the club's members."""
        with self.engine.begin() as db:
            night = self.night_row(db, code, lock=True)  # not while the night ends
            where = (hall_tables.c.night_id == night.id, hall_tables.c.number == number)
            self._token_row(db, night, number, token)
            if night.state != "open":
                raise HTTPException(409, w.FINISHED)
            state = self._rounds(night, state)
            db.execute(
                hall_tables.update()
                .where(*where, hall_tables.c.version < version)
                .values(version=version, state=state, updated=time.time())
            )
            kept = db.execute(sa.select(hall_tables.c.version).where(*where)).scalar_one()
            progress = _progress(night)
            if progress is not None and self._over(db, night, progress, json.loads(state)):
                self._close(db, night, progress)
            unknown = self.unknown(db, night, state)
            return int(kept), rounds.round_view(progress), unknown

    def _states(self, db: Connection, night: Any) -> list[tuple[int, dict[str, Any]]]:
        rows = db.execute(
            sa.select(hall_tables.c.number, hall_tables.c.state)
            .where(hall_tables.c.night_id == night.id)
            .order_by(hall_tables.c.number)
        ).all()
        return [(r.number, json.loads(r.state)) for r in rows]

    def _over(
        self, db: Connection, night: Any, progress: dict[str, Any], sent: dict[str, Any]
    ) -> bool:
        hands = progress["hands"]
        if hands is not None and rounds.table_round(sent, progress["round"])[2] < hands:
            return False  # this table's round goes on: no need to score the others
        states = [s for _, s in self._states(db, night)]
        return rounds.round_over(progress, states, self.clock())

    def _close(self, db: Connection, night: Any, progress: dict[str, Any]) -> None:
        rounds.close_round(progress, self._states(db, night), self.clock())
        db.execute(
            hall_nights.update()
            .where(hall_nights.c.id == night.id)
            .values(progress=json.dumps(progress))
        )

    def close_round(self, code: str, account_id: int, number: int) -> dict[str, Any]:
        """The owner or an admin ends round ``number`` now (409 once it is over: a second
        tap of the button moves nobody twice); the night's round."""
        with self.engine.begin() as db:
            night = self.night_row(db, code, lock=True)
            if self.role(db, night.club_id, account_id) not in ("owner", "admin"):
                raise HTTPException(403, w.NOT_CLUB_ADMIN)
            progress = _progress(night)
            if progress is None:
                raise HTTPException(409, w.NOT_PROGRESSIVE)
            if night.state != "open":
                raise HTTPException(409, w.FINISHED)
            if progress["round"] != number:
                raise HTTPException(409, w.ROUND_GONE.format(round=number))
            self._close(db, night, progress)
            view = rounds.round_view(progress)
            assert view is not None
            return view

    def end(self, code: str, account_id: int) -> bool:
        """The owner or an admin ends the night; whether this call did."""
        with self.engine.begin() as db:
            night = self.night_row(db, code, lock=True)
            if self.role(db, night.club_id, account_id) not in ("owner", "admin"):
                raise HTTPException(403, w.NOT_CLUB_ADMIN)
            done = db.execute(
                hall_nights.update()
                .where(hall_nights.c.id == night.id, hall_nights.c.state == "open")
                .values(state="finished", ended=time.time())
            )
            return bool(done.rowcount)
