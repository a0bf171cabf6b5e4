"""The tables and the plot of a ladder: ratings and head-to-head as rich tables, Markdown,
CSV files and a PNG."""
from __future__ import annotations

import os
import shlex
from pathlib import Path

import numpy as np
import pandas as pd
from rich.console import Console

from duelpy.base.tables import Column, print_table
from duelpy.ladder.rating import head_to_head, head_to_head_matrix

__all__ = ["print_ladder", "to_markdown", "write_plot", "write_tables", "ratings_display",
           "header_lines", "strip_budget", "RATINGS_FILE", "H2H_FILE", "TABLE_FILE",
           "PLOT_FILE"]

RATINGS_FILE = "ratings.csv"
H2H_FILE = "head_to_head.csv"
TABLE_FILE = "ladder.md"
PLOT_FILE = "ladder.png"
_BUDGET_KEYS = ("seconds", "iterations")

def _fmt_elo(x):
    return f"{x:.0f}".replace("-", "−")


def ratings_display(ratings: pd.DataFrame) -> pd.DataFrame:
    """The ratings as display strings (rank, agent, Elo, 95% CI, games, W-S-L, score)."""
    rows = []
    for r in ratings.itertuples():
        ci = "anchor" if r.se == 0 else f"{_fmt_elo(r.ci_low)} – {_fmt_elo(r.ci_high)}"
        rows.append({"rank": r.rank, "agent": r.agent, "Elo": _fmt_elo(r.elo), "95% CI": ci,
                     "games": f"{r.games:,}", "W-S-L": f"{r.wins}-{r.shared}-{r.losses}",
                     "score": f"{100 * r.score:.1f}%"})
    return pd.DataFrame(rows)


def header_lines(ratings: pd.DataFrame) -> list[str]:
    a = ratings.attrs
    lines = []
    if "games_per_pairing" in a and a.get("game", "duel") != "duel":
        k = len(ratings)
        lines.append(f"{a.get('title', a['game'])}, {a['players']} players, {k} agents rotated "
                     f"through the seats, {a['games_per_pairing']:,} games, seed {a['seed']}, "
                     f"budget {a['budget']}")
    elif "games_per_pairing" in a:
        k = len(ratings)
        lines.append(f"{k} agents, {a['games_per_pairing']:,} games per pairing "
                     f"({a['games_per_pairing'] * k * (k - 1) // 2:,} games), seed {a['seed']}, "
                     f"budget {a['budget']}")
        if a.get("unbudgeted"):
            lines.append(f"without a budget (they search nothing): {', '.join(a['unbudgeted'])}")
    lines.append(f"Elo: {a.get('method', 'Bradley–Terry')}; anchored at "
                 f"{a.get('anchor', '?')}")
    return lines


def _md_table(df: pd.DataFrame, index: bool = False) -> str:
    t = df.reset_index() if index else df
    cols = [str(c) for c in t.columns]
    left = {"agent"}
    lines = ["| " + " | ".join(cols) + " |",
             "|" + "|".join(" --- " if c in left else " ---: " for c in cols) + "|"]
    for row in t.itertuples(index=False):
        lines.append("| " + " | ".join(str(x).replace("|", "\\|") for x in row) + " |")
    return "\n".join(lines)


def to_markdown(ratings: pd.DataFrame, h2h: pd.DataFrame, command: str | None = None) -> str:
    """The ladder's Markdown: header, ratings table, head-to-head matrix."""
    parts = ["# Rating ladder", ""]
    parts += [f"- {line}" for line in header_lines(ratings)]
    if command:
        parts += [f"- reproduce: `{command}`"]
    parts += ["", "## Ratings", "", _md_table(ratings_display(ratings)), "",
              "## Head to head", "",
              "The row agent's score against the column agent (a shared victory counts "
              "1/2), with its 95% Wilson interval.", "",
              _md_table(head_to_head_matrix(h2h, list(ratings["agent"])), index=True), ""]
    return "\n".join(parts)


def print_ladder(ratings: pd.DataFrame, h2h: pd.DataFrame, console=None, title=None) -> None:
    """Print the ratings and the head-to-head matrix with rich tables."""
    console = console or Console()
    console.rule(f"[bold]{title or 'Rating ladder'}")
    for line in header_lines(ratings):
        console.print(line, highlight=False)
    d = ratings_display(ratings)
    print_table(console, [Column(str(col), [str(x) for x in d[col]],
                                 "left" if col == "agent" else "right") for col in d.columns],
                title="Ratings")
    m = head_to_head_matrix(h2h, list(ratings["agent"]))
    columns = [Column("agent", [str(i) for i in m.index], "left")]
    columns += [Column(str(col), [str(x) for x in m[col]], "right") for col in m.columns]
    print_table(console, columns, title="Head to head",
                caption="the row agent's score against the column agent (shared = 1/2), "
                        "95% Wilson interval")


def write_plot(ratings: pd.DataFrame, h2h: pd.DataFrame, path) -> Path:
    """A PNG: the ratings with their 95% intervals, and the head-to-head scores as a heat
    map.  Written through a temporary file; returns the path."""
    import matplotlib
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt
    path = Path(path)
    order = list(ratings["agent"])
    k = len(order)
    label = 0.075 * max(len(a) for a in order)          # inches of the longest name
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(6 + 1.6 * k + 2 * label,
                                                  1.5 + 0.55 * k + 1.5 + label / 2),
                                   gridspec_kw={"width_ratios": [1, 1.2]},
                                   layout="constrained")    # room for every label
    try:
        y = np.arange(k)[::-1]
        elo = ratings["elo"].to_numpy(float)
        err = [elo - ratings["ci_low"].to_numpy(float), ratings["ci_high"].to_numpy(float) - elo]
        ax1.errorbar(elo, y, xerr=err, fmt="o", color="#4c72b0", capsize=4)
        ax1.set_yticks(y)
        ax1.set_yticklabels(order)
        ax1.set_xlabel(f"Elo ({ratings.attrs.get('anchor', '')}), 95% interval")
        ax1.set_title("Ratings")
        ax1.grid(axis="x", alpha=0.3)
        mat = np.full((k, k), np.nan)
        pos = {a: i for i, a in enumerate(order)}
        for r in h2h.itertuples():
            if r.agent in pos and r.opponent in pos:
                mat[pos[r.agent], pos[r.opponent]] = 100 * r.score
        im = ax2.imshow(mat, cmap="RdBu", vmin=0, vmax=100)
        for i in range(k):
            for j in range(k):
                if not np.isnan(mat[i, j]):
                    ax2.text(j, i, f"{mat[i, j]:.0f}%", ha="center", va="center", fontsize=9,
                             color="white" if abs(mat[i, j] - 50) > 35 else "black")
        ax2.set_xticks(range(k))
        ax2.set_xticklabels(order, rotation=30, ha="right")
        ax2.set_yticks(range(k))
        ax2.set_yticklabels(order)
        ax2.set_title("Score of the row agent against the column agent")
        fig.colorbar(im, ax=ax2, fraction=0.046, pad=0.04, label="score (%)")
        tmp = path.with_name("." + path.name + ".tmp.png")
        fig.savefig(tmp, dpi=110, bbox_inches="tight")    # no label clipped
        os.replace(tmp, path)
    finally:
        plt.close(fig)
    return path


def extra_markdown(extra) -> str:
    """A game's table after the ratings (``(title, {column: cells})``) in Markdown."""
    if extra is None:
        return ""
    title, columns = extra
    heads = list(columns)
    lines = [f"## {title}", "", "| " + " | ".join(heads) + " |",
             "| " + " | ".join("---" if i == 0 else "---:" for i in range(len(heads))) + " |"]
    for row in zip(*columns.values()):
        lines.append("| " + " | ".join(row) + " |")
    return "\n" + "\n".join(lines) + "\n"


def write_tables(games: pd.DataFrame, ratings: pd.DataFrame, out, spec=None,
                 plot: bool = True, extra=None) -> dict:
    """Write ratings.csv, head_to_head.csv, ladder.md (and ladder.png) in ``out``; returns
    {name: Path}."""
    out = Path(out)
    h2h = head_to_head(games, list(ratings["agent"]))
    paths = {}
    command = None
    if spec is not None:
        budget = (f" --seconds {spec.seconds:g}" if spec.seconds is not None else
                  f" --iterations {spec.iterations}" if spec.iterations is not None else "")
        shown = [a if not b else strip_budget(a) for a, b in zip(spec.agents, spec.budgeted)]
        game = "" if spec.game == "duel" else f" --game {spec.game} --players {spec.players}"
        command = (f"duel ladder {' '.join(_quote(a) for a in shown)} --games {spec.games}"
                   f"{budget} --seed {spec.seed}{game}")
    for name, write in ((RATINGS_FILE, lambda p: ratings.to_csv(p, index=False)),
                        (H2H_FILE, lambda p: h2h.to_csv(p, index=False)),
                        (TABLE_FILE, lambda p: p.write_text(
                            to_markdown(ratings, h2h, command) + extra_markdown(extra),
                            encoding="utf-8"))):
        tmp = out / f".{name}.tmp"
        write(tmp)
        os.replace(tmp, out / name)
        paths[name] = out / name
    if plot:
        paths[PLOT_FILE] = write_plot(ratings, h2h, out / PLOT_FILE)
    return paths


def strip_budget(spec: str) -> str:
    """An agent description without its ``seconds`` / ``iterations`` option."""
    name, _, rest = spec.partition(":")
    kept = [p for p in rest.split(",") if p.strip() and
            p.partition("=")[0].strip().lower() not in _BUDGET_KEYS]
    return name + (":" + ",".join(kept) if kept else "")


def _quote(text: str) -> str:
    return shlex.quote(text)
