/* TOW game page: the growing table, the rack, the word's path, the preview, votes.
 *
 * The page holds no rules: legality, paths and scores come from the server's preview;
 * this script only lays tiles, collects the word or its path, and shows what it hears.
 */
(function () {
  "use strict";
  const root = document.getElementById("tow");
  const viewNode = document.getElementById("tow-view");
  if (!root || !viewNode) return;
  let view = JSON.parse(viewNode.textContent);
  const $ = (sel) => root.querySelector(sel);
  const $$ = (sel) => Array.from(root.querySelectorAll(sel));
  const table = $("[data-table]");
  if (!table) {
    // A game waiting for its seats: reload when someone joins, declines or it starts.
    if (window.Wordfall && window.Wordfall.live) {
      window.Wordfall.live(root.dataset.wsPath, {
        message(data) {
          if (data.type === "moved" || (data.type === "hello" && data.status !== view.status)) window.location.reload();
        },
      });
    }
    return;
  }
  const viewport = $("[data-viewport]");

  const MARGIN = 3;                 // empty cells shown around the tiles
  const ZOOMS = [24, 30, 36, 44, 54, 64];
  const KIND_OF_TILE = { "+": "corner", "*": "pz" };
  const TILE_OF_KIND = { corner: "+", pz: "*" };
  const KIND_LABEL = { corner: "corner tile", pz: "PZ tile" };

  let zoom = window.matchMedia("(max-width: 700px)").matches ? 1 : 2;
  let rack = [];                    // [{id, tile}] in the order shown
  let pending = new Map();          // "r,c" -> {id, letter, kind}
  let path = [];                    // traced cells [[r, c], ...]
  let tracing = false;
  let swapping = false;
  let swapPick = new Set();
  let selected = null;              // rack id picked for the next cell
  let cursor = null;                // [r, c] for keyboard placing
  let direction = [0, 1];
  let previewTimer = null;
  let previewSeq = 0;
  let lastPreview = null;
  let replayFrames = null;
  let centred = false;

  const key = (r, c) => r + "," + c;

  function csrfToken() {
    try { return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"]; }
    catch (e) {
      const input = document.querySelector("input[name=csrfmiddlewaretoken]");
      return input ? input.value : "";
    }
  }

  async function post(url, fields) {
    const body = new FormData();
    for (const [k, v] of Object.entries(fields)) body.append(k, v);
    let data = {};
    try {
      const response = await fetch(url, {
        method: "POST", body, credentials: "same-origin",
        headers: { "X-CSRFToken": csrfToken(), "Accept": "application/json" },
      });
      data = await response.json();
      data.status = response.status;
    } catch (e) {
      data = { ok: false, legal: false, reason: "The server did not answer; try again." };
    }
    return data;
  }

  function tilesByCell() {
    const cells = new Map();
    for (const t of (replayFrames && replayFrames.current ? replayFrames.current : view.tiles || [])) {
      cells.set(key(t.row, t.col), t);
    }
    return cells;
  }

  // -- the rack ---------------------------------------------------------------------------
  // A new rack starts a new play: nothing laid, nothing traced.
  function resetRack() {
    rack = Array.from(view.rack || "").map((tile, i) => ({ id: i, tile }));
    pending = new Map();
    path = [];
    selected = null;
    swapPick = new Set();
    setTracing(false);
  }

  // While tracing, a tap on a cell adds it to the word's path instead of laying a tile.
  function setTracing(on) {
    tracing = on;
    const button = $("[data-trace]");
    if (button) {
      button.setAttribute("aria-pressed", String(on));
      button.classList.toggle("active", on);
    }
    root.classList.toggle("tracing", on);
  }

  function onTable(id) {
    for (const p of pending.values()) if (p.id === id) return true;
    return false;
  }

  function letterOf(tile) { return KIND_OF_TILE[tile] ? "" : tile.toUpperCase(); }

  function renderRack() {
    const list = $("[data-rack]");
    list.innerHTML = "";
    for (const item of rack) {
      // A span: a list item may not be a button (axe), and the rack is a group of buttons.
      const li = document.createElement("span");
      const kind = KIND_OF_TILE[item.tile];
      li.className = "tow-tile rack-tile" + (kind ? " " + kind : "");
      li.dataset.id = item.id;
      li.dataset.tile = item.tile;
      li.setAttribute("role", "button");
      li.setAttribute("tabindex", "0");
      li.setAttribute("aria-label", kind ? KIND_LABEL[kind] : "letter " + item.tile.toUpperCase());
      li.innerHTML = kind ? `<span class="kind">${kind === "pz" ? "PZ" : "◢"}</span>`
        : `${letterOf(item.tile)}<sub>${(view.values || {})[item.tile] ?? ""}</sub>`;
      if (onTable(item.id)) li.classList.add("used");
      if (selected === item.id) li.classList.add("selected");
      if (swapping && swapPick.has(item.id)) li.classList.add("picked");
      li.addEventListener("click", () => pickRack(item.id));
      li.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); pickRack(item.id); } });
      li.addEventListener("pointerdown", (e) => startDrag(e, item.id));
      list.appendChild(li);
    }
  }

  function pickRack(id) {
    if (swapping) {
      if (swapPick.has(id)) swapPick.delete(id); else swapPick.add(id);
      renderRack();
      updateSwapButton();
      return;
    }
    if (onTable(id)) return;
    selected = selected === id ? null : id;
    renderRack();
  }

  // Dragging a rack tile onto a cell: a ghost follows the pointer; a short press is a tap.
  function startDrag(event, id) {
    if (swapping || onTable(id) || !view.my_turn) return;
    const origin = event.currentTarget;
    const start = [event.clientX, event.clientY];
    let ghost = null;
    const move = (e) => {
      if (!ghost && Math.hypot(e.clientX - start[0], e.clientY - start[1]) < 6) return;
      if (!ghost) {
        ghost = origin.cloneNode(true);
        ghost.classList.add("ghost");
        document.body.appendChild(ghost);
      }
      ghost.style.left = e.clientX - 18 + "px";
      ghost.style.top = e.clientY - 18 + "px";
    };
    const up = (e) => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
      if (!ghost) return;
      ghost.remove();
      const under = document.elementFromPoint(e.clientX, e.clientY);
      const cell = under && under.closest("[data-r]");
      if (cell) placeAt(+cell.dataset.r, +cell.dataset.c, id);
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up);
  }

  async function askLetter(kind) {
    const dialog = $("[data-wildcard-dialog]");
    const input = $("[data-wildcard-letter]");
    $("[data-wildcard-kind]").textContent = KIND_LABEL[kind];
    input.value = "";
    return new Promise((resolve) => {
      dialog.addEventListener("close", function done() {
        dialog.removeEventListener("close", done);
        const letter = input.value.trim().toLowerCase();
        resolve(dialog.returnValue === "ok" && /^[a-z]$/.test(letter) ? letter : null);
      });
      dialog.showModal();
      input.focus();
    });
  }

  async function placeAt(r, c, id, typed) {
    if (!view.my_turn || tilesByCell().has(key(r, c)) || pending.has(key(r, c))) return false;
    const item = rack.find((x) => x.id === id);
    if (!item || onTable(id)) return false;
    const kind = KIND_OF_TILE[item.tile] || "letter";
    let letter = item.tile;
    if (kind !== "letter") {
      letter = typed || await askLetter(kind);
      if (!letter) return false;
    }
    pending.set(key(r, c), { id, letter, kind });
    selected = null;
    changed();
    return true;
  }

  function recallAt(r, c) {
    pending.delete(key(r, c));
    path = path.filter(([pr, pc]) => pending.has(key(pr, pc)) || tilesByCell().has(key(pr, pc)));
    changed();
  }

  function recallAll() {
    pending = new Map();
    path = [];
    selected = null;
    changed();
  }

  // -- the table --------------------------------------------------------------------------
  function bounds() {
    let cells = [...tilesByCell().values()].map((t) => [t.row, t.col]);
    for (const k of pending.keys()) cells.push(k.split(",").map(Number));
    if (cursor) cells.push(cursor);
    if (!cells.length) cells = [[0, 0], [0, 4]];
    const rows = cells.map((x) => x[0]);
    const cols = cells.map((x) => x[1]);
    return [Math.min(...rows) - MARGIN, Math.min(...cols) - MARGIN,
            Math.max(...rows) + MARGIN, Math.max(...cols) + MARGIN];
  }

  function renderTable() {
    const [r0, c0, r1, c1] = bounds();
    const tiles = tilesByCell();
    const last = new Set((view.last_cells || []).map(([r, c]) => key(r, c)));
    const pendingVote = new Map();
    if (view.pending) for (const [r, c, letter, kind] of view.pending.placement) pendingVote.set(key(r, c), { letter, kind });
    const order = new Map(path.map(([r, c], i) => [key(r, c), i + 1]));
    table.style.setProperty("--cell", ZOOMS[zoom] + "px");
    table.style.gridTemplateColumns = `var(--ruler) repeat(${c1 - c0 + 1}, var(--cell))`;
    const parts = ['<div class="ruler corner"></div>'];
    for (let c = c0; c <= c1; c++) parts.push(`<div class="ruler col">${(view.col_names || {})[c] || ""}</div>`);
    for (let r = r0; r <= r1; r++) {
      parts.push(`<div class="ruler row">${(view.row_names || {})[r] || ""}</div>`);
      for (let c = c0; c <= c1; c++) {
        const k = key(r, c);
        const t = tiles.get(k);
        const p = pending.get(k);
        const v = pendingVote.get(k);
        let cls = "cell";
        let inner = "";
        if (t) {
          cls += " tow-tile placed " + (t.kind !== "letter" ? t.kind : "");
          if (last.has(k)) cls += " last";
          inner = t.letter.toUpperCase() + kindBadge(t.kind);
        } else if (p) {
          cls += " tow-tile new " + (p.kind !== "letter" ? p.kind : "");
          inner = p.letter.toUpperCase() + kindBadge(p.kind);
        } else if (v) {
          cls += " tow-tile voting " + (v.kind !== "letter" ? v.kind : "");
          inner = v.letter.toUpperCase() + kindBadge(v.kind);
        }
        if (order.has(k)) { cls += " on-path"; inner += `<span class="step">${order.get(k)}</span>`; }
        if (cursor && cursor[0] === r && cursor[1] === c) cls += " cursor";
        parts.push(`<div class="${cls}" data-r="${r}" data-c="${c}">${inner}</div>`);
      }
    }
    table.innerHTML = parts.join("");
    if (!centred) { centred = true; requestAnimationFrame(centre); }
  }

  function kindBadge(kind) {
    if (kind === "corner") return '<span class="badge" title="corner tile: ×2">◢</span>';
    if (kind === "pz") return '<span class="badge" title="PZ tile: ×3">PZ</span>';
    return "";
  }

  function centre() {
    const tiles = [...tilesByCell().values()];
    const cells = table.querySelectorAll(".placed, .new");
    const target = cells.length ? cells[Math.floor(cells.length / 2)] : table.querySelector('[data-r="0"][data-c="0"]');
    if (!target) return;
    viewport.scrollLeft = target.offsetLeft - viewport.clientWidth / 2 + target.offsetWidth / 2;
    viewport.scrollTop = target.offsetTop - viewport.clientHeight / 2 + target.offsetHeight / 2;
    return tiles;
  }

  table.addEventListener("click", (e) => {
    const cell = e.target.closest("[data-r]");
    if (!cell || panMoved) return;
    const r = +cell.dataset.r, c = +cell.dataset.c;
    const k = key(r, c);
    if (tracing) {
      if (!pending.has(k) && !tilesByCell().has(k)) return;
      const at = path.findIndex(([pr, pc]) => pr === r && pc === c);
      if (at < 0) path.push([r, c]);
      else if (at === path.length - 1) path.pop();
      changed();
      return;
    }
    cursor = [r, c];
    if (pending.has(k)) { recallAt(r, c); return; }
    if (selected !== null) { placeAt(r, c, selected); return; }
    render();
  });

  // Dragging the empty table pans it (touch scrolls natively).
  let panStart = null;
  let panMoved = false;
  viewport.addEventListener("pointerdown", (e) => {
    if (e.pointerType !== "mouse" || e.target.closest(".rack-tile")) return;
    panStart = [e.clientX, e.clientY, viewport.scrollLeft, viewport.scrollTop];
    panMoved = false;
  });
  window.addEventListener("pointermove", (e) => {
    if (!panStart) return;
    const dx = e.clientX - panStart[0], dy = e.clientY - panStart[1];
    if (Math.abs(dx) + Math.abs(dy) > 5) panMoved = true;
    if (panMoved) {
      viewport.scrollLeft = panStart[2] - dx;
      viewport.scrollTop = panStart[3] - dy;
    }
  });
  window.addEventListener("pointerup", () => { panStart = null; setTimeout(() => { panMoved = false; }, 0); });
  viewport.addEventListener("wheel", (e) => {
    if (!e.ctrlKey) return;
    e.preventDefault();
    setZoom(zoom + (e.deltaY < 0 ? 1 : -1));
  }, { passive: false });

  function setZoom(level) {
    zoom = Math.max(0, Math.min(ZOOMS.length - 1, level));
    renderTable();
  }
  $$("[data-zoom]").forEach((b) => b.addEventListener("click", () => setZoom(zoom + Number(b.dataset.zoom))));
  const centreButton = $("[data-centre]");
  if (centreButton) centreButton.addEventListener("click", centre);

  // Keyboard: arrows move the cursor (and set the typing direction), a letter lays a
  // matching rack tile (or a wildcard standing for it), Backspace takes the last back.
  viewport.addEventListener("keydown", async (e) => {
    const arrows = { ArrowRight: [0, 1], ArrowLeft: [0, -1], ArrowDown: [1, 0], ArrowUp: [-1, 0] };
    if (arrows[e.key]) {
      e.preventDefault();
      direction = arrows[e.key];
      cursor = cursor ? [cursor[0] + direction[0], cursor[1] + direction[1]] : [0, 0];
      render();
      return;
    }
    if (e.key === "Escape") { recallAll(); return; }
    if (e.key === "Enter") { e.preventDefault(); submit(); return; }
    if (e.key === "Backspace") {
      e.preventDefault();
      const keys = [...pending.keys()];
      if (keys.length) {
        const [r, c] = keys[keys.length - 1].split(",").map(Number);
        cursor = [r, c];
        recallAt(r, c);
      }
      return;
    }
    if (/^[a-zA-Z]$/.test(e.key) && cursor && view.my_turn) {
      e.preventDefault();
      const letter = e.key.toLowerCase();
      const free = rack.filter((x) => !onTable(x.id));
      const item = free.find((x) => x.tile === letter) || free.find((x) => KIND_OF_TILE[x.tile]);
      if (!item) return;
      if (await placeAt(cursor[0], cursor[1], item.id, letter)) {
        cursor = [cursor[0] + direction[0], cursor[1] + direction[1]];
        while (tilesByCell().has(key(cursor[0], cursor[1]))) cursor = [cursor[0] + direction[0], cursor[1] + direction[1]];
        render();
      }
    }
  });

  // -- word, path, preview, submit --------------------------------------------------------
  const wordInput = $("[data-word]");
  if (wordInput) wordInput.addEventListener("input", () => schedulePreview());
  const traceButton = $("[data-trace]");
  if (traceButton) traceButton.addEventListener("click", () => setTracing(!tracing));
  const clearPath = $("[data-clear-path]");
  if (clearPath) clearPath.addEventListener("click", () => { path = []; changed(); });

  function placement() {
    return [...pending.entries()].map(([k, p]) => {
      const [r, c] = k.split(",").map(Number);
      return [r, c, p.letter, p.kind];
    });
  }

  function changed() {
    render();
    schedulePreview();
  }

  function schedulePreview() {
    clearTimeout(previewTimer);
    previewTimer = setTimeout(runPreview, 120);
  }

  async function runPreview() {
    const box = $("[data-preview]");
    const button = $("[data-submit]");
    if (!box || !button) return;
    lastPreview = null;
    button.disabled = true;
    button.textContent = "Submit";
    if (!view.my_turn) { box.innerHTML = ""; return; }
    if (!pending.size) {
      box.innerHTML = '<p class="muted">Place tiles from your rack on the table, then type the word or trace its path.</p>';
      return;
    }
    const word = wordInput ? wordInput.value.trim() : "";
    if (!word && path.length < 2) {
      box.innerHTML = '<p class="muted reason" data-reason>Type the word or trace its path to see the score.</p>';
      return;
    }
    const seq = ++previewSeq;
    const data = await post(root.dataset.previewUrl, {
      placement: JSON.stringify(placement()),
      path: path.length ? JSON.stringify(path) : "",
      word,
    });
    if (seq !== previewSeq) return;
    if (!data.legal) {
      box.innerHTML = `<p class="reason bad" data-reason>${escapeHtml(data.reason || "Not a legal play.")}</p>`;
      return;
    }
    lastPreview = data;
    box.innerHTML = itemise(data.play, true);
    button.disabled = false;
    button.textContent = `Submit · ${data.play.score}`;
  }

  function itemise(play, withTotal) {
    const rows = play.details.map((d) => {
      const parts = [`${d.letters}`];
      if (d.letter_bonus) parts.push(`+ ${d.letter_bonus} letter bonus`);
      let text = parts.join(" ");
      if (d.multiplier > 1) text = `(${text}) × ${d.multiplier} ${d.word_bonus}`;
      const unknown = (play.unknown_words || []).includes(d.word);
      return `<li class="${d.role}"><strong class="word">${d.word.toUpperCase()}</strong>` +
        `${d.reversed ? ' <span class="muted small">backwards</span>' : ""}` +
        `${unknown ? ' <span class="tag">to the vote</span>' : ""}` +
        ` <span class="muted small">${text}</span> <span class="num">${d.points}</span></li>`;
    });
    for (const b of play.bonuses) rows.push(`<li class="bonus">${b.label} <span class="num">+${b.points}</span></li>`);
    if (withTotal) rows.push(`<li class="total">Total <span class="num" data-total>${play.score}</span></li>`);
    return `<ul class="tow-score">${rows.join("")}</ul>`;
  }

  function escapeHtml(text) {
    return String(text).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" }[ch]));
  }

  function showError(text) {
    const p = $("[data-error]");
    if (p) p.textContent = text || "";
  }

  async function submit() {
    if (!lastPreview || !view.my_turn) return;
    const button = $("[data-submit]");
    button.disabled = true;
    const data = await post(root.dataset.playUrl, {
      placement: JSON.stringify(placement()), path: JSON.stringify(lastPreview.path),
      word: "", move_count: view.move_count,
    });
    if (!data.ok) { showError(data.reason); button.disabled = false; if (data.status === 409) refresh(); return; }
    showError("");
    if (wordInput) wordInput.value = "";
    await refresh(true);
  }
  const submitButton = $("[data-submit]");
  if (submitButton) submitButton.addEventListener("click", submit);

  // -- swap, pass, resign, vote -----------------------------------------------------------
  const swapButton = $("[data-swap-mode]");
  function updateSwapButton() {
    if (!swapButton) return;
    swapButton.textContent = swapping ? (swapPick.size ? `Swap ${swapPick.size} tile${swapPick.size > 1 ? "s" : ""}` : "Cancel swap") : "Swap…";
  }
  if (swapButton) swapButton.addEventListener("click", async () => {
    if (!swapping) { recallAll(); swapping = true; swapPick = new Set(); updateSwapButton(); renderRack(); showError("Pick the tiles to give back."); return; }
    if (!swapPick.size) { swapping = false; updateSwapButton(); renderRack(); showError(""); return; }
    const tiles = rack.filter((x) => swapPick.has(x.id)).map((x) => x.tile).join("");
    const data = await post(root.dataset.swapUrl, { tiles, move_count: view.move_count });
    swapping = false;
    updateSwapButton();
    if (!data.ok) { showError(data.reason); renderRack(); return; }
    showError("");
    await refresh(true);
  });
  const passButton = $("[data-pass]");
  if (passButton) passButton.addEventListener("click", async () => {
    if (!confirm("Pass this turn?")) return;
    const data = await post(root.dataset.passUrl, { move_count: view.move_count });
    if (!data.ok) { showError(data.reason); return; }
    await refresh(true);
  });
  const resignButton = $("[data-resign]");
  if (resignButton) resignButton.addEventListener("click", async () => {
    if (!confirm("Resign? You finish last and your tiles go back to the bag.")) return;
    const data = await post(root.dataset.resignUrl, {});
    if (!data.ok) { showError(data.reason); return; }
    await refresh(true);
  });
  const shuffleButton = $("[data-shuffle]");
  if (shuffleButton) shuffleButton.addEventListener("click", () => {
    for (let i = rack.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [rack[i], rack[j]] = [rack[j], rack[i]];
    }
    renderRack();
  });
  const recallButton = $("[data-recall]");
  if (recallButton) recallButton.addEventListener("click", recallAll);

  function renderVote() {
    const card = $("[data-vote-card]");
    const box = $("[data-vote]");
    if (!card) return;
    const p = view.pending;
    card.hidden = !p;
    if (!p) return;
    const votes = p.votes.map((v) => `${escapeHtml(v.who)}: ${v.accept ? "accept" : "reject"}`).join(", ") || "no votes yet";
    let html = `<p><strong>${escapeHtml(p.who)}</strong> played ${p.play.unknown_words.map((w) => `<strong>${w.toUpperCase()}</strong>`).join(", ")}, not in the word list.</p>`;
    html += itemise(p.play, true);
    html += `<p class="small muted">Votes: ${votes}. A majority accepts; a tie rejects.</p>`;
    if (p.can_vote) {
      html += '<p><button type="button" class="btn" data-vote-yes>Accept the word</button> <button type="button" class="btn ghost" data-vote-no>Reject</button></p>';
    } else if (view.seat === p.seat) {
      html += '<p class="muted">Waiting for the others to vote on your play.</p>';
    } else if (p.my_vote !== null && p.my_vote !== undefined) {
      html += `<p class="muted">You voted to ${p.my_vote ? "accept" : "reject"}.</p>`;
    }
    box.innerHTML = html;
    const yes = box.querySelector("[data-vote-yes]");
    const no = box.querySelector("[data-vote-no]");
    const cast = async (accept) => {
      const data = await post(root.dataset.voteUrl, { accept: accept ? "yes" : "no", move_count: view.move_count });
      if (!data.ok) showError(data.reason);
      await refresh();
    };
    if (yes) yes.addEventListener("click", () => cast(true));
    if (no) no.addEventListener("click", () => cast(false));
  }

  // -- side panels ------------------------------------------------------------------------
  function renderSide() {
    const seats = $("[data-seats]");
    seats.innerHTML = view.seats.map((s) => {
      const cls = [s.index === view.to_move ? "to-move" : "", s.index === view.seat ? "me" : "", s.left ? "gone" : ""].join(" ");
      const count = view.rack_counts ? ` <span class="muted small">${view.rack_counts[s.index]} tiles</span>` : "";
      return `<li class="${cls}" data-seat="${s.index}">${s.index === view.to_move ? "▶ " : ""}${escapeHtml(s.name)}${s.left ? ` (${s.left})` : ""}${count} <strong class="num" data-score>${s.score}</strong></li>`;
    }).join("");
    const bag = $("[data-bag]");
    if (bag) bag.textContent = view.bag !== undefined ? `${view.bag} tiles in the bag` : "";
    const draw = $("[data-draw]");
    if (draw && view.draws) {
      const rounds = view.draws.map((rnd) => rnd.map((d) => `${d.who} drew ${d.tile === "*" ? "PZ" : d.tile === "+" ? "a corner tile" : d.tile.toUpperCase()}`).join(", "));
      draw.textContent = "First draw: " + rounds.join("; then ") + ".";
    }
    const history = $("[data-history]");
    history.innerHTML = view.history.slice().reverse().map((h) => {
      if (h.kind === "place") {
        const status = h.accepted === false ? ' <span class="tag">rejected, taken back</span>' : h.accepted === null ? ' <span class="tag">vote running</span>' : "";
        const words = h.play.details.map((d) => `${d.word.toUpperCase()} ${d.points}`).join(", ");
        const bonuses = h.play.bonuses.map((b) => `${b.label} +${b.points}`).join(", ");
        const several = h.play.details.length + h.play.bonuses.length > 1;
        const total = several || h.accepted === false ? ` = <strong class="num">${h.accepted === false ? 0 : h.score}</strong>` : "";
        return `<li data-move="${h.number}"><span class="who">${escapeHtml(h.who)}</span> ${words}${bonuses ? " · " + bonuses : ""}${total}${status}</li>`;
      }
      return `<li data-move="${h.number}" class="${h.kind === "vote" ? "vote" : ""}"><span class="who">${escapeHtml(h.who)}</span> ${escapeHtml(h.text)}</li>`;
    }).join("") || '<li class="muted">No moves yet.</li>';
    const finished = $("[data-finished]");
    if (finished) {
      finished.hidden = view.status !== "finished";
      $("[data-result]").textContent = view.result ? view.result[0].toUpperCase() + view.result.slice(1) : "";
    }
    if (resignButton) resignButton.hidden = view.status !== "active" || view.seat === null || (view.seats[view.seat] || {}).left;
  }

  let clock = null;
  // The status line is a polite live region: a screen reader reads every change, so it
  // is written only when its text changes, not on every tick of the clock.
  function writeStatus(line, html) {
    if (line.dataset.shown === html) return;
    line.dataset.shown = html;
    line.innerHTML = html;
  }
  function renderStatus() {
    const line = $("[data-status]");
    clearInterval(clock);
    if (view.status === "finished") { writeStatus(line, escapeHtml("Finished: " + view.result)); return; }
    const mover = view.seats.find((s) => s.index === view.to_move);
    let text;
    if (view.pending) text = view.pending.can_vote ? "Your vote is needed" : "House vote in progress";
    else if (view.my_turn) text = "Your turn";
    else text = mover ? `${mover.name} to move` : "";
    const tick = () => {
      if (!view.deadline) { writeStatus(line, escapeHtml(text)); return; }
      // The site's one short form of a time left, as Word Grid and the server write it.
      const shown = window.Wordfall.timeLeft((new Date(view.deadline) - Date.now()) / 1000);
      writeStatus(line, `${view.my_turn ? '<strong class="your-turn">' + text + "</strong>" : escapeHtml(text)} · ${shown} left`);
    };
    tick();
    clock = setInterval(tick, 1000);
    root.classList.toggle("my-turn", !!view.my_turn);
  }

  function render() {
    renderTable();
    renderRack();
    const name = $("[data-cursor-name]");
    if (name) name.textContent = cursor ? `Cursor ${(view.col_names || {})[cursor[1]] || ""}${(view.row_names || {})[cursor[0]] || ""}` : "";
  }

  function renderAll() {
    render();
    renderSide();
    renderVote();
    renderStatus();
    $$("[data-play-controls]").forEach((el) => { el.hidden = view.seat === null || view.status !== "active"; });
    schedulePreview();
  }

  // Reloads can overlap (two changes in quick succession): an answer older than the one
  // already drawn is not drawn, since it may hold less. A reset asked for by a reload
  // that failed or was overtaken waits for the next one drawn.
  let refreshSeq = 0, drawnSeq = 0;
  let resetAsked = false;
  async function refresh(reset) {
    const mine = ++refreshSeq;
    if (reset) resetAsked = true;
    try {
      const response = await fetch(root.dataset.stateUrl, { credentials: "same-origin", headers: { Accept: "application/json" } });
      if (!response.ok) return;
      const fresh = await response.json();
      if (mine < drawnSeq) return;
      drawnSeq = mine;
      reset = resetAsked;
      resetAsked = false;
      const rackChanged = fresh.rack !== view.rack;
      view = fresh;
      const taken = [...pending.keys()].some((k) => tilesByCell().has(k));
      if (reset || rackChanged || taken || !view.my_turn) resetRack();
      renderAll();
    } catch (e) { /* the socket's next message or a reload catches up */ }
  }

  // -- replay -------------------------------------------------------------------------------
  const replayButton = $("[data-replay]");
  if (replayButton) replayButton.addEventListener("click", async () => {
    const response = await fetch(root.dataset.replayUrl, { credentials: "same-origin" });
    if (!response.ok) return;
    const frames = (await response.json()).frames;
    replayFrames = { frames, current: null };
    const controls = $("[data-replay-controls]");
    const step = $("[data-replay-step]");
    controls.hidden = false;
    step.max = frames.length;
    step.value = frames.length;
    const show = () => {
      const n = Number(step.value);
      replayFrames.current = n ? frames[n - 1].tiles : [];
      $("[data-replay-label]").textContent = n ? `after move ${n}: ${frames[n - 1].scores.join("–")}` : "before the first move";
      renderTable();
    };
    step.addEventListener("input", show);
    show();
  });

  // -- live updates ---------------------------------------------------------------------------
  function connect() {
    if (!window.Wordfall || !window.Wordfall.live) return;
    window.Wordfall.live(root.dataset.wsPath, {
      message(data) {
        if ((data.type === "moved" || data.type === "hello") && data.move_count !== view.move_count) refresh();
        else if (data.type === "moved" && data.status !== view.status) refresh();
      },
    });
  }

  resetRack();
  renderAll();
  connect();
})();
