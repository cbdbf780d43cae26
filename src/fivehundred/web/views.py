"""What each connection is sent: a seat's view, or a spectator's built from public facts.

A seat's view is the engine's own :class:`~fivehundred.observation.Observation` of that
seat. A spectator's is built here from the public part of the hand only (the calls, the
cards played, hands lying face up); it is never a seat's view with fields removed.
"""

from __future__ import annotations

from typing import Any

from fivehundred.actions import action_text
from fivehundred.cards import mask_text
from fivehundred.game import HandState, controller_of, dummy_seats
from fivehundred.observation import Observation
from fivehundred.scoring import side_of_seats
from fivehundred.table import Table

SPECTATOR = -1


def public_observation(state: HandState, scores: tuple[int, ...]) -> Observation:
    """The hand as anyone watching may see it: no hand, no discards, no legal actions;
    the open-misère hand after the first trick and the dummies' face-up cards."""
    exposed = [(seat, state.hands[seat]) for seat in state.exposed_seats]
    if state.rules.dummies:
        exposed += [
            (seat, state.hands[seat] & state.face_up[seat]) for seat in dummy_seats(state.rules)
        ]
    return Observation(
        rules=state.rules,
        seat=SPECTATOR,
        dealer=state.dealer,
        phase=state.phase,
        to_move=state.to_move,
        hand=0,
        auction=tuple(state.auction.calls),
        contract=state.contract,
        contractor=state.contractor,
        partners=state.partners if state.partner_revealed else (),
        active=state.active,
        joker_suits=(state.joker_suits[0], state.joker_suits[1]),
        trump=state.trump,
        tricks=tuple((trick.plays, trick.winner) for trick in state.tricks),
        trick=tuple(state.current_trick()),
        led_suit=state.led_suit if state.trick_cards else -1,
        legal=(),
        tricks_won=tuple(state.tricks_won),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        exposed=tuple(exposed),
        discards=0,
        played=state.played,
        voids=tuple(state.void_shown),
        suits_led=state.suits_led,
        scores=scores,
        called_card=state.called_card,
        sides=side_of_seats(state.rules),
    )


def seat_observation(table: Table, seat: int) -> Observation:
    """``seat``'s observation; with two players, while the seat's own dummy is to move, the
    dummy's (whose legal actions are the seat's to make)."""
    moving = table.seat_to_move
    if moving >= 0 and moving != seat and controller_of(table.rules, moving) == seat:
        return table.observation(moving)
    return table.observation(seat)


def observation_json(table: Table, seat: int) -> dict[str, Any]:
    """``Observation.to_json()`` for a seat, or the public one for a spectator."""
    if seat == SPECTATOR:
        game = table.game
        observation = public_observation(game.hand, tuple(game.scores))
        view = observation.to_json()
        view["seat"] = None
        return view
    return seat_observation(table, seat).to_json()


def last_trick(table: Table) -> dict[str, Any] | None:
    """The last completed trick of the hand in progress, or of the hand just finished."""
    game = table.game
    hand = game.hand
    if not hand.tricks and not hand.history and game.finished_hands:
        hand = game.finished_hands[-1]
    if not hand.tricks:
        return None
    two = table.rules.two_jokers
    plays, winner = hand.tricks[-1]
    return {"plays": [[seat, action_text(a, two)] for seat, a in plays], "winner": winner}


def hand_result(table: Table) -> dict[str, Any] | None:
    """The hand just finished (until the next hand's first action), else None."""
    game = table.game
    if not game.finished_hands or (not game.is_over and game.hand.history):
        return None
    hand = game.finished_hands[-1]
    result = hand.result
    return {
        "hand": len(game.finished_hands),
        "contract": action_text(result.contract, table.rules.two_jokers)
        if result.contract >= 0
        else None,
        "contractor": result.contractor if result.contractor >= 0 else None,
        "made": result.made,
        "tricks_won": list(result.tricks_won),
        "points": list(result.points),
        "scores": list(game.score_history[-1]),
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
    return mask_text(hand.kitty_dealt, table.rules.two_jokers)


def auction_seats(table: Table) -> list[int]:
    return [seat for seat, _ in table.game.hand.auction.calls]
