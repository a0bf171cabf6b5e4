"""The OpenSpiel-style game object and the observation tensor."""
import random

import numpy as np
import pytest

import duelcore
from duelpy.spiel import OBSERVATION_SIZE, load_game, observation_tensor


def test_game_object_plays_a_game_with_chance_nodes():
    game = load_game("duel")
    state = game.new_initial_state(5)
    rnd = random.Random(5)
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            assert len(actions) <= game.max_chance_outcomes()
            state.apply_action(rnd.choices(actions, probs)[0])
        else:
            decisions += 1
            assert max(state.legal_actions()) < game.num_decision_actions()
            state.apply_action(rnd.choice(state.legal_actions()))
    assert decisions <= game.max_game_length()
    assert sum(state.returns()) == game.utility_sum()
    assert game.num_players() == 2 and game.num_distinct_actions() == 1289


def test_max_game_length_bounds_random_games():
    game = load_game("duel", {"explicit_chance": False})
    for seed in range(200):
        s = game.new_initial_state(seed)
        while not s.is_terminal():
            s.apply_action(random.Random(seed * 1000 + s.n_decisions).choice(s.legal_actions()))
        assert s.n_decisions <= game.max_game_length()


def test_bad_game_names_and_parameters():
    with pytest.raises(ValueError, match="unknown game"):
        load_game("chess")
    with pytest.raises(ValueError, match="centred_pawn"):
        load_game("duel", {"centred_pawn": "sideways"})


def test_observation_is_public_and_perspective_aware():
    s = duelcore.new_game(3)
    rnd = random.Random(3)
    while s.n_decisions < 25:
        s.apply_action(rnd.choice(s.legal_actions()))
    o0, o1 = observation_tensor(s, 0), observation_tensor(s, 1)
    assert o0.shape == o1.shape == (OBSERVATION_SIZE,) and o0.dtype == np.float32
    assert not np.array_equal(o0, o1)            # each sees itself first
    # hidden information (the state's RNG, i.e. the face-down cards) changes nothing
    d = s.to_dict()
    d["rng"] = (d["rng"] + 12345) % 2 ** 64
    t = duelcore.state_from_dict(d)
    assert t != s and np.array_equal(observation_tensor(t, 0), o0)
    with pytest.raises(ValueError):
        observation_tensor(s, 2)
