"""The double-dummy data set: seeded deals with, for every seat as contractor and every
strain (misère included), the tricks taken double dummy after that seat's best kitty
exchange, written to Parquet (see docs/dataset.md).

``fivehundred dataset OUT.parquet --deals N --seed S`` (``python -m
fivehundred.env.dataset``) writes deals ``0 … N-1`` of seed ``S``; ``--first K`` starts at
deal ``K``, so that shards made on several machines or processes (``--jobs``) join into
the same data set; ``--backend ray`` makes the chunks on a Ray cluster. Deal ``k`` of
seed ``S`` is the hand number ``k`` of a batched table whose seed is ``S``
(:func:`fivehundred.env.batched.hand_seed`): ``s = hand_seed(S, k)``,
``HandState.deal(rules, dealer=s >> 62, seed=s)``.

For each deal, each seat ``c`` and each strain, the contractor ``c`` picks up the kitty
(13 cards), lays down three (R-KITTY), in no trumps and misère names the joker's suit or
keeps it free if it is still held (R-JOKER 1), and leads (the dealer's left with
``eldest_leads``); then all four hands are played double dummy. The value is the best of
every discard and nomination for the contractor: in a suit or no trumps the most tricks
the contractor's side (contractor and partner) takes, in misère the fewest the
contractor takes alone (the partner's cards out: 0 is a made misère; open misère is the
same problem). The search is exact: discards that differ only by cards of equal
double-dummy value (the contractor's cards with no other player's card between them in
the strain's order) are searched once, and a discard is solved only when a zero-window
search says it beats the best so far (:func:`fivehundred.solver.reach_position`).

>>> row = deal_rows(seed=1, first=0, count=1)[0]
>>> row["dealer"], row["spades_tricks"], row["misere_tricks"]
(2, [10, 1, 10, 1], [2, 3, 2, 2])
"""

from __future__ import annotations

import itertools
import os
import sys
import time
from collections.abc import Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from fivehundred.actions import action_text
from fivehundred.cards import iter_cards
from fivehundred.game import HandState
from fivehundred.rules import Rules, make_rules

#: The presets the data set deals (four players in two sides, the 43-card pack, a kitty
#: of three), and the variants it takes with them: those that change only who leads or
#: the joker's lead.
PRESETS = ("australian", "american")
VARIANTS = frozenset(("eldest_leads", "joker_lead_not_renounced"))
#: The strains, in the order of the columns: the four suits, no trumps and misère.
STRAINS = ("spades", "clubs", "diamonds", "hearts", "no_trumps", "misere")
SEATS = 4
TRICKS = 10
#: Most deals one call writes (a bound on the input, not on the data set: shards join).
MAX_DEALS = 10_000_000
_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def splitmix64(z: int) -> int:
    z &= _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def hand_seed(seed: int, index: int) -> int:
    """The seed of deal ``index`` of ``seed``: the batched environment's
    :func:`~fivehundred.env.batched.hand_seed` (splitmix64 of
    ``seed + (index + 1)·0x9E3779B97F4A7C15``), here in Python."""
    return splitmix64(seed + _GOLDEN * (index + 1))


def deal(seed: int, index: int, rules: Rules | None = None) -> HandState:
    """Deal ``index`` of ``seed``: the engine's hand, before the auction."""
    s = hand_seed(seed, index)
    return HandState.deal(rules or make_rules(), dealer=s >> 62, seed=s)


def check_rules(preset: str, variants: Mapping[str, Any] | None = None) -> Rules:
    """The rules of a data set, or ValueError naming what it does not deal."""
    asked = {name for name, value in (variants or {}).items() if value}
    if preset not in PRESETS or asked - VARIANTS:
        raise ValueError(
            f"the data set deals the {' and '.join(PRESETS)} presets (variants: "
            f"{', '.join(sorted(VARIANTS))}), not {preset!r} with {sorted(asked)}"
        )
    return make_rules(preset, variants)


def deal_row(seed: int, index: int, rules: Rules | None = None) -> dict[str, Any]:
    """One row of the data set (the columns of docs/dataset.md): the contract table and the
    par of :mod:`fivehundred.solver.par`."""
    from fivehundred.solver.par import MISERE_KEY, STRAIN_KEYS, strain_table, table_par

    rules = rules or make_rules()
    state = deal(seed, index, rules)
    row: dict[str, Any] = {
        "seed": seed,
        "deal": index,
        "hand_seed": hand_seed(seed, index),
        "dealer": state.dealer,
        "hands": [list(iter_cards(state.hands[s])) for s in range(SEATS)],
        "kitty": list(iter_cards(state.kitty)),
    }
    table = strain_table(rules, state.dealer, state.hands, state.kitty)
    for strain, key in zip(STRAINS, (*STRAIN_KEYS[:5], MISERE_KEY), strict=True):
        bests = [table[(seat, key)] for seat in range(SEATS)]
        row[f"{strain}_tricks"] = [b.tricks for b in bests]
        row[f"{strain}_discard"] = [list(iter_cards(b.discard)) for b in bests]
        if strain in ("no_trumps", "misere"):
            row[f"{strain}_joker"] = [b.nominations[0] if b.nominations else -1 for b in bests]
    par = table_par(rules, state.dealer, table).par
    row["par_contract"] = action_text(par.contract, rules.joker_names) if par.contract >= 0 else ""
    row["par_contractor"] = par.contractor
    row["par_tricks"] = par.tricks
    row["par_points"] = list(par.points)
    return row


def deal_rows(
    seed: int,
    first: int,
    count: int,
    preset: str = "australian",
    variants: Mapping[str, Any] | None = None,
) -> list[dict[str, Any]]:
    """Rows of deals ``first … first + count - 1`` of ``seed``."""
    rules = check_rules(preset, variants)
    return [deal_row(seed, index, rules) for index in range(first, first + count)]


def schema(rules: Rules | None = None) -> Any:
    """The Parquet schema (a :class:`pyarrow.Schema`; docs/dataset.md describes it)."""
    pa = _pyarrow()
    rules = rules or make_rules()
    kitty = rules.pack.kitty_size
    four_bytes = pa.list_(pa.int8(), SEATS)
    fields = [
        pa.field("seed", pa.uint64(), nullable=False),
        pa.field("deal", pa.int64(), nullable=False),
        pa.field("hand_seed", pa.uint64(), nullable=False),
        pa.field("dealer", pa.int8(), nullable=False),
        pa.field("hands", pa.list_(pa.list_(pa.uint8()), SEATS), nullable=False),
        pa.field("kitty", pa.list_(pa.uint8(), kitty), nullable=False),
    ]
    for strain in STRAINS:
        fields.append(pa.field(f"{strain}_tricks", four_bytes, nullable=False))
        fields.append(
            pa.field(
                f"{strain}_discard", pa.list_(pa.list_(pa.uint8(), kitty), SEATS), nullable=False
            )
        )
        if strain in ("no_trumps", "misere"):
            fields.append(pa.field(f"{strain}_joker", four_bytes, nullable=False))
    fields += [
        pa.field("par_contract", pa.string(), nullable=False),
        pa.field("par_contractor", pa.int8(), nullable=False),
        pa.field("par_tricks", pa.int8(), nullable=False),
        pa.field("par_points", pa.list_(pa.int32(), 2), nullable=False),
    ]
    return pa.schema(
        fields,
        metadata={
            "fivehundred.dataset": "double-dummy tricks after the best kitty exchange",
            "preset": rules.preset,
            "variants": ",".join(f"{n}={v}" for n, v in rules.variants),
        },
    )


def to_table(rows: Sequence[Mapping[str, Any]], rules: Rules | None = None) -> Any:
    """The rows as a :class:`pyarrow.Table` of :func:`schema`."""
    pa = _pyarrow()
    return pa.Table.from_pylist(list(rows), schema=schema(rules))


def write(path: str, rows: Sequence[Mapping[str, Any]], rules: Rules | None = None) -> None:
    """Write the rows to a Parquet file (zstd)."""
    import pyarrow.parquet as pq

    pq.write_table(to_table(rows, rules), path, compression="zstd")


def read(path: str) -> list[dict[str, Any]]:
    """A Parquet file of the data set as rows."""
    import pyarrow.parquet as pq

    rows: list[dict[str, Any]] = pq.read_table(path).to_pylist()
    return rows


def _pyarrow() -> Any:
    try:
        import pyarrow
    except ImportError as error:
        raise ImportError(
            "the data set is written with pyarrow: pip install 'fivehundred[dataset]'",
            name="pyarrow",
        ) from error
    return pyarrow


def _chunk(args: tuple[int, int, int, str, tuple[tuple[str, Any], ...]]) -> list[dict[str, Any]]:
    seed, first, count, preset, variants = args
    return deal_rows(seed, first, count, preset, dict(variants))


def make(
    seed: int,
    first: int,
    count: int,
    preset: str = "australian",
    variants: Mapping[str, Any] | None = None,
    jobs: int = 1,
    backend: str = "local",
) -> list[dict[str, Any]]:
    """Rows of deals ``first … first + count - 1``, on ``jobs`` processes, or on a Ray
    cluster (``backend="ray"``: ``RAY_ADDRESS`` when set, else a local Ray of ``jobs``
    CPUs): the same rows, in the same order, whichever."""
    check_rules(preset, variants)
    if backend not in ("local", "ray"):
        raise ValueError(f"backend is 'local' or 'ray', not {backend!r}")
    if backend == "local" and (jobs <= 1 or count <= 1):
        return deal_rows(seed, first, count, preset, variants)
    size = max(1, min(64, count // (4 * jobs)))
    items = tuple(sorted((variants or {}).items()))
    tasks = [
        (seed, start, min(size, first + count - start), preset, items)
        for start in range(first, first + count, size)
    ]
    if backend == "ray":
        return list(itertools.chain.from_iterable(_on_ray(tasks, jobs)))
    with ProcessPoolExecutor(jobs) as pool:
        return list(itertools.chain.from_iterable(pool.map(_chunk, tasks)))


def _on_ray(tasks: list[Any], jobs: int) -> list[list[dict[str, Any]]]:
    """The chunks made as Ray tasks (one CPU each), results in task order."""
    import ray

    from fivehundred.arena.ray_backend import RayUnavailable, start_local_ray

    started = not ray.is_initialized()
    if started:
        address = os.environ.get("RAY_ADDRESS")
        quiet: dict[str, Any] = {"log_to_driver": False, "logging_level": "ERROR"}
        try:
            if address:
                ray.init(address=address, **quiet)
            else:
                start_local_ray(jobs, **quiet)
        except Exception as error:  # Ray raises several kinds
            where = f"the Ray cluster at RAY_ADDRESS={address}" if address else "a local Ray"
            raise RayUnavailable(f"cannot start or join {where}: {error}") from None
    try:
        remote = ray.remote(num_cpus=1)(_chunk)
        chunks: list[list[dict[str, Any]]] = ray.get([remote.remote(task) for task in tasks])
        return chunks
    finally:
        if started:
            ray.shutdown()


def main(argv: Sequence[str] | None = None) -> int:
    from fivehundred.record_cli import OneLineParser

    parser = OneLineParser(
        prog="fivehundred dataset",
        description="Write seeded deals with the double-dummy tricks of every contract, for "
        "every seat as contractor after its best kitty exchange, to a Parquet file "
        "(docs/dataset.md).",
    )
    parser.add_argument("out", help="the Parquet file to write")
    parser.add_argument("--deals", type=int, default=100, help="how many deals (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="the data set's seed (default 0)")
    parser.add_argument("--first", type=int, default=0, help="the first deal's number")
    parser.add_argument(
        "--preset", default="australian", choices=PRESETS, help="the rules (default australian)"
    )
    parser.add_argument(
        "--variant",
        action="append",
        default=[],
        choices=sorted(VARIANTS),
        help="a variant switched on (repeatable)",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, help="processes, or a local Ray's CPUs (default 1)"
    )
    parser.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local processes, or Ray: the cluster at RAY_ADDRESS, else a local Ray",
    )
    args = parser.parse_args(argv)
    if not 1 <= args.deals <= MAX_DEALS:
        parser.error(f"--deals must be 1 to {MAX_DEALS:,}")
    if not 0 <= args.seed < 1 << 64 or not 0 <= args.first < 1 << 62:
        parser.error("--seed and --first must be non-negative 64-bit integers")
    if not 1 <= args.jobs <= 256:
        parser.error("--jobs must be 1 to 256")
    # the extra checked here, after the options (the command's help needs none of it)
    for module in ("numpy", "pyarrow"):
        try:
            __import__(module)
        except ImportError:
            print(
                "fivehundred dataset needs the 'dataset' extra: pip install "
                f"'fivehundred[dataset]' (no module {module!r})",
                file=sys.stderr,
            )
            return 2
    try:
        import fivehundred.solver  # noqa: F401
    except ImportError as error:  # the solver's kernel not built at install
        print(f"fivehundred dataset: {error}", file=sys.stderr)
        return 2
    variants = dict.fromkeys(args.variant, True)
    rules = check_rules(args.preset, variants)
    start = time.perf_counter()
    try:
        rows = make(
            args.seed, args.first, args.deals, args.preset, variants, args.jobs, args.backend
        )
    except (ImportError, RuntimeError) as error:  # no Ray, or none to start or join
        print(f"fivehundred dataset: {str(error).splitlines()[0]}", file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - start
    write(args.out, rows, rules)
    print(
        f"{args.out}: {len(rows):,} deals (seed {args.seed}, deals {args.first} to "
        f"{args.first + len(rows) - 1}) in {elapsed:.1f} s, {len(rows) / elapsed:.2f} "
        f"deals/s ({args.backend}, {args.jobs} process(es))"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
