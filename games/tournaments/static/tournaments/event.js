// An event page: its live part (state, standings, latest games) is replaced by each
// message of the event's socket, which sends it on connect and after every change. The
// socket comes back after a drop, and is sent the whole live part again.
(function () {
  "use strict";
  const root = document.querySelector("[data-tournament-ws]");
  if (!root || !("WebSocket" in window) || !window.Wordfall || !window.Wordfall.wsUrl) return;
  let delay = 1000;

  function connect() {
    const ws = new WebSocket(window.Wordfall.wsUrl(root.dataset.tournamentWs));
    ws.onopen = () => { delay = 1000; root.dataset.live = "open"; };
    ws.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type !== "tournament.standings") return;
      const live = document.getElementById("tournament-live");
      if (live) live.innerHTML = message.html;
      if (root.dataset.status !== message.status) {
        root.dataset.status = message.status;
      }
      root.dataset.round = message.round;
    };
    ws.onclose = (e) => {
      root.dataset.live = "closed";
      if (e.code === window.Wordfall.SOCKETS_CAPPED) { window.Wordfall.socketsCapped(); return; }
      if (e.code === 4404) return;
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }
  connect();
})();
