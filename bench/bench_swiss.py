"""The Swiss pairing's cost: a field of ``--pairs`` fixed partnerships (default 200) over
``--rounds`` rounds (default 9), each game's result drawn at random (seeded), each round
paired by :func:`fivehundred.web.events.pairing.swiss_round` from the whole history (the
standings worked out again each round, as the server does). Prints each round's time and
the slowest; the target is under a second a round.

``--store``: the same field through the server's store on a fresh SQLite database (each
round paired from the database and written with its games in one transaction, every game
then scored as abandoned), and the time to build the event's page view at the end.

    python bench/bench_swiss.py [--pairs 200] [--rounds 9] [--seed 1] [--store]
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time

from fivehundred.web.events.pairing import Played, RoundResult, standings, swiss_round


def through_store(pairs: int, rounds: int) -> None:
    import sqlalchemy as sa

    from fivehundred.web.events import view
    from fivehundred.web.events.store import EventStore
    from fivehundred.web.schema import accounts, event_games, event_pairs
    from fivehundred.web.store import Store

    store = Store(f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3")
    events = EventStore(store.engine)
    with store.engine.begin() as db:
        db.execute(
            accounts.insert(),
            [
                {"name": f"A{i}", "name_key": f"a{i}", "password_hash": "-", "created": 0.0}
                for i in range(2 * pairs)
            ],
        )
    facts = {
        "name": "Bench",
        "kind": "swiss",
        "preset": "australian",
        "variants": "{}",
        "target": 500,
        "rounds": rounds,
        "grace": 60.0,
        "max_pairs": 256,
        "starts_at": None,
    }
    event = events.create(1, None, facts)
    for i in range(pairs):
        events.register(event, 2 * i + 1, f"A{2 * i + 1}")
    with store.engine.begin() as db:
        db.execute(event_pairs.update().values(checked_in=True))
    times = []
    for number in range(1, rounds + 1):
        start = time.perf_counter()
        assert events.start_round(event, number, time.time())
        times.append(time.perf_counter() - start)
        with store.engine.connect() as db:
            games = db.execute(
                sa.select(event_games.c.id).where(event_games.c.round == number)
            ).scalars()
            ids = list(games)
        events.abandoned(ids)
    start = time.perf_counter()
    view.event_view(events, event, 1)
    shown = time.perf_counter() - start
    print(
        f"through the store (SQLite): slowest round started in {max(times) * 1000:.1f} ms, "
        f"mean {sum(times) / len(times) * 1000:.1f} ms; the page's view {shown * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--store", action="store_true")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    pairs = list(range(args.pairs))
    history: list[RoundResult] = []
    times = []
    for number in range(1, args.rounds + 1):
        start = time.perf_counter()
        round_ = swiss_round(pairs, history)
        times.append(time.perf_counter() - start)
        games = []
        for game in round_.games:
            ns, ew = rng.randrange(-200, 600, 10), rng.randrange(-200, 600, 10)
            winner = None if ns == ew else "ns" if ns > ew else "ew"
            games.append(Played(game.ns, game.ew, ns, ew, winner))
        history.append(RoundResult(tuple(games), round_.byes))
        print(f"round {number}: {len(round_.games)} games paired in {times[-1] * 1000:.1f} ms")
    lines = standings(pairs, history)
    repeats = sum(s.played for s in lines) - sum(len(s.met) for s in lines)
    print(
        f"{args.pairs} pairs, {args.rounds} rounds: slowest round {max(times) * 1000:.1f} ms, "
        f"mean {sum(times) / len(times) * 1000:.1f} ms; repeated meetings: {repeats // 2}; "
        f"seats off by more than one: {sum(abs(s.balance) > 1 for s in lines)}"
    )
    if args.store:
        through_store(args.pairs, args.rounds)


if __name__ == "__main__":
    main()
