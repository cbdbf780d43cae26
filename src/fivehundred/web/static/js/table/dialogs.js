// The dialogs and boxes over the table: the hand's result with the score sheet (after each
// hand), the seats to take (joining a table), the rematch button.
import { cardElement } from "../cards.js";
import { el, getJSON, postJSON, wholeNames } from "../net.js";
import { me, myTurn, seatName, sideName } from "./state.js";

// After the game, a player may start the same table again (the server then sends every
// connection a "rematch" message with the new table and who asked; the asker, and each
// player who then asks too, their new token: only those who ask are seated).
export function rematchButton(t, id) {
  const by = t.state.rematchBy;
  return el(
    "button",
    {
      class: "btn",
      type: "button",
      id,
      onclick: () => {
        if (!t.state.socket || !t.state.socket.send({ type: "rematch" }))
          t.toast("Not connected: try again in a moment.");
      },
    },
    by ? `Join ${by}'s rematch` : "Rematch",
  );
}

// Another player started the rematch: the rematch buttons become "Join X's rematch".
export function offerRematch(t, message) {
  t.state.rematchBy = message.by || "a player";
  for (const id of ["rematch", "summary-rematch"]) {
    const button = t.$(id);
    if (button) button.textContent = `Join ${t.state.rematchBy}'s rematch`;
  }
  t.toast(`${t.state.rematchBy} started a rematch: join it with the button.`);
}

// The hand's result into the #summary dialog, then the score sheet from the server.
export async function showSummary(t, result) {
  const dialog = t.$("summary");
  const view = t.state.view;
  const code = t.code;
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
          ? `${result.contract_label} by ${seatName(t, result.contractor)}`
          : "no contract (all passed)",
        made ? el("span", { class: made }, ` — ${made}`) : "",
      ),
      el(
        "p",
        {},
        "Tricks: ",
        // ("easy 2 took 2": a computer's name ends in a number too)
        result.tricks_won.map((n, seat) => `${seatName(t, seat)} took ${n}`).join(", "),
      ),
      el(
        "p",
        { id: "summary-points" },
        "Points this hand: ",
        // (The server's words: a total the 490 rule held says so and why.)
        result.points_words
          ? result.points_words.join("; ")
          : result.points
              .map((p, side) => `${sideName(t, side)} ${p > 0 ? "+" : ""}${p}`)
              .join(", "),
      ),
      // What each side's points are made of (the server's words: the further 100 of a failed
      // slam call or a wrong claim named).
      (result.points_parts || []).some(Boolean)
        ? el(
            "ul",
            { id: "summary-parts", class: "summary-parts" },
            result.points_parts.map((text, side) =>
              text ? el("li", {}, `${sideName(t, side)}: ${text}`) : "",
            ),
          )
        : "",
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
      view.table.finished && me(t) !== null ? rematchButton(t, "summary-rematch") : "",
      close,
    ),
  );
  if (!dialog.open) dialog.showModal();
  close.focus();
  noteNextTurn(t);
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
            sheet.sides.map((_, s) => el("th", {}, wholeNames(sideName(t, s)))),
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
    // The 490 rule with this table's own figure, where it applies (the server's words).
    const rule490 = sheet.rule_490_note || view.table.rule_490;
    if (rule490) parts.push(el("p", { class: "note", id: "rule-490" }, rule490));
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
              el("strong", {}, seatName(t, seat)),
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
export function noteNextTurn(t) {
  const note = t.$("summary-next");
  const dialog = t.$("summary");
  if (!note || !dialog || !dialog.open) return;
  const view = t.state.view;
  const next = myTurn(t) && !view.table.finished;
  note.textContent = next
    ? `Your turn in hand ${view.table.hand_number}: “${view.table.finished ? "Close" : "Next hand"}” takes you there.`
    : "";
}

// The seats open at the table into #join: a name and a button a seat, and Watch.
// `connect(token)`: joins (null: to watch); `tokenKey`: where the seat's token is kept.
export function showJoin(t, info, { connect, tokenKey }) {
  const code = t.code;
  const box = t.$("join");
  box.hidden = false;
  // (The seats the server offers: at an empty table one, "Take a seat".)
  const open = info.seats.filter(
    (s) => s.kind === "open" && (!info.offers || info.offers[String(s.seat)]),
  );
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
      // (As the server says: "Sit as Ann's partner", "Sit as Ann's opponent".)
      (info.offers || {})[String(s.seat)] || `Sit in seat ${s.seat + 1}`,
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
