// Chat at a game table. Messages arrive over the page's game socket: hunt.js passes
// them on as "wordfall:chat" events; on a crossword page (data-ws) this script opens the
// game's socket itself. Every text is put in with textContent, never as HTML.
(function () {
  "use strict";
  const panel = document.querySelector("[data-chat]");
  if (!panel) return;
  const log = panel.querySelector("[data-chat-log]");
  const note = panel.querySelector("[data-chat-note]");
  const form = panel.querySelector("[data-chat-form]");
  const input = panel.querySelector("[data-chat-input]");
  const csrf = panel.querySelector("input[name=csrfmiddlewaretoken]").value;
  const me = panel.dataset.me;
  // A reader may have two rooms (a hunt table's chat and its watchers' chat): one log,
  // each watchers' line marked, and a "To" choice when there are two.
  const to = panel.querySelector("[data-chat-to]");
  const roomChoice = panel.querySelector("[data-chat-room]");
  const roomLabel = (name) => (name.startsWith("watchers.") ? "Watchers" : "Table");
  let send = (message) => (window.Wordfall && window.Wordfall.chatSend ? window.Wordfall.chatSend(message) : false);

  function post(url) {
    return fetch(url, { method: "POST", headers: { "X-CSRFToken": csrf, Accept: "application/json" },
                        credentials: "same-origin" })
      .then((r) => r.json()).catch(() => ({ ok: false, reason: "Could not reach the site; try again." }));
  }

  function button(label, onClick) {
    const b = document.createElement("button");
    b.type = "button"; b.className = "link chat-action"; b.textContent = label;
    b.addEventListener("click", onClick);
    return b;
  }

  function line(m) {
    const li = document.createElement("li");
    li.dataset.id = m.id; li.dataset.author = m.author; li.dataset.room = m.room || "";
    if (m.room && m.room.startsWith("watchers.")) {
      const tag = document.createElement("span");
      tag.className = "tag chat-room-tag"; tag.textContent = "watchers";
      li.append(tag, " ");
    }
    const who = document.createElement("a");
    who.className = "chat-who"; who.href = `/u/${encodeURIComponent(m.author)}/`; who.textContent = m.name;
    const text = document.createElement("span");
    text.className = "chat-text"; text.textContent = m.text;
    li.append(who, " ", text);
    if (m.author !== me) {
      li.append(" ", button("Mute", () => {
        post(panel.dataset.muteUrl.replace("__name__", encodeURIComponent(m.author))).then((r) => {
          note.textContent = r.ok ? r.message : r.reason;
          if (r.ok) log.querySelectorAll("li").forEach((el) => { if (el.dataset.author === m.author) el.remove(); });
        });
      }), button("Report", () => {
        post(panel.dataset.reportUrl.replace(/0\/$/, `${m.id}/`)).then((r) => {
          note.textContent = r.ok ? r.message : r.reason;
        });
      }));
    }
    return li;
  }

  function add(m) {
    if (log.querySelector(`li[data-id="${m.id}"]`)) return;
    log.append(line(m));
    log.scrollTop = log.scrollHeight;
  }

  function handle(msg) {
    switch (msg.type) {
      case "chat.history": {
        panel.hidden = false;
        const room = msg.room || "";
        if (room && !roomChoice.querySelector(`option[value="${room}"]`)) {
          roomChoice.append(new Option(roomLabel(room), room));
          to.hidden = roomChoice.options.length < 2;
        }
        const others = [...log.children].filter((li) => li.dataset.room !== room);
        const lines = others.concat(msg.messages.map((m) => line({ ...m, room })));
        lines.sort((a, b) => Number(a.dataset.id) - Number(b.dataset.id));
        log.replaceChildren(...lines);
        log.scrollTop = log.scrollHeight;
        return;
      }
      case "chat.message": return add(msg);
      case "chat.hidden": {
        const el = log.querySelector(`li[data-id="${msg.id}"]`);
        if (el) el.remove();
        return;
      }
      case "chat.refused": note.textContent = msg.reason; return;
      default: return;
    }
  }

  document.addEventListener("wordfall:chat", (event) => handle(event.detail || {}));

  if (panel.dataset.ws && window.Wordfall && window.Wordfall.live) {
    const socket = window.Wordfall.live(panel.dataset.ws, {
      longestWait: 15000,
      open() { socket.send({ type: "chat.join" }); },
      message(msg) { if (msg.type.startsWith("chat.")) handle(msg); },
    });
    send = socket.send;
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    const message = { type: "chat", text };
    if (!to.hidden && roomChoice.value) message.room = roomChoice.value;
    if (send(message)) { input.value = ""; note.textContent = ""; }
    else note.textContent = "Not connected; try again in a moment.";
  });
})();
