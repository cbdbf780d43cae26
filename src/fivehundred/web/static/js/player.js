// A player's page (/p/NAME): games, contracts by strain, misère record, win rate, and a
// chart of points per hand. Only what the person played counts: the hands the stand-in
// played for them are drawn hollow and counted nowhere; a game they left reads "left";
// rated and casual games have their own figures.
import { applySettings, el, getJSON } from "./net.js";

const name = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const OUTCOMES = {
  won: "won",
  lost: "lost",
  left: "left (the stand-in played)",
  playing: "being played",
  closed: "closed unfinished",
};

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
  // drawn at the width it is shown at (a phone's too), so its labels keep their size
  const shownWidth = document.getElementById("chart")?.clientWidth || 720;
  const w = Math.max(300, Math.min(720, shownWidth)),
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
    const dot = p.stand_in
      ? svg("circle", {
          cx: x(i),
          cy: y(p.points),
          r: 3,
          class: "dot stand-in",
          style: "fill: #fff; stroke: #6b6b6b",
        })
      : svg("circle", { cx: x(i), cy: y(p.points), r: 3, class: "dot" });
    const who = p.stand_in ? " (played by the stand-in)" : "";
    dot.append(
      svg("title", {}, `${p.table} hand ${p.hand}: ${p.points > 0 ? "+" : ""}${p.points}${who}`),
    );
    root.append(dot);
  });
  return root;
}

// Each finished game's review (as `fivehundred analyse --review`): the share of calls the
// search player agrees with, of discards and of cards that cost no trick; oldest first.
function reviewTable(reviews) {
  if (!reviews.length) return el("p", {}, "No reviewed games yet.");
  const pct = (v) => (v === null || v === undefined ? "—" : `${Math.round(v * 100)}%`);
  return el(
    "table",
    { class: "list", id: "review-table" },
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        ["Game", "Finished", "Calls", "Discards", "Cards", "Tricks lost"].map((t) =>
          el("th", { scope: "col" }, t),
        ),
      ),
    ),
    el(
      "tbody",
      {},
      reviews.map((r) =>
        el(
          "tr",
          {},
          el("td", {}, el("a", { href: `/g/${encodeURIComponent(r.table)}` }, r.name || r.table)),
          el("td", {}, (r.finished || "").slice(0, 10)),
          el("td", {}, pct(r.accuracy.calls)),
          el("td", {}, pct(r.accuracy.discards)),
          el("td", {}, pct(r.accuracy.cards)),
          el("td", {}, String(r.tricks_lost)),
        ),
      ),
    ),
  );
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
  // one page per person: their account's ratings (if the name is an account's)
  if (data.summary.account) {
    $("account-link").href = `/account/${encodeURIComponent(data.summary.account)}`;
    $("account-link").hidden = false;
  }
  const s = data.summary || {};
  const percent = (r) => (r === null || r === undefined ? "—" : `${Math.round(r * 100)}%`);
  $("stats").replaceChildren(
    stat("games", String(s.games ?? data.games.length)),
    stat("win rate", percent(s.win_rate)),
    stat("left", String(s.left ?? 0)),
    stat("hands played", String(s.hands ?? 0)),
    stat("hands by the stand-in", String(s.stand_in_hands ?? 0)),
    stat("contracts made / bid", `${s.contracts_made ?? 0} / ${s.contracts_bid ?? 0}`),
    stat("misère made / bid", `${data.misere.made} / ${data.misere.bid}`),
  );
  const kinds = [
    ["Rated", s.rated],
    ["Casual", s.casual],
  ].filter(([, f]) => f && f.games);
  if (kinds.length) {
    $("kinds-box").replaceChildren(
      el(
        "table",
        { class: "list", id: "kinds" },
        el(
          "thead",
          {},
          el(
            "tr",
            {},
            ["", "Games", "Won", "Left", "Win %", "Hands", "Made / bid"].map((t) =>
              el("th", { scope: "col" }, t),
            ),
          ),
        ),
        el(
          "tbody",
          {},
          kinds.map(([label, f]) =>
            el(
              "tr",
              {},
              el("th", { scope: "row" }, label),
              el("td", {}, String(f.games)),
              el("td", {}, String(f.wins)),
              el("td", {}, String(f.left)),
              el("td", {}, percent(f.win_rate)),
              el("td", {}, String(f.hands)),
              el("td", {}, `${f.contracts_made} / ${f.contracts_bid}`),
            ),
          ),
        ),
      ),
    );
  }
  $("chart").replaceChildren(chart(data.points));
  const rows = Object.entries(data.strains).map(([k, v]) =>
    el(
      "tr",
      {},
      el("td", {}, v.label || k),
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
  $("reviews").replaceChildren(reviewTable(s.reviews || []));
  const games = data.games.map((g) =>
    el(
      "tr",
      {},
      el("td", {}, el("a", { href: `/g/${encodeURIComponent(g.table)}` }, g.name || g.table)),
      el("td", {}, (g.scores || []).join(" – ")),
      el("td", {}, OUTCOMES[g.outcome] || g.outcome),
      el("td", {}, g.rated ? "rated" : "casual"),
    ),
  );
  $("games").replaceChildren(
    games.length
      ? el("table", { class: "list" }, el("tbody", {}, games))
      : el("p", {}, "No games yet."),
  );
}

start();
