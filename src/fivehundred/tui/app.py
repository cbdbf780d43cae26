"""``fivehundred play``: the full-screen game (Textual).

You sit South (seat 0) at a table of two to six players (every preset); the seats of your
side are your partners. The computer players think in a worker thread and move at the
chosen speed; the game is saved after every action. The layout follows the terminal's
size, down to 80×24.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events, on, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Footer, Input, Label, Select, Static

from fivehundred.actions import (
    BLIND_MISERE,
    CALL_BASE,
    CLAIM,
    DOUBLE_MISERE,
    GO_ALONE,
    HI_LO,
    HOUSE_CONTRACTS,
    JOKER_LEAD_BASE,
    MISERE,
    MISERE_ACTIONS,
    OPEN_MISERE,
    PASS,
    PATASTROPHE,
    SHIELDS_DOUBLE,
    Action,
    action_card,
    bid_action,
    joker_lead_card,
)
from fivehundred.auction import allowed_contracts
from fivehundred.bots import player_choices
from fivehundred.cards import Card, JokerNames
from fivehundred.errors import FiveHundredError
from fivehundred.game import (
    AUCTION,
    CALL,
    DISCARD,
    DRAW,
    NOMINATE,
    PLAY,
    SLAM_CALL,
    SLAM_PASS,
    TABLE_DISCARD,
    TABLE_KITTY,
    TABLE_TAKE,
)
from fivehundred.messages import error_text
from fivehundred.observation import SPECTATOR
from fivehundred.rules import (
    PRESETS,
    REGISTRY,
    SWITCH,
    VARIANT_HELP,
    VARIANT_REGISTRY,
    VARIANTS,
    Rules,
    make_rules,
)
from fivehundred.tui import render, storage
from fivehundred.tui.hangup import watch_terminal
from fivehundred.tui.plain import game_end_text, history_lines, review_lines, winner_text
from fivehundred.tui.session import (
    HUMAN,
    Session,
    Settings,
    playable_presets,
)
from fivehundred.tui.widgets import (
    CardWidget,
    GridButton,
    HandRow,
    KeyGrid,
    TableView,
    action_text,
    info_renderable,
    plural,
    sheet_renderable,
)
from fivehundred.words import (
    action_label,
    card_label,
    hand_order,
    observation_prompt,
    preset_label,
    view_context,
)

#: Short labels of the bid box's calls that are words (the tooltip has the whole name).
BID_BOX_LABELS = {
    MISERE: "mis",
    OPEN_MISERE: "open",
    BLIND_MISERE: "blind",
    HI_LO: "hilo",
    DOUBLE_MISERE: "dbl",
    SHIELDS_DOUBLE: "shld",
    PATASTROPHE: "pat",
}
#: Phases in which the person chooses a card of their own hand.
HAND_PHASES = (PLAY, DISCARD, SLAM_PASS, TABLE_DISCARD)
#: Computer players that decide in about a millisecond: no thread needed.
QUICK_PLAYERS = frozenset({"random", "heuristic"})
SPEEDS = (("instant", 0.0), ("fast", 0.25), ("normal", 0.6), ("slow", 1.2))
#: Variants that take a value other than on/off (a number or a choice, as the registry
#: declares them); the options screen has fields for them, the others are tick boxes.
#: The switches that choose a scoring table (``original_1904``, ``perfect``) have no box
#: either: the Scoring drop-down is the one control for that rule (two controls for one
#: rule once locked the screen: both on, every change refused).
SCORING_SWITCHES = ("original_1904", "perfect")
VALUE_VARIANTS = (
    *(v.name for v in VARIANT_REGISTRY if v.kind != SWITCH),
    *SCORING_SWITCHES,
)


def _field_variant(name: str) -> bool:
    """Variants that set a rules field on or off (shown ticked when the preset has it on)."""
    return name in Rules.__dataclass_fields__


def variant_label(name: str, refused: str | None = None, on: bool = False) -> Text:
    """A variant in the options list: its name and its help line (``VARIANT_HELP``), or,
    when the chosen rules refuse to change it, why: a variant that cannot be ticked is
    greyed and struck through; one that is on and cannot be unticked (another rule needs
    it) stays in plain letters, marked as kept on."""
    if refused is not None and on:
        return Text.assemble((f"{name:<31}", "bold"), (f"kept on: {refused}", "dim italic"))
    if refused is not None:
        return Text.assemble((f"{name:<31}", "dim strike"), (f"✗ {refused}", "dim italic"))
    return Text.assemble((f"{name:<31}", "bold"), (VARIANT_HELP.get(name, ""), "dim"))


def rules_refusal(preset: str, variants: dict[str, Any]) -> str | None:
    """Why ``make_rules`` (its combination checks, ``rules.COMBINATION_CHECKS``) refuses
    these variants with this preset, in a few words; None when it accepts them."""
    try:
        make_rules(preset, variants)
    except FiveHundredError as error:
        return str(error.reason)
    return None


def refusal_words(name: str, reason: str) -> str:
    """A refusal said for the variant's own line: ``needs six players`` rather than
    ``variant 'teams_of_two' needs six players``."""
    own = f"variant {name!r} "
    if reason.startswith(own):
        return reason[len(own) :]
    return reason.replace("variant ", "", 1)


class TickBox(Checkbox):
    """A checkbox that shows its state as ``[x]`` / ``[ ]``, not by colour alone."""

    @property
    def _button(self) -> Content:
        style = self.get_visual_style("toggle--button")
        return Content.assemble("[", ("x" if self.value else " ", style), "]")


class OptionsScreen(ModalScreen[Any]):
    """Options at the start and from the menu: rules, players, target, seed, speed.

    Dismisses with ``("new", Settings)``, ``("apply", Settings)`` (players and speed for
    the game in progress), ``("resume", None)`` or None (cancelled)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+c", "cancel", "Cancel", show=False, priority=True),
        Binding("ctrl+n", "start", "Start new game", priority=True),
        Binding("ctrl+r", "resume", "Resume", priority=True),
    ]

    DEFAULT_CSS = """
    OptionsScreen { align: center middle; }
    #options { width: 86; max-width: 100%; height: 100%; max-height: 40; border: thick #f0c674; background: $surface; padding: 0 1; }
    #options Horizontal { height: auto; }
    #options .row Label { width: 14; padding: 1 0 0 0; }
    OptionsScreen.short #options .row Label { padding: 0; }
    #options Select { width: 26; }
    #options Input { width: 16; }
    #variants { height: 1fr; border: round #666; }
    #variants TickBox { width: 1fr; height: 1; border: none; padding: 0; }
    #variant-grid { layout: grid; grid-size: 1; grid-rows: 1; height: auto; }
    #variant-help { height: 2; color: $text-muted; }
    #option-error { color: $error; height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    #option-buttons { height: 3; align-horizontal: center; }
    #option-buttons Button { margin: 0 1; }
    """

    def __init__(self, settings: Settings, in_game: bool, can_resume: bool) -> None:
        super().__init__()
        self.settings = settings
        self.in_game = in_game
        self.can_resume = can_resume
        #: The preset whose defaults the fields show.
        self.shown_preset = settings.preset

    def compose(self) -> ComposeResult:
        settings = self.settings
        names = player_choices()  # the web lobby's list: the levels first
        names += [n for n in (settings.opponents, settings.partner) if n not in names]
        bots = [(name, name) for name in dict.fromkeys(names)]
        rules = settings.rules()
        with Vertical(id="options"):
            yield Label(Text("Five Hundred — options", style="bold"))
            with Horizontal(classes="row"):
                yield Label("Rules")
                yield Select(
                    [(preset_label(p), p) for p in playable_presets()],
                    value=settings.preset,
                    allow_blank=False,
                    id="preset",
                )
                yield Label("Target")
                yield Input(str(rules.target), id="target", type="integer")
            with Horizontal(classes="row"):
                yield Label("Opponents")
                yield Select(bots, value=settings.opponents, allow_blank=False, id="opponents")
                yield Label("Partner")
                yield Select(bots, value=settings.partner, allow_blank=False, id="partner")
            with Horizontal(classes="row"):
                yield Label("Speed")
                speed = min(SPEEDS, key=lambda item: abs(item[1] - settings.speed))[1]
                yield Select(
                    [(n, v) for n, v in SPEEDS], value=speed, allow_blank=False, id="speed"
                )
                yield Label("Seed")
                seed = "" if settings.seed is None else str(settings.seed)
                yield Input(seed, placeholder="random", id="seed", type="integer")
            with Horizontal(classes="row"):
                yield Label("Scoring")
                yield Select(
                    [(t, t) for t in REGISTRY["scoring_table"].options],
                    value=rules.scoring_table,
                    allow_blank=False,
                    id="scoring_table",
                )
            yield Static("", id="option-error")
            with Horizontal(id="option-buttons"):
                yield Button("Start new game (^N)", variant="primary", id="start")
                if self.in_game:
                    yield Button("Apply players/speed", id="apply")
                    yield Button("Cancel", id="cancel")
                if self.can_resume:
                    yield Button("Resume (^R)", id="resume")
                if not self.in_game:
                    yield Button("Quit (Esc)", id="quit")
            yield Label(Text("Variants ([x] on, [ ] off; Space toggles):", style="dim"))
            with VerticalScroll(id="variants"), Vertical(id="variant-grid"):
                for name in sorted(VARIANTS):
                    if name in VALUE_VARIANTS:
                        continue
                    box = TickBox(
                        variant_label(name), self._variant_value(name, rules), id=f"v-{name}"
                    )
                    box.tooltip = VARIANT_HELP.get(name, "")
                    yield box
            yield Static("", id="variant-help")

    def on_mount(self) -> None:
        self.query_one("#start", Button).focus()
        # A short terminal (80×24): the fields without their borders, one line each, so
        # that the list of variants has room.
        if self.app.size.height < 34:
            self.add_class("short")
            for field in self.query("#options Select, #options Input"):
                field.compact = True  # type: ignore[attr-defined]
        self.show_available()

    def chosen_variants(self, preset_name: str) -> dict[str, Any]:
        """The variants as ticked and chosen (the target left out when it is not a
        number: ``read`` says so)."""
        preset = PRESETS[preset_name]
        variants: dict[str, Any] = {}
        for name in VARIANTS:
            if name in VALUE_VARIANTS:
                continue
            value = self.query_one(f"#v-{name}", TickBox).value
            if _field_variant(name):
                if value != getattr(preset, name):
                    variants[name] = value
            elif value:
                variants[name] = True
        scoring = str(self.query_one("#scoring_table", Select).value)
        if scoring != preset.scoring_table:
            variants["scoring_table"] = scoring
        try:
            target = int(self.query_one("#target", Input).value.strip())
        except ValueError:
            return variants
        if target != preset.target:
            variants["target"] = target
        return variants

    def variant_refusals(self) -> dict[str, str]:
        """Each variant whose box may not change now, with the reason: ticking (or
        unticking) it would give rules that ``make_rules`` refuses for the chosen preset
        and the other choices."""
        preset_name = str(self.query_one("#preset", Select).value)
        preset = PRESETS[preset_name]
        chosen = self.chosen_variants(preset_name)
        refusals: dict[str, str] = {}
        for name in VARIANTS:
            if name in VALUE_VARIANTS:
                continue
            flipped = dict(chosen)
            value = not self.query_one(f"#v-{name}", TickBox).value
            default = bool(getattr(preset, name)) if _field_variant(name) else False
            if value == default:
                flipped.pop(name, None)
            else:
                flipped[name] = value
            reason = rules_refusal(preset_name, flipped)
            if reason is not None:
                refusals[name] = refusal_words(name, reason)
        return refusals

    def show_available(self) -> None:
        """Grey out (and make unselectable) every variant the chosen rules refuse, the
        reason on its line and in its tooltip; the others as usual."""
        refusals = self.variant_refusals()
        for name in VARIANTS:
            if name in VALUE_VARIANTS:
                continue
            box = self.query_one(f"#v-{name}", TickBox)
            refused = refusals.get(name)
            help_line = VARIANT_HELP.get(name, "")
            box.label = variant_label(name, refused, box.value)
            box.tooltip = help_line if refused is None else f"{help_line}\nUnavailable: {refused}"
            box.disabled = refused is not None
        preset_name = str(self.query_one("#preset", Select).value)
        problem = rules_refusal(preset_name, self.chosen_variants(preset_name))
        self.query_one("#option-error", Static).update(f"⚠ {problem}" if problem else "")

    @on(Checkbox.Changed)
    def variant_changed(self, event: Checkbox.Changed) -> None:
        self.show_available()

    @on(Select.Changed, "#scoring_table")
    def scoring_changed(self, event: Select.Changed) -> None:
        self.show_available()

    @on(Input.Changed, "#target")
    def target_changed(self, event: Input.Changed) -> None:
        self.show_available()

    @on(events.DescendantFocus)
    def focus_moved(self, event: events.DescendantFocus) -> None:
        """The whole help line of the variant with the focus (the list clips long ones)."""
        widget = event.widget
        name = (widget.id or "")[2:] if isinstance(widget, TickBox) else ""
        help_line = f"{name}: {VARIANT_HELP[name]}" if name in VARIANT_HELP else ""
        self.query_one("#variant-help", Static).update(Text(help_line))

    def _variant_value(self, name: str, rules: Rules) -> bool:
        if _field_variant(name):
            return bool(getattr(rules, name))
        return bool(self.settings.variants.get(name, False))

    @on(Select.Changed, "#preset")
    def preset_changed(self, event: Select.Changed) -> None:
        # A different preset: its own defaults for the on/off fields.
        preset = PRESETS.get(str(event.value))
        if preset is None or str(event.value) == self.shown_preset:
            return  # the preset as it was (the Select says so once it is mounted)
        self.shown_preset = str(event.value)
        for name in VARIANTS:
            if _field_variant(name) and name not in VALUE_VARIANTS:
                self.query_one(f"#v-{name}", TickBox).value = bool(getattr(preset, name))
        self.query_one("#scoring_table", Select).value = preset.scoring_table
        self.query_one("#target", Input).value = str(preset.target)
        # Switches ticked for the last preset that this one refuses: off again.
        preset_name = str(event.value)
        for name in sorted(VARIANTS):
            box = self.query_one(f"#v-{name}", TickBox) if name not in VALUE_VARIANTS else None
            if box is None or _field_variant(name) or not box.value:
                continue
            box.value = False
            if rules_refusal(preset_name, {**self.chosen_variants(preset_name), name: True}):
                continue
            box.value = True
        self.show_available()

    def read(self) -> Settings:
        """The settings as filled in; raises ValueError with a message for bad input."""
        preset_name = str(self.query_one("#preset", Select).value)
        preset = PRESETS[preset_name]
        variants = self.chosen_variants(preset_name)
        variants.pop("target", None)
        target_text = self.query_one("#target", Input).value.strip()
        try:
            target = int(target_text)
        except ValueError:
            raise ValueError(f"target must be a number, not {target_text!r}") from None
        if target != preset.target:
            variants["target"] = target
        seed_text = self.query_one("#seed", Input).value.strip()
        try:
            seed = int(seed_text) if seed_text else None
        except ValueError:
            raise ValueError(f"seed must be a whole number, not {seed_text!r}") from None
        settings = Settings(
            preset=preset_name,
            variants=variants,
            opponents=str(self.query_one("#opponents", Select).value),
            partner=str(self.query_one("#partner", Select).value),
            seed=seed,
            speed=float(self.query_one("#speed", Select).value),  # type: ignore[arg-type]
        )
        try:
            settings.rules()
        except FiveHundredError as error:
            raise ValueError(str(error)) from None
        return settings

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        button = event.button.id
        if button == "cancel":
            self.dismiss(None)
        elif button == "quit":
            self.app.exit(0)
        elif button == "resume":
            self.dismiss(("resume", None))
        elif button in ("start", "apply"):
            try:
                settings = self.read()
            except ValueError as error:
                self.query_one("#option-error", Static).update(f"⚠ {error}")
                return
            self.dismiss(("new" if button == "start" else "apply", settings))

    def action_cancel(self) -> None:
        """Escape (or Ctrl+C): back to the game, or, before any game, quit."""
        if self.in_game:
            self.dismiss(None)
        else:
            self.app.exit(0)

    def action_start(self) -> None:
        self.query_one("#start", Button).press()

    def action_resume(self) -> None:
        if self.can_resume:
            self.dismiss(("resume", None))


class TextScreen(ModalScreen[str]):
    """A box of text with buttons (hand summary, last trick, help)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("q", "quit_game", "Save & quit"),  # as on the table (the game is saved)
    ]

    DEFAULT_CSS = """
    TextScreen { align: center middle; }
    #box { width: 84; max-width: 100%; height: auto; max-height: 100%; border: thick #f0c674;
           background: $surface; padding: 0 1; }
    #box-scroll { height: auto; max-height: 1fr; }
    #box-text { height: auto; }
    #box-buttons { layout: horizontal; height: 3; align-horizontal: center; margin-top: 1; }
    #box-buttons Button { margin: 0 1; }
    """

    def __init__(
        self,
        title: str,
        body: Text | str,
        buttons: list[tuple[str, str]],
        escape: str = "close",
        extra: Text | str | None = None,
        pages: dict[str, Callable[[], str]] | None = None,
    ) -> None:
        super().__init__()
        self.title_text = title
        self.body = body
        self.buttons = buttons
        self.escape = escape
        self.extra = extra
        #: Buttons that show another text in the box, worked out in a thread (the review).
        self.pages = pages or {}

    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield Label(Text(self.title_text, style="bold"))
            with VerticalScroll(id="box-scroll"):
                yield Static(self.body, id="box-text")
            with KeyGrid(id="box-buttons", columns=len(self.buttons)):
                for label, key in self.buttons:
                    yield GridButton(label, id=f"b-{key}")

    def on_mount(self) -> None:
        self.fit(self.body)
        buttons = list(self.query(Button))
        if buttons:
            buttons[0].focus()

    def fit(self, text: Text | str) -> None:
        """Widen the box to the text's longest line (a score sheet of five or six
        players), within the screen, so that tables do not wrap where there is room."""
        lines = (text.plain if isinstance(text, Text) else text).splitlines() or [""]
        widest = max(cell_len(line) for line in lines) + 6  # the border and padding
        self.query_one("#box").styles.width = max(84, widest)

    def show_text(self, text: Text | str) -> None:
        self.fit(text)
        self.query_one("#box-text", Static).update(text)

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        event.stop()
        button = event.button
        key = (button.id or "b-close")[2:]
        if key == "hands" and self.extra is not None:
            self.show_text(self.extra)
            button.display = False
            self.focus_first_button()
            return
        if key in self.pages:
            button.disabled = True
            self.focus_first_button()
            self.query_one("#box-text", Static).update(
                "Working it out… (the first review prepares the solver)"
            )
            self.show_page(self.pages[key])
            return
        self.dismiss(key)

    def focus_first_button(self) -> None:
        """After a button that shows more (All hands, Review) goes, Enter still takes the
        first choice (Next hand)."""
        for other in self.query(Button):
            if other.display and not other.disabled:
                self.query_one("#box-buttons", KeyGrid).cursor = other
                other.focus()
                return

    @work(thread=True, exclusive=True, group="page")
    def show_page(self, make: Callable[[], str]) -> None:
        try:
            text = make()
        except Exception as error:
            text = f"Not available: {error}"
        self.app.call_from_thread(self.show_text, text)

    def action_close(self) -> None:
        self.dismiss(self.escape)

    def action_quit_game(self) -> None:
        self.app.exit(0)


HELP_TEXT = """Keys
  ← → ↑ ↓      move between your cards, the bids or the choices
  Enter Space  choose (a card, a bid, a choice)
  Escape       cancel the joker lead's suit
  d            discard the marked cards (the kitty exchange)
  c            claim the remaining tricks (house rule 'claim', on lead)
  h            hint: what the computer would do, and why
  u            undo your last move (a whole kitty exchange at once)
  l            the tricks of this hand
  p            the cards played so far, by suit
  o            options / new game (asks before putting a game aside)
  ?            this help
  q            save and quit
The table
  ★            the contractor            ☆  the called partner
  ◀            the card that won the last trick
  +            a card just taken from the kitty
Dimmed cards may not be played: hover or press one for the reason.
The mouse works too: click a card, a bid or a button.
The game is saved after every move: 'fivehundred play --resume'
continues it; 'fivehundred play --list' lists unfinished games."""


class FiveHundredApp(App[int]):
    """The table: your hand, the others' card counts, the trick, contract and score sheet."""

    TITLE = "Five Hundred"
    CSS = """
    Screen { background: #0f1a12; }
    #main { height: 1fr; }
    #left { width: 1fr; }
    #tablebox { height: 1fr; align-horizontal: center; }
    #right { width: 38; border-left: solid #355; padding: 0 1; }
    #info { height: auto; padding: 0 1; background: #1b2a1e; }
    #table { width: 1fr; max-width: 100; height: 100%; padding: 1 2;
             content-align: center middle; }
    #prompt { height: auto; min-height: 1; padding: 0 1; color: #f0c674; }
    #sheet { height: auto; max-height: 50%; }
    #logbox { height: 1fr; margin-top: 1; }
    #log { height: auto; color: #aaaaaa; }
    #controls { height: auto; padding: 0 1; }
    #bidbox { layout: grid; grid-size: 10; grid-gutter: 0 1; height: auto; width: 78;
              grid-columns: 6; }
    #bidbox Button { width: 6; min-width: 4; }
    #callbox { layout: grid; grid-size: 13; grid-gutter: 0 1; height: auto; width: 78;
               grid-columns: 5; }
    #callbox Button { width: 5; min-width: 4; }
    #callbox Button.alone { column-span: 2; width: 11; }
    #choices { layout: horizontal; height: auto; }
    #choices Button { margin: 0 1 0 0; min-width: 8; }
    Screen.narrow #right { width: 28; }
    Screen.short #table { padding: 0 1; }
    Screen.short #logbox { margin-top: 0; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "hint", "Hint"),
        Binding("u", "undo", "Undo"),
        Binding("l", "last_trick", "Tricks"),
        Binding("p", "played", "Played"),
        Binding("escape", "cancel_choice", "Cancel", show=False),
        Binding("d", "discard", "Discard", show=False),
        Binding("c", "claim", "Claim", show=False),
        Binding("o", "options", "Options"),
        Binding("question_mark", "help", "Help"),
        Binding("q", "quit_game", "Save & quit"),
    ]

    def __init__(
        self,
        session: Session | None = None,
        settings: Settings | None = None,
        options_at_start: bool | None = None,
        can_resume: bool = False,
    ) -> None:
        super().__init__()
        self.session = session
        self.settings = settings or (session.settings if session else Settings())
        self.options_at_start = session is None if options_at_start is None else options_at_start
        self.can_resume = can_resume
        self.marked: set[Card] = set()
        self.hinted: Card | None = None
        self.message: Text | str = ""
        self.choosing_joker_lead: Card | None = None
        self._shown_position: tuple[int, int] | None = None

    # ----------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        with Horizontal(id="main"):
            with Vertical(id="left"):
                yield Static(id="info")
                # the table at most 100 columns wide, in the middle of a wide screen
                with Horizontal(id="tablebox"):
                    yield TableView(id="table")
                yield Static(id="prompt")
            with Vertical(id="right"):
                yield Static(id="sheet")
                with VerticalScroll(id="logbox"):
                    yield Static(id="log")
        with Vertical(id="controls"):
            yield KeyGrid(id="bidbox", columns=10)
            yield KeyGrid(id="callbox", columns=13)
            yield KeyGrid(id="choices", columns=1000)
            yield HandRow(id="hand")
        # every key in the footer at 80 columns: no command palette entry (^p) there
        yield Footer(show_command_palette=False)

    def on_resize(self, event: events.Resize) -> None:
        self.fit_layout(event.size.width, event.size.height)

    def fit_layout(self, width: int, height: int) -> None:
        """Narrow terminals get a narrower score column, short ones a tighter table."""
        self.screen.set_class(width < 110, "narrow")
        self.screen.set_class(height < 34, "short")
        self.compact = height < 34
        if self.session is not None and self.is_running:
            self.refresh_view()

    def on_mount(self) -> None:
        self.compact = self.size.height < 34
        self.fit_layout(self.size.width, self.size.height)
        # The terminal going away ends the game, saved (fivehundred.tui.hangup).
        watch_terminal(self, self.save_before_exit)
        if self.options_at_start or self.session is None:
            self.open_options(start=True)
        else:
            self.start_session()

    def open_options(self, start: bool = False) -> None:
        screen = OptionsScreen(
            self.settings,
            in_game=not start and self.session is not None,
            can_resume=start and self.can_resume,
        )
        self.push_screen(screen, self.options_closed)

    def options_closed(self, result: Any) -> None:
        if result is None:
            if self.session is None:
                self.exit(0)
            return
        kind, settings = result
        if kind == "resume":
            try:
                self.session = Session.resume(speed=self.settings.speed)
            except storage.SaveError as error:
                self.message = Text(f"Cannot resume: {error}. Starting a new game.", style="red")
                self.session = Session.new(self.settings)
        elif kind == "apply" and self.session is not None:
            current = self.session.settings
            current.opponents, current.partner = settings.opponents, settings.partner
            current.speed = settings.speed
            self.session.table.set_players(current.seat_players(self.session.rules))
            self.session.save()
            storage.store_settings(current.to_dict())
        else:
            in_progress = (self.session is not None and not self.session.is_over) or (
                self.session is None and self.can_resume
            )
            if in_progress and not self.confirmed:
                self.confirm_new_game(settings)
                return
            self.confirmed = False
            storage.store_settings(settings.to_dict())
            self.session = Session.new(settings)
        self.settings = self.session.settings
        self.start_session()

    confirmed = False

    def confirm_new_game(self, settings: Settings) -> None:
        """Ask before a new game replaces the one in progress (which is kept)."""
        body = (
            "A game is in progress (or saved unfinished). Start a new one?\n\nIt is kept "
            f"under {storage.data_dir() / storage.GAMES_DIR}: 'fivehundred play --list' "
            "lists it and 'fivehundred play --resume N' continues it."
        )

        def answered(key: str | None) -> None:
            if key == "new":
                self.confirmed = True
                self.options_closed(("new", settings))
            elif self.session is None:
                self.open_options(start=True)  # back to the options (Resume is there)

        self.push_screen(
            TextScreen(
                "Start a new game?",
                body,
                [("Keep playing", "keep"), ("Start the new game", "new")],
                "keep",
            ),
            answered,
        )

    def start_session(self) -> None:
        session = self.session
        assert session is not None
        self._shown_position = None
        self._build_bidbox()
        self.refresh_view()
        if session.pending_summary is not None or session.is_over:
            self.show_summary()
        else:
            self.computer_turns()

    def _build_bidbox(self) -> None:
        assert self.session is not None
        rules = self.session.rules
        grid = self.query_one("#bidbox", KeyGrid)
        grid.remove_children()
        buttons = []
        for tricks in range(6, 11):
            for strain in range(5):
                action = bid_action(tricks, strain)
                buttons.append(GridButton(action_text(action), name=f"bid-{action}", compact=True))
        allowed = allowed_contracts(rules)
        extra = [PASS, *(c for c in (*MISERE_ACTIONS, *HOUSE_CONTRACTS) if c in allowed)]
        for action in extra:
            label = BID_BOX_LABELS.get(action, "pass")
            button = GridButton(label, name=f"bid-{action}", compact=True)
            button.tooltip = action_label(action)
            buttons.append(button)
        grid.mount_all(buttons)

    # ----------------------------------------------------------------- drawing
    def refresh_view(self) -> None:
        session = self.session
        if session is None:
            return
        obs = session.observation()
        view = session.game.observation(HUMAN)
        two = session.rules.joker_names
        self.query_one("#info", Static).update(
            info_renderable(view, session.hand_number, session.game.scores, session.rules.target)
        )
        compact = getattr(self, "compact", False)
        # from the seat the person acts for (their dummy's when they play it)
        self.query_one("#table", TableView).show(obs, compact)
        self.query_one("#sheet", Static).update(
            sheet_renderable(session.game, 4 if compact else 12, narrow=self.size.width < 110)
        )
        self.query_one("#log", Static).update(self.log_text())
        self.query_one("#logbox", VerticalScroll).scroll_end(animate=False)
        position = session.position
        fresh = position != self._shown_position
        if fresh:
            self.marked.clear()
            self.hinted = None
            self.choosing_joker_lead = None
            self._shown_position = position
        self.query_one("#prompt", Static).update(self.prompt_text())
        self._show_controls(obs.phase, two, fresh)

    def log_text(self) -> Text:
        """The story of the game so far: the last hand finished and the hand in progress,
        move by move (worked out from the game, so it never lags and survives a resume)."""
        session = self.session
        assert session is not None
        lines: list[str] = []
        game = session.game
        if game.finished_hands:
            number = len(game.finished_hands)
            lines.append(f"— hand {number} —")
            lines += history_lines(session, game.finished_hands[-1], number)
        if not game.is_over and session.hand.history:
            lines.append(f"— hand {session.hand_number} —")
            lines += history_lines(session)
        text = Text()
        for index, line in enumerate(lines):
            if index:
                text.append("\n")
            for char in line:
                text.append(char, style="#e5484d" if char in "♦♥" else "")
        return text

    def prompt_text(self) -> Text:
        session = self.session
        assert session is not None
        text = Text()
        if session.save_problem:
            text.append(f"⚠ {session.save_problem}\n", style="bold #e5484d")
        if self.message:
            text.append_text(self.message if isinstance(self.message, Text) else Text(self.message))
            text.append("\n")
        if session.is_over:
            text.append("The game is over. o: new game, q: quit.")
        elif session.pending_summary is not None:
            text.append("The hand is over.")
        elif self.preparing:
            text.append(self.preparing, style="bold #5fd7ff")
        elif not session.human_to_move:
            name = render.seat_name(session.rules, session.to_move)
            text.append(f"{name} is thinking…", style="dim")
        else:
            obs = session.observation()
            phase = obs.phase
            said = observation_prompt(obs)  # the vocabulary's words; the keys are ours
            if phase == AUCTION:
                text.append(f"{said}: ← → ↑ ↓ and Enter in the bid box (only legal bids).")
            elif phase == DISCARD:
                text.append(f"{said} (the kitty's marked +): Enter marks a card, then press d.")
            elif phase == NOMINATE:
                text.append(f"{said}: ← → Enter.")
            elif phase == CALL:
                text.append(f"{said}: arrows, Enter.")
            elif phase in HOUSE_PROMPTS:
                text.append(house_prompt(session))
            elif self.choosing_joker_lead is not None:
                text.append("Lead the joker as which suit? ← → and Enter; Escape cancels.")
            elif session.acting_seat != HUMAN:
                text.append(
                    f"Play from {render.seat_label(session.rules, session.acting_seat)}: "
                    "← → and Enter."
                )
            else:
                text.append(f"{said}. ← → and Enter, or click a card.")
        return text

    def _show_controls(self, phase: str, two: JokerNames, fresh: bool) -> None:
        session = self.session
        assert session is not None
        human = session.human_to_move
        obs = session.observation()
        legal = set(obs.legal)
        bidbox = self.query_one("#bidbox", KeyGrid)
        bidbox.display = phase == AUCTION and human
        if bidbox.display:
            pass_button = None
            for button in bidbox.query(Button):
                action = int((button.name or "bid-0")[4:])
                button.disabled = action not in legal
                if action == PASS:
                    pass_button = button
            # Pass has the focus at first: Enter by mistake must not commit to a contract.
            focused = self.focused
            if pass_button is not None and (
                fresh
                or not isinstance(focused, Button)
                or focused.disabled
                or focused.parent is not bidbox
            ):
                self.call_after_refresh(pass_button.focus)
        callbox = self.query_one("#callbox", KeyGrid)
        callbox.display = phase == CALL and human
        if callbox.display and fresh:
            callbox.remove_children()
            calls = [a for a in obs.legal if CALL_BASE <= a < GO_ALONE]
            ctx0 = view_context(obs)
            order = hand_order(sum(1 << (a - CALL_BASE) for a in calls), ctx0)
            call_buttons = [
                GridButton(action_text(card, two), name=f"call-{card + CALL_BASE}", compact=True)
                for card in order
            ]
            if GO_ALONE in obs.legal:
                call_buttons.append(
                    GridButton("alone", name=f"call-{GO_ALONE}", compact=True, classes="alone")
                )
            callbox.mount_all(call_buttons)
            if call_buttons:
                self.call_after_refresh(call_buttons[0].focus)
        choices = self.query_one("#choices", KeyGrid)
        if choices.children:
            choices.remove_children()
        choices.cursor = None
        buttons: list[Button] = []
        if human and phase == DISCARD:
            left = obs.discards_left
            label = f"Discard {len(self.marked)}/{left} marked (d)"
            buttons.append(
                GridButton(
                    label,
                    name="discard",
                    variant="primary",
                    disabled=len(self.marked) != left,
                    compact=True,
                )
            )
        elif human and phase == NOMINATE:
            for action in obs.legal:
                label = action_label(action, two)  # ``joker is ♠``, ``no nomination``
                buttons.append(GridButton(label, name=f"nominate-{action}", compact=True))
        elif human and phase in (SLAM_CALL, DRAW, TABLE_KITTY, TABLE_TAKE):
            offered = list(obs.legal)
            if phase in (TABLE_KITTY, TABLE_TAKE):  # the face-up cards, as the table shows them
                ctx_up = view_context(obs)
                offered = hand_order(sum(1 << card for card in offered), ctx_up)
            for action in offered:
                label = action_label(action, two)
                if phase == DRAW and obs.drawn >= 0:
                    label += f" {card_label(obs.drawn, two)}"
                buttons.append(
                    GridButton(
                        action_text(action, two) if phase in (TABLE_KITTY, TABLE_TAKE) else label,
                        name=f"choice-{action}",
                        compact=True,
                    )
                )
        elif human and phase == PLAY and self.choosing_joker_lead is not None:
            for action in obs.legal:
                if JOKER_LEAD_BASE <= action < PASS:  # ``JK as ♠``
                    label = action_label(action, two)
                    buttons.append(GridButton(label, name=f"lead-{action}", compact=True))
            buttons.append(GridButton("cancel", name="lead-cancel", compact=True))
        if human and phase == PLAY and self.choosing_joker_lead is None and CLAIM in legal:
            buttons.append(GridButton("claim the rest (c)", name=f"choice-{CLAIM}", compact=True))
        choices.display = bool(buttons)
        if buttons:
            choices.mount_all(buttons)
            if phase not in HAND_PHASES or self.choosing_joker_lead is not None:
                self.call_after_refresh(buttons[0].focus)
        ctx = view_context(obs)
        cards = hand_order(obs.hand, ctx)
        reasons: dict[Card, str | None] = {}
        if human and phase == PLAY:
            for card in cards:
                reasons[card] = self.card_reason(card, legal)
        elif phase not in (DISCARD,) or not human:
            for card in cards:
                reasons[card] = None
        hand_row = self.query_one("#hand", HandRow)
        cards_active = human and phase in HAND_PHASES and self.choosing_joker_lead is None
        kitty = 0
        if phase == DISCARD and obs.seat == obs.contractor:
            kitty = obs.hand & ~obs.dealt  # the kitty's cards, marked +
        hand_row.show(
            cards,
            reasons,
            two,
            self.marked,
            self.hinted,
            render.suit_groups(cards, ctx),
            focus=cards_active,
            kitty=kitty,
        )

    def card_reason(self, card: Card, legal: set[Action]) -> str | None:
        """Why the card may not be played now (with the rule id), or None if it may."""
        session = self.session
        assert session is not None
        if card in legal or _joker_leads(card, legal):
            return None
        return session.illegal_reason(card) or "not allowed now"

    # ----------------------------------------------------------------- the computer
    @work(exclusive=True, group="computer")
    async def computer_turns(self) -> None:
        """Let the computer players move, one at a time, at the chosen speed."""
        session = self.session
        if session is not None and session.computer_to_move and session.needs_solver_warm_up():
            await self.warm_up_solver()
        while session is not None and session.computer_to_move:
            position = session.position
            delay = session.settings.speed
            await asyncio.sleep(delay)
            if session.table.player(session.to_move) in QUICK_PLAYERS:
                seat, action, _ = session.computer_choice()  # a millisecond or so
            else:
                seat, action, _ = await asyncio.to_thread(session.computer_choice)
            if session is not self.session or position != session.position:
                return  # undone or replaced while thinking
            session.apply_computer(seat, action)
            if delay > 0:
                self.refresh_view()  # at the instant speed, drawn once they are done
        if session is not None and (session.pending_summary is not None or session.is_over):
            self.show_summary()
        self.refresh_view()

    preparing = ""

    async def warm_up_solver(self) -> None:
        """Prepare the double-dummy solver with a visible message: the first time in a
        fresh environment it compiles for about 40 s."""
        session = self.session
        assert session is not None

        def progress(done: int, total: int) -> None:
            self.preparing = (
                f"Preparing the double-dummy solver for the computer players: a "
                f"one-time step of up to a minute ({done}/{total})…"
            )
            self.call_from_thread(self.refresh_view)

        self.preparing = "Preparing the double-dummy solver for the computer players…"
        self.refresh_view()
        try:
            await asyncio.to_thread(session.warm_up_solver, progress)
        finally:
            self.preparing = ""
        self.refresh_view()

    def after_human_move(self) -> None:
        session = self.session
        assert session is not None
        self.message = ""
        if session.pending_summary is not None or session.is_over:
            self.refresh_view()
            self.show_summary()
            return
        self.refresh_view()
        self.computer_turns()

    def show_summary(self) -> None:
        session = self.session
        assert session is not None
        if isinstance(self.screen, TextScreen):
            return
        if session.is_over and session.pending_summary is None:
            self.game_over_box()
            return
        index = session.pending_summary
        assert index is not None
        hand = session.game.finished_hands[index]
        totals = session.game.score_history[index]
        body = Text("\n".join(render.hand_summary_lines(hand, totals)))
        hands = Text(
            "\n".join(
                [
                    *render.hand_summary_lines(hand, totals),
                    "",
                    "Every hand as dealt:",
                    *render.all_hands_lines(hand),
                ]
            )
        )
        buttons = [("Next hand", "next"), ("All hands", "hands"), ("Review", "review")]
        if session.is_over:
            buttons[0] = ("Final score", "next")

        def review() -> str:
            return "\n".join(review_lines(session, hand))

        self.push_screen(
            TextScreen(
                f"Hand {index + 1} is over", body, buttons, "next", hands, pages={"review": review}
            ),
            self.summary_closed,
        )

    def summary_closed(self, key: str | None) -> None:
        session = self.session
        assert session is not None
        session.dismiss_summary()
        self.refresh_view()
        if session.is_over:
            self.game_over_box()
        else:
            self.computer_turns()

    def game_over_box(self) -> None:
        session = self.session
        assert session is not None
        lines = [
            f"{winner_text(session)}!" if session.game.winner is not None else "Game over.",
            *([ended] if (ended := game_end_text(session)) else []),
            "",
            *render.sheet_lines(session.game),
            "",
            f"Record: {session.last_archive or session.path}",
            "Replay it with 'fivehundred show RECORD'.",
        ]
        self.push_screen(
            TextScreen(
                "Game over", "\n".join(lines), [("New game", "new"), ("Quit", "quit")], "close"
            ),
            self.game_over_closed,
        )

    def game_over_closed(self, key: str | None) -> None:
        if key == "new":
            self.open_options(start=True)
        elif key == "quit":
            self.exit(0)

    # ----------------------------------------------------------------- the person's moves
    def human_play(self, action: Action) -> None:
        session = self.session
        if session is None:
            return
        try:
            session.play(action)
        except FiveHundredError as error:
            self.message = Text(
                f"Not allowed: {error_text(error, session.rules.joker_names)}", style="bold #e5484d"
            )
            self.bell()
            self.refresh_view()
            return
        self.after_human_move()

    @on(CardWidget.Chosen)
    def card_chosen(self, event: CardWidget.Chosen) -> None:
        session = self.session
        if session is None:
            return
        card = event.card
        obs = session.observation()
        if not obs.hand >> card & 1:
            return  # a key for a card just played, arriving before its widget went
        if not session.human_to_move:
            self.message = "Wait for your turn."
            self.refresh_view()
            return
        phase = obs.phase
        if phase == DISCARD:
            if card in self.marked:
                self.marked.discard(card)
            elif len(self.marked) < obs.discards_left:
                self.marked.add(card)
            else:
                self.message = (
                    f"{plural(len(self.marked), 'card')} marked already: unmark one first."
                )
            self.refresh_view()
        elif phase == PLAY:
            if _joker_leads(card, obs.legal):
                self.choosing_joker_lead = card
                self.message = ""
                self.refresh_view()
                return
            self.human_play(card)
        elif phase in (SLAM_PASS, TABLE_DISCARD):
            self.human_play(card)
        else:
            self.message = "Choose from the bid box." if phase == AUCTION else "Choose above."
            self.refresh_view()

    @on(Button.Pressed)
    def button_pressed(self, event: Button.Pressed) -> None:
        button = event.button
        name = button.name or button.id or ""
        if name.startswith("bid-"):
            self.human_play(int(name[4:]))
        elif name.startswith("nominate-"):
            self.human_play(int(name[9:]))
        elif name.startswith("call-"):
            self.human_play(int(name[5:]))
        elif name.startswith("choice-"):
            self.human_play(int(name[7:]))
        elif name == "lead-cancel":
            self.cancel_joker_lead()
        elif name.startswith("lead-"):
            self.choosing_joker_lead = None
            self.human_play(int(name[5:]))
        elif name == "discard":
            self.action_discard()

    def action_discard(self) -> None:
        session = self.session
        if session is None or not session.human_to_move:
            return
        obs = session.observation()
        if obs.phase != DISCARD:
            return
        if len(self.marked) != obs.discards_left:
            self.message = f"Mark {plural(obs.discards_left, 'card')} first."
            self.refresh_view()
            return
        cards = sorted(self.marked)
        self.marked.clear()
        for card in cards:
            try:
                session.play(card)
            except FiveHundredError as error:
                self.message = Text(
                    f"Not allowed: {error_text(error, session.rules.joker_names)}",
                    style="bold #e5484d",
                )
                break
        self.after_human_move()

    def action_claim(self) -> None:
        """Claim the remaining tricks (R-HOUSE claim), when the rules offer it now."""
        session = self.session
        if session is None or not session.human_to_move:
            return
        obs = session.observation()
        if obs.phase != PLAY:
            return
        if CLAIM not in obs.legal:
            self.message = "No claim now: the contractor may claim only when on lead."
            self.refresh_view()
            return
        self.human_play(CLAIM)

    def action_hint(self) -> None:
        session = self.session
        if session is None or not session.human_to_move:
            return
        phase = session.observation().phase
        marked = self.marked if phase == DISCARD else set()
        if marked and len(marked) >= session.hand.discards_left:
            self.discard_hint()
            return
        action, why = session.hint(marked)
        label = action_label(action, session.rules.joker_names)
        self.message = Text.assemble(("Hint: ", "bold #5fd7ff"), (label, "bold"), f" — {why}")
        card = action_card(action) if action < PASS else None  # a joker lead: the joker
        self.hinted = card
        self.refresh_view()
        # The cursor goes to the hint's choice in every phase, so Enter takes it.
        hand_row = self.query_one("#hand", HandRow)
        for widget in hand_row.query(CardWidget):
            if card is not None and widget.card == card and phase in HAND_PHASES:
                hand_row.cursor = widget
                self.call_after_refresh(widget.focus)
                return
        for grid in self.query(KeyGrid):
            for button in grid.query(Button):
                if (
                    button.display
                    and str(button.name).endswith(f"-{action}")
                    and not str(button.name).startswith("lead-")
                ):
                    grid.cursor = button
                    self.call_after_refresh(button.focus)
                    return

    def discard_hint(self) -> None:
        """Every discard marked: the hint compares the marks with the computer's choice
        (never names a marked card as the next to mark): press d, or which mark to swap."""
        session = self.session
        assert session is not None
        two = session.rules.joker_names
        choice = set(session.discard_choice())
        keep = sorted(self.marked - choice)
        instead = sorted(choice - self.marked)
        self.hinted = None
        if not keep or not instead:
            self.message = Text.assemble(
                ("Hint: ", "bold #5fd7ff"), "the computer would discard these cards too: press d."
            )
            self.refresh_view()
            return
        self.message = Text.assemble(
            ("Hint: ", "bold #5fd7ff"),
            ("keep " + " ".join(action_label(c, two) for c in keep), "bold"),
            ", discard ",
            (" ".join(action_label(c, two) for c in instead), "bold"),
            " instead (Enter on a marked card unmarks it).",
        )
        self.refresh_view()
        hand_row = self.query_one("#hand", HandRow)
        for widget in hand_row.query(CardWidget):
            if widget.card == keep[0]:
                hand_row.cursor = widget
                self.call_after_refresh(widget.focus)
                return

    def action_undo(self) -> None:
        session = self.session
        if session is None:
            return
        self.workers.cancel_group(self, "computer")
        if session.undo():
            self.message = "Taken back: your move again."
        else:
            self.message = "Nothing of yours to take back."
        self.refresh_view()
        self.computer_turns()

    def action_last_trick(self) -> None:
        session = self.session
        if session is None:
            return
        tricks = session.observation().tricks
        if not tricks and session.game.finished_hands:  # the hand just over: its tricks
            tricks = session.game.finished_hands[-1].observation(SPECTATOR).tricks
        if not tricks:
            self.message = "No trick has been played yet."
            self.refresh_view()
            return
        rules = session.rules
        lines = []
        for number, (plays, winner) in enumerate(tricks, 1):
            mark = "▶" if number == len(tricks) else " "
            lines.append(
                f"{mark} {number:>2}: {render.trick_text(rules, plays)} — "
                f"{render.seat_name(rules, winner)}"
            )
        plays, winner = tricks[-1]
        body = Text(
            f"Last trick: {render.trick_text(rules, plays)}\n"
            f"won by {render.seat_name(rules, winner)}\n\nAll tricks of the hand:\n"
            + "\n".join(lines)
        )
        self.push_screen(TextScreen("The last trick", body, [("Close", "close")]))

    def action_played(self) -> None:
        session = self.session
        if session is None or isinstance(self.screen, ModalScreen):
            return
        body = "\n".join(render.played_by_suit_lines(session.game.observation(HUMAN)))
        self.push_screen(TextScreen("Cards played", body, [("Close", "close")]))

    def action_cancel_choice(self) -> None:
        if self.choosing_joker_lead is not None:
            self.cancel_joker_lead()

    def cancel_joker_lead(self) -> None:
        """Back from the joker lead's suit bar to the hand, the focus on the joker (not on
        the first card, which a second Enter would then play)."""
        card = self.choosing_joker_lead
        self.choosing_joker_lead = None
        self.message = ""
        self.refresh_view()
        hand_row = self.query_one("#hand", HandRow)
        for widget in hand_row.query(CardWidget):
            if widget.card == card:
                hand_row.cursor = widget
                self.call_after_refresh(widget.focus)

    def action_options(self) -> None:
        if not isinstance(self.screen, ModalScreen):
            self.open_options(start=self.session is None)

    def action_help(self) -> None:
        if not isinstance(self.screen, ModalScreen):
            self.push_screen(TextScreen("Help", HELP_TEXT, [("Close", "close")]))

    def action_quit_game(self) -> None:
        self.exit(0)

    def save_before_exit(self) -> None:
        if self.session is not None:
            self.session.save()


HOUSE_PROMPTS = (SLAM_CALL, SLAM_PASS, TABLE_KITTY, TABLE_TAKE, TABLE_DISCARD, DRAW)


#: How each house rule's phase is answered in the full-screen game (keys).
_HOUSE_KEYS = {
    SLAM_CALL: "",
    SLAM_PASS: " (← → Enter)",
    TABLE_KITTY: ": ← → Enter above",
    TABLE_TAKE: ": ← → Enter above",
    TABLE_DISCARD: " (← → Enter)",
    DRAW: "",
}


def house_prompt(session: Session) -> str:
    """What the person decides in a phase of the house rules (slam, open_eight, draw_pack):
    the vocabulary's prompt and the keys that answer it."""
    obs = session.observation()
    return f"{observation_prompt(obs)}{_HOUSE_KEYS.get(obs.phase, '')}."


def _joker_leads(card: Card, legal: Iterable[Action]) -> list[Action]:
    """The legal leads of an unnominated joker as a suit (``JK>S``) for this card."""
    return [a for a in legal if JOKER_LEAD_BASE <= a < PASS and joker_lead_card(a) == card]
