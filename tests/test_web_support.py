"""Shared pieces of the web server's tests (no tests here): the databases (SQLite, and
PostgreSQL where ``$FIVEHUNDRED_TEST_PG_URL`` names one), a real uvicorn on a free loopback
port, and the checker of what each seat may know, written from the rule book."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from fivehundred.actions import JOKER_LEAD_BASE, PASS
from fivehundred.cards import JOKER, parse_card
from fivehundred.errors import FiveHundredError
from fivehundred.game import HandState
from fivehundred.record import parse_rules, replay_game, replay_hand
from fivehundred.rules import Rules

PG_ENV = "FIVEHUNDRED_TEST_PG_URL"
DATABASES = ["sqlite", "postgresql"]


def database_url(kind: str, tmp_path: Path) -> str:
    """A fresh, empty database of ``kind``. PostgreSQL is skipped only where no server is
    named and this is not CI (in CI a missing PostgreSQL fails)."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'web.sqlite3'}"
    url = os.environ.get(PG_ENV)
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail(f"{PG_ENV} is not set in CI: .ci/run starts PostgreSQL")
        pytest.skip(f"no PostgreSQL ({PG_ENV} unset)")
    url = worker_database(url)
    engine = sa.create_engine(url)
    with engine.begin() as db:
        # every table of the server's schema and whatever a test left (the migrations'
        # mark included): the public schema made again, empty
        db.execute(sa.text("DROP SCHEMA public CASCADE"))
        db.execute(sa.text("CREATE SCHEMA public"))
    engine.dispose()
    return url


def worker_database(url: str) -> str:
    """``url`` itself, or where the tests run in several processes (pytest-xdist: ``make
    test`` runs two), a database of this process's own beside it (``fivehundred_test_gw1``),
    made once: each test empties its database, which must not be another process's."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return url
    base = sa.make_url(url)
    name = f"{base.database}_{worker}"
    engine = sa.create_engine(base, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as db:
            found = db.execute(
                sa.text("SELECT 1 FROM pg_database WHERE datname = :name"), {"name": name}
            ).first()
            if found is None:
                db.execute(sa.text(f'CREATE DATABASE "{name}"'))
    finally:
        engine.dispose()
    return base.set(database=name).render_as_string(hide_password=False)


@pytest.fixture(params=DATABASES)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return database_url(request.param, tmp_path)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for_port(
    port: int, timeout: float = 30.0, process: subprocess.Popen[str] | None = None
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(
                f"the server exited: {process.stdout.read() if process.stdout else ''}"
            )
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise TimeoutError(f"nothing listens on port {port}")


@contextlib.contextmanager
def thread_server(db_url: str, **options: Any) -> Iterator[str]:
    """The app in a real uvicorn in a thread; yields ``http://127.0.0.1:PORT``."""
    import uvicorn

    from fivehundred.web.server import create_app

    app = create_app(
        db_url,
        workers=options.pop("workers", 0),
        allow_seeds=True,
        limits=options.pop("limits", None),
    )
    prepare = options.pop("prepare", None)  # a test's own settings of the app
    if prepare is not None:
        prepare(app)
    port = free_port()
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, log_level="warning", ws_max_size=65536, **options
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        wait_for_port(port)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(15)


def start_server_process(
    db_url: str, port: int, data_dir: Path, *extra: str
) -> subprocess.Popen[str]:
    """``fivehundred serve`` as a separate process (the restart tests kill it)."""
    env = {**os.environ, "FIVEHUNDRED_DATA_DIR": str(data_dir)}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "fivehundred",
            "serve",
            "--port",
            str(port),
            "--db",
            db_url,
            "--workers",
            "0",
            "--allow-seeds",
            "--log-level",
            "warning",
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
    )
    wait_for_port(port, 60, process)
    return process


# ----------------------------------------------------------------------------- clients
class Player:
    """A WebSocket client that keeps every message it received."""

    def __init__(self, ws: Any, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.received: list[dict[str, Any]] = []
        self.view: dict[str, Any] | None = None

    async def next(self, timeout: float = 10.0) -> dict[str, Any]:
        message = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        self.received.append(message)
        if message["type"] == "view":
            self.view = message
        return message

    async def until(self, predicate: Any, timeout: float = 20.0) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = await self.next(max(0.01, deadline - time.monotonic()))
            if predicate(message):
                return message


def ws_url(base: str, code: str, token: str | None = None) -> str:
    url = base.replace("http://", "ws://") + f"/ws/tables/{code}"
    return url + (f"?token={token}" if token else "")


# ----------------------------------------------------------------------------- the checker
def _card(text: str, rules: Rules) -> int | None:
    """The card a string names, or None if it names none (a joker led as a suit is the
    joker)."""
    if text.startswith("JK") and ">" in text:
        text = text.split(">")[0]
    try:
        return parse_card(text)
    except (FiveHundredError, ValueError):
        return None


def cards_in(message: dict[str, Any], rules: Rules) -> set[int]:
    """Every card named anywhere in a message, except in the fields that hold calls (bids
    look like cards) and names."""
    skip = {
        "auction",
        "contract",
        "called_card",
        "name",
        "names",
        "rules",
        "code",
        "type",
        "phase",
        "joker_suit",
        "joker_suits",
        "voids",
        "suits_led",
        "text",
        "kind",
    }
    found: set[int] = set()

    def walk(value: Any, key: str | None, phase: str | None) -> None:
        if key in skip:
            return
        if key == "legal" and phase not in ("play", "discard"):
            return  # bids, joker suits, partner calls
        if isinstance(value, dict):
            here = value.get("phase", phase) if isinstance(value.get("phase"), str) else phase
            for k, v in value.items():
                walk(v, k, here)
        elif isinstance(value, list):
            for v in value:
                walk(v, key, phase)
        elif isinstance(value, str):
            card = _card(value, rules)
            if card is not None:
                found.add(card)

    walk(message, None, None)
    return found


class Knowledge:
    """What each seat may know at each version of a finished game, from its record: its own
    hand; every card played; the kitty once it has taken it as contractor; the open-misère
    hand once the first trick is over; dummy cards lying face up (R-PLAYERS); nothing of the
    five-handed partnership before the called card is played unless announced."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.rules = parse_rules(record["rules"])
        rules = self.rules
        self.players = rules.players
        #: per hand: (first version, per step: the cards each seat (-1: a spectator) may
        #: know, whether the partnership is secret, and the cards each player holds)
        self.steps: list[
            tuple[int, list[dict[int, set[int]]], list[bool], list[dict[int, set[int]]]]
        ] = []
        version = 0
        #: per hand: every card played in it (the page may show the last trick of the hand
        #: just finished)
        self.played: list[set[int]] = []
        for index, hand_record in enumerate(record["hands"]):
            state = replay_hand(hand_record, rules, f"hands[{index}]", dealer=hand_record["dealer"])
            self.steps.append((version, *self._hand_knowledge(state)))
            self.played.append(set(_bits(state.played)))
            version += len(state.history)
        self.total = version
        #: Whether the game is over after the recorded hands. If not, the version after the
        #: last recorded action is already the next hand's deal (each seat holds new cards),
        #: which a record of finished hands does not hold: such views cannot be checked. (A
        #: game need not end within a test's actions: under the Australian win rule with
        #: failed_to_opponents, as in french_canadian, only a made contract wins, R-GAME.)
        self.over = replay_game(record).is_over

    def _hand_knowledge(
        self, final: HandState
    ) -> tuple[list[dict[int, set[int]]], list[bool], list[dict[int, set[int]]]]:
        rules = self.rules
        seats = rules.seats
        players = rules.players
        dealt = [set(_bits(final.dealt[s])) for s in range(seats)]
        kitty = set(_bits(final.kitty_dealt))
        discards = set(_bits(final.discards))
        trial = final.as_dealt()  # (the one rebuild from the deal: ralphing's bar kept)
        played: set[int] = set()
        completed_tricks = 0
        face_down: dict[int, dict[int, int]] = {}  # dummy seat -> {top card: card under it}
        shown_dummy: dict[int, set[int]] = {}
        for seat, order in zip((2, 3), final.dummy_deal, strict=False):
            face_down[seat] = dict(zip(order[5:], order[:5], strict=True))
            shown_dummy[seat] = set(order[5:])
        called = -1
        called_played = False
        trick_cards: list[int] = []
        per_step: list[dict[int, set[int]]] = []
        partners_secret: list[bool] = []
        holdings: list[dict[int, set[int]]] = []
        history = list(final.history)
        for step in range(len(history) + 1):
            contractor = trial.contractor
            contract_known = trial.phase not in ("auction",)
            knows: dict[int, set[int]] = {}
            public = set(played)
            for cards in shown_dummy.values():
                public |= cards
            if trial.contract >= 0 and _is_open_misere(trial) and completed_tricks >= 1:
                public |= (dealt[contractor] | kitty) - discards
            for player in range(players):
                own = set(dealt[player])
                if (
                    contract_known
                    and contractor >= 0
                    and contractor % players == player
                    and trial.contract >= 0
                ):
                    own |= kitty
                knows[player] = own | public
            knows[-1] = public
            per_step.append(knows)
            holdings.append({player: set(_bits(trial.hands[player])) for player in range(players)})
            partners_secret.append(
                rules.called_partner and not rules.partner_announces and not called_played
            )
            if step == len(history):
                break
            action = history[step]
            phase = trial.phase
            trial.apply(action)
            if phase == "call":
                called = trial.called_card
            if phase == "play":
                card = (
                    action if action < JOKER_LEAD_BASE else JOKER + (action - JOKER_LEAD_BASE) // 4
                )
                assert action < PASS
                played.add(card)
                trick_cards.append(card)
                if card == called:
                    called_played = True
                if len(trial.tricks) > completed_tricks:
                    completed_tricks = len(trial.tricks)
                    for seat, under in face_down.items():
                        for top in trick_cards:
                            if top in under:
                                shown_dummy[seat].add(under[top])
                    trick_cards = []
        return per_step, partners_secret, holdings

    def allowed(self, version: int, seat: int | None) -> tuple[set[int], bool, set[int]]:
        """The cards ``seat`` (None: a spectator) may know at ``version``, whether the
        five-handed partnership is still secret, and the cards played in the hand before."""
        index, step = self._step(version)
        _, per_step, secret, _ = self.steps[index]
        before = self.played[index - 1] if index else set()
        return per_step[step][-1 if seat is None else seat], secret[step], before

    def holding(self, version: int, seat: int) -> set[int]:
        """The cards player ``seat`` holds at ``version``."""
        index, step = self._step(version)
        return self.steps[index][3][step][seat]

    def _step(self, version: int) -> tuple[int, int]:
        """The hand (its index) and the step in it of ``version``."""
        for index in range(len(self.steps) - 1, -1, -1):
            first, per_step, _, _ = self.steps[index]
            if version >= first:
                return index, min(version - first, len(per_step) - 1)
        raise AssertionError(f"version {version} before the first hand")


def _bits(mask: int) -> list[int]:
    return [card for card in range(mask.bit_length()) if mask >> card & 1]


def _is_open_misere(state: HandState) -> bool:
    from fivehundred.actions import OPEN_MISERE

    return state.contract == OPEN_MISERE


def check_messages(record: dict[str, Any], seat: int | None, messages: list[dict[str, Any]]) -> int:
    """Fail if any message to ``seat`` names a card it may not know, or a secret partner.
    Returns the number of views checked."""
    knowledge = Knowledge(record)
    rules = knowledge.rules
    checked = 0
    for message in messages:
        if message.get("type") != "view":
            continue
        version = message["version"]
        if version > knowledge.total or (version == knowledge.total and not knowledge.over):
            continue  # a hand the record does not hold yet
        allowed, secret, before = knowledge.allowed(version, seat)
        message = json.loads(json.dumps(message))
        own_hand = message["view"].pop("own_hand", None)
        if own_hand is not None:
            # Two players, while the seat's dummy moves: exactly the player's own hand.
            assert seat is not None and message["view"]["seat"] != seat, (seat, version)
            held = {parse_card(text) for text in own_hand}
            assert held == knowledge.holding(version, seat), (
                f"seat {seat} at version {version} was sent {own_hand} as its own hand"
            )
        last = message["view"]["table"].pop("last_trick", None)
        leaked = cards_in(message, rules) - allowed
        if last is not None:  # of this hand, or the last trick of the hand before
            leaked |= cards_in(last, rules) - (allowed | before)
        assert not leaked, f"seat {seat} at version {version} was sent {sorted(leaked)}"
        view = message["view"]
        if secret and view["partners"]:
            holder = view.get("seat")
            assert holder is not None and holder in view["partners"], (
                f"seat {seat} at version {version} was told the partner {view['partners']}"
            )
        checked += 1
    return checked


def wait_for(check: Any, timeout: float, what: str) -> Any:
    """CHECK's first true value, asked every 50 ms; an AssertionError naming WHAT if none
    comes within TIMEOUT s (a state waited for, with a bound)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {timeout} s")
