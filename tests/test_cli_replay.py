"""``fivehundred replay`` and ``fivehundred record`` (run in-process through
``fivehundred.cli.main``, and twice as real subprocesses)."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from conftest import AUS, apply_text, deal_hand, load_golden, revoke_record
from fivehundred.cards import card_symbol, parse_card
from fivehundred.cli import main
from fivehundred.record import hand_record, random_hand

SRC = Path(__file__).resolve().parents[1] / "src"
NT_HANDS = {1: "JK 6S AH KH QH 10H 9H AD KD QD", 2: "AS AC 4H KC QC JC 10C 9C 8C 7C"}
HAND_KEYS = {"contract", "contractor", "tricks", "tricks_won", "points", "made"}


def write(tmp_path: Path, data: Any, name: str = "record.json") -> str:
    path = tmp_path / name
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return str(path)


def replay(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    status = main(["replay", *argv])
    out, err = capsys.readouterr()
    return status, (json.loads(out) if status == 0 else out), err


def rejected(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, data: Any, where: str, rule: str | None
) -> str:
    """Replaying ``data`` exits 2 with one line on stderr naming ``where`` (and ``rule``)."""
    status, out, err = replay(capsys, write(tmp_path, data))
    assert status == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    assert where in err, err
    if rule is not None:
        assert f"({rule})" in err, err
    return err


# ----------------------------------------------------------------------------- results
def test_replay_complete_hand(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    state = random_hand(AUS, 5)
    status, summary, err = replay(capsys, write(tmp_path, hand_record(state)))
    assert status == 0 and err == ""
    assert set(summary) == HAND_KEYS
    assert summary["tricks"] == list(state.result.trick_winners)
    assert summary["tricks_won"] == list(state.result.tricks_won)
    assert summary["points"] == list(state.result.points)
    assert summary["made"] == state.result.made


def test_replay_from_standard_input(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    record = hand_record(random_hand(AUS, 6))
    monkeypatch.setattr(sys, "stdin", io.StringIO(json.dumps(record)))
    status, summary, _ = replay(capsys, "-")
    assert status == 0
    assert set(summary) == HAND_KEYS


def test_replay_golden_game(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    entry = load_golden("games.json")[0]
    status, summary, _ = replay(capsys, write(tmp_path, entry["record"]))
    assert status == 0
    assert summary["scores"] == entry["expected"]["scores"]
    assert summary["winner"] == entry["expected"]["winner"]


def test_replay_part_way_hand_with_legal_cards(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = deal_hand(AUS, 0, {1: "AH KH", 2: "4H 5H QS"}, "4D 5D 6D")
    apply_text(state, "7H pass pass pass 4D 5D 6D AH")
    path = write(tmp_path, hand_record(state))
    status, summary, _ = replay(capsys, path)
    assert status == 0
    assert summary == {"to_move": 2, "phase": "play"}
    status, summary, _ = replay(capsys, path, "--legal")
    # Seat 2 was also dealt J♦ (the left bower, a heart) by conftest.fill_deal.
    assert summary == {"to_move": 2, "phase": "play", "legal": ["JD", "4H", "5H"]}


def test_replay_part_way_auction_with_legal_calls(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = deal_hand(AUS, 0, {}, "4D 5D 6D")
    apply_text(state, "10D")
    status, summary, _ = replay(capsys, write(tmp_path, hand_record(state)), "--legal")
    assert status == 0
    assert summary == {
        "to_move": 2,
        "phase": "auction",
        "legal": ["pass", "open_misere", "10H", "10NT"],
    }


def test_replay_legal_lists_joker_leads_for_each_allowed_suit(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """In play, an unnominated joker appears as ``JK>S`` … for each suit it may be led as
    (R-JOKER 5): here hearts has been led already."""
    state = deal_hand(AUS, 0, NT_HANDS, "5S 5C 6C")
    apply_text(state, "6NT pass pass pass 5S 5C 6C none AH 4H 5H 5D")
    status, summary, _ = replay(capsys, write(tmp_path, hand_record(state)), "--legal")
    assert status == 0
    assert summary["to_move"] == 1 and summary["phase"] == "play"
    legal = summary["legal"]
    assert {"JK>S", "JK>C", "JK>D"} <= set(legal)
    assert "JK>H" not in legal and "JK" not in legal
    assert {"KH", "6S", "AD"} <= set(legal)


def test_replay_part_way_nomination_lists_suits(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = deal_hand(AUS, 0, NT_HANDS, "5S 5C 6C")
    apply_text(state, "6NT pass pass pass 5S 5C 6C")
    status, summary, _ = replay(capsys, write(tmp_path, hand_record(state)), "--legal")
    assert status == 0
    assert summary == {"to_move": 1, "phase": "nominate", "legal": ["S", "C", "D", "H", "none"]}


def test_record_command_round_trips_through_replay(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert main(["record", "--seed", "42"]) == 0
    text, _ = capsys.readouterr()
    record = json.loads(text)
    assert record["format"] == "fivehundred-hand/1"
    assert main(["record", "--seed", "42"]) == 0
    assert json.loads(capsys.readouterr()[0]) == record  # same seed, same record
    status, summary, _ = replay(capsys, write(tmp_path, text))
    assert status == 0 and set(summary) == HAND_KEYS
    out = tmp_path / "out.json"
    assert main(["record", "--seed", "7", "--variant", "pack45", "--out", str(out)]) == 0
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["rules"] == {"preset": "australian", "variants": {"pack45": True}}
    assert len(written["kitty"]) == 5
    status, summary, _ = replay(capsys, str(out))
    assert status == 0


def test_record_command_unknown_variant(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["record", "--variant", "no_such"]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and "no_such" in err


# ----------------------------------------------------------------------------- rejections
def test_reject_revoke(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record, card = revoke_record(13)
    err = rejected(capsys, tmp_path, record, "play[13]", "R-PLAY")
    assert card_symbol(parse_card(card)) in err and "revokes" in err
    assert re.search(r"must follow (spades|clubs|diamonds|hearts)", err), err


def test_reject_bid_that_does_not_outrank(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = hand_record(random_hand(AUS, 1))
    record.update(auction=["pass", "8D", "8C"], discards=[], play=[])
    rejected(capsys, tmp_path, record, "auction[2]", "R-BID")


def test_reject_misere_before_a_7_bid(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = hand_record(random_hand(AUS, 1))
    record.update(auction=["6S", "misere"], discards=[], play=[])
    err = rejected(capsys, tmp_path, record, "auction[1]", "R-BID")
    assert "7" in err


def test_reject_call_after_the_auction(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = hand_record(random_hand(AUS, 1))
    record.update(auction=["pass", "pass", "pass", "6S", "7S"], discards=[], play=[])
    rejected(capsys, tmp_path, record, "auction[4]", "R-BID")


def test_reject_duplicate_card(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = hand_record(random_hand(AUS, 1))
    record["hands"][2][0] = record["kitty"][0]
    rejected(capsys, tmp_path, record, "hands[2]", "R-PACK")


def test_reject_wrong_card_count(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = hand_record(random_hand(AUS, 1))
    record["hands"][2].pop()
    rejected(capsys, tmp_path, record, "hands[2]", "R-DEAL")


def test_reject_non_card_token(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = hand_record(random_hand(AUS, 1))
    record["hands"][1][3] = "QQ"
    err = rejected(capsys, tmp_path, record, "hands[1][3]", "R-PACK")
    assert "QQ" in err


def test_reject_unknown_variant(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = hand_record(random_hand(AUS, 1))
    record["rules"]["variants"] = {"pack46": True}
    err = rejected(capsys, tmp_path, record, "rules", None)
    assert "pack46" in err


def test_reject_malformed_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    err = rejected(capsys, tmp_path, '{"format": "fivehundred-hand/1", ', "record.json", None)
    assert "JSON" in err
    assert re.search(r"line \d+", err)


def test_reject_wrong_format(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = hand_record(random_hand(AUS, 1))
    record["format"] = "fivehundred/1"
    err = rejected(capsys, tmp_path, record, "format", None)
    assert "fivehundred-hand/1" in err


def test_reject_missing_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    status, _, err = replay(capsys, str(tmp_path / "nothing.json"))
    assert status == 2
    assert err.count("\n") == 1 and "nothing.json" in err


def test_replay_usage_errors_are_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay"]) == 2
    _, err = capsys.readouterr()
    assert err.count("\n") == 1 and "Traceback" not in err


# ----------------------------------------------------------------------------- real processes
def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    return env


def test_subprocess_python_m_replay_stdin() -> None:
    record = hand_record(random_hand(AUS, 9))
    done = subprocess.run(
        [sys.executable, "-m", "fivehundred", "replay", "-"],
        input=json.dumps(record),
        capture_output=True,
        text=True,
        env=_env(),
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)) == HAND_KEYS


def test_subprocess_console_script_rejects_a_revoke(tmp_path: Path) -> None:
    script = Path(sys.executable).with_name("fivehundred")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "fivehundred"]
    record, _ = revoke_record(13)
    done = subprocess.run(
        [*command, "replay", write(tmp_path, record)],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "play[13]" in done.stderr and "(R-PLAY)" in done.stderr
