"""Decision duplicate scored double dummy: the same play positions to two players, each
choice valued by solving the rest of the true deal."""

from __future__ import annotations

import pytest

from fivehundred.arena import dd_duplicate
from fivehundred.bots import HeuristicPlayer
from fivehundred.bots.simulate import contract_score
from fivehundred.game import HandState
from fivehundred.rules import make_rules

pytest.importorskip("fivehundred.solver")


def test_the_same_player_never_disagrees_with_itself() -> None:
    tasks = dd_duplicate.dd_tasks("australian", "medium", "medium", "medium", 2, seed=4)
    outcomes = [dd_duplicate.score_deal(t) for t in tasks]
    assert sum(o.decisions for o in outcomes) > 0
    assert all(not o.choices for o in outcomes)
    assert dd_duplicate.summary(outcomes)["per_decision"] == (0.0, 0.0, 0.0)


def test_each_choice_is_scored_by_the_true_deal_solved() -> None:
    tasks = dd_duplicate.dd_tasks("australian", "medium", "easy", "medium", 6, seed=2)
    outcomes = [dd_duplicate.score_deal(t) for t in tasks]
    choices = [c for o in outcomes for c in o.choices]
    assert choices, "the beginner's habits differ from the heuristic somewhere in play"
    result = dd_duplicate.summary(outcomes)
    low, mean, high = (
        result["per_disagreement"][1],
        result["per_disagreement"][0],
        result["per_disagreement"][2],
    )
    assert low <= mean <= high
    assert result["disagreements"] == len(choices)


def test_the_values_are_the_contracts_score_at_the_double_dummy_total() -> None:
    # One trick left but a card in each hand: no choice. Two left: the values are scores of
    # the contract at a trick total within reach, the contracting side's sign for it.
    rules = make_rules("australian")
    for n in range(20):
        state = HandState.deal(rules, 0, f"dd/{n}")
        players = [HeuristicPlayer(s) for s in range(4)]
        while not state.is_over and not (state.phase == "play" and len(state.tricks) == 8):
            state.apply(players[state.to_move].act(state.observation(state.to_move)))
        if state.is_over or state.contractor < 0:
            continue
        obs = state.observation(state.to_move)
        values = dd_duplicate.dd_values(state)
        assert set(values) == set(obs.legal)
        side = (obs.contractor, *obs.partners)
        won = sum(obs.tricks_won[s] for s in side)
        sign = 1 if obs.seat in side else -1
        reach = {sign * contract_score(obs.contract, t, rules) for t in range(won, won + 3)}
        assert set(values.values()) <= reach
        return
    pytest.fail("no hand reached its ninth trick")


def test_the_command_prints_both_means(capsys) -> None:
    assert dd_duplicate.main(["--a", "medium", "--b", "easy", "--hands", "2", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "a disagreement" in out and "a decision" in out
