// A profile's rating charts: hovering, tapping or focusing a point names its game (date,
// rating, change, place) under the chart with a link to it, and marks it with a guide
// line. One point of a chart is in the tab order; the arrow keys, Home and End move
// between its points, Enter opens the point's game.
(() => {
  "use strict";

  function select(chart, point) {
    chart.querySelectorAll(".pt.selected").forEach((p) => p.classList.remove("selected"));
    point.classList.add("selected");
    const guide = chart.querySelector("[data-chart-guide]");
    if (guide) {
      guide.setAttribute("x1", point.getAttribute("cx"));
      guide.setAttribute("x2", point.getAttribute("cx"));
      guide.setAttribute("visibility", "visible");
    }
    chart.querySelector("[data-chart-detail-text]").textContent = point.getAttribute("aria-label");
    const link = chart.querySelector("[data-chart-detail-link]");
    if (link) {
      link.hidden = !point.dataset.url;
      if (point.dataset.url) link.href = point.dataset.url;
      if (link.previousSibling && link.previousSibling.nodeType === Node.TEXT_NODE) link.previousSibling.textContent = point.dataset.url ? " · " : "";
    }
  }

  function moveFocus(chart, point) {
    chart.querySelectorAll(".pt").forEach((p) => p.setAttribute("tabindex", p === point ? "0" : "-1"));
    point.focus();
  }

  document.querySelectorAll("[data-rating-chart]").forEach((chart) => {
    const points = Array.from(chart.querySelectorAll(".pt"));
    if (!points.length) return;
    const chosen = (event) => event.target.closest && event.target.closest(".pt");
    chart.addEventListener("pointerover", (event) => { const p = chosen(event); if (p) select(chart, p); });
    chart.addEventListener("focusin", (event) => { const p = chosen(event); if (p) select(chart, p); });
    chart.addEventListener("click", (event) => { const p = chosen(event); if (p) { select(chart, p); moveFocus(chart, p); } });
    chart.addEventListener("keydown", (event) => {
      const p = chosen(event);
      if (!p) return;
      const index = points.indexOf(p);
      const next = { ArrowLeft: index - 1, ArrowDown: index - 1, ArrowRight: index + 1, ArrowUp: index + 1, Home: 0, End: points.length - 1 }[event.key];
      if (next !== undefined) {
        event.preventDefault();
        moveFocus(chart, points[Math.max(0, Math.min(points.length - 1, next))]);
      } else if ((event.key === "Enter" || event.key === " ") && p.dataset.url) {
        event.preventDefault();
        window.location.href = p.dataset.url;
      }
    });
  });
})();
