"""Engine benchmark of Architects (``duel bench --game architects --players N``): random games
and decisions per second on one core, MCTS iterations per second, the state size and the
behaviour signature of a fixed seed set (the total VP of every seat over 10,000 random
games, and their turns: speed work must leave it unchanged)."""
from __future__ import annotations

import statistics
import time
from concurrent.futures import ThreadPoolExecutor

from duelcore.architects import engine as _core

__all__ = ["SIGNATURE_SEED", "bench_table"]

SIGNATURE_SEED = 20260705


def bench_table(players: int, games: int, iterations: int, repeat: int, jobs: int, measure,
                say=print) -> tuple[str, list[tuple[str, str]]]:
    """``(title, rows)`` after ``say(intro line)``; ``measure`` runs each timed call (the
    command's Ctrl-C-aware runner)."""
    seed = SIGNATURE_SEED
    say(f"duel bench --game architects: {repeat} runs of {games:,} random {players}-player "
        f"games and {iterations:,} MCTS iterations (Ctrl-C stops)")
    sig = measure(_core.random_games, players, 10_000, seed)
    runs = [measure(_core.random_games, players, games, seed + k) for k in range(repeat)]
    mcts = [measure(_core.mcts_speed, players, iterations, k) for k in range(repeat)]
    med = statistics.median
    single = med([r["games"] / r["seconds"] for r in runs])
    rows = [("random games / s (1 core)", f"{single:,.0f}"),
            ("decisions / s (1 core)", f"{med([r['moves'] / r['seconds'] for r in runs]):,.0f}"),
            ("turns per game (mean)", f"{runs[0]['turns'] / max(1, runs[0]['games']):.1f}"),
            ("MCTS iterations / s (first decision of a game)", f"{med(mcts):,.0f}"),
            ("state size (bytes)", str(_core.state_size()))]
    if jobs > 1:
        def multi(k):
            per = max(1, games // jobs)
            t0 = time.perf_counter()
            with ThreadPoolExecutor(jobs) as pool:
                list(pool.map(lambda j: _core.random_games(players, per, seed + 1000 * k + j),
                              range(jobs)))
            return per * jobs / (time.perf_counter() - t0)
        rate = med([measure(multi, k) for k in range(repeat)])
        rows.append((f"random games / s ({jobs} workers)", f"{rate:,.0f} ({rate / single:.2f}x)"))
    rows.append((f"signature (10,000 games, seed {seed})",
                 f"{sig['signature']} VP, {sig['turns']} turns"))
    return f"duel bench --game architects --players {players} (median of {repeat})", rows
