// The new-event form: of the games' settings, only the chosen game's are shown (without
// this script every game's are, and only the chosen game's are read), and only the formats
// that game suits can be picked (the server refuses the others with the reason).
(function () {
  "use strict";
  const form = document.querySelector("[data-tournament-create]");
  const game = form && form.elements.namedItem("game");
  const format = form && form.elements.namedItem("format");
  if (!game) return;

  function show() {
    for (const fieldset of form.querySelectorAll("fieldset[data-game]")) {
      const chosen = fieldset.dataset.game === game.value;
      fieldset.hidden = !chosen;
      if (!chosen || !format) continue;
      const suited = fieldset.dataset.formats.split(" ");
      for (const option of format.options) option.disabled = !suited.includes(option.value);
      if (!suited.includes(format.value)) format.value = suited[0];
    }
  }
  game.addEventListener("change", show);
  show();
})();
