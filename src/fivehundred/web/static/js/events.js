// The tournaments' pages (/events, /e/ID), drawn by the server: each form posts its
// fields to the API its data-api names, then the page is drawn again (or the new
// tournament's page opens); what went wrong is said in #status.
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
    else if (name === "starts_at") body[name] = new Date(value).getTime() / 1000;
    else body[name] = value;
  }
  return body;
}

for (const form of document.querySelectorAll("form[data-api]")) {
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
