"""Double-dummy solver for every Five Hundred contract, and fast random playouts.

With all hands visible, how many tricks does the contracting side end the hand with, when
everyone plays their best? (In misère the contracting "side" is the contractor alone, who
minimises; 0 means the misère is made. Open misère is the same problem double-dummy. In
the house rules' double misère, Shields double and patastrophe both partners minimise; for
hi/lo see :func:`hi_lo_made`; a claim is judged by :func:`claim_play_out`.)

High level, on a :class:`~fivehundred.game.HandState` in the play phase (a trick may be in
progress)::

    solve(state)               # contracting side's final trick total with best play
    card_values(state)         # {action: that total after playing it} for each legal action
    can_reach(state, target)   # zero-window: can the side end with >= target tricks?
    random_playouts(state, n, seed)   # int64 array of final totals of n random playouts
    hi_lo_made(state)          # hi/lo (R-HOUSE): can the contractor force exactly five?
    claim_play_out(state)      # the best play-out that judges a claim (R-HOUSE claim)

The same on a :class:`Position`, for search-based players that solve many sampled deals
without building a ``HandState``: ``Position.build(ctx, active, contracting, hands,
to_move, trick, led_suit, suits_led, void_shown, joker_lead_not_renounced, won)`` (all
plain values an :class:`~fivehundred.observation.Observation` supplies plus the sampled
hands), then :func:`solve_position`, :func:`reach_position`, :func:`values_position`,
:func:`playouts_position`. The compiled kernels themselves live in
:mod:`fivehundred.solver.engine` (``solve_dense``, ``reach_dense``, ``move_values_dense``,
``playouts_dense``) and take the arrays of :meth:`Position.arrays`.

The rules honoured are those of :mod:`fivehundred.play` and :class:`HandState`: bowers
and jokers as trumps in suit contracts; in no trumps and misère a nominated joker is the
top card of its suit, and an unnominated joker belongs to no suit, wins any trick, may be
played to another's lead only when void (in misère a void holder must play it), and when
led names a suit not yet led (variant: not renounced by the leader), the last trick
excepted (R-JOKER). The pure-Python engine is the reference: the tests cross-check this
solver against exhaustive minimax over ``HandState`` (:mod:`fivehundred.solver.reference`)
and against the bridge solver DDS (endplay) on suit contracts.

The search is compiled C (:mod:`fivehundred.solver.engine`), built when the package is
installed: nothing is compiled at run time, and the first solve costs what any other does.
Where it could not be built (no C compiler at install), or numpy is missing, importing this
package raises :class:`ImportError` with one line naming what is missing.
"""

from __future__ import annotations

from collections.abc import Callable

try:
    import numpy as np
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError(
        "the double-dummy solver needs numpy: pip install 'fivehundred[solver]' "
        f"(or make install) ({error})",
        name="numpy",
    ) from error


import numpy.typing as npt

from fivehundred.actions import CLAIM, HI_LO, Action
from fivehundred.game import HandState, set_claim_judge
from fivehundred.scoring import HI_LO_TRICKS
from fivehundred.solver import engine as _engine
from fivehundred.solver.position import Position, table

__all__ = [
    "Position",
    "best_action",
    "can_reach",
    "card_values",
    "claim_play_out",
    "hi_lo_made",
    "is_compiled",
    "nodes_searched",
    "playouts_position",
    "random_playouts",
    "reach_position",
    "solve",
    "solve_position",
    "values_position",
    "warm_up",
]


_NODES = [0]


def nodes_searched() -> int:
    """Positions searched by this process's solves so far: a measure of work that, unlike
    time, is the same on every machine (players budget their searches with it)."""
    return _NODES[0]


def solve_position(pos: Position) -> int:
    """Contracting side's final trick total with best play from ``pos``."""
    t = table()
    h, st = pos.packed()
    st[_engine.S_GEN] = t.next_gen()
    further = _engine.solve_dense(
        h, st, t.buf, t.keys, t.check, 0, pos.tricks_left, int(st[_engine.S_TCOUNT])
    )
    _NODES[0] += int(st[_engine.S_NODES])
    return pos.won + int(further)


def reach_position(pos: Position, target: int) -> bool:
    """Whether the contracting side can end with at least ``target`` tricks."""
    t = table()
    h, st = pos.packed()
    st[_engine.S_GEN] = t.next_gen()
    reached = bool(_engine.reach_dense(h, st, t.buf, t.keys, t.check, target - pos.won))
    _NODES[0] += int(st[_engine.S_NODES])
    return reached


def values_position(pos: Position) -> dict[Action, int]:
    """For each legal action of the player to move, the contracting side's final total
    after it with best play."""
    t = table()
    h, st = pos.packed()
    st[_engine.S_GEN] = t.next_gen()
    moves = np.zeros(2 * _engine.MAX_MOVES, np.int64)
    values = np.zeros(_engine.MAX_MOVES, np.int64)
    n = _engine.move_values_dense(h, st, t.buf, t.keys, t.check, moves, values)
    _NODES[0] += int(st[_engine.S_NODES])
    return {pos.action_of(int(moves[i])): pos.won + int(values[i]) for i in range(n)}


def playouts_position(pos: Position, n: int, seed: int) -> npt.NDArray[np.int64]:
    """Final contracting-side totals of ``n`` uniformly random playouts from ``pos``."""
    results = np.zeros(max(n, 0), np.int64)
    h, st, tc, tp, side, voids, suitm, csuit, _ = pos.arrays()
    _engine.playouts_dense(
        h, st, tc, tp, side, voids, suitm, csuit, n, seed & 0xFFFFFFFFFFFFFFFF, results
    )
    return results + pos.won


def solve(state: HandState) -> int:
    """Total tricks the contracting side (contractor and partners; in misère the contractor
    alone) has at the end of the hand, tricks already won included, with best play by all
    from the current play-phase position (a trick may be in progress)."""
    return solve_position(Position.from_state(state))


def card_values(state: HandState) -> dict[Action, int]:
    """For each legal action of the player to move, the contracting side's final trick
    total after that action with best play by all."""
    return values_position(Position.from_state(state))


def can_reach(state: HandState, target: int) -> bool:
    """Whether the contracting side can end the hand with at least ``target`` tricks
    (a zero-window search: cheaper than :func:`solve`)."""
    return reach_position(Position.from_state(state), target)


def random_playouts(state: HandState, n: int, seed: int) -> npt.NDArray[np.int64]:
    """Contracting-side final trick totals of ``n`` random playouts (every legal action
    equally likely) from the current position, compiled; deterministic for a seed."""
    return playouts_position(Position.from_state(state), n, seed)


def hi_lo_made(state: HandState) -> bool:
    """R-HOUSE hi/lo: whether the contractor, playing alone in no trumps, can end the hand
    with exactly five tricks whatever the defenders do (double dummy).

    Exactly five is no trick count to maximise: the search tries every move, and the
    compiled solver cuts the lines where the contractor can no longer reach five (the most
    it can force is fewer). Exponential in the tricks left: for endings and late play.
    """
    if state.contract != HI_LO:
        raise ValueError("not a hi/lo hand")
    contractor = state.contractor
    memo: dict[tuple[object, ...], bool] = {}

    def made(s: HandState) -> bool:
        won = s.tricks_won[contractor]
        if s.is_over or won > HI_LO_TRICKS:
            return won == HI_LO_TRICKS
        key = (*s.play_key(), won)
        if key in memo:
            return memo[key]
        if solve_position(Position.from_state(s)) < HI_LO_TRICKS:
            result = False
        else:
            mine = s.to_move == contractor
            result = not mine
            for action in s.legal_actions():
                child = s.clone()
                child.apply(action)
                if made(child) == mine:
                    result = mine
                    break
        memo[key] = result
        return result

    return made(state)


def is_compiled() -> bool:
    """Whether this process has the search kernels ready: always, once this package is
    imported (they are compiled when the package is installed)."""
    return True


def warm_up(progress: Callable[[int, int], None] | None = None) -> None:
    """Run each search entry point once on a small end position (a few milliseconds: the
    kernel is compiled at install; kept for the callers that prepare before a first
    decision). ``progress(done, total)`` is called before each step and at the end."""
    from fivehundred.actions import PASS, bid_action
    from fivehundred.rules import make_rules

    state = HandState.deal(make_rules(), dealer=0, seed="solver-warm-up")
    state.apply(bid_action(6, 0))
    while state.phase == "auction":
        state.apply(PASS)
    while state.phase != "play" or len(state.tricks) < 8:
        state.apply(state.legal_actions()[0])
    steps: list[Callable[[], object]] = [
        lambda: solve(state),
        lambda: can_reach(state, 1),
        lambda: card_values(state),
    ]
    for done, step in enumerate(steps):
        if progress is not None:
            progress(done, len(steps))
        step()
    if progress is not None:
        progress(len(steps), len(steps))


def claim_play_out(state: HandState) -> list[Action]:
    """R-HOUSE claim: the play-out of the rest of the hand with best play by both sides
    (the contracting side maximising its tricks, the defence minimising them; ties go to
    the lowest action). A claim is wrong when the defence wins a trick of it. Importing
    the solver makes this the engine's judge of claims (``game.set_claim_judge``).

    Every action of the line is legal at its turn. Where a dummy's cards lie face down
    (R-PLAYERS ``dummies``) the solver sees them as playable, which they are not until
    uncovered: the line then chooses among the legal actions only, each valued by the
    solver's search of the position after it (an approximation: the search of that
    position again treats the face-down cards as playable)."""
    line: list[Action] = []
    current = state.clone()
    current.claim_plan = []  # play the line out by the rules of play alone
    team = {current.contractor, *current.partners}
    while not current.is_over:
        action = best_action(legal_values(current, team), current.to_move in team)
        line.append(action)
        current.apply(action)
    return line


def best_action(values: dict[Action, int], maximise: bool) -> Action:
    """The action with the highest total (``maximise``) or the lowest, ties to the lowest
    action: how a side picks its card from the solver's values."""
    if maximise:
        return max(values, key=lambda a: (values[a], -a))
    return min(values, key=lambda a: (values[a], a))


def legal_values(state: HandState, team: set[int]) -> dict[Action, int]:
    """The contracting side's final total after each legal action of the player to move
    (the solver's values where its moves are the legal ones; otherwise each legal action
    is applied and the position after it solved)."""
    legal = [a for a in state.legal_actions() if a != CLAIM]
    values = card_values(state)
    if set(values) == set(legal):
        return values
    out: dict[Action, int] = {}
    for action in legal:
        if action in values:
            out[action] = values[action]
            continue
        child = state.clone()
        child.apply(action)
        if child.is_over or child.phase != "play":
            out[action] = sum(child.tricks_won[s] for s in team)
        else:
            out[action] = solve(child)
    return out


set_claim_judge(claim_play_out)
