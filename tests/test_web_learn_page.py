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


def in_view(page: Any, selector: str) -> bool:
    """Whether the element is wholly inside the viewport (a phone's screen)."""
    return bool(
        page.evaluate(
            """s => { const n = document.querySelector(s); if (!n) return false;
            const r = n.getBoundingClientRect();
            return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; }""",
            selector,
        )
    )


def sent_answers(page: Any) -> list[str]:
    """The answers the page has sent to the lesson endpoint (the ``text`` of each POST)."""
    return [t for t in page.evaluate("window.__sent || []") if t is not None]


# Every answer the page sends is recorded (the page's own fetch, wrapped before it loads).
RECORD_SENT = """
window.__sent = [];
const fetch0 = window.fetch;
window.fetch = (url, options) => {
  if (options && options.method === 'POST' && String(url).includes('/api/learn/')) {
    const body = JSON.parse(options.body);
    window.__sent.push(body.text !== undefined ? body.text : body.card !== undefined ? body.card : null);
  }
  return fetch0(url, options);
};
"""


def open_lesson(page: Any, base: str, lid: str, title: str) -> None:
    page.goto(f"{base}/learn#{lid}")
    page.wait_for_function(  # drawn: the table, or a quiz's question
        "t => document.getElementById('lesson-title').textContent.includes(t)"
        " && (document.getElementById('ask').textContent"
        " || document.querySelector('#hand .card'))",
        arg=title,
    )


def reply(page: Any, count: int) -> None:
    """Wait for the answer after ``count`` answers sent (the lesson's reply drawn)."""
    page.wait_for_function(
        "n => window.__sent.filter(t => t !== null).length > n"
        " && (document.querySelectorAll('#said p, #quiz-said p').length"
        " || document.getElementById('done-line').hidden === false)",
        arg=count,
    )


def test_puzzles_at_the_table_on_a_phone(base: str, open_page: Callable[..., Page]) -> None:
    """A first visit opens a four-handed Australian puzzle, the easiest first, drawn at the
    table page's table; a refused card and the right one are answered in view of the tap
    at 390×844; "Next puzzle" brings the next task into view; the rules are a filter."""
    p = open_page({"width": 390, "height": 844})
    page = p.page
    page.add_init_script(RECORD_SENT)
    page.goto(f"{base}/learn/puzzles")
    page.wait_for_selector("#hand button.card")
    title = page.inner_text("#puzzle-title")
    assert "Australian" in title and "easy" in title, title
    pid = page.evaluate("location.hash.slice(1)")
    puzzle = next(q for q in pz.load_shipped() if q["id"] == pid)
    state = pz.replay_puzzle(puzzle)
    # the hand is the table page's (#hand), each card named in words for a screen reader
    labels = page.eval_on_selector_all(
        "#hand .card",
        "cs => cs.map(c => { const s = c.querySelector(':scope > .card-name');"
        " return s ? s.textContent : c.getAttribute('aria-label'); })",
    )
    assert labels and all(" of " in x or "joker" in x.lower() for x in labels), labels
    assert not any(sym in x for x in labels for sym in "♠♣♦♥"), labels
    held = page.eval_on_selector_all("#hand button.card", "bs => bs.map(b => b.dataset.card)")
    legal = page.evaluate("[...document.querySelectorAll('#hand .card.legal')].length")
    assert legal == len(puzzle["values"]) or legal == len(held)
    other = next((c for c in held if c not in puzzle["values"]), None)
    if other is not None and state.led_suit >= 0:  # a card the rules refuse: the engine says why
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        page.click(f"#hand button.card[data-card='{other}']")
        page.wait_for_function("() => document.querySelector('#said .refused')")
        assert in_view(page, "#said"), "the refusal is off-screen"
    problems = checked(page, "puzzle", "learn-puzzle")
    page.set_viewport_size({"width": 390, "height": 844})
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.click(f"#hand button.card[data-card='{puzzle['solution']}']")
    page.wait_for_selector("#solution:not([hidden])")
    assert said(page).startswith("Right!") and puzzle["reason"] in said(page)
    assert in_view(page, "#said"), "the answer is off-screen"
    assert page.locator("#line li").count() == puzzle["tricks_left"]
    assert "Streak 1" in page.inner_text("#streak")
    # answered: a tap sends nothing more
    sent = len(sent_answers(page))
    page.click("#hand .card >> nth=0")
    problems += checked(page, "puzzle answered", "learn-puzzle-solved")
    page.set_viewport_size({"width": 390, "height": 844})
    # the next puzzle: its task in view, wherever the button was
    page.click("#after-next")
    page.wait_for_function("id => !location.hash.includes(id)", arg=pid)
    page.wait_for_selector("#hand button.card")
    assert in_view(page, "#puzzle-task"), "the new puzzle's task is off-screen"
    assert len(sent_answers(page)) == sent
    assert "Australian" in page.inner_text("#puzzle-title")
    # the rules filter: three-handed puzzles
    page.select_option("#preset", "three_handed")
    page.wait_for_function(
        "() => document.getElementById('puzzle-title').textContent.includes('Three-handed')"
    )
    assert page.locator("#seats .seat").count() == 3
    page.reload()  # the choice of rules is kept
    page.wait_for_selector("#hand .card")
    assert page.eval_on_selector("#preset", "s => s.value") == "three_handed"
    # a single-dummy puzzle: the tricks already played are shown (the answer hangs on them)
    single = get(base, "/api/learn/puzzles?series=single-dummy")["puzzles"][0]["id"]
    tricks = get(base, f"/api/learn/puzzles/{single}")["position"].get("played", [])
    page.goto(f"{base}/learn/puzzles#{single}")
    page.wait_for_function(
        "id => document.getElementById('puzzle-title').textContent.includes(id)", arg=single
    )
    assert page.locator("#played li").count() == len(tricks) > 0
    assert not problems, "\n".join(problems)
    p.check()


def test_the_auction_cards_are_not_buttons(base: str, open_page: Callable[..., Page]) -> None:
    """Lesson 8 at its first call: the hand is to be seen (no card a button, none lit);
    tapping the 9♥ sends nothing; the bid is made with the bid box or the hint."""
    lesson = find_lesson("first-hand")
    assert lesson is not None
    p = open_page({"width": 390, "height": 844})
    page = p.page
    page.add_init_script(RECORD_SENT)
    open_lesson(page, base, "first-hand", lesson["title"])
    page.wait_for_selector("#bid-box-wrap")
    # the introduction says how to answer on this page, not in the terminal
    intro = page.inner_text("#intro")
    assert intro and "Type" not in intro and "'!'" not in intro, intro
    assert page.locator("#hand button.card").count() == 0
    assert page.locator("#hand .card.legal").count() == 0
    cards = page.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.card)")
    assert "9H" in cards
    problems = checked(page, "lesson, auction", "learn-lesson-auction")
    page.set_viewport_size({"width": 390, "height": 844})
    page.click("#hand .card[data-card='9H']")
    hint = page.evaluate("document.getElementById('take-hint').hidden")
    assert hint is False
    page.click("#take-hint")
    reply(page, 0)
    sent = sent_answers(page)
    assert len(sent) == 1 and sent[0] != "9H", sent
    assert said(page).startswith("You:"), said(page)  # the call is the learner's
    assert not problems, "\n".join(problems)
    p.check()


@pytest.mark.parametrize(
    ("lid", "size"),
    [(lesson["id"], (390, 844)) for lesson in LESSONS]
    + [("no-trumps", (360, 640)), (LESSONS[-1]["id"], (360, 640))],
)
def test_a_lesson_played_at_the_table(
    base: str, open_page: Callable[..., Page], lid: str, size: tuple[int, int]
) -> None:
    """Every lesson as a learner goes through it at 390×844 (two at 360×640 too), at the table page's own table:
    cards tapped (a joker lead's suit chosen in the table's choice row), calls made in the
    bid box, the discards chosen together and confirmed, the hint taken, quiz answers given.
    Each refusal the lesson invites that the table lets a person make is made and answered
    in view of the tap; the others (a card not held, a bid not higher) the table does not
    offer. The trick just played stays in sight with the reply."""
    lesson = find_lesson(lid)
    assert lesson is not None
    typed, refusals = _typed_for(lesson)
    mirror = LessonRun(lesson)  # which phase each answer is typed in
    p = open_page({"width": size[0], "height": size[1]})
    page = p.page
    page.add_init_script(RECORD_SENT)
    open_lesson(page, base, lid, lesson["title"])
    problems: list[str] = []
    refused = prevented = 0
    i = 0
    while i < len(typed):
        text = typed[i]
        mirror.prompt()
        step, state = mirror.current(), mirror.state
        invited = step is not None and text in [t for t, _ in step.get("try", [])]
        count = len(sent_answers(page))
        page.evaluate("document.getElementById('said').replaceChildren()")
        page.evaluate("document.getElementById('quiz-said').replaceChildren()")
        if step is not None and "quiz" in step:
            assert page.locator("#learn-table").is_hidden()
            # The answer is chosen, never typed: buttons, each at least 44 px, and no box.
            choice = page.locator(f"#quiz-choices [data-answer='{text}']")
            assert choice.count() == 1 and page.locator("#quiz-choices button").count() >= 3
            assert page.locator("#lesson-panel input:visible").count() == 0
            for box in page.eval_on_selector_all(
                "#quiz-choices button", "bs => bs.map(b => b.getBoundingClientRect().height)"
            ):
                assert box >= 44, box
            choice.click()
            mirror.answer(text)
            i += 1
        elif text == "!":
            if state is not None and state.phase == "discard" and len(state.legal_actions()) == 13:
                assert page.locator("#hand .card.from-kitty").count() == 3  # the kitty's, marked
            page.click("#take-hint")
            mirror.answer(text)
            i += 1
        elif state is not None and state.phase == "auction":
            assert page.locator("#hand button.card").count() == 0  # cards are not buttons
            call = page.locator(f"#learn-table [data-action='{text}']")
            level = text[:-2] if text.endswith("NT") else text[:-1]
            if (
                text[:1].isdigit()
                and page.locator(f"input[name=bid-level][value='{level}']").count()
            ):
                radio = page.locator(f"input[name=bid-level][value='{level}']")
                if radio.is_enabled():
                    radio.check(force=True)
            mirror.answer(text)
            i += 1
            if not call.count() or not call.is_enabled():
                assert invited, f"{text} is not offered in the bid box"
                prevented += 1
                continue
            call.click()
        elif state is not None and state.phase not in ("play", "discard"):
            # the joker's suit named, and the house rules' other choices: the table's buttons
            mirror.answer(text)
            i += 1
            page.click(f"#controls [data-action='{text}']")
        else:
            assert state is not None
            card, _, suit = text.partition(">")
            node = page.locator(f"#hand button.card[data-card='{card}']")
            if state.phase == "discard" and step is not None and not invited:
                # the prompt says the kitty's cards are marked only where they are (a lesson
                # that opens at the discard has no auction's hand to tell them from)
                marked = page.locator("#hand .card.from-kitty").count()
                said_marked = "kitty's cards are marked" in page.inner_text("#prompt")
                assert said_marked == (marked > 0), (marked, page.inner_text("#prompt"))
                # the table's way: the discards chosen together, then confirmed
                need = page.evaluate("document.querySelectorAll('#hand .card').length") - 10
                chosen = typed[i : i + need]
                for c in chosen:
                    mirror.answer(c)
                    page.click(f"#hand button.card[data-card='{c}']")
                page.click("#confirm-discard")
                i += need
                page.wait_for_function(
                    "n => window.__sent.filter(t => t !== null).length >= n"
                    " && document.querySelectorAll('#hand .card').length === 10",
                    arg=count + need,
                )
                continue
            mirror.answer(text)
            i += 1
            if not node.count():
                assert invited, f"{card} is not in the hand"
                prevented += 1
                continue
            page.evaluate("window.scrollTo(0, document.body.scrollHeight)")  # tapped low down
            node.click()
            if suit:
                offered = page.locator(f"#controls [data-action='{text}']")
                if not offered.count():
                    assert invited, f"{text} is not offered"
                    prevented += 1
                    page.click("#controls .choice-row button:has-text('Cancel')")
                    continue
                offered.click()
            elif invited and page.locator("#controls .choice-row").count():
                prevented += 1  # the joker led: the table asks its suit first
                page.click("#controls .choice-row button:has-text('Cancel')")
                continue
        reply(page, count)
        if page.locator("#learn-table").is_visible():
            assert in_view(page, "#said"), f"the reply to {text} is off-screen"
            # (the lesson's end on a small phone: the reply, which names the trick's cards,
            # and the way on come first)
            ended = page.locator("#done-line").is_visible() and size[1] < 700
            if page.locator("#trick .card").count() and not ended:
                assert in_view(page, "#trick"), f"the trick after {text} is off-screen"
        if page.locator("#said .refused, #quiz-said .refused").count():
            assert invited, page.inner_text("#said")
            refused += 1
            if refused == 1 and lid == "follow":
                problems += checked(page, "lesson", "learn-lesson")
                page.set_viewport_size({"width": size[0], "height": size[1]})
    assert refused + prevented == len(refusals)
    page.wait_for_selector("#done-line:not([hidden])")
    assert "✓ done" in page.inner_text(f"[data-lesson='{lid}']")
    assert in_view(page, "#done-line"), "the lesson's end is off-screen"
    if lid == LESSONS[-1]["id"]:  # the way on: a game
        assert page.locator("#after-link").is_visible()
        assert page.locator("#next-lesson").is_hidden()
    else:
        assert page.locator("#next-lesson").is_visible()
    if lid in ("follow", LESSONS[-1]["id"]):
        problems += checked(page, "lesson done", f"learn-lesson-done-{lid}")
    # kept after a reload; replayable from the start
    page.reload()
    page.wait_for_selector("#done-line:not([hidden])")
    page.click("#restart")
    page.wait_for_selector("#done-line[hidden]", state="attached")
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
