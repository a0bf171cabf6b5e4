"""7 Wonders as a PettingZoo AEC environment: PettingZoo's own checks, simultaneous turns asked
one seat after the other without showing a commitment to the others (W-TURN-1, W-INFO), the
Free City's controller asked twice (W-FREE), the same game from the same seed, bad input."""
from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test

from duelcore import seven as sv
from duelpy.seven.pettingzoo import (NUM_DECISION_ACTIONS, env, observation, observation_blocks,
                                     observation_size, raw_env)


@pytest.mark.parametrize("players", [2, 3, 7])
def test_pettingzoo_api_test(players):
    api_test(env(players), num_cycles=300)


def _play(players, seed, pick=lambda acts, rng: rng.choice(acts)):
    e = env(players)
    e.reset(seed=seed)
    rng = random.Random(seed)
    out = []
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        out.append((agent, obs["observation"].tobytes(), reward))
        e.step(None if term or trunc else int(pick(np.flatnonzero(obs["action_mask"]), rng)))
    return e, out


def test_the_same_seed_gives_the_same_game():
    _, a = _play(4, 9)
    _, b = _play(4, 9)
    assert a == b and len(a) > 4 * 18
    finals = [r for _, _, r in a[-4:]]
    assert abs(sum(finals) - 1.0) < 1e-9                # 1/k to each of k winners (W-END-2)


def test_a_commitment_is_not_shown_to_the_others_before_the_reveal():
    """W-TURN-1 / W-INFO: after player 0 commits, player 1's observation is the same whatever
    player 0 chose; player 0's own shows its commitment."""
    views = []
    for k in (0, -1):
        e = raw_env(3)
        e.reset(seed=5)
        assert e.agent_selection == "player_0"
        legal = np.flatnonzero(e.observe("player_0")["action_mask"])
        e.step(int(legal[k]))
        assert e.agent_selection == "player_1"
        views.append((e.observe("player_1")["observation"], e.observe("player_0")["observation"]))
    assert np.array_equal(views[0][0], views[1][0])
    assert not np.array_equal(views[0][1], views[1][1])


def test_the_free_city_controller_is_asked_twice():
    """W-FREE: at 2 players one player decides for the Free City (seat 2) each turn; the
    environment selects that player again, and its observation names the seat."""
    e = raw_env(2)
    e.reset(seed=2)
    st = e.game_state
    assert st.seats == 3
    order = []
    while len(order) < 3:
        agent = e.agent_selection
        obs = e.observe(agent)
        p = int(agent[-1])
        pos = {}
        at = 0
        for name, size in observation_blocks(2):
            pos[name] = at
            at += size
        deciding = np.flatnonzero(obs["observation"][pos["deciding_for"]:pos["deciding_for"] + 3])
        order.append((p, (int(deciding[0]) + p) % 3))
        e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert [seat for _, seat in order] == [0, 1, 2]
    controller = st.controller()
    assert order[2][0] == controller


def test_observation_is_what_the_player_may_see():
    """The vector counts the player's own hand; the other hands are not in it."""
    st = sv.new_state(3, seed=4)
    for p in range(3):
        v = observation(st, p)
        assert v.shape == (observation_size(3),)
        pos = 0
        for name, size in observation_blocks(3):
            if name == "hand":
                assert v[pos:pos + size].sum() == len(st.hand(p)) == 7
            pos += size
    with pytest.raises(ValueError, match="player must be from 0 to 2"):
        observation(st, 3)


def test_bad_input():
    with pytest.raises(ValueError, match="players must be 2 to 7"):
        raw_env(8)
    with pytest.raises(ValueError, match="unknown rule option 'side'"):
        raw_env(3, side="A")
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(3, render_mode="human")
    e = env(3, render_mode="ansi")
    e.reset(seed=2)
    before = e.unwrapped.game_state.to_dict()
    mask = e.observe(e.agent_selection)["action_mask"]
    with pytest.raises(sv.IllegalActionError):
        e.step(int(np.flatnonzero(mask == 0)[0]))
    with pytest.raises(sv.IllegalActionError):
        e.step(NUM_DECISION_ACTIONS)
    with pytest.raises(TypeError):
        e.step("build Loom")
    assert e.unwrapped.game_state.to_dict() == before
    assert "Age 1" in e.render()
