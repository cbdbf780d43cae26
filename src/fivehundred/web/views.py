"""What each connection is sent: a seat's view, or a spectator's.

Both are the engine's own :class:`~fivehundred.observation.Observation` (built by
:func:`~fivehundred.observation.observe`, a spectator's from the public facts only, never a
seat's view with fields removed), with what the page says added here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache
from typing import Any

from fivehundred.actions import (
    JOKER_LEAD_BASE,
    action_card,
    action_text,
    bid_action,
    is_bid,
    is_suit_bid,
    joker_lead_action,
    parse_call,
    plays_alone,
)
from fivehundred.auction import Auction
from fivehundred.cards import JokerNames, cards_of, mask_text, parse_card
from fivehundred.errors import FiveHundredError, IllegalActionError, Refusal
from fivehundred.game import HandResult, controller_of
from fivehundred.observation import SPECTATOR as SPECTATOR  # (the web names it views.SPECTATOR)
from fivehundred.observation import Observation
from fivehundred.rules import Rules
from fivehundred.scoring import side_of_seats
from fivehundred.table import Table
from fivehundred.words import (
    CALLED,
    INVITE_WORDS,
    OPPONENT,
    YOU,
    action_label,
    card_words,
    contract_label,
    display_context,
    dummy_name,
    error_text,
    hand_order,
    observation_prompt,
    pack_words,
    place_name,
    point_parts_text,
    points_line,
    rule_490_note,
    seat_name,
    seat_offer,
    sides_named,
    sitting_out_note,
)
from fivehundred.words import RELATION_WORDS as RELATION_WORDS
from fivehundred.words import seat_relations as side_relations


@lru_cache(maxsize=64)
def allowed_calls(rules: Rules) -> tuple[str, ...]:
    """The calls other than pass and the suit bids that these rules ever make legal, in
    action order: asked of the auction itself, at its first call and after a bid of 7
    (misère may need one)."""
    opening = Auction(rules, dealer=0)
    legal = set(opening.legal_calls())
    opening.apply(bid_action(7, 0))
    legal.update(opening.legal_calls())
    return tuple(
        action_text(call) for call in sorted(legal) if is_bid(call) and not is_suit_bid(call)
    )


class _Labels(dict[int, str]):
    """Each action's label (:func:`fivehundred.words.action_label`) under one joker
    naming, worked out once."""

    def __init__(self, two: JokerNames) -> None:
        super().__init__()
        self.two = two

    def __missing__(self, action: int) -> str:
        label = self[action] = action_label(action, self.two)
        return label


@lru_cache(maxsize=8)
def _labels(two: JokerNames) -> _Labels:
    return _Labels(two)


class _Texts(dict[int, str]):
    """Each action's record notation (:func:`fivehundred.actions.action_text`) under one
    joker naming, worked out once."""

    def __init__(self, two: JokerNames) -> None:
        super().__init__()
        self.two = two

    def __missing__(self, action: int) -> str:
        text = self[action] = action_text(action, self.two)
        return text


@lru_cache(maxsize=8)
def _texts(two: JokerNames) -> _Texts:
    return _Texts(two)


def seat_observation(table: Table, seat: int) -> Observation:
    """``seat``'s observation; with two players, while the seat's own dummy is to move, the
    dummy's (whose legal actions are the seat's to make)."""
    moving = table.seat_to_move
    if moving >= 0 and moving != seat and controller_of(table.rules, moving) == seat:
        return table.observation(moving)
    return table.observation(seat)


def observation_json(
    table: Table, seat: int, public: dict[str, Any] | None = None
) -> dict[str, Any]:
    """The view of a seat (its observation, with what the page says) or of a spectator
    (:data:`~fivehundred.observation.SPECTATOR`: the public facts only). ``public``: the
    spectator's view of the table as it is now, where it is built already (a new view for
    every seat): what every seat sees alike is then taken from it, and only what is the
    seat's own (:data:`SEAT_KEYS`) is built from the seat's observation."""
    if seat == SPECTATOR:
        if public is not None:
            return dict(public)
        observation = table.observation(SPECTATOR)
        view = observation.to_json()
        view["legal_labels"], view["refusals"], view["prompt"] = {}, {}, None
        page_words(view, observation)
        return view
    observation = seat_observation(table, seat)
    if public is None:
        view = observation.to_json()
        page_words(view, observation)
    else:
        view = dict(public)
        _seat_facts(view, observation)
        _seat_words(view, observation)
    two = observation.rules.joker_names
    labels = _labels(two)
    view["legal_labels"] = {
        action_text(action, two): labels[action] for action in observation.legal
    }
    view["refusals"] = refusals(table, observation)
    view["prompt"] = prompt_text(observation)
    if observation.seat != seat:
        # Its dummy moves: the player's own hand too, from the player's own observation.
        own = table.observation(seat)
        view["own_hand"] = hand_texts(own.hand, own)
        view["card_words"].update(card_word_map(own.hand, own))
    return view


#: The keys of a view that differ from seat to seat (each from the seat's own
#: observation: :meth:`~fivehundred.observation.Observation.to_json` and
#: :func:`page_words`); every other key is the same for every seat and for a spectator.
SEAT_KEYS = (
    "seat",
    "partners",
    "legal",
    "discards",
    "drawn",
    "hand",
    "exposed",
    "card_words",
    "legal_labels",
    "refusals",
    "prompt",
)


def _seat_facts(view: dict[str, Any], observation: Observation) -> None:
    """The seat's own facts of :meth:`~fivehundred.observation.Observation.to_json`, in its
    notation (the hand and the face-up cards: :func:`_seat_words`)."""
    two = observation.rules.joker_names
    names = _card_names(two, observation.trump)
    texts = _texts(two)
    view["seat"] = None if observation.seat == SPECTATOR else observation.seat
    view["partners"] = list(observation.partners)
    view["legal"] = [texts[action] for action in observation.legal]
    view["discards"] = [names[card][0] for card in cards_of(observation.discards)]
    view["drawn"] = texts[observation.drawn] if observation.drawn >= 0 else None


def hand_texts(mask: int, observation: Observation) -> list[str]:
    """Cards in the one display order (:func:`fivehundred.words.hand_order`)."""
    return list(
        _ordered_texts(
            mask,
            observation.contract,
            observation.joker_suits,
            observation.rules.j5_no_trumps,
            observation.rules.joker_names,
        )
    )


@lru_cache(maxsize=4096)
def _ordered_texts(
    mask: int, contract: int, joker_suits: tuple[int, int], j5: bool, two: JokerNames
) -> tuple[str, ...]:
    """:func:`hand_texts` worked out once per hand and display order: a seat's hand is
    sent again after every other seat's action (one view per seat per action)."""
    ctx = display_context(contract, joker_suits, j5)
    return tuple(action_text(card, two) for card in hand_order(mask, ctx))


class _CardNames(dict[int, tuple[str, str]]):
    """Each card's record notation and its words (:func:`fivehundred.words.card_words`)
    under one joker naming and trump suit, worked out once (every view names its cards)."""

    def __init__(self, two: JokerNames, trump: int) -> None:
        super().__init__()
        self.two, self.trump = two, trump

    def __missing__(self, card: int) -> tuple[str, str]:
        named = self[card] = (action_text(card, self.two), card_words(card, self.two, self.trump))
        return named


@lru_cache(maxsize=64)
def _card_names(two: JokerNames, trump: int) -> _CardNames:
    return _CardNames(two, trump)


def card_word_map(mask: int, observation: Observation) -> dict[str, str]:
    """Each card of ``mask`` in words for a screen reader (bowers named)."""
    names = _card_names(observation.rules.joker_names, observation.trump)
    return dict(names[card] for card in cards_of(mask))


def page_words(view: dict[str, Any], observation: Observation) -> None:
    """What the page says and draws that the rules decide, added to a view: the hand and
    the face-up cards in the one display order, the contract's and each call's label, the
    trump suit, and the words of every card the view shows (only cards it already names)."""
    two = observation.rules.joker_names
    view["contract_label"] = (
        contract_label(observation.contract, two) if observation.contract >= 0 else None
    )
    labels = _labels(two)
    view["auction_labels"] = [labels[call] for _, call in observation.auction]
    view["trump"] = "SCDH"[observation.trump] if 0 <= observation.trump < 4 else None
    _seat_words(view, observation)


def _seat_words(view: dict[str, Any], observation: Observation) -> None:
    """The part of :func:`page_words` that is the seat's own: its hand, the face-up cards
    it sees, and the words of every card it is shown."""
    view["hand"] = hand_texts(observation.hand, observation)
    view["exposed"] = {
        str(seat): hand_texts(mask, observation) for seat, mask in observation.exposed
    }
    shown = observation.hand | observation.played | observation.discards
    for _, mask in observation.exposed:
        shown |= mask
    for _, action in observation.trick:
        shown |= 1 << action_card(action)
    if observation.called_card >= 0:
        shown |= 1 << observation.called_card
    view["card_words"] = card_word_map(shown, observation)


def last_trick(table: Table) -> dict[str, Any] | None:
    """The last completed trick of the hand in progress, or of the hand just finished."""
    game = table.game
    hand = game.hand
    if not hand.tricks and not hand.history and game.finished_hands:
        hand = game.finished_hands[-1]
    if not hand.tricks:
        return None
    two = table.rules.joker_names
    plays, winner = hand.tricks[-1]
    names = _card_names(two, hand.trump)
    return {
        "plays": [[seat, action_text(a, two)] for seat, a in plays],
        "winner": winner,
        "words": dict(names[action_card(a)] for _, a in plays),
    }


def hand_result(table: Table, names: list[str] | None = None) -> dict[str, Any] | None:
    """The hand just finished (until the next hand's first action), else None; with the
    table's ``names`` (:func:`table_names`), each side's points in words (``points_words``:
    a total the 490 rule held says so); and what each side's points are made of
    (``points_parts``, :func:`points_parts`: the further 100 of a failed slam call or a
    wrong claim named)."""
    game = table.game
    if not game.finished_hands or (not game.is_over and game.hand.history):
        return None
    hand = game.finished_hands[-1]
    result = hand.result
    return {
        "hand": len(game.finished_hands),
        "contract": action_text(result.contract, table.rules.joker_names)
        if result.contract >= 0
        else None,
        "contract_label": contract_label(result.contract, table.rules.joker_names)
        if result.contract >= 0
        else None,
        "contractor": result.contractor if result.contractor >= 0 else None,
        "made": result.made,
        "tricks_won": list(result.tricks_won),
        "points": list(result.points),
        "scores": list(game.score_history[-1]),
        "points_words": points_words(table, names) if names is not None else None,
        "points_parts": points_parts(table.rules, result),
    }


def points_parts(rules: Rules, result: HandResult) -> list[str]:
    """One string a side: what its points of the finished hand ``result`` are made of, part
    by part (:func:`fivehundred.words.point_parts_text`: ``7♦ failed -180, the failed slam
    call, a further -100``, ``4 tricks at 10 +40``); "" for a side that scored nothing. The
    hand summary and the score sheet draw these; the terminal says the same words."""
    return [
        point_parts_text(result.score.parts, side, result.contract, result.made, rules.joker_names)
        for side in range(len(result.points))
    ]


def points_words(table: Table, names: list[str]) -> list[str]:
    """Each side's points for the hand just finished, named (:func:`side_names_of`'s
    names), with why a total rose by less than the hand's points
    (:func:`fivehundred.words.points_line`)."""
    game = table.game
    after = game.score_history[-1]
    before = game.score_history[-2] if len(game.score_history) > 1 else [0] * len(after)
    points = game.finished_hands[-1].result.points
    sides = sides_named(table.rules, names)
    cap = table.rules.target - 10
    return [
        points_line(sides[side], points[side], before[side], after[side], cap)
        for side in range(len(after))
    ]


def rule_490_words(rules: Rules) -> str | None:
    """The 490 rule in words with this table's figure, or None where it does not apply
    (turned off, or points of a failed contract go to the opponents)."""
    if not rules.rule_490 or rules.failed_to_opponents:
        return None
    return rule_490_note(rules.target)


def player_relations(rules: Rules, viewer: int) -> list[str]:
    """How each player's seat stands to the player ``viewer``: the vocabulary's relation
    from the rules' sides (:func:`fivehundred.words.seat_relations`: ``you``, ``partner``,
    ``opponent``), where partners are called each hand (five players) ``called`` instead of
    ``opponent``: nobody is a plain opponent before the contractor calls a card. The lobby
    (:func:`seating`) and the table (:func:`seat_relations`) both say these: one rule."""
    relations = side_relations(side_of_seats(rules)[: rules.players], viewer)
    if rules.called_partner:
        relations = [CALLED if relation == OPPONENT else relation for relation in relations]
    return relations


def seat_relations(rules: Rules, seat: int) -> list[dict[str, str]] | None:
    """How every seat of the table stands to ``seat`` (:func:`player_relations`: ``you``,
    ``partner``, ``opponent``, ``called``; a dummy as its owner; "" for a seat that is
    nobody's), with the word the page shows for it (:data:`RELATION_WORDS`, the lobby's);
    None for a spectator."""
    if seat == SPECTATOR or seat < 0:
        return None
    return [{"key": key, "word": word} for key, word in _seat_relation_words(rules, seat)]


@lru_cache(maxsize=256)
def _seat_relation_words(rules: Rules, seat: int) -> tuple[tuple[str, str], ...]:
    relations = player_relations(rules, seat)
    out = []
    for other, controller in enumerate(seat_controllers(rules)):
        key = "" if controller is None else relations[controller]
        if key == YOU and other != seat:
            key = ""  # (one's own dummy: named by the seat's own name)
        out.append((key, RELATION_WORDS.get(key, "")))
    return tuple(out)


def seat_offers(rules: Rules, seated: list[tuple[str, str | None]]) -> dict[str, str]:
    """What each open seat's button says (``Sit as Ann's partner``), by the people
    already at the table (``seated``: each seat's kind and name), or by the computers where
    no person sits yet; at an empty table, one seat offered (``Take a seat``); where partners
    are called each hand, no seat is offered as an opponent's (:func:`player_relations`)."""
    sides = side_of_seats(rules)
    people = [name if kind == "person" else None for kind, name in seated]
    if not any(people):
        people = [name if kind != "open" else None for kind, name in seated]
    offers = {
        str(seat): seat_offer(sides, seat, people, rules.called_partner)
        for seat, (kind, _) in enumerate(seated)
        if kind == "open"
    }
    if offers and not any(people):
        # Nobody at the table yet: every seat is the same to the first to come; one button.
        first = min(offers, key=int)
        return {first: offers[first]}
    return offers


def sitting_out(table: Table, names: list[str]) -> dict[str, Any] | None:
    """The partners who play no card this hand (the contractor plays alone: misère,
    hi/lo, a slam call), and why, once the contract stands; None otherwise."""
    hand = table.game.hand
    if hand.contract < 0 or hand.contractor < 0:
        return None
    if not (plays_alone(hand.contract) or hand.slam):
        return None
    sides = side_of_seats(table.rules)
    out = [
        s
        for s in table.rules.live_seats
        if s != hand.contractor and sides[s] == sides[hand.contractor]
    ]
    if not out:
        return None
    cards = len(table.rules.live_seats) - len(out)
    label = contract_label(hand.contract, table.rules.joker_names)
    return {
        "seats": out,
        "notes": [
            sitting_out_note(names[s], names[hand.contractor], label, hand.slam, cards) for s in out
        ],
    }


def kitty_cards(table: Table, seat: int) -> list[str] | None:
    """The kitty's cards in the contractor's own view while it discards."""
    hand = table.game.hand
    if (
        seat == SPECTATOR
        or hand.phase != "discard"
        or seat != controller_of(table.rules, hand.contractor)
    ):
        return None
    return mask_text(hand.kitty_dealt, table.rules.joker_names)


def auction_seats(table: Table) -> list[int]:
    return [seat for seat, _ in table.game.hand.auction.calls]


def auction_order(table: Table) -> list[int]:
    """The seats that bid, in their order from the dealer's left (the auction's columns)."""
    return list(table.game.hand.auction.bidders)


@lru_cache(maxsize=64)
def allowed_call_labels(rules: Rules) -> tuple[str, ...]:
    """The label of each of :func:`allowed_calls`, in its order."""
    two = rules.joker_names
    return tuple(action_label(parse_call(call), two) for call in allowed_calls(rules))


def display_names(names: list[str]) -> list[str]:
    """One name per seat, the same on every page: the person's or the computer player's
    name, with the seat's number where two seats share it (``medium 2``, ``medium 4``)."""
    return [
        f"{name} {seat + 1}" if names.count(name) > 1 else name for seat, name in enumerate(names)
    ]


@lru_cache(maxsize=64)
def card_words_of(rules: Rules) -> dict[str, dict[str, str]]:
    """:func:`fivehundred.words.pack_words` of ``rules``, worked out once per rules."""
    return pack_words(rules)


def table_names(rules: Rules, names: list[str]) -> list[str]:
    """A name for every seat of the table: the players' (:func:`display_names`), then the
    seats that are no player's as the vocabulary names them (``Ann's dummy``, ``Stock``,
    ``Dead hand``: :func:`fivehundred.words.place_name`)."""
    shown = display_names(names)
    for seat in range(rules.players, rules.seats):
        place = place_name(rules, seat)
        shown.append(place or dummy_name(shown[controller_of(rules, seat)]))
    return shown


@lru_cache(maxsize=64)
def seat_controllers(rules: Rules) -> tuple[int | None, ...]:
    """For every seat of the table, the player who decides for it (a two-handed dummy: the
    player opposite, R-PLAYERS), or None for a seat that is nobody's (the stock, the dead
    hand, the face-up cards): the page reads whose cards are whose from this, not from
    the seat numbers."""
    return tuple(
        seat if seat < rules.players else controller_of(rules, seat) if rules.dummies else None
        for seat in range(rules.seats)
    )


def undo_open(table: Table, seat: int) -> bool:
    """Whether ``seat`` has a decision of the hand in progress to take back now (the web
    table takes back nothing of a finished hand): the page offers Undo only then."""
    if seat < 0 or table.game.is_over:
        return False
    point = table.undo_point(seat)
    return point is not None and point[0] == len(table.game.finished_hands)


def side_names_of(rules: Rules, names: list[str]) -> list[str]:
    """Each side named by its players as the table names them (``Ann & medium 2``)."""
    return sides_named(rules, table_names(rules, names))


def prompt_text(observation: Observation) -> str | None:
    """What the seat is asked to do now (:func:`fivehundred.words.prompt`), or None when it
    is not its turn."""
    if not observation.legal:
        return None
    return observation_prompt(observation)


def refusals(table: Table, observation: Observation) -> dict[str, str]:
    """Why each card of the hand that may not be played now is refused, in card language
    (the engine's own refusal, said by :func:`fivehundred.words.error_text`); empty when it
    is not this seat's turn to play a card."""
    hand = table.game.hand
    if hand.phase != "play" or not observation.legal or observation.seat != table.seat_to_move:
        return {}
    two = observation.rules.joker_names
    legal_cards = {action_card(action) for action in observation.legal}
    reasons: dict[str, str] = {}
    refused = [card for card in cards_of(observation.hand) if card not in legal_cards]
    for card, error in zip(refused, table.refusals(table.to_move, refused), strict=True):
        if isinstance(error, IllegalActionError) and error.why == Refusal.JOKER_NEEDS_SUIT:
            # A free joker led as no suit it may be led as now: the reason for the first.
            error = table.refusal(table.to_move, joker_lead_action(card, 0))
        reasons[action_text(card, two)] = (
            error_text(error, two, rule=False, trump=observation.trump)
            if error
            else "This card may not be played now"
        )
    return reasons


def seating(rules: Rules, viewer: int | None = None) -> list[dict[str, Any]]:
    """Who sits with whom, from the rules' sides (:func:`fivehundred.scoring.side_of_seats`),
    one entry a player's seat: its place (``North``), its side (a number: the pages colour
    the sides by it) and its partners' seats; with ``viewer`` (a seat) also its
    ``relation`` to that seat (``you``, ``partner``, ``opponent``, ``called`` where a
    partner is called each hand) and the words for it (``relation_words``, and for an open
    seat the person inviting is offered, ``invite_words``). The lobby's list and form and
    the table page draw these; no page works out the sides itself."""
    sides = side_of_seats(rules)[: rules.players]
    relations = player_relations(rules, viewer) if viewer is not None else None
    entries = []
    for seat, side in enumerate(sides):
        entry: dict[str, Any] = {
            "seat": seat,
            "place": seat_name(seat, rules.seats),
            "side": side,
            "partners": [s for s, other in enumerate(sides) if other == side and s != seat],
        }
        if relations is not None:
            relation = relations[seat]
            entry["relation"] = relation
            entry["relation_words"] = RELATION_WORDS[relation]
            if relation in INVITE_WORDS:
                entry["invite_words"] = INVITE_WORDS[relation]
        entries.append(entry)
    return entries


def hint_observation(observation: Observation, marked: Sequence[str]) -> Observation:
    """The contractor's observation as it will be once the discards they have marked (not
    yet sent) are made, so that a hint names another card; ``observation`` itself outside
    the discard, or with nothing marked. :class:`ValueError` for marks that are not the
    hand's cards, or more than the discards still to make."""
    if observation.phase != "discard" or not marked:
        return observation
    if len(marked) >= observation.discards_left:
        raise ValueError("every discard is chosen: press Discard, or put a card back first")
    mask = 0
    for text in marked:
        try:
            card = parse_card(text)
        except FiveHundredError:
            raise ValueError(f"hint: {text!r} is not a card") from None
        if not observation.hand >> card & 1:
            raise ValueError(f"hint: {text!r} is not in the hand")
        mask |= 1 << card
    sizes = list(observation.hand_sizes)
    sizes[observation.seat] -= mask.bit_count()
    return replace(
        observation,
        hand=observation.hand & ~mask,
        discards=observation.discards | mask,
        discards_left=observation.discards_left - mask.bit_count(),
        legal=tuple(a for a in observation.legal if not (a < JOKER_LEAD_BASE and mask >> a & 1)),
        hand_sizes=tuple(sizes),
    )
