// The hunt lobby: the open-tables list stays live over its socket.
(function () {
  "use strict";
  const list = document.querySelector("[data-lobby-tables]");
  if (!list) return;
  // The list is sent whole on every connect.
  Wordfall.live("/ws/hunts/lobby/", {
    longestWait: 15000,
    message(msg) { if (msg.type === "lobby.tables") list.innerHTML = msg.html; },
  });

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
