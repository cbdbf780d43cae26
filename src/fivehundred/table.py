"""One table: the seats, who plays each seat, the action log, seeded computer decisions,
and save/resume by replaying the log.

The terminal game, the web server, the arena and anything else that seats people and
computer players around a game use :class:`Table`::

    table = Table(make_rules("three_handed"), ["human", "heuristic", "pimc:fast"], seed=7)
    table.to_move                       # the seat that decides now
    table.apply(0, action)              # a person's move (refused if not theirs / illegal)
    seat, action, why = table.computer_choice()
    table.apply(seat, action)
    Table.from_record(table.record())   # the same table, rebuilt from its action log

``players[seat]`` is :data:`HUMAN` (``"human"``) or the name of a computer player
(``random``, ``heuristic``, ``pimc``, ``pimc:fast``, ... as ``fivehundred.bots.make_player``
reads them). With two players each also plays the dummy opposite (``controller_of``).

Every computer decision is made by a player built afresh with a seed derived from the
table's seed and the position (:meth:`Table.decision_seed`), from that seat's
:class:`~fivehundred.observation.Observation` only: the same game, replayed, makes the same
decisions, which is what lets undo and resume rebuild a table and carry on exactly as
before. (The arena passes its own ``decider``: a player object per seat, seeded once for
the match.) Standard library only: the computer players are imported when first asked for.
"""

from __future__ import annotations

import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fivehundred.actions import CLAIM, Action
from fivehundred.errors import FiveHundredError, IllegalActionError, RecordError, Refusal
from fivehundred.game import DISCARD, PLAY, GameState, HandState, controller_of
from fivehundred.observation import Observation
from fivehundred.record import GAME_FORMAT, game_record, replay_game
from fivehundred.rules import Rules

#: The name of a seat played by a person.
HUMAN = "human"

#: ``decide(player_name, seed, observation) -> (action, explanation)``.
Decider = Callable[[str, int, Observation], tuple[Action, str]]


class NotYourTurnError(IllegalActionError):
    """An action from a seat that is not to move (or a move when the game is over)."""

    rule = "R-PLAY"
    why = Refusal.NOT_YOUR_TURN


class SeatingError(FiveHundredError):
    """A table with the wrong number of players or an unknown player name."""

    rule = "R-PLAYERS"


@dataclass(frozen=True)
class Move:
    """One action made at the table: which hand (1-based), which seat acted (the seat
    whose card or call it is: a dummy's own seat), the action and the phase it was in."""

    hand_number: int
    seat: int
    action: Action
    phase: str


def derived_seed(*parts: object) -> int:
    """A stable 32-bit seed from the parts (the same in every run, unlike ``hash``)."""
    return zlib.crc32("/".join(str(p) for p in parts).encode())


def check_player_name(name: object) -> str:
    """``name`` if it names a person or a computer player; else :class:`SeatingError`."""
    if not isinstance(name, str) or not name:
        raise SeatingError(f"a player must be a name, not {name!r}")
    if name == HUMAN or name.startswith("cmd:"):
        return name
    from fivehundred.bots import make_player

    try:
        make_player(name, 0)
    except ValueError as error:
        raise SeatingError(str(error)) from None
    return name


def _default_decider(player_name: str, seed: int, observation: Observation) -> tuple[Action, str]:
    from fivehundred.bots.decide import decide

    return decide(player_name, seed, observation)


class Table:
    """A game with a player (a person or a computer player) at every seat."""

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str],
        seed: int | str,
        game: GameState | None = None,
        decider: Decider | None = None,
    ) -> None:
        if len(players) != rules.players:
            raise SeatingError(
                f"{rules.preset} is played by {rules.players} players, not {len(players)}"
            )
        self.rules = rules
        self.players: tuple[str, ...] = tuple(check_player_name(name) for name in players)
        self.seed = seed
        self.game = game if game is not None else GameState(rules, seed)
        self.decider: Decider = decider or _default_decider

    def set_players(self, players: Sequence[str]) -> None:
        """Seat other players (the game goes on as it is); checked like the constructor's."""
        if len(players) != self.rules.players:
            raise SeatingError(f"{self.rules.players} players are needed, not {len(players)}")
        self.players = tuple(check_player_name(name) for name in players)

    # ----------------------------------------------------------------- state
    @property
    def hand(self) -> HandState:
        return self.game.hand

    @property
    def hand_number(self) -> int:
        """1-based number of the hand in progress (of the last hand once the game is over)."""
        return len(self.game.finished_hands) + (0 if self.game.is_over else 1)

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def seat_to_move(self) -> int:
        """The seat whose turn it is (a dummy's seat with two players); -1 when over."""
        return -1 if self.game.is_over else self.game.hand.to_move

    @property
    def to_move(self) -> int:
        """The seat that decides now (the dummy's controller with two players); -1 when
        the game is over."""
        seat = self.seat_to_move
        return -1 if seat < 0 else controller_of(self.rules, seat)

    def controller_of(self, seat: int) -> int:
        return controller_of(self.rules, seat)

    def player(self, seat: int) -> str:
        """Who plays ``seat`` (a dummy: its controller's player)."""
        return self.players[controller_of(self.rules, seat)]

    def is_computer(self, seat: int) -> bool:
        return self.player(seat) != HUMAN

    @property
    def computer_to_move(self) -> bool:
        return not self.game.is_over and self.is_computer(self.seat_to_move)

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see now, with the scores."""
        return self.game.observation(seat)

    def legal_actions(self) -> list[Action]:
        """The legal actions of the seat to move (none when the game is over)."""
        return self.game.legal_actions()

    # ----------------------------------------------------------------- acting
    def refusal(self, seat: int, action: Action) -> FiveHundredError | None:
        """The error :meth:`apply` would raise for ``seat`` making ``action``, or None."""
        if self.game.is_over:
            return NotYourTurnError("the game is over", "R-GAME", why=Refusal.GAME_OVER)
        if seat not in (self.to_move, self.seat_to_move):
            return NotYourTurnError(f"seat {seat} is not to move: it is seat {self.to_move}'s turn")
        if action in self.game.hand.legal_actions():
            return None
        trial = self.game.hand.clone()
        try:
            trial.apply(action)
        except FiveHundredError as error:
            return error
        return IllegalActionError(f"action {action} is not allowed now")

    def refusals(self, seat: int, actions: Sequence[Action]) -> list[FiveHundredError | None]:
        """:meth:`refusal` of each of ``actions`` (the same errors). In the play, tried on
        one copy of the hand: a card refused there changes nothing (the play checks a card
        before it moves it), so the copy serves the next card."""
        if self.game.is_over or seat not in (self.to_move, self.seat_to_move):
            return [self.refusal(seat, action) for action in actions]
        legal = set(self.game.hand.legal_actions())
        trial = None
        out: list[FiveHundredError | None] = []
        for action in actions:
            if action in legal:
                out.append(None)
                continue
            if trial is None:
                trial = self.game.hand.clone()
            try:
                trial.apply(action)
            except FiveHundredError as error:
                out.append(error)
                if trial.phase != PLAY or action == CLAIM:
                    trial = None  # (elsewhere a refused action is not known to change nothing)
                continue
            trial = None
            out.append(IllegalActionError(f"action {action} is not allowed now"))
        return out

    def apply(self, seat: int, action: Action) -> Move:
        """``seat`` (the seat to move, or its controller) makes ``action``. Raises
        :class:`NotYourTurnError` or the engine's :class:`IllegalActionError` (naming the
        rule) and changes nothing if it is not allowed."""
        error = self.refusal(seat, action)
        if error is not None:
            raise error
        move = Move(self.hand_number, self.seat_to_move, action, self.game.hand.phase)
        self.game.apply(action)
        return move

    def decision_seed(self) -> int:
        """The seed of the decision to make now: from the table's seed and the position,
        so that a replayed game makes the same decisions."""
        hand = self.game.hand
        return derived_seed(
            self.seed, len(self.game.finished_hands) + 1, len(hand.history), hand.to_move
        )

    def computer_choice(self) -> tuple[int, Action, str]:
        """The computer player to move chooses from its observation only: the deciding
        seat, the action and its explanation. Changes nothing (it may run in a thread)."""
        if self.game.is_over:
            raise NotYourTurnError("the game is over", "R-GAME")
        seat = self.seat_to_move
        if not self.is_computer(seat):
            raise NotYourTurnError(f"seat {self.to_move} is played by a person")
        action, why = self.decider(
            self.player(seat), self.decision_seed(), self.game.observation(seat)
        )
        return self.to_move, action, why

    def step_computer(self) -> Move:
        seat, action, _ = self.computer_choice()
        return self.apply(seat, action)

    # ----------------------------------------------------------------- undo
    def hands(self) -> list[HandState]:
        """The finished hands and the hand in progress (if the game is not over)."""
        hands = [*self.game.finished_hands]
        if not self.game.is_over:
            hands.append(self.game.hand)
        return hands

    def undo_point(self, seat: int) -> tuple[int, int] | None:
        """(hand index, action index) of ``seat``'s last decision that can be taken back:
        in the hand in progress, or the hand before it if none yet in this one. A kitty
        exchange is one decision: it goes back to the first discard."""
        hands = self.hands()
        for index in range(len(hands) - 1, max(len(hands) - 3, -1), -1):
            hand = hands[index]
            steps = _steps_of_history(hand)
            # after a claim the play-out is forced (R-HOUSE claim): the claim is the decision
            last = hand.claim_at if hand.claim_at >= 0 else len(hand.history)
            for position in range(last - 1, -1, -1):
                acting, phase = steps[position]
                if controller_of(self.rules, acting) != seat:
                    continue
                if phase == DISCARD:
                    while position > 0 and steps[position - 1][1] == DISCARD:
                        position -= 1
                return index, position
        return None

    def can_undo(self, seat: int) -> bool:
        return self.undo_point(seat) is not None

    def undo(self, seat: int) -> bool:
        """Go back to just before ``seat``'s previous decision (taking back the actions
        after it), by replaying the log; False if there is nothing to take back."""
        point = self.undo_point(seat)
        if point is None:
            return False
        hand_index, position = point
        hands = self.hands()
        game = GameState(self.rules, self.game.seed, self.game.first_dealer)
        for index in range(hand_index + 1):
            game.hand = hands[index].replayed(None if index < hand_index else position)
            if game.hand.is_over:
                game.finish_hand()
        self.game = game
        return True

    # ----------------------------------------------------------------- records
    def record(self) -> dict[str, Any]:
        """The game as a ``fivehundred-game/1`` record with the seed and the players."""
        self.game.seed = self.seed
        return game_record(self.game, players=list(self.players))

    @classmethod
    def from_record(
        cls,
        data: Mapping[str, Any],
        players: Sequence[str] | None = None,
        seed: int | str | None = None,
        decider: Decider | None = None,
    ) -> Table:
        """The table of a ``fivehundred-game/1`` record, rebuilt by replaying its actions
        (never unpickling). ``players`` and ``seed`` stand in where the record has none
        (``players`` also replaces the record's). Raises :class:`RecordError`."""
        if not isinstance(data, Mapping) or data.get("format") != GAME_FORMAT:
            raise RecordError("record", f"must be a {GAME_FORMAT} record")
        game = replay_game(data)
        recorded = data.get("seed")
        table_seed = recorded if recorded is not None else seed
        if table_seed is None:
            raise RecordError("seed", "the record has no seed to deal the hands to come")
        if players is None:
            players = data.get("players")
            if players is None:
                raise RecordError("players", "the record does not say who plays each seat")
        try:
            return cls(game.rules, players, table_seed, game, decider)
        except SeatingError as error:
            raise RecordError("players", error.reason, error.rule) from None


def _steps_of_history(hand: HandState) -> list[tuple[int, str]]:
    """The seat to move and the phase before each action of a hand's history."""
    trial = hand.as_dealt()
    steps = []
    for action in hand.history:
        steps.append((trial.to_move, trial.phase))
        trial.replay_action(action)
    return steps
