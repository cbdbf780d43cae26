"""The events' queries (synchronous: run in the store's thread). Each refusal raises
:class:`HTTPException` with its answer.

A round starts once whichever servers try (:meth:`EventStore.start_round`): the event's
row is locked (``FOR UPDATE``), its round number checked and advanced, and the round's
row (keyed by event and number) written in the same transaction as its games; a second
server waits on the lock, then finds the round started. Each game's table is made by the
server that leases it (:meth:`EventStore.claim_games`); a server that dies before writing
the table's code leaves the lease to run out and another makes it. A game's result is
written by the outbox's ``event`` work (:meth:`EventStore.record`), in the transaction
that deletes its row: once.

A duplicate event deals every table of a round the same cards, hand by hand: each is made
with the round's seed (:func:`round_seed`, from the event's secret seed) and sealed
(web/seals.py, :func:`round_seal`) until the round's last game is recorded, in the
transaction that records it: nobody reads a board before playing it.
"""

from __future__ import annotations

import hashlib
import json
import time
from typing import Any

import sqlalchemy as sa
from fastapi import HTTPException
from sqlalchemy.engine import Connection, Engine

from fivehundred.web import seals
from fivehundred.web.events import pairing
from fivehundred.web.events import words as w
from fivehundred.web.players import OVERTIME, STAND_IN_BY, stood_in
from fivehundred.web.schema import (
    accounts,
    actions,
    club_members,
    clubs,
    event_games,
    event_pairs,
    event_players,
    event_rounds,
    events,
    tables,
)

KINDS = tuple(w.KIND_LABELS)
#: unfinished events one account may organise
EVENTS_OPEN = 20
#: seconds a server holds a game whose table it is making
LEASE = 60.0
#: events the index lists
INDEX_LIMIT = 100
#: the seats of the two pairs at a four-handed table: North-South (South, North) and
#: East-West (West, East)
NS_SEATS, EW_SEATS = (0, 2), (1, 3)


def rounds_of(kind: str, pairs: int, asked: int) -> int:
    """How many rounds an event of ``pairs`` plays: a Swiss ``asked``, a round robin one
    per other pair (and the byes of an odd field), a knockout to one winner."""
    if kind == "round_robin":
        return pairs - 1 + pairs % 2
    if kind == "knockout":
        return (pairs - 1).bit_length()
    return asked


def round_seed(event_seed: int, number: int) -> int:
    """The seed of every table of round ``number`` of a duplicate event (62 bits, as the
    hub's; no round's seed tells another's, nor the event's)."""
    digest = hashlib.sha256(f"{event_seed}/round-{number}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 2


def round_seal(event_id: int, number: int) -> str:
    """The seal of a duplicate event's round's tables (web/seals.py), lifted when the
    round's last game is recorded."""
    return f"event:{event_id}:round:{number}"


def _played(game: Any) -> pairing.Played:
    winner = None if game.winner is None else ("ns", "ew")[game.winner]
    return pairing.Played(
        game.ns_pair,
        game.ew_pair,
        game.ns_points or 0,
        game.ew_points or 0,
        winner,
        tuple(json.loads(game.absent)),
    )


def knockout_winner(game: Any, seeds: dict[int, int]) -> int:
    """Who goes through from a knockout game: the one present when the other was absent,
    else the winner; the higher seed from a draw or when both were absent."""
    absent = set(json.loads(game.absent))
    present = [p for p in (game.ns_pair, game.ew_pair) if p not in absent]
    if len(present) == 1:
        return int(present[0])
    if game.winner is not None and not absent:
        return int((game.ns_pair, game.ew_pair)[game.winner])
    return int(min((game.ns_pair, game.ew_pair), key=lambda p: seeds[p]))


class EventStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -------------------------------------------------------------- reading
    def event_row(self, db: Connection, event_id: int, lock: bool = False) -> Any:
        query = sa.select(events).where(events.c.id == event_id)
        row = db.execute(query.with_for_update() if lock else query).first()
        if row is None:
            raise HTTPException(404, w.NO_SUCH_EVENT)
        return row

    def pairs_of(self, db: Connection, event_id: int) -> list[Any]:
        first, second = accounts.alias("first"), accounts.alias("second")
        query = (
            sa.select(event_pairs, first.c.name.label("first"), second.c.name.label("second"))
            .select_from(
                event_pairs.outerjoin(first, first.c.id == event_pairs.c.first_id).outerjoin(
                    second, second.c.id == event_pairs.c.second_id
                )
            )
            .where(event_pairs.c.event_id == event_id)
            .order_by(event_pairs.c.seed)
        )
        return list(db.execute(query).all())

    def history(self, db: Connection, event_id: int) -> list[pairing.RoundResult]:
        rounds = db.execute(
            sa.select(event_rounds)
            .where(event_rounds.c.event_id == event_id, event_rounds.c.finished.is_not(None))
            .order_by(event_rounds.c.number)
        ).all()
        games = db.execute(sa.select(event_games).where(event_games.c.event_id == event_id)).all()
        return [
            pairing.RoundResult(
                tuple(_played(g) for g in games if g.round == r.number), tuple(json.loads(r.byes))
            )
            for r in rounds
        ]

    # -------------------------------------------------------------- making and entering
    def create(self, organiser_id: int, club: str | None, facts: dict[str, Any]) -> int:
        """A new event (``facts``: the columns asked for); its id."""
        with self.engine.begin() as db:
            club_id = None if club is None else self._club_admin(db, club, organiser_id)
            open_ = db.execute(
                sa.select(sa.func.count())
                .select_from(events)
                .where(events.c.organiser_id == organiser_id, events.c.state != "finished")
            ).scalar_one()
            if open_ >= EVENTS_OPEN:
                raise HTTPException(409, w.TOO_MANY.format(count=EVENTS_OPEN))
            values = {**facts, "organiser_id": organiser_id, "club_id": club_id}
            values.update(state="registering", round=0, created=time.time())
            made = db.execute(events.insert().values(**values)).inserted_primary_key
            assert made is not None
            return int(made[0])

    def _club_admin(self, db: Connection, slug: str, account_id: int) -> int:
        club_id = db.execute(sa.select(clubs.c.id).where(clubs.c.slug == slug.lower())).scalar()
        if club_id is None:
            raise HTTPException(404, w.NO_SUCH_CLUB)
        role = db.execute(
            sa.select(club_members.c.role).where(
                club_members.c.club_id == club_id, club_members.c.account_id == account_id
            )
        ).scalar()
        if role not in ("owner", "admin"):
            raise HTTPException(403, w.NOT_CLUB_ADMIN)
        return int(club_id)

    def register(self, event_id: int, account_id: int, partner: str) -> int:
        """The account and the account named ``partner`` enter as a pair; its id."""
        with self.engine.begin() as db:
            event = self.event_row(db, event_id, lock=True)
            if event.state != "registering":
                raise HTTPException(409, w.NOT_REGISTERING)
            partner_row = db.execute(
                sa.select(accounts.c.id, accounts.c.name).where(
                    sa.func.lower(accounts.c.name) == partner.strip().lower()
                )
            ).first()
            if partner_row is None:
                raise HTTPException(404, w.NO_SUCH_PARTNER.format(name=partner.strip()))
            if partner_row.id == account_id:
                raise HTTPException(422, w.OWN_PARTNER)
            count = len(self.pairs_of(db, event_id))
            if count >= event.max_pairs:
                raise HTTPException(409, w.FULL.format(count=event.max_pairs))
            for who in (account_id, partner_row.id):
                taken = db.execute(
                    sa.select(event_players.c.pair_id).where(
                        event_players.c.event_id == event_id, event_players.c.account_id == who
                    )
                ).first()
                if taken is not None:
                    name = db.execute(sa.select(accounts.c.name).where(accounts.c.id == who))
                    raise HTTPException(409, w.ALREADY_IN.format(name=name.scalar()))
            seed = 1 + max((p.seed for p in self.pairs_of(db, event_id)), default=0)
            inserted = db.execute(
                event_pairs.insert().values(
                    event_id=event_id,
                    first_id=account_id,
                    second_id=partner_row.id,
                    seed=seed,
                    checked_in=False,
                    withdrawn=False,
                )
            ).inserted_primary_key
            assert inserted is not None
            pair_id = int(inserted[0])
            for who in (account_id, partner_row.id):
                db.execute(
                    event_players.insert().values(
                        event_id=event_id, account_id=who, pair_id=pair_id
                    )
                )
            return pair_id

    def _my_pair(self, db: Connection, event_id: int, account_id: int) -> int:
        pair_id = db.execute(
            sa.select(event_players.c.pair_id).where(
                event_players.c.event_id == event_id, event_players.c.account_id == account_id
            )
        ).scalar()
        if pair_id is None:
            raise HTTPException(404, w.NOT_ENTERED)
        return int(pair_id)

    def check_in(self, event_id: int, account_id: int) -> None:
        with self.engine.begin() as db:
            if self.event_row(db, event_id).state != "registering":
                raise HTTPException(409, w.NOT_REGISTERING)
            pair_id = self._my_pair(db, event_id, account_id)
            db.execute(
                event_pairs.update().where(event_pairs.c.id == pair_id).values(checked_in=True)
            )

    def withdraw(self, event_id: int, account_id: int) -> None:
        """The account's pair leaves: before the start its entry goes; during a Swiss it is
        paired no more (its games so far stand); a round robin's or a knockout's pairs play
        every round they are drawn in."""
        with self.engine.begin() as db:
            event = self.event_row(db, event_id, lock=True)
            pair_id = self._my_pair(db, event_id, account_id)
            if event.state == "registering":
                db.execute(event_players.delete().where(event_players.c.pair_id == pair_id))
                db.execute(event_pairs.delete().where(event_pairs.c.id == pair_id))
                return
            if event.state != "running" or event.kind != "swiss":
                raise HTTPException(409, w.NO_WITHDRAWING)
            db.execute(
                event_pairs.update().where(event_pairs.c.id == pair_id).values(withdrawn=True)
            )

    def may_start(self, event_id: int, account_id: int) -> None:
        """403 unless the account organises the event (or administers its club)."""
        with self.engine.connect() as db:
            event = self.event_row(db, event_id)
            if event.organiser_id == account_id:
                return
            if event.club_id is not None:
                role = db.execute(
                    sa.select(club_members.c.role).where(
                        club_members.c.club_id == event.club_id,
                        club_members.c.account_id == account_id,
                    )
                ).scalar()
                if role in ("owner", "admin"):
                    return
        raise HTTPException(403, w.ONLY_ORGANISER)

    # -------------------------------------------------------------- rounds
    def start_round(self, event_id: int, number: int, now: float) -> bool:
        """Start round ``number`` of the event unless it has started (another server, an
        earlier call) or may not yet; whether this call started it."""
        try:
            with self.engine.begin() as db:
                event = self.event_row(db, event_id, lock=True)
                if event.round != number - 1 or event.state == "finished":
                    return False
                if number == 1:
                    field = self._first_field(db, event)
                    if field is None:
                        return False
                else:
                    previous = db.execute(
                        sa.select(event_rounds.c.finished).where(
                            event_rounds.c.event_id == event_id,
                            event_rounds.c.number == number - 1,
                        )
                    ).scalar()
                    if previous is None:
                        return False
                    field = [p.id for p in self.pairs_of(db, event_id) if not p.withdrawn]
                round_, slots = self._pairing(db, event, field, number)
                db.execute(
                    event_rounds.insert().values(
                        event_id=event_id,
                        number=number,
                        started=now,
                        byes=json.dumps(list(round_.byes)),
                        slots=None if slots is None else json.dumps(slots),
                        # a turn-based event's round: its games are finished by then
                        due=None if event.round_time is None else now + event.round_time,
                    )
                )
                db.execute(
                    event_games.insert(),
                    [
                        {
                            "event_id": event_id,
                            "round": number,
                            "number": i + 1,
                            "ns_pair": game.ns,
                            "ew_pair": game.ew,
                            "absent": "[]",
                        }
                        for i, game in enumerate(round_.games)
                    ],
                )
                db.execute(
                    events.update()
                    .where(events.c.id == event_id)
                    .values(round=number, state="running")
                )
                if not round_.games:  # byes only: the round is over as it starts
                    self._finish_round(db, event_id, number, now)
                return True
        except sa.exc.IntegrityError:
            return False

    def _first_field(self, db: Connection, event: Any) -> list[int] | None:
        """The pairs checked in (the others withdrawn) and the event's rounds fixed for
        them; None (the event over, unplayed) with fewer than two."""
        pairs = self.pairs_of(db, event.id)
        db.execute(
            event_pairs.update()
            .where(event_pairs.c.event_id == event.id, event_pairs.c.checked_in.is_(False))
            .values(withdrawn=True)
        )
        field = [p.id for p in pairs if p.checked_in]
        if len(field) < 2:
            db.execute(events.update().where(events.c.id == event.id).values(state="finished"))
            return None
        db.execute(
            events.update()
            .where(events.c.id == event.id)
            .values(rounds=rounds_of(event.kind, len(field), event.rounds))
        )
        return field

    def _pairing(
        self, db: Connection, event: Any, field: list[int], number: int
    ) -> tuple[pairing.Round, list[int | None] | None]:
        history = self.history(db, event.id)
        if event.kind == "round_robin":
            return pairing.round_robin(field)[number - 1], None
        if event.kind == "knockout":
            if number == 1:
                slots = pairing.knockout_slots(field)
            else:
                last = db.execute(
                    sa.select(event_rounds.c.slots).where(
                        event_rounds.c.event_id == event.id, event_rounds.c.number == number - 1
                    )
                ).scalar_one()
                seeds = {pair: i for i, pair in enumerate(field)}
                games = db.execute(
                    sa.select(event_games).where(
                        event_games.c.event_id == event.id, event_games.c.round == number - 1
                    )
                ).all()
                winners = [knockout_winner(g, seeds) for g in games]
                slots = pairing.knockout_next(json.loads(last), winners)
            balance = {s.pair: s.balance for s in pairing.standings(field, history)}
            return pairing.knockout_round(slots, balance), slots
        return pairing.swiss_round(field, history), None

    def _finish_round(self, db: Connection, event_id: int, number: int, now: float) -> None:
        db.execute(
            event_rounds.update()
            .where(event_rounds.c.event_id == event_id, event_rounds.c.number == number)
            .values(finished=now)
        )
        event = self.event_row(db, event_id)
        if event.duplicate_seed is not None:  # its boards may be shown now
            seals.lift(db, round_seal(event_id, number), now)
        if number >= event.rounds:
            db.execute(events.update().where(events.c.id == event_id).values(state="finished"))

    def due_rounds(self, now: float) -> list[tuple[int, int]]:
        """The rounds that should start: the first of each event whose time has come, and
        the next of each whose last round is over."""
        with self.engine.connect() as db:
            first = db.execute(
                sa.select(events.c.id).where(
                    events.c.state == "registering",
                    events.c.starts_at.is_not(None),
                    events.c.starts_at <= now,
                )
            ).all()
            following = db.execute(
                sa.select(events.c.id, events.c.round)
                .select_from(
                    events.join(
                        event_rounds,
                        (event_rounds.c.event_id == events.c.id)
                        & (event_rounds.c.number == events.c.round),
                    )
                )
                .where(events.c.state == "running", event_rounds.c.finished.is_not(None))
            ).all()
        return [(row.id, 1) for row in first] + [(row.id, row.round + 1) for row in following]

    # -------------------------------------------------------------- tables
    def claim_games(self, now: float, limit: int = 50) -> list[dict[str, Any]]:
        """Games whose table nobody has made (or whose maker's lease ran out), each leased
        to this caller: the facts to make its table."""
        claimed = []
        with self.engine.begin() as db:
            rows = db.execute(
                sa.select(event_games, events.c.name, events.c.preset, events.c.target)
                .add_columns(events.c.grace, events.c.variants, events.c.turn_timer)
                .add_columns(events.c.duplicate_seed, events.c.move_clock, event_rounds.c.due)
                .select_from(
                    event_games.join(events, events.c.id == event_games.c.event_id).join(
                        event_rounds,
                        (event_rounds.c.event_id == event_games.c.event_id)
                        & (event_rounds.c.number == event_games.c.round),
                    )
                )
                .where(
                    event_games.c.code.is_(None),
                    sa.or_(event_games.c.lease_until.is_(None), event_games.c.lease_until < now),
                )
                .order_by(event_games.c.id)
                .limit(limit)
                .with_for_update(skip_locked=True, of=event_games)
            ).all()
            for row in rows:
                db.execute(
                    event_games.update()
                    .where(event_games.c.id == row.id)
                    .values(lease_until=now + LEASE)
                )
                claimed.append(self._table_facts(db, row, now + LEASE))
        return claimed

    def _table_facts(self, db: Connection, row: Any, until: float) -> dict[str, Any]:
        pairs = {p.id: p for p in self.pairs_of(db, row.event_id)}
        seats: list[tuple[int, str]] = [(0, "")] * 4
        duplicate = row.duplicate_seed is not None
        for pair_id, (a, b) in ((row.ns_pair, NS_SEATS), (row.ew_pair, EW_SEATS)):
            pair = pairs[pair_id]
            seats[a] = (pair.first_id, pair.first)
            seats[b] = (pair.second_id, pair.second)
        return {
            "game": row.id,
            "until": until,
            "event": row.event_id,
            "round": row.round,
            "name": f"{row.name} · {row.round}.{row.number}"[:60],
            "preset": row.preset,
            "variants": json.loads(row.variants),
            "target": row.target,
            "grace": row.grace,
            "turn_timer": row.turn_timer,
            # turn-based: the clock per move, and when the round's games are finished by
            "move_clock": row.move_clock,
            "finish_by": row.due,
            "seats": seats,
            # a duplicate round: the round's cards at every table, sealed till it ends
            "seed": round_seed(row.duplicate_seed, row.round) if duplicate else None,
            "sealed": round_seal(row.event_id, row.round) if duplicate else None,
        }

    def set_code(self, game_id: int, until: float, code: str) -> bool:
        """The game's table is ``code`` (False: the lease ran out and another has it)."""
        with self.engine.begin() as db:
            done = db.execute(
                event_games.update()
                .where(
                    event_games.c.id == game_id,
                    event_games.c.code.is_(None),
                    event_games.c.lease_until == until,
                )
                .values(code=code)
            )
            return done.rowcount == 1

    # -------------------------------------------------------------- results
    def record(self, code: str, db: Connection) -> str:
        """The result of the finished table ``code`` if it is an event's game, in the
        outbox's transaction (web/outbox.py); what was done."""
        game = db.execute(
            sa.select(event_games).where(event_games.c.code == code).with_for_update()
        ).first()
        if game is None:
            return "not an event's game"
        if game.finished is not None:
            return "already recorded"
        table = db.execute(sa.select(tables).where(tables.c.code == code)).first()
        if table is None or table.finished is None:
            return "not finished"
        scores = [int(s) for s in json.loads(table.scores)] + [0, 0]
        counts: dict[int, list[int]] = {}
        # a turn-based round's deadline: the stand-ins' moves after it (``overtime``) are
        # not a stand-in's for an absent person (the person was slow, not away)
        overtime = False
        for seat, by in db.execute(
            sa.select(actions.c.seat, actions.c.by).where(actions.c.table_id == table.id)
        ):
            overtime = overtime or by == OVERTIME
            entry = counts.setdefault(seat, [0, 0])
            entry[0] += 1
            entry[1] += by in STAND_IN_BY
        away = {s for s, (total, stood) in counts.items() if stood_in(total, stood)}
        # a pair is absent when the computer played both its seats
        absent = [
            pair
            for pair, seats in ((game.ns_pair, NS_SEATS), (game.ew_pair, EW_SEATS))
            if all(s in away for s in seats)
        ]
        return self._result(db, game, scores[0], scores[1], table.winner, absent, overtime)

    def _result(
        self,
        db: Connection,
        game: Any,
        ns: int,
        ew: int,
        winner: int | None,
        absent: list[int],
        overtime: bool = False,
    ) -> str:
        now = time.time()
        db.execute(
            event_games.update()
            .where(event_games.c.id == game.id)
            .values(
                finished=now,
                ns_points=ns,
                ew_points=ew,
                winner=winner,
                absent=json.dumps(absent),
                overtime=overtime or None,
            )
        )
        left = db.execute(
            sa.select(sa.func.count())
            .select_from(event_games)
            .where(
                event_games.c.event_id == game.event_id,
                event_games.c.round == game.round,
                event_games.c.finished.is_(None),
            )
        ).scalar_one()
        if left == 0:
            self._finish_round(db, game.event_id, game.round, now)
        return f"event {game.event_id} round {game.round} game {game.number}: recorded"

    def abandoned(self, closed: list[Any]) -> int:
        """Games whose table was closed unfinished: scored with both pairs absent."""
        done = 0
        with self.engine.begin() as db:
            for game in closed:
                row = db.execute(
                    sa.select(event_games).where(event_games.c.id == game).with_for_update()
                ).first()
                if row is not None and row.finished is None:
                    self._result(db, row, 0, 0, None, [row.ns_pair, row.ew_pair])
                    done += 1
        return done
