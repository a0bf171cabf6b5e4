"""Interop benchmarks (issue 12): the cost of a clone and of a step from Python, for the core
state, the OpenSpiel state and the PettingZoo environment.  Run: python -m pytest bench.

Each benchmark times a loop over a pool of mid-game states and checks what the loop returns.
Per-operation times are in ``extra_info`` (``us_per_op``).  The target for a clone from Python
is 2 us.  A :class:`duelcore.State` clone is a 272-byte copy.  OpenSpiel's ``Clone`` of a Python
game's state costs more.  It calls the game's ``new_initial_state`` in Python, deep-copies each
attribute of the state (here only the core state) and copies the history vector.
"""
import copy
import random

import numpy as np
import pyspiel
import pytest

import duelpy.duel.openspiel  # noqa: F401  (registers "duel")
from duelpy.duel import pettingzoo as dpz


def _us_per_op(benchmark, n):
    stats = getattr(benchmark, "stats", None)
    if stats is not None:
        benchmark.extra_info["us_per_op"] = round(stats.stats.mean / n * 1e6, 3)


@pytest.fixture(scope="module")
def spiel_states():
    """100 OpenSpiel states from random games, 30 to 230 actions in (all Ages)."""
    game = pyspiel.load_game("duel")
    rng = random.Random(0)
    states = []
    while len(states) < 100:
        state = game.new_initial_state()
        stop = rng.randrange(30, 230)
        while not state.is_terminal() and len(state.history()) < stop:
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes())
                state.apply_action(rng.choices(actions, probs)[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            states.append(state)
    return states


def _clone_loop(states, clone, rounds):
    total = 0
    for _ in range(rounds):
        for s in states:
            total += clone(s).is_chance_node()
    return total


def _expected(states, rounds):
    return sum(s.is_chance_node() for s in states) * rounds


def test_core_state_clone(benchmark, spiel_states):
    """duelcore.State.clone() from Python (the 272-byte copy plus a new Python object)."""
    cores = [s.core() for s in spiel_states]
    rounds = 200
    got = benchmark.pedantic(_clone_loop, (cores, type(cores[0]).clone, rounds), rounds=5)
    assert got == _expected(cores, rounds)
    _us_per_op(benchmark, rounds * len(cores))


def test_openspiel_state_clone(benchmark, spiel_states):
    """DuelState.clone(): OpenSpiel's Clone of a Python game's state (history included)."""
    rounds = 20
    got = benchmark.pedantic(_clone_loop, (spiel_states, pyspiel.State.clone, rounds), rounds=5)
    assert got == _expected(spiel_states, rounds)
    twin = spiel_states[7].clone()
    assert twin.history() == spiel_states[7].history() and str(twin) == str(spiel_states[7])
    _us_per_op(benchmark, rounds * len(spiel_states))


def test_openspiel_state_deepcopy(benchmark, spiel_states):
    """copy.deepcopy(state), as Python algorithms write it (the same Clone)."""
    rounds = 20
    got = benchmark.pedantic(_clone_loop, (spiel_states, copy.deepcopy, rounds), rounds=5)
    assert got == _expected(spiel_states, rounds)
    _us_per_op(benchmark, rounds * len(spiel_states))


def test_openspiel_random_game(benchmark):
    """A whole random game through the OpenSpiel state: legal actions / chance outcomes and
    apply_action (which goes through OpenSpiel's C++ ApplyAction and keeps the history)."""
    game = pyspiel.load_game("duel")

    def play():
        rng = random.Random(3)
        state = game.new_initial_state()
        n = 0
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            n += 1
        return n, len(state.history()), state.returns()

    n, recorded, returns = benchmark.pedantic(play, rounds=5)
    assert recorded == n and sorted(returns) in ([-1.0, 1.0], [0.0, 0.0])
    _us_per_op(benchmark, n)


def test_pettingzoo_random_game(benchmark):
    """A whole game through the PettingZoo AEC API (masks and observations for each step)."""
    env = dpz.env()

    def play():
        env.reset(seed=1)
        rng = np.random.default_rng(1)
        n = 0
        for _ in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            n += 1
        return n

    n = benchmark.pedantic(play, rounds=5)
    assert n == play()
    _us_per_op(benchmark, n)
