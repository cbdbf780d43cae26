"""A review summary of every finished game, for the player page over time
(docs/web-protocol.md#players).

When a game ends, each seat a person played (not one they left to the stand-in,
web/players.py) is reviewed in the background as ``fivehundred analyse --review`` does
(:func:`fivehundred.learn.review.review`: the share of calls the search player agrees
with, of discards and of cards that cost no trick, double dummy), in the analysis worker
process, one game at a time; its accuracy by phase is kept per table and seat. The
player page shows them over time (``GET /api/players/{name}``'s ``reviews``).

A review costs CPU (the search player values each call on sampled deals): the background
review is switched by ``create_app(review_games=...)`` — ``fivehundred serve
--no-review-games`` (env ``FIVEHUNDRED_REVIEW_GAMES=0``) turns it off; the test suite runs
with it off. Games waiting beyond :data:`MAX_QUEUED` are not reviewed, nor those with
dummies or longer than the review reads; games still waiting when the server stops are
not reviewed."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import deque
from typing import Any

import sqlalchemy as sa

from fivehundred.web import store as store_module
from fivehundred.web.schema import game_reviews, metadata  # noqa: F401

log = logging.getLogger("fivehundred.web.reviews")

#: Finished games waiting for their review; beyond, a game is not reviewed.
MAX_QUEUED = 200
#: Reviews the player page shows (the latest).
SHOWN = 50


def review_summary(record_json: str, seat: int) -> dict[str, Any]:
    """In the analysis worker process: the accuracy by phase of ``seat`` over a game."""
    from fivehundred.learn.review import review
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

    def save(self, code: str, seat: int, summary: dict[str, Any]) -> None:
        with self.engine.begin() as db:
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
    """The background reviews of one server (switched on or off)."""

    def __init__(self, async_store: store_module.AsyncStore, enabled: bool) -> None:
        self.async_store = async_store
        self.store = ReviewStore(async_store.store.engine)
        self.enabled = enabled
        self.queue: deque[tuple[str, str, list[int]]] = deque()
        self._task: asyncio.Task[None] | None = None

    def game_over(self, table: Any) -> None:
        """``table`` (a live table) has just finished: queue its people's seats."""
        if not self.enabled:
            return
        from fivehundred.web.learn import MAX_REVIEW_HANDS
        from fivehundred.web.players import STAND_IN_BY, stood_in

        rules = table.rules
        if rules.seats != rules.players or len(table.model.game.finished_hands) > MAX_REVIEW_HANDS:
            return
        seats = []
        for seat, state in enumerate(table.seats):
            moves = [by for s, _, by in table.log if s == seat]
            if state.kind == "person" and not stood_in(
                len(moves), sum(1 for by in moves if by in STAND_IN_BY)
            ):
                seats.append(seat)
        if not seats:
            return
        if len(self.queue) >= MAX_QUEUED:
            log.warning("table %s is not reviewed: %d games wait already", table.code, MAX_QUEUED)
            return
        self.queue.append((table.code, json.dumps(table.record()), seats))
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._work())

    async def _work(self) -> None:
        from fivehundred.web import history

        loop = asyncio.get_running_loop()
        while self.queue:
            code, record_json, seats = self.queue.popleft()
            for seat in seats:
                try:
                    summary = await loop.run_in_executor(
                        history._pool(), review_summary, record_json, seat
                    )
                    await self.async_store.call(self.store.save, code, seat, summary)
                    log.info("table %s seat %d reviewed: %s", code, seat, summary)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("table %s seat %d: the review failed", code, seat)

    async def of_name(self, name: str) -> list[dict[str, Any]]:
        return list(await self.async_store.call(self.store.of_name, name))

    def stop(self) -> None:
        self.queue.clear()
        if self._task is not None:
            self._task.cancel()
            self._task = None
