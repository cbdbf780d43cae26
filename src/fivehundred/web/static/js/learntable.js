// The lessons and the puzzles draw their position with the table page's own parts (its seat
// boxes, hand, bid box, trick, prompt and controls: js/table/), so that a learner learns the
// very table they will play at. The learn endpoints describe a position ("position": the
// seats with their names and cards, the trick, the auction, the legal actions in record
// notation); tableView turns it into the table's view, and a move made at the table (a card
// tapped, a bid pressed) goes to the page's `onAction` instead of a socket. Nothing is
// decided here: what may be played is the server's "legal" list, a refusal is the engine's.
import { cardSymbol, playedCard, setWords, suitSymbol } from "./cards.js";
import { el } from "./net.js";
import { renderAuction } from "./table/auction.js";
import { renderControls } from "./table/controls.js";
import { bindHandKeys, bindTyping, renderHand } from "./table/hand.js";
import { renderSeats } from "./table/seats.js";
import { createTable } from "./table/state.js";
import { bindLastTrick, renderTrick } from "./table/trick.js";

const BID = /^(\d{1,2})(S|C|D|H|NT)$/;

// A card or a joker lead in symbols ("J♥", "JK as ♠"), for the lines of a solution.
export function cardText(action) {
  const p = playedCard(action);
  return p.as ? `${cardSymbol(p.card)} as ${suitSymbol(p.as) || p.as}` : cardSymbol(p.card);
}

// The table's view of a learn position. `prompt`: what the table says at your turn.
export function tableView(pos, { prompt = "", hint = false } = {}) {
  const seats = pos.seats || [];
  const you = pos.you === undefined || pos.you === null ? 0 : pos.you;
  const seatOf = (name) => seats.findIndex((s) => s.name === name);
  const mine = seats.find((s) => s.seat === you) || {};
  const legal = pos.legal || [];
  const labels = pos.legal_labels || [];
  // Each card in words for a screen reader (the server's "labels" where it sends them: the
  // bowers named); otherwise the pack's names (cards.js).
  const cardWords = {};
  for (const seat of seats)
    (seat.labels || []).forEach((label, i) => {
      if (seat.cards) cardWords[seat.cards[i]] = label;
    });
  const exposed = {};
  for (const seat of seats)
    if (seat.cards && seat.seat !== you && seat.cards.length) exposed[seat.seat] = seat.cards;
  // The other calls these rules have that are legal now (misère, open misère …): a button
  // each in the bid box, named as the server names them.
  const calls = legal.filter((a) => a !== "pass" && !BID.test(a) && !playedCard(a).as);
  const legalLabels = {};
  legal.forEach((a, i) => {
    if (labels[i]) legalLabels[a] = labels[i];
  });
  const played = pos.played || [];
  const last = played.length ? played[played.length - 1] : null;
  const auction = pos.auction || [];
  return {
    phase: pos.phase,
    seat: you,
    to_move: pos.to_move === null || pos.to_move === undefined ? -1 : pos.to_move,
    hand: mine.cards || [],
    hand_sizes: seats.map((s) =>
      s.cards ? s.cards.length : s.hidden !== undefined ? s.hidden : 0,
    ),
    players: seats.length,
    sides: seats.map((s) => s.seat),
    scores: [],
    // (The seat boxes say cards left; the tricks by side are in the strip above the table.)
    contract: null,
    contract_label: pos.contract || "",
    contractor: pos.contractor ? seatOf(pos.contractor) : null,
    trick: (pos.trick || []).map((p) => [p.seat, p.card]),
    tricks: played.map((trick) => trick.plays.map((p) => [p.seat, p.card])),
    trick_winners: played.map((trick) => trick.winner),
    auction: auction.map((a) => a.call),
    auction_labels: auction.map((a) => a.call),
    legal,
    legal_labels: legalLabels,
    card_words: cardWords,
    exposed,
    prompt,
    discards_left:
      pos.phase === "discard" ? (mine.cards || []).length - (pos.tricks_left || 10) : 0,
    table: {
      you,
      names: seats.map((s) => s.name),
      seats: seats.map((s) => ({ kind: s.seat === you ? "person" : "computer", connected: true })),
      controllers: seats.map((s) => (s.sits_out ? null : s.seat)),
      auction_seats: auction.map((a) => seatOf(a.name)),
      auction_order: [],
      calls,
      call_labels: calls.map((c) => legalLabels[c] || c.replaceAll("_", " ")),
      hints: hint,
      hand_number: 1,
      last_trick: last
        ? {
            plays: last.plays.map((p) => [p.seat, p.card]),
            winner: last.winner,
            words: cardWords,
          }
        : null,
    },
  };
}

// The table of a learn page: its boxes by id in the document (learn.html, puzzles.html);
// `onAction(action)` is called with each move made at it, `onHint()` with the Hint button.
export function createLearnTable({ onAction, onHint = () => undefined }) {
  let version = 0;
  const t = createTable({
    send(message) {
      if (message.type === "action") onAction(message.action);
      else if (message.type === "hint") onHint();
      return true;
    },
  });
  t.render = () => drawTable(t);
  t.wide = window.matchMedia("(min-width: 901px)");
  t.wide.addEventListener("change", () => t.render());
  t.show = (pos, options = {}) => {
    setWords(pos.words);
    version += 1;
    t.state.message = { version };
    const view = tableView(pos, options);
    const prev = t.state.view;
    if (!prev || prev.phase !== view.phase) t.state.selected.clear();
    t.state.jokerChoice = null;
    t.state.view = view;
    // The trick your card completed stays in sight (as the last trick) until the next move.
    t.state.showLast = Boolean(options.showLast && view.table.last_trick);
    t.pos = pos;
    t.render();
  };
  bindHandKeys(t);
  bindTyping(t, () => !t.state.view || t.$("learn-table").hidden);
  bindLastTrick(t);
  return t;
}

// The strip above the table: the contract and the tricks by side, or the auction so far.
function drawFacts(t) {
  const pos = t.pos;
  const box = t.$("contract");
  const item = (cls, ...children) => el("div", { class: `fact ${cls}` }, ...children);
  const out = [];
  if (pos.contract) {
    let who = pos.contractor;
    if (pos.partners && pos.partners.length) who += ` (partner ${pos.partners.join(" and ")})`;
    // (On a phone the contractor's seat box says whose: ★ and "contract".)
    out.push(
      item("contract", el("strong", {}, pos.contract), el("span", { class: "by" }, ` by ${who}`)),
    );
    out.push(
      item("tricks", `Tricks: ${pos.tricks.map((x) => `${x.side} ${x.won}`).join(", ")}`),
      item("to-play", `${pos.tricks_left} to play`),
    );
  } else if (pos.phase === "auction") out.push(item("contract", el("strong", {}, "Bidding")));
  box.replaceChildren(...out);
}

function drawTable(t) {
  if (!t.state.view) return;
  drawFacts(t);
  renderSeats(t);
  renderTrick(t);
  renderControls(t);
  renderHand(t);
  renderAuction(t);
  const view = t.state.view;
  // Whose lead, when the trick is empty: said in the middle of the table.
  const note = t.$("centre-note");
  const leader = view.to_move >= 0 && view.phase === "play" && !view.trick.length;
  note.hidden = !leader || view.to_move === view.seat;
  note.textContent = note.hidden ? "" : `${view.table.names[view.to_move]} to lead.`;
}

// What the table said (the lesson's or the puzzle's reply) into `box`; a refusal marked.
export function said(box, lines, cls = "") {
  box.replaceChildren(
    ...lines.map((line) => {
      let c = cls;
      if (
        line.startsWith("The table refuses") ||
        line.startsWith("You do not") ||
        line.startsWith("You must") ||
        line.startsWith("That is legal, but")
      )
        c = "refused";
      return el("p", { class: c }, line);
    }),
  );
}

// The reply and the trick in view where the tap was (on a phone the page would otherwise
// leave them above or below the screen): the smallest scroll that shows all of `nodes`;
// where they do not fit together, the last of them (the way on: the lesson's end) and as
// many before it as fit.
export function keepInView(nodes) {
  const room = window.innerHeight;
  const rects = nodes
    .filter((n) => n && !n.hidden && n.getClientRects().length)
    .map((n) => n.getBoundingClientRect())
    .filter((r) => r.height > 0);
  const span = () => Math.max(...rects.map((r) => r.bottom)) - Math.min(...rects.map((r) => r.top));
  while (rects.length > 1 && span() > room) rects.shift();
  if (!rects.length) return;
  const top = Math.min(...rects.map((r) => r.top));
  const bottom = Math.max(...rects.map((r) => r.bottom));
  if (top >= 0 && bottom <= room) return;
  if (bottom - top > room) window.scrollBy(0, rects[0].top - 8);
  else if (top < 0) window.scrollBy(0, top - 8);
  else window.scrollBy(0, bottom - room + 8);
}
