// The invite bar over the table: while a seat is open, a button that copies the
// table's link, saying whom it invites ("Copy invite for your partner") from the server's
// relations.
import { el } from "../net.js";
import { me } from "./state.js";

// The link a friend opens to sit down: the server's (a private table's link carries its
// key) or the table's own address.
export function inviteLink(t) {
  const view = t.state.view;
  const info = t.state.info || {};
  const path =
    (view && view.table && view.table.invite_url) ||
    info.invite_url ||
    `/t/${encodeURIComponent(t.code)}`;
  return new URL(path, location.origin).href;
}

export function renderInvite(t) {
  const box = t.$("invite");
  if (!box) return;
  const view = t.state.view;
  const seats = (view.table && view.table.seats) || [];
  const open = seats.filter((s) => s.kind === "open").map((s) => s.seat);
  box.hidden = me(t) === null || !open.length || view.table.finished;
  if (box.hidden) {
    box.replaceChildren();
    return;
  }
  const relations = view.table.relations || [];
  const words = [...new Set(open.map((seat) => (relations[seat] || {}).word).filter(Boolean))];
  const whom =
    words.length === 1 ? ` for ${words[0] === "opponent" ? "an opponent" : words[0]}` : "";
  const status = el("span", { class: "invite-status", role: "status" });
  const link = inviteLink(t);
  box.replaceChildren(
    el(
      "button",
      {
        class: "btn",
        type: "button",
        id: "copy-invite",
        onclick: async () => {
          try {
            await navigator.clipboard.writeText(link);
            status.textContent = "Copied: send it to your friend.";
          } catch {
            status.textContent = `Copy this link: ${link}`;
          }
        },
      },
      `Copy invite link${whom}`,
    ),
    status,
  );
}
