// The chat beside the table: the quick phrases, the form, the log.
import { el } from "../net.js";
import { me } from "./state.js";

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
  // The quick phrases are one stop of the Tab order (the arrow keys move between them), so
  // that a Tab out of the hand does not cost a stop a phrase to come back.
  const quick = t.$("chat-quick");
  quick.setAttribute("role", "toolbar");
  quick.setAttribute("aria-label", "quick messages");
  quick.replaceChildren(
    ...QUICK.map((text, i) =>
      el(
        "button",
        { type: "button", tabindex: i ? "-1" : "0", onclick: () => t.send({ type: "chat", text }) },
        text,
      ),
    ),
  );
  quick.addEventListener("keydown", (event) => {
    const buttons = [...quick.querySelectorAll("button")];
    const index = buttons.indexOf(document.activeElement);
    if (index < 0) return;
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    let next = step ? buttons[(index + step + buttons.length) % buttons.length] : null;
    if (event.key === "Home") next = buttons[0];
    if (event.key === "End") next = buttons[buttons.length - 1];
    if (!next) return;
    event.preventDefault();
    for (const b of buttons) b.tabIndex = -1;
    next.tabIndex = 0;
    next.focus();
  });
  t.$("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = t.$("chat-text");
    const text = input.value.trim();
    if (!text) return;
    t.send({ type: "chat", text });
    input.value = "";
  });
}

// A chat message into #chat-log; and, where the log is out of sight (a phone: it is far
// below the table), a bubble by the speaker's seat at the table and one more on the unread
// count of the Chat button in the bar.
export function addChat(t, message) {
  const log = t.$("chat-log");
  log.append(el("div", {}, el("strong", {}, `${message.name || "spectator"}: `), message.text));
  log.scrollTop = log.scrollHeight;
  const state = t.state;
  const mine = message.seat !== null && message.seat !== undefined && message.seat === me(t);
  state.bubble = { seat: message.seat, name: message.name || "spectator", text: message.text };
  state.bubbleCount = (state.bubbleCount || 0) + 1;
  const shown = state.bubbleCount;
  drawBubble(t);
  // (The bubble goes after a while or at the next message; the log keeps every message.)
  setTimeout(() => {
    if (state.bubbleCount !== shown) return;
    state.bubble = null;
    drawBubble(t);
  }, 8000);
  if (!mine && !chatInSight(t)) {
    state.unread = (state.unread || 0) + 1;
    drawUnread(t);
  }
}

// Whether the chat log is on the screen now.
function chatInSight(t) {
  const log = t.$("chat-log");
  if (!log || !log.offsetParent) return false;
  const box = log.getBoundingClientRect();
  return box.bottom > 0 && box.top < window.innerHeight;
}

// The unread count on the Chat button (none: the count hidden).
export function drawUnread(t) {
  const badge = t.$("chat-unread");
  if (!badge) return;
  const n = t.state.unread || 0;
  badge.hidden = n === 0;
  badge.textContent = String(n);
  const jump = t.$("chat-jump");
  if (jump) jump.setAttribute("aria-label", n ? `Chat, ${n} unread` : "Chat");
}

// The last message as a bubble by its seat's box (a spectator's over the table's middle);
// drawn again with the seats (renderSeats calls it).
export function drawBubble(t) {
  const root = t.$("seats");
  if (!root) return;
  for (const old of root.querySelectorAll(".chat-bubble")) old.remove();
  const felt = t.$("felt");
  if (felt) for (const old of felt.querySelectorAll(":scope > .chat-bubble")) old.remove();
  const bubble = t.state.bubble;
  if (!bubble) return;
  const node = el(
    "div",
    { class: "chat-bubble", "aria-hidden": "true" },
    el("strong", {}, `${bubble.name}: `),
    bubble.text,
  );
  const seat = root.querySelector(`.seat[data-seat="${bubble.seat}"]`);
  if (seat) seat.append(node);
  else if (felt) felt.append(node);
}

// The Chat button in the bar: to the chat (the count read); the count read too whenever the
// log comes into sight.
export function bindChatJump(t) {
  const jump = t.$("chat-jump");
  const read = () => {
    t.state.unread = 0;
    drawUnread(t);
  };
  if (jump)
    jump.addEventListener("click", (event) => {
      event.preventDefault();
      read();
      t.$("chat-title").scrollIntoView({ block: "start" });
      t.$("chat-text").focus({ preventScroll: true });
    });
  const log = t.$("chat-log");
  if (log && "IntersectionObserver" in window)
    new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) read();
    }).observe(log);
}
