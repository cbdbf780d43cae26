"""``fivehundred play --plain``: the game in plain lines, for a dumb terminal, a pipe, a
script or a screen reader. Commands are read one line at a time from standard input;
end of input saves and stops."""

from __future__ import annotations

import contextlib
from typing import TextIO

from fivehundred.actions import CLAIM, PASS, action_text
from fivehundred.cards import JokerNames
from fivehundred.errors import ActionParseError, CardParseError, FiveHundredError
from fivehundred.game import (
    AUCTION,
    CALL,
    DISCARD,
    DRAW,
    NOMINATE,
    PLAY,
    SLAM_CALL,
    SLAM_PASS,
    TABLE_DISCARD,
    TABLE_KITTY,
    TABLE_TAKE,
    HandState,
    controller_of,
)
from fivehundred.messages import error_text
from fivehundred.observation import SPECTATOR, Observation
from fivehundred.rules import Rules
from fivehundred.scoring import sides_count, sides_out, tricks_by_side
from fivehundred.table import Move
from fivehundred.text import wrapped
from fivehundred.tui import render
from fivehundred.tui.session import EVERY_ACTION, HUMAN, Session
from fivehundred.words import action_label, observation_prompt, parse

HELP = """Commands:
  a bid or pass     7H  6NT  misere  open_misere  pass
  a card            AS  10H  JK   (lead an unnominated joker with a suit: JK>S)
  kitty discards    one card, or several on one line: 4S 5S 6C
  joker's suit      S C D H  or  none
  partner (5 seats) call:AH  or  alone
  house rules       hi_lo  double_misere  shields_double  patastrophe (bids);
                    slam  no_slam (after the kitty); a card to pass or to move;
                    claim (on lead, the tricks left); keep  throw (draw_pack)
  as printed        any move as the game writes it: 7♥  open misère  no slam
                    JK as ♠  joker is ♠  calls A♥ as partner
  hint, h           what the computer would do here, and why
  undo, u           take back your last move (a whole kitty exchange at once)
  last, l           the last trick        score   the score sheet
  played, p         the cards played so far in this hand, by suit
  hands             every hand of the last hand played, as dealt
  review            double-dummy review of the last hand played
  table, t          show the table again  help, ?   this list
  quit, q           stop (the game is saved: 'fivehundred play --resume')"""


class PlainGame:
    """The line-mode loop over a :class:`Session`."""

    def __init__(self, session: Session, stdin: TextIO, stdout: TextIO) -> None:
        self.session = session
        self.stdin = stdin
        self.out = stdout

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def read_line(self) -> str:
        """The next line typed; empty at the end of the input or when the terminal has
        gone (a read error: a hung-up terminal), which end the game (saved after every
        move) rather than leave it waiting without a terminal."""
        try:
            return self.stdin.readline()
        except (OSError, ValueError):
            return ""

    def run(self) -> int:
        """Play until the game ends, the person quits or the input ends (the game is
        saved after every move); output going away (``| head``) stops it quietly."""
        try:
            return self._run()
        except BrokenPipeError:
            return 0

    def _run(self) -> int:
        session = self.session
        two = session.rules.joker_names
        self.say(
            f"Five Hundred — {session.rules.describe()}, game to {session.rules.target}. "
            f"{seating_text(session)} Seed {session.seed}."
        )
        self.say("Type 'help' for the commands.")
        if session.game.finished_hands or session.hand.history:
            self.say("Resumed: the story of the hand so far —")
            for text in history_lines(session):
                self.say(text)
        table_at: tuple[int, int] | None = None
        announced = session.hand_number if session.hand.history else 0
        while True:
            if (
                session.hand_number != announced
                and session.pending_summary is None
                and not session.is_over
            ):
                # the hand's heading comes before the first move of it, computers' too
                # (and none for the hand that a finished game never plays)
                announced = session.hand_number
                dealer = render.seat_name(session.rules, session.observation().dealer)
                self.say(f"— Hand {announced} · dealer {dealer} —")
            if session.computer_to_move and session.needs_solver_warm_up():
                self.warm_up()
            while session.computer_to_move:
                self.report(session.step_computer())
            if session.pending_summary is not None:
                self.summary()
                session.dismiss_summary()
                continue
            if session.is_over:
                self.game_over()
                return self.after_the_game()
            if session.position != table_at:
                self.table()
                table_at = session.position
            obs = session.observation()
            # Record notation: what is typed (7H, AS, JK>S), not the symbols of the table.
            legal = " ".join(action_text(a, two) for a in obs.legal)
            if obs.phase == DISCARD:
                prompt = f"Discard a card ({obs.discards_left} to go)"
            else:
                prompt = observation_prompt(obs)
            self.say(wrapped(f"{prompt} — legal: {legal}"))
            self.out.write("> ")
            self.out.flush()
            line = self.read_line()
            if not line:
                with contextlib.suppress(OSError):  # the terminal may have gone
                    self.say(
                        "\nEnd of input: the game is saved; "
                        "'fivehundred play --resume' continues it."
                    )
                return 0
            status = self.command(line.strip())
            if status is not None:
                return status

    def after_the_game(self) -> int:
        """The summary offers 'review' and 'hands': they stay open once the game is
        over, until 'quit' or the end of the input."""
        self.say(
            "The game is over: 'review', 'hands', 'played' or 'score' look back at the "
            "last hand; 'quit' ends."
        )
        while True:
            self.out.write("> ")
            self.out.flush()
            line = self.read_line()
            word = line.strip().lower()
            if not line or word in ("quit", "q", "exit"):
                return 0
            if word in _AFTER_THE_GAME:
                self.command(word)
            elif word:
                self.say("The game is over: 'review', 'hands', 'played', 'score' or 'quit'.")

    def warm_up(self, what: str = "the computer players") -> None:
        self.out.write(
            f"Preparing the double-dummy solver for {what} (one time: up to a "
            "minute the first time, a second later) "
        )
        self.out.flush()

        def progress(done: int, total: int) -> None:
            self.out.write(f"{done}/{total} ")
            self.out.flush()

        self.session.warm_up_solver(progress)
        self.say("ready.")

    def command(self, line: str) -> int | None:
        """Carry out one line of input; a number is an exit status to stop with."""
        session = self.session
        word = line.lower()
        if not word:
            return None
        if word in ("quit", "q", "exit"):
            self.say("The game is saved; 'fivehundred play --resume' continues it.")
            return 0
        rules = session.rules
        if word in ("help", "?"):
            self.say(HELP)
        elif word in ("hint", "h"):
            if not session.human_to_move:
                self.say("It is not your turn.")
                return None
            action, why = session.hint()
            self.say(f"Hint: {action_label(action, session.rules.joker_names)} — {why}")
        elif word in ("played", "p"):
            for text in render.played_by_suit_lines(session.observation()):
                self.say(text)
        elif word == "review":
            if session.game.finished_hands and session.needs_solver_warm_up(review=True):
                self.warm_up("the review")
            for text in review_lines(session):
                self.say(text)
        elif word in ("undo", "u"):
            if session.undo():
                self.say("Taken back.")
            else:
                self.say("Nothing of yours to take back.")
        elif word in ("last", "l"):
            obs = session.observation()
            if obs.tricks:
                plays, winner = obs.tricks[-1]
                self.say(
                    f"Last trick: {render.trick_text(rules, plays)} — "
                    f"won by {render.seat_name(rules, winner)}"
                )
            else:
                self.say("No trick has been played in this hand yet.")
        elif word in ("score", "sheet"):
            for text in render.sheet_lines(session.game):
                self.say(text)
        elif word == "hands":
            if session.game.finished_hands:
                self.say("The last hand as dealt:")
                for text in render.all_hands_lines(session.game.finished_hands[-1]):
                    self.say(text)
            else:
                self.say("No hand has been finished yet.")
        elif word in ("table", "t"):
            self.table()
        else:
            # Several moves may be given on one line (the kitty discards: "4S 5S 6C"):
            # they are made in order while it stays the person's turn; the rest are refused.
            tokens = move_tokens(line, session.rules.joker_names)
            for index, token in enumerate(tokens):
                if not self.move(token):
                    rest = tokens[index + 1 :]
                    if rest:
                        self.say(
                            f"Not made: {' '.join(rest)} (type them again when it is your turn)."
                        )
                    break
                rest = tokens[index + 1 :]
                if rest and not session.human_to_move:
                    self.say(
                        f"Not made: {' '.join(rest)} — it is no longer your turn (type "
                        "them again when it is)."
                    )
                    break
        return None

    def move(self, token: str) -> bool:
        session = self.session
        try:
            action = session.parse(token)
            move = session.play(action)
        except (ActionParseError, CardParseError) as error:
            self.say(f"Not understood: {error} (type 'help' for the commands)")
            return False
        except FiveHundredError as error:
            self.say(f"Not allowed: {error_text(error, session.rules.joker_names)}")
            return False
        self.report(move)
        return True

    def report(self, move: Move) -> None:
        for text in move_lines(self.session, move):
            self.say(text)
        if self.session.save_problem:
            self.say(f"Warning: {self.session.save_problem}")

    def table(self) -> None:
        for text in render.table_lines(self.session.observation(), self.session.game):
            self.say(wrapped(text))

    def summary(self) -> None:
        session = self.session
        index = session.pending_summary
        assert index is not None
        hand = session.game.finished_hands[index]
        totals = session.game.score_history[index]
        self.say(f"== Hand {index + 1} over ==")
        for text in render.hand_summary_lines(hand, totals):
            self.say(text)
        self.say("(type 'hands' to see every hand as dealt, 'review' for the double-dummy review)")

    def game_over(self) -> None:
        session = self.session
        self.say(f"== Game over: {winner_text(session)} ==")
        if ended := game_end_text(session):
            self.say(ended)
        for text in render.sheet_lines(session.game):
            self.say(text)
        where = session.last_archive or session.path
        self.say(f"The game record is in {where}; 'fivehundred show {where}' replays it.")


def move_tokens(line: str, jokers: JokerNames = False) -> list[str]:
    """A line of moves, one text a move, for :meth:`Session.parse`: the longest run of up
    to four words that the vocabulary reads as one action (``open misère``, ``no slam``,
    ``JK as ♠``, ``calls A♥ as partner``), else one word; several moves on one line (the
    kitty's discards: ``4♠ 5♠ 6♣``) are one token each. What is not a move is passed on
    as it is, for the parser to refuse."""
    said = line.split()
    tokens: list[str] = []
    start = 0
    while start < len(said):
        size = 1
        for length in range(min(4, len(said) - start), 1, -1):
            with contextlib.suppress(ActionParseError, CardParseError):
                parse(" ".join(said[start : start + length]), EVERY_ACTION, jokers)
                size = length
                break
        tokens.append(" ".join(said[start : start + size]))
        start += size
    return tokens


#: The commands that still mean something once the game is over.
_AFTER_THE_GAME = frozenset({"review", "hands", "played", "p", "score", "sheet", "help", "?"})


def seating_text(session: Session) -> str:
    """``You are South; North is your partner.`` for any number of seats."""
    rules = session.rules
    partners = [
        render.seat_name(rules, s)
        for s in render.side_seats(rules, render.side_of(rules, 0))
        if s != 0
    ]
    others = [
        render.seat_name(rules, s)
        for s in range(1, rules.players)
        if render.side_of(rules, s) != render.side_of(rules, 0)
    ]
    text = "You are South"
    if rules.dummies:
        text += " and play North, your dummy; West plays East"
    if partners:
        text += (
            f"; {' and '.join(partners)} {'is' if len(partners) == 1 else 'are'} your partner"
            + ("" if len(partners) == 1 else "s")
        )
    if rules.called_partner:
        text += "; a contractor calls a card, and its holder is their partner"
    return text + f"; against {', '.join(others)}."


def winner_text(session: Session) -> str:
    winner = session.game.winner
    if winner is None:
        return "nobody wins"
    name = render.side_name(session.rules, winner)
    return f"{name} {'win' if '&' in name or name == 'You' else 'wins'}"


def game_end_text(session: Session) -> str:
    """Why a game that is over ended when no side won by the target: ``East went out
    backwards at -510.`` (R-GAME); empty otherwise."""
    game = session.game
    if game.winner is None:
        return ""
    rules, scores = session.rules, game.scores
    if scores[game.winner] >= rules.target:
        return ""
    # Each side out at the score it went out on (once out, out: R-GAME).
    went: dict[int, int] = {}
    for history in [*game.score_history, scores]:
        for side in sides_out(rules, history):
            went.setdefault(side, history[side])
    if not went:
        return ""
    # Sides out on the same score went out together (with five players the contractor
    # and the called partner lose the same points): one reason names them all once.
    together: dict[int, list[str]] = {}
    for side, score in sorted(went.items()):
        together.setdefault(score, []).append(render.side_name(rules, side))
    parts = []
    for score, names in together.items():
        who = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        if score < 0:
            parts.append(f"{who} went out backwards at {score}")
        else:
            parts.append(f"{who} went past {2 * rules.target} with {score}")
    if all(side in sides_out(rules, scores) for side in went):
        return "; ".join(parts) + "; the game ended there (R-GAME)."
    # the others were level then: the game went on until a hand put one ahead
    return "; ".join(parts) + "; the game went on until one of the others was ahead (R-GAME)."


def history_lines(
    session: Session, hand: HandState | None = None, number: int | None = None
) -> list[str]:
    """What has happened in a hand (the hand in progress by default), move by move."""
    hand = hand if hand is not None else session.hand
    number = number if number is not None else session.hand_number
    replay = hand.as_dealt()
    lines = []
    for action in hand.history:
        move = Move(number, replay.to_move, action, replay.phase)
        replay.replay_action(action)
        lines += describe_move(session.rules, replay.observation(SPECTATOR), move)
    return lines


def review_lines(session: Session, hand: HandState | None = None) -> list[str]:
    """The double-dummy review of a hand (the last one played by default), as
    ``fivehundred analyse`` prints it."""
    if hand is None:
        if not session.game.finished_hands:
            return ["No hand has been finished yet."]
        hand = session.game.finished_hands[-1]
    try:
        from fivehundred.analysis.analyse import analyse_hand, format_analysis
    except ImportError as error:
        return [f"The review needs the solver: {error}"]
    try:
        names = render.seat_names(session.rules)
        text = format_analysis(analyse_hand(hand), hand, names).replace("NT ", "NT  ")
    except (FiveHundredError, ValueError) as error:
        return [f"Not available: {error}"]
    return [
        "Double-dummy review of the last hand (every hand visible, best play by all):",
        *text.splitlines(),
    ]


def move_lines(session: Session, move: Move) -> list[str]:
    """What a move did, in words: the call, card or discard, the trick it completed, the
    contract an auction ended with."""
    hand = session.game.finished_hands[-1] if session.pending_summary is not None else session.hand
    if move.hand_number <= len(session.game.finished_hands):
        hand = session.game.finished_hands[move.hand_number - 1]
    return describe_move(session.rules, hand.observation(SPECTATOR), move)


def describe_move(rules: Rules, view: Observation, move: Move) -> list[str]:
    """``move`` in words, ``view`` being the table just after it as anyone sees it (a
    spectator's observation: the words tell no hidden card)."""
    two = rules.joker_names
    person = controller_of(rules, move.seat) == HUMAN
    who = "You" if move.seat == HUMAN else render.seat_name(rules, move.seat)
    if move.seat != HUMAN and person:
        who = f"You ({render.seat_name(rules, move.seat)})"
    plain_verb = move.seat == HUMAN or person
    label = action_label(move.action, two)
    lines = []
    if move.phase == AUCTION:
        if move.action == PASS:
            lines.append(f"{who} pass{'' if plain_verb else 'es'}.")
        else:
            lines.append(f"{who} bid{'' if plain_verb else 's'} {label}.")
        if view.phase != AUCTION:
            if view.contract >= 0:
                lines.append(
                    f"Contract: {render.contract_text(rules, view.contract, view.contractor)}."
                )
            else:
                lines.append("Everybody passed.")
    elif move.phase == DISCARD:
        if person:
            lines.append(f"You discard {label}.")
        elif view.phase != DISCARD:
            lines.append(f"{who} has taken the kitty and discarded.")
    elif move.phase in (NOMINATE, CALL, SLAM_CALL):
        lines.append(f"{who}: {label}.")
    elif move.phase == SLAM_PASS:
        lines.append(f"You pass {label}." if person else f"{who} passes a card.")
    elif move.phase == TABLE_KITTY:
        lines.append(f"{who} move{'' if plain_verb else 's'} {label} to the kitty.")
    elif move.phase == TABLE_TAKE:
        lines.append(f"{who} take{'' if plain_verb else 's'} {label} from the table.")
    elif move.phase == TABLE_DISCARD:
        lines.append(f"You discard {label}." if person else f"{who} discards a card.")
    elif move.phase == DRAW:
        lines.append(
            f"{who} draw{'' if plain_verb else 's'} and {label}{'' if plain_verb else 's'}."
        )
    elif move.phase == PLAY and move.action == CLAIM:
        lines.append(f"{who} claim{'' if plain_verb else 's'} the remaining tricks.")
    elif move.phase == PLAY:
        lines.append(f"{who} play{'' if plain_verb else 's'} {label}.")
        if view.tricks and not view.trick and view.tricks[-1][0][-1] == (move.seat, move.action):
            winner = view.tricks[-1][1]
            tricks = tricks_by_side(rules, view.tricks_won)
            won = ", ".join(
                f"{render.side_short(rules, s)} {tricks[s]}" for s in range(sides_count(rules))
            )
            lines.append(
                f"  {render.seat_name(rules, winner)} wins trick {len(view.tricks)} ({won})."
            )
    return lines
