// The trick in the middle of the table (or the last trick, on request): each card by the
// side of its seat, the new ones arriving.
import { cardElement, playedCard, suitName, suitSymbol } from "../cards.js";
import { el } from "../net.js";
import { cardWords } from "../rules.js";
import { seatPosition } from "./seats.js";
import { me, seatCount, seatName } from "./state.js";

// The trick into #trick; the "Last trick" button (#last-trick) shown when there is one.
export function renderTrick(t) {
  const state = t.state;
  const view = state.view;
  const box = t.$("trick");
  const n = seatCount(view);
  const you = me(t);
  let plays = view.trick;
  let label = "the trick";
  const last = view.table.last_trick;
  if (state.showLast && last) {
    plays = last.plays;
    label = `the last trick, won by ${seatName(t, last.winner)}`;
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
      label: `${seatName(t, seat)}: ${cardWords(card, view)}${as ? ` led as ${suitName(as)}` : ""}`,
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
        el("figcaption", { "aria-hidden": "true" }, seatName(t, seat)),
      ),
    );
  }
  if (!state.showLast) state.seenTrick = plays.slice();
  const button = t.$("last-trick");
  if (!button) return;
  button.hidden = !last;
  button.setAttribute("aria-pressed", String(state.showLast));
  button.textContent = state.showLast ? "Back to the trick" : "Last trick";
}

// The "Last trick" button toggles the last trick and back.
export function bindLastTrick(t) {
  const button = t.$("last-trick");
  if (!button) return;
  button.addEventListener("click", () => {
    t.state.showLast = !t.state.showLast;
    renderTrick(t);
  });
}
