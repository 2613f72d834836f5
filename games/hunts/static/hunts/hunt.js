// A hunt table: the live state over the table socket, drag-to-select on the grid,
// typing, the server-synced countdown and the results. The server judges everything;
// this file only draws and sends.
(function () {
  "use strict";
  const root = document.querySelector("[data-hunt-table]");
  if (!root) return;

  const $ = (sel) => root.querySelector(sel);
  const boardEl = $("[data-board]");
  const display = $("[data-word-display]");
  const clockEl = $("[data-clock]");
  const countdownEl = $("[data-countdown]");
  const foundEl = $("[data-found]");
  const seatsEl = $("[data-seats]");
  const typeForm = $("[data-type-form]");
  const typeInput = $("[data-type-input]");
  const resultsEl = $("[data-results]");
  let socket = null;
  let state = null;        // last "state" message
  let offset = 0;          // server clock minus ours, in ms
  let path = [];           // squares of the drag in progress, as [row, col]
  let dragging = false;
  let resultsFor = null;   // round id whose results are shown
  let nextId = 1;
  let queued = [];         // words typed during the 3-2-1, sent the moment play starts

  const serverNow = () => Date.now() + offset;
  const round = () => (state && state.round) || null;
  const playing = () => {
    const r = round();
    return !!r && r.status === "playing" && serverNow() >= r.starts_at && serverNow() < r.deadline;
  };
  const canPlay = () => playing() && state.me.seated;
  const countingDown = () => {
    const r = round();
    return !!r && r.status === "playing" && serverNow() < r.starts_at && !!state.me.seated;
  };

  // -- socket -------------------------------------------------------------------

  // The server sends the whole table on connect, so the page catches up with whatever it
  // missed; a round is short, so the page comes back sooner than others do.
  const CLOSED = { gone: "no such table", "too many pages": "too many pages open", "signed out": "signed out" };
  function connect() {
    const conn = $("[data-connection]");
    socket = window.Wordfall.live(root.dataset.ws, {
      pingEvery: 25000,
      firstWait: 500,
      longestWait: 8000,
      open() {
        conn.textContent = "live"; conn.classList.add("ok");
        window.Wordfall.chatSend = send;  // chat/static/chat/chat.js writes over this socket
        if (document.querySelector("[data-chat]")) send({ type: "chat.join" });
      },
      message: handle,
      closed(why) {
        conn.classList.remove("ok");
        conn.textContent = CLOSED[why] || "reconnecting…";
      },
    });
  }

  const send = (message) => !!socket && socket.send(message);

  function handle(msg) {
    if (msg.type.startsWith("chat.")) {
      document.dispatchEvent(new CustomEvent("wordfall:chat", { detail: msg }));
      return;
    }
    // A find or count of a round that is no longer shown (it crossed a "play again").
    if (msg.type.startsWith("round.") && msg.type !== "round.ended" && round() && msg.round_id !== round().id) return;
    switch (msg.type) {
      case "state": return applyState(msg);
      case "result": return showResult(msg);
      case "round.found": return addFound(msg, true);
      case "round.mine": return addFound(msg, false);
      // A count only grows within a round; two finds counted at once may arrive swapped.
      case "round.count": return setSeat(msg.user_id, { count: Math.max(msg.count, seatCount(msg.user_id)) });
      case "round.ended":
        if (window.Wordfall.sound) window.Wordfall.sound("end");
        // The table's new state follows on the socket; the results come drawn with the end.
        setDisplay("Time's up", "");
        delete display.dataset.outcome;
        if (msg.html) return showResults(msg.round_id, msg.html);
        return loadResults(msg.round_id, msg.results_url);
      case "table.watchers": $("[data-watchers]").textContent = msg.count; return;
      case "error": return flash(msg.reason, "bad");
      default: return;
    }
  }

  // -- state ---------------------------------------------------------------------

  function applyState(msg) {
    const previousRound = round() && round().id;
    offset = msg.server_now - Date.now();
    state = msg;
    $("[data-watchers]").textContent = msg.watchers;
    drawSeats();
    drawActions();
    const r = round();
    if (!r) { boardEl.replaceChildren(); boardEl.classList.remove("expected"); foundEl.replaceChildren(); showHint(); return; }
    let backToPlay = false;
    if (r.id !== previousRound || !boardEl.children.length) {
      drawBoard(r);
      queued = [];
      if (previousRound) {
        setDisplay("\u00a0", ""); delete display.dataset.outcome;
        backToPlay = r.status === "playing";
      }
    }
    foundEl.replaceChildren();
    r.found.forEach((f) => addFound(f, state.table.game === "rampage", true));
    $("[data-found-heading]").textContent = state.table.game === "rampage" ? "Found words" : "Your words";
    typeForm.hidden = !state.me.seated || r.status !== "playing";
    showHint();
    if (r.status === "finished") loadResults(r.id, r.results_url);
    else if (resultsFor !== null && resultsFor !== r.id) { resultsEl.replaceChildren(); resultsFor = null; }
    // "Play again" is pressed below the last results: bring the clock, the word line and
    // the board back to the top of a phone's screen, once those results are gone (the
    // shorter page would otherwise stop the scroll short of it).
    if (backToPlay) showPlayArea();
    tick();
  }

  function drawSeats() {
    seatsEl.replaceChildren();
    for (const seat of state.seats) {
      const li = document.createElement("li");
      li.dataset.userId = seat.user_id;
      if (seat.user_id === state.me.user_id) li.classList.add("me");
      const name = document.createElement("span");
      name.className = "name";
      name.textContent = seat.name + (seat.user_id === state.table.host_id ? " ★" : "");
      li.appendChild(name);
      if (seat.bot) {
        const tag = document.createElement("span"); tag.className = "tag"; tag.textContent = seat.bot + " bot" + (seat.bot_rating ? " · " + seat.bot_rating : "");
        if (seat.bot_rating) tag.title = "Rated " + seat.bot_rating + " in this game";
        li.appendChild(tag);
        if (state.me.is_host && !(round() && round().status === "playing")) {
          const form = document.querySelector("[data-leave]").cloneNode(true);
          form.hidden = false; form.removeAttribute("data-leave"); form.classList.add("inline");
          const input = document.createElement("input");
          input.type = "hidden"; input.name = "seat"; input.value = seat.position;
          form.appendChild(input);
          form.querySelector("button").textContent = "remove";
          form.querySelector("button").className = "link";
          li.appendChild(form);
        }
      }
      const score = document.createElement("span");
      score.className = "score";
      score.dataset.score = "";
      li.appendChild(score);
      seatsEl.appendChild(li);
      setSeat(seat.user_id, seat);
    }
  }

  function seatCount(userId) {
    const li = seatsEl.querySelector(`li[data-user-id="${userId}"]`);
    return li ? Number(li.dataset.count || 0) : 0;
  }

  function setSeat(userId, values) {
    const li = seatsEl.querySelector(`li[data-user-id="${userId}"]`);
    if (!li) return;
    if (values.score !== undefined) li.dataset.points = values.score;
    if (values.count !== undefined) li.dataset.count = values.count;
    const r = round();
    const finished = r && r.status === "finished";
    const text = state.table.game === "rampage" || finished
      ? `${li.dataset.points || 0} pts`
      : `${li.dataset.count || 0} word${Number(li.dataset.count) === 1 ? "" : "s"}`;
    li.querySelector("[data-score]").textContent = text;
  }

  function drawActions() {
    const r = round();
    const busy = r && r.status === "playing";
    const seated = state.me.seated;
    const free = state.seats.length < state.table.seat_count;
    const closed = state.table.status === "closed";
    const start = root.querySelector("[data-start]");
    start.hidden = !(state.me.is_host && !busy && !closed && state.seats.length >= 2);
    root.querySelector("[data-start-button]").textContent = r ? "Play again" : "Start round";
    root.querySelector("[data-join]").hidden = !(state.me.user_id && !seated && free && !busy && !closed);
    root.querySelector("[data-add-bot]").hidden = !(state.me.is_host && free && !busy && !closed);
    root.querySelector("[data-leave]").hidden = !seated;
    const label = $("[data-round-label]");
    if (closed) label.textContent = "This table is closed.";
    else if (!r) label.textContent = state.seats.length >= 2 ? "Waiting for the host to start." : "Waiting for players.";
    else label.textContent = `Round ${r.number}` + (r.status === "finished" ? " — finished" : "");
  }

  // -- board -------------------------------------------------------------------------

  function drawBoard(r) {
    boardEl.replaceChildren();
    boardEl.style.setProperty("--size", r.size);
    // Rows exist for assistive technology (a grid is made of rows); CSS ignores them.
    const rows = r.faces.map(() => {
      const line = document.createElement("div");
      line.className = "hunt-row"; line.setAttribute("role", "row");
      boardEl.appendChild(line);
      return line;
    });
    r.faces.forEach((row, rIndex) => row.forEach((face, cIndex) => {
      const tile = document.createElement("div");
      tile.className = "tile hunt-tile";
      tile.dataset.r = rIndex; tile.dataset.c = cIndex;
      tile.setAttribute("role", "gridcell");
      const letter = document.createElement("span");
      letter.className = "letter";
      letter.textContent = face === "qu" ? "Qu" : face.toUpperCase();
      tile.appendChild(letter);
      if (state.table.game === "rampage") {
        const value = document.createElement("span");
        value.className = "value"; value.textContent = r.values[rIndex][cIndex];
        tile.appendChild(value);
      }
      const bonus = r.bonuses[`${rIndex},${cIndex}`];
      if (bonus) {
        tile.classList.add("b" + bonus); tile.dataset.bonus = bonus;
        const mark = document.createElement("span"); mark.className = "bonus-mark"; mark.textContent = bonus;
        tile.appendChild(mark);
      }
      rows[rIndex].appendChild(tile);
    }));
  }

  const tileAt = (r, c) => boardEl.querySelector(`.hunt-tile[data-r="${r}"][data-c="${c}"]`);
  const faceOf = ([r, c]) => round().faces[r][c];
  const spell = (squares) => squares.map(faceOf).join("");

  // The tile under the pointer, counting only its inner part, so that a diagonal drag
  // does not clip the corner of a neighbour.
  function tileUnder(x, y) {
    const el = document.elementFromPoint(x, y);
    const tile = el && el.closest(".hunt-tile");
    if (!tile || !boardEl.contains(tile)) return null;
    const box = tile.getBoundingClientRect();
    const dx = x - (box.left + box.width / 2), dy = y - (box.top + box.height / 2);
    if (Math.hypot(dx, dy) > box.width * 0.45) return null;
    return [Number(tile.dataset.r), Number(tile.dataset.c)];
  }

  const same = (a, b) => a && b && a[0] === b[0] && a[1] === b[1];
  const adjacent = (a, b) => !same(a, b) && Math.abs(a[0] - b[0]) <= 1 && Math.abs(a[1] - b[1]) <= 1;

  function paintPath() {
    boardEl.querySelectorAll(".hunt-tile.on").forEach((t) => t.classList.remove("on"));
    path.forEach(([r, c]) => tileAt(r, c).classList.add("on"));
    setDisplay(path.length ? spell(path).toUpperCase() : "\u00a0", "");
  }

  function extend(square) {
    if (!square) return;
    const last = path[path.length - 1];
    if (path.length >= 2 && same(square, path[path.length - 2])) { path.pop(); paintPath(); return; }
    if (path.some((s) => same(s, square)) || (last && !adjacent(last, square))) return;
    path.push(square); paintPath();
  }

  boardEl.addEventListener("pointerdown", (event) => {
    if (!canPlay()) return;
    const square = tileUnder(event.clientX, event.clientY);
    if (!square) return;
    event.preventDefault();
    dragging = true; path = [];
    boardEl.setPointerCapture(event.pointerId);
    extend(square);
  });
  boardEl.addEventListener("pointermove", (event) => {
    if (!dragging) return;
    event.preventDefault();
    extend(tileUnder(event.clientX, event.clientY));
  });
  const release = () => {
    if (!dragging) return;
    dragging = false;
    const squares = path; path = [];
    boardEl.querySelectorAll(".hunt-tile.on").forEach((t) => t.classList.remove("on"));
    if (squares.length && canPlay()) submit({ path: squares }, spell(squares));
    else setDisplay("\u00a0", "");
  };
  boardEl.addEventListener("pointerup", release);
  boardEl.addEventListener("pointercancel", release);
  boardEl.addEventListener("touchmove", (event) => { if (dragging) event.preventDefault(); }, { passive: false });

  typeForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const word = typeInput.value.trim().toLowerCase();
    typeInput.value = "";
    if (!word) return;
    if (canPlay()) submit({ word }, word);
    else if (countingDown()) {
      queued.push(word);
      setDisplay(queued.join(" ").toUpperCase(), "pending", "Sent when the round starts");
    } else flash("The round is not running.", "bad");
  });

  function showPlayArea() {
    const play = root.querySelector(".hunt-play");
    if (play.getBoundingClientRect().top >= 0) return;
    const still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    play.scrollIntoView({ behavior: still ? "auto" : "smooth", block: "start" });
  }

  function submit(payload, shown) {
    setDisplay(shown.toUpperCase(), "pending");
    if (!send({ type: "submit", round_id: round().id, id: nextId++, ...payload })) {
      setDisplay("Not connected", "bad");
    }
  }

  // -- feedback -------------------------------------------------------------------

  // ``detail`` (a refusal's reason) goes on a small line of its own: the display keeps
  // its height, so the board never moves under a finger between two drags.
  function setDisplay(text, kind, detail) {
    display.textContent = text;
    if (detail) {
      const line = document.createElement("span");
      line.className = "detail"; line.textContent = detail;
      display.appendChild(line);
    }
    display.className = "word-display" + (kind ? " " + kind : "");
    if (kind === "bad" || kind === "taken") {
      void display.offsetWidth; // restart the shake animation
      display.classList.add("shake");
    }
  }

  // A first-time hint under the board until the player's first accepted word.
  const HINT = "wordfall.huntHint";
  function hintDone() { try { return localStorage.getItem(HINT) === "done"; } catch (e) { return true; } }
  function showHint() {
    const hint = $("[data-hunt-hint]");
    if (hint) hint.hidden = hintDone() || !state.me.seated || !!foundEl.querySelector("li.mine");
  }

  function showResult(msg) {
    if (msg.outcome === "accepted") {
      try { localStorage.setItem(HINT, "done"); } catch (e) { /* private mode: the hint stays */ }
      const hint = $("[data-hunt-hint]");
      if (hint) hint.hidden = true;
    }
    const word = (msg.word || "").toUpperCase();
    if (msg.outcome === "accepted") setDisplay(`${word} +${msg.points}`, "ok");
    else if (msg.outcome === "taken") setDisplay(word, "taken", msg.reason);
    else if (word) setDisplay(word, "bad", msg.reason);
    else setDisplay("\u00a0", "bad", msg.reason);
    display.dataset.outcome = msg.outcome;
    const sound = { accepted: "found", taken: "taken" }[msg.outcome] || "invalid";
    if (window.Wordfall.sound) window.Wordfall.sound(sound);
    // The reply is this page's news of its own find (no broadcast of it follows here).
    if (msg.outcome === "accepted" && msg.user_id && round() && msg.round_id === round().id) {
      addFound(msg, state.table.game === "rampage", false);
    }
  }

  function flash(text, kind) { setDisplay("\u00a0", kind, text); }

  function addFound(f, everyone, quiet) {
    if (foundEl.querySelector(`li[data-word="${f.word}"]`)) return;
    const li = document.createElement("li");
    li.dataset.word = f.word;
    if (f.user_id === state.me.user_id) li.classList.add("mine");
    if (f.crossed_off) { li.classList.add("crossed"); li.title = "Common word: crossed off"; }
    const word = document.createElement("span"); word.className = "w"; word.textContent = f.word;
    const who = document.createElement("span"); who.className = "who muted";
    who.textContent = everyone ? f.name : "";
    const pts = document.createElement("span"); pts.className = "pts"; pts.textContent = f.points;
    li.append(word, who, pts);
    foundEl.prepend(li);
    if (everyone && !quiet) {
      const seat = seatsEl.querySelector(`li[data-user-id="${f.user_id}"]`);
      if (seat) setSeat(f.user_id, { score: Number(seat.dataset.points || 0) + f.points });
    }
  }

  // -- time ---------------------------------------------------------------------------

  function tick() {
    const r = round();
    if (!r) { clockEl.textContent = ""; countdownEl.hidden = true; return; }
    const now = serverNow();
    if (r.status === "playing" && now < r.starts_at) {
      countdownEl.hidden = false;
      countdownEl.textContent = Math.ceil((r.starts_at - now) / 1000);
      boardEl.classList.add("veiled");
      clockEl.textContent = "";
      return;
    }
    countdownEl.hidden = true;
    boardEl.classList.remove("veiled");
    if (queued.length && canPlay()) {
      const words = queued; queued = [];
      words.forEach((w) => submit({ word: w }, w));
    }
    if (r.status !== "playing") { clockEl.textContent = ""; boardEl.classList.add("done"); return; }
    const left = Math.max(0, r.deadline - now);
    const seconds = Math.ceil(left / 1000);
    clockEl.textContent = window.Wordfall.clock(seconds);
    clockEl.classList.toggle("low", seconds <= 10);
    boardEl.classList.toggle("done", left <= 0);
    if (left <= 0) { typeForm.hidden = true; clockEl.textContent = "Time!"; }
  }
  setInterval(tick, 200);

  // -- results --------------------------------------------------------------------

  function loadResults(roundId, url) {
    if (resultsFor === roundId) return;
    resultsFor = roundId;
    fetch(url + "?partial=1", { credentials: "same-origin" })
      .then((response) => response.text())
      .then((html) => showResults(roundId, html));
  }

  function showResults(roundId, html) {
    resultsFor = roundId;
    resultsEl.innerHTML = html;
    // The results are drawn when the round ends, before its rating changes are applied:
    // their pending badges ask for themselves through htmx.
    if (window.htmx) window.htmx.process(resultsEl);
    resultsEl.scrollIntoView({ behavior: "smooth", block: "start" });
  }

  // Starting goes over the socket when it is open (no reload); the form posts otherwise.
  root.querySelector("[data-start]").addEventListener("submit", (event) => {
    if (send({ type: "start" })) event.preventDefault();
  });

  connect();
})();
