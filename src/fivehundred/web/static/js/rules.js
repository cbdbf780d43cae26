// What the page needs to draw a hand: strains, the bowers (to name and sort cards), sorting.
// The server decides what is legal ("legal"), says why a card is refused ("refusals") and
// what each legal action is called ("legal_labels"); the page only shows them.
import { cardName, parseCard, playedCard, RANKS, SUIT_SYMBOLS } from "./cards.js";

const SAME_COLOUR = { S: "C", C: "S", D: "H", H: "D" };

// The contract's strain: "S" "C" "D" "H", "NT", or "M" for the misères; null with no contract.
export function strainOf(contract) {
  if (!contract) return null;
  if (contract.includes("misere")) return "M";
  return contract.replace(/^\d+/, "");
}

// The calls and decisions that are words, as the page says them.
const CALL_NAMES = {
  misere: "Misère",
  open_misere: "Open misère",
  blind_misere: "Blind misère",
  hi_lo: "Hi/lo",
  double_misere: "Double misère",
  shields_double: "Shields double",
  patastrophe: "Patastrophe",
  slam: "Call slam",
  no_slam: "No slam",
  claim: "Claim the rest",
  keep: "Keep it",
  throw: "Throw it",
  alone: "Go alone",
  none: "Leave free",
};
const CONTRACT_WORDS = [
  "misere",
  "open_misere",
  "blind_misere",
  "hi_lo",
  "double_misere",
  "shields_double",
  "patastrophe",
];

export function contractText(contract) {
  if (!contract) return "";
  if (CONTRACT_WORDS.includes(contract)) return CALL_NAMES[contract];
  const strain = strainOf(contract);
  const tricks = contract.replace(/\D+$/, "");
  return strain === "NT" ? `${tricks} no trumps` : `${tricks}${SUIT_SYMBOLS[strain]}`;
}

export function callText(call) {
  if (call === "pass") return "Pass";
  if (CALL_NAMES[call]) return CALL_NAMES[call];
  return contractText(call);
}

// The suits nominated for the jokers, [first, black/white], from a view or a record hand.
export function jokerSuitsOf(view) {
  return view.joker_suits || [view.joker_suit || null, null];
}

// The suit a card counts as (trumps include the left bower and jokers); null: a free joker.
// `jokerSuit` is the nominated suit, or [first joker's, black/white joker's] with two jokers.
export function effectiveSuit(text, strain, jokerSuit) {
  const c = parseCard(text);
  const trump = strain && strain.length === 1 && strain !== "M" ? strain : null;
  const nominated = Array.isArray(jokerSuit) ? jokerSuit[c.black ? 1 : 0] : jokerSuit;
  if (c.joker) return trump || nominated || null;
  if (trump && c.rank === "J" && c.suit === SAME_COLOUR[trump]) return trump;
  return c.suit;
}

export function bowerOf(text, strain) {
  const c = parseCard(text);
  if (c.joker || c.rank !== "J" || !strain || strain.length !== 1 || strain === "M") return null;
  if (c.suit === strain) return "right";
  if (c.suit === SAME_COLOUR[strain]) return "left";
  return null;
}

function power(text, strain, _jokerSuit) {
  const c = parseCard(text);
  if (c.joker) return c.black ? 31 : 30;
  const bower = bowerOf(text, strain);
  if (bower === "right") return 29;
  if (bower === "left") return 28;
  return RANKS.indexOf(c.rank);
}

// Sort a hand for display: suits alternate colours, trumps (with bowers and joker) first,
// highest first; before a contract the joker leads.
export function sortHand(cards, strain, jokerSuit) {
  const trump = strain && strain.length === 1 && strain !== "M" ? strain : null;
  let order = ["S", "H", "C", "D"];
  if (trump) {
    const others = {
      S: ["H", "C", "D"],
      H: ["S", "D", "C"],
      C: ["H", "S", "D"],
      D: ["S", "H", "C"],
    };
    order = [trump, ...others[trump]];
  }
  const rank = (text) => {
    const suit = effectiveSuit(text, strain, jokerSuit);
    return suit === null ? -1 : order.indexOf(suit);
  };
  return [...cards].sort(
    (a, b) => rank(a) - rank(b) || power(b, strain, jokerSuit) - power(a, strain, jokerSuit),
  );
}

// Why `card` may not be played now, in card language: the server says ("refusals" in the
// view); null when it may be, or when it is not this seat's turn to play.
export function refusalReason(view, card) {
  return (view.refusals && view.refusals[card]) || null;
}

// A card in words for a screen reader: "jack of diamonds, left bower", "joker".
export function cardWords(text, view) {
  const strain = view ? strainOf(view.contract) : null;
  const bower = bowerOf(text, strain);
  const name = cardName(text);
  return bower ? `${name}, ${bower} bower` : name;
}

// What a legal action is called, from the server ("6♦", "joker as ♠"); its text otherwise.
export function actionLabel(view, action) {
  return (view && view.legal_labels && view.legal_labels[action]) || callText(action);
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
