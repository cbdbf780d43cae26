"""Tables in play: seats, connections, the action log, and the computer players.

A :class:`LiveTable` holds a :class:`~fivehundred.table.Table` rebuilt from the action log
in the database. Every action, a person's or a computer's, goes through
:meth:`LiveTable._commit`: checked against the rules, written to the database, and only then
applied and sent to everyone (each connection gets its own seat's view). One driver task
per table makes the computer moves: for computer seats, for a person away longer than the
grace period, and for a person whose turn timer ran out. The search players run in a
process pool, never in the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import multiprocessing
import os
import random
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

import orjson
from fastapi import WebSocket

from fivehundred.actions import (
    Action,
    action_card,
    action_text,
    parse_action,
)
from fivehundred.bots import SOLVER_LEVELS
from fivehundred.bots.decide import decide
from fivehundred.bots.pimc import HAVE_SOLVER
from fivehundred.errors import FiveHundredError
from fivehundred.game import controller_of, dealer_of_seed
from fivehundred.messages import error_text
from fivehundred.observation import Observation
from fivehundred.rules import Rules, rules_from_dict
from fivehundred.table import HUMAN, Table
from fivehundred.web import views
from fivehundred.web.client_messages import (
    Act,
    Chat,
    Hint,
    MessageError,
    Ping,
    Rematch,
    Resync,
    TooDeep,
    Undo,
    parse_client_message,
)
from fivehundred.web.guard import Buckets, Limits, close_reason
from fivehundred.web.store import (
    ActionRow,
    AsyncStore,
    HandRow,
    RematchMade,
    SeatRow,
    TableRow,
    token_hash,
)
from fivehundred.web.worker import bounded_decide, prepare_worker, solver_ready, watch_parent
from fivehundred.words import waiting

log = logging.getLogger("fivehundred.web")

OPEN = "open"
PERSON = "person"
COMPUTER = "computer"
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L
CODE_LENGTH = 6
#: A connection's outgoing messages waiting to be sent; beyond this it is too slow.
SEND_QUEUE = 256
#: Finished tables kept in memory after the last connection leaves (the rest are read
#: from the database again when asked for).
FINISHED_KEPT = 64
#: Seconds a client's action passed to the table's server may wait in the inbox: past
#: that, unless taken, it is taken back and the client is told to try again.
FORWARD_WAIT = 10.0
CHAT_BURST = 5
CHAT_WINDOW = 10.0
#: Hints one address may ask for a minute, and at once (a token bucket; one at a time per
#: seat besides, and its search takes the address's turn: :meth:`Hub.search_turn`).
HINTS_PER_MINUTE = 60.0
HINT_BURST = 20
#: A search hint's wall-clock bound (seconds): past it the heuristic names the hint, and
#: the worker is free again (a replaced connection's hint, running on in its process,
#: holds it no longer).
HINT_SECONDS = 0.5
DEFAULT_OPTIONS: dict[str, Any] = {
    "grace": 60.0,
    "turn_timer": None,
    "delay": 0.6,
    "stand_in": "heuristic",
}


class Refusal(Exception):
    """A client's message that is refused: the one-line reason goes back to that client."""


#: The players that search with the double-dummy solver (their processes prepare it).
SEARCH_PLAYERS = frozenset({"pimc", *SOLVER_LEVELS})


#: Why a seat's connection closes when the session that took it ended (log out everywhere,
#: a password change, a deletion: on any server).
SESSION_ENDED = "your session ended: log in again"


def searches(player: str) -> bool:
    """Whether ``player`` (``pimc``, ``pimc:fast``, ``hard``, ...) uses the solver."""
    return player.split(":", 1)[0] in SEARCH_PLAYERS


class Decider:
    """Computer decisions: ``random`` in the event loop (it is a few microseconds), the
    search players (:func:`searches`) in a process pool whose workers prepare the solver as
    they start (:meth:`start`, at server start, in the background), every other player in
    another process pool (both thread pools when ``workers`` is 0)."""

    def __init__(self, workers: int | None = None, ceiling: float = 0.0) -> None:
        self.workers = workers if workers is not None else max(2, min(4, (os.cpu_count() or 2) - 1))
        #: wall-clock ceiling of one decision (seconds; 0: none), :func:`bounded_decide`
        self.ceiling = ceiling
        #: told (player, seconds, whether the ceiling stopped it) after each decision
        self.observe: Any = None
        self._pool: Executor | None = None
        self._search: Executor | None = None
        #: the search pool's workers have the solver ready (or there is nothing to prepare)
        self.search_ready = self.workers == 0 or not HAVE_SOLVER
        self._warming: asyncio.Task[None] | None = None

    def _executor(self, search: bool = False) -> Executor:
        pool = self._search if search else self._pool
        if pool is None:
            if self.workers == 0:
                pool = ThreadPoolExecutor(max_workers=2, thread_name_prefix="fivehundred-bot")
            else:
                pool = ProcessPoolExecutor(
                    max_workers=self.workers,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=prepare_worker if search else watch_parent,
                    initargs=(os.getpid(),),
                )
            if search:
                self._search = pool
            else:
                self._pool = pool
        return pool

    def start(self) -> None:
        """Start the search players' worker processes now, each preparing the solver, so
        that a search player's first decision does not wait for it (in the background)."""
        if not self.search_ready and self._warming is None:
            self._warming = asyncio.get_running_loop().create_task(self._warm_up())

    async def _warm_up(self) -> None:
        log.info(
            "preparing the solver in %d worker process(es) for the search players "
            "(a second or less: the kernel is compiled at install)",
            self.workers,
        )
        started = time.monotonic()
        loop = asyncio.get_running_loop()
        pool = self._executor(search=True)
        try:  # one call per worker: each new worker prepares the solver before answering
            ready = await asyncio.gather(
                *(loop.run_in_executor(pool, solver_ready) for _ in range(self.workers))
            )
        except Exception as error:
            log.error("the solver could not be prepared in the workers: %s", error)
        else:
            log.info(
                "the search players are ready (%d of %d workers prepared, %.1f s)",
                sum(ready),
                len(ready),
                time.monotonic() - started,
            )
        self.search_ready = True

    async def decide(
        self,
        player: str,
        seed: int,
        observation: Observation,
        where: str = "",
        ceiling: float | None = None,
    ) -> tuple[Action, str]:
        """``player``'s decision in a worker process, stopped past ``ceiling`` seconds
        (else the server's :attr:`ceiling`) and made by the heuristic then."""
        if ceiling is None:
            ceiling = self.ceiling
        elif self.ceiling > 0:
            ceiling = min(ceiling, self.ceiling)
        if player == "random":
            return decide(player, seed, observation)
        search = searches(player)
        if search and not self.search_ready:
            log.info(
                "%s%s waits for the solver, still being prepared in its processes",
                f"table {where}: " if where else "",
                player,
            )
        loop = asyncio.get_running_loop()
        started = time.monotonic()
        try:
            action, reason, stopped = await loop.run_in_executor(
                self._executor(search), bounded_decide, player, seed, observation, ceiling
            )
            if stopped:
                log.warning(
                    "%s%s reached the ceiling of %g s; the heuristic decided",
                    f"table {where}: " if where else "",
                    player,
                    ceiling,
                )
            if self.observe is not None:
                self.observe(player, time.monotonic() - started, stopped)
            return action, reason
        except BrokenProcessPool:
            log.error("the computer players' process pool broke; starting a new one")
            if search:
                self._search = None
            else:
                self._pool = None
        except Exception:
            log.exception("computer player %s failed; the random player moves instead", player)
        return decide("random", seed, observation)

    def close(self) -> None:
        if self._warming is not None:
            self._warming.cancel()
            self._warming = None
        for pool in (self._pool, self._search):
            if pool is None:
                continue
            # a worker may be deciding or preparing the solver for many seconds more: it
            # holds nothing that must be saved, so it is stopped rather than waited for
            workers = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in workers:
                process.terminate()
            for process in workers:
                process.join(5)
        self._pool = self._search = None


class Connection:
    """One WebSocket: its seat (or :data:`views.SPECTATOR`) and its outgoing queue."""

    def __init__(self, websocket: WebSocket, seat: int, name: str) -> None:
        self.websocket = websocket
        self.seat = seat
        self.name = name
        #: encoded messages to send, and at last a (code, reason) close
        self.queue: asyncio.Queue[str | tuple[int, str]] = asyncio.Queue(SEND_QUEUE)
        self.closing = False
        self.chats: deque[float] = deque()
        #: (inbox id, version) of the message passed to the table's server and not yet
        #: answered (several servers: :meth:`LiveTable._forward`)
        self.forwarded: tuple[int, int] | None = None
        #: the client's address (the server sets it): the per-address limits
        self.client = ""
        #: the browser's device id, if it has one (the server sets it): the ratings
        self.device: str | None = None
        #: the hint being worked out for it (cancelled when it goes or is replaced)
        self.hint: asyncio.Task[None] | None = None

    def cancel_work(self) -> None:
        """Stop the work done for this connection alone (its hint)."""
        if self.hint is not None and not self.hint.done():
            self.hint.cancel()

    def send(self, message: dict[str, Any]) -> None:
        self.send_encoded(encode(message))

    def waits_on(self, version: int) -> bool:
        """It passed on a message chosen at ``version`` and waits for the answer."""
        return self.forwarded is not None and self.forwarded[1] == version

    def send_encoded(self, text: str) -> None:
        """Queue a message already encoded by :func:`encode` (one view for many)."""
        if self.closing:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close(1008, "too slow: messages were piling up")

    def close(self, code: int, reason: str) -> None:
        if self.closing:
            return
        self.closing = True
        reason = close_reason(reason)
        with contextlib.suppress(asyncio.QueueFull):
            self.queue.put_nowait((code, reason))
        if self.queue.full():  # no room for the close itself: make room
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
            self.queue.put_nowait((code, reason))

    async def sender(self) -> None:
        """Send the queued messages in order; a close entry closes the socket."""
        while True:
            item = await self.queue.get()
            if isinstance(item, tuple):
                with contextlib.suppress(Exception):
                    await self.websocket.close(item[0], item[1])
                return
            await self.websocket.send_text(item)


@dataclass
class SeatState:
    kind: str
    player: str | None = None
    name: str | None = None
    token_hash: str | None = None
    #: monotonic time since which the person has had no connection
    away_since: float = field(default_factory=time.monotonic)


T = TypeVar("T")

#: one object for each set of rules the tables play (see :func:`same_rules`)
_RULES: dict[Rules, Rules] = {}


def same_rules(rules: Rules) -> Rules:
    """The one object for rules equal to ``rules``: the caches keyed by rules (looked up
    for every view) then find a table's rules by identity, not by comparing every field
    of rules equal to another table's."""
    if len(_RULES) >= 1024:  # (the rules are few: a bound, not an eviction policy)
        _RULES.clear()
    return _RULES.setdefault(rules, rules)


def encode(message: dict[str, Any]) -> str:
    """A message as compact JSON text (orjson; the standard library's encoder for what orjson
    refuses, such as a lone surrogate escaped in a chat text)."""
    try:
        return orjson.dumps(message).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(message, separators=(",", ":"))


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def replay_log(
    rules: Rules, players: Sequence[str], seed: int, entries: Sequence[tuple[int, str, str]]
) -> Table:
    """The table rebuilt from its action log."""
    model = Table(rules, players, seed)
    for seat, text, _ in entries:
        model.apply(seat, parse_action(text, model.hand.phase))
    return model


class LiveTable:
    """A table in play (or finished, for its facts and record)."""

    def __init__(self, hub: Hub, row: TableRow) -> None:
        self.hub = hub
        self.id = row.id
        self.code = row.code
        self.name = row.name
        self.created = row.created
        self.rules = same_rules(rules_from_dict(row.rules))
        self.options = {**DEFAULT_OPTIONS, **row.options}
        self.seed = row.seed
        self.seats = [SeatState(s.kind, s.player, s.name, s.token_hash) for s in row.seats]
        self.players = [s.player if s.kind == COMPUTER and s.player else HUMAN for s in self.seats]
        self.log: list[tuple[int, str, str]] = list(row.actions)
        self.model = replay_log(self.rules, self.players, self.seed, self.log)
        self.lock = asyncio.Lock()
        self.wake = asyncio.Event()
        self.last_change = time.monotonic()
        self.turn_started = time.time()
        self.connections: dict[int, Connection] = {}
        self.spectators: set[Connection] = set()
        self.task: asyncio.Task[None] | None = None
        #: when the expiry closed it (an unfinished table nobody played at), else None
        self.closed = row.closed
        #: monotonic time since which nobody has been connected (reset while somebody is)
        self.last_seen = time.monotonic()
        #: monotonic time the table was made (or resumed): open seats' stand-in counts from it
        self.opened = time.monotonic()
        #: seconds after :attr:`opened` before the stand-in plays a seat nobody took (None:
        #: the server's ``open_seat_grace``; a rematch's: the table's grace, as if its
        #: players who have not asked yet were away)
        self.open_grace: float | None = None
        #: the address that created it (kept in memory only: the per-client cap)
        self.owner: str | None = None
        #: this server applies its actions (always, alone; with several servers, while it
        #: holds the table's lock: :mod:`fivehundred.web.cluster`)
        self.owned = hub.cluster is None
        #: per other server: (seats, spectators) connected to it at this table
        self.remote: dict[str, tuple[frozenset[int], int]] = {}
        #: a newer action is in the log than in :attr:`model` (another server wrote it)
        self.stale = False
        #: inbox id -> the connection here whose message was passed on and not answered
        self.forwarded: dict[int, Connection] = {}
        #: inbox id -> monotonic time it was passed on (unanswered past FORWARD_WAIT: refused)
        self.forwarded_at: dict[int, float] = {}
        self._puller: asyncio.Task[None] | None = None
        #: pulls running (a client that comes meanwhile waits for the table to be current)
        self.pulling = 0
        #: this server gives the table to a server with fewer, at the next hand's start
        #: (:meth:`Hub.rebalance`)
        self.handing_over = False
        #: the rematch once started: its code and the new token of each person who joined it
        #: here, by seat (kept in memory while the finished table is: a player who asks
        #: again gets theirs)
        self.rematch: tuple[str, dict[int, str]] | None = None

    @property
    def live(self) -> bool:
        """Being played: neither over nor closed."""
        return self.closed is None and not self.model.is_over

    # ------------------------------------------------------------------ facts
    @property
    def version(self) -> int:
        return len(self.log)

    def seat_name(self, seat: int) -> str:
        state = self.seats[seat]
        return state.name or state.player or OPEN

    def present(self, seat: int) -> bool:
        """The seat's person is connected, here or to another server."""
        return seat in self.connections or any(seat in s for s, _ in self.remote.values())

    def left(self, seats: frozenset[int]) -> None:
        """``seats``' people are no longer connected to another server: unless connected
        elsewhere, each one's grace starts now (as for a disconnect here)."""
        now = time.monotonic()
        for seat in seats:
            if seat < len(self.seats) and not self.present(seat):
                self.seats[seat].away_since = now

    def anyone_here(self) -> bool:
        return bool(
            self.connections or self.spectators or any(s or n for s, n in self.remote.values())
        )

    def stand_in_now(self, seat: int) -> bool:
        state = self.seats[seat]
        return (
            state.kind == PERSON
            and not self.present(seat)
            and time.monotonic() - state.away_since >= self.options["grace"]
        )

    def seats_json(self) -> list[dict[str, Any]]:
        return [
            {
                "seat": seat,
                "kind": s.kind,
                "name": s.name if s.kind == PERSON else s.player,
                "connected": s.kind == COMPUTER or self.present(seat),
                "stand_in": self.stand_in_now(seat),
            }
            for seat, s in enumerate(self.seats)
        ]

    def public_facts(self) -> dict[str, Any]:
        game = self.model.game
        return {
            "table": self.code,
            "name": self.name,
            "url": f"/t/{self.code}",
            "rules": self.rules.to_dict(),
            "players": self.rules.players,
            "calls": list(views.allowed_calls(self.rules)),
            "seats": self.seats_json(),
            # each open seat's button, by who sits there already
            "offers": views.seat_offers(
                self.rules,
                list(
                    zip(
                        [s.kind for s in self.seats],
                        views.display_names(self.player_names()),
                        strict=True,
                    )
                ),
            ),
            "options": dict(self.options),
            "phase": "done" if game.is_over else game.hand.phase,
            "to_move": self.model.to_move if not game.is_over else None,
            "scores": list(game.scores),
            "hands_played": len(game.finished_hands),
            "finished": game.is_over,
            "winner": game.winner,
            "version": self.version,
            "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(self.created)),
            "closed": self.closed is not None,
        }

    def player_names(self) -> list[str]:
        return [self.seat_name(seat) for seat in range(len(self.seats))]

    def record(self) -> dict[str, Any]:
        """The game record of the hands finished so far (the seed only once it is over)."""
        record = self.model.record()
        record["players"] = self.player_names()
        if not self.model.is_over:
            record["hands"] = record["hands"][: len(self.model.game.finished_hands)]
            record.pop("seed", None)
        return record

    def _shared_facts(self) -> dict[str, Any]:
        """The table facts of a view that are the same for every seat."""
        model = self.model
        game = model.game
        timer = self.options["turn_timer"]
        opened = tuple(state.kind == OPEN for state in self.seats)
        names, side_names = views.names_of(self.rules, tuple(self.player_names()), opened)
        deadline = None
        if timer and not game.is_over and self.seats[model.to_move].kind == PERSON:
            deadline = self.turn_started + timer
        return {
            "code": self.code,
            "name": self.name,
            "seats": self.seats_json(),
            "hand_number": model.hand_number,
            "hands_played": len(game.finished_hands),
            "last_trick": views.last_trick(model),
            "hand_result": views.hand_result(model, list(names)),
            "finished": game.is_over,
            "winner": game.winner,
            "turn_deadline": deadline,
            "auction_seats": views.auction_seats(model),
            "auction_order": views.auction_order(model),
            "names": list(names),
            "controllers": list(self._rules_facts["controllers"]),
            # what the page says while the seat to move decides (not to that seat)
            "waiting": None if game.is_over else waiting(game.hand.phase, names[model.to_move]),
            "side_names": list(side_names),
            # the partners who sit this hand out, and the 490 rule's own figure
            "sitting_out": views.sitting_out(model, list(names)),
            "rule_490": self._rules_facts["rule_490"],
            "hints": any(s.kind == COMPUTER for s in self.seats),
            "calls": list(self._rules_facts["calls"]),
            "call_labels": list(self._rules_facts["call_labels"]),
        }

    @cached_property
    def _rules_facts(self) -> dict[str, Any]:
        """The view's facts that the table's rules alone decide, worked out once (the rules'
        own caches would hash the rules for each view)."""
        rules = self.rules
        return {
            "controllers": views.seat_controllers(rules),
            "rule_490": views.rule_490_words(rules),
            "calls": views.allowed_calls(rules),
            "call_labels": views.allowed_call_labels(rules),
            "relations": {
                seat: views.seat_relations(rules, seat) for seat in range(len(self.seats))
            },
        }

    def view(
        self,
        seat: int,
        shared: dict[str, Any] | None = None,
        public: dict[str, Any] | None = None,
    ) -> dict[str, Any]:
        """The ``view`` message for ``seat`` (or a spectator); ``shared``: the table facts
        and ``public``: the spectator's view, where they are built already for several."""
        view = views.observation_json(self.model, seat, public)
        facts = dict(shared if shared is not None else self._shared_facts())
        facts["you"] = None if seat == views.SPECTATOR else seat
        facts["kitty"] = views.kitty_cards(self.model, seat)
        relations = self._rules_facts["relations"].get(seat)
        facts["relations"] = None if relations is None else [dict(r) for r in relations]
        facts["undo"] = seat != views.SPECTATOR and all(
            s.kind == COMPUTER for other, s in enumerate(self.seats) if other != seat
        )
        facts["can_undo"] = facts["undo"] and views.undo_open(self.model, seat)
        view["table"] = facts
        return {
            "type": "view",
            "version": self.version,
            "seat": None if seat == views.SPECTATOR else seat,
            "view": view,
        }

    def broadcast(self) -> None:
        """A new view to every connection: each seat's built and encoded once from its own
        observation, the spectators' once for them all (nothing for a table nobody here
        watches: a computers' table's moves cost no view)."""
        if not self.connections and not self.spectators:
            return
        shared = self._shared_facts()
        public = None  # what every seat sees alike: built once where several views need it
        if len(self.connections) + bool(self.spectators) > 1:
            public = views.observation_json(self.model, views.SPECTATOR)
        for conn in list(self.connections.values()):
            conn.send_encoded(encode(self.view(conn.seat, shared, public)))
        if self.spectators:
            # the same for every spectator
            text = encode(self.view(views.SPECTATOR, shared, public))
            for conn in list(self.spectators):
                conn.send_encoded(text)

    def chat_to_all(self, message: dict[str, Any], local: bool = False) -> None:
        text = encode(message)
        for conn in [*self.connections.values(), *self.spectators]:
            conn.send_encoded(text)
        cluster = self.hub.cluster
        if cluster is not None and not local:
            self.hub.spawn(cluster.notify(f"chat:{self.code}:{cluster.id}:{text}"))

    def announce(self) -> None:
        """Tell the other servers who is connected here (their owner counts them)."""
        cluster = self.hub.cluster
        if cluster is not None:
            seats = ",".join(str(seat) for seat in sorted(self.connections))
            self.hub.spawn(
                cluster.notify(f"here:{self.code}:{cluster.id}:{seats}:{len(self.spectators)}")
            )

    # ------------------------------------------------------------------ seats
    def seat_of_token(self, token: str) -> int | None:
        hashed = token_hash(token)
        found = None
        for seat, state in enumerate(self.seats):
            if state.token_hash is not None and hmac.compare_digest(hashed, state.token_hash):
                found = seat
        return found

    async def take_seat(self, seat: int, name: str) -> str:
        """Seat a person; returns the token. :class:`Refusal` if the seat is not open."""
        async with self.lock:
            if self.closed is not None:
                raise Refusal("this table was closed: nobody played at it for a while")
            state = self.seats[seat]
            if state.kind != OPEN:
                raise Refusal(f"seat {seat} is taken")
            token = secrets.token_urlsafe(24)
            hashed = token_hash(token)
            code = self.code if self.hub.cluster is not None else None
            if not await self.hub.store.call(
                self.hub.store.store.take_seat, self.id, seat, name, hashed, code
            ):
                raise Refusal(f"seat {seat} is taken")
            state.kind, state.name, state.token_hash = PERSON, name, hashed
            state.away_since = time.monotonic()
            log.info("table %s: seat %d taken by %s", self.code, seat, name)
            self.broadcast()
            self.wake.set()
            return token

    def tell_rematch(self, code: str, seat: int, name: str) -> None:
        """Every connection here but ``seat``'s is told that ``name`` (at ``seat``)
        started the rematch ``code``: a player may join it (:meth:`Hub.rematch`)."""
        told = {"type": "rematch", "table": code, "url": f"/t/{code}", "by": name}
        for conn in [*self.connections.values(), *self.spectators]:
            if conn.seat != seat:
                conn.send(told)

    def revoke_seat(self, seat: int, hashed: str, reason: str) -> None:
        """The seat's token is no longer ``seat``'s (its session ended): the new hash
        (already written) is kept and the seat's connection here is closed."""
        state = self.seats[seat]
        if state.kind != PERSON:
            return
        state.token_hash = hashed
        conn = self.connections.get(seat)
        if conn is not None:
            conn.cancel_work()
            conn.close(4401, reason)

    def attach(self, conn: Connection) -> None:
        self.last_seen = time.monotonic()
        if conn.seat == views.SPECTATOR:
            self.spectators.add(conn)
        else:
            old = self.connections.get(conn.seat)
            if old is not None:
                old.cancel_work()
                old.close(4000, "replaced by a newer connection")
            self.connections[conn.seat] = conn
            log.info("table %s: seat %d connected", self.code, conn.seat)
        self.hub.hold(self)
        self.broadcast()
        self.wake.set()
        self.announce()

    def detach(self, conn: Connection) -> None:
        self.last_seen = time.monotonic()
        conn.cancel_work()
        self.answered(conn)
        if conn.seat == views.SPECTATOR:
            self.spectators.discard(conn)
        elif self.connections.get(conn.seat) is conn:
            del self.connections[conn.seat]
            self.seats[conn.seat].away_since = time.monotonic()
            log.info("table %s: seat %d disconnected", self.code, conn.seat)
            self.broadcast()
            self.wake.set()
        self.announce()
        self.hub.release(self)

    # ------------------------------------------------------------------ messages
    async def handle(self, conn: Connection, text: str) -> bool:
        """One message from a client. Refusals go back to that client alone. True when the
        message was a move that was made (the game itself limits how often that can be)."""
        try:
            try:
                message = parse_client_message(text, self.hub.limits.json_depth)
            except TooDeep as error:
                self.hub.refused("json_depth")
                raise Refusal(str(error)) from None
            except MessageError as error:
                raise Refusal(str(error)) from None
            match message:
                case Act():  # made here: the game limits how often; passed on: not
                    return await self._client_action(conn, message)
                case Chat(text=line):
                    self._chat(conn, line)
                case Resync():
                    if not self.owned:
                        await self.pull()
                    conn.send(self.view(conn.seat))
                case Ping():
                    conn.send({"type": "pong"})
                case Hint(marked=marked):
                    await self._hint(conn, marked)
                case Undo():
                    await self._undo(conn)
                case Rematch():
                    await self.hub.rematch(self, self._acting_seat(conn), conn.client, conn.device)
        except Refusal as refusal:
            conn.send({"type": "error", "message": str(refusal), "version": self.version})
        return False

    def _acting_seat(self, conn: Connection) -> int:
        if conn.seat == views.SPECTATOR:
            raise Refusal("spectators cannot act: take a seat to play")
        if self.connections.get(conn.seat) is not conn:
            raise Refusal("this connection was replaced by a newer one")
        return conn.seat

    async def _client_action(self, conn: Connection, message: Act) -> bool:
        """A client's action: made here (True), or passed to the table's server (False)."""
        seat = self._acting_seat(conn)
        text, version = message.action, message.version
        async with self.lock:
            if version != self.version:
                conn.send(self.view(seat))
            action = self._checked(seat, version, text)
            if self.owned:
                await self._commit(seat, action, PERSON)
                return True
        await self._forward(conn, seat, version, action_text(action, self.rules.joker_names))
        return False

    def _checked(self, seat: int, version: int, text: str) -> Action:
        """``seat``'s action ``text`` chosen on the view of ``version``, checked against the
        table as it is (the caller holds the lock), or :class:`Refusal` with the reason:
        the same words for a client of this server and one whose server passed it on."""
        model = self.model
        if version != self.version:
            raise Refusal(
                f"the table has moved on (version {self.version}, not {version}): "
                "look again and choose"
            )
        if model.is_over:
            raise Refusal("the game is over")
        if self.closed is not None:
            raise Refusal("this table was closed: nobody played at it for a while")
        if model.to_move != seat:
            raise Refusal(
                f"not your turn: seat {model.to_move} ({self.seat_name(model.to_move)}) is to move"
            )
        try:
            action = parse_action(text.strip(), model.hand.phase)
        except FiveHundredError as error:
            raise Refusal(f"{text!r} is not an action now: {error}") from None
        if action in model.legal_actions():  # the usual case: nothing to explain
            return action
        card = action_card(action)
        if (
            card >= 0
            and model.hand.phase in ("play", "discard")
            and not views.seat_observation(model, seat).hand >> card & 1
        ):
            # the same words for any card the seat cannot see: the engine's own
            # (a dummy's face-down card, another hand) would tell where it lies
            raise Refusal(f"{text.strip()} is not one of the cards you may play from")
        refused = model.refusal(seat, action)
        if refused is not None:  # in card language, the rule id kept in brackets
            raise Refusal(error_text(refused, self.rules.joker_names, self.player_names()))
        return action

    async def _forward(self, conn: Connection, seat: int, version: int, text: str) -> None:
        """Pass a person's checked action (or ``undo``) to the server that owns the table:
        its news brings the new view back, or its refusal (``refused:``) the reason, to this
        connection. One at a time per connection and version: a client that sends again
        before the answer is refused here."""
        if conn.waits_on(version):
            raise Refusal("your last message is still on its way to the table's server: wait")
        try:
            forwarded = await self.hub.store.call(
                self.hub.store.store.forward, self.id, self.code, version, seat, text
            )
        except Exception:
            log.exception("table %s: could not pass %s to its server", self.code, text)
            raise Refusal("the server could not pass that on; try again") from None
        self.answered(conn)
        conn.forwarded = (forwarded, version)
        self.forwarded[forwarded] = conn
        self.forwarded_at[forwarded] = time.monotonic()
        self.hub.count("passed_on")

    def answered(self, conn: Connection) -> None:
        """``conn`` waits for no answer of the table's server any more."""
        if conn.forwarded is not None:
            self.forwarded.pop(conn.forwarded[0], None)
            self.forwarded_at.pop(conn.forwarded[0], None)
            conn.forwarded = None

    def refused_there(self, forwarded: int, reason: str) -> None:
        """The table's server refused the message passed on as ``forwarded``: its sender
        (a client of this server) is told why."""
        conn = self.forwarded.get(forwarded)
        if conn is None:
            return
        self.answered(conn)
        conn.send({"type": "error", "message": reason, "version": self.version})

    def _chat(self, conn: Connection, text: str) -> None:
        now = time.monotonic()
        while conn.chats and now - conn.chats[0] > CHAT_WINDOW:
            conn.chats.popleft()
        if len(conn.chats) >= CHAT_BURST:
            raise Refusal(f"chat: at most {CHAT_BURST} messages in {CHAT_WINDOW:.0f} seconds")
        conn.chats.append(now)
        seat = None if conn.seat == views.SPECTATOR else conn.seat
        name = self.seat_name(conn.seat) if seat is not None else "spectator"
        self.chat_to_all(
            {"type": "chat", "seat": seat, "name": name, "text": text, "time": time.time()}
        )

    async def _hint(self, conn: Connection, marked: tuple[str, ...] = ()) -> None:
        """Start working out a hint for ``conn``'s seat: one at a time per seat, a few a
        minute per address (:data:`HINTS_PER_MINUTE`), and a search hint takes its
        address's search turn (one search at a time per address: one visitor's hints
        cannot fill the search players' pool). It runs beside the connection's messages
        and is cancelled when the connection goes or is replaced. In the discard, ``marked``
        (the cards marked, not yet sent) count as discarded: the hint names another card."""
        seat = self._acting_seat(conn)
        if not any(s.kind == COMPUTER for s in self.seats):
            raise Refusal("hints are given at tables with a computer player")
        model = self.model
        if model.is_over or model.to_move != seat:
            raise Refusal("a hint is for your turn")
        observation = model.observation(model.seat_to_move)
        try:  # (the discards marked, not yet sent, as made: the hint names another card)
            observation = views.hint_observation(observation, marked)
        except ValueError as error:
            raise Refusal(str(error)) from None
        if any(
            other.hint is not None and not other.hint.done()
            for other in (conn, self.connections.get(seat))
            if other is not None
        ):
            raise Refusal("a hint is still being worked out for you: wait for it")
        if searches(self.options["stand_in"]) and self.hub.hint_searches.locked():
            self.hub.refused("hint_busy")
            raise Refusal("the server is working out other hints: ask again in a moment")
        wait = await self.hub.take_token(self.hub.hints, "hint", conn.client or self.code)
        if wait > 0:
            self.hub.refused("hint_rate")
            raise Refusal(f"too many hints from your address: try again in {int(wait) + 1} s")
        conn.hint = self.hub.spawn(
            self._give_hint(conn, self.version, observation, model.decision_seed() ^ 0x5EED)
        )

    async def _give_hint(
        self, conn: Connection, version: int, observation: Observation, seed: int
    ) -> None:
        player = self.options["stand_in"]
        try:
            if searches(player):
                async with (
                    self.hub.hint_searches,  # at most half of the search workers
                    self.hub.search_turn(conn.client or self.code),
                ):
                    decision = asyncio.ensure_future(
                        self.hub.decider.decide(player, seed, observation, self.code, HINT_SECONDS)
                    )
                    try:
                        action, reason = await asyncio.shield(decision)
                    except asyncio.CancelledError:
                        # the search runs on in its process: the turn is held until it
                        # ends (a replaced connection's hints do not pile up in the pool)
                        with contextlib.suppress(BaseException):
                            await decision
                        raise
            else:
                action, reason = await self.hub.decider.decide(player, seed, observation)
        except asyncio.CancelledError:
            return
        if self.version == version and not conn.closing:
            conn.send(
                {
                    "type": "hint",
                    "action": action_text(action, self.rules.joker_names),
                    "reason": reason,
                    "version": version,
                }
            )

    async def _undo(self, conn: Connection) -> None:
        seat = self._acting_seat(conn)
        if not all(s.kind == COMPUTER for other, s in enumerate(self.seats) if other != seat):
            raise Refusal("undo is only for a table where every other seat is a computer player")
        if not self.owned:
            await self._forward(conn, seat, self.version, "undo")
            return
        await self._undo_seat(seat)

    async def _undo_seat(self, seat: int) -> None:
        async with self.lock:
            # the decision the page offers to take back (a finished hand is not taken back)
            if not views.undo_open(self.model, seat):
                raise Refusal("nothing of yours to take back in this hand")
            model = Table(self.rules, self.players, self.seed, model_copy(self.model))
            model.undo(seat)
            # the log up to the undo point: replay until the rebuilt state matches
            keep = self._log_length_of(model)
            if keep is None:
                raise Refusal("the table's log does not reach back to that decision")
            code = self.code if self.hub.cluster is not None else None
            await self.hub.store.call(self.hub.store.store.truncate_actions, self.id, keep, code)
            del self.log[keep:]
            self.model = replay_log(self.rules, self.players, self.seed, self.log)
            self.last_change = time.monotonic()
            self.turn_started = time.time()
            log.info("table %s: seat %d took back to version %d", self.code, seat, keep)
            self.broadcast()
            self.wake.set()

    def _log_length_of(self, model: Table) -> int | None:
        """How many of the log's actions make ``model``'s position."""
        done = sum(len(h.history) for h in model.game.finished_hands)
        length = done + len(model.game.hand.history)
        return length if length <= len(self.log) else None

    # ------------------------------------------------------------------ acting
    async def _commit(self, seat: int, action: Action, by: str) -> None:
        """Apply a checked action: into the database first, then the state, then everyone.
        The caller holds the lock and has checked the action with ``refusal``."""
        # The action is made on a copy: until it is saved, everyone sees the table as it was.
        model = copy_table(self.model)
        game = model.game
        before = len(game.finished_hands)
        text = action_text(action, self.rules.joker_names)
        model.apply(seat, action)
        hand_row = None
        finished = None
        if len(game.finished_hands) > before:
            hand = game.finished_hands[-1]
            result = hand.result
            hand_row = HandRow(
                number=len(game.finished_hands),
                contract=action_text(result.contract, self.rules.joker_names)
                if result.contract >= 0
                else None,
                contractor=controller_of(self.rules, result.contractor)
                if result.contractor >= 0
                else None,
                made=result.made,
                points=list(result.points),
                scores=list(game.scores),
            )
            if game.is_over:
                finished = (game.winner if game.winner is not None else -1, list(game.scores))
        code = self.code if self.hub.cluster is not None else None
        try:  # group commit: answered once the action is in the database
            await self.hub.store.append_action(
                ActionRow(self.id, self.version + 1, seat, text, by, hand_row, finished, code)
            )
        except Exception:
            self.hub.count("failed_saves")
            log.exception("table %s: could not save %s; the action is not made", self.code, text)
            if self.hub.cluster is not None:  # another server may have written that version
                self.hub.spawn(self.refresh())
            raise Refusal("the server could not save that action; try again") from None
        self.model = model
        self.log.append((seat, text, by))
        self.last_change = time.monotonic()
        self.turn_started = time.time()
        self.hub.acted(by)
        if hand_row is not None:
            log.info(
                "table %s: hand %d finished: %s by seat %s, %s; scores %s",
                self.code,
                hand_row.number,
                hand_row.contract or "no contract",
                hand_row.contractor,
                "made" if hand_row.made else "not made",
                hand_row.scores,
            )
            if finished is not None:
                log.info("table %s: game over, side %s wins", self.code, game.winner)
                if self.hub.on_game_over is not None:
                    self.hub.on_game_over(self.code)
        self.broadcast()
        self.wake.set()

    def _automation(self) -> tuple[float, str, str] | None:
        """(seconds until due, player, kind) of the computer move to make next, if any."""
        model = self.model
        if not self.live:
            return None
        seat = model.to_move
        state = self.seats[seat]
        now = time.monotonic()
        delay = self.last_change + self.options["delay"] - now
        if state.kind == COMPUTER:
            return max(0.0, delay), state.player or "random", COMPUTER
        if state.kind == OPEN:
            # nobody took it: the stand-in plays it (it can still be taken)
            grace = self.hub.limits.open_seat_grace if self.open_grace is None else self.open_grace
            due = max(self.opened + grace - now, delay)
            return max(0.0, due), self.options["stand_in"], "stand_in"
        if not self.present(seat):
            due = max(state.away_since + self.options["grace"] - now, delay)
            return max(0.0, due), self.options["stand_in"], "stand_in"
        timer = self.options["turn_timer"]
        if timer:
            return max(0.0, self.last_change + timer - now), self.options["stand_in"], "timer"
        return None

    async def drive(self) -> None:
        """Make the computer moves until the game is over (the table's driver task)."""
        loop = asyncio.get_running_loop()
        while self.live:
            if self.handing_over and self.between_hands():
                await self.hand_over()
                return
            try:
                due = self._automation()
                if due is None or due[0] > 0:
                    # wait for a change or the due time (a timer, not wait_for: no task
                    # and no exception per computer move)
                    self.wake.clear()
                    timer = None if due is None else loop.call_later(due[0], self.wake.set)
                    try:
                        await self.wake.wait()
                    finally:
                        if timer is not None:
                            timer.cancel()
                    continue
                await self._automatic_move(due[1], due[2])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("table %s: computer move failed; trying again", self.code)
                await asyncio.sleep(1.0)
        if self.hub.cluster is not None:
            await self.hub.cluster.unlock(self.id)
        self.hub.release(self)

    async def _automatic_move(self, player: str, by: str) -> None:
        model = self.model
        version = self.version
        observation = model.observation(model.seat_to_move)
        if searches(player):
            # one search at a time per client's tables: one visitor's many search tables
            # take turns for the pool instead of filling it
            async with self.hub.search_turn(self.owner or self.code):
                action, _ = await self.hub.decider.decide(
                    player, model.decision_seed(), observation, self.code
                )
        else:
            action, _ = await self.hub.decider.decide(
                player, model.decision_seed(), observation, self.code
            )
        async with self.lock:
            if self.version != version or self.model is not model:
                return  # somebody moved meanwhile
            due = self._automation()
            if due is None or due[2] != by:
                return  # the person came back
            seat = model.to_move
            if model.refusal(seat, action) is not None:
                log.error(
                    "table %s: %s chose an illegal %s; a random legal action instead",
                    self.code,
                    player,
                    action,
                )
                legal = model.legal_actions()
                action = legal[random.Random(model.decision_seed()).randrange(len(legal))]
            await self._commit(seat, action, by)

    # ------------------------------------------------------------------ several servers
    def rebuild(self, row: TableRow, with_log: bool = True) -> bool:
        """Take the table as the database has it (seats, and the log and state unless not
        ``with_log``); the caller holds the lock. Connections keep their seats; people keep
        their time away. Whether anything changed."""
        changed = row.closed != self.closed
        for seat, s in enumerate(row.seats):
            state = self.seats[seat]
            new = (s.kind, s.player, s.name, s.token_hash)
            if new != (state.kind, state.player, state.name, state.token_hash):
                state.kind, state.player, state.name, state.token_hash = new
                changed = True
        self.closed = row.closed
        if with_log and row.actions != self.log:
            for conn in list(self.forwarded.values()):
                self.answered(conn)  # versions were taken back: wait for nothing older
            self.log = list(row.actions)
            self.model = replay_log(self.rules, self.players, self.seed, self.log)
            self.last_change = time.monotonic()
            self.turn_started = time.time()
            changed = True
        return changed

    async def refresh(self, with_log: bool = True) -> None:
        """Read the table again from the database (its seats only, unless ``with_log``)
        and show it if it changed: a view is sent for a change, never twice for one state
        (a client acts on each view that offers it a move). Where the log only grew (another
        server made actions meanwhile, as when a database restart cost this one its lock),
        one view per action, as the clients of the server that made them had."""
        async with self.lock:
            row = await self.hub.store.call(self.hub.store.store.load_table, self.code, with_log)
            if row is None:
                return
            known = len(self.log)
            if with_log and len(row.actions) > known and row.actions[:known] == self.log:
                self.rebuild(row, with_log=False)
                for seat, text, by in row.actions[known:]:
                    self._apply_written(seat, text, by)
            elif not self.rebuild(row, with_log):
                return
            else:
                self.broadcast()
        self.wake.set()
        if not with_log and not self.owned:
            self.request_pull()

    def _apply_written(self, seat: int, text: str, by: str) -> None:
        """Make an action another server wrote (the next version) and show it."""
        model = copy_table(self.model)
        model.apply(seat, parse_action(text, model.hand.phase))
        self.model = model
        self.log.append((seat, text, by))
        self.last_change = time.monotonic()
        self.turn_started = time.time()
        mover = self.connections.get(seat)
        if mover is not None and mover.waits_on(self.version - 1):
            self.answered(mover)  # its action was made
        self.broadcast()

    async def pull(self) -> None:
        """Apply the actions another server wrote since :attr:`version` (a follower): one
        view per action, as the owner's clients get them. A client that comes meanwhile
        waits for the pull to end (:meth:`Hub.get`): clients coming back together to a
        server that held the table stale get one view of the table as it is, not a replay
        of its log."""
        self.pulling += 1
        try:
            await self._pull()
        finally:
            self.pulling -= 1

    async def _pull(self) -> None:
        async with self.lock:
            self.stale = False
            if self.owned:
                return
            rows = await self.hub.store.call(
                self.hub.store.store.actions_after, self.id, self.version
            )
            if not rows:
                return
            try:  # one view per action, as the owner's clients get them
                for version, seat, text, by in rows:
                    if version != self.version + 1:
                        raise ValueError(f"version {version} after {self.version}")
                    self._apply_written(seat, text, by)
            except (ValueError, FiveHundredError) as error:
                log.info("table %s: read again (%s)", self.code, error)
                row = await self.hub.store.call(self.hub.store.store.load_table, self.code, True)
                if row is not None:
                    self.rebuild(row)
                self.broadcast()

    def between_hands(self) -> bool:
        """No action of the hand in play is made yet (a table moves to another server
        only then: no hand is interrupted)."""
        return not self.model.game.hand.history

    async def hand_over(self) -> None:
        """Give the table up (called by its driver, between hands): another server, one
        with fewer tables, takes it at its next look (:mod:`fivehundred.web.cluster`);
        this server follows it for its clients from now on."""
        cluster = self.hub.cluster
        async with self.lock:
            self.handing_over = False
            if not self.owned or cluster is None:
                return
            self.owned = False
            self.task = None
            cluster.given_up(self.id)
            await cluster.unlock(self.id)
        log.info("table %s: handed over between hands (a fair share of tables)", self.code)
        self.hub.count("handed_over")

    def request_pull(self) -> None:
        """A newer action is in the log: read it now if somebody here watches, else when
        the table is next asked for."""
        self.stale = True
        if not (self.connections or self.spectators):
            return
        if self._puller is None or self._puller.done():
            self._puller = self.hub.spawn(self._pull_while_stale())

    async def _pull_while_stale(self) -> None:
        while self.stale:
            try:
                await self.pull()
            except Exception:
                log.exception("table %s: could not read the newer actions", self.code)
                return

    async def drain_inbox(self) -> None:
        """Make the actions clients of other servers passed here (the owner), checked as
        this server's own clients' are; each refusal goes back to the sender's server
        (``refused:CODE:ID:REASON``), which tells its client."""
        if not self.owned:
            return
        rows = await self.hub.store.call(self.hub.store.store.take_inbox, self.id)
        for forwarded, version, seat, text in rows:
            try:
                if text == "undo":
                    await self._undo_seat(seat)
                    continue
                async with self.lock:
                    if not self.owned:
                        raise Refusal("the table moved to another server: try again")
                    await self._commit(seat, self._checked(seat, version, text), PERSON)
            except Refusal as refusal:
                cluster = self.hub.cluster
                if cluster is not None:
                    await cluster.notify(f"refused:{self.code}:{forwarded}:{refusal}")

    def start(self) -> None:
        if not self.owned:
            return
        if self.task is None and self.live:
            self.task = asyncio.get_running_loop().create_task(
                self.drive(), name=f"table-{self.code}"
            )

    async def stop(self) -> None:
        for conn in [*self.connections.values(), *self.spectators]:
            conn.close(1001, "the server is stopping")
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self.task
            self.task = None


def copy_table(model: Table) -> Table:
    """A copy of a table whose game can be played on without touching the original's
    (finished hands are never changed, so they are shared)."""
    game = _shallow(model.game)
    game.hand = model.game.hand.clone()
    game.scores = list(game.scores)
    game.score_history = list(game.score_history)
    game.finished_hands = list(game.finished_hands)
    table = _shallow(model)
    table.game = game
    return table


def _shallow(obj: T) -> T:
    """``copy.copy`` of an object whose state is its ``__dict__`` (a table, a game),
    without the copy protocol's general path (once per action)."""
    other = object.__new__(type(obj))
    other.__dict__.update(obj.__dict__)
    return other


def model_copy(model: Table) -> Any:
    """A copy of the table's game, rebuilt from its record (undo works on the copy)."""
    return Table.from_record(model.record(), list(model.players), model.seed).game


class Hub:
    """Every table the server knows: unfinished ones are all in memory and playing."""

    def __init__(
        self,
        store: AsyncStore,
        decider: Decider,
        allow_seeds: bool = False,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.decider = decider
        self.allow_seeds = allow_seeds
        self.limits = limits or Limits()
        #: told the reason of each refusal, and who made each action (the metrics)
        self.on_refusal: Any = None
        self.on_action: Any = None
        self._sweeper: asyncio.Task[None] | None = None
        #: the unfinished tables, and finished ones while somebody is connected
        self.tables: dict[str, LiveTable] = {}
        #: finished tables read lately (their records and facts are asked for again)
        self.finished: OrderedDict[str, LiveTable] = OrderedDict()
        self._loading = asyncio.Lock()
        #: event-loop lag samples (seconds): how late a 50 ms sleep wakes up
        self.lag: deque[float] = deque(maxlen=1200)
        self._probe: asyncio.Task[None] | None = None
        self.on_expired: Any = None
        #: told the code of each table whose game ended (the ratings)
        self.on_game_over: Any = None
        #: called with an account's id when it was deleted on another server (its places
        #: in this server's play-now queue go)
        self.on_account_deleted: Any = None
        #: awaited with (old code, new code, seat, address, device) when a person joins a
        #: rematch (the accounts' seats)
        self.on_rematch: Any = None
        #: per client (or table): [the lock of its search turn, how many want it]
        self._search_turns: dict[str, list[Any]] = {}
        #: hints per address (:meth:`LiveTable._hint`)
        self.hints = Buckets(HINTS_PER_MINUTE, HINT_BURST)
        #: the search hints worked out at once: at most half of the search workers (of two
        #: threads without processes), so that the tables' own search players always have
        #: the other half
        self.hint_searches = asyncio.Semaphore(max(1, (decider.workers or 2) // 2))
        #: the tables made per address (the server's; a rematch is one: :meth:`rematch`)
        self.creating: Buckets | None = None
        #: the servers sharing this PostgreSQL database (None: this server alone)
        self.cluster: Any = None
        self._background: set[asyncio.Task[Any]] = set()
        #: told the name of each event the metrics count (failed_saves, passed_on,
        #: adopted, locks_lost, handed_over, inbox_refused, database_errors)
        self.on_count: Any = None

    def count(self, event: str, n: int = 1) -> None:
        if self.on_count is not None and n:
            self.on_count(event, n)

    def spawn(self, work: Any) -> asyncio.Task[Any]:
        """Run ``work`` in the background (kept until it ends)."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        return task

    # ------------------------------------------------------------------ several servers
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
            table = LiveTable(self, row)
            self.finished.pop(code, None)
            self.tables[code] = table
        else:
            async with table.lock:
                table.rebuild(row)
        table.owned = True
        table.handing_over = False
        table.stale = False
        table.remote.clear()
        now = time.monotonic()
        for state in table.seats:  # a person's grace starts again with the new server
            state.away_since = now
        table.opened = now
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
        :data:`FORWARD_WAIT` seconds; each client is told to try again and is sent the
        table as it is. How many were taken back."""
        now = time.monotonic()
        taken = 0
        for table in list(self.tables.values()):
            late = [i for i, at in table.forwarded_at.items() if now - at >= FORWARD_WAIT]
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

    def refused(self, reason: str) -> None:
        if self.on_refusal is not None:
            self.on_refusal(reason)

    def acted(self, by: str) -> None:
        if self.on_action is not None:
            self.on_action(by)

    @contextlib.asynccontextmanager
    async def search_turn(self, key: str) -> Any:
        """Hold the search turn of ``key`` (a client's address, or a table's code)."""
        turn = self._search_turns.get(key)
        if turn is None:
            turn = self._search_turns[key] = [asyncio.Lock(), 0]
        turn[1] += 1
        try:
            async with turn[0]:
                yield
        finally:
            turn[1] -= 1
            if turn[1] == 0:
                self._search_turns.pop(key, None)

    def live_tables(self) -> list[LiveTable]:
        return [t for t in self.tables.values() if t.live]

    def playing(self) -> int:
        """Unfinished tables this server plays (with several servers, those it owns; it
        also holds others' tables that its clients look at)."""
        return sum(1 for t in self.tables.values() if t.live and t.owned)

    def following(self) -> int:
        """Unfinished tables of other servers held here for this server's clients."""
        return sum(1 for t in self.tables.values() if t.live and not t.owned)

    async def tables_of(self, owner: str) -> int:
        """Unfinished tables ``owner`` (an address) created: through any server, where
        several share the database (each knows only those it holds)."""
        if self.cluster is not None:
            return await self.store.call(self.store.store.tables_created_by, owner)
        return sum(1 for t in self.tables.values() if t.owner == owner and t.live)

    async def take_token(self, buckets: Buckets, what: str, key: str) -> float:
        """Take a token from ``key``'s bucket of ``what``: 0 if there was one, else the
        seconds until there is. Several servers share the buckets in the database (a
        visitor's requests spread over them by the load balancer count together)."""
        if self.cluster is not None:
            return await self.store.call(
                self.store.store.take_token, f"{what}:{key}", buckets.per_minute, buckets.burst
            )
        return buckets.take(key)

    def connection_count(self) -> int:
        return sum(len(t.connections) + len(t.spectators) for t in self.tables.values())

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.limits.sweep_seconds)
            try:
                await self.expire()
                if self.cluster is not None:
                    await self.store.call(self.store.store.forget_buckets)
                    # taken back by its sender after FORWARD_WAIT, or its table ended
                    await self.store.call(
                        self.store.store.forget_inbox, time.time() - 6 * FORWARD_WAIT
                    )
            except Exception:
                log.exception("the expiry of tables failed; trying again later")

    async def expire(self) -> int:
        """Close the tables nobody joined (no person seated, nobody watching) for
        ``expire_unjoined`` seconds, and those whose people have all been gone for
        ``expire_abandoned`` seconds. Returns how many were closed."""
        now = time.monotonic()
        closed = 0
        for table in list(self.tables.values()):
            if not table.live or not table.owned or table.anyone_here():
                continue
            joined = any(s.kind == PERSON for s in table.seats)
            wait = self.limits.expire_abandoned if joined else self.limits.expire_unjoined
            if now - table.last_seen < wait:
                continue
            await self.close_table(table, "abandoned" if joined else "unjoined")
            closed += 1
        return closed

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
            self._remember(table)
        if self.on_expired is not None:
            self.on_expired(why)

    async def _lag_probe(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            start = loop.time()
            await asyncio.sleep(0.05)
            self.lag.append(max(0.0, loop.time() - start - 0.05))

    def stats(self) -> dict[str, Any]:
        """Tables, connections and the event loop's lag over the last minute or so."""
        lag = sorted(self.lag)

        def at(fraction: float) -> float | None:
            return (
                round(lag[min(len(lag) - 1, int(fraction * len(lag)))] * 1000, 2) if lag else None
            )

        live = self.live_tables()
        return {
            "tables": len(live),
            "connections": sum(len(t.connections) + len(t.spectators) for t in live),
            "search_ready": self.decider.search_ready,
            "commits": {"transactions": self.store.commits, "actions": self.store.committed},
            "loop_lag_ms": {
                "p50": at(0.5),
                "p99": at(0.99),
                "max": round(lag[-1] * 1000, 2) if lag else None,
            },
        }

    async def start(self) -> None:
        self._probe = asyncio.get_running_loop().create_task(self._lag_probe())
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        self.decider.start()
        if self.cluster is not None:  # the orphaned tables are taken (all, if alone)
            await self.cluster.start()
            return
        rows = await self.store.call(self.store.store.load_unfinished)
        for row in rows:
            try:
                table = LiveTable(self, row)
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
        for table in list(self.tables.values()):
            await table.stop()
        if self.cluster is not None:  # the locks go: another server takes the tables
            await self.cluster.stop()
        for task in list(self._background):
            task.cancel()
        self.decider.close()

    def hold(self, table: LiveTable) -> None:
        """Keep ``table`` in :attr:`tables` (somebody connected to it)."""
        if table.code not in self.tables:
            self.finished.pop(table.code, None)
            self.tables[table.code] = table

    def release(self, table: LiveTable) -> None:
        """A finished table nobody is connected to leaves :attr:`tables` for the short list
        of finished ones (memory stays bounded; the database has it all)."""
        if table.live or table.connections or table.spectators:
            return
        if self.tables.get(table.code) is table:
            del self.tables[table.code]
        self._remember(table)

    def _remember(self, table: LiveTable) -> None:
        self.finished[table.code] = table
        self.finished.move_to_end(table.code)
        while len(self.finished) > FINISHED_KEPT:
            self.finished.popitem(last=False)

    async def get(self, code: str) -> LiveTable | None:
        code = code.upper()
        table = self.tables.get(code) or self.finished.get(code)
        if table is not None:
            if (table.stale or table.pulling) and not table.owned:
                await table.pull()  # after one running: the table as it is now
            return table
        if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
            return None
        async with self._loading:
            table = self.tables.get(code) or self.finished.get(code)
            if table is not None:
                return table
            row = await self.store.call(self.store.store.load_table, code, True)
            if row is None:
                return None
            table = LiveTable(self, row)
            if not table.live:
                self._remember(table)
            else:
                self.tables[code] = table
                table.start()
                if self.cluster is not None and not table.owned:
                    # the news of a change written after the row was read, and told before
                    # the table was here, was not for it: read it again, now that the news is
                    await table.refresh()
            return table

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
        """Write a new table and keep it in :attr:`tables`. Under :attr:`_loading`: a
        look at the lobby meanwhile (:meth:`get` of its code) finds this table rather than
        reading it a second time."""
        async with self._loading:
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
            table = LiveTable(self, row)
            table.owned = owned
            table.owner = owner
            self.tables[code] = table
            return table
