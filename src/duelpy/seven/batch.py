"""Batch games of 7 Wonders as rows: who sits where in each game of a chunk, and the rows
of the games a chunk finished (one per player seat, with VP by category)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from duelcore import seven as _core

from duelpy.base.batch import lineups_of, play_core_chunk

__all__ = ["lineups_of", "chunk_rows", "play_chunk", "EMPTY"]

#: The arrays of a chunk that played no game.
EMPTY: dict[str, list] = {"winners": [], "boards": [], "sides": [], "totals": [], "coins": [], "vp": []}


def play_chunk(task) -> dict:
    """Games ``task.lo .. task.hi - 1`` in the core (nogil; its stop flag ends the batch
    early, with the games finished): the arrays of :func:`duelcore.seven.play_games_detail`
    without its timing (:func:`duelpy.base.batch.play_core_chunk`)."""
    return play_core_chunk(_core.play_games_detail, task)


def chunk_rows(task, raw: dict) -> pd.DataFrame:
    """One row per finished game and player seat (the Free City's seat 2 in the 2-player
    variant is left out): ``game``, ``seat``, ``agent``, ``board``, ``side``, ``vp`` (total
    VP, W-END-1), ``vp_<category>`` for each VP category (military, treasury, wonder,
    civilian, commercial, guilds, science), ``coins``, ``win`` (a share: 1/k for each of k
    tied winners, W-END-2)."""
    n, p = len(raw["winners"]), task.players
    cats = [c for c in _core.VP_CATEGORIES if c != "total"]
    vps = raw.get("vp")
    columns = (["game", "seat", "agent", "board", "side", "vp"]
               + ([f"vp_{c}" for c in cats] if vps is not None else []) + ["coins", "win"])
    if n == 0:
        return pd.DataFrame({c: [] for c in columns})
    line = lineups_of(task)
    seats = np.tile(np.arange(p), (n, 1)) if line is None else np.asarray(line)
    masks = np.asarray(raw["winners"], dtype=np.int64)
    bits = (masks[:, None] >> np.arange(8)) & 1                     # winners among all seats
    won = bits[:, :p] / bits.sum(axis=1, keepdims=True)
    cols: dict = {"game": np.repeat(np.arange(task.lo, task.lo + n, dtype=np.int64), p),
                  "seat": np.tile(np.arange(p, dtype=np.int64), n),
                  "agent": np.asarray(task.agents, dtype=object)[seats].ravel(),
                  "board": np.asarray(raw["boards"], dtype=object)[:, :p].ravel(),
                  "side": np.asarray(raw["sides"], dtype=object)[:, :p].ravel(),
                  "vp": np.asarray(raw["totals"], dtype=np.int64)[:, :p].ravel()}
    if vps is not None:
        v = np.asarray(vps, dtype=np.int64)[:, :p, :]
        for k, c in enumerate(cats):
            cols[f"vp_{c}"] = v[:, :, k].ravel()
    cols["coins"] = np.asarray(raw["coins"], dtype=np.int64)[:, :p].ravel()
    cols["win"] = won.ravel()
    return pd.DataFrame(cols, columns=columns)
