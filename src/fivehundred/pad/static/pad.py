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
        answer = {"error": str(error).splitlines()[0]}
        path = getattr(error, "path", "")
        if path:
            answer["path"] = path
        return json.dumps(answer)


window.padPy = answer
