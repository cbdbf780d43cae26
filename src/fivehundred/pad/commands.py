"""The terminal pad's commands, shared by the full-screen pad and the line mode.

A hand is one line: the contract, the contractor, the tricks the contracting side took,
and what else the hand needs::

    8H bob 8              8♥ by Bob, 8 tricks
    misere ann made       misère (``lost`` or a number of tricks if it failed)
    7H ann 7 2 1          three players: then each defending side's tricks
    8S eve with bob 9     five players: the called partner (``alone`` if none)
    7S cat 4 rd           a revoke by a defender (``rc``: by the contractor)
    passed | misdeal

Other commands: ``edit N HAND`` (correct hand N), ``delete N``, ``undo``, ``redo``,
``table``, ``need``, ``new`` (a new game: same players and rules, this one kept),
``export FILE``, ``csv FILE``, ``import FILE``, ``help``.
Players are named by any unambiguous start of their name, by their whole name (``Player 1``)
or by seat number (1 = first).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fivehundred.actions import Action, action_text, is_misere, is_suit_bid, parse_call
from fivehundred.auction import allowed_contracts
from fivehundred.errors import FiveHundredError
from fivehundred.pad import model
from fivehundred.pad.model import Pad, PadError
from fivehundred.words import contract_label, parse

HELP = (
    __doc__.split("::", 1)[1].split("Players are", 1)[0].strip("\n").replace("``", "'")
    if __doc__
    else ""
)
REVOKES = {
    "rd": model.REVOKE_DEFENDER,
    "rc": model.REVOKE_CONTRACTOR,
    "revoke=defender": model.REVOKE_DEFENDER,
    "revoke=contractor": model.REVOKE_CONTRACTOR,
}


def find_player(pad: Pad, word: str) -> int:
    """A seat from a seat number (1-based) or the start of a name."""
    return seat_of(pad.data["players"], word)


def seat_of(players: list[str], word: str) -> int:
    """The seat (0-based, as the pad file counts) of a player given by a seat number
    (1-based: 1 is the first player) or by any unambiguous start of their name."""
    if word.isdigit():
        seat = int(word) - 1
        if 0 <= seat < len(players):
            return seat
        raise PadError(f"no seat {word}: seats are 1 to {len(players)}")
    matches = [seat for seat, name in enumerate(players) if name.lower().startswith(word.lower())]
    exact = [seat for seat, name in enumerate(players) if name.lower() == word.lower()]
    if len(exact) == 1:
        return exact[0]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise PadError(f"no player {word!r}: players are {', '.join(players)}")
    raise PadError(f"{word!r} could be {' or '.join(players[s] for s in matches)}")


def _player(pad: Pad, words: list[str]) -> tuple[int, int]:
    """The player the words start with, and how many words their name took: a whole name
    of several words as the pad prints it (``Player 1``, ``Mary Ann``), else one word
    (:func:`find_player`)."""
    players = pad.data["players"]
    for used in range(min(len(words) - 1, max(len(n.split()) for n in players)), 1, -1):
        typed = " ".join(words[:used]).lower()
        exact = [
            seat for seat, name in enumerate(players) if " ".join(name.split()).lower() == typed
        ]
        if len(exact) == 1:
            return exact[0], used
    return find_player(pad, words[0]), 1


def parse_hand(pad: Pad, text: str) -> dict[str, Any]:
    """One hand in the notation of the module doc → a pad entry (checked by scoring)."""
    words = text.split()
    if not words:
        raise PadError("type a hand, e.g. 8H bob 8 (help lists the commands)")
    head = words[0].lower()
    if head in (model.MISDEAL, model.PASSED, "pass", "allpass"):
        entry: dict[str, Any] = {"kind": model.MISDEAL if head == model.MISDEAL else model.PASSED}
        if words[1:]:
            try:
                entry["tricks"] = [int(n) for n in words[1:]]
            except ValueError:
                raise PadError("after 'passed' only each side's tricks (numbers)") from None
        return entry
    contract, used = _contract(pad, words)
    words = [" ".join(words[:used]), *words[used:]]
    if len(words) < 3:
        raise PadError("a hand needs the contract, the contractor and the tricks: 8H bob 8")
    contractor, used = _player(pad, words[1:])
    entry = {"kind": model.HAND, "contract": action_text(contract), "contractor": contractor}
    rest = words[1 + used :]
    if rest and rest[0].lower() == "with":
        if len(rest) < 2:
            raise PadError("'with' needs the called partner's name")
        entry["partner"], used = _player(pad, rest[1:])
        rest = rest[1 + used :]
    elif rest and rest[0].lower() == "alone":
        rest = rest[1:]
    numbers: list[int] = []
    for word in rest:
        low = word.lower()
        if low in REVOKES:
            entry["revoke"] = REVOKES[low]
        elif low in ("made", "won") and is_misere(contract):
            numbers.append(0)
        elif low in ("lost", "failed") and is_misere(contract):
            numbers.append(1)
        elif low.isdigit():
            numbers.append(int(low))
        else:
            raise PadError(f"{word!r}: expected tricks (a number), rd or rc")
    if not numbers:
        raise PadError("how many tricks did the contracting side take?")
    entry["tricks"] = numbers[0]
    if len(numbers) > 1:
        entry["defenders"] = numbers[1:]
    return entry


def _contract(pad: Pad, words: list[str]) -> tuple[Action, int]:
    """The contract that the hand's line starts with, in any form the pad prints or the
    record notation (``7♥``, ``7h``, ``10♠``, ``open misère``, ``open_misere``), and how
    many words it took."""
    contracts = allowed_contracts(pad.rules)
    for used in (3, 2, 1):  # the longest first: "open misère", "blind misère"
        if len(words) < used:
            continue
        try:
            contract = parse(" ".join(words[:used]), contracts)
        except FiveHundredError:
            continue
        if contract in contracts:
            return contract, used
    forms = ", ".join(contract_label(c) for c in contracts if not is_suit_bid(c))
    raise PadError(
        f"{words[0]!r} is not a contract of these rules (6♠ … 10NT"
        + (f", {forms})" if forms else ")")
    )


#: The terminal's words for a new hand after the end (the page has a New game button).
GAME_OVER = "the game is over: type 'new' to start a new game (same players and rules)"
#: Finished or replaced pads are kept here, beside the pad file.
PADS_DIR = "pads"


class PadSession:
    """A pad being kept in the terminal, saved to ``path`` after every change."""

    def __init__(self, pad: Pad, path: Path | None = None) -> None:
        self.pad = pad
        self.path = path

    def archive(self) -> Path | None:
        """Keep the pad file under ``pads/`` beside it (before a new one replaces it)."""
        if self.path is None or not self.path.exists():
            return None
        import time

        archive = self.path.parent / PADS_DIR / f"{time.strftime('%Y%m%d-%H%M%S')}.json"
        archive.parent.mkdir(parents=True, exist_ok=True)
        number = 1
        while archive.exists():
            number += 1
            archive = archive.with_name(f"{time.strftime('%Y%m%d-%H%M%S')}-{number}.json")
        self.path.replace(archive)
        return archive

    def new_game(self) -> str:
        """A new pad with the same players and rules; the first dealer is the one who
        would have dealt next. The old pad is kept (:meth:`archive`)."""
        import time

        data = self.pad.data
        rules = data["rules"]
        pad = model.new_pad(
            data["players"], rules["preset"], rules.get("variants", {}), self.pad.result.dealer
        )
        pad["title"] = time.strftime("%Y-%m-%d %H:%M")
        kept = self.archive()
        self.pad = Pad(pad)
        self.save()
        where = f" (the last one is kept as {kept})" if kept is not None else ""
        dealer = data["players"][self.pad.result.dealer]
        return f"a new game{where}; {dealer} deals first"

    def save(self) -> None:
        if self.path is not None:
            from fivehundred.datadir import write_json_atomic

            write_json_atomic(self.path, self.pad.data)

    def preview(self, text: str) -> str:
        """What the line would do, from the engine, without changing anything."""
        words = text.split()
        if not words or words[0].lower() in (
            "undo",
            "redo",
            "table",
            "need",
            "help",
            "export",
            "csv",
            "import",
            "delete",
        ):
            return ""
        if words[0].lower() == "new":
            return "Enter: a new game with the same players and rules (this one is kept)"
        editing = words[0].lower() == "edit"
        try:
            hands = list(self.pad.hands)
            if editing:
                index = self._index(words[1:2])
                if not 0 <= index < len(hands):
                    raise PadError(f"no hand {index + 1}")
                hands[index] = parse_hand(self.pad, " ".join(words[2:]))
            else:
                if self.pad.result.winner is not None:
                    raise PadError(GAME_OVER)
                index = len(hands)
                hands.append(parse_hand(self.pad, text))
            result = model.score_pad({**self.pad.data, "hands": hands})
        except FiveHundredError as error:
            return f"? {error}"
        line = result.lines[index]
        totals = " · ".join(f"{n} {t}" for n, t in zip(result.sides, result.totals, strict=True))
        where = f"hand {index + 1}: " if editing else ""
        ends = f"  ({result.won_by})" if result.winner is not None else ""
        return where + "; ".join(line.reasons) + f"  →  {totals}{ends}"

    def run(self, text: str) -> str:
        """Carry out one command line; returns what to tell the player (one line or a
        table). Bad input raises :class:`PadError` and changes nothing."""
        words = text.split()
        if not words:
            return ""
        head, args = words[0].lower(), words[1:]
        if head == "help":
            return HELP
        if head == "undo":
            return "undone" if self.pad.undo() and self._saved() else "nothing to undo"
        if head == "redo":
            return "redone" if self.pad.redo() and self._saved() else "nothing to redo"
        if head == "table":
            return table_text(self.pad)
        if head == "need":
            return need_text(self.pad)
        if head == "delete":
            index = self._index(args)
            self.pad.delete(index)
            self.save()
            return f"hand {index + 1} deleted"
        if head == "edit":
            index = self._index(args[:1])
            self.pad.edit(index, parse_hand(self.pad, " ".join(args[1:])))
            self.save()
            return f"hand {index + 1} corrected; the totals after it are recomputed"
        if head in ("export", "csv"):
            if len(args) != 1:
                raise PadError(f"{head} FILE")
            target = Path(args[0]).expanduser()
            try:
                if head == "csv":
                    target.write_text(model.pad_csv(self.pad.data), encoding="utf-8")
                else:
                    target.write_text(
                        json.dumps(self.pad.data, indent=1, ensure_ascii=False) + "\n",
                        encoding="utf-8",
                    )
            except OSError as error:
                raise PadError(f"cannot write {target}: {error.strerror}") from None
            return f"written to {target}"
        if head == "import":
            if len(args) != 1:
                raise PadError("import FILE")
            self.pad = Pad(read_pad(Path(args[0]).expanduser()))
            self.save()
            return f"imported {len(self.pad.hands)} hands"
        if head == "new":
            if args:
                raise PadError("new takes nothing more: the same players and rules")
            return self.new_game()
        if self.pad.result.winner is not None:
            raise PadError(GAME_OVER)
        entry = parse_hand(self.pad, text)
        self.pad.add(entry)
        self.save()
        line = self.pad.result.lines[-1]
        return "; ".join(line.reasons)

    def _saved(self) -> bool:
        self.save()
        return True

    def _index(self, args: list[str]) -> int:
        if len(args) != 1 or not args[0].isdigit():
            raise PadError("which hand? give its number, e.g. edit 3 8H bob 9")
        return int(args[0]) - 1


def read_pad(path: Path) -> dict[str, Any]:
    """Read and check a pad file; a one-line :class:`PadError` for anything wrong."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise PadError(f"cannot read {path}: {error.strerror}") from None
    except (ValueError, UnicodeDecodeError):
        raise PadError(f"{path} is not a JSON file") from None
    model.score_pad(data)
    return dict(data)


def table_text(pad: Pad) -> str:
    """The bid table of the pad's rules, from the engine."""
    table = model.bid_table(pad.rules)
    lines = [
        f"bid values ({table['table'].replace('_', ' ')})",
        "      " + "".join(f"{s:>6}" for s in table["strains"]),
    ]
    for row in table["rows"]:
        lines.append(f"{row['tricks']:>4}  " + "".join(f"{v:>6}" for v in row["values"]))
    if table["misere"]:
        lines.append("  ".join(f"{m['label']} {m['value']}" for m in table["misere"]))
    return "\n".join(lines)


def need_text(pad: Pad) -> str:
    """What each side needs to win the game from here (the engine's answer)."""
    answers = model.needed_to_win(pad.data, pad.result)
    if not answers:
        return pad.result.won_by or "the game is over"
    return "\n".join(
        f"{a['name']}: {a['label']} ({a['value']}) or higher, made"
        if a["contract"]
        else f"{a['name']}: no single contract wins from here"
        for a in answers
    )


def hand_text(pad: Pad, index: int) -> str:
    """A short description of hand ``index`` as written."""
    entry = pad.hands[index]
    players = pad.data["players"]
    if entry["kind"] != model.HAND:
        return str(entry["kind"])
    text = f"{model.contract_label(parse_call(entry['contract']))} {players[entry['contractor']]}"
    if entry.get("partner") is not None:
        text += f"+{players[entry['partner']]}"
    text += f" {entry['tricks']}"
    if entry.get("defenders"):
        text += " (" + "/".join(str(d) for d in entry["defenders"]) + ")"
    if entry.get("revoke"):
        text += f" revoke:{entry['revoke']}"
    return text


def entry_command(pad: Pad, entry: dict[str, Any]) -> str:
    """A pad entry in the command notation (for correcting it)."""
    if entry["kind"] != model.HAND:
        return " ".join([entry["kind"], *(str(t) for t in entry.get("tricks", []))])
    players = pad.data["players"]
    words = [entry["contract"], players[entry["contractor"]].split()[0]]
    if entry.get("partner") is not None:
        words += ["with", players[entry["partner"]].split()[0]]
    words.append(str(entry["tricks"]))
    words += [str(d) for d in entry.get("defenders", [])]
    if entry.get("revoke"):
        words.append("rd" if entry["revoke"] == model.REVOKE_DEFENDER else "rc")
    return " ".join(words)
