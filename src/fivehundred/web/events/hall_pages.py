"""A hall night's standings page (``/hall/CODE``), drawn on the server from what
:mod:`.hall_view` says (every text escaped, the words from :mod:`.hall_words`), phone
first and readable on the hall's TV; while the night is open its main part is drawn
again in place every :data:`REFRESH` s (static/js/events.js, as a club night's)."""

from __future__ import annotations

from functools import lru_cache
from html import escape
from typing import Any

import segno

from fivehundred.web.events import hall_words as w
from fivehundred.web.events.pages import scroll_table as _table
from fivehundred.web.events.pages import shell

REFRESH = 5


def _page(title: str, body: str, refresh: bool) -> str:
    main = ("hall-main", "Skip to the standings")
    nav = '<a href="/clubs">Clubs</a> · <a href="/pad">Score pad</a>'
    return shell(title, body, main, nav, REFRESH if refresh else 0, "hall")


@lru_cache(maxsize=256)
def join_qr(url: str) -> str:
    """The join link as a QR code, an inline SVG drawn here (segno: no service, no
    script): dark modules on white whatever the page's theme, four modules of quiet zone,
    error correction M (a phone still reads it with 15 % of it smudged or glared). Kept
    per link: the page is drawn again every few seconds on every screen."""
    qr = segno.make(url, error="m", micro=False, boost_error=False)
    svg = qr.svg_inline(
        border=4, dark="#000", light="#fff", omitsize=True, svgclass="qr", title=w.QR_TITLE
    )
    return svg.replace("<svg ", '<svg role="img" aria-label="' + escape(w.QR_TITLE) + '" ', 1)


def _table_panel(table: dict[str, Any], night: dict[str, Any]) -> str:
    rows = []
    for number, game in enumerate(table["games"], 1):
        for side, (name, total) in enumerate(zip(game["sides"], game["totals"], strict=True)):
            won = w.GAME_WON if game["winner"] == side else ""
            rows.append([w.GAME_LABEL.format(number=number), name, total, won])
    number = table["number"]
    caption = w.TABLE_CAPTION.format(number=number)
    heads = [w.GAME, w.PLAYER, w.POINTS, ""]
    out = _table(caption, heads, rows, {2})
    if night["state"] != "open":
        return out
    if table["free"]:
        return f'{out}<p class="free">{escape(w.TABLE_FREE.format(number=number))}</p>'
    if night["admin"]:
        out += (
            f'<form data-api="/api/hall/{escape(night["code"])}/tables/{number}/free"'
            f' name="free-{number}"><button class="btn" type="submit">'
            f"{escape(w.FREE_BUTTON.format(number=number))}</button></form>"
        )
    return out


def _round_parts(night: dict[str, Any]) -> tuple[str, str]:
    """A progressive night's round (a line under the facts) and its moves (a panel)."""
    progress = night["progress"]
    if progress is None:
        return "", ""
    if progress["hands"] is not None:
        length = w.ROUND_HANDS.format(hands=progress["hands"])
    else:
        left = progress["left"]
        clock = w.MINUTES_LEFT.format(minutes=-(-left // 60)) if left else w.TIME_UP
        length = w.ROUND_MINUTES.format(minutes=progress["minutes"], left=clock)
    line = (
        f'<p id="round">{escape(w.ROUND_FACTS.format(round=progress["round"], length=length))}</p>'
    )
    rows = [
        [m["name"], m["from"], m["to"], m["seat"], w.MOVED_UP if m["won"] else w.MOVED_DOWN]
        for m in progress["moves"]
    ]
    caption = w.MOVES_HEADING.format(round=progress["round"])
    moves = _table(caption, [*w.MOVES_HEADS, ""], rows, {1, 2, 3}) if rows else ""
    if night["admin"] and night["state"] == "open":
        moves += (
            f'<form data-api="/api/hall/{escape(night["code"])}/round" name="round">'
            f'<input type="hidden" name="round" value="{progress["round"]}">'
            f'<button class="btn" type="submit">'
            f"{w.CLOSE_ROUND_BUTTON.format(round=progress['round'])}</button></form>"
        )
    return line, f'    <section class="panel" id="moves">{moves}</section>' if moves else ""


def hall_page(night: dict[str, Any], origin: str = "") -> str:
    """The page; ``origin`` (``https://host``) makes the join link whole, to be typed."""
    state = w.STATE_LABELS.get(night["state"], night["state"])
    facts = w.FACTS.format(tables=len(night["tables"]), state=state)
    parts = [
        f'<h2 id="hall-title">{escape(night["name"])}</h2>',
        f'<p id="facts">{escape(facts)}</p>',
    ]
    round_line, moves = _round_parts(night)
    parts.append(round_line)
    if night["state"] == "open":
        link = f'<a href="{escape(night["join"])}">{escape(origin + night["join"])}</a>'
        code = f'<span class="code">{escape(night["code"])}</span>'
        parts.append(f"<p>{w.JOIN.format(code=code, link=link)}</p>")
        qr = join_qr(origin + night["join"])
        parts.append(f'<figure id="join-qr">{qr}<figcaption>{w.QR_CAPTION}</figcaption></figure>')
    else:
        parts.append(f'<p><a href="{escape(night["results"])}">{w.RESULTS_CSV}</a></p>')
    body = [f'    <section class="panel" aria-labelledby="hall-title">{"".join(parts)}</section>']
    if moves:
        body.append(moves)
    rows = [
        [s["place"], s["name"], ", ".join(map(str, s["tables"])), s["won"], s["points"]]
        for s in night["standings"]
    ]
    heads = [w.PLACE, w.PLAYER, w.TABLE, w.GAMES_WON, w.POINTS]
    standings = _table(w.STANDINGS_HEADING, heads, rows, {2, 3, 4}) if rows else ""
    tables = "".join(f"<div>{_table_panel(t, night)}</div>" for t in night["tables"])
    listed = f'<div class="tables">{tables}</div>' if tables else f"<p>{w.NO_TABLES}</p>"
    body.append(f'    <section class="panel" id="standings">{standings}{listed}</section>')
    if night["admin"] and night["state"] == "open":
        form = (
            f'<form data-api="/api/hall/{escape(night["code"])}/end" name="end">'
            f'<button class="btn" type="submit">{w.END_BUTTON}</button></form>'
        )
        body.append(f'    <section class="panel">{form}</section>')
    return _page(night["name"], "\n".join(body), refresh=night["state"] == "open")


def club_section(club: str, listing: list[dict[str, Any]], presets: list[tuple[str, str]]) -> str:
    """On a club's nights page, for its members: its nights at real tables, and the form
    that opens one (the server refuses it to a member who is not an admin)."""
    items = "".join(
        f'<li><a href="/hall/{escape(n["code"])}">{escape(n["name"])}</a> · '
        f"{escape(n['code'])} · {escape(w.STATE_LABELS.get(n['state'], n['state']))}</li>"
        for n in listing
    )
    options = "".join(
        f'<option value="{escape(name)}">{escape(label)}</option>' for name, label in presets
    )
    fields = (
        f'<input type="hidden" name="club" value="{escape(club)}">'
        f'<label>{w.FIELD_NAME} <input name="name" required minlength="3" maxlength="60"></label>'
        f'<label>{w.FIELD_PRESET} <select name="preset">{options}</select></label>'
        f"<fieldset><legend>{w.FIELD_PROGRESSIVE}</legend>"
        f'<label>{w.FIELD_ROUND_HANDS} <input name="round_hands" type="number" min="1" max="50"'
        ' inputmode="numeric"></label>'
        f'<label>{w.FIELD_ROUND_MINUTES} <input name="round_minutes" type="number" min="5"'
        ' max="180" inputmode="numeric"></label></fieldset>'
    )
    form = (
        f'<form data-api="/api/hall" name="hall">{fields}'
        f'<button class="btn" type="submit">{w.OPEN_BUTTON}</button></form>'
    )
    listed = f'<ul id="hall-nights">{items}</ul>' if items else ""
    return f'    <section class="panel"><h2>{w.CLUB_HEADING}</h2>{listed}{form}</section>\n'
