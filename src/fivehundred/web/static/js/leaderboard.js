// The leaderboard per preset (GET /api/leaderboard/PRESET[?pairs=true]).
const $ = (id) => document.getElementById(id);

async function load() {
  const preset = $("preset").value;
  const pairs = $("pairs").checked;
  const answer = await fetch(
    `/api/leaderboard/${encodeURIComponent(preset)}${pairs ? "?pairs=true" : ""}`,
  );
  const data = await answer.json();
  const box = $("board");
  box.replaceChildren();
  if (!answer.ok) {
    box.textContent = data.detail;
    return;
  }
  if (!data.players.length) {
    box.textContent = "No rated games of this game yet.";
    return;
  }
  const grid = document.createElement("table");
  const head = grid.createTHead().insertRow();
  for (const title of ["#", pairs ? "Partnership" : "Player", "Rating", "Games"]) {
    const th = document.createElement("th");
    th.textContent = title;
    head.append(th);
  }
  const body = grid.createTBody();
  for (const entry of data.players) {
    const row = body.insertRow();
    row.insertCell().textContent = entry.rank;
    const who = row.insertCell();
    if (pairs) {
      who.textContent = entry.name;
    } else {
      const link = document.createElement("a");
      link.href = `/account/${encodeURIComponent(entry.name)}`;
      link.textContent = entry.name + (entry.bot ? " (bot)" : "");
      who.append(link);
    }
    row.insertCell().textContent = entry.rating.toFixed(2);
    row.insertCell().textContent = entry.games;
  }
  box.append(grid);
}

async function start() {
  const first = await (await fetch("/api/leaderboard/australian?limit=1")).json();
  const presets = first.presets;
  for (const name of presets) {
    const option = document.createElement("option");
    option.value = name;
    option.textContent = first.labels[name] || name;
    $("preset").append(option);
  }
  const wanted = new URLSearchParams(location.search).get("preset");
  if (wanted && presets.includes(wanted)) $("preset").value = wanted;
  $("preset").addEventListener("change", load);
  $("pairs").addEventListener("change", load);
  await load();
}

start();
