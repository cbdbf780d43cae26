"""One person (seat 0, South) against computer players: the game behind both the
full-screen app and the line mode, on a :class:`~fivehundred.table.Table` (every preset:
two to six players).

The computer players see only their own :class:`~fivehundred.observation.Observation`.
Each decision is made by a player built afresh with a seed derived from the game's seed
and the position in the game, so the same game, replayed, makes the same decisions: that
is what lets undo and resume rebuild a game from its record and carry on exactly as
before. The game is written to disk after every action (see :mod:`.storage`).
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fivehundred import words
from fivehundred.actions import NUM_ACTIONS, Action
from fivehundred.bots import PLAYERS, uses_solver
from fivehundred.bots.decide import decide
from fivehundred.errors import (
    ActionParseError,
    CardParseError,
    FiveHundredError,
    IllegalActionError,
)
from fivehundred.game import DISCARD, GameState, HandState
from fivehundred.messages import error_text
from fivehundred.observation import Observation
from fivehundred.record import GAME_FORMAT, replay_game
from fivehundred.rules import PRESETS, SUPPORTED_PLAYERS, Rules, make_rules
from fivehundred.scoring import side_of_seats
from fivehundred.table import Move, NotYourTurnError, Table, check_player_name, derived_seed
from fivehundred.tui import storage

HUMAN = 0
#: Every action there is: what the vocabulary reads a person's words against when they
#: are no legal move (the rules then say why it is refused).
EVERY_ACTION = tuple(range(NUM_ACTIONS))
HUMAN_NAME = "human"
#: Computer players for defaults and hints: the level the web offers first (a steady
#: player), then the players it is made of.
BOT_PREFERENCE = (words.DEFAULT_LEVEL, "heuristic", "pimc", "random")
#: Seconds between computer moves unless the options say otherwise.
DEFAULT_SPEED = 0.6


def is_computer_player(name: object) -> bool:
    """A name the computer players understand (``heuristic``, ``pimc:fast``, ...)."""
    if not isinstance(name, str) or name == HUMAN_NAME:
        return False
    try:
        check_player_name(name)
    except FiveHundredError:
        return False
    return True


def default_bot() -> str:
    """The default level (``medium``, the web's too) when it is registered, else the best
    player there is."""
    return next(name for name in BOT_PREFERENCE if name in PLAYERS)


def hint_bot() -> str:
    """The player asked for hints: the heuristic (quick, and it explains itself)."""
    return default_bot()


def playable_presets() -> list[str]:
    """Presets the engine plays today (every one of two to six players)."""
    return [name for name, rules in PRESETS.items() if rules.players in SUPPORTED_PLAYERS]


@dataclass
class Settings:
    """The options of a game: rules, computer players, seed and pace."""

    preset: str = "australian"
    variants: dict[str, Any] = field(default_factory=dict)
    opponents: str = field(default_factory=default_bot)
    partner: str = field(default_factory=default_bot)
    seed: int | None = None
    speed: float = DEFAULT_SPEED

    def rules(self) -> Rules:
        """The rules; raises :class:`~fivehundred.errors.RulesError` for bad options."""
        return make_rules(self.preset, self.variants)

    @property
    def target(self) -> int:
        return self.rules().target

    def seat_players(self, rules: Rules | None = None) -> list[str]:
        """The player of each seat: seat 0 is the person, their side's other seats the
        partner, every other seat an opponent."""
        rules = rules or self.rules()
        sides = side_of_seats(rules)
        return [
            HUMAN_NAME
            if seat == HUMAN
            else self.partner
            if sides[seat] == sides[HUMAN]
            else self.opponents
            for seat in range(rules.players)
        ]

    def to_dict(self) -> dict[str, Any]:
        return {
            "preset": self.preset,
            "variants": dict(self.variants),
            "opponents": self.opponents,
            "partner": self.partner,
            "speed": self.speed,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Settings:
        """Settings from saved options; anything unusable falls back to the default."""
        settings = cls()
        preset = data.get("preset")
        if isinstance(preset, str) and preset in playable_presets():
            settings.preset = preset
        variants = data.get("variants")
        if isinstance(variants, dict):
            try:
                make_rules(settings.preset, variants)
                settings.variants = dict(variants)
            except FiveHundredError:
                pass
        for key in ("opponents", "partner"):
            name = data.get(key)
            if is_computer_player(name):
                setattr(settings, key, name)
        speed = data.get("speed")
        if isinstance(speed, int | float) and not isinstance(speed, bool) and 0 <= speed <= 10:
            settings.speed = float(speed)
        return settings


class Session:
    """A game of one person (seat 0) against computer players at every other seat, on a
    :class:`~fivehundred.table.Table`, saved after every action."""

    def __init__(
        self,
        settings: Settings,
        game: GameState | None = None,
        path: Path | None = None,
        autosave: bool = True,
    ) -> None:
        if settings.seed is None:
            settings.seed = random.SystemRandom().randrange(1, 10**9)
        self.settings = settings
        self.rules = settings.rules()
        self.table = Table(self.rules, settings.seat_players(self.rules), settings.seed, game)
        self.path = path if path is not None else storage.save_path()
        self.autosave = autosave
        #: The last hand finished whose summary the person has not yet dismissed (or None).
        self.pending_summary: int | None = None
        self.last_archive: Path | None = None
        #: Why the last save failed (the game goes on in memory), or "".
        self.save_problem = ""

    # ----------------------------------------------------------------- state
    @property
    def game(self) -> GameState:
        return self.table.game

    @property
    def seed(self) -> int:
        assert self.settings.seed is not None
        return self.settings.seed

    @property
    def seats(self) -> int:
        return self.rules.seats

    @property
    def hand(self) -> HandState:
        return self.game.hand

    @property
    def hand_number(self) -> int:
        """1-based number of the hand in progress."""
        return len(self.game.finished_hands) + 1

    @property
    def position(self) -> tuple[int, int]:
        """Where the game stands: the hand's number and the moves made in it. A screen
        drawn at another position is stale (a move, an undo, a new hand)."""
        return self.hand_number, len(self.hand.history)

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def to_move(self) -> int:
        """The seat whose turn it is (a dummy's seat with two players); -1 when over."""
        return self.table.seat_to_move

    @property
    def human_to_move(self) -> bool:
        return (
            not self.game.is_over and self.pending_summary is None and self.table.to_move == HUMAN
        )

    @property
    def computer_to_move(self) -> bool:
        return (
            not self.game.is_over and self.pending_summary is None and self.table.computer_to_move
        )

    @property
    def acting_seat(self) -> int:
        """The seat the person acts for now: their own, or their dummy's (two players)."""
        seat = self.to_move
        return seat if seat >= 0 and self.table.controller_of(seat) == HUMAN else HUMAN

    def observation(self) -> Observation:
        """What the person may see now (from the seat they act for: their dummy's when
        they play it)."""
        return self.game.observation(self.acting_seat)

    def legal_actions(self) -> list[Action]:
        return self.game.legal_actions() if self.human_to_move else []

    def _refusal(self, action: Action) -> FiveHundredError | None:
        """The error the person's ``action`` would raise now, or None if it is allowed."""
        if self.game.is_over:
            return IllegalActionError("the game is over", "R-GAME")
        if self.pending_summary is not None:
            return IllegalActionError("the hand is over: continue to the next hand")
        if not self.human_to_move:
            return NotYourTurnError("it is not your turn")
        return self.table.refusal(HUMAN, action)

    def illegal_reason(self, action: Action) -> str | None:
        """Why the person may not make ``action`` now, in card language (the rule id in
        brackets), or None if it is legal."""
        error = self._refusal(action)
        return None if error is None else error_text(error, self.rules.joker_names)

    def parse(self, text: str) -> Action:
        """The person's move from any form the game prints (``5♠``, ``7h``, ``open
        misère``, ``JK as ♠``) or the record notation, read by the vocabulary against the
        legal moves (``7H`` is a bid in the auction and a card in play). A move that is not
        legal is read for the phase, so that the rules say why they refuse it; raises
        :class:`ActionParseError` (or :class:`CardParseError`) for what is no move."""
        legal = self.legal_actions()
        jokers = self.rules.joker_names
        meant: Action | None = None
        with contextlib.suppress(ActionParseError, CardParseError):
            meant = words.parse(text, legal, jokers)
            if meant in legal:
                return meant
        try:
            return words.parse(text, None, jokers, self.observation().phase)
        except (ActionParseError, CardParseError):
            if meant is not None:
                return meant
            with contextlib.suppress(ActionParseError, CardParseError):
                return words.parse(text, EVERY_ACTION, jokers)  # any label: the rules refuse
            raise

    # ----------------------------------------------------------------- acting
    def play(self, action: Action) -> Move:
        """Make the person's action; raises :class:`IllegalActionError` (naming the rule)
        if it is not allowed, leaving the game unchanged."""
        error = self._refusal(action)
        if error is not None:
            raise error
        return self._apply(HUMAN, action)

    def computer_choice(self) -> tuple[int, Action, str]:
        """The computer player to move chooses (from its observation only): seat, action,
        and its explanation. Does not change the game, so it may run in a thread."""
        if not self.computer_to_move:
            raise ValueError("no computer player is to move")
        return self.table.computer_choice()

    def apply_computer(self, seat: int, action: Action) -> Move:
        """Apply a computer player's chosen action (checked like any other)."""
        if not self.computer_to_move or seat != self.table.to_move:
            raise ValueError(f"seat {seat} is not to move")
        return self._apply(seat, action)

    def step_computer(self) -> Move:
        seat, action, _ = self.computer_choice()
        return self.apply_computer(seat, action)

    def _apply(self, seat: int, action: Action) -> Move:
        finished = len(self.game.finished_hands)
        move = self.table.apply(seat, action)
        if len(self.game.finished_hands) > finished:
            self.pending_summary = finished
        self.save()
        return move

    def dismiss_summary(self) -> None:
        self.pending_summary = None

    def hint(self, marked: Collection[Action] = ()) -> tuple[Action, str]:
        """The move the computer would make in the person's place, and why.

        ``marked``: in the kitty exchange, the cards already marked to discard; the hint is
        then the computer's next discard after them (never one already marked)."""
        if not self.human_to_move:
            raise ValueError("it is not your turn")
        hand = self.game.hand
        obs = self.observation()
        if hand.phase == DISCARD and marked:
            ahead = hand.clone()
            for card in sorted(marked):
                if ahead.phase != DISCARD or card not in ahead.legal_actions():
                    break
                ahead.apply(card)
            if ahead.phase == DISCARD and ahead.to_move == hand.to_move:
                obs = ahead.observation(self.acting_seat, self.game.scores)
        seed = derived_seed(self.seed, self.hand_number, len(hand.history), "hint")
        action, why = decide(hint_bot(), seed, obs)
        return action, why or f"the {hint_bot()} player's choice"

    def discard_choice(self) -> list[Action]:
        """In the kitty exchange: every card the computer would discard in the person's
        place, one hint after another."""
        chosen: list[Action] = []
        for _ in range(self.game.hand.discards_left):
            action, _why = self.hint(chosen)
            if action in chosen:
                break
            chosen.append(action)
        return chosen

    def needs_solver_warm_up(self, review: bool = False) -> bool:
        """Whether a computer player here searches with the double-dummy solver (``pimc``
        and its settings, the levels ``hard`` and ``expert``), or ``review`` (the
        double-dummy review) is asked for, and the solver's kernels are not yet ready in
        this process (see :meth:`warm_up_solver`)."""
        if not review and not any(uses_solver(name) for name in self.table.players):
            return False
        try:
            from fivehundred import solver
        except ImportError:
            return False  # the pimc player falls back to the heuristic
        return not solver.is_compiled()

    @staticmethod
    def warm_up_solver(progress: Callable[[int, int], None] | None = None) -> None:
        """Prepare the solver now (milliseconds: its kernel is compiled when the package is
        installed)."""
        from fivehundred import solver

        solver.warm_up(progress)

    # ----------------------------------------------------------------- undo
    @property
    def can_undo(self) -> bool:
        return self.table.can_undo(HUMAN)

    def undo(self) -> bool:
        """Take back the person's last decision (a whole kitty exchange is one) and the
        computer actions after it, by rebuilding the game from its log; False if there is
        nothing to take back."""
        if not self.table.undo(HUMAN):
            return False
        self.pending_summary = None
        self.save()
        return True

    # ----------------------------------------------------------------- records and saving
    def record(self) -> dict[str, Any]:
        """The game as a ``fivehundred-game/1`` record, with its seed and who played."""
        return self.table.record()

    def save(self) -> None:
        """Rewrite the save file (atomically); a finished game is also archived."""
        if not self.autosave:
            return
        record = self.record()
        try:
            storage.write_json_atomic(self.path, record)
            if self.game.is_over and self.last_archive is None:
                archive = storage.archive_path("finished", self.seed)
                storage.write_json_atomic(archive, record)
                self.last_archive = archive
        except OSError as error:
            self.save_problem = f"cannot save the game to {self.path}: {error.strerror or error}"
        else:
            self.save_problem = ""

    @classmethod
    def new(cls, settings: Settings, path: Path | None = None) -> Session:
        """A new game. An unfinished game in the save file is first put aside under
        ``games/`` so that starting afresh never loses one (``--list`` shows them)."""
        path = path if path is not None else storage.save_path()
        put_aside(path)
        session = cls(settings, path=path)
        session.save()
        return session

    @classmethod
    def reopen(cls, path: Path, speed: float | None = None) -> Session:
        """Continue an unfinished game kept under ``games/`` (see :func:`unfinished_games`):
        the game in the save file, if unfinished, is put aside in its place."""
        current = storage.save_path()
        if path.resolve() == current.resolve():
            return cls.resume(current, speed)
        session = cls.from_record(storage.read_json(path, "saved game"), current, speed)
        put_aside(current)
        path.replace(current)
        return session

    @classmethod
    def resume(cls, path: Path | None = None, speed: float | None = None) -> Session:
        """Continue the saved game; raises :class:`storage.SaveError` with a clear message
        if there is none or it cannot be read."""
        path = path if path is not None else storage.save_path()
        data = storage.read_json(path, "saved game")
        return cls.from_record(data, path, speed)

    @classmethod
    def from_record(cls, data: Any, path: Path, speed: float | None = None) -> Session:
        if not isinstance(data, dict) or data.get("format") != GAME_FORMAT:
            raise storage.SaveError(
                f"the saved game {path} is damaged (not a {GAME_FORMAT} record)"
            )
        try:
            game = replay_game(data)
        except (ValueError, TypeError, KeyError, RecursionError, MemoryError) as error:
            raise storage.SaveError(f"the saved game {path} is damaged ({_short(error)})") from None
        seed = data.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
            seed = random.SystemRandom().randrange(1, 10**9)
        preferences = storage.load_settings()
        settings = Settings.from_dict(preferences)
        settings.preset = game.rules.preset
        settings.variants = dict(game.rules.variants)
        settings.seed = seed
        if speed is not None:
            settings.speed = speed
        players = data.get("players")
        rules = game.rules
        if isinstance(players, list) and len(players) == rules.players:
            sides = side_of_seats(rules)
            for seat, name in enumerate(players):
                if seat == HUMAN or not is_computer_player(name):
                    continue
                if sides[seat] == sides[HUMAN]:
                    settings.partner = name
                else:
                    settings.opponents = name
        if game.seed != seed:
            # A save without a usable seed: hands to come are dealt from a fresh one.
            game.seed = seed
            if not game.is_over and not game.hand.history:
                fresh = HandState.deal(
                    game.rules, game.hand.dealer, f"{seed}/hand-{len(game.finished_hands)}"
                )
                game.hand = fresh
        session = cls(settings, game, path)
        if game.is_over:
            session.last_archive = path
        return session


def _short(error: BaseException, path: Path | None = None) -> str:
    """The error's text, at most 200 characters, without ``path`` in it."""
    text = str(error) or type(error).__name__
    if path is not None:
        text = text.replace(f" {path}", "")
    if isinstance(error, RecursionError):
        text = "nested too deeply"
    return text if len(text) <= 200 else text[:197] + "..."


def put_aside(path: Path) -> Path | None:
    """Move an unfinished (or unreadable) game at ``path`` to ``games/`` (never losing
    one); a finished game is already archived and is left to be overwritten. Returns
    where it went, or None."""
    if not path.exists():
        return None
    seed: object = "unknown"
    kind = "unfinished"
    try:
        old = storage.read_json(path, "saved game")
        if isinstance(old, dict):
            seed = old.get("seed", "unknown")
        finished = replay_game(old).is_over
    except Exception:
        finished, kind = False, "damaged"
    if finished:
        return None
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**63:
        seed = "unknown"
    aside = storage.archive_path(kind, seed)
    aside.parent.mkdir(parents=True, exist_ok=True)
    path.replace(aside)
    return aside


def unfinished_games() -> list[Path]:
    """The games that can be continued: the save file (if its game is unfinished), then
    the unfinished games put aside under ``games/``, newest first."""
    games: list[Path] = []
    current = storage.save_path()
    try:
        if current.exists() and not replay_game(storage.read_json(current)).is_over:
            games.append(current)
    except Exception:
        pass
    try:
        aside = sorted(
            (storage.data_dir() / storage.GAMES_DIR).glob("*-unfinished-*.json"), reverse=True
        )
    except OSError:
        aside = []
    return games + aside


def damaged_games() -> list[Path]:
    """The saves that could not be read and were put aside (``games/*-damaged-*``),
    newest first: listed by ``--list``, never lost."""
    try:
        return sorted(
            (storage.data_dir() / storage.GAMES_DIR).glob("*-damaged-*.json"), reverse=True
        )
    except OSError:
        return []


def describe_saved(path: Path) -> str:
    """One line about a saved game: rules, hand, score (or why it cannot be read)."""
    try:
        game = replay_game(storage.read_json(path, "saved game"))
    except Exception as error:
        # the reason whole (it was cut at 80 characters, mid-word), without the path again
        return f"{path.name}: cannot be read: {_short(error, path)}"
    scores = "–".join(str(score) for score in game.scores)
    return f"{path.name}: {game.rules.preset}, hand {len(game.finished_hands) + 1}, score {scores}"
