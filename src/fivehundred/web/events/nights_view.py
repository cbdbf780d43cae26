"""What a club night's page and API show (synchronous: the store's thread). Before the end
no card, contract or result of any board is shown (a Mitchell's later rounds play boards
that others have played before); at the end the standings and every board's traveller."""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from fivehundred.boards import traveller
from fivehundred.rules import make_rules
from fivehundred.web.events import nights_players as solo
from fivehundred.web.events import nights_words as w
from fivehundred.web.events.nights_scoring import night_standings
from fivehundred.web.events.nights_store import (
    NightStore,
    night_board,
    night_level,
    night_scoring,
    pair_name,
)
from fivehundred.web.schema import clubs, night_games


def night_view(store: NightStore, night_id: int, account_id: int | None) -> dict[str, Any]:
    with store.engine.connect() as db:
        night = store.night_row(db, night_id)
        slug = db.execute(sa.select(clubs.c.slug).where(clubs.c.id == night.club_id)).scalar()
        pairs = store.pairs_of(db, night_id)
        games = db.execute(sa.select(night_games).where(night_games.c.night_id == night_id)).all()
        admin = account_id is not None and store.role(db, night.club_id, account_id) in (
            "owner",
            "admin",
        )
        finished = night.state == "finished"
        played = solo.results(store, db, night) if finished and solo.of_players(night) else None
        results, replaced, rounds = (
            store.results(db, night) if finished and played is None else ({}, {}, {})
        )
        if played is not None:  # a night of single players (nights_players.py)
            results, replaced = played.boards, played.replaced
        pars = store.pars(db, night_id) if results else {}
    mine = {
        p.number
        for p in pairs
        if account_id is not None and account_id in (p.first_id, p.second_id)
    }
    playing = [
        f"/t/{g.code}"
        for g in games
        if g.code and g.finished is None and {g.ns_pair, g.ew_pair} & mine
    ]
    shown: dict[str, Any] = {
        "id": night.id,
        "name": night.name,
        "club": slug,
        "preset": night.preset,
        "level": night_level(night),
        "scoring": night_scoring(night),
        "state": night.state,
        "movement": night.movement,
        "rounds": night.rounds,
        "per_round": night.per_round,
        "starts_at": night.starts_at,
        "pairs": [
            {"number": p.number + 1, "name": pair_name(p), "present": p.present is not None}
            for p in pairs
        ],
        # checking in (nights_checkin.py): asked for, and the asker's entry's
        "check_in": bool(night.check_in),
        "entered": any(p.number in mine for p in pairs),
        "checked_in": any(p.number in mine and p.present is not None for p in pairs),
        "played": sum(g.finished is not None for g in games),
        "games": len(games),
        "admin": admin,
        "my_table": playing[0] if playing else None,
        "standings": [],
        "travellers": [],
    }
    if solo.of_players(night):
        solo.view(shown, pairs, games, account_id)
    if played is not None:
        progressive = night.movement == "progressive"
        shown["standings"] = solo.standings(played, pars, progressive, night.rounds)
    elif results:
        scoring = shown["scoring"]
        shown["standings"] = night_standings(results, rounds, pars, scoring, night.rounds)
        for line in shown["standings"]:
            line["computer"] = replaced.get(line["pair"], 0)
    if results:
        rules = make_rules(night.preset)
        for number in sorted(results):
            board = night_board(night.preset, night.seed, number)
            shown["travellers"].append(
                traveller(board, results[number], pars.get(number)).to_dict()
            )
            par = pars.get(number)
            shown["travellers"][-1]["par_label"] = None if par is None else par.label(rules)
    return shown


def club_nights(store: NightStore, slug: str) -> list[dict[str, Any]]:
    """A club's nights, newest first (names and states only)."""
    from fivehundred.web.schema import nights

    with store.engine.connect() as db:
        rows = db.execute(
            sa.select(nights.c.id, nights.c.name, nights.c.state)
            .select_from(nights.join(clubs, clubs.c.id == nights.c.club_id))
            .where(clubs.c.slug == slug.lower())
            .order_by(nights.c.created.desc())
            .limit(50)
        ).all()
    return [{"id": r.id, "name": r.name, "state": r.state, "url": f"/n/{r.id}"} for r in rows]


def standing_columns(night: dict[str, Any]) -> list[str]:
    """The standings' columns of ``night`` (:func:`night_view`'s) in its scoring (games
    won: total points, their tie-break, after them; a progressive: the rounds each player
    won), each a key of a standings line."""
    scoring = night["scoring"]
    tie_break = ["points"] if scoring == "games" else []
    won = ["rounds_won"] if night["movement"] == "progressive" else []
    return ["place", "pair", "boards", "score", *tie_break, "against_par", "computer", *won]


def column_heads(night: dict[str, Any], columns: list[str]) -> list[str]:
    """The heads of ``columns`` (a night of single players: a line a player)."""
    heads = {
        "place": w.PLACE,
        "pair": w.PLAYER if "players" in night else w.PAIR,
        "boards": w.BOARDS,
        "score": w.SCORE_HEADS[night["scoring"]],
        "points": w.SCORE_HEADS["points"],
        "against_par": w.AGAINST_PAR,
        "computer": w.COMPUTER_BOARDS,
        "rounds_won": w.WON,
    }
    return [heads[c] for c in columns]
