"""Notebook helpers: :func:`simulate` (many games as a table) and its summary.

``duelpy.simulate`` is ``duel simulate`` as a function: it plays the games with
:func:`duelpy.play_match` and returns the per-game pandas DataFrame; :func:`summarise` gives
the outcome rates with 95% confidence intervals that the command prints.
"""
from __future__ import annotations

import pandas as pd

from duelpy.duel.match import play_match
from duelpy.duel.summary import summary

__all__ = ["simulate", "summarise"]


def simulate(games: int, p1="random", p2="random", seed: int = 0, jobs: int = 1, *,
             alternate: bool = True, progress=None, **options) -> pd.DataFrame:
    """Play ``games`` games between two agents; one row per game.

    Parameters
    ----------
    games : int
        Number of games (>= 1).
    p1, p2 : duelpy.Agent or str
        Agents or descriptions (``"random"``, ``"greedy"``, ``"mcts:iterations=500"``).
        ``p1`` sits in P1's seat (P1 begins) in even games; with ``alternate`` (the default)
        the seats are swapped in odd games, as in ``duel simulate``.
    seed : int
        Base seed: game i's seed is ``duelpy.game_seeds(seed, games)[i]``; the table is the
        same for any ``jobs``.
    jobs : int
        Worker threads (the core releases the GIL).
    progress : callable, optional
        Called with the number of games just finished.  For more games than fit in memory
        use :class:`duelpy.duel.match.MatchRun`, which hands the rows over chunk by chunk (as
        ``duel simulate`` does).
    **options
        Rule options of ``new_game``: first_game_wonders, centred_pawn, start_coins,
        banned_tokens, forced_wonders.

    Returns
    -------
    pandas.DataFrame
        Shape ``(games, 60)``, index ``game``: seed, p1, p2 (agent names by seat), winner
        (0 = P1, 1 = P2, -1 shared), winner_agent, victory, VP by category per seat, coins,
        wonders, tokens, cards per colour, ... (see :func:`duelpy.play_match`).

    Raises
    ------
    ValueError
        For ``games < 1``, a negative seed, a bad ``jobs``, or an unknown or bad option;
        :class:`duelpy.AgentSpecError` (a ValueError) for a bad agent description.
    KeyboardInterrupt
        On Ctrl-C, once the worker threads have stopped.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive integer, not {games!r}")
    return play_match(p1, p2, games=games, seed=seed, alternate=alternate, jobs=jobs,
                      progress=progress, **options)


def summarise(df: pd.DataFrame) -> pd.DataFrame:
    """Outcome rates of a :func:`simulate` table with 95% confidence intervals.

    Returns a DataFrame indexed by outcome ("P1 wins", "P2 wins", "shared victories", each
    agent's wins, each victory type, then "mean VP of P1" and "mean VP of P2") with columns
    ``count``; ``rate`` (fraction of games, NaN on the VP rows); ``mean`` and ``sd`` (VP, NaN
    on the other rows); ``ci_low`` and ``ci_high`` (95%: Wilson for a rate, Student t for a
    mean VP).  A rate column never holds VP.
    """
    return summary(df)
