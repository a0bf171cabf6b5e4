// duel serve: the page's shell. Plain JavaScript, no framework, no build step.
// Everything about the rules (prices, legal moves, what a move does) comes from the server.
// Each game draws itself with its own view module (static/games/NAME.js), which registers
// with Shell.register(name, module): the shell does the rest (new-game form, following the
// game, moves with the game's version, undo, hints, the log, the replay viewer).
"use strict";

const S = {
  meta: null,        // /api/meta
  views: {},         // game name -> view module
  gmeta: {},         // game name -> the game's entry of meta.games
  game: null,        // the current game's view (from the server)
  received: 0,       // performance.now() when it arrived (for the thinking clock)
  sel: null,         // the selection inside the board (the module's meaning)
  keys: {},          // key -> handler for the labels shown
  polling: 0,        // the generation of the long-poll loop under way
  offline: false,    // the server did not answer the last poll
  replay: null,      // replay summary
  rk: 0,             // replay position
  rview: null,
  seenLog: 0,        // log entries already highlighted
  pendingNew: null,  // a new game's body waiting for the player's confirmation
};

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? "").replace(/[&<>"']/g,
  (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
const LABELS = "123456789acefgijklmnopqrstvxyz";   // no b, d, h, u, w (those are commands)

class ApiError extends Error {
  constructor(message, status, data) { super(message); this.status = status; this.data = data || {}; }
}

async function api(method, path, body, signal) {
  const opts = {method, headers: {}, signal};
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  let r;
  try { r = await fetch(path, opts); }
  catch (e) {
    const err = new ApiError("cannot reach the server (is duel serve still running?)", 0);
    err.aborted = !!(signal && signal.aborted);
    throw err;
  }
  let data = null;
  try { data = await r.json(); } catch (e) { data = {error: `${r.status} ${r.statusText}`}; }
  if (!r.ok) throw new ApiError(data && data.error ? data.error : `${r.status}`, r.status, data);
  return data;
}

function flash(text, isError = true) {
  const f = $("flash");
  f.textContent = text;
  f.className = isError ? "error" : "ok";
  clearTimeout(flash.t);
  if (text) flash.t = setTimeout(() => { f.textContent = ""; }, 8000);
}

function show(name) {
  for (const v of document.querySelectorAll(".view")) v.hidden = v.id !== `view-${name}`;
  for (const b of document.querySelectorAll("nav button")) b.classList.toggle("active", b.dataset.nav === name);
  S.view = name;
  document.body.dataset.view = name;
  if (name === "game" && S.game) renderGame();
}

// ------------------------------------------------------------------ faces: shared glyphs
const RES_LETTER = {wood: "W", stone: "S", ore: "O", clay: "C", glass: "G", papyrus: "P", loom: "L"};
const SCI = {compass: "⊕", gear: "⚙", tablet: "▤", wheel: "☸", quill: "✒", mortar: "⚗",
             set_square: "◺", sundial: "☼", globe: "♁", law: "⚖"};

const UI = {
  esc, api, flash, LABELS,
  res(r, n = 1) {
    const one = `<i class="ic res r-${esc(r)}" title="${esc(r)}">${RES_LETTER[r] || "?"}</i>`;
    return n > 2 ? `<span class="ic-n">${n}×</span>${one}` : one.repeat(n);
  },
  coin(n) { return `<i class="ic coin" title="${n} coin${n === 1 ? "" : "s"}">${n}</i>`; },
  vp(n) { return `<i class="ic vp" title="${n} VP">${n}</i>`; },
  shield(n) { return `<i class="ic shield" title="${n} shield${n === 1 ? "" : "s"}">${n > 1 ? n : ""}</i>`.repeat(1); },
  sci(s) { return `<i class="ic sci" title="science: ${esc(s.replace("_", " "))}">${SCI[s] || "?"}</i>`; },
  // a printed cost {coins, res: [[resource, units]]}
  cost(p) {
    if (!p || (!p.coins && !p.res.length)) return `<span class="cost free" title="free">—</span>`;
    return `<span class="cost">${p.coins ? UI.coin(p.coins) : ""}${p.res.map(([r, n]) => UI.res(r, n)).join("")}</span>`;
  },
  // an effect: [{t: res|choice|trade|shield|sci|coin|vp|again|text, ...}]
  items(items) {
    return (items || []).map((it) => {
      switch (it.t) {
        case "res": return UI.res(it.r, it.n);
        case "choice": return `<span class="choice">${it.r.map((r) => UI.res(r)).join("<b>/</b>")}</span>`;
        case "trade": return `<span class="trade">${it.r.map((r) => UI.res(r)).join("")}=${UI.coin(1)}</span>`;
        case "shield": return it.n > 3 ? UI.shield(it.n) : `<i class="ic shield" title="${it.n} shields"></i>`.repeat(it.n);
        case "sci": return UI.sci(it.s);
        case "coin": return UI.coin(it.n);
        case "vp": return UI.vp(it.n);
        case "again": return `<i class="ic again" title="Play Again">↻</i>`;
        default: return `<span class="eff-text">${esc(it.s)}</span>`;
      }
    }).join("");
  },
  // a card face: {name, colour, price, items, chain}, with extra classes and attributes
  face(name, info, cls = "", attrs = "", extra = "") {
    info = info || {};
    return `<div class="card face ${esc(info.colour || "")} ${cls}" data-card="${esc(name)}" ${attrs}
        title="${esc(`${name} — cost: ${info.cost || "free"}. ${info.text || ""}`)}">
      <div class="c-top">${UI.cost(info.price)}</div>
      <div class="c-eff">${UI.items(info.items)}</div>
      <div class="c-name">${esc(name)}</div>${extra}</div>`;
  },
  vpName(key, names) { return (names && names[key]) || key; },
  signed(n, unit) { return `${n > 0 ? "+" : "−"}${Math.abs(n)} ${unit}`; },
  // the new-game form of a multi-seat game (7 Wonders, Architects): the seat list follows the
  // player count, the iterations field shows for an MCTS opponent
  seatFormInit() {
    const $ = (id) => document.getElementById(id);
    const seats = () => {
      const n = Number($("s-players").value);
      $("s-seat").innerHTML = Array.from({length: n}, (_, i) => `<option value="${i + 1}">P${i + 1}</option>`).join("");
    };
    $("s-players").addEventListener("change", seats);
    seats();
    const budget = () => {
      const a = document.querySelector("input[name=s-agent]:checked");
      document.querySelector("#game-fields .budget").hidden = !(a && a.value.startsWith("mcts"));
    };
    $("game-fields").addEventListener("change", budget);
    budget();
  },
  // that form's players, seat and opponent (an MCTS opponent with its iterations)
  seatFormBody() {
    const $ = (id) => document.getElementById(id);
    let opponent = document.querySelector("input[name=s-agent]:checked").value;
    if (opponent.startsWith("mcts")) opponent = `mcts:${Math.max(1, Math.round(Number($("s-iterations").value) || 1000))}`;
    return {players: Number($("s-players").value), seat: Number($("s-seat").value), opponent};
  },
};

// ------------------------------------------------------------------ game modules
const Shell = {
  register(name, module) { S.views[name] = module; },
  get game() { return S.game; },
  get sel() { return S.sel; },
  set sel(v) { S.sel = v; },
  get meta() { return S.meta; },
  gmeta(name) { return S.gmeta[name]; },
  render: () => renderGame(),
  play: (body) => play(body),
  UI,
};
window.Shell = Shell;

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = src; s.onload = resolve; s.onerror = () => reject(new Error(`cannot load ${src}`));
    document.head.appendChild(s);
  });
}

function view(name) { return S.views[name || (S.game && S.game.game) || "duel"]; }

// ------------------------------------------------------------------ new game
function chosenGame() {
  const r = document.querySelector("input[name=game]:checked");
  return r ? r.value : "duel";
}

function setupNewGame() {
  $("game-choices").innerHTML = S.meta.games.filter((g) => S.views[g.name]).map((g, i) =>
    `<label class="game-choice"><input type="radio" name="game" value="${esc(g.name)}" ${i === 0 ? "checked" : ""}>
       <span>${esc(g.title)}</span><small>${g.players.length > 1 ? `${g.players[0]}–${g.players[g.players.length - 1]} players` : "2 players"}</small></label>`).join("");
  const fill = () => {
    const name = chosenGame();
    $("game-fields").innerHTML = view(name).formHtml(S.gmeta[name], S.meta);
    if (view(name).formInit) view(name).formInit(S.gmeta[name], S.meta);
    $("new-title").textContent = `New game of ${S.gmeta[name].title}`;
  };
  $("game-choices").addEventListener("change", fill);
  fill();
  $("new-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const name = chosenGame();
    let body;
    try { body = {game: name, ...view(name).formBody(S.gmeta[name], S.meta)}; }
    catch (e) { flash(e.message); return; }
    const seed = $("seed").value.trim();
    if (seed !== "") {
      if (!/^[0-9]+$/.test(seed)) { flash("the seed is a whole number from 0 to 18446744073709551615"); return; }
      if (BigInt(seed) > 18446744073709551615n) { flash(`the seed ${seed.slice(0, 40)} is too large: at most 18446744073709551615`); return; }
      body.seed = seed;                       // as a string: no digit is lost
    }
    const old = S.game;
    if (old && !old.result && !S.gone) {      // an unfinished game: ask first
      S.pendingNew = body;
      $("confirm-new").hidden = false;
      $("confirm-text").textContent = `Your ${S.gmeta[old.game].title} game (move ${old.n_moves}) is not finished. Starting a new game abandons it.`;
      $("confirm-abandon").focus();
      return;
    }
    await startGame(body);
  });
  $("confirm-abandon").addEventListener("click", async () => {
    const body = S.pendingNew;
    $("confirm-new").hidden = true;
    S.pendingNew = null;
    if (body && S.game) body.replaces = S.game.id;
    if (body) await startGame(body);
  });
  $("confirm-keep").addEventListener("click", () => {
    $("confirm-new").hidden = true; S.pendingNew = null;
    show("game");
  });
}

async function startGame(body) {
  try {
    $("start").disabled = true;
    if (body.replaces) stopFollowing();             // the old game's poll ends quietly
    const g = await api("POST", "/api/games", body);
    enterGame(g);
  } catch (e) {
    flash(e.message);
  } finally {
    $("start").disabled = false;
  }
}

function enterGame(g) {
  S.sel = null;
  S.gone = false;
  S.seenLog = g.log.length;
  $("hint").hidden = true;
  $("move-error").textContent = "";
  $("nav-game").hidden = false;
  history.replaceState(null, "", `#game=${g.id}`);   // a reload comes back to this game
  show("game");
  setGame(g);
  follow();
}

// ------------------------------------------------------------------ the game
function setGame(g) {
  const prev = S.game;
  S.game = g;
  S.received = performance.now();
  if (!prev || prev.id !== g.id) S.sel = null;
  else if (prev.version !== g.version) {               // a selection that still holds stays
    const mod = view(g.game);
    if (!(S.sel && mod.keepSel && mod.keepSel(g, S.sel))) S.sel = null;
  }
  if (prev && prev.id === g.id && g.log.length > S.seenLog) {
    const fresh = g.log.slice(S.seenLog);
    S.highlight = fresh;
  } else if (!prev || prev.id !== g.id) {
    S.highlight = null;
  }
  S.seenLog = g.log.length;
  renderGame();
}

function renderGame() {
  const g = S.game;
  if (!g) return;
  const mod = view(g.game);
  const b = document.body.dataset;
  b.version = g.version; b.thinking = g.thinking ? "1" : "0"; b.phase = g.phase;
  b.toMove = g.to_move || ""; b.over = g.result ? "1" : "0"; b.game = g.game;
  b.yourTurn = mod.yourTurn(g) ? "1" : "0";
  $("status").textContent = S.offline ? "The server does not answer" : mod.status(g);
  $("thinking").hidden = !g.thinking || S.offline;
  $("offline").hidden = !S.offline;
  $("btn-undo").disabled = !g.can_undo || !!g.result;
  $("btn-undo").hidden = !!mod.noUndo;             // a game with no undo shows no button
  $("move-text").placeholder = mod.movePlaceholder || "build lumber yard, pick sphinx, take left…";
  $("move-text").disabled = !!g.result;
  $("btn-hint").hidden = !mod.hints;
  $("btn-hint").disabled = !!(g.thinking || g.result || !mod.yourTurn(g));
  $("btn-record").href = `/api/games/${g.id}/record`;
  $("btn-record").setAttribute("download", `${g.game}-game-${g.seed}.json`);
  $("opponent").textContent = g.opponent_label || "";
  const res = $("game-result");
  res.hidden = !g.result;
  res.innerHTML = g.result ? mod.result(g, {you: true}) : "";
  S.keys = {};
  const ctx = {interactive: true, keys: S.keys, sel: S.sel};
  $("game-board").innerHTML = mod.board(g, ctx);
  $("decision").innerHTML = mod.decision(g, ctx);
  document.body.classList.toggle("sheet-open", !!S.sel);
  renderLog(g);
  tick();
  if (g.error) flash(g.error);
  if (S.highlight && S.highlight.length) {
    for (const sel of mod.touched(g, S.highlight)) {
      for (const el of document.querySelectorAll(sel)) el.classList.add("just-moved");
    }
    const box = $("just");
    box.innerHTML = mod.justHtml(g, S.highlight);
    box.hidden = !box.innerHTML;
    clearTimeout(renderGame.t);
    renderGame.t = setTimeout(() => {
      for (const el of document.querySelectorAll(".just-moved")) el.classList.remove("just-moved");
    }, 2600);
    S.highlight = null;
  }
}

// the thinking clock: elapsed time, budget and the iterations so far (from the AI's rate)
function tick() {
  const g = S.game;
  if (!g || !g.thinking || S.offline) return;
  const el = (g.thinking_elapsed || 0) + (performance.now() - S.received) / 1000;
  const bud = g.budget || {};
  let text = `${g.opponent_label || "The opponent"} is thinking… ${el.toFixed(1)} s`;
  if (bud.seconds) text += ` of ${bud.seconds} s`;
  if (g.rate > 0) text += ` · ≈${Math.round(g.rate * Math.min(el, bud.seconds || el)).toLocaleString("en")} iterations`;
  $("thinking-text").textContent = text;
  const bar = $("think-bar");
  bar.style.width = bud.seconds ? `${Math.min(100, 100 * el / bud.seconds)}%` : "100%";
  bar.classList.toggle("indeterminate", !bud.seconds);
}
setInterval(tick, 200);

function renderLog(g) {
  const ol = $("log");
  ol.innerHTML = view(g.game).logHtml(g);
  ol.parentElement.scrollTop = ol.parentElement.scrollHeight;
}

// a move: {action} or {move: text}, and the module's extras (seat); always with the version
async function play(body) {
  const g = S.game;
  if (!g) return;
  try {
    const v = await api("POST", `/api/games/${g.id}/move`, {...body, version: g.version});
    afterMove(v);
  } catch (e) {
    if (e.status === 409 && /moved on/.test(e.message)) { flash(e.message); await reload(); }
    else flash(e.message);
  }
}

function afterMove(v) {
  S.sel = null;
  $("hint").hidden = true;
  $("move-error").textContent = "";
  setGame(v);
  follow();
}

async function reload() {
  const g = S.game;
  if (!g) return;
  try { setGame(await api("GET", `/api/games/${g.id}`)); } catch (e) { gameGone(e); }
}

// a game that the server no longer has: replaced in another tab, or gone
function gameGone(e) {
  if (e.data && e.data.replaced_by) {
    flash("A new game was started in another tab or window: this is it now.", false);
    api("GET", `/api/games/${e.data.replaced_by}`).then(enterGame).catch(gameGone);
    return;
  }
  S.gone = true;
  flash(e.message);
  $("status").textContent = "This game is gone: start a new one";
  $("thinking").hidden = true;
  history.replaceState(null, "", location.pathname);
}

// Follow the game with long polls as long as it is shown: the AI's moves arrive at once,
// other tabs' moves too; the server stops the AI's search when nobody follows (a closed tab).
function stopFollowing() {
  S.polling++;
  if (S.pollAbort) S.pollAbort.abort();
}

async function follow() {
  if (S.pollAbort) S.pollAbort.abort();
  const gen = ++S.polling;
  let delay = 1000;
  while (S.game && gen === S.polling && !S.gone) {
    const g = S.game;
    let v;
    try {
      S.pollAbort = new AbortController();
      v = await api("GET", `/api/games/${g.id}?version=${g.version}&wait=20`, undefined, S.pollAbort.signal);
      if (S.offline) { S.offline = false; flash("The server answers again.", false); }
      delay = 1000;
    } catch (e) {
      if (gen !== S.polling || S.game !== g || e.aborted) return;
      if (e.status === 0 || e.status >= 500) {
        S.offline = true;
        renderGame();
        flash(`${e.message}: retrying…`);
        await new Promise((r) => setTimeout(r, delay));
        delay = Math.min(delay * 2, 10000);
        continue;
      }
      gameGone(e);
      return;
    }
    if (gen !== S.polling || S.game !== g) return;
    if (v.version !== g.version || S.offline !== false || v.thinking !== g.thinking) setGame(v);
    else { S.game = v; S.received = performance.now(); }
  }
}

async function hint() {
  const g = S.game;
  if (!g || $("btn-hint").disabled || $("btn-hint").hidden) return;
  const box = $("hint");
  box.hidden = false;
  box.innerHTML = `<h3>Hint</h3><p><span class="spinner"></span> the strongest agent is thinking (${S.meta.hint_seconds} s)…</p>`;
  try {
    const h = await api("POST", `/api/games/${g.id}/hint`);
    if (!S.game || S.game.version !== h.version) { box.hidden = true; return; }
    const rows = h.moves.map((m) => `<tr><td>${(100 * m.share).toFixed(1)}%</td>
      <td>${Number.isFinite(m.value) ? (100 * m.value).toFixed(0) + "%" : ""}</td><td>${esc(m.name)}</td></tr>`).join("");
    box.innerHTML = `<h3>Hint: ${esc(h.name)}</h3>
      <p class="muted">${esc(h.label || h.agent)}, ${h.iterations.toLocaleString("en")} iterations — share of visits and estimated win chance:</p>
      <table class="hint-table"><tr><th>visits</th><th>win</th><th class="left">move</th></tr>${rows}</table>`;
  } catch (e) { box.innerHTML = `<h3>Hint</h3><p class="error">${esc(e.message)}</p>`; }
}

async function undo() {
  const g = S.game;
  if (!g || $("btn-undo").disabled) return;
  try { afterMove(await api("POST", `/api/games/${g.id}/undo`, {version: g.version})); }
  catch (e) {
    if (e.status === 409 && /moved on/.test(e.message)) { flash(e.message); await reload(); }
    else flash(e.message);
  }
}

// ------------------------------------------------------------------ replay viewer
async function loadReplay(text) {
  const had = S.replay;
  const fail = (msg) => {
    $("replay-error").textContent = had
      ? `${msg} — not loaded; still showing the previous record.` : msg;
    $("replay-main").hidden = !had;
  };
  $("replay-error").textContent = "";
  let data;
  try { data = JSON.parse(text); } catch (e) { fail(`not a game record (not JSON: ${e.message})`); return; }
  let rep;
  try { rep = await api("POST", "/api/replays", data); }
  catch (e) { fail(e.message); return; }
  S.replay = rep;
  $("replay-main").hidden = false;
  $("r-slider").max = rep.n_moves;
  $("r-title").textContent = `Moves (${rep.players.join(" vs ")}, seed ${rep.seed})`;
  $("r-moves").innerHTML = rep.moves.map((m) =>
    `<li value="${m.n}" data-k="${m.n}"><span class="who">${esc(m.player)}</span> ${esc(m.name)}</li>`).join("");
  await replayGo(0);
}

async function replayGo(k) {
  if (!S.replay) return;
  k = Math.max(0, Math.min(S.replay.n_moves, k));
  try {
    const v = await api("GET", `/api/replays/${S.replay.id}/positions/${k}`);
    S.rk = k;
    S.rview = v;
    const mod = view(v.game);
    $("r-slider").value = k;
    $("r-where").textContent = k ? `after move ${k} of ${v.n_moves}: ${v.last}` : `the start (${v.n_moves} moves)`;
    $("replay-board").innerHTML = mod.board(v, {interactive: false, replay: S.replay, keys: {}});
    $("replay-result").innerHTML = v.result ? mod.result(v, {replay: S.replay}) : "";
    for (const li of $("r-moves").children) li.classList.toggle("current", Number(li.dataset.k) === k);
    const cur = $("r-moves").querySelector(".current");
    if (cur) cur.scrollIntoView({block: "nearest"});
  } catch (e) { flash(e.message); }
}

// ------------------------------------------------------------------ study
async function setupStudy() {
  const st = await api("GET", "/api/study");
  $("study-title").textContent = st.title;
  if (st.html) { $("study-frame").src = "/study/report.html"; }
  else { $("study-frame").hidden = true; $("study-md").hidden = false; $("study-md").textContent = st.markdown; }
  $("study-plots").innerHTML = st.html ? "" : st.plots.map((p) => `<img src="/study/${esc(p)}" alt="${esc(p)}">`).join("");
}

// ------------------------------------------------------------------ wiring
function onKey(ev) {
  if (ev.target.closest("input, textarea, select")) {
    if (ev.key === "Escape") ev.target.blur();
    return;
  }
  if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
  const k = ev.key.length === 1 ? ev.key.toLowerCase() : ev.key;
  if (S.view === "replay" && S.replay) {
    const to = {ArrowLeft: S.rk - 1, ArrowRight: S.rk + 1, Home: 0, End: S.replay.n_moves}[k];
    if (to !== undefined) { ev.preventDefault(); replayGo(to); }
    return;
  }
  if (S.view !== "game" || !S.game) return;
  if (k === "Escape") { S.sel = null; renderGame(); return; }
  if (k === "h") { hint(); return; }
  if (k === "u") { undo(); return; }
  if (k === "/") { ev.preventDefault(); $("move-text").focus(); return; }
  const f = S.keys[k];
  if (f) { ev.preventDefault(); f(); }
}

function wire() {
  document.addEventListener("keydown", onKey);
  let resized = 0;
  window.addEventListener("resize", () => {          // the board scales to the window
    clearTimeout(resized);
    resized = setTimeout(() => {
      if (S.view === "game" && S.game) renderGame();
      if (S.view === "replay" && S.replay) replayGo(S.rk);
    }, 150);
  });
  document.addEventListener("click", (ev) => {
    const nav = ev.target.closest("[data-nav]");
    if (nav) { ev.preventDefault(); show(nav.dataset.nav); return; }
    const rli = ev.target.closest("#r-moves li[data-k]");
    if (rli) { replayGo(Number(rli.dataset.k)); return; }
    if (!S.game || S.view !== "game") return;
    if (ev.target.closest("#cancel-sel")) { S.sel = null; renderGame(); return; }
    const mv = ev.target.closest("[data-move]");
    if (mv && !mv.disabled) {
      const body = {action: Number(mv.dataset.move)};
      if (mv.dataset.seat !== undefined) body.seat = Number(mv.dataset.seat);
      play(body);
      return;
    }
    const mod = view(S.game.game);
    if (mod.onClick && mod.onClick(ev, S.game)) return;
  });
  $("btn-hint").addEventListener("click", hint);
  $("btn-undo").addEventListener("click", undo);
  $("btn-replay-this").addEventListener("click", async () => {
    const g = S.game;
    if (!g) return;
    const r = await fetch(`/api/games/${g.id}/record`);
    show("replay");
    await loadReplay(await r.text());
  });
  $("move-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const g = S.game;
    const text = $("move-text").value.trim();
    if (!g || !text) return;
    try {
      const body = {move: text, version: g.version};
      const mod = view(g.game);
      if (mod.typedSeat) { const seat = mod.typedSeat(g); if (seat !== null) body.seat = seat; }
      const v = await api("POST", `/api/games/${g.id}/move`, body);
      $("move-text").value = "";
      $("move-text").blur();                       // keys work on the board again
      afterMove(v);
    } catch (e) {
      $("move-error").textContent = e.message;
      if (e.status === 409 && /moved on/.test(e.message)) await reload();
    }
  });
  $("replay-file").addEventListener("change", async (ev) => {
    const f = ev.target.files[0];
    if (f) await loadReplay(await f.text());
    ev.target.value = "";
  });
  $("r-first").addEventListener("click", () => replayGo(0));
  $("r-prev").addEventListener("click", () => replayGo(S.rk - 1));
  $("r-next").addEventListener("click", () => replayGo(S.rk + 1));
  $("r-last").addEventListener("click", () => replayGo(S.replay ? S.replay.n_moves : 0));
  $("r-slider").addEventListener("input", (ev) => replayGo(Number(ev.target.value)));
}

async function main() {
  wire();
  try { S.meta = await api("GET", "/api/meta"); }
  catch (e) { flash(`cannot reach the server: ${e.message}`); return; }
  for (const g of S.meta.games) {
    S.gmeta[g.name] = g;
    try { await loadScript(g.script); } catch (e) { flash(e.message); }
  }
  setupNewGame();
  if (S.meta.study) { $("nav-study").hidden = false; setupStudy().catch((e) => flash(e.message)); }
  show("new");
  const m = /^#game=([\w-]+)$/.exec(location.hash);
  if (m) {
    try { enterGame(await api("GET", `/api/games/${m[1]}`)); }
    catch (e) { flash(e.message); history.replaceState(null, "", location.pathname); }
  }
  document.body.dataset.ready = "1";
}

main();
