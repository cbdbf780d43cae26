"""The score pad: hands played with real cards, scored by the engine.

A pad is a plain JSON-able value (format ``fivehundred-pad/1``)::

    {"format": "fivehundred-pad/1",
     "rules": {"preset": "australian", "variants": {}},
     "players": ["Ann", "Bob", "Cat", "Dan"],      # seat order, clockwise
     "first_dealer": 0,
     "hands": [
        {"kind": "hand", "contract": "8H", "contractor": 1, "tricks": 8},
        {"kind": "hand", "contract": "misere", "contractor": 0, "tricks": 0},
        {"kind": "hand", "contract": "7S", "contractor": 2, "tricks": 9,
         "revoke": "defender"},
        {"kind": "misdeal"},
        {"kind": "passed"}]}

A ``hand`` names the contract (record notation), the contractor's seat, the tricks the
contracting side took (in misère: the tricks the contractor took, 0 = made), and where
there are two or more defending sides (three or five players, six in teams of two) the
tricks of each defending side in ``defenders`` (side order). With five players
``partner`` is the called partner's seat (absent: alone). ``revoke`` is ``"defender"``
or ``"contractor"`` (R-IRREG). With the house rule ``claim``, ``"claim_wrong": true``
marks a claim the defence beat (the tricks are those of the play-out that judged it; a
further 100 off the contracting side, R-HOUSE claim). ``passed`` is a hand where
everybody passed (with ``allpass_play_nt``, ``tricks`` lists each side's tricks);
``misdeal`` is redealt by the same dealer and scores nothing.

:func:`score_pad` turns a pad into every hand's points, the running totals, the reasons,
the dealer and the winner, calling :func:`fivehundred.scoring.score_hand`,
:func:`~fivehundred.scoring.apply_hand_to_scores` and
:func:`~fivehundred.scoring.game_winner` — the same functions the game calls, so the pad
can never disagree with it. Everything here is standard library only.
"""

from __future__ import annotations

import copy
import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from fivehundred import rules as rules_module
from fivehundred import words
from fivehundred.actions import (
    ALONE_CONTRACTS,
    BID_BASE,
    HI_LO,
    HOUSE_CONTRACTS,
    MISERE_ACTIONS,
    Action,
    action_text,
    bid_tricks,
    is_misere,
    is_suit_bid,
    parse_call,
)
from fivehundred.auction import allowed_contracts
from fivehundred.cards import SUIT_SYMBOLS
from fivehundred.errors import FiveHundredError
from fivehundred.rules import (
    ALLPASS_PLAY_NT,
    ALLPASS_REDEAL_SAME_DEALER,
    PRESETS,
    VARIANTS,
    WIN_1904,
    Rules,
    rules_from_dict,
)
from fivehundred.scoring import (
    CLAIM_PENALTY,
    GOING_OUT_BACKWARDS,
    HI_LO_TRICKS,
    HandScore,
    apply_hand_to_scores,
    bid_value,
    game_winner,
    score_hand,
    side_of_seats,
    sides_out,
)

FORMAT = "fivehundred-pad/1"
HAND = "hand"
PASSED = "passed"
MISDEAL = "misdeal"
KINDS = (HAND, PASSED, MISDEAL)
REVOKE_DEFENDER = "defender"
REVOKE_CONTRACTOR = "contractor"
TRICKS = 10
MAX_HANDS = 500
MAX_NAME = 24

_ENTRY_KEYS = {
    HAND: {"kind", "contract", "contractor", "partner", "tricks", "defenders", "revoke", "note"},
    PASSED: {"kind", "tricks", "note"},
    MISDEAL: {"kind", "note"},
}
_ENTRY_KEYS[HAND].add("claim_wrong")  # R-HOUSE claim


class PadError(FiveHundredError):
    """A pad or hand that cannot be scored. The message is the words a person reads
    (``hand 2: give the tricks of each of the 2 defending sides``); ``path`` says where in
    the pad's JSON, as data for programs (``hands[1].defenders``; ``""`` when the error is
    not about one field)."""

    rule = ""

    def __init__(self, message: str, path: str = "") -> None:
        self.path = path
        super().__init__(message)


def _hand_error(index: int | None, field: str, words: str) -> PadError:
    """An error about one field of a pad's hand: its words start with the hand's number
    (counted from 1, as the pad shows it), its path is the field's (``hands[1].tricks``)."""
    if index is None:
        return PadError(words, f"hand.{field}" if field else "hand")
    path = f"hands[{index}]" + (f".{field}" if field else "")
    return PadError(f"hand {index + 1}: {words}", path)


# --------------------------------------------------------------------------- the rules
#: Rules fields that change only how the cards are dealt or played, never a score, the
#: dealer or which contracts exist. Every other field counts as scoring, so a new variant
#: of the engine shows on the pad's setup unless it is listed here.
PLAY_ONLY_FIELDS = frozenset(
    {
        "preset",
        "variants",
        "pack45",
        "two_jokers",
        "deal_3_4_3",
        "raise_after_passes",
        "misere_rank",
        "open_misere_rank",
        "dealer_must_bid",
        "eldest_leads",
        "joker_lead",
        "auction",
        "partner_announces",
        "dummies",
        "j5_no_trumps",
    }
)
_PROBE_TARGET = 300


def _scoring_fields(rules: Rules) -> dict[str, Any]:
    found = {
        f.name: getattr(rules, f.name) for f in fields(rules) if f.name not in PLAY_ONLY_FIELDS
    }
    # What the pad sees of these: who scores together, and whether misère exists at all.
    found["teams_of_two"] = side_of_seats(rules)
    found["misere"] = rules.misere_allowed
    if not rules.called_partner:
        found["half_each"] = False
    return found


def scoring_variants(preset: str) -> list[dict[str, Any]]:
    """The engine's variants (``fivehundred.rules.VARIANTS``) that change scoring under
    ``preset``: name, kind (``bool`` or ``int``), the preset's value, and a help line.

    A variant counts when switching it on or off changes a field outside
    :data:`PLAY_ONLY_FIELDS`; one the preset refuses is left out."""
    base = PRESETS[preset]
    base_fields = _scoring_fields(base)
    help_texts: Mapping[str, str] = getattr(rules_module, "VARIANT_HELP", {})
    found = []
    for name in VARIANTS:
        entry: dict[str, Any] | None = None
        changes: dict[bool, bool] = {}
        for value in (True, False):
            try:
                changed = rules_module.make_rules(preset, {name: value})
            except FiveHundredError:
                continue
            changes[value] = _scoring_fields(changed) != base_fields
        if changes and any(changes.values()):
            on_by_default = changes.get(True) is False and True in changes
            entry = {"name": name, "kind": "bool", "default": on_by_default}
        elif not changes:
            try:
                probed: Rules | None = rules_module.make_rules(preset, {name: _PROBE_TARGET})
            except FiveHundredError:
                probed = None
            if probed is not None and _scoring_fields(probed) != base_fields:
                entry = {"name": name, "kind": "int", "default": getattr(base, name, None)}
        if entry is not None:
            entry["help"] = help_texts.get(name, "")
            found.append(entry)
    return found


def contract_label(call: Action) -> str:
    """``8♥``, ``7NT``, ``misère``, ``open misère``, ``blind misère``, ``hi/lo``,
    ``double misère``, ``shields double``, ``patastrophe``: the vocabulary's words
    (:func:`fivehundred.words.contract_label`)."""
    return words.contract_label(call)


def bid_table(rules: Rules) -> dict[str, Any]:
    """The bid values of the rules' table (R-SCORE), from :func:`bid_value`."""
    rows = [
        {
            "tricks": tricks,
            "values": [bid_value(BID_BASE + (tricks - 6) * 5 + s, rules) for s in range(5)],
        }
        for tricks in range(6, 11)
    ]
    misere = [
        {
            "contract": action_text(call),
            "label": contract_label(call),
            "value": bid_value(call, rules),
        }
        for call in (*MISERE_ACTIONS, *HOUSE_CONTRACTS)
        if call in allowed_contracts(rules)
    ]
    strains = [f"{SUIT_SYMBOLS[s]}" if s < 4 else "NT" for s in range(5)]
    return {"table": rules.scoring_table, "strains": strains, "rows": rows, "misere": misere}


# --------------------------------------------------------------------------- the pad
#: Why no hand can be added once the game is over (the preview says the same).
GAME_OVER = "the game is over: start a new game"


def new_pad(
    players: Sequence[str],
    preset: str = "australian",
    variants: Mapping[str, Any] | None = None,
    first_dealer: int = 0,
) -> dict[str, Any]:
    """A pad with no hands yet; checks the rules, names and first dealer."""
    pad = {
        "format": FORMAT,
        "rules": {"preset": preset, "variants": dict(variants or {})},
        "players": list(players),
        "first_dealer": first_dealer,
        "hands": [],
    }
    check_pad(pad)
    return pad


def pad_rules(pad: Mapping[str, Any]) -> Rules:
    try:
        return rules_from_dict(pad.get("rules", {}))
    except FiveHundredError as error:
        raise PadError(f"the rules: {error}", "rules") from None


def check_pad(pad: Any) -> Rules:
    """Check a pad's shape (not its hands); returns its rules. Raises :class:`PadError`."""
    if not isinstance(pad, Mapping):
        raise PadError("this is not a score pad (a JSON object is expected)")
    if pad.get("format", FORMAT) != FORMAT:
        raise PadError(
            f"this is not a score pad of this version ({FORMAT}, not {pad.get('format')!r})",
            "format",
        )
    unknown = sorted(set(pad) - {"format", "rules", "players", "first_dealer", "hands", "title"})
    if unknown:
        raise PadError(f"the pad has unknown entries: {', '.join(unknown)}", unknown[0])
    rules = pad_rules(pad)
    players = pad.get("players")
    if not isinstance(players, list) or len(players) != rules.players:
        raise PadError(f"{rules.preset} needs the names of {rules.players} players", "players")
    for seat, name in enumerate(players):
        if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
            raise PadError(
                f"player {seat + 1}'s name must be 1 to {MAX_NAME} characters", f"players[{seat}]"
            )
    dealer = pad.get("first_dealer", 0)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < rules.players:
        raise PadError(
            f"the first dealer must be one of the {rules.players} players", "first_dealer"
        )
    hands = pad.get("hands", [])
    if not isinstance(hands, list):
        raise PadError("the pad's hands must be a list", "hands")
    if len(hands) > MAX_HANDS:
        raise PadError(f"a pad holds at most {MAX_HANDS} hands", "hands")
    return rules


def side_names(pad: Mapping[str, Any], rules: Rules) -> list[str]:
    """Each side's name: its players joined with ``&`` (:func:`fivehundred.words.sides_named`)."""
    return words.sides_named(rules, [str(name) for name in pad["players"]])


def defending_sides(rules: Rules, contractor: int, partner: int | None) -> list[int]:
    """Sides defending against this contractor (and called partner), in side order."""
    sides = side_of_seats(rules)
    team = {sides[contractor]} | ({sides[partner]} if partner is not None else set())
    return [side for side in range(max(sides) + 1) if side not in team]


def defenders_table(rules: Rules) -> dict[str, list[int]]:
    """:func:`defending_sides` for every contractor (key ``"2:"``) and, with a called
    partner, every contractor and partner (``"2:4"``): what the pad's page shows."""
    table: dict[str, list[int]] = {}
    for contractor in range(rules.players):
        table[f"{contractor}:"] = defending_sides(rules, contractor, None)
        if rules.called_partner:
            for partner in range(rules.players):
                if partner != contractor:
                    key = f"{contractor}:{partner}"
                    table[key] = defending_sides(rules, contractor, partner)
    return table


def needs_defender_tricks(
    rules: Rules, contract: Action, contractor: int, partner: int | None
) -> bool:
    """True when the pad must ask each defending side's tricks (they score separately)."""
    return not is_misere(contract) and len(defending_sides(rules, contractor, partner)) > 1


def _is_int(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _tricks(value: Any, index: int | None, field: str, whose: str) -> int:
    if not _is_int(value, 0, TRICKS):
        raise _hand_error(
            index, field, f"{whose} tricks must be a whole number from 0 to {TRICKS}, not {value!r}"
        )
    return int(value)


def _seat(value: Any, index: int | None, field: str, who: str, players: int) -> int:
    if not _is_int(value, 0, players - 1):
        raise _hand_error(index, field, f"the {who} must be one of the {players} players")
    return int(value)


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth")


@dataclass(frozen=True)
class EngineHand:
    """The arguments of :func:`score_hand` for one pad entry."""

    contract: Action
    contractor: int
    partners: tuple[int, ...]
    tricks_won: tuple[int, ...]
    trick_winners: tuple[int, ...]
    claim_wrong: bool = False


def engine_hand(rules: Rules, entry: Mapping[str, Any], index: int | None = None) -> EngineHand:
    """Translate a pad entry into the engine's terms (R-SCORE, R-IRREG).

    The contracting side's tricks go to the contractor, each defending side's to one of
    its seats. A defender's revoke counts the contract as made with no trick to the
    defenders; a contractor's revoke fails it (one trick short, or one trick in misère).
    ``index`` is the hand's place in the pad, for the error's words and path."""
    if not isinstance(entry, Mapping):
        raise _hand_error(index, "", "not a hand (a JSON object is expected)")
    kind = entry.get("kind")
    if kind not in KINDS:
        raise _hand_error(
            index,
            "kind",
            f"{kind!r} is not a kind of hand ({', '.join(KINDS[:-1])} or {KINDS[-1]})",
        )
    unknown = sorted(set(entry) - _ENTRY_KEYS[kind])
    if unknown:
        raise _hand_error(index, unknown[0], f"a {kind} has no {' or '.join(unknown)}")
    seats = rules.seats
    sides = side_of_seats(rules)
    side_seats = [
        next(s for s in range(seats) if sides[s] == side) for side in range(max(sides) + 1)
    ]
    if kind == PASSED:
        tricks_won = [0] * seats
        if rules.allpass == ALLPASS_PLAY_NT:
            raw = entry.get("tricks")
            if not isinstance(raw, list) or len(raw) != len(side_seats):
                raise _hand_error(
                    index, "tricks", f"give each of the {len(side_seats)} sides' tricks"
                )
            for side, won in enumerate(raw):
                tricks_won[side_seats[side]] = _tricks(
                    won, index, f"tricks[{side}]", f"the {_ORDINALS[side]} side's"
                )
            if sum(tricks_won) != TRICKS:
                raise _hand_error(index, "tricks", f"the sides' tricks must add up to {TRICKS}")
        elif "tricks" in entry:
            raise _hand_error(
                index, "tricks", "a passed hand has tricks only when it is played at no trumps"
            )
        winners = tuple(seat for seat in range(seats) for _ in range(tricks_won[seat]))
        return EngineHand(-1, -1, (), tuple(tricks_won), winners)
    if kind == MISDEAL:
        return EngineHand(-1, -1, (), (0,) * seats, ())
    try:
        contract = parse_call(str(entry.get("contract")))
    except FiveHundredError:
        raise _hand_error(
            index, "contract", f"{entry.get('contract')!r} is not a contract"
        ) from None
    if contract not in allowed_contracts(rules):
        raise _hand_error(
            index, "contract", f"{contract_label(contract)} is not allowed by these rules"
        )
    contractor = _seat(entry.get("contractor"), index, "contractor", "contractor", rules.players)
    partner: int | None = None
    if entry.get("partner") is not None:
        if not rules.called_partner:
            raise _hand_error(index, "partner", "a partner is called only in the five-handed game")
        if contract in ALONE_CONTRACTS:
            raise _hand_error(index, "partner", f"{contract_label(contract)} is played alone")
        partner = _seat(entry["partner"], index, "partner", "partner", rules.players)
        if partner == contractor:
            raise _hand_error(index, "partner", "the contractor cannot be their own partner")
    if contract in ALONE_CONTRACTS:
        partners: tuple[int, ...] = ()
    elif rules.called_partner:
        partners = (partner,) if partner is not None else ()
    else:
        partners = tuple(
            s for s in range(seats) if s != contractor and sides[s] == sides[contractor]
        )
    whose = "the contractor's" if is_misere(contract) else "the contracting side's"
    team_tricks = _tricks(entry.get("tricks"), index, "tricks", whose)
    defenders = defending_sides(rules, contractor, partner)
    defence: dict[int, int] = {}
    raw_defenders = entry.get("defenders")
    if needs_defender_tricks(rules, contract, contractor, partner):
        if not isinstance(raw_defenders, list) or len(raw_defenders) != len(defenders):
            raise _hand_error(
                index,
                "defenders",
                f"give the tricks of each of the {len(defenders)} defending sides",
            )
        for number, side in enumerate(defenders):
            defence[side] = _tricks(
                raw_defenders[number],
                index,
                f"defenders[{number}]",
                f"the {_ORDINALS[number]} defending side's",
            )
        if team_tricks + sum(defence.values()) != TRICKS:
            raise _hand_error(index, "defenders", f"the tricks must add up to {TRICKS}")
    else:
        if raw_defenders is not None:
            raise _hand_error(
                index,
                "defenders",
                "one side defends: give only the contracting side's tricks",
            )
        if defenders:
            defence[defenders[0]] = TRICKS - team_tricks
    revoke = entry.get("revoke")
    if revoke not in (None, REVOKE_DEFENDER, REVOKE_CONTRACTOR):
        raise _hand_error(
            index, "revoke", f"a revoke is by a defender or the contractor, not {revoke!r}"
        )
    needed = bid_tricks(contract)
    if revoke == REVOKE_DEFENDER:
        # R-IRREG: the contract counts as made, the defenders score nothing.
        team_tricks = max(team_tricks, needed) if not is_misere(contract) else 0
        if contract == HI_LO:
            team_tricks = HI_LO_TRICKS
        defence = dict.fromkeys(defence, 0)
    elif revoke == REVOKE_CONTRACTOR:
        # R-IRREG: the contract fails.
        if is_misere(contract):
            team_tricks = max(team_tricks, 1)
        elif contract == HI_LO:
            team_tricks = HI_LO_TRICKS - 1 if team_tricks == HI_LO_TRICKS else team_tricks
        else:
            team_tricks = min(team_tricks, needed - 1)
    tricks_won = [0] * seats
    tricks_won[contractor] = team_tricks
    for side, won in defence.items():
        tricks_won[side_seats[side]] += won
    winners = tuple(seat for seat in range(seats) for _ in range(tricks_won[seat]))
    claim_wrong = entry.get("claim_wrong", False)
    if not isinstance(claim_wrong, bool):
        raise _hand_error(
            index, "claim_wrong", f"a wrong claim is true or false, not {claim_wrong!r}"
        )
    if claim_wrong and not (rules.claim and is_suit_bid(contract)):
        raise _hand_error(
            index,
            "claim_wrong",
            "a wrong claim counts only with the claim house rule, in a suit or no-trump contract",
        )
    return EngineHand(contract, contractor, partners, tuple(tricks_won), winners, claim_wrong)


@dataclass
class HandLine:
    """One scored line of the pad: ``points`` are what each side was credited (after the
    490 rule), so each side's points add up to its total."""

    index: int
    dealer: int
    points: list[int]
    totals: list[int]
    reasons: list[str]
    made: bool | None = None
    void: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "dealer": self.dealer,
            "points": self.points,
            "totals": self.totals,
            "reasons": self.reasons,
            "made": self.made,
            "void": self.void,
        }


@dataclass
class PadResult:
    """Every line, the totals, who deals next, and who won (side, or None) and why."""

    sides: list[str]
    lines: list[HandLine] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    dealer: int = 0
    winner: int | None = None
    won_by: str = ""
    finished_at: int | None = None
    #: The sides that have gone out (backwards) and so lost for good (R-GAME).
    gone_out: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "sides": self.sides,
            "lines": [line.to_json() for line in self.lines],
            "totals": self.totals,
            "dealer": self.dealer,
            "winner": self.winner,
            "won_by": self.won_by,
            "finished_at": self.finished_at,
        }


def _points(value: int) -> str:
    return f"+{value}" if value > 0 else (f"-{-value}" if value < 0 else "0")


def _hand_reasons(
    pad: Mapping[str, Any],
    rules: Rules,
    entry: Mapping[str, Any],
    eng: EngineHand,
    score: HandScore,
    before: Sequence[int],
    after: Sequence[int],
    names: Sequence[str],
) -> list[str]:
    kind = entry["kind"]
    if kind == MISDEAL:
        return ["misdeal: the same dealer deals again, no score"]
    if kind == PASSED:
        if rules.allpass == ALLPASS_PLAY_NT:
            return [
                f"all passed, played in no trumps: {names[s]} {_points(p)}"
                for s, p in enumerate(score.points)
            ]
        return ["all passed: no score"]
    players = pad["players"]
    label = contract_label(eng.contract)
    who = players[eng.contractor]
    if rules.called_partner and eng.partners:
        who += f" with {players[eng.partners[0]]}"
    revoke = entry.get("revoke")
    reasons = []
    if revoke == REVOKE_DEFENDER:
        reasons.append(
            "revoke by a defender: the contract counts as made, the defenders score nothing"
        )
    elif revoke == REVOKE_CONTRACTOR:
        reasons.append("revoke by the contractor: the contract fails")
    if eng.claim_wrong:
        penalty = "to the opponents" if rules.failed_to_opponents else "off the contractor's side"
        reasons.append(f"wrong claim: a further {CLAIM_PENALTY} {penalty}")
    gain = score.points[score.contracting_side or 0]
    value = bid_value(eng.contract, rules)
    made_text = "made" if score.made else "failed"
    team_tricks = sum(eng.tricks_won[s] for s in {eng.contractor, *eng.partners})
    slam = score.made and not is_misere(eng.contract) and team_tricks == TRICKS and gain > value
    extra = " (slam)" if slam else ""
    # one line for the contract, naming each contracting side's points (five players:
    # the contractor and the called partner score on their own)
    reasons.append(
        f"{label} by {who} {made_text}{extra}: "
        + ", ".join(
            f"{names[side]} {_points(score.points[side])}" for side in score.contracting_sides
        )
    )
    for side, gained in enumerate(score.points):
        if side in score.contracting_sides or revoke == REVOKE_DEFENDER:
            continue
        held = ""
        if after[side] != before[side] + gained:
            # the column shows what counted: say so beside what was won
            counted = _points(after[side] - before[side])
            held = f", {counted} counted: held at {after[side]} by the 490 rule"
        tricks = sum(
            eng.tricks_won[s]
            for s in range(rules.seats)
            if side_of_seats(rules)[s] == side and s not in {eng.contractor, *eng.partners}
        )
        if is_misere(eng.contract):
            if gained:
                reasons.append(f"{names[side]} defending: {_points(gained)}{held}")
            continue
        reasons.append(
            f"{names[side]} {tricks} trick{'s' if tricks != 1 else ''}: {_points(gained)}{held}"
        )
    return reasons


def _won_by(
    rules: Rules,
    winner: int,
    totals: Sequence[int],
    score: HandScore,
    names: Sequence[str],
    gone_out: Mapping[int, int],
) -> str:
    out_at = dict(gone_out)
    for side, total in enumerate(totals):
        if total <= -GOING_OUT_BACKWARDS:
            out_at.setdefault(side, total)
    if out_at and (winner not in score.contracting_sides or totals[winner] < rules.target):
        losers = " and ".join(names[s] for s in sorted(out_at))
        at = out_at[min(out_at)]
        return f"{names[winner]} win: {losers} went out backwards at {at} (R-GAME)"
    if totals[winner] < rules.target:
        return (
            f"{names[winner]} win on the point spread, {totals[winner]} to {min(totals)} (R-GAME)"
        )
    if rules.win_rule == WIN_1904:
        return f"{names[winner]} win: first to {rules.target}, with {totals[winner]} (1904 rule, R-GAME)"
    return f"{names[winner]} win: made their contract to reach {totals[winner]} (R-GAME)"


def score_pad(pad: Mapping[str, Any]) -> PadResult:
    """Score every hand of the pad with the engine (see the module doc). Hands after the
    one that ends the game are marked ``void``. Raises :class:`PadError` on bad input."""
    rules = check_pad(pad)
    names = side_names(pad, rules)
    sides = len(names)
    totals = [0] * sides
    dealer = pad.get("first_dealer", 0)
    result = PadResult(sides=names, totals=list(totals), dealer=dealer)
    gone_out: dict[int, int] = {}  # side: its total when it went out
    for index, entry in enumerate(pad.get("hands", [])):
        eng = engine_hand(rules, entry, index)
        if result.winner is not None:
            result.lines.append(
                HandLine(
                    index,
                    dealer,
                    [0] * sides,
                    list(totals),
                    ["after the end of the game: not counted"],
                    None,
                    True,
                )
            )
            continue
        score = score_hand(
            rules,
            eng.contract,
            eng.contractor,
            eng.partners,
            eng.tricks_won,
            eng.trick_winners,
            claim_wrong=eng.claim_wrong,
        )
        before = totals
        totals = apply_hand_to_scores(rules, totals, score)
        reasons = _hand_reasons(pad, rules, entry, eng, score, before, totals, names)
        # the points credited (R-490 may hold a side below what it scored: the reasons
        # note the amount held back), so each column adds up to its total
        credited = [a - b for a, b in zip(totals, before, strict=True)]
        result.lines.append(HandLine(index, dealer, credited, list(totals), reasons, score.made))
        if entry["kind"] != MISDEAL:
            winner = game_winner(rules, totals, score, (), gone_out)
            if winner is not None:
                result.winner = winner
                result.finished_at = index
                result.won_by = _won_by(rules, winner, totals, score, names, gone_out)
            for side in sides_out(rules, totals):
                # once out, out: a later rise above -500 does not bring a side back (R-GAME)
                gone_out.setdefault(side, totals[side])
        if entry["kind"] == MISDEAL or (
            entry["kind"] == PASSED and rules.allpass == ALLPASS_REDEAL_SAME_DEALER
        ):
            continue
        dealer = (dealer + 1) % rules.players
    result.totals = totals
    result.dealer = dealer
    result.gone_out = sorted(gone_out)
    return result


def needed_to_win(pad: Mapping[str, Any], result: PadResult | None = None) -> list[dict[str, Any]]:
    """For each side, the lowest-ranked contract that wins the game now if made exactly
    (the engine scores every candidate from the current totals); ``None`` where no
    contract would. Empty once the game is over."""
    rules = check_pad(pad)
    result = result or score_pad(pad)
    if result.winner is not None:
        return []
    sides = side_of_seats(rules)
    answers = []
    for side, name in enumerate(result.sides):
        contractor = next(s for s in range(rules.players) if sides[s] == side)
        defenders = defending_sides(rules, contractor, None)
        found = None
        for call in allowed_contracts(rules):
            entry: dict[str, Any] = {
                "kind": HAND,
                "contract": action_text(call),
                "contractor": contractor,
                "tricks": bid_tricks(call),
            }
            if needs_defender_tricks(rules, call, contractor, None):
                entry["defenders"] = [TRICKS - bid_tricks(call)] + [0] * (len(defenders) - 1)
            eng = engine_hand(rules, entry)
            score = score_hand(
                rules, eng.contract, eng.contractor, eng.partners, eng.tricks_won, eng.trick_winners
            )
            totals = apply_hand_to_scores(rules, result.totals, score)
            if game_winner(rules, totals, score, (), result.gone_out) == side:
                found = call
                break
        answers.append(
            {
                "side": side,
                "name": name,
                "contract": action_text(found) if found is not None else None,
                "label": contract_label(found) if found is not None else None,
                "value": bid_value(found, rules) if found is not None else None,
            }
        )
    return answers


def describe_rules(rules: Rules) -> dict[str, Any]:
    """What the pad's pages need to know about the rules: seats, sides, contracts."""
    return {
        "rules": rules.to_dict(),
        "players": rules.players,
        "side_of_seat": list(side_of_seats(rules))[: rules.players],
        # The sides defending against each contractor ("seat:") and, where a partner is
        # called, each contractor and partner ("seat:partner"): the page asks their tricks.
        "defenders": defenders_table(rules),
        "called_partner": rules.called_partner,
        "target": rules.target,
        "allpass_play_nt": rules.allpass == ALLPASS_PLAY_NT,
        "misere_defenders_score": rules.misere_defenders_score,
        "contracts": [
            {
                "contract": action_text(c),
                "label": contract_label(c),
                "value": bid_value(c, rules),
                "tricks": HI_LO_TRICKS if c == HI_LO else bid_tricks(c),
                "misere": is_misere(c),
            }
            for c in allowed_contracts(rules)
        ],
        "table": bid_table(rules),
    }


# --------------------------------------------------------------------------- editing
class Pad:
    """A pad being written, with undo and redo. Every change is checked by scoring."""

    def __init__(self, data: Mapping[str, Any]) -> None:
        check_pad(data)
        self.data: dict[str, Any] = copy.deepcopy(dict(data))
        self.data.setdefault("format", FORMAT)
        self.data.setdefault("hands", [])
        self.result = score_pad(self.data)
        self._undo: list[list[Any]] = []
        self._redo: list[list[Any]] = []

    @property
    def rules(self) -> Rules:
        return pad_rules(self.data)

    @property
    def hands(self) -> list[Any]:
        hands: list[Any] = self.data["hands"]
        return hands

    def _change(self, hands: list[Any]) -> PadResult:
        trial = dict(self.data)
        trial["hands"] = hands
        result = score_pad(trial)  # raises before anything changes
        self._undo.append(copy.deepcopy(self.hands))
        self._redo.clear()
        self.data["hands"] = hands
        self.result = result
        return result

    def add(self, entry: Mapping[str, Any]) -> PadResult:
        if self.result.winner is not None:
            raise PadError(GAME_OVER)
        return self._change([*copy.deepcopy(self.hands), dict(entry)])

    def edit(self, index: int, entry: Mapping[str, Any]) -> PadResult:
        """Correct an earlier hand; every total after it is recomputed."""
        if not 0 <= index < len(self.hands):
            raise PadError(f"no hand {index + 1}")
        hands = copy.deepcopy(self.hands)
        hands[index] = dict(entry)
        return self._change(hands)

    def delete(self, index: int) -> PadResult:
        if not 0 <= index < len(self.hands):
            raise PadError(f"no hand {index + 1}")
        hands = copy.deepcopy(self.hands)
        del hands[index]
        return self._change(hands)

    def undo(self) -> bool:
        if not self._undo:
            return False
        self._redo.append(copy.deepcopy(self.hands))
        self.data["hands"] = self._undo.pop()
        self.result = score_pad(self.data)
        return True

    def redo(self) -> bool:
        if not self._redo:
            return False
        self._undo.append(copy.deepcopy(self.hands))
        self.data["hands"] = self._redo.pop()
        self.result = score_pad(self.data)
        return True


def handle(name: str, body: Mapping[str, Any]) -> Any:
    """The pad's API, one function for the server's endpoints and for the page when it
    runs this module in the browser (offline): ``rules``, ``describe`` (``{"rules"}``),
    ``score`` and ``csv`` (``{"pad"}``). Raises :class:`PadError` on bad input."""
    if name == "rules":
        return {
            "format": FORMAT,
            "presets": [
                {
                    "name": preset,
                    "label": words.preset_label(preset),
                    "players": rules.players,
                    "variants": scoring_variants(preset),
                }
                for preset, rules in PRESETS.items()
            ],
        }
    if name == "describe":
        return describe_rules(pad_rules(body))
    pad = body.get("pad")
    if not isinstance(pad, Mapping):
        raise PadError("'pad' must be a pad object", "pad")
    if name == "score":
        result = score_pad(pad)
        return {"result": result.to_json(), "needed": needed_to_win(pad, result)}
    if name == "csv":
        return {"csv": pad_csv(pad)}
    raise PadError(f"no such request: {name!r}")


def pad_csv(pad: Mapping[str, Any]) -> str:
    """The pad as CSV for a spreadsheet: one row a hand, points and totals per side."""
    result = score_pad(pad)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        [
            "hand",
            "dealer",
            "kind",
            "contract",
            "contractor",
            "tricks",
            "revoke",
            *[f"{n} points" for n in result.sides],
            *[f"{n} total" for n in result.sides],
            "reasons",
        ]
    )
    players = pad["players"]
    for line, entry in zip(result.lines, pad.get("hands", []), strict=True):
        contractor = entry.get("contractor")
        writer.writerow(
            [
                line.index + 1,
                players[line.dealer],
                entry.get("kind"),
                entry.get("contract", ""),
                players[contractor] if isinstance(contractor, int) else "",
                entry.get("tricks", ""),
                entry.get("revoke") or "",
                *line.points,
                *line.totals,
                "; ".join(line.reasons),
            ]
        )
    return out.getvalue()


__all__ = [
    "FORMAT",
    "PRESETS",
    "Pad",
    "PadError",
    "PadResult",
    "allowed_contracts",
    "bid_table",
    "describe_rules",
    "engine_hand",
    "needed_to_win",
    "new_pad",
    "pad_csv",
    "score_pad",
    "scoring_variants",
]
