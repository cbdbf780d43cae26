"""The one vocabulary (fivehundred.words): every legal action of every preset has a label,
the labels of the legal actions differ, and parsing a label (or the record notation, or
the forms people type) gives the action back."""

from __future__ import annotations

import random

import pytest

from fivehundred.actions import (
    CLAIM,
    DOUBLE_MISERE,
    HI_LO,
    NO_SLAM,
    OPEN_MISERE,
    PASS,
    action_text,
    bid_action,
    joker_lead_action,
)
from fivehundred.cards import JOKER, JOKER_BLACK, WHITE_JOKER, parse_card
from fivehundred.errors import REFUSALS, ActionParseError, IllegalActionError, Refusal
from fivehundred.game import HandState
from fivehundred.messages import error_text
from fivehundred.rules import PRESETS, Rules, make_rules
from fivehundred.text import call_text, play_text
from fivehundred.tui import render
from fivehundred.words import (
    action_label,
    action_phrase,
    contract_label,
    parse,
    points_line,
    prompt,
    seat_name,
)

#: Every preset, and the house rules that add actions and phases of their own.
RULES = [make_rules(preset) for preset in sorted(PRESETS)] + [
    make_rules(
        "australian",
        {
            "hi_lo": True,
            "double_misere": True,
            "shields_double": True,
            "patastrophe": True,
            "slam_call": True,
            "claim": True,
            "blind_misere": True,
            "ralphing": True,
        },
    ),
    make_rules("australian", {"two_jokers": True, "misere_anytime": True}),
    make_rules("two_handed", {"open_eight": True}),
    make_rules("two_handed", {"draw_pack": True}),
    make_rules("five_handed", {"partner_announces": True}),
    make_rules("american", {"inkle": True}),
]


def _typed(label: str) -> str:
    """The label as someone types it without the symbols: ``7h``, ``open misere``."""
    for symbol, letter in zip("♠♣♦♥", "scdh", strict=True):
        label = label.replace(symbol, letter)
    return label.replace("è", "e")


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.describe())
def test_every_legal_action_has_a_label_that_parses_back(rules: Rules) -> None:
    rng = random.Random(rules.describe())
    jokers = rules.joker_names
    decisions = 0
    for seed in range(12):
        state = HandState.deal(rules, seed % rules.players, seed)
        while not state.is_over:
            obs = state.observation(state.to_move)
            legal = list(obs.legal)
            assert legal == state.legal_actions()
            labels = [action_label(a, jokers) for a in legal]
            assert all(labels) and len(set(labels)) == len(labels), labels
            for action, label in zip(legal, labels, strict=True):
                assert parse(label, legal, jokers) == action, label
                assert parse(_typed(label), legal, jokers) == action, label
                assert parse(action_text(action, jokers), legal, jokers) == action
                # every interface's words come from the vocabulary
                assert render.action_label(action, jokers) == label
                assert play_text(action, jokers) == call_text(action, jokers) == label
                assert action_phrase(action, jokers)
            assert prompt(obs.phase)
            state.apply(rng.choice(legal))
            decisions += 1
        if state.contract >= 0:
            assert contract_label(state.contract, jokers) == action_label(state.contract, jokers)
    assert decisions > 100


def test_the_forms_people_type() -> None:
    five_spades, seven_clubs = parse_card("5S"), parse_card("7C")
    cards = [five_spades, seven_clubs, parse_card("10H"), JOKER]
    for text, expected in [
        ("5♠", five_spades),
        ("5s", five_spades),
        ("10h", parse_card("10H")),
        ("7♣", seven_clubs),
        ("jk", JOKER),
        (" JK ", JOKER),
    ]:
        assert parse(text, cards) == expected
    calls = [PASS, bid_action(7, 1), bid_action(7, 3), OPEN_MISERE, HI_LO, DOUBLE_MISERE]
    for text, expected in [
        ("open misère", OPEN_MISERE),
        ("open misere", OPEN_MISERE),
        ("Open_Misere", OPEN_MISERE),
        ("7♣", bid_action(7, 1)),
        ("7h", bid_action(7, 3)),
        ("hi/lo", HI_LO),
        ("hi_lo", HI_LO),
        ("double misère", DOUBLE_MISERE),
        ("Pass", PASS),
    ]:
        assert parse(text, calls) == expected
    assert parse("no slam", [NO_SLAM, NO_SLAM - 1]) == NO_SLAM
    assert parse("claim", [CLAIM, five_spades]) == CLAIM
    # "jk" on lead in no trumps: the joker lead, when only one suit is open to it
    assert parse("jk", [joker_lead_action(JOKER, 2), five_spades]) == joker_lead_action(JOKER, 2)
    with pytest.raises(ActionParseError, match="say which"):
        parse("jk", [joker_lead_action(JOKER, 0), joker_lead_action(JOKER, 2)])
    with pytest.raises(ActionParseError):
        parse("seven of nothing", cards)
    # not legal now: the action is still named, for the rules to refuse with a reason
    assert parse("AS", cards) == parse_card("AS")
    # without the legal actions, the phase decides between a card and a bid
    assert parse("7h", phase="auction") == bid_action(7, 3)
    assert parse("7♥", phase="play") == parse_card("7H")


def test_the_rules_name_the_jokers() -> None:
    french = make_rules("french_canadian")
    assert french.joker_names == WHITE_JOKER
    assert action_label(JOKER_BLACK, french.joker_names) == "JKW"
    assert parse("JKW", [JOKER, JOKER_BLACK], french.joker_names) == JOKER_BLACK
    assert action_label(joker_lead_action(JOKER_BLACK, 3), french.joker_names) == "JKW as ♥"
    assert action_phrase(JOKER) == "the joker"
    assert action_phrase(JOKER_BLACK, True) == "the JKB"


def test_seats_and_refusals() -> None:
    assert [seat_name(s) for s in range(4)] == ["South", "West", "North", "East"]
    assert seat_name(2, 6) == "North-West" and seat_name(9, 4) == "Seat 9"
    error = IllegalActionError(
        "7S revokes: seat 0 must follow C",
        "R-PLAY",
        why=Refusal.REVOKE,
        card=parse_card("7S"),
        suit=1,
    )
    assert error_text(error) == "You must follow ♣: 7♠ is not a ♣ (R-PLAY)"


def test_refusals_are_said_from_their_data_not_their_message() -> None:
    """The words come from the refusal's kind, card and suit: the engine's message (record
    notation, for logs) is never read back."""
    seven = parse_card("7S")
    said = {
        why: error_text(IllegalActionError("(a message nobody reads)", "", why, seven, 3))
        for why in REFUSALS
        if why != Refusal.GAME_OVER
    }
    assert said[Refusal.NOT_HELD] == "You do not hold 7♠"
    assert said[Refusal.REVOKE] == "You must follow ♥: 7♠ is not a ♥"
    assert "(a message" not in " ".join(said.values())
    # a refusal with no kind says its own message
    assert error_text(IllegalActionError("the auction is over", "R-BID")) == (
        "The auction is over (R-BID)"
    )


def test_sides_are_named_by_their_players_in_every_interface() -> None:
    """One way to name a side by its players (words.sides_named), read by the pad, the
    terminal, the web's table and sheet."""
    from fivehundred.words import sides_named

    people = ["Ann", "Bob", "Cat", "Dan", "Eve", "Fay"]
    assert sides_named(make_rules("australian"), people[:4]) == ["Ann & Cat", "Bob & Dan"]
    assert sides_named(make_rules("three_handed"), people[:3]) == ["Ann", "Bob", "Cat"]
    six = make_rules("six_handed", {"teams_of_two": True})
    assert sides_named(six, people) == ["Ann & Dan", "Bob & Eve", "Cat & Fay"]
    # two players, two dummies: the dummies' seats are no side's name
    assert sides_named(make_rules("two_handed"), ["Ann", "Bob", "x", "y"]) == ["Ann", "Bob"]


def test_the_table_says_who_decides_and_what_in_words() -> None:
    """The prompts of the seat to move and the words while another decides: one place for
    the terminal, the line mode and the page (which only adds its keys or punctuation)."""
    from fivehundred.words import prompt, waiting

    assert waiting("auction", "Ann") == "Ann to bid"
    assert waiting("play", "Ann's dummy") == "Ann's dummy to play"
    assert waiting("slam", "Bob") == "Bob to move"
    assert prompt("discard", discards=3, contract="7♠") == (
        "You won the auction with 7♠: discard 3 cards"
    )
    assert prompt("discard", discards=1) == "Discard a card"
    assert prompt("play", following=True) == "Your turn: follow"
    assert prompt("draw", drawn="7♥").startswith("You drew 7♥: keep it")


def test_a_held_total_says_how_much_of_the_hand_counted() -> None:
    """R-490: the line of a side the rule held says what counted, in words, also when
    nothing did (a target of 10 holds defenders at 0: not "held at 0 (0)")."""
    assert points_line("Ann & Cat", 60, 100, 160, 490) == "Ann & Cat +60"
    assert points_line("Bob & Dan", 60, 440, 490, 490) == (
        "Bob & Dan +60, held at 490 (+50 counted): points won defending stop at 490"
    )
    assert points_line("Ann & Bob", 20, 0, 0, 0) == (
        "Ann & Bob +20, held at 0 (none counted): points won defending stop at 0"
    )


@pytest.mark.parametrize("target", [10, 20, 100, 500, 1000])
def test_the_490_rule_says_its_real_figure_for_any_target(target: int) -> None:
    """R-490: the words name the rule as people know it and give the table's own figure,
    10 short of the target; in a game to 10 they do not speak of "the 0 rule"."""
    from fivehundred.game import GameState
    from fivehundred.words import rule_490_note

    cap = target - 10
    note = rule_490_note(target)
    assert note.startswith("The 490 rule"), note
    assert f"stop at {cap}" in note and f"reaches {target} only by winning a contract" in note
    assert f"The {cap} rule" not in note or cap == 490
    game = GameState(make_rules("australian", {"target": target}), seed=1)
    sheet = render.sheet_lines(game)
    assert f"stop at {cap}" in sheet[0] and (cap == 490 or "stop at 490" not in sheet[0])
