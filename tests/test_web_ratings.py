"""Ratings (web/accounts.py): rated games between bot accounts of fixed strength (the
heuristic against random play) through the same protocol as any program, the stronger
partnership's ratings rising above the weaker's; a seat left to the stand-in counting as
a loss for its owner alone; tables with a computer level or with people and bots mixed
are not rated."""

from __future__ import annotations

import asyncio
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import sqlalchemy as sa

from fivehundred.rules import make_rules
from fivehundred.web.accounts import MIN_RATED_HANDS, AccountStore
from test_web_support import thread_server

EXAMPLES = Path(__file__).parents[1] / "examples"
sys.path.insert(0, str(EXAMPLES))
from ws_player import play  # noqa: E402

PASSWORD = "bots have passwords too"
STRONG = ("Hard-1", "Hard-2")
WEAK = ("Easy-1", "Easy-2")


_addresses = iter(range(2, 250))


def account(base: str, name: str, bot: bool = True) -> httpx.Client:
    """A new account, its client at an address of its own on loopback (accounts at one
    address are not rated against each other)."""
    local = httpx.HTTPTransport(local_address=f"127.0.0.{next(_addresses)}")
    client = httpx.Client(base_url=base, transport=local)
    answer = client.post("/api/accounts", json={"name": name, "password": PASSWORD, "bot": bot})
    assert answer.status_code == 201, answer.text
    return client


def rated(base: str, code: str, timeout: float = 30.0) -> dict[str, Any]:
    """The table's accounts once its game has been rated (waits for that state)."""
    deadline = time.monotonic() + timeout
    while True:
        facts = httpx.get(f"{base}/api/tables/{code}/accounts").json()
        if facts["rated_applied"] or time.monotonic() > deadline:
            return dict(facts)
        time.sleep(0.05)


def new_table(base: str, seed: int, grace: float = 60.0) -> str:
    body = {
        "seats": ["open"] * 4,
        "seed": seed,
        "rules": {"variants": {"target": 50}},
        "options": {"delay": 0, "grace": grace},
    }
    answer = httpx.post(f"{base}/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["table"])


def test_the_stronger_partnership_rises(tmp_path: Path) -> None:
    rules = make_rules("australian", {"target": 50})
    with thread_server(f"sqlite:///{tmp_path / 'w.sqlite3'}") as base:
        clients = {name: account(base, name) for name in STRONG + WEAK}
        games = 6
        played = 0
        for game in range(20):
            if played == games:
                break
            code = new_table(base, seed=100 + game)
            # the partnerships change places: seats 0 & 2 against 1 & 3
            order = (
                [STRONG[0], WEAK[0], STRONG[1], WEAK[1]]
                if game % 2 == 0
                else [WEAK[0], STRONG[0], WEAK[1], STRONG[1]]
            )
            tokens = []
            for seat, name in enumerate(order):
                answer = clients[name].post(f"/api/tables/{code}/seats/{seat}", json={"name": name})
                assert answer.status_code == 200, answer.text
                tokens.append(answer.json()["token"])

            async def all_play(
                code: str = code, order: list[str] = order, tokens: list[str] = tokens
            ) -> list[Any]:
                return list(
                    await asyncio.gather(
                        *[
                            play(
                                base,
                                code,
                                token,
                                "heuristic" if name in STRONG else "random",
                                seat,
                                rules,
                                quiet=True,
                            )
                            for seat, (name, token) in enumerate(zip(order, tokens, strict=True))
                        ]
                    )
                )

            results = asyncio.run(all_play())
            assert results[0]["view"]["table"]["finished"]
            if httpx.get(f"{base}/api/tables/{code}").json()["hands_played"] < MIN_RATED_HANDS:
                continue  # too short to be rated (the next test shows it is not)
            assert rated(base, code)["rated_applied"]
            played += 1
        board = httpx.get(f"{base}/api/leaderboard/australian").json()["players"]
        by_name = {entry["name"]: entry for entry in board}
        assert set(by_name) == set(STRONG + WEAK)
        assert all(by_name[name]["games"] == games and by_name[name]["bot"] for name in by_name)
        assert {entry["name"] for entry in board[:2]} == set(STRONG)
        assert min(by_name[n]["mu"] for n in STRONG) > 25 > max(by_name[n]["mu"] for n in WEAK)
        pairs = httpx.get(f"{base}/api/leaderboard/australian?pairs=true").json()["players"]
        assert len(pairs) == 2 and pairs[0]["name"] in ("Hard-1 & Hard-2", "Hard-2 & Hard-1")
        assert pairs[0]["rating"] > pairs[1]["rating"]
        profile = httpx.get(f"{base}/api/accounts/Hard-1").json()
        history = [h["rating"] for h in profile["history"]]
        assert len(history) == games
        assert history[-1] > history[0]
        assert profile["partnerships"][0]["partners"] == "Hard-1 & Hard-2"
        # an account deleted takes its ratings and its partnership's with it, no other
        gone = clients[WEAK[0]].request("DELETE", "/api/accounts/me", json={"password": PASSWORD})
        assert gone.status_code == 200, gone.text
        pairs = httpx.get(f"{base}/api/leaderboard/australian?pairs=true").json()["players"]
        assert [entry["name"] for entry in pairs] in (["Hard-1 & Hard-2"], ["Hard-2 & Hard-1"])
        board = httpx.get(f"{base}/api/leaderboard/australian").json()["players"]
        assert {entry["name"] for entry in board} == set(STRONG + WEAK) - {WEAK[0]}
        assert httpx.get(f"{base}/api/accounts/{WEAK[1]}").json()["partnerships"] == []


def test_a_seat_left_to_the_stand_in_is_a_loss_for_its_owner_only(tmp_path: Path) -> None:
    rules = make_rules("australian", {"target": 50})
    with thread_server(f"sqlite:///{tmp_path / 'w.sqlite3'}") as base:
        names = ["Ann", "Bob", "Cat", "Dan"]
        clients = {name: account(base, name, bot=False) for name in names}
        code = new_table(base, seed=7, grace=0)
        tokens = [
            clients[name]
            .post(f"/api/tables/{code}/seats/{seat}", json={"name": name})
            .json()["token"]
            for seat, name in enumerate(names)
        ]

        async def three_play() -> list[Any]:  # Dan (seat 3) never comes: the stand-in plays
            return list(
                await asyncio.gather(
                    *[
                        play(base, code, tokens[seat], "heuristic", seat, rules, quiet=True)
                        for seat in range(3)
                    ]
                )
            )

        asyncio.run(three_play())
        assert rated(base, code)["rated_applied"]
        board = {
            e["name"]: e for e in httpx.get(f"{base}/api/leaderboard/australian").json()["players"]
        }
        assert set(board) == {"Dan"}  # the game counted for nobody else
        assert board["Dan"]["mu"] < 25 and board["Dan"]["games"] == 1
        history = httpx.get(f"{base}/api/accounts/Dan").json()["history"]
        assert [h["outcome"] for h in history] == ["absent"]


def test_computer_levels_and_mixed_tables_are_not_rated(tmp_path: Path) -> None:
    with thread_server(f"sqlite:///{tmp_path / 'w.sqlite3'}") as base:
        person = account(base, "Eve", bot=False)
        bots = [account(base, f"Bot-{i}") for i in range(3)]
        body = {
            "seats": ["open", "random", "random", "random"],
            "seed": 3,
            "rules": {"variants": {"target": 10}},
            "options": {"delay": 0, "grace": 0},
        }
        with_levels = httpx.post(f"{base}/api/tables", json=body).json()["table"]
        person.post(f"/api/tables/{with_levels}/seats/0", json={"name": "Eve"})
        mixed = new_table(base, seed=4, grace=0)
        person.post(f"/api/tables/{mixed}/seats/0", json={"name": "Eve"})
        for seat, bot in enumerate(bots, 1):
            bot.post(f"/api/tables/{mixed}/seats/{seat}", json={"name": "x"})
        # what the server decided is asked again of the store directly
        engine = sa.create_engine(f"sqlite:///{tmp_path / 'w.sqlite3'}")
        store = AccountStore(engine)
        deadline = time.monotonic() + 60
        outcomes: dict[str, str] = {}
        while len(outcomes) < 2 and time.monotonic() < deadline:
            for code in (with_levels, mixed):
                if httpx.get(f"{base}/api/tables/{code}").json()["finished"]:
                    outcomes[code] = store.rate_game(code)
            time.sleep(0.05)
        engine.dispose()
        assert outcomes[with_levels] == "unrated: not every seat is an account's"
        assert outcomes[mixed] == "unrated: people and bot accounts at one table"
        assert httpx.get(f"{base}/api/leaderboard/australian").json()["players"] == []
