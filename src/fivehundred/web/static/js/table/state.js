// The table's state and the facts every region of the page reads from it (whose seat, whose
// turn, each seat's name). A page that draws a table (the table page, the lessons, the
// puzzles) makes one with createTable and hands it to the drawing functions of the other
// modules (seats.js, hand.js, auction.js, trick.js, controls.js, score.js, …): they read the
// view from `t.state.view`, find their boxes under `t.root` by id, and act through `t.act`.

// A table to draw. `root`: the document (or an element) holding the boxes by id; `code`:
// the table's code (links, keys in the browser's storage); `send(message)`: hands a message
// to the server and says whether it went; `settings`: four colours, sound.
export function createTable({ root = document, code = "", send = null, settings = {} } = {}) {
  const t = {
    root,
    code,
    state: {
      info: null, // GET /api/tables/CODE
      message: null, // the last view message
      view: null,
      socket: null,
      selected: new Set(), // discards chosen
      queue: [], // discards confirmed, sent one by one
      jokerChoice: null, // a free joker picked to lead: choose its suit
      showLast: false,
      lastTrickShown: "",
      summaryShown: -1,
      seenTrick: [],
      focusCard: null,
      kittyMark: null,
      bidLevel: 6, // the level the bid box offers (the lowest legal one at each turn)
      bidTurn: "",
      typed: "", // a card or bid being typed ("10h", "jk", "6s")
      announced: null, // the view the live region last spoke about
      settings,
    },
    // The box with this id under the root.
    $(id) {
      return root.getElementById ? root.getElementById(id) : root.querySelector(`#${id}`);
    },
    // What the table says in its line under the hand.
    toast(text) {
      const box = t.$("toast");
      if (box) box.textContent = text;
    },
    // Hand a message to the server (the table's socket unless the page says otherwise).
    send(message) {
      const sent = send ? send(message) : Boolean(t.state.socket && t.state.socket.send(message));
      if (!sent) t.toast("Not connected — your move is not sent; reconnecting…");
    },
    // Make a move: a call, a card, a discard, a choice.
    act(action) {
      if (!t.state.message) return;
      t.state.jokerChoice = null;
      t.send({ type: "action", action, version: t.state.message.version });
    },
    // Draw the whole table again (the page sets it: see render.js).
    render() {},
    // The wide layout (the bid box in the middle of the table), set by the page.
    wide: { matches: false },
  };
  return t;
}

export function seatCount(view) {
  return view.hand_sizes.length;
}

// The seat of the person at this page, or null for a person watching.
export function me(t) {
  const v = t.state.view && t.state.view.table;
  return v && v.you !== null && v.you !== undefined ? v.you : null;
}

// One name per seat, as the server says ("names") and the score sheet shows: the seat's
// number is added where two seats share a name ("medium 2", "medium 4").
export function displayNames(names) {
  return names.map((name, seat) =>
    names.filter((n) => n === name).length > 1 ? `${name} ${seat + 1}` : name,
  );
}

export function seatName(t, seat) {
  const { view, info } = t.state;
  const seats = (view && view.table && view.table.seats) || (info && info.seats) || [];
  // Every seat's name as the server says it ("names"), the seats that are no player's
  // included (a dummy, the stock, the dead hand: R-PLAYERS).
  const names =
    (view && view.table && view.table.names) || displayNames(seats.map((s) => s.name || s.kind));
  if (seat >= seats.length) return names[seat] || `Seat ${seat + 1}`;
  const s = seats[seat];
  if (!s) return `Seat ${seat + 1}`;
  if (s.kind === "open") return `(open seat ${seat + 1})`;
  return names[seat] || `Seat ${seat + 1}`;
}

// The player who decides for a seat (a two-handed dummy: its owner), or null for a seat
// that is nobody's (the stock, a dead hand): as the server says.
export function controllerOf(t, seat) {
  const controllers = t.state.view.table.controllers || [];
  const c = controllers[seat];
  return c === undefined ? seat : c;
}

export function isMySeat(t, seat) {
  const you = me(t);
  return you !== null && controllerOf(t, seat) === you;
}

// A side named by its players, as the server says it.
export function sideName(t, side) {
  const names = (t.state.view.table && t.state.view.table.side_names) || [];
  return names[side] || `Side ${side + 1}`;
}

export function myTurn(t) {
  const view = t.state.view;
  return (
    view &&
    view.to_move !== null &&
    view.to_move >= 0 &&
    view.to_move === view.seat &&
    (view.legal || []).length > 0 &&
    me(t) !== null
  );
}

// More than two sides (three-, five-handed), or a person watching: the scores are shown on
// the seat boxes (the strip above the table names no side: "you" and "them" when seated).
export function scoresOnSeats(t, view) {
  return me(t) === null || new Set(view.sides.filter((_, seat) => seat < view.players)).size > 2;
}

export function hasComputers(t) {
  const seats = t.state.view.table.seats || [];
  return t.state.view.table.hints !== undefined
    ? t.state.view.table.hints
    : seats.some((s) => s.kind === "computer");
}

// What the table says while another seat decides, as the server says it ("Ann to bid.");
// an open seat to move waits for a person to sit there, and says so (not "open to bid").
export function waitingText(view) {
  const seat = view.to_move;
  const info = view.table && seat >= 0 ? (view.table.seats || [])[seat] : null;
  if (info && info.kind === "open") {
    const relation = (view.table.relations || [])[seat] || {};
    const who = ["partner", "opponent"].includes(relation.key) ? relation.word : "someone";
    return `Waiting for ${who} to take the open seat ${seat + 1}.`;
  }
  return view.table && view.table.waiting ? `${view.table.waiting}.` : "";
}

export function beep(t) {
  if (!t.state.settings.sound) return;
  try {
    const ctx = new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = 660;
    gain.gain.value = 0.05;
    osc.connect(gain).connect(ctx.destination);
    osc.start();
    osc.stop(ctx.currentTime + 0.12);
  } catch {
    /* no sound here */
  }
}
