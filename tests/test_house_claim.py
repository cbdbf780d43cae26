"""Claims (RULES.md §10, R-HOUSE claim): the contractor on lead may claim the remaining
tricks; the claim is judged double dummy, a wrong one is scored as played out by the
defence that beats it and costs a further 100."""

from __future__ import annotations

import random

import pytest

from fivehundred.actions import CLAIM, PASS, parse_call
from fivehundred.bots import make_player
from fivehundred.errors import IllegalActionError
from fivehundred.game import GameState, HandState, _exhaustive_line
from fivehundred.record import hand_record, replay_hand
from fivehundred.rules import make_rules
from fivehundred.solver import claim_play_out, solve
from fivehundred.solver.samples import random_position
from fivehundred.text import result_lines

CLAIMS = make_rules("australian", {"claim": True})


def _on_lead(count: int, tricks_left: int, salt: str) -> list[HandState]:
    """Positions of suit and no-trump contracts with the contractor on lead (played at
    random without claims, then replayed under the claim rules)."""
    rng = random.Random(salt)
    out: list[HandState] = []
    while len(out) < count:
        kind = rng.choice(["suit", "nt", "nt_nominated"])
        state = random_position(rng.randrange(10**6), kind, tricks_left, 0)
        if state.to_move == state.contractor:
            out.append(
                HandState.replay(
                    CLAIMS, state.dealer, state.dealt, state.kitty_dealt, state.history
                )
            )
    return out


def test_only_the_contractor_on_lead_may_claim() -> None:
    state = HandState.deal(CLAIMS, dealer=0, seed=3)
    state.apply(parse_call("6H"))
    while state.phase == "auction":
        state.apply(PASS)
    while state.phase != "play":
        state.apply(state.legal_actions()[0])
    assert CLAIM in state.legal_actions() and state.to_move == 1
    state.apply(state.legal_actions()[0])
    assert CLAIM not in state.legal_actions()
    with pytest.raises(IllegalActionError, match="claim"):
        state.claim()
    plain = random_position(1, "suit", 5, 0)
    assert CLAIM not in plain.legal_actions()


def _claimed(state: HandState) -> HandState:
    claimed = state.clone()
    claimed.apply(CLAIM)
    while (forced := claimed.claim_next) is not None:
        assert claimed.legal_actions() == [forced]
        claimed.apply(forced)
    return claimed


def test_claims_are_judged_double_dummy() -> None:
    """A right claim takes every remaining trick; a wrong one is played out by the best
    defence (the solver's value) and costs a further 100."""
    seen = set()
    for state in _on_lead(16, 4, "claims"):
        team = (state.contractor, *state.partners)
        best = solve(state)
        everything = sum(state.tricks_won[s] for s in team) + 10 - len(state.tricks)
        done = _claimed(state)
        assert done.is_over
        total = sum(done.tricks_won[s] for s in team)
        assert total == best
        assert done.claim_wrong is (best < everything)
        seen.add(done.claim_wrong)
        side = done.contractor % 2
        value = done.result.points[side]
        unclaimed = state.clone()
        for action in claim_play_out(state):
            unclaimed.apply(action)
        assert value == unclaimed.result.points[side] - (100 if done.claim_wrong else 0)
        # The further 100 is a part of its own, named in the hand's result.
        claim_parts = [p for p in done.result.score.parts if p[1] == "claim"]
        assert claim_parts == ([(side, "claim", -100)] if done.claim_wrong else [])
        if done.claim_wrong:
            assert "the wrong claim, a further -100" in "\n".join(result_lines(done))
        # The record lists the claim and its play-out; replaying needs no judge.
        record = hand_record(done)
        assert "claim" in record["play"]
        again = replay_hand(record)
        assert again.result == done.result and again.claim_wrong == done.claim_wrong
        assert hand_record(again) == record
    assert seen == {True, False}


def test_solver_judge_agrees_with_exhaustive_search() -> None:
    for state in _on_lead(20, 3, "judges"):
        team = (state.contractor, *state.partners)
        totals = []
        for line in (claim_play_out(state), _exhaustive_line(state)):
            end = state.clone()
            for action in line:
                end.apply(action)
            totals.append(sum(end.tricks_won[s] for s in team))
        assert totals[0] == totals[1] == solve(state)


def test_a_claim_shows_the_contractors_hand() -> None:
    state = _on_lead(1, 4, "show")[0]
    state.claim(judge=False)
    for seat in state.active:
        if seat != state.contractor:
            assert dict(state.observation(seat).exposed) == {
                state.contractor: state.hands[state.contractor]
            }


@pytest.mark.parametrize("bot", ["heuristic", "pimc:4"])
def test_bots_claim_only_when_sure(bot: str) -> None:
    """R-HOUSE claim: the bots claim only sure claims (never wrong)."""
    claims = 0
    for seed in range(6 if bot == "heuristic" else 2):
        game = GameState(CLAIMS, seed=seed, first_dealer=seed % 4)
        players = [make_player(bot, seed + seat) for seat in range(4)]
        while not game.is_over and len(game.finished_hands) < 3:
            obs = game.observation(game.to_move)
            choice = players[game.to_move].act(obs)
            assert choice in obs.legal
            game.apply(choice)
        for hand in game.finished_hands:
            if hand.claim_trick >= 0:
                claims += 1
                assert not hand.claim_wrong
    assert claims > 0


def test_two_handed_claims_play_out_legally() -> None:
    """With two players each has a dummy whose face-down cards are not playable until
    uncovered: a claim's play-out chooses only legal actions and the hand ends scored."""
    rules = make_rules("two_handed", {"claim": True})
    claims = 0
    for seed in range(4, 10):
        rng = random.Random(seed)
        state = HandState.deal(rules, dealer=seed % 2, seed=seed)
        while not state.is_over:
            legal = state.legal_actions()
            if CLAIM in legal and len(state.tricks) >= 3 and rng.random() < 0.5:
                claims += 1
                action = CLAIM
            else:
                action = rng.choice([a for a in legal if a != CLAIM] or legal)
            state.apply(action)
        assert len(state.tricks) == 10
    assert claims >= 3
