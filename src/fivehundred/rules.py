"""Rule settings: presets and variants of RULES.md §4–§11.

A :class:`Rules` value is immutable. Build it from a preset and variant switches::

    >>> rules = make_rules("australian", {"target": 300, "no_open_misere": True})
    >>> rules.target, rules.open_misere
    (300, False)
    >>> rules.to_dict()
    {'preset': 'australian', 'variants': {'no_open_misere': True, 'target': 300}}

Unknown presets or variant names raise :class:`RulesError`; nothing is silently ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import Any, NamedTuple

from fivehundred.cards import JOKERS_MASK, WHITE_JOKER, JokerNames, Pack, build_pack
from fivehundred.errors import RulesError

# Auction styles (R-BID)
AUSTRALIAN = "australian"
AMERICAN = "american"

# When misère may be bid (R-BID)
MISERE_AFTER_SEVEN = "after_seven"
MISERE_ANYTIME = "anytime"
MISERE_OFF = "off"

# All pass (R-ALLPASS)
ALLPASS_THROW_IN = "throw_in"
ALLPASS_REDEAL_SAME_DEALER = "redeal_same_dealer"
ALLPASS_PLAY_NT = "play_nt"

# The joker led in no trumps (R-JOKER 5)
JOKER_LEAD_SUIT_NOT_LED = "not_led"
JOKER_LEAD_NOT_RENOUNCED = "not_renounced"

# Scoring tables (R-SCORE)
AVONDALE = "avondale"
ORIGINAL_1904 = "original_1904"
PERFECT = "perfect"

# Win rules (R-GAME)
WIN_AUSTRALIAN = "australian"
WIN_1904 = "1904"

# Bid ranks (R-BID): a suit bid ranks tricks * 10 + strain * 2; misère sits between.
MISERE_RANK_AUSTRALIAN = 79  # above 7NT (78), below 8♠ (80)
MISERE_RANK_AMERICAN = 81  # above 8♠ (80), below 8♣ (82)
OPEN_MISERE_RANK = 105  # above 10♦ (104), below 10♥ (106)
OPEN_MISERE_520_RANK = 109  # above 10NT (108)
MISERE_RANK_FRENCH = 87  # French-Canadian petite misère: above 8♥ (86), below 8NT (88)
OPEN_MISERE_RANK_FRENCH = 107  # la grosse: above 10♥ (106), below 10NT (108)
MISERE_RANK_SPLIT = 73  # split_colours: above 7♣ (72), below 7♦ (74)
OPEN_MISERE_RANK_SPLIT = 83  # split_colours: above 8♣ (82), below 8♦ (84)
BLIND_MISERE_RANK = 200
# House contracts (R-HOUSE)
HI_LO_RANK = 93  # above 9♣ (92), below 9♦ (94)
DOUBLE_MISERE_RANK = 103  # above 10♣ (102), below 10♦ (104)
SHIELDS_DOUBLE_RANK = 103.5  # just above double misère
PATASTROPHE_RANK = 150  # above every bid but blind misère


@dataclass(frozen=True)
class Rules:
    """Every rule switch the engine reads. Build with :func:`make_rules`."""

    preset: str = AUSTRALIAN
    variants: tuple[tuple[str, Any], ...] = ()
    players: int = 4
    pack45: bool = False
    two_jokers: bool = False
    deal_3_4_3: bool = False
    auction: str = AUSTRALIAN
    raise_after_passes: bool = False
    misere: str = MISERE_AFTER_SEVEN
    misere_rank: int = MISERE_RANK_AUSTRALIAN
    open_misere: bool = True
    open_misere_rank: int = OPEN_MISERE_RANK
    open_misere_value: int = 500
    blind_misere: bool = False
    allpass: str = ALLPASS_THROW_IN
    dealer_must_bid: bool = False
    eldest_leads: bool = False
    joker_lead: str = JOKER_LEAD_SUIT_NOT_LED
    scoring_table: str = AVONDALE
    misere_defenders_score: bool = False
    rule_490: bool = True
    win_rule: str = WIN_AUSTRALIAN
    target: int = 500
    point_spread: bool = False
    # Five players (R-PLAYERS)
    called_partner: bool = False
    partner_announces: bool = False
    half_each: bool = False
    # Six players: teams of three (alternate seats) or three teams of two
    teams_of_two: bool = False
    # Two players: each plays a dummy opposite
    dummies: bool = False
    # House rules (R-HOUSE), scoring and winning
    no_defender_points: bool = False
    failed_to_opponents: bool = False
    exact_target: bool = False
    highest_wins: bool = False
    minus_500_needs_other_positive: bool = False
    ralphing: bool = False
    # House rules (R-HOUSE), play and the auction
    j5_no_trumps: bool = False
    inkle: bool = False
    split_colours: bool = False
    # House contracts (R-HOUSE)
    hi_lo: bool = False
    double_misere: bool = False
    shields_double: bool = False
    patastrophe: bool = False
    wilkinson_misere: bool = False
    slam_call: bool = False
    # The French-Canadian game (R-HOUSE): its 46-card pack; misère's value (0: the table's)
    pack46: bool = False
    misere_value: int = 0
    # R-PLAYERS dead_hand: two or three players, four hands dealt, the extra ones dead
    dead_hand: bool = False
    claim: bool = False
    # R-PLAYERS open_eight: two players, 52 cards, eight face up on the table (seat 2), the
    # rest of the stock dead (seat 3)
    open_eight: bool = False
    # R-PLAYERS draw_pack: two players draw their hands from the stock (seat 2, in order);
    # the cards thrown go to seat 3
    draw_pack: bool = False

    def __hash__(self) -> int:
        """The fields' hash, worked out once: the rules key many caches that are looked up
        for every view of every seat (the generated hash would hash each field each time)."""
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = hash(tuple(getattr(self, f.name) for f in fields(self)))
            object.__setattr__(self, "_hash", cached)
        return cached

    def __getstate__(self) -> dict[str, Any]:
        # a string's hash differs from process to process: the cached hash is not pickled
        state = dict(self.__dict__)
        state.pop("_hash", None)
        return state

    @cached_property
    def pack(self) -> Pack:
        if self.open_eight:
            cards = build_pack(5).cards & ~JOKERS_MASK  # the 52 cards, no joker
            return Pack("52", cards, 2, 10, ())
        players = 4 if self.dead_hand or self.draw_pack else self.players
        return build_pack(players, self.pack45, self.two_jokers, self.deal_3_4_3, self.pack46)

    @property
    def joker_names(self) -> JokerNames:
        """How records name the jokers (``card_text``): the white joker ``JKW`` in the
        French-Canadian pack, else ``JKR``/``JKB`` with two jokers, ``JK`` with one."""
        return WHITE_JOKER if self.pack46 else self.two_jokers

    @property
    def seats(self) -> int:
        """Hands at the table: with two players each also plays a dummy, so four."""
        return 4 if self.players == 2 or self.dead_hand else self.players

    @property
    def live_seats(self) -> tuple[int, ...]:
        """Seats that bid and play: all but the dead hands (``dead_hand``, R-PLAYERS)."""
        return tuple(range(self.players if self.two_live else self.seats))

    @property
    def two_live(self) -> bool:
        """Only the players' own seats bid and play: ``dead_hand``, ``open_eight`` and
        ``draw_pack`` (R-PLAYERS); the other seats hold cards out of play."""
        return self.dead_hand or self.open_eight or self.draw_pack

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Cards dealt to each seat: ten, except with ``open_eight`` (R-PLAYERS) the eight
        face-up cards (seat 2) and the dead rest of the pack (seat 3)."""
        if self.open_eight:
            return (10, 10, 8, self.pack.size - 28)
        if self.draw_pack:
            return (0, 0, 40, 0)  # the stock, in the order it is drawn
        return (self.pack.hand_size,) * self.seats

    @property
    def misere_allowed(self) -> bool:
        return self.misere != MISERE_OFF

    def to_dict(self) -> dict[str, Any]:
        """Record form: ``{"preset": ..., "variants": {...}}``."""
        return {"preset": self.preset, "variants": dict(self.variants)}

    def describe(self) -> str:
        parts = [self.preset] + [
            name if value is True else f"{name}={value}" for name, value in self.variants
        ]
        return ", ".join(parts)


def _switch(**changes: Any) -> Callable[[Rules, Any], Rules]:
    """A boolean variant: when set true, apply ``changes``; when false, leave the preset."""

    def apply(rules: Rules, value: Any) -> Rules:
        if not isinstance(value, bool):
            raise RulesError(f"variant value must be true or false, got {value!r}")
        return replace(rules, **changes) if value else rules

    return apply


def _flag(name: str) -> Callable[[Rules, Any], Rules]:
    """A variant that sets one boolean field to the given value (on or off)."""

    def apply(rules: Rules, value: Any) -> Rules:
        if not isinstance(value, bool):
            raise RulesError(f"variant {name!r} takes true or false, got {value!r}")
        changed: Rules = replace(rules, **{name: value})  # type: ignore[arg-type]
        return changed

    return apply


def _target(rules: Rules, value: Any) -> Rules:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0 or value % 10:
        raise RulesError(f"target must be a positive multiple of 10, got {value!r}", "R-GAME")
    return replace(rules, target=value)


def _choice(name: str, options: tuple[str, ...]) -> Callable[[Rules, Any], Rules]:
    def apply(rules: Rules, value: Any) -> Rules:
        if value not in options:
            raise RulesError(f"variant {name!r} takes one of {', '.join(options)}; got {value!r}")
        return replace(rules, **{name: value})

    return apply


def _open_misere_520(rules: Rules, value: Any) -> Rules:
    if value is True:
        return replace(rules, open_misere_value=520, open_misere_rank=OPEN_MISERE_520_RANK)
    return _switch()(rules, value)


def _split_colours(rules: Rules, value: Any) -> Rules:
    rules = _flag("split_colours")(rules, value)
    if value is True:
        return replace(
            rules, misere_rank=MISERE_RANK_SPLIT, open_misere_rank=OPEN_MISERE_RANK_SPLIT
        )
    return rules


SWITCH = "switch"
NUMBER = "number"
CHOICE = "choice"
SCORING_TABLES = (AVONDALE, ORIGINAL_1904, PERFECT)
_Check = Callable[["Rules", Mapping[str, Any]], bool]


#: The kinds of combination check, in the order they are tried: whether the variant fits
#: the players and the pack; whether it applies to the preset at all (the French-Canadian
#: game has its own pack and values); whether another variant asked for contradicts it;
#: whether what it needs is there.
FITS, NOT_HERE, CONFLICT, NEEDS = "fits", "not here", "conflict", "needs"
CHECK_KINDS: tuple[str, ...] = (FITS, NOT_HERE, CONFLICT, NEEDS)


class Check(NamedTuple):
    """One combination check of a variant (see :attr:`Variant.checks`)."""

    test: _Check
    why: str
    rule: str
    kind: str = NEEDS
    #: The other variants it says the variant contradicts or excludes.
    against: tuple[str, ...] = ()


@dataclass(frozen=True)
class Variant:
    """A variant of the rule book, declared once: read by :func:`make_rules` (``apply``;
    and its combination checks, ``checks``; :data:`COMBINATION_CHECKS` lists them all in
    the order they are tried), the options screens and the lobby (``help``, ``label``, ``kind``, ``options``,
    ``minimum``/``step``) and the documentation (``house``: a house rule of RULES.md §10)."""

    name: str
    apply: Callable[[Rules, Any], Rules]
    help: str
    label: str = ""
    kind: str = SWITCH
    options: tuple[str, ...] = ()
    minimum: int = 0
    step: int = 0
    house: bool = False
    #: Its combination checks (RULES.md §10: "a combination that makes no sense is refused
    #: by name"): a test on the finished rules and the variants asked for, the reason given
    #: when it fails and the rule it cites.
    checks: tuple[Check, ...] = ()

    @property
    def title(self) -> str:
        """How the lobby and the history pages name it (``misère any time``)."""
        return self.label or self.name.replace("_", " ")

    @property
    def default(self) -> Any:
        """The value that leaves a preset as it is: false for a switch; a number or a
        choice leaves the preset's own (None)."""
        return False if self.kind == SWITCH else None

    def presets(self) -> tuple[str, ...]:
        """The presets that accept it (a switch set on; a number or a choice: all)."""
        if self.kind != SWITCH:
            return tuple(PRESETS)
        accepted = []
        for preset in PRESETS:
            try:
                make_rules(preset, {self.name: True})
            except RulesError:
                continue
            accepted.append(preset)
        return tuple(accepted)

    def conflicts(self) -> tuple[str, ...]:
        """The other variants its checks say it contradicts or excludes."""
        return tuple(
            other
            for other in REGISTRY
            if other != self.name and any(other in check.against for check in self.checks)
        )


#: Every variant of the rule book, in one place (the options screens list them in this
#: order).
VARIANT_REGISTRY: tuple[Variant, ...] = (
    Variant(
        "pack45",
        _flag("pack45"),
        "45-card pack: all four suits 4-A, a 5-card kitty (4 players)",
        label="45-card pack",
        checks=(
            Check(
                lambda r, v: r.players in (2, 4) or r.dead_hand,
                "is a four-player pack (with three players, only with dead_hand)",
                "R-PACK",
                FITS,
            ),
            Check(
                lambda r, v: not r.pack46,
                "does not apply: the French-Canadian game has its own 46-card pack",
                "R-HOUSE",
                NOT_HERE,
            ),
        ),
    ),
    Variant(
        "two_jokers",
        _flag("two_jokers"),
        "a second joker; the black beats the red",
        checks=(
            Check(
                lambda r, v: not r.pack46,
                "does not apply: the French-Canadian pack always has two jokers",
                "R-HOUSE",
                NOT_HERE,
            ),
        ),
    ),
    Variant(
        "deal_3_4_3",
        _flag("deal_3_4_3"),
        "deal 3-4-3 with the whole kitty after the first round (1904)",
        label="deal 3-4-3",
        checks=(
            Check(
                lambda r, v: not r.pack46,
                "does not apply: the French-Canadian deal is "
                "3-3-4 with the kitty after each round of threes",
                "R-HOUSE",
                NOT_HERE,
            ),
        ),
    ),
    Variant(
        "raise_after_passes",
        _flag("raise_after_passes"),
        "the highest bidder may raise once when all others have passed",
        checks=(
            Check(
                lambda r, v: r.auction == AUSTRALIAN,
                "needs the Australian auction; the American auction has one round",
                "R-BID",
                NEEDS,
            ),
        ),
    ),
    Variant(
        "misere_anytime",
        _switch(misere=MISERE_ANYTIME),
        "misère may be bid at any time, not only after a 7 bid",
        label="misère any time",
    ),
    Variant(
        "no_misere",
        _switch(misere=MISERE_OFF),
        "no misère",
        label="no misère",
        checks=(
            Check(
                lambda r, v: not _on(v.get("misere_anytime", False)),
                "contradicts 'misere_anytime'",
                "R-BID",
                CONFLICT,
                against=("misere_anytime",),
            ),
        ),
    ),
    Variant(
        "open_misere_520",
        _open_misere_520,
        "open misère is worth 520 and is the highest bid",
        label="open misère scores 520",
        checks=(
            Check(
                lambda r, v: not r.pack46,
                "does not apply: la grosse is worth 1000",
                "R-HOUSE",
                NOT_HERE,
            ),
            Check(
                lambda r, v: r.open_misere,
                "needs open misère, which these rules do not allow",
                "R-BID",
                NEEDS,
            ),
        ),
    ),
    Variant(
        "no_open_misere",
        _switch(open_misere=False),
        "no open misère",
        label="no open misère",
        checks=(
            Check(
                lambda r, v: (
                    not _on(v.get("open_misere_520", False)) and v.get("open_misere") is not True
                ),
                "contradicts 'open_misere'/'open_misere_520'",
                "R-BID",
                CONFLICT,
                against=("open_misere", "open_misere_520"),
            ),
        ),
    ),
    Variant(
        "open_misere",
        _flag("open_misere"),
        "open misère (lay-down misère) may be bid",
        label="open misère",
    ),
    Variant(
        "blind_misere",
        _flag("blind_misere"),
        "blind misère (1000), declared before any other call",
        label="blind misère",
    ),
    Variant(
        "allpass_redeal_same_dealer",
        _switch(allpass=ALLPASS_REDEAL_SAME_DEALER),
        "when all pass, the same dealer deals again",
        label="all pass: same dealer redeals",
        checks=(
            Check(
                lambda r, v: not _on(v.get("allpass_play_nt", False)),
                "contradicts 'allpass_play_nt': choose one all-pass rule",
                "R-ALLPASS",
                CONFLICT,
                against=("allpass_play_nt",),
            ),
        ),
    ),
    Variant(
        "allpass_play_nt",
        _switch(allpass=ALLPASS_PLAY_NT),
        "when all pass, the hand is played in no trumps, 10 a trick",
        label="all pass: play no trumps",
    ),
    Variant(
        "dealer_must_bid",
        _flag("dealer_must_bid"),
        "if the first three pass, the dealer may not pass",
    ),
    Variant(
        "eldest_leads",
        _flag("eldest_leads"),
        "the player left of the dealer leads to the first trick",
        label="eldest hand leads",
    ),
    Variant(
        "joker_lead_not_renounced",
        _switch(joker_lead=JOKER_LEAD_NOT_RENOUNCED),
        "a joker led names a suit the leader has not shown void in",
        label="joker led as a suit not renounced",
    ),
    Variant(
        "original_1904",
        _switch(scoring_table=ORIGINAL_1904),
        "the original 1904 scoring table",
        label="original 1904 scores",
        checks=(
            Check(
                lambda r, v: not _on(v.get("perfect", False)),
                "contradicts 'perfect': choose one scoring table",
                "R-SCORE",
                CONFLICT,
                against=("perfect",),
            ),
        ),
    ),
    Variant(
        "perfect",
        _switch(scoring_table=PERFECT),
        "the 'perfect' scoring table (Avondale minus 20)",
        label="perfect scoring table",
    ),
    Variant(
        "scoring_table",
        _choice("scoring_table", SCORING_TABLES),
        "scoring table: avondale, original_1904 or perfect",
        kind=CHOICE,
        options=SCORING_TABLES,
        checks=(
            Check(
                lambda r, v: (
                    not (_on(v.get("perfect", False)) or _on(v.get("original_1904", False)))
                ),
                "contradicts 'original_1904'/'perfect': choose one scoring table",
                "R-SCORE",
                CONFLICT,
                against=("original_1904", "perfect"),
            ),
        ),
    ),
    Variant(
        "misere_defenders_score",
        _flag("misere_defenders_score"),
        "misère defenders score 10 for each trick the contractor wins",
        label="misère defenders score tricks",
    ),
    Variant(
        "rule_490",
        _flag("rule_490"),
        "points won defending stop at 490 (target - 10)",
        label="the 490 rule",
    ),
    Variant(
        "win_1904",
        _switch(win_rule=WIN_1904, rule_490=False),
        "1904 win rule: the first side to reach the target wins",
        label="1904 win rule",
        checks=(
            Check(
                lambda r, v: v.get("rule_490") is not True,
                "contradicts 'rule_490': the 1904 win rule has no 490 rule",
                "R-GAME",
                CONFLICT,
                against=("rule_490",),
            ),
        ),
    ),
    Variant(
        "target",
        _target,
        "the score that wins the game",
        label="target score",
        kind=NUMBER,
        minimum=10,
        step=10,
    ),
    Variant(
        "point_spread",
        _flag("point_spread"),
        "the game also ends when the sides are 500 apart across zero",
    ),
    Variant(
        "partner_announces",
        _flag("partner_announces"),
        "the called partner is revealed at once (5 players)",
        checks=(
            Check(
                lambda r, v: r.called_partner,
                "needs the five-player called partner",
                "R-PLAYERS",
                FITS,
            ),
        ),
    ),
    Variant(
        "half_each",
        _flag("half_each"),
        "the contractor and called partner score half the value each (5 players)",
        label="half each (five players)",
        checks=(
            Check(
                lambda r, v: r.called_partner,
                "needs the five-player called partner",
                "R-PLAYERS",
                FITS,
            ),
        ),
    ),
    Variant(
        "teams_of_two",
        _flag("teams_of_two"),
        "three teams of two instead of two of three (6 players)",
        label="three teams of two",
        checks=(
            Check(
                lambda r, v: r.players == 6,
                "needs six players",
                "R-PLAYERS",
                FITS,
            ),
        ),
    ),
    Variant(
        "no_defender_points",
        _flag("no_defender_points"),
        "defenders score nothing; only contracts score",
        house=True,
        checks=(
            Check(
                lambda r, v: not r.misere_defenders_score,
                "contradicts misère defenders scoring (misere_defenders_score)",
                "R-HOUSE",
                CONFLICT,
            ),
            Check(
                lambda r, v: r.allpass != ALLPASS_PLAY_NT,
                "leaves nothing to score in an all-pass no-trump hand (allpass_play_nt)",
                "R-HOUSE",
                NEEDS,
            ),
        ),
    ),
    Variant(
        "failed_to_opponents",
        _flag("failed_to_opponents"),
        "a failed contract's value goes to the opponents; scores never fall",
        house=True,
        checks=(
            Check(
                lambda r, v: v.get("rule_490") is not True,
                "contradicts 'rule_490': with it the 490 rule does not apply",
                "R-HOUSE",
                CONFLICT,
                against=("rule_490",),
            ),
            Check(
                lambda r, v: not r.minus_500_needs_other_positive,
                "leaves no score negative, so 'minus_500_needs_other_positive' cannot apply",
                "R-HOUSE",
                NEEDS,
                against=("minus_500_needs_other_positive",),
            ),
            Check(
                lambda r, v: not r.point_spread,
                "leaves no score negative, so 'point_spread' cannot apply",
                "R-HOUSE",
                NEEDS,
                against=("point_spread",),
            ),
        ),
    ),
    Variant(
        "exact_target",
        _flag("exact_target"),
        "Walker Ultimate 500: win on exactly the target; twice the target loses",
        house=True,
    ),
    Variant(
        "highest_wins",
        _flag("highest_wins"),
        "when both sides reach the target in one hand, the higher score wins",
        house=True,
    ),
    Variant(
        "minus_500_needs_other_positive",
        _flag("minus_500_needs_other_positive"),
        "-500 loses only if the other side is not negative",
        house=True,
    ),
    Variant(
        "ralphing",
        _flag("ralphing"),
        "a contractor who fails by three tricks or more must pass the next hand",
        house=True,
    ),
    Variant(
        "j5_no_trumps",
        _flag("j5_no_trumps"),
        "J5: in no trumps each jack is the highest card of its suit",
        house=True,
    ),
    Variant(
        "inkle",
        _flag("inkle"),
        "a 6 bid by the first two bidders is a signal, never the contract (American)",
        house=True,
        checks=(
            Check(
                lambda r, v: r.auction == AMERICAN,
                "needs the American one-round auction: in the Australian auction a 6 bid may win",
                "R-HOUSE",
                NEEDS,
            ),
        ),
    ),
    Variant(
        "split_colours",
        _split_colours,
        "misère ranks between 7♣ and 7♦, open misère between 8♣ and 8♦",
        house=True,
        checks=(
            Check(
                lambda r, v: not r.pack46,
                "does not apply: the French-Canadian misères have their own ranks",
                "R-HOUSE",
                NOT_HERE,
            ),
            Check(
                lambda r, v: not _on(v.get("open_misere_520", False)),
                "contradicts 'open_misere_520' (the highest bid of all)",
                "R-HOUSE",
                CONFLICT,
                against=("open_misere_520",),
            ),
        ),
    ),
    Variant(
        "hi_lo",
        _flag("hi_lo"),
        "hi/lo (5 and 5): win exactly five tricks alone in no trumps, 350",
        house=True,
        checks=(
            Check(
                lambda r, v: r.players == 4,
                "needs four players: the contractor's partner sits out",
                "R-HOUSE",
                NEEDS,
            ),
        ),
    ),
    Variant(
        "double_misere",
        _flag("double_misere"),
        "double misère: both partners play and neither may win a trick, 450",
        house=True,
        checks=(
            Check(
                lambda r, v: r.players == 4,
                "needs four players: two partners play it together",
                "R-HOUSE",
                NEEDS,
            ),
        ),
    ),
    Variant(
        "shields_double",
        _flag("shields_double"),
        "Shields double: double misère with the contractor's hand open, 550",
        house=True,
        checks=(
            Check(
                lambda r, v: r.players == 4,
                "needs four players: two partners play it together",
                "R-HOUSE",
                NEEDS,
            ),
        ),
    ),
    Variant(
        "patastrophe",
        _flag("patastrophe"),
        "patastrophe: open misère by both partners, both hands open, 1000",
        house=True,
        checks=(
            Check(
                lambda r, v: r.players == 4,
                "needs four players: two partners play it together",
                "R-HOUSE",
                NEEDS,
            ),
        ),
    ),
    Variant(
        "wilkinson_misere",
        _flag("wilkinson_misere"),
        "misère is played open at open misère's value; open misère has no kitty",
        house=True,
        checks=(
            Check(
                lambda r, v: r.misere_allowed,
                "needs misère, which these rules do not allow",
                "R-HOUSE",
                NEEDS,
            ),
        ),
    ),
    Variant(
        "slam_call",
        _flag("slam_call"),
        "a 7-level contractor may call slam: partner passes a card and sits out",
        house=True,
        checks=(
            Check(
                lambda r, v: r.players == 4,
                "needs four players: one partner passes a card and sits out",
                "R-HOUSE",
                NEEDS,
            ),
        ),
    ),
    Variant(
        "dead_hand",
        _switch(dead_hand=True, dummies=False),
        "2 or 3 players: four hands of the 43-card pack, the extra ones dead",
        house=True,
        checks=(
            Check(
                lambda r, v: r.players in (2, 3),
                "is for two or three players",
                "R-PLAYERS",
                FITS,
            ),
        ),
    ),
    Variant(
        "claim",
        _flag("claim"),
        "the contractor may claim the rest; a wrong claim (double dummy) costs 100",
        house=True,
    ),
    Variant(
        "open_eight",
        _switch(open_eight=True, dummies=False),
        "2 players, 52 cards: eight face up; each moves one to the kitty",
        house=True,
        checks=(
            Check(
                lambda r, v: r.players == 2,
                "is for two players",
                "R-PLAYERS",
                FITS,
            ),
            Check(
                lambda r, v: not r.dead_hand,
                "contradicts 'dead_hand': choose one two-player game",
                "R-PLAYERS",
                FITS,
                against=("dead_hand",),
            ),
            Check(
                lambda r, v: not (r.pack45 or r.two_jokers or r.deal_3_4_3),
                "has its own pack: 52 cards, no joker",
                "R-PLAYERS",
                FITS,
            ),
        ),
    ),
    Variant(
        "draw_pack",
        _switch(draw_pack=True, dummies=False),
        "2 players draw their hands: keep or throw each card, the next the opposite",
        house=True,
        checks=(
            Check(
                lambda r, v: r.players == 2,
                "is for two players",
                "R-PLAYERS",
                FITS,
            ),
            Check(
                lambda r, v: not (r.dead_hand or r.open_eight),
                "contradicts 'dead_hand'/'open_eight': choose one two-player game",
                "R-PLAYERS",
                FITS,
                against=("dead_hand", "open_eight"),
            ),
        ),
    ),
)


#: The variants by name.
REGISTRY: dict[str, Variant] = {variant.name: variant for variant in VARIANT_REGISTRY}
#: How each variant changes the rules, by name.
VARIANTS: dict[str, Callable[[Rules, Any], Rules]] = {v.name: v.apply for v in VARIANT_REGISTRY}
#: One line per variant, for the options screens (the terminal game, the web lobby).
VARIANT_HELP: dict[str, str] = {v.name: v.help for v in VARIANT_REGISTRY}
#: The house rules of RULES.md §10 that the engine plays (a subset of VARIANTS).
HOUSE_VARIANTS: tuple[str, ...] = tuple(v.name for v in VARIANT_REGISTRY if v.house)

PRESETS: dict[str, Rules] = {
    "australian": Rules(),
    "american": Rules(
        preset="american",
        auction=AMERICAN,
        misere=MISERE_ANYTIME,
        misere_rank=MISERE_RANK_AMERICAN,
        open_misere=False,
        rule_490=False,
        win_rule=WIN_1904,
        misere_defenders_score=True,
    ),
    "three_handed": Rules(preset="three_handed", players=3, misere=MISERE_ANYTIME),
    "five_handed": Rules(
        preset="five_handed", players=5, misere=MISERE_OFF, open_misere=False, called_partner=True
    ),
    "six_handed": Rules(preset="six_handed", players=6),
    "two_handed": Rules(
        preset="two_handed", players=2, misere=MISERE_OFF, open_misere=False, dummies=True
    ),
    # R-HOUSE: 46 cards with the white joker (JKW, the higher), a 6-card kitty dealt 3-3-4,
    # petite misère 500 (only 8NT and up outrank it), la grosse 1000 (only 10NT), game to
    # 1000 with failed contracts to the opponents.
    "french_canadian": Rules(
        preset="french_canadian",
        pack46=True,
        two_jokers=True,
        misere=MISERE_ANYTIME,
        misere_rank=MISERE_RANK_FRENCH,
        misere_value=500,
        open_misere_rank=OPEN_MISERE_RANK_FRENCH,
        open_misere_value=1000,
        target=1000,
        failed_to_opponents=True,
        rule_490=False,
    ),
}


def _on(value: Any) -> bool:
    """Whether a variant value switches something on (``False`` leaves the preset)."""
    return value is not False and value is not None


#: Every combination check in the order they are tried: by kind (:data:`CHECK_KINDS`),
#: then in the registry's order; each entry (variant, test, reason, rule). Read from the
#: registry, not declared here.
COMBINATION_CHECKS: tuple[tuple[str, _Check, str, str], ...] = tuple(
    (variant.name, check.test, check.why, check.rule)
    for _, _, _, variant, check in sorted(
        (CHECK_KINDS.index(check.kind), index, position, variant, check)
        for index, variant in enumerate(VARIANT_REGISTRY)
        for position, check in enumerate(variant.checks)
    )
)


def check_combinations(rules: Rules, variants: Mapping[str, Any]) -> None:
    """Refuse variants that do not apply to the preset or contradict each other, naming
    the variant and the reason (RULES.md §10). ``variants`` holds the variants that take
    part: every one set to a value other than false, and one set false that changed the
    preset (``two_jokers: false`` turns a preset's second joker off)."""
    for name, test, reason, rule in COMBINATION_CHECKS:
        if name in variants and not test(rules, variants):
            raise RulesError(f"variant {name!r} {reason}", rule, variant=name, why=reason)


#: Presets whose player counts the engine plays today.
SUPPORTED_PLAYERS = frozenset({2, 3, 4, 5, 6})


def make_rules(preset: str = "australian", variants: Mapping[str, Any] | None = None) -> Rules:
    """Rules of a named preset with variants applied (RULES.md §11)."""
    base = PRESETS.get(preset)
    if base is None:
        raise RulesError(f"unknown preset {preset!r}; presets are {', '.join(PRESETS)}")
    rules = base
    items = sorted((variants or {}).items())
    taking_part: dict[str, Any] = {}
    for name, value in items:
        apply = VARIANTS.get(name)
        if apply is None:
            raise RulesError(
                f"unknown variant {name!r}; variants are {', '.join(sorted(VARIANTS))}",
                variant=name,
            )
        try:
            changed = apply(rules, value)
        except RulesError as error:
            error.variant = name  # a value of the wrong kind: the variant, as data
            raise
        if _on(value) or changed != rules:
            taking_part[name] = value
        rules = changed
    check_combinations(rules, taking_part)
    if rules.players not in SUPPORTED_PLAYERS:
        raise RulesError(f"preset {preset!r} ({rules.players} players) is not playable yet")
    return replace(rules, variants=tuple(items))


def rules_from_dict(data: Any) -> Rules:
    """Parse the record form ``{"preset": ..., "variants": {...}}``."""
    if not isinstance(data, Mapping):
        raise RulesError("rules must be an object with 'preset' and 'variants'")
    unknown = set(data) - {"preset", "variants"}
    if unknown:
        raise RulesError(f"unknown key(s) in rules: {', '.join(sorted(unknown))}")
    preset = data.get("preset", "australian")
    variants = data.get("variants", {})
    if not isinstance(preset, str):
        raise RulesError("rules.preset must be a string")
    if not isinstance(variants, Mapping):
        raise RulesError("rules.variants must be an object")
    return make_rules(preset, variants)


DEFAULT_RULES = make_rules()
