"""Ratings of a ladder: a Bradley–Terry fit on the Elo scale of who beat whom, with 95%
intervals, and the head-to-head scores (with Wilson intervals).  Any table of pairwise
results will do (columns ``p1``, ``p2``, ``winner``: 0 for p1, 1 for p2, -1 shared): the games
of a 2-player ladder, or the comparisons of who finished ahead in N-player games."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from duelpy.base.errors import LadderError
from duelpy.base.stats import Z95, proportion_ci as wilson_interval

__all__ = ["fit_ratings", "head_to_head", "head_to_head_matrix", "wilson_interval",
           "ELO_PER_NAT", "anchor_index"]

#: Elo points per unit of natural log-odds.
ELO_PER_NAT = 400 / math.log(10)
_Z95 = Z95

def _agents_of(games: pd.DataFrame, agents) -> list[str]:
    if agents is not None:
        return list(agents)
    seen = []
    for a in pd.concat([games["p1"], games["p2"]], ignore_index=True):
        if a not in seen:
            seen.append(a)
    return seen


def _points(games: pd.DataFrame, names: list[str]):
    """W[i, j]: wins of i against j (a shared victory counts 1/2 to each), and the counts of
    wins, shared victories and games of each ordered pair."""
    k = len(names)
    idx = {n: i for i, n in enumerate(names)}
    try:
        a = games["p1"].map(idx).to_numpy(dtype=int)
        b = games["p2"].map(idx).to_numpy(dtype=int)
    except (ValueError, TypeError):
        unknown = sorted((set(games["p1"]) | set(games["p2"])) - set(names))
        raise ValueError(f"games of agents not on the ladder: {', '.join(unknown)}") from None
    w = games["winner"].to_numpy()
    wins = np.zeros((k, k))
    shared = np.zeros((k, k))
    n = np.zeros((k, k))
    np.add.at(n, (a, b), 1)
    np.add.at(n, (b, a), 1)
    np.add.at(wins, (a[w == 0], b[w == 0]), 1)
    np.add.at(wins, (b[w == 1], a[w == 1]), 1)
    np.add.at(shared, (a[w == -1], b[w == -1]), 1)
    np.add.at(shared, (b[w == -1], a[w == -1]), 1)
    return wins + shared / 2, wins, shared, n


def anchor_index(anchor, names, canonical=None) -> int | None:
    """None for the mean; the index of the anchored agent otherwise."""
    if anchor == "mean":
        return None
    if anchor in (None, "auto"):
        return names.index("random") if "random" in names else None
    if not isinstance(anchor, str):
        raise LadderError(f"anchor must be 'auto', 'mean' or an agent, not {anchor!r}")
    if anchor in names:
        return list(names).index(anchor)
    try:
        name = canonical(anchor) if canonical is not None else None
    except ValueError:
        name = None
    if name in names:
        return list(names).index(name)
    raise LadderError(f"anchor {anchor!r} is not on the ladder; anchor at 'mean' or one of: "
                      f"{', '.join(names)}")


def fit_ratings(games: pd.DataFrame, anchor: str = "auto", agents=None,
                prior: float = 1.0, canonical=None) -> pd.DataFrame:
    """Bradley–Terry ratings on the Elo scale from a table of games, with 95% intervals.

    The model: P(i beats j) = 1 / (1 + 10 ** ((R_j - R_i) / 400)).  The ratings maximise the
    likelihood of the results, where a shared victory counts half a win to each side and
    every pair of agents that met gets ``prior`` virtual shared games (this keeps a rating
    finite when one agent wins every game; its pull is that of ``prior`` games out of the
    pairing's).  The intervals are R ± 1.96 standard errors from the observed Fisher
    information (the inverse Hessian of the negative log-likelihood), under the anchor's
    constraint.

    Parameters
    ----------
    games : DataFrame
        Columns ``p1``, ``p2`` (agent names) and ``winner`` (0 = P1, 1 = P2, -1 shared), as
        written by ``duel ladder``, ``duel simulate`` or ``duel study``.
    anchor : str
        ``"auto"``: ``random`` = 0 when on the ladder, otherwise ``"mean"`` (the mean rating
        is 1500); or an agent's name, whose rating is 0 (its interval then has width 0).
    agents : list of str, optional
        The agents and their order (default: in order of appearance).
    prior : float
        Virtual shared games per pairing (>= 0).

    Returns
    -------
    DataFrame
        One row per agent, best first: ``rank``, ``agent``, ``elo``, ``ci_low``, ``ci_high``,
        ``se`` (Elo), ``games``, ``wins``, ``shared``, ``losses``, ``score`` (points per game,
        a shared victory 1/2).  ``attrs["anchor"]`` says how the scale is anchored
        (``"random = 0"`` or ``"mean = 1500"``) and ``attrs["method"]`` how it was fitted.

    Raises
    ------
    ValueError
        No games, games of agents not in ``agents``, an agent without games, agents that
        never met (directly or through others), or a bad anchor or prior.
    """
    names = _agents_of(games, agents)
    k = len(names)
    if len(games) == 0 or k < 2:
        raise ValueError("no games to rate (at least 2 agents and 1 game)")
    if isinstance(prior, bool) or not isinstance(prior, (int, float)) \
            or not math.isfinite(prior) or prior < 0:
        raise ValueError(f"prior must be a number >= 0, not {prior!r}")
    a_idx = anchor_index(anchor, names, canonical)
    pts, wins, shared, n = _points(games, names)
    played = n.sum(axis=1)
    if (played == 0).any():
        raise ValueError(f"agent(s) without games: "
                         f"{', '.join(n_ for n_, g in zip(names, played) if g == 0)}")
    from scipy.sparse.csgraph import connected_components
    if connected_components(n > 0, directed=False)[0] > 1:
        raise ValueError("the agents fall into groups that never met: their ratings cannot "
                         "be compared")
    W = pts + (n > 0) * prior / 2               # points incl. the virtual shared games
    T = W + W.T                                 # games of each pair incl. the virtual ones
    if connected_components(W > 0, directed=True, connection="strong")[0] > 1:
        # a group of agents that never lost a point to the others: infinitely far ahead
        raise ValueError("some agents scored every point against the others, so their "
                         "ratings are infinite; use prior > 0")

    def full(x):
        return np.concatenate([[0.0], x])

    def nll(x):
        t = full(x)
        d = t[:, None] - t[None, :]
        return float(np.sum(W * np.logaddexp(0, -d)))

    def grad(x):
        t = full(x)
        p = 1 / (1 + np.exp(-(t[:, None] - t[None, :])))
        return -(W - T * p).sum(axis=1)[1:]

    def hess_full(t):
        p = 1 / (1 + np.exp(-(t[:, None] - t[None, :])))
        h = -T * p * (1 - p)
        np.fill_diagonal(h, 0)
        np.fill_diagonal(h, -h.sum(axis=1))
        return h

    def hess(x):
        return hess_full(full(x))[1:, 1:]

    from scipy import optimize                  # heavy: imported when first needed
    res = optimize.minimize(nll, np.zeros(k - 1), jac=grad, hess=hess, method="trust-exact",
                            options={"gtol": 1e-10})
    theta = full(res.x)
    h = hess_full(theta)[1:, 1:]
    if not res.success and np.abs(grad(res.x)).max() > 1e-6:
        raise ValueError(f"the Bradley–Terry fit did not converge: {res.message}")
    cov0 = np.zeros((k, k))
    cov0[1:, 1:] = np.linalg.inv(h)
    if a_idx is None:
        c = np.eye(k) - 1.0 / k
        offset, label = 1500.0, "mean = 1500"
    else:
        c = np.eye(k)
        c[:, a_idx] -= 1
        offset, label = 0.0, f"{names[a_idx]} = 0"
    elo = c @ theta * ELO_PER_NAT + offset
    se = np.sqrt(np.clip(np.diag(c @ cov0 @ c.T), 0, None)) * ELO_PER_NAT
    if a_idx is not None:
        elo[a_idx], se[a_idx] = 0.0, 0.0
    df = pd.DataFrame({"agent": names, "elo": elo, "ci_low": elo - _Z95 * se,
                       "ci_high": elo + _Z95 * se, "se": se, "games": played.astype(int),
                       "wins": wins.sum(axis=1).astype(int),
                       "shared": shared.sum(axis=1).astype(int)})
    df["losses"] = df["games"] - df["wins"] - df["shared"]
    df["score"] = pts.sum(axis=1) / played
    df = df.sort_values(["elo", "agent"], ascending=[False, True], kind="stable")
    df.insert(0, "rank", np.arange(1, k + 1))
    df = df.reset_index(drop=True)
    df.attrs["anchor"] = label
    df.attrs["method"] = (f"Bradley–Terry maximum likelihood, {prior:g} virtual shared "
                          f"game(s) per pairing; 95% intervals from the Fisher information")
    return df


def head_to_head(games: pd.DataFrame, agents=None) -> pd.DataFrame:
    """Every agent's score against every other, with a 95% Wilson interval.

    Returns
    -------
    DataFrame
        One row per ordered pair of agents that met: ``agent``, ``opponent``, ``games``,
        ``wins``, ``shared``, ``losses`` (of ``agent``), ``score`` (wins + shared / 2, per
        game), ``ci_low``, ``ci_high``.
    """
    names = _agents_of(games, agents)
    pts, wins, shared, n = _points(games, names)
    rows = []
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if i == j or n[i, j] == 0:
                continue
            lo, hi = wilson_interval(pts[i, j], n[i, j])
            rows.append({"agent": a, "opponent": b, "games": int(n[i, j]),
                         "wins": int(wins[i, j]), "shared": int(shared[i, j]),
                         "losses": int(n[i, j] - wins[i, j] - shared[i, j]),
                         "score": pts[i, j] / n[i, j], "ci_low": lo, "ci_high": hi})
    return pd.DataFrame(rows, columns=["agent", "opponent", "games", "wins", "shared",
                                       "losses", "score", "ci_low", "ci_high"])


def head_to_head_matrix(h2h: pd.DataFrame, order) -> pd.DataFrame:
    """The head-to-head scores as display strings: row agent's score against the column
    agent, ``'71.2% (60.1–80.3)'``; '—' on the diagonal, '' where they did not meet."""
    cell = {(r.agent, r.opponent): f"{100 * r.score:.1f}% ({100 * r.ci_low:.1f}–"
                                   f"{100 * r.ci_high:.1f})" for r in h2h.itertuples()}
    m = pd.DataFrame([[("—" if a == b else cell.get((a, b), "")) for b in order]
                      for a in order], index=pd.Index(list(order), name="agent"),
                     columns=list(order))
    return m
