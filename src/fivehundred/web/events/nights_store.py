"""Club nights' queries (synchronous: run in the store's thread). Each refusal raises
:class:`HTTPException` with its answer.

A night starts once whichever servers try (:meth:`NightStore.start`: the night's row
locked, its state checked and every game of every round written in one transaction). A
game (one board at one table) is *ready* when every game of the rounds before it and the
boards before it at its table are finished; its table is made by the server that leases it
(:meth:`NightStore.claim_games`), dealt from the board's seed, so every table of a board
gets the same cards. A game's result is written by the outbox's ``night`` work
(:meth:`NightStore.record`), in the transaction that deletes its row: once.

A board is the first hand of a game dealt from its seed (:func:`night_board`): the seed
is derived from the night's secret seed and the board's number, so the hub deals it as it
deals every table, and :class:`~fivehundred.boards.Board` holds the same cards for the
scoring (matchpoints, travellers, standings of :mod:`fivehundred.boards`).
"""

from __future__ import annotations

import contextlib
import json
import secrets
import time
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from fastapi import HTTPException
from sqlalchemy.engine import Connection, Engine

from fivehundred.boards import Board, BoardResult, Par
from fivehundred.web import seals
from fivehundred.web.events import movement as mv
from fivehundred.web.events import nights_words as w
from fivehundred.web.events.nights_scoring import DEFAULT_SCORING
from fivehundred.web.players import STAND_IN_BY, stood_in
from fivehundred.web.schema import (
    accounts,
    actions,
    club_members,
    clubs,
    night_games,
    night_pairs,
    night_pars,
    nights,
    par_claims,
    tables,
)
from fivehundred.words import DEFAULT_LEVEL

#: seconds a server holds a game whose table it is making
LEASE = 60.0
#: a night's games: one hand each (the first side to 10 points wins it)
VARIANTS: dict[str, Any] = {"win_1904": True, "target": 10}
#: the seats of the two pairs: North-South (South, North), East-West (West, East)
NS_SEATS, EW_SEATS = (0, 2), (1, 3)
#: unfinished nights one club may have
NIGHTS_OPEN = 20
#: seconds a server's claim of a night's par holds (web/par_work.py: a par takes a few
#: seconds, 7.35 s the longest measured); past it, a server whose starter died takes the
#: board over (a slower par is at worst worked out twice, written once)
PAR_LEASE = 30.0


def board_seed(night_seed: int, number: int) -> int:
    """The seed of board ``number``'s table: the dealer turns round from South."""
    from fivehundred.game import dealer_of_seed
    from fivehundred.table import derived_seed

    tries = 0
    while True:
        seed = derived_seed(night_seed, number, tries)
        if dealer_of_seed(seed, 4) == (number - 1) % 4:
            return seed
        tries += 1


def night_board(preset: str, night_seed: int, number: int) -> Board:
    """Board ``number`` of a night: the first hand the hub deals from its seed."""
    from fivehundred.game import GameState
    from fivehundred.rules import make_rules

    hand = GameState(make_rules(preset, VARIANTS), board_seed(night_seed, number)).hand
    return Board(number, preset, hand.dealer, tuple(hand.dealt), hand.kitty_dealt)


def pair_name(pair: Any) -> str:
    if pair.first is None:
        return f"{pair.number + 1}. {w.COMPUTER_PAIR}"
    return f"{pair.number + 1}. {pair.first} & {pair.second}"[:80]


def night_level(night: Any) -> str:
    """The computer level of a night's row (a night made before the choice: the default)."""
    return str(night.level or DEFAULT_LEVEL)


def night_scoring(night: Any) -> str:
    """The scoring of a night's row (a night made before the choice: matchpoints)."""
    return str(night.scoring or DEFAULT_SCORING)


def night_seal(night_id: int) -> str:
    """The seal of a night's tables (web/seals.py), lifted when the night ends."""
    return f"night:{night_id}"


class NightStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -------------------------------------------------------------- reading
    def night_row(self, db: Connection, night_id: int, lock: bool = False) -> Any:
        query = sa.select(nights).where(nights.c.id == night_id)
        row = db.execute(query.with_for_update() if lock else query).first()
        if row is None:
            raise HTTPException(404, w.NO_SUCH_NIGHT)
        return row

    def pairs_of(self, db: Connection, night_id: int) -> list[Any]:
        first, second = accounts.alias("first"), accounts.alias("second")
        query = (
            sa.select(night_pairs, first.c.name.label("first"), second.c.name.label("second"))
            .select_from(
                night_pairs.outerjoin(first, first.c.id == night_pairs.c.first_id).outerjoin(
                    second, second.c.id == night_pairs.c.second_id
                )
            )
            .where(night_pairs.c.night_id == night_id)
            .order_by(night_pairs.c.number)
        )
        return list(db.execute(query).all())

    def role(self, db: Connection, club_id: int, account_id: int) -> str | None:
        role = db.execute(
            sa.select(club_members.c.role).where(
                club_members.c.club_id == club_id, club_members.c.account_id == account_id
            )
        ).scalar()
        return None if role is None else str(role)

    # -------------------------------------------------------------- making and entering
    def create(self, organiser_id: int, slug: str, facts: dict[str, Any]) -> int:
        """A new night of the club ``slug`` (its owner or an admin); its id."""
        with self.engine.begin() as db:
            club_id = db.execute(sa.select(clubs.c.id).where(clubs.c.slug == slug.lower())).scalar()
            if club_id is None:
                raise HTTPException(404, w.NO_SUCH_CLUB)
            if self.role(db, club_id, organiser_id) not in ("owner", "admin"):
                raise HTTPException(403, w.NOT_CLUB_ADMIN)
            open_ = db.execute(
                sa.select(sa.func.count())
                .select_from(nights)
                .where(nights.c.club_id == club_id, nights.c.state != "finished")
            ).scalar_one()
            if open_ >= NIGHTS_OPEN:
                raise HTTPException(409, w.TOO_MANY.format(count=NIGHTS_OPEN))
            values = {**facts, "club_id": club_id, "organiser_id": organiser_id}
            values.update(seed=secrets.randbits(62), state="registering", created=time.time())
            made = db.execute(nights.insert().values(**values)).inserted_primary_key
            assert made is not None
            return int(made[0])

    def register(self, night_id: int, account_id: int, partner: str) -> int:
        """The account and the member named ``partner`` enter as a pair; its number."""
        with self.engine.begin() as db:
            night = self.night_row(db, night_id, lock=True)
            if night.state != "registering":
                raise HTTPException(409, w.NOT_REGISTERING)
            if night.movement is not None:  # a night of single players (nights_players.py)
                raise HTTPException(409, w.ENTER_ALONE)
            other = db.execute(
                sa.select(accounts.c.id, accounts.c.name).where(
                    sa.func.lower(accounts.c.name) == partner.strip().lower()
                )
            ).first()
            if other is None:
                raise HTTPException(404, w.NO_SUCH_PARTNER.format(name=partner.strip()[:60]))
            if other.id == account_id:
                raise HTTPException(422, w.OWN_PARTNER)
            for who in (account_id, other.id):
                if self.role(db, night.club_id, who) is None:
                    raise HTTPException(403, w.NOT_MEMBER)
            pairs = self.pairs_of(db, night_id)
            if len(pairs) >= mv.MAX_PAIRS - 1:
                raise HTTPException(409, w.FULL)
            entered = {p.first_id for p in pairs} | {p.second_id for p in pairs}
            if account_id in entered or other.id in entered:
                raise HTTPException(409, w.ALREADY_IN)
            number = len(pairs)
            db.execute(
                night_pairs.insert().values(
                    night_id=night_id, number=number, first_id=account_id, second_id=other.id
                )
            )
            return number

    def may_start(self, night_id: int, account_id: int) -> None:
        with self.engine.connect() as db:
            night = self.night_row(db, night_id)
            if self.role(db, night.club_id, account_id) not in ("owner", "admin"):
                raise HTTPException(403, w.NOT_CLUB_ADMIN)

    def start(self, night_id: int) -> bool:
        """Seat the pairs by the movement and write every game; whether this call did (a
        second call, another server's, finds it started)."""
        with self.engine.begin() as db:
            night = self.night_row(db, night_id, lock=True)
            if night.state != "registering":
                return False
            from fivehundred.web.events.nights_checkin import withdraw_absent

            withdraw_absent(db, night)  # a night that asks for check-in: those present
            if night.movement is not None:  # a night of single players
                from fivehundred.web.events import nights_players

                nights_players.start(db, self, night)
                return True
            pairs = self.pairs_of(db, night_id)
            if len(pairs) < 2:
                raise HTTPException(409, w.TOO_FEW)
            if len(pairs) % 2:  # a computer pair makes the field even
                db.execute(night_pairs.insert().values(night_id=night_id, number=len(pairs)))
            count = len(pairs) + len(pairs) % 2
            rounds = min(night.rounds, mv.most_rounds(count))
            movement = mv.movement(count, rounds)
            rows = [
                {
                    "night_id": night_id,
                    "round": r + 1,
                    "table_no": seat.table + 1,
                    "seq": k + 1,
                    "board": seat.board_set * night.per_round + k + 1,
                    "ns_pair": seat.ns,
                    "ew_pair": seat.ew,
                }
                for r, round_ in enumerate(movement.rounds)
                for seat in round_
                for k in range(night.per_round)
            ]
            db.execute(night_games.insert(), rows)
            db.execute(
                nights.update()
                .where(nights.c.id == night_id)
                .values(state="running", rounds=rounds, movement=movement.kind)
            )
            return True

    def due(self, now: float) -> list[int]:
        """The nights whose start time has come."""
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(nights.c.id).where(
                    nights.c.state == "registering",
                    nights.c.starts_at.is_not(None),
                    nights.c.starts_at <= now,
                )
            ).all()
        return [row.id for row in rows]

    # -------------------------------------------------------------- tables
    def claim_games(self, now: float, limit: int = 50) -> list[dict[str, Any]]:
        """Ready games whose table nobody has made (or whose maker's lease ran out), each
        leased to this caller: the facts to make its table."""
        claimed = []
        earlier = night_games.alias("earlier")
        waiting = sa.exists().where(  # a game before it (its table's, or a round's) unfinished
            earlier.c.night_id == night_games.c.night_id,
            earlier.c.finished.is_(None),
            sa.or_(
                earlier.c.round < night_games.c.round,
                (earlier.c.round == night_games.c.round)
                & (earlier.c.table_no == night_games.c.table_no)
                & (earlier.c.seq < night_games.c.seq),
            ),
        )
        with self.engine.begin() as db:
            rows = db.execute(
                sa.select(night_games, nights.c.name, nights.c.preset, nights.c.grace)
                .add_columns(nights.c.level)
                .add_columns(nights.c.seed.label("night_seed"))
                .select_from(night_games.join(nights, nights.c.id == night_games.c.night_id))
                .where(
                    nights.c.state == "running",
                    night_games.c.code.is_(None),
                    sa.or_(night_games.c.lease_until.is_(None), night_games.c.lease_until < now),
                    ~waiting,
                )
                .order_by(night_games.c.round, night_games.c.seq, night_games.c.id)
                .limit(limit)
                .with_for_update(skip_locked=True, of=night_games)
            ).all()
            for row in rows:
                db.execute(
                    night_games.update()
                    .where(night_games.c.id == row.id)
                    .values(lease_until=now + LEASE)
                )
                claimed.append(self._table_facts(db, row, now + LEASE))
        return claimed

    def _table_facts(self, db: Connection, row: Any, until: float) -> dict[str, Any]:
        pairs = {p.number: p for p in self.pairs_of(db, row.night_id)}
        seats: list[tuple[int, str]] = [(0, "")] * 4
        for number, (a, b) in ((row.ns_pair, NS_SEATS), (row.ew_pair, EW_SEATS)):
            pair = pairs[number]
            seats[a] = (pair.first_id or 0, pair.first or "")
            seats[b] = (pair.second_id or 0, pair.second or "")
        if row.seats is not None:  # a night of single players: its four, one a seat
            seats = [(pairs[n].first_id or 0, pairs[n].first or "") for n in json.loads(row.seats)]
        return {
            "game": row.id,
            "until": until,
            "night": row.night_id,
            "name": f"{row.name} · {row.round}.{row.table_no} ({row.board})"[:60],
            "preset": row.preset,
            "grace": row.grace,
            "level": night_level(row),
            "seed": board_seed(row.night_seed, row.board),
            "seats": seats,
        }

    def set_code(self, game_id: int, until: float, code: str) -> bool:
        """The game's table is ``code`` (False: the lease ran out and another has it)."""
        with self.engine.begin() as db:
            done = db.execute(
                night_games.update()
                .where(
                    night_games.c.id == game_id,
                    night_games.c.code.is_(None),
                    night_games.c.lease_until == until,
                )
                .values(code=code)
            )
            return done.rowcount == 1

    # -------------------------------------------------------------- results
    def record(self, code: str, db: Connection) -> str:
        """The board's result at the finished table ``code`` if it is a night's game, in
        the outbox's transaction (web/outbox.py); what was done."""
        from fivehundred.record import hand_record
        from fivehundred.rules import rules_from_dict
        from fivehundred.web.live import replay_log

        game = db.execute(
            sa.select(night_games).where(night_games.c.code == code).with_for_update()
        ).first()
        if game is None:
            return "not a night's game"
        if game.finished is not None:
            return "already recorded"
        table = db.execute(sa.select(tables).where(tables.c.code == code)).first()
        if table is None or table.finished is None:
            return "not finished"
        log = db.execute(
            sa.select(actions.c.seat, actions.c.action, actions.c.by)
            .where(actions.c.table_id == table.id)
            .order_by(actions.c.version)
        ).all()
        rules = rules_from_dict(json.loads(table.rules))
        model = replay_log(rules, ["human"] * 4, table.seed, [(s, a, "") for s, a, _ in log])
        hand = model.game.finished_hands[0]  # the board (a passed-in hand is its result)
        moves = log[: len(hand.history)]
        away = [  # the seats whose person was replaced by the computer on this board
            seat
            for seat in range(4)
            if stood_in(
                sum(m.seat == seat for m in moves),
                sum(m.seat == seat and m.by in STAND_IN_BY for m in moves),
            )
        ]
        result = {"hand": hand_record(hand), "away": away}
        now = time.time()
        db.execute(
            night_games.update()
            .where(night_games.c.id == game.id)
            .values(finished=now, result=json.dumps(result))
        )
        # the night's row locked: the last boards of a round, or of the night, recorded at
        # once by two servers are counted one after the other (so one sees the end)
        self.night_row(db, game.night_id, lock=True)
        if game.seats is not None:  # a progressive's next round, when this one has ended
            from fivehundred.web.events import nights_players

            nights_players.advance(db, game.night_id, game.round)
        left = db.execute(
            sa.select(sa.func.count())
            .select_from(night_games)
            .where(night_games.c.night_id == game.night_id, night_games.c.finished.is_(None))
        ).scalar_one()
        if left == 0:
            db.execute(nights.update().where(nights.c.id == game.night_id).values(state="finished"))
            seals.lift(db, night_seal(game.night_id), now)  # its boards may be shown now
        return f"night {game.night_id} round {game.round} table {game.table_no}: board {game.board}"

    def results(
        self, db: Connection, night: Any
    ) -> tuple[dict[int, list[BoardResult]], dict[str, int], dict[tuple[int, str], int]]:
        """Every board's results (each game twice, once for each pair in its direction),
        for each pair the boards on which the computer played a seat of its, and the round
        each pair played each board in (by board and pair)."""
        from fivehundred.record import replay_hand

        names = {p.number: pair_name(p) for p in self.pairs_of(db, night.id)}
        out: dict[int, list[BoardResult]] = {}
        replaced: dict[str, int] = {}
        rounds: dict[tuple[int, str], int] = {}
        rows = db.execute(
            sa.select(night_games)
            .where(night_games.c.night_id == night.id, night_games.c.finished.is_not(None))
            .order_by(night_games.c.id)
        ).all()
        for game in rows:
            board = night_board(night.preset, night.seed, game.board)
            played = json.loads(game.result)
            state = replay_hand(played["hand"])
            for pair, seat in ((game.ns_pair, 0), (game.ew_pair, 1)):
                result = BoardResult.from_state(board, names[pair], state, seat)
                out.setdefault(game.board, []).append(result)
                rounds[game.board, names[pair]] = game.round
                if {seat, seat + 2} & set(played["away"]):
                    replaced[names[pair]] = replaced.get(names[pair], 0) + 1
        return out, replaced, rounds

    # -------------------------------------------------------------- pars
    def work_out_pars(self, night_id: int, par_of: Callable[[Board], Par] | None = None) -> int:
        """The par of every board of the night not yet known, each worked out once among
        the servers (claimed, then written as it is worked out: a daemon thread runs this;
        the solving is done in the server's one process of pars at a lower priority, as
        the daily's, :mod:`fivehundred.web.par_work`, so that play is not slowed); how many
        were found (worked out here or read from another server)."""
        from fivehundred.web import par_work

        with self.engine.connect() as db:
            night = self.night_row(db, night_id)
            boards = db.execute(
                sa.select(sa.func.max(night_games.c.board)).where(
                    night_games.c.night_id == night_id
                )
            ).scalar()
            known = set(self.pars(db, night_id))

        def job(number: int) -> par_work.ParJob:
            def read() -> Par | None:
                with self.engine.connect() as db:
                    return self.pars(db, night_id).get(number)

            def write(par: Par) -> None:
                values = {"night_id": night_id, "board": number, "par": json.dumps(par.to_dict())}
                with contextlib.suppress(sa.exc.IntegrityError), self.engine.begin() as db:
                    db.execute(night_pars.insert().values(**values))

            board = night_board(night.preset, night.seed, number)
            return par_work.ParJob(f"night/{night_id}/{number}", board, read, write)

        done: list[int] = []
        jobs = [job(n) for n in range(1, (boards or 0) + 1) if n not in known]
        par_work.solve_all(
            self.engine,
            jobs,
            lambda j, par: done.append(1),
            par_of=par_of or par_work.solve,
            lease=PAR_LEASE,
        )
        return len(done)

    def without_pars(self, since: float, now: float, limit: int = 20) -> list[int]:
        """Nights started since ``since`` with a board whose par is unknown and nobody
        working on it (no claim of the night's within its lease): their starter died."""
        boards = (
            sa.select(sa.func.count(sa.distinct(night_games.c.board)))
            .where(night_games.c.night_id == nights.c.id)
            .scalar_subquery()
        )
        known = (
            sa.select(sa.func.count())
            .select_from(night_pars)
            .where(night_pars.c.night_id == nights.c.id)
            .scalar_subquery()
        )
        prefix = sa.literal("night/") + sa.cast(nights.c.id, sa.String) + sa.literal("/%")
        working = sa.exists().where(par_claims.c.key.like(prefix), par_claims.c.until >= now)
        with self.engine.connect() as db:
            rows = db.execute(
                sa.select(nights.c.id)
                .where(
                    nights.c.state.in_(("running", "finished")),
                    nights.c.created >= since,
                    known < boards,
                    ~working,
                )
                .order_by(nights.c.id.desc())
                .limit(limit)
            ).all()
        return [row.id for row in rows]

    def pars(self, db: Connection, night_id: int) -> dict[int, Par]:
        rows = db.execute(
            sa.select(night_pars.c.board, night_pars.c.par).where(night_pars.c.night_id == night_id)
        ).all()
        return {row.board: Par.from_dict(json.loads(row.par)) for row in rows}
