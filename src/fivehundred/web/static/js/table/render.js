// The whole table drawn from `t.state.view`: the strip above it, the seats, the trick, the
// controls and prompt, the hand, the auction and the score panel.
import { renderAuction } from "./auction.js";
import { renderControls } from "./controls.js";
import { renderHand } from "./hand.js";
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
  renderContract(t);
  renderSeats(t);
  renderTrick(t);
  renderControls(t);
  renderHand(t);
  renderAuction(t);
  renderScore(t);
  const note = t.$("centre-note");
  const view = state.view;
  if (view.phase === "done" && view.table.hand_result && !view.table.hand_result.contract) {
    note.hidden = false;
    note.textContent = "All passed: no contract.";
  } else note.hidden = true;
}
