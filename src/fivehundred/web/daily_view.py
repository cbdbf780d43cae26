"""The daily's view of an entry: everything its entrant may see now (South's observation;
a board's traveller and the entrant's standing only once the board or the day is done)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from fivehundred.actions import action_text
from fivehundred.daily import ENTRANT_SEAT
from fivehundred.words import (
    action_label,
    contract_label,
    hand_order,
    observation_prompt,
    seat_name,
    view_context,
)

if TYPE_CHECKING:
    from fivehundred.web.daily import DailyService, Entry


def entry_view(daily: DailyService, entry: Entry) -> dict[str, Any]:
    """Everything the entrant may see now (South's observation; the traveller of a
    board only once it is finished)."""
    state = entry.state
    assert state is not None
    board = entry.day.boards[entry.index]
    rules = board.rules
    two = rules.joker_names
    obs = state.observation(ENTRANT_SEAT)
    ctx = view_context(obs)
    out: dict[str, Any] = {
        "day": entry.day.day.isoformat(),
        "name": entry.name,
        "ranked": entry.account is not None,
        "level": daily.level,
        "boards": len(entry.day.boards),
        "board": board.number,
        "dealer": seat_name(board.dealer, 4),
        "finished": [r.board for r in entry.finished],
    }
    table: dict[str, Any] = {
        "hand": [
            {"card": action_text(c, two), "label": action_label(c, two)}
            for c in hand_order(obs.hand, ctx)
        ],
        "auction": [
            {"seat": seat_name(s, 4), "call": action_label(a, two)} for s, a in obs.auction
        ],
        "contract": None
        if obs.contract < 0
        else f"{contract_label(obs.contract, two)} by {seat_name(obs.contractor, 4)}",
        "trick": [{"seat": seat_name(s, 4), "card": action_label(a, two)} for s, a in obs.trick],
        "last_trick": None,
        "tricks_won": {"NS": 0, "EW": 0},
        "exposed": [
            {
                "seat": seat_name(s, 4),
                "cards": [action_label(c, two) for c in hand_order(m, ctx)],
            }
            for s, m in obs.exposed
            if s != ENTRANT_SEAT
        ],
    }
    for s, n in enumerate(obs.tricks_won):
        table["tricks_won"]["NS" if s % 2 == 0 else "EW"] += n
    if obs.tricks:
        plays, winner = obs.tricks[-1]
        table["last_trick"] = {
            "plays": [{"seat": seat_name(s, 4), "card": action_label(a, two)} for s, a in plays],
            "winner": seat_name(winner, 4),
        }
    if not state.is_over and state.to_move == ENTRANT_SEAT:
        table["prompt"] = observation_prompt(obs)
        table["legal"] = [
            {"action": action_text(a, two), "label": action_label(a, two)} for a in obs.legal
        ]
    else:
        table["prompt"] = None
        table["legal"] = []
    out["table"] = table
    if state.is_over:
        result = entry.finished[-1]
        par = entry.day.par(board.number)
        out["status"] = "day_over" if entry.index + 1 >= len(entry.day.boards) else "board_over"
        out["result"] = {
            "contract": result.label(rules),
            "tricks": result.tricks,
            "points": list(result.points),
            "net": result.net,
            "par": None if par is None else par.label(rules),
            "against_par": None if par is None else result.own_net - par.net,
        }
        out["traveller"] = daily.traveller(entry, board.number)
        if out["status"] == "day_over":
            made = daily.field(entry.day.day)
            for done in entry.finished:  # the entrant's own, even if not read yet
                daily.keep_result(entry.day.day, done, entry.account)
            pars = entry.day.done_pars()
            rows = made.standings(pars, daily.table_seconds)
            me = next((row for row in rows if row.entrant == entry.name), None)
            if me is None or me.boards < len(entry.finished):  # kept from before its last
                rows = made.standings(pars)
                me = next((row for row in rows if row.entrant == entry.name), None)
            out["standing"] = (
                None
                if me is None
                else {
                    "place": me.place,
                    "of": len(rows),
                    "percent": round(me.percent, 1),
                    "against_par": me.against_par,
                }
            )
    else:
        out["status"] = "playing"
    return out


# ------------------------------------------------------------------ tables
