"""The words people read: cards, actions, seats, sides, contracts, prompts and refusals.

One vocabulary for every interface (the terminal game, the line mode, the pad, the web,
the bots' explanations, :mod:`fivehundred.text`): card symbols (``10♥``), the jokers named
as the rules in force name them (``JK``; ``JKR``/``JKB``; ``JKR``/``JKW`` in the
French-Canadian pack: pass ``rules.joker_names``), and the parse side, which takes back
every form printed here and the record notation (``5♠``, ``5s``, ``10h``, ``open misère``,
``open misere``, ``no slam``, ``jk``). Standard library only.

>>> from fivehundred.actions import OPEN_MISERE, bid_action
>>> action_label(bid_action(7, 3)), action_label(OPEN_MISERE)
('7♥', 'open misère')
>>> parse("7h", [bid_action(7, 3), OPEN_MISERE]) == bid_action(7, 3)
True
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from fivehundred.actions import (
    BID_BASE,
    BLIND_MISERE,
    CALL_BASE,
    GO_ALONE,
    MISERE,
    NO_NOMINATION,
    NOMINATE_BASE,
    OPEN_MISERE,
    PASS,
    Action,
    action_card,
    action_text,
    bid_strain,
    bid_tricks,
    is_misere,
    is_suit_bid,
    joker_lead_suit,
    parse_action,
    parse_call,
    parse_draw,
    parse_nomination,
    parse_partner_call,
    parse_play,
    parse_slam,
)
from fivehundred.cards import (
    JOKER,
    NO_TRUMPS,
    NUM_CARDS,
    RANK_JACK,
    RANK_TEXT,
    SUIT_LETTERS,
    SUIT_SYMBOLS,
    Card,
    CardMask,
    JokerNames,
    card_symbol,
    card_text,
    is_joker,
    iter_cards,
    parse_card,
    rank_of,
    same_colour_suit,
    suit_of,
)
from fivehundred.errors import (
    ActionParseError,
    CardParseError,
    FiveHundredError,
    IllegalActionError,
    Refusal,
)
from fivehundred.phases import STOCK_SEAT, TABLE_SEAT
from fivehundred.play import PlayContext, make_context

if TYPE_CHECKING:
    from fivehundred.observation import Observation
    from fivehundred.rules import Rules

STRAIN_SYMBOLS: tuple[str, ...] = (*SUIT_SYMBOLS, "NT")

# ------------------------------------------------------------------------------ seats
#: Seat names around the table, clockwise from seat 0 (South), by seat count.
SEAT_NAMES_BY_SEATS: dict[int, tuple[str, ...]] = {
    3: ("South", "West", "East"),
    4: ("South", "West", "North", "East"),
    5: ("South", "West", "North-West", "North-East", "East"),
    6: ("South", "South-West", "North-West", "North", "North-East", "South-East"),
}


def seat_name(seat: int, seats: int = 4) -> str:
    """A seat's compass name (``South`` is seat 0, then clockwise); ``Seat 7`` otherwise."""
    names = SEAT_NAMES_BY_SEATS.get(seats, ())
    return names[seat] if 0 <= seat < len(names) else f"Seat {seat}"


def place_name(rules: Rules, seat: int, name: str = "") -> str:
    """The name of a seat that is no player's (R-PLAYERS): ``Face-up cards`` and ``Dead
    cards`` (open_eight), ``Stock`` and ``Thrown`` (draw_pack), ``North (dead hand)`` (the
    seat's ``name``; ``Dead hand`` without one); "" for a player's seat or a dummy."""
    if seat in rules.live_seats or rules.dummies:
        return ""
    if rules.open_eight:
        return "Face-up cards" if seat == TABLE_SEAT else "Dead cards"
    if rules.draw_pack:
        return "Stock" if seat == STOCK_SEAT else "Thrown"
    return f"{name} (dead hand)" if name else "Dead hand"


def dummy_name(owner: str) -> str:
    """A dummy's name (two players, R-PLAYERS): ``North's dummy``, ``Ann's dummy``."""
    return f"{owner}'s dummy"


def side_label(names: Iterable[str]) -> str:
    """A side named by its players: ``Ann & Bob``, ``You & North``."""
    return " & ".join(names)


def sides_named(rules: Rules, names: Sequence[str]) -> list[str]:
    """Each side of ``rules`` named by its players' ``names`` (one a seat; the seats that
    are no player's are left out): ``["Ann & Cat", "Bob & Dan"]``."""
    from fivehundred.scoring import side_of_seats

    sides = side_of_seats(rules)
    return [
        side_label(names[seat] for seat in range(rules.players) if sides[seat] == side)
        for side in range(max(sides) + 1)
    ]


def side_names(seats: int = 4, sides: Sequence[int] | None = None) -> list[str]:
    """A name for each side by its seats' compass names (``South & North``, ``West &
    East``), joined as a side of named players is (:func:`side_label`)."""
    sides = sides if sides is not None else tuple(seat % 2 for seat in range(seats))
    return [
        side_label(seat_name(s, seats) for s in range(seats) if sides[s] == side)
        for side in range(max(sides) + 1)
    ]


# ------------------------------------------------------------------------------ cards
def suit_label(suit: int) -> str:
    """``♠ ♣ ♦ ♥`` for suits 0–3; ``NT`` for no trumps (4)."""
    return STRAIN_SYMBOLS[suit]


def card_label(card: Card, jokers: JokerNames = False) -> str:
    """``10♥``, ``A♠``, ``JK`` (the jokers keep their letters: ``JKR``, ``JKB``, ``JKW``)."""
    return card_symbol(card, jokers)


def play_label(text: str, jokers: JokerNames = False) -> str:
    """A card played, written in record notation (``9S``, ``JK>S``), as people read it
    (``9♠``, ``JK as ♠``)."""
    return action_label(parse_play(text), jokers)


def pack_words(rules: Rules) -> dict[str, dict[str, str]]:
    """Every card of the rules' pack and every suit in the words people read, keyed by record
    notation, for a page that draws cards from it (it says these words, it does not make its
    own): ``cards`` (``10♥``, ``JKB``), ``names`` for a screen reader (``10 of hearts``,
    ``black joker``), ``suits`` (``♠``) and ``suit_names`` (``spades``)."""
    jokers = rules.joker_names
    cards = list(iter_cards(rules.pack.cards))
    return {
        "cards": {card_text(c, jokers): card_label(c, jokers) for c in cards},
        "names": {card_text(c, jokers): card_words(c, jokers) for c in cards},
        "suits": dict(zip(SUIT_LETTERS, SUIT_SYMBOLS, strict=True)),
        "suit_names": dict(zip(SUIT_LETTERS, SUIT_WORDS, strict=True)),
    }


def cards_label(
    cards: CardMask | Iterable[Card], ctx: PlayContext | None = None, jokers: JokerNames = False
) -> str:
    """Cards with suit symbols in the one display order (:func:`hand_order`: by suit,
    colours alternating, trumps first with the left bower, high to low): ``JK J♠ 4♠ 10♥``."""
    return " ".join(card_label(c, jokers) for c in hand_order(cards, ctx))


#: The suits in the one display order of a hand, colours alternating: the trump suit
#: first when there is one (no trumps, misère and before the contract: ♠ ♥ ♣ ♦).
_DISPLAY_SUITS: dict[int, tuple[int, ...]] = {
    NO_TRUMPS: (0, 3, 1, 2),
    0: (0, 3, 1, 2),
    1: (1, 3, 0, 2),
    2: (2, 0, 3, 1),
    3: (3, 0, 2, 1),
}


def display_context(
    contract: Action, joker_suits: tuple[int, int] = (-1, -1), j5: bool = False
) -> PlayContext | None:
    """The play tables that place each card of a hand for display once ``contract`` is
    known (the left bower among the trumps, a nominated joker in its suit); None before."""
    if contract < BID_BASE:
        return None
    return make_context(bid_strain(contract), is_misere(contract), joker_suits, j5)


def view_context(observation: Observation) -> PlayContext | None:
    """:func:`display_context` for what ``observation``'s seat sees (its contract, the
    jokers' nominations, the rules' j5 no trumps): the one the page and the terminal use."""
    return display_context(
        observation.contract, observation.joker_suits, observation.rules.j5_no_trumps
    )


def hand_order(cards: CardMask | Iterable[Card], ctx: PlayContext | None) -> list[Card]:
    """A hand in the one display order of the pages: by suit, colours alternating, the
    trumps first (both bowers and the jokers among them), high to low within a suit; a
    joker that belongs to no suit (before the contract, or free in no trumps or misère)
    leads. ``ctx``: :func:`display_context` (None before the contract)."""
    listed = iter_cards(cards) if isinstance(cards, int) else cards
    order = _DISPLAY_SUITS[ctx.trump if ctx is not None else NO_TRUMPS]

    def key(card: Card) -> tuple[int, int]:
        if ctx is None:
            suit, power = (-1 if is_joker(card) else suit_of(card)), rank_of(card)
        else:
            suit, power = ctx.effective_suit[card], ctx.power[card]
        return (order.index(suit) if suit >= 0 else -1, -power)

    return sorted(listed, key=key)


_RANK_NAMES = {"J": "jack", "Q": "queen", "K": "king", "A": "ace"}
_JOKER_NAMES = {"JK": "joker", "JKR": "red joker", "JKB": "black joker", "JKW": "white joker"}
SUIT_WORDS: tuple[str, ...] = ("spades", "clubs", "diamonds", "hearts")


def card_words(card: Card, jokers: JokerNames = False, trump: int = -1) -> str:
    """A card in words, for a screen reader: ``10 of hearts``, ``ace of spades``, ``white
    joker``; under a trump suit (``trump`` 0–3) a bower says so: ``jack of diamonds, left
    bower``."""
    if is_joker(card):
        return _JOKER_NAMES[card_label(card, jokers)]
    rank = RANK_TEXT[rank_of(card)]
    name = f"{_RANK_NAMES.get(rank, rank)} of {SUIT_WORDS[suit_of(card)]}"
    if 0 <= trump < 4 and rank_of(card) == RANK_JACK:
        if suit_of(card) == trump:
            return f"{name}, right bower"
        if is_left_bower(card, trump):
            return f"{name}, left bower"
    return name


# ------------------------------------------------------------------------------ actions
_WORDS: dict[Action, str] = {
    PASS: "pass",
    MISERE: "misère",
    OPEN_MISERE: "open misère",
    BLIND_MISERE: "blind misère",
    NO_NOMINATION: "no nomination",
    GO_ALONE: "goes alone",
}


def action_label(action: Action, jokers: JokerNames = False) -> str:
    """An action as a person reads it: ``7♥``, ``6NT``, ``misère``, ``JK as ♠``, ``pass``,
    ``joker is ♥``, ``calls A♥ as partner``, ``hi/lo``, ``double misère``, ``no slam``."""
    if 0 <= action < NUM_CARDS:
        return card_label(action, jokers)
    if action < PASS:
        suit = SUIT_SYMBOLS[joker_lead_suit(action)]
        return f"{card_label(action_card(action), jokers)} as {suit}"
    if action in _WORDS:
        return _WORDS[action]
    if is_suit_bid(action):
        return f"{bid_tricks(action)}{STRAIN_SYMBOLS[bid_strain(action)]}"
    if NOMINATE_BASE <= action < NO_NOMINATION:
        return f"joker is {SUIT_SYMBOLS[(action - NOMINATE_BASE) % 4]}"
    if CALL_BASE <= action < GO_ALONE:
        return f"calls {card_label(action - CALL_BASE, jokers)} as partner"
    # The house calls and decisions: the record notation in words (``action_text`` holds
    # the one table of their names).
    text = action_text(action, jokers)
    return text.replace("hi_lo", "hi/lo").replace("_", " ").replace("misere", "misère")


def contract_label(contract: Action, jokers: JokerNames = False) -> str:
    """A contract (the winning call): ``7♥``, ``8NT``, ``open misère``, ``hi/lo``."""
    return action_label(contract, jokers)


def action_phrase(action: Action, jokers: JokerNames = False) -> str:
    """An action in a sentence (the bots' explanations): ``the 7♠``, ``the joker``, ``the
    joker led as ♥``, ``6NT``, ``pass``."""
    if 0 <= action < NUM_CARDS:
        return (
            "the joker" if action >= JOKER and not jokers else f"the {card_label(action, jokers)}"
        )
    if action < PASS:
        return f"the joker led as {SUIT_SYMBOLS[joker_lead_suit(action)]}"
    return action_label(action, jokers)


def labels(actions: Iterable[Action], jokers: JokerNames = False) -> list[str]:
    """The label of each action (for an interface's buttons or list of legal actions)."""
    return [action_label(a, jokers) for a in actions]


# ------------------------------------------------------------------------------ prompts
#: What a person decides in each phase (the phases of :mod:`fivehundred.game`), in every
#: interface (each shows the legal actions beside it, in its own way).
PHASE_PROMPTS: dict[str, str] = {
    "auction": "Your bid",
    "discard": "Discard a card",
    "nominate": "Name the joker's suit, or leave it free",
    "call": "Call a card: its holder is your partner for this hand (or go alone)",
    "play": "Your card",
    "slam": "Call slam (all ten tricks: your partner passes you a card and sits out), or not",
    "slam_pass": "Your partner calls slam: pass them a card",
    "table_kitty": "Move a face-up card to the kitty",
    "table_take": "Take a face-up card",
    "table_discard": "Discard a card for the one you took",
    "draw": "Keep the card drawn (and throw the next) or throw it (and keep the next)",
}


def prompt(
    phase: str,
    *,
    discards: int = 0,
    following: bool | None = None,
    drawn: str = "",
    taken: str = "",
    contract: str = "",
) -> str:
    """The prompt for a phase (``Your bid``, ``Your card``…); ``Your move`` otherwise.
    ``discards`` (cards still to discard) and ``following`` (whether a trick is under
    way) make the discard and the play more precise: ``Discard 3 cards``, ``Your lead``;
    ``drawn`` (draw_pack) and ``taken`` (open_eight) name the card in question, and
    ``contract`` the contract won when the kitty is taken."""
    if phase == "discard" and contract:
        cards = f"{discards} cards" if discards > 1 else "a card"
        return f"You won the auction with {contract}: discard {cards}"
    if phase == "discard" and discards > 1:
        return f"Discard {discards} cards"
    if phase == "play" and following is not None:
        return "Your turn: follow" if following else "Your lead"
    if phase == "draw" and drawn:
        return f"You drew {drawn}: keep it (and throw the next) or throw it (and keep the next)"
    if phase == "table_discard" and taken:
        return f"{PHASE_PROMPTS[phase]} ({taken})"
    return PHASE_PROMPTS.get(phase, "Your move")


def observation_prompt(observation: Observation) -> str:
    """:func:`prompt` for what ``observation``'s seat decides now."""
    jokers = observation.rules.joker_names
    if observation.phase == "auction" and observation.seat in observation.barred:
        return f"Your bid: you must pass, {BARRED}"
    taken = observation.table_take[0]
    return prompt(
        observation.phase,
        discards=observation.discards_left,
        following=bool(observation.trick) if observation.phase == "play" else None,
        drawn=card_label(observation.drawn, jokers) if observation.drawn >= 0 else "",
        taken=card_label(taken, jokers) if taken >= 0 else "",
        contract=contract_label(observation.contract, jokers)
        if observation.phase == "discard" and observation.contract >= 0
        else "",
    )


#: Why a seat may only pass (R-HOUSE ralphing), after "you must pass".
BARRED = "barred by ralphing after failing your last contract by three tricks or more"

#: What the table says while another seat decides (``{name}``: that seat's name).
WAITING: dict[str, str] = {
    "auction": "{name} to bid",
    "discard": "{name} takes the kitty and discards",
    "nominate": "{name} nominates the joker",
    "call": "{name} calls a partner",
    "play": "{name} to play",
}


def waiting(phase: str, name: str) -> str:
    """What the table says while the seat called ``name`` decides in ``phase``."""
    return WAITING.get(phase, "{name} to move").format(name=name)


# ------------------------------------------------------------------------------ parsing
_LETTERS = str.maketrans({"♠": "s", "♣": "c", "♦": "d", "♥": "h", "è": "e", "/": "_"})
_SPACES = re.compile(r"[\s_-]+")
_PARSERS: tuple[Callable[[str], Action], ...] = (
    parse_play,
    parse_call,
    parse_nomination,
    parse_slam,
    parse_draw,
    parse_partner_call,
)


def _key(text: str) -> str:
    """Text without the differences people make: case, symbols or letters, accents,
    spaces or underscores (``Open Misère`` and ``open_misere`` are one key)."""
    return _SPACES.sub("_", text.strip().lower().translate(_LETTERS)).strip("_")


def parse(
    text: str,
    legal: Iterable[Action] | None = None,
    jokers: JokerNames = False,
    phase: str | None = None,
) -> Action:
    """The action a person (or a program) means by ``text``: any label printed by
    :func:`action_label` or the record notation, with suits as symbols or letters, in any
    case, with or without accents and underscores.

    With ``legal``, a text that fits one legal action means it (``7h`` is the bid in the
    auction, the card in play; ``jk`` is the joker lead when it is the only one). Otherwise
    the record notation decides (``phase`` as :func:`~fivehundred.actions.parse_action`).
    Raises :class:`ActionParseError`."""
    if not isinstance(text, str):
        raise ActionParseError(f"action must be a string, got {text!r}")
    key = _key(text)
    if legal is None:
        return parse_action(key, phase)
    options = list(legal)
    known = {_key(action_label(a, jokers)): a for a in options}
    known.update((_key(action_text(a, jokers)), a) for a in options)
    if key in known:
        return known[key]
    candidates: list[Action] = []
    for parser in _PARSERS:
        with contextlib.suppress(ActionParseError):
            candidates.append(parser(key))
    fitting = {a for a in candidates if a in options}
    if not fitting:  # a card named whose legal action is a joker lead
        fitting = {a for c in candidates if c < NUM_CARDS for a in options if action_card(a) == c}
    if len(fitting) == 1:
        return fitting.pop()
    if len(fitting) > 1:
        names = ", ".join(action_label(a, jokers) for a in sorted(fitting))
        raise ActionParseError(f"{text!r} could be {names}: say which")
    if candidates:
        return candidates[0]  # not legal now: the rules say why
    raise ActionParseError(f"not an action: {text!r}")


# ------------------------------------------------------------------------------ refusals
#: A card in record notation inside a text (not inside a quoted token, a word or a joker
#: lead's suit): the one pattern that turns notation into symbols.
_CARD = re.compile(r"(?<![\w'\"<>:])(?:1[0-3]|[2-9JQKA])[SCDH](?![\w'\"])|\bJK\b|\bBJ\b|\bRJ\b")
_SEAT = re.compile(r"\b[Ss]eat (\d+)('s)?")
_RECORD_SUIT = re.compile(r"\b(follow|led as|lead as) ([SCDH])\b")


def card_symbols(text: str, jokers: JokerNames = False) -> str:
    """Record notation of cards in a text (``7S``, ``10H``) as symbols (``7♠``, ``10♥``)."""

    def card(match: re.Match[str]) -> str:
        try:
            return card_symbol(parse_card(match.group(0)), jokers)
        except CardParseError:
            return match.group(0)

    return _CARD.sub(card, text)


def card_language(reason: str) -> str:
    """A record's refusal as a person reads it: cards with suit symbols (``9S`` → ``9♠``),
    suits by name (``must follow H`` → ``must follow hearts``). Quoted tokens (the record's
    own text) and joker leads (``JK>S``) are left as written."""
    reason = _RECORD_SUIT.sub(lambda m: f"{m[1]} {SUIT_WORDS[SUIT_LETTERS.index(m[2])]}", reason)
    return card_symbols(reason)


def _refusal(error: IllegalActionError, jokers: JokerNames, trump: int) -> str | None:
    """A refusal said from its data (what was refused, which card, which suit), or None
    for a refusal without (its own message then)."""
    why = error.why
    suit = SUIT_SYMBOLS[error.suit] if 0 <= error.suit < 4 else ""
    card = card_label(error.card, jokers) if 0 <= error.card < NUM_CARDS else ""
    if why == Refusal.REVOKE:
        if is_left_bower(error.card, trump):
            return f"{card} is the left bower, a trump: you must follow {suit}"
        return f"You must follow {suit}: {card} is not a {suit}"
    if why == Refusal.OUTBID:
        beaten = action_label(error.against, jokers)
        return f"{action_label(error.card, jokers)} is not higher than the bid to beat, {beaten}"
    return _REFUSALS[why].format(card=card, suit=suit) if why in _REFUSALS else None


#: How a person reads each kind of refusal (``{card}``, ``{suit}``: the refusal's own).
_REFUSALS: dict[str, str] = {
    Refusal.JOKER_MUST_FOLLOW: "You must follow {suit}: the joker may be played only when you have no {suit}",
    Refusal.MISERE_JOKER: "You cannot follow suit, so in misère you must play the joker",
    Refusal.JOKER_NEEDS_SUIT: "Say which suit you lead the joker as",
    Refusal.JOKER_SUIT_VOID: (
        "You may not lead the joker as {suit}: the suit nominated must be one the leader "
        "has not shown void in"
    ),
    Refusal.JOKER_SUIT_LED: (
        "You may not lead the joker as {suit}: the suit nominated must not have been led "
        "in this hand"
    ),
    Refusal.NOT_HELD: "You do not hold {card}",
    Refusal.FACE_DOWN: "{card} lies face down: the dummy plays only its face-up cards",
    Refusal.DEALER_MUST_BID: "Everyone else has passed: as dealer you must bid",
    Refusal.NOT_A_CALL: "It is the bidding: choose a bid or pass",
    Refusal.NOT_A_CARD: "It is the play: choose a card",
    Refusal.NOT_A_DISCARD: "Discard one of your cards (the kitty is in your hand now)",
    Refusal.NOT_YOUR_TURN: "Wait for your turn",
    Refusal.BARRED: "You must pass this hand: " + BARRED,
}


def is_left_bower(card: Card, trump: int) -> bool:
    """Whether ``card`` is the jack of the trump suit's colour (a trump, R-RANK)."""
    return (
        0 <= trump < 4
        and not is_joker(card)
        and rank_of(card) == RANK_JACK
        and suit_of(card) == same_colour_suit(trump)
    )


def error_text(
    error: FiveHundredError,
    jokers: JokerNames = False,
    names: Sequence[str] = (),
    *,
    rule: bool = True,
    trump: int = -1,
) -> str:
    """``error`` as a person reads it: suits and cards as symbols, the refusal said the
    way a player would say it, the rule id kept in brackets (unless ``rule`` is false).
    ``names`` names the seats (``seat 2`` becomes ``names[2]``) where a message still
    mentions one; with ``trump`` (the contract's suit) a left bower refused says so."""
    reason = error.reason
    text = _refusal(error, jokers, trump) if isinstance(error, IllegalActionError) else None
    if text is None:
        text = reason[:1].upper() + reason[1:]
    text = card_symbols(text, jokers)
    if names:

        def seat(match: re.Match[str]) -> str:
            number = int(match.group(1))
            name = names[number] if number < len(names) else match.group(0)
            return name + (match.group(2) or "")

        text = _SEAT.sub(seat, text)
    return f"{text} ({error.rule})" if error.rule and rule else text


# ------------------------------------------------------------------------------ seating
#: A seat as one person sees it: their own, their partner's (the same side), an opponent's.
#: (CALLED: another player where partners are called each hand, five players.)
YOU, PARTNER, OPPONENT, CALLED = "you", "partner", "opponent", "called"
#: The words for each relation, beside a seat's place (``North — your partner``).
RELATION_WORDS: dict[str, str] = {
    YOU: "you",
    PARTNER: "your partner",
    OPPONENT: "an opponent",
    CALLED: "a partner only if called",
}
#: What an open seat offers the person making a table, by its relation to them.
INVITE_WORDS: dict[str, str] = {
    PARTNER: "invite a partner",
    OPPONENT: "invite an opponent",
    CALLED: "invite a player",
}


def seat_relations(sides: Sequence[int], viewer: int) -> list[str]:
    """Each seat's relation to the seat ``viewer`` from the rules' sides (one number a
    seat, as :func:`fivehundred.scoring.side_of_seats`; -1 a dead hand): :data:`YOU`,
    :data:`PARTNER` (the same side) or :data:`OPPONENT`; "" for a seat that is no player's.

    >>> seat_relations((0, 1, 0, 1), 0)
    ['you', 'opponent', 'partner', 'opponent']
    >>> seat_relations((0, 1, 2), 1)
    ['opponent', 'you', 'opponent']
    """
    mine = sides[viewer] if 0 <= viewer < len(sides) else -2
    return [
        YOU if seat == viewer else "" if side < 0 else PARTNER if side == mine else OPPONENT
        for seat, side in enumerate(sides)
    ]


#: The computer levels people are offered, in order, with a word on each.
LEVEL_WORDS: dict[str, str] = {
    "easy": "easy: a beginner",
    "medium": "medium: a steady player",
    "hard": "hard: looks ahead",
    "expert": "expert: the strongest",
}
#: The level a new game's computer players have unless a person chooses another.
DEFAULT_LEVEL = "medium"

#: The presets as people name them (the lobby, the options, the pad).
PRESET_LABELS = {
    "australian": "Australian",
    "american": "American",
    "three_handed": "Three-handed",
    "five_handed": "Five-handed",
    "six_handed": "Six-handed",
    "two_handed": "Two-handed",
    "french_canadian": "French Canadian",
}


def preset_label(name: str) -> str:
    """``Australian``, ``Three-handed``: a preset as people name it (its name otherwise)."""
    return PRESET_LABELS.get(name, name.replace("_", " "))


#: A variant's name as the rules write it in a reason: quoted, or bare with underscores.
_VARIANT_NAME = re.compile(r"'([a-z0-9_]+)'|\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b")


def variant_words(reason: str, titles: dict[str, str]) -> str:
    """A rules refusal with each variant name (``'rule_490'``, ``allpass_play_nt``)
    replaced by the variant's title as people read it (``the 490 rule``); other words and
    quotes are kept.

    >>> variant_words("contradicts 'rule_490' (hi_lo)", {"rule_490": "the 490 rule", "hi_lo": "hi-lo"})
    'contradicts the 490 rule (hi-lo)'
    """

    def title(match: re.Match[str]) -> str:
        name = match.group(1) or match.group(2)
        return titles.get(name, match.group(0))

    return _VARIANT_NAME.sub(title, reason)


# ------------------------------------------------------------------------------ who sits where
# (partners and opponents named at the table and where a seat is chosen; the 490
# rule with the table's own figure; the misère contractor's partner sitting out)


def seat_offer(
    sides: Sequence[int], seat: int, names: Sequence[str | None], called: bool = False
) -> str:
    """What the button that takes the open ``seat`` says, by the people already seated
    (``names``, one a seat, None for an open one): ``Sit as Ann's partner``, ``Sit as Ann's
    opponent``, ``Sit as an opponent`` (every seat its own side), or ``Take a seat`` (also
    wherever partners are called each hand, ``called``: nobody is an opponent for good)."""
    if called:
        return "Take a seat"
    partners = [n for s, n in enumerate(names) if n and s != seat and sides[s] == sides[seat]]
    others = [n for s, n in enumerate(names) if n and s != seat and sides[s] != sides[seat]]
    if partners:
        return f"Sit as {side_label(partners)}'s partner"
    if others and any(sides[s] == sides[seat] for s in range(len(names)) if s != seat):
        return f"Sit as {side_label(others)}'s opponent"
    if others:
        return "Sit as an opponent"
    return "Take a seat"


def rule_490_note(target: int) -> str:
    """The 490 rule as it stands at a table playing to ``target`` (R-490): its real figure,
    10 short of the target, whatever the target (in a game to 10 they stop at 0): ``The
    490 rule, in a game to 100: points won defending stop at 90, 10 short of 100; …``."""
    cap = target - 10
    where = "" if target == 500 else f", in a game to {target}"
    short = "" if target == 500 else f", 10 short of {target}"
    return (
        f"The 490 rule{where}: points won defending stop at {cap}{short}; "
        f"a side reaches {target} only by winning a contract."
    )


def rule_490_short(target: int) -> str:
    """The 490 rule in a few words with its real figure, for a score sheet's foot:
    ``defenders' points stop at 90 (the 490 rule)``."""
    return f"defenders' points stop at {target - 10} (the 490 rule)"


def points_line(name: str, points: int, before: int, after: int, cap: int) -> str:
    """A side's points for a hand, with why its total rose by less when the 490 rule held
    it: ``Ann & Cat +60``; ``Bob & Dan +60, held at 490 (+50 counted): points won defending
    stop at 490``; ``… +20, held at 0 (none counted): …``."""
    text = f"{name} {'+' if points > 0 else ''}{points}"
    rose = after - before
    if points > 0 and rose < points:
        counted = f"+{rose} counted" if rose > 0 else "none counted"
        text += f", held at {after} ({counted}): points won defending stop at {cap}"
    return text


def sitting_out_note(name: str, contractor: str, contract: str, slam: bool, cards: int) -> str:
    """Why a partner plays no card this hand (misère, hi/lo, a slam call), and so why each
    trick has fewer cards."""
    how = "called slam" if slam else f"plays {contract} alone"
    return f"{name} sits out: {contractor} {how}, so each trick has {cards} cards."


# ------------------------------------------------------------- the parts of a hand's points
#: Each kind of part of a hand's points (:attr:`fivehundred.scoring.HandScore.parts`).
POINT_PART_WORDS: dict[str, str] = {
    "contract": "{contract} {outcome}",
    "slam": "all ten tricks, up to the slam's 250",
    "slam_call": "the failed slam call, a further",
    "claim": "the wrong claim, a further",
    "tricks": "{tricks} trick{s} at 10",
}


def point_parts_text(
    parts: Iterable[tuple[int, str, int]],
    side: int,
    contract: Action,
    made: bool | None,
    jokers: JokerNames = False,
) -> str:
    """What ``side``'s points of a hand are made of, part by part: ``7♦ failed -180,
    the failed slam call, a further -100``; empty when it scored nothing.
    ``parts`` are :attr:`fivehundred.scoring.HandScore.parts`."""
    out = []
    for owner, kind, points in parts:
        if owner != side:
            continue
        outcome = "made" if made else "failed"
        if kind == "contract" and made is False and points > 0:
            outcome = "failed by the other side"  # R-HOUSE failed_to_opponents
        label = contract_label(contract, jokers) if contract >= 0 else ""
        words = POINT_PART_WORDS[kind].format(
            contract=label,
            outcome=outcome,
            tricks=abs(points) // 10,
            s="" if abs(points) == 10 else "s",
        )
        out.append(f"{words} {points:+d}")
    return ", ".join(out)
