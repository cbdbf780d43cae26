"""What the table page reads from the server instead of working it out (web/views.py): the
labels of the legal actions in card symbols, the reason each refused card is refused, the
prompt, one display name per seat."""

from __future__ import annotations

import random
import re

import pytest

from fivehundred.actions import MISERE, PASS, action_text, bid_action, parse_call
from fivehundred.cards import WHITE_JOKER, card_text, parse_card
from fivehundred.rules import make_rules
from fivehundred.table import Table
from fivehundred.web import views
from fivehundred.words import (
    action_label,
    card_words,
    contract_label,
    display_context,
    hand_order,
    prompt,
)


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
                discards=view["discards_left"],
                following=bool(view["trick"]) if view["phase"] == "play" else None,
                contract=view["contract_label"] if view["phase"] == "discard" else "",
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


@pytest.mark.parametrize(
    ("preset", "variants", "extra"),
    [
        ("two_handed", {}, ["Ann's dummy", "Bob's dummy"]),
        ("two_handed", {"open_eight": True}, ["Face-up cards", "Dead cards"]),
        ("two_handed", {"draw_pack": True}, ["Stock", "Thrown"]),
        ("three_handed", {"dead_hand": True}, ["Dead hand"]),
        ("australian", {}, []),
    ],
)
def test_every_seat_is_named_by_the_server(
    preset: str, variants: dict[str, bool], extra: list[str]
) -> None:
    """The seats that are no player's are named by the vocabulary (the page says these
    names, it no longer works them out from the variants)."""
    rules = make_rules(preset, variants)
    people = ["Ann", "Bob", "Cat", "Dan"][: rules.players]
    names = views.table_names(rules, people)
    assert names == [*people, *extra]
    assert len(names) == rules.seats


@pytest.mark.parametrize(
    ("preset", "variants", "controllers"),
    [
        ("two_handed", {}, [0, 1, 0, 1]),
        ("two_handed", {"open_eight": True}, [0, 1, None, None]),
        ("two_handed", {"draw_pack": True}, [0, 1, None, None]),
        ("three_handed", {"dead_hand": True}, [0, 1, 2, None]),
        ("australian", {}, [0, 1, 2, 3]),
    ],
)
def test_the_server_says_who_decides_for_every_seat(
    preset: str, variants: dict[str, bool], controllers: list[int | None]
) -> None:
    """A two-handed dummy is its owner's (the player opposite), a stock or dead hand is
    nobody's: the page reads it from the view's ``controllers``, not from seat numbers,
    and the engine agrees (the dummy's moves are its owner's to make)."""
    rules = make_rules(preset, variants)
    assert list(views.seat_controllers(rules)) == controllers
    if rules.dummies:
        table = Table(rules, ["human"] * rules.players, 5)
        rng = random.Random(5)
        seen = set()
        while not table.is_over and table.hand_number <= 1:
            seat = table.seat_to_move
            assert table.to_move == controllers[seat]
            seen.add(seat)
            table.apply(table.to_move, rng.choice(table.legal_actions()))
        assert seen >= {2, 3}, "the dummies moved"


def test_undo_is_offered_only_for_a_decision_of_the_hand_in_progress() -> None:
    """``undo_open``: nothing before a seat's first decision; after it, yes; after the
    hand is over (the next one not yet begun by this seat), no: the web table takes back
    nothing of a finished hand."""
    rules = make_rules("australian")
    table = Table(rules, ["human"] * 4, 2)
    first = table.to_move
    assert not views.undo_open(table, first)
    table.apply(first, PASS)
    assert views.undo_open(table, first)
    assert not views.undo_open(table, views.SPECTATOR)
    while table.hand_number == 1:  # everyone passes: the hand is thrown in, the next dealt
        assert not table.is_over
        table.apply(table.to_move, PASS)
    assert all(table.can_undo(seat) for seat in range(4)), "the engine could go back"
    assert not any(views.undo_open(table, seat) for seat in range(4)), "the page may not"


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


# ------------------------------------------------------------------ the hand, the cards' words
def _order(cards: str, contract: int, joker_suits: tuple[int, int] = (-1, -1)) -> list[str]:
    ctx = display_context(contract, joker_suits)
    return [
        card_text(c, WHITE_JOKER) for c in hand_order([parse_card(t) for t in cards.split()], ctx)
    ]


HAND = "JK JD JH AH 5S 10C KD 4H QS 9C JC"


@pytest.mark.parametrize(
    ("contract", "order"),
    [
        # The trumps first (joker, right bower, left bower, then high to low), the other
        # suits with colours alternating.
        (bid_action(7, 3), "JKR JH JD AH 4H QS 5S KD JC 10C 9C"),
        (bid_action(7, 2), "JKR JD JH KD QS 5S AH 4H JC 10C 9C"),
        (bid_action(7, 0), "JKR JC QS 5S AH JH 4H 10C 9C KD JD"),
        (bid_action(7, 1), "JKR JC 10C 9C AH JH 4H QS 5S KD JD"),
        # No trumps and misère: no bowers; the free joker leads, ♠ ♥ ♣ ♦.
        (bid_action(7, 4), "JKR QS 5S AH JH 4H JC 10C 9C KD JD"),
        (MISERE, "JKR QS 5S AH JH 4H JC 10C 9C KD JD"),
        # Before the contract: the joker leads.
        (-1, "JKR QS 5S AH JH 4H JC 10C 9C KD JD"),
    ],
)
def test_the_hand_has_one_display_order(contract: int, order: str) -> None:
    """:func:`fivehundred.words.hand_order`, the order the page draws a hand in."""
    assert _order(HAND.replace("JK", "JKR"), contract) == order.split()


def test_each_joker_sits_in_the_suit_nominated_for_it() -> None:
    """French-Canadian (JKR, JKW) in no trumps: the white joker nominated ♦ is the top of
    the diamonds; the red one, free, leads."""
    assert _order("JKW JKR AS 5D KD", bid_action(9, 4), (-1, 2)) == ["JKR", "AS", "JKW", "KD", "5D"]
    assert _order("JKW JKR AS 5D KD", bid_action(9, 4), (0, -1)) == ["JKW", "JKR", "AS", "KD", "5D"]


def test_a_card_in_words_names_its_bower() -> None:
    jd, jh, jc = parse_card("JD"), parse_card("JH"), parse_card("JC")
    assert card_words(jd, False, 3) == "jack of diamonds, left bower"
    assert card_words(jh, False, 3) == "jack of hearts, right bower"
    assert card_words(jc, False, 3) == "jack of clubs"
    assert card_words(jd, False, 4) == card_words(jd) == "jack of diamonds"
    assert card_words(parse_card("13D")) == "13 of diamonds"
    assert card_words(parse_card("JKW"), WHITE_JOKER) == "white joker"
    assert card_words(parse_card("JKR"), WHITE_JOKER) == "red joker"
    assert card_words(parse_card("JK")) == "joker"


@pytest.mark.parametrize("preset", ["french_canadian", "australian", "two_handed"])
def test_the_view_carries_the_hand_in_order_and_the_words_the_page_says(preset: str) -> None:
    """Over random games, every seat's view and a spectator's: the hand and the face-up
    cards in the one display order, each card the view names in words (and no other card),
    the contract's and each call's label from the vocabulary, the trump suit; the last
    trick's cards in words and the hand result's contract label."""
    rules = make_rules(preset)
    two = rules.joker_names
    rng = random.Random(preset)
    table = Table(rules, ["human"] * rules.players, 5)
    seen_white = False
    while not table.is_over and table.hand_number <= 2:
        for seat in [*range(rules.players), views.SPECTATOR]:
            view = views.observation_json(table, seat)
            obs = (
                table.observation(seat)
                if seat == views.SPECTATOR
                else views.seat_observation(table, seat)
            )
            ctx = display_context(obs.contract, obs.joker_suits, rules.j5_no_trumps)
            assert view["hand"] == [card_text(c, two) for c in hand_order(obs.hand, ctx)]
            for key, mask in obs.exposed:
                assert view["exposed"][str(key)] == [
                    card_text(c, two) for c in hand_order(mask, ctx)
                ]
            named = set(view["hand"]) | {a.split(">")[0] for _, a in view["trick"]}
            named |= {a.split(">")[0] for plays in view["tricks"] for _, a in plays}
            named |= {c for cards in view["exposed"].values() for c in cards}
            named |= set(view["discards"]) | set(view.get("own_hand", []))
            named |= {view["called_card"]} - {None}
            assert set(view["card_words"]) <= named, set(view["card_words"]) - named
            assert set(view["hand"]) <= set(view["card_words"])
            for text, said in view["card_words"].items():
                assert said == card_words(parse_card(text), two, obs.trump)
                seen_white |= said == "white joker"
            assert view["contract_label"] == (
                contract_label(obs.contract, two) if obs.contract >= 0 else None
            )
            assert view["auction_labels"] == [action_label(a, two) for _, a in obs.auction]
            assert view["trump"] == ("SCDH"[obs.trump] if 0 <= obs.trump < 4 else None)
        last = views.last_trick(table)
        if last is not None:
            assert set(last["words"]) == {a.split(">")[0] for _, a in last["plays"]}
        result = views.hand_result(table)
        if result is not None and result["contract"] is not None:
            assert result["contract_label"] == action_label(parse_call(result["contract"]), two)
        table.apply(table.to_move, rng.choice(table.legal_actions()))
    assert views.auction_order(table) == list(table.game.hand.auction.bidders)
    if preset == "french_canadian":
        assert seen_white or "JKW" not in str(table.record())
