// Card drawings: every card is an SVG drawn here (no images, crisp at any size).
// Card text is record notation: "10H", "AS", "13D", "JK" (or "JKR"/"JKB" with two jokers;
// "JKW", the French-Canadian white joker, ranks as the black one).

// Suit shapes on a 100×100 box.
export const SUIT_PATHS = {
  H: "M50 92C22 68 2 50 2 29 2 13 14 3 28 3c10 0 18 6 22 15C54 9 62 3 72 3c14 0 26 10 26 26 0 21-20 39-48 63z",
  D: "M50 2 88 50 50 98 12 50z",
  S: "M50 2C62 22 98 40 98 64c0 15-11 25-24 25-9 0-16-4-20-10 1 9 6 15 14 19v0H32c8-4 13-10 14-19-4 6-11 10-20 10C13 89 2 79 2 64 2 40 38 22 50 2z",
  C: "M50 4a21 21 0 0 1 17 33 21 21 0 1 1 -8 31c1 12 6 21 13 28H28c7-7 12-16 13-28a21 21 0 1 1 -8-31A21 21 0 0 1 50 4z",
};

export function parseCard(text) {
  if (text === "JK" || text === "JKR") return { joker: true, black: false, text };
  if (text === "JKB" || text === "JKW") return { joker: true, black: true, text };
  return { joker: false, rank: text.slice(0, -1), suit: text.slice(-1), text };
}

// The words the page says for cards and suits are the server's (fivehundred.words
// pack_words: "10♥", "10 of hearts", "♠", "spades"): a page hands them over with setWords
// once the server has sent them; until then a card is its record notation.
let words = { cards: {}, names: {}, suits: {}, suit_names: {} };

export function setWords(given) {
  if (given) words = given;
}

export function cardName(text) {
  return words.names[text] || text;
}

export function cardSymbol(text) {
  return words.cards[text] || text;
}

export function suitSymbol(suit) {
  return words.suits[suit] || suit;
}

export function suitName(suit) {
  return words.suit_names[suit] || suit;
}

// Joker leads are "JK>S": the joker led as a spade.
export function playedCard(action) {
  const i = action.indexOf(">");
  return i < 0 ? { card: action, as: null } : { card: action.slice(0, i), as: action.slice(i + 1) };
}

function pip(suit, x, y, size, flip) {
  const s = size / 100;
  const rot = flip ? ` rotate(180 ${x} ${y})` : "";
  return `<path d="${SUIT_PATHS[suit]}" class="pip s${suit}" transform="${rot} translate(${x - size / 2} ${y - size / 2}) scale(${s})"/>`;
}

// Pip positions on a 200×280 card for every count of the rule book's packs (2–10, 11–13).
const L = 62,
  M = 100,
  R = 138;
function column(x, ys) {
  return ys.map((y) => [x, y]);
}
const ROWS4 = [62, 114, 166, 218];
const LAYOUTS = {
  2: column(M, [62, 218]),
  3: column(M, [62, 140, 218]),
  4: [...column(L, [62, 218]), ...column(R, [62, 218])],
  5: [...column(L, [62, 218]), ...column(R, [62, 218]), [M, 140]],
  6: [...column(L, [62, 140, 218]), ...column(R, [62, 140, 218])],
  7: [...column(L, [62, 140, 218]), ...column(R, [62, 140, 218]), [M, 101]],
  8: [...column(L, [62, 140, 218]), ...column(R, [62, 140, 218]), [M, 101], [M, 179]],
  9: [...column(L, ROWS4), ...column(R, ROWS4), [M, 140]],
  10: [...column(L, ROWS4), ...column(R, ROWS4), [M, 88], [M, 192]],
  11: [...column(L, ROWS4), ...column(R, ROWS4), [M, 88], [M, 140], [M, 192]],
  12: [...column(L, ROWS4), ...column(R, ROWS4), ...column(M, ROWS4)],
  13: [
    ...column(L, [62, 101, 140, 179, 218]),
    ...column(R, [62, 101, 140, 179, 218]),
    [M, 88],
    [M, 140],
    [M, 192],
  ],
};

function corner(label, suit, cls) {
  const small = label.length > 1 ? ' textLength="38" lengthAdjust="spacingAndGlyphs"' : "";
  const body =
    `<text x="24" y="46" class="idx ${cls}"${small}>${label}</text>` +
    (suit ? pip(suit, 24, 72, 32, false) : "");
  return `<g>${body}</g><g transform="rotate(180 100 140)">${body}</g>`;
}

function jokerFace(black) {
  const cls = black ? "jkb" : "jkr";
  // A jester's star with the word JOKER.
  let star = "";
  for (let i = 0; i < 10; i++) {
    const r = i % 2 ? 26 : 62;
    const a = (Math.PI / 5) * i - Math.PI / 2;
    star += `${i ? "L" : "M"}${(100 + r * Math.cos(a)).toFixed(1)} ${(140 + r * Math.sin(a)).toFixed(1)}`;
  }
  const letters = "JOKER"
    .split("")
    .map((ch, i) => `<text x="22" y="${40 + i * 24}" class="jk-letter ${cls}">${ch}</text>`)
    .join("");
  return (
    `<path d="${star}Z" class="jk-star ${cls}"/>` +
    `<circle cx="100" cy="140" r="14" class="jk-eye"/>` +
    `<g>${letters}</g><g transform="rotate(180 100 140)">${letters}</g>`
  );
}

function courtFace(rank, suit) {
  return (
    `<rect x="44" y="50" width="112" height="180" rx="10" class="court s${suit}"/>` +
    `<text x="100" y="158" class="court-letter s${suit}">${rank}</text>` +
    pip(suit, 100, 84, 34, false) +
    pip(suit, 100, 196, 34, true)
  );
}

// The SVG markup of a card face; `back` draws the back.
export function cardSVG(text, { back = false } = {}) {
  const open = `<svg viewBox="0 0 200 280" class="card-svg" aria-hidden="true" focusable="false"><rect x="2" y="2" width="196" height="276" rx="14" class="${back ? "back" : "face"}"/>`;
  if (back) {
    return `${open}<rect x="16" y="16" width="168" height="248" rx="8" class="back-panel"/><path d="M100 40 170 140 100 240 30 140z" class="back-diamond"/></svg>`;
  }
  const c = parseCard(text);
  if (c.joker) return `${open}${jokerFace(c.black)}</svg>`;
  const cls = `s${c.suit}`;
  let face;
  if (["J", "Q", "K"].includes(c.rank)) face = courtFace(c.rank, c.suit);
  else if (c.rank === "A") face = pip(c.suit, 100, 140, 96, false);
  else
    face = LAYOUTS[Number(c.rank)]
      .map(([x, y]) => pip(c.suit, x, y, Number(c.rank) > 10 ? 30 : 34, y > 140))
      .join("");
  return `${open}${corner(c.rank, c.suit, cls)}${face}</svg>`;
}

// A card element: a <button> when it can be chosen, otherwise a <div>.
export function cardElement(text, { button = false, back = false, label = null } = {}) {
  const el = document.createElement(button ? "button" : "div");
  el.className = "card";
  if (button) el.type = "button";
  el.innerHTML = cardSVG(text, { back });
  if (back) {
    el.classList.add("face-down");
    el.setAttribute("aria-label", label || "a face-down card");
  } else {
    el.dataset.card = text;
    if (button) {
      // A button is named by its words in its own text (hidden from sight), not by an
      // aria-label: the drawing's letters ("K", "JOKER") are not its name, and a name the
      // visible text is no part of is what WCAG 2.5.3 forbids (axe label-content-name-mismatch).
      el.append(cardNameSpan(label || cardName(text)));
    } else el.setAttribute("aria-label", label || cardName(text));
  }
  if (!button) el.setAttribute("role", "img");
  return el;
}

function cardNameSpan(text) {
  const span = document.createElement("span");
  span.className = "visually-hidden card-name";
  span.textContent = text;
  return span;
}

// A card's name as a screen reader says it (its button's words, or its picture's label).
export function cardLabel(node) {
  const span = node.querySelector(":scope > .card-name");
  return span ? span.textContent : node.getAttribute("aria-label") || "";
}

export function suitIcon(suit) {
  return `<svg viewBox="0 0 100 100" class="suit-icon" aria-hidden="true"><path d="${SUIT_PATHS[suit]}" class="pip s${suit}"/></svg>`;
}
