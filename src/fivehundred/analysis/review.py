"""Review of a finished game for one seat: where were points lost?

``fivehundred analyse --review SEAT RECORD`` goes through every call, discard and card of
``SEAT``:

- **cards**: the double-dummy loss of each card against the best card, in tricks for the
  contracting side, exactly as :func:`fivehundred.analysis.analyse.analyse_hand` counts it
  (its numbers are the same);
- **discards** (the seat's kitty exchange as contractor): the cards kept, the tricks they
  take double dummy from the first lead with the real hands, against the search
  player's discard and the other sensible discards
  (:func:`~fivehundred.bots.simulate.discard_candidates`) on the same cards;
- **calls**: what the search player (``pimc``, seeded from the hand, so the review is the
  same every time) calls in the seat's place, with its own evaluation; a call it would
  not make is listed with its reason.

The costliest few are listed in card language, then the accuracy by phase: the share of
the seat's calls the search player agrees with, of discards and of cards that cost no
trick. Needs the solver (the ``solver`` extra).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from fivehundred.actions import MISERE, PASS, Action, action_text, is_suit_bid
from fivehundred.analysis.analyse import ESTIMATE, analyse_hand, face_down, start_of_play
from fivehundred.bots.heuristic import HeuristicPlayer
from fivehundred.bots.pimc import PimcPlayer
from fivehundred.bots.simulate import (
    auction_reads,
    discard_by_simulation,
    discard_candidates,
    heuristic_discards,
    play_out,
    sample_deal,
    shaded_score,
)
from fivehundred.cards import JOKERS_MASK, CardMask, JokerNames, iter_cards
from fivehundred.game import AUCTION, DISCARD, PLAY, GameState, HandState
from fivehundred.observation import Observation
from fivehundred.scoring import analysed_contract, contract_made
from fivehundred.solver import solve
from fivehundred.text import call_text
from fivehundred.words import play_label, seat_name

#: Sampled deals the search player solves for each call it is asked about in a review.
REVIEW_PIMC = "pimc"
TOP = 5


def _scores_before(game: GameState | None, index: int) -> tuple[int, ...]:
    if game is None or index == 0:
        return ()
    return tuple(game.score_history[index - 1])


def _cards_text(mask: CardMask, two: JokerNames) -> str:
    """Cards in record notation, in card order (``JD JH JK``)."""
    return " ".join(action_text(c, two) for c in iter_cards(mask))


def review_calls(
    hand: HandState, seat: int, scores: Sequence[int], salt: int
) -> list[dict[str, Any]]:
    """Each call of ``seat`` against the search player's call in its place."""
    two = hand.rules.joker_names
    replay = hand.as_dealt()
    out: list[dict[str, Any]] = []
    for action in hand.history:
        if replay.phase != AUCTION:
            break
        if replay.to_move == seat and len(replay.legal_actions()) > 1:
            obs = replay.observation(seat, scores)
            player = PimcPlayer(seed=salt * 1000 + len(replay.history))
            try:
                suggested = player.act(obs)
                why = player.explain()
            except Exception:  # the search player has no opinion here
                suggested, why = action, ""
            points = None
            if suggested != action:
                points = evaluate_calls(obs, [action, suggested], salt + len(replay.history))
            cost = round(points[suggested] - points[action]) if points else None
            out.append(
                {
                    "phase": "call",
                    "seat": seat,
                    "made": action_text(action, two),
                    "points": round(points[action]) if points else None,
                    "suggested_points": round(points[suggested]) if points else None,
                    "cost": cost,
                    "made_text": call_text(action, two),
                    "suggested": action_text(suggested, two),
                    "suggested_text": call_text(suggested, two),
                    "agrees": suggested == action,
                    "why": why,
                }
            )
        replay.apply(action)
    return out


#: Deals sampled to put a number on a call the search player would not make.
CALL_DEALS = 16


def evaluate_calls(
    obs: Observation, calls: Sequence[Action], salt: int
) -> dict[Action, float] | None:
    """Each call's expected points for the seat's side, as the search player values
    calls: on the same :data:`CALL_DEALS` deals sampled to fit the auction, the call taken
    as the contract (the kitty picked up and discarded as the heuristic does) and solved
    double dummy from the first lead, the score shaded as the search player shades it; a
    pass is valued by the contract that stands (none: 0). Four players only; None where a
    call cannot be valued so."""
    rules = obs.rules
    if (
        rules.players != 4
        or rules.seats != 4
        or any(c != PASS and not (is_suit_bid(c) or c == MISERE) for c in calls)
    ):
        return None
    rng = random.Random(salt)
    heuristic = HeuristicPlayer(salt)
    reads = auction_reads(obs)
    bids = [(s, c) for s, c in obs.auction if c != PASS]
    standing = bids[-1] if bids else None
    totals = dict.fromkeys(calls, 0.0)
    for _ in range(CALL_DEALS):
        hands, kitty = sample_deal(obs, reads, rng)
        for call in calls:
            if call == PASS:
                if standing is None:
                    continue
                seat, contract = standing
            else:
                seat, contract = obs.seat, call
            full = hands[seat] | kitty
            played = list(hands)
            played[seat] = full & ~heuristic_discards(heuristic, full, contract, rules)
            if contract == MISERE and played[seat] & JOKERS_MASK:
                tricks = 10
            else:
                tricks = play_out(rules, obs.dealer, seat, contract, played)
            score = shaded_score(contract, tricks, rules)
            totals[call] += score if seat % 2 == obs.seat % 2 else -score
    return {call: total / CALL_DEALS for call, total in totals.items()}


def _start_after(hand: HandState, kept: CardMask) -> int | None:
    """Contracting side's double-dummy total from the first lead had the contractor kept
    ``kept`` (the rest of the hand up to the first lead as made where still legal)."""
    state = hand.as_dealt()
    history = iter(hand.history)
    for action in history:
        if state.phase == DISCARD:
            break
        state.apply(action)
    else:
        return None
    while state.phase == DISCARD:
        throw = state.hands[state.to_move] & ~kept
        if not throw:
            return None
        state.apply(next(iter_cards(throw)))
    rest = [a for a in hand.history[len(state.history) :]]
    for action in rest:
        if state.phase == PLAY:
            break
        legal = state.legal_actions()
        state.apply(action if action in legal else legal[0])
    if state.phase != PLAY:
        return None
    return solve(state)


def review_discard(
    hand: HandState, seat: int, scores: Sequence[int], salt: int
) -> dict[str, Any] | None:
    """The seat's kitty exchange (as contractor) against the sensible alternatives,
    double dummy with the real cards."""
    if hand.contractor != seat or hand.kitty_exchange == 0 or not analysed_contract(hand.contract):
        return None
    two = hand.rules.joker_names
    state = hand.as_dealt()
    for action in hand.history:
        if state.phase == DISCARD:
            break
        state.apply(action)
    if state.phase != DISCARD or state.to_move != seat:
        return None
    full = state.hands[seat]
    discarded = 0
    probe = state.clone()
    for action in hand.history[len(state.history) :]:
        if probe.phase != DISCARD:
            break
        discarded |= 1 << action
        probe.apply(action)
    heuristic = HeuristicPlayer(salt)
    candidates = discard_candidates(heuristic, full, hand.contract, hand.rules)
    why = ""
    try:
        mask, why = discard_by_simulation(
            state.observation(seat, scores), heuristic, 8, random.Random(salt), None, False
        )
        candidates = [mask, *candidates]
    except Exception:
        pass
    misere = hand.is_misere
    totals: dict[CardMask, int] = {}
    for mask in [discarded, *candidates]:
        if mask in totals or mask.bit_count() != discarded.bit_count():
            continue
        total = _start_after(hand, full & ~mask)
        if total is not None:
            totals[mask] = total
    if discarded not in totals:
        return None
    best = (min if misere else max)(totals, key=lambda m: totals[m])
    cost = abs(totals[best] - totals[discarded])
    # R-PLAYERS two_handed: the dummies' face-down cards are counted as known from the
    # first lead (the search cannot do otherwise): the figures are estimates
    exact = not face_down(start_of_play(hand))
    return {
        "exact": exact,
        "phase": "discard",
        "seat": seat,
        "made": _cards_text(discarded, two),
        "tricks": totals[discarded],
        "best": _cards_text(best, two),
        "best_tricks": totals[best],
        "cost": cost,
        "alternatives": {_cards_text(m, two): t for m, t in totals.items()},
        "search_choice": _cards_text(candidates[0], two) if why else None,
        "why": why,
    }


def review_cards(hand: HandState, seat: int) -> tuple[int, list[dict[str, Any]]]:
    """(cards the seat played, the ones that cost tricks), from :func:`analyse_hand`."""
    analysis = analyse_hand(hand)
    played = sum(1 for trick in hand.tricks for s, _ in trick.plays if s == seat)
    played += sum(1 for s in hand.trick_seats if s == seat)
    mistakes = []
    for m in analysis.get("mistakes", []):
        if m["seat"] != seat:
            continue
        entry = {"phase": "card", **m}
        entry["defending"] = seat not in analysis["side"]
        entry["misere"] = hand.is_misere
        contract = hand.contract
        if analysed_contract(contract):
            before_made = contract_made(contract, m["kept"])
            after_made = contract_made(contract, m["after"])
            entry["changed"] = before_made != after_made
        mistakes.append(entry)
    return played, mistakes


def review(replayed: HandState | GameState, seat: int) -> dict[str, Any]:
    """The review of ``seat`` over every hand of a hand or game record."""
    game = replayed if isinstance(replayed, GameState) else None
    hands: list[HandState] = []
    if isinstance(replayed, GameState):
        hands = list(replayed.finished_hands)
        if replayed.hand.history and not replayed.hand.is_over:
            hands.append(replayed.hand)
    else:
        hands = [replayed]
    calls: list[dict[str, Any]] = []
    discards: list[dict[str, Any]] = []
    cards: list[dict[str, Any]] = []
    played = 0
    for index, hand in enumerate(hands):
        scores = _scores_before(game, index)
        salt = 7919 * (index + 1) + seat
        for item in review_calls(hand, seat, scores, salt):
            calls.append({"hand": index + 1, **item})
        discard = review_discard(hand, seat, scores, salt)
        if discard is not None:
            discards.append({"hand": index + 1, **discard})
        if hand.contractor >= 0 and hand.phase in (PLAY, "done") and hand.tricks:
            count, mistakes = review_cards(hand, seat)
            played += count
            cards += [{"hand": index + 1, **m} for m in mistakes]
    costly = sorted(
        [*cards, *[d for d in discards if d["cost"] > 0]],
        key=lambda m: (-int(m.get("changed", False)), -m["cost"], m["hand"]),
    )
    agree = sum(1 for c in calls if c["agrees"])
    return {
        "seat": seat,
        "hands": len(hands),
        "calls": calls,
        "discards": discards,
        "cards": cards,
        "costliest": costly[:TOP],
        "accuracy": {
            "calls": _share(agree, len(calls)),
            "discards": _share(sum(1 for d in discards if d["cost"] == 0), len(discards)),
            "cards": _share(played - len(cards), played),
        },
        "counts": {
            "calls": len(calls),
            "discards": len(discards),
            "cards": played,
            "tricks_lost": sum(m["cost"] for m in cards),
        },
    }


def _share(good: int, total: int) -> float | None:
    return round(good / total, 3) if total else None


def _pct(value: float | None) -> str:
    return "—" if value is None else f"{100 * value:.0f}%"


def _tricks(n: int) -> str:
    return "a trick" if n == 1 else f"{n} tricks"


def item_text(item: dict[str, Any], two: JokerNames = False) -> str:
    """One costly choice in card language."""
    where = f"hand {item['hand']}"
    if item["phase"] == "card":
        card = play_label(item["card"], two)
        best = play_label(item["best"], two)
        if item.get("misere"):
            then = f"with {best} the contractor ends with {_tricks(item['kept'])}"
        elif item.get("defending"):
            then = f"{best} held the contracting side to {item['kept']}"
        else:
            then = f"{best} kept {item['kept']} for the contracting side"
        text = f"{where}, trick {item['trick']}: {card} cost {_tricks(item['cost'])}; {then}"
        if item.get("changed"):
            text += " (the difference between making and failing the contract)"
        if item.get("exact") is False:
            text += f" ({ESTIMATE})"
        return text
    made_cards = " ".join(play_label(card, two) for card in item["made"].split())
    best_cards = " ".join(play_label(card, two) for card in item["best"].split())
    if item.get("exact") is False:  # a dummy's face-down cards: no double-dummy figure
        return (
            f"{where}, discard: throwing {made_cards} kept {_tricks(item['tricks'])} for the "
            f"contract; throwing {best_cards} keeps {item['best_tricks']} ({ESTIMATE})"
        )
    return (
        f"{where}, discard: throwing {made_cards} kept {_tricks(item['tricks'])} for the "
        f"contract double dummy; throwing {best_cards} keeps {item['best_tricks']}"
    )


def review_text(result: dict[str, Any], seats: int = 4, two: JokerNames = False) -> str:
    """Text form of :func:`review`."""
    seat = result["seat"]
    name = seat_name(seat, seats)
    lines = [f"Review of {name} (seat {seat}) over {result['hands']} hand(s)."]
    if result["costliest"]:
        lines.append("Costliest choices:")
        lines += [f"  {item_text(m, two)}" for m in result["costliest"]]
    else:
        lines.append("No card or discard cost a trick against best play.")
    differing = [c for c in result["calls"] if not c["agrees"]]
    if differing:
        lines.append("Calls the search player would not make:")
        ranked = sorted(differing, key=lambda c: (-(c["cost"] or 0), c["hand"]))
        for c in ranked[:TOP]:
            why = f" ({c['why']})" if c["why"] else ""
            lines.append(
                f"  hand {c['hand']}: you called {c['made_text']}; the search player "
                f"calls {c['suggested_text']}{why}"
            )
            if c["cost"] is not None:
                lines.append(
                    f"    on {CALL_DEALS} deals that fit the auction: "
                    f"{c['made_text']} {c['points']:+d} points expected, "
                    f"{c['suggested_text']} {c['suggested_points']:+d}"
                )
    acc = result["accuracy"]
    counts = result["counts"]
    lines.append(
        f"Accuracy: calls {_pct(acc['calls'])} of {counts['calls']} as the search player; "
        f"discards {_pct(acc['discards'])} of {counts['discards']} best; cards "
        f"{_pct(acc['cards'])} of {counts['cards']} without loss "
        f"({_tricks(counts['tricks_lost'])} lost in all)."
    )
    return "\n".join(lines)


def parse_seat(text: str, seats: int) -> int:
    """``0``…``seats-1`` or a seat name (``South``)."""
    names = [seat_name(s, seats).lower() for s in range(seats)]
    if text.lower() in names:
        return names.index(text.lower())
    try:
        seat = int(text)
    except ValueError:
        raise ValueError(f"--review: not a seat: {text!r}") from None
    if not 0 <= seat < seats:
        raise ValueError(f"--review: seat {seat} is not at this table (0 to {seats - 1})")
    return seat


def review_main(replayed: HandState | GameState, seat_text: str, as_json: bool) -> int:
    """``fivehundred analyse --review SEAT RECORD``: exit 2 with one line on a bad seat."""
    import json
    import sys

    from fivehundred.errors import FiveHundredError
    from fivehundred.record import one_line

    rules = replayed.rules
    try:
        seat = parse_seat(seat_text, rules.seats)
        result = review(replayed, seat)
    except (ValueError, FiveHundredError) as error:
        print(f"fivehundred analyse: {one_line(error)}", file=sys.stderr)
        return 2
    if as_json:
        print(json.dumps(result, ensure_ascii=False))
    else:
        print(review_text(result, rules.seats, rules.joker_names))
    return 0
