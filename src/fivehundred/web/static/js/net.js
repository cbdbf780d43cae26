// The table's WebSocket: connects, reconnects by itself with a back-off, and says so.

export class TableSocket {
  constructor(code, token, { onMessage, onStatus }) {
    this.code = code;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.ws = null;
    this.retry = 0;
    this.closed = false;
    this.connect();
    window.addEventListener("online", () => this.kick());
  }

  url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const query = this.token ? `?token=${encodeURIComponent(this.token)}` : "";
    return `${proto}//${location.host}/ws/tables/${encodeURIComponent(this.code)}${query}`;
  }

  connect() {
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.addEventListener("open", () => {
      this.retry = 0;
      this.onStatus("connected");
    });
    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws || this.closed) return;
      if (event.code === 4401 || event.code === 4404 || event.code === 4000) {
        this.onStatus("refused", event.reason || String(event.code));
        return;
      }
      this.onStatus("reconnecting");
      const wait = Math.min(8000, 500 * 2 ** this.retry);
      this.retry += 1;
      this.timer = setTimeout(() => this.connect(), wait);
    });
  }

  kick() {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) return;
    clearTimeout(this.timer);
    this.connect();
  }

  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.closed = true;
    if (this.ws) this.ws.close();
  }
}

export async function getJSON(url, options) {
  const response = await fetch(url, options);
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) {
    const detail =
      body && body.detail
        ? typeof body.detail === "string"
          ? body.detail
          : JSON.stringify(body.detail)
        : response.statusText;
    throw new Error(detail);
  }
  return body;
}

// A request to the site's API with this browser's session: `body` as JSON, the answer's
// JSON back (an empty object when it has none), or an Error saying the server's reason.
export async function send(method, url, body) {
  const options = { method, headers: {}, credentials: "same-origin" };
  if (body !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  const answer = await fetch(url, options);
  const data = await answer.json().catch(() => ({}));
  if (!answer.ok) {
    const detail = data && data.detail;
    throw new Error(
      typeof detail === "string"
        ? detail
        : detail
          ? JSON.stringify(detail)
          : `error ${answer.status}`,
    );
  }
  return data ?? {};
}

export function postJSON(url, data) {
  return getJSON(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(data),
  });
}

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "html") node.innerHTML = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// A side's name ("easy 2 & easy 4") with each player's name kept whole: a narrow column
// breaks it between the names, never inside one ("easy 2 &" / "easy 4").
export function wholeNames(text) {
  return String(text)
    .split(" & ")
    .map((name, i) => [i ? " & " : "", el("span", { class: "name-whole" }, name)]);
}

// Settings kept in the browser: four-colour pack, sound.
export function applySettings() {
  const four = localStorage.getItem("fivehundred:four-colour") === "1";
  document.documentElement.classList.toggle("four-colour", four);
  return { four, sound: localStorage.getItem("fivehundred:sound") === "1" };
}
