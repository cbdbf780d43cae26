"""Every command against hostile input, closed pipes, missing extras and bad options: one
line on standard error and status 2 (or a quiet end on a closed pipe), never a traceback."""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import AUS, load_golden
from fivehundred import record as record_module
from fivehundred.cli import COMMANDS, main
from fivehundred.errors import RecordError
from fivehundred.record import (
    MAX_RECORD_BYTES,
    hand_record,
    load_json,
    one_line,
    parse_record_text,
    random_hand,
)
from fivehundred.record_cli import OneLineParser

SRC = Path(__file__).resolve().parents[1] / "src"


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(SRC), env.get("PYTHONPATH")]))
    return env


def one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run ``fivehundred ARGV`` in-process: it must exit 2 with one line on stderr."""
    status = main(argv)
    out, err = capsys.readouterr()
    assert status == 2, (argv, out, err)
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert err[:-1].isprintable(), err
    assert "Traceback" not in err
    return err


# ----------------------------------------------------------------------------- hostile files
DEEP_LIST = "[" * 1000 + "]" * 1000
HOSTILE: dict[str, str | bytes] = {
    "list nested 1,000 deep": DEEP_LIST,
    "list nested 100,000 deep": "[" * 100_000 + "]" * 100_000,
    "object nested 40 deep": '{"a":' * 40 + "1" + "}" * 40,
    "deep value inside a record": '{"format": "fivehundred-hand/1", "comment": ' + DEEP_LIST + "}",
    "integer of 5,000 digits": '{"format": "fivehundred-hand/1", "dealer": ' + "7" * 5000 + "}",
    "integer of 200 digits": '{"dealer": ' + "9" * 200 + "}",
    "NaN": '{"dealer": NaN}',
    "Infinity": "[Infinity]",
    "a top-level list": "[1, 2, 3]",
    "a top-level string": '"fivehundred-hand/1"',
    "null": "null",
    "empty": "",
    "not UTF-8": b"\xff\xfe{\x00}",
    "truncated": '{"format": "fivehundred-hand/1", "hands": [["AS"',
    "a lone surrogate key": '{"\\ud800": 1, "format": "fivehundred-hand/1"}',
    "a newline in a key": '{"bad\\nkey": 1, "format": "fivehundred-hand/1"}',
    "a very long key": '{"' + "k" * 50_000 + '": 1, "format": "fivehundred-hand/1"}',
}


def _write(tmp_path: Path, data: str | bytes) -> str:
    path = tmp_path / "record.json"
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8", errors="surrogatepass")
    return str(path)


@pytest.mark.parametrize("command", ["replay", "analyse"])
@pytest.mark.parametrize("name", list(HOSTILE))
def test_hostile_records_get_one_line(
    command: str, name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    err = one_line_error(capsys, [command, _write(tmp_path, HOSTILE[name])])
    assert "record.json" in err or "record:" in err or "format" in err, err
    assert len(err) <= record_module.MAX_ERROR_CHARS + 40


def test_oversized_file_is_refused_without_reading_it_all(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "big.json"
    path.write_text('{"comment": "' + "x" * MAX_RECORD_BYTES + '"}', encoding="utf-8")
    err = one_line_error(capsys, ["replay", str(path)])
    assert "too large" in err


def test_unreadable_paths(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "is a directory" in one_line_error(capsys, ["replay", str(tmp_path)])
    assert "cannot read" in one_line_error(capsys, ["replay", str(tmp_path / "none.json")])
    weird = tmp_path / "new\nline.json"
    assert "new\\nline" in one_line_error(capsys, ["replay", str(weird)])


def test_parse_record_text_raises_only_record_errors() -> None:
    replay_only = {"a lone surrogate key", "a newline in a key", "a very long key"}
    for name, data in HOSTILE.items():
        if name in replay_only:  # a JSON object: refused by replay, not by the parser
            assert isinstance(parse_record_text(data), dict)
            continue
        with pytest.raises(RecordError) as caught:
            parse_record_text(data, "x.json")
        assert caught.value.where == "x.json"
    record = hand_record(random_hand(AUS, 3))
    assert parse_record_text(json.dumps(record)) == record
    assert parse_record_text(b"\xef\xbb\xbf" + json.dumps(record).encode()) == record  # BOM


def test_load_json_reads_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("[" * 5000))
    with pytest.raises(RecordError) as caught:
        load_json("-")
    assert caught.value.where == "standard input"


def test_one_line_escapes_control_characters_and_cuts_long_text() -> None:
    assert one_line("a\nb\x1b[2Jc\ud800") == "a\\nb\\x1b[2Jc\\ud800"
    long = one_line("x" * 10_000 + " (R-PLAY)")
    assert len(long) <= record_module.MAX_ERROR_CHARS and long.endswith("(R-PLAY)")


# ----------------------------------------------------------------------------- fuzzing replay
def _records() -> list[dict[str, Any]]:
    hands = [hand_record(random_hand(AUS, seed)) for seed in range(3)]
    golden = [entry["record"] for entry in load_golden("hands.json")[:3]]
    games = [load_golden("games.json")[0]["record"]]
    return hands + golden + games


RECORDS = _records()
#: Text of any code point, control characters and lone surrogates included.
ANY_TEXT = st.text(st.characters(exclude_categories=[]) | st.sampled_from("\n\r\t\x1b"), max_size=8)
TOKENS = st.sampled_from(
    [
        "AS",
        "10H",
        "JK",
        "JK>S",
        "JKB",
        "7NT",
        "misere",
        "pass",
        "none",
        "S",
        "alone",
        "fivehundred-hand/1",
        "fivehundred-game/1",
    ]
)
JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=False)
    | ANY_TEXT
    | TOKENS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(ANY_TEXT, inner, max_size=4),
    max_leaves=12,
)


def _paths(data: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value (the keys of objects and the indexes of lists)."""
    found = [path]
    if isinstance(data, dict):
        for key, value in data.items():
            found += _paths(value, (*path, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            found += _paths(value, (*path, index))
    return found


def _mutate(record: Any, data: st.DataObject) -> str:
    record = json.loads(json.dumps(record))
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        places = _paths(record)
        if data.draw(st.booleans(), label="shallow"):  # the record's own keys, or a hand's
            places = [p for p in places if len(p) <= 3 and not (p and isinstance(p[-1], int))]
        place = data.draw(st.sampled_from(places), label="place")
        kind = data.draw(
            st.sampled_from(["replace", "delete", "wrap", "swap", "add"]), label="kind"
        )
        if not place:
            record = data.draw(JSON_VALUES) if kind == "replace" else record
            continue
        parent = record
        for step in place[:-1]:
            parent = parent[step]
        last = place[-1]
        if kind == "add" and isinstance(parent, dict):
            key = data.draw(ANY_TEXT | st.sampled_from(sorted(record_module._HAND_KEYS)))
            parent[key] = data.draw(JSON_VALUES, label="value")
        elif kind == "replace":
            parent[last] = data.draw(JSON_VALUES, label="value")
        elif kind == "delete":
            del parent[last]
        elif kind == "wrap":
            parent[last] = [parent[last]] if data.draw(st.booleans()) else {"x": parent[last]}
        elif isinstance(parent, list) and len(parent) > 1:
            other = data.draw(st.integers(0, len(parent) - 1), label="other")
            parent[last], parent[other] = parent[other], parent[last]
    text = json.dumps(record)
    if data.draw(st.integers(0, 9), label="cut") == 0:  # now and then, a cut or spliced text
        cut = data.draw(st.integers(0, len(text)), label="at")
        text = text[:cut] + data.draw(st.sampled_from(["", "[" * 2000, "1" * 5000, "\x00"]))
    return text


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(data=st.data(), which=st.integers(0, len(RECORDS) - 1))
def test_fuzzed_records_never_give_a_traceback(
    data: st.DataObject, which: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _mutate(RECORDS[which], data)
    path = tmp_path / "fuzz.json"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    status = main(["replay", str(path)])
    out, err = capsys.readouterr()
    assert status in (0, 2)
    if status == 0:
        assert err == ""
        json.loads(out)
    else:
        assert out == ""
        assert (
            err.startswith("fivehundred replay: ") and err.endswith("\n") and err.count("\n") == 1
        ), err
        assert err[:-1].isprintable(), err  # nothing that moves the cursor or the line
        assert re.search(r"\S: \S", err), err  # fivehundred replay: WHERE: WHY


def test_fuzzed_records_in_real_processes(tmp_path: Path) -> None:
    """A few mutated records through the console script: status 2, one line."""
    rng = random.Random(4)
    for index in range(3):
        record = json.loads(json.dumps(RECORDS[index]))
        record["play"][rng.randrange(len(record["play"]))] = [[[]]]
        record["hands"][index] = "9" * 4000
        path = tmp_path / f"m{index}.json"
        path.write_text(json.dumps(record), encoding="utf-8")
        done = subprocess.run(
            [sys.executable, "-m", "fivehundred", "replay", str(path)],
            capture_output=True,
            text=True,
            env=_env(),
            timeout=60,
            check=False,
        )
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr


# ----------------------------------------------------------------------------- closed pipes
@pytest.mark.parametrize(
    "argv",
    [
        ["demo", "--seed", "5"],
        ["--help"],
        ["analyse", "--help"],
        ["record", "--seed", "2"],
        ["replay", "-"],
    ],
)
def test_output_into_a_closed_pipe_ends_quietly(argv: list[str]) -> None:
    """``fivehundred demo | head -1``: the reader has gone before the first write."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # no reader at all: every write fails with EPIPE
    record = json.dumps(hand_record(random_hand(AUS, 1)))
    try:
        done = subprocess.run(
            [sys.executable, "-m", "fivehundred", *argv],
            input=record,
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            env=_env(),
            timeout=60,
            check=False,
        )
    finally:
        os.close(write_end)
    assert done.stderr == ""
    assert done.returncode == 0


# ----------------------------------------------------------------------------- missing extras
@pytest.mark.parametrize(
    ("argv", "module", "extra"),
    [
        (["play", "--plain"], "textual", "tui"),
        (["play", "--plain"], "platformdirs", "tui"),
        (["show", "--plain", "x.json"], "rich", "tui"),
        (["arena", "--team-a", "random", "--team-b", "random", "--hands", "1"], "rich", "arena"),
        (["analyse", "x.json"], "numpy", "solver"),
    ],
)
def test_missing_extra_is_named_at_once(
    argv: list[str],
    module: str,
    extra: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # what an install without the extra has
    err = one_line_error(capsys, argv)
    assert f"needs the '{extra}' extra: pip install 'fivehundred[{extra}]'" in err, err


def test_arena_plot_without_matplotlib_fails_before_playing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    plot = tmp_path / "p.png"
    argv = [
        "arena",
        "--team-a",
        "random",
        "--team-b",
        "random",
        "--hands",
        "1000",
        "--workers",
        "1",
        "--quiet",
        "--plot",
        str(plot),
    ]
    err = one_line_error(capsys, argv)
    assert "pip install 'fivehundred[arena]'" in err and not plot.exists()


def test_pimc_refuses_without_the_solver(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from fivehundred.bots import make_player, pimc

    monkeypatch.setattr(pimc, "HAVE_SOLVER", False)
    for name in ("pimc", "pimc:fast", "pimc:8"):
        with pytest.raises(pimc.PlayerUnavailableError, match=r"fivehundred\[solver\]"):
            make_player(name, 1)
    assert "fivehundred[solver]" in one_line_error(capsys, ["demo", "--bot", "pimc"])
    err = one_line_error(
        capsys, ["arena", "--team-a", "pimc", "--team-b", "random", "--hands", "1000", "--quiet"]
    )
    assert "fivehundred[solver]" in err


def test_without_numpy_in_a_real_process() -> None:
    """numpy (the solver extra) missing for real (blocked before import): analyse and pimc
    say so at once."""
    code = (
        "import sys; sys.modules['numpy'] = None\n"
        "from fivehundred.cli import main\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    for argv in (["demo", "--bot", "pimc:fast"], ["analyse", "x.json"]):
        done = subprocess.run(
            [sys.executable, "-c", code, *argv],
            capture_output=True,
            text=True,
            env=_env(),
            timeout=60,
            check=False,
        )
        assert done.returncode == 2, done.stderr
        assert done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
        assert "pip install 'fivehundred[solver]'" in done.stderr
    listed = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; sys.modules['numpy'] = None\n"
            "from fivehundred.bots import PLAYERS; print(' '.join(sorted(PLAYERS)))",
        ],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=60,
        check=True,
    )
    # What the game can offer: every player but those that need the solver.
    from fivehundred.bots import PLAYERS, SOLVER_LEVELS

    offered = listed.stdout.split()
    assert offered == sorted(set(PLAYERS) - SOLVER_LEVELS - {"pimc"})
    assert "heuristic" in offered and "random" in offered


def test_without_the_compiled_kernel_in_a_real_process() -> None:
    """The solver's C kernel not built at install (blocked before import): analyse and pimc
    say so at once, in one line naming it; the other players are still offered."""
    block = "import sys; sys.modules['fivehundred.solver._kernel'] = None\n"
    code = block + "from fivehundred.cli import main\nsys.exit(main(sys.argv[1:]))\n"
    for argv in (["demo", "--bot", "pimc:fast"], ["analyse", "x.json"]):
        done = subprocess.run(
            [sys.executable, "-c", code, *argv],
            capture_output=True,
            text=True,
            env=_env(),
            timeout=60,
            check=False,
        )
        assert done.returncode == 2, done.stderr
        assert done.stdout == "" and done.stderr.count("\n") == 1, done.stderr
        assert "C kernel (fivehundred.solver._kernel) was not built" in done.stderr
    listed = subprocess.run(
        [
            sys.executable,
            "-c",
            block + "from fivehundred.bots import PLAYERS\nprint(' '.join(sorted(PLAYERS)))",
        ],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=60,
        check=True,
    )
    from fivehundred.bots import PLAYERS, SOLVER_LEVELS

    assert listed.stdout.split() == sorted(set(PLAYERS) - SOLVER_LEVELS - {"pimc"})


# ----------------------------------------------------------------------------- options
@pytest.mark.parametrize(
    "argv",
    [
        ["demo", "--bot", "nonsense"],
        ["demo", "--bot", "pimc:0"],
        ["demo", "--bot", "cmd:"],
        ["demo", "--seed", "x"],
        ["demo", "--nonsense"],
        ["record", "--preset", "nope"],
        ["record", "--variant", "target=7"],
        ["record", "--seed", "1.5"],
        ["record", "--out", "/nonexistent/dir/x.json"],
        ["replay"],
        ["replay", "a.json", "b.json"],
        ["analyse", "--bogus"],
        ["arena", "--team-a", "nonsense", "--team-b", "random"],
        ["arena", "--team-a", "random"],
        ["arena", "--team-a", "random", "--team-b", "random", "--hands", "0"],
        ["show"],
        ["play", "--opponents", "nonsense", "--plain"],
        ["play", "--speed", "fast", "--plain"],
        ["bogus"],
    ],
)
def test_bad_options_are_one_line_usage_errors(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    one_line_error(capsys, argv)


def test_record_out_into_a_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert "cannot write" in one_line_error(capsys, ["record", "--out", str(tmp_path)])


def test_an_unknown_variant_is_answered_with_every_variant(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The list to choose from is given whole, not cut in the middle of a name."""
    from fivehundred.rules import VARIANTS

    for argv in (["record", "--variant", "bogus"], ["play", "--variant", "bogus", "--plain"]):
        error = one_line_error(capsys, argv)
        assert "…" not in error, argv
        assert all(name in error for name in VARIANTS), argv
        assert error.rstrip().endswith("(R-PRESET)"), argv


def test_record_help_names_every_preset(capsys: pytest.CaptureFixture[str]) -> None:
    from fivehundred.rules import PRESETS

    assert main(["record", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert all(name in text for name in PRESETS)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    from fivehundred import __version__

    assert main(["--version"]) == 0
    out = capsys.readouterr().out
    assert re.fullmatch(r"fivehundred \d+\.\d+\.\d+\S*\n", out)
    assert out.split()[1] == __version__


@pytest.mark.parametrize("command", list(COMMANDS))
def test_every_option_has_help(
    command: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each command's parser (caught as it parses) documents every option it has."""
    seen: list[argparse.ArgumentParser] = []

    class Caught(Exception):
        pass

    def catch(self: argparse.ArgumentParser, *args: Any, **kwargs: Any) -> Any:
        seen.append(self)
        raise Caught

    monkeypatch.setattr(OneLineParser, "parse_args", catch)
    with pytest.raises(Caught):
        main([command])
    (parser,) = seen
    assert parser.description
    for action in parser._actions:
        assert action.help and action.help.strip(), (command, action.option_strings)
    monkeypatch.undo()
    assert main([command, "--help"]) == 0
    assert capsys.readouterr().out.startswith(f"usage: fivehundred {command}")


# ----------------------------------------------------------------------------- demo
def test_demo_prints_the_result_for_people(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["demo", "--seed", "5"]) == 0
    out = capsys.readouterr().out
    assert "[" not in out and "]" not in out
    tricks = next(line for line in out.splitlines() if line.startswith("Tricks won:"))
    counts = [int(n) for n in re.findall(r"(?:South|West|North|East) (\d+)", tricks)]
    assert len(counts) == 6 and sum(counts[:4]) == 10 == sum(counts[4:])
    assert "South & North" in tricks and "West & East" in tricks
    assert re.search(
        r"^(South|West|North|East)'s \S+ (made|failed): points South & North "
        r"[+-]\d+, West & East [+-]\d+$",
        out,
        re.M,
    ), out


# ----------------------------------------------------------------------------- arena header
@pytest.mark.parametrize(
    ("size", "title"),
    [
        (["--hands", "1"], "1 duplicate deal, 2 hands"),
        (["--games", "1", "--max-hands", "1"], "1 duplicate deal, 2 games, 2 hands"),
    ],
)
def test_arena_header_counts_each_thing_once(
    size: list[str], title: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [
        "arena",
        "--team-a",
        "heuristic",
        "--team-b",
        "random",
        *size,
        "--workers",
        "1",
        "--quiet",
    ]
    assert main(argv) == 0
    header = capsys.readouterr().out.splitlines()[0].strip()
    assert header == title


def test_arena_never_starts_more_processes_than_it_can_use(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--workers 100000`` must not fork 100,000 processes: no more than the deals' tasks,
    nor than four a core."""
    from fivehundred.arena import cli as arena_cli

    asked: list[int] = []
    real = arena_cli.run_matches

    def run_matches(tasks: list[Any], workers: int, *rest: Any, **options: Any) -> Any:
        asked.append(workers)
        return real(tasks, 1, *rest)

    monkeypatch.setattr(arena_cli, "run_matches", run_matches)
    argv = [
        "arena",
        "--team-a",
        "random",
        "--team-b",
        "random",
        "--hands",
        "1",
        "--workers",
        "100000",
        "--quiet",
        "--json",
    ]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["deals"] == 1
    assert asked == [2]  # one deal, played twice with the seats swapped
