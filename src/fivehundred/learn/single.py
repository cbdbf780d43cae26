"""Single-dummy puzzles: the harder series.

The contractor is to play, seeing their own hand, their partner's (the "dummy" of these
puzzles) and every card played, but not the defenders' hands. The answer is the one card
that makes the contract against **every** layout of the defenders' cards consistent with
what the contractor has seen (the cards not yet played, each defender's number of cards,
and the suits each defender has shown out of), double dummy in each layout; every other
card fails in at least one layout, and at least one other card makes it in most layouts
(it tempts: it is the double-dummy answer somewhere). The defenders' cards are shown only
after the answer.

:func:`generate_single` makes them from the same computer hands as
:mod:`fivehundred.learn.puzzles`; :func:`verify_single` re-checks one by enumerating the
layouts again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any

from fivehundred.actions import Action, action_text, is_suit_bid, parse_play
from fivehundred.cards import CardMask, iter_cards, mask_of
from fivehundred.game import PLAY, HandState
from fivehundred.learn.puzzles import (
    PuzzleError,
    best_line,
    candidate_actions,
    computer_positions,
    contract_kind,
    contracting,
    replay_puzzle,
    solver_values,
    technique,
    tricks_left,
)
from fivehundred.record import hand_record
from fivehundred.scoring import analysed_contract, contract_made, tricks_needed
from fivehundred.text import call_text, play_text

#: Positions with more layouts than this are not searched (five tricks left or fewer:
#: at most 252 layouts with two defenders).
MAX_LAYOUTS = 260
#: Fewer layouts than this make too plain a puzzle.
MIN_LAYOUTS = 6
SERIES = "single-dummy"
#: The presets the single-dummy series is drawn from (the shipped series was made from
#: these three; seed ``s`` uses ``SINGLE_PRESETS[s % 3]``).
SINGLE_PRESETS = ("australian", "american", "three_handed")


def hidden_seats(state: HandState) -> tuple[int, ...]:
    """The defenders in play: the seats whose cards the contractor does not see."""
    team = set(contracting(state))
    active = state.active or tuple(range(state.rules.seats))
    return tuple(s for s in active if s not in team)


def _allowed(state: HandState, seat: int) -> CardMask:
    """Cards ``seat`` may still hold: none of a suit it has shown out of."""
    ctx = state.ctx
    assert ctx is not None
    out = ~0
    for suit in range(4):
        if state.void_shown[seat] >> suit & 1:
            out &= ~ctx.follow_masks[suit]
    return out


def layouts(state: HandState) -> Iterator[list[CardMask]]:
    """Every deal of the defenders' unseen cards consistent with the play so far (the
    hands of the other seats as they are); the actual one among them."""
    first, second = hidden_seats(state)
    unseen = state.hands[first] | state.hands[second]
    cards = list(iter_cards(unseen))
    size = state.hands[first].bit_count()
    allowed_first, allowed_second = _allowed(state, first), _allowed(state, second)
    for chosen in combinations(cards, size):
        mine = mask_of(chosen)
        rest = unseen & ~mine
        if mine & ~allowed_first or rest & ~allowed_second:
            continue
        hands = list(state.hands)
        hands[first], hands[second] = mine, rest
        yield hands


def layout_count(state: HandState) -> int:
    first, second = hidden_seats(state)
    n = (state.hands[first] | state.hands[second]).bit_count()
    k = state.hands[first].bit_count()
    from math import comb

    return comb(n, k)


def wins_by_card(state: HandState) -> tuple[int, dict[Action, int]]:
    """(the number of consistent layouts, for each legal card the layouts it makes the
    contract in, double dummy)."""
    legal = candidate_actions(state)
    wins = dict.fromkeys(legal, 0)
    count = 0
    for hands in layouts(state):
        trial = state.clone()
        trial.hands = hands
        values = solver_values(trial)
        count += 1
        for action in legal:
            if contract_made(state.contract, values[action]):
                wins[action] += 1
    return count, wins


def suitable(state: HandState) -> bool:
    """A position this series looks at: the contractor to play a bid contract (not
    misère: the partner's cards sit out face down), two defenders, five tricks or fewer
    left, at least three legal cards."""
    return (
        state.phase == PLAY
        and analysed_contract(state.contract)
        and is_suit_bid(state.contract)
        and state.to_move == state.contractor
        and len(hidden_seats(state)) == 2
        and 2 <= tricks_left(state) <= 5
        and len(candidate_actions(state)) >= 3
        and layout_count(state) <= MAX_LAYOUTS
    )


def find_single(state: HandState) -> dict[str, Any] | None:
    """The puzzle at this position, or None: exactly one card makes the contract in every
    layout, and another makes it in at least half of them."""
    if not suitable(state) or layout_count(state) < MIN_LAYOUTS:
        return None
    count, wins = wins_by_card(state)
    if count < MIN_LAYOUTS:
        return None
    sure = [a for a, n in wins.items() if n == count]
    if len(sure) != 1:
        return None
    solution = sure[0]
    tempting = sorted(
        (a for a in wins if a != solution and 2 * wins[a] >= count), key=lambda a: (-wins[a], a)
    )
    if not tempting:
        return None
    return {"count": count, "wins": wins, "solution": solution, "tempting": tempting}


def single_difficulty(tricks: int, layouts: int, wins: dict[str, int], tempting: list[str]) -> int:
    """1 easy, 2 medium, 3 hard, from what the learner faces: the tricks left (four, five),
    how close the most tempting other card comes (it makes the contract in 85% of the
    layouts or more) and how many cards tempt (three or more)."""
    best = max((wins[c] for c in tempting), default=0)
    score = (tricks >= 4) + (tricks >= 5) + (best * 100 >= 85 * layouts) + (len(tempting) >= 3)
    return 1 if score <= 1 else 2 if score == 2 else 3


def single_reason(state: HandState, found: dict[str, Any]) -> str:
    two = state.rules.joker_names
    count = found["count"]
    other = found["tempting"][0]
    n = found["wins"][other]
    return (
        f"Only {play_text(found['solution'], two)} makes {call_text(state.contract, two)} "
        f"({tricks_needed(state.contract)} tricks) however the defenders' cards lie: it wins in all "
        f"{count} layouts; {play_text(other, two)} wins in {n} of them, not all."
    )


def single_dict(state: HandState, found: dict[str, Any], number: int, seed: int) -> dict[str, Any]:
    two = state.rules.joker_names
    solution = found["solution"]
    wins = {action_text(a, two): n for a, n in sorted(found["wins"].items())}
    tempting = [action_text(a, two) for a in found["tempting"]]
    return {
        "id": f"s{number:04d}",
        "series": SERIES,
        "seed": seed,
        "preset": state.rules.preset,
        "record": hand_record(state),
        "seat": state.to_move,
        "hidden": list(hidden_seats(state)),
        "contract": action_text(state.contract, two),
        "kind": contract_kind(state.contract),
        "goal": "make",
        "theme": technique(state, solution),
        "tricks_left": tricks_left(state),
        "difficulty": single_difficulty(tricks_left(state), found["count"], wins, tempting),
        "solution": action_text(solution, two),
        "tempting": tempting,
        "layouts": found["count"],
        "wins": wins,
        "values": {action_text(a, two): v for a, v in sorted(solver_values(state).items())},
        "line": [action_text(a, two) for a in best_line(state, solution)],
        "reason": single_reason(state, found),
    }


def generate_single(
    seed: int, count: int, progress: Callable[[int, int], None] | None = None
) -> list[dict[str, Any]]:
    """``count`` single-dummy puzzles from hands ``seed``, ``seed + 1``, … (at most one
    per hand). Deterministic."""
    out: list[dict[str, Any]] = []
    hand_seed = seed
    while len(out) < count and hand_seed - seed < 200 * count + 100:
        for state, _ in computer_positions(hand_seed, SINGLE_PRESETS):
            found = find_single(state)
            if found is not None:
                out.append(single_dict(state, found, len(out) + 1, hand_seed))
                if progress is not None:
                    progress(len(out), count)
                break
        hand_seed += 1
    return out


def verify_single(puzzle: dict[str, Any]) -> None:
    """Raise :class:`PuzzleError` unless the single-dummy puzzle holds: it replays, the
    position is one of the series', the solution is the only card making the contract in
    every consistent layout, and the stated counts are the solver's."""
    pid = puzzle.get("id")
    state = replay_puzzle(puzzle)
    two = state.rules.joker_names
    if not suitable(state) or state.to_move != puzzle["seat"] or layout_count(state) < MIN_LAYOUTS:
        raise PuzzleError(f"puzzle {pid}: not a single-dummy position for seat {puzzle['seat']}")
    count, wins = wins_by_card(state)
    solution = parse_play(puzzle["solution"])
    sure = [a for a, n in wins.items() if n == count]
    if sure != [solution]:
        raise PuzzleError(f"puzzle {pid}: {puzzle['solution']} is not the only sure card")
    if (
        count != puzzle["layouts"]
        or {action_text(a, two): n for a, n in wins.items()} != puzzle["wins"]
    ):
        raise PuzzleError(f"puzzle {pid}: the layout counts are not the solver's")
    grade = single_difficulty(tricks_left(state), count, puzzle["wins"], puzzle.get("tempting", []))
    if puzzle.get("difficulty") != grade:
        raise PuzzleError(
            f"puzzle {pid}: the difficulty is {grade}, not {puzzle.get('difficulty')}"
        )
    current = state.clone()
    for text in puzzle["line"]:
        current.apply(parse_play(text))
    if not current.is_over:
        raise PuzzleError(f"puzzle {pid}: the line stops before the end of the hand")


SINGLE_FILE = "puzzles-single.json"


def load_single() -> list[dict[str, Any]]:
    """The single-dummy puzzles shipped in the package."""
    import json
    from importlib import resources

    text = resources.files("fivehundred.learn").joinpath(SINGLE_FILE).read_text("utf-8")
    return list(json.loads(text)["puzzles"])
