"""Text rendering of an Architects position: the decks (sizes and visible tops), the central
deck, the progress tokens, the conflict tokens and the cat, then every seat's wonder, stages,
tableau, tokens, shields and military tokens, and the turn in progress.

A viewer (a seat) sees the central top only if it looked at it as a cat holder while it
stayed on top (A-CAT-4), and a Halicarnassus window only if it is its own (A-INFO-3);
without a viewer everything is shown.
"""
from __future__ import annotations

from duelcore.architects import engine as _core
from duelcore.architects import data as _data

__all__ = ["render_text"]

_PHASE_TEXT = {"main": "main pick", "pick": "extra pick", "set": "science set",
               "token": "progress token", "stage": "stage to build", "pay": "payment",
               "alexandria": "Alexandria's deck", "ephesus": "Ephesus's power",
               "hali_deck": "Halicarnassus's deck", "hali_keep": "Halicarnassus's card",
               "order": "what to resolve next", "chance": "chance", "over": "over"}


def _cards(d: dict) -> str:
    by: dict = {}
    for k in _data.KINDS:
        if d.get(k):
            by.setdefault(_data.COLOURS[k], []).append(f"{k}" + (f" x{d[k]}" if d[k] > 1 else ""))
    return "; ".join(f"{c}: {', '.join(v)}" for c, v in by.items()) or "-"


def render_text(state: _core.State, seat: int | None = None) -> str:
    """The position as plain text, as ``seat`` may see it (None: everything)."""
    n = state.players
    lines = [f"7 Wonders Architects, {n} players, turn {state.turns}"]
    if state.is_terminal():
        lines[0] += ": game over"
    else:
        who = f"P{state.active + 1} ({state.wonder(state.active) or '?'})"
        lines[0] += f", {who} to play: {_PHASE_TEXT.get(state.phase, state.phase)}"
    opts = [k for k, v in state.options.items() if v != _core.RULE_DEFAULTS[k]]
    if opts or state.removed_tokens():
        lines.append("options: " + ", ".join(
            [f"{k}={state.options[k]}" for k in opts]
            + ([f"without {', '.join(state.removed_tokens())}"] if state.removed_tokens()
               else [])))
    top = state.central_top(seat)
    knowers = state.knowers()
    ctext = f"central deck: {state.deck_size(_core.CENTRAL)} cards, top face down"
    if top is not None:
        ctext += f" (known: {top}" + (f"; P{', P'.join(str(k + 1) for k in knowers)} know it"
                                      if seat is None else "") + ")"
    elif knowers:
        ctext += f" (P{', P'.join(str(k + 1) for k in knowers)} looked at it)"
    lines.append(ctext)
    row = state.row()
    lines.append("progress tokens: face up " + (", ".join(
        f"{t}" + (f" x{c}" if c > 1 else "") for t, c in row.items()) or "none")
        + f"; stack {sum(state.stack().values())}")
    in_play, turned, battle = state.conflict()
    cat = state.cat
    lines.append(f"conflict: {turned} of {in_play} tokens on battle"
                 + (" (battle at the end of this turn)" if battle else "")
                 + f"; cat: {'middle' if cat is None else f'P{cat + 1}'}")
    scores = state.scores()
    for i in range(n):
        w = state.wonder(i) or "?"
        stages = state.stages(i)
        head = (f"P{i + 1} {w}: stages {' '.join(stages) or '-'} "
                f"({scores[i]['wonder']} VP), shields {state.shields(i)}, military tokens "
                f"{state.military_tokens(i)}, {scores[i]['total']} VP")
        if not state.is_terminal() and i == state.active:
            head = "> " + head
        lines.append(head)
        d = state.deck_top(i) if state.deck_size(i) else None
        lines.append(f"    deck: {state.deck_size(i)} cards"
                     + (f", top {d}" if d else "") + f" (between P{i + 1} and "
                     f"P{(i + 1) % n + 1})")
        lines.append(f"    cards: {_cards(state.tableau(i))}")
        toks = state.tokens(i)
        if toks:
            lines.append("    tokens: " + ", ".join(
                t + (f" x{c}" if c > 1 else "") for t, c in toks.items()))
    if not state.is_terminal():
        extra = []
        if state.pending():
            extra.append("pending picks: " + ", ".join(state.pending()))
        if state.used():
            extra.append("used this turn: " + ", ".join(state.used()))
        if state.stage_choice:
            extra.append(f"paying {state.stage_choice}")
        win = state.window()
        if win and (seat is None or seat == state.active):
            extra.append("window: " + ", ".join(
                k + (f" x{c}" if c > 1 else "") for k, c in win.items()))
        if extra:
            lines.append("; ".join(extra))
    else:
        w = state.winners()
        lines.append("scores: " + ", ".join(f"P{i + 1} {s['total']}" for i, s in
                                             enumerate(scores))
                     + "; winner" + ("s" if len(w) > 1 else "") + " "
                     + ", ".join(f"P{x + 1}" for x in w))
    return "\n".join(lines)
