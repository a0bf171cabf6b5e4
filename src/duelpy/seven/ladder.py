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

import numpy as np
import pandas as pd

from duelpy.seven.agents import SevenAgentError, with_iterations
from duelpy.base.stats import agent_results


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


def _by_game(frame: pd.DataFrame):
    """The frame in (game, seat) order and its seats as (games x players) arrays: games,
    agents, and a key that orders finishes (VP, then coins: W-END-2).  Every game must have
    the same number of rows."""
    f = frame.sort_values(["game", "seat"], kind="stable") if len(frame) else frame
    games, counts = np.unique(f["game"].to_numpy(), return_counts=True)
    if len(games) and not (counts == counts[0]).all():
        raise ValueError("every game of the table must have the same number of seats")
    n = int(counts[0]) if len(games) else 0
    shape = (len(games), n)
    agents = f["agent"].to_numpy(object).reshape(shape)
    key = (f["vp"].to_numpy(np.int64) * 1_000_000 + f["coins"].to_numpy(np.int64)).reshape(shape)
    return f, games, agents, key


def pairwise(frame: pd.DataFrame) -> pd.DataFrame:
    """The comparisons of every game: one row per pair of seats held by different agents,
    columns ``game``, ``p1``, ``p2`` (agents), ``winner`` (0: p1 finished ahead, 1: p2,
    -1: equal VP and coins), the table :func:`duelpy.ladder.rating.fit_ratings` reads.
    Rows go by game, then by seat pair (0-1, 0-2, ..., 1-2, ...)."""
    _, games, agents, key = _by_game(frame)
    n = agents.shape[1]
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    if not len(games) or not pairs:
        return pd.DataFrame({"game": [], "p1": [], "p2": [], "winner": []})
    i, j = (np.array(x) for x in zip(*pairs))
    a, b = agents[:, i], agents[:, j]
    winner = np.where(key[:, i] > key[:, j], 0, np.where(key[:, j] > key[:, i], 1, -1))
    keep = (a != b).ravel()
    return pd.DataFrame({"game": np.repeat(games, len(pairs))[keep], "p1": a.ravel()[keep],
                         "p2": b.ravel()[keep], "winner": winner.ravel()[keep]})


def agent_table(frame: pd.DataFrame, agents) -> pd.DataFrame:
    """Per agent: seats played, game wins (shared wins as 1/k), win rate with its 95%
    Wilson interval, mean VP and mean finishing place (1 = first; ties share the better
    place)."""
    f, _, _, key = _by_game(frame)
    f = f.copy()
    f["place"] = (1 + (key[:, None, :] > key[:, :, None]).sum(axis=2)).ravel()
    return agent_results(f, agents)


METHOD = ("Bradley–Terry maximum likelihood over the pairwise results of each game (who "
          "finished ahead: VP, then coins), 1 virtual shared result per pair of agents; the "
          "95% intervals treat a game's comparisons as independent, so they are too narrow")
