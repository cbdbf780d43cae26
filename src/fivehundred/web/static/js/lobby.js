// The lobby (/): create a table, get its link, join or watch the open tables.
import { applySettings, el, getJSON, postJSON } from "./net.js";

const $ = (id) => document.getElementById(id);
let catalogue = null;

function presetOf(name) {
  return catalogue.presets.find((p) => p.name === name);
}

function seatRows() {
  const preset = presetOf($("preset").value);
  const box = $("seats");
  box.replaceChildren();
  for (let seat = 0; seat < preset.players; seat++) {
    const select = el("select", { id: `seat-${seat}`, "aria-label": `seat ${seat + 1}` });
    select.append(el("option", { value: "open" }, seat === 0 ? "open (you)" : "open (a friend)"));
    for (const player of catalogue.players)
      select.append(el("option", { value: player }, `computer: ${player}`));
    if (seat > 0 && catalogue.players.includes("heuristic")) select.value = "heuristic";
    box.append(el("label", {}, `Seat ${seat + 1}`, select));
  }
  $("target").value = preset.target;
  const variants = $("variants");
  variants.replaceChildren();
  const on = new Set(preset.on || []); // the preset's own switches: ticked, may be unticked
  for (const v of catalogue.variants) {
    if (v.kind !== "switch") continue;
    const box = el("input", { type: "checkbox", "data-variant": v.name });
    box.checked = on.has(v.name);
    box.addEventListener("change", showAvailable);
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
    variants.append(el("label", {}, `${v.label} `, select));
  }
  showAvailable();
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
  const seats = [];
  for (let seat = 0; seat < preset.players; seat++) seats.push($(`seat-${seat}`).value);
  const options = { grace: Number($("grace").value || 60), delay: Number($("delay").value || 0) };
  if ($("turn-timer").value) options.turn_timer = Number($("turn-timer").value);
  const body = { rules: { preset: preset.name, variants }, seats, options };
  if ($("name").value.trim()) body.name = $("name").value.trim();
  try {
    const answer = await postJSON("/api/tables", body);
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
      const who = t.seats.map((s) => (s.kind === "open" ? "open" : s.name)).join(", ");
      return el(
        "tr",
        {},
        el("td", {}, t.name),
        el("td", {}, t.rules.preset.replace(/_/g, " ")),
        el("td", {}, who),
        el("td", {}, t.scores.join(" – ")),
        el(
          "td",
          {},
          open ? el("a", { href: t.url }, `Join (${open} open)`) : "",
          " ",
          el("a", { href: `${t.url}?watch=1` }, "Watch"),
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
        el("td", {}, el("a", { href: `/g/${encodeURIComponent(g.table)}` }, g.name || g.table)),
        el(
          "td",
          {},
          (g.players || []).map((p, i) => [
            i ? ", " : "",
            el("a", { href: `/p/${encodeURIComponent(p)}` }, p),
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
  catalogue = await getJSON("/api/rules");
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
