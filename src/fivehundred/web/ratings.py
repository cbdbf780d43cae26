"""The ratings' repository: whose rating (an account, or a partnership of two accounts, each
by its id), read and written for a preset, with the history of each change.

A partnership is a row of its own (``partnerships``: the two accounts' ids, the lower
first), made the first time the two are rated together. Ratings and their history name an
account or a partnership by id. The string key of earlier versions (``"a:ID"``,
``"p:ID1,ID2"``) is still written beside the ids, for servers of an earlier version running
during a rolling restart (expand, deploy, contract: a later release drops it); rows are
still found by it, so that a rating an earlier server made during the restart is the same
row, and a row it wrote is given its ids at its next change.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from openskill.models import PlackettLuce
from sqlalchemy.engine import Connection

from fivehundred.web.schema import accounts, partnerships, rating_history, ratings
from fivehundred.words import PRESET_LABELS, side_label

MODEL = PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    """The rating shown: μ − 3σ."""
    return round(mu - 3 * sigma, 3)


@dataclass(frozen=True)
class Rated:
    """Whose rating: an account (``members`` its id alone, ``partnership`` None) or a
    partnership (``members`` the two ids in order, ``partnership`` its row's id)."""

    members: tuple[int, ...]
    partnership: int | None = None

    @property
    def account(self) -> int | None:
        return self.members[0] if self.partnership is None else None

    @property
    def key(self) -> str:
        """The string key earlier versions read (written beside the ids, found by)."""
        if self.partnership is None:
            return f"a:{self.members[0]}"
        return "p:" + ",".join(str(i) for i in self.members)

    def ids(self) -> dict[str, int | None]:
        return {"account_id": self.account, "partnership_id": self.partnership}


def of_account(account_id: int) -> Rated:
    return Rated((account_id,))


def of_partnership(db: Connection, account_ids: Iterable[int]) -> Rated:
    """The partnership of two accounts, its row made the first time (by one server only:
    the two ids are unique together)."""
    first, second = sorted(account_ids)
    P = partnerships.c
    find = sa.select(P.id).where(P.first_id == first, P.second_id == second)
    found = db.execute(find).scalar()
    if found is None:
        with contextlib.suppress(sa.exc.IntegrityError), db.begin_nested():
            db.execute(partnerships.insert().values(first_id=first, second_id=second))
        found = db.execute(find).scalar_one()
    return Rated((first, second), int(found))


def rating(db: Connection, who: Rated, preset: str) -> tuple[float, float, int]:
    """(μ, σ, games) of ``who`` for ``preset``; a newcomer's without games."""
    row = db.execute(
        sa.select(ratings.c.mu, ratings.c.sigma, ratings.c.games).where(
            ratings.c.key == who.key, ratings.c.preset == preset
        )
    ).first()
    if row is None:
        fresh = MODEL.rating()
        return fresh.mu, fresh.sigma, 0
    return row.mu, row.sigma, row.games


def save(
    db: Connection,
    who: Rated,
    preset: str,
    change: tuple[float, float, int],
    code: str,
    outcome: str,
    now: float,
) -> None:
    """Set ``who``'s rating for ``preset`` to ``change`` (μ, σ, games), the result of the
    game ``code`` (``outcome``: win, loss or absent), and keep it in the history."""
    mu, sigma, games = change
    values = {"mu": mu, "sigma": sigma, "games": games, **who.ids()}
    where = (ratings.c.key == who.key, ratings.c.preset == preset)
    if db.execute(sa.select(ratings.c.key).where(*where)).first():
        db.execute(ratings.update().where(*where).values(**values))
    else:
        db.execute(ratings.insert().values(key=who.key, preset=preset, **values))
    db.execute(
        rating_history.insert()
        .values(key=who.key, preset=preset, code=code, mu=mu, sigma=sigma, outcome=outcome, at=now)
        .values(**who.ids())
    )


def apply_game(
    db: Connection,
    code: str,
    preset: str,
    members: dict[int, int],
    sides: tuple[int, ...] | list[int],
    absent: list[int],
    winner: int | None,
) -> str:
    """Rate the finished game ``code`` of ``preset``: ``members`` the account at each seat,
    ``sides`` each seat's side, ``absent`` the seats left to the stand-in (a loss for each
    of them, the others' ratings unmoved), ``winner`` the winning side. Each account, and
    each side's partnership where every side is two, is rated (Plackett-Luce); returns what
    was done, for the log."""
    now = time.time()
    seats_by_side: dict[int, list[int]] = {}
    for seat in sorted(members):
        seats_by_side.setdefault(sides[seat], []).append(seat)
    side_order = sorted(seats_by_side)

    def teams_of(groups: list[list[Rated]]) -> list[list[Any]]:
        return [[MODEL.rating(*rating(db, who, preset)[:2]) for who in team] for team in groups]

    def put(who: Rated, new: Any, outcome: str) -> None:
        change = (new.mu, new.sigma, rating(db, who, preset)[2] + 1)
        save(db, who, preset, change, code, outcome, now)

    people = [[of_account(members[s]) for s in seats_by_side[side]] for side in side_order]
    if absent:
        for seat in absent:
            mine = side_order.index(sides[seat])
            lost: list[float] = [2.0 if i == mine else 1.0 for i in range(len(side_order))]
            lost_teams = MODEL.rate(teams_of(people), ranks=lost)
            put(
                of_account(members[seat]),
                lost_teams[mine][seats_by_side[sides[seat]].index(seat)],
                "absent",
            )
        return f"absent: seats {absent}"
    if winner is None or winner < 0:
        return "unrated: no winner"
    ranks: list[float] = [1.0 if side == winner else 2.0 for side in side_order]
    outcomes = ["win" if side == winner else "loss" for side in side_order]
    rated_people = MODEL.rate(teams_of(people), ranks=ranks)
    for team, new_team, outcome in zip(people, rated_people, outcomes, strict=True):
        for who, new in zip(team, new_team, strict=True):
            put(who, new, outcome)
    if all(len(seats_by_side[side]) == 2 for side in side_order):
        pairs = [
            [of_partnership(db, (members[s] for s in seats_by_side[side]))] for side in side_order
        ]
        rated_pairs = MODEL.rate(teams_of(pairs), ranks=ranks)
        for (pair,), (new,), outcome in zip(pairs, rated_pairs, outcomes, strict=True):
            put(pair, new, outcome)
    return "rated"


def _partnerships_of(account_id: int) -> sa.Select[Any]:
    P = partnerships.c
    return sa.select(P.id).where(sa.or_(P.first_id == account_id, P.second_id == account_id))


def forget(db: Connection, account_id: int) -> None:
    """Delete every rating of the account and of its partnerships (the account is being
    deleted), their history and the partnerships."""
    pairs = [r.id for r in db.execute(_partnerships_of(account_id))]
    for table in (rating_history, ratings):
        db.execute(
            table.delete().where(
                sa.or_(
                    table.c.account_id == account_id,
                    table.c.partnership_id.in_(pairs),
                    table.c.key == of_account(account_id).key,
                )
            )
        )
    db.execute(partnerships.delete().where(partnerships.c.id.in_(pairs)))


def _entry(row: Any) -> dict[str, Any]:
    return {
        "rating": ordinal(row.mu, row.sigma),
        "mu": round(row.mu, 3),
        "sigma": round(row.sigma, 3),
        "games": row.games,
    }


def leaderboard(db: Connection, preset: str, pairs: bool, limit: int) -> list[dict[str, Any]]:
    """The best ``limit`` ratings of ``preset``: the partnerships' or the accounts'."""
    R, A, P = ratings.c, accounts.alias("a"), partnerships.c
    if pairs:
        B = accounts.alias("b")
        query = (
            sa.select(R.mu, R.sigma, R.games, A.c.name, B.c.name.label("partner"))
            .add_columns((A.c.bot | B.c.bot).label("bot"))
            .join(partnerships, P.id == R.partnership_id)
            .join(A, A.c.id == P.first_id)
            .join(B, B.c.id == P.second_id)
        )
    else:
        query = sa.select(R.mu, R.sigma, R.games, A.c.name, A.c.bot).join(A, A.c.id == R.account_id)
    board = []
    for row in db.execute(query.where(R.preset == preset)):
        names = (row.name, row.partner) if pairs else (row.name,)
        board.append({"name": side_label(names), **_entry(row), "bot": bool(row.bot)})
    board.sort(key=lambda entry: (-entry["rating"], entry["name"]))
    for rank, entry in enumerate(board, 1):
        entry["rank"] = rank
    return board[:limit]


def profile(db: Connection, account_id: int) -> dict[str, Any]:
    """An account's ratings per preset, their history and its partnerships' ratings."""
    R, H, P = ratings.c, rating_history.c, partnerships.c
    mine = of_account(account_id)
    rows = db.execute(sa.select(ratings).where(R.key == mine.key)).all()
    history = db.execute(sa.select(rating_history).where(H.key == mine.key).order_by(H.id)).all()
    A, B = accounts.alias("a"), accounts.alias("b")
    pairs = db.execute(
        sa.select(R.preset, R.mu, R.sigma, R.games, A.c.name, B.c.name.label("partner"))
        .join(partnerships, P.id == R.partnership_id)
        .join(A, A.c.id == P.first_id)
        .join(B, B.c.id == P.second_id)
        .where(R.partnership_id.in_(_partnerships_of(account_id)))
        .order_by(R.preset, A.c.name, B.c.name)
    ).all()
    return {
        "labels": PRESET_LABELS,
        "ratings": {r.preset: _entry(r) for r in rows},
        "history": [
            {
                "preset": h.preset,
                "table": h.code,
                "rating": ordinal(h.mu, h.sigma),
                "outcome": h.outcome,
                "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(h.at)),
            }
            for h in history
        ],
        "partnerships": [
            {
                "preset": p.preset,
                "partners": side_label((p.name, p.partner)),
                "rating": ordinal(p.mu, p.sigma),
                "games": p.games,
            }
            for p in pairs
        ],
    }
