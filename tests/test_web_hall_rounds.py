"""Progressive hall nights (web/events/hall_rounds.py, docs/pad.md#progressive-nights):
after each round of N hands (or M minutes, or when the organiser ends it) the winning
pair of each table moves up one table, the losing pair down, partners change; every pad
learns the next seating from its own sends' answers or by asking; a table offline when
the round ends gets the moves when it syncs, and nothing is counted twice. On SQLite and
(where ``$FIVEHUNDRED_TEST_PG_URL`` names one) PostgreSQL."""

from __future__ import annotations

from typing import Any

import test_web_hall
from fivehundred.pad import model
from fivehundred.web.events import hall_words as words
from test_web_clubs import new_club
from test_web_events import Person
from test_web_hall import expected, join

client = test_web_hall.client  # SQLite and PostgreSQL

#: a side's contract made, and so its side wins the round: (contract, contractor, tricks)
MADE = {0: ("8H", 0, 8), 1: ("8H", 1, 8)}


def hand(side: int) -> dict[str, Any]:
    contract, contractor, tricks = MADE[side]
    return {"kind": "hand", "contract": contract, "contractor": contractor, "tricks": tricks}


def progressive(client: Any, **length: int) -> tuple[Person, str]:
    owner = Person(client, "Owner")
    slug = new_club(owner)
    made = owner.post("/api/hall", {"club": slug, "name": "Progressive", **length})
    assert made.status_code == 201, made.text
    return owner, made.json()["code"]


class Table:
    """One table's pad: its games, the round of each, its version."""

    def __init__(self, client: Any, code: str, number: int, names: list[str]) -> None:
        self.client, self.code, self.number = client, code, number
        self.pads = [model.new_pad(names)]
        self.rounds = [1]
        self.version = 1
        self.token = join(client, code, number, self.pads)

    def body(self) -> dict[str, Any]:
        return {
            "token": self.token,
            "version": self.version,
            "pads": self.pads,
            "rounds": self.rounds,
        }

    def enter(self, side: int, send: bool = True) -> dict[str, Any] | None:
        self.pads[-1] = dict(self.pads[-1], hands=[*self.pads[-1]["hands"], hand(side)])
        self.version += 1
        return self.send() if send else None

    def send(self) -> dict[str, Any]:
        answer = self.client.put(f"/api/hall/{self.code}/tables/{self.number}", json=self.body())
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    def next_round(self, round_: dict[str, Any]) -> None:
        """Start the next round's game with the names the night gives this table."""
        self.pads.append(model.new_pad(round_["seating"][str(self.number)]))
        self.rounds.append(round_["round"])
        self.version += 1


def test_winners_move_up_losers_down_and_partners_change(client: Any) -> None:
    owner, code = progressive(client, round_hands=2)
    names = {1: ["A1", "B1", "C1", "D1"], 2: ["A2", "B2", "C2", "D2"], 3: ["A3", "B3", "C3", "D3"]}
    tables = {n: Table(client, code, n, names[n]) for n in names}
    # seats 1 and 3 (A, C) win at tables 1 and 3, seats 2 and 4 (B, D) at table 2
    winner = {1: 0, 2: 1, 3: 0}
    for number, table in tables.items():
        assert table.enter(winner[number])["round"]["round"] == 1
    for number in (1, 2):
        assert tables[number].enter(winner[number])["round"]["round"] == 1  # 3 still plays
    assert client.get(f"/api/hall/{code}/round").json()["moves"] == []
    closed = tables[3].enter(winner[3])["round"]  # the last hand of the round: it ends
    assert closed["round"] == 2
    # into table 1: the winners of table 2 (seats 1, 2), its own winners stay (3, 4);
    # into 2: the winners of 3, the losers of 1; into 3: its own losers, the losers of 2
    assert closed["seating"] == {
        "1": ["B2", "D2", "A1", "C1"],
        "2": ["A3", "C3", "B1", "D1"],
        "3": ["B3", "D3", "A2", "C2"],
    }
    for seats in closed["seating"].values():  # partners (seats 1 and 3) from two tables
        assert seats[0][1] != seats[2][1] and seats[1][1] != seats[3][1]
    moves = {m["name"]: (m["from"], m["to"], m["seat"], m["won"]) for m in closed["moves"]}
    assert moves["B2"] == (2, 1, 1, True) and moves["A1"] == (1, 1, 3, True)
    assert moves["B1"] == (1, 2, 3, False) and moves["B3"] == (3, 3, 1, False)
    assert len(moves) == 12
    # every pad is told, also one that asks without sending (its polling)
    assert client.get(f"/api/hall/{code}/round").json() == closed
    assert client.get(f"/api/hall/{code}").json()["progress"] == closed
    page = client.get(f"/hall/{code}").text
    assert words.MOVES_HEADING.format(round=2) in page and "B2" in page
    # the same states again (a pad's retry) change nothing: the round is not ended twice
    for table in tables.values():
        assert table.send()["round"] == closed
    # round 2 at the new seats; table 1's pad sends round 1's game again with it
    for table in tables.values():
        table.next_round(closed)
    for table in tables.values():
        table.enter(1)
    for number in (1, 2):
        tables[number].enter(1)
    assert owner.post(f"/api/hall/{code}/round", {"round": 2}).status_code == 200  # now
    again = owner.post(f"/api/hall/{code}/round", {"round": 2})
    assert again.status_code == 409  # a second tap moves nobody twice
    third = client.get(f"/api/hall/{code}/round").json()
    assert third["round"] == 3
    # round 2's winners: seats 2 and 4 everywhere (table 3 played one hand only)
    assert third["seating"]["1"] == ["C3", "D1", "D2", "C1"]
    # the standings count each table's last state once: every game of both rounds
    shown = client.get(f"/api/hall/{code}").json()["standings"]
    got = {s["name"]: (s["won"], s["points"]) for s in shown}
    assert got == expected({n: t.pads for n, t in tables.items()})
    assert got["A1"][1] == 300 + 300 + 20 + 20  # two 8H made; two tricks a hand defending


def test_an_offline_table_gets_the_moves_when_it_syncs_and_rounds_are_checked(
    client: Any,
) -> None:
    owner, code = progressive(client, round_hands=1)
    one = Table(client, code, 1, ["A1", "B1", "C1", "D1"])
    two = Table(client, code, 2, ["A2", "B2", "C2", "D2"])
    one.enter(0)
    two.enter(1, send=False)  # offline: its hand waits on the phone
    assert client.get(f"/api/hall/{code}/round").json()["round"] == 1
    synced = two.send()  # back online: its one state ends the round
    assert synced["round"]["round"] == 2
    assert synced["round"]["seating"]["1"] == ["B2", "D2", "A1", "C1"]
    late = two.send()  # and its retry changes nothing
    assert late == {
        "version": two.version,
        "round": synced["round"],
        "unknown": two.pads[0]["players"],
    }
    # a game of a round not yet begun, rounds going back, or five at a table: refused
    for rounds in ([3], [2, 1], [1, 1]):
        body = {**two.body(), "version": two.version + 1, "rounds": rounds}
        answer = client.put(f"/api/hall/{code}/tables/2", json=body)
        assert answer.status_code == 422 and answer.json()["detail"] == words.BAD_ROUNDS
    five = {**two.body(), "version": 99, "pads": [model.new_pad(list("ABCDE"), "five_handed")]}
    answer = client.put(f"/api/hall/{code}/tables/2", json=five)
    assert answer.status_code == 422 and answer.json()["detail"] == words.PROGRESSIVE_FOUR
    assert owner.post(f"/api/hall/{code}/round", {"round": 1}).status_code == 409
    member = Person(client, "Stranger")
    assert member.post(f"/api/hall/{code}/round", {"round": 2}).status_code == 403


def test_a_round_of_minutes_ends_at_its_time_and_the_lengths_are_checked(client: Any) -> None:
    owner = Person(client, "Owner")
    slug = new_club(owner)
    for length in (
        {"round_hands": 0},
        {"round_minutes": 4},
        {"round_hands": 3, "round_minutes": 20},
    ):
        refused = owner.post("/api/hall", {"club": slug, "name": "Progressive", **length})
        assert refused.status_code == 422 and refused.json()["detail"] == words.BAD_ROUND
    store = client.app.state.hall.store
    now = [1_000_000.0]
    store.clock = lambda: now[0]
    made = owner.post("/api/hall", {"club": slug, "name": "Progressive", "round_minutes": "20"})
    code = made.json()["code"]
    one = Table(client, code, 1, ["A1", "B1", "C1", "D1"])
    assert one.enter(1)["round"]["ends"] == now[0] + 20 * 60
    assert one.enter(1)["round"]["round"] == 1  # any number of hands
    now[0] += 60 * 12 + 1
    assert words.MINUTES_LEFT.format(minutes=8) in client.get(f"/hall/{code}").text
    now[0] += 8 * 60  # the time is up: the next state any table sends ends the round
    assert words.TIME_UP in client.get(f"/hall/{code}").text
    assert one.enter(1)["round"]["seating"] == {"1": ["A1", "C1", "B1", "D1"]}
    plain = owner.post("/api/hall", {"club": slug, "name": "Plain"}).json()["code"]
    assert client.get(f"/api/hall/{plain}/round").json() is None
    assert owner.post(f"/api/hall/{plain}/round", {"round": 1}).status_code == 409
