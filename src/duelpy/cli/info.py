"""``info NAME`` at the prompt of ``duel play``: what a card, wonder or progress token does,
read from the game's own tables (the texts the web page shows)."""
from __future__ import annotations

import difflib

from duelpy.web.seven import seven_catalogue
from duelpy.web.view import catalogue

__all__ = ["explain"]


def _entries(game: str) -> dict[str, str]:
    """{name: one-line description} of every card, wonder and token of ``game``."""
    out: dict[str, str] = {}
    if game == "duel":
        c = catalogue()
        for name, card in c["cards"].items():
            chain = f"; free with the {card['chain_from']} chain" if card["chain_from"] else ""
            out[name] = (f"{name} (Age {card['age']}, {card['colour']}): costs {card['cost']}; "
                         f"{card['text']}{chain}")
        for name, w in c["wonders"].items():
            out[name] = f"{name} (wonder): costs {w['cost']}; {w['text']}"
        for name, text in c["tokens"].items():
            out[name] = f"{name} (progress token): {text}"
        return out
    s = seven_catalogue()
    for name, card in s["cards"].items():
        ages = ", ".join(str(a) for a in card["ages"])
        out[name] = (f"{name} (Age {ages}, {card['colour']}): costs {card['cost']}; "
                     f"{card['text']}")
    for name, board in s["boards"].items():
        sides = "; ".join(f"side {side}: " + ", ".join(
            f"stage {k + 1} ({st['cost']}) {st['text']}" for k, st in enumerate(stages))
            for side, stages in board["sides"].items())
        out[name] = f"{name} ({board['gloss']}, produces {board['resource']}): {sides}"
    return out


def explain(game: str, text: str) -> str:
    """The description of the card, wonder or token named ``text`` (any case; "the" and a
    part of the name are enough when they name one), or a line saying what matched."""
    entries = _entries(game)
    key = " ".join(text.lower().replace("the ", " ").split())
    if not key:
        return "info NAME: give a card, wonder or progress token (e.g. info lumber yard)"
    names = {n.lower().replace("the ", "").strip(): n for n in entries}
    if key in names:
        return entries[names[key]]
    hits = [n for k, n in names.items() if key in k]
    if len(hits) == 1:
        return entries[hits[0]]
    if hits:
        return f"{text.strip()!r} could be: {', '.join(sorted(hits)[:8])}"
    close = difflib.get_close_matches(key, list(names), n=3, cutoff=0.6)
    more = f" (did you mean {', '.join(names[c] for c in close)}?)" if close else ""
    return f"no card, wonder or token called {text.strip()!r}{more}"
