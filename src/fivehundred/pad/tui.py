"""``fivehundred pad``: the score pad in the terminal (Textual), for games played with
real cards. Type a hand on the command line (``8H bob 8``); the engine's preview shows
below as you type, Enter writes it. Select a hand in the table to correct it."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import DataTable, Footer, Input, Static

from fivehundred.errors import FiveHundredError
from fivehundred.pad.commands import (
    HELP,
    PadSession,
    entry_command,
    hand_text,
    need_text,
    table_text,
)
from fivehundred.tui.hangup import watch_terminal


class PadApp(App[int]):
    """The terminal pad over a :class:`PadSession`."""

    TITLE = "500 score pad"
    CSS = """
    Screen { layout: vertical; }
    #totals { height: auto; padding: 0 1; text-style: bold; background: $boost; }
    #dealer { height: 1; padding: 0 1; color: $text-muted; }
    #hands { height: 1fr; }
    #preview { height: auto; min-height: 1; padding: 0 1; color: $accent; }
    #message { height: auto; min-height: 1; padding: 0 1; }
    #message.error { color: $error; text-style: bold; }
    #command { dock: bottom; }
    """
    BINDINGS: ClassVar[list[Any]] = [
        Binding("ctrl+z", "undo", "undo"),
        Binding("ctrl+y", "redo", "redo"),
        Binding("f2", "table", "bid table"),
        Binding("f3", "need", "to win"),
        Binding("f1", "help", "help"),
        Binding("ctrl+q", "quit", "quit"),
    ]

    def __init__(self, session: PadSession) -> None:
        super().__init__()
        self.session = session

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(id="totals")
            yield Static(id="dealer")
            yield DataTable(id="hands", cursor_type="row", zebra_stripes=True)
            yield Static(id="preview")
            yield Static(id="message")
        yield Input(placeholder="a hand (8H bob 8), or help", id="command")
        yield Footer()

    def on_mount(self) -> None:
        self.refresh_pad()
        self.query_one("#command", Input).focus()
        # the pad is saved after every change: its terminal going away just ends it
        watch_terminal(self)

    # ------------------------------------------------------------------ drawing
    def refresh_pad(self) -> None:
        pad = self.session.pad
        result = pad.result
        totals = "   ".join(
            f"{name}: {total}" for name, total in zip(result.sides, result.totals, strict=True)
        )
        self.query_one("#totals", Static).update(totals)
        players = pad.data["players"]
        if result.winner is not None:
            dealer = result.won_by
        else:
            dealer = f"dealer: {players[result.dealer]}   game to {pad.rules.target}"
        self.query_one("#dealer", Static).update(dealer)
        table = self.query_one("#hands", DataTable)
        table.clear(columns=True)
        table.add_columns("#", "dealer", "hand", *(f"{n}" for n in result.sides), "why")
        for line in result.lines:
            cells: list[Any] = [
                str(line.index + 1),
                players[line.dealer],
                hand_text(pad, line.index),
            ]
            cells += [
                f"{p:+d} = {t}" if p else f"{t}"
                for p, t in zip(line.points, line.totals, strict=True)
            ]
            cells.append("; ".join(line.reasons))
            table.add_row(*cells, key=str(line.index))
        if result.lines:
            table.move_cursor(row=len(result.lines) - 1)

    def say(self, text: str, error: bool = False) -> None:
        message = self.query_one("#message", Static)
        message.update(text)
        message.set_class(error, "error")

    # ------------------------------------------------------------------ events
    def on_input_changed(self, event: Input.Changed) -> None:
        self.query_one("#preview", Static).update(self.session.preview(event.value))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if text.lower() in ("quit", "exit"):
            self.exit(0)
            return
        try:
            answer = self.session.run(text)
        except FiveHundredError as error:
            self.say(str(error), error=True)
            return
        event.input.value = ""
        self.say(answer)
        self.refresh_pad()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        index = int(str(event.row_key.value))
        command = self.query_one("#command", Input)
        entry = self.session.pad.hands[index]
        command.value = f"edit {index + 1} {entry_command(self.session.pad, entry)}"
        command.focus()
        self.say(f"correct hand {index + 1} and press Enter")

    def _command(self, text: str) -> None:
        try:
            self.say(self.session.run(text))
        except FiveHundredError as error:
            self.say(str(error), error=True)
        self.refresh_pad()

    def action_undo(self) -> None:
        self._command("undo")

    def action_redo(self) -> None:
        self._command("redo")

    def action_table(self) -> None:
        self.say(table_text(self.session.pad))

    def action_need(self) -> None:
        self.say(need_text(self.session.pad))

    def action_help(self) -> None:
        self.say(HELP)
