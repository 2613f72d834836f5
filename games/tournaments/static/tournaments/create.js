// The new-event form: of the games' settings, only the chosen game's are shown (without
// this script every game's are, and only the chosen game's are read).
(function () {
  "use strict";
  const form = document.querySelector("[data-tournament-create]");
  const game = form && form.elements.namedItem("game");
  if (!game) return;

  function show() {
    for (const fieldset of form.querySelectorAll("fieldset[data-game]")) {
      fieldset.hidden = fieldset.dataset.game !== game.value;
    }
  }
  game.addEventListener("change", show);
  show();
})();
