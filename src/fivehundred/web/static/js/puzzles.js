// The puzzle page (/learn/puzzles): the server's shipped puzzles; a tapped card goes to
// the engine, which refuses it with its reason or says right or wrong and plays the
// solution out. The streak and the success rate by theme are kept in localStorage.
import { applySettings, el, getJSON, postJSON } from "./net.js";
import { cardText, drawPosition, leadChoices, said, suitButtons } from "./learnview.js";

const $ = (id) => document.getElementById(id);
const KEY = "fivehundred:puzzle-stats";
const ORDER = { easy: 1, medium: 2, hard: 3 };
let current = null;
let answered = false;

function stats() {
  try {
    return JSON.parse(localStorage.getItem(KEY)) || {};
  } catch {
    return {};
  }
}

function record(puzzle, right) {
  const s = stats();
  s.answers = s.answers || {};
  const first = !(puzzle.id in s.answers);
  s.answers[puzzle.id] = Boolean(s.answers[puzzle.id]) || right;
  s.streak = right ? (s.streak || 0) + 1 : 0;
  s.best_streak = Math.max(s.best_streak || 0, s.streak);
  if (first) {
    s.themes = s.themes || {};
    for (const key of [puzzle.theme, puzzle.kind, puzzle.series]) {
      const cell = s.themes[key] || [0, 0];
      cell[0] += right ? 1 : 0;
      cell[1] += 1;
      s.themes[key] = cell;
    }
  }
  localStorage.setItem(KEY, JSON.stringify(s));
  showStats();
}

function showStats() {
  const s = stats();
  const answers = s.answers || {};
  const solved = Object.values(answers).filter(Boolean).length;
  const rows = Object.entries(s.themes || {})
    .sort()
    .map(([name, [right, tried]]) =>
      el(
        "tr",
        {},
        el("td", {}, name),
        el("td", {}, `${right} of ${tried}`),
        el("td", {}, `${Math.round((100 * right) / tried)}%`),
      ),
    );
  $("stats").replaceChildren(
    el(
      "p",
      { id: "streak" },
      `Streak ${s.streak || 0} (best ${s.best_streak || 0}); ${Object.keys(answers).length} answered, ${solved} solved.`,
    ),
    rows.length
      ? el(
          "table",
          {},
          el("caption", { class: "visually-hidden" }, "first tries right by theme"),
          el(
            "thead",
            {},
            el(
              "tr",
              {},
              el("th", { scope: "col" }, "Theme"),
              el("th", { scope: "col" }, "First tries right"),
              el("th", { scope: "col" }, "Rate"),
            ),
          ),
          el("tbody", {}, rows),
        )
      : el("p", {}, "No puzzle answered yet."),
  );
}

async function open(id) {
  $("choose-error").textContent = "";
  let puzzle;
  try {
    puzzle = await getJSON(`/api/learn/puzzles/${encodeURIComponent(id)}`);
  } catch (error) {
    $("choose-error").textContent = error.message;
    return;
  }
  current = puzzle;
  answered = false;
  history.replaceState(null, "", `#${puzzle.id}`);
  $("puzzle-panel").hidden = false;
  $("puzzle-title").textContent =
    `Puzzle ${puzzle.id}: ${puzzle.difficulty}, ${puzzle.kind}, ${puzzle.theme === "the lead" ? "a lead" : "your card"} (${puzzle.preset} rules)`;
  $("puzzle-task").textContent = puzzle.task;
  $("said").replaceChildren();
  $("solution").hidden = true;
  $("suit-choice").hidden = true;
  drawPosition($("position"), puzzle.position, tap);
}

function tap(card) {
  if (!current || answered) return;
  const choices = leadChoices(current.position, card);
  if (choices.length) {
    suitButtons($("suit-choice"), choices, answer);
    return;
  }
  answer(card);
}

async function answer(card) {
  let result;
  try {
    result = await postJSON(`/api/learn/puzzles/${encodeURIComponent(current.id)}/answer`, {
      card,
    });
  } catch (error) {
    said($("said"), [error.message], "refused");
    return;
  }
  if (result.status === "refused") {
    said($("said"), [`The table refuses: ${result.reason}`]);
    return;
  }
  answered = true;
  const right = result.status === "right";
  said($("said"), [result.message], right ? "right" : "wrong");
  record(current, right);
  // every card is shown once answered (the single-dummy series hid the defenders')
  drawPosition($("position"), { ...current.position, seats: result.cards, legal: [] }, null);
  $("line").replaceChildren(
    ...result.line.map((t) =>
      el(
        "li",
        {},
        `${t.plays.map((p) => `${p.name} ${cardText(p.card)}`).join(", ")}: won by ${t.winner}`,
      ),
    ),
  );
  $("final").textContent =
    `The contracting side ends with ${result.final} trick${result.final === 1 ? "" : "s"}.`;
  $("solution").hidden = false;
}

async function pool() {
  const q = new URLSearchParams();
  for (const k of ["theme", "difficulty", "series"]) if ($(k).value) q.set(k, $(k).value);
  return getJSON(`/api/learn/puzzles?${q}`);
}

async function next() {
  let list;
  try {
    list = await pool();
  } catch (error) {
    $("choose-error").textContent = error.message;
    return;
  }
  if (!list.puzzles.length) {
    $("choose-error").textContent = "No puzzle fits: choose another theme or difficulty.";
    return;
  }
  const answers = stats().answers || {};
  const fresh = list.puzzles.filter((p) => !(p.id in answers) && (!current || p.id !== current.id));
  const ordered = (fresh.length ? fresh : list.puzzles)
    .slice()
    .sort((a, b) => ORDER[a.difficulty] - ORDER[b.difficulty] || a.id.localeCompare(b.id));
  await open(ordered[0].id);
}

async function start() {
  applySettings();
  showStats();
  const list = await getJSON("/api/learn/puzzles");
  for (const theme of list.themes) $("theme").append(el("option", {}, theme));
  $("daily").addEventListener("click", () => open(list.daily));
  $("next").addEventListener("click", next);
  $("after-next").addEventListener("click", next);
  const wanted = location.hash.slice(1);
  await open(wanted || list.daily);
}

start();
