"""The terminal pad driven by Textual's pilot, and its line mode: hands typed with the
engine's preview, a refused line that changes nothing, a correction from the table, undo,
save and continue, export, and the command's one-line errors."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from fivehundred.cli import main
from fivehundred.pad import model
from fivehundred.pad.cli import plain
from fivehundred.pad.commands import GAME_OVER, PadSession, parse_hand
from fivehundred.pad.model import Pad, PadError
from fivehundred.tui import storage

pytest.importorskip("textual")

from textual.widgets import DataTable, Input, Static

from fivehundred.pad.tui import PadApp

SIZE = (110, 36)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(storage.ENV_DATA_DIR, str(tmp_path))
    return tmp_path


def text_of(app: PadApp, selector: str) -> str:
    return str(app.query_one(selector, Static).render())


async def type_line(pilot, app: PadApp, text: str, keys: bool = False) -> None:  # type: ignore[no-untyped-def]
    """Put a line in the command box: typed key by key, or pasted whole."""
    command = app.query_one("#command", Input)
    command.value = ""
    if keys:
        await pilot.press(*list(text))
    else:
        command.value = text
    await pilot.pause()


@pytest.mark.asyncio
async def test_pad_app_with_the_pilot(tmp_path: Path) -> None:
    path = tmp_path / "pad.json"
    session = PadSession(Pad(model.new_pad(["Ann", "Bob", "Cat", "Dan"])), path)
    app = PadApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, app, "8h bob 8", keys=True)
        assert "8♥ by Bob made: Bob & Dan +300" in text_of(app, "#preview")
        assert "Ann & Cat 20 · Bob & Dan 300" in text_of(app, "#preview")
        await pilot.press("enter")
        await pilot.pause()
        assert "Ann & Cat: 20   Bob & Dan: 300" in text_of(app, "#totals")
        assert "dealer: Bob" in text_of(app, "#dealer")

        await type_line(pilot, app, "7s zed 7")  # refused: nothing changes
        assert text_of(app, "#preview").startswith("? no player 'zed'")
        await pilot.press("enter")
        await pilot.pause()
        assert "no player 'zed'" in text_of(app, "#message")
        assert len(session.pad.hands) == 1

        for line in ("misere ann made", "7s cat 4 rd", "misdeal", "6nt dan 3"):
            await type_line(pilot, app, line)
            await pilot.press("enter")
            await pilot.pause()
        assert session.pad.result.totals == [480, 180]
        assert app.query_one("#hands", DataTable).row_count == 5

        # correct the first hand from the table: the command line gets it to edit
        table = app.query_one("#hands", DataTable)
        table.focus()
        table.move_cursor(row=0)
        await pilot.press("enter")
        await pilot.pause()
        command = app.query_one("#command", Input)
        assert command.value == "edit 1 8H Bob 8"
        command.value = "edit 1 8H Bob 9"
        await pilot.press("enter")
        await pilot.pause()
        assert session.pad.result.totals == [470, 180]
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert session.pad.result.totals == [480, 180]
        await pilot.press("f3")
        await pilot.pause()
        assert "Ann & Cat: 6♠ (40) or higher, made" in text_of(app, "#message")
        await pilot.press("ctrl+y")
        await pilot.pause()
        await type_line(pilot, app, "9h ann 9")
        await pilot.press("enter")
        await pilot.pause()
        assert "Ann & Cat win: made their contract to reach 870" in text_of(app, "#dealer")
    saved = json.loads(path.read_text())
    assert saved == session.pad.data
    assert model.score_pad(saved).winner == 0


def test_line_mode_and_continue(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status = main(
        [
            "pad",
            "--new",
            "--plain",
            "--players",
            "Ann,Bob,Cat",
            "--preset",
            "three_handed",
            "--dealer",
            "cat",
        ]
    )
    assert status == 0
    lines = [
        "7H ann 7 2 1",
        "6C bob 5 4",
        "6C bob 5 3 2",
        f"export {tmp_path / 'p.json'}",
        f"csv {tmp_path / 'p.csv'}",
        "need",
    ]
    session = PadSession(
        Pad(json.loads((tmp_path / "pad.json").read_text())), tmp_path / "pad.json"
    )
    out = io.StringIO()
    plain(session, io.StringIO("\n".join(lines) + "\n"), out)
    text = out.getvalue()
    assert "Ann 200, Bob 20, Cat 10. Dealer: Ann" in text
    assert "error: hand 2: give the tricks of each of the 2 defending sides\n" in text
    assert "hands[" not in text  # the JSON path is data, not words
    assert "Ann 230, Bob -40, Cat 30. Dealer: Bob" in text
    exported = json.loads((tmp_path / "p.json").read_text())
    assert exported == session.pad.data and exported["first_dealer"] == 2
    assert (tmp_path / "p.csv").read_text().count("\n") == 3
    # a second run continues the saved pad
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["pad", "--plain"]) == 0
    assert "Ann 230, Bob -40, Cat 30" in capsys.readouterr().out


def test_command_errors_are_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["pad", "--new", "--plain", "--players", "Ann,Bob"]) == 2
    assert capsys.readouterr().err == "fivehundred pad: australian needs the names of 4 players\n"
    assert main(["pad", "--new", "--plain", "--variant", "nope"]) == 2
    assert "unknown variant 'nope'" in capsys.readouterr().err
    pad = Pad(model.new_pad(["Ann", "Anna", "Bob", "Cat", "Dan"], "five_handed"))
    with pytest.raises(PadError, match="could be Ann or Anna"):
        parse_hand(pad, "8S an 8")
    assert parse_hand(pad, "8S ann with bob 7 1 1 1") == {
        "kind": "hand",
        "contract": "8S",
        "contractor": 0,
        "partner": 2,
        "tricks": 7,
        "defenders": [1, 1, 1],
    }


@pytest.mark.parametrize("dealer", ["3", "cat", "Cat"])
def test_the_first_dealer_by_number_from_1_or_by_name(
    dealer: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--dealer 3`` and ``--dealer cat`` both make the third player, Cat, deal first."""
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert (
        main(["pad", "--new", "--plain", "--players", "Ann,Bob,Cat,Dan", "--dealer", dealer]) == 0
    )
    assert json.loads((tmp_path / "pad.json").read_text())["first_dealer"] == 2


@pytest.mark.parametrize(
    ("dealer", "said"),
    [
        ("0", "seats are 1 to 4"),
        ("5", "seats are 1 to 4"),
        ("eve", "players are Ann, Bob, Cat, Dan"),
    ],
)
def test_a_bad_first_dealer_is_one_line_in_the_same_convention(
    dealer: str, said: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert (
        main(["pad", "--new", "--plain", "--players", "Ann,Bob,Cat,Dan", "--dealer", dealer]) == 2
    )
    err = capsys.readouterr().err
    assert err.startswith("fivehundred pad: --dealer: ") and err.count("\n") == 1
    assert said in err and "0 to" not in err


@pytest.mark.asyncio
async def test_edit_shows_a_preview_and_a_finished_game_refuses_a_new_hand_as_it_says(
    tmp_path: Path,
) -> None:
    """``edit N …`` previews the corrected hand and the totals it leads to; once the game
    is over the preview and Enter agree: no new hand is written."""
    session = PadSession(Pad(model.new_pad(["Ann", "Bob", "Cat", "Dan"])), tmp_path / "p.json")
    app = PadApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await type_line(pilot, app, "6H bob 6")
        await pilot.press("enter")
        await type_line(pilot, app, "edit 1 10NT bob 10", keys=True)
        preview = text_of(app, "#preview")
        assert preview.startswith("hand 1: 10NT by Bob made: Bob & Dan +520"), preview
        assert "Ann & Cat 0 · Bob & Dan 520" in preview and "Bob & Dan win" in preview
        await pilot.press("enter")
        await pilot.pause()
        assert session.pad.result.winner == 1
        await type_line(pilot, app, "6S ann 6")
        assert text_of(app, "#preview") == f"? {GAME_OVER}"
        await pilot.press("enter")
        await pilot.pause()
        assert text_of(app, "#message") == GAME_OVER
        assert len(session.pad.hands) == 1
        # ... and the command it names starts one: same players and rules, the old pad kept
        await type_line(pilot, app, "new")
        await pilot.press("enter")
        await pilot.pause()
        assert session.pad.hands == [] and session.pad.result.winner is None
        assert session.pad.data["players"] == ["Ann", "Bob", "Cat", "Dan"]
        assert text_of(app, "#message").startswith("a new game (the last one is kept as ")
        (kept,) = (tmp_path / "pads").iterdir()
        assert len(json.loads(kept.read_text())["hands"]) == 1
        await type_line(pilot, app, "6S ann 6")
        await pilot.press("enter")
        await pilot.pause()
        assert len(session.pad.hands) == 1


@pytest.mark.parametrize(
    ("line", "contract", "tricks"),
    [
        ("7♥ ann 7", "7H", 7),
        ("10♠ bob 10", "10S", 10),
        ("open misère cat made", "open_misere", 0),
        ("Open Misère dan lost", "open_misere", 1),
        ("misère ann made", "misere", 0),
        ("8nt bob 8", "8NT", 8),
    ],
)
def test_a_hand_is_taken_in_the_forms_the_pad_prints(line: str, contract: str, tricks: int) -> None:
    """The pad prints 7♥, 10♠ and open misère: it takes them back as typed (and the
    record notation), not only 7H and open_misere."""
    pad = Pad(model.new_pad(["Ann", "Bob", "Cat", "Dan"]))
    entry = parse_hand(pad, line)
    assert (entry["contract"], entry["tricks"]) == (contract, tricks)
    with pytest.raises(PadError, match=r"not a contract of these rules \(6♠ … 10NT, misère"):
        parse_hand(pad, "11H ann 7")


def test_the_five_handed_pad_says_the_contract_once() -> None:
    """Five players: one reason line for the contract naming each partner's points (once
    the same line twice, one per partner)."""
    session = PadSession(Pad(model.new_pad(["Ann", "Bob", "Cat", "Dan", "Eve"], "five_handed")))
    said = session.run("8S eve with bob 9 1 0 0")
    assert said.startswith("8♠ by Eve with Bob made: Eve +240, Bob +240; Ann 1 trick: +10")
    assert said.count("8♠") == 1


def test_a_player_is_named_as_the_pad_prints_the_name() -> None:
    """The names the pad gives when none are given have a space (``Player 1``), as may a
    person's (``Mary Ann``): the whole name typed as the pad prints it is that player."""
    pad = Pad(model.new_pad([f"Player {seat + 1}" for seat in range(5)], "five_handed"))
    assert parse_hand(pad, "7♥ Player 1 8") == {
        "kind": "hand",
        "contract": "7H",
        "contractor": 0,
        "tricks": 8,
    }
    assert parse_hand(pad, "8S player 3 with Player 5 9 1 0 0")["partner"] == 4
    with pytest.raises(PadError, match="could be Player 1 or Player 2"):
        parse_hand(pad, "7♥ Player 8")
    pad = Pad(model.new_pad(["Mary Ann", "Bob", "Mary", "Dan"]))
    assert parse_hand(pad, "open misère Mary Ann made")["contractor"] == 0
    assert parse_hand(pad, "7♥ mary 6")["contractor"] == 2  # (a whole name of one word)
    assert parse_hand(pad, "7♥ 3 6")["contractor"] == 2
