"""One person (South, seat 0) against three computer players: the game behind both the
full-screen app and the line mode.

The computer players see only their own :class:`~fivehundred.observation.Observation`.
Each decision is made by a player built afresh with a seed derived from the game's seed
and the position in the game, so the same game, replayed, makes the same decisions: that
is what lets undo and resume rebuild a game from its record and carry on exactly as
before. The game is written to disk after every action (see :mod:`.storage`).
"""

from __future__ import annotations

import random
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fivehundred.actions import Action, parse_action
from fivehundred.bots import PLAYERS, make_player
from fivehundred.errors import FiveHundredError, IllegalActionError
from fivehundred.game import GameState, HandState
from fivehundred.observation import Observation
from fivehundred.record import GAME_FORMAT, game_record, replay_game
from fivehundred.rules import PRESETS, SUPPORTED_PLAYERS, Rules, make_rules
from fivehundred.tui import storage

HUMAN = 0
PARTNER = 2
HUMAN_NAME = "human"
#: Computer players from strongest to weakest, for defaults and hints.
BOT_PREFERENCE = ("heuristic", "pimc", "random")
#: Seconds between computer moves unless the options say otherwise.
DEFAULT_SPEED = 0.6


def available_bots() -> list[str]:
    """Registered computer players, the preferred ones first."""
    known = [name for name in BOT_PREFERENCE if name in PLAYERS]
    return known + sorted(name for name in PLAYERS if name not in known)


def default_bot() -> str:
    """``heuristic`` when it is registered, else the best player there is."""
    return available_bots()[0]


def hint_bot() -> str:
    """The player asked for hints: the heuristic (quick, and it explains itself)."""
    return default_bot()


def playable_presets() -> list[str]:
    """Presets the engine plays today (four players)."""
    return [name for name, rules in PRESETS.items() if rules.players in SUPPORTED_PLAYERS]


def derived_seed(*parts: object) -> int:
    """A stable 32-bit seed from the parts (the same in every run, unlike ``hash``)."""
    return zlib.crc32("/".join(str(p) for p in parts).encode())


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

    def seat_players(self) -> list[str]:
        """The player of each seat: South is the person, North the partner."""
        return [HUMAN_NAME, self.opponents, self.partner, self.opponents]

    def to_dict(self) -> dict[str, Any]:
        return {"preset": self.preset, "variants": dict(self.variants),
                "opponents": self.opponents, "partner": self.partner,
                "speed": self.speed}  # fmt: skip

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
            if isinstance(name, str) and name in PLAYERS:
                setattr(settings, key, name)
        speed = data.get("speed")
        if isinstance(speed, int | float) and not isinstance(speed, bool) and 0 <= speed <= 10:
            settings.speed = float(speed)
        return settings


@dataclass(frozen=True)
class Move:
    """One action made in the game: which hand, who, what, in which phase."""

    hand_number: int
    seat: int
    action: Action
    phase: str


class Session:
    """A game of one person against three computer players, saved after every action."""

    def __init__(self, settings: Settings, game: GameState | None = None,
                 path: Path | None = None, autosave: bool = True) -> None:  # fmt: skip
        if settings.seed is None:
            settings.seed = random.SystemRandom().randrange(1, 10**9)
        self.settings = settings
        self.rules = settings.rules()
        self.game = game if game is not None else GameState(self.rules, settings.seed)
        self.path = path if path is not None else storage.save_path()
        self.autosave = autosave
        #: The last hand finished whose summary the person has not yet dismissed (or None).
        self.pending_summary: int | None = None
        self.last_archive: Path | None = None

    # ----------------------------------------------------------------- state
    @property
    def seed(self) -> int:
        assert self.settings.seed is not None
        return self.settings.seed

    @property
    def hand(self) -> HandState:
        return self.game.hand

    @property
    def hand_number(self) -> int:
        """1-based number of the hand in progress."""
        return len(self.game.finished_hands) + 1

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def to_move(self) -> int:
        return -1 if self.game.is_over else self.game.hand.to_move

    @property
    def human_to_move(self) -> bool:
        return not self.game.is_over and self.pending_summary is None and self.to_move == HUMAN

    @property
    def computer_to_move(self) -> bool:
        return not self.game.is_over and self.pending_summary is None and self.to_move != HUMAN

    def observation(self) -> Observation:
        """What the person may see now."""
        return self.game.observation(HUMAN)

    def legal_actions(self) -> list[Action]:
        return self.game.legal_actions() if self.human_to_move else []

    def _refusal(self, action: Action) -> FiveHundredError | None:
        """The error the person's ``action`` would raise now, or None if it is allowed."""
        if self.game.is_over:
            return IllegalActionError("the game is over", "R-GAME")
        if self.pending_summary is not None:
            return IllegalActionError("the hand is over: continue to the next hand")
        if self.to_move != HUMAN:
            return IllegalActionError("it is not your turn")
        trial = self.game.hand.clone()
        try:
            trial.apply(action)
        except FiveHundredError as error:
            return error
        return None

    def illegal_reason(self, action: Action) -> str | None:
        """Why the person may not make ``action`` now (citing the rule), or None if legal."""
        error = self._refusal(action)
        return None if error is None else str(error)

    def parse(self, text: str) -> Action:
        """The person's move from record notation, read for the phase (``7H`` is a bid in
        the auction and a card in play); raises :class:`ActionParseError`."""
        return parse_action(text, self.game.hand.phase)

    # ----------------------------------------------------------------- acting
    def play(self, action: Action) -> Move:
        """Make the person's action; raises :class:`IllegalActionError` (naming the rule)
        if it is not allowed, leaving the game unchanged."""
        error = self._refusal(action)
        if error is not None:
            raise error
        return self._apply(action)

    def computer_choice(self) -> tuple[int, Action, str]:
        """The computer player to move chooses (from its observation only): seat, action,
        and its explanation. Does not change the game, so it may run in a thread."""
        seat = self.to_move
        if seat == HUMAN or seat < 0:
            raise ValueError("no computer player is to move")
        hand = self.game.hand
        name = self.settings.seat_players()[seat]
        player = make_player(name, derived_seed(self.seed, self.hand_number, len(hand.history),
                                                seat))  # fmt: skip
        action = player.act(self.game.observation(seat))
        return seat, action, player.explain()

    def apply_computer(self, seat: int, action: Action) -> Move:
        """Apply a computer player's chosen action (checked like any other)."""
        if self.to_move != seat or seat == HUMAN:
            raise ValueError(f"seat {seat} is not to move")
        return self._apply(action)

    def step_computer(self) -> Move:
        seat, action, _ = self.computer_choice()
        return self.apply_computer(seat, action)

    def _apply(self, action: Action) -> Move:
        seat = self.to_move
        phase = self.game.hand.phase
        number = self.hand_number
        finished = len(self.game.finished_hands)
        self.game.apply(action)
        if len(self.game.finished_hands) > finished:
            self.pending_summary = finished
        self.save()
        return Move(number, seat, action, phase)

    def dismiss_summary(self) -> None:
        self.pending_summary = None

    def hint(self) -> tuple[Action, str]:
        """The move the computer would make in the person's place, and why."""
        if not self.human_to_move:
            raise ValueError("it is not your turn")
        hand = self.game.hand
        player = make_player(hint_bot(), derived_seed(self.seed, self.hand_number,
                                                      len(hand.history), "hint"))  # fmt: skip
        action = player.act(self.observation())
        return action, player.explain() or f"the {hint_bot()} player's choice"

    # ----------------------------------------------------------------- undo
    def _undo_point(self) -> tuple[int, int] | None:
        """(hand index, action index) of the person's last action that can be taken back:
        in the hand in progress, or in the hand just finished if none yet in this one."""
        hands = [*self.game.finished_hands]
        if not self.game.is_over:
            hands.append(self.game.hand)
        for index in range(len(hands) - 1, max(len(hands) - 3, -1), -1):
            hand = hands[index]
            seats = _seats_of_history(hand)
            for position in range(len(hand.history) - 1, -1, -1):
                if seats[position] == HUMAN:
                    return index, position
        return None

    @property
    def can_undo(self) -> bool:
        return self._undo_point() is not None

    def undo(self) -> bool:
        """Take back the person's last action and the computer actions after it, by
        rebuilding the game from its record; False if there is nothing to take back."""
        point = self._undo_point()
        if point is None:
            return False
        hand_index, position = point
        hands = [*self.game.finished_hands]
        if not self.game.is_over:
            hands.append(self.game.hand)
        game = GameState(self.rules, self.seed, self.game.first_dealer)
        for index in range(hand_index + 1):
            hand = hands[index]
            game.replace_deal(hand.dealt, hand.kitty_dealt)
            actions = hand.history if index < hand_index else hand.history[:position]
            for action in actions:
                game.apply(action)
        self.game = game
        self.pending_summary = None
        self.save()
        return True

    # ----------------------------------------------------------------- records and saving
    def record(self) -> dict[str, Any]:
        """The game as a ``fivehundred-game/1`` record, with its seed and who played."""
        self.game.seed = self.seed
        return game_record(self.game, players=self.settings.seat_players())

    def save(self) -> None:
        """Rewrite the save file (atomically); a finished game is also archived."""
        if not self.autosave:
            return
        record = self.record()
        storage.write_json_atomic(self.path, record)
        if self.game.is_over and self.last_archive is None:
            self.last_archive = storage.archive_path("finished", self.seed)
            storage.write_json_atomic(self.last_archive, record)

    @classmethod
    def new(cls, settings: Settings, path: Path | None = None) -> Session:
        """A new game. An unfinished game in the save file is first put aside under
        ``games/`` so that starting afresh never loses one."""
        path = path if path is not None else storage.save_path()
        if path.exists():
            try:
                old = storage.read_json(path, "saved game")
                finished = replay_game(old).is_over
            except (storage.SaveError, FiveHundredError):
                old, finished = None, False
            if not finished:
                seed = old.get("seed", "unknown") if isinstance(old, dict) else "unknown"
                aside = storage.archive_path("unfinished", seed)
                aside.parent.mkdir(parents=True, exist_ok=True)
                path.replace(aside)
        session = cls(settings, path=path)
        session.save()
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
            raise storage.SaveError(f"the saved game {path} is damaged (not a "
                                    f"{GAME_FORMAT} record)")  # fmt: skip
        try:
            game = replay_game(data)
        except FiveHundredError as error:
            raise storage.SaveError(f"the saved game {path} is damaged ({error})") from None
        seed = data.get("seed")
        if not isinstance(seed, int) or isinstance(seed, bool):
            seed = random.SystemRandom().randrange(1, 10**9)
        preferences = storage.load_settings()
        settings = Settings.from_dict(preferences)
        settings.preset = game.rules.preset
        settings.variants = dict(game.rules.variants)
        settings.seed = seed
        if speed is not None:
            settings.speed = speed
        players = data.get("players")
        if isinstance(players, list) and len(players) == 4:
            if isinstance(players[1], str) and players[1] in PLAYERS:
                settings.opponents = players[1]
            if isinstance(players[2], str) and players[2] in PLAYERS:
                settings.partner = players[2]
        if game.seed != seed:
            # A save without a usable seed: hands to come are dealt from a fresh one.
            game.seed = seed
            if not game.is_over and not game.hand.history:
                fresh = HandState.deal(game.rules, game.hand.dealer,
                                       f"{seed}/hand-{len(game.finished_hands)}")  # fmt: skip
                game.replace_deal(fresh.dealt, fresh.kitty_dealt)
        session = cls(settings, game, path)
        if game.is_over:
            session.last_archive = path
        return session


def _seats_of_history(hand: HandState) -> list[int]:
    """The seat that made each action of a hand's history (replayed from the deal)."""
    trial = HandState(hand.rules, hand.dealer, hand.dealt, hand.kitty_dealt)
    seats = []
    for action in hand.history:
        seats.append(trial.to_move)
        trial.apply(action)
    return seats


def side_of(seat: int) -> int:
    """0 for South/North (the person's side), 1 for West/East."""
    return seat % 2
