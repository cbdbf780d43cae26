"""Property tests per house rule (RULES.md §10, R-HOUSE): random complete hands under each
variant: every card once, and the points the rule book's figures give."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from fivehundred.actions import action_card, action_text
from fivehundred.game import HandState
from fivehundred.record import hand_record, random_hand, replay_hand
from fivehundred.rules import HOUSE_VARIANTS, Rules, make_rules

PRESET = {
    "inkle": "american",
    "dead_hand": "two_handed",
    "open_eight": "two_handed",
    "draw_pack": "two_handed",
}
EXTRA = {"wilkinson_misere": {"misere_anytime": True}}
FOUR_PLAYER = [name for name in HOUSE_VARIANTS if PRESET.get(name) is None]


def _rules(name: str) -> Rules:
    return make_rules(PRESET.get(name, "australian"), {name: True, **EXTRA.get(name, {})})


def _every_card_once(state: HandState) -> None:
    played = [action_card(a) for trick in state.tricks for _, a in trick.plays]
    assert len(played) == len(set(played))
    aside = 1 << state.table_discard if state.table_discard >= 0 else 0
    held = sum(state.hands)
    parts = [sum(1 << c for c in played), state.discards, state.kitty, held, aside]
    assert sum(p.bit_count() for p in parts) == state.rules.pack.size  # no card twice
    every = 0
    for part in parts:
        every |= part
    assert every == state.rules.pack.cards


def _book(state: HandState) -> list[int]:
    """R-SCORE with R-HOUSE, Avondale figures, four players (seats 0+2, 1+3)."""
    rules = state.rules
    points = [0, 0]
    if state.contract < 0:
        return points
    text = action_text(state.contract)
    side = state.contractor % 2
    team = {state.contractor, *state.partners}
    won = sum(state.tricks_won[s] for s in team)
    theirs = 10 - won
    misere = {
        "misere": 250,
        "open_misere": 500,
        "double_misere": 450,
        "shields_double": 550,
        "patastrophe": 1000,
    }
    if rules.wilkinson_misere:
        misere["misere"] = 500
    defenders = 0
    if text in misere:
        value, made = misere[text], won == 0
        if rules.misere_defenders_score:
            defenders = 10 * won
    elif text == "hi_lo":
        value, made, defenders = 350, won == 5, 10 * theirs
    else:
        tricks = int(text[:-2] if text.endswith("NT") else text[:-1])
        strain = "SCDHN".index(text[len(str(tricks))])
        value = 40 + 20 * strain + 100 * (tricks - 6)
        defenders = 10 * theirs
        if state.slam:  # slam_call: the 8-level value, or the 7-level value + 100 lost
            made = won == 10
            value += 100
        else:
            made = won >= tricks
            if made and won == 10:
                value = max(value, 250)
    if rules.no_defender_points:
        defenders = 0
    points[1 - side] += defenders
    if made:
        points[side] += value
    elif rules.failed_to_opponents:
        points[1 - side] += value
    else:
        points[side] -= value
    if state.claim_wrong:
        points[side] -= 100
    return points


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(sorted(HOUSE_VARIANTS)), seed=st.integers(0, 2**32 - 1))
def test_every_card_once_under_every_house_rule(name: str, seed: int) -> None:
    state = random_hand(_rules(name), seed)
    assert state.is_over
    _every_card_once(state)
    again = replay_hand(hand_record(state))
    assert again.result == state.result


@settings(max_examples=60, deadline=None)
@given(name=st.sampled_from(sorted(FOUR_PLAYER)), seed=st.integers(0, 2**32 - 1))
def test_points_by_the_book_under_every_house_rule(name: str, seed: int) -> None:
    state = random_hand(_rules(name), seed)
    assert list(state.result.points) == _book(state)
