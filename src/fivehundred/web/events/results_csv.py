"""A finished event's or night's results as CSV (a spreadsheet's download): a head row,
then a row a pair; a text cell a spreadsheet would take for a formula is quoted with ``'``."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Any

from fastapi.responses import Response

from fivehundred.web.events import nights_words
from fivehundred.web.events import words as event_words

#: what starts a formula in a spreadsheet
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def _cell(value: object) -> object:
    if isinstance(value, str) and value.startswith(FORMULA):
        return "'" + value
    return "" if value is None else value


def csv_response(filename: str, head: Sequence[str], rows: Iterable[Sequence[object]]) -> Response:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(head)
    writer.writerows([_cell(v) for v in row] for row in rows)
    return Response(
        out.getvalue(),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


def event_standings(event: dict[str, Any]) -> Response:
    """A finished event's standings (:func:`.view.event_view`'s)."""
    rows = (
        [s["place"], s["name"], s["points"], s["buchholz"], s["difference"], s["played"]]
        for s in event["standings"]
    )
    head = [full for _, full in event_words.STANDING_COLUMNS]
    return csv_response(f"event-{event['id']}-standings.csv", head, rows)


def night_results(night: dict[str, Any]) -> Response:
    """A finished night's standings in its scoring (:func:`.nights_view.night_view`'s),
    then each pair's score in each round."""
    from fivehundred.web.events.nights_view import column_heads, standing_columns

    w = nights_words
    columns = standing_columns(night)
    rounds = [w.ROUND.format(number=r) for r in range(1, night["rounds"] + 1)]
    rows = ([s[c] for c in columns] + s["rounds"] for s in night["standings"])
    head = column_heads(night, columns) + rounds
    return csv_response(f"night-{night['id']}-results.csv", head, rows)
