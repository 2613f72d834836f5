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

  // The phone's Menu button opens and closes the header's links (Escape closes them).
  const menuButton = document.querySelector("[data-menu-button]");
  const menu = document.querySelector("[data-menu]");
  function openMenu(open) {
    menu.classList.toggle("open", open);
    menuButton.setAttribute("aria-expanded", String(open));
  }
  if (menuButton && menu) {
    menuButton.addEventListener("click", () => openMenu(!menu.classList.contains("open")));
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && menu.classList.contains("open")) { openMenu(false); menuButton.focus(); }
    });
  }

  // The header's "My games" badge: games of any kind awaiting my move (on a phone, the
  // Menu button carries it too).
  function keepCount(holder, attribute, count) {
    if (!holder) return;
    let badge = holder.querySelector(`[${attribute}]`);
    if (!badge) {
      if (!count) return;
      badge = document.createElement("span");
      badge.className = "badge"; badge.title = "Games awaiting your move";
      badge.setAttribute(attribute, "");
      holder.append(" ", badge);
    }
    badge.textContent = String(count);
    badge.hidden = count === 0;
  }
  function showGamesAwaiting(count) {
    keepCount(document.querySelector('[data-nav="my-games"]'), "data-games-awaiting", count);
    keepCount(menuButton, "data-menu-awaiting", count);
  }

  // A watched player came or went (the server tells at most once a second): lists of who
  // is online (the friends page) reload (htmx). At most once every 3 s, so a busy list
  // does not reload on every arrival; a change inside that window is told at its end,
  // never dropped (htmx's own throttle drops it, and a friend who came online just after
  // my own arrival would show offline until the next).
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

  // The server closes a player's oldest socket with 4429 when they open more than it
  // allows: that page says why and does not come back by itself (it would close another).
  function socketsCapped() {
    const area = document.querySelector("[data-toasts]");
    if (!area || area.querySelector("[data-sockets-capped]")) return;
    const el = document.createElement("div");
    el.className = "toast"; el.setAttribute("data-sockets-capped", ""); el.setAttribute("role", "alert");
    el.textContent = "This page stopped updating: you have too many Wordfall pages open. Close some, then reload this one.";
    area.appendChild(el);
  }

  // Close codes after which coming back would not help (config/websocket.py CloseCode):
  // signed out, no such game or table, too many pages open.
  const STOPPED = { 4401: "signed out", 4404: "gone", 4429: "too many pages" };

  // Every page's live socket. It pings while open, comes back after a drop (the wait
  // doubles, with jitter so that the pages of a restarted server do not all return at
  // once; each server sends a page its whole state on connect, so a page catches up with
  // what it missed) and stops for good on the codes above. ``closed`` hears "reconnecting"
  // or why it stopped. Returns { send }, which is false while the socket is not open.
  function live(path, { message, open, closed, pingEvery = 30000, firstWait = 1000, longestWait = 30000 } = {}) {
    let socket = null, wait = firstWait;
    const send = (msg) => {
      if (!socket || socket.readyState !== WebSocket.OPEN) return false;
      socket.send(JSON.stringify(msg));
      return true;
    };
    function connect() {
      const ws = socket = new WebSocket(wsBase + path);
      let pinger = null;
      ws.onopen = () => {
        wait = firstWait;
        pinger = setInterval(() => send({ type: "ping" }), pingEvery);
        if (open) open();
      };
      ws.onmessage = (e) => { if (message) message(JSON.parse(e.data)); };
      ws.onclose = (e) => {
        clearInterval(pinger);
        if (socket === ws) socket = null;
        const stopped = STOPPED[e.code];
        if (e.code === 4429) socketsCapped();
        if (closed) closed(stopped || "reconnecting");
        if (stopped) return;
        setTimeout(connect, wait * (0.5 + Math.random())); wait = Math.min(wait * 2, longestWait);
      };
    }
    if ("WebSocket" in window) connect();
    return { send };
  }
  window.Wordfall.live = live;

  // A notification about the page in front of the player (their game's move, its result)
  // is read as it comes: the page shows it, so it neither rings the bell nor covers the
  // page with a toast. A page left in a background tab reads them when it comes back.
  const here = location.pathname;
  let unseenHere = document.body.hasAttribute("data-unread-here");
  function seeHere() {
    if (!unseenHere || document.visibilityState !== "visible") return;
    unseenHere = false;
    const token = (JSON.parse(document.body.getAttribute("hx-headers") || "{}"))["X-CSRFToken"] || "";
    const body = new FormData(); body.append("url", here);
    fetch("/notifications/seen/", { method: "POST", body, credentials: "same-origin", headers: { "X-CSRFToken": token, "Accept": "application/json" } })
      .catch(() => { unseenHere = true; });
  }
  document.addEventListener("visibilitychange", seeHere);
  seeHere();

  // What was typed into a live form (htmx, sent as one types) before the page's scripts
  // ran, on a slow connection, raised events nobody heard: such a form is sent once now.
  // htmx wires the page on this same event, from a listener added before this one, and
  // takes the values it then finds as already seen.
  document.addEventListener("DOMContentLoaded", () => {
    if (!window.htmx) return;
    document.querySelectorAll('form[hx-trigger*="input"]').forEach((form) => {
      const typed = [...form.elements].some((field) => "defaultValue" in field && field.value !== field.defaultValue);
      if (typed) window.htmx.trigger(form, "submit");
    });
  });

  // A page listing players (data-presence-watch="id id ...") watches them.
  const presence = live("/ws/presence/", {
    open() {
      const watched = document.querySelector("[data-presence-watch]");
      if (watched) {
        const players = watched.dataset.presenceWatch.split(" ").filter(Boolean).map(Number);
        presence.send({ type: "presence.watch", players });
      }
    },
    message(msg) {
      if (msg.type === "presence.count") {
        document.querySelectorAll("[data-presence-count]").forEach((el) => { el.textContent = msg.count; });
      } else if (msg.type === "presence.changed") {
        announcePresence(msg);
      }
      else if (msg.type === "notification.count") {
        // Sent on every (re)connect: notifications missed while away are counted too.
        const badge = document.querySelector("[data-notification-count]");
        if (badge) { badge.hidden = msg.count === 0; badge.textContent = String(msg.count); }
      } else if (msg.type === "notification.new") {
        const mine = msg.url === here;
        if (mine) { unseenHere = true; seeHere(); } else toast(msg.text, msg.url);
        // Once read, the server sends the new count; until then (another page, a tab in
        // the background) the bell counts it.
        const badge = document.querySelector("[data-notification-count]");
        if (badge && (!mine || unseenHere)) { badge.hidden = false; badge.textContent = String((parseInt(badge.textContent, 10) || 0) + 1); }
        document.dispatchEvent(new CustomEvent("wordfall:notification", { detail: msg }));
        // And one named after its kind, for htmx triggers: a trigger filter
        // ([detail.kind=='…']) is code htmx evaluates, which the site's policy forbids.
        document.dispatchEvent(new CustomEvent("wordfall:notification-" + msg.kind, { detail: msg }));
      } else if (msg.type === "games.awaiting") {
        // Sent on every (re)connect: turns that came while away are counted too. Live
        // lists reload as well: a change made after the page was drawn but before this
        // socket joined was sent to no one.
        showGamesAwaiting(msg.count);
        document.dispatchEvent(new CustomEvent("wordfall:games-changed", { detail: msg }));
      } else if (msg.type === "games.changed") {
        // One of my games changed: the message carries the new badge count, and live
        // lists (My games) refresh themselves (htmx trigger).
        if (typeof msg.awaiting === "number") showGamesAwaiting(msg.awaiting);
        document.dispatchEvent(new CustomEvent("wordfall:games-changed", { detail: msg }));
      }
    },
  });
})();
