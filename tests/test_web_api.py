"""The game server's REST endpoints and one WebSocket at a time (Starlette's TestClient),
on SQLite and PostgreSQL."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette prefers httpx2, not yet in the dev extra
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from fivehundred.errors import RulesError
from fivehundred.rules import PRESETS, VARIANTS, Rules, make_rules
from fivehundred.web.server import create_app
from fivehundred.web.views import allowed_calls
from test_web_support import db_url  # noqa: F401  (fixture)

Client = TestClient


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:  # noqa: F811
    with TestClient(create_app(db_url, workers=0, allow_seeds=True)) as test_client:
        yield test_client


def new_table(client: TestClient, seats: list[str] | None = None, **body: Any) -> str:
    body.setdefault("options", {"delay": 0})
    response = client.post("/api/tables", json={"seats": seats or ["open"] * 4, **body})
    assert response.status_code == 201, response.text
    data = response.json()
    assert data["url"] == f"/t/{data['table']}"
    return str(data["table"])


def join(client: TestClient, code: str, seat: int, name: str = "Ann") -> str:
    response = client.post(f"/api/tables/{code}/seats/{seat}", json={"name": name})
    assert response.status_code == 200, response.text
    assert response.json()["seat"] == seat
    return str(response.json()["token"])


def view_until(ws: Any, predicate: Any, limit: int = 2000) -> dict[str, Any]:
    for _ in range(limit):
        message = ws.receive_json()
        if message["type"] == "view" and predicate(message):
            return message
    raise AssertionError("no such view")


def test_create_validates_every_field(client: TestClient) -> None:
    def detail(body: dict[str, Any]) -> str:
        response = client.post("/api/tables", json=body)
        assert response.status_code == 422, response.text
        return str(response.json()["detail"])

    assert detail({"seats": ["open", "cmd:ls", "open", "open"]}).startswith("seats[1]: programs")
    assert detail({"seats": ["open", "hal", "open", "open"]}).startswith("seats[1]: unknown player")
    assert detail({"seats": ["open"] * 3}).startswith("seats: the australian game has 4 seats")
    assert detail({"seats": ["open"] * 4, "rules": {"preset": "klondike"}}).startswith(
        "rules: unknown preset"
    )
    assert detail({"seats": ["open"] * 4, "rules": {"variants": {"target": 7}}}).startswith(
        "rules: target"
    )
    assert detail({"seats": ["open"] * 4, "options": {"grace": -1}}).startswith("options.grace:")
    assert detail({"seats": ["open"] * 4, "options": {"stand_in": "cmd:x"}}).startswith(
        "options.stand_in"
    )
    assert detail({"seats": "open"}).startswith("seats:")
    assert detail({"seats": ["open"] * 4, "colour": "red"}).startswith("colour:")
    bad = client.post(
        "/api/tables", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert bad.status_code == 422 and "traceback" not in bad.text.lower()


def test_every_preset_takes_its_number_of_seats(client: TestClient) -> None:
    from fivehundred.rules import PRESETS

    for preset, rules in PRESETS.items():
        code = new_table(client, ["open"] * rules.players, rules={"preset": preset})
        facts = client.get(f"/api/tables/{code}").json()
        assert facts["players"] == rules.players == len(facts["seats"])
        assert facts["rules"]["preset"] == preset


def test_join_and_public_facts(client: TestClient) -> None:
    code = new_table(client, ["open", "heuristic", "open", "random"], name="Friday")
    token = join(client, code, 0, "Ann")
    assert client.post(f"/api/tables/{code}/seats/0", json={"name": "Bob"}).status_code == 409
    assert client.post(f"/api/tables/{code}/seats/1", json={"name": "Bob"}).status_code == 409
    assert client.post(f"/api/tables/{code}/seats/9", json={"name": "Bob"}).status_code == 404
    assert client.post(f"/api/tables/{code}/seats/2", json={"name": ""}).status_code == 422
    assert client.post("/api/tables/ZZZZZZ/seats/0", json={"name": "Bob"}).status_code == 404
    assert client.get("/api/tables/nope").status_code == 404
    facts = client.get(f"/api/tables/{code}").json()
    assert facts["name"] == "Friday"
    assert [s["kind"] for s in facts["seats"]] == ["person", "computer", "open", "computer"]
    assert facts["seats"][0]["name"] == "Ann" and facts["seats"][1]["name"] == "heuristic"
    assert not facts["seats"][0]["connected"] and facts["seats"][1]["connected"]
    text = json.dumps(facts)
    assert token not in text and "seed" not in text and "hand" not in facts
    assert facts["calls"] == ["misere", "open_misere"]
    listed = client.get("/api/tables?open=1").json()["tables"]
    assert code in [t["table"] for t in listed]
    join(client, code, 2, "Bob")
    assert code not in [t["table"] for t in client.get("/api/tables?open=1").json()["tables"]]
    assert code in [t["table"] for t in client.get("/api/tables").json()["tables"]]


def expected_calls(rules: Rules) -> list[str]:
    """The calls other than the suit bids the rule book allows with these rules."""
    allowed = {
        "misere": rules.misere_allowed,
        "open_misere": rules.open_misere,
        "blind_misere": rules.blind_misere,
        "hi_lo": rules.hi_lo,
        "double_misere": rules.double_misere,
        "shields_double": rules.shields_double,
        "patastrophe": rules.patastrophe,
    }
    return [call for call, on in allowed.items() if on]


def test_the_calls_a_table_allows(client: TestClient) -> None:
    """``calls`` (in the public facts and every view): the calls the rules ever allow, for
    every preset alone and with each switch it accepts."""
    for preset in PRESETS:
        assert list(allowed_calls(make_rules(preset))) == expected_calls(make_rules(preset))
        for name in VARIANTS:
            try:
                rules = make_rules(preset, {name: True})
            except RulesError:
                continue
            assert list(allowed_calls(rules)) == expected_calls(rules), (preset, name)
    every = {
        "blind_misere": True,
        "hi_lo": True,
        "double_misere": True,
        "shields_double": True,
        "patastrophe": True,
    }
    code = new_table(client, rules={"preset": "australian", "variants": every})
    calls = ["misere", "open_misere", *every]
    assert client.get(f"/api/tables/{code}").json()["calls"] == calls
    token = join(client, code, 0)
    with client.websocket_connect(f"/ws/tables/{code}?token={token}") as ws:
        assert view_until(ws, lambda m: True)["view"]["table"]["calls"] == calls
    code = new_table(client, rules={"preset": "american", "variants": {"no_misere": True}})
    assert client.get(f"/api/tables/{code}").json()["calls"] == []


def test_pages_are_served(client: TestClient) -> None:
    static = Path(__file__).parents[1] / "src/fivehundred/web/static"
    for route, name in (("/", "index.html"), ("/t/ABCDEF", "table.html")):
        response = client.get(route)
        if (static / name).exists():
            assert response.status_code == 200 and "<html" in response.text.lower()
        else:
            assert response.status_code == 404


def test_a_game_against_computers_then_history_and_record(
    client: TestClient, tmp_path: Path
) -> None:
    code = new_table(
        client,
        ["open", "random", "random", "random"],
        seed=11,
        rules={"preset": "australian", "variants": {"target": 10}},
    )
    token = join(client, code, 0, "Ann")
    with client.websocket_connect(f"/ws/tables/{code}?token={token}") as ws:
        versions = []
        while True:
            message = ws.receive_json()
            assert message["type"] == "view", message
            versions.append(message["version"])
            view = message["view"]
            assert view["seat"] == 0 and message["seat"] == 0
            if view["table"]["finished"]:
                break
            if view["legal"]:
                ws.send_json(
                    {"type": "action", "action": view["legal"][-1], "version": message["version"]}
                )
        assert versions == sorted(versions)
        assert view["table"]["hand_result"] is not None
    facts = client.get(f"/api/tables/{code}").json()
    assert facts["finished"] and facts["winner"] is not None and facts["hands_played"] >= 1
    record = client.get(f"/api/tables/{code}/record").json()
    assert record["format"] == "fivehundred-game/1" and record["players"][0] == "Ann"
    assert len(record["hands"]) == facts["hands_played"]
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    replay = subprocess.run(
        [sys.executable, "-m", "fivehundred", "replay", str(path)], capture_output=True, text=True
    )
    assert replay.returncode == 0, replay.stderr
    assert json.loads(replay.stdout)["winner"] == facts["winner"]
    games = client.get("/api/games").json()
    assert games["total"] == 1 and games["games"][0]["table"] == code
    assert games["games"][0]["players"] == ["Ann", "random", "random", "random"]
    assert client.get("/api/games?page=2").json()["games"] == []
    assert client.get("/api/games?per_page=1000").status_code == 422
    ann = client.get("/api/players/Ann").json()
    assert ann["games"] == ann["finished"] == 1 and ann["hands"] == facts["hands_played"]
    assert ann["wins"] == (1 if facts["winner"] == 0 else 0)
    assert 0 <= ann["contracts_made"] <= ann["contracts_bid"] <= ann["hands"]
    assert client.get("/api/players/Nobody").status_code == 404


def test_record_holds_finished_hands_only_and_no_seed(client: TestClient) -> None:
    code = new_table(client, ["open", "random", "random", "random"], seed=5)
    token = join(client, code, 0)
    with client.websocket_connect(f"/ws/tables/{code}?token={token}") as ws:
        view_until(ws, lambda m: bool(m["view"]["legal"]))
    record = client.get(f"/api/tables/{code}/record").json()
    assert record["hands"] == [] and "seed" not in record


def test_refusals_change_nothing(client: TestClient) -> None:
    code = new_table(client, ["open", "open", "open", "open"], seed=3)
    tokens = [join(client, code, seat, f"P{seat}") for seat in range(4)]
    facts = client.get(f"/api/tables/{code}").json()
    mover = facts["to_move"]
    other = (mover + 1) % 4
    with (
        client.websocket_connect(f"/ws/tables/{code}?token={tokens[mover]}") as ws,
        client.websocket_connect(f"/ws/tables/{code}?token={tokens[other]}") as ws_other,
        client.websocket_connect(f"/ws/tables/{code}") as spectator,
    ):
        first = view_until(ws, lambda m: m["view"]["table"]["seats"][other]["connected"])
        view_until(ws_other, lambda m: True)
        version = first["version"]
        legal = first["view"]["legal"]
        assert legal and "pass" in legal

        def refused(socket: Any, message: Any, raw: bool = False) -> str:
            if raw:
                socket.send_text(message)
            else:
                socket.send_json(message)
            while True:
                answer = socket.receive_json()
                if answer["type"] == "error":
                    return str(answer["message"])

        assert "not your turn" in refused(
            ws_other, {"type": "action", "action": "pass", "version": version}
        )
        assert "spectators cannot act" in refused(
            spectator, {"type": "action", "action": "pass", "version": version}
        )
        assert "moved on" in refused(
            ws, {"type": "action", "action": "pass", "version": version - 1}
        )
        assert "not an action" in refused(
            ws, {"type": "action", "action": "7Q", "version": version}
        )
        assert "not a call" in refused(ws, {"type": "action", "action": "AS", "version": version})
        assert "(R-" in refused(
            ws, {"type": "action", "action": "blind_misere", "version": version}
        )
        assert "not JSON" in refused(ws, "{oops", raw=True)
        assert "JSON object" in refused(ws, "[1, 2]", raw=True)
        assert "unknown message type" in refused(ws, {"type": "shuffle"})
        assert "action:" in refused(ws, {"type": "action", "version": version})
        assert "version:" in refused(ws, {"type": "action", "action": "pass"})
        assert "chat" in refused(ws, {"type": "chat", "text": "x" * 201})
        # nothing changed
        assert client.get(f"/api/tables/{code}").json()["version"] == version
        ws.send_json({"type": "resync"})
        again = view_until(ws, lambda m: True)
        assert again["version"] == version and again["view"]["legal"] == legal
        # a legal action lands, and everyone hears of it
        ws.send_json({"type": "action", "action": "pass", "version": version})
        after = view_until(ws_other, lambda m: m["version"] == version + 1)
        assert after["view"]["auction"] == ["pass"]
        seen = view_until(spectator, lambda m: m["version"] == version + 1)
        assert seen["seat"] is None and seen["view"]["hand"] == [] and seen["view"]["legal"] == []
        # chat is relayed to all
        ws.send_json({"type": "chat", "text": "hello"})
        for socket in (ws_other, spectator):
            while (chat := socket.receive_json())["type"] != "chat":
                pass
            assert chat["text"] == "hello" and chat["seat"] == mover and chat["name"] == f"P{mover}"
        for _ in range(5):
            ws.send_json({"type": "chat", "text": "again"})
        assert "at most 5 messages" in refused(ws, {"type": "chat", "text": "too much"})


def test_bad_connections_are_closed_with_a_reason(client: TestClient) -> None:
    code = new_table(client)
    token = join(client, code, 0)

    def closed(
        url: str, headers: dict[str, str] | None = None, send: str | None = None, count: int = 1
    ) -> tuple[int, str]:
        with client.websocket_connect(url, headers=headers or {}) as ws:
            if send is not None:
                ws.receive_json()
                for _ in range(count):
                    ws.send_text(send)
            with pytest.raises(WebSocketDisconnect) as info:
                while True:
                    ws.receive_json()
        return info.value.code, str(info.value.reason)

    assert closed("/ws/tables/ZZZZZZ")[0] == 4404
    assert closed(f"/ws/tables/{code}?token=wrong")[0] == 4401
    code_403, reason = closed(f"/ws/tables/{code}", headers={"origin": "http://evil.example"})
    assert code_403 == 4403 and "another site" in reason
    assert closed(f"/ws/tables/{code}?token={token}", send="x" * 5000)[0] == 1009
    assert closed(f"/ws/tables/{code}", send='{"type": "ping"}', count=150)[0] == 1008
    # the same site is welcome
    with client.websocket_connect(
        f"/ws/tables/{code}", headers={"origin": "http://testserver"}
    ) as ws:
        assert ws.receive_json()["type"] == "view"


def test_reconnect_replaces_the_old_connection(client: TestClient) -> None:
    code = new_table(client, ["open", "random", "random", "random"], seed=8)
    token = join(client, code, 0)
    with client.websocket_connect(f"/ws/tables/{code}?token={token}") as first:
        view = view_until(first, lambda m: bool(m["view"]["legal"]))
        with client.websocket_connect(f"/ws/tables/{code}?token={token}") as second:
            again = view_until(second, lambda m: True)
            assert (
                again["version"] == view["version"]
                and again["view"]["hand"] == view["view"]["hand"]
            )
            with pytest.raises(WebSocketDisconnect) as info:
                while True:
                    first.receive_json()
            assert info.value.code == 4000
            second.send_json(
                {"type": "action", "action": again["view"]["legal"][0], "version": again["version"]}
            )
            view_until(second, lambda m: m["version"] > again["version"])


def test_every_variant_makes_a_table_that_plays(client: TestClient) -> None:
    import time

    from fivehundred.errors import RulesError
    from fivehundred.rules import PRESETS, VARIANTS, make_rules

    values = {"target": 10, "scoring_table": "perfect"}
    codes = {}
    for variant in VARIANTS:
        value = values.get(variant, True)
        wanted = {variant: value, **({"target": 10} if variant != "target" else {})}
        accepted = []  # the presets where the variant applies (refused elsewhere, by name)
        for name in PRESETS:
            try:
                accepted.append(make_rules(name, wanted))
            except RulesError:
                continue
        assert accepted, f"{variant} applies to no preset"
        rules = accepted[0]
        body = {
            "seats": ["random"] * rules.players,
            "options": {"delay": 0},
            "rules": {"preset": rules.preset, "variants": wanted},
        }
        response = client.post("/api/tables", json=body)
        assert response.status_code == 201, (variant, response.text)
        codes[variant] = response.json()["table"]
    deadline = time.monotonic() + 60
    for variant, code in codes.items():
        while not (facts := client.get(f"/api/tables/{code}").json())["hands_played"]:
            assert time.monotonic() < deadline, f"{variant}: no hand finished"
            time.sleep(0.05)
        assert facts["rules"]["variants"].get(variant) is not None


def test_a_refusal_never_tells_where_a_hidden_card_lies(client: TestClient) -> None:
    """Two players: trying a face-down dummy card or the other player's card gets the same
    answer (the engine's messages differ, which would tell where the card lies)."""
    from fivehundred.cards import card_text, iter_cards

    code = new_table(
        client,
        ["open", "random"],
        seed=6,
        rules={"preset": "two_handed"},
        options={"delay": 0, "stand_in": "random"},
    )
    token = join(client, code, 0)
    live = client.app.state.hub.tables[code]  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/tables/{code}?token={token}") as ws:
        while True:
            message = view_until(ws, lambda m: bool(m["view"]["legal"]))
            hand = live.model.hand
            if hand.phase == "play" and hand.to_move == 2 and hand.hands[2] & ~hand.face_up[2]:
                break
            ws.send_json(
                {
                    "type": "action",
                    "action": message["view"]["legal"][0],
                    "version": message["version"],
                }
            )
        face_down = next(iter_cards(hand.hands[2] & ~hand.face_up[2]))
        opponents = next(iter_cards(hand.hands[1]))
        answers = []
        for card in (face_down, opponents):
            ws.send_json(
                {"type": "action", "action": card_text(card), "version": message["version"]}
            )
            while (answer := ws.receive_json())["type"] != "error":
                pass
            answers.append(answer["message"].replace(card_text(card), "CARD"))
        assert answers[0] == answers[1] and "face down" not in answers[0]


def test_french_canadian_views_name_the_white_joker() -> None:
    """R-HOUSE: the web's last trick and kitty name the higher joker JKW, as the seat's view
    does (they said JKB)."""
    from fivehundred.cards import JOKER_BLACK
    from fivehundred.table import Table
    from fivehundred.web.views import kitty_cards, last_trick, observation_json

    rules = make_rules("french_canadian")
    kitty_seen = trick_seen = False
    for seed in range(60):
        table = Table(rules, ["random"] * 4, seed)
        while not table.hand.is_over and not (kitty_seen and trick_seen):
            hand = table.hand
            if hand.phase == "discard" and hand.kitty_dealt >> JOKER_BLACK & 1:
                kitty = kitty_cards(table, hand.contractor)
                assert kitty is not None and "JKW" in kitty and "JKB" not in kitty
                kitty_seen = True
            table.step_computer()
            trick = last_trick(table)
            if trick is not None and hand.tricks and hand.tricks[-1][0][-1][1] == JOKER_BLACK:
                assert trick["plays"][-1][1] == "JKW"
                view = observation_json(table, 0)
                assert view["tricks"][-1][-1][1] == "JKW"
                trick_seen = True
        if kitty_seen and trick_seen:
            break
    assert kitty_seen and trick_seen
