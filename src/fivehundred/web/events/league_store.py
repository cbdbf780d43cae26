"""Seasonal leagues on the server (synchronous: run in the store's thread): a season's
pairs, cut into divisions when it starts, the games that count and the standings of each
division; a season that follows another starts from its promotions and relegations
(:mod:`.league`, pure).

Each week each division has its schedule: ``per_week`` rounds of its round robin, in the
order of its pairs (:func:`.league.week_rounds`; derived, so made the same on every
server). A game counts for a season when it finished while the season ran, one of its
pairs held the North-South seats and another of the same division East-West, all four
accounts seated and none of the seats played by the computer more than half the time,
and the week's schedule has those two pairs meet: the first such game of each meeting
counts (:func:`.league.counted`). The result is taken
by the outbox's ``event`` work, in the transaction that deletes its row (once). A season
starts and ends exactly once: its row locked and its state checked and changed in one
transaction.
"""

from __future__ import annotations

import json
import time
from typing import Any, cast

import sqlalchemy as sa
from fastapi import HTTPException
from sqlalchemy.engine import Connection, Engine

from fivehundred.web.events import league
from fivehundred.web.events import words as w
from fivehundred.web.events.pairing import Game, Round
from fivehundred.web.players import STAND_IN_BY, stood_in
from fivehundred.web.schema import (
    account_seats,
    accounts,
    actions,
    league_games,
    league_pairs,
    league_seasons,
    tables,
)

#: seasons not yet over one account may organise
SEASONS_OPEN = 10
INDEX_LIMIT = 100


def season_end(season: Any) -> float:
    return float(season.starts_at + season.weeks * league.WEEK)


def division_ids(pairs: list[Any]) -> list[list[int]]:
    """Each division's pairs (top division first), in the order they were placed."""
    count = 1 + max((p.division for p in pairs if p.division is not None), default=-1)
    return [[p.id for p in pairs if p.division == number] for number in range(count)]


def schedule(season: Any, pairs: list[Any], week: int) -> list[Game]:
    """The season's games in ``week``, every division's (:func:`.league.week_rounds`)."""
    return [
        game
        for division in division_ids(pairs)
        for r in league.week_rounds(division, week, season.per_week)
        for game in r.games
    ]


class LeagueStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def season(self, db: Connection, season_id: int, lock: bool = False) -> Any:
        query = sa.select(league_seasons).where(league_seasons.c.id == season_id)
        row = db.execute(query.with_for_update() if lock else query).first()
        if row is None:
            raise HTTPException(404, w.NO_SUCH_LEAGUE)
        return row

    def pairs_of(self, db: Connection, season_id: int) -> list[Any]:
        first, second = accounts.alias("first"), accounts.alias("second")
        query = (
            sa.select(league_pairs, first.c.name.label("first"), second.c.name.label("second"))
            .select_from(
                league_pairs.outerjoin(first, first.c.id == league_pairs.c.first_id).outerjoin(
                    second, second.c.id == league_pairs.c.second_id
                )
            )
            .where(league_pairs.c.season_id == season_id)
            .order_by(league_pairs.c.place)
        )
        return list(db.execute(query).all())

    def games_of(self, db: Connection, season: Any, pairs: list[Any]) -> list[league.LeagueGame]:
        """The season's games that count: those of each week's schedule (:func:`schedule`)."""
        rows = db.execute(
            sa.select(league_games).where(league_games.c.season_id == season.id)
        ).all()
        games = [
            league.LeagueGame(
                r.week, r.at, r.a_pair, r.b_pair, r.a_points, r.b_points, r.winner or None
            )
            for r in rows
        ]
        return league.counted(games, lambda week: schedule(season, pairs, week))

    def final_order(self, db: Connection, season: Any) -> list[list[int]]:
        """Each division's pairs (top division first), best first."""
        pairs = self.pairs_of(db, season.id)
        games = self.games_of(db, season, pairs)
        return [
            [cast(int, line.entrant) for line in league.standings(division, games)]
            for division in division_ids(pairs)
        ]

    # -------------------------------------------------------------- making and entering
    def create(self, organiser_id: int, facts: dict[str, Any], follows: int | None) -> int:
        """A new season; one that ``follows`` a finished season of the same organiser
        starts with its pairs, in the divisions its promotions and relegations make."""
        try:
            with self.engine.begin() as db:
                open_ = db.execute(
                    sa.select(sa.func.count())
                    .select_from(league_seasons)
                    .where(
                        league_seasons.c.organiser_id == organiser_id,
                        league_seasons.c.state != "finished",
                    )
                ).scalar_one()
                if open_ >= SEASONS_OPEN:
                    raise HTTPException(409, w.TOO_MANY_SEASONS.format(count=SEASONS_OPEN))
                order: list[Any] = []
                if follows is not None:
                    before = self.season(db, follows)
                    if before.organiser_id != organiser_id:
                        raise HTTPException(403, w.ONLY_ORGANISER)
                    if before.state != "finished":
                        raise HTTPException(409, w.NOT_OVER)
                    moved = league.next_season(self.final_order(db, before), before.moves)
                    known = {p.id: p for p in self.pairs_of(db, before.id)}
                    order = [known[pair] for division in moved for pair in division]
                values = {**facts, "organiser_id": organiser_id, "follows": follows}
                values.update(state="registering", created=time.time())
                made = db.execute(league_seasons.insert().values(**values)).inserted_primary_key
                assert made is not None
                season_id = int(made[0])
                for place, pair in enumerate(order):
                    db.execute(
                        league_pairs.insert().values(
                            season_id=season_id,
                            first_id=pair.first_id,
                            second_id=pair.second_id,
                            place=place,
                        )
                    )
                return season_id
        except sa.exc.IntegrityError:
            raise HTTPException(409, w.FOLLOWED_ALREADY) from None

    def register(self, season_id: int, account_id: int, partner: str) -> int:
        try:
            with self.engine.begin() as db:
                season = self.season(db, season_id, lock=True)
                if season.state != "registering":
                    raise HTTPException(409, w.NOT_REGISTERING)
                other = db.execute(
                    sa.select(accounts.c.id).where(
                        sa.func.lower(accounts.c.name) == partner.strip().lower()
                    )
                ).scalar()
                if other is None:
                    raise HTTPException(404, w.NO_SUCH_PARTNER.format(name=partner.strip()))
                if other == account_id:
                    raise HTTPException(422, w.OWN_PARTNER)
                pairs = self.pairs_of(db, season_id)
                taken = {p.first_id for p in pairs} | {p.second_id for p in pairs}
                if account_id in taken or other in taken:
                    raise HTTPException(409, w.ALREADY_ENTERED)
                made = db.execute(
                    league_pairs.insert().values(
                        season_id=season_id,
                        first_id=account_id,
                        second_id=other,
                        place=1 + max((p.place for p in pairs), default=-1),
                    )
                ).inserted_primary_key
                assert made is not None
                return int(made[0])
        except sa.exc.IntegrityError:
            raise HTTPException(409, w.ALREADY_ENTERED) from None

    # -------------------------------------------------------------- the season's course
    def due(self, now: float) -> list[tuple[int, str]]:
        """The seasons to start and to end now: (id, "start" or "end")."""
        seasons = league_seasons.c
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(seasons.id, seasons.state).where(
                    sa.or_(
                        sa.and_(seasons.state == "registering", seasons.starts_at <= now),
                        sa.and_(
                            seasons.state == "running",
                            seasons.starts_at + seasons.weeks * league.WEEK <= now,
                        ),
                    )
                )
            ).all()
        return [(row.id, "start" if row.state == "registering" else "end") for row in rows]

    def start(self, season_id: int, now: float) -> bool:
        """Cut the pairs into divisions (in their order) and start; whether this call did."""
        with self.engine.begin() as db:
            season = self.season(db, season_id, lock=True)
            if season.state != "registering" or season.starts_at > now:
                return False
            pairs = self.pairs_of(db, season_id)
            if len(pairs) < 2:
                db.execute(
                    league_seasons.update()
                    .where(league_seasons.c.id == season_id)
                    .values(state="finished")
                )
                return True
            for number, division in enumerate(league.divisions(pairs, season.division_size)):
                ids = [p.id for p in division]
                db.execute(
                    league_pairs.update().where(league_pairs.c.id.in_(ids)).values(division=number)
                )
            db.execute(
                league_seasons.update()
                .where(league_seasons.c.id == season_id)
                .values(state="running")
            )
            return True

    def end(self, season_id: int, now: float) -> bool:
        with self.engine.begin() as db:
            season = self.season(db, season_id, lock=True)
            if season.state != "running" or season_end(season) > now:
                return False
            db.execute(
                league_seasons.update()
                .where(league_seasons.c.id == season_id)
                .values(state="finished")
            )
            return True

    # -------------------------------------------------------------- results
    def record(self, code: str, db: Connection) -> str:
        """The finished table ``code`` as a game of each running season whose division
        holds both its pairs (in the outbox's transaction)."""
        table = db.execute(sa.select(tables).where(tables.c.code == code)).first()
        if table is None or table.finished is None:
            return "no league game"
        held = dict(
            db.execute(
                sa.select(account_seats.c.seat, account_seats.c.account_id).where(
                    account_seats.c.code == code
                )
            ).all()
        )
        if sorted(held) != [0, 1, 2, 3] or not self._present(db, table.id):
            return "no league game"
        ns, ew = {held[0], held[2]}, {held[1], held[3]}
        rows = db.execute(
            sa.select(league_pairs, league_seasons.c.starts_at, league_seasons.c.weeks)
            .select_from(
                league_pairs.join(league_seasons, league_seasons.c.id == league_pairs.c.season_id)
            )
            .where(
                league_seasons.c.state == "running",
                league_pairs.c.first_id.in_(list(ns | ew)),
            )
        ).all()
        made = 0
        for a in (r for r in rows if {r.first_id, r.second_id} == ns):
            for b in (r for r in rows if {r.first_id, r.second_id} == ew):
                made += self._game(db, table, a, b)
        return f"{made} league games"

    def _present(self, db: Connection, table_id: int) -> bool:
        counts: dict[int, list[int]] = {}
        for seat, by in db.execute(
            sa.select(actions.c.seat, actions.c.by).where(actions.c.table_id == table_id)
        ):
            entry = counts.setdefault(seat, [0, 0])
            entry[0] += 1
            entry[1] += by in STAND_IN_BY
        return not any(stood_in(total, stood) for total, stood in counts.values())

    def _game(self, db: Connection, table: Any, a: Any, b: Any) -> int:
        if a.season_id != b.season_id or a.division is None or a.division != b.division:
            return 0
        week = league.week_of(table.finished, a.starts_at, a.weeks)
        known = db.execute(
            sa.select(league_games.c.code).where(
                league_games.c.season_id == a.season_id, league_games.c.code == table.code
            )
        ).first()
        if week is None or known is not None:
            return 0
        scores = [int(s) for s in json.loads(table.scores)] + [0, 0]
        winner = None if table.winner is None else "ab"[table.winner]
        db.execute(
            league_games.insert().values(
                season_id=a.season_id,
                code=table.code,
                week=week,
                at=table.finished,
                a_pair=a.id,
                b_pair=b.id,
                a_points=scores[0],
                b_points=scores[1],
                winner=winner,
            )
        )
        return 1

    # -------------------------------------------------------------- reading
    def index(self) -> dict[str, Any]:
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(league_seasons).order_by(league_seasons.c.id.desc()).limit(INDEX_LIMIT)
            ).all()
        return {
            "leagues": [
                {"id": r.id, "name": r.name, "state": w.STATE_LABELS[r.state]} for r in rows
            ]
        }

    def view(self, season_id: int, account_id: int | None) -> dict[str, Any]:
        with self.engine.connect() as db:
            season = self.season(db, season_id)
            pairs = self.pairs_of(db, season_id)
            games = self.games_of(db, season, pairs)
        names = {p.id: f"{p.first or '?'} & {p.second or '?'}" for p in pairs}
        week = league.week_of(time.time(), season.starts_at, season.weeks)
        divisions, week_games = [], []
        for members in division_ids(pairs):
            lines = league.standings(members, games)
            divisions.append(
                [
                    {
                        "name": names[cast(int, line.entrant)],
                        "points": line.points,
                        "played": line.played,
                        "won": line.won,
                        "difference": line.difference,
                    }
                    for line in lines
                ]
            )
            if season.state == "running" and week is not None:
                rounds = league.week_rounds(members, week, season.per_week)
                week_games.append(_week_games(rounds, games, week, names))
        mine = [
            names[p.id]
            for p in pairs
            if account_id is not None and account_id in (p.first_id, p.second_id)
        ]
        return {
            "id": season.id,
            "name": season.name,
            "state": season.state,
            "state_label": w.STATE_LABELS[season.state],
            "weeks": season.weeks,
            "week": week,
            "per_week": season.per_week,
            "division_size": season.division_size,
            "moves": season.moves,
            "starts_at": season.starts_at,
            "follows": season.follows,
            "organising": account_id == season.organiser_id,
            "pairs": [names[p.id] for p in pairs],
            "mine": mine[0] if mine else None,
            "divisions": divisions,
            "week_games": week_games,
        }


def _week_games(
    rounds: list[Round], games: list[league.LeagueGame], week: int, names: dict[int, str]
) -> dict[str, Any]:
    """A division's games of the week, each with its result once a game counted for it,
    and the pairs with a bye."""
    played: dict[frozenset[Any], list[league.LeagueGame]] = {}
    for one in games:
        if one.week == week:
            played.setdefault(frozenset((one.a, one.b)), []).append(one)
    shown = []
    for game in (g for r in rounds for g in r.games):
        done = played.get(league.meeting(game), [])
        result = None
        if done:
            first = done.pop(0)
            points = {first.a: first.a_points, first.b: first.b_points}
            result = {"ns_points": points[game.ns], "ew_points": points[game.ew]}
        shown.append({"ns": names[game.ns], "ew": names[game.ew], "result": result})
    byes = [names[p] for r in rounds for p in r.byes]
    return {"games": shown, "byes": byes}
