// The tutorial (/learn): the lessons of `fivehundred learn`, played on the server's
// engine. The page keeps the answers the lesson accepted (localStorage) and sends them
// with each new answer; the server replays the lesson through them and answers.
import { applySettings, el, getJSON, postJSON } from "./net.js";
import { drawPosition, leadChoices, said, suitButtons } from "./learnview.js";

const $ = (id) => document.getElementById(id);
const KEY = "fivehundred:learn-progress";
let lessons = [];
let lesson = null; // the lesson's last view from the server
let busy = false;

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

function draw(view, lines) {
  lesson = view;
  $("lesson-panel").hidden = false;
  const number = lessons.findIndex((l) => l.id === view.id) + 1;
  $("lesson-title").textContent = `Lesson ${number}: ${view.title}`;
  const fresh = !(progress().answers[view.id] || []).length && view.accepted === null;
  $("intro").replaceChildren(...(fresh ? view.intro.map((line) => el("p", {}, line)) : []));
  said($("said"), lines);
  $("ask").textContent = view.done
    ? ""
    : view.quiz || view.ask || (view.hint ? `Hint: ${view.hint}` : "Your turn.");
  $("suit-choice").hidden = true;
  if (view.position && !view.quiz)
    drawPosition($("position"), view.position, view.done ? null : tap);
  else $("position").replaceChildren();
  $("take-hint").hidden = !view.hint_action;
  $("answer-form").hidden = view.done;
  $("done-line").hidden = !view.done;
  $("next-lesson").hidden = number >= lessons.length;
  showList();
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
    $("answer").value = "";
    draw(view, view.said);
  } catch (error) {
    said($("said"), [error.message]);
  } finally {
    busy = false;
  }
}

function tap(card) {
  const choices = leadChoices(lesson.position, card);
  if (choices.length) {
    suitButtons($("suit-choice"), choices, answer);
    return;
  }
  answer(card);
}

async function start() {
  applySettings();
  lessons = (await getJSON("/api/learn/lessons")).lessons;
  $("answer-form").addEventListener("submit", (e) => {
    e.preventDefault();
    answer($("answer").value);
  });
  $("take-hint").addEventListener(
    "click",
    () => lesson && lesson.hint_action && answer(lesson.hint_action),
  );
  $("legal").addEventListener("click", () => answer("?"));
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
