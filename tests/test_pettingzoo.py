"""Issue 12: the PettingZoo AEC environment, checked by PettingZoo's own tests.

``pettingzoo.test.max_cycles_test`` does not apply: it needs a ``parallel_env`` and a
``max_cycles`` truncation, and this is a turn-based (AEC) game that always ends.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import duelcore
import duelpy
from duelpy.duel import pettingzoo as dpz


def test_pettingzoo_api_test():
    with warnings.catch_warnings():
        # dict observations with action masks are what PettingZoo's classic games use; the
        # API test only knows its own by name
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        warnings.filterwarnings("ignore", message="Observation space for each agent")
        api_test(dpz.env(), num_cycles=1000)


def test_pettingzoo_seed_test():
    seed_test(dpz.env, num_cycles=500)


def play(env, rng, until=None):
    """Step ``env`` with random legal actions (by the mask) until its game is over."""
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        if termination or truncation:
            env.step(None)
            continue
        if until is not None and until(env):
            return
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))


def test_a_whole_game_observations_masks_and_rewards():
    env = dpz.env(start_coins=(9, 7))
    env.reset(seed=3)
    assert env.unwrapped.game_state.coins(0) == 9
    rng = np.random.default_rng(0)
    finals = {}
    steps = 0
    for agent in env.agent_iter():
        obs, reward, termination, truncation, info = env.last()
        p = dpz.AGENTS.index(agent)
        state = env.unwrapped.game_state
        np.testing.assert_array_equal(obs["observation"], duelpy.observation_tensor(state, p))
        if termination or truncation:
            finals[agent] = reward
            env.step(None)
            continue
        assert state.current_player() == p
        assert list(np.flatnonzero(obs["action_mask"])) == state.legal_actions()
        other = env.observe(dpz.AGENTS[1 - p])
        assert not other["action_mask"].any()
        assert reward == 0
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
    assert state.is_terminal() and not env.agents
    assert [finals[a] for a in dpz.AGENTS] == state.returns()
    assert steps == state.n_decisions


def test_reset_seeds_the_game():
    def first_moves(env, seed):
        env.reset(seed=seed)
        out = []
        rng = np.random.default_rng(1)
        for agent in env.agent_iter(40):
            obs = env.last()[0]
            a = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            out.append((agent, a, obs["observation"].tobytes()))
            env.step(a)
        return out

    env = dpz.env()
    assert first_moves(env, 5) == first_moves(dpz.env(), 5)
    assert first_moves(env, 5) != first_moves(env, 6)
    env.reset(seed=5)
    a = env.unwrapped.game_state
    env.reset()                                   # the RNG goes on: another game
    assert env.unwrapped.game_state != a


def test_an_illegal_action_raises_and_changes_nothing():
    env = dpz.env()
    env.reset(seed=2)
    agent = env.agent_selection
    before = env.unwrapped.game_state
    illegal = next(a for a in range(dpz.NUM_DECISION_ACTIONS)
                   if not env.last()[0]["action_mask"][a])
    for bad in (illegal, dpz.NUM_DECISION_ACTIONS, -1):
        with pytest.raises(duelcore.IllegalActionError, match=f"illegal action {bad}"):
            env.step(bad)
    for bad in (None, "build", 2.0, True):
        with pytest.raises(TypeError, match="integer"):
            env.step(bad)
    assert env.unwrapped.game_state == before and env.agent_selection == agent
    assert env.rewards == {a: 0 for a in dpz.AGENTS}


def test_bad_options_are_named():
    with pytest.raises(ValueError, match="unknown rule option 'house_rule'"):
        dpz.env(house_rule=True)
    with pytest.raises(ValueError, match="centred_pawn"):
        dpz.env(centred_pawn="sideways")
    with pytest.raises(ValueError, match="render_mode"):
        dpz.env(render_mode="human")
    with pytest.raises(ValueError, match="explicit_chance"):
        dpz.env(explicit_chance=True)


def test_render_ansi_is_the_text_drawing():
    env = dpz.env(render_mode="ansi")
    env.reset(seed=4)
    text = env.render()
    assert text == duelpy.render_text(env.unwrapped.game_state)
    quiet = dpz.env()
    quiet.reset(seed=4)
    with pytest.warns(UserWarning, match="render_mode"):
        assert quiet.render() is None


def test_the_same_agent_is_selected_again_after_play_again():
    """R-WONDER-2: after a wonder with Play Again the same agent is selected again (the
    selection follows the core's player to move, checked in the whole-game test)."""
    env = dpz.env()
    play_again = {i for i, w in enumerate(duelcore.data.WONDERS) if w.play_again}
    base, per = duelcore.ACTION_LAYOUT["WONDER_BASE"], len(duelcore.data.CARDS)
    n_wonders = len(duelcore.data.WONDERS)
    for seed in range(30):
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in env.agent_iter():
            obs, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            wonder = (action - base) // per if 0 <= action - base < n_wonders * per else None
            state = env.unwrapped.game_state
            if wonder in play_again and state.phase == "play":
                assert env.agent_selection == agent
                return
    raise AssertionError("no Play Again in 30 random games")
