// The live region (#announce): each call, card and trick won is said once, in words, for a
// screen reader.
import { playedCard, suitName } from "../cards.js";
import { el } from "../net.js";
import { cardWords } from "../rules.js";
import { myTurn, seatName, sideName } from "./state.js";

export function say(t, text) {
  if (!text) return;
  const log = t.$("announce");
  log.append(el("p", {}, text));
  while (log.children.length > 200) log.firstChild.remove();
}

export function callWords(t, seat, call, label) {
  const who = seatName(t, seat);
  if (call === "pass") return `${who} passes.`;
  return `${who} bids ${label.replace("♠", " spades").replace("♣", " clubs").replace("♦", " diamonds").replace("♥", " hearts").replace("NT", " no trumps")}.`;
}

export function playWords(t, seat, action, view) {
  const { card, as } = playedCard(action);
  return `${seatName(t, seat)} plays the ${cardWords(card, view)}${as ? `, led as ${suitName(as)}` : ""}.`;
}

// What changed from the view `prev` to `view`, said.
export function announce(t, prev, view) {
  const out = changes(t, prev, view);
  const sameHand = prev && prev.table && prev.table.hand_number === view.table.hand_number;
  if (
    myTurn(t) &&
    !(prev && sameHand && prev.to_move === view.to_move && prev.phase === view.phase)
  ) {
    out.push(`${view.prompt || "Your turn"}.`); // (the server's words)
  }
  for (const text of out) say(t, text);
}

// What changed from the view `prev` to `view`, in sentences: the calls, the cards, the
// tricks won, the contract and a hand's end (the live region's words, and the list of
// what happened while a player was away: with `whole`, every card of a new hand too).
export function changes(t, prev, view, whole = false) {
  const sameHand = prev && prev.table && prev.table.hand_number === view.table.hand_number;
  const out = [];
  if (prev && !sameHand && prev.phase === "play") {
    // The hand ended with this card: the last trick, from the table's facts.
    const last = view.table.last_trick;
    if (last) {
      const seen = prev.trick.length;
      for (const [seat, action] of last.plays.slice(seen))
        out.push(playWords(t, seat, action, view));
      out.push(`${seatName(t, last.winner)} wins the trick.`);
    }
  }
  const result = view.table.hand_result;
  if (result && (!prev || !prev.table.hand_result || prev.table.hand_result.hand !== result.hand)) {
    const made =
      result.made === null || result.made === undefined ? "" : result.made ? " made" : " set";
    out.push(
      `Hand ${result.hand} over: ${result.contract ? `${result.contract_label} by ${seatName(t, result.contractor)}${made}` : "all passed"}. Scores: ${result.scores.map((p, side) => `${sideName(t, side)} ${p}`).join(", ")}.`,
    );
  }
  const seats = view.table.auction_seats || [];
  const fromCall = sameHand ? prev.auction.length : 0;
  for (let i = fromCall; i < view.auction.length; i++)
    out.push(callWords(t, seats[i], view.auction[i], view.auction_labels[i]));
  if (view.contract && (!sameHand || !prev.contract))
    out.push(`${seatName(t, view.contractor)} wins the auction: ${view.contract_label}.`);
  if (sameHand || whole) {
    // the cards played since (all of this hand's where the hand is new)
    const before = sameHand
      ? prev.tricks.reduce((sum, trick) => sum + trick.length, 0) + prev.trick.length
      : 0;
    let i = 0;
    view.tricks.forEach((trick, k) => {
      for (const [seat, action] of trick)
        if (i++ >= before) out.push(playWords(t, seat, action, view));
      if (i > before) out.push(`${seatName(t, view.trick_winners[k])} wins the trick.`);
    });
    for (const [seat, action] of view.trick)
      if (i++ >= before) out.push(playWords(t, seat, action, view));
  }
  return out;
}

// What happened at the table since the view `seen` (the last this device showed of it, at
// the same seat) to `view`: the sentences of `changes`, after a line for the hands finished
// meanwhile. Empty where nothing did.
export function sinceWords(t, seen, view) {
  if (!seen || !seen.table || seen.table.code !== view.table.code) return [];
  const from = seen.table.hand_number;
  const now = view.table.hand_number;
  if (now === from) return changes(t, seen, view);
  if (now < from) return [];
  const ended =
    now - from === 1
      ? `Hand ${from} was played to its end.`
      : `Hands ${from} to ${now - 1} were played to their end.`;
  return [ended, ...changes(t, null, view, true)];
}
