"""Summaries of a per-game results table, with 95% confidence intervals (scipy)."""
from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import stats

VICTORIES = ("civilian", "military", "scientific", "shared")


def proportion_ci(k: int, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a proportion k/n (as fractions); (nan, nan) when n == 0."""
    if n == 0:
        return float("nan"), float("nan")
    ci = stats.binomtest(int(k), int(n)).proportion_ci(confidence_level=level, method="wilson")
    return float(ci.low), float(ci.high)


def mean_ci(x, level: float = 0.95) -> tuple[float, float, float]:
    """Mean and t-interval of a sample: (mean, low, high)."""
    x = np.asarray(x, dtype=float)
    m = float(x.mean()) if len(x) else float("nan")
    if len(x) < 2 or np.all(x == x[0]):
        return m, m, m
    lo, hi = stats.t.interval(level, len(x) - 1, loc=m, scale=stats.sem(x))
    return m, float(lo), float(hi)


def summary(df: pd.DataFrame) -> pd.DataFrame:
    """Outcome summary of a results table: one row per line of the report.

    Rows: wins of P1 and P2 (by seat), shared victories, wins of each agent, each victory
    type, and the mean VP of each seat; columns ``count``, ``rate`` (fraction of games, or the
    mean for VP), ``ci_low``, ``ci_high`` (95%).
    """
    n = len(df)
    rows = []

    def prop(label, k):
        lo, hi = proportion_ci(k, n)
        rows.append({"": label, "count": int(k), "rate": k / n if n else np.nan,
                     "ci_low": lo, "ci_high": hi})

    prop("P1 wins", (df["winner"] == 0).sum())
    prop("P2 wins", (df["winner"] == 1).sum())
    prop("shared victories", (df["winner"] == -1).sum())
    agents = sorted(set(df["p1"]) | set(df["p2"]))
    if len(agents) > 1:
        for agent in agents:
            prop(f"{agent} wins", (df["winner_agent"] == agent).sum())
    for v in VICTORIES[:3]:
        prop(f"{v} victories", (df["victory"] == v).sum())
    for p in (1, 2):
        m, lo, hi = mean_ci(df[f"vp_total_p{p}"])
        rows.append({"": f"mean VP of P{p}", "count": n, "rate": m, "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows).set_index("")
