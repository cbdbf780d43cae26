// The puzzle page (/learn/puzzles): the server's shipped puzzles, drawn at the table page's
// own table (js/table/ through learntable.js); a card tapped there goes to the engine,
// which refuses it with its reason or says right or wrong and plays the solution out. The
// streak and the success rate by theme are kept in localStorage. A first visit starts with
// the four-handed Australian game's puzzles, easiest first (the rules are a filter).
import { cardText, createLearnTable, keepInView, said } from "./learntable.js";
import { applySettings, el, getJSON, postJSON } from "./net.js";

const $ = (id) => document.getElementById(id);
const KEY = "fivehundred:puzzle-stats";
const PRESET_KEY = "fivehundred:puzzle-preset";
const FIRST_PRESET = "australian"; // (a newcomer's game: four players, the rule book's)
const ORDER = { easy: 1, medium: 2, hard: 3 };
let current = null;
let answered = false;
const presetLabels = {};

const table = createLearnTable({ onAction: (card) => answer(card) });

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

async function open(id, { scroll = false } = {}) {
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
  $("learn-table").hidden = false;
  const rules = presetLabels[puzzle.preset] || puzzle.preset.replaceAll("_", " ");
  $("puzzle-title").textContent =
    `Puzzle ${puzzle.id}: ${puzzle.difficulty}, ${puzzle.kind}, ${puzzle.theme === "the lead" ? "a lead" : "your card"} (${rules} rules)`;
  $("puzzle-task").textContent = puzzle.task;
  said($("said"), []);
  // The tricks already played this hand (every player saw them; the answer may hang on them).
  const played = puzzle.position.played || [];
  $("played-box").hidden = !played.length;
  $("played").replaceChildren(
    ...played.map((trick) =>
      el(
        "li",
        {},
        `${trick.plays.map((p) => `${p.name} ${cardText(p.card)}`).join(", ")}: won by ${trick.winner_name}`,
      ),
    ),
  );
  $("solution").hidden = true;
  table.show(puzzle.position, { prompt: "Your card" });
  // The new puzzle's task in view (after "Next puzzle" at the foot of the page).
  if (scroll) $("puzzle-panel").scrollIntoView({ block: "start" });
}

async function answer(card) {
  if (!current || answered) return;
  let result;
  try {
    result = await postJSON(`/api/learn/puzzles/${encodeURIComponent(current.id)}/answer`, {
      card,
    });
  } catch (error) {
    said($("said"), [error.message], "refused");
    keepInView([$("said")]);
    return;
  }
  if (result.status === "refused") {
    said($("said"), [`The table refuses: ${result.reason}`]);
    keepInView([$("trick"), $("said")]);
    return;
  }
  answered = true;
  const right = result.status === "right";
  said($("said"), [result.message], right ? "right" : "wrong");
  record(current, right);
  // every card is shown once answered (the single-dummy series hid the defenders'); the
  // table waits on nobody now
  table.show(
    { ...current.position, seats: result.cards, legal: [], phase: "solved", to_move: null },
    { prompt: "" },
  );
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
  keepInView([$("trick"), $("said")]);
}

async function pool() {
  const q = new URLSearchParams();
  for (const k of ["preset", "theme", "difficulty", "series"]) if ($(k).value) q.set(k, $(k).value);
  const list = await getJSON(`/api/learn/puzzles?${q}`);
  // (The rules filtered here too, where the server does not filter them.)
  const preset = $("preset").value;
  return { ...list, puzzles: list.puzzles.filter((p) => !preset || p.preset === preset) };
}

// A newcomer's order: the server's ("order") where it says, else easiest first.
function byOrder(a, b) {
  if (a.order !== undefined && b.order !== undefined) return a.order - b.order;
  return ORDER[a.difficulty] - ORDER[b.difficulty] || a.id.localeCompare(b.id);
}

async function next({ scroll = true } = {}) {
  let list;
  try {
    list = await pool();
  } catch (error) {
    $("choose-error").textContent = error.message;
    return;
  }
  if (!list.puzzles.length) {
    $("choose-error").textContent = "No puzzle fits: choose other rules, theme or difficulty.";
    return;
  }
  const answers = stats().answers || {};
  const fresh = list.puzzles.filter((p) => !(p.id in answers) && (!current || p.id !== current.id));
  const ordered = (fresh.length ? fresh : list.puzzles).slice().sort(byOrder);
  await open(ordered[0].id, { scroll });
}

async function start() {
  applySettings();
  showStats();
  const list = await getJSON("/api/learn/puzzles");
  for (const theme of list.themes) $("theme").append(el("option", {}, theme));
  // The rules as a filter: the server's presets (with their names), else those its
  // puzzles are played under.
  const presets = list.presets
    ? list.presets.map((p) => ({ name: p.name, label: p.label }))
    : [...new Set(list.puzzles.map((p) => p.preset))].map((name) => ({
        name,
        label: name.replaceAll("_", " "),
      }));
  for (const p of presets) {
    presetLabels[p.name] = p.label;
    $("preset").append(el("option", { value: p.name }, p.label));
  }
  const kept = localStorage.getItem(PRESET_KEY);
  const first = kept !== null ? kept : FIRST_PRESET;
  if (first === "" || presets.some((p) => p.name === first)) $("preset").value = first;
  $("preset").addEventListener("change", () => {
    localStorage.setItem(PRESET_KEY, $("preset").value);
    next({ scroll: false });
  });
  $("daily").addEventListener("click", () => open(list.daily, { scroll: true }));
  $("next").addEventListener("click", () => next());
  $("after-next").addEventListener("click", () => next());
  // A link to another puzzle on this page (#ID) opens it.
  window.addEventListener("hashchange", () => {
    const id = location.hash.slice(1);
    if (id && (!current || id !== current.id)) open(id, { scroll: true });
  });
  const wanted = location.hash.slice(1);
  if (wanted) await open(wanted);
  else await next({ scroll: false }); // a first visit: the easiest of the chosen rules
}

start();
