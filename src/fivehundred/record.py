"""Game records (JSON): parse, validate, replay and write (see docs/record-format.md).

``replay_hand_record`` / ``replay_game_record`` check every step against the rules and
raise :class:`RecordError` saying where (``play[13]``) and why, citing the rule id.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TextIO

from fivehundred.actions import (
    BID_BASE,
    CALL_BASE,
    CLAIM,
    DRAW_KEEP,
    DRAW_THROW,
    GO_ALONE,
    NO_NOMINATION,
    NO_SLAM,
    NOMINATE_BASE,
    PASS,
    SLAM,
    Action,
    action_card,
    action_text,
    is_call,
    parse_action,
    parse_call,
    parse_draw,
    parse_nomination,
    parse_partner_call,
    parse_play,
    parse_slam,
)
from fivehundred.cards import (
    JOKER,
    JOKERS_MASK,
    SUIT_LETTERS,
    CardMask,
    card_text,
    cards_of,
    iter_cards,
    mask_text,
    parse_card,
)
from fivehundred.errors import FiveHundredError, RecordError
from fivehundred.game import (
    AUCTION,
    CALL,
    DISCARD,
    DONE,
    DRAW,
    NOMINATE,
    PLAY,
    SLAM_CALL,
    SLAM_PASS,
    TABLE_DISCARD,
    TABLE_KITTY,
    TABLE_TAKE,
    GameState,
    HandState,
    ordered_seats,
)
from fivehundred.rules import DEFAULT_RULES, Rules, rules_from_dict
from fivehundred.words import card_label, card_language

HAND_FORMAT = "fivehundred-hand/1"
GAME_FORMAT = "fivehundred-game/1"

_HAND_KEYS = {
    "format",
    "rules",
    "dealer",
    "hands",
    "kitty",
    "auction",
    "discards",
    "joker_suit",
    "call",
    "play",
    "seed",
    "comment",
    "players",
    "barred",
    "slam",
    "table_kitty",
    "table_take",
    "draws",
}


# ----------------------------------------------------------------------------- loading
#: The largest record file read (a long game record is a few hundred kilobytes).
MAX_RECORD_BYTES = 8 * 1024 * 1024
#: The deepest nesting of lists and objects a record may have (a game record needs 5).
MAX_RECORD_DEPTH = 32
#: The most digits of an integer in a record (seats, seeds and targets are short).
MAX_NUMBER_DIGITS = 100
#: The longest error line printed (a bad token is quoted in full up to about this).
MAX_ERROR_CHARS = 600


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise ValueError(f"a number of {len(text)} digits (at most {MAX_NUMBER_DIGITS})")
    return int(text)


def _parse_constant(text: str) -> Any:
    raise ValueError(f"{text} is not a JSON number")


def _depth(data: Any) -> int:
    """The nesting depth of parsed JSON (iterative: no recursion on hostile input)."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, (list, dict)):
            deepest = max(deepest, depth)
            if deepest > MAX_RECORD_DEPTH:
                return deepest
            children = value.values() if isinstance(value, dict) else value
            stack.extend((child, depth + 1) for child in children)
    return deepest


def parse_record_text(text: str | bytes, source: str = "record") -> dict[str, Any]:
    """The JSON object of a record's text, or :class:`RecordError` (``where`` = ``source``)
    for anything else: text that is not UTF-8 or not JSON, nesting deeper than
    :data:`MAX_RECORD_DEPTH`, integers longer than :data:`MAX_NUMBER_DIGITS` digits,
    ``NaN``/``Infinity``, more than :data:`MAX_RECORD_BYTES`, or a top level that is not an
    object. Whatever the input, the only exception raised is ``RecordError``."""
    if len(text) > MAX_RECORD_BYTES:
        raise RecordError(source, f"is too large for a record (over {MAX_RECORD_BYTES} bytes)")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise RecordError(source, "is not UTF-8 text") from None
    try:
        data = json.loads(text, parse_int=_parse_int, parse_constant=_parse_constant)
    except json.JSONDecodeError as error:
        raise RecordError(
            source, f"not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    except RecursionError:
        raise RecordError(
            source, f"not a record: nested deeper than {MAX_RECORD_DEPTH} levels"
        ) from None
    except (ValueError, TypeError, OverflowError, MemoryError) as error:
        # a number out of range (parse_int, parse_constant, float) or a lone surrogate
        raise RecordError(source, f"not a record: {error}") from None
    if _depth(data) > MAX_RECORD_DEPTH:
        raise RecordError(source, f"not a record: nested deeper than {MAX_RECORD_DEPTH} levels")
    if not isinstance(data, dict):
        raise RecordError(source, f"must hold a JSON object, not {_json_kind(data)}")
    return data


def _json_kind(data: Any) -> str:
    if isinstance(data, list):
        return "a list"
    if isinstance(data, str):
        return "a string"
    if isinstance(data, bool) or data is None:
        return json.dumps(data)
    return "a number"


def load_json(path: str | Path, stdin: TextIO | None = None) -> dict[str, Any]:
    """Read a record file (``"-"``: standard input) with :func:`parse_record_text`: the JSON
    object, or :class:`RecordError` naming the file and saying why, never anything else."""
    source = str(path)
    try:
        if source == "-":
            stream = stdin if stdin is not None else sys.stdin
            buffer = getattr(stream, "buffer", None)
            raw: str | bytes = (
                buffer.read(MAX_RECORD_BYTES + 1)
                if buffer is not None
                else stream.read(MAX_RECORD_BYTES + 1)
            )
            source = "standard input"
        else:
            with open(source, "rb") as handle:
                raw = handle.read(MAX_RECORD_BYTES + 1)
    except IsADirectoryError:
        raise RecordError(source, "is a directory, not a record file") from None
    except OSError as error:
        raise RecordError(source, f"cannot read: {error.strerror or error}") from None
    except (ValueError, UnicodeDecodeError, AttributeError):  # no, a closed or a bad stdin
        raise RecordError(source, "cannot read: not UTF-8 text") from None
    return parse_record_text(raw, source)


def one_line(error: BaseException | str, limit: int = MAX_ERROR_CHARS) -> str:
    """An error message made safe to print as one line: control characters (newlines
    included) and lone surrogates escaped (``\\n``, ``\\ud800``), long text cut in the
    middle so that the rule id at the end stays."""
    text = str(error)
    text = "".join(
        ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text
    )
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    if len(text) > limit:  # keep the end too: it names the rule
        text = text[: limit - 32] + " … " + text[-29:]
    return text


def _where(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix else name


def _card_list(value: Any, where: str) -> list[int]:
    if not isinstance(value, list):
        raise RecordError(where, "must be a list of cards")
    cards = []
    for index, token in enumerate(value):
        try:
            cards.append(parse_card(token))
        except FiveHundredError as error:
            raise RecordError(f"{where}[{index}]", error.reason, "R-PACK") from None
    return cards


def parse_rules(data: Any, where: str = "rules") -> Rules:
    try:
        return rules_from_dict(data)
    except FiveHundredError as error:
        raise RecordError(where, error.reason, error.rule) from None


def parse_deal(
    record: Mapping[str, Any], rules: Rules, prefix: str = ""
) -> tuple[int, list[CardMask], CardMask, list[list[int]]]:
    """Dealer, hands and kitty of a hand record, checked against the pack (R-PACK, R-DEAL)."""
    seats = rules.seats
    dealer = record.get("dealer")
    if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < seats:
        raise RecordError(_where(prefix, "dealer"), f"must be a seat 0..{seats - 1}", "R-DEAL")
    raw_hands = record.get("hands")
    if not isinstance(raw_hands, list) or len(raw_hands) != seats:
        raise RecordError(_where(prefix, "hands"), f"must be {seats} lists of cards", "R-DEAL")
    pack = rules.pack
    seen: dict[int, str] = {}
    two = rules.joker_names

    def take(cards: list[int], where: str) -> CardMask:
        mask = 0
        for index, card in enumerate(cards):
            place = f"{where}[{index}]"
            if not pack.cards >> card & 1:
                raise RecordError(
                    place,
                    f"{card_label(card, two)} is not in the {pack.name}-card pack",
                    "R-PACK",
                )
            if card in seen:
                raise RecordError(
                    place,
                    f"duplicate card {card_label(card, two)} (also at {seen[card]})",
                    "R-PACK",
                )
            seen[card] = place
            mask |= 1 << card
        return mask

    hands = []
    dummy_cards: list[list[int]] = []
    for seat, raw in enumerate(raw_hands):
        where = _where(prefix, f"hands[{seat}]")
        cards = _card_list(raw, where)
        size = rules.hand_sizes[seat]
        if len(cards) != size:
            raise RecordError(
                where,
                f"has {len(cards)} cards; this seat gets {size}"
                if rules.open_eight
                else f"has {len(cards)} cards; each player gets {size}",
                "R-DEAL",
            )
        hands.append(take(cards, where))
        if seat in ordered_seats(rules):
            dummy_cards.append(cards)
    kitty_cards = _card_list(record.get("kitty"), _where(prefix, "kitty"))
    kitty_size = 0 if rules.open_eight else pack.kitty_size  # open_eight: filled in play
    if len(kitty_cards) != kitty_size:
        raise RecordError(
            _where(prefix, "kitty"),
            f"has {len(kitty_cards)} cards; the kitty has {kitty_size}",
            "R-DEAL",
        )
    kitty = take(kitty_cards, _where(prefix, "kitty"))
    return dealer, hands, kitty, dummy_cards


#: The rule each part of a record answers to, cited when its text does not parse.
_PART_RULES: dict[Callable[[str], Action], str] = {
    parse_call: "R-BID",
    parse_play: "R-PACK",  # card notation
    parse_nomination: "R-JOKER",
    parse_partner_call: "R-PLAYERS",
}


def _apply(state: HandState, action_token: Any, where: str, parse: Callable[[str], Action]) -> None:
    rule = _PART_RULES.get(parse, "")
    if not isinstance(action_token, str):
        raise RecordError(where, f"must be a string, got {_short(action_token)}", rule)
    try:
        action = parse(action_token)
    except FiveHundredError as error:
        raise RecordError(where, error.reason, rule) from None
    phase, trick = state.phase, len(state.tricks) + 1
    try:
        state.apply(action)
    except FiveHundredError as error:
        reason = card_language(error.reason)
        if phase == PLAY:
            reason = f"trick {trick}: {reason}"
        raise RecordError(where, reason, error.rule) from None


def _list(record: Mapping[str, Any], key: str, prefix: str) -> list[Any]:
    value = record.get(key, [])
    if not isinstance(value, list):
        raise RecordError(_where(prefix, key), "must be a list")
    return value


def replay_hand(
    record: Mapping[str, Any],
    rules: Rules | None = None,
    prefix: str = "",
    dealer: int | None = None,
    barred: tuple[int, ...] | None = None,
) -> HandState:
    """Replay a ``fivehundred-hand/1`` record, checking each step. ``rules`` is given for the
    hands of a game record (which carry no rules of their own)."""
    if not isinstance(record, Mapping):
        raise RecordError(prefix or "record", "must be a JSON object")
    unknown = set(record) - _HAND_KEYS
    if unknown:
        raise RecordError(prefix or "record", f"unknown key(s): {', '.join(sorted(unknown))}")
    if rules is None:
        if record.get("format") != HAND_FORMAT:
            raise RecordError("format", f"must be {HAND_FORMAT!r}")
        rules = parse_rules(record.get("rules", {"preset": "australian"}))
    else:  # a hand of a game record: the game's rules apply
        if "format" in record and record["format"] != HAND_FORMAT:
            raise RecordError(
                _where(prefix, "format"),
                f"must be {HAND_FORMAT!r} (or left "
                f"out) in a game's hand, got {_short(record['format'])}",
            )
        if "rules" in record:
            own = parse_rules(record["rules"], _where(prefix, "rules"))
            if own != rules:
                raise RecordError(
                    _where(prefix, "rules"),
                    "differ from the game's rules "
                    f"({own.describe()} against {rules.describe()}); the game's "
                    "rules apply to every hand: leave them out",
                )
    _check_players(record, rules, prefix)
    hand_dealer, hands, kitty, dummy_cards = parse_deal(record, rules, prefix)
    if dealer is not None and hand_dealer != dealer:
        raise RecordError(
            _where(prefix, "dealer"),
            f"should be seat {dealer}: the deal passes to the left",
            "R-DEAL",
        )
    if (rules.dummies or rules.dead_hand) and hand_dealer >= rules.players:
        raise RecordError(_where(prefix, "dealer"), "one of the two players deals", "R-DEAL")
    state = HandState(
        rules, hand_dealer, hands, kitty, dummy_cards, _barred(record, rules, prefix, barred)
    )

    for index, token in enumerate(_list(record, "draws", prefix)):
        where = _where(prefix, f"draws[{index}]")
        if state.phase != DRAW:
            raise RecordError(
                where,
                "no draw now (variant draw_pack: the players draw "
                "before the auction, until each holds ten)",
                "R-PLAYERS",
            )
        _apply(state, token, where, parse_draw)
    _replay_table(state, record, prefix, "table_kitty", (TABLE_KITTY,))
    auction = _list(record, "auction", prefix)
    for index, call in enumerate(auction):
        where = _where(prefix, f"auction[{index}]")
        if state.phase == TABLE_KITTY:
            raise RecordError(
                where, "the face-up cards go to the kitty first (table_kitty)", "R-PLAYERS"
            )
        if state.phase == DRAW:
            raise RecordError(where, "the players draw their hands first (draws)", "R-PLAYERS")
        if state.phase != AUCTION:
            raise RecordError(where, "a call after the auction has ended", "R-BID")
        _apply(state, call, where, parse_call)
    discards = _list(record, "discards", prefix)
    for index, card in enumerate(discards):
        where = _where(prefix, f"discards[{index}]")
        if state.phase != DISCARD:
            why = (
                "the auction is not over"
                if state.phase == AUCTION
                else "no kitty exchange now (all passed, or the discards are complete)"
            )
            raise RecordError(where, why, "R-KITTY")
        _apply(state, card, where, parse_play)
    _replay_table(state, record, prefix, "table_take", (TABLE_TAKE, TABLE_DISCARD))
    slam = _list(record, "slam", prefix)
    for index, token in enumerate(slam):
        where = _where(prefix, f"slam[{index}]")
        if index == 0:
            if state.phase != SLAM_CALL:
                raise RecordError(
                    where,
                    "only a 7-level contractor with slam_call decides, after the discards",
                    "R-HOUSE",
                )
            _apply(state, token, where, parse_slam)
        elif state.phase in (SLAM_PASS, DISCARD) and index <= 2:
            _apply(state, token, where, parse_play)
        else:
            raise RecordError(
                where,
                "after slam come only the partner's card and the contractor's discard",
                "R-HOUSE",
            )
    play = _list(record, "play", prefix)
    _replay_nominations(state, record, prefix, bool(play) or "call" in record)
    if "call" in record:
        where = _where(prefix, "call")
        if state.phase != CALL:
            raise RecordError(
                where,
                "only the five-player contractor calls a partner, after the kitty exchange",
                "R-PLAYERS",
            )
        _apply(state, record["call"], where, parse_partner_call)
    for index, token in enumerate(play):
        where = _where(prefix, f"play[{index}]")
        if state.phase != PLAY:
            why = {
                TABLE_TAKE: "the defender has not taken a face-up card (table_take)",
                TABLE_DISCARD: "the defender has not discarded (table_take)",
                AUCTION: "the auction is not over",
                DISCARD: "the discards are not complete",
                SLAM_CALL: "the contractor has not said whether it calls slam (slam)",
                SLAM_PASS: "the partner has not passed a card for the slam (slam)",
                CALL: "the contractor has not called a partner (call)",
                DONE: "the hand is over",
            }.get(state.phase, "no play now")
            raise RecordError(where, why, "R-PLAY")
        if isinstance(token, str) and token.strip().lower() == "claim":
            try:  # the record lists the play-out that judged the claim (R-HOUSE claim)
                state.claim(judge=False)
            except FiveHundredError as error:
                raise RecordError(where, error.reason, error.rule) from None
            continue
        _apply(state, token, where, parse_play)
    return state


def _replay_table(
    state: HandState, record: Mapping[str, Any], prefix: str, key: str, phases: tuple[str, ...]
) -> None:
    """open_eight (R-PLAYERS): ``table_kitty`` (the two face-up cards moved to the kitty,
    non-dealer first) or ``table_take`` (the defender's pick and discard)."""
    for index, token in enumerate(_list(record, key, prefix)):
        where = _where(prefix, f"{key}[{index}]")
        if state.phase not in phases:
            raise RecordError(
                where,
                f"no {key} now (variant open_eight: the kitty cards "
                "before the auction, the defender's card after the discards)",
                "R-PLAYERS",
            )
        _apply(state, token, where, parse_play)


def _barred(
    record: Mapping[str, Any], rules: Rules, prefix: str, expected: tuple[int, ...] | None
) -> tuple[int, ...]:
    """Seats that must pass (R-HOUSE ralphing): in a game, from the hand before."""
    where = _where(prefix, "barred")
    value = record.get("barred", [] if expected is None else list(expected))
    if not isinstance(value, list) or not all(
        isinstance(s, int) and not isinstance(s, bool) and 0 <= s < rules.seats for s in value
    ):
        raise RecordError(where, f"must be a list of seats 0..{rules.seats - 1}", "R-HOUSE")
    if value and not rules.ralphing:
        raise RecordError(where, "only the ralphing variant bars a seat", "R-HOUSE")
    if expected is not None and tuple(value) != expected:
        raise RecordError(
            where,
            f"should be {list(expected)}: the last hand's contractor failed by three tricks or more"
            if expected
            else "should be []: no contractor of the last hand failed by three",
            "R-HOUSE",
        )
    return tuple(value)


def _replay_nominations(
    state: HandState, record: Mapping[str, Any], prefix: str, more_follows: bool
) -> None:
    """Apply ``joker_suit``: a suit letter, or with two jokers ``{"JKR": "H", "JKB": "S"}``.
    A joker not named was not nominated, when the record goes on past the nomination."""
    where = _where(prefix, "joker_suit")
    joker_suit = record.get("joker_suit")
    if joker_suit is None:
        wanted: dict[int, Any] = {}
    elif state.phase != NOMINATE:
        raise RecordError(
            where,
            "only a no-trump or misère contractor holding the joker "
            "nominates its suit, after the discards",
            "R-JOKER",
        )
    elif isinstance(joker_suit, Mapping):
        wanted = {}
        for key, token in joker_suit.items():
            try:
                joker = parse_card(key)
            except FiveHundredError:
                raise RecordError(f"{where}.{key}", "not a joker", "R-JOKER") from None
            if joker not in state.jokers_pending:
                raise RecordError(
                    f"{where}.{key}", "the contractor does not hold this joker", "R-JOKER"
                )
            wanted[joker] = token
    else:
        wanted = {state.joker_to_nominate(): joker_suit}
    while state.phase == NOMINATE:
        joker = state.joker_to_nominate()
        token = wanted.pop(joker, None)
        if token is None:
            if not (wanted or more_follows):
                return  # the record stops at the nomination
            state.apply(NO_NOMINATION)
        elif isinstance(token, str) and token.strip().lower() != "none":
            black = "JKB:" if joker != JOKER else ""
            _apply(state, black + token, where, parse_nomination)
        else:
            _apply(state, token, where, parse_nomination)


def hand_summary(state: HandState) -> dict[str, Any]:
    """The replay command's JSON for one hand (finished or stopped part way)."""
    if not state.is_over:
        return {"to_move": state.to_move, "phase": state.phase}
    result = state.result
    two = state.rules.joker_names
    return {
        "contract": action_text(result.contract, two) if result.contract >= BID_BASE else None,
        "contractor": result.contractor if result.contractor >= 0 else None,
        "tricks": list(result.trick_winners),
        "tricks_won": list(result.tricks_won),
        "points": list(result.points),
        "made": result.made,
    }


def legal_texts(state: HandState) -> list[str]:
    two = state.rules.joker_names
    return [action_text(action, two) for action in state.legal_actions()]


def replay_game(record: Mapping[str, Any]) -> GameState:
    """Replay a ``fivehundred-game/1`` record: every hand, the scores and the winner."""
    if not isinstance(record, Mapping):
        raise RecordError("record", "must be a JSON object")
    unknown = set(record) - {
        "format",
        "rules",
        "first_dealer",
        "hands",
        "seed",
        "comment",
        "players",
    }
    if unknown:
        raise RecordError("record", f"unknown key(s): {', '.join(sorted(unknown))}")
    rules = parse_rules(record.get("rules", {"preset": "australian"}))
    first = record.get("first_dealer")
    if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < rules.seats:
        raise RecordError("first_dealer", f"must be a seat 0..{rules.seats - 1}", "R-DEAL")
    hands = record.get("hands")
    if not isinstance(hands, list):
        raise RecordError("hands", "must be a list of hand records")
    seed = record.get("seed")
    if seed is not None and (not isinstance(seed, (int, str)) or isinstance(seed, bool)):
        raise RecordError("seed", "must be an integer or a string")
    _check_players(record, rules)
    # The seed only deals hands the record does not hold yet (a game to continue).
    game = GameState(rules, seed=seed if seed is not None else 0, first_dealer=first)
    for index, hand_record in enumerate(hands):
        prefix = f"hands[{index}]"
        if game.is_over:
            raise RecordError(prefix, "the game is already over", "R-GAME")
        state = replay_hand(hand_record, rules, prefix, dealer=game.hand.dealer, barred=game.barred)
        game.hand = state
        if state.is_over:
            game.finish_hand()
        elif index != len(hands) - 1:
            raise RecordError(prefix, f"stops part way ({state.phase}) but more hands follow")
    return game


def _short(value: Any, limit: int = 40) -> str:
    """A JSON value quoted for an error message, cut to ``limit`` characters."""
    text = repr(value) if isinstance(value, str) else json.dumps(value, default=repr)[: limit + 1]
    return text if len(text) <= limit else text[: limit - 1] + "…"


#: The longest player name a record may give.
MAX_PLAYER_NAME = 40


def _check_players(record: Mapping[str, Any], rules: Rules, prefix: str = "") -> None:
    """``players``: one name per player, seat 0 first (a dummy or a dead hand has no player
    of its own), each a non-empty string without control characters of at most
    :data:`MAX_PLAYER_NAME` characters (see docs/record-format.md)."""
    if "players" not in record:
        return
    where = _where(prefix, "players")
    players = record["players"]
    count = rules.players
    if not isinstance(players, list):
        raise RecordError(
            where, f"must be a list of {count} player names (one per player), got {_short(players)}"
        )
    if len(players) != count:
        raise RecordError(where, f"has {len(players)} names; the game has {count} players")
    for seat, name in enumerate(players):
        place = f"{where}[{seat}]"
        if not isinstance(name, str):
            raise RecordError(place, f"must be a player name (a string), got {_short(name)}")
        if not name.strip() or len(name) > MAX_PLAYER_NAME or not name.isprintable():
            raise RecordError(
                place, f"must be 1 to {MAX_PLAYER_NAME} printable characters, got {_short(name)}"
            )


def game_summary(game: GameState) -> dict[str, Any]:
    out: dict[str, Any] = {
        "scores": [list(s) for s in game.score_history],
        "winner": game.winner,
    }
    if not game.is_over and game.hand.history:
        out.update(hand_summary(game.hand))
    return out


def replay_record(data: Any) -> tuple[dict[str, Any], HandState | GameState]:
    """Replay a hand or game record; returns the summary and the final state."""
    if not isinstance(data, Mapping):
        raise RecordError("record", "must be a JSON object")
    fmt = data.get("format")
    if fmt == HAND_FORMAT:
        hand = replay_hand(data)
        return hand_summary(hand), hand
    if fmt == GAME_FORMAT:
        game = replay_game(data)
        return game_summary(game), game
    raise RecordError("format", f"must be {HAND_FORMAT!r} or {GAME_FORMAT!r}, got {_short(fmt)}")


# ----------------------------------------------------------------------------- writing
def hand_record(state: HandState, include_rules: bool = True) -> dict[str, Any]:
    """The record of a hand (complete or in progress), in the order the actions were made."""
    rules = state.rules
    two = rules.joker_names
    record: dict[str, Any] = {"format": HAND_FORMAT}
    if include_rules:
        record["rules"] = rules.to_dict()
    record["dealer"] = state.dealer
    hands = [mask_text(hand, two) for hand in state.dealt]
    for seat, order in zip(ordered_seats(rules), state.dummy_deal, strict=False):
        hands[seat] = [action_text(card, two) for card in order]  # deal order matters
    record["hands"] = hands
    record["kitty"] = mask_text(state.kitty_dealt, two)
    if state.barred:
        record["barred"] = list(state.barred)
    auction: list[str] = []
    discards: list[str] = []
    nominations: list[Action] = []
    play: list[str] = []
    slam: list[str] = []
    slam_cards = 0  # after "slam": the partner's card and the contractor's discard
    table_kitty: list[str] = []
    table_take: list[str] = []
    draws: list[str] = []
    kitty_moves = 2 if rules.open_eight else 0  # open_eight: before the auction
    take_moves = 2 if rules.open_eight and state.contract >= 0 else 0
    # History is in phase order: calls, then the discards, then nominations, then play.
    discard_count = state.kitty_exchange
    for action in state.history:
        text = action_text(action, two)
        if action in (DRAW_KEEP, DRAW_THROW):
            draws.append(text)
        elif action in (SLAM, NO_SLAM):
            slam.append(text)
            slam_cards = 2 if action == SLAM else 0
        elif action < PASS and kitty_moves:
            table_kitty.append(text)
            kitty_moves -= 1
        elif action < PASS and slam_cards:
            slam.append(text)
            slam_cards -= 1
        elif action < PASS and len(discards) < discard_count:
            discards.append(text)
        elif action < PASS and take_moves:
            table_take.append(text)
            take_moves -= 1
        elif action < PASS:
            play.append(text)
        elif is_call(action):
            auction.append(text)
        elif action <= NO_NOMINATION:
            nominations.append(action)
        elif action == CLAIM:
            play.append(text)
        elif action == GO_ALONE:
            record["call"] = "alone"
        else:
            record["call"] = action_text(action - CALL_BASE, two)
    if rules.draw_pack:
        record["draws"] = draws
    if rules.open_eight:
        record["table_kitty"] = table_kitty
    record["auction"] = auction
    record["discards"] = discards
    if table_take:
        record["table_take"] = table_take
    if slam:
        record["slam"] = slam
    if nominations:
        # the jokers the contractor held at the nomination: still held, or played since
        # (not simply those dealt: a joker may come by a slam pass or a draw)
        mine = state.hands[state.contractor]
        plays = [play for trick in state.tricks for play in trick.plays] + state.current_trick()
        for seat, action in plays:
            if seat == state.contractor:
                mine |= 1 << action_card(action)
        held = cards_of(mine & JOKERS_MASK)
        decisions = {
            card_text(joker, two): "none"
            if a == NO_NOMINATION
            else SUIT_LETTERS[(a - NOMINATE_BASE) % 4]
            for joker, a in zip(held, nominations, strict=False)
        }
        if two:
            record["joker_suit"] = decisions
        else:
            (decision,) = decisions.values()
            # A declined nomination is written only while nothing shows it (no play yet).
            if decision != "none" or not play:
                record["joker_suit"] = decision
    if "call" in record:
        record["call"] = record.pop("call")  # keep the record's keys in phase order
    record["play"] = play
    return record


def game_record(game: GameState, players: Sequence[str] | None = None) -> dict[str, Any]:
    """The record of a game so far. With its ``seed``, replaying it also deals the hands to
    come exactly as this game would (so a saved game resumes with the same cards)."""
    hands = [hand_record(h, include_rules=False) for h in game.finished_hands]
    if not game.is_over and game.hand.history:
        hands.append(hand_record(game.hand, include_rules=False))
    record: dict[str, Any] = {
        "format": GAME_FORMAT,
        "rules": game.rules.to_dict(),
        "first_dealer": game.first_dealer,
    }
    if game.seed is not None:
        record["seed"] = game.seed
    if players is not None:
        record["players"] = list(players)
    record["hands"] = hands
    return record


def random_hand(
    rules: Rules = DEFAULT_RULES, seed: int = 0, dealer: int | None = None
) -> HandState:
    """A complete hand with a seeded deal and uniformly random legal actions."""
    rng = random.Random(seed)
    state = HandState.deal(
        rules, rng.randrange(rules.players) if dealer is None else dealer, seed=rng.randrange(2**32)
    )
    while not state.is_over:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    return state


def cards_text(mask: CardMask, rules: Rules) -> list[str]:
    return [action_text(card, rules.joker_names) for card in iter_cards(mask)]


def parse_actions(tokens: Sequence[str]) -> list[Action]:
    return [parse_action(token) for token in tokens]
