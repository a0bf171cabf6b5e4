"""Engine benchmark of Architects (``duel bench --game architects --players N``): random games
and decisions per second on one core, MCTS iterations per second, the state size and the
behaviour signature of a fixed seed set (the total VP of every seat over 10,000 random
games, and their turns: speed work must leave it unchanged)."""
from __future__ import annotations

from duelcore.architects import engine as _core

from duelpy.base.bench import core_bench_table

__all__ = ["SIGNATURE_SEED", "bench_table"]

SIGNATURE_SEED = 20260705


def bench_table(players: int, games: int, iterations: int, repeat: int, jobs: int, measure,
                say=print) -> tuple[str, list[tuple[str, str]]]:
    """``(title, rows)`` after ``say(intro line)`` of ``duel bench --game architects
    --players N`` (:func:`duelpy.base.bench.core_bench_table`, with the turns per game and
    in the signature); ``measure`` runs each timed call (the command's Ctrl-C-aware
    runner)."""
    return core_bench_table("architects", _core, SIGNATURE_SEED, players, games, iterations,
                            repeat, jobs, measure, say, turns=True)
