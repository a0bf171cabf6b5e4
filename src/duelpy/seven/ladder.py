"""A rating ladder for 7 Wonders: N-player games between K agents, rated by a Bradley–Terry
fit (Elo scale) over the pairwise results of who finished ahead.

Line-ups: game ``g`` seats agent ``(g + s) mod K`` at seat ``s`` (seats ``0..N-1``), so the
agents rotate through the seats; with K < N an agent holds several seats of a game, with
K > N each game takes N consecutive agents of the rotation.  After ``K x N`` games (a
multiple of K when K >= N) every agent has sat equally often in every seat.  Every game
has its own seed (:func:`duelcore.seven.play_games_detail`).

Pairwise results: in a game, for every two seats held by *different* agents, the one that
finished ahead -- more VP, then more coins, the order of W-END-2 -- wins that comparison; equal
VP and coins is a shared result (half a point each).  So a 4-player game of 4 different
agents gives 6 comparisons.  These comparisons are fitted with
:func:`duelpy.ladder.rating.fit_ratings` (maximum-likelihood Bradley–Terry, P(i ahead of j) =
1 / (1 + 10 ** ((R_j - R_i) / 400)), one virtual shared comparison per pair of agents as a
weak prior).  The comparisons of one game are not independent (the winner of a game is ahead
of everyone), so the 95% intervals, computed as if they were, are too narrow: read them as
a lower bound on the uncertainty.  The per-agent table also gives plain game results: the
win rate (a shared win 1/k) with its Wilson interval and the mean finishing place.
"""
from __future__ import annotations

import pandas as pd

from duelpy.seven.agents import SevenAgentError, with_iterations
from duelpy.base.stats import proportion_ci as _wilson


def rotation(k: int, players: int, games: int) -> list[list[int]]:
    """Line-ups of the ladder: game g, seat s gets agent (g + s) mod k."""
    return [[(g + s) % k for s in range(players)] for g in range(games)]


def check_agents(agents, iterations: int | None = None) -> list[str]:
    """Canonical agent names, each once; ``iterations`` gives every ``mcts`` that names no
    iteration count that many.  Raises SevenAgentError."""
    out = [with_iterations(text, iterations) for text in agents]
    if len(out) < 2:
        raise SevenAgentError(f"a ladder needs at least 2 agents, got {len(out)}")
    dup = sorted({a for a in out if out.count(a) > 1})
    if dup:
        raise SevenAgentError(f"agent(s) named twice: {', '.join(dup)} (each agent once; "
                              f"seats are rotated over them)")
    return out


def pairwise(frame: pd.DataFrame) -> pd.DataFrame:
    """The comparisons of every game: one row per pair of seats held by different agents,
    columns ``game``, ``p1``, ``p2`` (agents), ``winner`` (0: p1 finished ahead, 1: p2,
    -1: equal VP and coins), the table :func:`duelpy.ladder.rating.fit_ratings` reads."""
    rows = []
    for g, f in frame.groupby("game", sort=True):
        seats = list(f.itertuples(index=False))
        for i in range(len(seats)):
            for j in range(i + 1, len(seats)):
                a, b = seats[i], seats[j]
                if a.agent == b.agent:
                    continue
                ka, kb = (a.vp, a.coins), (b.vp, b.coins)
                rows.append({"game": g, "p1": a.agent, "p2": b.agent,
                             "winner": 0 if ka > kb else (1 if kb > ka else -1)})
    return pd.DataFrame(rows, columns=["game", "p1", "p2", "winner"])


def agent_table(frame: pd.DataFrame, agents) -> pd.DataFrame:
    """Per agent: seats played, game wins (shared wins as 1/k), win rate with its 95%
    Wilson interval, mean VP and mean finishing place (1 = first; ties share the better
    place)."""
    f = frame.copy()
    place = {}
    for _, x in f.groupby("game"):
        keys = list(zip(x["vp"], x["coins"]))
        for idx, k in zip(x.index, keys):
            place[idx] = 1 + sum(k2 > k for k2 in keys)
    f["place"] = pd.Series(place)
    rows = []
    for a in agents:
        x = f[f["agent"] == a]
        n = len(x)
        lo, hi = _wilson(x["win"].sum(), n)
        rows.append({"agent": a, "seats": n, "wins": x["win"].sum(),
                     "win_rate": x["win"].mean() if n else float("nan"), "ci_low": lo,
                     "ci_high": hi, "mean_vp": x["vp"].mean(), "mean_place": x["place"].mean()})
    return pd.DataFrame(rows)


METHOD = ("Bradley–Terry maximum likelihood over the pairwise results of each game (who "
          "finished ahead: VP, then coins), 1 virtual shared result per pair of agents; the "
          "95% intervals treat a game's comparisons as independent, so they are too narrow")
