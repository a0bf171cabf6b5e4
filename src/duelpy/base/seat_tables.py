"""Study tables of games with one row per game and seat (7 Wonders, Architects): columns
``arm``, ``game``, ``seat``, ``win`` (a share: 1/k for each of k winners) and ``vp``, and the
groups a game reports by (a wonder, a board and side, a seat).  Rates get Wilson intervals;
changes between arms get normal intervals, paired on the same games when the arms deal alike.
"""
from __future__ import annotations

import math
from typing import Any, Callable

import pandas as pd

from duelpy.base.errors import StudyError
from duelpy.base.stats import Z95, proportion_ci

__all__ = ["summarise", "paired_change", "independent_change", "pct", "change_interval",
           "markdown_table", "study_int", "study_file_head", "check_study_numbers"]


def summarise(frame: pd.DataFrame, by: Any) -> pd.DataFrame:
    """Win rate, its 95% Wilson interval and mean VP grouped by ``by`` (a column or
    columns): columns ``games``, ``win_rate``, ``ci_low``, ``ci_high``, ``mean_vp``."""
    g = frame.groupby(by)
    table = pd.DataFrame({"games": g.size(), "win_rate": g["win"].mean(),
                          "mean_vp": g["vp"].mean()})
    lo_hi = [proportion_ci(w, n) for w, n in zip(g["win"].sum(), g.size())]
    table["ci_low"] = [x[0] for x in lo_hi]
    table["ci_high"] = [x[1] for x in lo_hi]
    return table[["games", "win_rate", "ci_low", "ci_high", "mean_vp"]]


def paired_change(frame: pd.DataFrame, arm: str, control: str = "Control",
                  by: Any = "seat") -> pd.DataFrame:
    """The change of the win rate by ``by`` (a column or columns, read in the control arm)
    from ``control`` to ``arm`` on the same games: the mean of the per-game differences of
    each seat's win share, with a normal 95% interval clipped to [-1, 1].  Columns
    ``games``, ``control``, ``treatment``, ``change``, ``ci_low``, ``ci_high``; the interval
    is NaN where it is undefined (one game, or every game's difference the same, e.g. no
    game changed)."""
    keys = [by] if isinstance(by, str) else list(by)
    a = frame[frame["arm"] == control]
    b = frame[frame["arm"] == arm]
    both = a.merge(b, on=["game", "seat"], suffixes=("", "_t"), how="inner")
    both["d"] = both["win_t"] - both["win"]
    g = both.groupby(keys if len(keys) > 1 else keys[0])
    n = g.size()
    mean = g["d"].mean()
    sd = g["d"].std(ddof=1)
    half = (Z95 * sd / n.pow(0.5)).where(sd > 0)     # NaN: no spread, no normal interval
    return pd.DataFrame({"games": n, "control": g["win"].mean(),
                         "treatment": g["win_t"].mean(), "change": mean,
                         "ci_low": (mean - half).clip(lower=-1.0),
                         "ci_high": (mean + half).clip(upper=1.0)})


def independent_change(frame: pd.DataFrame, arm: str, control: str, by: Any) -> pd.DataFrame:
    """The change of the win rate by ``by`` from ``control`` to ``arm`` as the difference of
    two independent rates, with a normal 95% interval (the variance of a win share per
    seat, E[w^2] - E[w]^2) clipped to [-1, 1].  Columns as :func:`paired_change`'s
    (``games`` of the treatment); a group absent from either arm is left out."""
    keys = [by] if isinstance(by, str) else list(by)
    a = summarise(frame[frame["arm"] == control], by)
    b = summarise(frame[frame["arm"] == arm], by)
    both = a.merge(b, left_index=True, right_index=True, suffixes=("_c", "_t"))
    pc, pt = both["win_rate_c"], both["win_rate_t"]
    var = frame.assign(w2=frame["win"] ** 2).groupby(["arm"] + keys)["w2"].mean()
    vc = var.loc[control].reindex(both.index) - pc ** 2
    vt = var.loc[arm].reindex(both.index) - pt ** 2
    half = Z95 * (vc / both["games_c"] + vt / both["games_t"]).clip(lower=0) ** 0.5
    d = pt - pc
    return pd.DataFrame({"games": both["games_t"], "control": pc, "treatment": pt,
                         "change": d, "ci_low": (d - half).clip(lower=-1.0),
                         "ci_high": (d + half).clip(upper=1.0)})


def pct(x: Any) -> str:
    """A rate as ``12.3%``; ``–`` for None or NaN."""
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def change_interval(r: Any) -> str:
    """A change's 95% interval as text (points, signed); an undefined one says why."""
    if pd.isna(r.ci_low) or pd.isna(r.ci_high):
        if r.games < 2:
            return "n/a (1 game)"
        return "n/a (no game changed)" if r.change == 0 else "n/a (every game changed alike)"
    return f"{100 * r.ci_low:+.1f} to {100 * r.ci_high:+.1f}"


def markdown_table(head: list[str], rows: list[list[str]], left: set[str]) -> str:
    """A Markdown table of strings; the columns named in ``left`` are left-aligned, the
    others right-aligned."""
    lines = ["| " + " | ".join(head) + " |",
             "| " + " | ".join("---" if h in left else "---:" for h in head) + " |"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return "\n".join(lines)


def study_int(value: Any, where: str, lo: int, hi: int) -> int:
    """``value``, an integer (not a bool) from ``lo`` to ``hi``; StudyError naming ``where``
    otherwise."""
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise StudyError(f"{where} must be an integer from {lo:,} to {hi:,}, not {value!r}")
    return value


def study_file_head(d: dict, where: str, top_keys: tuple[str, ...]
                    ) -> tuple[Callable[[str], str], int, Any, str, list]:
    """What every seat game's study file has, read from its table ``d`` (``where`` names it
    in errors: ``"study"``, or ``"FILE:"``): ``(at, players, seats, name, treatments)`` —
    ``at(key)`` the name of a key in errors, ``players`` (2..7, default 4), the ``[agents]``
    table's ``seats`` (default ``"greedy"``), ``name`` (default ""), and the list of the
    ``[[treatment]]`` tables (one table allowed).  StudyError for a key outside ``top_keys``
    or a bad value."""
    at: Callable[[str], str] = ((lambda k: f"{where} {k}") if where.endswith(":")
                                else (lambda k: f"{where}.{k}"))
    unknown = sorted(set(d) - set(top_keys))
    if unknown:
        raise StudyError(f"{where}: unknown key {unknown[0]!r} (keys: game, "
                         f"{', '.join(top_keys)})")
    players = study_int(d.get("players", 4), at("players"), 2, 7)
    agents = d.get("agents", {})
    if not isinstance(agents, dict) or set(agents) - {"seats"}:
        raise StudyError(f"{at('agents')} must be a table with the key seats (a list of "
                         f"agents, or one agent for every seat)")
    name = d.get("name", "")
    if not isinstance(name, str):
        raise StudyError(f"{at('name')} must be a string, not {name!r}")
    treats = d.get("treatment", [])
    if isinstance(treats, dict):
        treats = [treats]
    if not isinstance(treats, list):
        raise StudyError(f"{at('treatment')} must be an array of tables ([[treatment]])")
    return at, players, agents.get("seats", "greedy"), name, treats


def check_study_numbers(players: int, games: int, seed: int, chunk_size: int | None) -> None:
    """StudyError unless ``players`` is 2..7, ``games`` 1..10^9, ``seed`` 0..2^64 - 1 and
    ``chunk_size`` None or 1..10^7 (integers, not bools)."""
    study_int(players, "players", 2, 7)
    study_int(games, "games", 1, 10**9)
    study_int(seed, "seed", 0, 2**64 - 1)
    if chunk_size is not None:
        study_int(chunk_size, "chunk_size", 1, 10**7)
