// The tutorial (/learn): the lessons of `fivehundred learn`, played on the server's engine
// at the table page's own table (js/table/ through learntable.js): the seats, the hand, the
// bid box, the trick and the prompt. The page keeps the answers the lesson accepted
// (localStorage) and sends them with each new answer; the server replays the lesson
// through them and answers.
import { createLearnTable, keepInView, said } from "./learntable.js";
import { applySettings, el, getJSON, postJSON } from "./net.js";

const $ = (id) => document.getElementById(id);
const KEY = "fivehundred:learn-progress";
let lessons = [];
let after = null; // where the last lesson leads (the server's "after"), if it says
let lesson = null; // the lesson's last view from the server
let busy = false;

const table = createLearnTable({ onAction: (action) => answer(action) });

function progress() {
  try {
    const p = JSON.parse(localStorage.getItem(KEY)) || {};
    return { done: p.done || [], answers: p.answers || {}, current: p.current || null };
  } catch {
    return { done: [], answers: {}, current: null };
  }
}

function save(change) {
  const p = progress();
  change(p);
  localStorage.setItem(KEY, JSON.stringify(p));
}

function showList() {
  const p = progress();
  $("lessons").replaceChildren(
    ...lessons.map((l) => {
      const done = p.done.includes(l.id);
      const label = `${l.number}. ${l.title}${done ? " ✓ done" : ""}`;
      return el(
        "li",
        {},
        el(
          "button",
          {
            class: `btn secondary${lesson && lesson.id === l.id ? " current" : ""}`,
            type: "button",
            "data-lesson": l.id,
            "aria-current": lesson && lesson.id === l.id ? "true" : null,
            onclick: () => open(l.id),
          },
          label,
        ),
      );
    }),
  );
}

async function send(id, text) {
  const answers = progress().answers[id] || [];
  try {
    return await postJSON(
      `/api/learn/lessons/${encodeURIComponent(id)}`,
      text === null ? { answers } : { answers, text },
    );
  } catch (error) {
    if (text === null && answers.length) {
      // the kept answers no longer fit: start again
      save((p) => {
        delete p.answers[id];
      });
      return postJSON(`/api/learn/lessons/${encodeURIComponent(id)}`, { answers: [] });
    }
    throw error;
  }
}

// The quiz's answers: the server's choices, as buttons (an answer is chosen, not typed).
function drawQuiz(view) {
  const quiz = Boolean(view.quiz) && !view.done;
  $("quiz").hidden = !quiz;
  const choices = quiz && Array.isArray(view.choices) ? view.choices : [];
  $("quiz-choices").replaceChildren(
    ...choices.map((choice) =>
      el(
        "button",
        {
          class: "btn",
          type: "button",
          "data-answer": String(choice),
          onclick: () => answer(String(choice)),
        },
        String(choice),
      ),
    ),
  );
}

function draw(view, lines, { moved = false, before = null } = {}) {
  lesson = view;
  $("lesson-panel").hidden = false;
  const number = lessons.findIndex((l) => l.id === view.id) + 1;
  $("lesson-title").textContent = `Lesson ${number}: ${view.title}`;
  const fresh = !(progress().answers[view.id] || []).length && view.accepted === null;
  const intro = fresh ? view.intro : [];
  $("intro").replaceChildren(...intro.map((line) => el("p", {}, line)));
  const atTable = Boolean(view.position) && !view.quiz;
  // At the table the question is the table's prompt, beside the hand (in view of the tap);
  // a quiz's question is over its answers.
  $("ask").textContent = view.done || atTable ? "" : view.quiz || view.ask || "";
  drawQuiz(view);
  $("learn-table").hidden = !atTable;
  if (atTable) {
    const pos = view.position;
    // Your card completed a trick: it stays in sight, as the last trick, until your next move.
    const played = (pos.played || []).length;
    const showLast = moved && before !== null && played > before;
    const ask = view.ask
      ? view.ask.replace(/[.:]\s*$/, "")
      : view.hint
        ? `Your turn (hint: ${view.hint})`
        : "Your turn";
    // (The hint is in the prompt and "Take the hint" plays it: no Hint button beside them.)
    // (The kitty's cards are marked as at a game: those not in the hand the auction showed,
    // kept in the browser's session under the lesson's name.)
    table.code = `learn-${view.id}`;
    table.show(pos, { prompt: ask, showLast });
  }
  said(atTable ? $("said") : $("quiz-said"), lines);
  said(atTable ? $("quiz-said") : $("said"), []);
  $("take-hint").hidden = !view.hint_action || view.done;
  $("done-line").hidden = !view.done;
  // The way on where the last answer was given: under the hand, or under the quiz.
  if (atTable) $("said").after($("done-line"));
  else $("quiz-said").after($("done-line"));
  const last = number >= lessons.length;
  $("next-lesson").hidden = last;
  const link = $("after-link");
  link.hidden = !last;
  if (after && after.href) link.href = after.href;
  if (after && after.text) link.textContent = after.text;
  $("done-words").textContent = last
    ? "That was the last lesson: you know the game. Play one against the computers, or with friends."
    : "";
  showList();
  if (moved)
    // The reply (and the trick) in view where the tap was; the lesson's end under the table.
    keepInView(
      atTable
        ? [$("trick"), $("said"), view.done ? $("done-line") : null]
        : [$("quiz-said"), view.done ? $("done-line") : $("quiz")],
    );
}

async function open(id) {
  save((p) => {
    p.current = id;
  });
  try {
    draw(await send(id, null), []);
  } catch (error) {
    said($("said"), [error.message]);
  }
  $("lesson-panel").scrollIntoView({ block: "start" });
}

async function answer(text) {
  if (!lesson || busy || !text.trim()) return;
  busy = true;
  const before = lesson.position ? (lesson.position.played || []).length : null;
  try {
    const view = await send(lesson.id, text.trim());
    if (view.accepted)
      save((p) => {
        p.answers[view.id] ??= [];
        p.answers[view.id].push(text.trim());
      });
    if (view.done)
      save((p) => {
        if (!p.done.includes(view.id)) p.done.push(view.id);
      });
    if (!view.accepted) table.state.queue = []; // (discards chosen together stop at a refusal)
    draw(view, view.said, { moved: true, before });
  } catch (error) {
    table.state.queue = [];
    said(lesson.quiz ? $("quiz-said") : $("said"), [error.message]);
  } finally {
    busy = false;
  }
  // The next of the discards chosen together (the table sends them one at a time).
  const state = table.state;
  if (state.queue.length && lesson && !lesson.done && state.view.phase === "discard") {
    const card = state.queue.shift();
    answer(card);
  }
}

async function start() {
  applySettings();
  const list = await getJSON("/api/learn/lessons");
  lessons = list.lessons;
  after = list.after || null;
  $("take-hint").addEventListener(
    "click",
    () => lesson && lesson.hint_action && answer(lesson.hint_action),
  );
  $("restart").addEventListener("click", () => {
    save((p) => {
      delete p.answers[lesson.id];
    });
    open(lesson.id);
  });
  $("next-lesson").addEventListener("click", () => {
    const i = lessons.findIndex((l) => l.id === lesson.id);
    if (i + 1 < lessons.length) open(lessons[i + 1].id);
  });
  showList();
  const p = progress();
  const wanted =
    location.hash.slice(1) ||
    p.current ||
    (lessons.find((l) => !p.done.includes(l.id)) || lessons[0]).id;
  await open(lessons.some((l) => l.id === wanted) ? wanted : lessons[0].id);
}

start();
