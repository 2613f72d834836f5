// Wordfall's service worker (rendered by config/pwa.py). Static files: from the cache,
// refreshed in the background. Pages: always from the network (games are live); when it
// is down, the offline page. Pushes (your turn, a result, an invitation): shown as a
// notification that opens its game.
const CACHE = "wordfall-{{ version }}";
const CORE = {{ core|safe }};
const ICON = {{ icon|safe }};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(CORE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith("wordfall-") && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match("/offline/")));
    return;
  }
  if (url.pathname.startsWith("/static/")) {
    event.respondWith(caches.open(CACHE).then((cache) => cache.match(request).then((hit) => {
      const fresh = fetch(request).then((response) => {
        if (response.ok) cache.put(request, response.clone());
        return response;
      });
      return hit || fresh;
    })));
  }
});

self.addEventListener("push", (event) => {
  let message = {};
  try { message = event.data ? event.data.json() : {}; } catch (error) { message = { body: event.data.text() }; }
  const url = new URL(message.url || "/", location.origin);
  if (url.origin !== location.origin) url.href = location.origin + "/";
  event.waitUntil(self.registration.showNotification(message.title || "Wordfall", {
    body: message.body || "",
    icon: ICON,
    tag: message.tag || url.pathname,
    renotify: true,
    data: { url: url.href },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = (event.notification.data && event.notification.data.url) || location.origin + "/";
  event.waitUntil(self.clients.matchAll({ type: "window", includeUncontrolled: true }).then((open) => {
    const same = open.find((client) => client.url === url);
    if (same) return same.focus();
    return self.clients.openWindow(url);
  }));
});
