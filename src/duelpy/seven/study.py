"""Small balance studies for 7 Wonders: win rate by wonder board and side, and by seat.

>>> from duelpy.seven.study import side_study
>>> table = side_study(players=4, agents=["greedy"] * 4, games=200, seed=1)   # doctest: +SKIP

Games are played in compiled code (:func:`duelcore.seven.play_games_detail`); a shared win
counts as a fraction.  Intervals are 95% Wilson intervals (scipy).
"""
from __future__ import annotations

import pandas as pd
from scipy.stats import norm

from duelcore import seven as _core


def _wilson(wins: float, n: int, z: float = float(norm.ppf(0.975))):
    if n == 0:
        return (float("nan"), float("nan"))
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * ((p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5) / (1 + z * z / n)
    return (centre - half, centre + half)


def games_frame(players: int, agents, games: int, seed: int = 0, sides=None,
                boards=None) -> pd.DataFrame:
    """One row per (game, player): board, side, seat, total VP, coins, win (a share)."""
    rows = _core.play_games_detail(players, list(agents), games, seed, sides=sides,
                                   boards=boards)
    out = []
    for g in range(games):
        mask = rows["winners"][g]
        k = bin(mask).count("1")
        for seat in range(players):
            out.append({"game": g, "seat": seat, "board": rows["boards"][g][seat],
                        "side": rows["sides"][g][seat], "vp": rows["totals"][g][seat],
                        "coins": rows["coins"][g][seat],
                        "win": (1.0 / k) if (mask >> seat) & 1 else 0.0})
    return pd.DataFrame(out)


def summarise(frame: pd.DataFrame, by) -> pd.DataFrame:
    """Win rate, 95% interval and mean VP grouped by ``by`` (e.g. ["board", "side"])."""
    g = frame.groupby(by)
    table = pd.DataFrame({"games": g.size(), "win_rate": g["win"].mean(),
                          "mean_vp": g["vp"].mean()})
    lo_hi = [_wilson(w, n) for w, n in zip(g["win"].sum(), g.size())]
    table["ci_low"] = [x[0] for x in lo_hi]
    table["ci_high"] = [x[1] for x in lo_hi]
    return table.round(3)


def side_study(players: int = 4, agents=None, games: int = 1000, seed: int = 0,
               sides=None) -> pd.DataFrame:
    """Win rate by board and side (W-SETUP-4) for ``players`` equal agents (default greedy)."""
    agents = agents or ["greedy"] * players
    return summarise(games_frame(players, agents, games, seed, sides=sides), ["board", "side"])
