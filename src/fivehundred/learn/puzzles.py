"""Puzzles made by the double-dummy solver.

:func:`generate` plays computer games (the heuristic at every seat) under a few presets
and keeps the play-phase positions where exactly one legal card makes the contract (for
the contracting side) or defeats it (for the defenders), double dummy, while every other
card fails. Each puzzle is the hand record up to the position (so it replays on the
engine: legal and reachable), the one winning card, the solver's line after it, the
cards that tempt (the computer player's own choice, the highest and the lowest card),
a theme, a difficulty grade and a one-line reason. The generator is deterministic: the
same seed and count give the same puzzles.

:func:`verify` re-checks a puzzle from its record alone. The solver (the ``solver``
extra) is needed to generate and verify, not to show or answer a shipped puzzle.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from typing import Any

from fivehundred.actions import (
    CLAIM,
    MISERE,
    OPEN_MISERE,
    Action,
    action_card,
    action_text,
    bid_strain,
    parse_play,
)
from fivehundred.cards import JOKER, NO_TRUMPS
from fivehundred.game import PLAY, HandState
from fivehundred.record import hand_record, replay_record
from fivehundred.rules import PRESETS, make_rules
from fivehundred.scoring import analysed_contract, contract_made, tricks_needed
from fivehundred.text import call_text, play_text

#: Presets the generator plays, in turn: every preset, two- to six-handed (seed ``s`` uses
#: ``GENERATOR_PRESETS[s % len(GENERATOR_PRESETS)]``).
GENERATOR_PRESETS: tuple[str, ...] = tuple(PRESETS)
PUZZLE_FORMAT = "fivehundred-puzzles/1"
PACKAGE_FILE = "puzzles.json"
GRADES = {1: "easy", 2: "medium", 3: "hard"}
#: The order a newcomer meets the presets in: the four-handed Australian game first (the
#: default game, the one the tutorial teaches), then the other games.
BEGINNER_PRESETS: tuple[str, ...] = (
    "australian",
    "american",
    "three_handed",
    "six_handed",
    "five_handed",
    "french_canadian",
    "two_handed",
)


def beginner_key(puzzle: dict[str, Any]) -> tuple[int, int, int, str]:
    """A newcomer's order: the Australian game first, each preset's puzzles easiest first,
    every card in view (double dummy) before the defenders hidden (single dummy)."""
    preset = puzzle["preset"]
    rank = BEGINNER_PRESETS.index(preset) if preset in BEGINNER_PRESETS else len(BEGINNER_PRESETS)
    hidden = 1 if puzzle.get("hidden") else 0
    return (rank, puzzle["difficulty"], hidden, puzzle["id"])


class PuzzleError(ValueError):
    """A puzzle that does not replay or does not hold; the message says why."""


def contract_kind(contract: Action) -> str:
    """``suit``, ``no trumps`` or ``misère``."""
    if contract in (MISERE, OPEN_MISERE):
        return "misère"
    return "no trumps" if bid_strain(contract) == NO_TRUMPS else "suit"


def contracting(state: HandState) -> tuple[int, ...]:
    return (state.contractor, *state.partners)


def wants_made(state: HandState) -> bool:
    """Whether the seat to move wants the contract made."""
    return state.to_move in contracting(state)


def candidate_actions(state: HandState) -> list[Action]:
    return [a for a in state.legal_actions() if a != CLAIM]


def _card_power(state: HandState, action: Action) -> int:
    ctx = state.ctx
    card = action_card(action)
    return ctx.power[card] if ctx is not None else card


def natural_cards(state: HandState, heuristic_choice: Action | None) -> list[Action]:
    """The cards a player reaches for: the computer player's choice, the highest card and
    the lowest card (by power in this contract)."""
    legal = candidate_actions(state)
    by_power = sorted(legal, key=lambda a: (_card_power(state, a), a))
    out: list[Action] = []
    for action in (heuristic_choice, by_power[-1], by_power[0]):
        if action is not None and action in legal and action not in out:
            out.append(action)
    return out


def technique(state: HandState, action: Action) -> str:
    """A theme for the solution card: the joker, the lead, the ruff, the discard, the duck
    (the lowest of the suit while holding a higher card), the middle card or the high card."""
    ctx = state.ctx
    if action >= JOKER:  # a joker, or a joker led as a suit
        return "the joker"
    if not state.trick_cards:
        return "the lead"
    assert ctx is not None
    led = state.led_suit
    follows = led >= 0 and ctx.follow_masks[led] >> action & 1
    if not follows:
        if ctx.trump != NO_TRUMPS and ctx.follow_masks[ctx.trump] >> action & 1:
            return "the ruff"
        return "the discard"
    suit_cards = [a for a in candidate_actions(state) if a < 66]
    higher = [a for a in suit_cards if ctx.power[a] > ctx.power[action]]
    lower = [a for a in suit_cards if ctx.power[a] < ctx.power[action]]
    if higher and not lower:
        return "the duck"
    if higher:
        return "the middle card"
    return "the high card"


@dataclass
class Found:
    """A position worth a puzzle, with what the solver said about it."""

    state: HandState
    values: dict[Action, int]
    solution: Action
    tempting: list[Action]
    heuristic: Action | None


def solver_values(state: HandState) -> dict[Action, int]:
    """The contracting side's final total after each legal card, double dummy."""
    from fivehundred.solver import card_values

    legal = candidate_actions(state)
    values = card_values(state)
    out: dict[Action, int] = {}
    for action in legal:
        if action in values:
            out[action] = values[action]
        else:  # a move the solver does not list (never for the presets used): solve it
            from fivehundred.solver import solve

            child = state.clone()
            child.apply(action)
            out[action] = (
                sum(child.tricks_won[s] for s in contracting(child))
                if child.is_over
                else solve(child)
            )
    return out


def only_winner(state: HandState, values: dict[Action, int]) -> Action | None:
    """The one action that reaches the seat's goal, or None if none or several do."""
    want = wants_made(state)
    winners = [a for a, v in values.items() if contract_made(state.contract, v) == want]
    return winners[0] if len(winners) == 1 else None


def best_line(state: HandState, first: Action) -> list[Action]:
    """``first``, then best play by both sides to the end of the hand (each side keeps
    its goal; ties go to the lowest action)."""
    from fivehundred.solver import best_action

    line = [first]
    current = state.clone()
    current.apply(first)
    misere = current.is_misere
    while not current.is_over:
        action = best_action(solver_values(current), wants_made(current) != misere)
        line.append(action)
        current.apply(action)
    return line


def tempting_role(state: HandState, found: Found, action: Action) -> str:
    """Why a card tempts: the computer player's choice, the highest or the lowest card."""
    if action == found.heuristic:
        return "the computer player's choice"
    by_power = sorted(candidate_actions(state), key=lambda a: (_card_power(state, a), a))
    return "the highest card" if action == by_power[-1] else "the lowest card"


def reason_text(state: HandState, found: Found) -> str:
    """One line: the only card, what it is (the theme), what it keeps, and what the most
    tempting other card gives instead."""
    two = state.rules.joker_names
    contract = state.contract
    misere = contract in (MISERE, OPEN_MISERE)
    goal = "makes" if wants_made(state) else "defeats"
    card = play_text(found.solution, two)
    theme = technique(state, found.solution)
    kept = found.values[found.solution]
    if misere:
        outcome = (
            "the contractor takes no trick"
            if kept == 0
            else (f"the contractor is forced to take {_tricks(kept)}")
        )
    else:
        outcome = f"the contracting side ends with {_tricks(kept)} of the {tricks_needed(contract)} needed"
    text = f"Only {card} ({theme}) {goal} {call_text(contract, two)}: {outcome}"
    tempting = [a for a in found.tempting if a != found.solution]
    if tempting:
        other = tempting[0]
        value = found.values[other]
        role = tempting_role(state, found, other)
        if misere:
            then = "no trick" if value == 0 else _tricks(value)
            text += f"; {play_text(other, two)}, {role}, lets the contractor take {then}"
        else:
            text += f"; {play_text(other, two)}, {role}, leaves the side {_tricks(value)}"
    return text + "."


def tricks_left(state: HandState) -> int:
    return state.rules.pack.hand_size - len(state.tricks)


def _tricks(n: int) -> str:
    return "1 trick" if n == 1 else f"{n} tricks"


def solver_exact(state: HandState) -> bool:
    """Whether the solver sees the position as the rules do: not while a two-player
    dummy still holds a face-down card (the solver takes it as playable, R-PLAYERS
    ``dummies``); once every dummy card is face up, the rest of the hand is exact."""
    return all(up < 0 or not state.hands[seat] & ~up for seat, up in enumerate(state.face_up))


def find_puzzles(state: HandState, heuristic_choice: Action | None) -> Found | None:
    """A puzzle at this position, or None."""
    if state.phase != PLAY or not analysed_contract(state.contract):
        return None
    if not solver_exact(state):
        return None
    legal = candidate_actions(state)
    if len(legal) < 3 or tricks_left(state) < 2:
        return None
    values = solver_values(state)
    solution = only_winner(state, values)
    if solution is None:
        return None
    tempting = [a for a in natural_cards(state, heuristic_choice) if a != solution]
    if not tempting:
        return None
    return Found(state.clone(), values, solution, tempting, heuristic_choice)


def difficulty(state: HandState, found: Found) -> int:
    """1 easy, 2 medium, 3 hard: tempting cards, tricks left, and whether the computer
    player itself went wrong."""
    left = tricks_left(state)
    score = len(found.tempting)
    score += found.heuristic is not None and found.heuristic != found.solution
    score += left >= 6
    score += left >= 8
    return 1 if score <= 2 else 2 if score <= 3 else 3


def puzzle_dict(found: Found, number: int, seed: int) -> dict[str, Any]:
    state = found.state
    two = state.rules.joker_names
    record = hand_record(state)
    line = best_line(state, found.solution)
    return {
        "id": f"p{number:04d}",
        "seed": seed,
        "preset": state.rules.preset,
        "record": record,
        "seat": state.to_move,
        "contract": action_text(state.contract, two),
        "kind": contract_kind(state.contract),
        "goal": "make" if wants_made(state) else "defeat",
        "theme": technique(state, found.solution),
        "tricks_left": tricks_left(state),
        "difficulty": difficulty(state, found),
        "solution": action_text(found.solution, two),
        "tempting": [action_text(a, two) for a in found.tempting],
        "values": {action_text(a, two): v for a, v in sorted(found.values.items())},
        "line": [action_text(a, two) for a in line],
        "reason": reason_text(state, found),
    }


def computer_positions(
    seed: int, presets: tuple[str, ...] = GENERATOR_PRESETS
) -> Iterator[tuple[HandState, Action]]:
    """A computer hand under the seed's preset (``presets[seed % len(presets)]``): each
    play-phase position with the computer player's choice, before it is played."""
    from fivehundred.bots.heuristic import HeuristicPlayer

    preset = presets[seed % len(presets)]
    rules = make_rules(preset)
    state = HandState.deal(rules, dealer=seed % rules.players, seed=f"puzzle-{seed}")
    players = [HeuristicPlayer(seed * 10 + seat) for seat in range(rules.seats)]
    while not state.is_over:
        seat = state.to_move
        action = players[seat].act(state.observation(seat))
        if state.phase == PLAY:
            yield state, action
        state.apply(action)


def generate(
    seed: int,
    count: int,
    progress: Callable[[int, int], None] | None = None,
    max_hands: int | None = None,
) -> list[dict[str, Any]]:
    """``count`` puzzles from hands ``seed``, ``seed + 1``, …: at most one per hand (the
    first position that holds), so that the set is varied. Deterministic."""
    out: list[dict[str, Any]] = []
    hand_seed = seed
    limit = max_hands if max_hands is not None else 50 * count + 100
    while len(out) < count and hand_seed - seed < limit:
        for state, choice in computer_positions(hand_seed):
            found = find_puzzles(state, choice)
            if found is not None:
                out.append(puzzle_dict(found, len(out) + 1, hand_seed))
                if progress is not None:
                    progress(len(out), count)
                break
        hand_seed += 1
    return out


def replay_puzzle(puzzle: dict[str, Any]) -> HandState:
    """The puzzle's position, replayed from its record on the engine."""
    try:
        _, state = replay_record(puzzle["record"])
    except Exception as error:
        raise PuzzleError(
            f"puzzle {puzzle.get('id')}: the record does not replay: {error}"
        ) from None
    if not isinstance(state, HandState) or state.phase != PLAY or state.is_over:
        raise PuzzleError(f"puzzle {puzzle.get('id')}: the record does not stop in the play")
    return state


def verify(puzzle: dict[str, Any]) -> None:
    """Raise :class:`PuzzleError` unless the puzzle holds: the record replays (legal and
    reachable), the seat and contract are as stated, the solution is legal and the only
    card reaching the goal double dummy, the stated values are the solver's, and the
    line is legal play to the end of the hand."""
    state = replay_puzzle(puzzle)
    pid = puzzle.get("id")
    two = state.rules.joker_names
    if state.to_move != puzzle["seat"]:
        raise PuzzleError(f"puzzle {pid}: seat {state.to_move} is to move, not {puzzle['seat']}")
    if action_text(state.contract, two) != puzzle["contract"]:
        raise PuzzleError(f"puzzle {pid}: the contract is {action_text(state.contract, two)}")
    if not solver_exact(state):
        raise PuzzleError(f"puzzle {pid}: a dummy's card lies face down (not double dummy)")
    solution = parse_play(puzzle["solution"])
    if solution not in state.legal_actions():
        raise PuzzleError(f"puzzle {pid}: {puzzle['solution']} is not legal")
    values = solver_values(state)
    if only_winner(state, values) != solution:
        raise PuzzleError(f"puzzle {pid}: {puzzle['solution']} is not the only winning card")
    stated = {action_text(a, two): v for a, v in values.items()}
    if stated != puzzle["values"]:
        raise PuzzleError(f"puzzle {pid}: the values are not the solver's")
    if ("make" if wants_made(state) else "defeat") != puzzle["goal"]:
        raise PuzzleError(f"puzzle {pid}: the goal is wrong")
    current = state.clone()
    for text in puzzle["line"]:
        current.apply(parse_play(text))
    if not current.is_over:
        raise PuzzleError(f"puzzle {pid}: the line stops before the end of the hand")
    final = sum(current.tricks_won[s] for s in contracting(current))
    if final != values[solution]:
        raise PuzzleError(f"puzzle {pid}: the line ends with {final}, not {values[solution]}")


def load_shipped() -> list[dict[str, Any]]:
    """The puzzles shipped in the package."""
    text = resources.files("fivehundred.learn").joinpath(PACKAGE_FILE).read_text("utf-8")
    data = json.loads(text)
    return list(data["puzzles"])


def puzzle_set(seed: int, found: list[dict[str, Any]]) -> dict[str, Any]:
    """The JSON of a set: how it was made (``fivehundred puzzle --generate --seed S
    --count N``) and the puzzles."""
    return {
        "format": PUZZLE_FORMAT,
        "seed": seed,
        "count": len(found),
        "command": f"fivehundred puzzle --generate --seed {seed} --count {len(found)}",
        "puzzles": found,
    }
