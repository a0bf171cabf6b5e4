"""Summaries of a per-game results table, with 95% confidence intervals (scipy)."""
from __future__ import annotations

import numpy as np
import pandas as pd

from duelcore.engine import VICTORY_NAMES

from duelpy.base.stats import mean_ci, proportion_ci, t_quantile  # noqa: F401 (re-exported)
from duelpy.base.tables import Column, print_table
from duelpy.duel.options import DEFAULT_OPTIONS, describe_options

VICTORIES = ("civilian", "military", "scientific", "shared")


class Summary:
    """Outcome counts of games added chunk by chunk (constant memory): what
    :func:`summary` reports, for tables too large to hold.

    ``add(df)`` takes rows of a results table (columns winner, winner_agent, p1, p2,
    victory, vp_total_p1, vp_total_p2); ``table()`` gives the summary so far.
    """

    def __init__(self):
        self.n = 0
        self.winners = {0: 0, 1: 0, -1: 0}
        self.agents: set = set()
        self.agent_wins: dict = {}
        self.victories = dict.fromkeys(VICTORIES, 0)
        self.vp = [[0, 0.0, 0.0], [0, 0.0, 0.0]]        # per seat: n, mean, sum of squares

    def add(self, df: pd.DataFrame) -> "Summary":
        """Add the games of a results table (see :func:`duelpy.duel.match.results_table`)."""
        if not len(df):
            return self
        return self._add(df["winner"].to_numpy(), df["p1"].to_numpy(object),
                         df["p2"].to_numpy(object),
                         df["victory"].astype(str).value_counts().to_dict(),
                         (df["vp_total_p1"].to_numpy(float), df["vp_total_p2"].to_numpy(float)))

    def add_raw(self, raw: dict, p1_names, p2_names) -> "Summary":
        """Add games from the core's arrays (``search.play_games``) and the agent names in
        P1's and P2's seats (arrays of str): quicker than making their table."""
        vp = raw["vp"].sum(axis=2)
        counts = np.bincount(raw["victory"], minlength=len(VICTORY_NAMES))
        return self._add(raw["winner"], np.asarray(p1_names, object),
                         np.asarray(p2_names, object), dict(zip(VICTORY_NAMES, counts)),
                         (vp[:, 0].astype(float), vp[:, 1].astype(float)))

    def _add(self, w, p1, p2, victories: dict, vps) -> "Summary":
        if not len(w):
            return self
        self.n += len(w)
        for k in self.winners:
            self.winners[k] += int((w == k).sum())
        names = set(pd.unique(p1)) | set(pd.unique(p2))
        self.agents |= names
        for agent in names:
            k = int(((w == 0) & (p1 == agent)).sum() + ((w == 1) & (p2 == agent)).sum())
            self.agent_wins[agent] = self.agent_wins.get(agent, 0) + k
        for v, k in victories.items():
            if k:
                self.victories[str(v)] = self.victories.get(str(v), 0) + int(k)
        for p in (0, 1):                                # Chan et al.'s merge of (n, mean, M2)
            x = vps[p]
            n_b, mean_b = len(x), float(x.mean())
            m2_b = float(((x - mean_b) ** 2).sum())
            n_a, mean_a, m2_a = self.vp[p]
            n = n_a + n_b
            delta = mean_b - mean_a
            self.vp[p] = [n, mean_a + delta * n_b / n, m2_a + m2_b + delta ** 2 * n_a * n_b / n]
        return self

    def table(self) -> pd.DataFrame:
        """One row per line of the report: wins of P1 and P2 (by seat), shared victories,
        wins of each agent (when there are two), each victory type, then the mean VP of each
        seat.  Columns: ``count``; ``rate`` (fraction of games; NaN on the VP rows); ``mean``
        and ``sd`` (VP; NaN on the other rows); ``ci_low``, ``ci_high`` (95%: Wilson for a
        rate, Student t for a mean)."""
        n = self.n
        rows = []
        nan = float("nan")

        def prop(label, k):
            lo, hi = proportion_ci(k, n)
            rows.append({"": label, "count": int(k), "rate": k / n if n else nan,
                         "mean": nan, "sd": nan, "ci_low": lo, "ci_high": hi})

        prop("P1 wins", self.winners[0])
        prop("P2 wins", self.winners[1])
        prop("shared victories", self.winners[-1])
        if len(self.agents) > 1:
            for agent in sorted(self.agents):
                prop(f"{agent} wins", self.agent_wins.get(agent, 0))
        for v in VICTORIES[:3]:
            prop(f"{v} victories", self.victories.get(v, 0))
        for p in (0, 1):
            k, m, m2 = self.vp[p]
            sd = (m2 / (k - 1)) ** 0.5 if k > 1 else nan
            if k < 2 or m2 == 0:
                lo = hi = m if k else nan
            else:
                half = t_quantile(0.95, k - 1) * sd / k ** 0.5
                lo, hi = m - half, m + half
            rows.append({"": f"mean VP of P{p + 1}", "count": k, "rate": nan,
                         "mean": m if k else nan, "sd": sd, "ci_low": float(lo),
                         "ci_high": float(hi)})
        return pd.DataFrame(rows).set_index("").rename_axis(None)   # no blank header line


def summary(df: pd.DataFrame) -> pd.DataFrame:
    """Outcome summary of a results table: see :meth:`Summary.table`."""
    return Summary().add(df).table()


def rules_text(options: dict) -> str:
    """The rule options (keywords of ``new_game``) that differ from the rulebook's, in words
    ('' if none)."""
    changed = {k: list(v) if isinstance(v, tuple) else v for k, v in options.items()}
    changed = {k: v for k, v in changed.items() if DEFAULT_OPTIONS.get(k, None) != v}
    return describe_options(changed) if changed else ""


class SimulationSummary(Summary):
    """What ``duel simulate`` prints for Duel: the outcomes with 95% intervals and the mean
    final VP of each seat, under a header naming the agents, seats and rules."""

    def __init__(self, lineup, players: int, seed: int, seating: str, setup: dict):
        super().__init__()
        self.lineup, self.seed, self.seating, self.setup = list(lineup), seed, seating, setup

    def print(self, con, games: int, total: int, speed: str) -> None:
        title = f"{games:,} games" + (f" of {total:,} (interrupted)" if games < total else "")
        rules = rules_text(self.setup)
        header = [f"{title}: {self.lineup[0]} vs {self.lineup[1]}",
                  f"seed {self.seed}, seats "
                  f"{'alternating' if self.seating == 'alternate' else 'fixed'}",
                  *([f"rules: {rules}"] if rules else []), speed]
        for line in header:
            con.print(line, highlight=False)
        t = self.table()
        rates = t[t["rate"].notna()]
        print_table(con, [
            Column("outcome", list(rates.index), "left"),
            Column("games", [f"{int(c):,}" for c in rates["count"]]),
            Column("rate", [f"{100 * r:.1f}%" for r in rates["rate"]]),
            Column("95% CI", [f"{100 * a:.1f} – {100 * b:.1f}%"
                              for a, b in zip(rates["ci_low"], rates["ci_high"])])])
        vp = t[t["mean"].notna()]
        if len(vp):
            print_table(con, [
                Column("final VP", [f"P{k + 1}" for k in range(len(vp))], "left"),
                Column("mean", [f"{m:.2f}" for m in vp["mean"]]),
                Column("95% CI", [f"{a:.2f} – {b:.2f}"
                                  for a, b in zip(vp["ci_low"], vp["ci_high"])]),
                Column("sd", ["" if s != s else f"{s:.2f}" for s in vp["sd"]])])
