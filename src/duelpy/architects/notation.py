"""Names of Architects actions, and reading them back.

Every decision has a name (:func:`action_name`): ``take left``, ``take right``, ``take
central``, ``decline``, ``take deck P3 (Giza)`` (Alexandria), ``search left``
(Halicarnassus), ``keep coin``, ``set tablet pair``, ``token Economy``, ``token stack``,
``build S2``, ``pay wood, coin``, ``pay coin doubled`` (Economy), ``use power``, ``next
Urbanism pick`` / ``next set`` / ``next build`` (free_order).  :func:`parse_action` reads a
name back (case and spacing ignored; a payment's cards in any order; a wonder's deck by its
wonder or its seat).

>>> from duelpy.architects import new_game
>>> g = new_game(2, seed=3)
>>> parse_action(g, "Take  LEFT") == 0
True
"""
from __future__ import annotations

from collections import Counter

from duelcore.architects import engine as _core

__all__ = ["action_name", "parse_action", "legal_moves"]


def action_name(state: _core.State, action: int) -> str:
    """The action's name at ``state`` (with the wonder of a deck Alexandria takes from)."""
    return state.action_to_string(action)


def legal_moves(state: _core.State) -> list[tuple[int, str]]:
    """``(action, name)`` of every legal decision."""
    return [(a, action_name(state, a)) for a in state.legal_actions()]


def _norm(text: str) -> str:
    return " ".join(str(text).lower().replace(",", " , ").split()).replace(" ,", ",")


def _cards(text: str) -> Counter:
    """The multiset of a payment's text ("wood, coin doubled" -> {wood: 1, coin doubled: 1})."""
    out: Counter = Counter()
    for part in text.replace(",", " , ").split(","):
        words = part.split()
        if not words:
            continue
        n = 1
        if words[0].isdigit():
            n, words = int(words[0]), words[1:]
        name = " ".join(words)
        if name in ("doubled coin", "coin x2", "coin (doubled)"):
            name = "coin doubled"
        out[name] += n
    return out


def parse_action(state: _core.State, text: str) -> int:
    """The legal decision of the active seat named by ``text``.

    Raises IllegalActionError (a ValueError) naming the text when no legal decision has that
    name (at a chance node or the end too)."""
    if not isinstance(text, str) or not text.strip():
        raise _core.IllegalActionError(f"an action is a name such as 'take left', not {text!r}")
    legal = state.legal_actions()
    want = _norm(text)
    names = {a: _norm(action_name(state, a)) for a in legal}
    plain = {a: _norm(_core.action_to_string(a)) for a in legal}
    for a in legal:
        if want in (names[a], plain[a]):
            return a
    if want.startswith("pay "):
        bag = _cards(want[4:])
        for a in legal:
            if plain[a].startswith("pay ") and _cards(plain[a][4:]) == bag:
                return a
    if want.startswith("take "):                    # Alexandria: a deck by its wonder
        rest = want[5:].removeprefix("deck ").removesuffix(" deck").strip()
        for a in legal:
            if names[a].startswith("take deck ") and rest and (
                    f"({rest})" in names[a] or names[a].endswith(" " + rest)):
                return a
    if state.is_terminal():
        raise _core.IllegalActionError(f"{text.strip()!r}: the game is over")
    if state.is_chance_node():
        raise _core.IllegalActionError(f"{text.strip()!r}: the next step is chance, not a "
                                       f"decision")
    shown = ", ".join(action_name(state, a) for a in legal[:8]) + (", ..." * (len(legal) > 8))
    raise _core.IllegalActionError(f"{text.strip()!r} is not a legal action of "
                                   f"P{state.active + 1} here (legal: {shown})")
