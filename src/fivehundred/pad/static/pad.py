"""Run in the browser by Brython when the server cannot be reached: the engine's own
scoring modules (served from the installed package) answer the page's requests."""

import json

from browser import window

from fivehundred.errors import FiveHundredError
from fivehundred.pad.model import handle


def answer(name: str, text: str) -> str:
    try:
        return json.dumps(handle(name, json.loads(text)))
    except FiveHundredError as error:
        return json.dumps({"error": str(error).splitlines()[0]})


window.padPy = answer
