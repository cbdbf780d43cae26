// The Five Hundred score pad in the browser.
//
// This script draws the pad and keeps it in the browser's storage; it never computes a
// score. Every score, total, reason and winner comes from the engine: from the server's
// POST /api/pad/score, or, when the server cannot be reached, from the same Python
// modules run in the page by Brython (see pad.py and docs/pad.md).
"use strict";

const STATE_KEY = "fivehundred-pad/state";
const GAMES_KEY = "fivehundred-pad/games";
const THEME_KEY = "fivehundred-pad/theme";
const MAX_UNDO = 200;
const MAX_GAMES = 100;
const STRAINS = ["S", "C", "D", "H", "NT"];

const S = {
  tab: "pad",
  pad: null, // the pad (fivehundred-pad/1)
  undo: [],
  redo: [], // earlier and undone lists of hands
  share: null, // {id, token} when a live view is shared
  // a club night at real tables this pad joined: {code, table, token, name, version,
  // pending, games}: games are the pads finished at this table since joining; at a
  // progressive night also {round, rounds, progress}: the round of the game in play, of
  // each game in games, and the night's round as the server last said it
  hall: null,
  joinCode: "", // the code of /pad?night=CODE, offered in the join form
  rulesList: null, // the presets and their scoring variants (from the engine)
  info: null, // describe_rules of the pad's rules
  result: null,
  needed: [],
  draft: null, // the hand being entered or corrected
  editing: null, // index of the hand being corrected
  preview: null,
  error: "",
  setup: null, // the setup form
  live: null, // read-only live view: {id, version}
  offline: false,
};

class PadError extends Error {}

// ----------------------------------------------------------------- the engine
let engineLoading = null;

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const el = document.createElement("script");
    el.src = src;
    el.onload = resolve;
    el.onerror = () => reject(new Error("cannot load " + src));
    document.head.appendChild(el);
  });
}

// The engine in the page: Brython, then pad.py, which imports fivehundred.pad.model.
function loadEngine() {
  if (!engineLoading) {
    engineLoading = (async () => {
      await loadScript("/pad/brython/brython.js");
      await loadScript("/pad/brython/stdlib.js");
      await loadScript("/pad/brython/engine.js");
      const source = await (await fetch("/pad/static/pad.py")).text();
      window.__BRYTHON__.runPythonSource(source, "pad_engine");
      for (let i = 0; i < 600 && typeof window.padPy !== "function"; i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      if (typeof window.padPy !== "function") throw new Error("the offline engine did not start");
      return window.padPy;
    })();
    engineLoading.catch(() => {
      engineLoading = null;
    });
  }
  return engineLoading;
}

function setOffline(value) {
  if (S.offline !== value) {
    S.offline = value;
    document.getElementById("status").textContent = value ? "offline: scored on this phone" : "";
  }
}

// One request to the engine: the server first, the page's own copy when offline.
async function api(name, body) {
  const url = "/api/pad/" + name;
  let response;
  try {
    response =
      name === "rules"
        ? await fetch(url)
        : await fetch(url, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          });
  } catch {
    response = null;
  }
  if (response && (response.ok || response.status === 400)) {
    setOffline(false);
    if (name === "csv" && response.ok) return { csv: await response.text() };
    const data = await response.json();
    if (!response.ok) throw new PadError(data.error || "bad request");
    return data;
  }
  setOffline(true);
  const engine = await loadEngine();
  const data = JSON.parse(engine(name, JSON.stringify(body || {})));
  if (data && data.error) throw new PadError(data.error);
  return data;
}

// ----------------------------------------------------------------- storage
function save() {
  if (S.live) return;
  localStorage.setItem(
    STATE_KEY,
    JSON.stringify({ pad: S.pad, undo: S.undo, redo: S.redo, share: S.share, hall: S.hall }),
  );
}

function loadSaved() {
  try {
    const data = JSON.parse(localStorage.getItem(STATE_KEY) || "null");
    if (data && data.pad) {
      S.pad = data.pad;
      S.undo = data.undo || [];
      S.redo = data.redo || [];
      S.share = data.share || null;
      S.hall = data.hall || null;
    }
  } catch {
    /* a damaged entry: start afresh */
  }
}

function games() {
  try {
    return JSON.parse(localStorage.getItem(GAMES_KEY) || "[]");
  } catch {
    return [];
  }
}

function saveGames(list) {
  localStorage.setItem(GAMES_KEY, JSON.stringify(list.slice(0, MAX_GAMES)));
}

// Put the current game in the device's history (replacing its earlier copy).
function archiveCurrent() {
  if (!S.pad || !S.pad.hands.length) return;
  const list = games().filter((g) => g.pad.title !== S.pad.title);
  list.unshift({
    pad: S.pad,
    saved: new Date().toISOString(),
    sides: S.result ? S.result.sides : [],
    totals: S.result ? S.result.totals : [],
    won_by: S.result ? S.result.won_by : "",
  });
  saveGames(list);
}

// ----------------------------------------------------------------- helpers
function esc(text) {
  return String(text).replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c],
  );
}

function suitHtml(label) {
  return esc(label).replace(/[♥♦]/g, (s) => `<span class="red">${s}</span>`);
}

function signed(n) {
  return n > 0 ? "+" + n : n < 0 ? "-" + -n : "0";
}

function toast(text) {
  const el = document.getElementById("toast");
  el.textContent = text;
  el.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => {
    el.hidden = true;
  }, 2500);
}

function playerName(seat) {
  return S.pad.players[seat];
}

function contractInfo(code) {
  return S.info.contracts.find((c) => c.contract === code);
}

// Sides that defend against a contractor (and called partner), as the server says.
function defendingSides(contractor, partner) {
  const key = `${contractor}:${partner === null || partner === undefined ? "" : partner}`;
  return S.info.defenders[key] || [];
}

function blankDraft() {
  return {
    kind: "hand",
    contract: null,
    contractor: null,
    partner: null,
    tricks: null,
    defenders: [],
    revoke: null,
  };
}

// The pad entry a draft stands for, or null while it is incomplete.
function draftEntry(draft) {
  if (draft.kind === "misdeal") return { kind: "misdeal" };
  if (draft.kind === "passed") {
    if (!S.info.allpass_play_nt) return { kind: "passed" };
    if (draft.defenders.length !== S.result.sides.length || draft.defenders.some((t) => t === null))
      return null;
    return { kind: "passed", tricks: draft.defenders.slice() };
  }
  if (draft.contract === null || draft.contractor === null || draft.tricks === null) return null;
  const entry = {
    kind: "hand",
    contract: draft.contract,
    contractor: draft.contractor,
    tricks: draft.tricks,
  };
  if (S.info.called_partner && draft.partner !== null) entry.partner = draft.partner;
  const info = contractInfo(draft.contract);
  const defenders = defendingSides(draft.contractor, entry.partner);
  if (!info.misere && defenders.length > 1) {
    if (draft.defenders.length !== defenders.length || draft.defenders.some((t) => t === null))
      return null;
    entry.defenders = draft.defenders.slice();
  }
  if (draft.revoke) entry.revoke = draft.revoke;
  return entry;
}

function draftFromEntry(entry) {
  const draft = blankDraft();
  draft.kind = entry.kind;
  if (entry.kind === "hand") {
    Object.assign(draft, {
      contract: entry.contract,
      contractor: entry.contractor,
      partner: entry.partner === undefined ? null : entry.partner,
      tricks: entry.tricks,
      defenders: (entry.defenders || []).slice(),
      revoke: entry.revoke || null,
    });
  } else if (entry.kind === "passed" && entry.tricks) {
    draft.defenders = entry.tricks.slice();
  }
  return draft;
}

// ----------------------------------------------------------------- changes
async function rescore() {
  const answer = await api("score", { pad: S.pad });
  S.result = answer.result;
  S.needed = answer.needed;
}

async function loadInfo() {
  S.info = await api("describe", { rules: S.pad.rules });
}

// Apply a new list of hands: the engine scores it first, so a refused change changes nothing.
async function changeHands(hands, message) {
  const trial = Object.assign({}, S.pad, { hands });
  let answer;
  try {
    answer = await api("score", { pad: trial });
  } catch (e) {
    S.error = e.message;
    render();
    return false;
  }
  S.undo.push(S.pad.hands);
  if (S.undo.length > MAX_UNDO) S.undo.shift();
  S.redo = [];
  S.pad = trial;
  S.result = answer.result;
  S.needed = answer.needed;
  S.draft = blankDraft();
  S.editing = null;
  S.preview = null;
  S.error = "";
  previewSeq++;
  if (S.result.winner !== null) archiveCurrent();
  save();
  pushShare();
  hallChanged();
  render();
  if (message) toast(message);
  return true;
}

async function undoRedo(from, to) {
  if (!from.length) return;
  to.push(S.pad.hands);
  S.pad = Object.assign({}, S.pad, { hands: from.pop() });
  S.editing = null;
  S.draft = blankDraft();
  S.preview = null;
  S.error = "";
  await rescore();
  save();
  pushShare();
  hallChanged();
  render();
}

let previewSeq = 0;

// The engine's answer for the hand being entered, before it is added. Taps can come
// faster than answers: only the answer to the latest draft is shown.
async function updatePreview() {
  const seq = ++previewSeq;
  S.preview = null;
  S.error = "";
  const entry = S.draft && draftEntry(S.draft);
  if (entry && S.result) {
    render();
    const hands = S.pad.hands.slice();
    if (S.editing === null) hands.push(entry);
    else hands[S.editing] = entry;
    let preview = null,
      error = "";
    try {
      const answer = await api("score", { pad: Object.assign({}, S.pad, { hands }) });
      const index = S.editing === null ? hands.length - 1 : S.editing;
      preview = { line: answer.result.lines[index], result: answer.result };
    } catch (e) {
      error = e.message;
    }
    if (seq !== previewSeq) return;
    S.preview = preview;
    S.error = error;
  }
  render();
}

function setDraft(changes) {
  Object.assign(S.draft, changes);
  const d = S.draft;
  if (d.kind === "hand" && d.contract && d.contractor !== null) {
    const info = contractInfo(d.contract);
    const defenders = defendingSides(d.contractor, S.info.called_partner ? d.partner : null);
    if (info.misere || defenders.length < 2) d.defenders = [];
    else if (d.defenders.length !== defenders.length) d.defenders = defenders.map(() => null);
  }
  if (
    d.kind === "passed" &&
    S.info.allpass_play_nt &&
    d.defenders.length !== S.result.sides.length
  ) {
    d.defenders = S.result.sides.map(() => null);
  }
  updatePreview();
}

async function submitDraft() {
  const entry = draftEntry(S.draft);
  if (!entry) {
    S.error = "finish the hand first";
    render();
    return;
  }
  const hands = S.pad.hands.slice();
  if (S.editing === null) {
    hands.push(entry);
    // the form was scrolled to its button: bring the new totals back into view
    if (await changeHands(hands, `hand ${hands.length} added`)) window.scrollTo(0, 0);
  } else {
    hands[S.editing] = entry;
    await changeHands(hands, `hand ${S.editing + 1} corrected: totals after it recomputed`);
  }
}

// ----------------------------------------------------------------- live view
async function pushShare() {
  if (!S.share || S.live) return;
  try {
    const r = await fetch("/api/pad/share/" + encodeURIComponent(S.share.id), {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ pad: S.pad, token: S.share.token }),
    });
    if (r.status === 404 || r.status === 403) {
      S.share = null;
      save();
      toast("the live view has ended: share again");
    }
  } catch {
    /* offline: the next change sends it */
  }
}

async function startShare() {
  try {
    const r = await fetch("/api/pad/share", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ pad: S.pad }),
    });
    const data = await r.json();
    if (!r.ok) throw new PadError(data.error);
    S.share = { id: data.id, token: data.token };
    save();
    render();
  } catch (e) {
    toast(e instanceof PadError ? e.message : "sharing needs the server: connect and try again");
  }
}

function shareUrl() {
  return location.origin + "/pad?live=" + encodeURIComponent(S.share.id);
}

async function pollLive() {
  try {
    const r = await fetch("/api/pad/share/" + encodeURIComponent(S.live.id));
    const data = await r.json();
    if (!r.ok) {
      S.error = data.error;
      render();
      return;
    }
    if (data.version !== S.live.version) {
      S.live.version = data.version;
      S.pad = data.pad;
      S.result = data.result;
      S.needed = data.needed;
      if (!S.info) await loadInfo();
      S.error = "";
      render();
    }
    setOffline(false);
  } catch {
    setOffline(true);
  } finally {
    setTimeout(pollLive, 2000);
  }
}

// ----------------------------------------------------------------- club night
// A table of a club night sends the night its whole state (the games finished here since
// joining, then this one) with a version it counts up: the server keeps the highest, so a
// state sent twice, late or out of order is never counted twice. A state not yet taken
// is sent again on the next change, when the phone is back online, and every 15 s.
const HALL_RETRY_MS = 15000;
let hallSending = false;

function hallState() {
  const state = { version: S.hall.version, pads: [...S.hall.games, S.pad] };
  if (S.hall.round) state.rounds = [...(S.hall.rounds || []), S.hall.round];
  return state;
}

// A game finished at the table (a new one starts): kept for the night, with its round.
function hallKeep(pad) {
  if (!S.hall || !pad || !pad.hands.length) return;
  S.hall.games.push(pad);
  if (S.hall.round) S.hall.rounds = [...(S.hall.rounds || []), S.hall.round];
}

// The night's round as the server says it (in every answer to a send, and every 15 s).
function hallProgress(view) {
  if (!S.hall || !view || JSON.stringify(view) === JSON.stringify(S.hall.progress)) return;
  S.hall.progress = view;
  save();
  if (S.tab === "more" || S.tab === "pad") render();
}

async function pollRound() {
  if (!S.hall || !S.hall.progress) return;
  try {
    const r = await fetch(`/api/hall/${encodeURIComponent(S.hall.code)}/round`);
    if (r.ok) hallProgress(await r.json());
  } catch {
    /* offline: asked again in 15 s, and every send's answer says it too */
  }
}

function hallTick() {
  pushHall();
  pollRound();
}

function hallChanged() {
  if (!S.hall) return;
  S.hall.version += 1;
  S.hall.pending = true;
  save();
  pushHall();
}

async function hallAnswer(r) {
  try {
    return await r.json();
  } catch {
    return {};
  }
}

async function pushHall() {
  if (!S.hall || !S.hall.pending || hallSending) return;
  hallSending = true;
  const hall = S.hall;
  const sent = hall.version;
  try {
    const r = await fetch(`/api/hall/${encodeURIComponent(hall.code)}/tables/${hall.table}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(Object.assign({ token: hall.token }, hallState())),
    });
    const data = await hallAnswer(r);
    if (r.ok) {
      if (S.hall === hall && hall.version === sent) hall.pending = false;
      if (S.hall === hall) hallProgress(data.round);
      if (S.hall === hall) hallUnknown(data.unknown);
    } else if ([403, 404, 409].includes(r.status)) {
      S.hall = null;
      toast(`the club night: ${data.detail || "this table has left it"}`);
    } else {
      hall.pending = false; // refused as it is: the next change is sent afresh
      toast(`the club night refused the pad: ${data.detail || r.status}`);
    }
    save();
    if (S.tab === "more") render();
  } catch {
    /* offline: sent again when back online, on the next change, or by the timer */
  } finally {
    hallSending = false;
  }
  if (S.hall && S.hall.pending && S.hall.version !== sent) pushHall();
}

async function joinHall() {
  const code = document.getElementById("hall-code").value.replace(/\s/g, "").toUpperCase();
  const table = Number(document.getElementById("hall-table").value);
  S.joinCode = code;
  try {
    const r = await fetch(`/api/hall/${encodeURIComponent(code)}/tables`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ table, version: 1, pads: [S.pad] }),
    });
    const data = await hallAnswer(r);
    if (!r.ok) {
      const detail = Array.isArray(data.detail)
        ? "a code of 6 letters and a table number"
        : data.detail;
      throw new PadError(detail || "cannot join");
    }
    S.hall = {
      code,
      table,
      token: data.token,
      name: data.name,
      version: data.version,
      pending: false,
      games: [],
      round: data.round ? data.round.round : null,
      rounds: [],
      progress: data.round || null,
      unknown: [],
    };
    if (data.takeover) await takeOver(data.takeover);
    hallUnknown(data.unknown);
    save();
    render();
    toast(`joined ${data.name} as table ${table}${data.takeover ? ": its games are here" : ""}`);
  } catch (e) {
    toast(e instanceof PadError ? e.message : "joining needs the server: connect and try again");
  }
}

// The organiser freed this table (its phone lost): this pad goes on with the table's
// games as the night kept them (its own game in play is set aside in the games list).
async function takeOver(kept) {
  const last = kept.pads[kept.pads.length - 1];
  const rounds = kept.rounds || [];
  const answer = await api("score", { pad: last });
  archiveCurrent();
  S.hall.games = kept.pads.slice(0, -1);
  S.hall.rounds = rounds.slice(0, -1);
  if (rounds.length) S.hall.round = rounds[rounds.length - 1];
  S.pad = last;
  S.result = answer.result;
  S.needed = answer.needed;
  await loadInfo();
  S.undo = [];
  S.redo = [];
  S.draft = blankDraft();
  S.editing = null;
  S.preview = null;
}

// The names at this table that are not the club's members, as the night says: told once
// when they change, and shown under the night in More.
function hallUnknown(names) {
  if (!S.hall || !Array.isArray(names)) return;
  const before = JSON.stringify(S.hall.unknown || []);
  S.hall.unknown = names;
  if (JSON.stringify(names) !== before && names.length) toast(unknownText(names));
}

function unknownText(names) {
  return `Not members of the club: ${names.join(", ")}: check the spelling (a guest plays under any name)`;
}

function hallHtml() {
  const parts = ["<h2>Club night at the tables</h2>"];
  if (S.hall) {
    const h = S.hall;
    const sent = h.pending
      ? "waiting to send: sent when the phone is back online"
      : "every hand sent";
    parts.push(`<p id="hall-joined">Table ${h.table} of ${esc(h.name)} (code ${esc(h.code)})</p>
      <p class="muted" id="hall-sent">${esc(sent)}</p>${roundLine()}
      ${h.unknown && h.unknown.length ? `<p class="warn" id="hall-unknown">${esc(unknownText(h.unknown))}</p>` : ""}
      <div class="grid g2"><a class="button" href="/hall/${encodeURIComponent(h.code)}">Standings</a><button id="hall-leave">Leave the night</button></div>`);
  } else {
    parts.push(`<label class="field">The night's code<input id="hall-code" maxlength="8" autocapitalize="characters" autocomplete="off" value="${esc(S.joinCode)}"></label>
      <label class="field">Table number<input id="hall-table" type="number" min="1" max="60" inputmode="numeric"></label>
      <button id="hall-join">Join a club night</button>`);
  }
  return parts.join("");
}

// A progressive night (docs/pad.md#progressive-nights): the round this table plays, and
// once the night's round is past it, where each of its players sits next and who sits
// here, with the button that starts the next round's game with those names.
function roundLine() {
  const p = S.hall && S.hall.round && S.hall.progress;
  if (!p) return "";
  const length = p.hands ? `${p.hands} hands a round` : `${p.minutes} minutes a round`;
  return `<p id="hall-round">Progressive: round ${S.hall.round} · ${esc(length)}</p>`;
}

function movesHtml() {
  const h = S.hall;
  const p = h && h.round && h.progress;
  if (!p || p.round <= h.round || !p.seating) return "";
  const mine = p.moves.filter((m) => m.from === h.table);
  const items = mine
    .map((m) => {
      const where = m.to === m.from ? `stay at table ${m.to}` : `table ${m.to}`;
      const how = m.won ? "won" : "lost";
      return `<li><strong>${esc(m.name)}</strong> (${how}): ${where}, seat ${m.seat}</li>`;
    })
    .join("");
  const here = (p.seating[String(h.table)] || [])
    .map((name, i) => `<li>Seat ${i + 1}: ${esc(name || "?")}</li>`)
    .join("");
  return `<section class="banner hall-moves" id="hall-moves" aria-labelledby="hall-moves-title">
    <h2 id="hall-moves-title">Round ${h.round} is over: where to sit next</h2>
    <ul>${items}</ul>
    <p>Round ${p.round} at table ${h.table} (partners: seats 1 and 3, seats 2 and 4):</p>
    <ul id="hall-seating">${here}</ul>
    <button class="primary" id="hall-next-round">Start round ${p.round} at this table</button></section>`;
}

async function startRound() {
  const h = S.hall;
  const p = h.progress;
  const names = (p.seating[String(h.table)] || []).map((n, i) => n || `Player ${i + 1}`);
  const pad = {
    format: "fivehundred-pad/1",
    title: new Date().toISOString(),
    rules: S.pad.rules,
    players: names,
    first_dealer: 0,
    hands: [],
  };
  if (!(await beginPad(pad))) return;
  h.round = p.round;
  S.tab = "pad";
  finishBegin();
}

// ----------------------------------------------------------------- drawing
function sidesHtml(result, preview) {
  const totals = preview ? preview.totals : result.totals;
  return `<div class="sides" id="totals">${result.sides
    .map(
      (name, s) => `
    <div class="${result.winner === s ? "won" : ""}" data-side="${s}">
      <div class="name">${esc(name)}</div>
      <div class="total" data-total="${s}">${totals[s]}</div>
      ${preview ? `<div class="${preview.points[s] < 0 ? "neg" : "pos"}">${signed(preview.points[s])}</div>` : ""}
    </div>`,
    )
    .join("")}</div>`;
}

function handTitle(entry) {
  if (entry.kind === "misdeal") return "misdeal";
  if (entry.kind === "passed") return "all passed";
  const info = contractInfo(entry.contract);
  let text = `${info ? info.label : entry.contract} · ${playerName(entry.contractor)}`;
  if (entry.partner !== undefined && entry.partner !== null)
    text += ` + ${playerName(entry.partner)}`;
  text +=
    info && info.misere
      ? entry.tricks === 0
        ? " · made"
        : ` · ${entry.tricks} won`
      : ` · ${entry.tricks} tricks`;
  if (entry.revoke) text += ` · revoke (${entry.revoke})`;
  return text;
}

function historyHtml() {
  const lines = S.result.lines;
  if (!lines.length)
    return `<p class="muted">No hands yet. ${esc(playerName(S.result.dealer))} deals first.</p>`;
  return lines
    .slice()
    .reverse()
    .map((line) => {
      const entry = S.pad.hands[line.index];
      return `<button class="hand ${line.void ? "void" : ""} ${S.editing === line.index ? "editing" : ""}" data-edit="${line.index}">
      <div class="line1"><span>${line.index + 1}. ${suitHtml(handTitle(entry))}</span>
      <span class="nums">${line.totals.join(" · ")}</span></div>
      <ul class="reasons">${line.reasons.map((r) => `<li>${suitHtml(r)}</li>`).join("")}</ul>
      <div class="muted">dealt by ${esc(playerName(line.dealer))} · tap to correct</div>
    </button>`;
    })
    .join("");
}

function pick(attr, value, current, label, extra = "") {
  return `<button data-${attr}="${esc(value)}" aria-pressed="${current === value}" ${extra}>${label}</button>`;
}

function entryHtml() {
  const d = S.draft;
  const parts = [];
  parts.push(
    `<h2>${S.editing === null ? `Hand ${S.pad.hands.length + 1}` : `Correct hand ${S.editing + 1}`}</h2>`,
  );
  parts.push(
    `<div class="grid g3">${pick("kind", "hand", d.kind, "Contract")}${pick("kind", "passed", d.kind, "All passed")}${pick("kind", "misdeal", d.kind, "Misdeal")}</div>`,
  );
  if (d.kind === "hand") {
    const suits = S.info.contracts.filter((c) => !c.misere);
    const miseres = S.info.contracts.filter((c) => c.misere);
    parts.push(
      `<h3>Contract</h3><div class="grid g5" id="contracts">${[6, 7, 8, 9, 10]
        .map((t) =>
          STRAINS.map((s) => {
            const c = suits.find((x) => x.contract === `${t}${s}`);
            return pick(
              "contract",
              c.contract,
              d.contract,
              suitHtml(c.label),
              `title="${c.value}"`,
            );
          }).join(""),
        )
        .join("")}</div>`,
    );
    if (miseres.length)
      parts.push(
        `<div class="grid g3" style="margin-top:6px">${miseres.map((c) => pick("contract", c.contract, d.contract, esc(c.label))).join("")}</div>`,
      );
    parts.push(
      `<h3>Contractor</h3><div class="grid ${S.pad.players.length === 4 ? "g2" : "g3"}" id="contractor">${S.pad.players.map((n, seat) => pick("contractor", String(seat), d.contractor === null ? null : String(d.contractor), esc(n))).join("")}</div>`,
    );
    const info = d.contract && contractInfo(d.contract);
    if (S.info.called_partner && d.contractor !== null && !(info && info.misere)) {
      parts.push(
        `<h3>Called partner</h3><div class="grid g3" id="partner">${pick("partner", "", d.partner === null ? "" : String(d.partner), "alone")}${S.pad.players.map((n, seat) => (seat === d.contractor ? "" : pick("partner", String(seat), d.partner === null ? "" : String(d.partner), esc(n)))).join("")}</div>`,
      );
    }
    if (info && d.contractor !== null) {
      if (info.misere) {
        parts.push(
          `<h3>Misère</h3><div class="grid g2" id="tricks">${pick("tricks", "0", String(d.tricks), "made (no trick)")}${pick("tricks", "1", d.tricks > 0 ? "1" : String(d.tricks), "lost")}</div>`,
        );
        if (S.info.misere_defenders_score && d.tricks > 0) {
          parts.push(
            `<h3>Tricks the contractor took</h3><div class="grid g6">${[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((t) => pick("tricks", String(t), String(d.tricks), String(t))).join("")}</div>`,
          );
        }
      } else {
        const team =
          S.info.called_partner && d.partner !== null
            ? `${playerName(d.contractor)} & ${playerName(d.partner)}`
            : S.result.sides[S.info.side_of_seat[d.contractor]];
        parts.push(
          `<h3>Tricks won by ${esc(team)} (need ${info.tricks})</h3><div class="grid g6" id="tricks">${[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((t) => pick("tricks", String(t), String(d.tricks), String(t))).join("")}</div>`,
        );
        const defenders = defendingSides(d.contractor, S.info.called_partner ? d.partner : null);
        if (defenders.length > 1) {
          defenders.forEach((side, i) => {
            parts.push(
              `<h3>Tricks won by ${esc(S.result.sides[side])}</h3><div class="grid g6" data-defender-row="${i}">${[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((t) => pick(`defender-${i}`, String(t), d.defenders[i] === null || d.defenders[i] === undefined ? null : String(d.defenders[i]), String(t))).join("")}</div>`,
            );
          });
        }
      }
      parts.push(
        `<h3>Revoke</h3><div class="grid g3" id="revoke">${pick("revoke", "", d.revoke || "", "none")}${pick("revoke", "defender", d.revoke || "", "by a defender")}${pick("revoke", "contractor", d.revoke || "", "by the contractor")}</div>`,
      );
    }
  } else if (d.kind === "passed" && S.info.allpass_play_nt) {
    S.result.sides.forEach((name, i) => {
      parts.push(
        `<h3>Tricks won by ${esc(name)}</h3><div class="grid g6" data-defender-row="${i}">${[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((t) => pick(`defender-${i}`, String(t), d.defenders[i] === null || d.defenders[i] === undefined ? null : String(d.defenders[i]), String(t))).join("")}</div>`,
      );
    });
  }
  if (S.preview) {
    parts.push(`<div class="preview" id="preview"><strong>${S.preview.line.points.map((p, s) => `${esc(S.result.sides[s])} ${signed(p)}`).join(" · ")}</strong>
      <ul class="reasons">${S.preview.line.reasons.map((r) => `<li>${suitHtml(r)}</li>`).join("")}</ul>
      ${S.preview.result.winner !== null ? `<div><strong>${esc(S.preview.result.won_by)}</strong></div>` : ""}</div>`);
  }
  if (S.error) parts.push(`<div class="error" id="error">${esc(S.error)}</div>`);
  const ready = draftEntry(d) !== null;
  if (S.editing === null) {
    parts.push(`<button class="primary" id="add" ${ready ? "" : "disabled"}>Add hand</button>`);
  } else {
    parts.push(`<div class="row"><button class="primary" id="add" ${ready ? "" : "disabled"}>Save correction</button></div>
      <div class="row" style="margin-top:6px"><button id="cancel-edit">Cancel</button><button class="danger" id="delete-hand">Delete hand</button></div>`);
  }
  return parts.join("");
}

function padHtml() {
  const r = S.result;
  const parts = [];
  if (S.live) parts.push(`<p class="muted">Live view (read only) · updates by itself</p>`);
  parts.push(movesHtml());
  parts.push(
    sidesHtml(
      r,
      S.preview && S.editing === null
        ? { totals: S.preview.line.totals, points: S.preview.line.points }
        : null,
    ),
  );
  if (r.winner !== null) parts.push(`<div class="banner" id="winner">${esc(r.won_by)}</div>`);
  else
    parts.push(
      `<div class="dealer" id="dealer">Dealer: <strong>${esc(playerName(r.dealer))}</strong> · to ${S.info.target}</div>`,
    );
  if (!S.live) {
    parts.push(
      `<div class="row"><button id="undo" ${S.undo.length ? "" : "disabled"}>↶ Undo</button><button id="redo" ${S.redo.length ? "" : "disabled"}>↷ Redo</button></div>`,
    );
    if (r.winner === null || S.editing !== null) parts.push(entryHtml());
    else
      parts.push(`<button class="primary" id="new-game" style="margin-top:8px">New game</button>`);
  }
  if (S.live && S.error) parts.push(`<div class="error">${esc(S.error)}</div>`);
  parts.push(`<h2>Hands</h2><div id="history">${historyHtml()}</div>`);
  return parts.join("");
}

function tableHtml() {
  const t = S.info.table;
  const parts = [`<h2>Bid values (${esc(t.table.replace("_", " "))})</h2>`];
  parts.push(`<table class="bids" id="bid-table"><tr><th></th>${t.strains.map((s) => `<th>${suitHtml(s)}</th>`).join("")}</tr>
    ${t.rows.map((row) => `<tr><th>${row.tricks}</th>${row.values.map((v) => `<td>${v}</td>`).join("")}</tr>`).join("")}</table>`);
  if (t.misere.length)
    parts.push(`<p>${t.misere.map((m) => `${esc(m.label)} ${m.value}`).join(" · ")}</p>`);
  parts.push(
    `<p class="muted">Slam (all ten tricks): the bid value or 250, whichever is more. Defenders: 10 a trick. Game to ${S.info.target}.</p>`,
  );
  if (S.result && S.result.winner === null) {
    parts.push(`<h2>What do we need to win?</h2><ul id="needed">${S.needed.map((n) => `<li><strong>${esc(n.name)}</strong>: ${n.contract ? `${suitHtml(n.label)} (${n.value}) or a higher bid, made` : "no single contract wins from here"}</li>`).join("")}</ul>
      <p class="muted">The lowest bid that wins the game now if made, from the current totals.</p>`);
  }
  return parts.join("");
}

function gamesHtml() {
  const list = games();
  const parts = ["<h2>Games on this phone</h2>"];
  if (!list.length)
    parts.push(`<p class="muted">None yet: a game goes here when you start a new one.</p>`);
  list.forEach((g, i) => {
    parts.push(`<div class="hand" data-game="${i}"><div class="line1"><span>${esc(g.sides.join(" v "))}</span><span class="nums">${esc(g.totals.join(" · "))}</span></div>
      <div class="muted">${esc(new Date(g.saved).toLocaleString())} · ${g.pad.hands.length} hands${g.won_by ? " · " + esc(g.won_by) : ""}</div>
      <div class="row" style="margin-top:6px"><button data-open-game="${i}">Open</button><button class="danger" data-delete-game="${i}">Delete</button></div></div>`);
  });
  return parts.join("");
}

function moreHtml() {
  const contrast = document.body.classList.contains("contrast");
  const parts = ["<h2>Game</h2>"];
  parts.push(`<div class="grid g2"><button id="export-json">Export JSON</button><button id="export-csv">Export CSV</button>
    <button id="import-json">Import JSON</button><button id="new-game">New game</button></div>
    <input type="file" id="import-file" accept="application/json,.json" hidden>`);
  parts.push("<h2>Live view for the table</h2>");
  if (S.share) {
    parts.push(`<p>Others can follow the pad (read only) at:</p><p class="live-url" id="live-url">${esc(shareUrl())}</p>
      <div class="grid g2"><button id="copy-link">Copy link</button><button id="stop-share">Stop sharing</button></div>`);
  } else {
    parts.push(`<button id="share">Share a live view</button>`);
  }
  parts.push(hallHtml());
  parts.push(
    `<h2>Display</h2><button id="contrast" aria-pressed="${contrast}">High contrast (sunlight)</button>`,
  );
  parts.push(`<h2>Rules</h2><p class="muted">${esc(describeRules())}</p>`);
  return parts.join("");
}

function describeRules() {
  const v = S.pad.rules.variants || {};
  const names = Object.keys(v).map((k) => (v[k] === true ? k : `${k}=${v[k]}`));
  return [S.pad.rules.preset, ...names].join(", ");
}

function setupHtml() {
  const f = S.setup;
  const preset = S.rulesList.presets.find((p) => p.name === f.preset);
  const parts = ["<h2>New game</h2>"];
  parts.push(
    `<label class="field">Players and rules<select id="preset">${S.rulesList.presets.map((p) => `<option value="${esc(p.name)}" ${p.name === f.preset ? "selected" : ""}>${esc(p.label)} (${p.players} players)</option>`).join("")}</select></label>`,
  );
  parts.push(
    `<h3>Names, in seat order round the table${preset.players % 2 === 0 && preset.players > 2 ? " (partners sit opposite)" : ""}</h3>`,
  );
  for (let i = 0; i < preset.players; i++) {
    parts.push(
      `<label class="field"><input data-name="${i}" maxlength="24" value="${esc(f.names[i] || "")}" placeholder="Player ${i + 1}" aria-label="player ${i + 1}"></label>`,
    );
  }
  parts.push(
    `<label class="field">First dealer<select id="first-dealer">${Array.from({ length: preset.players }, (_, i) => `<option value="${i}" ${f.dealer === i ? "selected" : ""}>${esc(f.names[i] || `Player ${i + 1}`)}</option>`).join("")}</select></label>`,
  );
  parts.push("<h3>House rules that change the score</h3>");
  preset.variants.forEach((v) => {
    const value = f.variants[v.name] === undefined ? v.default : f.variants[v.name];
    if (v.kind === "int") {
      parts.push(
        `<label class="field">${esc(v.name.replace(/_/g, " "))}${v.help ? ` <span class="muted">${esc(v.help)}</span>` : ""}<input type="number" step="10" min="10" data-variant="${esc(v.name)}" value="${esc(value)}"></label>`,
      );
    } else {
      parts.push(
        `<label class="check"><input type="checkbox" data-variant="${esc(v.name)}" ${value ? "checked" : ""}><span>${esc(v.name.replace(/_/g, " "))}${v.help ? ` <span class="muted">${esc(v.help)}</span>` : ""}</span></label>`,
      );
    }
  });
  if (S.error) parts.push(`<div class="error" id="error">${esc(S.error)}</div>`);
  parts.push(`<button class="primary" id="start">Start</button>`);
  if (S.pad)
    parts.push(
      `<button id="cancel-setup" style="width:100%;margin-top:6px">Back to the game</button>`,
    );
  return parts.join("");
}

function render() {
  const main = document.getElementById("main");
  document.querySelectorAll("#tabs button").forEach((b) => {
    if (b.dataset.tab === S.tab) b.setAttribute("aria-current", "page");
    else b.removeAttribute("aria-current");
    b.hidden = !!S.live && b.dataset.tab !== "pad" && b.dataset.tab !== "table";
  });
  if (S.setup && !S.live) {
    main.innerHTML = setupHtml();
    return;
  }
  if (!S.pad || !S.result || !S.info) {
    main.innerHTML = `<p class="loading">${esc(S.error || "Loading…")}</p>`;
    return;
  }
  main.innerHTML =
    S.tab === "table"
      ? tableHtml()
      : S.tab === "games"
        ? gamesHtml()
        : S.tab === "more"
          ? moreHtml()
          : padHtml();
}

// ----------------------------------------------------------------- setup and files
function openSetup() {
  const preset = S.pad ? S.pad.rules.preset : "australian";
  S.setup = { preset, names: S.pad ? S.pad.players.slice() : [], dealer: 0, variants: {} };
  if (S.pad) Object.assign(S.setup.variants, S.pad.rules.variants);
  S.error = "";
  S.tab = "pad";
  render();
}

async function startGame() {
  const f = S.setup;
  const preset = S.rulesList.presets.find((p) => p.name === f.preset);
  const names = Array.from(
    { length: preset.players },
    (_, i) => (f.names[i] || "").trim() || `Player ${i + 1}`,
  );
  const variants = {};
  preset.variants.forEach((v) => {
    if (f.variants[v.name] !== undefined && f.variants[v.name] !== v.default)
      variants[v.name] = f.variants[v.name];
  });
  const pad = {
    format: "fivehundred-pad/1",
    title: new Date().toISOString(),
    rules: { preset: f.preset, variants },
    players: names,
    first_dealer: f.dealer,
    hands: [],
  };
  if (!(await beginPad(pad))) return;
  S.setup = null;
  if (S.joinCode && !S.hall) S.tab = "more";
  finishBegin();
}

// A new game in play (the one before kept in the games list and for the night): false,
// with the engine's word on the page, when the engine refuses it.
async function beginPad(pad) {
  try {
    const answer = await api("score", { pad });
    archiveCurrent();
    hallKeep(S.pad);
    S.pad = pad;
    S.result = answer.result;
    S.needed = answer.needed;
    await loadInfo();
  } catch (e) {
    S.error = e.message;
    render();
    return false;
  }
  S.undo = [];
  S.redo = [];
  S.share = null;
  S.error = "";
  S.draft = blankDraft();
  S.editing = null;
  S.preview = null;
  return true;
}

function finishBegin() {
  save();
  hallChanged();
  render();
}

function download(name, type, text) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

async function importText(text) {
  let pad;
  try {
    pad = JSON.parse(text);
  } catch {
    toast("not a JSON file");
    return;
  }
  if (!pad || typeof pad !== "object" || Array.isArray(pad)) {
    toast("not a pad file");
    return;
  }
  try {
    const answer = await api("score", { pad });
    archiveCurrent();
    S.pad = Object.assign({ title: new Date().toISOString(), hands: [] }, pad);
    S.result = answer.result;
    S.needed = answer.needed;
    await loadInfo();
  } catch (e) {
    toast("cannot import: " + e.message);
    return;
  }
  S.undo = [];
  S.redo = [];
  S.share = null;
  S.draft = blankDraft();
  S.editing = null;
  S.preview = null;
  S.tab = "pad";
  save();
  render();
  toast(`imported ${S.pad.hands.length} hands`);
}

async function openPad(pad) {
  const answer = await api("score", { pad });
  S.pad = pad;
  S.result = answer.result;
  S.needed = answer.needed;
  await loadInfo();
  S.undo = [];
  S.redo = [];
  S.share = null;
  S.draft = blankDraft();
  S.editing = null;
  S.preview = null;
  S.tab = "pad";
  save();
  render();
}

// ----------------------------------------------------------------- events
document.addEventListener("click", async (event) => {
  const b = event.target.closest("button");
  if (!b || b.disabled) return;
  const ds = b.dataset;
  if (ds.tab) {
    S.tab = ds.tab;
    S.setup = null;
    render();
    window.scrollTo(0, 0);
    return;
  }
  if (ds.kind) {
    S.draft = Object.assign(blankDraft(), { kind: ds.kind });
    setDraft({});
    return;
  }
  if (ds.contract !== undefined) {
    const info = contractInfo(ds.contract);
    const changes = { contract: ds.contract };
    if (info.misere) {
      changes.partner = null;
      if (S.draft.tricks !== null && S.draft.tricks > 10) changes.tricks = null;
    }
    setDraft(changes);
    return;
  }
  if (ds.contractor !== undefined) {
    setDraft({ contractor: Number(ds.contractor), partner: null });
    return;
  }
  if (ds.partner !== undefined) {
    setDraft({ partner: ds.partner === "" ? null : Number(ds.partner) });
    return;
  }
  if (ds.tricks !== undefined) {
    setDraft({ tricks: Number(ds.tricks) });
    return;
  }
  if (ds.revoke !== undefined) {
    setDraft({ revoke: ds.revoke || null });
    return;
  }
  for (const key of Object.keys(ds)) {
    if (!key.startsWith("defender-")) continue;
    const index = Number(key.slice("defender-".length));
    const defenders = S.draft.defenders.slice();
    defenders[index] = Number(ds[key]);
    // Two defending sides: the second's tricks follow from the first's.
    const rest = 10 - (S.draft.tricks || 0) - defenders[0];
    if (
      S.draft.kind === "hand" &&
      index === 0 &&
      defenders.length === 2 &&
      S.draft.tricks !== null &&
      rest >= 0
    )
      defenders[1] = rest;
    setDraft({ defenders });
    return;
  }
  if (ds.edit !== undefined && !S.live) {
    const index = Number(ds.edit);
    S.editing = index;
    S.draft = draftFromEntry(S.pad.hands[index]);
    await updatePreview();
    window.scrollTo(0, 0);
    return;
  }
  if (ds.openGame !== undefined) {
    const list = games();
    const g = list[Number(ds.openGame)];
    archiveCurrent();
    await openPad(g.pad);
    return;
  }
  if (ds.deleteGame !== undefined) {
    const list = games();
    list.splice(Number(ds.deleteGame), 1);
    saveGames(list);
    render();
    return;
  }
  switch (b.id) {
    case "add":
      await submitDraft();
      break;
    case "cancel-edit":
      S.editing = null;
      S.draft = blankDraft();
      S.preview = null;
      S.error = "";
      render();
      break;
    case "delete-hand": {
      const hands = S.pad.hands.slice();
      const index = S.editing;
      hands.splice(index, 1);
      await changeHands(hands, `hand ${index + 1} deleted`);
      break;
    }
    case "undo":
      await undoRedo(S.undo, S.redo);
      break;
    case "redo":
      await undoRedo(S.redo, S.undo);
      break;
    case "new-game":
      openSetup();
      break;
    case "start":
      await startGame();
      break;
    case "cancel-setup":
      S.setup = null;
      render();
      break;
    case "export-json":
      download("pad.json", "application/json", JSON.stringify(S.pad, null, 1));
      break;
    case "export-csv": {
      try {
        download("pad.csv", "text/csv", (await api("csv", { pad: S.pad })).csv);
      } catch (e) {
        toast(e.message);
      }
      break;
    }
    case "import-json":
      document.getElementById("import-file").click();
      break;
    case "share":
      await startShare();
      break;
    case "hall-join":
      await joinHall();
      break;
    case "hall-next-round":
      await startRound();
      break;
    case "hall-leave":
      S.hall = null;
      save();
      render();
      break;
    case "stop-share":
      S.share = null;
      save();
      render();
      break;
    case "copy-link":
      try {
        await navigator.clipboard.writeText(shareUrl());
        toast("link copied");
      } catch {
        toast(shareUrl());
      }
      break;
    case "contrast": {
      const on = !document.body.classList.contains("contrast");
      document.body.classList.toggle("contrast", on);
      localStorage.setItem(THEME_KEY, on ? "contrast" : "normal");
      render();
      break;
    }
    default:
      break;
  }
});

document.addEventListener("change", async (event) => {
  const el = event.target;
  if (el.id === "import-file" && el.files.length) {
    await importText(await el.files[0].text());
    el.value = "";
    return;
  }
  if (!S.setup) return;
  if (el.id === "preset") {
    S.setup.preset = el.value;
    S.setup.variants = {};
    S.setup.dealer = 0;
    render();
  } else if (el.id === "first-dealer") S.setup.dealer = Number(el.value);
  else if (el.dataset.variant)
    S.setup.variants[el.dataset.variant] = el.type === "checkbox" ? el.checked : Number(el.value);
});

document.addEventListener("input", (event) => {
  const el = event.target;
  if (S.setup && el.dataset.name !== undefined) S.setup.names[Number(el.dataset.name)] = el.value;
});

// ----------------------------------------------------------------- start
async function start() {
  if (localStorage.getItem(THEME_KEY) === "contrast") document.body.classList.add("contrast");
  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/pad/sw.js", { scope: "/pad" }).catch(() => {});
  }
  const query = new URLSearchParams(location.search);
  S.joinCode = (query.get("night") || "").slice(0, 8);
  if (S.joinCode) S.tab = "more";
  window.addEventListener("online", hallTick);
  setInterval(hallTick, HALL_RETRY_MS);
  const live = query.get("live");
  if (live) {
    S.live = { id: live, version: null };
    render();
    pollLive();
    return;
  }
  try {
    S.rulesList = await api("rules", {});
    loadSaved();
    if (S.pad) {
      await rescore();
      await loadInfo();
      S.draft = blankDraft();
    } else {
      openSetup();
      return;
    }
  } catch (e) {
    S.error = "cannot start: " + e.message;
  }
  render();
}

start();
