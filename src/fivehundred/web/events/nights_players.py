"""Club nights of single players (synchronous: the store's thread): an **individual**
(partners rotating, :mod:`.individual`: every round's tables written at the start) or a
**progressive** (:mod:`.progressive`: round 1's tables written at the start, each later
round's when the round before has ended at every table, in the transaction that records
its last board: each table's winners up, losers down, every pair split).

Each player enters alone: a ``night_pairs`` row with ``first_id`` only, ``number`` in the
order they entered; computers (rows with no account) fill the field to a multiple of four
at the start. A game's four players are its ``seats`` (JSON, South, West, North, East);
every table of a round plays the round's board set. Standings are per player: each
board's matchpoints are worked out for each partnership at each table against the
partnerships in its direction (:func:`fivehundred.boards.board_scores`), and both its
players get them; a progressive's standings also count the rounds each player won.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from fastapi import HTTPException
from sqlalchemy.engine import Connection

from fivehundred.boards import BoardResult, BoardScores, Par, board_scores, ranked
from fivehundred.web.events import individual as ind
from fivehundred.web.events import nights_words as w
from fivehundred.web.events import progressive as pro
from fivehundred.web.events.nights_store import NightStore, night_board
from fivehundred.web.schema import night_games, night_pairs, nights

#: the movements of single players
MOVEMENTS = ("individual", "progressive")
#: the fewest people a night of single players starts with
FEWEST = 4


def of_players(night: Any) -> bool:
    return night.movement in MOVEMENTS


def player_name(row: Any) -> str:
    return (
        str(row.first) if row.first_id is not None else w.COMPUTER_PLAYER.format(n=row.number + 1)
    )


def enter(store: NightStore, night_id: int, account_id: int) -> int:
    """The account enters a night of single players; its number."""
    with store.engine.begin() as db:
        night = store.night_row(db, night_id, lock=True)
        if night.state != "registering":
            raise HTTPException(409, w.NOT_REGISTERING)
        if not of_players(night):
            raise HTTPException(409, w.ENTER_AS_PAIR)
        if store.role(db, night.club_id, account_id) is None:
            raise HTTPException(403, w.NOT_MEMBER_ALONE)
        rows = store.pairs_of(db, night_id)
        if len(rows) >= ind.MAX_PLAYERS:
            raise HTTPException(409, w.FULL)
        if any(row.first_id == account_id for row in rows):
            raise HTTPException(409, w.ALREADY_ENTERED)
        db.execute(
            night_pairs.insert().values(night_id=night_id, number=len(rows), first_id=account_id)
        )
        return len(rows)


def start(db: Connection, store: NightStore, night: Any) -> None:
    """Seat a night of single players (in :meth:`NightStore.start`'s transaction, the night
    locked and registering): computers fill the field, the individual's every round or the
    progressive's first is written."""
    entered = len(store.pairs_of(db, night.id))
    if entered < FEWEST:
        raise HTTPException(409, w.TOO_FEW_PLAYERS.format(count=FEWEST))
    players = ind.filled(entered)
    for number in range(entered, players):
        db.execute(night_pairs.insert().values(night_id=night.id, number=number))
    if night.movement == "individual":
        movement = ind.individual(players, night.rounds)
        rows = [
            row
            for r, round_ in enumerate(movement.rounds)
            for row in game_rows(night, r + 1, [t.seats for t in round_])
        ]
    else:
        rows = game_rows(night, 1, pro.first_round(players))
    db.execute(night_games.insert(), rows)
    db.execute(nights.update().where(nights.c.id == night.id).values(state="running"))


def game_rows(night: Any, round_no: int, tables: Sequence[pro.Seats]) -> list[dict[str, Any]]:
    """The games of round ``round_no`` (1 on): every table plays the round's board set."""
    return [
        {
            "night_id": night.id,
            "round": round_no,
            "table_no": t + 1,
            "seq": k + 1,
            "board": (round_no - 1) * night.per_round + k + 1,
            "ns_pair": seats[0],
            "ew_pair": seats[1],
            "seats": json.dumps(list(seats)),
        }
        for t, seats in enumerate(tables)
        for k in range(night.per_round)
    ]


def seats_of(game: Any) -> pro.Seats:
    a, b, c, d = json.loads(game.seats)
    return int(a), int(b), int(c), int(d)


def _net(night: Any, game: Any) -> int:
    """North-South's points less East-West's on a finished game."""
    from fivehundred.record import replay_hand

    state = replay_hand(json.loads(game.result)["hand"])
    board = night_board(night.preset, night.seed, game.board)
    return BoardResult.from_state(board, "", state, 0).net


def round_winners(night: Any, games: Sequence[Any]) -> tuple[list[pro.Seats], list[int]]:
    """A finished round's tables (by number) and each one's winning side."""
    by_table: dict[int, list[Any]] = {}
    for game in sorted(games, key=lambda g: (g.table_no, g.seq)):
        by_table.setdefault(game.table_no, []).append(game)
    tables = [seats_of(played[0]) for _, played in sorted(by_table.items())]
    winners = [
        pro.table_winner([_net(night, g) for g in played]) for _, played in sorted(by_table.items())
    ]
    return tables, winners


def advance(db: Connection, night_id: int, round_no: int) -> bool:
    """After a board of a progressive is recorded (in the outbox's transaction, the night's
    row locked): when it ended round ``round_no`` at every table and a round is left, the
    next round's tables; whether they were written."""
    night = db.execute(sa.select(nights).where(nights.c.id == night_id)).one()
    if night.movement != "progressive" or round_no >= night.rounds:
        return False
    games = db.execute(
        sa.select(night_games).where(
            night_games.c.night_id == night_id, night_games.c.round == round_no
        )
    ).all()
    if any(g.finished is None for g in games):
        return False
    written = db.execute(
        sa.select(sa.func.count())
        .select_from(night_games)
        .where(night_games.c.night_id == night_id, night_games.c.round == round_no + 1)
    ).scalar_one()
    if written:
        return False
    tables, winners = round_winners(night, games)
    db.execute(
        night_games.insert(), game_rows(night, round_no + 1, pro.next_round(tables, winners))
    )
    return True


# ------------------------------------------------------------------ results and standings
@dataclass
class Played:
    """A night of single players' results: each board's (one for each partnership at each
    table, the partnership named ``A & B``), the players of each partnership, the boards on
    which the computer stood in for each player, each player's rounds won (a progressive)."""

    boards: dict[int, list[BoardResult]] = field(default_factory=dict)
    members: dict[str, tuple[str, str]] = field(default_factory=dict)
    replaced: dict[str, int] = field(default_factory=dict)
    won: dict[str, int] = field(default_factory=dict)
    #: the round each board was played in
    round_of: dict[int, int] = field(default_factory=dict)


def results(store: NightStore, db: Connection, night: Any) -> Played:
    from fivehundred.record import replay_hand

    names = {row.number: player_name(row) for row in store.pairs_of(db, night.id)}
    out = Played(won={name: 0 for name in names.values()})
    games = db.execute(
        sa.select(night_games)
        .where(night_games.c.night_id == night.id, night_games.c.finished.is_not(None))
        .order_by(night_games.c.id)
    ).all()
    for game in games:
        board = night_board(night.preset, night.seed, game.board)
        played = json.loads(game.result)
        state = replay_hand(played["hand"])
        seats = seats_of(game)
        out.round_of[game.board] = game.round
        for side in (pro.NS, pro.EW):
            pair = tuple(names[p] for p in pro.pairs_of(seats, side))
            label = f"{pair[0]} & {pair[1]}"
            out.members[label] = (pair[0], pair[1])
            out.boards.setdefault(game.board, []).append(
                BoardResult.from_state(board, label, state, side)
            )
        for seat in played["away"]:
            out.replaced[names[seats[seat]]] = out.replaced.get(names[seats[seat]], 0) + 1
    if night.movement == "progressive":
        by_round: dict[int, list[Any]] = {}
        for game in games:
            by_round.setdefault(game.round, []).append(game)
        for round_games in by_round.values():
            if len({g.table_no for g in round_games}) * night.per_round != len(round_games):
                continue  # not ended at every table
            for seats, side in zip(*round_winners(night, round_games), strict=True):
                for p in pro.pairs_of(seats, side):
                    out.won[names[p]] += 1
    return out


def standings(
    played: Played, pars: dict[int, Par], progressive: bool, round_count: int
) -> list[dict[str, Any]]:
    """Each player's place: the mean of their boards' matchpoint percentages (each
    partnership's, given to both its players; a night of single players is scored by
    matchpoints), their points against par, the boards the computer stood in for them,
    their percentage in each round 1 … ``round_count`` (None for a round not played), and
    in a progressive the rounds they won (``rounds_won``): the lines of a night of pairs'
    standings (:func:`.nights_scoring.night_standings`), a player's name as ``pair``."""
    per_player: list[BoardScores] = []
    by_round: dict[tuple[str, int], list[float]] = {}
    for number in sorted(played.boards):
        scores = board_scores(played.boards[number], pars.get(number))
        per_player.append(
            [
                (player, percent, against)
                for label, percent, against in scores
                for player in played.members[label]
            ]
        )
        for player, percent, _ in per_player[-1]:
            by_round.setdefault((player, played.round_of[number]), []).append(percent)
    rows = []
    for s in ranked(per_player):
        percent = round(s.percent, 1)
        rounds = [by_round.get((s.entrant, r)) for r in range(1, round_count + 1)]
        row = {
            "place": s.place,
            "pair": s.entrant,
            "boards": s.boards,
            "score": percent,
            "percent": percent,
            "computer": played.replaced.get(s.entrant, 0),
            "against_par": s.against_par,
            "rounds": [None if r is None else round(sum(r) / len(r), 1) for r in rounds],
        }
        if progressive:
            row["rounds_won"] = played.won.get(s.entrant, 0)
        rows.append(row)
    return rows


# ------------------------------------------------------------------ the night's page
def view(
    shown: dict[str, Any], pairs: Sequence[Any], games: Sequence[Any], account_id: int | None
) -> None:
    """What a night of single players shows over a night of pairs': its players (no
    pairs), the asker's table, and while it is played each player's next table and seat."""
    names = {row.number: player_name(row) for row in pairs}
    shown["pairs"] = []
    present = {row.number for row in pairs if row.present is not None}
    shown["players"] = [
        {"number": n + 1, "name": name, "present": n in present}
        for n, name in sorted(names.items())
    ]
    mine = {row.number for row in pairs if account_id is not None and row.first_id == account_id}
    playing = sorted(
        (g.round, g.table_no, g.seq, g.code)
        for g in games
        if g.code and g.finished is None and set(seats_of(g)) & mine
    )
    shown["my_table"] = f"/t/{playing[0][3]}" if playing else None
    if shown["movement"] == "progressive" and shown["state"] != "registering":
        # its later rounds' games are written as it goes: the night's boards in all
        shown["games"] = shown["rounds"] * len(names) // 4 * shown["per_round"]
    running = shown["state"] == "running"
    shown["seating"] = seating(games, names, shown["rounds"]) if running else []
    mine_named = {names[n] for n in mine}
    shown["my_seat"] = next((s for s in shown["seating"] if s["player"] in mine_named), None)


def seating(games: Sequence[Any], names: dict[int, str], rounds: int) -> list[dict[str, Any]]:
    """Each player's next table and seat: the table they play the round in play at (the
    first round some table has still to end); a player whose table has ended it, the next
    round's (an individual's is known from the start; a progressive's when every table has
    ended the round: until then ``table`` and ``seat`` are None); none after the last."""
    unfinished: dict[int, set[int]] = {}  # round: the tables still playing it
    seats: dict[tuple[int, int], pro.Seats] = {}  # (round, table): its players
    for game in games:
        seats[(game.round, game.table_no)] = seats_of(game)
        if game.finished is None:
            unfinished.setdefault(game.round, set()).add(game.table_no)
    if not unfinished:
        return []
    now = min(unfinished)
    where: dict[int, tuple[int, int | None, int | None]] = {}
    for (round_no, table), players in sorted(seats.items()):
        for seat, player in enumerate(players):
            if round_no == now and table in unfinished[now]:
                where[player] = (now, table, seat)
            elif round_no == now + 1 and player not in where:
                where[player] = (now + 1, table, seat)
    for (round_no, _), players in seats.items():
        for player in players:
            if round_no == now and now < rounds:
                where.setdefault(player, (now + 1, None, None))
    return [
        {
            "player": names[p],
            "round": round_no,
            "table": table,
            "seat": None if seat is None else w.SEAT_LABELS[seat],
        }
        for p, (round_no, table, seat) in sorted(where.items())
        if p in names
    ]
