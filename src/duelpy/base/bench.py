"""``duel bench`` for a game whose core has the batch functions of the 7 Wonders and
Architects cores: ``random_games(players, games, seed)`` (a dict with ``games``, ``moves``,
``seconds``, ``signature`` and, for some, ``turns``), ``mcts_speed(players, iterations,
seed)`` (iterations per second) and ``state_size()`` (bytes)."""
from __future__ import annotations

import statistics
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

__all__ = ["core_bench_table"]


def core_bench_table(game: str, core: Any, seed: int, players: int, games: int,
                     iterations: int, repeat: int, jobs: int, measure: Callable[..., Any],
                     say: Callable[[str], Any] = print, turns: bool = False
                     ) -> tuple[str, list[tuple[str, str]]]:
    """``(title, rows)`` of ``duel bench --game GAME --players N`` after ``say(intro line)``.

    ``measure(f, *args)`` runs each timed call (the command's Ctrl-C-aware runner).  Rows:
    random games and decisions per second on one core (median of ``repeat`` runs of
    ``games`` games, seeds ``seed + k``), with ``turns`` the mean turns per game, MCTS
    iterations per second (``iterations`` from the first decision of a game), the state size
    in bytes, with ``jobs`` > 1 the throughput of that many worker threads, and the
    behaviour signature: the core's ``signature`` over 10,000 games from ``seed`` (with
    ``turns`` also their turns)."""
    runs_text = f"{repeat} run{'s' if repeat != 1 else ''}"
    say(f"duel bench --game {game}: {runs_text} of {games:,} random {players}-player "
        f"games and {iterations:,} MCTS iterations (Ctrl-C stops)")
    sig = measure(core.random_games, players, 10_000, seed)
    runs = [measure(core.random_games, players, games, seed + k) for k in range(repeat)]
    mcts = [measure(core.mcts_speed, players, iterations, k) for k in range(repeat)]
    med = statistics.median
    single = med([r["games"] / r["seconds"] for r in runs])
    rows = [("random games / s (1 core)", f"{single:,.0f}"),
            ("decisions / s (1 core)", f"{med([r['moves'] / r['seconds'] for r in runs]):,.0f}")]
    if turns:
        rows.append(("turns per game (mean)",
                     f"{runs[0]['turns'] / max(1, runs[0]['games']):.1f}"))
    rows += [("MCTS iterations / s (first decision of a game)", f"{med(mcts):,.0f}"),
             ("state size (bytes)", str(core.state_size()))]
    if jobs > 1:
        def multi(k):
            per = max(1, games // jobs)
            t0 = time.perf_counter()
            with ThreadPoolExecutor(jobs) as pool:
                list(pool.map(lambda j: core.random_games(players, per, seed + 1000 * k + j),
                              range(jobs)))
            return per * jobs / (time.perf_counter() - t0)
        rate = med([measure(multi, k) for k in range(repeat)])
        rows.append((f"random games / s ({jobs} workers)", f"{rate:,.0f} ({rate / single:.2f}x)"))
    signature = (f"{sig['signature']} VP, {sig['turns']} turns" if turns
                 else str(sig["signature"]))
    rows.append((f"signature (10,000 games, seed {seed})", signature))
    return f"duel bench --game {game} --players {players} (median of {repeat})", rows
