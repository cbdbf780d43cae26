"""``fivehundred play --plain``: the game in plain lines, for a dumb terminal, a pipe, a
script or a screen reader. Commands are read one line at a time from standard input;
end of input saves and stops."""

from __future__ import annotations

from typing import TextIO

from fivehundred.actions import PASS, action_text
from fivehundred.errors import FiveHundredError
from fivehundred.game import AUCTION, DISCARD, NOMINATE, PLAY
from fivehundred.tui import render
from fivehundred.tui.session import HUMAN, Move, Session

HELP = """Commands:
  a bid or pass     7H  6NT  misere  open_misere  pass
  a card            AS  10H  JK   (lead an unnominated joker with a suit: JK>S)
  joker's suit      S C D H  or  none
  hint              what the computer would do here, and why
  undo              take back your last move
  last              the last trick        score   the score sheet
  hands             all four hands of the last hand played
  table             show the table again  help    this list
  quit              stop (the game is saved: 'fivehundred play --resume')"""

_PHASE_PROMPTS = {
    AUCTION: "Your bid",
    DISCARD: "Discard a card",
    NOMINATE: "Name the joker's suit (S C D H or none)",
    PLAY: "Your card",
}


class PlainGame:
    """The line-mode loop over a :class:`Session`."""

    def __init__(self, session: Session, stdin: TextIO, stdout: TextIO) -> None:
        self.session = session
        self.stdin = stdin
        self.out = stdout

    def say(self, text: str = "") -> None:
        print(text, file=self.out, flush=True)

    def run(self) -> int:
        session = self.session
        two = session.rules.two_jokers
        self.say(f"Five Hundred — {session.rules.describe()}, game to {session.rules.target}. "
                 f"You are South; North is your partner. Seed {session.seed}.")  # fmt: skip
        self.say("Type 'help' for the commands.")
        table_at: tuple[int, int] | None = None
        while True:
            while session.computer_to_move:
                self.report(session.step_computer())
            if session.pending_summary is not None:
                self.summary()
                session.dismiss_summary()
                continue
            if session.is_over:
                self.game_over()
                return 0
            position = (session.hand_number, len(session.hand.history))
            if position != table_at:
                self.table()
                table_at = position
            obs = session.observation()
            # Record notation: what is typed (7H, AS, JK>S), not the symbols of the table.
            legal = " ".join(action_text(a, two) for a in obs.legal)
            if obs.phase == DISCARD:
                prompt = f"Discard a card ({session.hand.discards_left} to go)"
            else:
                prompt = _PHASE_PROMPTS.get(obs.phase, "Your move")
            self.say(f"{prompt} — legal: {legal}")
            self.out.write("> ")
            self.out.flush()
            line = self.stdin.readline()
            if not line:
                self.say("\nEnd of input: the game is saved; 'fivehundred play --resume' "
                         "continues it.")  # fmt: skip
                return 0
            status = self.command(line.strip())
            if status is not None:
                return status

    def command(self, line: str) -> int | None:
        """Carry out one line of input; a number is an exit status to stop with."""
        session = self.session
        word = line.lower()
        if not word:
            return None
        if word in ("quit", "q", "exit"):
            self.say("The game is saved; 'fivehundred play --resume' continues it.")
            return 0
        if word in ("help", "?", "h"):
            self.say(HELP)
        elif word == "hint":
            action, why = session.hint()
            self.say(f"Hint: {render.action_label(action, session.rules.two_jokers)} — {why}")
        elif word == "undo":
            if session.undo():
                self.say("Taken back.")
            else:
                self.say("Nothing of yours to take back.")
        elif word in ("last", "l"):
            obs = session.observation()
            if obs.tricks:
                plays, winner = obs.tricks[-1]
                self.say(f"Last trick: {render.trick_text(plays, session.rules.two_jokers)} — "
                         f"won by {render.SEAT_NAMES[winner]}")  # fmt: skip
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
            # Several moves may be given on one line (the kitty discards: "4S 5S 6C").
            for token in line.split():
                if not self.move(token):
                    break
        return None

    def move(self, token: str) -> bool:
        session = self.session
        phase = session.hand.phase
        try:
            action = session.parse(token)
            move = session.play(action)
        except FiveHundredError as error:
            self.say(f"Not allowed: {error}")
            return False
        self.report(move)
        return session.human_to_move and session.hand.phase == phase

    def report(self, move: Move) -> None:
        for text in move_lines(self.session, move):
            self.say(text)

    def table(self) -> None:
        for text in render.table_lines(self.session.observation(), self.session.game):
            self.say(text)

    def summary(self) -> None:
        session = self.session
        index = session.pending_summary
        assert index is not None
        hand = session.game.finished_hands[index]
        totals = session.game.score_history[index]
        self.say(f"== Hand {index + 1} over ==")
        for text in render.hand_summary_lines(hand, totals):
            self.say(text)
        self.say("(type 'hands' to see all four hands)")

    def game_over(self) -> None:
        session = self.session
        winner = session.game.winner
        names = render.SIDE_NAMES
        self.say(f"== Game over: {names[winner] if winner is not None else 'nobody'} "
                 f"{'win' if winner is not None else 'wins'} ==")  # fmt: skip
        for text in render.sheet_lines(session.game):
            self.say(text)
        where = session.last_archive or session.path
        self.say(f"The game record is in {where}; 'fivehundred show {where}' replays it.")


def move_lines(session: Session, move: Move) -> list[str]:
    """What a move did, in words: the call, card or discard, the trick it completed, the
    contract an auction ended with."""
    two = session.rules.two_jokers
    hand = session.game.finished_hands[-1] if session.pending_summary is not None \
        else session.hand  # fmt: skip
    if hand.history and move.hand_number != len(session.game.finished_hands) + 1:
        hand = session.game.finished_hands[move.hand_number - 1]
    who = "You" if move.seat == HUMAN else render.SEAT_NAMES[move.seat]
    label = render.action_label(move.action, two)
    lines = []
    if move.phase == AUCTION:
        if move.action == PASS:
            lines.append(f"{who} pass{'es' if move.seat != HUMAN else ''}.")
        else:
            lines.append(f"{who} bid{'s' if move.seat != HUMAN else ''} {label}.")
        if hand.phase != AUCTION:
            if hand.contract >= 0:
                lines.append(
                    f"Contract: {render.contract_text(hand.contract, hand.contractor, two)}."
                )
            else:
                lines.append("Everybody passed.")
    elif move.phase == DISCARD:
        if move.seat == HUMAN:
            lines.append(f"You discard {label}.")
        elif hand.phase != DISCARD:
            lines.append(f"{who} has taken the kitty and discarded.")
    elif move.phase == NOMINATE:
        lines.append(f"{who}: {label}.")
    elif move.phase == PLAY:
        lines.append(f"{who} play{'s' if move.seat != HUMAN else ''} {label}.")
        if hand.tricks and not hand.trick_cards and hand.tricks[-1].plays[-1][0] == move.seat \
                and hand.tricks[-1].plays[-1][1] == move.action:  # fmt: skip
            winner = hand.tricks[-1].winner
            ours, theirs = render.side_tricks(hand.tricks_won)
            lines.append(f"  {render.SEAT_NAMES[winner]} wins trick {len(hand.tricks)} "
                         f"(us {ours}, them {theirs}).")  # fmt: skip
    return lines
