"""Hidden information stays hidden, checked on the messages actually built (R-PLAY, R-KITTY,
R-PLAYERS, R-HOUSE): through random games of every preset and every variant, in every
phase, the web's view of every seat and of a spectator, and the core observation of every
seat in the external-player protocol, name no card that seat may not see; and the cards
everyone may see (the hands lying face up, the cards played) are in the spectator's view.

What a seat may see is written out here from the rules, not read from the engine's own
view builder (:func:`fivehundred.observation.observe`)."""

from __future__ import annotations

import random
import re
from typing import Any

from fivehundred.actions import (
    ALONE_CONTRACTS,
    CLAIM,
    HOUSE_CONTRACTS,
    MISERE,
    MISERE_CONTRACTS,
    OPEN_MISERE,
    PASS,
    PATASTROPHE,
    SHIELDS_DOUBLE,
    SLAM,
    action_card,
    bid_tricks,
    is_call,
    parse_action,
)
from fivehundred.cards import CardMask, iter_cards, parse_card
from fivehundred.errors import RulesError
from fivehundred.game import (
    DISCARD,
    DONE,
    PHASES,
    TABLE_SEAT,
    HandState,
    controller_of,
    dummy_seats,
)
from fivehundred.observation import SPECTATOR
from fivehundred.rules import PRESETS, VARIANTS, Rules, make_rules
from fivehundred.table import Table
from fivehundred.web import views

#: A card in record notation (``10H``, ``AS``, ``JK``, ``JKB``) or in symbols (``10♥``).
_CARD = re.compile(r"(?<![0-9A-Za-z])(?:(1[0-3]|[2-9JQKA])([SCDH♠♣♦♥])|JK[RBW]?)(?![0-9A-Za-z])")
_SYMBOLS = dict(zip("♠♣♦♥", "SCDH", strict=True))
_JOKER_WORDS = {"Joker": "JK", "Red joker": "JKR", "Black joker": "JKB", "White joker": "JKW"}
#: Fields that hold calls and bids (``7H`` is a bid there, not a card).
_CALL_FIELDS = frozenset(("auction", "contract", "calls", "auction_labels", "contract_label"))


def _cards_in_text(text: str, rules: Rules) -> set[int]:
    found = set()
    for word, record in _JOKER_WORDS.items():
        if re.search(rf"\b{word}\b", text):
            found.add(parse_card(record if rules.two_jokers or record == "JK" else "JK"))
    for match in _CARD.finditer(text):
        token = match.group(0)
        found.add(parse_card(token[:-1] + _SYMBOLS.get(token[-1], token[-1])))
    return found


def cards_named(message: Any, rules: Rules, phase: str, key: str = "") -> set[int]:
    """Every card a message names, wherever it is (a legal action is decoded as the action
    it is in ``phase``)."""
    if key in _CALL_FIELDS or message is None or isinstance(message, bool | int | float):
        return set()
    if key in ("legal", "legal_labels"):  # (the labels: the same actions in words)
        found = set()
        for text in message:
            card = action_card(parse_action(text, phase))
            if card >= 0:
                found.add(card)
        return found
    if isinstance(message, str):
        if key == "prompt":  # the contract won names a bid ("with 10♥"), not a card
            message = re.sub(r"You won the auction with [^:]*:", "", message)
        return _cards_in_text(message, rules)
    if isinstance(message, dict):
        found = set()
        for name, value in message.items():
            found |= _cards_in_text(name, rules) | cards_named(value, rules, phase, name)
        return found
    found = set()
    for value in message:
        found |= cards_named(value, rules, phase, key)
    return found


def _mask(cards: Any) -> CardMask:
    mask = 0
    for card in cards:
        if card >= 0:
            mask |= 1 << card
    return mask


def played_cards(hand: HandState) -> CardMask:
    plays = [play for trick in hand.tricks for play in trick.plays] + list(hand.current_trick())
    return _mask(action_card(action) for _, action in plays)


def face_up(hand: HandState) -> CardMask:
    """The cards lying face up for everyone: the open misère (a misère with
    wilkinson_misere), Shields double and patastrophe hands after the first trick, a
    claiming contractor's, the open_eight cards on the table and those moved to the kitty,
    the two-player dummies' face-up cards."""
    rules = hand.rules
    shown = 0
    contract = hand.contract
    if hand.claim_trick >= 0 or (
        hand.tricks
        and (
            contract in (OPEN_MISERE, SHIELDS_DOUBLE)
            or (contract == MISERE and rules.wilkinson_misere)
        )
    ):
        shown |= hand.hands[hand.contractor]
    elif hand.tricks and contract == PATASTROPHE:
        for seat in (hand.contractor, *hand.partners):
            shown |= hand.hands[seat]
    if rules.open_eight:
        shown |= hand.hands[TABLE_SEAT] | hand.table_kitty
    for dummy in dummy_seats(rules):
        shown |= hand.hands[dummy] & hand.face_up[dummy]
    return shown


def public(table: Table) -> CardMask:
    """What anyone may see now: the cards face up, the cards played this hand (and in the
    hand just finished, whose last trick and result are still shown), the card called."""
    hand = table.game.hand
    seen = face_up(hand) | played_cards(hand) | _mask([hand.called_card])
    if table.game.finished_hands:
        seen |= played_cards(table.game.finished_hands[-1])
    return seen


def own(hand: HandState, seat: int) -> CardMask:
    """What the player deciding for ``seat`` holds or has seen alone: its hand (a dummy's
    controller's, with two players), the kitty and its discards once it is the contractor,
    the card drawn (draw_pack), the face-up card taken (open_eight)."""
    rules = hand.rules
    player = controller_of(rules, seat)
    seen = hand.hands[player]
    if hand.contractor >= 0 and controller_of(rules, hand.contractor) == player:
        seen |= hand.hands[hand.contractor] | hand.discards | hand.kitty_dealt
    if player == controller_of(rules, max(hand.to_move, 0)) and hand.drawn >= 0:
        seen |= 1 << hand.drawn
    if rules.open_eight and hand.table_card >= 0 and player == 1 - hand.contractor:
        seen |= 1 << hand.table_card
    return seen


def message(table: Table, seat: int) -> dict[str, Any]:
    """What the server sends a connection (web/live/state.py ``LiveTable.view``): the view, the
    kitty, the last trick and the hand's result."""
    return {
        "view": views.observation_json(table, seat),
        "kitty": views.kitty_cards(table, seat),
        "last_trick": views.last_trick(table),
        "hand_result": views.hand_result(table),
    }


def _choose(table: Table, rng: random.Random, turn: int) -> int:
    """A random legal action, the rarer contracts (taking turns) and a claim favoured, so
    that hands lie face up often."""
    legal = table.legal_actions()
    hand = table.game.hand
    if table.rules.slam_call and hand.phase == "auction":  # a 7-level contract
        sevens = [a for a in legal if is_call(a) and bid_tricks(a) == 7]
        return rng.choice(sevens) if sevens else PASS
    rare = [a for a in legal if a in MISERE_CONTRACTS or a in HOUSE_CONTRACTS or a in (CLAIM, SLAM)]
    bid = any(call in MISERE_CONTRACTS or call in HOUSE_CONTRACTS for _, call in hand.auction.calls)
    if hand.phase == "auction" and bid and PASS in legal:
        return PASS  # one is bid: let it stand
    if rare and rng.random() < 0.6:
        return rare[turn % len(rare)]
    return rng.choice(legal)


def _cases() -> list[Rules]:
    cases = [make_rules(name) for name in PRESETS]
    values = {"target": 10, "scoring_table": "perfect"}
    for variant in VARIANTS:
        for name in PRESETS:
            try:
                cases.append(make_rules(name, {variant: values.get(variant, True)}))
            except RulesError:
                continue
            break
    return cases


def _names(cards: CardMask, rules: Rules) -> list[str]:
    from fivehundred.cards import card_text

    return [card_text(card, rules.joker_names) for card in iter_cards(cards)]


def test_no_view_names_a_card_its_seat_may_not_see() -> None:
    phases: set[str] = set()
    exposed_contracts: set[int] = set()
    checked = 0
    for number, rules in enumerate(_cases()):
        for game_number in range(2):
            rng = random.Random(number * 10 + game_number)
            table = Table(rules, ["human"] * rules.players, number * 10 + game_number)
            while not table.is_over and table.hand_number <= 2:
                hand = table.game.hand
                phase = hand.phase
                phases.add(phase)
                everyone = public(table)
                for seat in [SPECTATOR, *range(rules.players)]:
                    allowed = everyone | (own(hand, seat) if seat != SPECTATOR else 0)
                    named = _mask(cards_named(message(table, seat), rules, phase))
                    assert not named & ~allowed, (
                        rules.describe() if hasattr(rules, "describe") else rules,
                        phase,
                        seat,
                        _names(named & ~allowed, rules),
                    )
                    checked += 1
                for seat in range(rules.seats):  # the external-player protocol, dummies too
                    allowed = everyone | own(hand, seat)
                    obs = table.observation(seat)
                    named = _mask(cards_named(obs.to_json(), rules, phase, ""))
                    # The cards dealt (the terminal marks the kitty's by them): a player's
                    # own only; a dummy's or a dead hand's may lie face down.
                    dealt = hand.dealt[seat] if seat < rules.players else 0
                    assert not obs.dealt & ~(allowed | dealt), (rules, phase, seat)
                    assert not named & ~allowed, (
                        rules,
                        phase,
                        seat,
                        _names(named & ~allowed, rules),
                    )
                assert table.observation(SPECTATOR).dealt == 0
                # The cards everyone may see are in the spectator's view.
                watching = _mask(cards_named(message(table, SPECTATOR)["view"], rules, phase))
                shown = face_up(hand) | played_cards(hand)
                assert shown & ~watching == 0, (rules, phase, _names(shown & ~watching, rules))
                if face_up(hand) & ~_mask(dummy_seats_cards(hand)):
                    exposed_contracts.add(hand.contract)
                table.apply(table.to_move, _choose(table, rng, game_number + table.hand_number))
    assert phases >= set(PHASES) - {DONE}, set(PHASES) - phases
    assert {OPEN_MISERE, SHIELDS_DOUBLE, PATASTROPHE} <= exposed_contracts, exposed_contracts
    assert checked > 10000
    assert DISCARD in phases and ALONE_CONTRACTS


def dummy_seats_cards(hand: HandState) -> list[int]:
    return [
        card
        for dummy in dummy_seats(hand.rules)
        for card in iter_cards(hand.hands[dummy] & hand.face_up[dummy])
    ]
