// The account page: log in, sign up, settings; /account/NAME shows a player's ratings
// with a small SVG chart of the rating history (server data: GET /api/accounts/NAME).
import { send } from "./net.js";
const $ = (id) => document.getElementById(id);
// What the page says (the server's words: a sentence, from its capital), in view however
// far down the form was that asked (a refused sign-up on a phone).
const status = (text) => {
  const words = String(text || "");
  $("status").textContent = words && words[0].toUpperCase() + words.slice(1);
  if (words) $("status").scrollIntoView({ block: "nearest" });
};

function formData(form) {
  return Object.fromEntries(new FormData(form).entries());
}

function text(tag, content) {
  const node = document.createElement(tag);
  node.textContent = content;
  return node;
}

const SVG = "http://www.w3.org/2000/svg";
function svg(tag, attributes) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  return node;
}

function chart(history) {
  const box = $("rating-chart");
  box.replaceChildren();
  if (!history.length) {
    box.append(text("p", "No rated games yet."));
    return;
  }
  // drawn at the width it is shown at (a phone's too), so its labels keep their size
  const width = Math.max(300, Math.min(640, box.clientWidth || 600)),
    height = 200,
    pad = 30;
  const values = history.map((h) => h.rating);
  const low = Math.min(...values, 0),
    high = Math.max(...values, 1);
  const x = (i) =>
    pad + (history.length === 1 ? 0 : (i * (width - 2 * pad)) / (history.length - 1));
  const y = (v) => height - pad - ((v - low) * (height - 2 * pad)) / (high - low || 1);
  const graph = svg("svg", {
    viewBox: `0 0 ${width} ${height}`,
    role: "img",
    "aria-label": `Rating history: ${values.length} games, now ${values[values.length - 1]}`,
  });
  graph.style.width = "100%";
  graph.append(
    svg("line", {
      x1: pad,
      x2: width - pad,
      y1: y(0),
      y2: y(0),
      stroke: "currentColor",
      "stroke-opacity": "0.3",
    }),
  );
  graph.append(
    svg("polyline", {
      points: values.map((v, i) => `${x(i)},${y(v)}`).join(" "),
      fill: "none",
      stroke: "currentColor",
      "stroke-width": "2",
    }),
  );
  values.forEach((v, i) => {
    const dot = svg("circle", {
      cx: x(i),
      cy: y(v),
      r: 4,
      fill: history[i].outcome === "win" ? "#2a7" : "#c44",
    });
    dot.append(
      text("title", `${history[i].preset} ${history[i].table}: ${history[i].outcome}, ${v}`),
    );
    graph.append(dot);
  });
  const label = (v) => {
    const t = svg("text", { x: 2, y: y(v) + 4, "font-size": "13", fill: "currentColor" });
    t.textContent = v.toFixed(1);
    return t;
  };
  graph.append(label(low), label(high));
  box.append(graph);
}

function table(rows, columns) {
  const grid = document.createElement("table");
  const head = grid.createTHead().insertRow();
  for (const [title] of columns) head.append(text("th", title));
  const body = grid.createTBody();
  for (const row of rows) {
    const line = body.insertRow();
    for (const [, cell] of columns) line.insertCell().textContent = cell(row);
  }
  return grid;
}

async function showProfile(name) {
  const profile = await send("GET", `/api/accounts/${encodeURIComponent(name)}`);
  $("profile").hidden = false;
  $("profile-name").textContent = profile.name + (profile.bot ? " (bot)" : "");
  // one page per person: the games and statistics of the same name
  $("games-link").href = `/p/${encodeURIComponent(profile.name)}`;
  const ratings = Object.entries(profile.ratings).map(([preset, r]) => ({ preset, ...r }));
  $("ratings").replaceChildren(
    ratings.length
      ? table(ratings, [
          ["Game", (r) => profile.labels[r.preset] || r.preset],
          ["Rating", (r) => r.rating.toFixed(2)],
          ["Games", (r) => r.games],
        ])
      : text("p", "Not rated yet."),
  );
  chart(profile.history);
  $("partnerships").replaceChildren(
    profile.partnerships.length
      ? table(profile.partnerships, [
          ["Partners", (p) => p.partners],
          ["Game", (p) => profile.labels[p.preset] || p.preset],
          ["Rating", (p) => p.rating.toFixed(2)],
          ["Games", (p) => p.games],
        ])
      : text("p", "None rated yet."),
  );
}

const shown = decodeURIComponent(location.pathname.replace(/^\/account\/?/, ""));

async function refresh() {
  const me = await send("GET", "/api/session");
  // a player's page (/account/NAME) shows only the ratings; /account the settings
  $("signed-in").hidden = !me.name || Boolean(shown);
  $("signed-out").hidden = Boolean(me.name) || Boolean(shown);
  if (me.name) {
    $("me").textContent = me.name;
    $("my-page").href = `/account/${encodeURIComponent(me.name)}`;
  }
  return me;
}

function handle(formId, run) {
  $(formId).addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      status(await run(formData(event.target)));
      event.target.reset();
      await refresh();
    } catch (error) {
      status(error.message);
    }
  });
}

handle("login", async (data) => {
  const me = await send("POST", "/api/session", data);
  return `Logged in as ${me.name}.`;
});
// The seat tokens this browser holds: a guest who signs up here takes the name they
// played under, and those games, with them.
function seatTokens() {
  const tokens = [];
  for (let i = 0; i < localStorage.length; i++) {
    const key = localStorage.key(i);
    if (key?.startsWith("fivehundred:token:")) tokens.push(localStorage.getItem(key));
  }
  return tokens.slice(-200);
}

handle("signup", async (data) => {
  const me = await send("POST", "/api/accounts", { ...data, tokens: seatTokens() });
  return `Welcome, ${me.name}.`;
});
handle("password", async (data) => {
  await send("POST", "/api/accounts/me/password", data);
  return "Password changed; your other sessions are logged out.";
});
handle("delete", async (data) => {
  await send("DELETE", "/api/accounts/me", data);
  return "Your account is deleted.";
});
for (const [id, url, done] of [
  ["logout", "/api/session", "Logged out."],
  ["logout-all", "/api/session?everywhere=true", "Logged out everywhere."],
]) {
  $(id).addEventListener("click", async () => {
    try {
      await send("DELETE", url);
      status(done);
      await refresh();
    } catch (error) {
      status(error.message);
    }
  });
}

const guestName = localStorage.getItem("fivehundred:name");
if (guestName && guestName !== "Guest") {
  $("signup").elements.namedItem("name").value = guestName;
  $("guest-name").textContent =
    `You played as ${guestName}: that name, and its games, are yours if you sign up from this browser.`;
}

refresh()
  .then(() => (shown ? showProfile(shown) : null))
  .catch((error) => status(error.message));
