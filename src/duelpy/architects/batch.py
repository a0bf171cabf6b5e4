"""Batch games of Architects as rows: who sits where in each game of a chunk, and the rows of
the games a chunk finished (one per game and seat, with VP by category, A-END-3)."""
from __future__ import annotations

import pandas as pd

from duelcore.architects import engine as _core

from duelpy.base.batch import lineups_of, play_core_chunk

__all__ = ["lineups_of", "play_chunk", "chunk_rows", "EMPTY", "ROW_COLUMNS"]

#: The arrays of a chunk that played no game.
EMPTY = {"wonders": [], "stages": [], "vp": [], "totals": [], "winners": [], "turns": [],
         "completed": 0}
_CATS = [c for c in _core.VP_CATEGORIES if c != "total"]
#: The columns of a chunk's rows.
ROW_COLUMNS = (["game", "seat", "agent", "wonder", "vp"] + [f"vp_{c}" for c in _CATS]
               + ["stages", "place", "win", "turns"])


def play_chunk(task) -> dict:
    """Games ``task.lo .. task.hi - 1`` in the core (nogil; its stop flag ends the batch
    early, with the games finished): the arrays of
    :func:`duelcore.architects.engine.play_games_detail` without its timing
    (:func:`duelpy.base.batch.play_core_chunk`)."""
    return play_core_chunk(_core.play_games_detail, task)


def chunk_rows(task, raw: dict, names=None) -> pd.DataFrame:
    """One row per finished game and seat: ``game``, ``seat``, ``agent``, ``wonder``, ``vp``
    (total, A-END-3), ``vp_<category>`` (wonder, blue, military, cat, progress), ``stages``
    (built), ``place`` (1 = first by VP then stages, ties share, A-END-5), ``win`` (1/k for
    each of k winners, A-END-4), ``turns``.  ``names``: the agents' names (default
    ``task.agents``)."""
    n = len(raw["winners"])
    line = lineups_of(task)
    agents = list(names) if names is not None else list(task.agents)
    out = []
    for k in range(n):
        g = task.lo + k
        mask = raw["winners"][k]
        share = 1.0 / bin(mask).count("1")
        seats = list(range(task.players)) if line is None else line[k]
        keys = [(raw["totals"][k][i], raw["stages"][k][i]) for i in range(task.players)]
        for seat in range(task.players):
            row = {"game": g, "seat": seat, "agent": agents[seats[seat]],
                   "wonder": raw["wonders"][k][seat], "vp": raw["totals"][k][seat]}
            for c, v in zip(_CATS, raw["vp"][k][seat]):
                row[f"vp_{c}"] = v
            row["stages"] = raw["stages"][k][seat]
            row["place"] = 1 + sum(x > keys[seat] for x in keys)
            row["win"] = share if (mask >> seat) & 1 else 0.0
            row["turns"] = raw["turns"][k]
            out.append(row)
    df = pd.DataFrame(out, columns=ROW_COLUMNS)
    return df.astype({"game": "int64", "seat": "int64", "vp": "int64", "stages": "int64",
                      "place": "int64", "win": "float64", "turns": "int64",
                      **{f"vp_{c}": "int64" for c in _CATS}})
