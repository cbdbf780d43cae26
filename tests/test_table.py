"""The one table model: seats and their players, refusals, seeded computer decisions,
undo, and records that rebuild the table by replaying its log."""

from __future__ import annotations

import pickle
import random

import pytest

from fivehundred.actions import PASS, bid_action
from fivehundred.bots.decide import decide
from fivehundred.errors import IllegalActionError, RecordError
from fivehundred.game import AUCTION, DISCARD, PLAY, GameState
from fivehundred.rules import PRESETS, make_rules
from fivehundred.table import HUMAN, NotYourTurnError, SeatingError, Table


def finish_hand(table: Table) -> None:
    """Let the computer players play until the hand in progress is over."""
    hands = len(table.game.finished_hands)
    while not table.is_over and len(table.game.finished_hands) == hands:
        table.step_computer()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_plays_a_hand_with_computer_players(preset: str) -> None:
    rules = make_rules(preset)
    names = ["heuristic", "random"] * rules.players
    table = Table(rules, names[: rules.players], seed=3)
    assert table.to_move in range(rules.players)
    finish_hand(table)
    hand = table.game.finished_hands[0]
    assert hand.is_over and table.hand_number == (1 if table.is_over else 2)
    # The record rebuilds the same table, and the next decision is the same.
    again = Table.from_record(table.record())
    assert again.players == table.players
    assert again.game.scores == table.game.scores
    if not table.is_over:
        assert again.hand.dealt == table.hand.dealt
        assert again.computer_choice() == table.computer_choice()


def test_a_whole_game_is_played_to_the_target() -> None:
    table = Table(make_rules("australian", {"target": 150}), ["random"] * 4, seed=5)
    while not table.is_over:
        table.step_computer()
    assert table.game.winner is not None and table.to_move == -1
    assert Table.from_record(table.record()).game.winner == table.game.winner


def test_the_same_seed_makes_the_same_decisions() -> None:
    rules = make_rules("three_handed")
    first = Table(rules, ["heuristic"] * 3, seed=21)
    second = Table(rules, ["heuristic"] * 3, seed=21)
    finish_hand(first)
    finish_hand(second)
    assert first.game.finished_hands[0].history == second.game.finished_hands[0].history
    other = Table(rules, ["heuristic"] * 3, seed=22)
    finish_hand(other)
    assert other.game.finished_hands[0].history != first.game.finished_hands[0].history


def test_refusals_change_nothing() -> None:
    table = Table(make_rules(), [HUMAN] * 4, seed=1)
    seat = table.to_move
    before = table.record()
    with pytest.raises(NotYourTurnError):
        table.apply((seat + 1) % 4, PASS)
    with pytest.raises(IllegalActionError) as error:
        table.apply(seat, 3)  # a card in the auction
    assert not isinstance(error.value, NotYourTurnError)
    assert table.record() == before
    with pytest.raises(NotYourTurnError):
        table.computer_choice()  # a person's seat


def test_seating_is_checked() -> None:
    with pytest.raises(SeatingError, match="3 players"):
        Table(make_rules("three_handed"), ["random"] * 4, seed=1)
    with pytest.raises(SeatingError, match="unknown player"):
        Table(make_rules(), ["random", "nobody", "random", "random"], seed=1)
    record = Table(make_rules(), ["random"] * 4, seed=1).record()
    record["players"] = ["random"] * 3
    with pytest.raises(RecordError, match="players"):
        Table.from_record(record)
    del record["players"]
    with pytest.raises(RecordError, match="players"):
        Table.from_record(record)
    assert Table.from_record(record, players=[HUMAN] * 4).players == (HUMAN,) * 4


def test_undo_takes_back_a_whole_kitty_exchange() -> None:
    table = Table(make_rules(), [HUMAN] * 4, seed=8)
    contractor = table.to_move
    table.apply(contractor, bid_action(6, 0))
    while table.hand.phase == AUCTION:
        table.apply(table.to_move, PASS)
    assert table.hand.phase == DISCARD and table.to_move == contractor
    calls = len(table.hand.history)
    for card in table.legal_actions()[:3]:
        table.apply(contractor, card)
    assert table.hand.phase == PLAY and table.to_move == contractor  # the contractor leads
    table.apply(contractor, table.legal_actions()[0])
    table.apply(table.to_move, table.legal_actions()[0])
    assert table.undo(contractor)  # the lead
    assert len(table.hand.history) == calls + 3
    assert table.undo(contractor)  # the whole exchange
    assert table.hand.phase == DISCARD and len(table.hand.history) == calls
    assert table.hand.discards_left == 3
    assert table.undo(contractor)  # then the bid
    assert table.hand.history == [] and table.to_move == contractor


def test_two_handed_dummies_are_decided_by_their_controller() -> None:
    rules = make_rules("two_handed")
    table = Table(rules, [HUMAN, "heuristic"], seed=4)
    seen_dummy = False
    while not table.is_over and not table.game.finished_hands:
        if table.to_move == 0:
            if table.seat_to_move == 2:
                seen_dummy = True
                before = len(table.hand.history)
                table.apply(0, table.legal_actions()[0])
                assert table.undo(0) and len(table.hand.history) == before
            table.apply(0, table.legal_actions()[-1])
        else:
            assert table.is_computer(table.seat_to_move)
            table.step_computer()
    assert seen_dummy


def test_decide_is_picklable_and_seeded() -> None:
    table = Table(make_rules(), ["heuristic"] * 4, seed=2)
    obs = pickle.loads(pickle.dumps(table.observation(table.to_move)))
    function = pickle.loads(pickle.dumps(decide))
    assert function("heuristic", 9, obs) == decide("heuristic", 9, obs)
    action, why = decide("heuristic", 9, obs)
    assert action in obs.legal and why


def _step(table: Table) -> int:
    """Let the computer player to move decide; the controller of the seat that moved."""
    seat = table.controller_of(table.seat_to_move)
    table.step_computer()
    return seat


def test_undo_keeps_the_ralphed_contractor_barred() -> None:
    """R-HOUSE ralphing: undoing in the hand after a ralphed contract keeps the bar (it was
    lifted: the hand was rebuilt from its deal without the barred seats)."""
    rules = make_rules("australian", {"ralphing": True})
    for seed in range(60):
        # the first bidder bids 6♠, the others pass, random play: until a contractor fails
        # by three
        game = GameState(rules, seed=seed, first_dealer=0)
        rng = random.Random(seed)
        while not game.is_over and not game.hand.barred and len(game.finished_hands) < 6:
            legal = game.legal_actions()
            if game.hand.phase == AUCTION:
                bid = game.hand.auction.contract >= 0
                game.apply(PASS if bid or len(legal) == 1 else legal[1])
            else:
                game.apply(legal[rng.randrange(len(legal))])
        if not game.hand.barred:
            continue
        barred = game.hand.barred
        table = Table(rules, ["random"] * 4, seed, game=game)
        _step(table)
        seat = _step(table)
        before = list(table.hand.history)
        assert table.undo(seat)
        assert table.hand.barred == barred
        assert table.hand.history == before[: len(table.hand.history)]
        assert table.game.barred == barred
        return
    raise AssertionError("no contractor failed by three in 60 games")


def test_undo_after_a_claimed_hand() -> None:
    """R-HOUSE claim: undo after a claimed hand replays it (the history holds the claim and
    its play-out; replaying them crashed with IllegalActionError). Undoing the claim itself
    goes back to the contractor on lead."""
    import fivehundred.solver  # noqa: F401  (the solver judges claims)
    from fivehundred.actions import CLAIM

    rules = make_rules("australian", {"claim": True})
    for seed in range(40):
        table = Table(rules, ["heuristic"] * 4, seed)
        while not table.is_over and not table.game.finished_hands:
            hand = table.hand
            if hand.may_claim and len(hand.tricks) >= 5 and hand.to_move == hand.contractor:
                break
            table.step_computer()
        if table.is_over or table.game.finished_hands:
            continue
        contractor = table.hand.contractor
        claimer = table.controller_of(contractor)
        position = len(table.hand.history)
        table.apply(table.seat_to_move, CLAIM)
        assert len(table.game.finished_hands) == 1
        claimed = table.game.finished_hands[0]
        assert claimed.history[position] == CLAIM
        result = claimed.result
        scores = list(table.game.scores)
        while table.controller_of(table.seat_to_move) == claimer:
            table.step_computer()
        seat = _step(table)  # someone other than the claimer acts in the next hand
        assert table.undo(seat)
        assert len(table.game.finished_hands) == 1
        again = table.game.finished_hands[0]
        assert again.history == claimed.history and again.result == result
        assert table.game.scores == scores
        # undo as far as the claim: the contractor is on lead again and may claim
        while table.undo(claimer) and table.game.finished_hands:
            pass
        assert not table.game.finished_hands
        assert table.hand.history == claimed.history[:position]
        assert table.hand.may_claim and table.hand.to_move == contractor
        return
    raise AssertionError("no claimable contract in 40 games")
