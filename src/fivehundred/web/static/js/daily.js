// The daily boards page (/daily): today's boards from the server (web/daily.py), played
// from South by tapping cards and calls; everything shown is what the server sends for
// South (nothing hidden is filtered here). The entry's token is kept in localStorage, so
// a reload or a return later the same day goes on where it was left.
import { el, getJSON, postJSON } from "./net.js";

const $ = (id) => document.getElementById(id);
// the daily of another preset (the server's list: /api/daily's presets): /daily?preset=NAME
const PRESET = new URLSearchParams(location.search).get("preset");
const KEY = PRESET ? `fivehundred:daily-entry:${PRESET}` : "fivehundred:daily-entry";

// an API path of this page's daily (its preset asked for where one was chosen)
function api(path) {
  if (!PRESET) return path;
  return `${path}${path.includes("?") ? "&" : "?"}preset=${encodeURIComponent(PRESET)}`;
}
let token = null;
let info = null;
let busy = false;
let parTimer = null;

function saved() {
  try {
    const entry = JSON.parse(localStorage.getItem(KEY));
    return entry && entry.token ? entry : null;
  } catch {
    return null;
  }
}

function signed(n) {
  if (n === null || n === undefined) return "";
  return n > 0 ? `+${n}` : String(n);
}

function showError(error) {
  $("error").textContent = error ? String(error.message || error) : "";
}

async function send(path, data) {
  if (busy) return;
  busy = true;
  try {
    showError(null);
    draw(await postJSON(api(`/api/daily/entries/${token}${path}`), data));
  } catch (error) {
    showError(error);
  } finally {
    busy = false;
  }
}

function drawBoards(info, finished) {
  const list = $("board-list");
  list.replaceChildren(
    ...info.boards.map((b) =>
      el(
        "li",
        {},
        `Board ${b.number} (dealer ${b.dealer})${finished.includes(b.number) ? ": played" : ""}`,
      ),
    ),
  );
}

function draw(view) {
  $("start-row").hidden = true;
  if (info) drawBoards(info, view.finished);
  $("play").hidden = false;
  $("board-title").textContent = `Board ${view.board} of ${view.boards} · dealer ${view.dealer}`;
  const t = view.table;
  $("contract").textContent = t.contract
    ? `Contract: ${t.contract} · tricks NS ${t.tricks_won.NS}, EW ${t.tricks_won.EW}`
    : "";
  $("bids").textContent = t.auction.length
    ? `Bids: ${t.auction.map((c) => `${c.seat} ${c.call}`).join(", ")}`
    : "";
  $("trick").textContent = t.trick.length
    ? `Trick: ${t.trick.map((p) => `${p.seat} ${p.card}`).join(", ")}`
    : "";
  $("last-trick").textContent = t.last_trick
    ? `Last trick: ${t.last_trick.plays.map((p) => `${p.seat} ${p.card}`).join(", ")}, won by ${t.last_trick.winner}`
    : "";
  $("exposed").replaceChildren(
    ...t.exposed.map((x) => el("p", {}, `${x.seat}'s open cards: ${x.cards.join(" ")}`)),
  );
  $("prompt").textContent = t.prompt || (view.status === "playing" ? "" : "The board is over");
  const legal = new Map(t.legal.map((a) => [a.action, a]));
  $("hand").replaceChildren(
    ...t.hand.map((c) =>
      el(
        "button",
        {
          type: "button",
          class: "btn secondary",
          disabled: !legal.has(c.card),
          onclick: () => send("/act", { action: c.card }),
        },
        c.label,
      ),
    ),
  );
  const cards = new Set(t.hand.map((c) => c.card));
  $("calls").replaceChildren(
    ...t.legal
      .filter((a) => !cards.has(a.action))
      .map((a) =>
        el(
          "button",
          { type: "button", class: "btn", onclick: () => send("/act", { action: a.action }) },
          a.label,
        ),
      ),
  );
  drawAfter(view);
}

function drawAfter(view) {
  const after = $("after");
  if (view.status === "playing") {
    after.hidden = true;
    return;
  }
  after.hidden = false;
  const r = view.result;
  $("result").textContent =
    `Your result: ${r.contract}, ${r.tricks} tricks: NS ${r.points[0]}, EW ${r.points[1]} (net ${r.net})`;
  $("par").textContent = r.par
    ? `Par: ${r.par}. You: ${signed(r.against_par)} against par.`
    : "Par: being worked out.";
  clearTimeout(parTimer);
  if (!r.par) parTimer = setTimeout(refresh, 2000); // the server works it out in the background
  const trav = view.traveller;
  const shown =
    trav.count > trav.results.length
      ? ` (places ${trav.first} to ${trav.first + trav.results.length - 1} of ${trav.count})`
      : "";
  $("traveller-title").textContent = `Traveller of board ${trav.board}${shown}`;
  $("traveller")
    .querySelector("tbody")
    .replaceChildren(
      ...trav.results.map((row) =>
        el(
          "tr",
          { class: row.entrant === view.name ? "me" : null },
          el("td", {}, row.entrant),
          el("td", {}, row.contract),
          el("td", {}, row.tricks),
          el("td", {}, row.points[0]),
          el("td", {}, row.points[1]),
          el("td", {}, row.percent),
          el("td", {}, signed(row.against_par)),
        ),
      ),
    );
  $("hands").replaceChildren(
    ...trav.hands.map((h) => el("li", {}, `${h.seat}: ${h.cards.join(" ")}`)),
    el("li", {}, `Kitty: ${trav.kitty.join(" ")}`),
  );
  $("standing").textContent = view.standing
    ? `Your day: ${view.standing.percent}%, place ${view.standing.place} of ${view.standing.of}.`
    : "";
  $("next").hidden = view.status !== "board_over";
  drawReview(view.board);
  if (view.status === "day_over") {
    drawDayReview();
    drawTable(view);
  }
}

function lineText(line) {
  return `${line.contract}, ${plural(line.tricks, "trick")}: net ${signed(line.net)}, ${line.percent}%`;
}

async function drawReview(board) {
  try {
    const review = await getJSON(api(`/api/daily/entries/${token}/boards/${board}/review`));
    $("field-title").textContent =
      `Board ${board}: your line and the field's (${plural(review.results, "result")})`;
    $("field")
      .querySelector("tbody")
      .replaceChildren(
        ...review.lines.map((line) =>
          el(
            "tr",
            { class: line.mine ? "me" : null },
            el("td", {}, line.mine ? `${line.contract} (you)` : line.contract),
            el("td", {}, line.tricks),
            el("td", {}, `${line.count} (${line.share}%)`),
            el("td", {}, signed(line.net)),
            el("td", {}, line.percent),
            el("td", {}, signed(line.against_par)),
          ),
        ),
      );
    $("analysis").textContent = review.analysis.text;
    $("moves").replaceChildren(...review.moves.map((m) => el("li", {}, `${m.seat}: ${m.move}`)));
  } catch (error) {
    showError(error);
  }
}

async function drawDayReview() {
  try {
    const day = await getJSON(api(`/api/daily/entries/${token}/review`));
    $("day-review").replaceChildren(
      ...day.boards.map((b) => {
        const common = b.lines[0];
        const par = b.par ? ` Par: ${b.par.label}.` : "";
        const field = common.mine
          ? ` The field's most common line (${common.count} of ${b.results}).`
          : ` Most common: ${lineText(common)} (${common.count} of ${b.results}).`;
        return el("li", {}, `Board ${b.board}: your line ${lineText(b.mine)}.${field}${par}`);
      }),
    );
    $("day-review-box").hidden = false;
  } catch (error) {
    showError(error);
  }
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

async function drawHistory(view) {
  if (!view.ranked) return;
  const history = await getJSON(api(`/api/daily/players/${encodeURIComponent(view.name)}/history`));
  $("streak").textContent = `Your streak: ${plural(history.streak, "day")} in a row.`;
  $("history").replaceChildren(
    ...history.days.map((day) =>
      el(
        "li",
        {},
        `${day.day}: ${day.boards} of ${day.of} boards`,
        day.percent === null ? "" : `, ${day.percent}%, place ${day.place} of ${day.entrants}`,
      ),
    ),
  );
  $("history-box").hidden = false;
}

async function drawTable(view) {
  try {
    const week = await getJSON(api("/api/daily/week"));
    $("week-table").replaceChildren(
      ...week.rows.map((row) =>
        el(
          "li",
          { value: row.place },
          `${row.name}: ${row.percent}% over ${plural(row.boards, "board")} on ${plural(row.days, "day")}`,
        ),
      ),
    );
    if (!week.rows.length)
      $("week-table").replaceChildren(el("li", {}, "No account has played this week yet."));
    await drawHistory(view);
    const table = await getJSON(api("/api/daily/table"));
    $("day-table").replaceChildren(
      ...table.rows.map((row) =>
        el(
          "li",
          { value: row.place },
          `${row.name}: ${row.percent}% over ${row.boards} boards`,
          row.against_par === null ? "" : ` (${signed(row.against_par)} against par)`,
        ),
      ),
    );
    $("day-table-box").hidden = false;
  } catch (error) {
    showError(error);
  }
}

async function refresh() {
  if (!token || busy) return;
  try {
    draw(await getJSON(api(`/api/daily/entries/${token}`)));
  } catch (error) {
    showError(error);
  }
}

async function start() {
  try {
    const view = await postJSON(api("/api/daily/entries"), { name: $("name").value || "guest" });
    token = view.token;
    localStorage.setItem(KEY, JSON.stringify({ token, day: view.day }));
    draw(view);
  } catch (error) {
    showError(error);
  }
}

// the dailies this server deals (one link each, the one shown marked): none if only one
function drawPresets(info) {
  const nav = $("presets");
  if (info.presets.length < 2) return;
  nav.replaceChildren(
    ...info.presets.map((p, i) =>
      el(
        "a",
        {
          href: i === 0 ? "/daily" : `/daily?preset=${encodeURIComponent(p.preset)}`,
          class: p.preset === info.preset ? "btn" : "btn secondary",
          "aria-current": p.preset === info.preset ? "page" : null,
        },
        p.label,
      ),
    ),
  );
  nav.hidden = false;
}

async function main() {
  $("start").addEventListener("click", start);
  $("next").addEventListener("click", () => send("/next", {}));
  try {
    info = await getJSON(api("/api/daily"));
  } catch (error) {
    showError(error);
    return;
  }
  $("day-title").textContent =
    info.presets.length > 1
      ? `The ${info.preset_label} daily boards of ${info.day}`
      : `The daily boards of ${info.day}`;
  drawPresets(info);
  drawBoards(info, []);
  const entry = saved();
  if (entry && entry.day === info.day) {
    try {
      token = entry.token;
      draw(await getJSON(api(`/api/daily/entries/${token}`)));
    } catch {
      token = null;
      localStorage.removeItem(KEY);
    }
  }
  document.body.dataset.ready = "1";
}

main();
