"""What the table page reads from the server instead of working it out (web/views.py): the
labels of the legal actions in card symbols, the reason each refused card is refused, the
prompt, one display name per seat."""

from __future__ import annotations

import random
import re

import pytest

from fivehundred.actions import action_text
from fivehundred.rules import make_rules
from fivehundred.table import Table
from fivehundred.web import views
from fivehundred.words import action_label, prompt


def test_the_labels_of_the_legal_actions_are_the_vocabularys() -> None:
    """The page's labels are :func:`fivehundred.words.action_label`'s, keyed by the record
    text the page sends back, over random games of presets with several kinds of action."""
    for preset, variants in [
        ("australian", {"hi_lo": True, "slam_call": True}),
        ("five_handed", {}),
        ("american", {"two_jokers": True}),
    ]:
        rules = make_rules(preset, variants)
        two = rules.joker_names
        rng = random.Random(preset)
        table = Table(rules, ["human"] * rules.players, 3)
        while not table.is_over and table.hand_number <= 2:
            seat = table.to_move
            view = views.observation_json(table, seat)
            legal = table.legal_actions()
            assert view["legal_labels"] == {
                action_text(a, two): action_label(a, two) for a in legal
            }
            assert view["prompt"] == prompt(
                view["phase"],
                discards=len(view["hand"]) - 10 if view["phase"] == "discard" else 0,
                following=bool(view["trick"]) if view["phase"] == "play" else None,
            )
            table.apply(seat, rng.choice(legal))


def test_one_display_name_per_seat() -> None:
    assert views.display_names(["Ann", "medium", "medium", "hard"]) == [
        "Ann",
        "medium 2",
        "medium 3",
        "hard",
    ]
    assert views.display_names(["Ann", "Bob"]) == ["Ann", "Bob"]


@pytest.mark.parametrize("preset", ["australian", "two_handed", "five_handed"])
def test_every_refused_card_says_why_in_card_symbols(preset: str) -> None:
    """Over random games: the view of the seat to play names every card of its hand that
    the engine refuses (and no other), each with a reason in card symbols; the labels cover
    exactly the legal actions; the prompt is there exactly on the seat's turn."""
    rules = make_rules(preset)
    rng = random.Random(5)
    reasons: set[str] = set()
    for seed in range(3):
        table = Table(rules, ["human"] * rules.players, seed)
        while not table.is_over and table.hand_number <= 2:
            seat = table.to_move
            view = views.observation_json(table, seat)
            assert set(view["legal_labels"]) == set(view["legal"])
            assert view["prompt"] is not None
            if view["phase"] == "play":
                legal_cards = {a.split(">")[0] for a in view["legal"]}
                refused = [c for c in view["hand"] if c not in legal_cards]
                assert sorted(view["refusals"]) == sorted(refused)
                for reason in view["refusals"].values():
                    assert re.search("[♠♣♦♥]", reason), reason
                    assert not re.search(r"\b(10|[2-9JQKA])[SCDH]\b|R-[A-Z]", reason), reason
                    reasons.add(reason.split(":")[0] if "left bower" not in reason else reason)
            else:
                assert view["refusals"] == {}
            other = views.observation_json(table, (seat + 1) % rules.players)
            if other["seat"] != view["seat"] and not other["legal"]:
                assert other["prompt"] is None and other["refusals"] == {}
            table.apply(seat, rng.choice(table.legal_actions()))
    assert any(r.startswith("You must follow") for r in reasons), reasons


def test_the_left_bower_and_the_joker_are_explained() -> None:
    """The two refusals a person least expects, said in card language."""
    rules = make_rules()
    seen: dict[str, str] = {}
    for seed in range(60):
        table = Table(rules, ["human"] * 4, seed)
        rng = random.Random(seed)
        while not table.is_over and table.hand_number == 1:
            view = views.observation_json(table, table.to_move)
            for card, reason in view["refusals"].items():
                if "left bower" in reason:
                    seen["bower"] = reason
                if card == "JK":
                    seen["joker"] = reason
            table.apply(table.to_move, rng.choice(table.legal_actions()))
        if len(seen) == 2:
            break
    assert re.fullmatch(
        r"J[♠♣♦♥] is the left bower, a trump: you must follow [♠♣♦♥]", seen["bower"]
    )
    assert re.fullmatch(
        r"You must follow [♠♣♦♥]: (the joker may be played only when you have "
        r"no [♠♣♦♥]|JK is not a [♠♣♦♥])",
        seen["joker"],
    )


def test_a_spectator_view_has_no_seat_facts() -> None:
    rules = make_rules()
    table = Table(rules, ["human"] * 4, 1)
    view = views.observation_json(table, views.SPECTATOR)
    assert view["legal_labels"] == {} and view["refusals"] == {} and view["prompt"] is None
