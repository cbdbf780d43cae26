"""``fivehundred analyse --review SEAT``: on constructed hands where the best card, call or
discard is known, the review names it; its card numbers agree with ``fivehundred analyse``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("fivehundred.solver")

from fivehundred.actions import PASS, parse_action
from fivehundred.bots.heuristic import HeuristicPlayer
from fivehundred.cards import mask_of, parse_cards
from fivehundred.cli import main
from fivehundred.game import HandState
from fivehundred.record import hand_record
from fivehundred.rules import make_rules
from fivehundred.solver import card_values

MONSTER = ["JK", "JH", "JD", "AH", "KH", "QH", "10H", "AS", "AC", "AD"]


def _deal() -> HandState:
    rules = make_rules()
    south = parse_cards(MONSTER)
    kitty = parse_cards(["5S", "6S", "5C"])
    rest = [c for c in HandState.deal(rules, 3, seed=11).dealt for c in _cards(c)]
    rest = sorted(c for c in rest if c not in south and c not in kitty)
    extra = [
        c
        for c in _cards(HandState.deal(rules, 3, seed=11).kitty_dealt)
        if c not in south and c not in kitty
    ]
    others = sorted(rest + extra)
    hands = [mask_of(south), mask_of(others[0:10]), mask_of(others[10:20]), mask_of(others[20:30])]
    return HandState(rules, 3, hands, mask_of(kitty))


def _cards(mask: int) -> list[int]:
    return [c for c in range(66) if mask >> c & 1]


def _finish(state: HandState) -> HandState:
    players = [HeuristicPlayer(seed=seat) for seat in range(4)]
    while not state.is_over:
        seat = state.to_move
        state.apply(players[seat].act(state.observation(seat)))
    return state


def _write(tmp_path: Path, state: HandState) -> str:
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(hand_record(state)))
    return str(path)


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    status = main(["analyse", *argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_a_pass_with_a_monster_is_named(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    state = _deal()
    state.apply(PASS)  # South passes ten sure tricks in hearts
    path = _write(tmp_path, _finish(state))
    status, out, err = _run(capsys, ["--review", "0", "--json", path])
    assert status == 0, err
    review = json.loads(out)
    first = review["calls"][0]
    assert first["made"] == "pass" and not first["agrees"]
    assert first["suggested"].endswith("H")  # the search player bids hearts
    # valued on the same sampled deals: passing (nothing stands) 0, the hearts bid more
    assert first["points"] == 0 and first["suggested_points"] > 0
    assert first["cost"] == first["suggested_points"]
    assert review["accuracy"]["calls"] == 0.0
    status, text, _ = _run(capsys, ["--review", "South", path])
    assert "you called pass; the search player calls" in text
    assert "deals that fit the auction: pass +0 points expected" in text


def test_discarding_the_bowers_is_named(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    state = _deal()
    for text in ["6H", "pass", "pass", "pass"]:
        state.apply(parse_action(text, state.phase))
    for text in ["JK", "JH", "JD"]:  # the three top trumps thrown away
        state.apply(parse_action(text, "discard"))
    path = _write(tmp_path, _finish(state))
    status, out, err = _run(capsys, ["--review", "0", "--json", path])
    assert status == 0, err
    discard = json.loads(out)["discards"][0]
    assert discard["made"] == "JD JH JK"
    assert discard["cost"] >= 2 and discard["best_tricks"] > discard["tricks"]
    assert "JK" not in discard["best"]
    status, text, _ = _run(capsys, ["--review", "0", path])
    assert "discard: throwing J♦ J♥ JK" in text


def _hand_with_a_slip(seat: int) -> tuple[HandState, int, str, int]:
    """A computer hand where ``seat`` plays the worst card at its first turn with a
    costly one: (the hand, the trick number, the card, the tricks it cost)."""
    rules = make_rules()
    for seed in range(40):
        state = HandState.deal(rules, 0, seed=seed)
        players = [HeuristicPlayer(seed=s) for s in range(4)]
        slip = None
        while not state.is_over:
            mover = state.to_move
            action = players[mover].act(state.observation(mover))
            if slip is None and state.phase == "play" and mover == seat and state.contract < 100:
                values = card_values(state)
                mine = mover in (state.contractor, *state.partners)
                worst = (min if mine else max)(values, key=lambda a: (values[a], a))
                best = (max if mine else min)(values.values())
                if values[worst] != best:
                    action = worst
                    slip = (len(state.tricks) + 1, worst, abs(best - values[worst]))
            state.apply(action)
        if slip is not None:
            return state, *slip
    raise AssertionError("no hand with a slip")


def test_a_costly_card_is_named_and_agrees_with_analyse(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from fivehundred.actions import action_text

    state, trick, card, cost = _hand_with_a_slip(1)
    path = _write(tmp_path, state)
    status, out, _ = _run(capsys, ["--review", "1", "--json", path])
    assert status == 0
    review = json.loads(out)
    mine = [m for m in review["cards"] if m["trick"] == trick]
    assert mine and mine[0]["card"] == action_text(card) and mine[0]["cost"] == cost
    status, out, _ = _run(capsys, ["--json", path])
    analysis = json.loads(out)
    theirs = [m for m in analysis["mistakes"] if m["seat"] == 1]
    ours = [
        {k: v for k, v in m.items() if k not in ("phase", "hand", "changed", "defending", "misere")}
        for m in review["cards"]
    ]
    assert ours == theirs
    played = review["counts"]["cards"]
    assert played == 10
    assert review["accuracy"]["cards"] == round((played - len(theirs)) / played, 3)
    status, text, _ = _run(capsys, ["--review", "1", path])
    assert f"trick {trick}:" in text and "Accuracy:" in text


def test_bad_seat_is_one_line(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    state = _deal()
    state.apply(PASS)
    path = _write(tmp_path, _finish(state))
    for bad in ("7", "Nowhere"):
        status, _, err = _run(capsys, ["--review", bad, path])
        assert status == 2 and err.count("\n") == 1 and "seat" in err


def test_two_handed_review_names_legal_cards_and_marks_estimates() -> None:
    """R-PLAYERS two_handed: the review's costly cards are cards that could be played
    (never a dummy's face-down card) and, while face-down cards lie, say they are
    estimates; so does a discard judged from a first lead with face-down cards."""
    from fivehundred.analysis.analyse import start_of_play
    from fivehundred.analysis.review import item_text, review_cards, review_discard
    from fivehundred.record_cli import random_hand

    rules = make_rules("two_handed")
    said = []
    for seed in range(1, 7):
        hand = random_hand(rules, seed)
        if hand.contractor < 0 or not hand.tricks:
            continue
        legal = {}
        replay = start_of_play(hand)
        for action in hand.history[len(replay.history) :]:
            legal[(len(replay.tricks) + 1, replay.to_move)] = replay.legal_actions()
            replay.apply(action)
        for seat in (0, 1):
            _, mistakes = review_cards(hand, seat)
            for item in mistakes:
                best = parse_action(item["best"], "play")
                assert best in legal[(item["trick"], seat)], item
                said.append(item_text({"hand": 1, **item}))
        discard = review_discard(hand, hand.contractor, (), seed)
        if discard is not None:
            assert discard["exact"] is False
            text = item_text({"hand": 1, **discard})
            assert "double dummy" not in text and "an estimate" in text
    assert said and any("(an estimate: face-down cards)" in text for text in said)
