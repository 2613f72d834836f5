// The lobby's ranked panel: live queue status over /ws/hunts/queue/, a ticking wait,
// a keep-alive ping (a silent page loses its place after a short grace), and the jump
// to the table once matched.
(function () {
  "use strict";
  const panel = document.querySelector("[data-ranked]");
  if (!panel) return;
  let offset = 0; // server clock minus ours

  function tick() {
    const box = panel.querySelector("[data-ranked-waiting]");
    if (!box) return;
    const seconds = Math.max(0, Math.floor((Date.now() + offset - Number(box.dataset.joinedAt)) / 1000));
    const clock = box.querySelector("[data-ranked-elapsed]");
    if (clock) clock.textContent = window.Wordfall.clock(seconds);
  }
  setInterval(tick, 500);

  function setCounts(counts) {
    for (const [pool, n] of Object.entries(counts)) {
      document.querySelectorAll(`[data-pool-count="${pool}"]`).forEach((el) => { el.textContent = n; });
    }
  }

  // Pinged every 5 s: the queue counts a seeker as present while their page pings.
  const socket = Wordfall.live("/ws/hunts/queue/", {
    pingEvery: 5000,
    longestWait: 10000,
    message(msg) {
      if (msg.type === "queue.status") {
        offset = msg.server_now - Date.now();
        // Matched while this page was reconnecting: the match message was missed.
        if (msg.state === "playing" && panel.querySelector("[data-ranked-waiting]")) {
          location.assign(msg.url);
          return;
        }
        // A refusal shown by the last click stays until the next click.
        const error = panel.querySelector("[data-ranked-error]");
        panel.innerHTML = msg.html;
        if (error && msg.state !== "waiting") panel.prepend(error);
        if (window.htmx) window.htmx.process(panel);
        tick();
      } else if (msg.type === "queue.counts") {
        setCounts(msg.counts);
      } else if (msg.type === "queue.matched") {
        location.assign(msg.url);
      } else if (msg.type === "error") {
        console.warn(msg.reason);
      }
    },
  });

  // A click's answer (join, cancel, a bot) has replaced the panel: ask the socket for the
  // status as it is now. A status it read before the click can still be on its way and
  // would otherwise put the old panel back; the answer to this comes after it.
  document.body.addEventListener("htmx:afterSwap", (e) => {
    if (panel.contains(e.detail.target) || e.detail.target === panel) socket.send({ type: "status" });
    tick();
  });
})();
