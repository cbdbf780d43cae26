// The table page (/t/CODE): seats, the hand, bidding, the kitty, play, chat, hand summaries.
import {
  cardElement,
  cardName,
  cardSymbol,
  playedCard,
  setWords,
  suitIcon,
  suitSymbol,
  suitName,
} from "./cards.js";
import { actionLabel, cardWords, isLegalCard, jokerLeadSuits, refusalReason } from "./rules.js";
import { applySettings, el, getJSON, postJSON, TableSocket } from "./net.js";

const code = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const tokenKey = `fivehundred:token:${code}`;
const $ = (id) => document.getElementById(id);

const state = {
  info: null, // GET /api/tables/CODE
  message: null, // the last view message
  view: null,
  socket: null,
  selected: new Set(), // discards chosen
  queue: [], // discards confirmed, sent one by one
  jokerChoice: null, // a free joker picked to lead: choose its suit
  showLast: false,
  lastTrickShown: "",
  summaryShown: -1,
  seenTrick: [],
  focusCard: null,
  kittyMark: null,
  bidLevel: 6, // the level the bid box offers (the lowest legal one at each turn)
  bidTurn: "",
  typed: "", // a card or bid being typed ("10h", "jk", "6s")
  announced: null, // the view the live region last spoke about
  settings: applySettings(),
};

// ------------------------------------------------------------------ helpers
function seatCount(view) {
  return view.hand_sizes.length;
}

function me() {
  const t = state.view && state.view.table;
  return t && t.you !== null && t.you !== undefined ? t.you : null;
}

// After the game, a player may start the same table again (the server then sends every
// connection a "rematch" message with the new table, and each player their new token).
function rematchButton(id) {
  return el(
    "button",
    {
      class: "btn",
      type: "button",
      id,
      onclick: () => {
        if (!state.socket || !state.socket.send({ type: "rematch" }))
          toast("Not connected: try again in a moment.");
      },
    },
    "Rematch",
  );
}

function seatName(seat) {
  const view = state.view;
  const seats = (view && view.table && view.table.seats) || (state.info && state.info.seats) || [];
  // Every seat's name as the server says it ("names"), the seats that are no player's
  // included (a dummy, the stock, the dead hand: R-PLAYERS).
  const names =
    (view && view.table && view.table.names) || displayNames(seats.map((s) => s.name || s.kind));
  if (seat >= seats.length) return names[seat] || `Seat ${seat + 1}`;
  const info = seats[seat];
  if (!info) return `Seat ${seat + 1}`;
  if (info.kind === "open") return `(open seat ${seat + 1})`;
  return names[seat] || `Seat ${seat + 1}`;
}

// One name per seat, as the server says ("names") and the score sheet shows: the seat's
// number is added where two seats share a name ("medium 2", "medium 4").
function displayNames(names) {
  return names.map((name, seat) =>
    names.filter((n) => n === name).length > 1 ? `${name} ${seat + 1}` : name,
  );
}

// The player who decides for a seat (a two-handed dummy: its owner), or null for a seat
// that is nobody's (the stock, a dead hand): as the server says.
function controllerOf(seat) {
  const controllers = state.view.table.controllers || [];
  const c = controllers[seat];
  return c === undefined ? seat : c;
}

function isMySeat(seat) {
  const you = me();
  return you !== null && controllerOf(seat) === you;
}

// A side named by its players, as the server says it.
function sideName(side) {
  const names = (state.view.table && state.view.table.side_names) || [];
  return names[side] || `Side ${side + 1}`;
}

function toast(text) {
  $("toast").textContent = text;
}

function beep() {
  if (!state.settings.sound) return;
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.value = 0.05;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.12);
  } catch {
    /* no sound here */
  }
}

function send(message) {
  if (!state.socket || !state.socket.send(message))
    toast("Not connected — your move is not sent; reconnecting…");
}

function act(action) {
  if (!state.message) return;
  state.jokerChoice = null;
  send({ type: "action", action, version: state.message.version });
}

// ------------------------------------------------------------------ seats around the table
// Where a seat sits around the table, seen from `you` (at the bottom): "bottom", "left",
// "right" or "top" (several seats share the top row), and its order there.
function seatPosition(seat, n, you) {
  const k = (seat - (you === null ? 0 : you) + n) % n;
  if (k === 0) return { area: "bottom", order: 0, dx: 0, dy: 1 };
  if (n >= 4 && k === 1) return { area: "left", order: 0, dx: -1, dy: 0 };
  if (n >= 4 && k === n - 1) return { area: "right", order: 0, dx: 1, dy: 0 };
  return { area: "top", order: k, dx: 0, dy: -1 };
}

function renderSeats() {
  const view = state.view;
  const n = seatCount(view);
  const you = me();
  const box = $("seats");
  box.replaceChildren();
  const areas = {};
  for (const area of ["top", "left", "right", "bottom"]) {
    areas[area] = el("div", { class: `seat-area seat-area-${area}` });
    box.append(areas[area]);
  }
  $("felt").dataset.seats = String(n);
  const infos = view.table.seats || [];
  for (let seat = 0; seat < n; seat++) {
    const pos = seatPosition(seat, n, you === null ? 0 : you);
    const controller = controllerOf(seat);
    const info = controller === null ? { kind: "out" } : infos[controller] || {};
    const away = info.kind === "person" && !info.connected;
    const facts = [];
    if (scoresOnSeats(view) && seat < view.players && view.scores && view.scores.length)
      facts.push(`${view.scores[view.sides[seat]]} pts`);
    if (view.contract)
      facts.push(`${view.tricks_won[seat]} trick${view.tricks_won[seat] === 1 ? "" : "s"}`);
    if (view.hand_sizes[seat] !== undefined)
      facts.push(`${view.hand_sizes[seat]} card${view.hand_sizes[seat] === 1 ? "" : "s"}`);
    const status =
      info.kind === "computer"
        ? "computer"
        : info.kind === "person"
          ? away
            ? info.stand_in
              ? "away, computer playing"
              : "away"
            : ""
          : info.kind === "out"
            ? "out of play"
            : seat >= view.players
              ? "dummy"
              : "open seat";
    const roles = [];
    if (view.dealer === seat) roles.push("dealer");
    if (view.contractor === seat) roles.push("contractor");
    if (view.to_move === seat && view.phase !== "done")
      roles.push(view.phase === "auction" ? "to bid" : "to play");
    const node = el(
      "div",
      {
        class: `seat${view.to_move === seat && view.phase !== "done" ? " to-move" : ""}${isMySeat(seat) ? " mine" : ""}${view.contractor === seat ? " contractor" : ""}`,
        style: `order:${pos.order}`,
        "data-seat": seat,
        role: "group",
        "aria-label": [seatName(seat), ...roles].join(", "),
      },
      el("div", { class: "name" }, seatName(seat)),
      status || view.dealer === seat
        ? el(
            "div",
            { class: info.kind === "person" ? "status away" : "status" },
            status,
            view.dealer === seat
              ? el("span", { class: "dealer", title: "dealer", "aria-hidden": "true" }, "D")
              : null,
          )
        : null,
      el(
        "div",
        { class: "facts" },
        // (Each fact whole on its line: "0 tricks", not "0 / tricks".)
        facts.map((fact, i) => [i ? " · " : "", el("span", { class: "nowrap" }, fact)]),
        view.contractor === seat ? el("span", { class: "role" }, " · contract") : "",
      ),
    );
    if (view.to_move === seat && view.table.turn_deadline) {
      node.append(el("div", { class: "timer", "data-deadline": view.table.turn_deadline }, ""));
    }
    areas[pos.area].append(node);
  }
  // Cards lying face up (the open misère hand after the first trick, the dummies): a strip
  // under the table, readable on a phone too.
  const strip = $("exposed");
  strip.replaceChildren();
  const own = ownHandWhileDummyMoves(view);
  if (own) {
    strip.append(
      el(
        "div",
        { class: "exposed-hand own-hand", id: "own-hand", "aria-label": "your own hand" },
        el("strong", {}, "Your hand: "),
        el(
          "div",
          { class: "mini-hand" },
          own.map((c) => cardElement(c)),
        ),
      ),
    );
  }
  for (const [seat, cards] of Object.entries(view.exposed || {})) {
    // The cards in the hand row are not repeated; a dummy's face-up cards show while its
    // owner plays from their own hand.
    if (
      !cards.length ||
      Number(seat) === view.seat ||
      (isMySeat(Number(seat)) && Number(seat) < view.players)
    )
      continue;
    strip.append(
      el(
        "div",
        { class: "exposed-hand", "aria-label": `${seatName(Number(seat))}'s cards, face up` },
        el(
          "strong",
          {},
          /dummy$/.test(seatName(Number(seat)))
            ? `${seatName(Number(seat))}, face up: `
            : `${seatName(Number(seat))}: `,
        ),
        el(
          "div",
          { class: "mini-hand" },
          cards.map((c) => cardElement(c)),
        ),
      ),
    );
  }
  strip.hidden = !strip.children.length;
  tickTimer();
}

function tickTimer() {
  for (const node of document.querySelectorAll(".timer[data-deadline]")) {
    const left = Math.max(0, Math.round(Number(node.dataset.deadline) - Date.now() / 1000));
    node.textContent = `⏱ ${left}s`;
  }
}
setInterval(tickTimer, 1000);

// ------------------------------------------------------------------ the trick
function renderTrick() {
  const view = state.view;
  const box = $("trick");
  const n = seatCount(view);
  const you = me();
  let plays = view.trick;
  let label = "the trick";
  const last = view.table.last_trick;
  if (state.showLast && last) {
    plays = last.plays;
    label = `the last trick, won by ${seatName(last.winner)}`;
  } else if (plays.length === 0 && last && view.phase === "play" && view.tricks.length) {
    // Between tricks: leave the trick just won on the table until the next lead.
    plays = [];
  }
  box.setAttribute("aria-label", label);
  const seen = state.seenTrick;
  box.replaceChildren();
  for (const [seat, action] of plays) {
    const { card, as } = playedCard(action);
    const pos = seatPosition(seat, n, you === null ? 0 : you);
    const node = cardElement(card, {
      label: `${seatName(seat)}: ${cardWords(card, view)}${as ? ` led as ${suitName(as)}` : ""}`,
    });
    node.style.setProperty("--dx", `${pos.dx * 60}px`);
    node.style.setProperty("--dy", `${pos.dy * 60}px`);
    if (as) node.append(el("span", { class: "tag" }, `as ${suitSymbol(as)}`));
    if (!state.showLast && !seen.some(([s, a]) => s === seat && a === action))
      node.classList.add("arrive");
    box.append(
      el(
        "figure",
        { class: "played", "data-seat": seat },
        node,
        el("figcaption", { "aria-hidden": "true" }, seatName(seat)),
      ),
    );
  }
  if (!state.showLast) state.seenTrick = plays.slice();
  $("last-trick").hidden = !last;
  $("last-trick").setAttribute("aria-pressed", String(state.showLast));
  $("last-trick").textContent = state.showLast ? "Back to the trick" : "Last trick";
}

// ------------------------------------------------------------------ the contract and scores
function renderContract() {
  const view = state.view;
  const box = $("contract");
  box.replaceChildren();
  const item = (cls, ...children) => el("div", { class: `fact ${cls}` }, ...children);
  if (view.contract) {
    box.append(
      item(
        "contract",
        el("strong", {}, view.contract_label),
        // (On a phone the contractor's seat box says whose: ★ and "contract".)
        el("span", { class: "by" }, ` by ${seatName(view.contractor)}`),
      ),
    );
    const trump = view.trump; // (from the server: null in no trumps and the misères)
    if (trump)
      box.append(
        item(
          "trump",
          "Trumps ",
          el("span", { html: suitIcon(trump), role: "img", "aria-label": suitName(trump) }),
        ),
      );
    if (!trump) {
      const suits = view.joker_suits || [];
      suits.forEach((suit, higher) => {
        if (!suit) return;
        const name = higher ? "Higher joker" : suits[1] ? "Lower joker" : "Joker";
        box.append(
          item(
            "joker",
            `${name} as `,
            el("span", { html: suitIcon(suit), role: "img", "aria-label": suitName(suit) }),
          ),
        );
      });
    }
    if (view.called_card) box.append(item("called", `Called ${cardSymbol(view.called_card)}`));
    const sides = {};
    view.sides.forEach((side, seat) => {
      sides[side] = (sides[side] || 0) + view.tricks_won[seat];
    });
    const you = me();
    const entries = Object.entries(sides);
    if (you !== null && entries.length === 2) {
      const mine = view.sides[you];
      box.append(item("tricks", `Tricks: yours ${sides[mine]} · theirs ${sides[1 - mine]}`));
    } else {
      // Three or more sides, or watching: each seat's tricks are on its seat box; here the
      // contract's side against the others (the strip stays within two rows on a phone).
      const side = view.sides[view.contractor];
      const others = entries.reduce((sum, [s, t]) => sum + (Number(s) === side ? 0 : t), 0);
      const who = you !== null && view.sides[you] === side ? "yours" : "contract";
      box.append(item("tricks", `Tricks: ${who} ${sides[side]} · others ${others}`));
    }
  } else if (view.phase === "auction") {
    box.append(item("contract", el("strong", {}, "Bidding")));
  }
  const scores = view.scores && view.scores.length ? view.scores : [];
  // Three or more sides, or watching: each side's score is on its seats' boxes (renderSeats).
  if (scores.length && !scoresOnSeats(view)) {
    const you = me();
    const mine = you !== null ? view.sides[you] : -1;
    // (Seated at a game of two sides: "you" and "them"; the names are in the score panel.)
    box.append(
      item(
        "scores",
        "Score: ",
        scores.map((p, side) => `${side === mine ? "you" : "them"} ${p}`).join(" · "),
      ),
    );
  }
  box.append(
    item("hand-no", `Hand ${view.table.hand_number || (view.table.hands_played || 0) + 1}`),
  );
}

// More than two sides (three-, five-handed), or a person watching: the scores are shown on
// the seat boxes (the strip above the table names no side: "you" and "them" when seated).
function scoresOnSeats(view) {
  return me() === null || new Set(view.sides.filter((_, seat) => seat < view.players)).size > 2;
}

function renderScore() {
  const view = state.view;
  const box = $("score");
  const scores =
    view.scores && view.scores.length ? view.scores : (state.info && state.info.scores) || [];
  const rows = scores.map((s, side) =>
    el("tr", {}, el("td", {}, sideName(side)), el("td", {}, String(s))),
  );
  box.replaceChildren(
    el(
      "table",
      { class: "scores" },
      el("thead", {}, el("tr", {}, el("th", {}, "Side"), el("th", {}, "Points"))),
      el("tbody", {}, rows),
    ),
    el("p", {}, `Hands played: ${view.table.hands_played || 0}`),
  );
  if (view.table.finished) {
    box.append(el("p", {}, el("strong", {}, `Game over: ${sideName(view.table.winner)} won.`)));
    if (me() !== null) box.append(rematchButton("rematch"));
  }
  $("game-link").href = `/g/${encodeURIComponent(code)}`;
}

function auctionTable(view) {
  const order = view.table.auction_order || []; // the bidding seats, from the server
  const seats = view.table.auction_seats || []; // the seat of each call, from the server
  const rows = [];
  let row = null;
  seats.forEach((seat, index) => {
    const col = order.indexOf(seat);
    if (!row || row[col] !== undefined || (row.lastCol !== undefined && col <= row.lastCol)) {
      row = new Array(order.length);
      rows.push(row);
    }
    row[col] = view.auction_labels[index];
    row.lastCol = col;
  });
  const head = el(
    "tr",
    {},
    order.map((seat) => el("th", { scope: "col" }, seatName(seat))),
  );
  const body = rows.map((r) =>
    el(
      "tr",
      {},
      order.map((_, col) => el("td", {}, r[col] || "")),
    ),
  );
  return el("table", { class: "auction" }, el("thead", {}, head), el("tbody", {}, body));
}

function renderAuction() {
  const view = state.view;
  const box = $("auction");
  const table = auctionTable(view);
  table.setAttribute("aria-label", "the auction");
  box.replaceChildren(table);
  if (!view.auction.length) box.append(el("p", {}, "No calls yet."));
  // While bidding, the auction so far is in the middle of the table, in sight of the bids.
  const centre = $("centre-auction");
  centre.hidden = view.phase !== "auction";
  if (!centre.hidden) {
    // (A list, narrow enough for a phone; the table with a column a seat is in the panel.)
    const seats = view.table.auction_seats || [];
    const calls = view.auction_labels.map((label, i) =>
      el("li", {}, el("span", { class: "who" }, seatName(seats[i])), " ", el("strong", {}, label)),
    );
    // The last round of calls (a call a player; all of them in the panel beside the table),
    // so that on a phone the bid box and the hand stay in view under it.
    const round = Math.max(2, Math.min(view.players, 6));
    centre.replaceChildren(
      el("h3", {}, calls.length > round ? "Auction, last round" : "Auction"),
      calls.length
        ? el("ol", { class: "calls" }, calls.slice(-round))
        : el("p", {}, "No calls yet."),
    );
  } else centre.replaceChildren();
}

// ------------------------------------------------------------------ the hand
// Two players: while one's dummy is to play, the view is the dummy's (its cards in the hand
// row, the legal ones raised); the player's own hand ("own_hand", from the server) is shown
// beside it.
function ownHandWhileDummyMoves(view) {
  if (me() === null || view.seat === me()) return null;
  return Array.isArray(view.own_hand) ? view.own_hand : null;
}

function kittyCards(view) {
  if (view.table.kitty) return new Set(view.table.kitty);
  // The server does not say: the cards that were not in the hand before the discard.
  const key = `fivehundred:hand:${code}:${view.table.hand_number}`;
  if (view.phase === "auction" && view.hand.length)
    sessionStorage.setItem(key, JSON.stringify(view.hand));
  if (view.phase !== "discard") return new Set();
  const before = JSON.parse(sessionStorage.getItem(key) || "null");
  if (!before) return new Set();
  return new Set(view.hand.filter((c) => !before.includes(c)));
}

function myTurn() {
  const view = state.view;
  return (
    view &&
    view.to_move !== null &&
    view.to_move >= 0 &&
    view.to_move === view.seat &&
    (view.legal || []).length > 0 &&
    me() !== null
  );
}

function renderHand() {
  const view = state.view;
  const box = $("hand");
  const cards = view.hand || []; // (in the display order the server sends)
  const turn = myTurn();
  const hand = view.hand || [];
  // A card of the hand chosen in a house phase (slam: pass a card; open_eight: discard one).
  // (Only there: in the auction a bid's text, "7S", is also a card's.)
  const picking =
    turn &&
    ["slam_pass", "table_discard"].includes(view.phase) &&
    (view.legal || []).some((a) => hand.includes(a));
  const playing = (turn && view.phase === "play") || picking;
  const discarding = turn && view.phase === "discard";
  const kitty = kittyCards(view);
  // While bidding the hand is to be seen, not tapped: one row, each card's top showing.
  const peek = view.phase === "auction";
  box.classList.toggle("active", playing || discarding);
  box.classList.toggle("peek", peek);
  const focused =
    document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.card
      : null;
  box.replaceChildren();
  $("hand-label").textContent =
    me() === null ? "Watching" : view.seat !== me() ? `${seatName(view.seat)}` : "Your hand";
  box.setAttribute(
    "aria-label",
    me() === null
      ? "no hand: watching"
      : view.seat !== me()
        ? `${seatName(view.seat)}'s cards`
        : "your hand",
  );
  for (const card of cards) {
    const legal = playing ? isLegalCard(view, card) : discarding;
    const reason = playing ? refusalReason(view, card) : null;
    let label = cardWords(card, view);
    if (kitty.has(card)) label += ", from the kitty";
    if (reason) label += `, may not be played: ${reason}`;
    const node = cardElement(card, { button: !peek, label });
    node.classList.add(legal ? "legal" : "illegal");
    if (discarding) node.setAttribute("aria-pressed", String(state.selected.has(card)));
    if (reason) {
      node.title = reason; // (a tap says why: the card is not disabled)
    }
    if (kitty.has(card)) {
      node.classList.add("from-kitty");
      node.append(el("span", { class: "tag" }, "kitty"));
    }
    if (state.selected.has(card)) node.classList.add("selected");
    if (peek) {
      box.append(node);
      continue;
    }
    node.tabIndex = -1;
    node.draggable = playing && legal;
    node.addEventListener("click", () => chooseCard(card));
    node.addEventListener("dragstart", (event) => event.dataTransfer.setData("text/plain", card));
    box.append(node);
  }
  // Roving focus: one card in the tab order.
  const buttons = [...box.querySelectorAll("button.card")];
  const start =
    buttons.find((b) => b.dataset.card === (focused || state.focusCard)) ||
    buttons.find((b) => b.classList.contains("legal")) ||
    buttons[0];
  if (start) start.tabIndex = 0;
  if (focused && start) start.focus();
}

function chooseCard(card) {
  const view = state.view;
  if (!myTurn()) {
    toast(
      view.phase === "play" || view.phase === "discard"
        ? `Wait for ${seatName(view.to_move)}.`
        : "",
    );
    return;
  }
  state.focusCard = card;
  if (view.phase === "discard") {
    const need = view.hand.length - 10;
    if (state.selected.has(card)) state.selected.delete(card);
    else if (state.selected.size < need) state.selected.add(card);
    else toast(`You have chosen ${need} cards; tap one to put it back.`);
    render();
    return;
  }
  if (view.phase !== "play") {
    if (["slam_pass", "table_discard"].includes(view.phase) && (view.legal || []).includes(card))
      act(card);
    return;
  }
  const reason = refusalReason(view, card);
  if (reason) {
    $("reason").textContent = `${cardSymbol(card)}: ${reason}`;
    return;
  }
  const suits = jokerLeadSuits(view, card);
  if (suits.length) {
    state.jokerChoice = card;
    render();
    return;
  }
  act(card);
}

$("hand").addEventListener("keydown", (event) => {
  const buttons = [...$("hand").querySelectorAll(".card")];
  const index = buttons.indexOf(document.activeElement);
  if (index < 0) return;
  let next = null;
  if (event.key === "ArrowRight" || event.key === "ArrowDown")
    next = buttons[(index + 1) % buttons.length];
  if (event.key === "ArrowLeft" || event.key === "ArrowUp")
    next = buttons[(index - 1 + buttons.length) % buttons.length];
  if (event.key === "Home") next = buttons[0];
  if (event.key === "End") next = buttons[buttons.length - 1];
  if (next) {
    event.preventDefault();
    buttons.forEach((b) => {
      b.tabIndex = -1;
    });
    next.tabIndex = 0;
    next.focus();
    state.focusCard = next.dataset.card;
    const reason = refusalReason(state.view, next.dataset.card);
    $("reason").textContent = reason ? `${cardSymbol(next.dataset.card)}: ${reason}` : "";
  }
});

// Typing a card or a call as the game writes them (record notation in any case: "10h", "qs",
// "jk", "jkb", "6s", "7nt", "pass", or "p" for pass) anywhere on the page but in a text
// field: the card is chosen (played, or picked to discard), the call made. The text is
// matched against the hand and the legal actions the server sent; nothing is parsed here.
function typedMatch(text, options) {
  return options.find((option) => option.toLowerCase() === text) || null;
}

document.addEventListener("keydown", (event) => {
  if (event.ctrlKey || event.metaKey || event.altKey || !state.view) return;
  const target = event.target;
  if (
    target &&
    (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")
  )
    return;
  if ($("summary").open) return;
  if (event.key === "Escape") {
    state.typed = "";
    return;
  }
  if (!/^[0-9a-zA-Z]$/.test(event.key)) return;
  state.typed = (state.typed + event.key.toLowerCase()).slice(-4);
  const view = state.view;
  const hand = view.hand || [];
  for (let len = Math.min(4, state.typed.length); len >= 1; len--) {
    const text = state.typed.slice(-len);
    if (view.phase === "auction" && myTurn()) {
      const call = typedMatch(text === "p" ? "pass" : text, view.legal || []);
      if (call) {
        state.typed = "";
        event.preventDefault();
        act(call);
        return;
      }
      continue;
    }
    const card = typedMatch(text, hand);
    if (card) {
      state.typed = "";
      event.preventDefault();
      const node = $("hand").querySelector(`.card[data-card="${card}"]`);
      if (node) {
        for (const b of $("hand").querySelectorAll(".card")) b.tabIndex = -1;
        node.tabIndex = 0;
        node.focus();
      }
      chooseCard(card);
      return;
    }
  }
});

$("felt").addEventListener("dragover", (event) => event.preventDefault());
$("felt").addEventListener("drop", (event) => {
  event.preventDefault();
  const card = event.dataTransfer.getData("text/plain");
  if (card) chooseCard(card);
});

// ------------------------------------------------------------------ the controls for the phase
const WIDE = window.matchMedia("(min-width: 901px)");
WIDE.addEventListener("change", () => render());

// What the table says while another seat decides, as the server says it ("Ann to bid.").
function waitingText(view) {
  return view.table && view.table.waiting ? `${view.table.waiting}.` : "";
}

function renderControls() {
  const view = state.view;
  const box = $("controls");
  box.replaceChildren();
  $("centre-bids").replaceChildren();
  const turn = myTurn();
  let prompt = "";
  if (view.phase === "auction") {
    if (turn) {
      prompt = `${view.prompt}:`;
      // On a wide screen the bid box sits in the middle of the table, under the auction so
      // far; on a phone under the hand (the auction stays in the middle of the table).
      (WIDE.matches ? $("centre-bids") : box).append(bidBox(view.legal));
    } else prompt = waitingText(view);
  } else if (view.phase === "discard") {
    if (turn) {
      const need = view.discards_left; // (the server's count)
      prompt = `${view.prompt} (the kitty's cards are marked).`;
      const chosen = [...state.selected].map(cardSymbol).join(" ");
      box.append(
        el(
          "span",
          { class: "chosen-count", id: "chosen-count" },
          `${state.selected.size} of ${need} chosen${chosen ? `: ${chosen}` : ""}`,
        ),
      );
      const confirm = el(
        "button",
        {
          class: "btn primary",
          type: "button",
          id: "confirm-discard",
          disabled: state.selected.size !== need,
        },
        `Discard ${state.selected.size} of ${need}`,
      );
      confirm.addEventListener("click", () => {
        state.queue = [...state.selected];
        state.selected.clear();
        sendQueued();
      });
      box.append(confirm);
    } else prompt = waitingText(view);
  } else if (view.phase === "nominate") {
    if (turn) {
      prompt = `${view.prompt}:`;
      box.append(
        el(
          "div",
          { class: "choice-row", role: "group", "aria-label": "the joker's suit" },
          view.legal.map((a) => {
            const suit = a.slice(-1);
            const label = actionLabel(view, a);
            return el("button", {
              type: "button",
              "data-action": a,
              "aria-label": label,
              html: a === "none" ? "Leave free" : `${suitIcon(suit)} ${label}`,
              onclick: () => act(a),
            });
          }),
        ),
      );
    } else prompt = waitingText(view);
  } else if (view.phase === "call") {
    if (turn) {
      prompt = `${view.prompt}.`;
      const grid = el("div", { class: "call-grid", role: "group", "aria-label": "call a card" });
      for (const a of view.legal) {
        if (a === "alone") continue;
        const card = a.slice(5);
        const node = cardElement(card, {
          button: true,
          label: `call the ${cardWords(card, view)}`,
        });
        node.dataset.action = a;
        node.addEventListener("click", () => act(a));
        grid.append(node);
      }
      box.append(
        grid,
        el(
          "button",
          { class: "btn", type: "button", "data-action": "alone", onclick: () => act("alone") },
          "Go alone",
        ),
      );
    } else prompt = waitingText(view);
  } else if (view.phase === "play") {
    if (turn) {
      prompt = `${view.prompt}.`;
      if (state.jokerChoice) {
        const suits = jokerLeadSuits(view, state.jokerChoice);
        prompt = "Lead the joker as which suit?";
        box.append(
          el(
            "div",
            { class: "choice-row", role: "group", "aria-label": "lead the joker as" },
            suits.map((s) =>
              el("button", {
                type: "button",
                "data-action": `${state.jokerChoice}>${s}`,
                "aria-label": `lead the joker as ${suitName(s)}`,
                html: `${suitIcon(s)} ${suitName(s)}`,
                onclick: () => act(`${state.jokerChoice}>${s}`),
              }),
            ),
            el(
              "button",
              {
                type: "button",
                onclick: () => {
                  state.jokerChoice = null;
                  render();
                },
              },
              "Cancel",
            ),
          ),
        );
      }
    } else if (view.to_move >= 0) prompt = waitingText(view);
  } else if (view.phase === "done") {
    prompt = view.table.finished ? "The game is over." : "The hand is over.";
  } else if (turn) {
    prompt = `${view.prompt || "Your move"}:`; // (the server's words, the house rules' too)
  } else if (view.to_move >= 0) prompt = waitingText(view);
  // Whatever else is legal now and has no control above (the house rules: slam, a claim,
  // the face-up cards to take, keep or throw a drawn card): a button each.
  if (turn && !["auction", "nominate", "call", "discard"].includes(view.phase)) {
    const hand = view.hand || [];
    const others = (view.legal || []).filter((a) => !hand.includes(playedCard(a).card));
    if (others.length) {
      box.append(
        el(
          "div",
          { class: "choice-row", role: "group", "aria-label": "choices" },
          others.map((a) => {
            if (/^(\d{1,2}[SCDH]|JK[RBW]?)$/.test(a)) {
              const node = cardElement(a, { button: true, label: cardName(a) });
              node.dataset.action = a;
              node.addEventListener("click", () => act(a));
              return node;
            }
            return el(
              "button",
              { type: "button", class: "btn", "data-action": a, onclick: () => act(a) },
              actionLabel(view, a),
            );
          }),
        ),
      );
    }
  }
  if (turn && hasComputers())
    box.append(
      el(
        "button",
        { class: "btn", type: "button", id: "hint", onclick: () => send({ type: "hint" }) },
        "Hint",
      ),
    );
  if (me() !== null && view.table.can_undo) {
    box.append(
      el(
        "button",
        { class: "btn", type: "button", id: "undo", onclick: () => send({ type: "undo" }) },
        "Undo",
      ),
    );
  }
  $("prompt").textContent = prompt;
  if (!turn || view.phase !== "play") $("reason").textContent = "";
}

function hasComputers() {
  const seats = state.view.table.seats || [];
  return state.view.table.hints !== undefined
    ? state.view.table.hints
    : seats.some((s) => s.kind === "computer");
}

// The bid box, compact enough to sit with the hand and the auction on a phone's screen: the
// level (six to ten tricks) a row of radio buttons, then a button a strain for that level.
// The level first offered is the lowest with a legal bid; typing a bid ("8h") skips both.
const STRAINS = ["S", "C", "D", "H", "NT"];
function bidBox(legal) {
  const wrap = el("div", { id: "bid-box-wrap" });
  const levels = [6, 7, 8, 9, 10];
  const open = levels.filter((level) => STRAINS.some((s) => legal.includes(`${level}${s}`)));
  const turn = `${state.view.table.hand_number}:${state.view.auction.length}`;
  if (state.bidTurn !== turn || !open.includes(state.bidLevel))
    state.bidLevel = open.length ? open[0] : 6;
  state.bidTurn = turn;
  const grid = el("div", { class: "bid-box", role: "group", "aria-label": "bids" });
  const fill = () => {
    const tricks = state.bidLevel;
    grid.replaceChildren(
      ...STRAINS.map((strain) => {
        const call = `${tricks}${strain}`;
        return el("button", {
          type: "button",
          "data-action": call,
          disabled: !legal.includes(call),
          "aria-label": `${tricks} ${strain === "NT" ? "no trumps" : suitName(strain)}`,
          html: strain === "NT" ? `${tricks}NT` : `${tricks}${suitIcon(strain)}`,
          onclick: () => act(call),
        });
      }),
    );
  };
  const row = el("div", { class: "bid-levels", role: "radiogroup", "aria-label": "bid level" });
  for (const level of levels) {
    const input = el("input", {
      type: "radio",
      name: "bid-level",
      value: String(level),
      "aria-label": `${level} tricks`,
      disabled: !open.includes(level),
      checked: level === state.bidLevel,
    });
    input.addEventListener("change", () => {
      state.bidLevel = level;
      fill();
    });
    row.append(el("label", { class: "bid-level" }, input, el("span", {}, String(level))));
  }
  fill();
  const extra = el("div", { class: "bid-extra" });
  extra.append(
    el(
      "button",
      {
        type: "button",
        class: "pass",
        "data-action": "pass",
        disabled: !legal.includes("pass"),
        onclick: () => act("pass"),
      },
      "Pass",
    ),
  );
  // The calls these rules allow (the server's "calls"): greyed while not legal now; the
  // ones they never allow are not shown at all.
  const calls = state.view.table.calls || [];
  calls.forEach((call, i) => {
    const ok = legal.includes(call);
    extra.append(
      el(
        "button",
        {
          type: "button",
          "data-action": call,
          disabled: !ok,
          title: ok ? "" : "not allowed at this point of the auction",
          onclick: () => act(call),
        },
        state.view.table.call_labels[i],
      ),
    );
  });
  wrap.append(row, grid, extra);
  return wrap;
}

function sendQueued() {
  const view = state.view;
  if (!state.queue.length || !myTurn() || view.phase !== "discard") return;
  const card = state.queue.shift();
  if (!view.hand.includes(card)) return sendQueued();
  act(card);
}

// ------------------------------------------------------------------ after a hand
async function showSummary(result) {
  const dialog = $("summary");
  const view = state.view;
  const made =
    result.made === null || result.made === undefined ? "" : result.made ? "made" : "set";
  const sheetBox = el("div", { id: "summary-sheet" }, el("p", {}, "Loading the score sheet…"));
  const close = el(
    "button",
    {
      class: "btn",
      type: "button",
      id: "summary-close",
      autofocus: true,
      onclick: () => dialog.close(),
    },
    view.table.finished ? "Close" : "Next hand",
  );
  dialog.replaceChildren(
    el(
      "div",
      {
        class: "summary-body",
        tabindex: "0",
        role: "region",
        "aria-label": "the hand's result and the score sheet",
      },
      el(
        "h2",
        { id: "summary-title" },
        `Hand ${result.hand}: `,
        result.contract
          ? `${result.contract_label} by ${seatName(result.contractor)}`
          : "no contract (all passed)",
        made ? el("span", { class: made }, ` — ${made}`) : "",
      ),
      el(
        "p",
        {},
        "Tricks: ",
        result.tricks_won.map((t, seat) => `${seatName(seat)} ${t}`).join(", "),
      ),
      el(
        "p",
        {},
        "Points this hand: ",
        result.points.map((p, side) => `${sideName(side)} ${p > 0 ? "+" : ""}${p}`).join(", "),
      ),
      sheetBox,
    ),
    // The buttons stay in sight at the foot of the dialog however long the sheet grows.
    el(
      "div",
      { class: "summary-actions" },
      el("p", { class: "summary-next", id: "summary-next", role: "status" }),
      el(
        "a",
        {
          class: "btn secondary",
          href: `/g/${encodeURIComponent(code)}#hand=${result.hand}`,
          id: "review-link",
        },
        "Review this hand",
      ),
      view.table.finished && me() !== null ? rematchButton("summary-rematch") : "",
      close,
    ),
  );
  if (!dialog.open) dialog.showModal();
  close.focus();
  noteNextTurn();
  let sheet = null;
  try {
    sheet = await getJSON(`/api/tables/${encodeURIComponent(code)}/sheet`);
  } catch (error) {
    sheetBox.replaceChildren(el("p", {}, `No score sheet: ${error.message}`));
    return;
  }
  const parts = [];
  if (sheet.hands.length) {
    parts.push(
      el(
        "table",
        { class: "scores", "aria-label": "score sheet" },
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            el("th", {}, "Hand"),
            el("th", {}, "Contract"),
            sheet.sides.map((_, s) => el("th", {}, sideName(s))),
          ),
        ),
        el(
          "tbody",
          {},
          sheet.hands.map((h) =>
            el(
              "tr",
              {},
              el("td", {}, String(h.hand)),
              el("td", {}, h.contract ? `${h.contract_label} ${h.made ? "✓" : "✗"}` : "—"),
              h.scores.map((s) => el("td", {}, String(s))),
            ),
          ),
        ),
      ),
    );
    if (sheet.rule_490)
      parts.push(
        el(
          "p",
          { class: "note" },
          "The 490 rule: a side on 490 or more scores only by winning a contract.",
        ),
      );
    const hand = sheet.hands.find((h) => h.hand === result.hand);
    if (hand) {
      parts.push(el("h3", {}, "All the hands as dealt"));
      parts.push(
        el(
          "div",
          { class: "summary-hands" },
          hand.dealt.map((cards, seat) =>
            el(
              "div",
              {},
              el("strong", {}, seatName(seat)),
              el(
                "div",
                { class: "mini-hand" },
                cards.map((c) => cardElement(c)),
              ),
            ),
          ),
          el(
            "div",
            {},
            el("strong", {}, "Kitty"),
            el(
              "div",
              { class: "mini-hand" },
              hand.kitty.map((c) => cardElement(c)),
            ),
          ),
        ),
      );
    }
  }
  sheetBox.replaceChildren(...parts);
}

// While the summary is open, it says when the next hand waits on this seat.
function noteNextTurn() {
  const note = document.getElementById("summary-next");
  if (!note || !$("summary").open) return;
  const view = state.view;
  const next = myTurn() && !view.table.finished;
  note.textContent = next
    ? `Your turn in hand ${view.table.hand_number}: “${view.table.finished ? "Close" : "Next hand"}” takes you there.`
    : "";
}

// ------------------------------------------------------------------ chat
const QUICK = ["Good luck!", "Well played!", "Thanks", "Sorry!", "Nice hand", "One moment, please"];
function setupChat() {
  $("chat-quick").replaceChildren(
    ...QUICK.map((text) =>
      el("button", { type: "button", onclick: () => send({ type: "chat", text }) }, text),
    ),
  );
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = $("chat-text").value.trim();
    if (!text) return;
    send({ type: "chat", text });
    $("chat-text").value = "";
  });
}

function addChat(message) {
  const log = $("chat-log");
  log.append(el("div", {}, el("strong", {}, `${message.name || "spectator"}: `), message.text));
  log.scrollTop = log.scrollHeight;
}

// ------------------------------------------------------------------ the whole page
function render() {
  if (!state.view) return;
  // What the page shows, for tests and styles: the phase, whose turn, the view's version.
  document.body.dataset.phase = state.view.phase;
  document.body.dataset.version = String(state.message.version);
  // (Not while the chosen discards are being sent one by one: nothing waits on the person.)
  document.body.dataset.myTurn = myTurn() && !state.queue.length ? "1" : "0";
  $("layout").hidden = false;
  $("join").hidden = true;
  renderContract();
  renderSeats();
  renderTrick();
  renderControls();
  renderHand();
  renderAuction();
  renderScore();
  const note = $("centre-note");
  const view = state.view;
  if (view.phase === "done" && view.table.hand_result && !view.table.hand_result.contract) {
    note.hidden = false;
    note.textContent = "All passed: no contract.";
  } else note.hidden = true;
}

// ------------------------------------------------------------------ the live region
// Each call, card and trick won is said once, in words, for a screen reader.
function say(text) {
  if (!text) return;
  const log = $("announce");
  log.append(el("p", {}, text));
  while (log.children.length > 200) log.firstChild.remove();
}

function callWords(seat, call, label) {
  const who = seatName(seat);
  if (call === "pass") return `${who} passes.`;
  return `${who} bids ${label.replace("♠", " spades").replace("♣", " clubs").replace("♦", " diamonds").replace("♥", " hearts").replace("NT", " no trumps")}.`;
}

function playWords(seat, action, view) {
  const { card, as } = playedCard(action);
  return `${seatName(seat)} plays the ${cardWords(card, view)}${as ? `, led as ${suitName(as)}` : ""}.`;
}

function announce(prev, view) {
  const sameHand = prev && prev.table && prev.table.hand_number === view.table.hand_number;
  const out = [];
  if (prev && !sameHand && prev.phase === "play") {
    // The hand ended with this card: the last trick, from the table's facts.
    const last = view.table.last_trick;
    if (last) {
      const seen = prev.trick.length;
      for (const [seat, action] of last.plays.slice(seen)) out.push(playWords(seat, action, view));
      out.push(`${seatName(last.winner)} wins the trick.`);
    }
  }
  const result = view.table.hand_result;
  if (result && (!prev || !prev.table.hand_result || prev.table.hand_result.hand !== result.hand)) {
    const made =
      result.made === null || result.made === undefined ? "" : result.made ? " made" : " set";
    out.push(
      `Hand ${result.hand} over: ${result.contract ? `${result.contract_label} by ${seatName(result.contractor)}${made}` : "all passed"}. Scores: ${result.scores.map((p, side) => `${sideName(side)} ${p}`).join(", ")}.`,
    );
  }
  const seats = view.table.auction_seats || [];
  const fromCall = sameHand ? prev.auction.length : 0;
  for (let i = fromCall; i < view.auction.length; i++)
    out.push(callWords(seats[i], view.auction[i], view.auction_labels[i]));
  if (view.contract && (!sameHand || !prev.contract))
    out.push(`${seatName(view.contractor)} wins the auction: ${view.contract_label}.`);
  if (sameHand) {
    const before = prev.tricks.reduce((sum, t) => sum + t.length, 0) + prev.trick.length;
    let i = 0;
    view.tricks.forEach((trick, k) => {
      for (const [seat, action] of trick)
        if (i++ >= before) out.push(playWords(seat, action, view));
      if (i > before) out.push(`${seatName(view.trick_winners[k])} wins the trick.`);
    });
    for (const [seat, action] of view.trick)
      if (i++ >= before) out.push(playWords(seat, action, view));
  }
  if (
    myTurn() &&
    !(prev && sameHand && prev.to_move === view.to_move && prev.phase === view.phase)
  ) {
    out.push(`${view.prompt || "Your turn"}.`); // (the server's words)
  }
  out.forEach(say);
}

function onMessage(message) {
  if (message.type === "view") {
    const prev = state.view;
    state.message = message;
    state.view = message.view;
    const view = state.view;
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
    if (prev && (prev.to_move !== view.to_move || prev.phase !== view.phase)) toast("");
    render();
    announce(prev, view);
    if (prev && prev.phase !== view.phase) {
      // A new phase: the table back in sight (on a phone the bid box ran below it).
      const top = $("contract").getBoundingClientRect().top;
      if (top < 0 || top > window.innerHeight / 2) $("contract").scrollIntoView({ block: "start" });
    }
    if (
      myTurn() &&
      !(
        prev &&
        prev.to_move === view.to_move &&
        prev.phase === view.phase &&
        prev.seat === view.seat
      )
    )
      beep();
    if (state.queue.length) sendQueued();
    noteNextTurn();
    const result = view.table.hand_result;
    if (result && state.summaryShown !== result.hand) {
      state.summaryShown = result.hand;
      showSummary(result);
    }
  } else if (message.type === "error") {
    toast(message.message);
    if (state.queue.length) state.queue = [];
  } else if (message.type === "chat") {
    addChat(message);
  } else if (message.type === "rematch") {
    if (message.token) localStorage.setItem(`fivehundred:token:${message.table}`, message.token);
    location.assign(message.token ? message.url : `${message.url}?watch`);
  } else if (message.type === "hint") {
    toast(`Hint: ${actionLabel(state.view, message.action)} — ${message.reason}`);
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

function showJoin(info) {
  const box = $("join");
  box.hidden = false;
  const open = info.seats.filter((s) => s.kind === "open");
  const name = el("input", {
    id: "player-name",
    maxlength: "30",
    "aria-label": "your name",
    placeholder: "Your name",
    value: localStorage.getItem("fivehundred:name") || "",
  });
  const err = el("p", { class: "error-line", role: "alert" });
  const buttons = open.map((s) =>
    el(
      "button",
      {
        class: "btn",
        type: "button",
        "data-seat": s.seat,
        onclick: async () => {
          const who = name.value.trim();
          if (!who) {
            err.textContent = "Type your name first.";
            name.focus();
            return;
          }
          try {
            const answer = await postJSON(
              `/api/tables/${encodeURIComponent(code)}/seats/${s.seat}`,
              { name: who },
            );
            localStorage.setItem(tokenKey, answer.token);
            localStorage.setItem("fivehundred:name", who);
            connect(answer.token);
          } catch (error) {
            err.textContent = error.message;
          }
        },
      },
      `Sit in seat ${s.seat + 1}`,
    ),
  );
  box.replaceChildren(
    el("h2", {}, info.name),
    el("p", {}, open.length ? "Take a seat:" : "Every seat is taken."),
    name,
    el(
      "div",
      { class: "seat-buttons" },
      buttons,
      el(
        "button",
        { class: "btn secondary", type: "button", id: "watch", onclick: () => connect(null) },
        "Watch",
      ),
    ),
    err,
  );
}

async function start() {
  setupChat();
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
  $("last-trick").addEventListener("click", () => {
    state.showLast = !state.showLast;
    renderTrick();
  });
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
  else showJoin(info);
}

start();

// The page installs as an app (manifest, icons); the service worker keeps its own files.
if ("serviceWorker" in navigator && location.protocol !== "file:") {
  navigator.serviceWorker.register("/sw.js").catch(() => undefined);
}
