"""7 Wonders' names as people type them: cards (Age cards and guilds) and wonder boards,
matched regardless of case, spacing and "The", with close matches in the error."""
from __future__ import annotations

import difflib

from duelcore import seven_data as _data

__all__ = ["resolve_card", "resolve_board"]


def _key(text: str) -> str:
    return " ".join(str(text).lower().replace("the ", " ").split())


def resolve_card(text: str) -> str:
    """The card (Age card or guild) named ``text``, regardless of case and spacing.

    Raises ValueError naming the text and the closest names."""
    names = {_key(n): n for n in _data.NAMES}
    k = _key(text)
    if k in names:
        return names[k]
    words = {w for w in k.split() if len(w) >= 3}
    scored = sorted(((len(words & set(key.split())) + (k in key),
                      difflib.SequenceMatcher(None, k, key).ratio(), n)
                     for key, n in names.items()), reverse=True)
    close = [n for hits, ratio, n in scored if hits or ratio >= 0.75][:3]
    hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
    raise ValueError(f"unknown card {text!r}{hint}")


def resolve_board(text: str) -> str:
    """``"Rhodos"`` or ``"Rhodos B"`` from a board name (any case, with or without "The")
    and an optional side.

    Raises ValueError naming the text, the closest boards (7 Wonders spells them "Gizah",
    "Rhodos", "Ephesos", "Halikarnassus") and all of them."""
    parts = str(text).split()
    side = ""
    if len(parts) > 1 and parts[-1].upper() in ("A", "B"):
        side = parts[-1].upper()
        parts = parts[:-1]
    names = {b.lower(): b for b in _data.BOARD_NAMES}
    key = " ".join(parts).lower()
    key = key[4:] if key.startswith("the ") else key
    name = names.get(key)
    if name is None:
        close = difflib.get_close_matches(key, list(names), n=2, cutoff=0.6)
        hint = f" (did you mean {' or '.join(repr(names[c]) for c in close)}?)" if close \
            else ""
        raise ValueError(f"unknown wonder board {text!r}{hint}; the boards of 7 Wonders: "
                         f"{', '.join(_data.BOARD_NAMES)}, optionally with side A or B")
    return f"{name} {side}".strip()
