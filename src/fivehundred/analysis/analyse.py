"""``fivehundred analyse RECORD``: double-dummy analysis of a hand record.

For each hand with a contract it prints:

- the double-dummy result of the contract from the first lead (the kitty exchange and
  any joker nomination as made), beside the tricks actually taken;
- the tricks the contractor's side could have taken double-dummy in each strain with the
  same hands (♠ ♣ ♦ ♥ with bowers and joker as trumps, no trumps with the joker free, and
  misère: the contractor's own tricks with the partner out, 0 = made);
- every card played that cost a trick against best play, like
  ``trick 4, seat 2: 9♠ cost a trick; Q♥ kept 8``.

``--json`` prints the same as one JSON object per hand (a list for a game record).
"""

from __future__ import annotations

import copy
import json
import sys
import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence
from typing import Any

from fivehundred.actions import Action, action_text, parse_call
from fivehundred.cards import NO_TRUMPS, STRAIN_LETTERS, SUIT_SYMBOLS
from fivehundred.errors import FiveHundredError, RecordError
from fivehundred.game import PLAY, GameState, HandState
from fivehundred.play import make_context
from fivehundred.record import load_json, one_line, replay_record
from fivehundred.record_cli import OneLineParser as _Parser
from fivehundred.scoring import side_of_seats
from fivehundred.solver import Position, can_reach, card_values, solve, solve_position
from fivehundred.solver.reference import contracting_seats
from fivehundred.words import contract_label, play_label, seat_name


def start_of_play(state: HandState) -> HandState:
    """The hand replayed to its first lead (auction, kitty exchange, nomination as made).

    The deal is rebuilt whole (:meth:`HandState.as_dealt`): the two-player dummies' cards in
    deal order, the ``draw_pack`` stock in the order drawn, and the barred seats."""
    start = state.as_dealt()
    for action in state.history:
        if start.phase == PLAY:
            break
        start.replay_action(action)
    return start


class Memo:
    """A small least-recently-used store, at most ``size`` entries, safe across threads;
    what it hands out is a copy, so that no caller changes another's answer."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._items)

    def get(self, key: Hashable) -> Any | None:
        with self._lock:
            value = self._items.get(key)
            if value is None:
                return None
            self._items.move_to_end(key)
        return copy.deepcopy(value)

    def put(self, key: Hashable, value: Any) -> None:
        with self._lock:
            self._items[key] = copy.deepcopy(value)
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


#: The strain tables of the latest deals: a day's boards are the same deals for every
#: entrant, and each of a hand's reviews (one a seat) asks for the same table.
STRAIN_TABLES = Memo(256)
#: The latest hands' analyses (keyed by the deal and every action), for the reviews of one
#: hand from each seat and the pages that ask again.
ANALYSES = Memo(128)


def strain_table(start: HandState, cache: bool = True) -> dict[str, int]:
    """Tricks the contractor's side takes double-dummy in each strain from the first lead
    with the same hands; ``misere``: the contractor's own tricks in misère. Only the seats
    that play are dealt in (``rules.live_seats``). What it reads is the deal's alone (the
    rules, the hands at the first lead, the contractor and the leader), so the latest
    tables are kept (:data:`STRAIN_TABLES`; ``cache=False``: worked out afresh)."""
    key = (start.rules, tuple(start.hands), start.contractor, start.to_move)
    table = STRAIN_TABLES.get(key) if cache else None
    if table is None:
        table = _strain_table(start)
        if cache:
            STRAIN_TABLES.put(key, table)
    return table


def _strain_table(start: HandState) -> dict[str, int]:
    contractor = start.contractor
    sides = side_of_seats(start.rules)
    # the seats that play (not the draw_pack stock and discards, R-PLAYERS)
    all_seats = tuple(start.rules.live_seats)
    side = tuple(s for s in all_seats if sides[s] == sides[contractor])
    leader = start.to_move
    table: dict[str, int] = {}
    for strain in range(5):
        ctx = make_context(strain)
        pos = Position.build(ctx, all_seats, side, start.hands, leader)
        table[STRAIN_LETTERS[strain]] = solve_position(pos)
    # misère: the contractor's partners lay down their hands; the contractor leads unless
    # eldest leads (then the first active seat from the dealer's left)
    active = tuple(s for s in all_seats if s == contractor or sides[s] != sides[contractor])
    misere_leader = leader if leader in active else contractor
    pos = Position.build(
        make_context(NO_TRUMPS, misere=True), active, (contractor,), start.hands, misere_leader
    )
    table["misere"] = solve_position(pos)
    return table


def hand_key(state: HandState) -> Hashable:
    """What a hand's analysis depends on: its rules, its deal and every action."""
    return (
        state.rules,
        state.dealer,
        state.dealt,
        state.kitty_dealt,
        state.dummy_deal,
        tuple(state.barred),
        tuple(state.history),
    )


def analyse_hand(state: HandState, cache: bool = True) -> dict[str, Any]:
    """The analysis of one hand (see the module docstring) as a JSON-ready dict. The
    latest hands' analyses are kept (:data:`ANALYSES`); ``cache=False`` works the
    analysis out afresh, every position solved in full (the answers are the same)."""
    key = hand_key(state) if cache else None
    out = ANALYSES.get(key) if cache else None
    if out is None:
        out = _analyse_hand(state, cache)
        if cache:
            ANALYSES.put(key, out)
    return out


def _analyse_hand(state: HandState, cache: bool) -> dict[str, Any]:
    two = state.rules.joker_names
    if state.contract < 0 or state.contractor < 0:
        return {"contract": None, "note": "no contract: nothing to analyse"}
    start = start_of_play(state)
    if start.phase != PLAY:
        return {
            "contract": action_text(state.contract, two),
            "contractor": state.contractor,
            "note": "play has not started",
        }
    seats = contracting_seats(start)
    out: dict[str, Any] = {
        "contract": action_text(state.contract, two),
        "contractor": state.contractor,
        "side": list(seats),
        "double_dummy": solve(start),
        "actual": sum(state.tricks_won[s] for s in seats) if state.is_over else None,
        "strains": strain_table(start, cache),
    }
    # R-PLAYERS two_handed: while a dummy holds face-down cards nobody can play or know
    # them, but the solver counts them as known and playable. There the cards compared are
    # the legal ones only, and their figures are marked as estimates, not double dummy.
    out["exact"] = not face_down(start)
    out["mistakes"] = _mistakes(state, start, seats, out["double_dummy"], cache)
    return out


def _after(child: HandState, value: int, wants_more: bool, seats: Sequence[int]) -> int | None:
    """The total after a card, where it cost nothing: ``value`` when a zero-window search
    shows that the card keeps it (cheaper than solving ``child``); None where it may not."""
    if child.is_over:
        return sum(child.tricks_won[s] for s in seats)
    # best play keeps ``value``: the side that wants more cannot reach more after a card,
    # the other cannot be held to less
    if wants_more:
        return value if can_reach(child, value) else None
    return value if not can_reach(child, value + 1) else None


def _mistakes(
    state: HandState, start: HandState, seats: Sequence[int], value: int, fast: bool
) -> list[dict[str, Any]]:
    """Every card of the hand that cost a trick against best play (see the module
    docstring); ``fast``: a card that costs nothing is shown so by a zero-window search."""
    two = state.rules.joker_names
    misere = start.is_misere
    mistakes = []
    position = start
    plays = state.history[len(start.history) :]
    was_hidden = False
    for action in plays:
        seat = position.to_move
        trick_number = len(position.tricks) + 1
        child = position.clone()
        child.apply(action)
        # the side that wants more contracting-side tricks: contracting side, or the
        # defenders in misère
        wants_more = (seat in seats) != misere
        hidden = bool(face_down(position))
        values: dict[Action, int] | None = None
        if hidden:
            values = legal_values(position, set(seats))
            after = values[action]
            value = max(values.values()) if wants_more else min(values.values())
        else:
            if was_hidden:  # the first exact position after the estimates
                value = solve(position)
            kept = _after(child, value, wants_more, seats) if fast else None
            if kept is not None:
                after = kept
            elif child.is_over:
                after = sum(child.tricks_won[s] for s in seats)
            elif fast:  # it cost: every card's value is wanted anyway
                values = card_values(position)
                after = values[action] if action in values else solve(child)
            else:
                after = solve(child)
        was_hidden = hidden
        cost = (value - after) if wants_more else (after - value)
        if cost > 0:
            if values is None:
                values = card_values(position)
            best_value = max(values.values()) if wants_more else min(values.values())
            best = next(a for a, v in sorted(values.items()) if v == best_value)
            mistake = {
                "trick": trick_number,
                "seat": seat,
                "card": action_text(action, two),
                "cost": cost,
                "best": action_text(best, two),
                "kept": best_value,
                "after": after,
            }
            if hidden:
                mistake["exact"] = False
            mistakes.append(mistake)
        position = child
        value = after
    return mistakes


def face_down(state: HandState) -> int:
    """The cards lying face down in the dummies (R-PLAYERS two_handed), as a mask: not
    playable, not known to anyone."""
    hidden = 0
    for seat, up in enumerate(state.face_up):
        if up >= 0:
            hidden |= state.hands[seat] & ~up
    return hidden


def legal_values(state: HandState, team: set[int]) -> dict[Action, int]:
    """The contracting side's final total after each legal action of the player to move
    (never a face-down card): :func:`fivehundred.solver.legal_values`."""
    from fivehundred.solver import legal_values

    return legal_values(state, team)


#: How a figure reached with dummies' face-down cards in play is marked (not double dummy).
ESTIMATE = "an estimate: face-down cards"
ESTIMATE_NOTE = (
    "The dummies' face-down cards are unknown until turned up: while any lie face down "
    "only the cards that could be played are compared, and the figures, marked as "
    "estimates, are not double dummy (the search counts those cards as known)."
)


def _cost_text(n: int) -> str:
    return "a trick" if n == 1 else f"{n} tricks"


def format_analysis(
    analysis: dict[str, Any], state: HandState, names: Sequence[str] | None = None
) -> str:
    """Text form of :func:`analyse_hand`, in the vocabulary's words (``7♥``, ``JK as ♠``);
    ``names`` names the seats (their compass names without: ``West``)."""
    two = state.rules.joker_names

    def name(seat: int) -> str:
        return names[seat] if names is not None else seat_name(seat, state.rules.seats)

    contract = analysis.get("contract")
    said = contract_label(parse_call(contract), two) if contract else None
    if "note" in analysis:
        return f"{said}: {analysis['note']}" if said else analysis["note"]
    side = analysis["side"]
    who = name(analysis["contractor"]) + (
        f" (with {', '.join(name(s) for s in side[1:])})" if len(side) > 1 else ""
    )
    lines = [f"Contract {said} by {who}."]
    dd = analysis["double_dummy"]
    actual = analysis["actual"]
    lines.append(
        f"Double-dummy from the first lead: {dd} trick{'s' if dd != 1 else ''}"
        + (f"; taken: {actual}." if actual is not None else ".")
    )
    strains = analysis["strains"]
    cells = [f"{SUIT_SYMBOLS[i]} {strains[STRAIN_LETTERS[i]]}" for i in range(4)]
    cells.append(f"NT {strains['NT']}")
    lines.append(
        "Double-dummy tricks for the contractor's side by strain: "
        + "  ".join(cells)
        + f"  (misère, contractor alone: {strains['misere']})"
    )
    if not analysis.get("exact", True):
        lines.append(ESTIMATE_NOTE)
    if analysis["mistakes"]:
        lines.append("Cards that cost tricks against best play:")
        for m in analysis["mistakes"]:
            card = play_label(m["card"], two)
            best = play_label(m["best"], two)
            lines.append(
                f"  trick {m['trick']}, {name(m['seat'])}: {card} cost "
                f"{_cost_text(m['cost'])}; {best} kept {m['kept']}"
                + ("" if m.get("exact", True) else f" ({ESTIMATE})")
            )
    else:
        lines.append("No card cost a trick against best play.")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """``fivehundred analyse RECORD [--json]``; exit 2 with one line on bad input."""
    parser = _Parser(
        prog="fivehundred analyse", description="Double-dummy analysis of a hand (or game) record."
    )
    parser.add_argument("file", help="record file, or - for standard input")
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--review",
        metavar="SEAT",
        help="review one seat's calls, discards and cards: the costliest "
        "choices and the accuracy by phase (fivehundred.analysis.review)",
    )
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return int(exit_.code or 0)
    try:
        _, replayed = replay_record(load_json(args.file))
    except FiveHundredError as error:
        print(f"fivehundred analyse: {one_line(error)}", file=sys.stderr)
        return 2
    if args.review is not None:
        from fivehundred.analysis.review import review_main

        return review_main(replayed, args.review, args.json)
    hands = (
        list(replayed.finished_hands)
        + ([replayed.hand] if replayed.hand.history and not replayed.hand.is_over else [])
        if isinstance(replayed, GameState)
        else [replayed]
    )
    try:
        analyses = [analyse_hand(hand) for hand in hands]
    except (FiveHundredError, ValueError) as error:
        print(
            f"fivehundred analyse: {one_line(RecordError('record', str(error)))}", file=sys.stderr
        )
        return 2
    if args.json:
        payload: Any = analyses[0] if isinstance(replayed, HandState) else analyses
        print(json.dumps(payload))
    else:
        texts = []
        for index, (analysis, hand) in enumerate(zip(analyses, hands, strict=True)):
            text = format_analysis(analysis, hand)
            texts.append(text if isinstance(replayed, HandState) else f"Hand {index + 1}\n{text}")
        print("\n\n".join(texts))
    return 0
