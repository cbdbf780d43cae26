// The strip above the table (the contract, trumps, the joker's suit, tricks, the score, the
// hand's number) and the score panel beside it.
import { cardSymbol, suitIcon, suitName } from "../cards.js";
import { el } from "../net.js";
import { rematchButton } from "./dialogs.js";
import { me, scoresOnSeats, seatName, sideName } from "./state.js";

// The contract strip into #contract.
export function renderContract(t) {
  const view = t.state.view;
  const box = t.$("contract");
  // (The Chat button, at the strip's right end on a phone, stays: see chat.js.)
  const jump = t.$("chat-jump");
  box.replaceChildren(...(jump ? [jump] : []));
  const item = (cls, ...children) => el("div", { class: `fact ${cls}` }, ...children);
  if (view.contract) {
    box.append(
      item(
        "contract",
        el("strong", {}, view.contract_label),
        // (On a phone the contractor's seat box says whose: ★ and "contract".)
        el("span", { class: "by" }, ` by ${seatName(t, view.contractor)}`),
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
    // A partner who sits this hand out, and so why each trick has fewer cards (the server's
    // words).
    const out = view.table.sitting_out;
    if (out) for (const note of out.notes) box.append(item("sitting-out", note));
    const sides = {};
    view.sides.forEach((side, seat) => {
      sides[side] = (sides[side] || 0) + view.tricks_won[seat];
    });
    const you = me(t);
    const entries = Object.entries(sides);
    if (you !== null && entries.length === 2) {
      const mine = view.sides[you];
      box.append(item("tricks", `Tricks: yours ${sides[mine]} · theirs ${sides[1 - mine]}`));
    } else {
      // Three or more sides, or watching: each seat's tricks are on its seat box; here the
      // contract's side against the others (the strip stays within two rows on a phone).
      const side = view.sides[view.contractor];
      const others = entries.reduce((sum, [s, n]) => sum + (Number(s) === side ? 0 : n), 0);
      const who = you !== null && view.sides[you] === side ? "yours" : "contract";
      box.append(item("tricks", `Tricks: ${who} ${sides[side]} · others ${others}`));
    }
  } else if (view.phase === "auction") {
    box.append(item("contract", el("strong", {}, "Bidding")));
  }
  const scores = view.scores && view.scores.length ? view.scores : [];
  // Three or more sides, or watching: each side's score is on its seats' boxes (renderSeats).
  if (scores.length && !scoresOnSeats(t, view)) {
    const you = me(t);
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

// The score panel into #score (none on a page without one), the link to the score sheet.
export function renderScore(t) {
  const state = t.state;
  const view = state.view;
  const box = t.$("score");
  if (!box) return;
  const scores =
    view.scores && view.scores.length ? view.scores : (state.info && state.info.scores) || [];
  const rows = scores.map((s, side) =>
    el("tr", {}, el("td", {}, sideName(t, side)), el("td", {}, String(s))),
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
    box.append(el("p", {}, el("strong", {}, `Game over: ${sideName(t, view.table.winner)} won.`)));
    if (me(t) !== null) box.append(rematchButton(t, "rematch"));
  }
  const link = t.$("game-link");
  if (link) link.href = `/g/${encodeURIComponent(t.code)}`;
}
