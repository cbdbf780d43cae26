#!/usr/bin/env python3
"""An external Five Hundred player speaking the JSON-lines protocol (docs/player-protocol.md).

Standard library only, so it shows everything a program in any language has to do:
read one JSON object per line from standard input, answer each "decide" with one line
{"action": "..."} on standard output, and flush.

Strategy (deliberately simple): pass in the auction, discard the lowest cards, never
nominate the joker, and play the lowest legal card, but win a trick with the highest card
when the partner is not already winning it.

    fivehundred arena --team-a "cmd:python3 examples/simple_bot.py" --team-b random --games 4
"""

import json
import sys

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J", "Q", "K", "A"]


def rank(card: str) -> int:
    """Rough rank of a card in record notation (jokers highest)."""
    if card.startswith("JK"):
        return 99
    return RANKS.index(card[:-1])


def decide(obs: dict) -> str:
    legal = obs["legal"]
    phase = obs["phase"]
    if phase == "auction":
        return "pass" if "pass" in legal else legal[0]
    if phase == "nominate":
        return "none" if "none" in legal else legal[0]
    if phase == "call":
        return "alone" if "alone" in legal else legal[0]
    # discard one card at a time, and play: lowest card, or highest to take a trick we lead.
    ordered = sorted(legal, key=lambda a: rank(a.split(">")[0]))
    if phase == "play" and not obs["trick"]:
        return ordered[-1]
    return ordered[0]


def main() -> None:
    seat = None
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            seat = message["seat"]
        elif kind == "decide":
            action = decide(message["observation"])
            answer = {"action": action, "explain": f"seat {seat}: simple rule"}
            sys.stdout.write(json.dumps(answer) + "\n")
            sys.stdout.flush()
        elif kind == "bye":
            break
        # "hand_over" needs no answer.


if __name__ == "__main__":
    main()
