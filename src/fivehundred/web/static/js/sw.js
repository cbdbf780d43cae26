// The service worker (served as /sw.js so that it covers the pages): the page's own files
// (/static/…) come from the network when it answers and from the cache when it does not, so
// that the installed app opens its pages quickly and shows them offline. Everything else
// (the API, the table's WebSocket, the pages' data) always goes to the server: play needs it.
const CACHE = "fivehundred-static-v1";
const SHELL = [
  "/static/css/style.css",
  "/static/js/table.js",
  "/static/js/table/state.js",
  "/static/js/table/seats.js",
  "/static/js/table/trick.js",
  "/static/js/table/hand.js",
  "/static/js/table/auction.js",
  "/static/js/table/controls.js",
  "/static/js/table/score.js",
  "/static/js/table/announce.js",
  "/static/js/table/chat.js",
  "/static/js/table/dialogs.js",
  "/static/js/table/render.js",
  "/static/js/table/invite.js",
  "/static/js/cards.js",
  "/static/js/rules.js",
  "/static/js/net.js",
  "/static/manifest.webmanifest",
  "/static/icons/icon-192.png",
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .catch(() => undefined),
  );
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (
    event.request.method !== "GET" ||
    url.origin !== location.origin ||
    !url.pathname.startsWith("/static/")
  )
    return;
  event.respondWith(
    fetch(event.request)
      .then((answer) => {
        if (answer.ok) {
          const copy = answer.clone();
          caches.open(CACHE).then((cache) => cache.put(event.request, copy));
        }
        return answer;
      })
      .catch(() => caches.match(event.request).then((hit) => hit || Response.error())),
  );
});
