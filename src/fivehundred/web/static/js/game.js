// A finished (or running) game's page (/g/CODE): the score sheet hand by hand, each hand's
// replay with every card shown, and its double-dummy analysis.
import { cardElement, cardSymbol, playedCard, setWords, suitSymbol } from "./cards.js";
import { applySettings, el, getJSON, wholeNames } from "./net.js";

const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);
let sheet = null;
let replay = null;
let step = 0;
let analysisTimer = null;

// A seat's name as the server says it (the table page's names: computer players told apart
// by seat, a dummy named after its owner).
function seatName(seat) {
  if (seat === null || seat === undefined) return "";
  const names = (sheet && sheet.names) || [];
  return names[seat] || `Seat ${seat + 1}`;
}

function sideNames() {
  // (each side named by its players, as the server says it)
  return sheet.sides.map((_, side) => (sheet.side_names || [])[side] || `Side ${side + 1}`);
}

function renderSheet() {
  const names = sideNames();
  // Each cell carries its column's name (data-label): on a phone a row wraps into labelled
  // cells instead of running off the side of the screen (the ARIA roles keep it a table).
  const cell = (label, ...children) => el("td", { role: "cell", "data-label": label }, ...children);
  const rows = sheet.hands.map((h) =>
    el(
      "tr",
      { id: `hand-row-${h.hand}`, role: "row" },
      cell("Hand", String(h.hand)),
      cell("Dealer", seatName(h.dealer)),
      cell(
        "Contract",
        h.contract ? `${h.contract_label} by ${seatName(h.contractor)}` : "all passed",
      ),
      cell(
        "Result",
        h.made === null
          ? ""
          : el("span", { class: h.made ? "made" : "set" }, h.made ? "made" : "set"),
      ),
      // the hand's points, and what they are made of (the server's words)
      h.points.map((p, side) =>
        cell(
          `${names[side]} (hand)`,
          `${p > 0 ? "+" : ""}${p}`,
          (h.points_parts || [])[side] ? el("small", { class: "parts" }, h.points_parts[side]) : "",
        ),
      ),
      h.scores.map((s, side) => cell(names[side], el("strong", {}, String(s)))),
      el(
        "td",
        { role: "cell" },
        el("a", { href: `#hand=${h.hand}`, "data-hand": h.hand, class: "link-btn" }, "Replay"),
      ),
    ),
  );
  const th = (...text) => el("th", { role: "columnheader", scope: "col" }, ...text);
  const head = el(
    "tr",
    { role: "row" },
    ["Hand", "Dealer", "Contract", "Result"].map((text) => th(text)),
    names.map((n) => th(wholeNames(n), " (hand)")),
    names.map((n) => th(wholeNames(n))),
    th("Replay"),
  );
  const parts = [
    el(
      "table",
      { class: "list sheet", role: "table", "aria-label": "score sheet" },
      el("thead", { role: "rowgroup" }, head),
      el("tbody", { role: "rowgroup" }, rows),
    ),
  ];
  if (!sheet.hands.length) parts.push(el("p", {}, "No hand has finished yet."));
  parts.push(
    el(
      "p",
      {},
      `Target ${sheet.target}.`,
      // (The server's words, with this table's figure; none where the rule does not apply.)
      sheet.rule_490_note ? ` ${sheet.rule_490_note}` : "",
    ),
  );
  if (sheet.finished)
    parts.push(el("p", {}, el("strong", {}, `${names[sheet.winner]} won the game.`)));
  parts.push(
    el(
      "p",
      {},
      "Players: ",
      (sheet.players || []).map((p, i) => [
        i ? ", " : "",
        el("a", { href: `/p/${encodeURIComponent(p)}` }, p),
      ]),
    ),
  );
  $("sheet").replaceChildren(...parts);
}

function renderStep() {
  const s = replay.steps[step];
  const board = $("replay-board");
  board.replaceChildren(
    ...s.hands.map((cards, seat) =>
      el(
        "div",
        {
          class: `seat-hand${s.to_move === seat ? " to-move" : ""}`,
          "aria-label": `${seatName(seat)}'s hand`,
        },
        el("strong", {}, seatName(seat)),
        s.contractor === seat ? " (contractor)" : "",
        ` — ${s.tricks_won[seat]} tricks`,
        el(
          "div",
          { class: "mini-hand" },
          cards.map((c) => cardElement(c)), // (in display order, from the server)
        ),
      ),
    ),
  );
  const plays = s.trick.length ? s.trick : s.last_trick || [];
  $("replay-trick").replaceChildren(
    ...plays.map(([seat, action]) => {
      const { card, as } = playedCard(action);
      return el(
        "div",
        { class: "played" },
        cardElement(card),
        el("div", {}, seatName(seat), as ? ` (as ${suitSymbol(as)})` : ""),
      );
    }),
  );
  const what = s.action ? `${seatName(s.seat)}: ${s.label}` : "the deal";
  $("step-text").textContent = `Step ${step} of ${replay.steps.length - 1}: ${what}`;
  $("replay-auction").replaceChildren(
    el(
      "p",
      {},
      "Auction: ",
      s.auction.map(([seat], i) => `${seatName(seat)} ${s.auction_labels[i]}`).join(" · ") || "—",
      s.contract ? ` → ${s.contract_label}` : "",
    ),
  );
  $("back").disabled = step === 0;
  $("first").disabled = step === 0;
  $("forward").disabled = step === replay.steps.length - 1;
  $("last").disabled = step === replay.steps.length - 1;
}

function describe(action) {
  if (action === "none") return "leaves the joker free";
  if (action === "alone") return "goes alone";
  if (action.startsWith("call:")) return `calls ${cardSymbol(action.slice(5))}`;
  if (/^(JK[BW]:)?[SCDH]$/.test(action))
    return `nominates the ${action.includes(":") ? "higher " : ""}joker as ${suitSymbol(action.slice(-1))}`;
  const { card, as } = playedCard(action);
  return `${cardSymbol(card)}${as ? ` led as ${suitSymbol(as)}` : ""}`;
}

async function loadHand(number) {
  $("replay-panel").hidden = false;
  $("analysis-panel").hidden = false;
  $("replay-title").textContent = `Replay of hand ${number}`;
  for (const row of document.querySelectorAll("tr[id^=hand-row-]"))
    row.removeAttribute("aria-current");
  const row = $(`hand-row-${number}`);
  if (row) row.setAttribute("aria-current", "true");
  replay = await getJSON(`/api/tables/${encodeURIComponent(code)}/hands/${number}/replay`);
  step = 0;
  renderStep();
  // the replay opens where the person is looking (below the score sheet on a phone)
  $("replay-panel").scrollIntoView({ block: "start" });
  clearTimeout(analysisTimer);
  $("analysis").textContent = "Analysing (in the background)…";
  pollAnalysis(number);
}

async function pollAnalysis(number) {
  let answer;
  try {
    answer = await getJSON(`/api/tables/${encodeURIComponent(code)}/hands/${number}/analysis`);
  } catch (error) {
    $("analysis").textContent = error.message;
    return;
  }
  if (answer.status === "running") {
    analysisTimer = setTimeout(() => pollAnalysis(number), 1500);
    return;
  }
  if (answer.status !== "done") {
    $("analysis").textContent = `The analysis failed: ${answer.message}`;
    return;
  }
  renderAnalysis(answer.analysis);
}

function renderAnalysis(a) {
  const box = $("analysis");
  if (a.note) {
    box.replaceChildren(el("p", {}, a.note));
    return;
  }
  const who = a.side.map(seatName).join(" & ");
  const strains = ["S", "C", "D", "H"].map((s) => el("td", {}, String(a.strains[s])));
  box.replaceChildren(
    el(
      "p",
      { id: "dd-result" },
      `${a.contract_label} by ${who}: with best play from the first lead the contractor's side takes `,
      el("strong", {}, String(a.double_dummy)),
      ` trick${a.double_dummy === 1 ? "" : "s"}`,
      a.actual !== null ? `; it took ${a.actual}.` : ".",
    ),
    el(
      "table",
      { class: "scores", "aria-label": "double-dummy tricks by strain" },
      el(
        "thead",
        {},
        el(
          "tr",
          {},
          el("th", {}, "Strain"),
          ["S", "C", "D", "H"].map((s) => el("th", {}, suitSymbol(s))),
          el("th", {}, "NT"),
          el("th", {}, "Misère (tricks)"),
        ),
      ),
      el(
        "tbody",
        {},
        el(
          "tr",
          {},
          el("td", {}, "Tricks"),
          strains,
          el("td", {}, String(a.strains.NT)),
          el("td", {}, String(a.strains.misere)),
        ),
      ),
    ),
    a.mistakes.length
      ? el(
          "ul",
          { id: "mistakes" },
          a.mistakes.map((m) =>
            el(
              "li",
              { class: "cost" },
              `Trick ${m.trick}, ${seatName(m.seat)}: ${describe(m.card)} cost ${m.cost === 1 ? "a trick" : `${m.cost} tricks`}; ${describe(m.best)} kept ${m.kept}.`,
            ),
          ),
        )
      : el("p", { id: "mistakes" }, "No card cost a trick against best play."),
  );
}

function fromHash() {
  const match = /hand=(\d+)/.exec(location.hash);
  if (match) loadHand(Number(match[1]));
}

async function start() {
  applySettings();
  $("four-colour").checked = document.documentElement.classList.contains("four-colour");
  $("four-colour").addEventListener("change", (e) => {
    localStorage.setItem("fivehundred:four-colour", e.target.checked ? "1" : "0");
    applySettings();
  });
  $("first").addEventListener("click", () => {
    step = 0;
    renderStep();
  });
  $("back").addEventListener("click", () => {
    step = Math.max(0, step - 1);
    renderStep();
  });
  $("forward").addEventListener("click", () => {
    step = Math.min(replay.steps.length - 1, step + 1);
    renderStep();
  });
  $("last").addEventListener("click", () => {
    step = replay.steps.length - 1;
    renderStep();
  });
  document.addEventListener("keydown", (event) => {
    if (!replay || event.target.closest("input, select, textarea")) return;
    if (event.key === "ArrowRight") $("forward").click();
    if (event.key === "ArrowLeft") $("back").click();
  });
  try {
    sheet = await getJSON(`/api/tables/${encodeURIComponent(code)}/sheet`);
    setWords(sheet.words);
  } catch (error) {
    $("sheet").replaceChildren(el("p", { role: "alert" }, error.message));
    return;
  }
  $("game-title").textContent = `Game ${code}`;
  document.title = `Five Hundred — game ${code}`;
  renderSheet();
  window.addEventListener("hashchange", fromHash);
  fromHash();
}

start();
