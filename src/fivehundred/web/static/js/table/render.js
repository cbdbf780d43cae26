// The whole table drawn from `t.state.view`: the strip above it, the seats, the trick, the
// controls and prompt, the hand, the auction and the score panel.
import { renderAuction } from "./auction.js";
import { renderControls } from "./controls.js";
import { renderHand } from "./hand.js";
import { renderInvite } from "./invite.js";
import { renderContract, renderScore } from "./score.js";
import { renderSeats } from "./seats.js";
import { myTurn } from "./state.js";
import { renderTrick } from "./trick.js";

export function renderTable(t) {
  const state = t.state;
  if (!state.view) return;
  // What the page shows, for tests and styles: the phase, whose turn, the view's version.
  document.body.dataset.phase = state.view.phase;
  document.body.dataset.version = String(state.message.version);
  // (Not while the chosen discards are being sent one by one: nothing waits on the person.)
  document.body.dataset.myTurn = myTurn(t) && !state.queue.length ? "1" : "0";
  const layout = t.$("layout");
  if (layout) layout.hidden = false;
  const join = t.$("join");
  if (join) join.hidden = true;
  // Where the keyboard's focus is: in the hand or the controls, whose buttons are drawn
  // anew (Pass, a bid, Discard, a card played), it must not fall to the page's body.
  const active = document.activeElement;
  const regions = ["hand", "controls", "centre-bids"].map((id) => t.$(id)).filter(Boolean);
  const inTable = active && regions.some((box) => box.contains(active));
  renderContract(t);
  renderSeats(t);
  renderTrick(t);
  renderControls(t);
  renderHand(t);
  renderAuction(t);
  renderScore(t);
  renderInvite(t);
  if (inTable && (!document.activeElement || document.activeElement === document.body))
    keepFocus(t);
  const note = t.$("centre-note");
  const view = state.view;
  if (view.phase === "done" && view.table.hand_result && !view.table.hand_result.contract) {
    note.hidden = false;
    note.textContent = "All passed: no contract.";
  } else note.hidden = true;
}

// Focus back somewhere sensible after the control that had it went: at your turn to bid, the
// bid box; else the hand's card in the tab order (a card you may play at your turn), else
// the first control, else the hand itself. (No scrolling: on a phone the view stays where it is.)
export function keepFocus(t) {
  const view = t.state.view;
  const bids = [t.$("centre-bids"), t.$("controls")].filter(Boolean);
  const target =
    (myTurn(t) && view.phase === "auction"
      ? bids.map((box) => box.querySelector(".bid-level input:checked")).find(Boolean)
      : null) ||
    t.$("hand").querySelector('button.card[tabindex="0"]') ||
    (myTurn(t)
      ? t.$("controls") && t.$("controls").querySelector("button:not([disabled])")
      : null) ||
    t.$("hand");
  if (target === t.$("hand")) target.tabIndex = -1;
  target.focus({ preventScroll: true });
}
