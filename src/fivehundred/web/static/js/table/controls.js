// The prompt and the controls for the phase under the hand: the bid box (in the middle of
// the table on a wide screen), the discard button, the joker's suit, a card to call, the
// joker led as a suit, the house rules' other choices, Hint and Undo.
import { cardElement, cardName, cardSymbol, playedCard, suitIcon, suitName } from "../cards.js";
import { el } from "../net.js";
import { actionLabel, cardWords, jokerLeadSuits } from "../rules.js";
import { bidBox } from "./auction.js";
import { kittyCards, sendQueued } from "./hand.js";
import { hasComputers, me, myTurn, waitingText } from "./state.js";

// The controls into #controls (the bid box into #centre-bids when `t.wide` matches), the
// prompt into #prompt.
export function renderControls(t) {
  const state = t.state;
  const view = state.view;
  const box = t.$("controls");
  box.replaceChildren();
  t.$("centre-bids").replaceChildren();
  const turn = myTurn(t);
  let prompt = "";
  if (view.phase === "auction") {
    if (turn) {
      prompt = `${view.prompt}:`;
      // On a wide screen the bid box sits in the middle of the table, under the auction so
      // far; on a phone under the hand (the auction stays in the middle of the table).
      (t.wide.matches ? t.$("centre-bids") : box).append(bidBox(t, view.legal));
    } else prompt = waitingText(view);
  } else if (view.phase === "discard") {
    if (turn) {
      const need = view.discards_left; // (the server's count)
      // (Said only where cards are marked: a hand that opens at the discard, as a lesson
      // can, has no auction's hand to tell the kitty's cards from.)
      const marked = kittyCards(t, view).size > 0;
      prompt = marked ? `${view.prompt} (the kitty's cards are marked).` : `${view.prompt}.`;
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
        sendQueued(t);
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
              // (The server's words, "no nomination", seen and heard: WCAG 2.5.3.)
              html: a === "none" ? label : `${suitIcon(suit)} ${label}`,
              onclick: () => t.act(a),
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
        node.addEventListener("click", () => t.act(a));
        grid.append(node);
      }
      box.append(
        grid,
        el(
          "button",
          { class: "btn", type: "button", "data-action": "alone", onclick: () => t.act("alone") },
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
                onclick: () => t.act(`${state.jokerChoice}>${s}`),
              }),
            ),
            el(
              "button",
              {
                type: "button",
                onclick: () => {
                  state.jokerChoice = null;
                  t.render();
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
              node.addEventListener("click", () => t.act(a));
              return node;
            }
            return el(
              "button",
              { type: "button", class: "btn", "data-action": a, onclick: () => t.act(a) },
              actionLabel(view, a),
            );
          }),
        ),
      );
    }
  }
  if (turn && hasComputers(t))
    box.append(
      el(
        "button",
        {
          class: "btn",
          type: "button",
          id: "hint",
          // (In the kitty, the cards marked to discard go with it: the hint names another.)
          onclick: () =>
            t.send(
              view.phase === "discard" && state.selected.size
                ? { type: "hint", marked: [...state.selected] }
                : { type: "hint" },
            ),
        },
        "Hint",
      ),
    );
  if (me(t) !== null && view.table.can_undo) {
    box.append(
      el(
        "button",
        { class: "btn", type: "button", id: "undo", onclick: () => t.send({ type: "undo" }) },
        "Undo",
      ),
    );
  }
  t.$("prompt").textContent = prompt;
  if (!turn || view.phase !== "play") t.$("reason").textContent = "";
}
