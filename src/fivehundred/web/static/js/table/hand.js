// The hand: your cards (in the server's display order), the legal ones raised; a card
// tapped, dragged to the table, chosen by the arrow keys or typed ("10h", "jk") is played
// or picked to discard; the discards chosen are sent one by one.
import { cardElement, cardSymbol } from "../cards.js";
import { el } from "../net.js";
import { cardWords, isLegalCard, jokerLeadSuits, refusalReason } from "../rules.js";
import { me, myTurn, seatName } from "./state.js";

// The cards that came from the kitty: the server's "kitty", or those that were not in the
// hand before the discard (kept in the browser's session for the table `t.code`).
export function kittyCards(t, view) {
  if (view.table.kitty) return new Set(view.table.kitty);
  // The server does not say: the cards that were not in the hand before the discard.
  const key = `fivehundred:hand:${t.code}:${view.table.hand_number}`;
  if (view.phase === "auction" && view.hand.length)
    sessionStorage.setItem(key, JSON.stringify(view.hand));
  if (view.phase !== "discard") return new Set();
  const before = JSON.parse(sessionStorage.getItem(key) || "null");
  if (!before) return new Set();
  return new Set(view.hand.filter((c) => !before.includes(c)));
}

// The hand into #hand (its title into #hand-label).
export function renderHand(t) {
  const state = t.state;
  const view = state.view;
  const box = t.$("hand");
  const cards = view.hand || []; // (in the display order the server sends)
  const turn = myTurn(t);
  const hand = view.hand || [];
  // A card of the hand chosen in a house phase (slam: pass a card; open_eight: discard one).
  // (Only there: in the auction a bid's text, "7S", is also a card's.)
  const picking =
    turn &&
    ["slam_pass", "table_discard"].includes(view.phase) &&
    (view.legal || []).some((a) => hand.includes(a));
  const playing = (turn && view.phase === "play") || picking;
  const discarding = turn && view.phase === "discard";
  const kitty = kittyCards(t, view);
  // While bidding the hand is to be seen, not tapped: one row, each card's top showing.
  const peek = view.phase === "auction";
  box.classList.toggle("active", playing || discarding);
  box.classList.toggle("peek", peek);
  const focused =
    document.activeElement && document.activeElement.dataset
      ? document.activeElement.dataset.card
      : null;
  box.replaceChildren();
  const you = me(t);
  t.$("hand-label").textContent =
    you === null ? "Watching" : view.seat !== you ? `${seatName(t, view.seat)}` : "Your hand";
  box.setAttribute(
    "aria-label",
    you === null
      ? "no hand: watching"
      : view.seat !== you
        ? `${seatName(t, view.seat)}'s cards`
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
      node.append(el("span", { class: "tag", "aria-hidden": "true" }, "kitty"));
    }
    if (state.selected.has(card)) node.classList.add("selected");
    if (peek) {
      box.append(node);
      continue;
    }
    node.tabIndex = -1;
    node.draggable = playing && legal;
    node.addEventListener("click", () => chooseCard(t, card));
    node.addEventListener("dragstart", (event) => event.dataTransfer.setData("text/plain", card));
    box.append(node);
  }
  // Roving focus: one card in the tab order.
  const buttons = [...box.querySelectorAll("button.card")];
  let start =
    buttons.find((b) => b.dataset.card === (focused || state.focusCard)) ||
    buttons.find((b) => b.classList.contains("legal")) ||
    buttons[0];
  // At your turn to play the card in the tab order (and the focus) is one you may play.
  if (playing && start && !start.classList.contains("legal"))
    start = buttons.find((b) => b.classList.contains("legal")) || start;
  if (start) start.tabIndex = 0;
  if (focused && start) start.focus();
}

// A card of the hand chosen: played (a free joker led: its suit asked first), picked or put
// back among the discards, or refused with the server's reason.
export function chooseCard(t, card) {
  const state = t.state;
  const view = state.view;
  if (!myTurn(t)) {
    t.toast(
      view.phase === "play" || view.phase === "discard"
        ? `Wait for ${seatName(t, view.to_move)}.`
        : "",
    );
    return;
  }
  state.focusCard = card;
  if (view.phase === "discard") {
    const need = view.hand.length - 10;
    if (state.selected.has(card)) state.selected.delete(card);
    else if (state.selected.size < need) state.selected.add(card);
    else t.toast(`You have chosen ${need} cards; tap one to put it back.`);
    t.render();
    return;
  }
  if (view.phase !== "play") {
    if (["slam_pass", "table_discard"].includes(view.phase) && (view.legal || []).includes(card))
      t.act(card);
    return;
  }
  const reason = refusalReason(view, card);
  if (reason) {
    t.$("reason").textContent = `${cardSymbol(card)}: ${reason}`;
    return;
  }
  const suits = jokerLeadSuits(view, card);
  if (suits.length) {
    state.jokerChoice = card;
    t.render();
    return;
  }
  t.act(card);
}

// The discards confirmed, sent one at a time (each after the view that took the last).
export function sendQueued(t) {
  const state = t.state;
  const view = state.view;
  if (!state.queue.length || !myTurn(t) || view.phase !== "discard") return;
  const card = state.queue.shift();
  if (!view.hand.includes(card)) return sendQueued(t);
  t.act(card);
}

// The arrow keys, Home and End move between the cards of #hand.
export function bindHandKeys(t) {
  const hand = t.$("hand");
  hand.addEventListener("keydown", (event) => {
    const buttons = [...hand.querySelectorAll(".card")];
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
      t.state.focusCard = next.dataset.card;
      const reason = refusalReason(t.state.view, next.dataset.card);
      t.$("reason").textContent = reason ? `${cardSymbol(next.dataset.card)}: ${reason}` : "";
    }
  });
}

// Typing a card or a call as the game writes them (record notation in any case: "10h", "qs",
// "jk", "jkb", "6s", "7nt", "pass", or "p" for pass) anywhere on the page but in a text
// field: the card is chosen (played, or picked to discard), the call made. The text is
// matched against the hand and the legal actions the server sent; nothing is parsed here.
export function typedMatch(text, options) {
  return options.find((option) => option.toLowerCase() === text) || null;
}

// `paused()`: true while the keys belong to something else (a dialog open).
export function bindTyping(t, paused = () => false) {
  document.addEventListener("keydown", (event) => {
    const state = t.state;
    if (event.ctrlKey || event.metaKey || event.altKey || !state.view) return;
    const target = event.target;
    if (
      target &&
      (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")
    )
      return;
    if (paused()) return;
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
      if (view.phase === "auction" && myTurn(t)) {
        const call = typedMatch(text === "p" ? "pass" : text, view.legal || []);
        if (call) {
          state.typed = "";
          event.preventDefault();
          t.act(call);
          return;
        }
        continue;
      }
      const card = typedMatch(text, hand);
      if (card) {
        state.typed = "";
        event.preventDefault();
        const node = t.$("hand").querySelector(`.card[data-card="${card}"]`);
        if (node) {
          for (const b of t.$("hand").querySelectorAll(".card")) b.tabIndex = -1;
          node.tabIndex = 0;
          node.focus();
        }
        chooseCard(t, card);
        return;
      }
    }
  });
}

// A card dragged from the hand onto `felt` is chosen.
export function bindDrop(t, felt) {
  felt.addEventListener("dragover", (event) => event.preventDefault());
  felt.addEventListener("drop", (event) => {
    event.preventDefault();
    const card = event.dataTransfer.getData("text/plain");
    if (card) chooseCard(t, card);
  });
}

// "Skip to your hand" (the page's first link): the focus on the hand itself, whose next Tab
// is the bid box at your turn to bid, wherever the bid box is drawn (on a wide screen it
// sits in the middle of the table, before the hand).
export function bindSkipToHand(t, link) {
  const hand = t.$("hand");
  if (!link || !hand) return;
  link.addEventListener("click", (event) => {
    event.preventDefault();
    const card = hand.querySelector('button.card[tabindex="0"]');
    if (card) {
      card.focus();
      return;
    }
    hand.tabIndex = -1;
    hand.focus();
  });
  hand.addEventListener("keydown", (event) => {
    if (event.target !== hand || event.key !== "Tab" || event.shiftKey) return;
    const view = t.state.view;
    if (!view || view.phase !== "auction" || !myTurn(t)) return;
    const level = document.querySelector("#bid-box-wrap .bid-level input:checked");
    if (!level) return;
    event.preventDefault();
    level.focus();
  });
}
