// The table page (/t/CODE): its socket and the messages it gets, wiring the regions of the
// table drawn by the modules under table/ (state.js: the state and the facts read from it;
// seats.js, trick.js, hand.js, auction.js, controls.js, score.js: the regions;
// announce.js: the live region; chat.js; dialogs.js: the hand's result, joining;
// render.js: the whole table). The lessons and the puzzles draw with the same modules.
import { setWords } from "./cards.js";
import { actionLabel } from "./rules.js";
import { applySettings, el, getJSON, TableSocket } from "./net.js";
import { announce, sinceWords } from "./table/announce.js";
import { addChat, bindChatJump, setupChat } from "./table/chat.js";
import { noteNextTurn, offerRematch, showJoin, showSummary } from "./table/dialogs.js";
import { bindDrop, bindHandKeys, bindSkipToHand, bindTyping, sendQueued } from "./table/hand.js";
import { renderTable } from "./table/render.js";
import { tickTimer } from "./table/seats.js";
import { beep, createTable, me, myTurn } from "./table/state.js";
import { bindLastTrick } from "./table/trick.js";

const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const tokenKey = `fivehundred:token:${code}`;
// the last view this device showed of the table (its seat's): what happened since is listed
// when the table is opened again (a turn-based game is left for days)
const seenKey = `fivehundred:seen:${code}`;
const $ = (id) => document.getElementById(id);

const t = createTable({ code, settings: applySettings() });
const state = t.state;
t.render = () => renderTable(t);
// On a wide screen the bid box sits in the middle of the table.
t.wide = window.matchMedia("(min-width: 901px)");
t.wide.addEventListener("change", () => t.render());

setInterval(() => tickTimer(document), 1000);
$("since-close").addEventListener("click", () => {
  $("since").hidden = true;
});
bindHandKeys(t);
bindSkipToHand(t, document.querySelector(".skip-link"));
bindTyping(t, () => $("summary").open);
bindDrop(t, $("felt"));

// The list of what happened since this device last showed the table at this seat (none
// where nothing did, or where it never showed it).
function lastSeen() {
  try {
    return JSON.parse(localStorage.getItem(seenKey));
  } catch {
    return null;
  }
}

function showSince(seen, message) {
  if (!seen || seen.seat !== message.seat || !(seen.version < message.version)) return;
  let lines = [];
  try {
    lines = sinceWords(t, seen.view, message.view);
  } catch {
    return; // a view kept by an older page: nothing listed rather than no table
  }
  if (!lines.length) return;
  $("since-list").replaceChildren(...lines.map((line) => el("li", {}, line)));
  $("since").hidden = false;
}

function remember(message) {
  try {
    const seen = { version: message.version, seat: message.seat, view: message.view };
    localStorage.setItem(seenKey, JSON.stringify(seen));
  } catch {
    // a full or closed storage: nothing listed next time
  }
}

function onMessage(message) {
  if (message.type === "view") {
    const prev = state.view;
    const seen = prev ? null : lastSeen();
    remember(message);
    state.message = message;
    state.view = message.view;
    const view = state.view;
    if (seen) showSince(seen, message);
    if (
      !prev ||
      prev.phase !== view.phase ||
      (prev.table && prev.table.hand_number !== view.table.hand_number)
    ) {
      state.selected.clear();
      state.jokerChoice = null;
    }
    if (view.trick.length === 0 || (prev && prev.tricks.length !== view.tricks.length))
      state.showLast = false;
    if (prev && (prev.to_move !== view.to_move || prev.phase !== view.phase)) t.toast("");
    t.render();
    announce(t, prev, view);
    if (prev && prev.phase !== view.phase && view.phase === "discard" && myTurn(t)) {
      // Your kitty: the hand, the Discard button and the hint's line in sight (on a small
      // phone they run below the table).
      if ($("toast").getBoundingClientRect().bottom > window.innerHeight)
        $("toast").scrollIntoView({ block: "end" });
    } else if (prev && prev.phase !== view.phase) {
      // A new phase: the table back in sight (on a phone the bid box ran below it).
      const top = $("contract").getBoundingClientRect().top;
      if (top < 0 || top > window.innerHeight / 2) $("contract").scrollIntoView({ block: "start" });
    }
    if (
      myTurn(t) &&
      !(
        prev &&
        prev.to_move === view.to_move &&
        prev.phase === view.phase &&
        prev.seat === view.seat
      )
    )
      beep(t);
    if (state.queue.length) sendQueued(t);
    noteNextTurn(t);
    const result = view.table.hand_result;
    if (result && state.summaryShown !== result.hand) {
      state.summaryShown = result.hand;
      showSummary(t, result);
    }
  } else if (message.type === "error") {
    t.toast(message.message);
    if (state.queue.length) state.queue = [];
  } else if (message.type === "chat") {
    addChat(t, message);
  } else if (message.type === "rematch") {
    // (Only those who ask are seated: a player who has not asked is offered to join.)
    if (message.token) {
      localStorage.setItem(`fivehundred:token:${message.table}`, message.token);
      location.assign(message.url);
    } else if (me(t) !== null) offerRematch(t, message);
    else location.assign(`${message.url}?watch`);
  } else if (message.type === "hint") {
    t.toast(`Hint: ${actionLabel(state.view, message.action)} — ${message.reason}`);
    // (How many hints came, for tests: each new one, even the same words, is seen.)
    state.hints = (state.hints || 0) + 1;
    $("toast").dataset.hints = String(state.hints);
    // (The hint's line in sight: on a phone it is under the hand.)
    const line = $("toast").getBoundingClientRect();
    if (line.bottom > window.innerHeight || line.top < 0)
      $("toast").scrollIntoView({ block: "nearest" });
  }
}

function onStatus(status, reason) {
  const banner = $("banner");
  if (status === "connected") {
    banner.hidden = true;
  } else if (status === "reconnecting") {
    banner.hidden = false;
    banner.textContent = "Connection lost — reconnecting…";
  } else if (status === "refused") {
    banner.hidden = false;
    banner.textContent = `The server refused this connection: ${reason}`;
    if (reason && /token/i.test(reason)) localStorage.removeItem(tokenKey);
  }
}

function connect(token) {
  if (state.socket) state.socket.close();
  state.socket = new TableSocket(code, token, { onMessage, onStatus });
}

async function start() {
  setupChat(t);
  bindChatJump(t);
  $("four-colour").checked = state.settings.four;
  $("sound").checked = state.settings.sound;
  $("four-colour").addEventListener("change", (e) => {
    localStorage.setItem("fivehundred:four-colour", e.target.checked ? "1" : "0");
    state.settings = applySettings();
  });
  $("sound").addEventListener("change", (e) => {
    localStorage.setItem("fivehundred:sound", e.target.checked ? "1" : "0");
    state.settings = applySettings();
  });
  bindLastTrick(t);
  let info;
  try {
    info = await getJSON(`/api/tables/${encodeURIComponent(code)}`);
  } catch (error) {
    $("join").hidden = false;
    $("join").replaceChildren(
      el("p", { role: "alert" }, `No such table: ${error.message}`),
      el("a", { href: "/" }, "Back to the lobby"),
    );
    return;
  }
  state.info = info;
  setWords(info.words);
  document.title = `Five Hundred — ${info.name}`;
  $("table-name").textContent = info.name;
  const token = localStorage.getItem(tokenKey);
  const watch = new URLSearchParams(location.search).has("watch");
  if (token) connect(token);
  else if (watch) connect(null);
  else showJoin(t, info, { connect, tokenKey });
}

start();

// The page installs as an app (manifest, icons); the service worker keeps its own files.
if ("serviceWorker" in navigator && location.protocol !== "file:") {
  navigator.serviceWorker.register("/sw.js").catch(() => undefined);
}
