"""Shared pools of realistic states for the benchmarks."""
import random

import pytest

import duelcore


def collect(phase_age, count, seed=0):
    """States at play decisions of the given Age, from random games (one per 7 decisions)."""
    rnd = random.Random(seed)
    states, game = [], 0
    while len(states) < count:
        s = duelcore.new_game(game)
        game += 1
        while not s.is_terminal():
            if s.phase == "play" and s.age == phase_age and rnd.random() < 0.15:
                states.append(s.clone())
            s.apply_action(rnd.choice(s.legal_actions()))
    return states[:count]


@pytest.fixture(scope="session")
def age2_states():
    return collect(2, 256)


@pytest.fixture(scope="session")
def mixed_states():
    return collect(1, 100, 1) + collect(2, 100, 2) + collect(3, 100, 3)


def mean_seconds(benchmark):
    """Mean seconds per round, or None when timing is off (--benchmark-disable)."""
    stats = getattr(benchmark, "stats", None)
    return stats.stats.mean if stats is not None else None


def per_op(benchmark, n):
    """Record the mean time per operation (ns) of a kernel that loops n times."""
    mean = mean_seconds(benchmark)
    if mean is None:
        return None
    ns = mean / n * 1e9
    benchmark.extra_info["ns_per_op"] = round(ns, 2)
    benchmark.extra_info["ops_per_s"] = round(1e9 / ns)
    return ns


def rate(benchmark, key, count):
    """Record ``count`` per second under ``key`` in the benchmark's extra info."""
    mean = mean_seconds(benchmark)
    if mean is not None:
        benchmark.extra_info[key] = round(count / mean)
