// The header's "My games" badge: games awaiting my move. The server counts; the badge
// asks again whenever that may have changed: a crossword notification (my turn, a game
// over, a forfeit), a move of mine from the game page, or this tab coming back into view.
(function () {
  "use strict";
  const url = "/games/awaiting/";
  let asking = null;

  function show(count) {
    const link = document.querySelector('[data-nav="my-games"]');
    if (!link) return;
    let badge = link.querySelector("[data-games-awaiting]");
    if (!badge) {
      if (!count) return;
      badge = document.createElement("span");
      badge.className = "badge"; badge.title = "Games awaiting your move";
      badge.setAttribute("data-games-awaiting", "");
      link.append(" ", badge);
    }
    badge.textContent = String(count);
    badge.hidden = count === 0;
  }

  function sync() {
    if (asking) return asking;
    asking = fetch(url, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then((r) => (r.ok ? r.json() : null))
      .then((data) => { if (data && typeof data.count === "number") show(data.count); })
      .catch(() => {})
      .finally(() => { asking = null; });
    return asking;
  }

  document.addEventListener("wordfall:notification", (event) => {
    const kind = (event.detail && event.detail.kind) || "";
    if (kind.startsWith("crossword.")) sync();
  });
  document.addEventListener("crosswords:moved", sync);
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") sync(); });
})();
