// An event page: its live part (state, standings, latest games) is replaced by each
// message of the event's socket, which sends it on connect and after every change. The
// socket comes back after a drop, and is sent the whole live part again.
(function () {
  "use strict";
  const root = document.querySelector("[data-tournament-ws]");
  if (!root || !window.Wordfall || !window.Wordfall.live) return;
  window.Wordfall.live(root.dataset.tournamentWs, {
    open() { root.dataset.live = "open"; },
    closed() { root.dataset.live = "closed"; },
    message(message) {
      if (message.type !== "tournament.standings") return;
      const live = document.getElementById("tournament-live");
      if (live) live.innerHTML = message.html;
      root.dataset.status = message.status;
      root.dataset.round = message.round;
    },
  });
})();
