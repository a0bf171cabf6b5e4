"""Text rendering of a 7 Wonders position."""
from __future__ import annotations

from duelcore import seven as _core
from duelcore import seven_data as _data

_COLOUR_OF = {c.name: c.colour for c in _data.CARDS}
_COLOUR_OF.update({g.name: "purple" for g in _data.GUILDS})


def render_text(state: _core.State, seat: int | None = None) -> str:
    """A plain-text view.  ``seat`` None shows every hand (full information); a seat shows
    only the hand that seat plays from (its decider's view of hands, W-INFO-2)."""
    head = f"7 Wonders, {state.players} players"
    if state.players == 2:
        head += " (Free City variant: seat 2 is the Free City)"
    def label(i: int) -> str:
        return "Free City" if state.players == 2 and i == 2 else f"P{i + 1}"

    pending = state.pending_seats()
    lines = [head, f"Age {state.age}, turn {state.turn}, waiting for: {state.phase}"
             + (f" ({', '.join(label(i) for i in pending)})" if pending else "")]
    for i in range(state.seats):
        board, side, stages = state.board(i)
        mil, defeats = state.military(i)
        name = "Free City (seat 2)" if state.players == 2 and i == 2 else f"P{i + 1} (seat {i})"
        lines.append(f"{name}: {board} {side}, stages {stages}, coins {state.coins(i)}, "
                     f"shields {state.shields(i)}, military {mil:+d} ({defeats} defeats)")
        by: dict[str, list[str]] = {}
        for c in state.city(i):
            by.setdefault(_COLOUR_OF[c], []).append(c)
        for colour in _data.COLOURS:
            if colour in by:
                lines.append(f"    {colour}: {', '.join(by[colour])}")
        if i < state.players and (seat is None or seat == i):
            lines.append(f"    hand: {', '.join(state.hand(i)) or '-'}")
    if state.removed():
        lines.append(f"removed from the game: {', '.join(state.removed())}; dealt in their "
                     f"place: {', '.join(state.added_cards()) or '-'}")
    if state.is_terminal():
        lines.append("scores: " + "; ".join(
            f"{label(i)} {s['total']}"
            for i, s in enumerate(state.scores())))
        lines.append("winners: " + ", ".join(f"P{i + 1}" for i in state.winners()))
    return "\n".join(lines)
