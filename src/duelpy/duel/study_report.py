"""The report of a balance study: the numbers (pandas DataFrames with 95% intervals from
scipy) and their renderings as Markdown, HTML and rich tables.

Every number is computed from the per-game table of :mod:`duelpy.study.run` (one row per game and
arm).  Win rates are fractions of games won outright (a shared victory is not a win); their
intervals are Wilson score intervals (:func:`duelpy.duel.summary.proportion_ci`).  Treatments are
compared with the control game by game (the same seeds and seats): paired differences, with
t-intervals on the per-game differences and McNemar's exact test for win rates.
"""
from __future__ import annotations

import html
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from rich.console import Console

from duelcore import data
from duelcore.engine import VP_CATEGORIES

from duelpy.base.stats import Z95, mean_ci, proportion_ci
from duelpy.base.tables import Column, print_table
from duelpy.duel.agents import parse_agent
from duelpy.duel.options import CONTROL, DEFAULT_OPTIONS, describe_options

__all__ = ["StudyReport", "build_report", "win_rate_by_item", "VICTORY_LABELS", "MIN_GAMES"]

#: Victory types as the rulebook names them, in the table's order.
VICTORY_LABELS = {"civilian": "civilian victory", "military": "Military Supremacy",
                  "scientific": "Scientific Supremacy", "shared": "shared victory"}
#: Below this many games a win rate gets a "too few games" warning whatever its interval.
MIN_GAMES = 30


def _binom_p(k: int, n: int) -> float:
    """Two-sided exact binomial test of k successes in n against 1/2 (NaN when n == 0: no
    games, no test)."""
    from scipy import stats                 # heavy: imported when first needed
    return float(stats.binomtest(int(k), int(n), 0.5).pvalue) if n else float("nan")


def paired_rate_difference(b: int, k: int, n: int) -> tuple[float, float, float, float]:
    """The difference of two paired rates, ``(b - k) / n``, with an exact 95% interval and
    the exact McNemar p-value that agree with each other.

    ``b`` games count for the treatment only, ``k`` for the control only (the discordant
    pairs), of ``n`` paired games.  Given the ``m = b + k`` discordant pairs, ``b`` is
    binomial with probability ``q`` (no difference: ``q = 1/2``).  The interval is the
    central Clopper-Pearson interval of ``q`` mapped to the difference, ``(2q - 1) m / n``,
    and the p-value the equal-tailed exact test of ``q = 1/2`` whose inversion that interval
    is: the interval excludes 0 exactly when p < 0.05.  No discordant pair: difference 0,
    interval [0, 0], p = 1.  Returns ``(difference, low, high, p)`` (fractions)."""
    m = b + k
    if n == 0:
        nan = float("nan")
        return nan, nan, nan, nan
    if m == 0:
        return 0.0, 0.0, 0.0, 1.0
    from scipy import stats                 # heavy: imported when first needed
    lo, hi = stats.binomtest(b, m).proportion_ci(0.95, method="exact")
    p = min(1.0, 2 * min(stats.binom.cdf(b, m, 0.5), stats.binom.sf(b - 1, m, 0.5)))
    return (b - k) / n, (2 * lo - 1) * m / n, (2 * hi - 1) * m / n, float(p)


def games_needed(p: float) -> float:
    """Games for a true win rate ``p`` to give a 95% interval that excludes 50% (normal
    approximation): z^2 p (1 - p) / (p - 1/2)^2; inf at p = 1/2."""
    if not np.isfinite(p) or abs(p - 0.5) < 1e-12:
        return math.inf
    return Z95 ** 2 * p * (1 - p) / (p - 0.5) ** 2


def note(n: int, rate: float, lo: float, hi: float) -> str:
    """The warning of a win rate: '' when its interval excludes 50% with enough games."""
    if n == 0:
        return "no games"
    if n < MIN_GAMES:
        return f"⚠ too few games ({n})"
    if lo <= 0.5 <= hi:
        need = games_needed(rate)
        more = ("" if not np.isfinite(need) or need > 1e6 else
                f" (~{math.ceil(need):,} needed at {100 * rate:.1f}%)")
        return f"⚠ can't tell from 50% with {n:,} games{more}"
    return ""


def _bits(masks, k: int) -> np.ndarray:
    """(games, k) booleans: bit j of each mask."""
    m = np.asarray(masks, dtype=np.int64)
    return ((m[:, None] >> np.arange(k)) & 1).astype(bool)


def win_rate_by_item(df: pd.DataFrame, column: str, names) -> pd.DataFrame:
    """Win rate of the player who holds each item, from that player's point of view.

    Parameters
    ----------
    df : DataFrame
        Per-game table (one row per game).
    column : str
        Bitmask column stem: ``"wonders_drafted_mask"``, ``"wonders_built_mask"`` or
        ``"tokens_mask"`` (``_p1`` and ``_p2`` are appended).
    names : sequence of str
        Item names by bit (``data.WONDER_NAMES``, ``data.TOKEN_NAMES``).

    Returns
    -------
    DataFrame
        Index: item name; columns ``games`` (games in which a player held it), ``wins`` (games
        that player won), ``win_rate`` (fraction), ``ci_low``, ``ci_high`` (95% Wilson),
        ``p_value`` (exact binomial test against 50%), ``note`` (the warning, or '').
    """
    k = len(names)
    held1, held2 = _bits(df[f"{column}_p1"], k), _bits(df[f"{column}_p2"], k)
    won1 = (df["winner"].to_numpy() == 0)[:, None]
    won2 = (df["winner"].to_numpy() == 1)[:, None]
    games = held1.sum(0) + held2.sum(0)
    wins = (held1 & won1).sum(0) + (held2 & won2).sum(0)
    rows = []
    for j, name in enumerate(names):
        n, w = int(games[j]), int(wins[j])
        lo, hi = proportion_ci(w, n)
        rate = w / n if n else float("nan")
        rows.append({"": name, "games": n, "wins": w, "win_rate": rate, "ci_low": lo,
                     "ci_high": hi, "p_value": _binom_p(w, n), "note": note(n, rate, lo, hi)})
    return pd.DataFrame(rows).set_index("")


def _rate(k: int, n: int, key: str = "win_rate") -> dict:
    """``{key: k / n, "ci_low", "ci_high"}``: a rate with its 95% Wilson interval (NaN for
    no games)."""
    lo, hi = proportion_ci(k, n)
    return {key: k / n if n else np.nan, "ci_low": lo, "ci_high": hi}


def _outcomes(df: pd.DataFrame, arms) -> pd.DataFrame:
    rows = []
    for arm in arms:
        g = df[df["treatment"] == arm]
        n = len(g)
        w1, w2 = int((g["winner"] == 0).sum()), int((g["winner"] == 1).sum())
        lo, hi = proportion_ci(w1, n)
        rate = w1 / n if n else float("nan")
        rows.append({"": arm, "games": n, "p1_wins": w1, "p2_wins": w2,
                     "shared": n - w1 - w2, "p1_win_rate": rate, "ci_low": lo, "ci_high": hi,
                     "p_value": _binom_p(w1, n), "note": note(n, rate, lo, hi)})
    return pd.DataFrame(rows).set_index("")


def _agent_wins(df: pd.DataFrame, arms) -> pd.DataFrame:
    rows = []
    agents = sorted(set(df["p1"]) | set(df["p2"]))
    for arm in arms:
        g = df[df["treatment"] == arm]
        for a in agents:
            k, n = int((g["winner_agent"] == a).sum()), len(g)
            rows.append({"arm": arm, "agent": a, "games": n, "wins": k, **_rate(k, n)})
    return pd.DataFrame(rows).set_index(["arm", "agent"])


def _victories(df: pd.DataFrame, arms) -> pd.DataFrame:
    rows = []
    for arm in arms:
        g = df[df["treatment"] == arm]
        n = len(g)
        for v, label in VICTORY_LABELS.items():
            k = int((g["victory"].astype(str) == v).sum())
            rows.append({"arm": arm, "victory": label, "games": k, **_rate(k, n, "share")})
    return pd.DataFrame(rows).set_index(["arm", "victory"])


def _vp(df: pd.DataFrame, arms) -> pd.DataFrame:
    rows = []
    for arm in arms:
        g = df[df["treatment"] == arm]
        series = {"P1": g["vp_total_p1"], "P2": g["vp_total_p2"],
                  "P1 − P2": g["vp_total_p1"].astype(int) - g["vp_total_p2"].astype(int)}
        for label, x in series.items():
            x = x.to_numpy(dtype=float)
            m, lo, hi = mean_ci(x)
            rows.append({"arm": arm, "VP of": label, "mean": m, "ci_low": lo, "ci_high": hi,
                         "sd": float(np.std(x, ddof=1)) if len(x) > 1 else float("nan"),
                         "p10": float(np.percentile(x, 10)), "median": float(np.median(x)),
                         "p90": float(np.percentile(x, 90)), "min": float(x.min()),
                         "max": float(x.max())})
    return pd.DataFrame(rows).set_index(["arm", "VP of"])


def _vp_categories(g: pd.DataFrame) -> pd.DataFrame:
    rows = []
    for cat in VP_CATEGORIES:
        rows.append({"": cat, "P1": float(g[f"vp_{cat}_p1"].mean()),
                     "P2": float(g[f"vp_{cat}_p2"].mean())})
    return pd.DataFrame(rows).set_index("")


def _game_shape(df: pd.DataFrame, arms) -> pd.DataFrame:
    rows = []
    for arm in arms:
        g = df[df["treatment"] == arm]
        rows.append({"": arm, "actions": float(g["n_decisions"].mean()),
                     "play_again_p1": float(g["play_again_p1"].mean()),
                     "play_again_p2": float(g["play_again_p2"].mean()),
                     "p1_began_age2": float((g["starter_age2"] == 0).sum() /
                                            max(1, (g["starter_age2"] >= 0).sum())),
                     "p1_began_age3": float((g["starter_age3"] == 0).sum() /
                                            max(1, (g["starter_age3"] >= 0).sum()))})
    return pd.DataFrame(rows).set_index("")


def paired_difference(x_treated, x_control, binary: bool) -> dict:
    """Treatment minus control on paired games.

    Parameters
    ----------
    x_treated, x_control : array-like, shape (games,)
        The measure in the same games (same seeds and seats) under each arm.
    binary : bool
        0/1 measures (a win): the exact interval and McNemar's exact test of
        :func:`paired_rate_difference`, which agree; otherwise the paired t-interval and
        t-test.

    Returns
    -------
    dict
        ``control``, ``treated`` (means), ``difference`` (mean of treated - control),
        ``ci_low``, ``ci_high`` (95% interval of the paired difference), ``p_value``,
        ``ci_unpaired_low``, ``ci_unpaired_high`` (Welch interval, as if the games were
        independent, for comparison).
    """
    t = np.asarray(x_treated, dtype=float)
    c = np.asarray(x_control, dtype=float)
    if t.shape != c.shape:
        raise ValueError(f"paired samples differ in length: {t.shape} and {c.shape}")
    d = t - c
    m, lo, hi = mean_ci(d)
    if binary:
        b, k = int(((t == 1) & (c == 0)).sum()), int(((t == 0) & (c == 1)).sum())
        m, lo, hi, p = paired_rate_difference(b, k, len(d))
    elif len(d) < 2 or np.all(d == d[0]):
        p = 1.0 if len(d) and d[0] == 0 else float("nan")
    else:
        from scipy import stats             # heavy: imported when first needed
        p = float(stats.ttest_rel(t, c).pvalue)
    se = math.sqrt((t.var(ddof=1) if len(t) > 1 else 0) / max(len(t), 1)
                   + (c.var(ddof=1) if len(c) > 1 else 0) / max(len(c), 1))
    return {"control": float(c.mean()), "treated": float(t.mean()), "difference": m,
            "ci_low": lo, "ci_high": hi, "p_value": p,
            "ci_unpaired_low": m - Z95 * se, "ci_unpaired_high": m + Z95 * se}


EFFECT_MEASURES = ("P1 win rate", "civilian victory", "Military Supremacy",
                   "Scientific Supremacy", "VP of P1", "VP of P2", "VP margin (P1 − P2)")


def _effects(df: pd.DataFrame, arms) -> pd.DataFrame:
    control = df[df["treatment"] == arms[0]].sort_values("game")
    rows = []
    for arm in arms[1:]:
        g = df[df["treatment"] == arm].sort_values("game")
        if not np.array_equal(g["seed"].to_numpy(), control["seed"].to_numpy()):
            raise ValueError(f"treatment {arm!r} and the control were not played on the same "
                             f"seeds")
        measures = {
            "P1 win rate": (lambda x: (x["winner"] == 0).astype(float), True),
            "civilian victory": (lambda x: (x["victory"].astype(str) == "civilian")
                                 .astype(float), True),
            "Military Supremacy": (lambda x: (x["victory"].astype(str) == "military")
                                   .astype(float), True),
            "Scientific Supremacy": (lambda x: (x["victory"].astype(str) == "scientific")
                                     .astype(float), True),
            "VP of P1": (lambda x: x["vp_total_p1"].astype(float), False),
            "VP of P2": (lambda x: x["vp_total_p2"].astype(float), False),
            "VP margin (P1 − P2)": (lambda x: x["vp_total_p1"].astype(float)
                                    - x["vp_total_p2"].astype(float), False),
        }
        for label in EFFECT_MEASURES:
            f, binary = measures[label]
            r = paired_difference(f(g).to_numpy(), f(control).to_numpy(), binary)
            rows.append({"treatment": arm, "measure": label, **r})
    cols = ["control", "treated", "difference", "ci_low", "ci_high", "p_value",
            "ci_unpaired_low", "ci_unpaired_high"]
    if not rows:
        return pd.DataFrame(columns=["treatment", "measure"] + cols).set_index(
            ["treatment", "measure"])
    return pd.DataFrame(rows).set_index(["treatment", "measure"])


# --------------------------------------------------------------------------------------------

def _digits(*xs) -> int:
    """Decimals that show rare rates (and the two ends of a narrow interval) apart: 1, or
    up to 3 below 1%."""
    finite = [abs(x) for x in xs if x is not None and np.isfinite(x) and x != 0]
    small = min(finite, default=1.0)
    digits = 1 if small >= 0.01 else 2 if small >= 0.001 else 3
    if len(xs) == 2 and all(x is not None and np.isfinite(x) for x in xs):
        while digits < 3 and f"{100 * xs[0]:.{digits}f}" == f"{100 * xs[1]:.{digits}f}" \
                and xs[0] != xs[1]:
            digits += 1
    return digits


def _pct(x, digits=None):
    if x is None or not np.isfinite(x):
        return "n/a"
    return f"{100 * x:.{_digits(x) if digits is None else digits}f}%"


def _ci_pct(lo, hi, digits=None):
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return "n/a"
    d = _digits(lo, hi) if digits is None else digits
    return f"{100 * lo:.{d}f} – {100 * hi:.{d}f}%"


def _num(x, digits=1):
    return "–" if x is None or not np.isfinite(x) else f"{x:.{digits}f}"


def _pval(p):
    if not np.isfinite(p):
        return "n/a"
    return "< 0.001" if p < 0.001 else f"{p:.3f}"


@dataclass
class Section:
    """One part of the report: a heading, a sentence, a table of display strings."""

    title: str
    text: str
    table: pd.DataFrame | None = None


@dataclass
class StudyReport:
    """The numbers of a study and their renderings.

    Attributes (DataFrames; rates are fractions, VP in victory points)
    ----------
    outcomes : index arm; games, p1_wins, p2_wins, shared, p1_win_rate, ci_low, ci_high,
        p_value (exact binomial test against 50%), note.
    agent_wins : index (arm, agent); games, wins, win_rate, ci_low, ci_high.
    victories : index (arm, victory type); games, share, ci_low, ci_high.
    wonders_drafted, wonders_built, tokens : index wonder / progress token; see
        :func:`win_rate_by_item` (control games, from the holder's point of view).
    effects : index (treatment, measure); see :func:`paired_difference`.
    vp : index (arm, 'P1' / 'P2' / 'P1 − P2'); mean, ci_low, ci_high, sd, p10, median, p90,
        min, max of final VP.
    vp_categories : index VP category; mean VP of P1 and P2 (control games).
    game_shape : index arm; mean actions, Play Again turns, share of Ages II/III begun by P1.
    warnings : list of str.
    plots : dict name -> Path of the PNG files (filled by the plotting step).
    """

    title: str
    spec: dict
    games_per_arm: int
    arms: list
    outcomes: pd.DataFrame
    agent_wins: pd.DataFrame
    victories: pd.DataFrame
    wonders_drafted: pd.DataFrame
    wonders_built: pd.DataFrame
    tokens: pd.DataFrame
    effects: pd.DataFrame
    vp: pd.DataFrame
    vp_categories: pd.DataFrame
    game_shape: pd.DataFrame
    warnings: list = field(default_factory=list)
    plots: dict = field(default_factory=dict)

    # ---- the sections, as display strings
    def sections(self) -> list[Section]:
        """The report as a list of :class:`Section` (tables of strings), in reading order."""
        out = []
        o = self.outcomes
        t = pd.DataFrame({
            "games": o["games"].map("{:,}".format),
            "P1 wins": o["p1_wins"].map("{:,}".format),
            "P2 wins": o["p2_wins"].map("{:,}".format),
            "shared": o["shared"].map("{:,}".format),
            "P1 win rate": o["p1_win_rate"].map(_pct),
            "95% CI": [_ci_pct(a, b) for a, b in zip(o["ci_low"], o["ci_high"])],
            "p (vs 50%)": o["p_value"].map(_pval),
            "note": o["note"]})
        c = o.iloc[0]
        out.append(Section(
            "P1's win rate",
            f"P1 (who begins) won {_pct(c['p1_win_rate'])} of the {c['games']:,} control "
            f"games (95% CI {_ci_pct(c['ci_low'], c['ci_high'])}); a shared victory counts as "
            f"no win.", t))
        if len(self.agent_wins.index.get_level_values("agent").unique()) > 1:
            a = self.agent_wins.reset_index()
            t = pd.DataFrame({"arm": a["arm"], "agent": a["agent"],
                              "wins": a["wins"].map("{:,}".format),
                              "win rate": a["win_rate"].map(_pct),
                              "95% CI": [_ci_pct(x, y) for x, y in zip(a["ci_low"], a["ci_high"])]}
                             ).set_index("arm")
            out.append(Section("Wins by agent", "Both seats together.", _blank_repeats(t)))
        v = self.victories.reset_index()
        t = v.pivot(index="arm", columns="victory", values="share").loc[self.arms,
                                                                        list(VICTORY_LABELS.values())]
        cis = v.set_index(["arm", "victory"])
        t = pd.DataFrame({lab: [f"{_pct(t.loc[arm, lab])} ({_ci_pct(*cis.loc[(arm, lab), ['ci_low', 'ci_high']])})"
                                for arm in self.arms] for lab in VICTORY_LABELS.values()},
                         index=pd.Index(self.arms, name=""))
        out.append(Section("Victory types", "Share of games (95% CI).", t))
        for title, frame, what in (
                ("Win rate by wonder drafted", self.wonders_drafted, "drafted the wonder"),
                ("Win rate by wonder built", self.wonders_built, "built the wonder"),
                ("Win rate by progress token", self.tokens, "took the progress token")):
            f = frame.sort_values("win_rate", ascending=False, na_position="last")
            t = pd.DataFrame({"games": f["games"].map("{:,}".format),
                              "win rate": f["win_rate"].map(_pct),
                              "95% CI": [_ci_pct(x, y) for x, y in zip(f["ci_low"], f["ci_high"])],
                              "p (vs 50%)": f["p_value"].map(_pval), "note": f["note"]})
            t.index.name = ""
            out.append(Section(title, f"Control games, from the point of view of the player "
                                      f"who {what}: games = games in which a player {what}. "
                                      f"Each interval is for its own row: of {len(t)} rows, "
                                      f"about {0.05 * len(t):.1f} would exclude 50% by chance "
                                      f"alone even if every rate were 50%.", t))
        if len(self.effects):
            e = self.effects.reset_index()
            rows = []
            for _, r in e.iterrows():
                rate = not r["measure"].startswith("VP")
                fmt = _pct if rate else _num
                d = _digits(r["ci_low"], r["ci_high"])
                diff = (f"{100 * r['difference']:+.{d}f} points" if rate
                        else f"{r['difference']:+.2f} VP")
                ci = (f"{100 * r['ci_low']:+.{d}f} – {100 * r['ci_high']:+.{d}f}" if rate
                      else f"{r['ci_low']:+.2f} – {r['ci_high']:+.2f}")
                rows.append({"treatment": r["treatment"], "measure": r["measure"],
                             "control": fmt(r["control"]), "treated": fmt(r["treated"]),
                             "difference": diff, "95% CI (paired)": ci,
                             "p": _pval(r["p_value"])})
            t = pd.DataFrame(rows).set_index("treatment")
            out.append(Section(
                "Treatments vs control",
                "Each treatment replays the control's seeds and seats, so the difference is "
                "taken game by game (paired). Rates: an exact 95% interval on the games that "
                "differ and McNemar's exact p, which agree (the interval excludes 0 exactly "
                "when p < 0.05); VP: the paired t-interval and t-test.",
                _blank_repeats(t)))
        else:
            out.append(Section("Treatments vs control", "This study has no treatment."))
        vp = self.vp.reset_index()
        t = pd.DataFrame({"arm": vp["arm"], "VP of": vp["VP of"],
                          "mean": vp["mean"].map(lambda x: _num(x, 2)),
                          "95% CI": [f"{_num(a, 2)} – {_num(b, 2)}"
                                     for a, b in zip(vp["ci_low"], vp["ci_high"])],
                          "sd": vp["sd"].map(_num), "p10": vp["p10"].map(_num),
                          "median": vp["median"].map(_num), "p90": vp["p90"].map(_num),
                          "min–max": [f"{a:.0f} – {b:.0f}" for a, b in zip(vp["min"], vp["max"])]}
                         ).set_index("arm")
        out.append(Section("Final VP", "Victory points at the end of the game (all victory "
                                       "types), mean with its 95% CI and spread.",
                           _blank_repeats(t)))
        cat = self.vp_categories
        t = pd.DataFrame({"P1": cat["P1"].map(lambda x: _num(x, 2)),
                          "P2": cat["P2"].map(lambda x: _num(x, 2))}, index=cat.index)
        out.append(Section("VP by category", "Mean VP of each seat by category (control "
                                             "games).", t))
        g = self.game_shape
        t = pd.DataFrame({"actions": g["actions"].map(_num),
                          "Play Again turns P1": g["play_again_p1"].map(lambda x: _num(x, 2)),
                          "Play Again turns P2": g["play_again_p2"].map(lambda x: _num(x, 2)),
                          "P1 began Age II": g["p1_began_age2"].map(_pct),
                          "P1 began Age III": g["p1_began_age3"].map(_pct)}, index=g.index)
        out.append(Section("Game length", "Mean per game.", t))
        return out

    def header_lines(self) -> list[str]:
        """The study in a few lines: agents, games and seed, control rules, treatments."""
        s = self.spec
        lines = [f"Agents: P1 {s['agents']['p1']}, P2 {s['agents']['p2']}"
                 + (" (seats swapped every other game)" if s["agents"]["alternate"] else ""),
                 f"Games: {self.games_per_arm:,} per arm × {len(self.arms)} arm(s), base seed "
                 f"{s['seed']}",
                 f"Control rules: {s['control_rules']}"]
        for tr in s["treatments"]:
            lines.append(f"Treatment: {tr['name']}" if tr["name"] == tr["what"] else
                         f"Treatment {tr['name']!r}: {tr['what']}")
        return lines

    # ---- renderings
    def to_markdown(self) -> str:
        """The report as Markdown (tables as pipe tables; plots linked as plots/*.png)."""
        out = [f"# {self.title}", ""]
        out += [f"- {line}" for line in self.header_lines()]
        out.append("")
        if self.warnings:
            out += [f"> ⚠ {w}" for w in self.warnings] + [""]
        for sec in self.sections():
            out += [f"## {sec.title}", "", sec.text, ""]
            if sec.table is not None:
                out += [_md_table(sec.table), ""]
        if self.plots:
            out += ["## Plots", ""]
            for name, path in self.plots.items():
                out += [f"![{name}](plots/{Path(path).name})", ""]
        return "\n".join(out)

    def to_html(self) -> str:
        """The report as a standalone HTML page (plots as <img> to plots/*.png)."""
        e = html.escape
        body = [f"<h1>{e(self.title)}</h1>", "<ul>"]
        body += [f"<li>{e(line)}</li>" for line in self.header_lines()] + ["</ul>"]
        for w in self.warnings:
            body.append(f'<p class="warn">⚠ {e(w)}</p>')
        for sec in self.sections():
            body += [f"<h2>{e(sec.title)}</h2>", f"<p>{_md_inline(sec.text)}</p>"]
            if sec.table is not None:
                body.append(_html_table(sec.table))
        if self.plots:
            body.append("<h2>Plots</h2>")
            for name, path in self.plots.items():
                body.append(f'<figure><img src="plots/{e(Path(path).name)}" alt="{e(name)}">'
                            f"<figcaption>{e(name)}</figcaption></figure>")
        style = ("body{font-family:system-ui,sans-serif;max-width:72em;margin:2em auto;"
                 "padding:0 1em;color:#222}table{border-collapse:collapse;margin:.5em 0 1.5em}"
                 "th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}"
                 ".text{text-align:left}th{background:#f3f3f3}"
                 ".warn{color:#a15c00}img{max-width:100%}")
        return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                f"<title>{e(self.title)}</title><style>{style}</style></head><body>\n"
                + "\n".join(body) + "\n</body></html>\n")

    def print(self, console=None, plots: bool = True) -> None:
        """Print the report to the terminal with rich tables; ``plots``: end with a line
        listing the plot files (``duel study`` leaves it out: its last line lists every file
        written, the plots included)."""
        console = console or Console()
        console.rule(f"[bold]{self.title}")
        for line in self.header_lines():
            console.print(line, highlight=False)
        for w in self.warnings:
            console.print(f"[yellow]⚠ {w}[/]", highlight=False)
        for sec in self.sections():
            if sec.table is None:
                console.print(f"\n[bold]{sec.title}[/]: {sec.text}", highlight=False)
                continue
            t = sec.table
            columns = [Column(t.index.name or "", [str(i) for i in t.index], "left")]
            for col in t.columns:
                text = col in TEXT_COLUMNS
                columns.append(Column(str(col), [str(x) for x in t[col]],
                                      "left" if text else "right", wrap=col in WRAP_COLUMNS))
            styles = ["yellow" if "⚠" in str(row.get("note", "")) else None
                      for _, row in t.iterrows()]
            keys = 2 if len(t.columns) and t.columns[0] in TEXT_COLUMNS else 1
            print_table(console, columns, title=sec.title, caption=sec.text.replace("**", ""),
                        row_styles=styles, keys=keys)
        if plots and self.plots:
            console.print("plots: " + ", ".join(str(p) for p in self.plots.values()),
                          highlight=False)

    def write(self, out_dir) -> dict:
        """Write report.md and report.html in ``out_dir``; returns {name: Path}."""
        out = Path(out_dir)
        paths = {}
        for name, text in (("report.md", self.to_markdown()), ("report.html", self.to_html())):
            tmp = out / f".{name}.tmp"
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, out / name)
            paths[name] = out / name
        return paths


#: Columns of text (left-aligned); the others are numbers (right-aligned).
TEXT_COLUMNS = ("note", "measure", "agent", "VP of")
#: Columns of sentences, wrapped at word boundaries on a narrow terminal (never cut).
WRAP_COLUMNS = ("note",)


def _blank_repeats(t: pd.DataFrame) -> pd.DataFrame:
    """Show each index value only on the first of its consecutive rows."""
    idx = list(t.index)
    shown = [v if i == 0 or v != idx[i - 1] else "" for i, v in enumerate(idx)]
    t = t.copy()
    t.index = pd.Index(shown, name=t.index.name)
    return t


def _md_cell(x) -> str:
    return str(x).replace("|", "\\|").replace("\n", " ")


def _md_table(t: pd.DataFrame) -> str:
    head = [t.index.name or ""] + [str(c) for c in t.columns]
    lines = ["| " + " | ".join(_md_cell(h) for h in head) + " |",
             "|" + "|".join([" --- "] + [" --- " if c in TEXT_COLUMNS else " ---: "
                                         for c in t.columns]) + "|"]
    for idx, row in t.iterrows():
        lines.append("| " + " | ".join(_md_cell(x) for x in [idx, *row]) + " |")
    return "\n".join(lines)


def _md_inline(text: str) -> str:
    """Escape for HTML and turn **bold** into <b>."""
    parts = html.escape(text).split("**")
    return "".join(f"<b>{p}</b>" if i % 2 else p for i, p in enumerate(parts))


def _html_table(t: pd.DataFrame) -> str:
    e = html.escape
    cols = [t.index.name or "", *t.columns]
    left = [i == 0 or c in TEXT_COLUMNS for i, c in enumerate(cols)]
    cls = [' class="text"' if x else "" for x in left]
    head = "".join(f"<th{k}>{e(str(c))}</th>" for c, k in zip(cols, cls))
    rows = []
    for idx, row in t.iterrows():
        warn = ' class="warn"' if "⚠" in str(row.get("note", "")) else ""
        rows.append(f"<tr{warn}>" + "".join(f"<td{k}>{e(str(x))}</td>"
                                            for x, k in zip([idx, *row], cls)) + "</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


# --------------------------------------------------------------------------------------------

def build_report(df: pd.DataFrame, spec) -> StudyReport:
    """Compute the report of a study from its per-game table.

    Parameters
    ----------
    df : DataFrame
        Per-game table of :func:`duelpy.study.run.run_study` (one row per game and arm; needs
        treatment, game, seed, winner, winner_agent, victory, VP, mask, Play Again, starter
        and n_decisions columns).
    spec : duelpy.study.run.StudySpec

    Returns
    -------
    StudyReport

    Raises
    ------
    ValueError
        If a treatment's games were not played on the control's seeds.
    """
    arms = spec.arms
    control = df[df["treatment"] == CONTROL]
    meta = spec.to_dict()
    changed = {k: v for k, v in spec.options.items() if v != DEFAULT_OPTIONS[k]}
    meta["control_rules"] = ("the rulebook's" if not changed else
                             "the rulebook's except " + describe_options(changed))
    meta["treatments"] = [{"name": t.name, "what": describe_options(t.changes)}
                          for t in spec.treatments]
    rep = StudyReport(
        title=spec.name or f"Study: {spec.p1} vs {spec.p2}",
        spec=meta, games_per_arm=spec.games, arms=arms,
        outcomes=_outcomes(df, arms), agent_wins=_agent_wins(df, arms),
        victories=_victories(df, arms),
        wonders_drafted=win_rate_by_item(control, "wonders_drafted_mask", data.WONDER_NAMES),
        wonders_built=win_rate_by_item(control, "wonders_built_mask", data.WONDER_NAMES),
        tokens=win_rate_by_item(control, "tokens_mask", data.TOKEN_NAMES),
        effects=_effects(df, arms), vp=_vp(df, arms), vp_categories=_vp_categories(control),
        game_shape=_game_shape(df, arms))
    if any(getattr(parse_agent(a), "seconds", None) for a in (spec.p1, spec.p2)):
        rep.warnings.append("an agent has a time budget (seconds=): its games depend on the "
                            "machine's speed and load, so they cannot be replayed exactly")
    weak = [n for f in (rep.wonders_drafted, rep.wonders_built, rep.tokens)
            for n, r in f.iterrows() if r["note"].startswith("⚠")]
    if weak:
        rep.warnings.append(f"{len(weak)} of the win rates by wonder or progress token cannot be "
                            f"told apart from 50% with the games played (marked ⚠)")
    return rep
