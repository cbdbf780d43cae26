"""The computer players under the house rules (RULES.md §9 and §10): duplicate matches
per new contract family and preset, and the throw-in rate of the inkle auction.

    nice -n 10 python bench/bench_house.py                 # every family, a few minutes
    nice -n 10 python bench/bench_house.py --games 2 --pimc-hands 4 --only hi_lo inkle

For each family (each §10 variant that changes bidding or play, the French-Canadian
game, and §9's dead hand, open eight and draw pack at their player counts) two seeded
duplicate matches, one process: ``heuristic`` against ``heuristic:v1`` in complete games
(the first version hands the rule's decisions it does not know, the slam call, the claim,
the draw, to the house module), and ``pimc`` against ``heuristic`` in single hands. Printed:
games, hands, how often the family's contracts were bid and made (both teams), slam calls
and claims, hands thrown in, matches stopped by an illegal action (the engine raises; must
be 0), team A's win rate with its 95% Wilson interval and the paired points difference
A − B per hand with its interval (the fairer measure for single hands).

Then hi/lo played out: deals where a seat holds a hand the bots bid hi/lo with
(``house.hi_lo_hand``), that seat bidding hi/lo and the others passing, every seat
``heuristic`` (whose hi/lo play is ``bots/house.py``'s, as ``pimc``'s is): how often
exactly five is made, the contractor's tricks, and the mean time of a hi/lo card decision.

Then the inkle auction's throw-ins in heuristic self-play: the plain American auction's
all-pass hands, the inkle auction with the inkle responses of ``bots/house.py`` switched
off (a 6-level hand inkles or passes), and with them.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fivehundred.arena.runner import MatchOutcome, duplicate_tasks, play_match
from fivehundred.arena.stats import summarize
from fivehundred.bots import house, make_player
from fivehundred.game import HandState
from fivehundred.rules import make_rules

ALL = (
    "S",
    "C",
    "D",
    "H",
    "NT",
    "misere",
    "open_misere",
    "hi_lo",
    "double_misere",
    "shields_double",
    "patastrophe",
)


@dataclass(frozen=True)
class Family:
    name: str
    preset: str
    variants: dict[str, Any]
    #: the contracts (arena strain names) the family adds; "slam" and "claim" are calls
    contracts: tuple[str, ...]
    #: heuristic's opponent
    rival: str = "heuristic:v1"


FAMILIES = (
    Family("hi_lo", "australian", {"hi_lo": True}, ("hi_lo",)),
    Family("double_misere", "australian", {"double_misere": True}, ("double_misere",)),
    Family(
        "double_misere+anytime",
        "australian",
        {"double_misere": True, "misere_anytime": True},
        ("misere", "double_misere"),
    ),
    Family(
        "shields_double",
        "australian",
        {"double_misere": True, "shields_double": True, "misere_anytime": True},
        ("double_misere", "shields_double"),
    ),
    Family(
        "patastrophe",
        "australian",
        {"double_misere": True, "patastrophe": True, "misere_anytime": True},
        ("double_misere", "patastrophe"),
    ),
    Family("wilkinson_misere", "australian", {"wilkinson_misere": True}, ("misere", "open_misere")),
    Family("slam_call", "australian", {"slam_call": True}, ("slam",)),
    Family("claim", "australian", {"claim": True}, ("claim",)),
    Family("j5_no_trumps", "australian", {"j5_no_trumps": True}, ("NT",)),
    Family("ralphing", "australian", {"ralphing": True}, ALL),
    Family(
        "split_colours",
        "australian",
        {"split_colours": True, "hi_lo": True, "double_misere": True},
        ("misere", "open_misere", "hi_lo", "double_misere"),
    ),
    Family("inkle", "american", {"inkle": True}, ALL),
    Family("french_canadian", "french_canadian", {}, ("misere", "open_misere")),
    Family("dead_hand (2)", "two_handed", {"dead_hand": True}, ALL),
    Family("dead_hand (3)", "three_handed", {"dead_hand": True}, ALL),
    Family("open_eight", "two_handed", {"open_eight": True}, ALL),
    Family("draw_pack", "two_handed", {"draw_pack": True}, ALL),
)


def play(tasks: Sequence[Any]) -> tuple[list[MatchOutcome], int]:
    """Play the matches one after another; a match stopped by an exception (an illegal
    action raises) is counted, not played on."""
    outcomes: list[MatchOutcome] = []
    failed = 0
    for task in tasks:
        try:
            outcomes.append(play_match(task))
        except Exception as error:  # counted and shown
            failed += 1
            print(f"  ! deal {task.deal}: {type(error).__name__}: {error}")
    return outcomes, failed


def row(family: Family, team_a: str, team_b: str, deals: int, seed: int, single: bool) -> str:
    rules = make_rules(family.preset, family.variants)
    tasks = duplicate_tasks(rules, team_a, team_b, deals, seed, single, max_hands=60)
    start = time.perf_counter()
    outcomes, failed = play(tasks)
    summary = summarize(outcomes, team_a, team_b)
    parts = []
    if family.contracts == ALL:
        bid = sum(s.bid for team in ("A", "B") for s in summary.contracts[team].values())
        made = sum(s.made for team in ("A", "B") for s in summary.contracts[team].values())
        parts.append(f"all {bid}/{made}")
    else:
        for strain in family.contracts:
            if strain in ("slam", "claim"):
                continue
            stats = [summary.contracts[t].get(strain) for t in ("A", "B")]
            bid = sum(s.bid for s in stats if s)
            made = sum(s.made for s in stats if s)
            parts.append(f"{strain} {bid}/{made}")
    for name in ("slam", "claim"):
        calls = {t: summary.house_calls[t].get(name) for t in ("A", "B")}
        if name in family.contracts or any(calls.values()):
            # per team: calls / made (slam) or right (claim)
            parts.append(
                name
                + " "
                + " ".join(f"{t} {c.bid}/{c.made}" if c else f"{t} 0/0" for t, c in calls.items())
            )
    lo, hi = summary.win_interval
    diff = summary.difference
    games = "–" if single else str(summary.matches)
    return (
        f"{family.name:22} {team_a:>9} v {team_b:<12} {games:>5} {summary.hands:>5}  "
        f"{' '.join(parts):<32} {summary.thrown_in:>6} {failed:>7}  "
        f"{summary.win_rate:6.1%} ({lo:.0%}–{hi:.0%})  {diff[0]:+6.1f} ({diff[1]:+.0f} to "
        f"{diff[2]:+.0f})  {time.perf_counter() - start:5.1f}s"
    )


def throw_ins(hands: int, seed: int) -> None:
    """Throw-ins of heuristic self-play: plain American, inkle without and with the
    inkle responses."""
    american = make_rules("american")
    inkle = make_rules("american", {"inkle": True})
    real = house.inkle_bid

    def rate(rules: Any) -> float:
        thrown = 0
        for index in range(hands):
            state = HandState.deal(rules, index % 4, f"house/{seed}/{index}")
            players = [make_player("heuristic", seed * 1000 + index * 4 + s) for s in range(4)]
            while not state.is_over:
                state.apply(players[state.to_move].act(state.observation(state.to_move)))
            thrown += state.result.contract < 0
        return thrown / hands

    plain = rate(american)
    try:
        house.inkle_bid = lambda obs, chosen: None
        before = rate(inkle)
    finally:
        house.inkle_bid = real
    after = rate(inkle)
    print(f"\nthrow-ins, heuristic self-play, {hands} hands (the same deals):")
    print(f"  american, all pass:                 {plain:6.1%}")
    print(f"  inkle, without the inkle responses: {before:6.1%}")
    print(f"  inkle, with them:                   {after:6.1%}")


def hi_lo_play(hands: int, seed: int) -> None:
    """hi/lo forced on the hands the bots bid it with, played out by heuristic."""
    from fivehundred.actions import HI_LO, PASS
    from fivehundred.arena.stats import wilson_interval

    rules = make_rules("australian", {"hi_lo": True})
    tricks: list[int] = []
    spent = [0.0, 0]
    index = 0
    while len(tricks) < hands and index < hands * 1000:
        index += 1
        state = HandState.deal(rules, index % 4, f"hi-lo/{seed}/{index}")
        seats = [s for s in range(4) if house.hi_lo_hand(state.hands[s])]
        if not seats:
            continue
        contractor = seats[0]
        players = [make_player("heuristic", seed * 1000 + index * 4 + s) for s in range(4)]
        while state.phase == "auction":
            bid = state.to_move == contractor and HI_LO in state.legal_actions()
            state.apply(HI_LO if bid else PASS)
        while not state.is_over:
            obs = state.observation(state.to_move)
            start = time.perf_counter()
            action = players[state.to_move].act(obs)
            if state.phase == "play":
                spent[0] += time.perf_counter() - start
                spent[1] += 1
            state.apply(action)
        tricks.append(state.tricks_won[contractor])
    made = sum(t == 5 for t in tricks)
    lo, hi = wilson_interval(made, len(tricks))
    spread = " ".join(f"{t}:{tricks.count(t)}" for t in sorted(set(tricks)))
    print(
        f"\nhi/lo played out, {len(tricks)} hands the bots bid it with (heuristic in every seat):"
    )
    print(
        f"  made exactly five: {made}/{len(tricks)} = {made / max(1, len(tricks)):.0%} "
        f"({lo:.0%}–{hi:.0%}); the contractor's tricks {spread}"
    )
    print(f"  a card decision of the hi/lo hand: {1000 * spent[0] / max(1, spent[1]):.1f} ms mean")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=40, help="duplicate games per heuristic match")
    p.add_argument("--pimc-hands", type=int, default=12, help="duplicate hands per pimc match")
    p.add_argument("--inkle-hands", type=int, default=600, help="hands per throw-in count")
    p.add_argument("--hi-lo-hands", type=int, default=40, help="hi/lo hands played out")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--only", nargs="*", default=None, help="family names to run")
    args = p.parse_args()
    print(
        f"{'family':22} {'match (A v B)':>24} {'games':>5} {'hands':>5}  "
        f"{'bid/made':<32} {'thrown':>6} {'illegal':>7}  {'A win rate (95% CI)':<20}  A−B points a hand (95% CI)"
    )
    for family in FAMILIES:
        if args.only and family.name.split()[0] not in args.only:
            continue
        if args.games > 0:
            print(row(family, "heuristic", family.rival, args.games, args.seed, False))
        if args.pimc_hands > 0:
            print(row(family, "pimc", "heuristic", args.pimc_hands, args.seed, True))
    if args.hi_lo_hands > 0 and (not args.only or "hi_lo" in args.only):
        hi_lo_play(args.hi_lo_hands, args.seed)
    if args.inkle_hands > 0 and (not args.only or "inkle" in args.only):
        throw_ins(args.inkle_hands, args.seed)


if __name__ == "__main__":
    main()
