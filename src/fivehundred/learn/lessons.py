"""The tutorial's lessons, as data, played on the real engine.

Each lesson is a real deal on the real table (:class:`~fivehundred.game.HandState`):
given hands (the cards not named are dealt from the rest of the pack in order), a
``setup`` of actions made before the lesson starts, then a ``script``: a plain string is
an action by whoever is to move (the other seats), shown as it is made; a ``you`` step
asks the learner (always South, seat 0) for an action. Whatever the learner types goes to
the engine: what the rules refuse is refused with the engine's reason (and the step's
``try`` entries are refusals the lesson invites, ``[typed, words of the reason]``); a
legal action that is not the one the lesson is about gets the step's ``hint``. ``quiz``
steps ask for a number the engine computes (a contract's value, the scores after a hand),
never one written into the lesson. The last lesson is a whole hand against the ``easy``
computer players with hints on.

:class:`LessonRun` is the lesson as a state machine (``prompt()``, ``answer(text)``); the
terminal command (:mod:`fivehundred.learn.learn_cli`) and the tests drive it.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Any

from fivehundred.actions import CLAIM, Action, action_text, parse_call
from fivehundred.cards import iter_cards, mask_of, parse_card
from fivehundred.errors import FiveHundredError
from fivehundred.game import HandState, deal_plan
from fivehundred.learn.terminal import legal_words, names, parse_typed, position_lines, refusal
from fivehundred.rules import Rules, make_rules
from fivehundred.scoring import apply_hand_to_scores, bid_value, game_winner, score_hand
from fivehundred.text import call_text, play_text, result_lines
from fivehundred.words import side_names

YOU = 0
#: What a quiz step says to anything but a number (there are no cards or calls to choose).
NUMBER_WANTED = "The answer here is a number of points (for example 120): no card or call."

#: The interfaces a lesson speaks to: its words are the same for both, but how to answer
#: (type ``JK>D``, or tap the joker and choose ♦) is each interface's own (``how``).
INTERFACES = ("terminal", "web")

LESSONS: list[dict[str, Any]] = [
    {
        "id": "pack",
        "title": "The pack, the bowers and the joker",
        "intro": [
            "Five Hundred is played by four players in two partnerships: you (South) and "
            "North against West and East.",
            "The pack has 43 cards: 5 to ace in ♠ and ♣, 4 to ace in ♦ and ♥, and the joker. "
            "Each player gets ten cards; three go face down to the kitty.",
            "In a trump suit the order is: the joker, the right bower (the jack of trumps), "
            "the left bower (the other jack of the same colour), then A K Q 10 9 … of trumps.",
            "Here hearts are trumps: you bid 7♥ and took the kitty. You lead.",
        ],
        "dealer": 3,
        "hands": [
            ["JK", "JH", "JD", "AH", "KH", "AS", "KS", "AC", "5C", "6C"],
            ["5H", "6H", "7H", "5S", "6S", "7S", "8S", "5D", "6D", "7D"],
            ["8H", "9H", "10H", "QS", "JS", "10S", "9S", "8D", "9D", "10D"],
            ["4H", "QH", "4D", "KD", "QD", "AD", "7C", "8C", "9C", "10C"],
        ],
        "kitty": ["JC", "QC", "KC"],
        "setup": ["7H", "pass", "pass", "pass", "5C", "6C", "JC"],
        "script": [
            {
                "you": ["JK"],
                "ask": "Lead the highest card of all: the joker.",
                "how": {
                    "terminal": "Type JK. First try leading the Q♠ (type QS), a card you do "
                    "not hold, to see the table refuse it.",
                    "web": "Tap the joker in your hand.",
                },
                "try": [["QS", "do not hold"]],
                "hint": "The joker beats every other card in a trump contract.",
                "after": "The joker wins the trick: every other card is lower.",
            },
            "5H",
            "8H",
            "4H",
            {
                "you": ["JH"],
                "ask": "Now lead the right bower, the J♥: the highest trump left.",
                "how": {
                    "terminal": "Try the J♣ first (type JC): you discarded it with the "
                    "kitty, so the table refuses it. Then type JH.",
                    "web": "Tap the J♥.",
                },
                "try": [["JC", "do not hold"]],
                "hint": "With hearts trumps the J♥ is the right bower, second only to the joker.",
            },
            "6H",
            "9H",
            "QH",
            {
                "you": ["JD"],
                "ask": "Which is higher now, your A♥ or your J♦? The J♦ is the left bower: "
                "in hearts it is a heart, and ranks above the ace. Lead it.",
                "hint": "The left bower (J♦ when hearts are trumps) outranks the A♥.",
                "after": "The left bower wins: it is the third highest trump.",
            },
        ],
    },
    {
        "id": "follow",
        "title": "Following suit (the left bower belongs to trumps)",
        "intro": [
            "You must follow the suit led if you can; if you cannot, play any card, a "
            "trump to win (a ruff) or another card (a discard).",
            "The left bower counts as a trump, not as its printed suit: with spades trumps "
            "the J♣ is a spade.",
            "West bid 7♠ and leads. You (South) hold the J♣, which is a spade here.",
        ],
        "dealer": 0,
        "hands": [
            ["JC", "AC", "KC", "QC", "10C", "AH", "KH", "QH", "AD", "KD"],
            ["JK", "JS", "AS", "KS", "QS", "10S", "9S", "8S", "7S", "10H"],
            ["5S", "6S", "9C", "8C", "7C", "6C", "5C", "4H", "5H", "6H"],
            ["4D", "6D", "7D", "8D", "9D", "10D", "QD", "JD", "7H", "8H"],
        ],
        "kitty": [],
        "setup": ["7S", "pass", "pass", "pass", "_discard3"],
        "script": [
            "AS",
            "5S",
            "6D",
            {
                "you": ["JC"],
                "ask": "West led the A♠. Spades are trumps, so your J♣ (the left bower) is a "
                "spade and you must play it.",
                "how": {
                    "terminal": "Try the A♣ first (type AC): the table refuses it. Then type JC.",
                    "web": "Your other cards are dimmed: you must follow with your only "
                    "spade. Tap the J♣.",
                },
                "try": [["AC", "must follow"], ["AH", "must follow"]],
                "hint": "Your only spade is the J♣, the left bower.",
                "after": "You had to follow with the left bower, and it wins: the left bower "
                "ranks above the A♠.",
            },
            {
                "you": ["AC", "KC", "QC", "10C", "AH", "KH", "QH", "AD", "KD"],
                "ask": "You won the trick, so you lead. Lead a winner in a side suit: the A♥.",
                "hint": "Any card may be led; the A♥ is a sure winner unless someone ruffs.",
            },
        ],
    },
    {
        "id": "bidding",
        "title": "The bid table (Avondale) and what a bid promises",
        "intro": [
            "A bid names how many of the ten tricks your side will take (six to ten) and the "
            "trump suit or no trumps. Each bid must be higher than the one before.",
            "Suits rank ♠ ♣ ♦ ♥ then no trumps: 6♠ is the lowest bid, 10NT the highest of "
            "the ordinary bids (misère and open misère come in lesson 6).",
            "Each contract has a value from the Avondale table: 6♠ 40, 6♣ 60, 6♦ 80, 6♥ 100, "
            "6NT 120, and +100 for each trick more (7♠ 140, 8♥ 300 …).",
            "A bid promises tricks: count your trumps (bowers and joker first) and your aces.",
        ],
        "dealer": 3,
        "hands": [
            ["JK", "JH", "JD", "AH", "KH", "QH", "AS", "AC", "5C", "6D"],
            ["5S", "6S", "7S", "8S", "9S", "10S", "5H", "6H", "7C", "8C"],
            ["QS", "KS", "JS", "9C", "10C", "JC", "QC", "KC", "AD", "KD"],
            ["4D", "5D", "7D", "8D", "9D", "10D", "QD", "4H", "7H", "8H"],
        ],
        "kitty": ["9H", "10H", "6C"],
        "script": [
            {
                "quiz": "What is 7♥ worth in points (Avondale)?",
                "compute": ["bid_value", "7H"],
            },
            {
                "you": ["7H", "8H"],
                "ask": "You hold the joker, both red jacks and A K Q of hearts: six sure trump "
                "tricks and two aces. Bid 7♥ (or 8♥).",
                "how": {
                    "terminal": "Type 7H. First try bidding 5♥ (type 5H): there is no such bid.",
                    "web": "Choose 7♥ in the bid box.",
                },
                "try": [["5H", "not a call"]],
                "hint": "Hearts are your suit: bid seven or eight of them.",
            },
            "7NT",
            "pass",
            "pass",
            {
                "you": ["pass", "8H", "9H", "10H", "8NT", "misere"],
                "ask": "West bid 7NT; North and East passed. Your bid must be higher than "
                "7NT: bid 8♥, or pass.",
                "how": {
                    "terminal": "Try 7♥ again first (type 7H) and see the table refuse it.",
                    "web": "7♥ is greyed out in the bid box now: it is not higher than 7NT.",
                },
                "try": [["7H", "not higher"]],
                "hint": "8♥ outranks 7NT; 7♥ does not.",
            },
        ],
    },
    {
        "id": "kitty",
        "title": "The kitty and the discard",
        "intro": [
            "Whoever wins the auction picks up the kitty's three cards and discards any "
            "three, face down. Keep your trumps; throw the low cards of your short suits.",
            "You bid 6♠ and won. The kitty is in your hand now: thirteen cards.",
        ],
        "dealer": 3,
        "hands": [
            ["JS", "JC", "AS", "KS", "QS", "AH", "5H", "6H", "5D", "6D"],
        ],
        "kitty": ["10S", "9S", "7C"],
        "setup": ["6S", "pass", "pass", "pass"],
        "script": [
            {
                "you": ["5H", "6H", "5D", "6D", "7C"],
                "ask": "Discard your first card: a low heart or diamond, or the 7♣.",
                "how": {
                    "terminal": "Type the card (5H, 7C …). First try to discard the K♦ "
                    "(type KD), which you do not hold, to see the refusal.",
                    "web": "Tap the card to discard.",
                },
                "try": [["KD", "do not hold"]],
                "hint": "Throw low cards of short side suits; keep trumps and aces.",
            },
            {
                "you": ["5H", "6H", "5D", "6D", "7C"],
                "ask": "Your second discard.",
                "hint": "Keep the spades (J♣ is a spade too) and the A♥.",
            },
            {
                "you": ["5H", "6H", "5D", "6D", "7C"],
                "ask": "Your third discard. Then you lead the first trick.",
                "hint": "Keep the spades (J♣ is a spade too) and the A♥.",
            },
            {
                "you": ["JS"],
                "ask": "The contractor leads the first trick. Lead your highest trump, the "
                "right bower J♠: leading trumps draws the defenders' trumps.",
                "hint": "With spades trumps the J♠ is the right bower, the highest card you hold.",
                "after": "Leading trumps draws the defenders' trumps. Your hand shows the "
                "trumps first, the J♣ (the left bower, a spade here) among them.",
            },
        ],
    },
    {
        "id": "no-trumps",
        "title": "No trumps and the joker's suit",
        "intro": [
            "In no trumps there is no trump suit and there are no bowers: jacks are jacks. "
            "The joker is the only trump.",
            "Before the first lead, the contractor who holds the joker may name a suit for "
            "it: it is then the highest card of that suit for the whole hand. Left free, it "
            "belongs to no suit and takes any trick it is played to.",
            "Whoever leads the free joker names the suit it is led as: a suit nobody has led "
            "yet in this hand. To another's lead it may be played only when you cannot "
            "follow suit.",
            "You bid 7NT and hold the joker.",
        ],
        "dealer": 3,
        "hands": [
            ["JK", "AS", "KS", "QS", "AH", "KH", "AD", "KD", "QD", "5C"],
            ["AC", "KC", "QC", "JC", "10C", "9C", "5S", "6S", "4H", "5H"],
        ],
        "kitty": [],
        "setup": ["7NT", "pass", "pass", "pass", "_discard3"],
        "script": [
            {
                "you": ["none"],
                "ask": "Before the first lead you may name the joker's suit, or leave it "
                "free. Leave it free this time: you will name its suit when you lead it.",
                "how": {
                    "terminal": "Type none to leave it free (S, C, D or H would name its suit).",
                    "web": 'Choose "no nomination".',
                },
                "hint": "Leave the joker free (no nomination).",
            },
            {
                "you": ["AS"],
                "ask": "You lead first. Lead the A♠.",
                "hint": "Cash a top spade.",
            },
            "_any",
            "_any",
            "_any",
            {
                "you": ["5C"],
                "ask": "Now lead your 5♣ and let West win a trick.",
                "hint": "The 5♣ is your only club.",
            },
            "AC",
            "_any",
            "_any",
            "4H",
            "_any",
            "_any",
            {
                "you": ["AH", "KH"],
                "ask": "West leads the 4♥. You hold hearts, so the joker may not go on this "
                "trick: win it with the A♥.",
                "how": {
                    "terminal": "Try the joker first (type JK) and see the table refuse it.",
                    "web": "The joker is dimmed: you must follow with a heart.",
                },
                "try": [["JK", "only when you have no"]],
                "hint": "Follow suit with a heart; the joker is for a suit you cannot follow.",
            },
            {
                "you": ["JK>D"],
                "ask": "Lead the joker now. A joker led needs a suit, one nobody has led yet "
                "in this hand: spades, clubs and hearts have been led, so lead it as a "
                "diamond.",
                "how": {
                    "terminal": "Type JK alone first and see the table ask for its suit. "
                    "Then try JK>S (spades were led) and see the refusal, then JK>D.",
                    "web": "Tap the joker, then choose diamonds as its suit.",
                },
                "try": [["JK", "which suit"], ["JK>S", "must not have been led"]],
                "hint": "Only diamonds have not been led: lead the joker as a diamond.",
                "after": "The joker, led as a diamond, wins: it is the highest diamond now.",
            },
        ],
    },
    {
        "id": "misere",
        "title": "Misère and open misère",
        "intro": [
            "Misère (250) is a bid to lose every trick, alone: your partner lays their cards "
            "face down and sits out. By the Australian rules it may be bid only once someone "
            "has bid seven, and it ranks above every 7-level bid and below every 8-level bid.",
            "Open misère (500) is the same with your hand face up on the table from the end "
            "of the first trick. It may be bid at any time, even as the first bid, and it "
            "ranks above 10♦ and below 10♥.",
            "Both are played in no trumps, the joker the only trump. A free joker (one whose "
            "suit was not named before the first lead) takes any trick it is played to, and "
            "in misère you must play it when you cannot follow suit: so the contractor "
            "discards it, or names its suit before the first lead.",
            "By the Australian rules the defenders score nothing in misère: only the "
            "contractor's side scores, its value made or lost.",
        ],
        "dealer": 0,
        "hands": [
            ["JK", "5S", "6S", "7S", "5C", "6C", "7C", "4D", "5D", "6D"],
            ["AH", "KH", "QH", "JH", "10H", "9H", "AS", "KS", "QS", "JS"],
            ["8S", "9S", "10S", "8C", "9C", "10C", "7D", "8D", "9D", "10D"],
            ["JC", "QC", "KC", "AC", "JD", "QD", "KD", "AD", "8H", "7H"],
        ],
        "kitty": ["4H", "5H", "6H"],
        "script": [
            "6S",
            "pass",
            "7S",
            {
                "you": ["misere"],
                "ask": "East bid 7♠. You hold only low cards (and the joker): bid misère, "
                "which ranks above every 7-level bid.",
                "how": {
                    "terminal": "Try 6NT first (type 6NT): it is lower than 7♠, so the table "
                    "refuses it. Then type misere.",
                    "web": "6NT is greyed out in the bid box: it is lower than 7♠. Choose misère.",
                },
                "try": [["6NT", "not higher"]],
                "hint": "Bid misère: after a seven it may be bid.",
            },
            "pass",
            "pass",
            {
                "you": ["JK"],
                "ask": "You took the kitty. Discard the joker first: in misère a free joker "
                "would win a trick.",
                "hint": "A free joker takes the trick it goes to.",
            },
            {
                "you": ["4H", "5H", "6H", "5S", "6S", "7S", "5C", "6C", "7C", "4D", "5D", "6D"],
                "ask": "Discard two more of your cards (any).",
                "hint": "Any two.",
            },
            {
                "you": ["4H", "5H", "6H", "5S", "6S", "7S", "5C", "6C", "7C", "4D", "5D", "6D"],
                "ask": "Your last discard.",
                "hint": "Any one.",
            },
            {
                "you": ["4D", "4H", "5H", "5S", "5C"],
                "ask": "You lead, and North sits out. Lead a low card that cannot win, like "
                "the 4♦.",
                "hint": "A low card the others must beat.",
            },
            {
                "quiz": "Misère is worth 250. What is open misère worth?",
                "compute": ["bid_value", "open_misere"],
            },
        ],
    },
    {
        "id": "scoring",
        "title": "Scoring, the 490 rule, going out and going out backwards",
        "intro": [
            "Made: the contract's value to the contracting side (all ten tricks in a suit or "
            "no trumps score at least 250: a slam). Failed: the value is taken "
            "off. Each trick the defenders take is worth 10 to them, made or not (but "
            "nothing in misère or open misère, by the Australian rules).",
            "The game is to 500. Points won as defenders cannot take a side to 500: they stop "
            "at 490 (the 490 rule); only making a contract goes out. A side at -500 or below "
            "loses: going out backwards.",
        ],
        "script": [
            {
                "quiz": "South & North are at 480, bid 8♥ and take 9 tricks. What is their "
                "score now?",
                "compute": ["score_after", 480, 0, "8H", 9],
            },
            {
                "quiz": "West & East are at 480 and defend South's 7♠, taking 4 tricks. What is "
                "their score now?",
                "compute": ["score_after", 480, 1, "7S", 6],
            },
            {
                "quiz": "South & North are at -400 and fail 7♣, taking six tricks. What is their "
                "score now?",
                "compute": ["score_after", -400, 0, "7C", 6],
            },
        ],
    },
    {
        "id": "first-hand",
        "title": "A first whole hand, with hints",
        "intro": [
            "Play a whole hand against the easy computer players. Before each of your turns "
            "a hint says what a good club player would do and why.",
        ],
        "how": {
            "terminal": [
                "Type your call or card, 'hint' for the hint again, '!' to take the hint, "
                "'?' for the legal choices."
            ],
            "web": ['Choose your call or card; "Take the hint" plays the hint for you.'],
        },
        "whole_hand": {"seed": "first-hand", "dealer": 3, "players": "easy"},
    },
]

#: Where the learner goes after the last lesson: a whole game against the computer players.
AFTER_LAST = {
    "kind": "game",
    "href": "/#play-now",
    "text": "Play a whole game against the computer players",
    "terminal": "fivehundred play",
}


def intro_lines(lesson: dict[str, Any], interface: str) -> list[str]:
    """The lesson's introduction for one interface: its words, then how to answer there."""
    return [*lesson.get("intro", []), *lesson.get("how", {}).get(interface, [])]


def ask_text(step: dict[str, Any], interface: str) -> str:
    """A step's question for one interface: the question, then how to answer there."""
    how = step.get("how", {}).get(interface)
    return f"{step['ask']} {how}" if how else str(step["ask"])


def next_after(lesson: dict[str, Any]) -> dict[str, Any]:
    """The way on after ``lesson``: the next lesson, or after the last a game."""
    number = LESSONS.index(lesson)
    if number + 1 < len(LESSONS):
        following = LESSONS[number + 1]
        return {"kind": "lesson", "id": following["id"], "title": following["title"]}
    return dict(AFTER_LAST)


@dataclass
class LessonRun:
    """One lesson being played: ``prompt()`` is the question for the learner (``None``
    when it is over); ``answer(text)`` returns what the table says."""

    lesson: dict[str, Any]
    rules: Rules = field(default_factory=make_rules)
    state: HandState | None = None
    step: int = 0
    done: bool = False
    log: list[str] = field(default_factory=list)
    players: list[Any] = field(default_factory=list)
    helper: Any = None
    #: Whose words the questions carry (:data:`INTERFACES`): how to answer differs.
    interface: str = "terminal"

    def __post_init__(self) -> None:
        lesson = self.lesson
        if "whole_hand" in lesson:
            self._start_whole_hand()
        elif "hands" in lesson:
            self.state = build_deal(self.rules, lesson)
            for action in lesson.get("setup", []):
                self._auto(action, silent=True)
        self._advance()

    # ------------------------------------------------------------------ set up
    def _start_whole_hand(self) -> None:
        from fivehundred.bots import make_player
        from fivehundred.bots.heuristic import HeuristicPlayer

        spec = self.lesson["whole_hand"]
        self.state = HandState.deal(self.rules, spec["dealer"], spec["seed"])
        self.players = [None] + [make_player(spec["players"], seed=seat) for seat in (1, 2, 3)]
        self.helper = HeuristicPlayer(seed=0)

    def _auto(self, action: str, silent: bool = False) -> None:
        """An action made for another seat (or in the setup)."""
        state = self.state
        assert state is not None
        if action == "_discard3":  # the contractor discards the first three kitty cards
            while state.phase == "discard":
                state.apply(next(iter(lowest_cards(state))))
            return
        if action == "_skip_to_play":
            while state.phase not in ("play", "done"):
                state.apply(state.legal_actions()[0])
            return
        if action == "_any":
            choice = next(a for a in state.legal_actions() if a != CLAIM)
        else:
            choice = parse_typed(action, state.phase)
        seat = state.to_move
        state.apply(choice)
        if not silent:
            self.log.append(f"{names(state)[seat]}: {self._words(choice)}")

    def _words(self, action: Action) -> str:
        state = self.state
        assert state is not None
        two = self.rules.joker_names
        return play_text(action, two) if action < 74 else call_text(action, two)

    # ------------------------------------------------------------------ flow
    def _steps(self) -> list[Any]:
        return list(self.lesson.get("script", []))

    def _advance(self) -> None:
        """Play the others' scripted actions up to the next question."""
        if "whole_hand" in self.lesson:
            self._advance_whole_hand()
            return
        steps = self._steps()
        while self.step < len(steps) and isinstance(steps[self.step], str):
            self._auto(steps[self.step])
            self.step += 1
        if self.step >= len(steps):
            self.done = True
            return
        step = steps[self.step]
        state = self.state
        if "you" in step and (state is None or state.is_over or state.to_move != YOU):
            mover = "nobody" if state is None or state.is_over else names(state)[state.to_move]
            raise ValueError(
                f"lesson {self.lesson['id']}: step {self.step} asks South, but {mover} is to move"
            )

    def _advance_whole_hand(self) -> None:
        state = self.state
        assert state is not None
        while not state.is_over and state.to_move != YOU:
            seat = state.to_move
            action = self.players[seat].act(state.observation(seat))
            state.apply(action)
            self.log.append(f"{names(state)[seat]}: {self._words(action)}")
        if state.is_over:
            self.log += result_lines(state)
            self.done = True

    def current(self) -> dict[str, Any] | None:
        steps = self._steps()
        return None if self.done or "whole_hand" in self.lesson else steps[self.step]

    def hint(self) -> tuple[Action, str] | None:
        """The whole hand's hint: the heuristic's choice and its reason."""
        state = self.state
        if state is None or self.helper is None or state.is_over:
            return None
        action = self.helper.act(state.observation(YOU))
        return action, self.helper.explain()

    def prompt(self) -> str | None:
        """The question for the learner, with the position; None when the lesson is over."""
        if self.done:
            return None
        lines = self.flush()
        state = self.state
        step = self.current()
        if step is not None and "quiz" in step:
            return "\n".join([*lines, step["quiz"]])
        assert state is not None
        lines += position_lines(state, YOU, show_all=bool(self.lesson.get("show_all")))
        if "whole_hand" in self.lesson:
            hint = self.hint()
            if hint is not None:
                lines.append(f"Hint: {hint[1] or self._words(hint[0])}")
            what = {"play": "card", "discard": "discard (one card at a time)"}
            lines.append(f"Your {what.get(state.phase, 'call')}:")
        else:
            assert step is not None
            lines.append(ask_text(step, self.interface))
        return "\n".join(lines)

    def flush(self) -> list[str]:
        out, self.log = self.log, []
        return out

    def answer(self, text: str) -> list[str]:
        """What the table says to ``text``; the lesson moves on after a right answer."""
        if self.done:
            return ["The lesson is over."]
        text = text.strip()
        state = self.state
        step = self.current()
        if step is not None and "quiz" in step:
            if text in ("?", "help"):
                return [NUMBER_WANTED]
            return self._quiz(step, text)
        assert state is not None
        if text in ("?", "help"):
            return [f"Legal: {legal_words(state)}"]
        if "whole_hand" in self.lesson:
            hint = self.hint()
            if text in ("hint", "h"):
                return [f"Hint: {hint[1] if hint else ''}"]
            if text == "!" and hint is not None:
                text = action_text(hint[0], self.rules.joker_names)
        try:
            action = parse_typed(text, state.phase, state)
            trial = state.clone()
            trial.apply(action)
        except FiveHundredError as error:
            return [f"The table refuses: {refusal(error, state)}"]
        if step is not None:
            allowed = set()
            for option in step["you"]:
                with contextlib.suppress(FiveHundredError):
                    allowed.add(parse_typed(option, state.phase))
            if action not in allowed:
                return [f"That is legal, but not this lesson's point. {step.get('hint', '')}"]
        state.apply(action)
        out = [f"You: {self._words(action)}"]
        if step is not None:
            if step.get("after"):
                out.append(step["after"])
            self.step += 1
        self._advance()
        if self.done and "whole_hand" not in self.lesson:
            out += self.flush()
        return out

    def _quiz(self, step: dict[str, Any], text: str) -> list[str]:
        value, why = compute(step["compute"], self.rules)
        try:
            given = int(text.replace("+", "").replace("points", "").strip())
        except ValueError:
            return [NUMBER_WANTED]
        if given != value:
            return [f"Not quite: {why}"]
        self.step += 1
        self._advance()
        return [f"Right: {why}"]


def lowest_cards(state: HandState) -> list[Action]:
    """The discards in card order (the setup's ``_discard3``): kitty cards first."""
    legal = state.legal_actions()
    kitty = [c for c in iter_cards(state.kitty_dealt) if c in legal]
    return kitty + [a for a in legal if a not in kitty]


def build_deal(rules: Rules, lesson: dict[str, Any]) -> HandState:
    """The lesson's deal: the named cards where they are named, the rest of the pack
    dealt in order to the hands and the kitty that are short."""
    pack, _ = deal_plan(rules)
    named = [[parse_card(c) for c in hand] for hand in lesson.get("hands", [])]
    named += [[] for _ in range(rules.seats - len(named))]
    kitty = [parse_card(c) for c in lesson.get("kitty", [])]
    used = {c for hand in named for c in hand} | set(kitty)
    if len(used) != sum(map(len, named)) + len(kitty):
        raise ValueError(f"lesson {lesson['id']}: a card is named twice")
    rest = [c for c in pack if c not in used]
    size = rules.pack.hand_size
    for hand in named:
        while len(hand) < size:
            hand.append(rest.pop(0))
    while len(kitty) < rules.pack.kitty_size:
        kitty.append(rest.pop(0))
    return HandState(rules, lesson.get("dealer", 3), [mask_of(h) for h in named], mask_of(kitty))


def compute(spec: list[Any], rules: Rules) -> tuple[int, str]:
    """A quiz's answer, computed by the engine's scoring, with the reason in words."""
    kind = spec[0]
    if kind == "bid_value":
        contract = parse_call(spec[1])
        value = bid_value(contract, rules)
        return value, f"{call_text(contract)} is worth {value} (R-SCORE)."
    if kind == "score_after":
        # South (seat 0) made the contract and took ``tricks``; West took the rest.
        before, side, contract_text, tricks = spec[1], spec[2], spec[3], spec[4]
        contract = parse_call(contract_text)
        winners = [0] * tricks + [1] * (10 - tricks)
        hand = score_hand(rules, contract, 0, (2,), [tricks, 10 - tricks, 0, 0], winners)
        scores = [0, 0]
        scores[side] = before
        after = apply_hand_to_scores(rules, scores, hand)
        value = after[side]
        points = hand.points[side]
        if before + points > value:  # held by the 490 rule
            sums = (
                f"{before} + {points} would be {before + points}, but the 490 rule holds "
                f"them at {value}: points won in defence cannot take a side to 500"
            )
        else:
            sums = f"{before} {'+' if points >= 0 else '-'} {abs(points)} = {value}"
        winner = game_winner(rules, after, hand)
        if winner is not None:
            sums += f"; the game is over: {side_names()[winner]} win"
            if min(after) <= -500:
                sums += " (the other side went out backwards)"
        return value, f"{sums}."
    raise ValueError(f"unknown quiz {kind!r}")


def quiz_choices(spec: list[Any], rules: Rules) -> list[int]:
    """The answers a quiz offers to choose from (the web's buttons): the engine's answer
    among the slips a learner makes, in order. A contract's value: the values nearest to
    it in the table. The scores after a hand: the tricks alone at 10 each, the 490 rule
    where it does not hold, the contract's points the other way, the score before."""
    value, _ = compute(spec, rules)
    kind = spec[0]
    if kind == "bid_value":
        calls = [f"{level}{suit}" for level in range(6, 11) for suit in ("S", "C", "D", "H", "NT")]
        values = {bid_value(parse_call(c), rules) for c in [*calls, "misere", "open_misere"]}
        others = sorted(values - {value}, key=lambda v: (abs(v - value), v))[:3]
    else:
        before, side, contract_text, tricks = spec[1], spec[2], spec[3], spec[4]
        points = bid_value(parse_call(contract_text), rules)
        taken = tricks if side == 0 else 10 - tricks
        slips = [
            before + 10 * taken,
            min(before + points, rules.target - 10),
            before + points,
            before - points,
            before,
        ]
        others = [v for v in dict.fromkeys(slips) if v != value][:3]
    step = 10
    while len(others) < 3:  # (never short today: the slips above differ)
        others += [v for v in (value - step, value + step) if v not in others][: 3 - len(others)]
        step += 10
    return sorted({value, *others})


def lesson_ids() -> list[str]:
    return [lesson["id"] for lesson in LESSONS]


def find_lesson(name: str) -> dict[str, Any] | None:
    for number, lesson in enumerate(LESSONS, 1):
        if name in (lesson["id"], str(number)):
            return lesson
    return None
