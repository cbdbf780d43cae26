"""Duplicate boards (docs/duplicate.md): deals from a seed, results scored as the rule
book scores a hand on its own (R-SCORE), matchpoints, travellers, standings, export."""

from __future__ import annotations

import json
import random

import pytest

from fivehundred.actions import PASS, parse_call
from fivehundred.boards import (
    BOARDS_FORMAT,
    Board,
    BoardResult,
    Par,
    board_presets,
    export_set,
    import_set,
    import_text,
    make_board,
    make_boards,
    matchpoints,
    set_text,
    standings,
    traveller,
)
from fivehundred.bots import make_player
from fivehundred.errors import RecordError
from fivehundred.game import HandState
from fivehundred.record import replay_hand
from fivehundred.rules import make_rules
from fivehundred.scoring import score_hand


def play(board: Board, seed: int, bots: str = "random") -> HandState:
    """The board played out by computer players (each seat its own, seeded)."""
    state = board.start()
    players = [make_player(bots, seed=seed * 7 + seat) for seat in range(4)]
    while not state.is_over:
        seat = state.to_move
        state.apply(players[seat].act(state.observation(seat)))
    return state


def fixed(board: int, entrant: str, net: int, seat: int = 0) -> BoardResult:
    """A result with given points, for the comparisons (no record needed there)."""
    points = (net, 0) if net >= 0 else (0, -net)
    return BoardResult(board, entrant, seat, -1, -1, 0, points, {})


def test_boards_are_deterministic_and_differ_by_seed() -> None:
    a = make_boards("2026-12-06", 12)
    assert a == make_boards("2026-12-06", 12)
    assert a != make_boards("2026-12-07", 12)
    assert [b.number for b in a] == list(range(1, 13))
    assert [b.dealer for b in a[:5]] == [0, 1, 2, 3, 0]
    for board in a:
        assert len({*board.hands, board.kitty}) == 5
        assert [h.bit_count() for h in board.hands] == [10] * 4
        assert board.kitty.bit_count() == 3
        union = board.kitty
        for hand in board.hands:
            assert not union & hand
            union |= hand
        assert union == board.rules.pack.cards
    assert len({b.hands for b in a}) == 12


def test_only_four_handed_partnership_presets_make_boards() -> None:
    assert {"australian", "american"} <= set(board_presets())
    for preset in ("three_handed", "five_handed", "two_handed", "six_handed"):
        with pytest.raises(ValueError, match="four players"):
            make_board(1, 1, preset)
    with pytest.raises(ValueError):
        make_boards(1, 0)


def test_a_result_is_the_hand_scored_on_its_own() -> None:
    board = make_board("score", 3)
    state = board.start()
    # South (seat 0) deals? board 3: dealer North (2); East (3) calls first.
    assert board.dealer == 2
    state.apply(PASS)  # East
    state.apply(parse_call("6S"))  # South
    state.apply(PASS)  # West
    state.apply(PASS)  # North
    assert state.contract == parse_call("6S") and state.contractor == 0
    rng = random.Random(5)
    while not state.is_over:
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
    result = BoardResult.from_state(board, "me", state)
    team = state.tricks_won[0] + state.tricks_won[2]
    expected = score_hand(
        board.rules,
        state.contract,
        0,
        (2,),
        state.tricks_won,
        [t.winner for t in state.tricks],
    )
    assert result.points == expected.points
    assert result.tricks == team
    made = team >= 6
    ns = (40 if team < 10 else 250) if made else -40
    assert result.points == (ns, 10 * (10 - team))  # R-SCORE: defenders 10 a trick
    assert result.net == ns - 10 * (10 - team)
    # the record replays to the same hand
    again = replay_hand(result.record)
    assert again.history == state.history
    assert BoardResult.from_record(board, "me", result.record) == result


def test_no_490_rule_or_target_in_a_board_result() -> None:
    # a defending side scoring its tricks is never capped: the points are the hand's own
    board = make_board("cap", 1)
    state = play(board, 1)
    result = BoardResult.from_state(board, "x", state)
    assert result.points == tuple(state.result.points)


def test_a_record_of_another_board_is_refused() -> None:
    one, two = make_boards("other", 2)
    state = play(one, 2)
    with pytest.raises(ValueError, match="not dealt from board 2"):
        BoardResult.from_state(two, "x", state)
    with pytest.raises(RecordError):
        BoardResult.from_record(two, "x", BoardResult.from_state(one, "x", state).record)


def test_matchpoints_two_per_result_beaten_one_per_tie_same_direction() -> None:
    results = [
        fixed(1, "a", 100),
        fixed(1, "b", 40),
        fixed(1, "c", 40),
        fixed(1, "d", -80),
        fixed(1, "e", 100, seat=1),  # East-West: compared only with East-West
        fixed(1, "f", -50, seat=3),
    ]
    scores = matchpoints(results)
    assert [s.matchpoints for s in scores[:4]] == [6, 3, 3, 0]
    assert {s.top for s in scores[:4]} == {6}
    assert [round(s.percent, 1) for s in scores[:4]] == [100.0, 50.0, 50.0, 0.0]
    # EW: net 100 for NS means -100 for East; -50 NS net means +50 for West: West beats East
    assert [s.matchpoints for s in scores[4:]] == [0, 2]
    assert matchpoints([fixed(1, "alone", 10)])[0].percent == 50.0
    with pytest.raises(ValueError):
        matchpoints([fixed(1, "a", 0), fixed(2, "b", 0)])


def test_matchpoints_of_a_large_field_are_the_definitions() -> None:
    """A field of many results, with many ties, in both directions: each result's score is
    2 for every result of its direction it beats and 1 for every tie, as counted one by
    one (the day's tables score thousands of entries a board)."""
    rng = random.Random(46)
    results = [
        fixed(1, f"e{k}", rng.choice((-520, -100, -40, 0, 40, 100, 250)), seat=rng.randrange(4))
        for k in range(600)
    ]
    for result, score in zip(results, matchpoints(results), strict=True):
        same = [r.own_net for r in results if r.direction == result.direction]
        beaten = sum(1 for net in same if net < result.own_net)
        ties = sum(1 for net in same if net == result.own_net) - 1
        assert (score.matchpoints, score.top) == (2 * beaten + ties, 2 * (len(same) - 1))


def test_traveller_lists_every_result_with_par_on_top() -> None:
    board = make_board("trav", 1)
    results = [BoardResult.from_state(board, f"p{k}", play(board, k)) for k in range(4)]
    par = Par(parse_call("7H"), 2, 8, (200, 20))
    trav = traveller(board, results, par)
    assert len(trav.rows) == 4
    nets = [row.result.net for row in trav.rows]
    assert nets == sorted(nets, reverse=True)
    for row in trav.rows:
        assert row.against_par == row.result.net - 180
    data = trav.to_dict()
    assert data["par"]["net"] == 180
    assert {r["entrant"] for r in data["results"]} == {"p0", "p1", "p2", "p3"}
    text = trav.text()
    assert text.splitlines()[1].startswith("  Par: 7♥ by North, 8 tricks: NS +180")


def test_standings_average_percentages_and_share_places() -> None:
    results = [
        fixed(1, "a", 100),
        fixed(1, "b", 100),
        fixed(1, "c", 0),
        fixed(2, "a", 50),
        fixed(2, "b", 50),
        fixed(2, "c", 40),
    ]
    pars = {1: Par(-1, -1, 0, (0, 0)), 2: Par(-1, -1, 0, (0, 0))}
    rows = standings(results, pars)
    assert [(r.place, r.entrant) for r in rows] == [(1, "a"), (1, "b"), (3, "c")]
    assert rows[0].percent == pytest.approx(75.0)
    assert rows[2].percent == pytest.approx(0.0)
    assert rows[2].against_par == 40
    assert standings(results)[2].against_par is None


def test_export_reimports_and_replays_every_result() -> None:
    boards = make_boards("export", 3, "american")
    results = [
        BoardResult.from_state(board, f"p{k}", play(board, 10 * board.number + k), seat=k % 4)
        for board in boards
        for k in range(3)
    ]
    pars = {1: Par(parse_call("6NT"), 1, 7, (20, 120))}
    data = export_set(boards, results, pars, name="test set")
    text = json.dumps(data)
    back = import_set(text)
    assert back.boards == boards
    assert back.results == results
    assert back.pars == pars
    assert back.name == "test set"
    for original, again in zip(results, back.results, strict=True):
        assert again.replay().history == original.replay().history
    printed = set_text(back.boards, back.results, back.pars, back.name)
    assert "Board 3  dealer North" in printed
    assert "Kitty" in printed and "Standings" in printed
    assert "Par: 6NT by West, 7 tricks: NS -100" in printed


def test_import_refuses_bad_sets() -> None:
    boards = make_boards("bad", 1)
    good = export_set(boards, [BoardResult.from_state(boards[0], "x", play(boards[0], 3))])
    with pytest.raises(RecordError, match="format"):
        import_set({**good, "format": "x"})
    swapped = json.loads(json.dumps(good))
    hands = swapped["boards"][0]["hands"]
    hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    with pytest.raises(RecordError, match="results"):
        import_set(swapped)  # the record no longer matches its board
    twice = json.loads(json.dumps(good))
    twice["boards"].append(twice["boards"][0])
    with pytest.raises(RecordError, match="twice"):
        import_set(twice)
    assert good["format"] == BOARDS_FORMAT
    with pytest.raises(RecordError, match="R-PRESET"):
        Board.from_dict({**boards[0].to_dict(), "preset": "three_handed"})


def test_board_rules_are_the_presets() -> None:
    assert make_board(1, 1).rules == make_rules("australian")


@pytest.mark.parametrize("preset", ["australian", "american", "french_canadian"])
def test_the_text_export_reimports_and_replays(preset: str) -> None:
    """export → import → equal: the boards, every result (each hand replayed move by
    move), the pars (a contract and a hand passed in) and the set's name; printed again,
    the same text."""
    boards = make_boards(f"text-{preset}", 3, preset)
    names = ['Ann "the bold" (guest)', "Zoë", "p: from South"]
    results = [
        BoardResult.from_state(board, names[k], play(board, 10 * board.number + k), seat=k)
        for board in boards
        for k in range(3)
    ]
    pars = {1: Par(parse_call("6NT"), 1, 7, (20, 120)), 2: Par(-1, -1, 0, (0, 0))}
    if preset == "australian":
        pars[3] = Par(parse_call("misere"), 2, 0, (250, 0))
    text = set_text(boards, results, pars, "a set: of boards")
    back = import_text(text)
    assert back.boards == boards
    assert back.results == results
    assert back.pars == pars
    assert back.name == "a set: of boards"
    for original, again in zip(results, back.results, strict=True):
        assert again.replay().history == original.replay().history
        assert again.record == original.record
    assert set_text(back.boards, back.results, back.pars, back.name) == text
    assert import_text(set_text(boards)).results == []


def test_the_text_import_refuses_hostile_text() -> None:
    board = make_boards("hostile", 1)[0]
    result = BoardResult.from_state(board, "Ann", play(board, 5))
    text = set_text([board], [result], {1: Par(parse_call("7H"), 0, 8, (200, 20))}, "set")
    lines = text.splitlines()
    play_at = next(k for k, line in enumerate(lines) if line.startswith("  Play of"))
    par_at = next(k for k, line in enumerate(lines) if line.startswith("  Par:"))

    def refused(changed: str | list[str], match: str) -> None:
        with pytest.raises(RecordError, match=match):
            import_text(changed if isinstance(changed, str) else "\n".join(changed))

    def swap(at: int, line: str) -> list[str]:
        return [*lines[:at], line, *lines[at + 1 :]]

    refused("x" * 5_000_000, "at most")
    refused("Some other file\n", "line 1")
    refused(text.replace("dealer South", "dealer Nowhere"), "no seat")
    refused(text.replace("(australian)", "(bogus)"), "preset")
    south = lines[2]
    refused(swap(2, south + " " + south.split()[1]), "line 7.hands.0.: has 11 cards")
    first, second = south.split()[1:3]
    refused(swap(2, south.replace(second, first)), "line 7.hands")  # a card twice
    refused(swap(2, "  Nobody " + south[9:]), "South line")
    moves = lines[play_at].split(": ", 1)[1].split()
    refused(swap(play_at, lines[play_at].replace(": " + moves[0], ": 10NT 10NT", 1)), "move")
    refused(swap(play_at, lines[play_at].rsplit(" ", 1)[0]), "not finished")
    refused(swap(play_at, lines[play_at] + " pass"), "already over")
    refused(swap(play_at, lines[play_at].replace('"Ann"', '"' + "n" * 81 + '"')), "name")
    refused(swap(play_at, lines[play_at].replace('"Ann"', '"Ann')), "quoted|play line")
    refused(swap(play_at, lines[play_at] + " 7H" * 800), "longer than")
    refused(swap(par_at, lines[par_at].replace("(NS 200", "(NS 999")), "figures")
    refused(swap(par_at, "  Par: 99♥ by North, 8 tricks: NS +0 (NS 0, EW 0)"), "no contract")
    refused(lines[:4], "not complete")
    refused(lines[:1], "no board")
    many = [lines[0]] + [
        line.replace("Board 1 ", f"Board {n} ") for n in range(1, 202) for line in lines[1:7]
    ]
    refused(many, "at most 200 boards")
    with pytest.raises(RecordError):
        import_text(b"bytes")  # type: ignore[arg-type]
