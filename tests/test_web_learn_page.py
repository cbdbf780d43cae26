"""The learning pages in Debian's chromium through Playwright against a real server: a
puzzle solved by tapping cards (a refusal first), a tutorial lesson played through with
the refusals it teaches and its progress kept, a finished game's review on the game page.
Each page is checked for layout (no sideways scroll, tap targets of 44×44 px, no
overlaps: tests/layout_check.js) at 360×640 and 1366×768 and audited by axe-core (no
serious or critical violation). Screenshots: docs/screenshots/web-learn-*.png with
``FIVEHUNDRED_SCREENSHOTS=1``."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api")
import test_web_page
from fivehundred.learn import puzzles as pz
from fivehundred.learn.lessons import LESSONS, LessonRun, find_lesson
from fivehundred.web import history
from test_learn_lessons import _typed_for
from test_web_a11y import AXE, axe_problems
from test_web_page import CHROMIUM, Page, get, post, shot
from test_web_support import thread_server

# the fixtures of test_web_page, used by name
browser = test_web_page.browser
open_page = test_web_page.open_page

SIZES = [(360, 640), (1366, 768)]
CHECK = (Path(__file__).with_name("layout_check.js")).read_text(encoding="utf-8")

pytestmark = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason="no chromium at /usr/bin/chromium"
)


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose analysis (the review) runs in a thread: a spawned worker would first
    compile the solver."""
    history.set_executor(ThreadPoolExecutor(max_workers=1))
    db = tmp_path_factory.mktemp("learn") / "learn.sqlite3"
    try:
        with thread_server(f"sqlite:///{db}") as url:
            yield url
    finally:
        history.shutdown()


def checked(page: Any, where: str, shots: str) -> list[str]:
    """Layout problems at both sizes, the axe-core audit, and the screenshots."""
    problems: list[str] = []
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_function("w => document.documentElement.clientWidth <= w", arg=width)
        problems += [f"{where} at {width}x{height}: {p}" for p in page.evaluate(CHECK)["problems"]]
        shot(page, f"{shots}-{'phone' if width < 800 else 'desktop'}", full_page=True)
    if AXE.exists():
        problems += axe_problems(page, where)
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    return problems


def said(page: Any) -> str:
    return str(page.inner_text("#said"))


def test_solving_a_puzzle(base: str, open_page: Callable[..., Page]) -> None:
    # the first shipped puzzle where a held card is refused because the seat must follow
    puzzle, state = next(
        (p, s)
        for p in pz.load_shipped()
        if (s := pz.replay_puzzle(p)).led_suit >= 0
        and s.hands[s.to_move].bit_count() > len(p["values"])
    )
    led = state.led_suit
    p = open_page({"width": 360, "height": 640})
    page = p.page
    page.goto(f"{base}/learn/puzzles#{puzzle['id']}")
    page.wait_for_selector(".learn-hand button.card")
    assert puzzle["id"] in page.inner_text("#puzzle-title")
    # a card of another suit while South can follow: the engine refuses it, with its reason
    held = page.eval_on_selector_all(".learn-hand button.card", "bs => bs.map(b => b.dataset.card)")
    other = next(c for c in held if c not in puzzle["values"])
    assert led >= 0
    page.click(f".learn-hand button.card[data-card='{other}']")
    page.wait_for_function("() => document.querySelector('#said .refused')")
    assert "must follow" in said(page).lower()
    problems = checked(page, "puzzle", "learn-puzzle")
    page.click(f".learn-hand button.card[data-card='{puzzle['solution']}']")
    page.wait_for_selector("#solution:not([hidden])")
    assert said(page).startswith("Right!") and puzzle["reason"] in said(page)
    assert page.locator("#line li").count() == puzzle["tricks_left"]
    assert "Streak 1" in page.inner_text("#streak")
    assert page.locator(".learn-hand button.card").count() == 0  # answered: no more taps
    problems += checked(page, "puzzle answered", "learn-puzzle-solved")
    # the record is kept in the browser: a reload shows it, and the next puzzle is another
    page.reload()
    page.wait_for_selector(".learn-hand button.card")
    assert "Streak 1" in page.inner_text("#streak")
    page.click("#next")
    page.wait_for_function("id => !location.hash.includes(id)", arg=puzzle["id"])
    assert not problems, "\n".join(problems)
    p.check()


@pytest.mark.parametrize("lid", [lesson["id"] for lesson in LESSONS])
def test_a_lesson_played_through_with_its_refusals(
    base: str, open_page: Callable[..., Page], lid: str
) -> None:
    """Every lesson as a learner goes through it: each refusal it invites first (a tap on
    a card that may not be played, a bid not higher, a joker led as a suit already led),
    then the right answer; cards are tapped (a joker lead's suit chosen), calls, quiz
    answers and the whole hand's "!" (take the hint) typed."""
    lesson = find_lesson(lid)
    assert lesson is not None
    typed, refusals = _typed_for(lesson)
    mirror = LessonRun(lesson)  # which phase each answer is typed in
    script = [step for step in lesson.get("script", []) if isinstance(step, dict)]
    assert len(refusals) == sum(len(step.get("try", [])) for step in script)
    p = open_page({"width": 360, "height": 640})
    page = p.page
    page.goto(f"{base}/learn#{lid}")
    page.wait_for_function(  # drawn: a lesson in the auction or a quiz has no card to tap
        "t => document.getElementById('lesson-title').textContent.includes(t)"
        " && document.getElementById('ask').textContent",
        arg=lesson["title"],
    )
    assert lesson["title"] in page.inner_text("#lesson-title")
    problems: list[str] = []
    shown = 0
    for text in typed:
        before = page.evaluate("localStorage.getItem('fivehundred:learn-progress')")
        count = page.locator("#said p").count()
        page.evaluate("document.getElementById('said').replaceChildren()")
        card, _, suit = text.partition(">")
        selector = f".learn-hand button.card[data-card='{card}']"
        mirror.prompt()
        step, state = mirror.current(), mirror.state
        tapped = not (step and "quiz" in step) and state is not None
        tapped = tapped and state.phase in ("play", "discard")
        mirror.answer(text)
        if tapped and page.locator(selector).count():
            page.click(selector)
            if suit:
                page.click(f"#suit-choice [data-action='{text}']")
            elif page.locator("#suit-choice:not([hidden])").count():
                page.fill("#answer", text)  # the joker typed alone: the table asks its suit
                page.click("#answer-form button[type=submit]")
        else:
            page.fill("#answer", text)
            page.click("#answer-form button[type=submit]")
        page.wait_for_function(
            "([n, b]) => document.querySelectorAll('#said p').length"
            " || localStorage.getItem('fivehundred:learn-progress') !== b",
            arg=[count, before],
        )
        if page.locator("#said .refused").count():
            why = refusals[shown]
            shown += 1
            assert why.lower() in said(page).lower()
            assert page.evaluate("localStorage.getItem('fivehundred:learn-progress')") == before
            if shown == 1 and lid == "follow":
                problems += checked(page, "lesson", "learn-lesson")
    assert shown == len(refusals)
    page.wait_for_selector("#done-line:not([hidden])")
    assert "✓ done" in page.inner_text(f"[data-lesson='{lid}']")
    if lid == "follow":
        problems += checked(page, "lesson done", "learn-lesson-done")
    # kept after a reload; replayable from the start
    page.reload()
    page.wait_for_selector("#done-line:not([hidden])")
    page.click("#restart")
    page.wait_for_selector("#done-line[hidden]", state="attached")
    page.wait_for_function(  # drawn: a lesson in the auction or a quiz has no card to tap
        "t => document.getElementById('lesson-title').textContent.includes(t)"
        " && document.getElementById('ask').textContent",
        arg=lesson["title"],
    )
    assert "✓ done" in page.inner_text(f"[data-lesson='{lid}']")
    assert not problems, "\n".join(problems)
    p.check()


def test_the_review_on_the_game_page(base: str, open_page: Callable[..., Page]) -> None:
    made = post(
        base,
        "/api/tables",
        {
            "seats": ["heuristic"] * 4,
            "rules": {"preset": "australian", "variants": {"target": 10}},
            "options": {"delay": 0},
            "seed": 3,
        },
    )
    code = made["table"]
    p = open_page({"width": 360, "height": 640})
    page = p.page
    page.goto(f"{base}/g/{code}")
    # the panel comes once the game is over (the computers play it in a moment)
    deadline = time.monotonic() + 60
    while not get(base, f"/api/tables/{code}").get("finished"):
        assert time.monotonic() < deadline, "the computer game did not finish"
        time.sleep(0.05)
    page.reload()
    page.wait_for_selector("#review-panel")
    page.select_option("#review-seat", "0")
    page.click("#review-go")
    page.wait_for_selector("#review-costly", timeout=120_000)
    text = page.inner_text("#review")
    assert "Calls" in text and "Cards" in text and "Discards" in text
    answer = get(base, f"/api/tables/{code}/review?seat=0")
    for line in answer["review"]["costliest_text"]:
        assert line in text
    problems = checked(page, "review", "learn-review")
    assert not problems, "\n".join(problems)
    p.check()
