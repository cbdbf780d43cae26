"""The events' pages, drawn on the server from what :mod:`.view` says (every text escaped;
the words from :mod:`.words`); phone first. A form posts its fields to the API named by
its ``data-api`` (static/js/events.js) and the page is drawn again; a page of an event
in play (its body's ``data-refresh``) redraws its main part every :data:`REFRESH` s, in
place: no reload, and not while a field in it is being filled in."""

from __future__ import annotations

import datetime as dt
from html import escape
from typing import Any

from fivehundred.web.events import words as w

REFRESH = 10


def shell(
    title: str, body: str, main: tuple[str, str], nav: str, refresh: int = 0, kind: str = ""
) -> str:
    """A page of the events, the club nights and the hall nights: ``main`` its main part's
    id and the skip link's words, ``nav`` the header's links, ``refresh`` the seconds
    between two redraws of the main part (0: none), ``kind`` a class of the body."""
    every = f' data-refresh="{refresh}"' if refresh else ""
    classes = f"pages {kind}".strip()
    return f"""<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Five Hundred — {escape(title)}</title>
  <link rel="stylesheet" href="/static/css/style.css">
  <link rel="stylesheet" href="/static/css/account.css">
  <link rel="stylesheet" href="/static/css/events.css">
  <link rel="stylesheet" href="/static/css/print.css">
  <link rel="icon" href="/static/icons/icon.svg" type="image/svg+xml">
</head>
<body class="{classes}"{every}>
  <a class="skip-link" href="#{main[0]}">{main[1]}</a>
  <header class="bar">
    <h1><a href="/">Five Hundred</a></h1>
    <nav aria-label="pages">{nav}</nav>
  </header>
  <main id="{main[0]}">
    <p id="status" role="status" aria-live="polite"></p>
{body}
  </main>
  <script type="module" src="/static/js/events.js"></script>
</body>
</html>
"""


def scroll_table(
    caption: str,
    heads: list[str],
    rows: list[list[Any]],
    numbers: frozenset[int] | set[int] = frozenset(),
) -> str:
    """A table in a region that scrolls on its own when too wide; the columns ``numbers``
    (their indexes) are numbers, set to the right."""

    def cell(tag: str, index: int, value: Any, scope: str = "") -> str:
        kind = ' class="n"' if index in numbers else ""
        return f"<{tag}{scope}{kind}>{escape(str(value))}</{tag}>"

    head = "".join(cell("th", i, h, ' scope="col"') for i, h in enumerate(heads))
    body = "".join(
        "<tr>" + "".join(cell("td", i, value) for i, value in enumerate(row)) + "</tr>"
        for row in rows
    )
    return (
        f'<div class="scroll" tabindex="0" role="region" aria-label="{escape(caption)}">'
        f"<table><caption>{escape(caption)}</caption>"
        f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>"
    )


NAV = (
    f'<a href="/events">{w.TITLE}</a> · <a href="/leagues">{w.LEAGUES_TITLE}</a> · '
    '<a href="/clubs">Clubs</a> · <a href="/account">Account</a>'
)


def _page(title: str, body: str, refresh: bool = False) -> str:
    main = ("events-main", "Skip to the tournament")
    return shell(title, body, main, NAV, REFRESH if refresh else 0)


def _when(at: float | None) -> str:
    if at is None:
        return w.STARTED_BY_ORGANISER
    moment = dt.datetime.fromtimestamp(at, dt.UTC).strftime("%Y-%m-%d %H:%M")
    return w.STARTS_AT.format(when=moment)


def _span(seconds: float) -> str:
    """A time control in the largest whole unit: ``3 days``, ``12 hours``, ``1 minute``."""
    for size, one, many in w.SPANS:
        if seconds >= size and seconds % size == 0:
            count = int(seconds // size)
            return f"{count} {one if count == 1 else many}"
    return f"{seconds:g} s"


def _form(api: str, button: str, fields: str = "", name: str = "") -> str:
    named = f' name="{escape(name)}"' if name else ""
    return (
        f'<form data-api="{escape(api)}"{named}>{fields}'
        f'<button class="btn" type="submit">{escape(button)}</button></form>'
    )


def _field(label: str, control: str) -> str:
    return f"<label>{escape(label)} {control}</label>"


def index_page(listing: dict[str, Any], logged_in: bool) -> str:
    items = "".join(
        f'<li><a href="/e/{e["id"]}">{escape(e["name"])}</a> · {escape(e["kind"])} · '
        f"{escape(e['state'])}</li>"
        for e in listing["events"]
    )
    body = f"""    <section class="panel" aria-labelledby="list-title">
      <h2 id="list-title">{w.INDEX_HEADING}</h2>
      {f"<ul>{items}</ul>" if items else f"<p>{w.NONE_YET}</p>"}
    </section>
"""
    if not logged_in:
        body += f'    <p><a href="/account">{w.LOGIN_FIRST}</a></p>\n'
        return _page(w.TITLE, body)
    kinds = "".join(f'<option value="{k}">{escape(v)}</option>' for k, v in w.KIND_LABELS.items())
    fields = "".join(
        (
            _field(w.FIELD_NAME, '<input name="name" required minlength="3" maxlength="60">'),
            _field(w.FIELD_KIND, f'<select name="kind">{kinds}</select>'),
            _field(
                w.FIELD_ROUNDS, '<input name="rounds" type="number" min="1" max="20" value="5">'
            ),
            _field(
                w.FIELD_TARGET,
                '<input name="target" type="number" min="10" max="1000" value="500">',
            ),
            '<label class="check"><input type="checkbox" name="first_to_target"> '
            f"{escape(w.FIELD_FIRST_TO_TARGET)}</label>",
            _field(
                w.FIELD_GRACE, '<input name="grace" type="number" min="1" max="600" value="120">'
            ),
            _field(
                w.FIELD_TURN_TIMER, '<input name="turn_timer" type="number" min="5" max="3600">'
            ),
            _field(
                w.FIELD_MOVE_HOURS,
                '<input name="move_clock_hours" type="number" min="1" max="168" step="any">',
            ),
            _field(
                w.FIELD_ROUND_DAYS,
                '<input name="round_days" type="number" min="0.05" max="30" step="any">',
            ),
            _field(
                w.FIELD_MAX_PAIRS,
                '<input name="max_pairs" type="number" min="2" max="256" value="64">',
            ),
            _field(w.FIELD_STARTS, '<input name="starts_at" type="datetime-local">'),
            _field(w.FIELD_CLUB, '<input name="club" maxlength="48">'),
            '<label class="check"><input type="checkbox" name="duplicate" value="true"> '
            f"{escape(w.FIELD_DUPLICATE)}</label>",
        )
    )
    body += f"""    <section class="panel" aria-labelledby="create-title">
      <h2 id="create-title">{w.CREATE_HEADING}</h2>
      {_form("/api/events", w.CREATE_BUTTON, fields, "create")}
    </section>
"""
    return _page(w.TITLE, body)


def event_page(event: dict[str, Any], logged_in: bool) -> str:
    facts = [
        event["kind_label"],
        event["state_label"],
        f"{w.FIELD_TARGET}: {event['target']}",
        w.ORGANISED_BY.format(who=event["organiser"] or "?"),
    ]
    if event["turn_timer"]:
        facts.append(w.TIME_CONTROL.format(seconds=f"{event['turn_timer']:g}"))
    if event["move_clock"]:
        span = _span(event["move_clock"]), _span(event["round_time"])
        facts.append(w.TURN_BASED.format(clock=span[0], round=span[1]))
    if event["duplicate"]:
        facts.append(w.DUPLICATE)
    if event["state"] == "registering":
        facts.append(_when(event["starts_at"]))
    else:
        facts.append(w.ROUND_OF.format(round=event["round"], rounds=event["rounds"]))
    body = f"""    <section class="panel" aria-labelledby="event-title">
      <h2 id="event-title">{escape(event["name"])}</h2>
      <p id="facts">{" · ".join(escape(str(f)) for f in facts)}</p>
{_entry(event, logged_in)}
    </section>
{_standings(event)}{_crosstable(event)}{_rounds(event)}{_pairs(event)}"""
    return _page(event["name"], body, refresh=event["state"] == "running")


def _entry(event: dict[str, Any], logged_in: bool) -> str:
    """What the reader may do: enter, check in, withdraw, start; go to their table."""
    api = f"/api/events/{event['id']}"
    parts = []
    if event["winner"]:
        parts.append(f'<p id="winner">{escape(w.WINNER.format(pair=event["winner"]))}</p>')
    game = event["my_game"]
    if game is not None and game["code"]:
        line = w.YOUR_GAME.format(round=game["round"], ns=game["ns"], ew=game["ew"])
        parts.append(
            f'<p id="my-game">{escape(line)} · '
            f'<a class="btn" href="/t/{escape(game["code"])}">{w.PLAY_LINK}</a></p>'
        )
    mine = event["mine"]
    if event["state"] == "running" and event["kind"] == "swiss" and mine and not mine["withdrawn"]:
        parts.append(_form(f"{api}/withdraw", w.WITHDRAW_BUTTON, name="withdraw"))
    if event["state"] == "registering":
        if not logged_in:
            parts.append(f'<p><a href="/account">{w.LOGIN_FIRST}</a></p>')
        elif event["mine"] is None:
            partner = _field(w.FIELD_PARTNER, '<input name="partner" required maxlength="60">')
            parts.append(_form(f"{api}/pairs", w.REGISTER_BUTTON, partner, "register"))
        else:
            mine = event["mine"]
            state = w.CHECKED_IN if mine["checked_in"] else w.NOT_CHECKED_IN
            parts.append(f'<p id="mine">{escape(mine["name"])}: {state}</p>')
            if not mine["checked_in"]:
                parts.append(_form(f"{api}/check-in", w.CHECK_IN_BUTTON, name="check-in"))
            parts.append(_form(f"{api}/withdraw", w.WITHDRAW_BUTTON, name="withdraw"))
        if event["organising"]:
            parts.append(_form(f"{api}/start", w.START_BUTTON, name="start"))
    return "\n".join(f"      {p}" for p in parts)


def _standings(event: dict[str, Any]) -> str:
    if not event["standings"]:
        return ""
    rows = [
        (s["place"], s["name"], s["points"], s["buchholz"], s["difference"], s["played"])
        for s in event["standings"]
    ]
    return f"""    <section class="panel" aria-labelledby="standings-title">
      <h2 id="standings-title">{w.STANDINGS_HEADING}</h2>
      {_ranked("standings-title", w.STANDING_COLUMNS, rows, 'id="standings"')}
      <p class="small">{_key(w.STANDING_COLUMNS)} {w.TIE_BREAKS}</p>
    </section>
"""


def _ranked(
    title: str, columns: tuple[tuple[str, str], ...], rows: list[tuple[Any, ...]], attrs: str
) -> str:
    """A table of standings that fits a phone's width: a line a pair (its place, its name,
    then numbers), the short column heads with their whole words said (:func:`_head`), the
    name wrapping (events.css ``.standings``); in a region named by ``title`` that scrolls
    should a name not break."""
    head = "".join(_head(short, full) for short, full in columns)
    body = "".join(
        f'<tr><td>{place}</td><th scope="row">{escape(name)}</th>'
        + "".join(f"<td>{n}</td>" for n in numbers)
        + "</tr>"
        for place, name, *numbers in rows
    )
    return (
        f'<div class="scroll" tabindex="0" role="region" aria-labelledby="{title}">'
        f'<table class="standings" {attrs}><thead><tr>{head}</tr></thead>'
        f"<tbody>{body}</tbody></table></div>"
    )


def _key(columns: tuple[tuple[str, str], ...]) -> str:
    """The short column heads spelled out, for the line under the table (the place's
    needs none)."""
    said = [f"{short}: {full}" for short, full in columns[1:] if short != full]
    return escape(" · ".join(said) + ".")


def _head(short: str, full: str) -> str:
    """A column head: the short word shown, the whole one said (and shown on hover)."""
    if short == full:
        return f'<th scope="col">{escape(full)}</th>'
    return (
        f'<th scope="col" title="{escape(full)}"><span aria-hidden="true">{escape(short)}</span>'
        f'<span class="visually-hidden">{escape(full)}</span></th>'
    )


def _cell(cell: dict[str, Any]) -> str:
    result = w.RESULT_WORDS.get(cell["result"], "")
    if "opponent" not in cell:
        return f"<td>{escape(result)}</td>"
    text = f"{result} {w.SEAT_SIDES[cell['seats']]} v {cell['opponent']}"
    if cell["points"] is not None:
        text += f" ({cell['points']:+d})"
    if cell["code"]:
        page = "g" if cell["result"] != "playing" else "t"
        return f'<td><a href="/{page}/{escape(cell["code"])}">{escape(text)}</a></td>'
    return f"<td>{escape(text)}</td>"


def _crosstable(event: dict[str, Any]) -> str:
    lines = event["crosstable"]
    if not lines or not lines[0]["rounds"]:
        return ""
    head = "".join(f'<th scope="col">{c["round"]}</th>' for c in lines[0]["rounds"])
    rows = "".join(
        f'<tr><th scope="row">{escape(line["name"])}</th>'
        + "".join(_cell(c) for c in line["rounds"])
        + "</tr>"
        for line in lines
    )
    return f"""    <section class="panel" aria-labelledby="cross-title">
      <h2 id="cross-title">{w.CROSSTABLE_HEADING}</h2>
      <div class="scroll" tabindex="0" role="region" aria-labelledby="cross-title">
      <table id="crosstable"><thead><tr><th scope="col">Pair</th>{head}</tr>
      </thead><tbody>{rows}</tbody></table></div>
    </section>
"""


def _rounds(event: dict[str, Any]) -> str:
    if not event["rounds_played"]:
        return ""
    parts = []
    for round_ in reversed(event["rounds_played"]):
        items = []
        for game in round_["games"]:
            line = f"{game['ns']} v {game['ew']}"
            # a finished game of a duplicate round under way: its result and record later
            shown = game["finished"] and game["ns_points"] is not None
            if shown:
                line += f": {game['ns_points']} – {game['ew_points']}"
                if game["absent"]:
                    line += f" ({w.RESULT_WORDS['absent']}: {', '.join(game['absent'])})"
                if game["overtime"]:
                    line += f" ({w.OVERTIME})"
            link = ""
            if game["code"]:
                page = "g" if shown else "t"
                link = f' · <a href="/{page}/{escape(game["code"])}">{w.GAME_LINK}</a>'
            items.append(f"<li>{escape(line)}{link}</li>")
        if round_["due"] and not round_["finished"]:
            moment = dt.datetime.fromtimestamp(round_["due"], dt.UTC).strftime("%Y-%m-%d %H:%M")
            due = w.ROUND_DUE.format(round=round_["number"], when=moment)
            items.insert(0, f'<li class="due">{escape(due)}</li>')
        if round_["byes"]:
            items.append(f"<li>{escape(w.BYE_LINE.format(pairs=', '.join(round_['byes'])))}</li>")
        parts.append(f"<h3>{round_['number']}</h3><ul>{''.join(items)}</ul>")
    return f"""    <section class="panel" aria-labelledby="rounds-title">
      <h2 id="rounds-title">{w.ROUNDS_HEADING}</h2>
      {"".join(parts)}
    </section>
"""


def _pairs(event: dict[str, Any]) -> str:
    items = []
    for pair in event["pairs"]:
        state = (
            w.WITHDRAWN
            if pair["withdrawn"]
            else w.CHECKED_IN
            if pair["checked_in"]
            else w.NOT_CHECKED_IN
        )
        items.append(f"<li>{escape(pair['name'])} · {state}</li>")
    return f"""    <section class="panel" aria-labelledby="pairs-title">
      <h2 id="pairs-title">{w.PAIRS_HEADING}</h2>
      <ul id="pairs">{"".join(items)}</ul>
    </section>
"""


# ---------------------------------------------------------------- leagues
def leagues_page(listing: dict[str, Any], logged_in: bool) -> str:
    items = "".join(
        f'<li><a href="/l/{s["id"]}">{escape(s["name"])}</a> · {escape(s["state"])}</li>'
        for s in listing["leagues"]
    )
    body = f"""    <section class="panel" aria-labelledby="list-title">
      <h2 id="list-title">{w.LEAGUES_HEADING}</h2>
      {f"<ul>{items}</ul>" if items else f"<p>{w.NO_LEAGUES_YET}</p>"}
    </section>
"""
    if not logged_in:
        return _page(
            w.LEAGUES_TITLE, body + f'    <p><a href="/account">{w.LEAGUE_LOGIN_FIRST}</a></p>\n'
        )
    fields = "".join(
        (
            _field(w.FIELD_NAME, '<input name="name" required minlength="3" maxlength="60">'),
            _field(w.FIELD_WEEKS, '<input name="weeks" type="number" min="1" max="26" value="4">'),
            _field(
                w.FIELD_DIVISION_SIZE,
                '<input name="division_size" type="number" min="2" max="32" value="8">',
            ),
            _field(
                w.FIELD_PER_WEEK, '<input name="per_week" type="number" min="1" max="20" value="3">'
            ),
            _field(w.FIELD_MOVES, '<input name="moves" type="number" min="0" max="5" value="2">'),
            _field(w.FIELD_LEAGUE_STARTS, '<input name="starts_at" type="datetime-local">'),
        )
    )
    body += f"""    <section class="panel" aria-labelledby="create-title">
      <h2 id="create-title">{w.LEAGUE_CREATE_HEADING}</h2>
      {_form("/api/leagues", w.LEAGUE_CREATE_BUTTON, fields, "create")}
    </section>
"""
    return _page(w.LEAGUES_TITLE, body)


def _week_games(shown: dict[str, Any], week: int) -> str:
    """A division's games of the week: who meets whom (the first pair North-South), with
    the score once played; and who has a bye."""
    items = []
    for game in shown["games"]:
        line = f"{game['ns']} v {game['ew']}: "
        result = game["result"]
        line += w.TO_PLAY if result is None else f"{result['ns_points']} – {result['ew_points']}"
        items.append(f"<li>{escape(line)}</li>")
    if shown["byes"]:
        items.append(f"<li>{escape(w.BYE_LINE.format(pairs=', '.join(shown['byes'])))}</li>")
    return (
        f'<h4>{escape(w.WEEK_GAMES.format(week=week + 1))}</h4><ul class="week-games">'
        f"{''.join(items)}</ul>"
    )


def league_page(season: dict[str, Any], logged_in: bool) -> str:
    api = f"/api/leagues/{season['id']}"
    facts = [
        season["state_label"],
        w.LEAGUE_FACTS.format(
            weeks=season["weeks"], per_week=season["per_week"], moves=season["moves"]
        ),
    ]
    if season["state"] == "registering":
        facts.append(_when(season["starts_at"]))
    elif season["week"] is not None:
        facts.append(w.LEAGUE_WEEK.format(week=season["week"] + 1, weeks=season["weeks"]))
    actions = []
    if season["state"] == "registering" and logged_in and season["mine"] is None:
        partner = _field(w.FIELD_PARTNER, '<input name="partner" required maxlength="60">')
        actions.append(_form(f"{api}/pairs", w.REGISTER_BUTTON, partner, "register"))
    if season["state"] == "finished" and season["organising"]:
        follow = f'<input type="hidden" name="follows" value="{season["id"]}">'
        actions.append(_form("/api/leagues", w.NEXT_SEASON_BUTTON, follow, "next"))
    tables = []
    for number, lines in enumerate(season["divisions"], 1):
        rows = [
            (place, x["name"], x["points"], x["played"], x["won"], x["difference"])
            for place, x in enumerate(lines, 1)
        ]
        title = f"division-{number}"
        tables.append(
            f'<h3 id="{title}">{escape(w.DIVISION.format(number=number))}</h3>'
            + _ranked(title, w.LEAGUE_COLUMNS, rows, f'data-division="{number}"')
        )
        if number == 1:  # the key to the heads, under the first table
            tables.append(f'<p class="small">{_key(w.LEAGUE_COLUMNS)}</p>')
        if season["week_games"]:
            tables.append(_week_games(season["week_games"][number - 1], season["week"]))
    pairs = "".join(f"<li>{escape(p)}</li>" for p in season["pairs"])
    body = f"""    <section class="panel" aria-labelledby="league-title">
      <h2 id="league-title">{escape(season["name"])}</h2>
      <p id="facts">{" · ".join(escape(str(f)) for f in facts)}</p>
      <p class="small">{escape(w.LEAGUE_HOW.format(per_week=season["per_week"]))}</p>
      {"".join(actions)}
      {"".join(tables)}
      <h3>{w.PAIRS_HEADING}</h3><ul id="pairs">{pairs}</ul>
    </section>
"""
    return _page(season["name"], body, refresh=False)
