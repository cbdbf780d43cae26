// The clubs index (/clubs) and a club's page (/c/SLUG, /c/SLUG?invite=CODE): what the
// API answers (docs/web-protocol.md, "Clubs"), written with textContent only.
import { send } from "./net.js";
const $ = (id) => document.getElementById(id);
const ref = decodeURIComponent(location.pathname.split("/")[2] || "");
const invite = new URLSearchParams(location.search).get("invite");
let me = null; // the logged-in account's name

function say(text) {
  $("status").textContent = text;
}

// Run a change, say what went wrong, or show the club again.
async function change(method, path, body, done) {
  try {
    const data = await send(method, path, body);
    if (done) await done(data);
    else await showClub();
  } catch (error) {
    say(error.message);
  }
}

function item(list, text, href) {
  const li = document.createElement("li");
  if (href) {
    const link = document.createElement("a");
    link.href = href;
    link.textContent = text;
    li.append(link);
  } else {
    li.textContent = text;
  }
  list.append(li);
  return li;
}

function button(parent, text, label, action) {
  const b = document.createElement("button");
  b.type = "button";
  b.className = "btn secondary";
  b.textContent = text;
  b.setAttribute("aria-label", label);
  b.addEventListener("click", action);
  parent.append(b);
}

async function showIndex() {
  $("index").hidden = false;
  const data = await send("GET", "/api/clubs");
  $("public-list").replaceChildren();
  for (const club of data.clubs) {
    const li = item($("public-list"), club.name, `/c/${club.slug}`);
    li.append(` · ${club.members} member${club.members === 1 ? "" : "s"}`);
    if (club.description) li.append(` · ${club.description}`);
  }
  if (!data.clubs.length) item($("public-list"), "No public clubs yet.");
  $("mine-box").hidden = !data.mine.length;
  $("mine-list").replaceChildren();
  for (const club of data.mine)
    item($("mine-list"), `${club.name} (${club.role})`, `/c/${club.slug}`);
  $("create-box").hidden = !me;
}

function showMembers(club, admin) {
  const body = $("members").tBodies[0];
  body.replaceChildren();
  for (const m of club.members) {
    const row = body.insertRow();
    row.insertCell().textContent = m.role === "member" ? m.name : `${m.name} (${m.role})`;
    row.insertCell().textContent = m.rating === null ? "–" : m.rating.toFixed(2);
    row.insertCell().textContent = `${m.wins} of ${m.games}`;
    const cell = row.insertCell();
    const removable = m.role === "member" || (m.role === "admin" && club.role === "owner");
    if (admin && removable) {
      const path = `/api/clubs/${club.slug}/members/${m.account}`;
      button(cell, "Remove", `Remove ${m.name}`, () => change("DELETE", path));
    }
    if (club.role === "owner" && m.role !== "owner") {
      const role = m.role === "admin" ? "member" : "admin";
      const path = `/api/clubs/${club.slug}/members/${m.account}/role`;
      button(cell, `Make ${role}`, `Make ${m.name} ${role}`, () => change("POST", path, { role }));
    }
  }
}

function showAdmin(club) {
  $("invites").replaceChildren();
  for (const one of club.invites) {
    const li = item($("invites"), `${location.origin}${one.url}`, one.url);
    const path = `/api/clubs/${club.slug}/invites/${one.code}`;
    button(li, "Revoke", `Revoke the invite ${one.code}`, () => change("DELETE", path));
  }
  $("requests").replaceChildren();
  for (const asked of club.requests) {
    const li = item($("requests"), asked.name);
    const path = `/api/clubs/${club.slug}/requests/${asked.account}`;
    button(li, "Accept", `Accept ${asked.name}`, () => change("POST", path, { accept: true }));
    button(li, "Decline", `Decline ${asked.name}`, () => change("POST", path, { accept: false }));
  }
  if (!club.requests.length) item($("requests"), "Nobody is waiting.");
}

async function showInvite() {
  const facts = await send("GET", `/api/clubs/invites/${encodeURIComponent(invite)}`);
  $("club").hidden = false;
  $("club-name").textContent = facts.name;
  $("club-about").textContent = facts.description;
  $("club-kind").textContent = "You have been invited to join.";
  $("join").hidden = !me;
}

async function showClub() {
  let club;
  try {
    club = await send("GET", `/api/clubs/${encodeURIComponent(ref)}`);
  } catch (error) {
    if (invite && error.message === "no such club") return showInvite();
    throw error;
  }
  $("club").hidden = false;
  document.title = `Five Hundred — ${club.name}`;
  $("club-name").textContent = club.name;
  $("club-about").textContent = club.description;
  $("club-nights").href = `/clubs/${encodeURIComponent(club.slug)}/nights`;
  const count = club.members.length;
  const kind = `${club.public ? "Public" : "Private"} club`;
  $("club-kind").textContent = `${kind} · ${count} member${count === 1 ? "" : "s"}`;
  const member = club.role !== null;
  const admin = club.role === "owner" || club.role === "admin";
  $("join").hidden = member || !invite || !me;
  $("ask").hidden = member || !!invite || club.requested || !me;
  $("asked").hidden = member || !club.requested;
  $("news-box").hidden = !club.announcements.length && !admin;
  $("announce").hidden = !admin;
  $("news").replaceChildren();
  for (const a of club.announcements) {
    const when = new Date(a.at * 1000).toLocaleDateString();
    item($("news"), `${a.text} — ${a.by || "former member"}, ${when}`);
  }
  $("tables-box").hidden = !member;
  $("tables").replaceChildren();
  for (const t of club.tables)
    item($("tables"), `${t.name}${t.finished ? " (finished)" : ""}`, t.url);
  $("members-box").hidden = false;
  showMembers(club, admin);
  $("admin-box").hidden = !admin;
  if (admin) showAdmin(club);
  $("rename").hidden = club.role !== "owner";
  $("leave-box").hidden = !member;
}

function wire() {
  $("create").addEventListener("submit", (event) => {
    event.preventDefault();
    const form = new FormData(event.target);
    const body = {
      name: form.get("name"),
      description: form.get("description"),
      public: form.get("public") === "on",
    };
    change("POST", "/api/clubs", body, (made) => {
      location.href = made.url;
    });
  });
  $("join").addEventListener("click", () =>
    change("POST", "/api/clubs/join", { code: invite }, (joined) => {
      location.href = joined.url;
    }),
  );
  $("ask").addEventListener("click", () => change("POST", `/api/clubs/${ref}/requests`));
  $("new-invite").addEventListener("click", () => change("POST", `/api/clubs/${ref}/invites`));
  $("leave").addEventListener("click", () =>
    change("POST", `/api/clubs/${ref}/leave`, undefined, () => {
      location.href = "/clubs";
    }),
  );
  $("announce").addEventListener("submit", (event) => {
    event.preventDefault();
    const text = new FormData(event.target).get("text");
    change("POST", `/api/clubs/${ref}/announcements`, { text }, async () => {
      event.target.reset();
      await showClub();
    });
  });
  $("rename").addEventListener("submit", (event) => {
    event.preventDefault();
    const name = new FormData(event.target).get("name");
    change("PATCH", `/api/clubs/${ref}`, { name }, (renamed) => {
      location.href = renamed.url;
    });
  });
  $("new-table").addEventListener("submit", (event) => {
    event.preventDefault();
    const computers = new FormData(event.target).get("computers") === "on";
    const other = computers ? "medium" : "open";
    const body = { seats: ["open", other, other, other], sit: 0 };
    change("POST", `/api/clubs/${ref}/tables`, body, (made) => {
      location.href = made.url;
    });
  });
}

async function start() {
  wire();
  const session = await send("GET", "/api/session");
  me = session.name;
  $("login-first").hidden = !!session.name;
  try {
    if (ref) await showClub();
    else await showIndex();
  } catch (error) {
    say(error.message);
  }
}

start();
