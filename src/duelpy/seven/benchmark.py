"""Engine benchmark of 7 Wonders (``duel bench --game seven``): random games and decisions
per second, MCTS iterations per second, the state size and the behaviour signature of a fixed
seed set (the total VP of every seat over 10,000 random games: speed work must leave it
unchanged)."""
from __future__ import annotations

from duelcore import seven as _core

from duelpy.base.bench import core_bench_table

__all__ = ["SIGNATURE_SEED", "bench_table"]

SIGNATURE_SEED = 20261130


def bench_table(players: int, games: int, iterations: int, repeat: int, jobs: int, measure,
                say=print) -> tuple[str, list[tuple[str, str]]]:
    """``(title, rows)`` after ``say(intro line)`` of ``duel bench --game seven --players N``
    (:func:`duelpy.base.bench.core_bench_table`); ``measure`` runs each timed call (the
    command's Ctrl-C-aware runner)."""
    return core_bench_table("seven", _core, SIGNATURE_SEED, players, games, iterations, repeat,
                            jobs, measure, say)
