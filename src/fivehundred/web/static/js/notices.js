// The notices page: the list (GET /api/notices; shown, then marked read) and which notices
// the person wants, in the list and by e-mail (GET/PUT /api/notices/settings).
import { send } from "./net.js";
import { ring } from "./bell.js";

const $ = (id) => document.getElementById(id);

function item(notice) {
  const row = document.createElement("li");
  if (!notice.read) row.className = "unread";
  const link = document.createElement("a");
  link.href = notice.link;
  link.textContent = notice.text;
  const when = document.createElement("time");
  when.dateTime = notice.at;
  when.textContent = new Date(notice.at).toLocaleString();
  row.append(link, " ", when);
  if (!notice.read) {
    const mark = document.createElement("span");
    mark.className = "new";
    mark.textContent = " new";
    row.append(mark);
  }
  return row;
}

async function showList() {
  const data = await send("GET", "/api/notices");
  const list = $("notice-list");
  list.replaceChildren(...data.notices.map(item));
  $("no-notices").hidden = data.notices.length > 0;
  $("notice-count").textContent =
    data.unread === 0 ? "No unread notices." : `${data.unread} unread.`;
  if (data.unread > 0) {
    await send("POST", "/api/notices/read", { up_to: data.notices[0].id });
    await ring(); // the bell's count, once they are read
  }
}

function showSettings(settings) {
  $("email").value = settings.email || "";
  const box = $("kinds");
  box.replaceChildren();
  for (const [kind, label] of Object.entries(settings.labels)) {
    const row = document.createElement("fieldset");
    const legend = document.createElement("legend");
    legend.textContent = label;
    row.append(legend);
    for (const [channel, words] of [
      ["app", "in this list"],
      ["mail", "by e-mail"],
    ]) {
      const label = document.createElement("label");
      const input = document.createElement("input");
      input.type = "checkbox";
      input.dataset.kind = kind;
      input.dataset.channel = channel;
      input.checked = settings.kinds[kind][channel];
      label.append(input, ` ${words}`);
      row.append(label);
    }
    box.append(row);
  }
}

async function save(event) {
  event.preventDefault();
  const kinds = {};
  for (const input of $("kinds").querySelectorAll("input")) {
    kinds[input.dataset.kind] = kinds[input.dataset.kind] || {};
    kinds[input.dataset.kind][input.dataset.channel] = input.checked;
  }
  try {
    const email = $("email").value.trim() || null;
    showSettings(await send("PUT", "/api/notices/settings", { email, kinds }));
    $("status").textContent = "Saved.";
  } catch (error) {
    $("status").textContent = error.message;
  }
}

async function start() {
  try {
    showSettings(await send("GET", "/api/notices/settings"));
  } catch {
    $("signed-out").hidden = false;
    return;
  }
  $("signed-in").hidden = false;
  $("settings").addEventListener("submit", save);
  await showList();
}

start();
