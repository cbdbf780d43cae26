// The lobby (/): create a table (its maker seated where they chose, each other seat a
// partner or an opponent to invite, or a computer level), get its link, join or watch the
// listed tables. Who is whose partner comes from the server (POST /api/rules/seating, the
// tables' "seating"): the page draws it and never works the sides out itself.
import { applySettings, el, getJSON, postJSON } from "./net.js";

const $ = (id) => document.getElementById(id);
let catalogue = null;
let session = { name: null };
let seating = null; // the server's seating for the form's rules, seen from "your seat"
let asked = 0; // the newest seating request (an older answer arriving late is dropped)

function presetOf(name) {
  return catalogue.presets.find((p) => p.name === name);
}

// The form's rules as the server is to get them: {preset, variants}.
function chosenRules() {
  const preset = presetOf($("preset").value);
  const variants = {};
  const on = new Set(preset.on || []);
  for (const box of document.querySelectorAll("#variants [data-variant]")) {
    const name = box.dataset.variant;
    if (box.type === "checkbox" && box.checked !== on.has(name)) variants[name] = box.checked;
    if (box.tagName === "SELECT" && box.value) variants[box.dataset.variant] = box.value;
  }
  const target = Number($("target").value);
  if (target && target !== preset.target) variants.target = target;
  return { preset: preset.name, variants };
}

function mySeat() {
  const value = $("my-seat").value;
  return value === "" ? null : Number(value);
}

// Ask the server who sits with whom under the form's rules, then draw the seats.
async function refreshSeating() {
  const number = ++asked;
  const seat = mySeat();
  $("my-name-label").hidden = Boolean(session.name) || seat === null; // nobody to name
  try {
    const answer = await postJSON("/api/rules/seating", { rules: chosenRules(), seat });
    if (number !== asked) return;
    seating = answer.seating;
  } catch {
    return; // rules the server refuses: the create button says why
  }
  drawSeats();
}

// Your seat (a choice of places), then each other seat: its place, its relation to you in
// words and colour, and what sits there: a person you invite, or a computer level.
function drawSeats() {
  const box = $("seats");
  const me = mySeat();
  const kept = {};
  for (const select of box.querySelectorAll("select[data-seat]"))
    kept[select.dataset.seat] = select.value;
  box.replaceChildren();
  for (const entry of seating) {
    const relation = entry.relation || "";
    if (entry.seat === me) {
      box.append(
        el(
          "div",
          { class: `seat-choice side-${entry.side} rel-you`, "data-relation": relation },
          el(
            "span",
            { class: "seat-place" },
            el("b", {}, entry.place),
            ` — ${entry.relation_words}`,
          ),
        ),
      );
      continue;
    }
    const select = el("select", {
      id: `seat-${entry.seat}`,
      "data-seat": String(entry.seat),
      "aria-label": `${entry.place}: ${entry.relation_words || ""}`,
    });
    select.append(el("option", { value: "open" }, entry.invite_words || "open"));
    select.append(
      el(
        "optgroup",
        { label: "a computer player" },
        catalogue.levels.map((level) => el("option", { value: level.name }, level.label)),
      ),
    );
    select.value = kept[entry.seat] || catalogue.default_level;
    box.append(
      el(
        "label",
        { class: `seat-choice side-${entry.side} rel-${relation}`, "data-relation": relation },
        el(
          "span",
          { class: "seat-place" },
          el("b", {}, entry.place),
          entry.relation_words ? ` — ${entry.relation_words}` : "",
        ),
        select,
      ),
    );
  }
}

function seatRows() {
  const preset = presetOf($("preset").value);
  const chooser = $("my-seat");
  const before = chooser.value;
  chooser.replaceChildren();
  seating = null;
  $("target").value = preset.target;
  const variants = $("variants");
  variants.replaceChildren();
  const on = new Set(preset.on || []); // the preset's own switches: ticked, may be unticked
  for (const v of catalogue.variants) {
    if (v.kind !== "switch") continue;
    const box = el("input", { type: "checkbox", "data-variant": v.name });
    box.checked = on.has(v.name);
    box.addEventListener("change", () => {
      showAvailable();
      refreshSeating();
    });
    variants.append(
      el("label", { "data-for": v.name }, box, v.label, el("span", { class: "why" }, "")),
    );
  }
  for (const v of catalogue.variants) {
    if (v.kind !== "choice") continue;
    const select = el(
      "select",
      { "data-variant": v.name, "aria-label": v.label },
      el("option", { value: "" }, "(preset)"),
      v.options.map((o) => el("option", { value: o }, o.replace(/_/g, " "))),
    );
    select.addEventListener("change", refreshSeating);
    variants.append(el("label", {}, `${v.label} `, select));
  }
  showAvailable();
  // your seat: the places of the chosen rules (asked of the server), or none
  postJSON("/api/rules/seating", { rules: { preset: preset.name, variants: {} }, seat: null })
    .then((answer) => {
      for (const entry of answer.seating)
        chooser.append(el("option", { value: String(entry.seat) }, entry.place));
      chooser.append(el("option", { value: "" }, "none: I only make the table"));
      // your seat stays where you chose it; at first, the first seat
      const kept = chooser.dataset.chosen && [...chooser.options].some((o) => o.value === before);
      chooser.value = kept ? before : "0";
      return refreshSeating();
    })
    .catch((error) => {
      $("create-error").textContent = error.message;
    });
}

// Why a switch cannot be ticked with this preset and the switches already ticked, or null.
// The server says which variants each preset accepts ("variants"), and where it gives them,
// why the others are refused ("refused": {name: reason}) and which pairs contradict each
// other ("conflicts": [[a, b, reason]]).
function refusal(preset, name, ticked) {
  if (!preset.variants.includes(name)) {
    return (preset.refused && preset.refused[name]) || `does not apply to the ${preset.label} game`;
  }
  for (const [a, b, reason] of preset.conflicts || []) {
    if ((a === name && ticked.has(b)) || (b === name && ticked.has(a))) return reason;
  }
  return null;
}

// Grey out (disable) every switch that the chosen preset refuses, or that contradicts one
// ticked already, with the reason beside it.
function showAvailable() {
  const preset = presetOf($("preset").value);
  const boxes = [...document.querySelectorAll("#variants input[type=checkbox][data-variant]")];
  const ticked = new Set(boxes.filter((b) => b.checked).map((b) => b.dataset.variant));
  for (const box of boxes) {
    const name = box.dataset.variant;
    const reason = box.checked ? null : refusal(preset, name, ticked);
    box.disabled = reason !== null;
    const label = box.closest("label");
    label.classList.toggle("unavailable", reason !== null);
    label.title = reason ? `Not available: ${reason}` : "";
    label.querySelector(".why").textContent = reason ? ` — ${reason}` : "";
  }
}

async function create(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  if (!seating) return;
  const rules = chosenRules();
  const me = mySeat();
  const seats = seating.map((entry) =>
    entry.seat === me ? "open" : $(`seat-${entry.seat}`).value,
  );
  const options = { grace: Number($("grace").value || 60), delay: Number($("delay").value || 0) };
  if ($("turn-timer").value) options.turn_timer = Number($("turn-timer").value);
  const body = { rules, seats, options, private: $("private").checked };
  if ($("name").value.trim()) body.name = $("name").value.trim();
  if (me !== null) {
    body.sit = me;
    if (!session.name) {
      const who = $("my-name").value.trim() || "Guest";
      body.player = who;
      localStorage.setItem("fivehundred:name", who);
    }
  }
  try {
    const answer = await postJSON("/api/tables", body);
    // the maker's seat: the table page connects with this token (no "sit in seat" asked)
    if (answer.token) localStorage.setItem(`fivehundred:token:${answer.table}`, answer.token);
    const link = new URL(answer.url, location.href).href;
    $("share-link").value = link;
    $("go").href = answer.url;
    $("created").hidden = false;
    $("go").focus();
    loadTables();
  } catch (error) {
    $("create-error").textContent = error.message;
  }
}

async function loadTables() {
  const box = $("tables");
  try {
    const answer = await getJSON("/api/tables");
    const tables = answer.tables || [];
    if (!tables.length) {
      box.replaceChildren(el("p", {}, "No tables yet: create one above."));
      return;
    }
    const rows = tables.map((t) => {
      const open = t.seats.filter((s) => s.kind === "open").length;
      return el(
        "tr",
        {},
        el("td", {}, t.name),
        el("td", {}, (presetOf(t.rules.preset) || { label: t.rules.preset }).label),
        el("td", {}, whoSitsWhere(t)),
        el("td", {}, t.scores.join(" – ")),
        el(
          "td",
          {},
          open ? el("a", { href: t.url, class: "link-btn" }, `Join (${open} open)`) : "",
          " ",
          el("a", { href: `${t.url}?watch=1`, class: "link-btn" }, "Watch"),
        ),
      );
    });
    box.replaceChildren(
      el(
        "table",
        { class: "list" },
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            ["Table", "Rules", "Players", "Score", ""].map((h) => el("th", {}, h)),
          ),
        ),
        el("tbody", {}, rows),
      ),
    );
  } catch (error) {
    box.replaceChildren(el("p", { class: "error-line" }, error.message));
  }
}

// Who sits where, side by side: each side's seats together in its colour (partners share
// a side: the server's "seating"), an open seat as its place.
function whoSitsWhere(table) {
  const sides = new Map();
  for (const entry of table.seating) {
    if (!sides.has(entry.side)) sides.set(entry.side, []);
    sides.get(entry.side).push(entry);
  }
  const groups = [...sides.entries()].map(([side, entries]) =>
    el(
      "span",
      { class: `side-chip side-${side}` },
      entries.map((entry, i) => {
        const seat = table.seats[entry.seat];
        const who = seat.kind === "open" ? el("i", {}, "open") : seat.name;
        return [i ? " & " : "", el("span", { class: "seat-place" }, `${entry.place}: `), who];
      }),
    ),
  );
  return el("span", { class: "seat-list" }, groups);
}

async function loadGames() {
  const box = $("games");
  try {
    const answer = await getJSON("/api/games?per_page=20");
    const games = answer.games || [];
    if (!games.length) {
      box.replaceChildren(el("p", {}, "No finished games yet."));
      return;
    }
    const rows = games.map((g) =>
      el(
        "tr",
        {},
        el(
          "td",
          {},
          el(
            "a",
            { href: `/g/${encodeURIComponent(g.table)}`, class: "link-btn" },
            g.name || g.table,
          ),
        ),
        el(
          "td",
          {},
          (g.players || []).map((p, i) => [
            i ? ", " : "",
            el("a", { href: `/p/${encodeURIComponent(p)}`, class: "link-btn" }, p),
          ]),
        ),
        el("td", {}, (g.scores || []).join(" – ")),
        el("td", {}, String(g.hands)),
      ),
    );
    box.replaceChildren(
      el(
        "table",
        { class: "list" },
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            ["Game", "Players", "Score", "Hands"].map((h) => el("th", {}, h)),
          ),
        ),
        el("tbody", {}, rows),
      ),
    );
  } catch (error) {
    box.replaceChildren(el("p", { class: "error-line" }, error.message));
  }
}

async function start() {
  const settings = applySettings();
  $("four-colour").checked = settings.four;
  $("four-colour").addEventListener("change", (e) => {
    localStorage.setItem("fivehundred:four-colour", e.target.checked ? "1" : "0");
    applySettings();
  });
  [catalogue, session] = await Promise.all([
    getJSON("/api/rules"),
    getJSON("/api/session").catch(() => ({ name: null })),
  ]);
  if (session.name) {
    // an account plays under its own name: nothing to type
    $("my-name-label").hidden = true;
    $("playing-as").textContent = `You play as ${session.name}.`;
  } else {
    $("my-name").value = localStorage.getItem("fivehundred:name") || "";
  }
  $("my-seat").addEventListener("change", () => {
    $("my-seat").dataset.chosen = "1";
    refreshSeating();
  });
  const preset = $("preset");
  for (const p of catalogue.presets)
    preset.append(el("option", { value: p.name }, `${p.label} (${p.players} players)`));
  preset.addEventListener("change", seatRows);
  seatRows();
  $("create").addEventListener("submit", create);
  $("copy").addEventListener("click", async () => {
    $("share-link").select();
    try {
      await navigator.clipboard.writeText($("share-link").value);
    } catch {
      /* selected: the person copies it */
    }
  });
  loadTables();
  loadGames();
  setInterval(loadTables, 10000);
}

start();
