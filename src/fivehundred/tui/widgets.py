"""Textual widgets of the table: cards, the bid box, the table itself."""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any, ClassVar

from rich import box
from rich.align import Align
from rich.console import Console, Group, RenderableType
from rich.padding import Padding
from rich.panel import Panel as RichPanel
from rich.table import Table
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.containers import Container, Horizontal
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Static

from fivehundred.actions import BID_BASE, Action
from fivehundred.cards import JOKER, Card, CardMask, JokerNames
from fivehundred.game import GameState
from fivehundred.observation import Observation
from fivehundred.play import PlayContext
from fivehundred.scoring import sides_count, tricks_by_side
from fivehundred.tui import render
from fivehundred.words import action_label, card_label, hand_order, rule_490_short, view_context

RED = "#e5484d"
BLACK_SUIT = "#e6e6e6"
JOKER_STYLE = "bold #d4a72c"


def card_text(card: Card, two_jokers: JokerNames = False, dim: bool = False) -> Text:
    """A card in its colour: red for ♦ ♥ (and the red joker), gold for the black joker."""
    label = card_label(card, two_jokers)
    if card >= JOKER:
        style = JOKER_STYLE if card > JOKER else f"bold {RED}"
    else:
        style = f"bold {RED}" if render.is_red(card) else f"bold {BLACK_SUIT}"
    if dim:
        style = "#6b6b6b"
    return Text(label, style=style)


def action_text(action: Action, two_jokers: JokerNames = False) -> Text:
    """An action with its suit symbols coloured (♦ ♥ in red)."""
    text = Text()
    for char in action_label(action, two_jokers):
        text.append(char, style=f"bold {RED}" if char in "♦♥" else "bold")
    return text


class CardWidget(Static, can_focus=True):
    """One card of the person's hand. Enter, space or a click chooses it."""

    DEFAULT_CSS = """
    CardWidget {
        width: 5; height: 3; border: round #8a8a8a; content-align: center middle;
        background: #1d2b1f; margin: 0 0 0 0;
    }
    CardWidget:focus { border: round #f0c674; background: #2e4532; }
    CardWidget.illegal { border: round #3c3c3c; background: #151d16; }
    CardWidget.marked { border: double #f0c674; background: #4a3f1c; }
    CardWidget.hinted { border: heavy #5fd7ff; }
    CardWidget.kitty { border: ascii #f0c674; }
    CardWidget.kitty:focus { border: ascii #ffffff; background: #2e4532; }
    CardWidget.kitty.marked { border: double #f0c674; background: #4a3f1c; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space", "choose", "Choose", show=False),
        Binding("left", "neighbour(-1)", show=False),
        Binding("right", "neighbour(1)", show=False),
    ]

    class Chosen(Message):
        def __init__(self, card: Card) -> None:
            self.card = card
            super().__init__()

    def __init__(self, card: Card, two_jokers: JokerNames) -> None:
        self.card = card
        self.two_jokers = two_jokers
        self.reason: str | None = None
        super().__init__(card_text(card, two_jokers))

    def set_state(
        self, reason: str | None, marked: bool, hinted: bool, gap: bool, kitty: bool = False
    ) -> None:
        """Show the card as playable or not (dimmed, the reason on hover), marked for
        discarding, hinted, or just taken from the kitty (``+`` corners on its frame: a
        card five cells wide has no room for a border title); ``gap``
        leaves a space before a new suit."""
        self.set_class(kitty, "kitty")
        if reason != self.reason or not self.is_mounted:
            self.reason = reason
            self.update(card_text(self.card, self.two_jokers, dim=reason is not None))
            self.tooltip = None if reason is None else f"Not allowed: {reason}"
        self.set_class(reason is not None, "illegal")
        self.set_class(marked, "marked")
        self.set_class(hinted, "hinted")
        self.styles.margin = (0, 0, 0, 1 if gap else 0)

    def action_choose(self) -> None:
        """Choose the card the cursor is on: keys arriving together (Right Right Enter in
        one write) reach this widget before the focus has moved to the cursor's card."""
        parent = self.parent
        card = self.card
        if (
            isinstance(parent, HandRow)
            and parent.cursor is not None
            and parent.cursor.parent is parent
        ):
            card = parent.cursor.card
        self.post_message(self.Chosen(card))

    def on_click(self) -> None:
        self.focus()
        self.post_message(self.Chosen(self.card))

    def action_neighbour(self, step: int) -> None:
        parent = self.parent
        if isinstance(parent, HandRow):
            parent.step_focus(self, step)

    def on_focus(self) -> None:
        parent = self.parent
        if isinstance(parent, HandRow):
            parent.cursor = self


class HandRow(Horizontal):
    """The person's hand as a row of cards, sorted for the contract."""

    DEFAULT_CSS = """
    HandRow { height: 3; width: 100%; align-horizontal: center; }
    HandRow.tight CardWidget { width: 4; border-right: none; }
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        #: The card the arrow keys move from: the focus as it will be once every key
        #: received so far is handled (focus itself moves only at the next refresh, so
        #: keys arriving together would otherwise all start from the same card).
        self.cursor: CardWidget | None = None
        #: The columns the cards take at full width (five each, one between suits).
        self.needed = 0

    def fit(self) -> None:
        """Cards that do not fit side by side (the French-Canadian kitty makes sixteen
        at 80 columns) overlap: each shows its left edge only (``tight``)."""
        width = self.size.width or self.app.size.width - 2
        self.set_class(self.needed > width, "tight")

    def on_resize(self) -> None:
        self.fit()

    def step_focus(self, origin: CardWidget, step: int) -> None:
        cards = [w for w in self.children if isinstance(w, CardWidget)]
        start = self.cursor if self.cursor in cards else origin
        if start not in cards:
            return
        target = cards[(cards.index(start) + step) % len(cards)]
        self.cursor = target
        target.focus()

    def show(
        self,
        cards: Sequence[Card],
        reasons: dict[Card, str | None],
        two_jokers: JokerNames,
        marked: set[Card],
        hinted: Card | None,
        groups: list[list[Card]],
        focus: bool,
        kitty: CardMask = 0,
    ) -> None:
        """Show these cards; the widgets are kept while the hand is unchanged (so focus
        stays put) and rebuilt when it changes."""
        current = [w for w in self.children if isinstance(w, CardWidget)]
        wanted = set(cards)
        kept = [w for w in current if w.card in wanted]
        if len(kept) < len(current) and [w.card for w in kept] == list(cards):
            # Cards played or discarded: only their widgets go (cheaper than a rebuild).
            gone = [w for w in current if w.card not in wanted]
            if self.cursor in gone:
                self.cursor = None
            if self.app.focused in gone and kept:
                kept[0].focus()
            for widget in gone:
                widget.remove()
            current = kept
        elif [w.card for w in current] != list(cards):
            focused = self.app.focused
            self.remove_children()
            self.cursor = None
            current = [CardWidget(card, two_jokers) for card in cards]
            self.mount_all(current)
            if focus or (isinstance(focused, CardWidget) and focused.parent is self):
                focus = True
        self.needed = 5 * len(cards) + max(0, len(groups) - 1)
        self.fit()
        first_of_group = {group[0] for group in groups[1:]}
        for widget in current:
            card = widget.card
            widget.set_state(
                reasons.get(card),
                card in marked,
                card == hinted,
                card in first_of_group,
                bool(kitty >> card & 1),
            )
        if focus and current:
            target = next((w for w in current if w.reason is None), current[0])
            focused = self.app.focused
            # Keep the focus on a playable card of this hand; else the first playable one.
            if not (
                isinstance(focused, CardWidget) and focused in current and focused.reason is None
            ):
                self.cursor = target
                self.call_after_refresh(target.focus)


class KeyGrid(Container):
    """A grid of buttons that the arrow keys move around (``columns`` a row; a row of
    choices is a grid of one row). Keys arriving together each move one step."""

    columns = 5

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "step(-1)", show=False),
        Binding("right", "step(1)", show=False),
        Binding("up", "row(-1)", show=False),
        Binding("down", "row(1)", show=False),
    ]

    def __init__(self, *args: Any, columns: int | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if columns is not None:
            self.columns = columns
        self.cursor: Widget | None = None

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        self.cursor = event.widget

    def action_row(self, rows: int) -> None:
        """Up or down a row: to the nearest button that can be chosen in the next row
        with one (the same column when it can), never round to the other end. The rows
        are the grid as drawn: hidden buttons take no place in it."""
        shown = [w for w in self.query("Button") if w.display]
        start = self.cursor if self.cursor in shown else self.app.focused
        if start not in shown:
            self.action_step(rows)
            return
        index = shown.index(start)
        row, column = divmod(index, self.columns)
        row += rows
        while 0 <= row * self.columns < len(shown):
            line = shown[row * self.columns : (row + 1) * self.columns]
            near = sorted(
                (abs(place - column), place) for place, w in enumerate(line) if w.focusable
            )
            if near:
                target = line[near[0][1]]
                self.cursor = target
                target.focus()
                return
            row += rows

    def action_step(self, step: int) -> None:
        buttons = [w for w in self.query("Button") if w.focusable]
        if not buttons:
            return
        all_buttons = [w for w in self.query("Button") if w.display]
        start = self.cursor if self.cursor in all_buttons else self.app.focused
        if start not in all_buttons:
            self.cursor = buttons[0]
            buttons[0].focus()
            return
        assert start is not None
        index = all_buttons.index(start)
        size = len(all_buttons)
        for _ in range(size):
            index = (index + step) % size
            if all_buttons[index].focusable:
                self.cursor = all_buttons[index]
                all_buttons[index].focus()
                return


class GridButton(Button):
    """A button of a :class:`KeyGrid`: Enter or Space press the button the grid's cursor
    is on. Keys arriving together (Right Right Enter in one write) all reach the button
    the focus started on, before the focus has moved to the cursor's button; a click or a
    press by the program presses the button itself."""

    def action_press(self) -> None:
        grid = self.parent
        cursor = grid.cursor if isinstance(grid, KeyGrid) else None
        if (
            isinstance(cursor, Button)
            and cursor is not self
            and cursor.parent is grid
            and not cursor.disabled
            and cursor.display
        ):
            cursor.press()
            return
        super().action_press()


def plural(count: int, word: str) -> str:
    """``1 card``, ``3 cards``."""
    return f"{count} {word}{'' if count == 1 else 's'}"


def table_places(seats: int) -> tuple[int, list[int], int]:
    """Where the seats sit around the table, seen from South (seat 0, at the bottom): the
    seat on the left, the seats along the top (left to right), the seat on the right."""
    if seats == 3:
        return 1, [], 2
    return 1, list(range(2, seats - 1)), seats - 1


def table_renderable(
    obs: Observation,
    hands: Sequence[CardMask] | None = None,
    title: str = "",
    compact: bool = False,
    size: tuple[int, int] | None = None,
) -> RenderableType:
    """The table seen from South: the other seats with their cards held (or shown), and
    the trick in the middle, for any number of seats. ``hands`` shows every hand face up
    (replays); ``compact`` leaves out the blank lines (a small terminal); ``size`` (width,
    height) is the room there is: a tall one gets the trick on a drawn table that reaches
    from the seats along the top down to South (at 160×50 about 30 rows stayed empty)."""
    rules = obs.rules
    two = rules.joker_names
    ctx = view_context(obs)
    played = {seat: action for seat, action in obs.trick}
    last_winner = None
    if not obs.trick and obs.tricks:
        plays, last_winner = obs.tricks[-1]
        played = {seat: action for seat, action in plays}
    exposed = dict(obs.exposed)
    if obs.seat != 0:
        exposed[obs.seat] = obs.hand  # the person's dummy, to be played now

    def seat_block(seat: int) -> Text:
        text = Text()
        name = render.seat_label(rules, seat) if seat else "You (South)"
        style = "bold"
        if obs.to_move == seat and obs.phase != "done":
            style = "bold reverse #f0c674"
        text.append(f" {name} ", style=style)
        if seat in obs.partners and seat != obs.contractor and obs.called_card >= 0:
            text.append(" ☆", style="#f0c674")
        if obs.contractor == seat and obs.contract >= BID_BASE:
            text.append(" ★", style="#f0c674")
        if obs.dealer == seat:
            text.append(" (dealer)", style="dim")
        text.append("\n")
        if seat not in obs.active and obs.active:
            text.append("sits out", style="dim")
        elif hands is not None:
            text.append_text(cards_line(hands[seat], ctx, two))
        elif seat in exposed and seat != 0:
            text.append_text(cards_line(exposed[seat], ctx, two))
        elif seat != 0:
            text.append(plural(obs.hand_sizes[seat], "card"), style="dim")
        calls = [action_label(a, two) for s, a in obs.auction if s == seat]
        if obs.phase == "auction" and calls:
            text.append(f"\nbid: {' '.join(calls)}", style="italic")
        elif obs.tricks_won[seat] and obs.contract >= BID_BASE:
            text.append(f"\n{plural(obs.tricks_won[seat], 'trick')}", style="dim")
        return text

    def played_card(seat: int) -> Text:
        action = played.get(seat)
        if action is None:
            return Text("·", style="dim")
        text = action_text(action, two)
        if last_winner is not None:
            text.stylize("dim")
            if seat == last_winner:
                text.append(" ◀", style="bold #f0c674")
        return text

    def tall_grid(
        size: tuple[int, int], top: list[int], places: dict[int, int], south: RenderableType
    ) -> Table | None:
        """The seats along the top, then West and East either side of a drawn table with
        the trick on it, then South, the table as tall as the room left allows."""
        width, height = size
        rows = []  # the trick's cards: the seats along the top, West and East, South
        if top:
            gap = "   " if len(top) == 2 else "  "
            rows.append(Text(gap).join(played_card(seat) for seat in top))
        rows += [Text.assemble(played_card(left), "     ", played_card(right)), played_card(0)]

        def build(felt: int) -> Table:
            # a wider cloth where the seats either side keep room for their names
            grid = new_grid("middle", wide_middle=columns == 3 and width >= 90)
            if top:
                grid.add_row(*spread({column: seat_block(seat) for column, seat in places.items()}))
            # the trick's rows a few lines apart (at most four) in the middle of the cloth
            inside = felt - 2
            between = max(1, min(4, (inside - len(rows)) // (len(rows) + 1)))
            lines: list[RenderableType] = []
            for index, row in enumerate(rows):
                lines += [Text()] * (between if index else 0) + [Align.center(row)]
            above = max(0, (inside - len(rows) - between * (len(rows) - 1)) // 2)
            cloth = RichPanel(
                Padding(Group(*lines), (above, 0, 0, 0)),
                box=box.ROUNDED,
                border_style="#335555",
                height=felt,
            )
            grid.add_row(
                *spread({0: seat_block(left), middle: cloth, columns - 1: seat_block(right)})
            )
            grid.add_row(*spread({middle: south}))
            return grid

        smallest = 2 * len(rows) + 1  # one line between the rows, and the edges
        console = Console(width=width, file=io.StringIO(), legacy_windows=False)
        used = len(console.render_lines(build(smallest), console.options.update_width(width)))
        used += 1 if title else 0
        used += 1 if obs.contract >= BID_BASE or last_winner is not None else 0
        spare = height - used
        if spare < 4:  # hardly taller than the table without the cloth: keep that one
            return None
        return build(smallest + spare)

    left, top, right = table_places(rules.seats)
    columns = max(3, len(top))

    def new_grid(vertical: str = "top", wide_middle: bool = False) -> Table:
        grid = Table.grid(expand=True)
        for column in range(columns):
            justify = "left" if column == 0 else "right" if column == columns - 1 else "center"
            ratio = 2 if wide_middle and column == columns // 2 else 1
            grid.add_column(justify=justify, vertical=vertical, ratio=ratio)  # type: ignore[arg-type]
        return grid

    grid = new_grid()

    def spread(cells: dict[int, RenderableType]) -> list[RenderableType]:
        return [cells.get(column, "") for column in range(columns)]

    # The seats along the top sit in the middle columns (one seat: the centre).
    if len(top) == 1:
        places = {columns // 2: top[0]}
    elif len(top) == 2:
        places = {0: top[0], columns - 1: top[1]}
    else:
        first = (columns - len(top)) // 2
        places = {first + index: seat for index, seat in enumerate(top)}
    middle = columns // 2
    if top:
        grid.add_row(*spread({column: seat_block(seat) for column, seat in places.items()}))
        # The trick stays together in the middle, each card on its seat's side: next to
        # the seats along the top it spread to the edges of a wide screen.
        gap = "   " if len(top) == 2 else "  "
        trick = Text(gap).join(played_card(seat) for seat in top)
        grid.add_row(*spread({middle: trick}))
    elif not compact:
        grid.add_row(*spread({}))
    grid.add_row(
        *spread(
            {
                0: seat_block(left),
                middle: Text.assemble(played_card(left), "     ", played_card(right)),
                columns - 1: seat_block(right),
            }
        )
    )
    grid.add_row(*spread({middle: played_card(0)}))
    if hands is not None or (0 in exposed and obs.seat != 0):
        south: RenderableType = seat_block(0)
        if hands is None:
            south = Text.assemble(seat_block(0), cards_line(exposed[0], ctx, two))
    else:
        south = Text("You (South)", style="bold reverse #f0c674" if obs.to_move == 0 else "bold")
        if obs.contractor == 0 and obs.contract >= BID_BASE:
            south.append(" ★", style="#f0c674")
        if obs.dealer == 0:
            south.append(" (dealer)", style="dim")
    grid.add_row(*spread({middle: south}))
    parts: list[RenderableType] = []
    tall = None
    if size is not None and not compact and hands is None:
        tall = tall_grid(size, top, places, south)
    if tall is not None:
        grid = tall
    if title:
        parts.append(Text(title, style="bold"))
    legend = []
    if obs.contract >= BID_BASE:
        legend.append("★ contractor")
        if obs.called_card >= 0:
            legend.append("☆ called partner")
    if last_winner is not None:
        legend.append("◀ won the last trick")
    # The legend above the table, on the right: under "You (South)" it read as if it
    # named the person.
    if legend:
        parts.append(Text(" · ".join(legend), style="dim", justify="right"))
    parts.append(grid)
    return Group(*parts)


def cards_line(mask: CardMask, ctx: PlayContext | None, two: JokerNames) -> Text:
    text = Text()
    groups = render.suit_groups(hand_order(mask, ctx), ctx)
    for index, group in enumerate(groups):
        if index:
            text.append("  ")
        for position, card in enumerate(group):
            if position:
                text.append(" ")
            text.append_text(card_text(card, two))
    return text


def info_renderable(obs: Observation, hand_number: int, scores: Sequence[int], target: int) -> Text:
    """The lines above the table: the score first (it must always show), then the hand,
    the contract and the tricks of each side."""
    rules = obs.rules
    two = rules.joker_names
    sides = range(sides_count(rules))
    text = Text()
    text.append("Score ", style="bold")
    text.append(
        " – ".join(f"{render.side_short(rules, side)} {scores[side]}" for side in sides),
        style="bold",
    )
    text.append(f" (to {target}) · Hand {hand_number}")
    text.append(f"\nDealer {render.seat_name(rules, obs.dealer)} · ")
    if obs.contract >= BID_BASE:
        text.append_text(action_text(obs.contract, two))
        side = render.side_of(rules, obs.contractor)
        text.append(f" by {render.seat_name(rules, obs.contractor)}")
        if len(render.side_seats(rules, side)) > 1:
            text.append(f" ({render.side_short(rules, side)})")
        jokers = render.joker_nominations(rules, obs.joker_suits)
        if obs.trump == 4 and jokers:
            text.append(f" · {jokers}")
        if obs.called_card >= 0:
            text.append(f" · called {card_label(obs.called_card, two)}")
        tricks = tricks_by_side(rules, obs.tricks_won)
        won = " – ".join(f"{render.side_short(rules, side)} {tricks[side]}" for side in sides)
        text.append(f" · tricks {won}", style="bold")
    elif obs.phase == "auction":
        text.append("bidding")
    elif obs.phase == "draw":
        text.append("drawing from the stock")
    elif obs.phase == "table_kitty":
        text.append("face-up cards to the kitty")
    return text


def sheet_renderable(game: GameState, rows_shown: int = 12, narrow: bool = False) -> RenderableType:
    """The score sheet: hand by hand, running totals, the 490 cap marked where it held.
    ``narrow`` (the 28-column panel of an 80-column terminal): short headers, wrapped
    where a side has several seats, totals only, and with four sides or more the
    contracts left to the log, so that every header fits."""
    rules = game.rules
    sides = range(sides_count(rules))
    with_contract = not narrow or len(sides) < 4
    table = Table(
        title="Score sheet",
        expand=True,
        box=None,
        title_style="bold",
        padding=(0, 0, 0, 1) if narrow else (0, 1),
        pad_edge=not narrow,
    )
    table.add_column("#", justify="right", style="dim", no_wrap=True)
    if with_contract:
        table.add_column("bid" if narrow else "contract", overflow="fold")
    for side in sides:
        name = render.side_short(rules, side)
        header = name.replace("+", "\n") if narrow else name[:6]
        table.add_column(header, justify="right", no_wrap=True)
    rows = render.score_sheet(game)
    for row in rows[-rows_shown:] if rows_shown > 0 else []:
        cells = []
        for side in sides:
            cell = Text(f"{row.totals[side]}")
            if row.points[side] and len(sides) == 2 and not narrow:
                cell = Text.assemble((f"{render.points_text(row.points[side])} ", "dim"), cell)
            if row.capped[side]:
                cell.append("*" if narrow else " cap", style="bold #f0c674")
            cells.append(cell)
        contract = (
            [row.contract.replace(" ✓", "✓").replace(" ✗", "✗") if narrow else row.contract]
            if with_contract
            else []
        )
        table.add_row(str(row.number), *contract, *cells)
    parts: list[RenderableType] = [table]
    if rules.rule_490 and any(any(r.capped) for r in rows):
        mark = "*" if narrow else "cap"
        parts.append(Text(f"{mark}: {rule_490_short(rules.target)}", style="dim italic"))
    elif rules.rule_490 and any(s == rules.target - 10 for s in game.scores):
        parts.append(
            Text(
                f"at {rules.target - 10}: only a contract made wins (the 490 rule)",
                style="dim italic",
            )
        )
    return Group(*parts)


class TableView(Static):
    """The table, drawn at render time for the room the widget has (a tall screen gets a
    taller table)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shown: tuple[Observation, bool] | None = None

    def show(self, obs: Observation, compact: bool) -> None:
        self.shown = (obs, compact)
        self.refresh()

    def render(self) -> RenderableType:
        if self.shown is None:
            return ""
        obs, compact = self.shown
        size = self.content_size
        return table_renderable(obs, compact=compact, size=(size.width, size.height))


class Panel(Static):
    """A static panel refreshed from the game."""


__all__ = ["CardWidget", "HandRow", "KeyGrid", "Panel", "TableView", "Widget", "table_renderable"]
