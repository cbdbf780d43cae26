// The auction: the calls so far (a column a seat in the panel, the last round in the middle
// of the table) and the bid box.
import { suitIcon, suitName } from "../cards.js";
import { el } from "../net.js";
import { seatName } from "./state.js";

// The calls so far as a table, a column a bidding seat.
export function auctionTable(t, view) {
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
    // (Your partner's column says so, and each column has the colour of its relation.)
    order.map((seat) => {
      const relation = (view.table.relations || [])[seat] || {};
      return el(
        "th",
        { scope: "col", class: relation.key ? `rel-${relation.key}` : null },
        seatName(t, seat),
        relation.key === "partner" ? el("span", { class: "rel-word" }, relation.word) : null,
      );
    }),
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

// The auction into #auction (the panel, where the page has one) and, while bidding, the
// last round of calls into #centre-auction.
export function renderAuction(t) {
  const view = t.state.view;
  const box = t.$("auction");
  if (box) {
    const table = auctionTable(t, view);
    table.setAttribute("aria-label", "the auction");
    box.replaceChildren(table);
    if (!view.auction.length) box.append(el("p", {}, "No calls yet."));
  }
  // While bidding, the auction so far is in the middle of the table, in sight of the bids.
  const centre = t.$("centre-auction");
  centre.hidden = view.phase !== "auction";
  if (!centre.hidden) {
    // (A list, narrow enough for a phone; the table with a column a seat is in the panel.)
    const seats = view.table.auction_seats || [];
    const calls = view.auction_labels.map((label, i) =>
      el(
        "li",
        {},
        el(
          "span",
          {
            class: `who${((view.table.relations || [])[seats[i]] || {}).key ? ` rel-${view.table.relations[seats[i]].key}` : ""}`,
          },
          seatName(t, seats[i]),
        ),
        " ",
        el("strong", {}, label),
      ),
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

// The bid box, compact enough to sit with the hand and the auction on a phone's screen: the
// level (six to ten tricks) a row of radio buttons, then a button a strain for that level.
// The level first offered is the lowest with a legal bid; typing a bid ("8h") skips both.
export const STRAINS = ["S", "C", "D", "H", "NT"];
export function bidBox(t, legal) {
  const state = t.state;
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
          // (The name holds the visible text, "6NT", as WCAG 2.5.3 asks: a voice says it.)
          "aria-label":
            strain === "NT" ? `${tricks}NT (${tricks} no trumps)` : `${tricks} ${suitName(strain)}`,
          html: strain === "NT" ? `${tricks}NT` : `${tricks}${suitIcon(strain)}`,
          onclick: () => t.act(call),
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
        onclick: () => t.act("pass"),
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
          onclick: () => t.act(call),
        },
        state.view.table.call_labels[i],
      ),
    );
  });
  wrap.append(row, grid, extra);
  return wrap;
}
