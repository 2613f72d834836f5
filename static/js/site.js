// The site socket: who is online and live notifications. Game pages open their own
// sockets; this one is on every page.
(function () {
  "use strict";
  const wsBase = (location.protocol === "https:" ? "wss://" : "ws://") + location.host;
  window.Wordfall = window.Wordfall || {};
  window.Wordfall.wsUrl = (path) => wsBase + path;

  // Live countdowns redraw time every second, so the browser writes it: the clock face
  // "2:05" (hunts, queues) and the short form "2 d 5 h" that the server writes for the
  // same deadlines (config/durations.py, short).
  window.Wordfall.clock = (seconds) => {
    seconds = Math.max(0, Math.floor(seconds));
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  };
  window.Wordfall.timeLeft = (seconds) => {
    seconds = Math.max(0, Math.floor(seconds));
    const d = Math.floor(seconds / 86400), h = Math.floor((seconds % 86400) / 3600);
    const m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    if (d) return `${d} d ${h} h`;
    if (h) return `${h} h ${m} min`;
    if (m) return `${m} min ${s} s`;
    return `${s} s`;
  };

  function toast(text, url) {
    const area = document.querySelector("[data-toasts]");
    if (!area) return;
    const el = document.createElement("div");
    el.className = "toast";
    if (url) {
      const a = document.createElement("a");
      a.href = url; a.textContent = text; el.appendChild(a);
    } else {
      el.textContent = text;
    }
    area.appendChild(el);
    setTimeout(() => el.remove(), 6000);
  }
  window.Wordfall.toast = toast;

  function renderPresence(msg) {
    document.querySelectorAll("[data-presence-count]").forEach((el) => { el.textContent = msg.count; });
    document.querySelectorAll("[data-presence-list]").forEach((list) => {
      list.replaceChildren();
      if (!msg.players.length) {
        const li = document.createElement("li"); li.className = "muted"; li.textContent = "Nobody yet — be the first.";
        list.appendChild(li);
      }
      for (const p of msg.players) {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = "/u/" + encodeURIComponent(p.username) + "/"; a.textContent = p.name;
        li.appendChild(a); list.appendChild(li);
      }
    });
  }

  // The header's "My games" badge: games of any kind awaiting my move.
  function showGamesAwaiting(count) {
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

  // Someone came or went: lists of who is online (the friends page) reload (htmx). At most
  // once every 3 s, so a busy site does not reload them on every arrival; a change inside
  // that window is told at its end, never dropped (htmx's own throttle drops it, and a
  // friend who came online just after my own arrival would show offline until the next).
  const PRESENCE_EVERY_MS = 3000;
  let presenceHeld = null, presenceWindow = null;
  function announcePresence(msg) {
    if (presenceWindow) { presenceHeld = msg; return; }
    document.dispatchEvent(new CustomEvent("wordfall:presence", { detail: msg }));
    presenceWindow = setTimeout(() => {
      presenceWindow = null;
      const held = presenceHeld; presenceHeld = null;
      if (held) announcePresence(held);
    }, PRESENCE_EVERY_MS);
  }

  let retry = 1000;
  function connect() {
    const ws = new WebSocket(wsBase + "/ws/presence/");
    let timer = null;
    ws.onopen = () => { retry = 1000; timer = setInterval(() => ws.send(JSON.stringify({ type: "ping" })), 30000); };
    ws.onmessage = (e) => {
      const msg = JSON.parse(e.data);
      if (msg.type === "presence.update") {
        renderPresence(msg);
        announcePresence(msg);
      }
      else if (msg.type === "notification.count") {
        // Sent on every (re)connect: notifications missed while away are counted too.
        const badge = document.querySelector("[data-notification-count]");
        if (badge) { badge.hidden = msg.count === 0; badge.textContent = String(msg.count); }
      } else if (msg.type === "notification.new") {
        const badge = document.querySelector("[data-notification-count]");
        if (badge) { badge.hidden = false; badge.textContent = String((parseInt(badge.textContent, 10) || 0) + 1); }
        toast(msg.text, msg.url);
        document.dispatchEvent(new CustomEvent("wordfall:notification", { detail: msg }));
      } else if (msg.type === "games.awaiting") {
        // Sent on every (re)connect: turns that came while away are counted too.
        showGamesAwaiting(msg.count);
      } else if (msg.type === "games.changed") {
        // One of my games changed: the message carries the new badge count, and live
        // lists (My games) refresh themselves (htmx trigger).
        if (typeof msg.awaiting === "number") showGamesAwaiting(msg.awaiting);
        document.dispatchEvent(new CustomEvent("wordfall:games-changed", { detail: msg }));
      }
    };
    // Back off, with jitter so that the pages of a restarted server do not all return at once.
    ws.onclose = () => {
      clearInterval(timer); setTimeout(connect, retry * (0.5 + Math.random())); retry = Math.min(retry * 2, 30000);
    };
  }
  if ("WebSocket" in window) connect();
})();
