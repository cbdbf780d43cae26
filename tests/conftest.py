"""Helpers for hand-built positions: deals written as card strings, actions as record text.

Positions in the tests are written the way a reader checks them against the rule book
(docs/rules.md)::

    state = deal_hand(AUS, dealer=0, hands=["JH JD AH ...", ...], kitty="4S 5C 6D")
    apply_text(state, "7H pass pass pass")      # the auction
    apply_text(state, "4S 5C 6D")               # the contractor's discards
    apply_text(state, "JH 4D ...")              # the play

``deal_hand`` fills any hand given with fewer than ten cards (and a missing kitty) from the
cards of the pack that nobody was given, lowest first, so that a test names only the cards
that matter to it.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from fivehundred.actions import Action, action_text, parse_action
from fivehundred.cards import CardMask, iter_cards, mask_of, mask_text, parse_card
from fivehundred.game import HandState
from fivehundred.rules import Rules, make_rules

# The web servers the tests start (in process or as `fivehundred serve`) review no finished
# game in the background (CPU); the one test of the reviews switches it on.
os.environ["FIVEHUNDRED_REVIEW_GAMES"] = "0"

AUS = make_rules("australian")
AMERICAN = make_rules("american")

#: The golden records: worked hands and games with their results (tests/data/README.md).
GOLDEN = Path(__file__).resolve().parent / "data"


def rules(preset: str = "australian", **variants: Any) -> Rules:
    """``rules("australian", eldest_leads=True)``."""
    return make_rules(preset, variants)


def cards(text: str | Sequence[str]) -> list[int]:
    """``"AH 10D JK"`` (or a list of tokens) as cards."""
    tokens = text.split() if isinstance(text, str) else list(text)
    return [parse_card(token) for token in tokens]


def mask(text: str | Sequence[str]) -> CardMask:
    """``"AH 10D JK"`` as a card bitmask."""
    return mask_of(cards(text))


def texts(card_mask: CardMask, two_jokers: bool = False) -> set[str]:
    """A card bitmask as a set of record texts, for readable assertions."""
    return set(mask_text(card_mask, two_jokers))


def fill_deal(
    game_rules: Rules,
    hands: Sequence[str] | Mapping[int, str],
    kitty: str | None = None,
) -> tuple[list[CardMask], CardMask]:
    """Complete a partial deal from the unused cards of the pack, lowest card first.

    ``hands`` is a list (seat order) or a ``{seat: cards}`` mapping; each hand may name
    fewer than ten cards. The kitty, if given, must be complete.
    """
    pack = game_rules.pack
    seats = game_rules.seats
    given = dict(enumerate(hands)) if not isinstance(hands, Mapping) else dict(hands)
    masks = [mask(given.get(seat, "")) for seat in range(seats)]
    kitty_mask = mask(kitty) if kitty is not None else 0
    used = kitty_mask
    for seat_mask in masks:
        assert not used & seat_mask, "a card is given twice"
        used |= seat_mask
    assert used & ~pack.cards == 0, f"not in the pack: {mask_text(used & ~pack.cards)}"
    spare = list(iter_cards(pack.cards & ~used))
    for seat in range(seats):
        while masks[seat].bit_count() < pack.hand_size:
            masks[seat] |= 1 << spare.pop(0)
        assert masks[seat].bit_count() == pack.hand_size, f"seat {seat} has too many cards"
    if kitty is None:
        for card in spare:
            kitty_mask |= 1 << card
        spare = []
    assert not spare, f"cards left over: {mask_text(mask_of(spare))}"
    assert kitty_mask.bit_count() == pack.kitty_size
    return masks, kitty_mask


def deal_hand(
    game_rules: Rules,
    dealer: int,
    hands: Sequence[str] | Mapping[int, str],
    kitty: str | None = None,
) -> HandState:
    """A :class:`HandState` about to be bid, with these cards (filled as :func:`fill_deal`)."""
    masks, kitty_mask = fill_deal(game_rules, hands, kitty)
    return HandState(game_rules, dealer, masks, kitty_mask)


def apply_text(state: HandState, text: str) -> HandState:
    """Apply space-separated actions in record notation, each parsed in the current phase."""
    for token in text.split():
        state.apply(parse_action(token, state.phase))
    return state


def act(state: HandState, token: str) -> None:
    """Apply one action in record notation."""
    state.apply(parse_action(token, state.phase))


def legal_texts(state: HandState) -> set[str]:
    """The legal actions of the player to move, in record notation."""
    two = state.rules.two_jokers
    return {action_text(action, two) for action in state.legal_actions()}


def action(text: str, phase: str | None = None) -> Action:
    return parse_action(text, phase)


def load_golden(name: str) -> list[dict[str, Any]]:
    """A golden file of tests/data/. A missing file fails rather than skips, so that the
    goldens can never silently stop being checked."""
    path = GOLDEN / name
    assert path.exists(), f"golden records not found at {path}"
    data: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    return data


def revoke_record(index: int = 13, game_rules: Rules = AUS) -> tuple[dict[str, Any], str]:
    """A complete random hand's record cut at ``play[index]``, where a card the player holds
    but may not play (a revoke) is put instead. Returns the record and that card."""
    from fivehundred.cards import JOKERS_MASK
    from fivehundred.record import hand_record, random_hand, replay_record

    for seed in range(500):
        record = hand_record(random_hand(game_rules, seed))
        if len(record["play"]) <= index:
            continue
        record["play"] = record["play"][:index]
        _, state = replay_record(record)
        assert isinstance(state, HandState) and state.phase == "play"
        held = state.hands[state.to_move] & ~JOKERS_MASK
        illegal = held & ~state.legal_card_mask()
        if illegal:
            card = mask_text(illegal & -illegal)[0]
            record["play"].append(card)
            return record, card
    raise AssertionError("no revoke position found")
