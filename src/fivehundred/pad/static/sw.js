// The pad's service worker: keeps the page, Brython and the engine's scoring modules
// so that the pad works offline once loaded. Files are fetched from the network first
// and from the cache when the network fails.
const VERSION = "__VERSION__";
const CACHE = "fivehundred-pad-" + VERSION;
const FILES = __FILES__;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(FILES))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((k) => k.startsWith("fivehundred-pad-") && k !== CACHE)
            .map((k) => caches.delete(k)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  const cacheable =
    url.pathname === "/pad" ||
    url.pathname.startsWith("/pad/") ||
    url.pathname === "/api/pad/rules";
  if (!cacheable) return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches
            .open(CACHE)
            .then((cache) => cache.put(url.pathname === "/pad/" ? "/pad" : url.pathname, copy));
        }
        return response;
      })
      .catch(() =>
        caches
          .open(CACHE)
          .then((cache) => cache.match(url.pathname === "/pad/" ? "/pad" : url.pathname))
          .then((hit) => hit || new Response("offline and not cached", { status: 503 })),
      ),
  );
});
