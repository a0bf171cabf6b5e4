"""7 Wonders Architects in OpenSpiel and PettingZoo: OpenSpiel's and PettingZoo's own checks,
an information state that hides what A-INFO hides (the central top from a seat that did not
look, a Halicarnassus window from the other seats), parameters and bad input."""
from __future__ import annotations

import copy
import json
import random

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test

from duelcore.architects import engine as core
from duelpy.architects import openspiel as aos
from duelpy.architects import spiel
from duelpy.architects.pettingzoo import NUM_DECISION_ACTIONS, env, raw_env


def random_state(game, rng, stop=None):
    """Random decisions and chance outcomes (by their probabilities) until ``stop(state)`` or
    the end."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if stop is not None and stop(state):
            break
        if state.is_chance_node():
            actions, probs = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, probs)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("params", [
    {}, {"players": 4, "free_order": True}, {"players": 7, "wonder_power_optional": True},
    {"players": 3, "wonders": "Halicarnassus;Giza;Babylon", "removed_tokens": "Economy;Science",
     "economy_forces_build": False, "coins_only_when_needed": True},
])
def test_openspiel_random_sim_test(params):
    """OpenSpiel's own random-simulation test: legal actions, chance outcomes summing to 1,
    returns, clones and observations along whole games."""
    game = pyspiel.load_game("architects", params)
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_game_declares_what_it_is():
    game = pyspiel.load_game("architects(players=5)")
    t = game.get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert t.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert t.utility == pyspiel.GameType.Utility.CONSTANT_SUM
    assert game.num_players() == 5 and game.num_distinct_actions() == core.NUM_DECISION_ACTIONS
    assert game.max_chance_outcomes() == core.NUM_ACTIONS - core.NUM_DECISION_ACTIONS
    assert game.observation_tensor_shape() == [spiel.observation_size(5)]
    assert game.information_state_tensor_shape() == [spiel.observation_size(5)]


@pytest.mark.parametrize("players", [2, 7])
def test_whole_games_stay_within_the_declared_bounds(players):
    """Random games: the returns are 1/k to k winners and sum to 1 (A-END-4); decisions and
    chance nodes stay under the bounds the game declares."""
    game = pyspiel.load_game("architects", {"players": players})
    rng = random.Random(players)
    for _ in range(20):
        state = random_state(game, rng)
        r = state.returns()
        assert abs(sum(r) - 1.0) < 1e-9 and max(r) > 0
        winners = [i for i, x in enumerate(r) if x > 0]
        assert all(abs(r[i] - 1 / len(winners)) < 1e-9 for i in winners)
        history = state.full_history()
        decisions = sum(1 for h in history if h.player >= 0)
        assert decisions <= game.max_game_length()
        assert len(history) - decisions <= game.max_chance_nodes_in_history()


def _looked_state(players=2, seed=0):
    """A state in which the cat holder knows the central top and another seat does not."""
    game = pyspiel.load_game("architects", {"players": players})
    rng = random.Random(seed)
    for _ in range(200):
        state = random_state(game, rng, stop=lambda s: (
            not s.is_chance_node() and s.core().central_top() is not None
            and len(s.core().knowers()) == 1))
        if not state.is_terminal():
            return game, state
    raise AssertionError("no look in 200 games")


def _with_central_top(core_state, kind):
    """The same position with another central top card (A-INFO-2: what a non-knower cannot
    tell apart)."""
    d = core_state.to_dict()
    c = d["central"]
    c["under"][c["top"]] = c["under"].get(c["top"], 0) + 1
    c["under"][kind] -= 1
    if not c["under"][kind]:
        del c["under"][kind]
    c["top"] = kind
    return core.state_from_dict(d)


def test_information_state_hides_the_central_top_from_who_did_not_look():
    """A-INFO-2: two positions that differ only in a looked-at central top give the same
    information state (string and tensor) to a seat that did not look, different ones to the
    seat that did; the public observer hides it from both."""
    game, state = _looked_state()
    c = state.core()
    knower = c.knowers()[0]
    other = 1 - knower
    top = c.central_top()
    kind = next(k for k, n in c.to_dict()["central"]["under"].items() if n and k != top)
    twin = game.new_initial_state()
    twin._s = _with_central_top(c, kind)
    assert state.information_state_string(other) == twin.information_state_string(other)
    assert state.information_state_tensor(other) == twin.information_state_tensor(other)
    assert state.observation_string(other) == twin.observation_string(other)
    assert state.information_state_string(knower) != twin.information_state_string(knower)
    assert state.information_state_tensor(knower) != twin.information_state_tensor(knower)
    assert top not in json.dumps(json.loads(state.information_state_string(other))["central"]
                                 ["top"])
    public = game.make_py_observer(pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE))
    assert public.string_from(state, knower) == public.string_from(twin, knower)
    everything = game.make_py_observer(pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True,
        private_info=pyspiel.PrivateInfoType.ALL_PLAYERS))
    assert everything.string_from(state, other) != everything.string_from(twin, other)


def test_the_central_make_up_stays_exact_for_who_did_not_look():
    """The hidden top goes back into the central make-up: the card counts a seat sees add
    up, looked at or not (A-INFO-1: the make-up is public)."""
    game, state = _looked_state(players=3, seed=4)
    c = state.core()
    d = c.to_dict()["central"]
    for seat in range(3):
        view = spiel.public_view(c, seat)["central"]
        seen = sum(view["under"].values()) + (view["top"] is not None)
        assert seen == sum(d["under"].values()) + 1
        assert (view["top"] is not None) == (seat in d["knowers"])


def test_a_halicarnassus_window_is_the_keepers_alone():
    """A-INFO-3: the window's cards are in the keeper's view only; the others see its size
    and the deck's make-up with the window's cards in it."""
    rng = random.Random(3)
    for seed in range(100):
        s = core.new_state(2, seed=seed, explicit_chance=True,
                           wonders=["Halicarnassus", "Giza"])
        while not s.is_terminal():
            if not s.is_chance_node() and s.phase == "hali_keep":
                keeper = s.active
                mine, theirs = spiel.public_view(s, keeper), spiel.public_view(s, 1 - keeper)
                assert mine["window"]["cards"] and not theirs["window"]["cards"]
                assert theirs["window"]["size"] == sum(mine["window"]["cards"].values())
                deck = mine["window"]["deck"]
                for kind, n in mine["window"]["cards"].items():
                    assert (theirs["decks"][deck]["under"].get(kind, 0)
                            == mine["decks"][deck]["under"].get(kind, 0) + n)
                return
            if s.is_chance_node():
                acts, probs = zip(*s.chance_outcomes())
                s.apply_action(rng.choices(acts, probs)[0])
            else:
                s.apply_action(rng.choice(s.legal_actions()))
    raise AssertionError("no Halicarnassus keep in 100 games")


@pytest.mark.parametrize("params, words", [
    ({"players": 9}, ["players must be 2 to 7", "9"]),
    ({"players": "3"}, ["players must be a int"]),
    ({"wonders": "Giza"}, ["1 entries for 2 players"]),
    ({"wonders": "Giza;;"}, ["3 entries for 2 players"]),
    ({"wonders": "Giza;Rhodos"}, ["unknown wonder 'Rhodos'", "did you mean 'Rhodes'"]),
    ({"removed_tokens": "Economyy"}, ["unknown progress token 'Economyy'", "'Economy'"]),
    ({"free_ordr": True}, ["unknown architects game parameter 'free_ordr'", "'free_order'"]),
])
def test_bad_parameters_are_named(params, words):
    with pytest.raises(ValueError) as e:
        aos.ArchitectsGame(params)
    for w in words:
        assert w in str(e.value), str(e.value)


def test_a_wonder_list_may_leave_seats_at_random():
    game = pyspiel.load_game("architects", {"players": 3, "wonders": "Giza;;Rhodes"})
    assert game.rule_options["wonders"] == ["Giza", None, "Rhodes"]
    state = random_state(game, random.Random(2))
    assert state.core().wonder(0) == "Giza" and state.core().wonder(2) == "Rhodes"


def test_load_game_refuses_an_unknown_parameter():
    with pytest.raises(pyspiel.SpielError, match="free_ordr"):
        pyspiel.load_game("architects(free_ordr=true)")


def test_an_illegal_action_leaves_the_state_unchanged():
    game = pyspiel.load_game("architects")
    state = random_state(game, random.Random(1), stop=lambda s: len(s.history()) > 30
                         and not s.is_chance_node())
    before, history = str(state), list(state.history())
    illegal = next(a for a in range(aos.NUM_DECISIONS) if a not in state.legal_actions())
    for bad in (illegal, aos.NUM_DECISIONS + 3, -1):
        with pytest.raises(core.IllegalActionError):
            state.apply_action(bad)
        assert str(state) == before and state.history() == history
    with pytest.raises(TypeError):
        state.apply_action("take left")
    clone = copy.deepcopy(state)
    assert str(clone) == before and clone.history() == history


# ---------------------------------------------------------------- PettingZoo
@pytest.mark.parametrize("players", [2, 4, 7])
def test_pettingzoo_api_test(players):
    api_test(env(players), num_cycles=300)


def test_pettingzoo_same_seed_same_game():
    """reset(seed) then the same actions: the same observations and rewards; each seat's
    observation is spiel.observation of its seat."""
    def play(seed):
        e = env(3)
        e.reset(seed=seed)
        out = []
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            out.append((agent, obs["observation"].tobytes(), reward))
            e.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[-1]))
        return out
    a, b = play(5), play(5)
    assert a == b and len(a) > 30
    rewards = [r for _, _, r in a[-3:]]
    assert abs(sum(rewards) - 1.0) < 1e-9


def test_pettingzoo_bad_input():
    with pytest.raises(ValueError, match="players must be 2 to 7"):
        raw_env(9)
    with pytest.raises(ValueError, match="unknown rule option 'free_ordr'"):
        raw_env(2, free_ordr=True)
    with pytest.raises(ValueError, match="render_mode"):
        raw_env(2, render_mode="human")
    e = env(2, render_mode="ansi")
    e.reset(seed=2)
    obs = e.observe(e.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = e.unwrapped.game_state.to_dict()
    with pytest.raises(core.IllegalActionError):
        e.step(illegal)
    with pytest.raises(core.IllegalActionError):
        e.step(NUM_DECISION_ACTIONS)
    with pytest.raises(TypeError):
        e.step("take left")
    assert e.unwrapped.game_state.to_dict() == before
    assert "Wonder" in e.render() or "wonder" in e.render()
