// duel serve: the view module of 7 Wonders Duel (the Age layout, the two cities, the military
// track, the draft, the progress tokens). Registered with the page's shell (app.js).
"use strict";
(function () {
  const Shell = window.Shell;
  const UI = Shell.UI;
  const esc = UI.esc;
  const ROMAN = ["", "I", "II", "III"];
  const meta = () => Shell.meta;
  const card = (n) => meta().cards[n] || {};
  const wonder = (n) => meta().wonders[n] || {};

  function effectText(e) {
    if (!e) return "";
    const parts = [];
    if (e.coins) parts.push(UI.signed(e.coins, "coins"));
    if (e.vp) parts.push(UI.signed(e.vp, "VP"));
    if (e.pawn) parts.push(`pawn ${e.pawn > 0 ? "+" : "−"}${Math.abs(e.pawn)}`);
    if (e.opp_coins) parts.push(`opponent ${UI.signed(e.opp_coins, "coins")}`);
    if (e.next) parts.push(`then ${e.next}`);
    if (e.ends) {
      const w = e.ends.winner;
      parts.push(w === null ? "ends the game: shared victory" : `ends the game: P${w + 1} wins (${e.ends.victory})`);
    }
    return parts.join(", ");
  }

  const yourTurn = (g) => !!(g.to_move === g.you && !g.thinking && !g.result && g.moves && g.moves.length);

  // ---------------------------------------------------------------- faces
  function wonderFace(name, cls = "", attrs = "", extra = "") {
    const w = wonder(name);
    return `<div class="wonder-face ${cls}" data-wonder="${esc(name)}" ${attrs}
        title="${esc(`${name} — cost: ${w.cost}. ${w.text}`)}">
      <div class="w-top">${UI.cost(w.price)}</div>
      <div class="w-name">${esc(name)}</div>
      <div class="w-eff">${UI.items(w.items)}</div>${extra}</div>`;
  }

  function tokenFace(name, cls = "", attrs = "") {
    const text = meta().tokens[name] || "";
    return `<div class="token-face ${cls}" data-token="${esc(name)}" ${attrs} title="${esc(`${name}: ${text}`)}">
      <span class="t-name">${esc(name)}</span></div>`;
  }

  function miniCard(name) {
    const c = card(name);
    return `<span class="mini ${esc(c.colour)}" data-card="${esc(name)}" title="${esc(`${name} — ${c.text}`)}">
      <span class="mini-name">${esc(name)}</span><span class="mini-eff">${UI.items(c.items)}</span></span>`;
  }

  // ---------------------------------------------------------------- the military track
  function military(v) {
    const m = v.military;
    let cells = "";
    for (let x = -m.capital; x <= m.capital; x++) {
      const d = Math.abs(x);
      let zone = 0;
      for (const [start, vp] of m.vp_zones) if (d >= start) zone = vp;
      const cap = d === m.capital ? "capital" : "";
      const pawn = x === m.pawn ? `<span class="pawn" title="the Conflict pawn">⬤</span>` : "";
      cells += `<div class="cell ${zone ? "vp" + zone : ""} ${cap} ${x === 0 ? "centre" : ""}" data-x="${x}">${pawn}</div>`;
    }
    // the VP of each zone, written on the track (the rulebook's 2 / 5 / 10)
    let zones = "";
    const span = 2 * m.capital + 1;
    for (const side of [-1, 1]) {
      m.vp_zones.forEach(([start, vp], i) => {
        const end = i + 1 < m.vp_zones.length ? m.vp_zones[i + 1][0] - 1 : m.capital - 1;
        const a = side < 0 ? -end : start, b = side < 0 ? -start : end;
        const left = (a + m.capital) / span * 100, width = (b - a + 1) / span * 100;
        zones += `<span class="zone-label" style="left:${left}%;width:${width}%"
          title="pawn here: ${side < 0 ? "P2" : "P1"} scores ${vp} VP">${vp} VP</span>`;
      });
    }
    let toks = "";
    m.tokens.forEach((vals, side) => {
      for (const [start, val] of m.zones) {
        if (!vals.includes(val)) continue;
        const x = (side === 0 ? -1 : 1) * (start + 1);
        toks += `<span class="mtoken" style="left:${(x + m.capital + 0.5) / span * 100}%"
                   title="P${side + 1} loses ${val} coins when the pawn enters this zone">−${val}</span>`;
      }
    });
    const lead = m.pawn === 0 ? "the pawn is on the centre" :
      `P${m.pawn > 0 ? 1 : 2} leads by ${Math.abs(m.pawn)} (${Math.max(...m.vp)} VP now; at the capital: military victory)`;
    return `<div class="military"><span class="cap-label" title="P1's capital">P1</span>
      <div class="track-wrap"><div class="track" style="grid-template-columns:repeat(${span},1fr)">${cells}</div>
      <div class="zones">${zones}</div><div class="mtokens">${toks}</div></div>
      <span class="cap-label" title="P2's capital">P2</span>
      <div class="mil-text muted">${esc(lead)}</div></div>`;
  }

  // ---------------------------------------------------------------- the Age layout
  function layout(v, ctx) {
    if (!v.layout) return "";
    if (v.layout.every((s) => s.face === "taken")) {
      return `<div class="muted centre-text">Every card of ${esc(v.age_name)} has been taken.</div>`;
    }
    const xs = v.layout.map((s) => s.x);
    const cols = Math.max(...xs) + 1;
    const avail = (ctx.width || 700) - 8;
    const gap = 4;
    const cw = Math.max(54, Math.min(100, Math.floor(avail / cols - gap)));
    const ch = Math.round(cw * 0.86 + 14);
    const step = Math.round(ch * 0.62);
    const rows = Math.max(...v.layout.map((s) => s.row)) + 1;
    const width = cols * (cw + gap);
    const height = (rows - 1) * step + ch + 4;
    let html = `<div class="layout" style="width:${width}px;height:${height}px;--cw:${cw}px;--ch:${ch}px">`;
    for (const s of v.layout) {
      if (s.face === "taken") continue;
      const style = `left:${s.x * (cw + gap)}px;top:${s.row * step}px;z-index:${s.row + 1}`;
      if (s.face === "back" || s.face === "guild_back") {
        const guild = s.face === "guild_back";
        html += `<div class="card back ${guild ? "guild" : `age${v.age}`}" style="${style}"
                   title="${guild ? "a guild, face down" : "a card of this Age, face down"}"><span>${guild ? "Guild" : ROMAN[v.age]}</span></div>`;
        continue;
      }
      const cls = [s.available ? "available" : "covered"];
      if (ctx.sel === s.card && ctx.interactive) cls.push("selected");
      let extra = "";
      if (s.available && s.price) {
        const p = s.price;
        const ptxt = p.chain ? "chain" : p.total === 0 ? "free" : `${p.total}`;
        extra += `<span class="price ${p.affordable ? "" : "dear"} ${p.chain ? "chain" : ""}" title="${esc(p.text)}">${esc(ptxt)}</span>`;
      }
      if (s.available && ctx.interactive && s.label) extra += `<kbd class="label">${esc(s.label)}</kbd>`;
      html += UI.face(s.card, card(s.card), cls.join(" "), `style="${style}"`, extra);
    }
    return html + "</div>";
  }

  // ---------------------------------------------------------------- a city
  function player(v, q, names, ctx) {
    const p = v.players[q];
    const mover = v.mover === q && !v.result;
    const who = names ? names[q] : "";
    const wonders = p.wonders.map((w) => {
      let extra = w.built ? `<span class="w-built" title="built">✓</span>` : "";
      if (!w.built && w.price) extra += `<span class="price ${w.price.affordable ? "" : "dear"}" title="${esc(w.price.text)}">${w.price.total}</span>`;
      return wonderFace(w.name, w.built ? "built" : "unbuilt", "", extra);
    }).join("") || `<span class="muted">no wonders yet</span>`;
    const city = meta().colours.map((c) => (p.city[c] || []).map(miniCard).join("")).join("")
      || `<span class="muted">no cards yet</span>`;
    const prod = Object.entries(p.production).filter(([, n]) => n).map(([r, n]) => UI.res(r, n)).join("");
    const sci = Object.entries(p.science).map(([s, n]) => UI.sci(s).repeat(n)).join("");
    const tokens = p.tokens.map((t) => tokenFace(t, "small")).join("");
    const vps = Object.entries(p.vp).filter(([, n]) => n).map(([k, n]) => `${UI.vpName(k, meta().vp_names)} ${n}`).join(", ");
    const destroy = ctx && ctx.destroyable ? ctx.destroyable : {};
    return `<div class="player ${mover ? "to-move" : ""}" id="player-${q + 1}" data-player="P${q + 1}">
      <h3>${esc(p.name)} <span class="pname">${esc(who)}</span>${mover ? ' <span class="badge">to move</span>' : ""}</h3>
      <div class="stats"><span class="coins" title="coins">${p.coins}</span>
        <span class="vp-total" title="${esc(vps)}">${p.total} VP</span>
        <span class="prod" title="production">${prod}</span><span class="scis" title="science symbols">${sci}</span></div>
      <div class="wonders">${wonders}</div>
      ${tokens ? `<div class="ptokens">${tokens}</div>` : ""}
      <div class="city">${city}</div>
      ${Object.keys(destroy).length ? "" : ""}
    </div>`;
  }

  // the tiles of a decision that is not the Age's cards: draft, tokens, destroy, revive, start
  function choices(v, ctx) {
    if (!ctx.interactive || !yourTurn(v) || v.phase === "play") return "";
    let tiles = "";
    for (const m of v.moves) {
      const lab = m.label ? `<kbd class="label">${esc(m.label)}</kbd>` : "";
      const attrs = `data-move="${m.id}" role="button" tabindex="0"`;
      if (m.kind === "pick") tiles += wonderFace(m.wonder, "choice-tile", attrs, lab);
      else if (m.kind === "token") tiles += tokenFace(m.token, "choice-tile", attrs).replace("</div>", `${lab}</div>`);
      else if (m.kind === "destroy" || m.kind === "revive") tiles += UI.face(m.card, card(m.card), "choice-tile", attrs, lab);
      else tiles += `<button class="choice-tile start" ${attrs}>${lab}${esc(m.player)} begins Age ${ROMAN[v.age + 1] || ""}</button>`;
    }
    return `<div class="choices"><div class="choices-head">${esc(v.pending)}</div><div class="choices-row">${tiles}</div></div>`;
  }

  function board(v, ctx) {
    const names = ctx.replay ? ctx.replay.players : v.players_names;
    const bt = v.board_tokens.map((t) => tokenFace(t)).join("") || `<span class="muted">none</span>`;
    const pile = v.discard_pile.map(miniCard).join("") || `<span class="muted">empty</span>`;
    let draft = "";
    if (v.phase === "draft" && v.draft.offer.length && !(ctx.interactive && yourTurn(v))) {
      draft = `<div class="draft"><div class="choices-head">Wonders in the draft</div><div class="choices-row">` +
        v.draft.offer.map((w) => wonderFace(w)).join("") + "</div></div>";
    }
    const width = ctx.width || (document.getElementById(ctx.replay ? "replay-board" : "game-board") || {}).clientWidth || 700;
    ctx.width = width;
    if (ctx.interactive) assignLabels(v, ctx);
    const you = v.you === "P2" ? 1 : 0;
    const order = ctx.replay ? [0, 1] : [1 - you, you];          // you at the bottom
    return `${military(v)}
      ${choices(v, ctx)}
      ${v.layout || draft ? `<div class="layout-wrap">${v.layout ? layout(v, ctx) : draft}</div>` : ""}
      <div class="players">${order.map((q) => player(v, q, names, ctx)).join("")}</div>
      <div class="board-foot"><div><h4>Progress tokens on the board</h4><div class="tokens-row">${bt}</div></div>
        <div><h4>Discard pile (${v.discard_pile.length})</h4><div class="pile">${pile}</div></div></div>`;
  }

  function assignLabels(g, ctx) {
    let i = 0;
    if (!yourTurn(g)) return;
    if (g.phase === "play" && g.layout) {
      for (const s of g.layout) {
        if (s.available && s.moves && s.moves.length) {
          s.label = UI.LABELS[i++];
          const name = s.card;
          ctx.keys[s.label] = () => select(name);
        }
      }
    } else {
      for (const m of g.moves) {
        m.label = UI.LABELS[i++];
        ctx.keys[m.label] = () => Shell.play({action: m.id});
      }
    }
  }

  function select(name) {
    Shell.sel = Shell.sel === name ? null : name;
    Shell.render();
  }

  // ---------------------------------------------------------------- the decision panel
  function moveButton(m, text) {
    const eff = effectText(m.effect);
    return `<button class="move" data-move="${m.id}" title="${esc(m.name)}">
      ${m.label ? `<kbd>${esc(m.label)}</kbd> ` : ""}<span class="m-text">${text || esc(m.name)}</span>
      ${m.note ? `<span class="note">${esc(m.note)}</span>` : ""}
      ${eff ? `<span class="effect">${esc(eff)}</span>` : ""}</button>`;
  }

  function pricesHtml(g) {
    const rows = g.layout.filter((s) => s.available && s.price).map((s) => {
      const p = s.price;
      return `<li class="${p.affordable ? "" : "dear"}" data-card="${esc(s.card)}">
        ${s.label ? `<kbd>${esc(s.label)}</kbd> ` : ""}<span class="chip ${s.colour}"></span>
        ${esc(s.card)}: <span class="price-text" data-card="${esc(s.card)}">${esc(p.text)}</span>
        ${p.affordable ? "" : '<span class="why-not">(not enough coins)</span>'}</li>`;
    }).join("");
    return rows ? `<h4 title="resources bought from the bank: units × coins per unit">Prices for you</h4>
      <ul class="prices">${rows}</ul>` : "";
  }

  function detail(kind, name) {
    let face, text;
    if (kind === "wonder") { face = wonderFace(name, "big"); text = `${wonder(name).text}. Cost: ${wonder(name).cost}.`; }
    else if (kind === "token") { face = tokenFace(name, "big"); text = meta().tokens[name]; }
    else {
      const c = card(name);
      face = UI.face(name, c, "big");
      text = `${c.text}. Cost: ${c.cost}.` + (c.chain_from ? ` Free with the ${c.chain_from} chain symbol.` : "")
        + (c.chain_gives ? ` Shows the ${c.chain_gives} chain symbol.` : "");
    }
    return `<div class="detail">${face}<div><h3>${esc(name)}</h3><p>${esc(text)}</p>
      <button id="cancel-sel" class="link">close <kbd>Esc</kbd></button></div></div>`;
  }

  function decision(g, ctx) {
    const sel = ctx.sel;
    if (sel && sel.startsWith("info:")) {
      const [, kind, name] = sel.split(":");
      return detail(kind, name);
    }
    if (g.result) return `<h3>The game is over</h3><p>Download the record, or replay it.</p>`;
    if (g.thinking) return `<h3>${esc(g.opponent_label)} is thinking…</h3>`;
    if (!yourTurn(g)) return g.paused ? `<h3>Paused</h3>` : `<h3>Waiting</h3>`;
    if (g.phase === "play") {
      if (!sel) {
        return `<h3>Your move</h3><p>${esc(g.pending)}${g.play_again ? " <b>(Play Again)</b>" : ""}.</p>
          <p class="muted">Tap an available card (or press its label) to see what you can do with it.</p>
          ${pricesHtml(g)}`;
      }
      const slot = g.layout.find((s) => s.card === sel);
      if (!slot) return "";
      const info = card(sel);
      const ms = slot.moves || [];
      const build = ms.find((m) => m.kind === "build");
      const discard = ms.find((m) => m.kind === "discard");
      const wonders = ms.filter((m) => m.kind === "wonder");
      let html = `<div class="detail">${UI.face(sel, info, "big")}<div><h3>${esc(sel)}</h3>
        <p class="muted">${esc(info.text)}</p>
        <p>Price for you: <b class="price-text" data-card="${esc(sel)}">${esc(slot.price.text)}</b></p></div></div>`;
      if (build) html += moveButton({...build, label: "B"}, `Build ${esc(sel)}`);
      else html += `<p class="why-not">Cannot build it: ${esc(slot.why_not_build || "not legal")}</p>`;
      if (discard) html += moveButton({...discard, label: "D"}, `Discard for coins`);
      wonders.forEach((m, i) => { html += moveButton({...m, label: String(i + 1)}, `Wonder: ${esc(m.wonder)} (with this card)`); });
      html += `<button id="cancel-sel" class="link">cancel <kbd>Esc</kbd></button>`;
      for (const k of Object.keys(ctx.keys)) delete ctx.keys[k];
      if (build) ctx.keys.b = () => Shell.play({action: build.id});
      if (discard) ctx.keys.d = () => Shell.play({action: discard.id});
      wonders.forEach((m, i) => { ctx.keys[String(i + 1)] = () => Shell.play({action: m.id}); });
      return html;
    }
    let html = `<h3>Your decision</h3><p>${esc(g.pending)}</p>`;
    for (const m of g.moves) {
      let text = esc(m.name);
      if (m.kind === "pick") text = `Pick <b>${esc(m.wonder)}</b> <span class="muted">${esc(wonder(m.wonder).text)}</span>`;
      if (m.kind === "token") text = `<b>${esc(m.token)}</b> <span class="muted">${esc(meta().tokens[m.token])}</span>`;
      if (m.kind === "start") text = `${esc(m.player)} begins the next Age`;
      if (m.kind === "destroy") text = `Destroy ${esc(m.card)}`;
      if (m.kind === "revive") text = `Build ${esc(m.card)} from the discard pile`;
      html += moveButton(m, text);
    }
    if (g.library_offer && g.library_offer.length) html += `<p class="muted">Drawn by The Great Library: ${esc(g.library_offer.join(", "))}</p>`;
    return html;
  }

  function onClick(ev, g) {
    const el = ev.target.closest("#game-board [data-card], #game-board [data-wonder], #game-board [data-token], #decision .prices li[data-card]");
    if (!el) return false;
    const name = el.dataset.card || el.dataset.wonder || el.dataset.token;
    const isAvail = el.matches(".card.available, .prices li");
    if (el.dataset.card && isAvail && yourTurn(g) && g.phase === "play") { select(name); return true; }
    const kind = el.dataset.card ? "card" : el.dataset.wonder ? "wonder" : "token";
    Shell.sel = `info:${kind}:${name}`;
    Shell.render();
    return true;
  }

  // ---------------------------------------------------------------- status, log, result
  function status(g) {
    if (g.result) return "Game over";
    if (g.paused) return `${g.age_name} · paused (the opponent goes on when you are back)`;
    if (g.thinking) return `${g.age_name} · ${g.to_move} to move`;
    if (g.to_move === g.you) return `${g.age_name} · your move (${g.you}): ${g.pending}${g.play_again ? " — Play Again" : ""}`;
    return `${g.age_name} · ${g.to_move} to move`;
  }

  function logHtml(g) {
    let age = null, html = "";
    for (const e of g.log) {
      if (e.age !== age) { age = e.age; html += `<li class="age-sep">${age ? "Age " + ROMAN[age] : "Wonder draft"}</li>`; }
      const ai = e.who !== "you";
      const who = ai ? g.opponent_label : "you";
      html += `<li class="${ai ? "ai" : "you"}" value="${e.n}"><span class="who">${esc(e.player)} (${esc(who)})</span>
        ${esc(e.name)} <span class="effect">${esc(effectText(e.effect))}</span>
        ${e.why ? `<div class="why">${esc(e.why)}</div>` : ""}
        ${(e.events || []).map((t) => `<div class="event">${esc(t)}</div>`).join("")}</li>`;
    }
    return html;
  }

  function result(v, ctx) {
    const r = v.result;
    const names = ctx.replay ? ctx.replay.players : v.players_names;
    const you = ctx.you ? (v.you === "P1" ? 0 : 1) : undefined;
    const w = r.winner;
    let head = w === null ? "Shared victory" : `P${w + 1}${names ? ` (${esc(names[w])})` : ""} wins — ${esc(r.victory)} victory`;
    if (you !== undefined && w !== null) head += w === you ? " — you win!" : " — you lose";
    const rows = Object.keys(r.vp).map((c) => `<tr><td>${esc(UI.vpName(c, meta().vp_names))}</td><td>${r.vp[c][0]}</td><td>${r.vp[c][1]}</td></tr>`).join("");
    return `<h2 class="result-head">${head}</h2>
      <p class="result-score" data-winner="${w === null ? "none" : w}" data-victory="${esc(r.victory)}">Final score:
         P1 <b class="result-total-p1">${r.total[0]}</b> – P2 <b class="result-total-p2">${r.total[1]}</b></p>
      <table class="vp-table score-sheet"><tr><th></th><th>P1</th><th>P2</th></tr>${rows}
      <tr class="total"><td>Total</td><td>${r.total[0]}</td><td>${r.total[1]}</td></tr></table>`;
  }

  // what the opponent's moves touched: highlighted on the board for a moment
  function touched(g, entries) {
    const out = [];
    for (const e of entries) {
      const t = e.touched;
      if (!t || e.who === "you") continue;
      if (t.card) out.push(`#player-${t.player === "P1" ? 1 : 2} [data-card="${CSS.escape(t.card)}"]`, `.pile [data-card="${CSS.escape(t.card)}"]`);
      if (t.wonder) out.push(`#player-${t.player === "P1" ? 1 : 2} [data-wonder="${CSS.escape(t.wonder)}"]`);
      if (t.token) out.push(`[data-token="${CSS.escape(t.token)}"]`);
      out.push(`#player-${t.player === "P1" ? 1 : 2}`);
    }
    return out;
  }

  function justHtml(g, entries) {
    const theirs = entries.filter((e) => e.who !== "you");
    if (!theirs.length) return "";
    return theirs.map((e) => `<div><b>${esc(e.player)} (${esc(g.opponent_label)})</b>: ${esc(e.name)}
      <span class="muted">${esc(effectText(e.effect))}</span>
      ${(e.events || []).map((t) => `<div class="event">${esc(t)}</div>`).join("")}</div>`).join("");
  }

  // ---------------------------------------------------------------- the new-game form
  function formHtml(gm, m) {
    const agents = m.agents.map((a) =>
      `<label title="${esc(a.text)}"><input type="radio" name="agent" value="${esc(a.name)}"
         data-budget="${esc(a.budget || "")}" ${a.strongest ? "checked" : ""}>
         <b>${esc(a.label)}</b> <span class="muted">— ${esc(a.text)}</span></label>`).join("");
    return `<fieldset><legend>Your seat</legend>
        <label><input type="radio" name="seat" value="1" checked> P1 (you begin)</label>
        <label><input type="radio" name="seat" value="2"> P2</label></fieldset>
      <fieldset><legend>Opponent</legend><div id="agent-choices">${agents}</div>
        <label class="budget">Thinking time per move:
          <input type="number" id="seconds" name="seconds" min="0.1" max="${m.max_seconds}" step="0.1" value="2"> seconds</label>
        <details><summary>Advanced: any agent description</summary>
          <input type="text" id="agent-spec" placeholder="e.g. mcts:iterations=20000,c=1.2"></details></fieldset>
      <fieldset><legend>Rules</legend>
        <label><input type="checkbox" id="first-game-wonders"> First-game wonders (no draft)</label>
        <label>Centred pawn at the end of an Age:
          <select id="centred-pawn"><option value="chooses">the last player chooses who begins</option>
            <option value="begins">the last player begins</option></select></label>
        <label>Starting coins: P1 <input type="number" id="coins-p1" min="0" max="99" value="7">
          P2 <input type="number" id="coins-p2" min="0" max="99" value="7"></label></fieldset>`;
  }

  function formInit() {
    const budget = () => {
      const a = document.querySelector("input[name=agent]:checked");
      document.querySelector(".budget").hidden = !(a && a.dataset.budget);
    };
    document.getElementById("agent-choices").addEventListener("change", budget);
    budget();
  }

  function formBody() {
    const $ = (id) => document.getElementById(id);
    const a = document.querySelector("input[name=agent]:checked");
    let opponent = $("agent-spec").value.trim();
    if (!opponent) {
      opponent = a.value;
      if (a.dataset.budget === "seconds") opponent += (opponent.includes(":") ? "," : ":") + `seconds=${Number($("seconds").value) || 1}`;
    }
    return {
      seat: Number(document.querySelector("input[name=seat]:checked").value), opponent,
      first_game_wonders: $("first-game-wonders").checked, centred_pawn: $("centred-pawn").value,
      start_coins: [Number($("coins-p1").value), Number($("coins-p2").value)],
    };
  }

  Shell.register("duel", {
    title: "7 Wonders Duel", hints: true, yourTurn, status, board, decision, logHtml, result,
    touched, justHtml, onClick, formHtml, formInit, formBody,
  });
})();
