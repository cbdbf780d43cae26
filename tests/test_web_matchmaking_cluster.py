"""Play now with two servers on one PostgreSQL (web/matchmaking.py): the queue is the
database's, so two people whose requests reach different servers meet at one table; one
who would start at once on one server waits with a person waiting on the other; the
per-address bound counts both servers' tickets; a deleted account's place goes, whichever
server is asked. Skipped without ``$FIVEHUNDRED_TEST_PG_URL``."""

from __future__ import annotations

import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from fivehundred.web.matchmaking import PER_CLIENT
from test_web_support import database_url, free_port, start_server_process

_addresses = iter(range(2, 250))


@pytest.fixture
def bases(tmp_path: Path) -> Iterator[list[str]]:
    url = database_url("postgresql", tmp_path)
    ports = [free_port(), free_port()]
    limits = ("--create-burst", "100", "--seat-burst", "100")
    servers: list[subprocess.Popen[str]] = []
    try:
        for i, port in enumerate(ports):
            servers.append(start_server_process(url, port, tmp_path / str(i), *limits))
        yield [f"http://127.0.0.1:{port}" for port in ports]
    finally:
        for server in servers:
            server.send_signal(signal.SIGTERM)
            server.wait(30)


def person(base: str) -> httpx.Client:
    """A visitor at an address of their own (the limits are per address)."""
    local = httpx.HTTPTransport(local_address=f"127.0.0.{next(_addresses)}")
    return httpx.Client(base_url=base, transport=local, timeout=60)


def kinds(base: str, code: str) -> list[tuple[str, str]]:
    seats = httpx.get(f"{base}/api/tables/{code}").json()["seats"]
    return [(s["kind"], s["name"]) for s in seats]


def test_two_people_on_two_servers_meet(bases: list[str]) -> None:
    ann, bob = person(bases[0]), person(bases[1])
    body = {"preset": "two_handed", "level": "random", "wait": 120}
    waiting = ann.post("/api/play-now", json={**body, "name": "Ann"}).json()
    assert waiting["status"] == "waiting", waiting
    # Bob asks the other server: the queue is one, the table is full, both are seated
    seated = bob.post("/api/play-now", json={**body, "name": "Bob"}).json()
    assert seated["status"] == "seated", seated
    # Ann's long poll on her server is answered with the seat the other server made
    answer = ann.get(f"/api/play-now/{waiting['ticket']}", params={"wait": 30}).json()
    assert answer["status"] == "seated" and answer["table"] == seated["table"], answer
    assert {answer["seat"], seated["seat"]} == {0, 1}
    assert kinds(bases[0], answer["table"]) == [("person", "Ann"), ("person", "Bob")]


def test_one_at_once_on_one_server_waits_with_a_person_waiting_on_the_other(
    bases: list[str],
) -> None:
    nan, sam = person(bases[0]), person(bases[1])
    body = {"preset": "australian", "level": "easy", "wait": 3, "name": "Nan"}
    waiting = nan.post("/api/play-now", json=body).json()
    assert waiting["status"] == "waiting", waiting
    at_once = {"preset": "australian", "level": "random", "wait": 0, "name": "Sam"}
    sniper = sam.post("/api/play-now", json=at_once).json()
    assert sniper["status"] == "waiting", sniper  # waits with Nan, on the other server
    # Nan's wait runs out: her server makes the table on her terms, Sam's server answers
    answers: dict[str, Any] = {}
    for who, client, ticket in ((0, nan, waiting["ticket"]), (1, sam, sniper["ticket"])):
        answers[str(who)] = client.get(f"/api/play-now/{ticket}", params={"wait": 30}).json()
    assert {a["status"] for a in answers.values()} == {"seated"}, answers
    assert answers["0"]["table"] == answers["1"]["table"]
    seats = kinds(bases[1], answers["0"]["table"])
    assert seats[:2] == [("person", "Nan"), ("person", "Sam")]
    assert seats[2:] == [("computer", "easy")] * 2


def test_the_bounds_and_a_deleted_account_hold_across_servers(bases: list[str]) -> None:
    local = httpx.HTTPTransport(local_address=f"127.0.0.{next(_addresses)}")
    one = [httpx.Client(base_url=base, transport=local, timeout=60) for base in bases]
    body = {"preset": "australian", "level": "random", "wait": 300}
    presets = ("australian", "american", "french_canadian") * 3  # no table of four fills
    answers = [
        one[i % 2].post("/api/play-now", json={**body, "preset": preset})
        for i, preset in enumerate(presets[: PER_CLIENT + 1])
    ]
    assert [a.status_code for a in answers] == [200] * PER_CLIENT + [429]
    for i, answer in enumerate(answers[:PER_CLIENT]):  # they leave, through either server
        assert one[1 - i % 2].delete(f"/api/play-now/{answer.json()['ticket']}").status_code == 200
    # an account waits through one server and is deleted through the other
    hal = [person(bases[0])]
    signed = hal[0].post("/api/accounts", json={"name": "Hal", "password": "x" * 12})
    assert signed.status_code == 201, signed.text
    ticket = hal[0].post("/api/play-now", json={**body, "wait": 60}).json()["ticket"]
    other = httpx.Client(base_url=bases[1], timeout=60, cookies=hal[0].cookies)
    gone = other.request("DELETE", "/api/accounts/me", json={"password": "x" * 12})
    assert gone.status_code == 200, gone.text
    assert hal[0].get(f"/api/play-now/{ticket}").status_code == 404
