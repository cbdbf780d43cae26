// The games of the account not over (GET /api/my-games): those where it is its turn
// first, each with the words the server gives (its status) and a link to the table.
import { send } from "./net.js";

const $ = (id) => document.getElementById(id);

function item(game) {
  const row = document.createElement("li");
  if (game.your_turn) row.className = "unread";
  const link = document.createElement("a");
  link.href = game.url;
  link.textContent = game.name;
  const status = document.createElement("span");
  status.className = "status";
  status.textContent = ` ${game.status}`;
  row.append(link, status);
  if (game.turn_deadline) {
    const until = document.createElement("time");
    const moment = new Date(game.turn_deadline * 1000);
    until.dateTime = moment.toISOString();
    until.textContent = ` (${moment.toLocaleString()})`;
    row.append(until);
  }
  return row;
}

async function start() {
  let data;
  try {
    data = await send("GET", "/api/my-games");
  } catch {
    $("signed-out").hidden = false;
    return;
  }
  $("signed-in").hidden = false;
  $("game-list").replaceChildren(...data.games.map(item));
  $("no-games").hidden = data.games.length > 0;
}

start();
