// The tournaments' pages (/events, /e/ID), drawn by the server: each form posts its
// fields to the API its data-api names, then the page is drawn again (or the new
// tournament's page opens); what went wrong is said in #status. A page whose body has
// data-refresh (an event or a night in play) redraws its <main> every that many seconds
// from the server's page, in place (never while a field in it has the focus).
import { send } from "./net.js";

const NUMBERS = new Set([
  "rounds",
  "target",
  "grace",
  "max_pairs",
  "turn_timer",
  "weeks",
  "division_size",
  "per_week",
  "moves",
  "follows",
  "per_round",
]);

function fields(form) {
  const body = {};
  for (const [name, value] of new FormData(form)) {
    if (value === "") continue;
    if (name === "first_to_target") body.variants = { win_1904: true };
    else if (NUMBERS.has(name)) body[name] = Number(value);
    // a turn-based event's clocks, asked in hours and days, sent in seconds
    else if (name === "move_clock_hours") body.move_clock = Number(value) * 3600;
    else if (name === "round_days") body.round_time = Number(value) * 86400;
    else if (name === "starts_at") body[name] = new Date(value).getTime() / 1000;
    else body[name] = value;
  }
  return body;
}

function bind(root) {
  for (const form of root.querySelectorAll("form[data-api]")) bindForm(form);
}

function bindForm(form) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const status = document.getElementById("status");
    status.textContent = "";
    try {
      const answer = await send("POST", form.dataset.api, fields(form));
      if (answer.url) location.assign(answer.url);
      else location.reload();
    } catch (error) {
      status.textContent = error.message;
    }
  });
}

async function redraw() {
  const main = document.querySelector("main");
  const focused = document.activeElement;
  if (main.contains(focused) && focused.matches("input, select, textarea")) return true;
  const answer = await fetch(location.href, { headers: { Accept: "text/html" } });
  if (!answer.ok) return true;
  const fresh = new DOMParser().parseFromString(await answer.text(), "text/html");
  const next = fresh.querySelector("main");
  if (!next) return true;
  const said = document.getElementById("status").textContent;
  // the focus stays on the same link (or the same element by its id) where it was in main
  const href = main.contains(focused) ? focused.getAttribute("href") : null;
  const id = main.contains(focused) ? focused.id : "";
  main.replaceChildren(...next.childNodes);
  document.getElementById("status").textContent = said;
  const again = id
    ? document.getElementById(id)
    : href
      ? main.querySelector(`[href="${CSS.escape(href)}"]`)
      : null;
  if (again) again.focus();
  document.title = fresh.title;
  bind(main);
  return fresh.body.dataset.refresh !== undefined;
}

function every(seconds) {
  setTimeout(async () => {
    let again = true;
    try {
      again = await redraw();
    } catch {
      again = true;
    }
    if (again) every(seconds);
  }, seconds * 1000);
}

bind(document);
const refresh = Number(document.body.dataset.refresh);
if (refresh > 0) every(refresh);
