"""The learning endpoints (the tutorial, puzzles and review in the browser), through Starlette's TestClient: the
puzzles (refusals by the engine, right and wrong with the reason and the solution played
out), every lesson played through the API with the refusals it teaches, and the review of
a finished game (the numbers of :func:`fivehundred.learn.review.review`); bad input gets
a 4xx with one line."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

with warnings.catch_warnings():  # starlette prefers httpx2, not yet in the dev extra
    warnings.simplefilter("ignore", DeprecationWarning)
    from fastapi.testclient import TestClient

from fivehundred.actions import parse_play
from fivehundred.learn import puzzles as pz
from fivehundred.learn.lessons import LESSONS
from fivehundred.learn.single import load_single
from fivehundred.rules import PRESETS
from fivehundred.web import history
from fivehundred.web.server import create_app
from fivehundred.words import seat_name
from test_learn_lessons import _typed_for
from test_web_support import db_url  # noqa: F401  (fixture)


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:  # noqa: F811
    with TestClient(create_app(db_url, workers=0, allow_seeds=True)) as test_client:
        yield test_client


def test_the_pages_are_served(client: TestClient) -> None:
    for path in ("/learn", "/learn/puzzles"):
        answer = client.get(path)
        assert answer.status_code == 200 and "<main>" in answer.text, path


def test_puzzles_listed_and_filtered(client: TestClient) -> None:
    every = client.get("/api/learn/puzzles").json()
    assert len(every["puzzles"]) == len(pz.load_shipped()) + len(load_single())
    assert every["daily"] in {p["id"] for p in every["puzzles"]}
    assert "the duck" in every["themes"] and "misère" in every["themes"]
    hard = client.get("/api/learn/puzzles", params={"theme": "misère", "difficulty": "hard"})
    assert hard.status_code == 200
    assert hard.json()["puzzles"]
    assert all(p["kind"] == "misère" and p["difficulty"] == "hard" for p in hard.json()["puzzles"])
    single = client.get("/api/learn/puzzles", params={"series": "single-dummy"}).json()
    assert {p["series"] for p in single["puzzles"]} == {"single-dummy"}
    for query in (
        {"theme": "x" * 41},
        {"theme": "nonsense"},
        {"difficulty": "impossible"},
        {"series": "triple-dummy"},
    ):
        bad = client.get("/api/learn/puzzles", params=query)
        assert bad.status_code == 422, query
        assert isinstance(bad.json()["detail"], str)


def test_a_puzzle_position_and_its_answers(client: TestClient) -> None:
    puzzle = pz.load_shipped()[0]
    state = pz.replay_puzzle(puzzle)
    view = client.get(f"/api/learn/puzzles/{puzzle['id']}").json()
    pos = view["position"]
    assert pos["to_move"] == puzzle["seat"] == state.to_move
    assert "solution" not in view and "values" not in view
    you = next(s for s in pos["seats"] if s["you"])
    assert len(you["cards"]) == state.hands[state.to_move].bit_count()
    assert set(pos["legal"]) == set(puzzle["values"])
    # a card not held: refused by the engine, with its reason
    held = set(you["cards"])
    stranger = next(c for c in ("QS", "QC", "QH", "QD", "AS") if c not in held)
    refused = client.post(f"/api/learn/puzzles/{puzzle['id']}/answer", json={"card": stranger})
    assert refused.json() == {"status": "refused", "reason": refused.json()["reason"]}
    assert "do not hold" in refused.json()["reason"]
    # a wrong card: the solver's value for it and the reason
    wrong = next(c for c in puzzle["values"] if c != puzzle["solution"])
    answer = client.post(f"/api/learn/puzzles/{puzzle['id']}/answer", json={"card": wrong}).json()
    assert answer["status"] == "wrong" and answer["solution"] == puzzle["solution"]
    assert puzzle["reason"] in answer["message"]
    assert f"{puzzle['values'][wrong]} trick" in answer["message"]
    # the solution: right, played out to the end of the hand with the stated result
    right = client.post(
        f"/api/learn/puzzles/{puzzle['id']}/answer", json={"card": puzzle["solution"]}
    ).json()
    assert right["status"] == "right" and right["message"].startswith("Right!")
    played = [p["card"] for t in right["line"] for p in t["plays"]]
    assert played[-len(puzzle["line"]) :] == puzzle["line"]
    assert len(right["line"]) == puzzle["tricks_left"]
    assert right["final"] == puzzle["values"][puzzle["solution"]]
    current = state.clone()
    for card in puzzle["line"]:
        current.apply(parse_play(card))
    winner = current.tricks[-1].winner
    assert right["line"][-1]["winner"] == seat_name(winner, current.rules.seats)


def test_single_dummy_puzzles_hide_the_defenders_until_answered(client: TestClient) -> None:
    puzzle = load_single()[0]
    view = client.get(f"/api/learn/puzzles/{puzzle['id']}").json()
    for seat in view["position"]["seats"]:
        assert ("cards" in seat) == (seat["seat"] not in puzzle["hidden"]), seat
    answer = client.post(
        f"/api/learn/puzzles/{puzzle['id']}/answer", json={"card": puzzle["solution"]}
    ).json()
    assert answer["status"] == "right"
    assert all("cards" in seat or seat.get("sits_out") for seat in answer["cards"])


@pytest.mark.parametrize(
    "path,body,status",
    [
        ("/api/learn/puzzles/p9999", None, 404),
        ("/api/learn/puzzles/..%2Fetc", None, 404),
        ("/api/learn/puzzles/" + "p" * 300, None, 404),
        ("/api/learn/puzzles/p0001/answer", {"card": ""}, 422),
        ("/api/learn/puzzles/p0001/answer", {"card": "Q" * 41}, 422),
        ("/api/learn/puzzles/p0001/answer", {"card": "QS", "more": 1}, 422),
        ("/api/learn/puzzles/p0001/answer", [1, 2], 422),
        ("/api/learn/lessons/nonsense", {}, 404),
        ("/api/learn/lessons/pack", {"answers": ["JK"] * 201}, 422),
        ("/api/learn/lessons/pack", {"answers": ["x" * 41]}, 422),
        ("/api/learn/lessons/pack", {"text": "x" * 41}, 422),
        ("/api/learn/lessons/pack", {"answers": ["QS"]}, 422),  # refused: never an accepted answer
        ("/api/learn/lessons/pack", {"answers": "JK"}, 422),
    ],
)
def test_bad_input_gets_a_4xx(client: TestClient, path: str, body: Any, status: int) -> None:
    answer = client.get(path) if body is None else client.post(path, json=body)
    assert answer.status_code == status, answer.text
    assert isinstance(answer.json()["detail"], str)


def test_lessons_listed(client: TestClient) -> None:
    listed = client.get("/api/learn/lessons").json()["lessons"]
    assert [entry["id"] for entry in listed] == [lesson["id"] for lesson in LESSONS]


@pytest.mark.parametrize("number", range(1, len(LESSONS) + 1))
def test_every_lesson_plays_through_the_api(client: TestClient, number: int) -> None:
    """What the terminal test types, sent one answer at a time the way the page sends it:
    the refusals the lesson invites are refused with the engine's reason and not kept."""
    lesson = LESSONS[number - 1]
    typed, refusals = _typed_for(lesson)
    url = f"/api/learn/lessons/{lesson['id']}"
    first = client.post(url, json={}).json()
    assert first["intro"] == lesson["intro"] and not first["done"]
    kept: list[str] = []
    seen: list[str] = []
    view = first
    for text in typed:
        view = client.post(url, json={"answers": kept, "text": text}).json()
        if view["accepted"]:
            kept.append(text)
        else:
            seen += view["said"]
    assert view["done"], view
    low = " ".join(seen).lower()
    for why in refusals:
        assert "the table refuses: " in low and why.lower() in low, why
    # replayable: the kept answers bring the lesson back to its end
    assert client.post(url, json={"answers": kept}).json()["done"]


# ----------------------------------------------------------------------------- review
def finished_game(client: TestClient, seed: int = 3) -> str:
    """A game of four computer players to 10 points (one hand), finished."""
    made = client.post(
        "/api/tables",
        json={
            "seats": ["heuristic"] * 4,
            "rules": {"preset": "australian", "variants": {"target": 10}},
            "options": {"delay": 0},
            "seed": seed,
        },
    )
    assert made.status_code == 201, made.text
    code = made.json()["table"]
    deadline = time.monotonic() + 60
    while not client.get(f"/api/tables/{code}").json().get("finished"):
        assert time.monotonic() < deadline, "the computer game did not finish"
        time.sleep(0.05)
    return str(code)


@pytest.fixture
def thread_analysis() -> Iterator[None]:
    """The analysis in a thread of this process (a spawned worker compiles the solver)."""
    history.set_executor(ThreadPoolExecutor(max_workers=1))
    yield
    history.shutdown()


def test_review_of_a_finished_game(client: TestClient, thread_analysis: None) -> None:
    from fivehundred.learn.review import review
    from fivehundred.record import replay_game

    code = finished_game(client)
    record = client.get(f"/api/tables/{code}/record").json()
    expected = review(replay_game(record), 0)
    deadline = time.monotonic() + 120
    while True:
        answer = client.get(f"/api/tables/{code}/review", params={"seat": 0}).json()
        if answer["status"] != "running":
            break
        assert time.monotonic() < deadline, "the review did not finish"
        time.sleep(0.1)
    assert answer["status"] == "done", answer
    got = answer["review"]
    assert len(got.pop("costliest_text")) == len(expected["costliest"])
    assert got == expected
    for query, status in (({"seat": 4}, 422), ({"seat": -1}, 422), ({"seat": "x"}, 422), ({}, 422)):
        assert client.get(f"/api/tables/{code}/review", params=query).status_code == status
    assert client.get("/api/tables/NOSUCH/review", params={"seat": 0}).status_code == 404


def test_review_refuses_a_game_not_finished(client: TestClient) -> None:
    made = client.post("/api/tables", json={"seats": ["open"] * 4, "options": {"delay": 0}})
    code = made.json()["table"]
    answer = client.get(f"/api/tables/{code}/review", params={"seat": 0})
    assert answer.status_code == 409 and "not finished" in answer.json()["detail"]


def test_reviews_waiting_at_once_are_bounded(
    client: TestClient, thread_analysis: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Beyond MAX_PENDING_REVIEWS reviews waiting or running, a new one gets a 503 (the
    analysis worker is not queued without end); they are answered once it is free."""
    import threading

    from fivehundred.web import learn

    release = threading.Event()

    def held(game_json: str, seat: int) -> dict[str, Any]:
        release.wait(30)
        return {"seat": seat}

    monkeypatch.setattr(learn, "_review_record", held)
    monkeypatch.setattr(learn, "_reviews", {})
    monkeypatch.setattr(learn, "_reviewing", learn.Counts(100))  # as if from many visitors
    codes = [finished_game(client, seed) for seed in (3, 4)]
    asked = [(code, seat) for code in codes for seat in range(4)]
    for code, seat in asked[: learn.MAX_PENDING_REVIEWS]:
        answer = client.get(f"/api/tables/{code}/review", params={"seat": seat})
        assert answer.json() == {"status": "running"}
    code, seat = asked[learn.MAX_PENDING_REVIEWS]
    busy = client.get(f"/api/tables/{code}/review", params={"seat": seat})
    assert busy.status_code == 503 and "try again" in busy.json()["detail"]
    release.set()
    code, seat = asked[0]
    deadline = time.monotonic() + 30
    while (answer := client.get(f"/api/tables/{code}/review", params={"seat": seat}).json())[
        "status"
    ] == "running":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert answer["status"] == "done" and answer["review"] == {"seat": seat}


def test_one_visitor_has_one_review_under_way(
    client: TestClient, thread_analysis: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A visitor (an address) has one review waiting or running at once: the server's few
    places are shared between visitors; the next is taken once the first is done."""
    import threading

    from fivehundred.web import learn

    release = threading.Event()

    def held(game_json: str, seat: int) -> dict[str, Any]:
        release.wait(30)
        return {"seat": seat}

    monkeypatch.setattr(learn, "_review_record", held)
    monkeypatch.setattr(learn, "_reviews", {})
    code = finished_game(client)
    first = client.get(f"/api/tables/{code}/review", params={"seat": 0})
    assert first.json() == {"status": "running"}
    second = client.get(f"/api/tables/{code}/review", params={"seat": 1})
    assert second.status_code == 429 and "under way" in second.json()["detail"]
    release.set()
    deadline = time.monotonic() + 30
    while client.get(f"/api/tables/{code}/review", params={"seat": 0}).json()["status"] != "done":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert client.get(f"/api/tables/{code}/review", params={"seat": 1}).status_code == 200


def test_every_kind_of_puzzle_is_shown_and_its_solution_is_right(client: TestClient) -> None:
    """A puzzle of each preset, contract kind, theme and series of the shipped sets draws
    (your legal cards are the engine's) and takes its solution as right, played out to the
    end of the hand."""
    kinds: dict[tuple[str, ...], dict[str, Any]] = {}
    for puzzle in [*pz.load_shipped(), *load_single()]:
        key = (puzzle["preset"], puzzle["kind"], puzzle["theme"], str(puzzle.get("hidden")))
        kinds.setdefault(key, puzzle)
    assert {key[0] for key in kinds} == set(PRESETS) and len({key[1] for key in kinds}) == 3
    for puzzle in kinds.values():
        view = client.get(f"/api/learn/puzzles/{puzzle['id']}").json()
        assert puzzle["solution"] in view["position"]["legal"], puzzle["id"]
        answer = client.post(
            f"/api/learn/puzzles/{puzzle['id']}/answer", json={"card": puzzle["solution"]}
        ).json()
        assert answer["status"] == "right", puzzle["id"]
        assert len(answer["line"]) == puzzle["tricks_left"], puzzle["id"]
