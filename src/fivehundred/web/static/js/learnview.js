// Drawing a position the server describes (the learn endpoints' "position"): the
// contract and tricks, each seat's cards, the trick in progress and your hand as buttons.
// No rules here: what may be played is the server's "legal" list.
import { cardElement, cardSymbol, playedCard, setWords, suitSymbol } from "./cards.js";
import { el } from "./net.js";

export function cardText(action) {
  const p = playedCard(action);
  return p.as ? `${cardSymbol(p.card)} as ${suitSymbol(p.as) || p.as}` : cardSymbol(p.card);
}

function facts(pos) {
  const out = [];
  if (pos.contract) {
    let who = pos.contractor;
    if (pos.partners && pos.partners.length) who += ` (partner ${pos.partners.join(" and ")})`;
    out.push(el("span", { class: "fact" }, `Contract: ${pos.contract} by ${who}`));
    out.push(
      el(
        "span",
        { class: "fact" },
        `Tricks: ${pos.tricks.map((t) => `${t.side} ${t.won}`).join(", ")}; ${pos.tricks_left} to play`,
      ),
    );
  } else if (pos.auction && pos.auction.length) {
    out.push(
      el(
        "span",
        { class: "fact" },
        `Auction: ${pos.auction.map((a) => `${a.name} ${a.call}`).join(", ")}`,
      ),
    );
  }
  if (pos.to_move_name) out.push(el("span", { class: "fact" }, `${pos.to_move_name} to move`));
  return el("div", { class: "learn-facts" }, out);
}

// `onCard(action)`: called with the card (or joker lead) tapped; every card of yours is a
// button, the ones the server lists as legal drawn bright (a refused tap is the engine's).
export function drawPosition(box, pos, onCard) {
  setWords(pos.words);
  box.replaceChildren();
  box.append(facts(pos));
  const others = el("div", { class: "learn-seats" });
  for (const seat of pos.seats) {
    if (seat.you) continue;
    let body;
    if (seat.sits_out) body = el("p", {}, "sits out");
    else if (seat.hidden !== undefined) body = el("p", {}, `${seat.hidden} cards, hidden`);
    else
      body = el(
        "div",
        { class: "mini-hand", role: "list", "aria-label": `${seat.name}'s cards` },
        seat.cards.map((c) => {
          const e = cardElement(c);
          e.setAttribute("role", "listitem");
          e.setAttribute("aria-label", cardSymbol(c));
          return e;
        }),
      );
    const compact = seat.cards === undefined;
    others.append(
      el(
        "section",
        { class: `learn-seat${compact ? " compact" : ""}`, "aria-label": seat.name },
        el("h3", {}, seat.name),
        body,
      ),
    );
  }
  box.append(others);
  const trick = el("div", {
    class: "learn-trick",
    role: "group",
    "aria-label": "the trick so far",
  });
  for (const play of pos.trick || []) {
    const p = playedCard(play.card);
    const card = cardElement(p.card, { label: `${play.name}: ${cardText(play.card)}` });
    trick.append(el("figure", {}, card, el("figcaption", {}, `${play.name} ${play.text}`)));
  }
  if (!(pos.trick || []).length && pos.phase === "play" && pos.to_move_name)
    trick.append(el("p", {}, `${pos.to_move_name} to lead.`));
  box.append(trick);
  const you = pos.seats.find((s) => s.you);
  if (you && you.cards) {
    const legal = new Set((pos.legal || []).map((a) => playedCard(a).card));
    const hand = el("div", {
      class: "learn-hand",
      role: "group",
      "aria-label": `your cards (${you.name})`,
    });
    for (const c of you.cards) {
      const button = cardElement(c, { button: Boolean(onCard), label: cardSymbol(c) });
      button.dataset.card = c;
      if (pos.legal && pos.legal.length && !legal.has(c)) button.classList.add("illegal");
      if (onCard) button.addEventListener("click", () => onCard(c));
      hand.append(button);
    }
    box.append(
      el(
        "section",
        { class: "learn-seat learn-you", "aria-label": `you, ${you.name}` },
        el("h3", {}, `You: ${you.name}`),
        hand,
      ),
    );
  }
}

// The joker led in no trumps: the server's legal list holds "JK>D" etc. When it holds one
// for `card`, the four suits are offered (the legal ones bright; the others go to the
// engine too, which says why it refuses them).
export function leadChoices(pos, card) {
  const legal = (pos.legal || []).filter((a) => a.startsWith(`${card}>`));
  if (!legal.length) return [];
  return ["S", "C", "D", "H"].map((suit) => ({
    action: `${card}>${suit}`,
    legal: legal.includes(`${card}>${suit}`),
  }));
}

export function suitButtons(box, choices, send) {
  box.replaceChildren(
    el("span", {}, "Lead it as:"),
    ...choices.map((c) =>
      el(
        "button",
        {
          class: `btn secondary${c.legal ? "" : " illegal"}`,
          type: "button",
          "data-action": c.action,
          onclick: () => {
            box.hidden = true;
            send(c.action);
          },
        },
        cardText(c.action),
      ),
    ),
  );
  box.hidden = false;
}

export function said(box, lines, cls = "") {
  box.replaceChildren(
    ...lines.map((line) => {
      let c = cls;
      if (
        line.startsWith("The table refuses") ||
        line.startsWith("You do not") ||
        line.startsWith("You must")
      )
        c = "refused";
      return el("p", { class: c }, line);
    }),
  );
}
