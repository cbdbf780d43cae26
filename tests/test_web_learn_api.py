"""The learning endpoints (the tutorial, puzzles and review in the browser), through Starlette's TestClient: the
puzzles (refusals by the engine, right and wrong with the reason and the solution played
out), every lesson played through the API with the refusals it teaches, and the review of
a finished game (the numbers of :func:`fivehundred.analysis.review.review`); bad input gets
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
from fivehundred.learn.lessons import LESSONS, intro_lines
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
    assert first["intro"] == intro_lines(lesson, "web") and not first["done"]
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
    from fivehundred.analysis.review import review
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


# ----------------------------------------------------------------------------- a newcomer
def test_a_newcomer_starts_with_easy_australian_puzzles(client: TestClient) -> None:
    """No filter: the four-handed Australian puzzles first, easiest first (``start`` and
    ``order``); a filter by rules (``preset``); each series has easy ones."""
    every = client.get("/api/learn/puzzles").json()
    first = every["puzzles"][0]
    assert every["start"] == first["id"]
    assert first["preset"] == "australian" and first["difficulty"] == "easy"
    assert [p["order"] for p in every["puzzles"]] == list(range(len(every["puzzles"])))
    presets = [p["preset"] for p in every["puzzles"]]
    australian = presets.count("australian")
    assert presets[:australian] == ["australian"] * australian
    grades = [p["difficulty"] for p in every["puzzles"][:australian]]
    rank = {"easy": 1, "medium": 2, "hard": 3}
    assert grades == sorted(grades, key=rank.__getitem__)
    assert every["presets"][0] == {
        "name": "australian",
        "label": "Australian",
        "players": 4,
        "count": australian,
    }
    three = client.get("/api/learn/puzzles", params={"preset": "three_handed"}).json()
    assert three["puzzles"] and {p["preset"] for p in three["puzzles"]} == {"three_handed"}
    for series in ("double-dummy", "single-dummy"):
        easy = client.get(
            "/api/learn/puzzles",
            params={"series": series, "difficulty": "easy", "preset": "australian"},
        ).json()
        assert easy["puzzles"], series
    for bad in ("nonsense", "x" * 41):
        answer = client.get("/api/learn/puzzles", params={"preset": bad})
        assert answer.status_code == 422 and isinstance(answer.json()["detail"], str)


def test_single_dummy_puzzles_show_the_cards_played_not_the_hidden_hands(
    client: TestClient,
) -> None:
    """The tricks already played are in the position (the answer depends on them); the
    defenders' cards still held appear nowhere in the JSON sent, codes or words."""
    from fivehundred.actions import action_text
    from fivehundred.cards import iter_cards
    from fivehundred.words import card_words

    for puzzle in load_single():
        state = pz.replay_puzzle(puzzle)
        answer = client.get(f"/api/learn/puzzles/{puzzle['id']}")
        view = answer.json()
        played = view["position"]["played"]
        assert len(played) == len(state.tricks)
        assert [[p["card"] for p in t["plays"]] for t in played] == [
            [action_text(a) for _, a in trick.plays] for trick in state.tricks
        ]
        pack = view["position"].pop("words")  # the names of every card of the pack
        assert set(pack) == {"cards", "names", "suits", "suit_names"}
        assert view.pop("contract") == puzzle["contract"]  # "7H" is a contract here
        sent = _strings(view)  # every text of the rest, as it was sent
        for seat in puzzle["hidden"]:
            for card in iter_cards(state.hands[seat]):
                code = action_text(card)
                assert not any(code == t or t.startswith(f"{code}>") for t in sent), card
                assert not any(card_words(card) in t for t in sent), (puzzle["id"], card)


def _strings(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [t for key, value in data.items() for t in [key, *_strings(value)]]
    if isinstance(data, list):
        return [t for value in data for t in _strings(value)]
    return []


def test_positions_name_cards_in_words(client: TestClient) -> None:
    """Beside the symbols, words for a screen reader: your cards, the legal choices, the
    trick, the tricks played."""
    puzzle = load_single()[0]
    view = client.get(f"/api/learn/puzzles/{puzzle['id']}").json()["position"]
    you = next(s for s in view["seats"] if s["you"])
    assert len(you["labels"]) == len(you["cards"])
    assert all(" of " in label or "joker" in label for label in you["labels"])
    assert len(view["legal_labels"]) == len(view["legal"])
    assert all(":" in p["label"] for t in view["played"] for p in t["plays"])
    lesson = client.post("/api/learn/lessons/pack", json={}).json()["position"]
    hand = next(s for s in lesson["seats"] if s["you"])
    assert hand["labels"][:3] == [
        "joker",
        "jack of hearts, right bower",
        "jack of diamonds, left bower",
    ]


def test_lessons_speak_to_the_web_and_lead_on_to_a_game(client: TestClient) -> None:
    """The web's words carry no terminal instructions ('!', 'Type …'); a quiz step says a
    number is wanted (no legal choices); after the last lesson, a game."""
    listed = client.get("/api/learn/lessons").json()
    assert listed["after"]["kind"] == "game" and listed["after"]["href"]
    for lesson in LESSONS:
        view = client.post(f"/api/learn/lessons/{lesson['id']}", json={}).json()
        text = " ".join([*view["intro"], view.get("ask", "")])
        assert "'!'" not in text and "Type " not in text and "type " not in text, lesson["id"]
        assert view["next"]["kind"] == ("game" if lesson is LESSONS[-1] else "lesson")
    quiz = client.post("/api/learn/lessons/bidding", json={}).json()
    assert quiz["answer_kind"] == "number" and quiz["legal_choices"] is False
    assert quiz["choices"] == [160, 180, 200, 220]  # chosen, not typed: 7♥ is 200


def test_every_quiz_offers_its_answer_among_choices(client: TestClient) -> None:
    """Every quiz step of every lesson offers choices (the web's buttons), the engine's
    answer among them, and choosing it moves the lesson on."""
    seen = 0
    for lesson in LESSONS:
        if not any(isinstance(s, dict) and "quiz" in s for s in lesson.get("script", [])):
            continue
        url = f"/api/learn/lessons/{lesson['id']}"
        answers: list[str] = []
        view = client.post(url, json={}).json()
        for text in _typed_for(lesson)[0]:
            if "quiz" in view:
                assert text in [str(c) for c in view["choices"]], (text, view["choices"])
                assert len(set(view["choices"])) >= 3
                seen += 1
            else:
                assert "choices" not in view
            view = client.post(url, json={"answers": answers, "text": text}).json()
            if view["accepted"]:
                answers.append(text)
        assert view["done"], lesson["id"]
    assert seen == 5
    said = client.post("/api/learn/lessons/bidding", json={"text": "?"}).json()
    assert said["accepted"] is False and "number of points" in said["said"][0]
    bid = client.post("/api/learn/lessons/bidding", json={"answers": ["200"]}).json()
    assert bid["answer_kind"] == "call" and bid["legal_choices"] is True
    assert "5♥" not in bid["ask"]
