// Card logic the page needs to show a hand: strains, the bowers, sorting, and why a card
// may not be played (in card language). The server decides what is legal ("legal" in the
// view); this only explains it.
import { parseCard, playedCard, SUIT_SYMBOLS } from "./cards.js";

const SAME_COLOUR = { S: "C", C: "S", D: "H", H: "D" };
const RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "J", "Q", "K", "A"];

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
const CONTRACT_WORDS = ["misere", "open_misere", "blind_misere", "hi_lo", "double_misere", "shields_double", "patastrophe"];

export function contractText(contract) {
  if (!contract) return "";
  if (CONTRACT_WORDS.includes(contract)) return CALL_NAMES[contract];
  const strain = strainOf(contract);
  const tricks = contract.replace(/\D+$/, "");
  return `${tricks} ${strain === "NT" ? "no trumps" : SUIT_SYMBOLS[strain]}`;
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

function power(text, strain, jokerSuit) {
  const c = parseCard(text);
  if (c.joker) return c.black ? 31 : 30;
  const bower = bowerOf(text, strain);
  if (bower === "right") return 29;
  if (bower === "left") return 28;
  return RANK_ORDER.indexOf(c.rank);
}

// Sort a hand for display: suits alternate colours, trumps (with bowers and joker) first,
// highest first; before a contract the joker leads.
export function sortHand(cards, strain, jokerSuit) {
  const trump = strain && strain.length === 1 && strain !== "M" ? strain : null;
  let order = ["S", "H", "C", "D"];
  if (trump) {
    const others = { S: ["H", "C", "D"], H: ["S", "D", "C"], C: ["H", "S", "D"], D: ["S", "H", "C"] };
    order = [trump, ...others[trump]];
  }
  const rank = (text) => {
    const suit = effectiveSuit(text, strain, jokerSuit);
    return suit === null ? -1 : order.indexOf(suit);
  };
  return [...cards].sort((a, b) => rank(a) - rank(b) || power(b, strain, jokerSuit) - power(a, strain, jokerSuit));
}

// The suit led to the current trick, or null when leading.
export function ledSuit(view) {
  if (!view.trick || view.trick.length === 0) return null;
  const { card, as } = playedCard(view.trick[0][1]);
  return as || effectiveSuit(card, strainOf(view.contract), jokerSuitsOf(view));
}

// Why `card` may not be played now, in card language (null when it may be, or when it is
// not this seat's turn to play).
export function refusalReason(view, card) {
  if (view.phase !== "play" || view.to_move !== view.seat) return null;
  const legal = view.legal || [];
  if (legal.some((a) => playedCard(a).card === card)) return null;
  const strain = strainOf(view.contract);
  const led = ledSuit(view);
  const mine = view.hand || [];
  const isJoker = parseCard(card).joker;
  if (led) {
    const canFollow = mine.some((c) => effectiveSuit(c, strain, jokerSuitsOf(view)) === led);
    if (canFollow) {
      if (isJoker && effectiveSuit(card, strain, jokerSuitsOf(view)) === null) {
        return `the joker may only be played when you cannot follow ${SUIT_SYMBOLS[led]}`;
      }
      const bower = bowerOf(card, strain);
      if (bower === "left") return `the left bower is a trump: you must follow ${SUIT_SYMBOLS[led]}`;
      return `you must follow ${SUIT_SYMBOLS[led]}`;
    }
    return `you cannot follow ${SUIT_SYMBOLS[led]}, so in misère you must play the joker`;
  }
  if (isJoker) return "the joker may be led only as a suit not led yet (or to the last trick)";
  return "this card may not be played now";
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
