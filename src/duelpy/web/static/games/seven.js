// duel serve: the view module of 7 Wonders (2..7 players; at 2 the Free City variant): your
// hand and city, the neighbours' cities, every payment offered when you trade, the turn's
// actions revealed together. Registered with the page's shell (app.js).
"use strict";
(function () {
  const Shell = window.Shell;
  const UI = Shell.UI;
  const esc = UI.esc;
  const gm = () => Shell.gmeta("seven");
  const card = (n) => gm().cards[n] || {};
  const ROMAN = ["", "I", "II", "III"];

  const mine = (g) => (g.decisions || []);
  const yourTurn = (g) => !g.result && mine(g).length > 0;

  // ---------------------------------------------------------------- a wonder board
  function stages(c, seatAttr) {
    if (!c.board) return "";
    const b = gm().boards[c.board];
    const list = b.sides[c.side].map((st, k) => `<div class="stage ${k < c.stages ? "built" : ""}" data-stage="${k}"
        title="${esc(`stage ${k + 1}: cost ${st.cost}; ${st.text}`)}">
        <div class="s-cost">${UI.cost(st.price)}</div><div class="s-eff">${UI.items(st.items)}</div>
        ${k < c.stages ? '<span class="w-built">✓</span>' : ""}</div>`).join("");
    return `<div class="wboard" ${seatAttr}><div class="wb-head"><b>${esc(c.board)} ${esc(c.side)}</b>
        <span class="muted">${esc(b.gloss)}</span> ${UI.res(b.resource)}</div><div class="stages">${list}</div></div>`;
  }

  function mini(name) {
    const c = card(name);
    return `<span class="mini ${esc(c.colour)}" data-card="${esc(name)}" title="${esc(`${name} — ${c.text}`)}">
      <span class="mini-name">${esc(name)}</span><span class="mini-eff">${UI.items(c.items)}</span></span>`;
  }

  function city(g, c, role) {
    const cards = gm().colours.map((col) => (c.cards[col] || []).map(mini).join("")).join("") || `<span class="muted">no cards yet</span>`;
    const sci = Object.entries(c.science).map(([s, n]) => UI.sci(s).repeat(n)).join("") + (c.wild ? `<i class="ic sci" title="any symbol">?</i>`.repeat(c.wild) : "");
    const mil = `<span class="mil" title="military tokens: ${c.military.vp} VP, ${c.military.defeats} defeat(s)">⚔ ${c.military.vp >= 0 ? "+" : ""}${c.military.vp}</span>`;
    const tag = role ? `<span class="badge ${role === "you" ? "" : "nb"}">${esc(role)}</span>` : "";
    const hand = c.hand_size ? `<span class="muted" title="cards in hand">hand ${c.hand_size}</span>` : "";
    const shown = c.hand && !c.you && c.hand.length      // a replay shows every hand
      ? `<div class="city replay-hand"><span class="muted">hand:</span> ${c.hand.map(mini).join("")}</div>` : "";
    return `<div class="player seven-city ${c.you ? "you-city" : ""}" data-seat-city="${c.seat}" id="city-${c.seat}">
      <h3>${esc(c.name)} ${tag}</h3>
      <div class="stats"><span class="coins" title="coins">${c.coins}</span>
        <span class="vp-total" title="VP if the game ended now">${c.vp.total} VP</span>
        <span class="shields" title="shields">${'<i class="ic shield"></i>'}${c.shields}</span> ${mil} ${hand}
        <span class="scis">${sci}</span></div>
      ${stages(c, "")}
      <div class="city">${cards}</div>${shown}</div>`;
  }

  // ---------------------------------------------------------------- your hand and the moves
  function payText(m) {
    if (!m.left && !m.right) return m.coins ? `pay ${m.coins} coin${m.coins > 1 ? "s" : ""} to the bank` : "free";
    const parts = [];
    if (m.left) parts.push(`${m.left} to the left`);
    if (m.right) parts.push(`${m.right} to the right`);
    return `pay ${parts.join(", ")}` + (m.coins > m.left + m.right ? ` + ${m.coins - m.left - m.right} to the bank` : "");
  }

  function moveButton(m, seat, label, text) {
    return `<button class="move" data-move="${m.id}" data-seat="${seat}" title="${esc(m.text)}">
      ${label ? `<kbd>${esc(label)}</kbd> ` : ""}<span class="m-text">${text}</span></button>`;
  }

  function handHtml(g, d, ctx) {
    const cards = d.cards.filter((x) => x.card !== null);
    const hali = d.cards.find((x) => x.card === null);
    if (hali) {                                          // Halikarnassus: the discard pile
      return `<div class="choices-row">` + hali.moves.map((m) => m.card
        ? UI.face(m.card, card(m.card), "choice-tile", `data-move="${m.id}" data-seat="${d.seat}" role="button"`)
        : `<button class="choice-tile start" data-move="${m.id}" data-seat="${d.seat}">take nothing</button>`).join("") + "</div>";
    }
    return `<div class="hand">` + cards.map((x) => {
      const key = `${d.seat}:${x.card}`;
      if (!x.moves.length) {                          // chosen for your other seat this turn
        return UI.face(x.card, card(x.card), "hand-card covered", `title="${esc(x.card)}: already chosen this turn"`,
          `<span class="price dear">chosen</span>`);
      }
      const label = ctx.interactive ? UI.LABELS[ctx.n++] : "";
      if (label) ctx.keys[label] = () => select(key);
      const canBuild = x.moves.some((m) => m.use === "build" || m.use === "free");
      const cheapest = x.moves.filter((m) => m.use === "build").reduce((a, m) => Math.min(a, m.coins), Infinity);
      const tagText = canBuild ? (cheapest === 0 || cheapest === Infinity ? "free" : `${cheapest}`) : "✕";
      const extra = `<span class="price ${canBuild ? "" : "dear"}" title="${canBuild ? "cheapest build, in coins" : esc("cannot build: " + (x.why_not || ""))}">${tagText}</span>` +
        (label ? `<kbd class="label">${esc(label)}</kbd>` : "");
      return UI.face(x.card, card(x.card), `hand-card available ${ctx.sel === key ? "selected" : ""}`,
        `data-seat="${d.seat}" data-key="${esc(key)}" role="button" tabindex="0"`, extra);
    }).join("") + "</div>";
  }

  function decisionFor(g, d, name, ctx) {
    const x = d.cards.find((c) => c.card === name);
    if (!x) return "";
    const info = card(name);
    let html = `<div class="detail">${UI.face(name, info, "big")}<div><h3>${esc(name)}</h3>
      <p class="muted">${esc(info.text)}. Cost: ${esc(info.cost)}.${info.chain_from.length ? ` Free if you hold ${esc(info.chain_from.join(" or "))}.` : ""}${info.chain_to.length ? ` Makes ${esc(info.chain_to.join(", "))} free.` : ""}</p></div></div>`;
    let k = 1;
    for (const k2 of Object.keys(ctx.keys)) delete ctx.keys[k2];
    const add = (m, text) => {
      const label = k <= 9 ? String(k++) : "";
      if (label) ctx.keys[label] = () => Shell.play({action: m.id, seat: d.seat});
      html += moveButton(m, d.seat, label, text);
    };
    const builds = x.moves.filter((m) => m.use === "build" || m.use === "free");
    const stagesM = x.moves.filter((m) => m.use === "stage");
    const disc = x.moves.filter((m) => m.use === "discard");
    if (builds.length) {
      html += `<h4>Build it</h4>`;
      for (const m of builds) add(m, m.use === "free" ? "Build it free (Olympia)" : `Build: ${esc(payText(m))}`);
    } else {
      html += `<p class="why-not">Cannot build it: ${esc(x.why_not || "not legal")}</p>`;
    }
    if (stagesM.length) {
      const c = g.cities[d.seat];
      html += `<h4>Build wonder stage ${c.stages + 1} with it (face down)</h4>`;
      for (const m of stagesM) add(m, `Stage ${c.stages + 1}: ${esc(payText(m))}`);
    }
    for (const m of disc) add(m, "Discard it for 3 coins");
    return html + `<button id="cancel-sel" class="link">cancel <kbd>Esc</kbd></button>`;
  }

  function select(key) {
    Shell.sel = Shell.sel === key ? null : key;
    Shell.render();
  }

  // ---------------------------------------------------------------- the board
  function board(v, ctx) {
    const you = v.cities.find((c) => c.you);
    const ring = v.cities;
    const n = ring.length;
    const order = [];
    if (you) {
      const left = ring[you.left], right = ring[you.right];
      order.push([left, "left neighbour"]);
      if (right.seat !== left.seat) order.push([right, "right neighbour"]);
      for (const c of ring) if (c !== you && c !== left && c !== right) order.push([c, ""]);
    } else {
      for (const c of ring) order.push([c, ""]);
    }
    const head = `<div class="age-bar"><b>${v.age ? `Age ${ROMAN[v.age]}` : "Set-up"}</b> · turn ${v.turn} of 6 ·
      hands pass ${v.age === 2 ? "right ▶" : "◀ left"} · ${v.players} players${v.free_city !== null ? " + the Free City" : ""}
      · discard pile ${v.discard_size}</div>`;
    let decisions = "";
    ctx.n = 0;
    if (ctx.interactive && you) {
      for (const d of mine(v)) {
        const fc = d.seat === v.free_city;
        const title = d.phase === "halikarnassus" ? `${esc(d.for)}: build a card of the discard pile for free`
          : d.phase === "seventh" ? `${esc(d.for)}: play the last card of the Age (Babylon)`
          : fc ? "The Free City's card (you run it this turn)" : "Your hand";
        decisions += `<div class="hand-box ${fc ? "fc" : ""}" data-seat="${d.seat}"><div class="choices-head">${title}</div>${handHtml(v, d, ctx)}</div>`;
      }
      const committed = Object.entries(v.committed || {});
      if (committed.length && !decisions) {
        decisions = `<div class="hand-box waiting"><div class="choices-head">You chose: ${committed.map(([s, t]) => esc(t)).join("; ")}</div>
          <p class="muted">Waiting for the other players (${v.waiting})… the actions are revealed together.</p></div>`;
      } else if (!decisions && you.hand && you.hand.length && !v.result) {
        decisions = `<div class="hand-box waiting"><div class="choices-head">Your hand</div><div class="hand">${you.hand.map((h) => UI.face(h, card(h))).join("")}</div></div>`;
      }
    }
    const others = order.map(([c, role]) => city(v, c, role)).join("");
    return `${head}${decisions}
      ${you ? `<div class="your-city">${city(v, you, "you")}</div>` : ""}
      <div class="cities cols-${Math.min(n, 3)}">${others}</div>`;
  }

  function decision(g, ctx) {
    const sel = ctx.sel;
    if (sel && sel.startsWith("stage:")) {
      const [, seat, k] = sel.split(":").map(Number);
      const c = g.cities[seat];
      const st = gm().boards[c.board].sides[c.side][k];
      return `<div class="detail"><div class="wboard"><div class="stage ${k < c.stages ? "built" : ""}">
          <div class="s-cost">${UI.cost(st.price)}</div><div class="s-eff">${UI.items(st.items)}</div></div></div>
        <div><h3>${esc(c.board)} ${esc(c.side)}, stage ${k + 1}${k < c.stages ? " (built)" : ""}</h3>
        <p>${esc(st.text)}. Cost: ${esc(st.cost)}.</p><button id="cancel-sel" class="link">close <kbd>Esc</kbd></button></div></div>`;
    }
    if (sel && sel.startsWith("info:")) {
      const name = sel.slice(5);
      const info = card(name);
      return `<div class="detail">${UI.face(name, info, "big")}<div><h3>${esc(name)}</h3><p>${esc(info.text)}. Cost: ${esc(info.cost)}.</p>
        <button id="cancel-sel" class="link">close <kbd>Esc</kbd></button></div></div>`;
    }
    if (g.result) return `<h3>The game is over</h3><p>Download the record, or replay it.</p>`;
    if (sel) {
      const [seat, name] = [Number(sel.split(":")[0]), sel.slice(sel.indexOf(":") + 1)];
      const d = mine(g).find((x) => x.seat === seat);
      if (d) return decisionFor(g, d, name, ctx);
    }
    if (yourTurn(g)) {
      const fc = mine(g).some((d) => d.seat === g.free_city);
      return `<h3>Your move</h3><p>Choose a card of your hand: build it, build a wonder stage with it, or discard it for 3 coins.
        ${fc ? " This turn you also choose the Free City's card (another card of the same hand)." : ""}</p>
        <p class="muted">Tap a card (or press its label) to see its payments: the coins go to your left and right neighbours.</p>`;
    }
    return `<h3>Waiting</h3><p class="muted">The other players are choosing (${g.waiting})…</p>`;
  }

  function onClick(ev, g) {
    const h = ev.target.closest("#game-board .hand-card[data-key]");
    if (h) { select(h.dataset.key); return true; }
    const c = ev.target.closest("#game-board [data-card]");
    if (c) { Shell.sel = `info:${c.dataset.card}`; Shell.render(); return true; }
    const st = ev.target.closest("#game-board [data-stage]");
    if (st) {
      const city = g.cities[Number(st.closest("[data-seat-city]").dataset.seatCity)];
      Shell.sel = `stage:${city.seat}:${st.dataset.stage}`;
      Shell.render();
      return true;
    }
    return false;
  }

  // a selected card stays selected while the other seats commit (nothing is shown of them)
  function keepSel(g, sel) {
    if (sel.startsWith("info:") || sel.startsWith("stage:")) return true;
    const seat = Number(sel.split(":")[0]), name = sel.slice(sel.indexOf(":") + 1);
    const d = mine(g).find((x) => x.seat === seat);
    return !!(d && d.cards.some((c) => c.card === name && c.moves.length));
  }

  function typedSeat(g) { const d = mine(g); return d.length ? d[0].seat : null; }

  // ---------------------------------------------------------------- status, log, result
  function status(g) {
    if (g.result) return "Game over";
    if (g.paused) return `Age ${ROMAN[g.age]} · paused`;
    const head = `Age ${ROMAN[g.age]}, turn ${g.turn}`;
    if (yourTurn(g)) return `${head} · your move`;
    if (Object.keys(g.committed || {}).length) return `${head} · waiting for the others`;
    return `${head} · the others are choosing`;
  }

  function logHtml(g) {
    let age = null, html = "";
    for (const e of g.log) {
      if (e.age !== age) { age = e.age; html += `<li class="age-sep">Age ${ROMAN[age]}</li>`; }
      const acts = e.actions.map((a) => `<div class="${a.who === "you" ? "you" : "ai"}"><span class="who">${esc(a.name)}</span>
        ${esc(a.text)}${a.coins ? ` <span class="effect">(${UI.signed(a.coins, "coins")})</span>` : ""}</div>`).join("");
      html += `<li value="${e.n}" class="turn"><div class="turn-head">${e.kind === "turn" ? `Turn ${e.turn}` : esc(e.kind)}</div>${acts}
        ${(e.events || []).map((t) => `<div class="event">${esc(t)}</div>`).join("")}</li>`;
    }
    return html;
  }

  function result(v, ctx) {
    const r = v.result;
    const names = v.cities.map((c) => c.name);
    const cats = Object.keys(gm().vp_names).filter((c) => c !== "total");
    const you = v.cities.findIndex((c) => c.you);
    const won = r.winners.map((w) => names[w]).join(" and ");
    let head = `${esc(won)} win${r.winners.length > 1 || r.winners[0] === you ? "" : "s"}`;
    if (you >= 0) head += r.winners.includes(you) ? " — you win!" : " — you lose";
    const short = (c) => c.you ? "You" : c.free_city ? "FC" : `P${c.seat + 1}`;
    const th = v.cities.map((c, i) => `<th class="${r.winners.includes(i) ? "winner" : ""}" title="${esc(c.name)}">${esc(short(c))}</th>`).join("");
    const rows = cats.map((c) => `<tr><td>${esc(gm().vp_names[c])}</td>${r.scores.map((s) => `<td>${s[c]}</td>`).join("")}</tr>`).join("");
    return `<h2 class="result-head">${head}</h2>
      <p class="result-score" data-winners="${r.winners.join(",")}">Final score: ${r.scores.map((s, i) => `${esc(names[i])} <b class="result-total" data-seat="${i}">${s.total}</b>`).join(" · ")}</p>
      <div class="sheet-wrap"><table class="vp-table score-sheet"><tr><th></th>${th}</tr>${rows}
      <tr class="total"><td>Total</td>${r.scores.map((s) => `<td>${s.total}</td>`).join("")}</tr></table></div>`;
  }

  function touched(g, entries) {
    const out = [];
    for (const e of entries) {
      for (const a of e.actions || []) {
        if (a.who === "you") continue;
        out.push(`#city-${a.seat}`);
        if (a.card && a.use !== "discard") out.push(`#city-${a.seat} [data-card="${CSS.escape(a.card)}"]`);
        if (a.use === "stage") out.push(`#city-${a.seat} .stage.built:last-of-type`, `#city-${a.seat} .stage.built`);
      }
    }
    return out;
  }

  function justHtml(g, entries) {
    return entries.map((e) => `<div><b>${e.kind === "turn" ? `Age ${ROMAN[e.age]}, turn ${e.turn} revealed` : esc(e.kind)}</b>:
      ${e.actions.map((a) => `${esc(a.name)} ${esc(a.text)}`).join("; ")}
      ${(e.events || []).filter((t) => !/passed on/.test(t)).map((t) => `<div class="event">${esc(t)}</div>`).join("")}</div>`).join("");
  }

  // ---------------------------------------------------------------- the new-game form
  function formHtml(g) {
    const counts = g.players.map((n) => `<option value="${n}" ${n === g.default_players ? "selected" : ""}>${n}${n === 2 ? " (with the Free City)" : ""}</option>`).join("");
    const agents = g.agents.map((a) => `<label title="${esc(a.text)}"><input type="radio" name="s-agent" value="${esc(a.spec)}" ${a.spec === g.default_opponent ? "checked" : ""}>
        <b>${esc(a.label)}</b> <span class="muted">— ${esc(a.text)}</span></label>`).join("");
    return `<fieldset><legend>Players</legend>
        <label>Players: <select id="s-players">${counts}</select></label>
        <label>Your seat: <select id="s-seat"></select></label>
        <p class="muted">You play one seat; the AI plays every other one.</p></fieldset>
      <fieldset><legend>Opponents</legend>${agents}
        <label class="budget">MCTS iterations per decision: <input type="number" id="s-iterations" min="10" max="${g.max_iterations}" step="10" value="1000"></label></fieldset>
      <fieldset><legend>Rules</legend>
        <label>Wonder sides: <select id="s-sides"><option value="random">random (the rules)</option>
          <option value="A">all A</option><option value="B">all B</option></select></label></fieldset>`;
  }

  const formInit = UI.seatFormInit;

  function formBody() {
    return {...UI.seatFormBody(), sides: document.getElementById("s-sides").value};
  }

  Shell.register("seven", {
    title: "7 Wonders", hints: false, yourTurn, status, board, decision, logHtml, result,
    touched, justHtml, onClick, formHtml, formInit, formBody, typedSeat, keepSel,
  });
})();
