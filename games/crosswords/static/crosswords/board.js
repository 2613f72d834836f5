// The crossword board: place rack tiles (tap a tile, then a ringed square; or drag),
// declare blanks, recall, shuffle, swap, pass, resign. The server judges everything:
// each change of the placement asks it for the score preview and the squares offered
// for the next tile. The play area is an htmx partial, reloaded whenever the game moves.
(function () {
  "use strict";
  const root = document.getElementById("crossword");
  if (!root) return;

  let area = null;
  let pending = [];          // {row, col, letter, blank, btn, sq}
  let selected = null;       // the rack tile chosen to place next
  let offered = new Set();   // "row,col" squares that accept the next tile
  let blankEntry = null;     // the blank waiting for its letter
  let cursor = null;         // {row, col, down}: where typed letters go
  let previewSeq = 0;
  let lastError = "";
  let refreshing = null;
  let refreshAgain = false;
  let frames = null, frameIndex = 0;
  let refocus = false;       // a move made from the keyboard gives the focus back to the board
  let touchDrag = null;      // {btn, id, x, y, ghost, over}: a rack tile under a finger
  let dragEnded = 0;         // when a touch drag ended: the click that may follow is not a tap
  let zoom = 1;              // how much the board is enlarged in its frame (1: the whole board)
  let zoomView = { x: 0, y: 0 };  // the board point at the frame's top left, in zoom-1 pixels
  let gesture = null;        // fingers on the board: {mode: "tap"|"pan"|"pinch"|"done", ...}
  let lastTap = null;        // {time (its time stamp), x, y, cursor}: the first tap of a possible double tap
  let drawnAt = 0;           // when the play area (and the server's clock times in it) was drawn
  let clockBandShown = null; // how low the player's own running clock was last told (clockBand)

  const $ = (sel, el) => (el || area).querySelector(sel);
  const $$ = (sel, el) => Array.from((el || area).querySelectorAll(sel));

  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; }
    catch (e) { return ""; }
  }

  async function post(url, fields) {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.append(k, v);
    const response = await fetch(url, {
      method: "POST", body, credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken(), "Accept": "application/json" },
    });
    let data = {};
    try { data = await response.json(); } catch (e) { data = { ok: false, reason: "The server did not answer; try again." }; }
    data.status = response.status;
    return data;
  }

  // -- the play area ---------------------------------------------------------------

  function init() {
    area = document.getElementById("play-area");
    if (!area) return;
    pending = []; selected = null; blankEntry = null; frames = null; cursor = null;
    offered = new Set((area.dataset.offered || "").split(";").filter(Boolean));
    paintOffered();
    drawnAt = performance.now(); clockBandShown = null;
    tick();
    tickClocks();
    document.title = document.title.replace(/^● /, "");
    if (area.dataset.myTurn === "1") document.title = "● " + document.title;
    if (lastError) { showError(lastError); lastError = ""; }
    restoreZoom();
  }

  function boardFocused() {
    const board = area && $("[data-board]");
    return !!board && board.contains(document.activeElement);
  }

  // Reload the play area; tiles the player had laid down this turn go back on the new
  // board where their squares are still free (the server judges them again). A reload
  // asked for while one is on its way was asked for by a change its answer may not hold
  // (a resignation right after a move): it runs once that answer is in.
  function refresh() {
    if (refreshing) { refreshAgain = true; return refreshing; }
    const keep = pending.filter((e) => e.letter)
      .map((e) => ({ row: e.row, col: e.col, letter: e.letter, blank: e.blank }));
    const hadFocus = refocus || boardFocused();
    const done = () => {
      refreshing = null;
      redraw(null, hadFocus);
      restore(keep);
      if (refreshAgain) { refreshAgain = false; refresh(); }
    };
    if (window.htmx) {
      refreshing = htmx.ajax("GET", root.dataset.url, { target: "#play-area", swap: "outerHTML" }).then(done, done);
    } else {
      refreshing = fetch(root.dataset.url, { headers: { "HX-Request": "true" } })
        .then((r) => r.text()).then((html) => { area.outerHTML = html; }).then(done, done);
    }
    return refreshing;
  }

  // The play area was drawn again (``swap`` puts the new HTML in, if not done already). A
  // finished game's moves never change: a replay being stepped through stays on its step
  // (a rematch offered, the player's own resign answered after the socket's reload).
  // A keyboard player keeps the focus on the board through any reload, and a move sent
  // with Enter gives it back, even when the socket's reload lands after the move's answer.
  // Given back, the focus does not scroll the page (a player reading the chat stays
  // there), and the typing cursor stays where it was while its square is free.
  function redraw(swap, hadFocus) {
    const replay = frames && { frames, frameIndex };
    const focus = refocus || hadFocus || (swap && boardFocused());
    const typing = cursor;
    if (swap) swap();
    init();
    if (replay && $("[data-replay]")) { ({ frames, frameIndex } = replay); drawFrame(frames[frameIndex]); }
    const lost = !document.activeElement || document.activeElement === document.body;
    const board = $("[data-board]");
    if (focus && lost && board) {
      const sq = typing && isPlayer() && square(typing.row, typing.col);
      if (sq && !sq.querySelector(".t")) setCursor(typing);
      board.focus({ preventScroll: true });
    }
    if (!refreshing) refocus = false;
  }

  function restore(keep) {
    if (!keep.length || !isPlayer()) return;
    for (const k of keep) {
      const sq = $(`[data-square="${k.row},${k.col}"]`);
      const btn = $$("[data-rack] .rt:not(.used)").find((b) => b.dataset.letter === (k.blank ? "?" : k.letter));
      if (!sq || !btn || sq.querySelector(".t")) continue;
      const entry = Object.assign({}, k, { btn, sq });
      pending.push(entry);
      btn.classList.add("used");
      drawPending(entry);
    }
    if (pending.length) changed();
  }

  function showError(text) {
    const el = $("[data-error]");
    if (!el) { if (window.Wordfall) Wordfall.toast(text); return; }
    el.textContent = text; el.hidden = !text;
    if (!text) return;
    el.classList.remove("shake"); void el.offsetWidth; el.classList.add("shake");
    // A reason nobody sees reads as a tap that did nothing.
    el.scrollIntoView({ block: "nearest" });
  }

  function paintOffered() {
    $$("[data-square]").forEach((sq) => {
      const free = !sq.querySelector(".t");
      sq.classList.toggle("offered", free && offered.has(sq.dataset.square) && isPlayer());
    });
    paintPlacing();
  }

  // The rings show only while the player is placing, so a full board is not a sea of them.
  function paintPlacing() {
    const board = $("[data-board]");
    if (board) board.classList.toggle("placing", Boolean(selected) || Boolean(cursor) || pending.length > 0);
  }

  const isPlayer = () => area && area.dataset.player === "1" && area.dataset.status === "active";

  // -- placing ---------------------------------------------------------------------

  function selectTile(btn) {
    if (selected === btn) { btn.classList.remove("selected"); selected = null; paintPlacing(); return; }
    if (selected) selected.classList.remove("selected");
    selected = btn; btn.classList.add("selected");
    paintPlacing();
  }

  // ``typed`` is the letter a typed blank stands for: it needs no question.
  function place(btn, sq, typed) {
    if (!btn || !sq || btn.classList.contains("used") || sq.querySelector(".t")) return false;
    if (!offered.has(sq.dataset.square)) return false;
    const [row, col] = sq.dataset.square.split(",").map(Number);
    const blank = btn.dataset.letter === "?";
    const entry = { row, col, letter: blank ? (typed || "") : btn.dataset.letter, blank, btn, sq };
    pending.push(entry);
    btn.classList.add("used"); btn.classList.remove("selected");
    selected = null;
    drawPending(entry);
    offered.delete(sq.dataset.square);
    paintOffered();
    if (blank && !typed) askBlank(entry); else changed();
    return true;
  }

  // -- typing: click an empty square, then type the word ------------------------------

  function square(row, col) { return $(`[data-square="${row},${col}"]`); }

  function setCursor(next) {
    $$("[data-square].cursor").forEach((sq) => { sq.classList.remove("cursor", "down"); });
    cursor = next;
    paintPlacing();
    if (!cursor) return;
    const sq = square(cursor.row, cursor.col);
    if (!sq) { cursor = null; return; }
    sq.classList.add("cursor"); sq.classList.toggle("down", cursor.down);
    if (zoom > 1) sq.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  // The next empty square along the cursor's line, skipping tiles already down.
  function advance(from) {
    let { row, col } = from;
    for (;;) {
      if (from.down) row += 1; else col += 1;
      if (row > 14 || col > 14) return null;
      const sq = square(row, col);
      if (!sq.querySelector(".t")) return { row, col, down: from.down };
    }
  }

  // Why a square refused the chosen tile, named as the edges name it ("H8").
  function refuse(sq) {
    const name = sq.dataset.name || "That square";
    if (sq.querySelector(".t")) showError(`${name} is taken.`);
    else if (area.dataset.myTurn !== "1") showError("Not your turn.");
    else showError(`${name} does not take a tile now: tiles go in one line, joined to the board (the ringed squares).`);
  }

  function typeLetter(key) {
    // Typing carries on past tiles already down, as it does after each letter.
    if (square(cursor.row, cursor.col).querySelector(".t")) {
      const next = advance(cursor);
      if (!next) { showError("No empty square left on this line."); return; }
      setCursor(next);
    }
    const sq = square(cursor.row, cursor.col);
    const free = $$("[data-rack] .rt:not(.used)");
    const real = free.find((b) => b.dataset.letter === key);
    const btn = real || free.find((b) => b.dataset.letter === "?");
    if (!btn) { showError(`There is no ${key.toUpperCase()} on your rack.`); return; }
    if (!offered.has(sq.dataset.square)) { showError("That square does not take a tile now."); return; }
    showError("");
    if (selected) { selected.classList.remove("selected"); selected = null; }
    if (place(btn, sq, real ? undefined : key)) setCursor(advance(cursor));
  }

  function moveCursor(key) {
    const step = { arrowright: [0, 1, false], arrowleft: [0, -1, false], arrowdown: [1, 0, true], arrowup: [-1, 0, true] }[key];
    const row = Math.min(14, Math.max(0, cursor.row + step[0]));
    const col = Math.min(14, Math.max(0, cursor.col + step[1]));
    setCursor({ row, col, down: step[2] });
  }

  function drawPending(entry) {
    let tile = entry.sq.querySelector(".t.pending");
    if (!tile) { tile = document.createElement("span"); entry.sq.appendChild(tile); }
    tile.className = "t pending" + (entry.blank ? " blank" : "");
    tile.dataset.letter = entry.letter;
    tile.textContent = entry.letter ? entry.letter.toUpperCase() : "?";
    if (!entry.blank) {
      const sub = document.createElement("sub"); sub.textContent = entry.btn.dataset.value; tile.appendChild(sub);
    }
  }

  function recall(entry) {
    pending = pending.filter((e) => e !== entry);
    const tile = entry.sq.querySelector(".t.pending");
    if (tile) tile.remove();
    entry.btn.classList.remove("used");
    // The square took this tile, so it takes one again until the preview's answer says
    // otherwise (a tap before that answer is not refused).
    offered.add(entry.sq.dataset.square);
    paintOffered();
    changed();
  }

  function recallAll() {
    for (const entry of pending.slice()) {
      const tile = entry.sq.querySelector(".t.pending");
      if (tile) tile.remove();
      entry.btn.classList.remove("used");
    }
    pending = [];
    // With no tile down the squares offered are the page's own, as before the first tile.
    offered = new Set((area.dataset.offered || "").split(";").filter(Boolean));
    paintOffered();
    changed();
  }

  function askBlank(entry) {
    blankEntry = entry;
    const dialog = $("[data-blank-dialog]");
    if (dialog && dialog.showModal) dialog.showModal();
  }

  function declareBlank(letter) {
    const dialog = $("[data-blank-dialog]");
    if (!blankEntry) return;
    blankEntry.letter = letter;
    drawPending(blankEntry);
    blankEntry = null;
    if (dialog.open) dialog.close("declared");
    changed();
  }

  function cancelBlank() {
    const entry = blankEntry;
    blankEntry = null;
    const dialog = $("[data-blank-dialog]");
    if (dialog && dialog.open) dialog.close("cancelled");
    if (entry) recall(entry);
  }

  function placement() {
    return pending.map((e) => [e.row, e.col, e.letter, e.blank]);
  }

  // The server says whether the placement is legal, what it scores and where the next
  // tile may go.
  async function changed() {
    const seq = ++previewSeq;
    const submit = $("[data-submit]");
    if (submit) submit.disabled = true;
    if (blankEntry) return;
    const data = await post(root.dataset.previewUrl, {
      placement: JSON.stringify(placement()), move_count: area.dataset.moveCount,
    });
    if (seq !== previewSeq || !area) return;
    if (data.stale) { lastError = data.reason; refresh(); return; }
    if (Array.isArray(data.offered)) {
      offered = new Set(data.offered.map((rc) => rc.join(",")));
      paintOffered();
    }
    const reason = $("[data-preview-reason]"), words = $("[data-preview-words]");
    if (!submit || !reason) return;
    if (data.legal) {
      submit.disabled = false;
      submit.textContent = `Submit ${data.score}`;
      submit.title = "";
      reason.className = "legal";
      reason.textContent = `${data.score} points:`;
      const items = data.words.map(([w, p]) => `${w} ${p}`);
      if (data.bonus) items.push(`all tiles +${data.bonus}`);
      words.textContent = " " + items.join(", ");
    } else {
      submit.disabled = true;
      submit.textContent = "Submit";
      submit.title = data.reason || "";
      reason.className = pending.length ? "illegal" : "";
      reason.textContent = data.reason || "";
      words.textContent = "";
    }
  }

  // -- moves -----------------------------------------------------------------------

  // A move answers with the new play area (HX-Request), or JSON saying why not.
  async function act(url, fields, button) {
    if (button) button.disabled = true;
    showError("");
    const body = new FormData();
    for (const [k, v] of Object.entries(Object.assign({ move_count: area.dataset.moveCount }, fields))) body.append(k, v);
    let data;
    try {
      const response = await fetch(url, {
        method: "POST", body, credentials: "same-origin",
        headers: { "X-CSRFToken": csrfToken(), "HX-Request": "true", "Accept": "text/html, application/json" },
      });
      if (response.ok && (response.headers.get("Content-Type") || "").startsWith("text/html")) {
        const html = await response.text();
        const moved = area.dataset.myTurn === "1";
        lastError = ""; pending = [];
        redraw(() => { area.outerHTML = html; });
        if (moved) document.dispatchEvent(new CustomEvent("crosswords:moved"));
        return;
      }
      try { data = await response.json(); } catch (e) { data = { ok: false, reason: "The server did not answer; try again." }; }
      data.status = response.status;
    } catch (e) {
      data = { ok: false, reason: "The server did not answer; try again." };
    }
    if (data.ok) { lastError = ""; pending = []; await refresh(); return; }
    if (button) button.disabled = false;
    if (data.status === 409) { lastError = data.reason; await refresh(); return; }
    showError(data.reason || "That did not work; try again.");
    refocus = false;
  }

  function submitPlay(button) {
    if (!pending.length || blankEntry) return;
    act(root.dataset.playUrl, { placement: JSON.stringify(placement()) }, button);
  }

  function shuffle() {
    const rack = $("[data-rack]");
    const tiles = $$(".rt", rack);
    for (let i = tiles.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [tiles[i], tiles[j]] = [tiles[j], tiles[i]];
    }
    tiles.forEach((t) => rack.appendChild(t));
  }

  function toggleSwapTile(btn) {
    const box = $("[data-swap-tiles]");
    const limit = parseInt(box.dataset.limit, 10) || 0;
    const chosen = $$(".rt[aria-pressed=true]", box).length;
    const on = btn.getAttribute("aria-pressed") === "true";
    if (!on && chosen >= limit) { showError(`The bag holds only ${limit} tile${limit === 1 ? "" : "s"}.`); return; }
    btn.setAttribute("aria-pressed", on ? "false" : "true");
    const count = $$(".rt[aria-pressed=true]", box).length;
    const confirm = $("[data-swap-confirm]");
    confirm.disabled = count === 0;
    confirm.textContent = count ? `Swap ${count}` : "Swap";
  }

  function swap(button) {
    const tiles = $$("[data-swap-tiles] .rt[aria-pressed=true]").map((b) => b.dataset.letter).join("");
    if (!tiles) return;
    act(root.dataset.swapUrl, { tiles }, button);
  }

  // -- replay of a finished game ------------------------------------------------------

  async function replayStep(step) {
    if (!frames) {
      const response = await fetch(root.dataset.replayUrl, { headers: { Accept: "application/json" } });
      frames = (await response.json()).frames;
      frameIndex = frames.length - 1;
    }
    const last = frames.length - 1;
    frameIndex = { first: 0, back: Math.max(0, frameIndex - 1), forward: Math.min(last, frameIndex + 1), last }[step];
    drawFrame(frames[frameIndex]);
  }

  // A replay step: the board after the move, its tiles marked (and named so to a screen
  // reader), the move marked in the move list.
  function drawFrame(frame) {
    drawTiles(frame.tiles, frame.last, "replayed", "played this move");
    $$("[data-seat]").forEach((tr) => {
      const cell = tr.querySelector("[data-score]");
      if (cell) cell.textContent = frame.scores[parseInt(tr.dataset.seat, 10)];
    });
    $("[data-replay-text]").textContent = `${frameIndex}/${frames.length - 1} · ${frame.text}`;
    const lines = $$("[data-history] > li");
    lines.forEach((li, n) => {
      const shown = lines.length === frames.length - 1 && n === frameIndex - 1;
      li.classList.toggle("replayed", shown);
      if (shown) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
    });
    drawAnalysis(frame.analysis);
  }

  // ``tiles`` on the board, the squares of ``marked`` ([row, col] or tiles) given ``markClass``.
  function drawTiles(tiles, marked, markClass, markText) {
    $$("[data-square]").forEach((sq) => {
      sq.classList.remove("last", "replayed", "alternative");
      const tile = sq.querySelector(".t"); if (tile) tile.remove();
      const label = sq.querySelector(".lbl"); if (label) label.hidden = false;
      sq.setAttribute("aria-label", sq.dataset.name);
    });
    const markedSquares = new Set(marked.map((t) => `${t[0]},${t[1]}`));
    for (const [row, col, letter, blank, value] of tiles) {
      const sq = $(`[data-square="${row},${col}"]`);
      const tile = document.createElement("span");
      tile.className = "t" + (blank ? " blank" : "");
      tile.textContent = letter.toUpperCase();
      if (!blank) { const sub = document.createElement("sub"); sub.textContent = value; tile.appendChild(sub); }
      sq.appendChild(tile);
      const label = sq.querySelector(".lbl"); if (label) label.hidden = true;
      const mark = markedSquares.has(`${row},${col}`);
      if (mark) sq.classList.add("last", markClass);
      sq.setAttribute("aria-label", `${sq.dataset.name} ${letter.toUpperCase()}${blank ? " (blank)" : ""}${mark ? `, ${markText}` : ""}`);
    }
  }

  // An alternative of the analysis drawn on the board: the position before the move, with
  // the alternative's tiles in place of the move played. Chosen again, the move played.
  function showAlternative(button) {
    const frame = frames && frames[frameIndex];
    const alt = frame && frame.analysis && frame.analysis.best[parseInt(button.dataset.alternative, 10)];
    if (!alt) return;
    const wasShown = button.getAttribute("aria-pressed") === "true";
    $$("[data-alternative]").forEach((b) => b.setAttribute("aria-pressed", "false"));
    const said = $("[data-alternative-shown]");
    if (wasShown) {
      drawTiles(frame.tiles, frame.last, "replayed", "played this move");
      if (said) said.textContent = "On the board: the move played.";
      return;
    }
    button.setAttribute("aria-pressed", "true");
    drawTiles(frames[frameIndex - 1].tiles.concat(alt.placement), alt.placement, "alternative", "this alternative");
    if (said) said.textContent = `On the board: ${alt.word} at ${alt.square} ${alt.across ? "across" : "down"} for ${alt.score}, instead of the move played.`;
  }

  // The analysis of the move shown: what was played and the best plays of its position.
  function drawAnalysis(row) {
    const box = $("[data-analysis-move]");
    if (!box) return;
    box.replaceChildren();
    const line = (text, cls) => { const p = document.createElement("p"); p.textContent = text; if (cls) p.className = cls; box.appendChild(p); return p; };
    if (!row) { line("No analysis for this step (the start, a resign or a forfeit).", "muted"); return; }
    const kind = { place: "played", swap: "swapped", pass: "passed" }[row.played.kind] || row.played.kind;
    const rack = row.rack.toUpperCase().replace(/\?/g, "□");
    line(`Rack ${rack}: ${kind} for ${row.played.score} (equity ${row.played.equity}); `
      + (row.equity_loss > 0 ? `lost ${row.equity_loss} equity, ${row.score_loss} points behind the top score.` : "the best play."));
    const tiles = (text) => text.toUpperCase().replace(/\?/g, "□");
    if (row.best_swap) {
      line(`Best swap: give back ${tiles(row.best_swap.tiles)}, keep ${tiles(row.best_swap.leave) || "nothing"}: equity ${row.best_swap.equity}.`);
    }
    if (!row.best.length) return;
    const list = document.createElement("ol");
    list.className = "cw-alternatives";
    row.best.forEach((alt, n) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = "cw-alternative";
      button.dataset.alternative = String(n);
      button.setAttribute("aria-pressed", "false");
      button.textContent = `${alt.word} at ${alt.square} ${alt.across ? "across" : "down"}: ${alt.score} points, equity ${alt.equity}`
        + (alt.leave ? `, keeps ${alt.leave.toUpperCase().replace(/\?/g, "□")}` : "");
      item.appendChild(button);
      list.appendChild(item);
    });
    box.appendChild(list);
    line("Choose a play to see it on the board.", "muted small").dataset.alternativeShown = "";
  }

  // -- time left ------------------------------------------------------------------------

  // The time left turns red when a fifth of the time per move is left (the reminder).
  function tick() {
    $$("[data-deadline]").forEach((el) => {
      const deadline = Date.parse(el.dataset.deadline);
      if (isNaN(deadline)) return;
      const left = (deadline - Date.now()) / 1000;
      el.textContent = window.Wordfall.timeLeft(left);
      if (!el.title) el.title = "Deadline: " + new Date(deadline).toLocaleString();
      el.classList.toggle("low", left < 0.2 * (parseInt(el.dataset.perMove, 10) || 0));
    });
  }
  setInterval(() => { if (area) tick(); }, 1000);

  // A clocked game's clocks: the server gives each seat's time left as it drew the page;
  // the running one counts down from then (the page's own clock measures only the time
  // since, so a wrong clock on the player's machine changes nothing). The server decides
  // when time is up: the page stops at the end of the overtime and waits for its word.
  function clockText(ms) {
    const over = ms < 0;
    const s = over ? Math.floor(-ms / 1000) : Math.ceil(ms / 1000);
    const text = `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
    return over ? text + " over" : text;
  }
  // A player is told (not shown: the clock is on screen) when their own running clock
  // passes a minute, ten seconds and zero; a redrawn page starts from where it is.
  const CLOCK_NEWS = [[60000, "One minute left on your clock."], [10000, "Ten seconds left on your clock."]];
  function clockBand(ms) { return ms < 0 ? 3 : ms < 10000 ? 2 : ms < 60000 ? 1 : 0; }
  function tellClock(ms, band) {
    const news = $("[data-clock-news]");
    if (!news) return;
    const overtime = parseInt(area.dataset.clockOvertime, 10);
    news.textContent = band === 3
      ? (overtime ? `Your time is up: overtime, ${area.dataset.clockPenalty} points for each minute or part of one.` : "Your time is up.")
      : CLOCK_NEWS[band - 1][1];
  }
  function tickClocks() {
    if (!area || !area.dataset.clockSeconds) return;
    const floor = -1000 * parseInt(area.dataset.clockOvertime, 10);
    const points = parseInt(area.dataset.clockPenalty, 10);
    const low = Math.min(30000, 100 * parseInt(area.dataset.clockSeconds, 10));
    $$("[data-clock]").forEach((el) => {
      let ms = parseInt(el.dataset.leftMs, 10);
      if ("running" in el.dataset) ms = Math.max(floor, ms - (performance.now() - drawnAt));
      const text = clockText(ms);
      const shown = el.querySelector("[data-clock-text]");
      if (shown.textContent !== text) shown.textContent = text;
      const penalty = ms < 0 ? points * Math.ceil(-ms / 60000) : 0;
      el.querySelector("[data-clock-penalty]").textContent = penalty ? ` −${penalty}` : "";
      el.classList.toggle("over", ms < 0);
      el.classList.toggle("low", ms >= 0 && ms < low);
      if ("running" in el.dataset && "mine" in el.dataset) {
        const band = clockBand(ms);
        if (clockBandShown !== null && band > clockBandShown) tellClock(ms, band);
        clockBandShown = band;
      }
    });
  }
  setInterval(tickClocks, 200);

  // -- events ---------------------------------------------------------------------------

  root.addEventListener("click", (event) => {
    // Only the click that ends a drag, pan, pinch or double tap is skipped.
    if (Date.now() - dragEnded < 400 && event.target.closest("[data-rack], [data-board]")) { dragEnded = 0; return; }
    const t = event.target.closest("button, [data-square]");
    if (!t || !area || !area.contains(t)) return;
    if (t.matches("[data-rack] .rt")) { if (!t.classList.contains("used")) selectTile(t); return; }
    if (t.matches("[data-square]")) {
      const entry = pending.find((e) => e.sq === t);
      if (entry) recall(entry);
      else if (selected) { if (place(selected, t)) showError(""); else refuse(t); }
      else if (isPlayer() && !t.querySelector(".t")) {
        // A second click on the typing cursor turns it from across to down and back.
        const [row, col] = t.dataset.square.split(",").map(Number);
        const same = cursor && cursor.row === row && cursor.col === col;
        setCursor({ row, col, down: same ? !cursor.down : false });
      }
      return;
    }
    if (t.matches("[data-blank-letter]")) return declareBlank(t.dataset.blankLetter);
    if (t.matches("[data-blank-cancel]")) return cancelBlank();
    if (t.matches("[data-submit]")) return submitPlay(t);
    if (t.matches("[data-recall]")) return recallAll();
    if (t.matches("[data-shuffle]")) return shuffle();
    if (t.matches("[data-pass-open]")) return $("[data-pass-dialog]").showModal();
    if (t.matches("[data-pass-confirm]")) return act(root.dataset.passUrl, {}, t);
    if (t.matches("[data-swap-open]")) { recallAll(); return $("[data-swap-dialog]").showModal(); }
    if (t.matches("[data-swap-tiles] .rt")) return toggleSwapTile(t);
    if (t.matches("[data-swap-confirm]")) return swap(t);
    if (t.matches("[data-resign-open]")) return $("[data-resign-dialog]").showModal();
    if (t.matches("[data-resign-confirm]")) return act(root.dataset.resignUrl, {}, t);
    if (t.matches("[data-dialog-close]")) return t.closest("dialog").close();
    if (t.matches("[data-replay-step]")) return replayStep(t.dataset.replayStep);
    if (t.matches("[data-alternative]")) return showAlternative(t);
    if (t.matches("[data-zoom-toggle]")) return glideZoom(zoom > 1 ? 1 : TAP_ZOOM);
  });

  // Keyboard: a letter picks that rack tile (a blank if none), Backspace takes back the
  // last tile, Escape recalls all, Enter submits.
  // A finished game's replay steps with the arrow keys (Home and End for the ends).
  document.addEventListener("keydown", (event) => {
    if (!area || !$("[data-replay]") || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select, dialog")) return;
    const step = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" }[event.key];
    if (step) { event.preventDefault(); replayStep(step); }
  });

  // Keyboard players reach the board with Tab: the typing cursor starts on the star.
  root.addEventListener("focusin", (event) => {
    const board = event.target.matches && event.target.matches("[data-board]") ? event.target : null;
    if (board && isPlayer() && !cursor && board.matches(":focus-visible")) setCursor({ row: 7, col: 7, down: false });
  });

  document.addEventListener("keydown", (event) => {
    if (!isPlayer() || blankEntry || event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, textarea, select, dialog")) return;
    const key = event.key.toLowerCase();
    if (/^[a-z]$/.test(key) && cursor) {
      typeLetter(key);
    } else if (/^[a-z]$/.test(key)) {
      const free = $$("[data-rack] .rt:not(.used)");
      const btn = free.find((b) => b.dataset.letter === key) || free.find((b) => b.dataset.letter === "?");
      if (btn && btn !== selected) selectTile(btn);
    } else if (key.startsWith("arrow") && cursor) {
      event.preventDefault(); moveCursor(key);
    } else if (key === "backspace" && pending.length) {
      event.preventDefault();
      const last = pending[pending.length - 1];
      recall(last);
      if (cursor) setCursor({ row: last.row, col: last.col, down: cursor.down });
    } else if (key === "escape" && (pending.length || cursor)) {
      setCursor(null);
      if (pending.length) recallAll();
    } else if (key === "enter" && pending.length) {
      const submit = $("[data-submit]");
      if (submit && !submit.disabled) { event.preventDefault(); refocus = true; submitPlay(submit); }
    }
  });

  // Escape on the blank dialog puts the blank back on the rack.
  root.addEventListener("cancel", (event) => {
    if (event.target.matches && event.target.matches("[data-blank-dialog]")) { event.preventDefault(); cancelBlank(); }
  }, true);

  root.addEventListener("dragstart", (event) => {
    const btn = event.target.closest && event.target.closest("[data-rack] .rt");
    if (!btn || btn.classList.contains("used")) return;
    if (selected) selected.classList.remove("selected");
    selected = btn;
    paintPlacing();
    event.dataTransfer.setData("text/plain", btn.dataset.letter);
    event.dataTransfer.effectAllowed = "move";
  });
  root.addEventListener("dragover", (event) => {
    const sq = event.target.closest && event.target.closest("[data-square]");
    if (sq && selected && offered.has(sq.dataset.square) && !sq.querySelector(".t")) event.preventDefault();
  });
  root.addEventListener("drop", (event) => {
    const sq = event.target.closest && event.target.closest("[data-square]");
    if (!sq || !selected) return;
    event.preventDefault();
    place(selected, sq);
  });

  // Touch and pen: a finger drags a rack tile onto a square (HTML drag and drop is for the
  // mouse). A tap still selects the tile, and a tap on a ringed square puts it there.
  function endTouchDrag() {
    if (!touchDrag) return;
    if (touchDrag.ghost) touchDrag.ghost.remove();
    if (touchDrag.over) touchDrag.over.classList.remove("drop-target");
    touchDrag = null;
  }
  root.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse" || !area || !isPlayer()) return;
    const btn = event.target.closest && event.target.closest("[data-rack] .rt");
    if (!btn || btn.classList.contains("used")) return;
    endTouchDrag();
    touchDrag = { btn, id: event.pointerId, x: event.clientX, y: event.clientY, ghost: null, over: null };
  });
  root.addEventListener("pointermove", (event) => {
    if (!touchDrag || event.pointerId !== touchDrag.id) return;
    if (!touchDrag.ghost) {
      if (Math.hypot(event.clientX - touchDrag.x, event.clientY - touchDrag.y) < 8) return;
      const ghost = touchDrag.btn.cloneNode(true);
      ghost.className = "rt drag-ghost"; ghost.removeAttribute("data-letter"); ghost.setAttribute("aria-hidden", "true");
      document.body.appendChild(ghost);
      touchDrag.ghost = ghost;
      if (selected !== touchDrag.btn) selectTile(touchDrag.btn);
    }
    event.preventDefault();
    // The tile rides above the finger, so the square it will land on stays visible.
    touchDrag.ghost.style.transform = `translate(${event.clientX}px, ${event.clientY}px) translate(-50%, -120%)`;
    const el = document.elementFromPoint(event.clientX, event.clientY);
    const sq = el && el.closest("[data-square]");
    if (sq !== touchDrag.over) {
      if (touchDrag.over) touchDrag.over.classList.remove("drop-target");
      touchDrag.over = sq && area.contains(sq) ? sq : null;
      if (touchDrag.over) touchDrag.over.classList.add("drop-target");
    }
    edgePan(event.clientX, event.clientY);
  });
  root.addEventListener("pointerup", (event) => {
    if (!touchDrag || event.pointerId !== touchDrag.id) return;
    const { btn, ghost, over } = touchDrag;
    endTouchDrag();
    if (!ghost) return;  // a tap: the click that follows selects the tile
    dragEnded = Date.now();
    if (!over) return;
    if (place(btn, over)) showError(""); else refuse(over);
  });
  root.addEventListener("pointercancel", endTouchDrag);

  // -- zoom: pinch, double-tap or the Zoom button (phones) ------------------------------
  // The board grows inside its frame, which keeps the size of the whole board and scrolls
  // (one finger pans); the edges' letters and numbers stay in view. Every page starts at
  // zoom 1, the whole board; the zoom and the part shown survive the play area's reloads.
  const TAP_ZOOM = 2, MAX_ZOOM = 3;
  const lessMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  const frame = () => area && $("[data-frame]");

  // The edge letters' row height and the numbers' column width: the board starts after them.
  function edgeSizes(f) {
    return { w: f.querySelector(".cw-rows").offsetWidth, h: f.querySelector(".cw-cols").offsetHeight };
  }

  function drawZoom(f) {
    const zoomed = zoom > 1;
    // The frame keeps the height of the whole board, which is as high as it is wide.
    const e = edgeSizes(f);
    f.style.height = zoomed ? `${e.h + f.offsetWidth - e.w}px` : "";
    f.classList.toggle("zoomed", zoomed);
    f.style.setProperty("--zoom", String(zoom));
    const button = $("[data-zoom-toggle]");
    if (button) button.textContent = zoomed ? "Zoom out" : "Zoom in";
  }

  // Zoom to ``next`` keeping the board point under (fx, fy), a point of the frame in
  // screen pixels from its top left corner, where it is (the frame's middle by default).
  function setZoom(next, fx, fy) {
    const f = frame();
    if (!f) return;
    const e = edgeSizes(f);
    if (fx === undefined) { fx = e.w + (f.clientWidth - e.w) / 2; fy = e.h + (f.clientHeight - e.h) / 2; }
    const ux = (f.scrollLeft + fx - e.w) / zoom, uy = (f.scrollTop + fy - e.h) / zoom;
    zoom = Math.min(MAX_ZOOM, Math.max(1, next));
    drawZoom(f);
    f.scrollLeft = ux * zoom + e.w - fx;
    f.scrollTop = uy * zoom + e.h - fy;
    keepZoomView(f);
  }

  function keepZoomView(f) { zoomView = { x: f.scrollLeft / zoom, y: f.scrollTop / zoom }; }

  function restoreZoom() {
    const f = frame();
    if (!f) return;
    drawZoom(f);
    if (zoom > 1) { f.scrollLeft = zoomView.x * zoom; f.scrollTop = zoomView.y * zoom; }
  }

  // The button and a double tap glide to their zoom, unless the system asks for less motion.
  function glideZoom(target, fx, fy) {
    if (lessMotion.matches) { setZoom(target, fx, fy); return; }
    const from = zoom, start = performance.now(), length = 180;
    const step = (now) => {
      const t = Math.min(1, (now - start) / length);
      setZoom(from + (target - from) * (1 - (1 - t) * (1 - t)), fx, fy);
      if (t < 1) requestAnimationFrame(step);
    };
    requestAnimationFrame(step);
  }

  function framePoint(f, x, y) {
    const box = f.getBoundingClientRect();
    return [x - box.left, y - box.top];
  }

  // A tile dragged to the edge of a zoomed board moves the board along.
  function edgePan(x, y) {
    const f = frame();
    if (!f || zoom <= 1) return;
    const box = f.getBoundingClientRect(), margin = 28, step = 10;
    if (x < box.left || x > box.right || y < box.top || y > box.bottom) return;
    if (x < box.left + margin) f.scrollLeft -= step; else if (x > box.right - margin) f.scrollLeft += step;
    if (y < box.top + margin) f.scrollTop -= step; else if (y > box.bottom - margin) f.scrollTop += step;
    keepZoomView(f);
  }

  function fingers() { return Array.from(gesture.points.values()); }

  function startPinch(f) {
    const [a, b] = fingers();
    const e = edgeSizes(f);
    const [mx, my] = framePoint(f, (a.x + b.x) / 2, (a.y + b.y) / 2);
    gesture.mode = "pinch";
    gesture.distance = Math.max(1, Math.hypot(a.x - b.x, a.y - b.y));
    gesture.zoom = zoom;
    // The board point between the fingers, in zoom-1 pixels: it stays between them.
    gesture.ux = (f.scrollLeft + mx - e.w) / zoom;
    gesture.uy = (f.scrollTop + my - e.h) / zoom;
  }

  function movePinch(f) {
    const [a, b] = fingers();
    const e = edgeSizes(f);
    const [mx, my] = framePoint(f, (a.x + b.x) / 2, (a.y + b.y) / 2);
    zoom = Math.min(MAX_ZOOM, Math.max(1, gesture.zoom * Math.hypot(a.x - b.x, a.y - b.y) / gesture.distance));
    drawZoom(f);
    f.scrollLeft = gesture.ux * zoom + e.w - mx;
    f.scrollTop = gesture.uy * zoom + e.h - my;
    keepZoomView(f);
  }

  root.addEventListener("pointerdown", (event) => {
    if (event.pointerType === "mouse") return;
    const f = event.target.closest && event.target.closest("[data-frame]");
    if (!f || f !== frame()) return;
    if (!gesture) {
      gesture = { mode: "tap", points: new Map(), x: event.clientX, y: event.clientY, left: f.scrollLeft, top: f.scrollTop };
    }
    gesture.points.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (gesture.points.size === 2 && gesture.mode !== "done") startPinch(f);
  });

  root.addEventListener("pointermove", (event) => {
    if (!gesture || !gesture.points.has(event.pointerId)) return;
    gesture.points.set(event.pointerId, { x: event.clientX, y: event.clientY });
    const f = frame();
    if (!f) return;
    if (gesture.mode === "pinch") { event.preventDefault(); movePinch(f); return; }
    // At zoom 1 a finger on the board scrolls the page, as anywhere else.
    if (zoom <= 1 || gesture.mode === "done" || gesture.points.size > 1) return;
    const dx = event.clientX - gesture.x, dy = event.clientY - gesture.y;
    if (gesture.mode === "tap" && Math.hypot(dx, dy) < 8) return;
    gesture.mode = "pan";
    f.scrollLeft = gesture.left - dx;
    f.scrollTop = gesture.top - dy;
    keepZoomView(f);
  });

  function endGesture(event) {
    if (!gesture || !gesture.points.has(event.pointerId)) return;
    gesture.points.delete(event.pointerId);
    const { mode } = gesture;
    if (mode === "pan" || mode === "pinch") dragEnded = Date.now();  // no tap on a square
    if (mode === "pinch") {
      gesture.mode = "done";  // the finger left on the board does not pan on its own
      if (zoom < 1.1) setZoom(1);
    }
    if (gesture.points.size) return;
    gesture = null;
    if (mode !== "tap" || event.type !== "pointerup") return;
    // A double tap zooms in on the tapped squares (or back out), unless a rack tile is
    // chosen: then a tap puts it down.
    // Taps are timed by when the finger lifted (the event's own time stamp), not by when a
    // busy page got round to them: two quick taps stay a double tap on a slow phone.
    const now = Date.now(), lifted = event.timeStamp, f = frame();
    if (lastTap && lifted - lastTap.time < 350 && Math.hypot(event.clientX - lastTap.x, event.clientY - lastTap.y) < 30 && f) {
      dragEnded = now;  // the second tap's click is not a tap on a square
      const before = lastTap.cursor;
      lastTap = null;
      setCursor(before);
      const [fx, fy] = framePoint(f, event.clientX, event.clientY);
      glideZoom(zoom > 1 ? 1 : TAP_ZOOM, fx, fy);
      return;
    }
    lastTap = selected || touchDrag ? null : { time: lifted, x: event.clientX, y: event.clientY, cursor };
  }
  root.addEventListener("pointerup", endGesture);
  root.addEventListener("pointercancel", endGesture);

  window.addEventListener("resize", () => { if (zoom > 1 && frame()) restoreZoom(); });
  root.addEventListener("scroll", (event) => {
    if (event.target === frame()) keepZoomView(event.target);
  }, true);

  // -- live updates -----------------------------------------------------------------------

  function connect() {
    if (!window.Wordfall) return;
    Wordfall.live(root.dataset.wsPath, {
      open() { root.dataset.socket = "open"; },
      closed() { root.dataset.socket = "closed"; },
      message(msg) {
        if ((msg.type === "moved" || msg.type === "hello") && area) {
          if (String(msg.move_count) !== area.dataset.moveCount || (msg.status && msg.status !== area.dataset.status)
              // A waiting game changes seats, a finished one gains a rematch: same count.
              || (msg.type === "moved" && ["waiting", "finished"].includes(area.dataset.status))) {
            refresh();
          }
        }
      },
    });
  }

  init();
  connect();
})();
