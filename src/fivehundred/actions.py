"""Actions as small integers, and their record notation.

Every decision in a hand is one action (OpenSpiel style):

============  =====================================  ===================
actions       meaning                                record notation
============  =====================================  ===================
0..65         a card, played or discarded            ``AH``, ``10S``, ``JK``
66..73        an unnominated joker led in no trumps  ``JK>S`` (JKB>S)
              or misère, nominating a suit (R-JOKER 5)
74            pass                                   ``pass``
75..99        a suit or no-trump bid                 ``6S`` … ``10NT``
100..102      misère, open misère, blind misère      ``misere`` …
103..110      the contractor nominates the joker's   ``S`` … ``H``
              suit before play (R-JOKER 1)           (``JKB:S``)
111           no nomination                          ``none``
112..177      the 5-player contractor calls a card   ``call:AH``
178           the 5-player contractor goes alone     ``alone``
179..182      house contracts (R-HOUSE): hi/lo,      ``hi_lo``,
              double misère, Shields double,         ``double_misere``,
              patastrophe                            ``shields_double``,
                                                     ``patastrophe``
183, 184      after the kitty, the contractor calls  ``slam``, ``no_slam``
              slam or not (R-HOUSE slam_call)
185           on lead, the contractor claims the     ``claim``
              remaining tricks (R-HOUSE claim)
186, 187      draw_pack: keep the card drawn (and    ``keep``, ``throw``
              throw the next) or the opposite
============  =====================================  ===================
"""

from __future__ import annotations

from fivehundred.cards import (
    JOKER,
    JOKER_BLACK,
    NUM_CARDS,
    STRAIN_LETTERS,
    SUIT_LETTERS,
    WHITE_JOKER,
    JokerNames,
    card_text,
    parse_card,
)
from fivehundred.errors import ActionParseError, CardParseError

Action = int

JOKER_LEAD_BASE = 66
PASS = 74
BID_BASE = 75
MISERE = 100
OPEN_MISERE = 101
BLIND_MISERE = 102
NOMINATE_BASE = 103
NO_NOMINATION = 111
CALL_BASE = 112
GO_ALONE = 178
HI_LO = 179
DOUBLE_MISERE = 180
SHIELDS_DOUBLE = 181
PATASTROPHE = 182
SLAM = 183
NO_SLAM = 184
CLAIM = 185
DRAW_KEEP = 186
DRAW_THROW = 187
NUM_ACTIONS = 188

MISERE_ACTIONS = (MISERE, OPEN_MISERE, BLIND_MISERE)
#: Calls of the house rules (R-HOUSE), after the other action numbers.
HOUSE_CONTRACTS = (HI_LO, DOUBLE_MISERE, SHIELDS_DOUBLE, PATASTROPHE)
#: Contracts in which the contracting side must win no trick (R-JOKER 4 applies).
MISERE_CONTRACTS = frozenset((*MISERE_ACTIONS, DOUBLE_MISERE, SHIELDS_DOUBLE, PATASTROPHE))
#: Contracts the contractor plays alone, partners sitting out (R-KITTY, R-HOUSE hi_lo).
ALONE_CONTRACTS = frozenset((*MISERE_ACTIONS, HI_LO))


def bid_action(tricks: int, strain: int) -> Action:
    """The bid of ``tricks`` (6–10) in ``strain`` (0–3 suits ♠♣♦♥, 4 no trumps)."""
    return BID_BASE + (tricks - 6) * 5 + strain


def is_suit_bid(action: Action) -> bool:
    """A suit or no-trump bid (6♠ … 10NT): played for tricks in a strain; not misère, not a
    house contract (hi/lo, double misère …)."""
    return BID_BASE <= action < MISERE


def plays_alone(contract: Action) -> bool:
    """The contractor plays alone, partners sitting out: misère, open and blind misère,
    hi/lo (R-KITTY, R-HOUSE). In double misère, Shields double and patastrophe both partners
    play (R-HOUSE)."""
    return contract in ALONE_CONTRACTS


def bid_tricks(action: Action) -> int:
    """Tricks a bid undertakes (misère bids: 0)."""
    return (action - BID_BASE) // 5 + 6 if is_suit_bid(action) else 0


def bid_strain(action: Action) -> int:
    """Strain of a suit/NT bid (0–4); misère bids count as no trumps (4)."""
    return (action - BID_BASE) % 5 if is_suit_bid(action) else 4


def is_bid(action: Action) -> bool:
    return BID_BASE <= action <= BLIND_MISERE or HI_LO <= action <= PATASTROPHE


def is_call(action: Action) -> bool:
    """Pass or a bid: an action of the auction."""
    return action == PASS or is_bid(action)


def is_misere(action: Action) -> bool:
    """A contract in which the contracting side must win no trick (double misère too)."""
    return action in MISERE_CONTRACTS


def joker_lead_action(joker: int, suit: int) -> Action:
    return JOKER_LEAD_BASE + 4 * (joker - JOKER) + suit


def is_joker_lead(action: Action) -> bool:
    """A free joker led nominating a suit (R-JOKER 5): ``JK>S``."""
    return JOKER_LEAD_BASE <= action < PASS


def joker_lead_card(action: Action) -> int:
    """The joker a joker lead plays (:func:`action_card` for any action)."""
    return JOKER + (action - JOKER_LEAD_BASE) // 4


def joker_lead_suit(action: Action) -> int:
    """The suit a joker lead nominates (0–3, ♠♣♦♥)."""
    return (action - JOKER_LEAD_BASE) % 4


def nominate_action(joker: int, suit: int) -> Action:
    return NOMINATE_BASE + 4 * (joker - JOKER) + suit


def action_card(action: Action) -> int:
    """The card an action plays or discards (card actions and joker leads); -1 for other
    actions. The one decoder of an action into its card."""
    if action < JOKER_LEAD_BASE:
        return action
    if action < PASS:
        return joker_lead_card(action)
    return -1


_CALL_NAMES = {
    PASS: "pass",
    MISERE: "misere",
    OPEN_MISERE: "open_misere",
    BLIND_MISERE: "blind_misere",
    NO_NOMINATION: "none",
    GO_ALONE: "alone",
    HI_LO: "hi_lo",
    DOUBLE_MISERE: "double_misere",
    SHIELDS_DOUBLE: "shields_double",
    PATASTROPHE: "patastrophe",
    SLAM: "slam",
    NO_SLAM: "no_slam",
    CLAIM: "claim",
    DRAW_KEEP: "keep",
    DRAW_THROW: "throw",
}


def action_text(action: Action, two_jokers: JokerNames = False) -> str:
    """Record notation of an action (see the module table)."""
    if 0 <= action < NUM_CARDS:
        return card_text(action, two_jokers)
    if action < PASS:
        joker = joker_lead_card(action)
        return f"{card_text(joker, two_jokers)}>{SUIT_LETTERS[joker_lead_suit(action)]}"
    if action in _CALL_NAMES:
        return _CALL_NAMES[action]
    if is_suit_bid(action):
        return f"{bid_tricks(action)}{STRAIN_LETTERS[bid_strain(action)]}"
    if NOMINATE_BASE <= action < NO_NOMINATION:
        suit = SUIT_LETTERS[(action - NOMINATE_BASE) % 4]
        higher = "JKW" if two_jokers == WHITE_JOKER else "JKB"
        return suit if action < NOMINATE_BASE + 4 else f"{higher}:{suit}"
    if CALL_BASE <= action < GO_ALONE:
        return "call:" + card_text(action - CALL_BASE, two_jokers)
    raise ActionParseError(f"no such action number: {action}")


_CALLS = {name: action for action, name in _CALL_NAMES.items() if is_call(action)}
_CALLS.update(
    {
        "nello": MISERE,
        "nullo": MISERE,
        "misère": MISERE,
        "open_misère": OPEN_MISERE,
        "double_misère": DOUBLE_MISERE,
        "double_nullo": DOUBLE_MISERE,
    }
)
for _tricks in range(6, 11):
    for _strain, _letters in enumerate(STRAIN_LETTERS):
        _CALLS[f"{_tricks}{_letters}"] = bid_action(_tricks, _strain)
_NOMINATIONS = {"NONE": NO_NOMINATION}
for _suit, _letter in enumerate(SUIT_LETTERS):
    _NOMINATIONS[_letter] = NOMINATE_BASE + _suit
    for _name in ("JK", "JKR"):
        _NOMINATIONS[f"{_name}:{_letter}"] = NOMINATE_BASE + _suit
    _NOMINATIONS[f"JKB:{_letter}"] = NOMINATE_BASE + 4 + _suit
    _NOMINATIONS[f"JKW:{_letter}"] = NOMINATE_BASE + 4 + _suit


def parse_call(text: str) -> Action:
    """Parse an auction call: ``pass``, ``7H``, ``10NT``, ``misere``, ``open_misere``…"""
    call = _CALLS.get(str(text).strip().upper(), _CALLS.get(str(text).strip().lower()))
    if call is None:
        raise ActionParseError(
            f"not a call: {text!r} (calls are pass, 6S..10NT, misere, "
            "open_misere, blind_misere, hi_lo, double_misere, "
            "shields_double, patastrophe)"
        )
    return call


def parse_nomination(text: str) -> Action:
    """Parse a joker nomination: a suit letter ``S C D H`` (``JKB:S`` with two jokers) or
    ``none``."""
    action = _NOMINATIONS.get(str(text).strip().upper())
    if action is None:
        raise ActionParseError(f"not a joker nomination: {text!r} (S, C, D, H or none)")
    return action


def parse_slam(text: str) -> Action:
    """Parse the contractor's slam decision (R-HOUSE slam_call): ``slam`` or ``no_slam``."""
    token = str(text).strip().lower()
    if token in ("slam", "no_slam"):
        return SLAM if token == "slam" else NO_SLAM
    raise ActionParseError(f"not a slam decision: {text!r} (slam or no_slam)")


def parse_draw(text: str) -> Action:
    """Parse a draw_pack decision (R-PLAYERS): ``keep`` or ``throw`` the card drawn."""
    token = str(text).strip().lower()
    if token in ("keep", "throw"):
        return DRAW_KEEP if token == "keep" else DRAW_THROW
    raise ActionParseError(f"not a draw: {text!r} (keep or throw)")


def parse_play(text: str) -> Action:
    """Parse a card played or discarded, a joker led with a suit (``JK>S``), or ``claim``."""
    token = str(text).strip()
    if token.lower() == "claim":
        return CLAIM
    try:
        if ">" in token:
            joker_text, _, suit = token.partition(">")
            joker = parse_card(joker_text)
            if joker not in (JOKER, JOKER_BLACK) or len(suit) != 1 or suit.upper() not in "SCDH":
                raise ActionParseError(f"not a joker lead: {text!r} (write it like JK>S)")
            return joker_lead_action(joker, SUIT_LETTERS.index(suit.upper()))
        return parse_card(token)
    except CardParseError:
        raise ActionParseError(f"not a card: {text!r}") from None


def parse_partner_call(text: str) -> Action:
    """Parse the five-player contractor's call: a card (``AH`` or ``call:AH``) or ``alone``."""
    token = str(text).strip()
    if token.lower() == "alone":
        return GO_ALONE
    if token.lower().startswith("call:"):
        token = token[5:]
    try:
        return CALL_BASE + parse_card(token)
    except CardParseError:
        raise ActionParseError(f"not a called card: {text!r} (a card like AH, or alone)") from None


def parse_action(text: str, phase: str | None = None) -> Action:
    """Parse record notation into an action number; raises :class:`ActionParseError`.

    Cards and bids share text (``7H``), so the phase (``auction``, ``discard``,
    ``nominate``, ``play``, ``slam``, ``slam_pass``) decides; without one, a card is tried
    first.
    """
    if not isinstance(text, str):
        raise ActionParseError(f"action must be a string, got {text!r}")
    if phase == "auction":
        return parse_call(text)
    if phase == "nominate":
        return parse_nomination(text)
    if phase in ("play", "discard", "slam_pass"):
        return parse_play(text)
    if phase == "slam":
        return parse_slam(text)
    if phase == "draw":
        return parse_draw(text)
    if phase == "call" or text.strip().lower().startswith("call:") or text.strip() == "alone":
        return parse_partner_call(text)
    for parser in (parse_play, parse_call, parse_nomination, parse_slam, parse_draw):
        try:
            return parser(text)
        except ActionParseError:
            pass
    raise ActionParseError(f"not an action: {text!r}")
