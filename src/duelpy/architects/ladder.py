"""A rating ladder for Architects: N-player games between K agents rotated through the seats
(game g, seat s: agent (g + s) mod K), rated by a Bradley–Terry fit over the pairwise results
of who finished ahead: more VP, then more stages built (the order of A-END-4); equal VP and
stages is a shared result.  The comparisons of one game are not independent, so the 95%
intervals computed as if they were are too narrow (a lower bound on the uncertainty).
"""
from __future__ import annotations

import pandas as pd

from duelpy.base.stats import agent_results

__all__ = ["METHOD", "pairwise", "agent_table"]

METHOD = ("Bradley–Terry maximum likelihood over the pairwise results of each game (who "
          "finished ahead: VP, then stages built, A-END-4), 1 virtual shared result per pair "
          "of agents; the 95% intervals treat a game's comparisons as independent, so they "
          "are too narrow")


def pairwise(frame: pd.DataFrame) -> pd.DataFrame:
    """One row per pair of seats held by different agents in a game: ``game``, ``p1``,
    ``p2`` (agents), ``winner`` (0: p1 ahead, 1: p2, -1: equal VP and stages).  Vectorised:
    a ladder interrupted after many fast games is rated at once."""
    cols = ["game", "p1", "p2", "winner"]
    if frame.empty:
        return pd.DataFrame(columns=cols)
    f = frame[["game", "seat", "agent", "vp", "stages"]]
    both = f.merge(f, on="game", suffixes=("_a", "_b"))
    both = both[(both["seat_a"] < both["seat_b"]) & (both["agent_a"] != both["agent_b"])]
    ka = both["vp_a"] * 16 + both["stages_a"]
    kb = both["vp_b"] * 16 + both["stages_b"]
    winner = (kb > ka).astype("int64") - (ka == kb).astype("int64") * 1
    out = pd.DataFrame({"game": both["game"].to_numpy(), "p1": both["agent_a"].to_numpy(),
                        "p2": both["agent_b"].to_numpy(),
                        "winner": winner.where(ka != kb, -1).to_numpy()})
    return out.sort_values(["game"], kind="stable").reset_index(drop=True)


def agent_table(frame: pd.DataFrame, agents) -> pd.DataFrame:
    """Per agent: seats played, wins (a shared win 1/k), win rate with its 95% Wilson
    interval, mean VP and mean place."""
    return agent_results(frame, agents)
