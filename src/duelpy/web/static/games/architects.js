// duel serve: the view module of 7 Wonders Architects (2..7 players): the decks on the table
// (your left and right decks' face-up tops, the central deck face down), the progress tokens,
// the conflict tokens and the cat, every seat's wonder, cards, tokens and VP, and your
// decisions as buttons named as the core names them. A tap on a card, a progress token, a
// wonder stage or a deck opens a sheet with its rule text (the server's, cited by rule id):
// phones have no hover. Registered with the shell (app.js).
"use strict";
(function () {
  const Shell = window.Shell;
  const UI = Shell.UI;
  const esc = UI.esc;
  const gm = () => Shell.gmeta("architects");

  // the card kinds as the page writes them (words only: what a kind does is the core's)
  const KIND = {wood: "wood", stone: "stone", clay: "clay", glass: "glass", papyrus: "papyrus",
    coin: "coin", blue3: "3 VP", blue2cat: "2 VP + cat", tablet: "tablet", gear: "gear",
    compass: "compass", red0: "shield", red1: "shield, 1 horn", red2: "shield, 2 horns"};
  const GLYPH = {tablet: "▤", gear: "⚙", compass: "⊕", coin: "◉", red0: "⚔", red1: "⚔", red2: "⚔",
    blue3: "★", blue2cat: "★"};
  const colour = (k) => (gm().colours || {})[k] || "";
  // the rule texts of the sheet, from the server (arch_catalogue's texts: {text, rules})
  const texts = () => gm().texts || {};
  const textOf = (group, name) => (texts()[group] || {})[name] || null;
  const hover = (e) => (e ? ` — ${e.text}` : "");
  const chip = (k, n, cls = "") => `<span class="ar-card ${esc(colour(k))} ${cls}" data-kind="${esc(k)}" title="${esc((KIND[k] || k) + hover(textOf("kinds", k)))}">${GLYPH[k] ? `<b>${esc(GLYPH[k])}</b> ` : ""}${esc(KIND[k] || k)}${n > 1 ? ` <span class="ar-n">×${n}</span>` : ""}</span>`;

  const mine = (g) => g.decisions || [];
  const yourTurn = (g) => !g.result && mine(g).length > 0;

  // ---------------------------------------------------------------- a seat
  function stages(s) {
    return `<div class="ar-stages">` + s.stages.map((st, k) => `<div class="ar-stage ${st.built ? "built" : ""} ${st.available && !st.built ? "open" : ""}"
        data-seat="${s.seat}" data-stage="${k}" title="${esc(`${st.stage}: ${st.units} ${st.identical ? "identical" : "different"} resources, ${st.vp} VP${st.power ? ", a power" : ""}${st.built ? " (built)" : st.available ? " (can be built next)" : ""}`)}">
        <b>${esc(st.stage)}</b><span>${st.units} ${st.identical ? "same" : "diff."}</span>
        <span>${st.vp} VP${st.power ? " ★" : ""}</span>${st.built ? '<span class="w-built">✓</span>' : ""}</div>`).join("") + `</div>`;
  }

  function tableau(s) {
    const groups = {};
    for (const [k, n] of Object.entries(s.tableau)) (groups[colour(k)] = groups[colour(k)] || []).push(chip(k, n));
    const order = ["grey", "yellow", "green", "red", "blue"];
    const html = order.filter((c) => groups[c]).map((c) => groups[c].join("")).join("");
    return html || `<span class="muted">no cards yet</span>`;
  }

  const token = (t, n) => `<span class="ar-token" data-token="${esc(t)}" title="${esc(`progress token ${t}${hover(textOf("tokens", t))}`)}">${esc(t)}${n > 1 ? ` ×${n}` : ""}</span>`;

  function seat(v, s, role) {
    const vp = s.vp;
    const cats = Object.keys(gm().vp_names).filter((c) => c !== "total");
    const toks = Object.entries(s.tokens).map(([t, n]) => token(t, n)).join("");
    const tag = role ? `<span class="badge ${s.you ? "" : "nb"}">${esc(role)}</span>` : "";
    const active = v.active === s.seat ? `<span class="badge to-play">to play</span>` : "";
    return `<div class="player ar-seat ${s.you ? "you-city" : ""} ${v.active === s.seat ? "to-move" : ""}" id="arch-seat-${s.seat}" data-seat="${s.seat}">
      <h3>${esc(s.name)} ${tag} ${active} ${s.cat ? '<span class="badge ar-cat" title="holds the cat">the cat</span>' : ""}</h3>
      <div class="stats"><b class="ar-wonder">${esc(s.wonder || "?")}</b>
        <span class="vp-total" title="VP if the game ended now">${vp.total} VP</span>
        <span class="shields" title="shields (horns included in the battle)">⚔ ${s.shields}</span>
        <span class="mil" title="military victory tokens">${s.military_tokens} military token${s.military_tokens === 1 ? "" : "s"}</span></div>
      ${stages(s)}
      <div class="city ar-tableau">${tableau(s)}</div>
      ${toks ? `<div class="ar-tokens">${toks}</div>` : ""}
      <div class="ar-vp muted">VP: ${cats.map((c) => `${esc(gm().vp_names[c].toLowerCase())} <b>${vp[c]}</b>`).join(" · ")}</div></div>`;
  }

  // ---------------------------------------------------------------- the table
  function deckTile(v, d, label, you) {
    const top = d.top ? chip(d.top, 1, "ar-top") : `<span class="muted">empty</span>`;
    return `<div class="ar-deck ${you ? "yours" : ""}" data-deck="${d.deck}"><div class="ar-deck-head">${esc(label)}</div>
      ${d.size ? top : `<span class="muted">empty</span>`}<div class="muted">${d.size} card${d.size === 1 ? "" : "s"}</div></div>`;
  }

  function centralTile(v) {
    const c = v.central;
    const looked = c.looked.map((i) => v.seats[i].you ? "you" : `P${i + 1}`).join(", ");
    const replay = !v.seats.some((s) => s.you);          // a replay: the record shows all
    const top = c.top ? `${chip(c.top, 1, "ar-top")}<div class="muted">${replay ? "face down in play" : "you looked at it"}</div>`
      : `<span class="ar-card back" title="face down">?</span>`;
    return `<div class="ar-deck central" data-deck="central"><div class="ar-deck-head">Central deck</div>
      ${c.size ? top : `<span class="muted">empty</span>`}<div class="muted">${c.size} cards${looked && !c.top ? ` · ${esc(looked)} looked` : ""}</div></div>`;
  }

  function table(v) {
    const you = v.seats.find((s) => s.you);
    const n = v.players;
    const who = (d) => `P${d.between[0] + 1}–P${d.between[1] + 1}`;
    let decks = "";
    if (you) {
      const L = v.decks[you.left_deck], R = v.decks[you.right_deck];
      decks = deckTile(v, L, "Your left deck", true) + centralTile(v) + deckTile(v, R, "Your right deck", true);
    } else {
      decks = centralTile(v);
    }
    const others = v.decks.filter((d) => !you || (d.deck !== you.left_deck && d.deck !== you.right_deck))
      .map((d) => `<span class="ar-other-deck" data-deck="${d.deck}" title="the deck between ${esc(v.seats[d.between[0]].name)} and ${esc(v.seats[d.between[1]].name)}">${who(d)}: ${d.size ? chip(d.top, 1) : "empty"} <span class="muted">${d.size}</span></span>`).join("");
    const row = Object.entries(v.row).map(([t, k]) => token(t, k)).join("") || `<span class="muted">none face up</span>`;
    const c = v.conflict;
    const conflict = Array.from({length: c.in_play}, (_, i) => `<span class="ar-conflict ${i < c.turned ? "turned" : ""}" title="${i < c.turned ? "turned to the battle side" : "peace side"}">${i < c.turned ? "⚔" : "☮"}</span>`).join("");
    const disc = Object.values(v.discard || {}).reduce((a, b) => a + b, 0);
    return `<div class="ar-table">
      <div class="ar-decks">${decks}</div>
      ${others ? `<div class="ar-others muted">Other decks (top, size): ${others}</div>` : ""}
      <div class="ar-line"><b>Progress tokens:</b> ${row} <span class="muted">· stack ${v.stack}</span></div>
      <div class="ar-line"><b>Conflict:</b> ${conflict} <span class="muted">${c.turned} of ${c.in_play} turned${c.battle ? " · battle at the end of this turn" : ""}</span></div>
      <div class="ar-line muted">Cat: ${v.cat === null ? "in the middle" : esc(v.seats[v.cat].name)} · discard pile ${disc} card${disc === 1 ? "" : "s"}${n === 2 ? " · 2 players" : ""}</div></div>`;
  }

  function decisionsBox(v, ctx) {
    if (!ctx.interactive || !yourTurn(v)) return "";
    let k = 0;
    const buttons = mine(v).map((m) => {
      const label = UI.LABELS[k++] || "";
      if (label) ctx.keys[label] = () => Shell.play({action: m.id});
      return `<button class="move ar-move" data-move="${m.id}" title="${esc(m.text)}">${label ? `<kbd class="label">${esc(label)}</kbd> ` : ""}<span class="m-text">${esc(m.text)}</span></button>`;
    }).join("");
    const win = Object.entries(v.window || {});
    const winHtml = win.length ? `<div class="ar-line">The cards you found: ${win.map(([kk, n]) => chip(kk, n)).join("")}</div>` : "";
    const extra = [v.pending && v.pending.length ? `pending picks: ${v.pending.join(", ")}` : "",
      v.stage_choice ? `paying ${v.stage_choice}` : ""].filter(Boolean).join(" · ");
    return `<div class="hand-box ar-decide"><div class="choices-head">Your decision: ${esc(v.phase_text)}</div>
      ${extra ? `<div class="muted">${esc(extra)}</div>` : ""}${winHtml}<div class="ar-moves">${buttons}</div></div>`;
  }

  function board(v, ctx) {
    const you = v.seats.find((s) => s.you);
    const act = v.active !== null && v.active !== undefined ? v.seats[v.active] : null;
    const head = `<div class="age-bar"><b>7 Wonders Architects</b> · turn ${v.turn} · ${v.players} players${act ? ` · ${esc(act.name)} to play (${esc(v.phase_text)})` : ""}</div>`;
    const others = v.seats.filter((s) => s !== you);
    // the others in table order from your left neighbour on
    if (you) others.sort((a, b) => ((a.seat - you.seat + v.players) % v.players) - ((b.seat - you.seat + v.players) % v.players));
    return `${head}${decisionsBox(v, ctx)}${table(v)}
      ${you ? `<div class="your-city">${seat(v, you, "you")}</div>` : ""}
      <div class="cities cols-${Math.min(others.length, 3)}">${others.map((s) => seat(v, s, "")).join("")}</div>`;
  }

  // ---------------------------------------------------------------- the sheet: a tap shows the text
  const para = (e) => (e && e.text ? `<p class="ar-text">${esc(e.text)} <span class="muted ar-rules">(${esc(e.rules.join(", "))})</span></p>` : "");
  const close = `<button id="cancel-sel" class="link">close <kbd>Esc</kbd></button>`;
  const sheet = (face, title, body) => `<div class="detail ar-detail" data-info="${esc(Shell.sel || "")}"><div class="ar-face">${face}</div>
      <div><h3>${title}</h3>${body}${close}</div></div>`;

  function kindSheet(k) {
    const e = textOf("kinds", k);
    const off = e && e.sets_off && e.sets_off.length
      ? `<p class="muted">Taking it sets off ${e.sets_off.map(esc).join(", ")}: an extra card, if you own that token.</p>` : "";
    return sheet(chip(k, 1, "ar-top"), `${esc(KIND[k] || k)} <span class="muted">(${esc(k)}, ${esc(colour(k))})</span>`, para(e) + off);
  }

  function tokenSheet(t) {
    return sheet(`<span class="ar-token ar-big">${esc(t)}</span>`, `Progress token: ${esc(t)}`, para(textOf("tokens", t)));
  }

  function stageSheet(g, seatNo, k) {
    const s = g.seats[seatNo];
    const st = s && s.stages[k];
    if (!st) return "";
    const w = s.wonder;
    const p = w ? textOf("powers", w) : null;
    const needs = w && gm().wonders[w] ? gm().wonders[w][k].needs : [];
    const state = st.built ? "built" : st.available ? "can be built next" : needs.length ? `needs ${needs.join(" and ")} first` : "not built";
    let body = `<p><b>Cost:</b> ${st.units} ${st.identical ? "identical" : "different"} resources · <b>${st.vp} VP</b> · ${esc(state)}</p>`
      + para(textOf("stages", st.identical ? "identical" : "different"));
    if (p && st.power) {
      body += `<h4>Power: ${esc(p.title)}</h4>${para(p)}${para(textOf("stages", "power"))}`;
    } else if (p && !p.stages.length) {
      body += `<h4>${esc(p.title)}</h4>${para(p)}`;
    } else if (p) {
      body += `<p class="muted">No power on this stage: ${esc(w)}'s power (${esc(p.title)}) is on ${esc(p.stages.join(" and "))}.</p>`;
    }
    body += para(textOf("stages", "build"));
    const face = `<div class="ar-stage ${st.built ? "built" : ""}"><b>${esc(st.stage)}</b><span>${st.units} ${st.identical ? "same" : "diff."}</span><span>${st.vp} VP${st.power ? " ★" : ""}</span></div>`;
    return sheet(face, `${esc(s.name)}: ${esc(w || "?")}, stage ${esc(st.stage)}`, body);
  }

  function deckSheet(g, id) {
    const you = g.seats.find((s) => s.you);
    let role, title, size, top, face;
    if (id === "central") {
      role = "central"; title = "The central deck";
      size = g.central.size; top = g.central.top;
      face = top ? chip(top, 1, "ar-top") : `<span class="ar-card back">?</span>`;
    } else {
      const d = g.decks[Number(id)];
      if (!d) return "";
      role = you && d.deck === you.left_deck ? "left" : you && d.deck === you.right_deck ? "right" : "other";
      const owner = g.seats[d.deck];
      const between = `${esc(g.seats[d.between[0]].name)} and ${esc(g.seats[d.between[1]].name)}`;
      title = {left: "Your left deck", right: "Your right deck", other: `The deck between ${between}`}[role]
        + ` <span class="muted">(${esc(owner.wonder || "?")}'s deck)</span>`;
      size = d.size; top = d.size ? d.top : null;
      face = top ? chip(top, 1, "ar-top") : `<span class="muted">empty</span>`;
    }
    let body = para(textOf("decks", role));
    if (role !== "other") body += para(textOf("decks", "take"));
    body += `<p><b>${size} card${size === 1 ? "" : "s"}</b>${size ? "" : " · empty to the end of the game"}</p>`;
    if (top) {
      const note = role === "central" ? " (you looked at it as the cat's holder)" : "";
      body += `<h4>Its top card${note}: ${esc(KIND[top] || top)}</h4>${para(textOf("kinds", top))}`;
    }
    return sheet(face, title, body);
  }

  function infoSheet(g, sel) {
    const [, what, a, b] = sel.split(":");
    if (what === "kind") return kindSheet(a);
    if (what === "token") return tokenSheet(a);
    if (what === "stage") return stageSheet(g, Number(a), Number(b));
    if (what === "deck") return deckSheet(g, a);
    return "";
  }

  // a tap on a deck, a wonder stage, a progress token or a card opens its sheet; the
  // decision buttons are the shell's ([data-move] is handled before this is asked)
  function onClick(ev, g) {
    if (ev.target.closest("button, [data-move], a, input, select, label")) return false;
    const deck = ev.target.closest("#game-board [data-deck]");
    const stage = ev.target.closest("#game-board .ar-stage[data-stage]");
    const tok = ev.target.closest("#game-board .ar-token[data-token]");
    const kind = ev.target.closest("#game-board [data-kind]");
    let sel = null;
    if (deck) sel = `info:deck:${deck.dataset.deck}`;
    else if (stage) sel = `info:stage:${stage.dataset.seat}:${stage.dataset.stage}`;
    else if (tok) sel = `info:token:${tok.dataset.token}`;
    else if (kind) sel = `info:kind:${kind.dataset.kind}`;
    if (!sel) return false;
    Shell.sel = sel;
    Shell.render();
    return true;
  }

  function decision(g, ctx) {
    if (ctx.sel && ctx.sel.startsWith("info:")) {
      const html = infoSheet(g, ctx.sel);
      if (html) return html;
    }
    if (g.result) return `<h3>The game is over</h3><p>Download the record, or replay it.</p>`;
    if (yourTurn(g)) {
      return `<h3>Your move</h3><p>${esc(g.phase_text)}: choose one of the buttons on the board (or press its label, or type its name below).</p>
        <p class="muted">Tap a card, a progress token, a wonder stage or a deck to read what it does.</p>
        <p class="muted">Your left and right decks show their top card; the central deck's top stays face down unless you looked at it as the cat's holder and it is still on top.
        There is no undo: each card taken turns up a hidden one.</p>`;
    }
    return `<h3>Waiting</h3><p class="muted">${g.active !== null ? esc(g.seats[g.active].name) : "The others"} ${g.paused ? "(paused)" : "is choosing"}…</p>`;
  }

  function status(g) {
    if (g.result) return "Game over";
    if (g.paused) return `Turn ${g.turn} · paused`;
    if (yourTurn(g)) return `Turn ${g.turn} · your move`;
    return `Turn ${g.turn} · ${g.active !== null ? g.seats[g.active].name : "the others"} to play`;
  }

  function logHtml(g) {
    return g.log.map((e) => `<li value="${e.n}" class="${e.who === "you" ? "you" : "ai"}"><span class="who">${esc(e.name)}</span> ${esc(e.text)}
      ${(e.events || []).map((t) => `<div class="event">${esc(t)}</div>`).join("")}</li>`).join("");
  }

  function result(v, ctx) {
    const r = v.result;
    const names = v.seats.map((s) => s.name);
    const cats = Object.keys(gm().vp_names).filter((c) => c !== "total");
    const you = v.seats.findIndex((s) => s.you);
    const won = r.winners.map((w) => names[w]).join(" and ");
    let head = `${esc(won)} win${r.winners.length > 1 || r.winners[0] === you ? "" : "s"}`;
    if (you >= 0) head += r.winners.includes(you) ? " — you win!" : " — you lose";
    const short = (s) => s.you ? "You" : `P${s.seat + 1}`;
    const th = v.seats.map((s, i) => `<th class="${r.winners.includes(i) ? "winner" : ""}" title="${esc(s.name)} (${esc(s.wonder)})">${esc(short(s))}</th>`).join("");
    const rows = cats.map((c) => `<tr><td>${esc(gm().vp_names[c])}</td>${r.scores.map((s) => `<td>${s[c]}</td>`).join("")}</tr>`).join("");
    return `<h2 class="result-head">${head}</h2>
      <p class="result-score" data-winners="${r.winners.join(",")}">Final score: ${r.scores.map((s, i) => `${esc(names[i])} <b class="result-total" data-seat="${i}">${s.total}</b>`).join(" · ")}</p>
      <div class="sheet-wrap"><table class="vp-table score-sheet"><tr><th></th>${th}</tr>${rows}
      <tr class="total"><td>Total</td>${r.scores.map((s) => `<td>${s.total}</td>`).join("")}</tr>
      <tr><td>Place</td>${r.ranking.map((p) => `<td>${p}</td>`).join("")}</tr></table></div>`;
  }

  function touched(g, entries) {
    return entries.filter((e) => e.who !== "you").map((e) => `#arch-seat-${e.seat}`);
  }

  function justHtml(g, entries) {
    return entries.filter((e) => e.who !== "you").slice(-6).map((e) => `<div><b>${esc(e.name)}</b>: ${esc(e.text)}
      ${(e.events || []).map((t) => `<div class="event">${esc(t)}</div>`).join("")}</div>`).join("");
  }

  // ---------------------------------------------------------------- the new-game form
  function formHtml(g) {
    const counts = g.players.map((n) => `<option value="${n}" ${n === g.default_players ? "selected" : ""}>${n}</option>`).join("");
    const agents = g.agents.map((a) => `<label title="${esc(a.text)}"><input type="radio" name="s-agent" value="${esc(a.spec)}" ${a.spec === g.default_opponent ? "checked" : ""}>
        <b>${esc(a.label)}</b></label>`).join("");
    const wonders = Object.keys(g.wonders).map((w) => `<option value="${esc(w)}">${esc(w)}</option>`).join("");
    const opts = g.rule_options.map((o) => `<label><input type="checkbox" class="a-opt" data-opt="${esc(o.name)}" ${o.default ? "checked" : ""}> ${esc(o.text)}</label>`).join("");
    return `<fieldset><legend>Players</legend>
        <label>Players: <select id="s-players">${counts}</select></label>
        <label>Your seat: <select id="s-seat"></select></label>
        <label>Your wonder: <select id="a-wonder"><option value="">at random</option>${wonders}</select></label>
        <p class="muted">You play one seat; the AI plays every other one. P1 begins.</p></fieldset>
      <fieldset><legend>Opponents</legend>${agents}
        <label class="budget">MCTS iterations per decision: <input type="number" id="s-iterations" min="10" max="${g.max_iterations}" step="10" value="1000"></label></fieldset>
      <fieldset><legend>Rules</legend><details><summary>Rule options (A-OPT)</summary>${opts}</details></fieldset>`;
  }

  const formInit = UI.seatFormInit;

  function formBody() {
    const $ = (id) => document.getElementById(id);
    const body = UI.seatFormBody();
    if ($("a-wonder").value) body.wonder = $("a-wonder").value;
    for (const el of document.querySelectorAll("#game-fields .a-opt")) body[el.dataset.opt] = el.checked;
    return body;
  }

  Shell.register("architects", {
    title: "7 Wonders Architects", hints: false, noUndo: true,
    movePlaceholder: "take left, take central, pay wood, coin, token Economy…",
    yourTurn, status, board, decision, logHtml, onClick,
    result, touched, justHtml, formHtml, formInit, formBody,
    keepSel: (g, sel) => sel.startsWith("info:"),        // a sheet stays open as the game moves
    typedSeat: () => null,
  });
})();
