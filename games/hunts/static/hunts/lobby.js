// The hunt lobby: the open-tables list stays live over its socket.
(function () {
  "use strict";
  const list = document.querySelector("[data-lobby-tables]");
  if (!list) return;
  const wsBase = (location.protocol === "https:" ? "wss://" : "ws://") + location.host;
  let retry = 1000;
  function connect() {
    const ws = new WebSocket(wsBase + "/ws/hunts/lobby/");
    ws.onopen = () => { retry = 1000; };
    ws.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      if (msg.type === "lobby.tables") list.innerHTML = msg.html;
    };
    // The list is sent whole on every connect; jitter spreads the reconnects of a restart.
    ws.onclose = (e) => {
      if (e.code === Wordfall.SOCKETS_CAPPED) { Wordfall.socketsCapped(); return; }
      setTimeout(connect, retry * (0.5 + Math.random())); retry = Math.min(retry * 2, 15000);
    };
  }
  connect();

  // Show only the settings of the chosen game.
  const form = document.querySelector("[data-hunt-create]");
  if (!form) return;
  const game = form.querySelector("[name=game]");
  const only = { size: "classic", lexicon_code: "rampage", round_seconds: "rampage" };
  const seats = form.querySelector("[name=seat_count]");
  function sync() {
    for (const [name, which] of Object.entries(only)) {
      const field = form.querySelector(`[name=${name}]`).closest(".field");
      field.hidden = game.value !== which;
    }
    // At most one bot fewer than the seats: the host sits too.
    [1, 2, 3].forEach((n) => {
      const select = form.querySelector(`[name=bot_${n}]`);
      const field = select.closest(".field");
      field.hidden = n > Number(seats.value) - 1;
      if (field.hidden) select.value = "";
    });
  }
  game.addEventListener("change", sync);
  seats.addEventListener("change", sync);
  sync();
})();
