// The chat beside the table: the quick phrases, the form, the log.
import { el } from "../net.js";

export const QUICK = [
  "Good luck!",
  "Well played!",
  "Thanks",
  "Sorry!",
  "Nice hand",
  "One moment, please",
];

// The quick phrases into #chat-quick; #chat-form sends what is typed.
export function setupChat(t) {
  t.$("chat-quick").replaceChildren(
    ...QUICK.map((text) =>
      el("button", { type: "button", onclick: () => t.send({ type: "chat", text }) }, text),
    ),
  );
  t.$("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = t.$("chat-text");
    const text = input.value.trim();
    if (!text) return;
    t.send({ type: "chat", text });
    input.value = "";
  });
}

// A chat message into #chat-log.
export function addChat(t, message) {
  const log = t.$("chat-log");
  log.append(el("div", {}, el("strong", {}, `${message.name || "spectator"}: `), message.text));
  log.scrollTop = log.scrollHeight;
}
