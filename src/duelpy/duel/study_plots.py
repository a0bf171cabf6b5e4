"""PNG plots of a balance study (matplotlib, Agg backend).

:func:`write_plots` draws, from a :class:`duelpy.study.report.StudyReport` and the per-game
table: the win rate by wonder (drafted and built) and by progress token with 95% error bars,
the victory-type mix of each arm, the distributions of final VP, and the treatment effects.
"""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["write_plots", "PLOT_NAMES"]

#: File stem -> title of every plot (treatment_effects only when the study has treatments).
PLOT_NAMES = {
    "win_rate_by_wonder": "Win rate by wonder",
    "win_rate_by_token": "Win rate by progress token",
    "victory_types": "Victory types",
    "vp_distribution": "Final VP",
    "treatment_effects": "Treatment effects",
}

_COLOURS = {"civilian victory": "#4c72b0", "Military Supremacy": "#c44e52",
            "Scientific Supremacy": "#55a868", "shared victory": "#8c8c8c"}


def _plt():
    import matplotlib
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt
    return plt


def _save(fig, path: Path) -> Path:
    tmp = path.with_name("." + path.name + ".tmp.png")
    fig.savefig(tmp, dpi=110)
    os.replace(tmp, path)
    return path


def _errorbars(ax, frames, labels, markers, colours, title, xlabel):
    """Horizontal win rates with 95% error bars, one row per item, one series per frame."""
    order = frames[0].sort_values("win_rate", na_position="first").index
    y = np.arange(len(order))
    k = len(frames)
    for j, (f, label, m, col) in enumerate(zip(frames, labels, markers, colours)):
        f = f.loc[order]
        off = (j - (k - 1) / 2) * 0.25
        rate = f["win_rate"].to_numpy(dtype=float) * 100
        lo = np.clip(rate - f["ci_low"].to_numpy(dtype=float) * 100, 0, None)
        hi = np.clip(f["ci_high"].to_numpy(dtype=float) * 100 - rate, 0, None)
        ax.errorbar(rate, y + off, xerr=[lo, hi], fmt=m, color=col, ecolor=col, capsize=3,
                    label=label, markersize=6)
    ax.axvline(50, color="grey", linestyle="--", linewidth=1)
    ax.set_yticks(y)
    games = frames[0].loc[order, "games"]
    ax.set_yticklabels([f"{name} (n={n:,})" for name, n in zip(order, games)])
    ax.set_xlabel(xlabel)
    ax.set_title(title)
    ax.grid(axis="x", alpha=0.3)
    if k > 1:
        ax.legend(loc="lower right", fontsize=9)


def write_plots(report, df: pd.DataFrame, out_dir) -> dict:
    """Write the study's PNG plots into ``out_dir`` (created if needed).

    Parameters
    ----------
    report : duelpy.study.report.StudyReport
    df : DataFrame
        The per-game table the report was built from.
    out_dir : str or Path

    Returns
    -------
    dict
        Title -> Path of each PNG written (see :data:`PLOT_NAMES`; treatment effects only when
        the study has treatments).
    """
    plt = _plt()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = {}
    n_control = report.games_per_arm

    # win rate by wonder: drafted and built
    fig, ax = plt.subplots(figsize=(9, 6), layout="constrained")
    _errorbars(ax, [report.wonders_drafted, report.wonders_built],
               ["when drafted", "when built"], ["o", "s"], ["#4c72b0", "#dd8452"],
               f"Win rate of the player who drafted / built each wonder\n"
               f"({n_control:,} control games, 95% intervals)", "win rate (%)")
    paths[PLOT_NAMES["win_rate_by_wonder"]] = _save(fig, out / "win_rate_by_wonder.png")
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(9, 5), layout="constrained")
    _errorbars(ax, [report.tokens], ["when taken"], ["o"], ["#55a868"],
               f"Win rate of the player who took each progress token\n"
               f"({n_control:,} control games, 95% intervals)", "win rate (%)")
    paths[PLOT_NAMES["win_rate_by_token"]] = _save(fig, out / "win_rate_by_token.png")
    plt.close(fig)

    # victory-type mix: one stacked bar per arm
    v = report.victories["share"].unstack("victory").loc[report.arms]
    fig, ax = plt.subplots(figsize=(9, 2.2 + 0.55 * len(report.arms)), layout="constrained")
    left = np.zeros(len(v))
    y = np.arange(len(v))
    for lab, col in _COLOURS.items():
        share = v[lab].to_numpy(dtype=float) * 100 if lab in v else np.zeros(len(v))
        ax.barh(y, share, left=left, color=col, label=lab, height=0.6)
        for yi, (l, s) in enumerate(zip(left, share)):
            if s >= 6:
                ax.text(l + s / 2, yi, f"{s:.0f}%", ha="center", va="center", color="white",
                        fontsize=9)
        left += share
    ax.set_yticks(y)
    ax.set_yticklabels(list(v.index))
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of games (%)")
    ax.set_title("How the games were won")
    fig.legend(ncol=4, loc="outside lower center", fontsize=9, frameon=False)
    paths[PLOT_NAMES["victory_types"]] = _save(fig, out / "victory_types.png")
    plt.close(fig)

    # final VP: histogram of each seat's total, and mean VP by category (control games)
    control = df[df["treatment"] == report.arms[0]]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.5), layout="constrained")
    lo = int(min(control["vp_total_p1"].min(), control["vp_total_p2"].min()))
    hi = int(max(control["vp_total_p1"].max(), control["vp_total_p2"].max()))
    bins = np.arange(lo, hi + 3, max(1, (hi - lo) // 40 + 1)) - 0.5
    for seat, col in (("p1", "#4c72b0"), ("p2", "#dd8452")):
        x = control[f"vp_total_{seat}"].to_numpy(dtype=float)
        ax1.hist(x, bins=bins, histtype="step", linewidth=1.5, color=col,
                 label=f"{seat.upper()} (mean {x.mean():.1f}, sd {x.std(ddof=1) if len(x) > 1 else 0:.1f})")
        ax1.axvline(x.mean(), color=col, linestyle=":", linewidth=1)
    ax1.set_xlabel("final VP")
    ax1.set_ylabel("games")
    ax1.set_title("Final VP by seat (control games)")
    ax1.legend(fontsize=9)
    cat = report.vp_categories
    yy = np.arange(len(cat))
    ax2.barh(yy - 0.2, cat["P1"], height=0.4, color="#4c72b0", label="P1")
    ax2.barh(yy + 0.2, cat["P2"], height=0.4, color="#dd8452", label="P2")
    ax2.set_yticks(yy)
    ax2.set_yticklabels(list(cat.index))
    ax2.invert_yaxis()
    ax2.set_xlabel("mean VP")
    ax2.set_title("Mean VP by category")
    ax2.legend(fontsize=9)
    paths[PLOT_NAMES["vp_distribution"]] = _save(fig, out / "vp_distribution.png")
    plt.close(fig)

    # treatment effects: paired differences with 95% intervals
    if len(report.effects):
        e = report.effects.reset_index()
        treatments = list(dict.fromkeys(e["treatment"]))
        panels = [("P1 win rate", 100, "difference in P1's win rate (points)"),
                  ("VP margin (P1 − P2)", 1, "difference in VP margin P1 − P2 (VP)")]
        fig, axes = plt.subplots(1, 2, figsize=(11, 2.2 + 0.55 * len(treatments)),
                                 sharey=True, layout="constrained")
        for ax, (measure, scale, xlabel) in zip(axes, panels):
            s = e[e["measure"] == measure].set_index("treatment").loc[treatments]
            d = s["difference"].to_numpy(dtype=float) * scale
            err = [d - s["ci_low"].to_numpy(dtype=float) * scale,
                   s["ci_high"].to_numpy(dtype=float) * scale - d]
            yy = np.arange(len(treatments))
            ax.errorbar(d, yy, xerr=err, fmt="o", color="#4c72b0", capsize=4)
            ax.axvline(0, color="grey", linestyle="--", linewidth=1)
            ax.set_xlabel(xlabel)
            ax.set_title(f"{measure}: treatment − control")
            ax.grid(axis="x", alpha=0.3)
            ax.set_yticks(yy)
            ax.set_yticklabels(treatments)
        axes[0].invert_yaxis()
        fig.suptitle(f"Treatment effects (paired on {report.games_per_arm:,} seeds, "
                     f"95% intervals)")
        paths[PLOT_NAMES["treatment_effects"]] = _save(fig, out / "treatment_effects.png")
        plt.close(fig)
    return paths
