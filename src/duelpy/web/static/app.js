// duel serve: the page. Plain JavaScript, no framework, no build step.
// Everything about the rules (prices, legal moves, what a move does) comes from the server.
"use strict";

const S = {
  meta: null,        // /api/meta
  game: null,        // the current game's view
  sel: null,         // selected card name (play phase)
  keys: {},          // key -> handler for the labels shown
  following: false,  // a long poll is under way
  replay: null,      // replay summary
  rk: 0,             // replay position
  rview: null,
};

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s ?? "").replace(/[&<>"']/g,
  (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[c]));
const LABELS = "123456789acefgijklmnopqrstvxyz";   // no b, d, h, u, w (those are commands)

async function api(method, path, body) {
  const opts = {method, headers: {}};
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = typeof body === "string" ? body : JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  let data = null;
  try { data = await r.json(); } catch (e) { data = {error: `${r.status} ${r.statusText}`}; }
  if (!r.ok) throw new Error(data && data.error ? data.error : `${r.status}`);
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
}

// ------------------------------------------------------------------ new game
function setupNewGame() {
  const box = $("agent-choices");
  box.innerHTML = S.meta.agents.map((a, i) =>
    `<label title="${esc(a.text)}"><input type="radio" name="agent" value="${esc(a.name)}"
       data-budget="${esc(a.budget || "")}" ${a.strongest ? "checked" : ""}>
       ${esc(a.label)} <span class="muted">— ${esc(a.text)}</span></label>`).join("");
  $("seconds").max = S.meta.max_seconds;
  const budget = () => {
    const a = document.querySelector("input[name=agent]:checked");
    document.querySelector(".budget").hidden = !(a && a.dataset.budget);
  };
  box.addEventListener("change", budget);
  budget();
  $("new-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const a = document.querySelector("input[name=agent]:checked");
    let opponent = $("agent-spec").value.trim();
    if (!opponent) {
      opponent = a.value;
      if (a.dataset.budget === "seconds") {
        opponent += (opponent.includes(":") ? "," : ":") + `seconds=${Number($("seconds").value) || 1}`;
      }
    }
    const body = {
      seat: Number(document.querySelector("input[name=seat]:checked").value),
      opponent,
      first_game_wonders: $("first-game-wonders").checked,
      centred_pawn: $("centred-pawn").value,
      start_coins: [Number($("coins-p1").value), Number($("coins-p2").value)],
    };
    if ($("seed").value !== "") body.seed = Number($("seed").value);
    try {
      $("start").disabled = true;
      const g = await api("POST", "/api/games", body);
      const old = S.game;
      if (old && !old.result) api("DELETE", `/api/games/${old.id}`).catch(() => {});  // abandoned
      S.sel = null;
      $("hint").hidden = true;
      $("nav-game").hidden = false;
      history.replaceState(null, "", `#game=${g.id}`);   // a reload comes back to this game
      setGame(g);
      show("game");
    } catch (e) {
      flash(e.message);
    } finally {
      $("start").disabled = false;
    }
  });
}

// ------------------------------------------------------------------ drawing a position
const ROW_STEP = 46, CARD_W = 92, CARD_H = 60, GAP = 6;

function effectText(e) {
  if (!e) return "";
  const parts = [];
  if (e.coins) parts.push(`${e.coins > 0 ? "+" : "−"}${Math.abs(e.coins)} coins`);
  if (e.vp) parts.push(`${e.vp > 0 ? "+" : "−"}${Math.abs(e.vp)} VP`);
  if (e.pawn) parts.push(`pawn ${e.pawn > 0 ? "+" : "−"}${Math.abs(e.pawn)}`);
  if (e.opp_coins) parts.push(`opponent ${e.opp_coins > 0 ? "+" : "−"}${Math.abs(e.opp_coins)} coins`);
  if (e.next) parts.push(`then ${e.next}`);
  if (e.ends) {
    const w = e.ends.winner;
    parts.push(w === null ? "ends the game: shared victory" : `ends the game: P${w + 1} wins (${e.ends.victory})`);
  }
  return parts.join(", ");
}

// a price as the server words it from the core's trade_breakdown:
// "5 coins = 1 clay × 3 + 1 papyrus × 2" (units × coins per unit), "free (chain from Baths)"
function priceText(p) { return p ? p.text : ""; }

function cardTitle(name) {
  const c = S.meta.cards[name];
  if (!c) return name;
  return `${name} (${c.colour}, Age ${c.age > 3 ? "III" : "I".repeat(c.age)}) — cost: ${c.cost}. ${c.text}`;
}

function drawLayout(v, interactive) {
  if (!v.layout) return "";
  if (v.layout.every((s) => s.face === "taken")) {
    return `<div class="muted">Every card of ${esc(v.age_name)} has been taken.</div>`;
  }
  const xs = v.layout.map((s) => s.x);
  const width = (Math.max(...xs) + 1) * (CARD_W + GAP);
  const rows = Math.max(...v.layout.map((s) => s.row)) + 1;
  const height = (rows - 1) * ROW_STEP + CARD_H + 28;
  let html = `<div class="layout" style="width:${width}px;height:${height}px">`;
  for (const s of v.layout) {
    if (s.face === "taken") continue;
    const style = `left:${s.x * (CARD_W + GAP)}px;top:${s.row * ROW_STEP}px;z-index:${s.row + 1}`;
    if (s.face === "back" || s.face === "guild_back") {
      const label = s.face === "guild_back" ? "Guild" : ["", "I", "II", "III"][v.age];
      html += `<div class="card back ${s.face === "guild_back" ? "guild" : `age${v.age}`}" style="${style}"
                 title="${s.face === "guild_back" ? "a guild, face down" : "a card of this Age, face down"}"><span>${label}</span></div>`;
      continue;
    }
    const avail = s.available;
    const cls = ["card", "face", s.colour, avail ? "available" : "covered"];
    if (S.sel === s.card && interactive) cls.push("selected");
    let extra = "";
    if (avail && s.price) {
      const p = s.price;
      const ptxt = p.chain ? "chain" : p.total === 0 ? "free" : `${p.total}`;
      extra += `<span class="price ${p.affordable ? "" : "dear"} ${p.chain ? "chain" : ""}"
                  title="${esc(priceText(p))}">${esc(ptxt)}</span>`;
    }
    if (avail && interactive && s.label) extra += `<kbd class="label">${esc(s.label)}</kbd>`;
    html += `<div class="${cls.join(" ")}" style="${style}" data-card="${esc(s.card)}"
               title="${esc(cardTitle(s.card))}${s.price ? esc(" — price: " + priceText(s.price)) : ""}">
               <span class="name">${esc(s.card)}</span>${extra}</div>`;
  }
  return html + "</div>";
}

function drawMilitary(v) {
  const m = v.military;
  let cells = "";
  for (let x = -m.capital; x <= m.capital; x++) {
    const d = Math.abs(x);
    let zone = "";
    for (const [start, vp] of m.vp_zones) if (d >= start) zone = `vp${vp}`;
    const cap = d === m.capital ? "capital" : "";
    const pawn = x === m.pawn ? `<span class="pawn" title="Conflict pawn">●</span>` : "";
    cells += `<div class="cell ${zone} ${cap} ${x === 0 ? "centre" : ""}" data-x="${x}">${pawn}</div>`;
  }
  let toks = "";
  m.tokens.forEach((vals, side) => {
    for (const [start, val] of m.zones) {
      if (!vals.includes(val)) continue;
      const x = (side === 0 ? -1 : 1) * (start + 1);
      toks += `<span class="mtoken" style="left:calc(${(x + m.capital) / (2 * m.capital + 1) * 100}% - 6px)"
                 title="P${side + 1} loses ${val} coins when the pawn enters this zone">−${val}</span>`;
    }
  });
  const lead = m.pawn === 0 ? "pawn on the centre" :
    `P${m.pawn > 0 ? 1 : 2} leads by ${Math.abs(m.pawn)} (${Math.max(...m.vp)} VP now)`;
  return `<div class="military"><span class="cap-label">P1</span><div class="track">${cells}
          <div class="mtokens">${toks}</div></div><span class="cap-label">P2</span>
          <div class="mil-text muted">${esc(lead)}</div></div>`;
}

function drawPlayer(v, q, names) {
  const p = v.players[q];
  const mover = v.mover === q && !v.result;
  const who = names ? names[q] : "";
  let wonders = p.wonders.map((w) => {
    const info = S.meta.wonders[w.name] || {};
    let t = `<li class="wonder ${w.built ? "built" : ""}" title="${esc(`${w.name} — cost: ${info.cost}. ${info.text}`)}">`;
    t += `${w.built ? "✓" : "·"} ${esc(w.name)}`;
    if (w.built && w.card) t += ` <span class="muted">(over ${esc(w.card)})</span>`;
    if (!w.built && w.price) t += ` <span class="price-inline ${w.price.affordable ? "" : "dear"}">${esc(priceText(w.price))}</span>`;
    return t + "</li>";
  }).join("");
  if (!wonders) wonders = `<li class="muted">none yet</li>`;
  const city = S.meta.colours.map((c) => {
    const cards = p.city[c] || [];
    if (!cards.length) return "";
    return `<div class="city-row"><span class="chip ${c}">${c}</span> ` +
      cards.map((n) => `<span class="mini ${c}" title="${esc(cardTitle(n))}">${esc(n)}</span>`).join("") + "</div>";
  }).join("") || `<div class="muted">no cards yet</div>`;
  const vps = Object.entries(p.vp).filter(([, n]) => n).map(([k, n]) => `${k} ${n}`).join(", ");
  const prod = Object.entries(p.production).filter(([, n]) => n).map(([r, n]) => `${n} ${r}`).join(", ") || "nothing";
  const sci = Object.entries(p.science).map(([s, n]) => `${s.replace("_", " ")}${n > 1 ? " ×" + n : ""}`).join(", ") || "none";
  const tokens = p.tokens.map((t) => `<span class="token" title="${esc(S.meta.tokens[t])}">${esc(t)}</span>`).join("") || `<span class="muted">none</span>`;
  return `<div class="player ${mover ? "to-move" : ""}" id="player-${q + 1}">
    <h3>${esc(p.name)} <span class="muted">${esc(who)}</span>${mover ? ' <span class="badge">to move</span>' : ""}</h3>
    <div class="stats"><span class="coins" title="coins">${p.coins}</span>
      <span class="vp" title="victory points now">${p.total} VP</span>
      <span class="muted">${vps ? "(" + esc(vps) + ")" : ""}</span></div>
    <div><b>Wonders</b><ul class="wonders">${wonders}</ul></div>
    <div><b>Progress tokens</b> ${tokens}</div>
    <div class="muted">produces ${esc(prod)} · science: ${esc(sci)}</div>
    <div class="city">${city}</div>
  </div>`;
}

function drawBoard(v, interactive, names) {
  const tokens = v.board_tokens.map((t) => `<span class="token" title="${esc(S.meta.tokens[t])}">${esc(t)}</span>`).join("") || `<span class="muted">none</span>`;
  const pile = v.discard_pile.map((n) => `<span class="mini ${S.meta.cards[n].colour}" title="${esc(cardTitle(n))}">${esc(n)}</span>`).join("") || `<span class="muted">empty</span>`;
  let draft = "";
  if (v.phase === "draft" && v.draft.offer.length) {
    draft = `<div class="draft"><b>Wonders in the draft:</b> ` + v.draft.offer.map((w) =>
      `<span class="wonder-card" title="${esc(S.meta.wonders[w].cost + ". " + S.meta.wonders[w].text)}">${esc(w)}</span>`).join("") + "</div>";
  }
  return `${drawMilitary(v)}
    <div class="layout-wrap">${v.layout ? drawLayout(v, interactive) : draft || '<div class="muted">No Age layout yet.</div>'}</div>
    <div class="players">${drawPlayer(v, 0, names)}${drawPlayer(v, 1, names)}</div>
    <div class="board-foot"><div><b>Progress tokens on the board</b> ${tokens}</div>
      <div><b>Discard pile (${v.discard_pile.length})</b> ${pile}</div></div>`;
}

// ------------------------------------------------------------------ the game
function statusText(g) {
  if (g.result) return "Game over";
  const age = g.age_name;
  if (g.thinking) return `${age} · ${g.to_move} (${g.opponent}) to move`;
  if (g.to_move === g.you) return `${age} · your move (${g.you}): ${g.pending}${g.play_again ? " — Play Again" : ""}`;
  return `${age} · ${g.to_move} to move`;
}

function resultHtml(v, names, you) {
  const r = v.result;
  if (!r) return "";
  const w = r.winner;
  let head;
  if (w === null) head = "Shared victory";
  else head = `P${w + 1}${names ? ` (${esc(names[w])})` : ""} wins — ${esc(r.victory)} victory`;
  if (you !== undefined && w !== null) head += w === you ? " — you win!" : " — you lose";
  const cats = Object.keys(r.vp);
  const rows = cats.map((c) => `<tr><td>${esc(c)}</td><td>${r.vp[c][0]}</td><td>${r.vp[c][1]}</td></tr>`).join("");
  return `<h2 class="result-head">${head}</h2>
    <p class="result-score" data-winner="${w === null ? "none" : w}" data-victory="${esc(r.victory)}">Final score:
       P1 <b class="result-total-p1">${r.total[0]}</b> – P2 <b class="result-total-p2">${r.total[1]}</b></p>
    <table class="vp-table"><tr><th></th><th>P1</th><th>P2</th></tr>${rows}
    <tr class="total"><td>total</td><td>${r.total[0]}</td><td>${r.total[1]}</td></tr></table>`;
}

function assignLabels(g) {
  S.keys = {};
  if (!g.moves.length || g.thinking || g.result) return;
  let i = 0;
  if (g.phase === "play" && g.layout) {
    for (const s of g.layout) {
      if (s.available && s.moves && s.moves.length) {
        s.label = LABELS[i++];
        const name = s.card;
        S.keys[s.label] = () => select(name);
      }
    }
  } else {
    for (const m of g.moves) {
      m.label = LABELS[i++];
      S.keys[m.label] = () => play(m.id);
    }
  }
}

function setGame(g) {
  const prev = S.game;
  S.game = g;
  if (prev && (prev.version !== g.version || prev.id !== g.id)) S.sel = null;
  if (S.sel && !(g.layout || []).some((s) => s.card === S.sel && s.available)) S.sel = null;
  renderGame();
  if (g.thinking) follow();
}

function renderGame() {
  const g = S.game;
  if (!g) return;
  assignLabels(g);
  const b = document.body.dataset;
  b.version = g.version; b.thinking = g.thinking ? "1" : "0"; b.phase = g.phase;
  b.toMove = g.to_move || ""; b.over = g.result ? "1" : "0";
  $("status").textContent = statusText(g);
  $("thinking").hidden = !g.thinking;
  $("thinking-text").textContent = `${g.opponent} is thinking…`;
  $("btn-undo").disabled = !g.can_undo || g.thinking;
  $("btn-hint").disabled = !!(g.thinking || g.result || g.to_move !== g.you);
  $("btn-record").href = `/api/games/${g.id}/record`;
  $("btn-record").setAttribute("download", `duel-game-${g.seed}.json`);
  const res = $("game-result");
  res.hidden = !g.result;
  res.innerHTML = resultHtml(g, g.players_names, g.you === "P1" ? 0 : 1);
  $("game-board").innerHTML = drawBoard(g, true, g.players_names);
  renderDecision(g);
  renderLog(g);
  if (g.error) flash(g.error);
}

function moveButton(m, text) {
  const eff = effectText(m.effect);
  return `<button class="move" data-move="${m.id}" title="${esc(m.name)}">
    ${m.label ? `<kbd>${esc(m.label)}</kbd> ` : ""}${text || esc(m.name)}
    ${m.note ? `<span class="note">${esc(m.note)}</span>` : ""}
    ${eff ? `<span class="effect">${esc(eff)}</span>` : ""}</button>`;
}

// the price of every available card for the player to move, with its trading breakdown
function pricesHtml(g) {
  const rows = g.layout.filter((s) => s.available && s.price).map((s) => {
    const p = s.price;
    return `<li class="${p.affordable ? "" : "dear"}" data-card="${esc(s.card)}">
      ${s.label ? `<kbd>${esc(s.label)}</kbd> ` : ""}<span class="chip ${s.colour}"></span>
      ${esc(s.card)}: <span class="price-text" data-card="${esc(s.card)}">${esc(priceText(p))}</span>
      ${p.affordable ? "" : '<span class="why-not">(not enough coins)</span>'}</li>`;
  }).join("");
  return rows ? `<h4 title="resources bought from the bank: units × coins per unit">Prices for you</h4>
    <ul class="prices">${rows}</ul>` : "";
}

function renderDecision(g) {
  const box = $("decision");
  if (g.result) { box.innerHTML = `<h3>The game is over</h3><p>Download the record, or replay it.</p>`; return; }
  if (g.thinking) { box.innerHTML = `<h3>${esc(g.opponent)} is thinking…</h3>`; return; }
  if (g.to_move !== g.you || !g.moves.length) { box.innerHTML = `<h3>Waiting</h3>`; return; }
  if (g.phase === "play") {
    if (!S.sel) {
      box.innerHTML = `<h3>Your move</h3><p>${esc(g.pending)}${g.play_again ? " <b>(Play Again)</b>" : ""}.</p>
        <p class="muted">Click an available card (or press its label) to see what you can do with it.</p>
        ${pricesHtml(g)}`;
      return;
    }
    const slot = g.layout.find((s) => s.card === S.sel);
    const info = S.meta.cards[S.sel];
    const ms = slot.moves;
    const build = ms.find((m) => m.kind === "build");
    const discard = ms.find((m) => m.kind === "discard");
    const wonders = ms.filter((m) => m.kind === "wonder");
    let html = `<h3><span class="chip ${slot.colour}"></span> ${esc(S.sel)}</h3>
      <p class="muted">${esc(info.text)}</p>
      <p>Printed cost: ${esc(info.cost)}. Price for you:
        <b class="price-text" data-card="${esc(S.sel)}">${esc(priceText(slot.price))}</b></p>`;
    if (build) html += moveButton({...build, label: "B"}, `Build ${esc(S.sel)}`);
    else html += `<p class="why-not">Cannot build it: ${esc(slot.why_not_build || "not legal")}</p>`;
    if (discard) html += moveButton({...discard, label: "D"}, `Discard for coins`);
    wonders.forEach((m, i) => { html += moveButton({...m, label: String(i + 1)}, `Wonder: ${esc(m.wonder)}`); });
    html += `<button id="cancel-sel" class="link">cancel <kbd>Esc</kbd></button>`;
    box.innerHTML = html;
    S.keys = {b: build ? () => play(build.id) : null, d: discard ? () => play(discard.id) : null};
    wonders.forEach((m, i) => { S.keys[String(i + 1)] = () => play(m.id); });
    return;
  }
  let html = `<h3>Your decision</h3><p>${esc(g.pending)}</p>`;
  for (const m of g.moves) {
    let text = esc(m.name);
    if (m.kind === "pick") text = `Pick <b>${esc(m.wonder)}</b> <span class="muted">${esc(S.meta.wonders[m.wonder].text)}</span>`;
    if (m.kind === "token") text = `<b>${esc(m.token)}</b> <span class="muted">${esc(S.meta.tokens[m.token])}</span>`;
    if (m.kind === "start") text = `${esc(m.player)} begins the next Age`;
    if (m.kind === "destroy") text = `Destroy ${esc(m.card)}`;
    if (m.kind === "revive") text = `Build ${esc(m.card)} from the discard pile`;
    html += moveButton(m, text);
  }
  if (g.library_offer && g.library_offer.length) html += `<p class="muted">Drawn by The Great Library: ${esc(g.library_offer.join(", "))}</p>`;
  box.innerHTML = html;
}

function renderLog(g) {
  const ol = $("log");
  let age = null;
  let html = "";
  for (const e of g.log) {
    if (e.age !== age) { age = e.age; html += `<li class="age-sep">${age ? "Age " + ["", "I", "II", "III"][age] : "Wonder draft"}</li>`; }
    const ai = e.who !== "you";
    html += `<li class="${ai ? "ai" : "you"}" value="${e.n}"><span class="who">${esc(e.player)} (${esc(e.who)})</span>
      ${esc(e.name)} <span class="effect">${esc(effectText(e.effect))}</span>
      ${e.why ? `<div class="why">${esc(e.why)}</div>` : ""}</li>`;
  }
  ol.innerHTML = html;
  ol.parentElement.scrollTop = ol.parentElement.scrollHeight;
}

function select(name) {
  S.sel = S.sel === name ? null : name;
  renderGame();
}

async function play(action) {
  const g = S.game;
  if (!g || g.thinking) return;
  try {
    const v = await api("POST", `/api/games/${g.id}/move`, {action});
    S.sel = null;
    $("hint").hidden = true;
    setGame(v);
  } catch (e) { flash(e.message); }
}

async function follow() {
  if (S.following) return;
  S.following = true;
  try {
    while (S.game && S.game.thinking) {
      const g = S.game;
      let v;
      try {
        v = await api("GET", `/api/games/${g.id}?version=${g.version}&wait=20`);
      } catch (e) { flash(e.message); break; }
      if (S.game !== g) break;
      S.game = v;
      if (v.version !== g.version) S.sel = null;
      renderGame();
    }
  } finally { S.following = false; }
}

async function hint() {
  const g = S.game;
  if (!g || $("btn-hint").disabled) return;
  const box = $("hint");
  box.hidden = false;
  box.innerHTML = `<h3>Hint</h3><p><span class="spinner"></span> the strongest agent is thinking (${S.meta.hint_seconds} s)…</p>`;
  try {
    const h = await api("POST", `/api/games/${g.id}/hint`);
    const rows = h.moves.map((m) => `<tr><td>${(100 * m.share).toFixed(1)}%</td>
      <td>${Number.isFinite(m.value) ? (100 * m.value).toFixed(0) + "%" : ""}</td><td>${esc(m.name)}</td></tr>`).join("");
    box.innerHTML = `<h3>Hint: ${esc(h.name)}</h3>
      <p class="muted">${esc(h.agent)}, ${h.iterations.toLocaleString()} iterations — share of visits and estimated win chance:</p>
      <table class="hint-table"><tr><th>visits</th><th>win</th><th class="left">move</th></tr>${rows}</table>`;
  } catch (e) { box.innerHTML = `<h3>Hint</h3><p class="error">${esc(e.message)}</p>`; }
}

async function undo() {
  const g = S.game;
  if (!g || $("btn-undo").disabled) return;
  try { S.sel = null; setGame(await api("POST", `/api/games/${g.id}/undo`)); $("hint").hidden = true; }
  catch (e) { flash(e.message); }
}

// ------------------------------------------------------------------ replay viewer
async function loadReplay(text) {
  $("replay-error").textContent = "";
  let data;
  try { data = JSON.parse(text); } catch (e) { $("replay-error").textContent = `not JSON: ${e.message}`; return; }
  try {
    S.replay = await api("POST", "/api/replays", data);
    $("replay-main").hidden = false;
    $("r-slider").max = S.replay.n_moves;
    $("r-title").textContent = `Moves (${S.replay.players.map(esc).join(" vs ")}, seed ${S.replay.seed})`;
    $("r-moves").innerHTML = S.replay.moves.map((m) =>
      `<li value="${m.n}" data-k="${m.n}"><span class="who">${esc(m.player)}</span> ${esc(m.name)}</li>`).join("");
    await replayGo(S.replay.n_moves ? 0 : 0);
  } catch (e) { $("replay-error").textContent = e.message; $("replay-main").hidden = true; }
}

async function replayGo(k) {
  if (!S.replay) return;
  k = Math.max(0, Math.min(S.replay.n_moves, k));
  try {
    const v = await api("GET", `/api/replays/${S.replay.id}/positions/${k}`);
    S.rk = k;
    S.rview = v;
    $("r-slider").value = k;
    $("r-where").textContent = k ? `after move ${k} of ${v.n_moves}: ${v.last}` : `the start (${v.n_moves} moves)`;
    $("replay-board").innerHTML = drawBoard(v, false, S.replay.players);
    $("replay-result").innerHTML = resultHtml(v, S.replay.players);
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
  document.addEventListener("click", (ev) => {
    const nav = ev.target.closest("[data-nav]");
    if (nav) { ev.preventDefault(); show(nav.dataset.nav); return; }
    const mv = ev.target.closest("[data-move]");
    if (mv) { play(Number(mv.dataset.move)); return; }
    const card = ev.target.closest("#game-board .card.available[data-card], #decision .prices li[data-card]");
    if (card && S.game && S.game.to_move === S.game.you && !S.game.thinking) { select(card.dataset.card); return; }
    if (ev.target.closest("#cancel-sel")) { S.sel = null; renderGame(); return; }
    const rli = ev.target.closest("#r-moves li[data-k]");
    if (rli) { replayGo(Number(rli.dataset.k)); }
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
      const v = await api("POST", `/api/games/${g.id}/move`, {move: text});
      $("move-text").value = "";
      $("move-error").textContent = "";
      S.sel = null;
      setGame(v);
    } catch (e) { $("move-error").textContent = e.message; }
  });
  $("replay-file").addEventListener("change", async (ev) => {
    const f = ev.target.files[0];
    if (f) await loadReplay(await f.text());
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
  setupNewGame();
  if (S.meta.study) { $("nav-study").hidden = false; setupStudy().catch((e) => flash(e.message)); }
  show("new");
  const m = /^#game=([\w-]+)$/.exec(location.hash);
  if (m) {
    try {
      const g = await api("GET", `/api/games/${m[1]}`);
      $("nav-game").hidden = false;
      setGame(g);
      show("game");
    } catch (e) { flash(e.message); history.replaceState(null, "", location.pathname); }
  }
  document.body.dataset.ready = "1";
}

main();
