// A finished round's results: choosing a word draws its path on the results board (the
// squares numbered in order, joined by a line) and says it in words; its definition is
// fetched by htmx (the button's hx-get). Results arrive after the page loads (at the end
// of a round), so one listener on the document serves every results block.
(() => {
  "use strict";

  const SVG = "http://www.w3.org/2000/svg";

  function squaresOf(button) {
    return (button.dataset.wordPath || "").split(",").filter((s) => s !== "").map(Number);
  }

  function clearPath(results) {
    results.querySelectorAll(".on-path").forEach((tile) => {
      tile.classList.remove("on-path", "path-start");
      tile.removeAttribute("data-step");
    });
    results.querySelectorAll("[data-path-line]").forEach((line) => line.remove());
    results.querySelectorAll('.word-link[aria-pressed="true"]').forEach((b) => b.setAttribute("aria-pressed", "false"));
  }

  function drawPath(results, button) {
    const board = results.querySelector("[data-results-board]");
    if (!board) return;
    clearPath(results);
    button.setAttribute("aria-pressed", "true");
    const tiles = squaresOf(button).map((square) => board.querySelector(`[data-square="${square}"]`)).filter(Boolean);
    tiles.forEach((tile, index) => {
      tile.classList.add("on-path");
      tile.classList.toggle("path-start", index === 0);
      tile.dataset.step = String(index + 1);
    });
    // In board units (a square is 1 by 1), so the line stays on the squares as the board resizes.
    const size = Number(getComputedStyle(board).getPropertyValue("--size")) || Math.round(Math.sqrt(board.children.length));
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("class", "path-line");
    svg.setAttribute("data-path-line", "");
    svg.setAttribute("aria-hidden", "true");
    svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
    svg.setAttribute("preserveAspectRatio", "none");
    const line = document.createElementNS(SVG, "polyline");
    line.setAttribute("points", squaresOf(button).map((square) => `${(square % size) + 0.5},${Math.floor(square / size) + 0.5}`).join(" "));
    svg.appendChild(line);
    board.appendChild(svg);
    const said = results.querySelector("[data-word-detail-path]");
    if (said) {
      const word = button.textContent.trim();
      const letters = tiles.map((tile) => tile.firstChild.textContent.trim()).join(" → ");
      said.textContent = `${word}: ${letters}`;
    }
    const hint = results.querySelector("[data-word-detail-hint]");
    if (hint) hint.hidden = true;
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest(".word-link[data-word-path]");
    const results = button && button.closest("[data-results-round]");
    if (results) drawPath(results, button);
  });
})();
