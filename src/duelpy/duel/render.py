"""Drawing a position: the Age layout as the pyramid on the table, both cities, the military
track, progress tokens, science, whose turn it is and the discard pile.

:func:`render` returns a `rich <https://rich.readthedocs.io>`_ renderable (print it with a
``rich.console.Console``); :func:`render_text` returns the same drawing as plain text, with no
colour codes (for tests, logs and ``duel show``).

Everything shown is asked of the :class:`duelcore.State`: costs come from
``State.card_cost`` / ``State.wonder_cost`` for the player to move, availability from
``State.available_cards``, VP from ``State.vp``; nothing here knows a rule.
"""
from __future__ import annotations

import io
from collections import Counter

from rich import box
from rich.console import RenderableType, Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from duelcore import State, data

__all__ = ["render", "render_text", "slot_positions"]

PLAYERS = ("P1", "P2")
ROMAN = ("", "I", "II", "III")

#: rich style of each card colour (data.COLOURS order)
COLOUR_STYLE = {
    "brown": "rgb(170,110,50)", "grey": "grey66", "blue": "dodger_blue1", "green": "green3",
    "yellow": "gold1", "red": "red1", "purple": "medium_purple2",
}

_PHASE_TEXT = {
    "setup_first_player": "chance: drawing who is P1",
    "setup_tokens": "chance: laying the progress tokens on the board",
    "draft_reveal": "chance: revealing wonders for the draft",
    "reveal": "chance: turning a card face up",
    "library_draw": "chance: drawing tokens for The Great Library",
    "play": "take an available card: build it, discard it for coins, or build a wonder with it",
    "choose_token": "choose a progress token from the board (science pair)",
    "revive": "choose a card of the discard pile to build for free (The Mausoleum)",
}


# ---------------------------------------------------------------- geometry
def slot_positions(age: int) -> list[float]:
    """Horizontal position of each of the 20 slots of an Age layout, in card widths.

    Derived from ``data.LAYOUTS[age - 1]`` (rows, and which slots cover which): the last row
    sits at 0, 1, 2...; a card covered by two cards sits between them; a card covered by one
    card sits half a card beside it, next to its row neighbours.  Returns floats that are
    multiples of 0.5 (list of 20).

    Raises
    ------
    ValueError
        If ``age`` is not 1, 2 or 3.
    """
    if age not in (1, 2, 3):
        raise ValueError(f"age must be 1, 2 or 3, not {age!r}")
    lay = data.LAYOUTS[age - 1]
    rows, start = [], 0
    for n in lay.rows:
        rows.append(list(range(start, start + n)))
        start += n
    x: dict[int, float] = {}
    for i, s in enumerate(rows[-1]):
        x[s] = float(i)
    for row in reversed(rows[:-1]):
        for s in row:                                  # between its two covering cards
            if len(lay.covered_by[s]) == 2:
                x[s] = sum(x[c] for c in lay.covered_by[s]) / 2
        for _ in range(len(row)):                      # beside its placed row neighbours
            for k, s in enumerate(row):
                if s in x:
                    continue
                if k > 0 and row[k - 1] in x and _shares(lay, s, row[k - 1]):
                    x[s] = x[row[k - 1]] + 1
                elif k + 1 < len(row) and row[k + 1] in x and _shares(lay, s, row[k + 1]):
                    x[s] = x[row[k + 1]] - 1
        group: dict[int, list[int]] = {}
        for s in row:                                  # a lone pair under one card
            if s not in x:
                group.setdefault(lay.covered_by[s][0], []).append(s)
        for c, members in group.items():
            for j, s in enumerate(members):
                x[s] = x[c] - (len(members) - 1) / 2 + j
    return [x[s] for s in range(len(lay.covered_by))]


def _shares(lay, a, b):
    return bool(set(lay.covered_by[a]) & set(lay.covered_by[b]))


# ---------------------------------------------------------------- pieces
def _mover(state: State):
    p = state.current_player()
    return p if p in (0, 1) else None


def _cost_text(total: int, coins: int) -> tuple[str, str]:
    """(text, style) of a cost in coins for a player holding ``coins``."""
    if total == 0:
        return "free", "bold green"
    if total > coins:
        return f"{total}c ✗", "bold red"
    return f"{total}c", "bold"


def _header(state: State) -> Text:
    d = state.to_dict()
    p = _mover(state)
    t = Text()
    if state.is_terminal():
        res = state.result()
        if res["winner"] is None:
            t.append("Game over: shared victory", style="bold")
        else:
            t.append(f"Game over: {PLAYERS[res['winner']]} wins ({res['victory']} victory)",
                     style="bold")
        t.append(f", {res['total'][0]} to {res['total'][1]} VP")
        return t
    age = f"Age {ROMAN[state.age]}" if state.age else "Wonder draft"
    t.append(age, style="bold")
    t.append(" · ")
    who = PLAYERS[p] if p is not None else "chance"
    t.append(f"{who} to move" if p is not None else "chance to resolve", style="bold cyan")
    t.append(f" · decision {state.n_decisions + 1}\n")
    phase = state.phase
    if phase == "draft":
        what = f"pick a wonder: {', '.join(d['draft']['offer'])}"
    elif phase == "destroy":
        what = (f"choose a {d['destroy_colour']} card of {PLAYERS[1 - p]}'s city to put in the "
                f"discard pile")
    elif phase == "library":
        what = (f"keep one of the tokens drawn by The Great Library: "
                f"{', '.join(d['library_offer'])}")
    elif phase == "choose_start":
        what = f"choose who begins Age {ROMAN[state.age]} (start P1 / start P2)"
    else:
        what = _PHASE_TEXT.get(phase, phase)
    t.append("Pending: ", style="bold")
    t.append(what)
    if state.replay and phase == "play":
        t.append(" (Play Again)", style="bold magenta")
    return t


def _layout(state: State, width: int) -> Text | None:
    if not state.age:
        return None
    d = state.to_dict()
    if all(entry is None for entry in d["layout"]):      # every card taken
        return None
    lay = data.LAYOUTS[state.age - 1]
    xs = slot_positions(state.age)
    lo, hi = min(xs), max(xs)
    cells = int(hi - lo) + 1
    cw = max(10, min(18, width // cells))
    cw -= cw % 2                                       # half a card is a whole character
    pad = max(0, (width - cells * cw) // 2)            # centre the pyramid
    avail = set(state.available_cards())
    p = _mover(state)
    coins = state.coins(p) if p is not None else 0
    out = Text()
    start = 0
    for r, n in enumerate(lay.rows):
        line1, line2 = Text(), Text()
        for s in range(start, start + n):
            col = pad + int(round((xs[s] - lo) * cw))
            for line in (line1, line2):
                line.append(" " * max(0, col - len(line)))
            entry = d["layout"][s]
            if entry is None:                          # taken
                continue
            if entry == "face_down":
                line1.append("[face down]"[:cw - 1], style="dim reverse")
                continue
            if entry == "face_down_guild":             # a guild back (Age III, R-CHANCE-2)
                line1.append("[guild]"[:cw - 1], style="reverse magenta")
                continue
            c = data.CARD_NAMES.index(entry)
            card = data.CARDS[c]
            style = COLOUR_STYLE[card.colour]
            name = entry if len(entry) <= cw - 1 else entry[:cw - 2] + "…"
            if c in avail:
                line1.append(name, style=f"bold {style}")
                tag = card.colour[:cw - 1]
                line2.append(tag, style=style)
                if p is not None:
                    total, _ = state.card_cost(p, c)
                    text, cstyle = _cost_text(total, coins)
                    line2.append(" " + text, style=cstyle)
            else:
                line1.append(name, style=f"dim {style}")
                line2.append(card.colour, style=f"dim {style}")
        line1.rstrip()
        line2.rstrip()
        out.append_text(line1)
        out.append("\n")
        out.append_text(line2)
        out.append("\n")
        start += n
    out.rstrip()
    return out


def _military(state: State) -> Text:
    d = state.to_dict()
    pawn = state.pawn
    t = Text()
    t.append("P1 ", style="bold")
    for x in range(-9, 10):
        if x == pawn:
            t.append(" ● ", style="bold red")
        elif abs(x) == 9:
            t.append(" ⌂ ")
        elif x == 0:
            t.append(" | ")
        else:
            t.append(" · ", style="dim")
    t.append(" P2", style="bold")
    t.append("\n   ")
    # remaining military tokens: zone 3-5 holds the 2-coin token, 6-8 the 5-coin token
    marks = {}
    for side, tokens in enumerate(d["military_tokens"]):   # side 0: P1's half (x < 0)
        for (zone_start, value) in data.MILITARY_TOKENS:
            if value in tokens:
                mid = zone_start + 1
                marks[-mid if side == 0 else mid] = f"-{value}"
    for x in range(-9, 10):
        t.append(f"{marks.get(x, ''):^3}", style="yellow")
    t.rstrip()
    mil = state.vp()["military"]
    t.append("\n")
    if pawn == 0:
        t.append("The Conflict pawn is on the centre: no military VP.")
    else:
        lead = 0 if pawn > 0 else 1
        t.append(f"The pawn is {abs(pawn)} space{'s' if abs(pawn) > 1 else ''} toward "
                 f"{PLAYERS[1 - lead]}'s capital: {PLAYERS[lead]} leads ({mil[lead]} VP now).")
    left = [f"{PLAYERS[s]}'s side: " + (", ".join(f"{v} coins" for v in toks) or "none")
            for s, toks in enumerate(d["military_tokens"])]
    t.append("\nMilitary tokens on " + "; ".join(left) + ".", style="dim")
    return t


def _player(state: State, q: int, d: dict) -> Panel:
    p = _mover(state)
    vp = state.vp()
    total = sum(v[q] for v in vp.values())
    g = Table.grid(padding=(0, 1))
    g.add_column(style="bold", no_wrap=True)
    g.add_column()
    g.add_row("coins", str(state.coins(q)))
    g.add_row("VP now", f"{total}  (" + ", ".join(f"{k} {v[q]}" for k, v in vp.items() if v[q])
              + ")" if total else "0")
    prod = state.production(q)
    g.add_row("produces", ", ".join(f"{n} {r}" for r, n in zip(data.RESOURCES, prod) if n)
              or "nothing")
    symbols = state.science_symbols(q)
    sym = [f"{s}" + (f" ×{n}" if n > 1 else "") for s, n in zip(data.SYMBOLS, symbols) if n]
    distinct = sum(1 for n in symbols if n)
    g.add_row("science", (", ".join(sym) + f"  ({distinct} different)") if sym else "none")
    g.add_row("tokens", ", ".join(data.TOKEN_NAMES[t] for t in state.progress_tokens(q))
              or "none")
    wonders = Text()
    under = {w["name"]: w["card"] for w in d["players"][q]["wonders"]}
    for k, (w, built) in enumerate(state.wonders(q)):
        name = data.WONDER_NAMES[w]
        if k:
            wonders.append("\n")
        if built:
            wonders.append("✓ " + name, style="bold")
            if under.get(name):
                wonders.append(f" (over {under[name]})", style="dim")
        else:
            wonders.append("· " + name)
            if q == p and state.age:
                total_c, _ = state.wonder_cost(q, w)
                text, style = _cost_text(total_c, state.coins(q))
                wonders.append(" " + text, style=style)
    g.add_row("wonders", wonders if state.wonders(q) else Text("none"))
    city: Counter[str] = Counter()
    by_colour: dict[str, list[str]] = {}
    for c in state.city(q):
        card = data.CARDS[c]
        by_colour.setdefault(card.colour, []).append(card.name)
        city[card.colour] += 1
    for colour in data.COLOURS:
        if colour in by_colour:
            g.add_row(Text(colour, style=COLOUR_STYLE[colour]),
                      Text(", ".join(by_colour[colour]), style=COLOUR_STYLE[colour]))
    if not by_colour:
        g.add_row("city", "no cards yet")
    title = PLAYERS[q] + ("  ◀ to move" if q == p else "")
    return Panel(g, title=title, title_align="left", box=box.ROUNDED,
                 border_style="cyan" if q == p else "")


def render(state: State, *, width: int = 100) -> Group:
    """The position as a rich renderable (a ``rich.console.Group``).

    Parameters
    ----------
    state : duelcore.State
        Any position, including the draft, chance nodes and the end of the game.
    width : int
        Characters available (the layout's card width is chosen from it; 60..300).

    Shows: whose turn and the pending decision; the current Age's layout as its pyramid (row 0
    at the top; face-down cards as ``[face down]``; each available card with its colour and
    its cost in coins for the player to move, ``free``, or ``✗`` when they cannot pay); the
    military track (``●`` the pawn, ``⌂`` the capitals, P1's capital on the left) with the
    military tokens left; both cities by colour, coins, VP so far, production, science
    symbols, progress tokens and wonders (built ``✓``, unbuilt ``·`` with the cost for the
    player to move); the progress tokens on the board and the discard pile.

    Raises
    ------
    TypeError
        If ``state`` is not a duelcore State.
    """
    if not isinstance(state, State):
        raise TypeError(f"render needs a duelcore State, not {type(state).__name__}")
    width = max(60, min(300, int(width)))
    d = state.to_dict()
    parts: list[RenderableType] = [_header(state)]
    layout = _layout(state, width - 4)
    if layout is not None:
        p = _mover(state)
        title = f"Age {ROMAN[state.age]} layout"
        if p is not None:
            n = state.coins(p)
            title += f" — costs for {PLAYERS[p]} ({n} coin{'s' if n != 1 else ''})"
        parts.append(Panel(layout, title=title, title_align="left", box=box.ROUNDED))
    parts.append(Panel(_military(state), title="Military track", title_align="left",
                       box=box.ROUNDED))
    cities = Table.grid(expand=True, padding=(0, 1))
    cities.add_column(ratio=1)
    cities.add_column(ratio=1)
    cities.add_row(_player(state, 0, d), _player(state, 1, d))
    parts.append(cities)
    board = Text()
    board.append("Progress tokens on the board: ", style="bold")
    board.append(", ".join(d["board_tokens"]) or "none")
    pile = d["discard_pile"]
    board.append(f"\nDiscard pile ({len(pile)}): ", style="bold")
    board.append(", ".join(pile) or "empty")
    parts.append(board)
    return Group(*parts)


def render_text(state: State, *, width: int = 100) -> str:
    """The drawing of :func:`render` as plain text (no colour or escape codes).

    Parameters
    ----------
    state : duelcore.State
    width : int
        Line width in characters (60..300); lines are at most this long.

    Returns
    -------
    str
        Several lines, ending with a newline.
    """
    width = max(60, min(300, int(width)))
    buf = io.StringIO()
    console = Console(file=buf, width=width, color_system=None, no_color=True,
                      force_terminal=False, force_jupyter=False, highlight=False,
                      emoji=False, legacy_windows=False)
    console.print(render(state, width=width))
    return buf.getvalue()
