"""What one seat of 7 Wonders Architects may know (A-INFO), as data and as a vector: the shared
ground of the OpenSpiel game (:mod:`duelpy.architects.openspiel`) and the PettingZoo
environment (:mod:`duelpy.architects.pettingzoo`).

The rules digest's information model: the information state of seat i is *the public state*
(A-INFO-1: wonders, stages, tableaux, tokens, the cat, the row, the conflict tokens, the
discard pile, every deck's make-up and every wonder deck's top card) *plus the central top
card if i looked at it as cat holder while it stayed on top* (A-INFO-2), *plus, during i's own
Halicarnassus keep, the window* (A-INFO-3).  Deck orders are not in the state (cards are drawn
when they first show, A-CHANCE-1), so perfect recall adds nothing to it.

:func:`public_view` is the core's :meth:`~duelcore.architects.engine.State.to_dict` with what
the seat may not see taken out; :func:`observation` encodes it as a float32 vector of
:func:`observation_size` numbers, the viewer's seat first.  Nothing here decides a rule.
"""
from __future__ import annotations

import functools
from typing import Any

import numpy as np

from duelcore.architects import engine as _core
from duelpy.base.blocks import block_offsets

__all__ = ["public_view", "observation", "observation_size", "observation_blocks"]

_KINDS = _core.KINDS
_TOKENS = _core.TOKENS
_WONDERS = _core.WONDERS
_STAGES = _core.STAGES
_INDEX = {names: {x: i for i, x in enumerate(names)}
          for names in (_KINDS, _TOKENS, _WONDERS, _STAGES, _core.PHASES, _core.TASKS,
                        _core.DRAWS)}


def public_view(state: _core.State, viewer: int, private: str = "seat") -> dict[str, Any]:
    """What seat ``viewer`` (0-based) may know of ``state``, as a ``to_dict``-shaped dict.

    Taken out: the state's RNG; the central top unless ``viewer`` knows it (A-INFO-2: it goes
    back into the central make-up, ``central.under``, and ``central.top`` is None; who looked
    stays public); a Halicarnassus window's cards unless ``viewer`` is the seat keeping one
    (A-INFO-3: they go back into that deck's make-up and ``window.cards`` is empty;
    ``window.size`` is their number).  ``private``: ``"seat"`` (the viewer's private
    information, as above), ``"none"`` (the public information only: what every seat knows)
    or ``"all"`` (every seat's private information: a central top that anyone knows, a
    window).

    Raises
    ------
    ValueError
        If ``viewer`` is not a seat of the game, or ``private`` is not one of the three.
    """
    n = state.players
    if isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < n:
        raise ValueError(f"viewer must be a seat from 0 to {n - 1}, not {viewer!r}")
    if private not in ("seat", "none", "all"):
        raise ValueError(f"private must be 'seat', 'none' or 'all', not {private!r}")
    d = state.to_dict()                         # a fresh dict: changed in place below
    d.pop("rng", None)
    central = d["central"]
    knows = {"seat": viewer in central["knowers"], "none": False, "all": True}[private]
    if central["top"] is not None and not knows:
        under = central["under"]
        under[central["top"]] = under.get(central["top"], 0) + 1
        central["top"] = None
    window = d["window"]
    window["size"] = sum(window["cards"].values())
    keeper = d["phase"] == "hali_keep" and d["active"] == viewer
    sees = {"seat": keeper, "none": False, "all": True}[private]
    if window["cards"] and not sees:
        deck = d["decks"][window["deck"]]       # Halicarnassus searches a wonder deck
        for kind, k in window["cards"].items():
            deck["under"][kind] = deck["under"].get(kind, 0) + k
        window["cards"] = {}
    return d


def _rel(seat: int, viewer: int, n: int) -> int:
    return (seat - viewer) % n


def observation_blocks(players: int) -> list[tuple[str, int]]:
    """The blocks of :func:`observation`'s vector in order, ``(name, size)``, for a game of
    ``players`` seats (the seat blocks are relative: seat 0 of the vector is the viewer's)."""
    n, k, t = players, len(_KINDS), len(_TOKENS)
    return [
        ("seat_wonder", n * len(_WONDERS)), ("seat_stages", n * len(_STAGES)),
        ("seat_tableau", n * k), ("seat_tokens", n * t), ("seat_military_tokens", n),
        ("seat_cat", n), ("seat_active", n),
        ("deck_top", n * (k + 1)), ("deck_under", n * k),
        ("central_top", k + 1), ("central_knowers", n), ("central_under", k),
        ("row", t), ("stack", t), ("removed_tokens", t), ("discard", k),
        ("conflict", 2), ("phase", len(_core.PHASES)), ("task", len(_core.TASKS)),
        ("draw", len(_core.DRAWS)), ("stage", len(_STAGES) + 1), ("flags", 3),
        ("pending_used", 2), ("window_deck", n + 1), ("window_cards", k), ("window_size", 2),
        ("turns", 1),
    ]


def observation_size(players: int) -> int:
    """The length of :func:`observation`'s vector for ``players`` seats (2..7)."""
    return sum(size for _, size in observation_blocks(players))


@functools.lru_cache(maxsize=None)
def _offsets(players: int) -> tuple[dict[str, int], int]:
    return block_offsets(observation_blocks(players))


def observation(state: _core.State, viewer: int, private: str = "seat") -> np.ndarray:
    """:func:`public_view` of ``viewer`` (and ``private``) as float32 counts and one-hots,
    shape ``(observation_size(players),)``; the blocks are :func:`observation_blocks` (seats
    and their wonder decks in table order from the viewer's; counts are raw card or token
    counts, ``turns`` the turns played).

    Raises
    ------
    ValueError
        If ``viewer`` is not a seat of the game, or ``private`` is not one of public_view's.
    """
    d = public_view(state, viewer, private)
    n = d["players"]
    k, t = len(_KINDS), len(_TOKENS)
    pos, size = _offsets(n)
    out = np.zeros(size, dtype=np.float32)

    def put(block: str, index: int, value: float = 1.0) -> None:
        out[pos[block] + index] += value

    def counts(block: str, base: int, table: dict, names) -> None:
        at, index = pos[block] + base, _INDEX[names]
        for key, c in table.items():
            out[at + index[key]] += c

    for seat, s in enumerate(d["seats"]):
        r = _rel(seat, viewer, n)
        if s["wonder"] is not None:                 # None until dealt (A-SETUP-2)
            put("seat_wonder", r * len(_WONDERS) + _WONDERS.index(s["wonder"]))
        for st in s["stages"]:
            put("seat_stages", r * len(_STAGES) + _STAGES.index(st))
        counts("seat_tableau", r * k, s["tableau"], _KINDS)
        counts("seat_tokens", r * t, s["tokens"], _TOKENS)
        put("seat_military_tokens", r, s["military_tokens"])
        if d["cat"] == seat:
            put("seat_cat", r)
        if d["phase"] not in ("chance", "over") and d["active"] == seat:
            put("seat_active", r)
    for deck, dk in enumerate(d["decks"]):
        r = _rel(deck, viewer, n)
        put("deck_top", r * (k + 1) + (k if dk["top"] is None else _KINDS.index(dk["top"])))
        counts("deck_under", r * k, dk["under"], _KINDS)
    c = d["central"]
    put("central_top", k if c["top"] is None else _KINDS.index(c["top"]))
    for seat in c["knowers"]:
        put("central_knowers", _rel(seat, viewer, n))
    counts("central_under", 0, c["under"], _KINDS)
    counts("row", 0, d["row"], _TOKENS)
    counts("stack", 0, d["stack"], _TOKENS)
    counts("removed_tokens", 0, d["removed_tokens"], _TOKENS)
    counts("discard", 0, d["discard"], _KINDS)
    put("conflict", 0, d["conflict"]["turned"])
    put("conflict", 1, float(d["conflict"]["battle"]))
    put("phase", _core.PHASES.index(d["phase"]))
    put("task", _core.TASKS.index(d["task"]))
    put("draw", _core.DRAWS.index(d["draw"]))
    put("stage", 0 if d["stage"] is None else 1 + _STAGES.index(d["stage"]))
    for i, flag in enumerate(("architecture_due", "economy_declined", "engineering_used")):
        put("flags", i, float(bool(d[flag])))
    put("pending_used", 0, len(d["pending"]))
    put("pending_used", 1, len(d["used"]))
    w = d["window"]
    put("window_deck", 0 if w["deck"] is None else 1 + _rel(w["deck"], viewer, n))
    counts("window_cards", 0, w["cards"], _KINDS)
    put("window_size", 0, w["size"])
    put("window_size", 1, w["to_draw"])
    put("turns", 0, d["turns"])
    return out
