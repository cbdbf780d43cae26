"""The hub: every table of a server, made, rematched, closed, and let go when idle."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Sequence
from typing import Any

from fivehundred.game import dealer_of_seed
from fivehundred.rules import Rules
from fivehundred.web.deadlines import OPEN_SEAT, dormant
from fivehundred.web.live import base
from fivehundred.web.live.base import COMPUTER, OPEN, PERSON, Refusal, new_code
from fivehundred.web.live.news import ClusterHub
from fivehundred.web.live.table import LiveTable
from fivehundred.web.store import (
    RematchMade,
    SeatRow,
    TableRow,
)

log = logging.getLogger("fivehundred.web")


class Hub(ClusterHub):
    """Every table the server knows: the unfinished ones that need memory are in it and
    playing (the others, dormant, are read when asked for: :meth:`get`). Tables are made
    here (:meth:`create`, :meth:`rematch`) and closed when their expiry fires
    (:meth:`close_table`: nobody connected for a while, a row of the deadlines)."""

    def new_table(self, row: TableRow) -> LiveTable:
        return LiveTable(self, row)

    async def _lag_probe(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(0.05)
            self.lag.append(max(0.0, loop.time() - start - 0.05))

    async def start(self) -> None:
        self._probe = asyncio.get_running_loop().create_task(self._lag_probe())
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        self.decider.start()
        self.scheduler.start()
        if self.cluster is not None:  # the orphaned tables are taken (all, if alone)
            self.cluster.listeners["deadline"] = self.deadline_written
            await self.cluster.start()
            return
        # (a turn-based table waiting on an absent person's clock is read when it is asked for)
        rows = await self.store.call(self.store.store.load_unfinished, dormant(time.time()))
        for row in rows:
            try:
                table = self.new_table(row)
            except Exception as error:
                log.error("table %s cannot be resumed: %s", row.code, error)
                continue
            self.tables[row.code] = table
            table.start()
        if rows:
            log.info("resumed %d unfinished table(s)", len(self.tables))

    async def stop(self) -> None:
        for task in (self._probe, self._sweeper):
            if task is not None:
                task.cancel()
        await self.scheduler.stop()
        for table in list(self.tables.values()):
            await table.stop()
        if self.cluster is not None:  # the locks go: another server takes the tables
            await self.cluster.stop()
        for task in list(self._background):
            task.cancel()
        self.decider.close()

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_seconds)
            try:
                await self.let_go()
                if self.cluster is not None:
                    await self.store.call(self.store.store.forget_buckets)
                    # taken back by its sender after base.FORWARD_WAIT, or its table ended
                    await self.store.call(
                        self.store.store.forget_inbox, time.time() - 6 * base.FORWARD_WAIT
                    )
            except Exception:
                log.exception("the expiry of tables failed; trying again later")

    async def close_table(self, table: LiveTable, why: str) -> None:
        """Close an unfinished table: it stops playing and is not resumed; its finished
        hands stay in the history."""
        async with table.lock:
            if not table.live:
                return
            code = table.code if self.cluster is not None else None
            await self.store.call(self.store.store.close_table, table.id, code)
            table.closed = time.time()
        if table.task is not None and table.task is not asyncio.current_task():
            table.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await table.task
            table.task = None
        log.info(
            "table %s closed: %s",
            table.code,
            "nobody joined it" if why == "unjoined" else "everybody left",
        )
        if self.tables.get(table.code) is table and not (table.connections or table.spectators):
            del self.tables[table.code]
            self.remember(table)
        if self.on_expired is not None:
            self.on_expired(why)

    async def rematch(
        self, table: LiveTable, seat: int, address: str = "", device: str | None = None
    ) -> tuple[LiveTable, str]:
        """The same table again after its game is over, asked by the person at ``seat``:
        the same rules, options and computer players, the dealer moved on from the last
        hand's; only those who ask are seated (each under their name), the other people's
        seats stay open until they ask too (or someone else takes them). One rematch per
        game: the first request makes it (the database holds which table is whose rematch,
        so a request to another server, or after the finished table left this one's memory,
        finds the same); each later one seats its asker there. The first tells every
        connection here ``{"type": "rematch", "table", "url", "by"}`` (``by``: the asker's
        name); each asker's connections are sent it with their new ``token``. Returns the
        new table and the new token of ``seat`` (asked from ``address`` and ``device``:
        an account's seat there is taken from them). :class:`Refusal` if the game is not over,
        ``seat`` is not a person's, its seat at the rematch is taken, or the server is
        full."""
        if not 0 <= seat < len(table.seats) or table.seats[seat].kind != PERSON:
            raise Refusal("only the players of this table can start its rematch")
        name = table.seats[seat].name or ""
        made = False
        async with table.lock:
            if table.rematch is None:
                code = await self.store.call(self.store.store.rematch_of, table.id)
                if code is None:
                    try:
                        code = (await self._new_rematch(table)).code
                        made = True
                    except RematchMade as other:
                        code = other.code  # made meanwhile, by another server
                table.rematch = (code, {})
            code, tokens = table.rematch
            new = await self.get(code)
            if new is None:
                raise Refusal("the rematch's table is gone")
            url = f"/t/{new.code}"
            if made:
                log.info("table %s: rematch at %s", table.code, new.code)
                table.tell_rematch(new.code, seat, name)
                if self.cluster is not None:  # and the other servers' connections
                    await self.cluster.notify(
                        f"rematch:{table.code}:{self.cluster.id}:{seat}:{new.code}:{name}"
                    )
            if seat not in tokens:
                state = new.seats[seat]
                if state.kind == PERSON and state.name == name:
                    raise Refusal(f"you have joined this rematch already: it is at {url}")
                if state.kind != OPEN:
                    raise Refusal(f"your seat at the rematch ({url}) is taken")
                tokens[seat] = await new.take_seat(seat, name)
                if self.on_rematch is not None:
                    await self.on_rematch(table.code, new.code, seat, address, device)
                log.info("table %s: seat %d joined the rematch %s", table.code, seat, new.code)
                asker = table.connections.get(seat)
                if asker is not None:
                    asker.send(
                        {
                            "type": "rematch",
                            "table": new.code,
                            "url": url,
                            "by": name,
                            "token": tokens[seat],
                        }
                    )
        return new, tokens[seat]

    async def _new_rematch(self, table: LiveTable) -> LiveTable:
        """Make the rematch of ``table`` (every person's seat open). :class:`RematchMade`
        if it has one already (the database refused a second)."""
        if not table.model.is_over:
            raise Refusal("the game is not over: a rematch starts after it")
        if len(self.live_tables()) >= self.limits.max_live_tables:
            raise Refusal("the server has as many tables as it can play; try later")
        await self._may_create(table.owner or table.code)
        rules = table.rules
        last = table.model.game.finished_hands[-1].dealer
        dealer = (last + 1) % rules.players
        seed = secrets.randbits(62)
        while dealer_of_seed(seed, rules.players) != dealer:
            seed = secrets.randbits(62)
        name = None if table.name == f"Table {table.code}" else table.name
        players = [s.player if s.kind == COMPUTER and s.player else OPEN for s in table.seats]
        new = await self.create(
            rules, players, name, dict(table.options), seed, table.owner, rematch_of=table.id
        )
        new.open_grace = float(new.options["grace"])
        new.deadlines = {k: d for k, d in new.deadlines.items() if k[0] != OPEN_SEAT}
        new.wake.set()  # (its driver counts the open seats' wait again)
        return new

    async def _may_create(self, owner: str) -> None:
        """:class:`Refusal` if ``owner`` (the address that made the first table of a
        chain of rematches) may not make another table now: its unfinished tables and its
        tables a minute count rematches as any new table."""
        if await self.tables_of(owner) >= self.limits.tables_per_client:
            self.refused("rematch_tables")
            raise Refusal(
                f"this table's creator has {self.limits.tables_per_client} unfinished tables"
            )
        if self.creating is not None:
            wait = await self.take_token(self.creating, "table", owner)
            if wait > 0:
                self.refused("rematch_rate")
                raise Refusal(f"too many new tables: try again in {int(wait) + 1} s")

    async def create(
        self,
        rules: Rules,
        seat_players: Sequence[str],
        name: str | None,
        options: dict[str, Any],
        seed: int | None,
        owner: str | None = None,
        rematch_of: int | None = None,
    ) -> LiveTable:
        seat_rows = [
            SeatRow(seat, OPEN) if player == OPEN else SeatRow(seat, COMPUTER, player)
            for seat, player in enumerate(seat_players)
        ]
        table_seed = seed if seed is not None else secrets.randbits(62)
        chosen = None
        owned = self.cluster is None
        if self.cluster is not None:
            # the table's lock is taken before the table exists: no other server (nor
            # this one's look for orphaned tables) can take it over while it is made
            chosen = await self.store.call(self.store.store.next_table_id)
            owned = await self.cluster.try_lock(chosen)
        try:
            table = await self._insert(
                rules, seat_rows, name, options, table_seed, chosen, owned, owner, rematch_of
            )
        except BaseException:
            if chosen is not None and owned:
                await self.cluster.unlock(chosen)
            raise
        table.fresh = owned
        table.start()
        log.info(
            "table %s created: %s, seats %s",
            table.code,
            rules.describe(),
            ", ".join(seat_players),
        )
        return table

    async def _insert(
        self,
        rules: Rules,
        seat_rows: list[SeatRow],
        name: str | None,
        options: dict[str, Any],
        table_seed: int,
        chosen: int | None,
        owned: bool,
        owner: str | None,
        rematch_of: int | None = None,
    ) -> LiveTable:
        """Write a new table and keep it in :attr:`tables`. Under :attr:`loading`: a
        look at the lobby meanwhile (:meth:`get` of its code) finds this table rather than
        reading it a second time."""
        async with self.loading:
            for _ in range(20):
                code = new_code()
                table_id = await self.store.call(
                    self.store.store.create_table,
                    code,
                    name or f"Table {code}",
                    rules.to_dict(),
                    options,
                    table_seed,
                    seat_rows,
                    chosen,
                    owner if self.cluster is not None else None,  # the limits are shared
                    rematch_of,
                )
                if table_id is not None:
                    break
            else:
                raise RuntimeError("no free table code")
            row = TableRow(
                id=table_id,
                code=code,
                name=name or f"Table {code}",
                rules=rules.to_dict(),
                options=options,
                seed=table_seed,
                created=time.time(),
                finished=None,
                winner=None,
                scores=[],
                hands_played=0,
                seats=seat_rows,
            )
            table = self.new_table(row)
            table.owned = owned
            table.owner = owner
            self.tables[code] = table
            return table
