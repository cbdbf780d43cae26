// The seats around the table: each seat's box (name, status, dealer, tricks, cards left,
// whose turn), the turn timer, and the strip of cards lying face up under the table.
import { cardElement } from "../cards.js";
import { el } from "../net.js";
import { drawBubble } from "./chat.js";
import { controllerOf, isMySeat, me, scoresOnSeats, seatCount, seatName } from "./state.js";

// Where a seat sits around the table, seen from `you` (at the bottom): "bottom", "left",
// "right" or "top" (several seats share the top row), and its order there.
export function seatPosition(seat, n, you) {
  const k = (seat - (you === null ? 0 : you) + n) % n;
  if (k === 0) return { area: "bottom", order: 0, dx: 0, dy: 1 };
  if (n >= 4 && k === 1) return { area: "left", order: 0, dx: -1, dy: 0 };
  if (n >= 4 && k === n - 1) return { area: "right", order: 0, dx: 1, dy: 0 };
  return { area: "top", order: k, dx: 0, dy: -1 };
}

// Two players: while one's dummy is to play, the view is the dummy's (its cards in the hand
// row, the legal ones raised); the player's own hand ("own_hand", from the server) is shown
// beside it.
export function ownHandWhileDummyMoves(t, view) {
  if (me(t) === null || view.seat === me(t)) return null;
  return Array.isArray(view.own_hand) ? view.own_hand : null;
}

// The seat boxes into #seats (#felt's data-seats says how many), the face-up cards into
// #exposed.
export function renderSeats(t) {
  const view = t.state.view;
  const n = seatCount(view);
  const you = me(t);
  const box = t.$("seats");
  box.replaceChildren();
  const areas = {};
  for (const area of ["top", "left", "right", "bottom"]) {
    areas[area] = el("div", { class: `seat-area seat-area-${area}` });
    box.append(areas[area]);
  }
  const felt = t.$("felt");
  if (felt) felt.dataset.seats = String(n);
  const infos = view.table.seats || [];
  for (let seat = 0; seat < n; seat++) {
    const pos = seatPosition(seat, n, you === null ? 0 : you);
    const controller = controllerOf(t, seat);
    const info = controller === null ? { kind: "out" } : infos[controller] || {};
    const away = info.kind === "person" && !info.connected;
    const facts = [];
    if (scoresOnSeats(t, view) && seat < view.players && view.scores && view.scores.length)
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
    // How the seat stands to you ("your partner", "opponent"), as the server says; and
    // a partner who sits this hand out (the contractor plays alone), and why.
    const relation = ((view.table.relations || [])[seat] || {}).word || "";
    const relationKey = ((view.table.relations || [])[seat] || {}).key || "";
    const out = view.table.sitting_out;
    const outIndex = out ? out.seats.indexOf(seat) : -1;
    const roles = [];
    if (relation && relationKey !== "you") roles.push(relation);
    if (outIndex >= 0) roles.push(out.notes[outIndex]);
    if (view.dealer === seat) roles.push("dealer");
    if (view.contractor === seat) roles.push("contractor");
    if (view.to_move === seat && view.phase !== "done")
      roles.push(view.phase === "auction" ? "to bid" : "to play");
    const node = el(
      "div",
      {
        class: `seat${view.to_move === seat && view.phase !== "done" ? " to-move" : ""}${isMySeat(t, seat) ? " mine" : ""}${view.contractor === seat ? " contractor" : ""}${relationKey ? ` rel-${relationKey}` : ""}${outIndex >= 0 ? " sitting-out" : ""}`,
        style: `order:${pos.order}`,
        "data-seat": seat,
        role: "group",
        "aria-label": [seatName(t, seat), ...roles].join(", "),
      },
      el("div", { class: "name" }, seatName(t, seat)),
      relation && relationKey !== "you"
        ? el("div", { class: "relation", "aria-hidden": "true" }, relation)
        : null,
      outIndex >= 0
        ? el(
            "div",
            { class: "out-note", title: out.notes[outIndex], "aria-hidden": "true" },
            "sits out",
          )
        : null,
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
    // a clock per game: the seat's time left (running down while it is its turn)
    const bank = view.table.banks && view.table.banks[seat];
    if (bank && bank.left !== null) {
      const attrs = bank.ends ? { "data-ends": bank.ends } : {};
      node.append(
        el(
          "div",
          { class: "bank", title: "time left in this game", ...attrs },
          `⌛ ${span(bank.left)}`,
        ),
      );
    }
    areas[pos.area].append(node);
  }
  renderExposed(t);
  drawBubble(t);
  tickTimer(t.root);
}

// Cards lying face up (the open misère hand after the first trick, the dummies): a strip
// under the table, readable on a phone too.
export function renderExposed(t) {
  const view = t.state.view;
  const strip = t.$("exposed");
  if (!strip) return;
  strip.replaceChildren();
  const own = ownHandWhileDummyMoves(t, view);
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
      (isMySeat(t, Number(seat)) && Number(seat) < view.players)
    )
      continue;
    const name = seatName(t, Number(seat));
    strip.append(
      el(
        "div",
        { class: "exposed-hand", "aria-label": `${name}'s cards, face up` },
        el("strong", {}, /dummy$/.test(name) ? `${name}, face up: ` : `${name}: `),
        el(
          "div",
          { class: "mini-hand" },
          cards.map((c) => cardElement(c)),
        ),
      ),
    );
  }
  strip.hidden = !strip.children.length;
}

// A clock's seconds left: "42s" under an hour, else "3h 12m", "2d 5h" (days of a
// turn-based table).
export function span(seconds) {
  const s = Math.max(0, Math.round(seconds));
  if (s < 3600) return `${s}s`;
  const days = Math.floor(s / 86400);
  const hours = Math.floor((s % 86400) / 3600);
  return days ? `${days}d ${hours}h` : `${hours}h ${Math.floor((s % 3600) / 60)}m`;
}

// The time left on the turn clocks (and the running clock per game) under `root`.
export function tickTimer(root = document) {
  const now = Date.now() / 1000;
  for (const node of root.querySelectorAll(".timer[data-deadline]")) {
    node.textContent = `⏱ ${span(Number(node.dataset.deadline) - now)}`;
  }
  for (const node of root.querySelectorAll(".bank[data-ends]")) {
    node.textContent = `⌛ ${span(Number(node.dataset.ends) - now)}`;
  }
}
