// The review on the game page (/g/CODE): for a finished game, one seat's costliest
// choices and accuracy by phase, as the server's review (fivehundred analyse --review)
// computes them in its analysis worker.
import { el, getJSON } from "./net.js";

const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const url = (seat) => `/api/tables/${encodeURIComponent(code)}/review?seat=${seat}`;
let timer = null;

function pct(value) {
  return value === null || value === undefined ? "—" : `${Math.round(value * 100)}%`;
}

function render(box, answer, name) {
  const r = answer.review;
  const counts = r.counts;
  const differing = r.calls.filter((c) => !c.agrees);
  const parts = [
    el("h3", {}, `${name}: accuracy by phase`),
    el(
      "div",
      { class: "review-acc" },
      el(
        "div",
        {},
        "Calls",
        el("strong", {}, pct(r.accuracy.calls)),
        `as the search player, of ${counts.calls}`,
      ),
      el(
        "div",
        {},
        "Discards",
        el("strong", {}, pct(r.accuracy.discards)),
        `best, of ${counts.discards}`,
      ),
      el(
        "div",
        {},
        "Cards",
        el("strong", {}, pct(r.accuracy.cards)),
        `without loss, of ${counts.cards} (${counts.tricks_lost} trick${counts.tricks_lost === 1 ? "" : "s"} lost)`,
      ),
    ),
    el("h3", {}, "Costliest choices"),
    r.costliest_text.length
      ? el(
          "ol",
          { class: "review-costly", id: "review-costly" },
          r.costliest_text.map((t) => el("li", {}, t)),
        )
      : el("p", { id: "review-costly" }, "No card or discard cost a trick against best play."),
    differing.length ? el("h3", {}, "Calls the search player would not make") : null,
    differing.length
      ? el(
          "ul",
          {},
          differing
            .slice(0, 5)
            .map((c) =>
              el(
                "li",
                {},
                `hand ${c.hand}: you called ${c.made_text}; the search player calls ${c.suggested_text}${c.why ? ` (${c.why})` : ""}`,
              ),
            ),
        )
      : null,
  ];
  box.replaceChildren(...parts.filter(Boolean));
}

async function poll(box, seat, name) {
  clearTimeout(timer);
  let answer;
  try {
    answer = await getJSON(url(seat));
  } catch (error) {
    box.textContent = error.message;
    return;
  }
  if (answer.status === "running") {
    box.textContent = "Reviewing every call, discard and card (in the background)…";
    timer = setTimeout(() => poll(box, seat, name), 1500);
  } else if (answer.status === "failed") {
    box.textContent = `The review failed: ${answer.message}`;
  } else {
    render(box, answer, name);
  }
}

async function start() {
  let sheet;
  try {
    sheet = await getJSON(`/api/tables/${encodeURIComponent(code)}/sheet`);
  } catch {
    return; // the game page says why
  }
  if (!sheet.finished || sheet.seats !== (sheet.players || []).length) return;
  const names = sheet.names.slice(0, sheet.players.length); // (as the server names them)
  const select = el(
    "select",
    { id: "review-seat" },
    names.map((n, seat) => el("option", { value: seat }, n)),
  );
  const result = el("div", { id: "review", "aria-live": "polite" });
  const go = el("button", { class: "btn", type: "button", id: "review-go" }, "Review");
  go.addEventListener("click", () =>
    poll(result, Number(select.value), names[Number(select.value)]),
  );
  const panel = el(
    "section",
    { class: "panel review-box", "aria-labelledby": "review-title", id: "review-panel" },
    el("h2", { id: "review-title" }, "Review: where were points lost?"),
    el("div", { class: "learn-row" }, el("label", {}, "Seat", select), go),
    result,
  );
  document.querySelector("main").append(panel);
}

start();
