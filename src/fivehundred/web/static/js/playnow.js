// The lobby's "Play now" (docs/web-protocol.md#play-now): wait in the server's queue for
// people of the chosen rules near one's rating, the computer players of the chosen level
// filling the seats left once the chosen wait is over; then go to the table. (A ticket the
// page stops asking about is dropped by the server within a minute.)
import { getJSON, postJSON } from "./net.js";

const $ = (id) => document.getElementById(id);
let ticket = null;

function say(text) {
  $("play-now-status").textContent = text;
}

function waiting(on) {
  $("play-now-button").disabled = on;
  $("play-now-cancel").hidden = !on;
}

function seated(answer) {
  localStorage.setItem(`fivehundred:token:${answer.table}`, answer.token);
  say("Found a table: going there…");
  location.assign(answer.url);
}

async function play(event) {
  event.preventDefault();
  const name = $("play-now-name").value.trim() || "Guest";
  localStorage.setItem("fivehundred:name", name);
  waiting(true);
  say("Looking for a table…");
  try {
    let answer = await postJSON("/api/play-now", {
      preset: $("play-now-preset").value,
      level: $("play-now-level").value,
      wait: Number($("play-now-wait").value),
      name,
    });
    ticket = answer.ticket;
    while (answer.status !== "seated") {
      say(
        `Waiting for players: ${answer.waiting} waiting for these rules; ` +
          `computer players in ${Math.ceil(answer.computers_in)} s.`,
      );
      answer = await getJSON(`/api/play-now/${encodeURIComponent(ticket)}?wait=20`);
      if (ticket === null) return; // stopped meanwhile
    }
    ticket = null;
    seated(answer);
  } catch (error) {
    if (ticket !== null) say(error.message);
    ticket = null;
    waiting(false);
  }
}

async function cancel() {
  const leaving = ticket;
  ticket = null;
  waiting(false);
  say("");
  if (leaving) {
    await fetch(`/api/play-now/${encodeURIComponent(leaving)}`, { method: "DELETE" }).catch(
      () => undefined,
    );
  }
}

async function start() {
  $("play-now-name").value = localStorage.getItem("fivehundred:name") || "";
  const [catalogue, session] = await Promise.all([
    getJSON("/api/rules"),
    getJSON("/api/session").catch(() => ({ name: null })),
  ]);
  for (const p of catalogue.presets) {
    const option = document.createElement("option");
    option.value = p.name;
    option.textContent = `${p.label} (${p.players} players)`;
    $("play-now-preset").append(option);
  }
  for (const level of catalogue.levels) {
    const option = document.createElement("option");
    option.value = level.name;
    option.textContent = level.label;
    $("play-now-level").append(option);
  }
  $("play-now-level").value = catalogue.default_level;
  if (session.name) {
    // an account plays under its own name: nothing to type
    $("play-now-name").value = session.name;
    $("play-now-name").closest("label").hidden = true;
    $("play-now-as").textContent = `You play as ${session.name}.`;
  }
  $("play-now-form").addEventListener("submit", play);
  $("play-now-cancel").addEventListener("click", cancel);
}

start();
