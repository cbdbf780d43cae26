"""The daily boards (docs/duplicate.md): the same boards for everyone on a day, played in
the terminal (``fivehundred daily``) against computer players, with the par, the
traveller, standings, export and re-import."""

from __future__ import annotations

import io
import itertools
import json
from pathlib import Path

import pytest

from fivehundred.boards import import_set
from fivehundred.cards import iter_cards
from fivehundred.cli import main
from fivehundred.daily import daily_boards, daily_seed, parse_day, set_name
from fivehundred.rules import make_rules
from fivehundred.words import card_label

pytest.importorskip("numpy")
from fivehundred.tui.daily import daily_main

DAY = "2026-12-06"


class Person(io.StringIO):
    """Someone at the keyboard who passes in every auction and tries each card of the
    pack in turn until one is allowed: every line goes through the real parser and rules.
    After ``lines`` lines they stop (end of input)."""

    def __init__(self, lines: int = 100_000, first: list[str] | None = None) -> None:
        super().__init__()
        cards = [card_label(c) for c in iter_cards(make_rules().pack.cards)]
        self.script = itertools.chain(first or [], itertools.cycle(["pass", *cards]))
        self.left = lines

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if self.left <= 0:
            return ""
        self.left -= 1
        return next(self.script) + "\n"


@pytest.fixture
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("FIVEHUNDRED_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def run(args: list[str], person: Person | None = None) -> str:
    out = io.StringIO()
    assert daily_main(args, stdin=person or Person(), stdout=out) == 0
    return out.getvalue()


def test_a_days_boards_are_the_same_for_everyone_and_not_from_the_date_alone() -> None:
    assert daily_boards(DAY) == daily_boards(parse_day(DAY))
    assert daily_boards(DAY) != daily_boards("2026-12-07")
    assert daily_boards(DAY, secret="server") != daily_boards(DAY)
    assert daily_seed(DAY, secret="a") != daily_seed(DAY, secret="b")
    assert daily_boards(DAY, "american")[0].preset == "american"
    assert len(daily_boards(DAY)) == 12
    assert set_name(DAY) == "daily 2026-12-06 australian"
    for bad in ("2026-13-01", "yesterday", "2026-1-1"):
        with pytest.raises(ValueError):
            parse_day(bad)
    with pytest.raises(ValueError):
        daily_boards(DAY, "three_handed")


def test_playing_the_day_shows_par_traveller_and_standings(data_dir: Path) -> None:
    text = run(["--date", DAY, "--boards", "2", "--name", "ann"])
    boards = daily_boards(DAY, count=2)
    assert "== Board 1 of 2 · dealer South ==" in text
    assert "== Board 2 of 2 · dealer West ==" in text
    for board in boards:
        assert f"-- Board {board.number} over:" in text
    assert text.count("Par: ") == 4  # each board: the line after it, and the traveller's
    assert "against par" in text
    assert text.count("Double-dummy review:") == 2  # what 'fivehundred analyse' says
    assert "standings" in text and "ann (you)" in text
    assert "Not allowed" in text  # the cards tried out of turn were refused by the rules
    # hidden cards stay hidden: nobody else's hand, nor the kitty, before the board's end
    for board in boards:
        during = text[
            text.index(f"== Board {board.number} of") : text.index(f"-- Board {board.number} over")
        ]
        assert "Kitty" not in during and "Hands as dealt" not in during
        assert "review" not in during
        assert "West   " not in during and "Traveller" not in during and "  Par:" not in during
    # a second entrant's results go on the same traveller, with matchpoints
    text = run(["--date", DAY, "--boards", "2", "--name", "bob", "--no-par"])
    assert "ann" in text and "bob (you)" in text


def test_export_reimports_and_replays_and_text_prints(data_dir: Path) -> None:
    run(["--date", DAY, "--boards", "1", "--name", "ann", "--no-par"])
    exported = data_dir / "day.json"
    printed = data_dir / "day.txt"
    assert (
        run(["--date", DAY, "--boards", "1", "--export", str(exported), "--text", str(printed)])
        == ""
    )
    data = json.loads(exported.read_text(encoding="utf-8"))
    back = import_set(data)
    assert back.boards == daily_boards(DAY, count=1)
    assert [r.entrant for r in back.results] == ["ann"]
    assert back.results[0].replay().is_over
    words = printed.read_text(encoding="utf-8")
    assert "Board 1  dealer South" in words and "ann" in words and "Standings" in words
    # the file, imported into another data directory, adds its results once
    other = data_dir / "other"
    other.mkdir()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("FIVEHUNDRED_DATA_DIR", str(other))
        text = run(
            [
                "--date",
                DAY,
                "--boards",
                "1",
                "--import",
                str(exported),
                "--export",
                str(other / "x.json"),
            ]
        )
        assert "1 results added" in text
        text = run(
            [
                "--date",
                DAY,
                "--boards",
                "1",
                "--import",
                str(exported),
                "--export",
                str(other / "x.json"),
            ]
        )
        assert "0 results added" in text
        # the printed text re-imports too (its results are the same: none new)
        text = run(["--date", DAY, "--boards", "1", "--import", str(printed)])
        assert "0 results added" in text
        # another day's boards are refused
        out = io.StringIO()
        assert (
            daily_main(
                ["--date", "2026-12-07", "--boards", "1", "--import", str(exported)], Person(), out
            )
            == 2
        )


def test_a_day_left_part_way_goes_on_at_the_next_board(data_dir: Path) -> None:
    first = run(
        ["--date", DAY, "--boards", "2", "--name", "ann", "--no-par"], Person(first=["quit"])
    )
    assert "Stopped" in first and "Board 1 over" not in first
    text = run(["--date", DAY, "--boards", "2", "--name", "ann", "--no-par"])
    assert "Board 1 over" in text
    # played: the next run starts at board 2 ... and with both played, there is nothing left
    again = run(["--date", DAY, "--boards", "2", "--name", "ann", "--no-par"])
    assert "every board of the day" in again and "== Board" not in again


def test_the_command_is_registered_and_refuses_bad_options(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["daily", "--date", "2026-02-30"]) == 2
    assert "fivehundred daily" in capsys.readouterr().err
    assert main(["daily", "--boards", "0"]) == 2
    assert main(["daily", "--level", "nobody"]) == 2
    assert main(["daily", "--help"]) == 0
