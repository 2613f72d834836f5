// The header's "My games" badge: games awaiting my move. It counts up when a your-turn
// notification arrives on the site socket, and down when the game page sends my move.
(function () {
  "use strict";
  function setCount(delta) {
    const link = document.querySelector('[data-nav="my-games"]');
    if (!link) return;
    let badge = link.querySelector("[data-games-awaiting]");
    if (!badge) {
      badge = document.createElement("span");
      badge.className = "badge"; badge.title = "Games awaiting your move";
      badge.setAttribute("data-games-awaiting", ""); badge.textContent = "0";
      link.append(" ", badge);
    }
    const count = Math.max(0, (parseInt(badge.textContent, 10) || 0) + delta);
    badge.textContent = String(count);
    badge.hidden = count === 0;
  }
  document.addEventListener("wordfall:notification", (event) => {
    if (event.detail && event.detail.kind === "crossword.turn") setCount(1);
  });
  document.addEventListener("crosswords:moved", () => setCount(-1));
})();
