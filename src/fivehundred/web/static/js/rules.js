// What the page says about the rules, all of it from the server: what is legal ("legal"),
// why a card is refused ("refusals"), what each legal action is called ("legal_labels"), and
// each card in words ("card_words", bowers named). The hand comes in its display order and
// the contract and calls with their labels ("contract_label", "auction_labels"): the page
// only shows them.
import { cardName, playedCard } from "./cards.js";

// Why `card` may not be played now, in card language: the server says ("refusals" in the
// view); null when it may be, or when it is not this seat's turn to play.
export function refusalReason(view, card) {
  return (view.refusals && view.refusals[card]) || null;
}

// A card in words for a screen reader, as the server says it ("jack of diamonds, left
// bower"): the view's words, or the last trick's (it may end the hand before); its plain
// name for a card neither names.
export function cardWords(text, view) {
  const last = view && view.table && view.table.last_trick;
  return (
    (view && view.card_words && view.card_words[text]) ||
    (last && last.words && last.words[text]) ||
    cardName(text)
  );
}

// What a legal action is called, from the server ("6♦", "JK as ♠"); its text otherwise.
export function actionLabel(view, action) {
  return (view && view.legal_labels && view.legal_labels[action]) || action;
}

// The suits a free joker may be led as, from the legal actions ("JK>S").
export function jokerLeadSuits(view, joker) {
  return (view.legal || [])
    .map(playedCard)
    .filter((p) => p.card === joker && p.as)
    .map((p) => p.as);
}

export function isLegalCard(view, card) {
  return (view.legal || []).some((a) => playedCard(a).card === card);
}
