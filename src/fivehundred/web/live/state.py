"""A table's state and its commit: seats, log, game, views, connections here."""

from __future__ import annotations

import asyncio
import hmac
import logging
import math
import secrets
import time
from functools import cached_property
from typing import TYPE_CHECKING, Any

from fivehundred.actions import (
    Action,
    action_card,
    action_text,
    parse_action,
)
from fivehundred.errors import FiveHundredError
from fivehundred.game import controller_of
from fivehundred.messages import error_text
from fivehundred.rules import rules_from_dict
from fivehundred.table import HUMAN, Table
from fivehundred.web import views
from fivehundred.web.deadlines import FINISH, GRACE, TURN, Deadline, TimedActionRow
from fivehundred.web.live.base import (
    COMPUTER,
    DEFAULT_OPTIONS,
    EARLY_REFUSALS,
    OPEN,
    PERSON,
    Refusal,
)
from fivehundred.web.live.connections import Connection, SeatState, encode
from fivehundred.web.live.model import copy_table, model_copy, replay_log, same_rules
from fivehundred.web.store import (
    ActionRow,
    HandRow,
    TableRow,
    token_hash,
)
from fivehundred.words import waiting

if TYPE_CHECKING:
    from fivehundred.web.live.hub import Hub

log = logging.getLogger("fivehundred.web")


class TableState:
    """A table's state in memory: its seats, log and game, the connections here, what
    each sees (:meth:`view`), and the one way an action is made (:meth:`commit`: into the
    database, then the state, then everyone)."""

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
        #: monotonic time it was last asked for (a dormant table read is kept a while)
        self.touched = time.monotonic()
        #: seconds after it is made (or resumed without its deadlines) before the stand-in
        #: plays a seat nobody took (None: the server's ``open_seat_grace``; a rematch's: the
        #: table's grace, as if its players who have not asked yet were away)
        self.open_grace: float | None = None
        #: its rows of ``deadlines`` as last read or written by this server (web/deadlines.py)
        self.deadlines: dict[tuple[str, int], Deadline] = {}
        #: with a clock per game (web/game_clock.py): the seconds each seat spent on its
        #: moves (None: not read yet, as the owner's driver does) and when the turn began
        self.spent: list[float] | None = None if row.actions else [0.0] * len(self.seats)
        self.turn_began = self.created
        #: just made by this server, which owns it: it has no rows to read yet
        self.fresh = False
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
        #: inbox id -> monotonic time it was passed on (unanswered past base.FORWARD_WAIT: refused)
        self.forwarded_at: dict[int, float] = {}
        #: inbox id -> a refusal whose news came before the id was known here (the owner
        #: may refuse before the forward's own answer reaches this loop): the latest few
        self.refused_early: dict[int, str] = {}
        self.puller: asyncio.Task[None] | None = None
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
        if seat in self.connections:
            return True
        return bool(self.remote) and any(seat in s for s, _ in self.remote.values())

    def left(self, seats: frozenset[int]) -> None:
        """``seats``' people are no longer connected to another server: unless connected
        elsewhere, each one's grace starts now (as for a disconnect here: the owner's
        driver writes its deadline)."""
        if any(seat < len(self.seats) and not self.present(seat) for seat in seats):
            self.wake.set()

    def anyone_here(self) -> bool:
        return bool(
            self.connections or self.spectators or any(s or n for s, n in self.remote.values())
        )

    def stand_in_now(self, seat: int) -> bool:
        """The stand-in plays the seat: its person is away and the grace is over (at a
        turn-based table: their clock ran out too often, and it has the seat for the game)."""
        if self.seats[seat].kind != PERSON:
            return False
        if self.overtime:
            return True
        if self.turn_based:
            return self.held_by_stand_in(seat)
        grace = self.deadlines.get((GRACE, seat))
        return not self.present(seat) and grace is not None and grace.fired

    @property
    def turn_based(self) -> bool:
        """A table played over days: a clock per move, no connection needed, no grace."""
        return bool(self.options.get("move_clock"))

    @property
    def overtime(self) -> bool:
        """The game's own deadline (``options.finish_by``: a turn-based tournament's
        round) fired: the stand-in plays every person's seat to the end."""
        finish = self.deadlines.get((FINISH, 0))
        return finish is not None and finish.fired

    def clock_seconds(self) -> float | None:
        """Seconds on the clock of each move of a person (the turn-based clock, else the
        turn timer), if the table has one."""
        seconds = self.options.get("move_clock") or self.options["turn_timer"]
        return float(seconds) if seconds else None

    def bank_left(self, seat: int, spent: list[float] | None = None) -> float | None:
        """Seconds left of ``seat``'s clock per game at its turn's start (by ``spent``, else
        what it spent so far), if the table has one and it is known."""
        bank = self.options.get("game_clock")
        spent = self.spent if spent is None else spent
        if not bank or spent is None:
            return None
        return float(bank) - spent[seat]

    def spent_after(self, seat: int, now: float) -> list[float] | None:
        """What the seats spent once ``seat`` moves at ``now`` (None: not known)."""
        if self.spent is None:
            return None
        spent = list(self.spent)
        spent[seat] += max(0.0, now - self.turn_began)
        return spent

    def banks(self) -> list[dict[str, Any]] | None:
        """The view's clock per game: each person's seconds left at the turn's start, and
        for the seat to move the wall-clock time its bank runs out (``ends``)."""
        if not self.options.get("game_clock") or self.spent is None:
            return None
        shown = []
        for seat, state in enumerate(self.seats):
            left = self.bank_left(seat)
            running = self.live and seat == self.model.to_move and left is not None
            shown.append(
                {
                    "left": None if state.kind != PERSON or left is None else max(0.0, left),
                    "ends": self.turn_began + max(0.0, left) if running and left else None,
                }
            )
        return shown

    def timeouts(self, seat: int) -> int:
        """How many of ``seat``'s moves its clock made (``timer`` in the log)."""
        return sum(1 for mover, _, by in self.log if mover == seat and by == "timer")

    def held_by_stand_in(
        self, seat: int, timeouts: int | None = None, spent: list[float] | None = None
    ) -> bool:
        """At a turn-based table: the seat's clock ran out ``move_timeouts`` times, or its
        clock per game is spent (by ``spent``, else what it spent so far), and the stand-in
        plays it for the rest of the game."""
        if self.overtime:
            return True
        bank = self.bank_left(seat, spent) if self.turn_based else None
        if bank is not None and bank <= 0:
            return True
        if timeouts is None:
            timeouts = self.timeouts(seat)
        return self.turn_based and timeouts >= int(self.options.get("move_timeouts", 3))

    def turn_deadline(self) -> float | None:
        """When the clock of the person to move runs out (wall clock), if it runs."""
        timer = self.clock_seconds()
        if not timer:
            return None
        seat = self.model.to_move
        if self.model.is_over or self.seats[seat].kind != PERSON:
            return None
        if self.held_by_stand_in(seat):
            return None
        clock = self.deadlines.get((TURN, seat))
        if clock is not None and clock.version == self.version:
            return clock.due
        bank = self.bank_left(seat) if self.turn_based else None
        return self.turn_started + min(float(timer), math.inf if bank is None else bank)

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
        opened = tuple(state.kind == OPEN for state in self.seats)
        names, side_names = views.names_of(self.rules, tuple(self.player_names()), opened)
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
            "turn_deadline": self.turn_deadline(),
            # a clock per game: each seat's time left (None: no such clock)
            "banks": self.banks(),
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

    def checked(self, seat: int, version: int, text: str) -> Action:
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
        if conn is None:  # not passed on from here, or not known yet: kept a while
            self.refused_early[forwarded] = reason
            while len(self.refused_early) > EARLY_REFUSALS:
                self.refused_early.pop(next(iter(self.refused_early)))
            return
        self.answered(conn)
        conn.send({"type": "error", "message": reason, "version": self.version})

    async def undo_seat(self, seat: int) -> None:
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
            if self.options.get("game_clock"):  # what the seats spent, as the log is now
                self.spent = None
                self.hub.spawn(self.read_spent())
            log.info("table %s: seat %d took back to version %d", self.code, seat, keep)
            self.broadcast()
            self.wake.set()

    def _log_length_of(self, model: Table) -> int | None:
        """How many of the log's actions make ``model``'s position."""
        done = sum(len(h.history) for h in model.game.finished_hands)
        length = done + len(model.game.hand.history)
        return length if length <= len(self.log) else None

    def action_row(
        self,
        model: Table,
        seat: int,
        text: str,
        by: str,
        hand_row: HandRow | None,
        finished: tuple[int, list[int]] | None,
    ) -> ActionRow:
        """The row of ``seat``'s action ``text`` that makes ``model``: with the deadlines it
        changes where it changes any (written in the action's transaction): the next turn's
        clock where the table has one, none once the game is over."""
        code = self.code if self.hub.cluster is not None else None
        version = self.version + 1
        timer = self.clock_seconds()
        ticking = next((s for kind, s in self.deadlines if kind == TURN), None)
        clock = None
        nxt = model.to_move
        if timer and not model.is_over and self.seats[nxt].kind == PERSON:
            now = time.time()
            timeouts = self.timeouts(nxt) + (by == "timer" and seat == nxt)
            spent = self.spent_after(seat, now)
            if not self.held_by_stand_in(nxt, timeouts, spent):
                bank = self.bank_left(nxt, spent) if self.turn_based else None
                clock = (nxt, now + min(timer, math.inf if bank is None else bank))
        if clock is None and ticking is None and (finished is None or not self.deadlines):
            return ActionRow(self.id, version, seat, text, by, hand_row, finished, code)
        return TimedActionRow(
            self.id, version, seat, text, by, hand_row, finished, code, clock, ticking
        )

    async def commit(self, seat: int, action: Action, by: str) -> None:
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
        row = self.action_row(model, seat, text, by, hand_row, finished)
        try:  # group commit: answered once the action is in the database
            await self.hub.store.append_action(row)
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
        self.spent = self.spent_after(seat, self.turn_started)
        self.turn_began = self.turn_started
        if isinstance(row, TimedActionRow):  # its deadlines replaced the last ones
            self.deadlines = {
                k: d for k, d in self.deadlines.items() if k[0] != TURN and finished is None
            } | row.put
            if row.put:
                self.hub.scheduler.noted(min(d.due for d in row.put.values()))
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

    if TYPE_CHECKING:  # (cluster following: :class:`~fivehundred.web.live.following.Following`)

        async def refresh(self, with_log: bool = True) -> None: ...

        async def read_spent(self) -> None: ...  # (automation: web/game_clock.py)
