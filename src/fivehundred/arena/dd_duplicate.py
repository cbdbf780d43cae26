"""Decision duplicate scored double dummy: two players' choices in play, measured in minutes.

    python -m fivehundred.arena.dd_duplicate --a pimc --b pimc:model --hands 40 --seed 1

Each deal is played to its end by ``--line`` (default ``medium``, cheap) at every seat; at
every play decision with a choice, players A and B (fresh, seeded alike) are given the
same position. Where they choose differently, each choice is scored by the double-dummy
value of the rest of the hand on the true deal — the deal that was in fact dealt, a
sample of the real distribution of hidden cards — as the chooser's side's points (the
contract's value made or set, 10 a trick to the defenders: :func:`contract_score`). No
hand is played on from either choice, so the score has no noise of later play: the
difference B less A is what the choice itself gives up or gains against perfect play.

Reported: the mean difference per disagreement and per decision (disagreements count,
agreements count 0), each with a normal-approximation 95 % interval over the deals (a
deal's decisions are not independent: its sums are the unit). Every deal is a pure
function of its task, so a process pool gives a serial run's results.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from typing import Any

from fivehundred.actions import action_text
from fivehundred.arena.runner import ordered_map
from fivehundred.arena.stats import mean_interval
from fivehundred.bots import make_player
from fivehundred.bots.memory import play_context
from fivehundred.bots.simulate import contract_score
from fivehundred.game import HandState
from fivehundred.rules import make_rules, rules_from_dict


@dataclass(frozen=True)
class DDTask:
    """One deal, played by ``line``; A and B are asked at each play decision."""

    rules: dict[str, Any]
    player_a: str
    player_b: str
    line: str
    deal: int


@dataclass(frozen=True)
class DDChoice:
    """A decision where A and B differ: the trick, the cards and each one's value."""

    trick: int
    action_a: str
    action_b: str
    value_a: float
    value_b: float


@dataclass(frozen=True)
class DDOutcome:
    deal: int
    decisions: int
    choices: tuple[DDChoice, ...] = field(default=())

    @property
    def difference(self) -> float:
        """B's gain over A summed over the deal's disagreements."""
        return sum(c.value_b - c.value_a for c in self.choices)


def dd_values(state: HandState) -> dict[int, float]:
    """Each legal play's double-dummy value on the true hands, as the points of the side
    of the seat to move (its points less the others')."""
    from fivehundred.bots.counts import solve_values

    seat = state.to_move
    obs = state.observation(seat)
    active = obs.active or tuple(range(obs.rules.seats))
    contracting = (obs.contractor, *obs.partners)
    won = sum(obs.tricks_won[s] for s in contracting)
    totals = solve_values(obs, play_context(obs), active, contracting, state.hands, won)
    ours = seat in contracting
    return {
        action: (1 if ours else -1) * contract_score(obs.contract, total, obs.rules)
        for action, total in totals.items()
    }


def score_deal(task: DDTask) -> DDOutcome:
    """Play the task's deal and score A's and B's choices where they differ."""
    rules = rules_from_dict(task.rules)
    state = HandState.deal(rules, task.deal % rules.players, f"dd-duplicate/{task.deal}")
    line = [make_player(task.line, task.deal * 16 + s) for s in range(rules.seats)]
    decisions = 0
    found: list[DDChoice] = []
    while not state.is_over:
        seat = state.to_move
        obs = state.observation(seat)
        choice = line[seat].act(obs)
        if state.phase == "play" and len(obs.legal) > 1 and obs.contractor >= 0:
            decisions += 1
            seed = task.deal * 1_000 + decisions
            a = make_player(task.player_a, seed).act(obs)
            b = make_player(task.player_b, seed).act(obs)
            if a != b:
                values = dd_values(state)
                if a in values and b in values:
                    two = rules.joker_names
                    found.append(
                        DDChoice(
                            len(state.tricks),
                            action_text(a, two),
                            action_text(b, two),
                            values[a],
                            values[b],
                        )
                    )
        state.apply(choice)
    return DDOutcome(task.deal, decisions, tuple(found))


def dd_tasks(
    preset: str, player_a: str, player_b: str, line: str, deals: int, seed: int
) -> list[DDTask]:
    """The tasks of a comparison on ``deals`` deals from ``seed``."""
    data = make_rules(preset).to_dict()
    return [DDTask(data, player_a, player_b, line, seed * 100_003 + i) for i in range(deals)]


def summary(outcomes: list[DDOutcome]) -> dict[str, Any]:
    """Counts, and B's mean gain per disagreement and per decision with 95 % intervals
    (over the deals: the ratio of sums, its interval by the deals' sums)."""
    decisions = sum(o.decisions for o in outcomes)
    choices = [c for o in outcomes for c in o.choices]
    per_deal = [o.difference for o in outcomes]
    mean, low, high = mean_interval(per_deal)
    scale_d = len(outcomes) / max(decisions, 1)
    scale_c = len(outcomes) / max(len(choices), 1)
    return {
        "deals": len(outcomes),
        "decisions": decisions,
        "disagreements": len(choices),
        "per_decision": (mean * scale_d, low * scale_d, high * scale_d),
        "per_disagreement": (mean * scale_c, low * scale_c, high * scale_c),
        "per_deal": (mean, low, high),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m fivehundred.arena.dd_duplicate",
        description="decision duplicate in play, each choice scored double dummy",
    )
    p.add_argument("--a", required=True, help="player A (the baseline)")
    p.add_argument("--b", required=True, help="player B (the candidate)")
    p.add_argument("--line", default="medium", help="player that plays the deals on")
    p.add_argument("--hands", type=int, default=20, help="deals (default 20)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--preset", default="australian")
    p.add_argument("--workers", type=int, default=1)
    args = p.parse_args(argv)
    if not 1 <= args.hands <= 100_000:
        p.error("--hands must be from 1 to 100000")
    tasks = dd_tasks(args.preset, args.a, args.b, args.line, args.hands, args.seed)
    outcomes = list(ordered_map(score_deal, tasks, max(1, args.workers)))
    result = summary(outcomes)
    mean, low, high = result["per_disagreement"]
    dmean, dlow, dhigh = result["per_decision"]
    print(
        f"{args.b} against {args.a}, positions of {args.line} (seed {args.seed}): "
        f"{result['deals']} deals, {result['decisions']} play decisions, "
        f"{result['disagreements']} disagreements\n"
        f"  B less A a disagreement: {mean:+.2f} points ({low:+.2f} to {high:+.2f})\n"
        f"  B less A a decision: {dmean:+.3f} points ({dlow:+.3f} to {dhigh:+.3f})"
    )
    return 0


__all__ = [
    "DDChoice",
    "DDOutcome",
    "DDTask",
    "dd_tasks",
    "dd_values",
    "main",
    "score_deal",
    "summary",
]

if __name__ == "__main__":
    sys.exit(main())
