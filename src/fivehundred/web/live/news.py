"""The hub in a cluster: other servers' news, tables adopted and lost, shares rebalanced."""

from __future__ import annotations

import contextlib
import json
import logging
import time

from fivehundred.web.live import base
from fivehundred.web.live.base import SESSION_ENDED
from fivehundred.web.live.registry import Registry

log = logging.getLogger("fivehundred.web")


class ClusterHub(Registry):
    """The hub's part in a cluster: the other servers' news, the tables taken over or
    lost, the actions passed on and not taken, the fair share of tables."""

    def notified(self, payload: str) -> None:
        """News from the servers sharing the database (:mod:`fivehundred.web.cluster`)."""
        kind, _, rest = payload.partition(":")
        code, _, rest = rest.partition(":")
        me = self.cluster.id
        if kind == "deleted":  # deleted:ACCOUNT:SERVER
            if rest != me and self.on_account_deleted is not None:
                with contextlib.suppress(ValueError):
                    self.on_account_deleted(int(code))
            return
        table = self.tables.get(code) or self.finished.get(code)
        if table is None:
            return
        if kind == "act":
            if not table.owned and int(rest or 0) > table.version:
                table.request_pull()
        elif kind in ("seat", "closed"):
            if rest != me:  # this server's own news is in its memory already
                self.spawn(table.refresh(with_log=False))
        elif kind == "undo":
            if not table.owned and rest != me:
                self.spawn(table.refresh())
        elif kind == "due":  # a deadline of the table fired (web/deadlines.py)
            self.spawn(table.read_deadlines())
        elif kind == "inbox":
            if table.owned:
                self.spawn(table.drain_inbox())
        elif kind == "refused":
            forwarded, _, reason = rest.partition(":")
            with contextlib.suppress(ValueError):
                table.refused_there(int(forwarded), reason)
        elif kind == "own":
            if rest != me:
                table.remote.clear()  # everyone says again who is connected
                for conn in list(table.forwarded.values()):
                    table.answered(conn)  # the new owner answers what is in the inbox
                table.announce()
                table.request_pull()
        elif kind == "here":
            server, _, rest = rest.partition(":")
            seats, _, spectators = rest.partition(":")
            if server == me:
                return
            before = table.remote.get(server, (frozenset(), 0))[0]
            table.remote[server] = (
                frozenset(int(x) for x in seats.split(",") if x),
                int(spectators or 0),
            )
            table.left(before - table.remote[server][0])
            table.last_seen = time.monotonic()
            table.broadcast()  # who is connected changed
            table.wake.set()
        elif kind == "revoked":  # revoked:CODE:SERVER:SEAT:HASH
            server, _, rest = rest.partition(":")
            seat, _, hashed = rest.partition(":")
            if server != me and seat.isdigit() and int(seat) < len(table.seats):
                table.revoke_seat(int(seat), hashed, SESSION_ENDED)
        elif kind == "rematch":  # rematch:CODE:SERVER:SEAT:NEWCODE:NAME
            server, _, rest = rest.partition(":")
            seat, _, rest = rest.partition(":")
            new, _, name = rest.partition(":")
            if server != me and seat.isdigit():
                if table.rematch is None:
                    table.rematch = (new, {})
                table.tell_rematch(new, int(seat), name)
        elif kind == "chat":
            server, _, text = rest.partition(":")
            if server != me:
                with contextlib.suppress(ValueError):
                    table.chat_to_all(json.loads(text), local=True)

    async def adopt(self, code: str) -> bool:
        """Own ``code`` (its lock was just taken): rebuild it from its log, play it."""
        row = await self.store.call(self.store.store.load_table, code, True)
        if row is None or row.finished is not None or row.closed is not None:
            return False
        table = self.tables.get(code)
        if table is None:
            table = self.new_table(row)
            self.finished.pop(code, None)
            self.tables[code] = table
        else:
            async with table.lock:  # what it missed, one view per action
                table.catch_up(row)
        table.owned = True
        table.handing_over = False
        table.stale = False
        table.remote.clear()
        # (its driver reads the table's deadlines: those set by the server before hold)
        table.start()
        table.broadcast()
        await table.drain_inbox()
        return True

    def lost_all(self) -> None:
        """The locks are gone (the connection holding them broke): play nothing more."""
        for table in self.tables.values():
            if table.owned:
                self.count("locks_lost")
                table.owned = False
                table.handing_over = False
                if table.task is not None:
                    table.task.cancel()
                    table.task = None

    def servers_alive(self, alive: set[str]) -> None:
        """Forget who was connected to a server that is gone (its clients come back)."""
        for table in self.tables.values():
            gone = [server for server in table.remote if server not in alive]
            for server in gone:
                table.left(table.remote.pop(server)[0])
            if gone:
                table.broadcast()
                table.wake.set()

    def missed_news(self) -> None:
        """Notifications may have been missed: read every followed table again, and take
        what waits in the inbox of every owned one."""
        for table in self.tables.values():
            if not table.owned:
                table.request_pull()
            elif table.live:
                self.spawn(table.drain_inbox())

    def drain_waiting(self, table_ids: set[int]) -> int:
        """Take the inbox of each owned table among ``table_ids`` (actions passed on whose
        news was missed, say while the database came back); how many."""
        owned = [t for t in self.tables.values() if t.owned and t.live and t.id in table_ids]
        for table in owned:
            self.spawn(table.drain_inbox())
        return len(owned)

    async def forwards_overdue(self) -> int:
        """Take back the actions this server passed on that no table's server took within
        :data:`base.FORWARD_WAIT` seconds; each client is told to try again and is sent the
        table as it is. How many were taken back."""
        now = time.monotonic()
        taken = 0
        for table in list(self.tables.values()):
            late = [i for i, at in table.forwarded_at.items() if now - at >= base.FORWARD_WAIT]
            for forwarded in late:
                if not await self.store.call(self.store.store.take_back, forwarded):
                    table.forwarded_at.pop(forwarded, None)  # taken: its news will come
                    continue
                conn = table.forwarded.get(forwarded)
                table.refused_there(
                    forwarded, "the table's server did not take that in time; try again"
                )
                if conn is not None:
                    if not table.owned:
                        await table.pull()
                    conn.send(table.view(conn.seat))
                taken += 1
        self.count("inbox_refused", taken)
        return taken

    def rebalance(self, fair: int) -> int:
        """Own at most ``fair`` tables: mark the others to be handed over at their next
        hand's start (those with the fewest people connected here first); how many."""
        owned = [t for t in self.tables.values() if t.owned and t.live]
        leaving = [t for t in owned if t.handing_over]
        extra = len(owned) - len(leaving) - fair
        if extra <= 0:
            return 0
        staying = sorted(
            (t for t in owned if not t.handing_over),
            key=lambda t: (len(t.connections) + len(t.spectators), t.id),
        )
        for table in staying[:extra]:
            table.handing_over = True
            table.wake.set()
        return extra
