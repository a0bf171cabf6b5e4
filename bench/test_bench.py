"""Engine benchmarks (issue 4).  Run: python -m pytest bench  (see bench/README.md).

Every benchmark checks its result, so a fast wrong answer fails.  Speed is reported, never
asserted: compare runs with --benchmark-compare.
"""
import random

import numpy as np
import pytest

import duelcore
from duelcore import kernels, search
from duelpy.duel import benchmark as dbench

from conftest import per_op, rate

#: Signature of the first 10,000 random games of `duel bench` (seed 20261129).  Speed work must
#: leave it unchanged; a rule change updates it on purpose (say so in the commit message).
EXPECTED_SIGNATURE = "5d05e1e26d1fe576"


def test_state_copy(benchmark, mixed_states):
    n = 2_000_000
    got = benchmark.pedantic(kernels.copy_loop, (mixed_states, n), rounds=5)
    k = len(mixed_states)
    expect = sum(mixed_states[i % k].n_decisions for i in range(k)) * (n // k) + \
        sum(mixed_states[i].n_decisions for i in range(n % k))
    assert got == expect
    per_op(benchmark, n)


def test_legal_actions_age2(benchmark, age2_states):
    n = 1_000_000
    got = benchmark.pedantic(kernels.legal_loop, (age2_states, n), rounds=5)
    k = len(age2_states)
    counts = [len(s.legal_actions()) for s in age2_states]
    assert got == sum(counts) * (n // k) + sum(counts[: n % k])
    per_op(benchmark, n)


def test_cost_solver(benchmark, mixed_states):
    n = 100_000
    got = benchmark.pedantic(kernels.cost_loop, (mixed_states, n), rounds=5)
    k = len(mixed_states)
    costs = [sum(s.card_cost(s.current_player(), c)[0] for c in range(73)) +
             sum(s.wonder_cost(s.current_player(), w)[0] for w in range(12))
             for s in mixed_states]
    assert got == sum(costs) * (n // k) + sum(costs[: n % k])
    per_op(benchmark, n * 85)          # per cost query


def test_apply_action(benchmark, mixed_states):
    rnd = random.Random(4)
    actions = [rnd.choice(s.legal_actions()) for s in mixed_states]
    n = 1_000_000
    got = benchmark.pedantic(kernels.apply_loop, (mixed_states, actions, n), rounds=5)
    k = len(mixed_states)
    coins = []
    for s, a in zip(mixed_states, actions):
        t = duelcore.state_from_dict({**s.to_dict(), "options": {"explicit_chance": True}})
        t.apply_action(a)
        coins.append(t.coins(0) + t.coins(1))
    assert got == sum(coins) * (n // k) + sum(coins[: n % k])
    per_op(benchmark, n)               # copy + apply


def test_one_random_game(benchmark):
    seeds = np.array([12345], dtype=np.uint64)
    spec = {"kind": "random"}
    raw = benchmark(search.play_games, seeds, spec, spec)
    assert raw["n_decisions"][0] > 50 and raw["victory"][0] in (1, 2, 3, 4)
    per_op(benchmark, 1)


def test_random_games_batch(benchmark):
    res = benchmark.pedantic(dbench.random_games, (10_000,), rounds=3)
    assert res["signature"] == EXPECTED_SIGNATURE
    rate(benchmark, "games_per_s", 10_000)
    rate(benchmark, "decisions_per_s", res["decisions"])


@pytest.mark.parametrize("kind, options", [("mcts", {}), ("plan", {}),
                                           ("plan", {"policy": "hand"})],
                         ids=["mcts", "plan", "plan-hand"])
def test_mcts_decision(benchmark, kind, options):
    """One decision of 5,000 iterations: round-1 `mcts`, the planning search `plan` (fitted
    playout policy) and `plan:policy=hand`."""
    state = dbench.age1_opening(1)
    res = benchmark.pedantic(search.mcts_search, (state,),
                             {"iterations": 5000, "seed": 1, "kind": kind, **options},
                             rounds=5)
    assert res["iterations"] == 5000 and sum(res["visits"]) == 5000
    assert set(res["actions"]) <= set(state.legal_actions())
    rate(benchmark, "iterations_per_s", 5000)


def test_python_step(benchmark):
    """legal_actions() + apply_action() through the Python API, one random game."""
    def game():
        rnd = random.Random(99)
        s = duelcore.new_game(99)
        while not s.is_terminal():
            actions = s.legal_actions()
            s.apply_action(actions[rnd.randrange(len(actions))])
        return s

    s = benchmark(game)
    assert s.is_terminal() and s == game()
    rate(benchmark, "actions_per_s", s.n_decisions)


@pytest.mark.parametrize("jobs", [1, 2])
def test_random_games_workers(benchmark, jobs):
    res = benchmark.pedantic(dbench.random_games, (20_000,), {"jobs": jobs}, rounds=3)
    assert res["games"] == 20_000 and res["decisions"] > 20_000 * 50
    rate(benchmark, "games_per_s", 20_000)
