"""Confidence intervals shared by every report (one implementation of each).

Rates use the Wilson score interval; means use Student's t.  The normal and t quantiles come
from :mod:`scipy.special` (``scipy.stats`` takes seconds to import).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

__all__ = ["proportion_ci", "t_quantile", "mean_ci", "z_quantile", "Z95", "agent_results"]

#: The 97.5% quantile of the standard normal: the half-width of a 95% interval in standard
#: errors (``z_quantile(0.95)``, kept as a number so that no module imports scipy to get it).
Z95 = 1.959963984540054


def z_quantile(level: float = 0.95) -> float:
    """The two-sided ``level`` quantile of the standard normal (1.95996... for 0.95)."""
    if level == 0.95:
        return Z95
    from scipy.special import ndtri         # heavy: imported when first needed
    return float(ndtri(0.5 + level / 2))


def proportion_ci(k: float, n: int, level: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a rate ``k / n`` (fractions; ``k`` may count a shared win as
    a fraction, e.g. 7.5 of 10); ``(nan, nan)`` when ``n == 0``.

    The closed form of scipy's ``binomtest(k, n).proportion_ci(method="wilson")``.
    """
    if n == 0:
        return float("nan"), float("nan")
    z = z_quantile(level)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(max(p * (1 - p), 0.0) / n + z * z / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def t_quantile(level: float, df: float) -> float:
    """The two-sided ``level`` quantile of Student's t with ``df`` degrees of freedom."""
    from scipy.special import stdtrit       # heavy: imported when first needed
    return float(stdtrit(df, 0.5 + level / 2))


def mean_ci(x, level: float = 0.95) -> tuple[float, float, float]:
    """Mean and t-interval of a sample: ``(mean, low, high)``; a sample of fewer than two
    values or with no spread gives ``(mean, mean, mean)``."""
    x = np.asarray(x, dtype=float)
    m = float(x.mean()) if len(x) else float("nan")
    if len(x) < 2 or np.all(x == x[0]):
        return m, m, m
    half = t_quantile(level, len(x) - 1) * float(x.std(ddof=1)) / math.sqrt(len(x))
    return m, m - half, m + half


def agent_results(frame: pd.DataFrame, agents) -> pd.DataFrame:
    """Per agent of ``agents``, from a table of one row per game and seat with ``agent``,
    ``win`` (a share: 1/k for each of k winners), ``vp`` and ``place`` (1 = first): seats
    played, wins, win rate (nan without a seat) with its 95% Wilson interval, mean VP and
    mean place (a ladder's plain game results)."""
    rows = []
    for a in agents:
        x = frame[frame["agent"] == a]
        n = len(x)
        lo, hi = proportion_ci(x["win"].sum(), n)
        rows.append({"agent": a, "seats": n, "wins": x["win"].sum(),
                     "win_rate": x["win"].mean() if n else float("nan"), "ci_low": lo,
                     "ci_high": hi, "mean_vp": x["vp"].mean(), "mean_place": x["place"].mean()})
    return pd.DataFrame(rows)
