// The notices' bell in the site's header, beside the account link: the count of unread
// notices (GET /api/notices), read out by screen readers in the link's name. Shown only to
// a logged-in person; the list itself is the page /notices.
const account = document.querySelector('header.bar nav a[href="/account"]');

const SVG = "http://www.w3.org/2000/svg";
const BELL =
  "M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 " +
  "1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1z";

async function json(url) {
  const answer = await fetch(url, { credentials: "same-origin" });
  return answer.ok ? answer.json() : null;
}

export function showCount(link, unread) {
  const badge = link.querySelector(".badge");
  badge.textContent = unread > 99 ? "99+" : String(unread);
  badge.hidden = unread === 0;
  link.setAttribute(
    "aria-label",
    unread === 0 ? "Notices: none unread" : `Notices: ${unread} unread`,
  );
}

// the latest look asked for: an older answer that comes after it is not shown
let asked = 0;

export async function ring() {
  const mine = ++asked;
  const session = await json("/api/session");
  if (!account || !session || !session.name) return;
  const notices = await json("/api/notices");
  if (!notices || mine !== asked) return;
  let link = document.getElementById("notice-bell");
  if (!link) {
    link = document.createElement("a");
    link.id = "notice-bell";
    link.className = "bell";
    link.href = "/notices";
    const icon = document.createElementNS(SVG, "svg");
    icon.setAttribute("viewBox", "0 0 24 24");
    icon.setAttribute("aria-hidden", "true");
    const shape = document.createElementNS(SVG, "path");
    shape.setAttribute("d", BELL);
    shape.setAttribute("fill", "currentColor");
    icon.append(shape);
    const badge = document.createElement("span");
    badge.className = "badge";
    badge.setAttribute("aria-hidden", "true");
    link.append(icon, badge);
    account.after(" ", link);
  }
  showCount(link, notices.unread);
}

ring().catch(() => {});
