"""The double-dummy data set (fivehundred.env.dataset): its rows equal the solver's
answers (through the engine's own auction, kitty exchange and nomination, and against
every discard searched one by one), are written to Parquet and read back whole."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fivehundred.solver")
pq = pytest.importorskip("pyarrow.parquet")

from fivehundred.actions import (  # noqa: E402
    MISERE,
    NO_NOMINATION,
    NOMINATE_BASE,
    PASS,
    bid_action,
)
from fivehundred.cards import JOKER, NO_TRUMPS, iter_cards, mask_of  # noqa: E402
from fivehundred.cli import main  # noqa: E402
from fivehundred.env import dataset  # noqa: E402
from fivehundred.game import AUCTION, DISCARD, NOMINATE, PLAY, HandState  # noqa: E402
from fivehundred.play import FREE_SUIT, make_context  # noqa: E402
from fivehundred.rules import make_rules  # noqa: E402
from fivehundred.solver import Position, solve, solve_position  # noqa: E402
from fivehundred.solver.par import FirstLeads  # noqa: E402

SEED = 16  # its first deal has the joker in the kitty: every contractor may name its suit


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[dict[str, Any]]]:
    path = tmp_path_factory.mktemp("dataset") / "deals.parquet"
    assert main(["dataset", str(path), "--deals", "3", "--seed", str(SEED)]) == 0
    return path, dataset.read(str(path))


def _bid(state: HandState, seat: int, call: int) -> None:
    """The auction, everyone else passing, until ``seat`` has made ``call``."""
    while state.to_move != seat:
        state.apply(PASS)
    state.apply(call)


def _contract(state: HandState, contractor: int, strain: str) -> None:
    """``contractor`` wins the auction with a bid of ``strain`` (misère: after a seven,
    as the Australian auction asks)."""
    if strain == "misere":
        first = (state.dealer + 1) % 4
        if first != contractor:
            _bid(state, first, bid_action(7, 0))
        else:
            _bid(state, first, bid_action(7, 0))
            _bid(state, (first + 1) % 4, bid_action(7, 1))
        _bid(state, contractor, MISERE)
    else:
        _bid(state, contractor, bid_action(6, dataset.STRAINS.index(strain)))
    while state.phase == AUCTION:
        state.apply(PASS)
    assert state.contractor == contractor


def _check_through_the_engine(row: dict[str, Any], rules: Any) -> None:
    """Each value of ``row``, with its discard and nomination made through the engine
    (auction, kitty, nomination, the first lead), is what the solver says of that
    position."""
    dealt = dataset.deal(SEED, row["deal"], rules)
    assert row["hand_seed"] == dataset.hand_seed(SEED, row["deal"])
    assert row["dealer"] == dealt.dealer
    assert [mask_of(h) for h in row["hands"]] == dealt.hands[:4]
    assert mask_of(row["kitty"]) == dealt.kitty
    for strain, seat in itertools.product(dataset.STRAINS, range(4)):
        state = dataset.deal(SEED, row["deal"], rules)
        _contract(state, seat, strain)
        assert state.phase == DISCARD
        discard = row[f"{strain}_discard"][seat]
        for card in discard:
            state.apply(card)
        joker = row.get(f"{strain}_joker", [FREE_SUIT] * 4)[seat]
        if state.phase == NOMINATE:
            state.apply(NO_NOMINATION if joker == FREE_SUIT else NOMINATE_BASE + joker)
        else:
            assert joker == FREE_SUIT
        assert state.phase == PLAY
        assert rules.eldest_leads or state.to_move == seat
        assert solve(state) == row[f"{strain}_tricks"][seat], (row["deal"], strain, seat)


def test_rows_are_the_engines_and_the_solvers(
    written: tuple[Path, list[dict[str, Any]]],
) -> None:
    _, rows = written
    assert [row["deal"] for row in rows] == [0, 1, 2]
    for row in rows:
        _check_through_the_engine(row, make_rules())


def test_eldest_leads_through_the_engine() -> None:
    """With ``eldest_leads`` the dealer's left leads (in misère the next seat that plays,
    when that is the contractor's partner)."""
    variants = {"eldest_leads": True}
    (row,) = dataset.deal_rows(SEED, 0, 1, variants=variants)
    _check_through_the_engine(row, make_rules("australian", variants))


def _every_discard(state: HandState, seat: int, strain: str) -> int:
    """The strain's value for ``seat``, every discard and nomination solved."""
    index = dataset.STRAINS.index(strain)
    misere = strain == "misere"
    trump = NO_TRUMPS if index >= 4 else index
    partner = (seat + 2) % 4
    active = tuple(s for s in range(4) if not (misere and s == partner))
    side = (seat,) if misere else (seat, partner)
    held = state.hands[seat] | state.kitty
    hands = list(state.hands)
    suits = [FREE_SUIT, *([0, 1, 2, 3] if trump == NO_TRUMPS and held >> JOKER & 1 else [])]
    values = []
    for suit in suits:
        ctx = make_context(trump, misere, (suit, FREE_SUIT))
        for discard in itertools.combinations(iter_cards(held), 3):
            hands[seat] = held & ~mask_of(discard)
            values.append(solve_position(Position.build(ctx, active, side, hands, seat)))
    return min(values) if misere else max(values)


def test_the_positions_are_the_solvers_own() -> None:
    """The par's positions at the first lead (which the data set's tricks come from) are
    :meth:`Position.build`'s, array for array, for every discard of a few contracts."""
    import dataclasses

    import numpy as np

    state = dataset.deal(SEED, 0)
    held = state.hands[1] | state.kitty
    hands = list(state.hands)
    for trump, misere, suit, active, side in (
        (0, False, FREE_SUIT, (0, 1, 2, 3), (1, 3)),
        (NO_TRUMPS, False, 2, (0, 1, 2, 3), (1, 3)),
        (NO_TRUMPS, True, FREE_SUIT, (0, 1, 2), (1,)),
    ):
        ctx = make_context(trump, misere, (suit, FREE_SUIT))
        hands[1] = held
        positions = FirstLeads(ctx, active, side, hands, 1, trump == 0)
        for discard in itertools.combinations(iter_cards(held), 3):
            hands[1] = held & ~mask_of(discard)
            want = Position.build(ctx, active, side, hands, 1, joker_lead_not_renounced=trump == 0)
            got = positions.position(mask_of(discard))
            for field in dataclasses.fields(Position):
                a, b = getattr(got, field.name), getattr(want, field.name)
                if isinstance(b, np.ndarray):
                    assert a.dtype == b.dtype and np.array_equal(a, b), field.name
                else:
                    assert a == b, field.name


@pytest.mark.parametrize("strain", ["spades", "no_trumps", "misere"])
def test_the_best_exchange_is_the_best_of_every_discard(
    strain: str, written: tuple[Path, list[dict[str, Any]]]
) -> None:
    _, rows = written
    state = dataset.deal(SEED, 0)
    assert state.kitty >> JOKER & 1
    assert rows[0][f"{strain}_tricks"][1] == _every_discard(state, 1, strain)


def test_parquet_reads_back_with_its_schema(
    written: tuple[Path, list[dict[str, Any]]],
) -> None:
    path, rows = written
    table = pq.read_table(path)
    assert table.schema.equals(dataset.schema(), check_metadata=False)
    assert table.schema.metadata[b"preset"] == b"australian"
    assert table.num_rows == 3
    # the same rows made again, on two processes, from deal 1 on (a shard)
    assert dataset.make(SEED, 1, 2, jobs=2) == rows[1:]


def test_a_ray_run_gives_the_same_rows(written: tuple[Path, list[dict[str, Any]]]) -> None:
    ray = pytest.importorskip("ray", reason="the ray extra is not installed")
    from fivehundred.arena.ray_backend import start_local_ray

    _, rows = written
    start_local_ray(2, log_to_driver=False, logging_level="ERROR")
    try:
        assert dataset.make(SEED, 0, 2, jobs=2, backend="ray") == rows[:2]
    finally:
        ray.shutdown()


def test_seeds_are_the_batched_environments() -> None:
    batched = pytest.importorskip("fivehundred.env.batched")
    if batched.compiled_core() is None:
        pytest.skip("the batched environment's C core is not built")
    for index in (0, 1, 77):
        assert dataset.hand_seed(SEED, index) == batched.hand_seed(SEED, index)
    tables = batched.BatchedEnv(1)
    tables.reset(seed=SEED)
    state = tables.hand_state(0)
    assert (state.hands, state.kitty, state.dealer) == (
        dataset.deal(SEED, 0).hands,
        dataset.deal(SEED, 0).kitty,
        dataset.deal(SEED, 0).dealer,
    )


def test_without_pyarrow_the_extra_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "pyarrow", None)  # an install without the extra
    out = tmp_path / "x.parquet"
    assert main(["dataset", str(out), "--deals", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "needs the 'dataset' extra: pip install 'fivehundred[dataset]'" in err
    assert not out.exists()


def test_bad_requests_are_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(ValueError, match="deals the australian and american presets"):
        dataset.check_rules("two_handed")
    with pytest.raises(ValueError, match="not 'australian' with \\['ralphing'\\]"):
        dataset.check_rules("australian", {"ralphing": True})
    out = tmp_path / "x.parquet"
    bad = (["--deals", "0"], ["--jobs", "0"], ["--seed", "-1"], ["--preset", "six"])
    for argv in (*bad, ["--backend", "spark"]):
        assert main(["dataset", str(out), *argv]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("fivehundred dataset: "), err
    assert not out.exists()


def test_the_par_is_the_duplicate_boards_par(written: tuple[Path, list[dict[str, Any]]]) -> None:
    """The par columns are those of the same deal played as a duplicate board."""
    from fivehundred.actions import action_text
    from fivehundred.boards import Board
    from fivehundred.solver.par import board_par

    _, rows = written
    for row in rows[:2]:
        state = dataset.deal(SEED, row["deal"])
        board = Board(1, "australian", state.dealer, state.hands, state.kitty)
        par = board_par(board).par
        names = board.rules.joker_names
        assert row["par_contract"] == (
            action_text(par.contract, names) if par.contract >= 0 else ""
        )
        assert (row["par_contractor"], row["par_tricks"]) == (par.contractor, par.tricks)
        assert row["par_points"] == list(par.points)
        assert row["par_contract"]  # (these deals have a contract at par)
