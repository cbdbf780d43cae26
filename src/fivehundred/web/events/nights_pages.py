"""The club nights' pages, drawn on the server from what :mod:`.nights_view` says (every
text escaped, the words from :mod:`.nights_words`), phone first; the forms post through
static/js/events.js as the tournaments' do; a night in play draws itself again."""

from __future__ import annotations

from html import escape
from typing import Any

from fivehundred.bots import player_choices
from fivehundred.web.events import nights_words as w
from fivehundred.web.events.nights_view import column_heads, standing_columns
from fivehundred.web.events.pages import REFRESH, shell
from fivehundred.web.events.pages import scroll_table as _table
from fivehundred.words import DEFAULT_LEVEL, LEVEL_WORDS


def _page(title: str, body: str, refresh: bool = False) -> str:
    main = ("night-main", "Skip to the night")
    nav = '<a href="/clubs">Clubs</a> · <a href="/account">Account</a>'
    return shell(title, body, main, nav, REFRESH if refresh else 0)


def _form(api: str, button: str, fields: str = "", name: str = "") -> str:
    return (
        f'<form data-api="{escape(api)}" name="{escape(name)}">{fields}'
        f'<button class="btn" type="submit">{escape(button)}</button></form>'
    )


def _field(label: str, control: str) -> str:
    return f"<label>{escape(label)} {control}</label>"


def _scoring_choice() -> str:
    options = "".join(
        f'<option value="{escape(name)}">{escape(label)}</option>'
        for name, label in w.SCORING_LABELS.items()
    )
    return f'<select name="scoring">{options}</select>'


def _level_choice() -> str:
    """The levels people are offered in the lobby, the default chosen."""
    options = "".join(
        f'<option value="{escape(name)}"{" selected" if name == DEFAULT_LEVEL else ""}>'
        f"{escape(LEVEL_WORDS[name])}</option>"
        for name in player_choices()
        if name in LEVEL_WORDS
    )
    return f'<select name="level">{options}</select>'


def _traveller(board: dict[str, Any]) -> str:
    rows = [
        [
            r["entrant"],
            w.DIRECTION_LABELS.get(r["direction"], r["direction"]),
            r["contract"],
            r["tricks"],
            r["points"][0],
            r["points"][1],
            f"{r['matchpoints']}/{r['top']}",
            f"{r['percent']:g}",
            "" if r["against_par"] is None else f"{r['against_par']:+d}",
        ]
        for r in board["results"]
    ]
    heads = [w.PAIR, w.DIRECTION, w.CONTRACT, w.TRICKS, w.NS_POINTS, w.EW_POINTS]
    caption = w.TRAVELLER_HEADING.format(number=board["board"])
    par = board["par_label"]
    if par is not None:
        ns, ew = board["par"]["points"]
        caption += " · " + w.PAR.format(par=par, ns=ns, ew=ew)
    return _table(caption, [*heads, w.MATCHPOINTS, "%", w.AGAINST_PAR], rows)


def _figure(value: Any, signed: bool = False) -> str:
    if value is None:
        return ""
    if signed:
        return f"{value:+d}"
    return f"{value:g}" if isinstance(value, float) else str(value)


def _downloads(night_id: int) -> str:
    """The links to the results' CSV and the board set (not printed)."""
    api = f"/api/nights/{night_id}"
    paths = {"csv": "results.csv", "json": "export", "text": "export?format=text"}
    links = " · ".join(
        f'<a href="{api}/{paths[kind]}">{escape(label)}</a>'
        for kind, label in w.DOWNLOAD_LABELS.items()
    )
    return f'<p class="screen-only" id="downloads">{w.DOWNLOADS.format(links=links)}</p>'


def _standings(night: dict[str, Any]) -> str:
    """The standings in the night's scoring, best first."""
    columns = standing_columns(night)
    rows = [[_figure(s[c], c == "against_par") for c in columns] for s in night["standings"]]
    heads = column_heads(night, columns)
    numbers = {i for i, c in enumerate(columns) if c not in ("pair",)}
    return _table(w.STANDINGS_HEADING, heads, rows, numbers)


def _by_round(night: dict[str, Any]) -> str:
    """Each pair's score in each round, in the night's scoring."""
    rounds = range(1, night["rounds"] + 1)
    heads = [w.PLAYER if "players" in night else w.PAIR]
    heads += [w.ROUND.format(number=r) for r in rounds]
    rows = [
        [s["pair"], *(w.NOT_PLAYED if v is None else _figure(v) for v in s["rounds"])]
        for s in night["standings"]
    ]
    caption = w.ROUNDS_HEADING.format(scoring=w.SCORING_LABELS[night["scoring"]])
    return _table(caption, heads, rows, set(range(1, len(heads))))


def night_page(night: dict[str, Any]) -> str:
    facts = w.FACTS.format(
        rounds=night["rounds"],
        per_round=night["per_round"],
        state=w.STATE_LABELS.get(night["state"], night["state"]),
    )
    parts = [
        f'<h2 id="night-title">{escape(night["name"])}</h2>',
        f'<p id="facts">{escape(facts)}</p>',
    ]
    level = LEVEL_WORDS.get(night["level"], night["level"])
    parts.append(f'<p id="level">{escape(w.LEVEL.format(level=level))}</p>')
    scoring = w.SCORING_LABELS.get(night["scoring"], night["scoring"])
    parts.append(f'<p id="scoring">{escape(w.SCORING.format(scoring=scoring))}</p>')
    if night["movement"]:
        movement = w.MOVEMENT_LABELS.get(night["movement"], night["movement"])
        parts.append(f"<p>{escape(w.MOVEMENT.format(movement=movement))}</p>")
    if night["club"]:
        back = f'<a href="/clubs/{escape(night["club"])}/nights">{w.BACK_TO_CLUB}</a>'
        parts.append(f'<p class="screen-only">{back}</p>')
    if night["my_table"]:
        link = f'<a href="{escape(night["my_table"])}">{escape(night["my_table"])}</a>'
        parts.append(f'<p class="screen-only">{w.MY_TABLE.format(link=link)}</p>')
    if night["state"] != "registering":
        parts.append(
            f"<p>{escape(w.PROGRESS.format(done=night['played'], total=night['games']))}</p>"
        )
    body = [f'    <section class="panel" aria-labelledby="night-title">{"".join(parts)}</section>']
    alone = "players" in night  # a night of single players (nights_players.py)
    if alone:
        body.extend(_players(night))
    else:
        pairs = "".join(
            f"<li>{escape(p['name'])}{w.PRESENT_MARK if p['present'] else ''}</li>"
            for p in night["pairs"]
        )
        listed = f'<ul id="pairs">{pairs}</ul>' if pairs else f"<p>{w.NO_PAIRS}</p>"
        body.append(f'    <section class="panel"><h2>{w.PAIRS_HEADING}</h2>{listed}</section>')
    if night["state"] == "registering":
        api = f"/api/nights/{night['id']}"
        if night["logged_in"] and alone:
            enter = _form(f"{api}/players", w.ENTER_ALONE_BUTTON, name="enter")
            body.append(
                f'    <section class="panel"><h2>{w.ENTER_ALONE_HEADING}</h2>{enter}</section>'
            )
        elif night["logged_in"]:
            partner = _field(w.FIELD_PARTNER, '<input name="partner" required maxlength="60">')
            enter = _form(f"{api}/pairs", w.ENTER_BUTTON, partner, "enter")
            body.append(f'    <section class="panel"><h2>{w.ENTER_HEADING}</h2>{enter}</section>')
        else:
            body.append(f'    <p><a href="/account">{w.LOG_IN_FIRST}</a></p>')
        body.extend(_check_in(night, api))
        if night["admin"]:
            body.append(
                f'    <section class="panel">{_form(f"{api}/start", w.START_BUTTON, name="start")}</section>'
            )
    if night["state"] == "finished":
        tables = _downloads(night["id"]) + _standings(night) + _by_round(night)
        travellers = "".join(_traveller(b) for b in night["travellers"])
        body.append(f'    <section class="panel fits" id="results">{tables}{travellers}</section>')
    elif night["state"] == "running":
        body.append(f"    <p>{w.STANDINGS_LATER}</p>")
    return _page(night["name"], "\n".join(body), refresh=night["state"] == "running")


def _check_in(night: dict[str, Any], api: str) -> list[str]:
    """A night that seats only those who check in: its words, and the asker's button (or
    that the asker is checked in)."""
    if not night["check_in"]:
        return []
    said = f"<p>{w.CHECK_IN_SAYS}</p>"
    if night["checked_in"]:
        said += f'<p id="checked-in">{w.CHECKED_IN}</p>'
    elif night["entered"]:
        said += _form(f"{api}/check-in", w.CHECK_IN_BUTTON, name="check-in")
    return [f'    <section class="panel"><h2>{w.CHECK_IN_HEADING}</h2>{said}</section>']


def _players(night: dict[str, Any]) -> list[str]:
    """A night of single players' sections: its players, and while it is played where
    each sits next (the asker first)."""
    names = "".join(
        f"<li>{escape(p['name'])}{w.PRESENT_MARK if p['present'] else ''}</li>"
        for p in night["players"]
    )
    listed = f'<ol id="players">{names}</ol>' if names else f"<p>{w.NO_PLAYERS}</p>"
    out = [f'    <section class="panel"><h2>{w.PLAYERS_HEADING}</h2>{listed}</section>']
    seating = night["seating"]
    if not seating:
        return out
    mine = night["my_seat"]
    said = ""
    if mine is not None and mine["table"] is not None:
        said = w.MY_SEAT.format(round=mine["round"], table=mine["table"], seat=mine["seat"])
    elif mine is not None:
        said = w.MY_SEAT_LATER.format(round=mine["round"])
    rows = [[s["player"], s["round"], s["table"] or w.SEAT_LATER, s["seat"] or ""] for s in seating]
    caption = w.SEATING_HEADING.format(round=min(s["round"] for s in seating))
    table = _table(caption, [w.PLAYER, w.ROUND_HEAD, w.TABLE, w.SEAT], rows)
    mine_p = f'<p id="my-seat">{escape(said)}</p>' if said else ""
    out.append(f'    <section class="panel fits" id="seating">{mine_p}{table}</section>')
    return out


def club_nights_page(
    club: str, nights: list[dict[str, Any]], logged_in: bool, more: str = ""
) -> str:
    """The club's nights; ``more``: the sections after them (its nights at real tables)."""
    items = "".join(
        f'<li><a href="{escape(n["url"])}">{escape(n["name"])}</a> · '
        f"{escape(w.STATE_LABELS.get(n['state'], n['state']))}</li>"
        for n in nights
    )
    body = (
        f'    <section class="panel"><h2>{escape(w.NIGHTS_HEADING.format(club=club))}</h2>'
        f"{f'<ul>{items}</ul>' if items else f'<p>{w.NO_NIGHTS}</p>'}</section>\n"
    )
    if logged_in:
        fields = "".join(
            (
                f'<input type="hidden" name="club" value="{escape(club)}">',
                _field(w.FIELD_NAME, '<input name="name" required minlength="3" maxlength="60">'),
                _field(
                    w.FIELD_PER_ROUND,
                    '<input name="per_round" type="number" min="1" max="6" value="2">',
                ),
                _field(
                    w.FIELD_ROUNDS, '<input name="rounds" type="number" min="1" max="30" value="6">'
                ),
                _field(
                    w.FIELD_GRACE, '<input name="grace" type="number" min="1" max="600" value="60">'
                ),
                _field(w.FIELD_SCORING, _scoring_choice()),
                _field(w.FIELD_LEVEL, _level_choice()),
                _field(w.FIELD_STARTS, '<input name="starts_at" type="datetime-local">'),
                _field(w.FIELD_MOVEMENT, _movement_choice()),
                '<label class="check"><input type="checkbox" name="check_in" value="true"> '
                f"{escape(w.FIELD_CHECK_IN)}</label>",
            )
        )
        form = _form("/api/nights", w.SCHEDULE_BUTTON, fields, "schedule")
        body += f'    <section class="panel"><h2>{w.SCHEDULE_HEADING}</h2>{form}</section>\n'
    return _page(w.NIGHTS_TITLE, body + more)


def _movement_choice() -> str:
    options = "".join(
        f'<option value="{escape(key)}">{escape(label)}</option>'
        for key, label in w.MOVEMENT_CHOICES.items()
    )
    return f'<select name="movement">{options}</select>'
