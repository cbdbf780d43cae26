"""What the tournaments and the club nights share: a service that follows its games' ends
through an outbox kind of its own, with a loop woken by a game ending here and by a poll
(the other servers' games)."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from fivehundred.web.outbox import woken_loop


class FollowsGames:
    """The loop of a service whose finished games leave an outbox row of ``kind``: its
    :meth:`once` takes them (and does the service's other timely work)."""

    #: the outbox kind of this service's finished games (``event``, ``night``)
    kind: str
    async_store: Any
    hub: Any
    poll: float
    _wake: asyncio.Event
    _task: asyncio.Task[None] | None

    async def once(self) -> None:
        raise NotImplementedError

    def follow(self, hub: Any) -> None:
        """Work with the server's hub: each of its finished games gets a row of
        :attr:`kind` (the store's follow-ups), a game ending here wakes the loop, which
        starts."""
        self.hub = hub
        store = self.async_store.store
        if self.kind not in store.follow_ups:
            store.follow_ups = (*store.follow_ups, self.kind)
        then = hub.on_game_over

        def game_over(code: str) -> None:
            self.wake()
            if then is not None:
                then(code)

        hub.on_game_over = game_over
        self._task = asyncio.get_running_loop().create_task(
            woken_loop(self.once, self._wake, self.poll, f"{self.kind}s")
        )

    def wake(self) -> None:
        self._wake.set()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
            self._task = None
