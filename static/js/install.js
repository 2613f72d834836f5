// Registers the service worker (/sw.js): static files cached, an offline page when the
// network is down, and the site installable as an app.
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) return;
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => { /* the site works without it */ });
  });
})();
