"""A review summary of every finished game, for the player page over time
(docs/web-protocol.md#players).

When a game ends, each seat a person played (not one they left to the stand-in,
web/players.py) is reviewed in the background, once, by one server of the database (the
game's ``review`` row of the outbox, web/outbox.py) as ``fivehundred analyse --review`` does
(:func:`fivehundred.analysis.review.review`: the share of calls the search player agrees
with, of discards and of cards that cost no trick, double dummy), in the analysis worker
process, one game at a time; its accuracy by phase is kept per table and seat. The
player page shows them over time (``GET /api/players/{name}``'s ``reviews``).

A review costs CPU (the search player values each call on sampled deals): the background
review is switched by ``create_app(review_games=...)`` — ``fivehundred serve
--no-review-games`` (env ``FIVEHUNDRED_REVIEW_GAMES=0``) turns it off; the test suite runs
with it off. Games with dummies or longer than the review reads are not reviewed; games
still waiting when the server stops are reviewed by the next server to look."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from fivehundred.web import store as store_module
from fivehundred.web.schema import game_reviews, metadata  # noqa: F401

log = logging.getLogger("fivehundred.web.reviews")

#: Reviews the player page shows (the latest).
SHOWN = 50


def review_summary(record_json: str, seat: int) -> dict[str, Any]:
    """In the analysis worker process: the accuracy by phase of ``seat`` over a game."""
    from fivehundred.analysis.review import review
    from fivehundred.record import replay_game

    result = review(replay_game(json.loads(record_json)), seat)
    return {
        "hands": result["hands"],
        **result["accuracy"],
        "tricks_lost": result["counts"]["tricks_lost"],
    }


class ReviewStore:
    def __init__(self, engine: sa.engine.Engine) -> None:
        self.engine = engine  # its table is made with every other (web/schema.py)

    def save(
        self, code: str, seat: int, summary: dict[str, Any], within: Connection | None = None
    ) -> None:
        given = contextlib.nullcontext(within) if within is not None else None
        with given or self.engine.begin() as db:
            db.execute(
                game_reviews.delete().where(
                    game_reviews.c.code == code, game_reviews.c.seat == seat
                )
            )
            db.execute(
                game_reviews.insert().values(
                    code=code,
                    seat=seat,
                    at=time.time(),
                    hands=summary["hands"],
                    calls=summary["calls"],
                    discards=summary["discards"],
                    cards=summary["cards"],
                    tricks_lost=summary["tricks_lost"],
                )
            )

    def of_name(self, name: str, limit: int = SHOWN) -> list[dict[str, Any]]:
        """The latest ``limit`` reviews of seats held under ``name``, oldest first."""
        T, S = store_module.tables, store_module.seats
        query = (
            sa.select(game_reviews, T.c.finished, T.c.name.label("table_name"))
            .select_from(
                game_reviews.join(T, T.c.code == game_reviews.c.code).join(
                    S, sa.and_(S.c.table_id == T.c.id, S.c.seat == game_reviews.c.seat)
                )
            )
            .where(sa.func.coalesce(S.c.name, S.c.player) == name)
            .order_by(game_reviews.c.at.desc())
            .limit(limit)
        )
        with self.engine.connect() as db:
            rows = db.execute(query).all()
        return [
            {
                "table": r.code,
                "name": r.table_name,
                "seat": r.seat,
                "finished": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(r.finished or r.at)),
                "hands": r.hands,
                "accuracy": {"calls": r.calls, "discards": r.discards, "cards": r.cards},
                "tricks_lost": r.tricks_lost,
            }
            for r in reversed(rows)
        ]


class GameReviews:
    """The reviews of one server (switched on or off); the outbox (web/outbox.py) asks for
    each finished game's, once."""

    def __init__(self, async_store: store_module.AsyncStore, enabled: bool) -> None:
        self.async_store = async_store
        self.store = ReviewStore(async_store.store.engine)
        self.enabled = enabled
        #: ``table_of(code)``: the table (a live table, read from the database if need be)
        self.table_of: Any = None

    @staticmethod
    def seats_to_review(table: Any) -> list[int]:
        """The seats of ``table`` (a live table, its game over) a person played."""
        from fivehundred.web.learn import MAX_REVIEW_HANDS
        from fivehundred.web.players import STAND_IN_BY, stood_in

        rules = table.rules
        if rules.seats != rules.players or len(table.model.game.finished_hands) > MAX_REVIEW_HANDS:
            return []
        seats = []
        for seat, state in enumerate(table.seats):
            moves = [by for s, _, by in table.log if s == seat]
            if state.kind == "person" and not stood_in(
                len(moves), sum(1 for by in moves if by in STAND_IN_BY)
            ):
                seats.append(seat)
        return seats

    async def review(self, code: str) -> Callable[[Connection], None] | None:
        """Review the game of ``code`` (in the analysis process, a seat at a time): a
        function that saves the summaries in a transaction, or None (nothing to review)."""
        from fivehundred.web import history

        table = await self.table_of(code)
        if table is None or not table.model.is_over:
            return None
        seats = self.seats_to_review(table)
        if not seats:
            return None
        record_json = json.dumps(table.record())
        loop = asyncio.get_running_loop()
        summaries = {}
        for seat in seats:
            summaries[seat] = await loop.run_in_executor(
                history.analysis_pool(), review_summary, record_json, seat
            )
            log.info("table %s seat %d reviewed: %s", code, seat, summaries[seat])

        def save(db: Connection) -> None:
            for seat, summary in summaries.items():
                self.store.save(code, seat, summary, db)

        return save

    async def of_name(self, name: str) -> list[dict[str, Any]]:
        return list(await self.async_store.call(self.store.of_name, name))
