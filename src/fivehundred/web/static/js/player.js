// A player's page (/p/NAME): games, contracts by strain, misère record, win rate, and a
// chart of points per hand.
import { contractText } from "./rules.js";
import { SUIT_NAMES, SUIT_SYMBOLS } from "./cards.js";
import { applySettings, el, getJSON } from "./net.js";

const name = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function stat(label, value) {
  return el("div", { class: "stat" }, el("b", {}, value), label);
}

function chart(points) {
  const w = 720,
    h = 240,
    pad = 36;
  const root = svg("svg", {
    viewBox: `0 0 ${w} ${h}`,
    class: "chart",
    role: "img",
    "aria-label": `points per hand over ${points.length} hands`,
  });
  if (!points.length) return el("p", {}, "No hands yet.");
  const values = points.map((p) => p.points);
  const lo = Math.min(0, ...values),
    hi = Math.max(0, ...values);
  const span = hi - lo || 1;
  const x = (i) =>
    pad + (points.length === 1 ? (w - 2 * pad) / 2 : (i * (w - 2 * pad)) / (points.length - 1));
  const y = (v) => h - pad - ((v - lo) * (h - 2 * pad)) / span;
  root.append(svg("line", { x1: pad, x2: w - pad, y1: y(0), y2: y(0), class: "axis" }));
  root.append(svg("line", { x1: pad, x2: pad, y1: pad / 2, y2: h - pad, class: "axis" }));
  root.append(
    svg("text", { x: 4, y: y(hi) + 4 }, String(hi)),
    svg("text", { x: 4, y: y(lo) + 4 }, String(lo)),
    svg("text", { x: 4, y: y(0) + 4 }, "0"),
  );
  root.append(
    svg("text", { x: w - pad, y: h - 8, "text-anchor": "end" }, `hand ${points.length}`),
    svg("text", { x: pad, y: h - 8 }, "hand 1"),
  );
  root.append(
    svg("polyline", {
      points: points.map((p, i) => `${x(i)},${y(p.points)}`).join(" "),
      class: "line",
    }),
  );
  points.forEach((p, i) => {
    const dot = svg("circle", { cx: x(i), cy: y(p.points), r: 3, class: "dot" });
    dot.append(
      svg("title", {}, `${p.table} hand ${p.hand}: ${p.points > 0 ? "+" : ""}${p.points}`),
    );
    root.append(dot);
  });
  return root;
}

async function start() {
  applySettings();
  $("player-name").textContent = name;
  $("player-title").textContent = name;
  document.title = `Five Hundred — ${name}`;
  let data;
  try {
    data = await getJSON(`/api/players/${encodeURIComponent(name)}/history`);
  } catch (error) {
    $("stats").replaceChildren(el("p", { role: "alert" }, error.message));
    return;
  }
  const s = data.summary || {};
  const rate =
    s.win_rate === null || s.win_rate === undefined ? "—" : `${Math.round(s.win_rate * 100)}%`;
  $("stats").replaceChildren(
    stat("games", String(s.games ?? data.games.length)),
    stat("win rate", rate),
    stat("hands", String(s.hands ?? data.points.length)),
    stat("contracts made / bid", `${s.contracts_made ?? 0} / ${s.contracts_bid ?? 0}`),
    stat("misère made / bid", `${data.misere.made} / ${data.misere.bid}`),
  );
  $("chart").replaceChildren(chart(data.points));
  const strainName = (k) =>
    k === "NT"
      ? "no trumps"
      : SUIT_SYMBOLS[k]
        ? `${SUIT_SYMBOLS[k]} ${SUIT_NAMES[k]}`
        : contractText(k);
  const rows = Object.entries(data.strains).map(([k, v]) =>
    el(
      "tr",
      {},
      el("td", {}, strainName(k)),
      el("td", {}, String(v.bid)),
      el("td", {}, String(v.made)),
      el("td", {}, v.bid ? `${Math.round((100 * v.made) / v.bid)}%` : ""),
    ),
  );
  $("strains").replaceChildren(
    rows.length
      ? el(
          "table",
          { class: "list" },
          el(
            "thead",
            {},
            el(
              "tr",
              {},
              ["Strain", "Bid", "Made", ""].map((t) => el("th", {}, t)),
            ),
          ),
          el("tbody", {}, rows),
        )
      : el("p", {}, "No contracts yet."),
  );
  const games = data.games.map((g) =>
    el(
      "tr",
      {},
      el("td", {}, el("a", { href: `/g/${encodeURIComponent(g.table)}` }, g.name || g.table)),
      el("td", {}, (g.scores || []).join(" – ")),
      el("td", {}, g.won === null ? "being played" : g.won ? "won" : "lost"),
    ),
  );
  $("games").replaceChildren(
    games.length
      ? el("table", { class: "list" }, el("tbody", {}, games))
      : el("p", {}, "No games yet."),
  );
}

start();
